//! The generated families of hostile scripts (issue 33), shared by `tests/sandbox_families.rs`,
//! which plays them and checks what a sandbox promises, and `benches/hostile.rs`, which times
//! their worst tick: one Lua case for every function of `string`, `table`, `utf8` and `math` and
//! for the work Lua does inside one instruction; one Rhai case for every function that takes an
//! array, a map or a string, and for Rhai's operators and statements on them.

/// A Lua case: the library and function it exercises, a name for its variant, the seed of its
/// string `s` (grown 4× a tick to 1 MiB), the expression for element `i` of its table `t`
/// (grown 4× a tick to 65,536 elements), code run once a tick before the loop, and the call
/// looped until the call is stopped.
pub struct LuaCase {
    pub lib: &'static str,
    pub func: &'static str,
    pub variant: &'static str,
    pub seed: &'static str,
    pub item: &'static str,
    pub prep: &'static str,
    pub call: &'static str,
}

pub const fn lua(lib: &'static str, func: &'static str, variant: &'static str, call: &'static str) -> LuaCase {
    LuaCase { lib, func, variant, seed: "\"abcd\"", item: "i", prep: "", call }
}

impl LuaCase {
    const fn seed(mut self, seed: &'static str) -> Self {
        self.seed = seed;
        self
    }
    const fn item(mut self, item: &'static str) -> Self {
        self.item = item;
        self
    }
    const fn prep(mut self, prep: &'static str) -> Self {
        self.prep = prep;
        self
    }

    pub fn file(&self) -> String {
        let clean = |s: &str| s.chars().map(|c| if c.is_alphanumeric() { c } else { '_' }).collect::<String>();
        format!("{}_{}_{}.lua", self.lib, self.func, clean(self.variant))
    }

    pub fn source(&self) -> String {
        format!(
            r#"-- {lib}.{func} ({variant}): its inputs grow 4x a tick to the caps; each call loops on it.
local STR_CAP, TAB_CAP = 1048576, 65536
function on_think()
  if s == nil then s, t, m = {seed}, {{}}, 16 end
  if #s * 4 <= STR_CAP then s = s .. s .. s .. s end
  if m * 4 <= TAB_CAP then m = m * 4 end
  for i = #t + 1, m do t[i] = {item} end
  {prep}
  while true do
    {call}
  end
end
"#,
            lib = self.lib,
            func = self.func,
            variant = self.variant,
            seed = self.seed,
            item = self.item,
            prep = self.prep,
            call = self.call,
        )
    }
}

