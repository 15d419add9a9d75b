on encounter say one of [];
