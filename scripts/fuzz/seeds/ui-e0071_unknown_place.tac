on enter kDok PlaySound(kSeagullSnd);