/// Every function of `string`, `table`, `utf8` and `math`, with inputs that make it work hard.
pub fn lua_library_cases() -> Vec<LuaCase> {
    vec![
        lua("string", "byte", "all", "string.byte(s, 1, -1)"),
        lua("string", "char", "many", "string.char(table.unpack(t))").item("65 + i % 26"),
        lua("string", "find", "plain", "string.find(s, \"zz\", 1, true)"),
        lua("string", "find", "class", "string.find(s, \"[\" .. string.rep(\"xy\", 500) .. \"]\")"),
        lua("string", "find", "greedy", "string.find(s, \"a.*z\")"),
        lua("string", "find", "lazy", "string.find(s, \"a.-z\")"),
        lua("string", "find", "balance", "string.find(s, \"%b()\")").seed("\"((((\""),
        lua("string", "find", "frontier", "string.find(s, \"%f[%a]%a+z\")").seed("\"ab c\""),
        lua("string", "find", "anchor", "string.find(s, \"^a.*z$\")"),
        lua("string", "find", "backref", "string.find(s, \"(a+)%1z\")").seed("\"aaaa\""),
        lua("string", "find", "capture", "string.find(s, \"(.*)\")"),
        lua("string", "format", "string", "string.format(\"%s%s\", s, s)"),
        lua("string", "format", "quoted", "string.format(\"%q\", s)").seed("\"a\\n\\0\\\"\""),
        lua("string", "format", "items", "string.format(f, table.unpack(t))").prep("local f = string.rep(\"%d\", #t)"),
        lua("string", "gmatch", "words", "for w in string.gmatch(s, \"%a+\") do end").seed("\"ab c\""),
        lua("string", "gmatch", "empty", "for p in string.gmatch(s, \"()\") do end"),
        lua("string", "gsub", "string", "string.gsub(s, \"a\", \"%0%0\")"),
        lua("string", "gsub", "function", "string.gsub(s, \"%w\", function(c) return c end)"),
        lua("string", "gsub", "table", "string.gsub(s, \"%w\", { a = \"bb\" })"),
        lua("string", "gsub", "huge", "string.gsub(s, \"a\", s)"),
        lua("string", "gsub", "anchor", "string.gsub(s, \"^a\", \"b\")"),
        lua("string", "len", "long", "string.len(s)"),
        lua("string", "lower", "long", "string.lower(s)"),
        lua("string", "match", "greedy", "string.match(s, \"(a*)z\")").seed("\"aaaa\""),
        lua("string", "pack", "string", "string.pack(\"s4\", s)"),
        lua("string", "pack", "fixed", "string.pack(\"c\" .. #s, s)"),
        lua("string", "pack", "padding", "pcall(string.pack, \"c2000000000\", \"\")"),
        lua("string", "pack", "items", "string.pack(f, table.unpack(t))").prep("local f = string.rep(\"i4\", #t)"),
        lua("string", "packsize", "items", "string.packsize(f)").prep("local f = string.rep(\"i8\", #t)"),
        lua("string", "rep", "separated", "string.rep(s, 8, s)"),
        lua("string", "reverse", "long", "string.reverse(s)"),
        lua("string", "sub", "long", "string.sub(s, 2, -2)"),
        lua("string", "unpack", "string", "string.unpack(\"s4\", p)").prep("local p = string.pack(\"s4\", s)"),
        lua("string", "unpack", "zero", "pcall(string.unpack, \"z\", s)"),
        lua("string", "unpack", "items", "pcall(string.unpack, f, s)").prep("local f = string.rep(\"B\", #t)"),
        lua("string", "upper", "long", "string.upper(s)"),
        lua("table", "concat", "separated", "table.concat(t, s)").item("\"xyz\""),
        lua("table", "concat", "plain", "table.concat(t)").item("\"xyz\""),
        lua("table", "insert", "front", "table.insert(t, 1, 0); table.remove(t, 1)"),
        lua("table", "move", "copy", "table.move(t, 1, #t, 1, {})"),
        lua("table", "pack", "many", "table.pack(table.unpack(t))"),
        lua("table", "remove", "front", "table.remove(t, 1); table.insert(t, 1, 0)"),
        lua("table", "sort", "compare", "table.sort(t, function(a, b) return a > b end)"),
        lua("table", "sort", "plain", "table.sort(t)").item("(i * 7919) % 1000"),
        lua("table", "unpack", "many", "select(\"#\", table.unpack(t))"),
        lua("utf8", "char", "many", "utf8.char(table.unpack(t))").item("0x1F600 + i % 16"),
        lua("utf8", "codepoint", "all", "utf8.codepoint(s, 1, -1)").seed("\"a\\u{e9}\\u{20ac}\\u{1d11e}\""),
        lua("utf8", "codes", "all", "for _, c in utf8.codes(s) do end").seed("\"a\\u{e9}\\u{20ac}\""),
        lua("utf8", "codes", "continuations", "pcall(f, s, 0)")
            .seed("\"\\128\\128\\128\\128\"")
            .prep("local f = utf8.codes(\"x\")"),
        lua("utf8", "len", "all", "utf8.len(s)").seed("\"a\\u{e9}\\u{20ac}\""),
        lua("utf8", "offset", "last", "utf8.offset(s, -1)").seed("\"a\\u{e9}\\u{20ac}\""),
        lua("utf8", "offset", "far", "utf8.offset(s, #s)").seed("\"a\\u{e9}\\u{20ac}\""),
        lua("math", "abs", "number", "math.abs(-1.5)"),
        lua("math", "acos", "number", "math.acos(0.5)"),
        lua("math", "asin", "number", "math.asin(0.5)"),
        lua("math", "atan", "number", "math.atan(1, 2)"),
        lua("math", "ceil", "number", "math.ceil(1.5)"),
        lua("math", "cos", "number", "math.cos(1.5)"),
        lua("math", "deg", "number", "math.deg(1.5)"),
        lua("math", "exp", "number", "math.exp(1.5)"),
        lua("math", "floor", "number", "math.floor(1.5)"),
        lua("math", "fmod", "number", "math.fmod(7, 3)"),
        lua("math", "log", "number", "math.log(8, 2)"),
        lua("math", "max", "many", "math.max(table.unpack(t))"),
        lua("math", "min", "many", "math.min(table.unpack(t))"),
        lua("math", "modf", "number", "math.modf(1.5)"),
        lua("math", "rad", "number", "math.rad(90)"),
        lua("math", "random", "interval", "math.random(1, 6)"),
        lua("math", "randomseed", "seeded", "math.randomseed(7); math.random()"),
        lua("math", "sin", "number", "math.sin(1.5)"),
        lua("math", "sqrt", "number", "math.sqrt(2)"),
        lua("math", "tan", "number", "math.tan(1.5)"),
        lua("math", "tointeger", "long string", "math.tointeger(s)").seed("\"1234\""),
        lua("math", "type", "number", "math.type(1)"),
        lua("math", "ult", "number", "math.ult(1, 2)"),
        // Lua 5.3's functions, which this build keeps (`LUA_COMPAT_MATHLIB`).
        lua("math", "atan2", "number", "math.atan2(1, 2)"),
        lua("math", "cosh", "number", "math.cosh(1.5)"),
        lua("math", "frexp", "number", "math.frexp(1.5)"),
        lua("math", "ldexp", "number", "math.ldexp(1.5, 3)"),
        lua("math", "log10", "number", "math.log10(1.5)"),
        lua("math", "pow", "number", "math.pow(1.5, 2)"),
        lua("math", "sinh", "number", "math.sinh(1.5)"),
        lua("math", "tanh", "number", "math.tanh(1.5)"),
    ]
}

/// The work Lua does inside one instruction, and the base library's functions over big values.
pub fn lua_vm_cases() -> Vec<LuaCase> {
    let vm = |variant, call| lua("vm", "op", variant, call);
    vec![
        vm("concat", "local x = s .. s"),
        vm("index chain", "local x = chain.missing")
            .prep("chain = {}; for i = 1, 1999 do chain = setmetatable({}, { __index = chain }) end"),
        vm("newindex chain", "chain.missing = nil")
            .prep("chain = {}; for i = 1, 1999 do chain = setmetatable({}, { __newindex = chain }) end"),
        vm("call chain", "pcall(callee)").prep("callee = setmetatable({}, {}); getmetatable(callee).__call = callee"),
        vm("eq metamethod", "local x = (e1 == e2)").prep(
            "local mt = { __eq = function() return true end }; e1, e2 = setmetatable({}, mt), setmetatable({}, mt)",
        ),
        vm("len metamethod", "local x = #lenny").prep("lenny = setmetatable({}, { __len = function() return #s end })"),
        vm("concat metamethod", "local x = cat .. s")
            .prep("cat = setmetatable({}, { __concat = function(a, b) return 1 end })"),
        vm("long equality", "local x = (s == s2)").prep("s2 = string.sub(s, 1)"),
        vm("long ordering", "local x = (s < s2)").prep("s2 = string.sub(s, 1)"),
        vm("long key", "local x = keyed[s2]").prep("s2 = string.sub(s, 1); keyed = { [s] = 1 }"),
        vm("varargs", "local n = count(table.unpack(t))").prep("count = function(...) return select(\"#\", ...) end"),
        vm("returns", "local a, b = unpacked()").prep("unpacked = function() return table.unpack(t) end"),
        vm("tostring name", "pcall(tostring, named)").prep("named = setmetatable({}, { __name = s })"),
        vm("error name", "pcall(string.rep, named, 1)").prep("named = setmetatable({}, { __name = s })"),
        vm("next emptied", "next(emptied)")
            .prep("emptied = {}; for i = 1, #t do emptied[i] = i end; for i = 1, #t do emptied[i] = nil end"),
        vm("rehash churn", "full[k] = nil; k = k + 1; full[k] = true")
            .prep("full, k = {}, 0; for i = 1, 1023 do full[-i] = true end"),
        vm("memory churn", "pcall(string.rep, s, 1000000)"),
        vm("coroutine values", "coroutine.wrap(function(...) return ... end)(table.unpack(t))"),
        vm("number coercion", "pcall(function() return s + 1 end)").seed("\"1234\""),
        vm("tonumber", "tonumber(s)").seed("\"1234\""),
        vm("tonumber base", "tonumber(s, 36)").seed("\"zzzz\""),
        vm("rawequal", "rawequal(s, s2)").prep("s2 = string.sub(s, 1)"),
        vm("error message", "pcall(error, s)"),
        vm("select", "select(-1, table.unpack(t))"),
    ]
}

/// A Rhai case: the type of the first argument of the function it exercises (`array`, `map`,
/// `string`, or `op` for operators and statements), the function's name as the engine lists it,
/// a name for its variant, and the statement looped until the call is stopped. Each call builds
/// a string `s` (4× a tick, to the 1 MiB string cap), an array `a` (to the collection cap) and a
/// map `m` (to 16,384 entries), which costs most of the call's budget at the largest sizes.
pub struct RhaiCase {
    pub ty: &'static str,
    pub func: &'static str,
    pub variant: &'static str,
    pub call: &'static str,
}

pub const fn rhai(ty: &'static str, func: &'static str, variant: &'static str, call: &'static str) -> RhaiCase {
    RhaiCase { ty, func, variant, call }
}

impl RhaiCase {
    pub fn file(&self) -> String {
        // Operators are spelled out: `==` and `!=` would both clean to `__`.
        let spelled = |s: &str| {
            s.chars()
                .map(|c| match c {
                    '=' => "eq".to_owned(),
                    '!' => "not".to_owned(),
                    '+' => "plus".to_owned(),
                    '-' => "minus".to_owned(),
                    '<' => "lt".to_owned(),
                    '$' => "prop_".to_owned(),
                    c if c.is_alphanumeric() => c.to_string(),
                    _ => "_".to_owned(),
                })
                .collect::<String>()
        };
        format!("{}_{}_{}.rhai", self.ty, spelled(self.func), spelled(self.variant))
    }

    pub fn source(&self) -> String {
        format!(
            r#"// {ty} {func} ({variant}): its inputs grow 4x a tick to the caps; each call loops on it.
fn on_think() {{
    if this.k == () {{ this.k = 0; }}
    this.k += 1;
    let n = 16;
    let items = 16;
    let keys = 16;
    for i in 0..this.k {{
        if n * 4 <= 1048576 {{ n *= 4; }}
        if items * 4 <= 100000 {{ items *= 4; }} else {{ items = 100000; }}
        if keys * 4 <= 16384 {{ keys *= 4; }}
    }}
    let s = "abcdabcdabcdabcd";
    while s.bytes < n {{ s += s; }}
    let a = [];
    a.pad(items, 1);
    let m = #{{}};
    for i in 0..keys {{ m["k" + i] = i; }}
    let f = |x| x;
    loop {{
        {call};
    }}
}}
"#,
            ty = self.ty,
            func = self.func,
            variant = self.variant,
            call = self.call,
        )
    }
}

/// Every Rhai function that takes an array, a map or a string first, with inputs that make it
/// work hard, and the operators and statements that work on them.
pub fn rhai_cases() -> Vec<RhaiCase> {
    let (ar, mp, st, op) = ("array", "map", "string", "op");
    vec![
        rhai(ar, "!=", "self", "a != a"),
        rhai(ar, "+", "self", "a + a"),
        rhai(ar, "==", "self", "a == a"),
        rhai(ar, "all", "true", "a.all(|x| true)"),
        rhai(ar, "append", "self", "a.append(a)"),
        rhai(ar, "chop", "one", "a.chop(1); a.push(1)"),
        rhai(ar, "clear", "copy", "let c = a; c.clear()"),
        rhai(ar, "contains", "missing", "a.contains(-1)"),
        rhai(ar, "debug", "all", "debug(a)"),
        rhai(ar, "dedup", "copy", "let c = a; c.dedup()"),
        rhai(ar, "drain", "front", "a.drain(0, 1); a.push(1)"),
        rhai(ar, "drain", "none", "a.drain(|x| false)"),
        rhai(ar, "extract", "tail", "a.extract(1)"),
        rhai(ar, "filter", "all", "a.filter(|x| true)"),
        rhai(ar, "find", "none", "a.find(|x| false)"),
        rhai(ar, "find_map", "none", "a.find_map(|x| ())"),
        rhai(ar, "for_each", "all", "a.for_each(|x| {})"),
        rhai(ar, "get", "last", "a.get(-1)"),
        rhai(ar, "get$is_empty", "property", "a.is_empty"),
        rhai(ar, "get$len", "property", "a.len"),
        rhai(ar, "index_of", "missing", "a.index_of(-1)"),
        rhai(ar, "index_of", "filter", "a.index_of(|x| false, 0)"),
        rhai(ar, "insert", "front", "a.insert(0, 1); a.pop()"),
        rhai(ar, "is_empty", "call", "a.is_empty()"),
        rhai(ar, "len", "call", "a.len()"),
        rhai(ar, "map", "all", "a.map(|x| x)"),
        rhai(ar, "order", "builtin", "a.order()"),
        rhai(ar, "order_by", "compare", "a.order_by(|x, y| 0)"),
        rhai(ar, "order_desc", "builtin", "a.order_desc()"),
        rhai(ar, "pad", "grow", "a.pad(a.len() + 1, 1)"),
        rhai(ar, "pop", "again", "a.pop(); a.push(1)"),
        rhai(ar, "print", "all", "print(a)"),
        rhai(ar, "push", "grow", "a.push(1)"),
        rhai(ar, "reduce", "all", "a.reduce(|s, x| 0, 0)"),
        rhai(ar, "reduce_rev", "all", "a.reduce_rev(|s, x| 0, 0)"),
        rhai(ar, "remove", "front", "a.remove(0); a.push(1)"),
        rhai(ar, "retain", "all", "a.retain(|x| true)"),
        rhai(ar, "retain", "range", "a.retain(0, a.len())"),
        rhai(ar, "reverse", "all", "a.reverse()"),
        rhai(ar, "set", "last", "a.set(-1, 2)"),
        rhai(ar, "shift", "front", "a.shift(); a.push(1)"),
        rhai(ar, "some", "none", "a.some(|x| false)"),
        rhai(ar, "sort", "builtin", "a.sort()"),
        rhai(ar, "sort", "compare", "a.sort(|x, y| 0)"),
        rhai(ar, "sort_by", "compare", "a.sort_by(|x, y| 0)"),
        rhai(ar, "sort_desc", "builtin", "a.sort_desc()"),
        rhai(ar, "splice", "front", "a.splice(0, 1, [1])"),
        rhai(ar, "split", "half", "let c = a; c.split(c.len() / 2)"),
        rhai(ar, "to_debug", "all", "a.to_debug()"),
        rhai(ar, "to_string", "all", "a.to_string()"),
        rhai(ar, "truncate", "none", "a.truncate(a.len())"),
        rhai(ar, "zip", "self", "a.zip(a, |x, y| x)"),
        rhai(mp, "!=", "self", "m != m"),
        rhai(mp, "+", "self", "m + m"),
        rhai(mp, "+=", "copy", "let c = m; c += m"),
        rhai(mp, "==", "self", "m == m"),
        rhai(mp, "clear", "copy", "let c = m; c.clear()"),
        rhai(mp, "contains", "long key", "m.contains(s)"),
        rhai(mp, "debug", "all", "debug(m)"),
        rhai(mp, "drain", "none", "m.drain(|k, v| false)"),
        rhai(mp, "fill_with", "copy", "let c = #{}; c.fill_with(m)"),
        rhai(mp, "filter", "all", "m.filter(|k, v| true)"),
        rhai(mp, "get", "long key", "m.get(s)"),
        rhai(mp, "is_empty", "call", "m.is_empty()"),
        rhai(mp, "keys", "all", "m.keys()"),
        rhai(mp, "len", "call", "m.len()"),
        rhai(mp, "map", "all", "m.map(|k, v| v)"),
        rhai(mp, "mixin", "copy", "let c = #{}; c.mixin(m)"),
        rhai(mp, "print", "all", "print(m)"),
        rhai(mp, "remove", "long key", "m.remove(s)"),
        rhai(mp, "retain", "all", "m.retain(|k, v| true)"),
        rhai(mp, "set", "long key", "m.set(s, 1)"),
        rhai(mp, "to_debug", "all", "m.to_debug()"),
        rhai(mp, "to_json", "all", "m.to_json()"),
        rhai(mp, "to_string", "all", "m.to_string()"),
        rhai(mp, "values", "all", "m.values()"),
        rhai(st, "+", "string", "s + s"),
        rhai(st, "+", "array", "s + a"),
        rhai(st, "+", "map", "s + m"),
        rhai(st, "+=", "grow", "s += s"),
        rhai(st, "+=", "array", "let c = \"\"; c += a"),
        rhai(st, "append", "array", "let c = \"\"; c.append(a)"),
        rhai(st, "bytes", "call", "s.bytes()"),
        rhai(st, "chars", "all", "for c in s.chars() {}"),
        rhai(st, "chars", "range", "s.chars(s.len() - 1, 1)"),
        rhai(st, "clear", "copy", "let c = s; c.clear()"),
        rhai(st, "contains", "missing", "s.contains(\"zz\")"),
        rhai(st, "contains", "char", "s.contains('z')"),
        rhai(st, "crop", "half", "let c = s; c.crop(s.len() / 2)"),
        rhai(st, "debug", "all", "debug(s)"),
        rhai(st, "ends_with", "self", "s.ends_with(s)"),
        rhai(st, "get", "last", "s.get(-1)"),
        rhai(st, "get$bytes", "property", "s.bytes"),
        rhai(st, "get$chars", "property", "for c in s.chars {}"),
        rhai(st, "get$is_empty", "property", "s.is_empty"),
        rhai(st, "get$len", "property", "s.len"),
        rhai(st, "get_fn_metadata_list", "long name", "get_fn_metadata_list(s)"),
        rhai(st, "index_of", "missing", "s.index_of(\"zz\")"),
        rhai(st, "index_of", "from", "s.index_of(\"zz\", 1)"),
        rhai(st, "index_of", "char from", "s.index_of('z', 1)"),
        rhai(st, "is_empty", "call", "s.is_empty()"),
        rhai(st, "len", "call", "s.len()"),
        rhai(st, "make_lower", "copy", "let c = s; c.make_lower()"),
        rhai(st, "make_upper", "copy", "let c = s; c.make_upper()"),
        rhai(st, "max", "self", "max(s, s)"),
        rhai(st, "min", "self", "min(s, s)"),
        rhai(st, "pad", "grow", "let c = s; c.pad(s.len() + 16, \"xy\")"),
        rhai(st, "parse_float", "long", "parse_float(s)"),
        rhai(st, "parse_int", "long", "parse_int(s)"),
        rhai(st, "parse_json", "long", "parse_json(s)"),
        rhai(st, "pop", "many", "let c = s; c.pop(100)"),
        rhai(st, "print", "all", "print(s)"),
        rhai(st, "remove", "missing", "let c = s; c.remove(\"zz\")"),
        rhai(st, "replace", "huge", "let c = s; c.replace(\"a\", s)"),
        rhai(st, "replace", "char", "let c = s; c.replace('a', 'b')"),
        rhai(st, "set", "last", "let c = s; c.set(-1, 'z')"),
        rhai(st, "split", "missing", "s.split(\"zz\")"),
        rhai(st, "split", "every", "s.split(\"\")"),
        rhai(st, "split_rev", "all", "s.split_rev(\"a\")"),
        rhai(st, "starts_with", "self", "s.starts_with(s)"),
        rhai(st, "sub_string", "half", "s.sub_string(s.len() / 2)"),
        rhai(st, "to_blob", "all", "s.to_blob()"),
        rhai(st, "to_chars", "all", "s.to_chars()"),
        rhai(st, "to_debug", "all", "s.to_debug()"),
        rhai(st, "to_lower", "all", "s.to_lower()"),
        rhai(st, "to_string", "all", "s.to_string()"),
        rhai(st, "to_upper", "all", "s.to_upper()"),
        rhai(st, "trim", "copy", "let c = s; c.trim()"),
        rhai(st, "truncate", "one", "let c = s; c.truncate(s.len() - 1)"),
        rhai(op, "==", "strings", "let x = s == s.sub_string(0)"),
        rhai(op, "<", "strings", "let x = s < s.sub_string(0)"),
        rhai(op, "-", "strings", "let x = s - \"zz\""),
        rhai(op, "-=", "strings", "let c = s; c -= 'z'"),
        rhai(op, "index", "string", "let x = s[-1]"),
        rhai(op, "index", "long key", "let x = m[s]"),
        rhai(op, "index", "assign", "a[-1] = 2"),
        rhai(op, "+=", "arrays", "let c = a; c += a"),
        rhai(op, "switch", "string", "switch s { \"x\" => 1, _ => 2 }"),
        rhai(op, "interpolation", "array", "let x = `${a}${m}`"),
        rhai(op, "throw", "array", "throw a"),
        rhai(op, "nesting", "take", "a = [take(a)]"),
        rhai(op, "nesting", "drain", "a = [a.drain(0, a.len())]"),
        rhai(op, "closure", "cycle", "let g = 0; let h = || g; g = h"),
        rhai(op, "sleep", "call", "sleep(1000000)"),
    ]
}
