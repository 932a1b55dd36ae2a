-- SPDX-License-Identifier: MIT
-- The case generator of mechlua's API fuzzer (tests/fuzz/run drives it; see
-- tests/fuzz/README in the project README's "Fuzzing" section).
--
--   mechlua tests/fuzz/gen.lua SEED FIRST STRIDE COUNT OUTDIR
--
-- writes OUTDIR/case-SEED-N.lua for N = FIRST, FIRST + STRIDE, ... (COUNT cases).  A case
-- depends only on SEED, N and this generator: each is a standalone script, run with
-- `mechlua case.lua` from a scratch folder, that starts with tests/fuzz/prelude.lua and
-- goes on with steps S(function() ... end) that build models, simulate, plot and analyse
-- them with mutated arguments and hostile callbacks, then abuse what they made.
--
-- The surface is found by introspection when the generator starts: the functions of the
-- modules (mech, plot, analysis, ...), the methods of sample objects (their metatables'
-- __index, __methods and __complete lists) and the fields each accepts (from the
-- "unknown field ... (known fields: ...)" error an unknown field brings).  A hand-written
-- catalogue (FIELD, the templates) gives valid values, so that mutated calls get past the
-- first argument check.
--
-- A third of the cases build spatial systems (mech.spatial, STEMPLATES: a top, the spatial
-- slider-crank, random chains of the seven joints, free bodies, redundant and conflicting
-- joint sets, spec001's model) with hostile values in one or two fields of an entity now and
-- then (G:hbegin): inertia tensors on and past the triangle inequality, singular, tiny or
-- huge; the five orientation forms with zero or overflowing quaternions, matrices that are
-- not rotations or are half turns, singular Euler angles, parallel or tiny axes; anchors and
-- axes not finite, huge, tiny, of the wrong length; joints to the same body, the ground, a
-- body of another system; drivers on every joint type and on bodies; load functions fn(t, s)
-- that fail, return odd values, change their state table s or the system; methods of one
-- dimension called with a system of the other; spatial channels (Euler angles, _j reactions,
-- invalid names) in records and events.
--
-- Revolute joints with clearance (STEMPLATES.clearance, now and then a chain's revolute joint,
-- spec001's crank): a journal in a bearing on the ground, on a free body or on a pendulum,
-- any two of the bearing's, the journal's and the clearance sizes, any contact law and any
-- friction law with its options (regularization and v_reg, bounded, reset, normalized; also
-- from spec001.friction, or a law kept and changed after its constructor); hostile now and
-- then: a journal as large as its bearing, clearances zero, negative, not finite or huge,
-- sizes that disagree or are missing, no contact law or one of the wrong kind, the journal
-- placed outside the cavity, clearance on joints of other kinds, the ideal joint's enforcement
-- fields; their channels and their four contacts' (and names they have not) in records.
--
-- Prismatic joints with clearance, a box slider in a rectangular channel (STEMPLATES.box, now
-- and then a chain's prismatic joint, spec003's crank-slider when the module is installed): the
-- channel on the ground or on a moving carriage (turned, shaken, free), the slider resting on
-- the floor, thrown at a side wall, started turned (slider.axis, slider.ref), at the end of a
-- driven crank-slider, two in one channel; any two of the channel's, the slider's and the
-- clearance sizes; the per-corner model with any contact law, the area models ("area",
-- "patch", "constant") with materials by name or by E and nu, damped or not; any friction law
-- (Ambrosio's and the ADAMS law with Tab. 5's coefficients or their steps' speeds, stick, which
-- the joint refuses); hostile now and then: a slider as wide as its channel or wider,
-- clearances zero or negative, sizes that disagree, the slider through a wall or turned into
-- one, parallel axes, each law's fields given to the other model, bad materials, restitution
-- and v_min; their channels (pose, per wall, per contact, and names they have not) in records;
-- spec003.model, spec003.impact, spec003.slider and spec003.hull_area with mutated fields.
local USAGE = "usage: mechlua tests/fuzz/gen.lua SEED FIRST STRIDE COUNT OUTDIR"
local SEED, FIRST, STRIDE, COUNT, OUTDIR = tonumber(arg[1]), tonumber(arg[2]), tonumber(arg[3]),
  tonumber(arg[4]), arg[5]
if not (SEED and FIRST and STRIDE and COUNT and OUTDIR) then
  io.stderr:write(USAGE, "\n")
  os.exit(2)
end
SEED, FIRST, STRIDE, COUNT = math.tointeger(SEED), math.tointeger(FIRST), math.tointeger(STRIDE),
  math.tointeger(COUNT)

local HERE = arg[0]:match("^(.*)/[^/]*$") or "."
local SOURCE = HERE .. "/../.."

local fmt, concat = string.format, table.concat

local function readfile(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

local PRELUDE = readfile(HERE .. "/prelude.lua")
local MESHES = {}
for _, name in ipairs{ "tests/data/square_22.msh", "tests/data/square_41.msh",
  "scripts/data/spec000_slider_quad.msh", "scripts/data/spec000_slider_tri.msh",
  "tests/data/plate_hole_22.msh" } do
  MESHES[#MESHES + 1] = { name = name, text = readfile(SOURCE .. "/" .. name) }
end

-- ---- random numbers: splitmix64, the same sequence on every machine ---------------------------

local function rng(seed)
  local s = seed
  return function()
    s = s + 0x9E3779B97F4A7C15
    local z = s
    z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
    z = (z ~ (z >> 27)) * 0x94D049BB133111EB
    return z ~ (z >> 31)
  end
end

-- ---- Lua source of values ------------------------------------------------------------------

-- A string literal with every byte outside printable ASCII escaped (the case files stay
-- plain text even when the string is not UTF-8).
local function q(s)
  return '"' .. s:gsub('[%c"\\\128-\255]', function(c)
    if c == "\n" then return "\\n" end
    if c == '"' or c == "\\" then return "\\" .. c end
    return fmt("\\%03d", c:byte())
  end) .. '"'
end

local function num(x)
  if x ~= x then return "NAN" end
  if x == math.huge then return "INF" end
  if x == -math.huge then return "-INF" end
  if math.type(x) == "integer" then return fmt("%d", x) end
  if x == 0 and 1 / x < 0 then return "-0.0" end
  local s
  for digits = 15, 17 do
    s = fmt("%." .. digits .. "g", x)
    if tonumber(s) == x then break end
  end
  if not s:find("[%.eEnx]") then s = s .. ".0" end
  return s
end

local function vec(t)
  local out = {}
  for i, v in ipairs(t) do out[i] = type(v) == "number" and num(v) or v end
  return "{ " .. concat(out, ", ") .. " }"
end

-- ---- introspection -------------------------------------------------------------------------

local plot, analysis = require "plot", require "analysis"

-- Fields a function accepts, from the error an unknown field brings (nil if none).
local function probe_fields(f, ...)
  local args = table.pack(...)
  args.n = args.n + 1
  args[args.n] = { zz_fuzz_probe = 1 }
  local ok, err = pcall(f, table.unpack(args, 1, args.n))
  if ok or type(err) ~= "string" then return nil end
  local list = err:match("known fields: ([%w_, ]+)")
  if not list then return nil end
  local fields = {}
  for name in list:gmatch("[%w_]+") do fields[#fields + 1] = name end
  return fields
end

-- Module functions never called with arbitrary arguments: they end the process (which
-- would read as a finding) by design.
local NEVER = { ["tap.done"] = true, ["options.script_args"] = true }

local SURFACE = { functions = {}, methods = {}, fields = {} }

local function walk(prefix, t, depth, seen)
  if seen[t] or depth > 2 then return end
  seen[t] = true
  local keys = {}
  for k in pairs(t) do if type(k) == "string" then keys[#keys + 1] = k end end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local v, path = t[k], prefix .. "." .. k
    if type(v) == "function" and not NEVER[path] then
      SURFACE.functions[#SURFACE.functions + 1] = path
      if not path:match("^tap%.") then SURFACE.fields[path] = probe_fields(v) end
    elseif type(v) == "table" and k ~= "materials" and k ~= "pairs" then
      walk(path, v, depth + 1, seen)
    end
  end
end

local MODULES = { "mech", "plot", "analysis", "fft", "slidercrank", "benchmarks", "spec000", "spec001",
  "options", "tap", "spec003" }
-- (spec003, the crank-slider of [Wang et al. 2025], may not be installed: its calls are then
-- left out)
local HAVE = {}
for _, m in ipairs(MODULES) do
  local ok, mod = pcall(require, m)
  if ok or m ~= "spec003" then walk(m, ok and mod or require(m), 0, {}) end
  HAVE[m] = ok
end
SURFACE.functions[#SURFACE.functions + 1] = "mech.materials.add"
SURFACE.functions[#SURFACE.functions + 1] = "mech.materials.pair"
SURFACE.functions[#SURFACE.functions + 1] = "help"

-- Methods of sample objects, by the type names the generator gives its slots.
local function methods_of(obj)
  local names, seen = {}, {}
  local function add(k, v)
    if type(k) == "string" and type(v) == "function" and not k:match("^__") and not seen[k] then
      seen[k] = true
      names[#names + 1] = k
    end
  end
  local mt = debug.getmetatable(obj)
  if mt then
    for _, key in ipairs{ "__index", "__methods", "__complete" } do
      local list = mt[key]
      if key == "__complete" and type(list) == "function" then list = list(obj) end -- by kind
      if type(list) == "table" then for k, v in pairs(list) do add(k, v) end end
    end
  end
  table.sort(names)
  return names
end

do
  local sys = mech.planar{}
  local b = sys:body{ name = "b", mass = 1, inertia = 1 }
  local mesh = mech.mesh.rectangle{ size = { 1, 1 } }
  local fe = sys:flexible{ name = "fe", mesh = mesh, E = 1e3, density = 1 }
  local run = sys:simulate{ t = 1e-3, record = { "b.x" } }
  local fig = plot.figure{}
  local samples = { system = sys, body = b, flexible = fe, run = run, column = run.t, figure = fig,
    axes = fig:panel(1), mesh = mesh }
  for kind, obj in pairs(samples) do
    SURFACE.methods[kind] = methods_of(obj)
    for _, m in ipairs(SURFACE.methods[kind]) do
      local ok, fields = pcall(probe_fields, obj[m], obj)
      if ok then SURFACE.fields[kind .. ":" .. m] = fields end
    end
  end
  -- entities share one metatable: the methods that are not a body's apply to meshes
  SURFACE.methods.entity = SURFACE.methods.body
end

-- The same of a spatial system ("ssystem", "sbody": the methods and fields of its kind).
do
  local sys = mech.spatial{}
  local b = sys:body{ name = "b", mass = 1, inertia = { 1, 1, 1 } }
  local j = sys:revolute{ sys.ground, b, at = { 0, 0, 0 }, axis = { 0, 0, 1 } }
  local run = sys:simulate{ t = 1e-3, record = { "b.z" } }
  local samples = { ssystem = sys, sbody = b, sjoint = j, srun = run }
  for kind, obj in pairs(samples) do
    SURFACE.methods[kind] = methods_of(obj)
    for _, m in ipairs(SURFACE.methods[kind]) do
      local ok, fields = pcall(probe_fields, obj[m], obj)
      if ok then SURFACE.fields[kind .. ":" .. m] = fields end
    end
  end
  -- __complete lists the spatial constructors, which __methods does not hold
  for _, m in ipairs{ "body", "revolute", "spherical", "universal", "cylindrical", "prismatic", "translational",
    "planar", "fixed", "spring", "rotational_spring", "force", "torque" } do
    local seen = false
    for _, x in ipairs(SURFACE.methods.ssystem) do seen = seen or x == m end
    if not seen then SURFACE.methods.ssystem[#SURFACE.methods.ssystem + 1] = m end
    local ok, fields = pcall(probe_fields, sys[m], sys)
    if ok then SURFACE.fields["ssystem:" .. m] = fields end
  end
end

-- ---- the generator of one case -------------------------------------------------------------

local G = {}
G.__index = G

local function new_case(seed, n)
  local mix = rng(seed * 1000003 + n)
  mix()
  local g = setmetatable({ next = rng(mix()), lines = {}, slots = {}, nslot = 0, names = {},
    seq = 0, seed = seed, n = n, mutations = 0, prefix = "" }, G)
  return g
end

function G:int(a, b) return a + (self.next() >> 11) % (b - a + 1) end
function G:float(a, b) return a + (b - a) * ((self.next() >> 11) * 2.0 ^ -53) end
function G:chance(p) return (self.next() >> 11) * 2.0 ^ -53 < p end
function G:pick(list) return list[self:int(1, #list)] end

-- The size parts of a clearance joint (parts[name]: a table of fields or a hostile string) as
-- fields { name, source } in the given order, each table's keys sorted (pairs' order is not the
-- same on every run: the case must be); an empty table kept now and then.
function G:part_fields(parts, order)
  local f = {}
  for _, part in ipairs(order) do
    local p = parts[part]
    if type(p) == "string" then
      f[#f + 1] = { part, p }
    else
      local keys = {}
      for k in pairs(p) do keys[#keys + 1] = k end
      table.sort(keys)
      local items = {}
      for _, k in ipairs(keys) do items[#items + 1] = k .. " = " .. p[k] end
      if #items > 0 or self:chance(0.05) then f[#f + 1] = { part, "{ " .. concat(items, ", ") .. " }" } end
    end
  end
  return f
end

-- A log-uniform number between a and b (both > 0).
function G:logu(a, b) return math.exp(self:float(math.log(a), math.log(b))) end

-- Picks among { weight, value } pairs.
function G:wpick(list)
  local total = 0
  for _, e in ipairs(list) do total = total + e[1] end
  local x = self:float(0, total)
  for _, e in ipairs(list) do
    x = x - e[1]
    if x <= 0 then return e[2] end
  end
  return list[#list][2]
end

function G:emit(s) self.lines[#self.lines + 1] = s end

-- A step: one top-level call (or a few statements) under pcall.
-- A prefix set with G:before goes into the next step (fault injection armed there).
-- Now and then a step runs with an allocation failing or a Ctrl-C at an allocation.
function G:step(fmtstr, ...)
  local src = select("#", ...) > 0 and fmt(fmtstr, ...) or fmtstr
  if self.prefix == "" and self:chance(0.02) then
    self.prefix = self:chance(0.3) and fmt("H.interrupt(%d); ", self:int(1, 200))
      or fmt("H.oom(%d, %q); ", self:int(1, 200), self:pick{ "fail", "once" })
  end
  self:emit("S(function() " .. self.prefix .. src .. " end)")
  self.prefix = ""
end

function G:before(src) self.prefix = src .. "; " end

-- A new slot V[i] for an object of kind `kind`; info: sys (slot of its system), name.
function G:slot(kind, info)
  self.nslot = self.nslot + 1
  local s = info or {}
  s.id, s.kind = self.nslot, kind
  self.slots[#self.slots + 1] = s
  return s
end

function G:find(kinds, pred)
  local set = {}
  for k in kinds:gmatch("[%w_]+") do set[k] = true end
  local found = {}
  for _, s in ipairs(self.slots) do
    if set[s.kind] and (not pred or pred(s)) then found[#found + 1] = s end
  end
  return found
end

function G:any(kinds, pred)
  local found = self:find(kinds, pred)
  if #found == 0 then return nil end
  return self:pick(found)
end

function G:v(s) return "V[" .. s.id .. "]" end

function G:name(prefix)
  self.seq = self.seq + 1
  return prefix .. self.seq
end

-- The name of an entity a template makes: now and then with a comma, a quote, a newline
-- or a space (they end up in channel names and CSV headers).
function G:entname(prefix)
  local name = self:name(prefix)
  if self:chance(0.06) then name = name .. self:pick{ ",c", '"q', "\nl", " s", ";x", "'a", "\r", "\t" } end
  self.names[#self.names + 1] = name
  return name
end

-- ---- hostile values ------------------------------------------------------------------------

local HNUM = { "NAN", "-NAN", "INF", "-INF", "0", "-0.0", "1e308", "-1e308", "5e-324", "-5e-324",
  "2.2250738585072014e-308", "-1", "2^53", "9007199254740993", "2^63", "-2^63", "math.maxinteger",
  "math.mininteger", "1e300", "1e-300", "0.5", "3", "1e9", "-1e9", "1e19", "2^31", "-2^31", "2^32",
  "1e15", "1.5", "0.1", "7", "1e-9" }
local HSTR = { '""', '"\\255\\254"', '"\\195\\040"', '"\\237\\160\\128"', '"\\192\\175"', '"a\\0b"',
  'string.rep("x", 100000)', 'string.rep("\\255", 1000)', '"%s%n%d%p%%"', '"#u#d#[0x2022]#g#"',
  '"^{^{^{^{"', '"^"', '"a^{b"', '"\\n\\r\\t"', '"a,b"', '"q\\"uote"', '"x.y.z"', '"."', '".."',
  '"system"', '"ground"', 'string.rep("^2", 300)', 'string.rep("\\195\\169", 200)', '"\\u{7FFFFFFF}"',
  '"\\u{D800}"', '"\\u{10FFFF}"', '"\\0"', '"b1.x"', '"system.energy"', '"#"', '"##"',
  'string.rep("#", 301)', '"\\27[2J"', '"x,\\"y\\"\\nz"' }
local HTAB = { "{}", "{ {} }", "H.rec()", "H.deep(200)", "H.deep(20000)", "H.big(100000)",
  "H.big(1000, NAN)", "H.big(3, INF)", 'H.meta("__index")', 'H.meta("__len")', 'H.meta("__tostring")',
  'H.meta("__eq")', 'H.meta("__pairs")', 'H.meta("__newindex")', 'H.meta("__index", nil, true)',
  "{ 1, nil, 3 }", "{ [1.5] = 1 }", "{ [true] = 1 }", "{ [0] = 1, [-1] = 2 }", "{ n = 1 }",
  "setmetatable({}, { __index = function() return NAN end })",
  "setmetatable({}, { __index = function(t, k) return k end })",
  'setmetatable({}, { __gc = function() error("gc") end })', "{ [2^53] = 1 }", "{ 1, 2, 3 }",
  "{ NAN, NAN }", "{ INF, 0 }", "{ 1e308, 1e308 }", "{ {1, 2}, {3, 4} }", '{ "a", "b" }',
  "H.big(40, H.rec())", 'setmetatable({ 1, 2 }, { __name = "mech.system" })' }
local HOTHER = { "nil", "true", "false", "print", "function() end", "coroutine.create(print)",
  "io.stdout", "mech", "V", '"x"', "0", "NAN", "{}", "function() error(\"cb\") end",
  "setmetatable({}, { __call = function() error(\"call\") end })" }

function G:hnum() return self:pick(HNUM) end
function G:hstr() return self:pick(HSTR) end
function G:htab() return self:pick(HTAB) end

-- Any hostile value: numbers, strings, tables, other types, or an object of the wrong kind.
function G:hostile()
  local r = self:int(1, 10)
  if r <= 3 then return self:hnum() end
  if r <= 5 then return self:hstr() end
  if r <= 7 then return self:htab() end
  if r <= 9 or #self.slots == 0 then return self:pick(HOTHER) end
  return self:v(self:pick(self.slots))
end

-- ---- valid values by field name ------------------------------------------------------------

local NLAWS = { "hertz", "kelvin_voigt", "hunt_crossley", "lankarani_nikravesh", "flores", "gonthier",
  "hu_guo" }
local FLAWS = { "coulomb", "stick", "ambrosio", "lugre", "dahl", "threlfall", "stribeck", "adams" }
local MATERIALS = { "steel", "nodular_cast_iron", "copper", "aluminium" }

-- An inline contact law (or a law from a slot).
function G:nlaw(soft)
  local s = self:chance(0.3) and self:any("nlaw")
  if s then return self:v(s) end
  local law = self:pick(NLAWS)
  local K = soft and self:logu(1e4, 1e7) or self:logu(1e6, 1e11)
  if self:chance(0.1) then K = self:logu(1e12, 1e18) end -- absurd for the step: runaways
  if law == "hertz" then return fmt("mech.contact.hertz{ K = %s }", num(K)) end
  if law == "kelvin_voigt" then
    return fmt("mech.contact.kelvin_voigt{ K = %s, c = %s }", num(K), num(self:logu(1, 1e4)))
  end
  local extra = self:chance(0.3) and fmt(", n = %s", num(self:pick{ 1, 1.5, 2 })) or ""
  if self:chance(0.2) then extra = extra .. fmt(", v_min = %s", num(self:logu(1e-6, 1e-2))) end
  if self:chance(0.1) then
    return fmt("mech.contact.%s{ material = %q, radius = %s, restitution = %s }", law,
      self:pick(MATERIALS), num(self:logu(1e-3, 0.1)), num(self:float(0, 1)))
  end
  return fmt("mech.contact.%s{ K = %s, restitution = %s%s }", law, num(K), num(self:float(0, 1)), extra)
end

-- A friction law with its options: the regularisations of Coulomb and Stribeck friction
-- (v_reg), the bounded form and the reset of the bristle laws (Dahl, LuGre), the normalised
-- LuGre law, the steps of Ambrosio's and the ADAMS law.  `bristles` prefers the bounded form (a
-- spatial clearance joint needs it to run through an onset).  Now and then (probability h,
-- default 0.05) one option or parameter is bad: an unknown regularisation, v_reg without one or
-- not positive, bounded and normalized together, a reset that does not exist, options of the
-- wrong type, mu_s below mu, v1 not above v0.
local REGS = { "none", "linear", "tanh", "sqrt" }
local SPEC001_FRICTION = { "none", "coulomb", "stribeck", "dahl", "lugre" } -- spec001.friction's names
local HREG = { '"cubic"', '""', '"SQRT"', '"tanh "', "true", "1", "{}", '"none\\0"' }
local HPOS = { "0", "-0.0", "-1e-4", "NAN", "INF", "1e300", "5e-324", '"1e-4"', "{}", "true" }
local HOPT = { '"yes"', "1", "0", '"true"', "{}", "NAN", "print" }
local HRESET = { '"always"', '""', '"ONSET"', "true", "1", "{}", '"never\\0"', '"onset "' }

function G:flaw(h, bristles)
  local s = self:chance(0.3) and self:any("flaw")
  if s then return self:v(s) end
  local law = self:pick(FLAWS)
  local muv = self:float(0, 0.5)
  local mu = num(muv)
  local bad = self:chance(h or 0.05)
  if bad then self.mutations = self.mutations + 1 end
  local f = {}
  local function add(k, v) f[#f + 1] = k .. " = " .. v end
  -- a regularisation and its v_reg (coulomb, stribeck)
  local function reg(always)
    local r = (always or self:chance(0.6)) and self:pick(REGS) or nil
    if bad and self:chance(0.5) then
      if self:chance(0.5) then add("regularization", self:pick(HREG))
      else
        add("regularization", q(r or "none"))
        add("v_reg", self:pick(HPOS))
      end
      return
    end
    if r then add("regularization", q(r)) end
    if r and r ~= "none" and self:chance(0.7) then add("v_reg", num(self:logu(1e-6, 1e-2))) end
  end
  -- the bristle laws' bounded form and reset
  local function bristle(normalized)
    if bad and self:chance(0.6) then
      local r = self:int(1, 3)
      if r == 1 then add("bounded", self:pick(HOPT))
      elseif r == 2 then add("reset", self:pick(HRESET))
      else add("bounded", "true"); add("normalized", "true") end
      return
    end
    if not normalized and (bristles and self:chance(0.7) or self:chance(0.3)) then
      add("bounded", self:chance(0.9) and "true" or "false")
    end
    if self:chance(0.3) then add("reset", q(self:pick{ "onset", "never" })) end
  end
  if law == "coulomb" then
    add("mu", mu)
    reg(true)
  elseif law == "stick" then
    add("mu", mu)
    add("mu_s", bad and self:chance(0.5) and self:pick{ num(muv / 2), "-0.1" } or num(0.6))
    add("v_eps", bad and self:chance(0.5) and self:pick(HPOS) or num(self:logu(1e-6, 1e-3)))
  elseif law == "ambrosio" or law == "adams" then
    -- Ambrosio's ramp and the ADAMS law's steps from v0 to v1 (the defaults now and then); bad:
    -- v1 not above v0, mu_s below mu
    if law == "adams" then
      add("mu_s", bad and self:chance(0.4) and num(muv / 2) or num(muv + self:float(0, 0.3)))
    end
    add("mu", mu)
    if self:chance(0.8) then
      local v0 = self:logu(1e-5, 1e-3)
      add("v0", num(v0))
      add("v1", bad and self:chance(0.4) and self:pick{ num(v0), num(v0 / 2), num(v0 * (1 + 1e-15)) }
        or num(v0 * self:pick{ 1.5, 2, 10 }))
    elseif law == "ambrosio" and self:chance(0.5) then
      add("v0", "1e-4"); add("v1", "1e-3")
    end
  elseif law == "lugre" then
    local normalized = self:chance(0.3)
    add("mu", mu); add("mu_s", "0.6"); add("vs", num(self:logu(1e-4, 1e-1)))
    add("sigma0", num(self:logu(1e2, 1e7)))
    add("sigma1", num(normalized and self:logu(1e-4, 1) or self:logu(1e-2, 1e3)))
    add("sigma2", num(self:float(0, 1)))
    if normalized then add("normalized", "true") end
    bristle(normalized)
  elseif law == "dahl" then
    add("mu", mu); add("sigma0", num(self:logu(1e2, 1e7)))
    bristle(false)
  elseif law == "threlfall" then
    add("mu", mu); add("v0", num(self:logu(1e-5, 1e-2)))
  else
    add("mu", mu); add("mu_s", "0.6"); add("vs", num(self:logu(1e-4, 1e-1)))
    add("delta", num(self:float(0.5, 3))); add("sigma2", num(self:float(0, 1)))
    reg(false)
  end
  if bad and self:chance(0.2) then -- a parameter not positive (the last of a repeated key counts)
    local k = f[self:int(1, #f)]:match("^(%w+)")
    f[#f + 1] = k .. " = " .. self:pick(HPOS)
  end
  return fmt("mech.friction.%s{ %s }", law, concat(f, ", "))
end

function G:pt(scale)
  scale = scale or 0.2
  return vec{ self:float(-scale, scale), self:float(-scale, scale) }
end

function G:small() return num(self:float(-1, 1)) end
function G:pos(a, b) return num(self:logu(a or 1e-3, b or 10)) end

-- An entity name: fresh mostly, sometimes one used before or a hostile string.
function G:ename(prefix)
  if self:chance(0.05) then return self:hstr() end
  if self:chance(0.05) and #self.names > 0 then return q(self:pick(self.names)) end
  local name = self:name(prefix)
  self.names[#self.names + 1] = name
  return q(name)
end

-- A scratch file name for run:csv and fig:save (relative: the case runs in its own folder).
function G:path(ext)
  local r = self:int(1, 20)
  if r == 1 then return '"nodir/x' .. ext .. '"' end
  if r == 2 then return '""' end
  if r == 3 then return '"."' end
  if r == 4 then return q(string.rep("n", 300) .. ext) end
  if r == 5 then return q("a\0b" .. ext) end
  if r == 6 then return q("\255\254" .. ext) end
  if r == 7 then return q("x" .. ext .. "/") end
  if r == 8 then return '"noext"' end
  return q(self:name("out") .. ext), true -- a new file
end

-- Channel names of the entities a system slot knows, plus some of the system's own.
local BODYQ = { "x", "y", "phi", "vx", "vy", "omega", "ax", "ay", "alpha", "kinetic" }
local JOINTQ = { "fx", "fy", "f", "violation", "m", "twist", "fn", "dx", "dy", "ex", "ey", "e", "exb",
  "eyb", "gap", "penetration", "rate", "ft", "vt", "mu", "active", "impacts", "v0", "z", "stick", "tilt",
  "offset" }
local OTHERQ = { "torque", "angle", "target", "power", "work", "f", "length", "rate", "energy", "fx", "fy",
  "gap", "penetration", "fn", "ft", "vt", "mu", "active", "impacts", "v0", "z", "stick", "strain",
  "damping", "contacts", "ux", "uy" }
local SYSQ = { "kinetic", "potential", "gravity", "elastic", "contact", "contact_damping", "friction",
  "energy", "work", "applied", "dissipated", "balance", "violation" }

-- A spatial system's channels (man mechlua-spatial(3), CHANNELS), and names that are not
-- (planar names, Euler sequences that do not exist, angles numbered 0 or 4).
local SEQS = { "xyz", "xzy", "yxz", "yzx", "zxy", "zyx", "xyx", "xzx", "yxy", "yzy", "zxz", "zyz" }
local SBODYQ = { "x", "y", "z", "r", "vx", "vy", "vz", "v", "ax", "ay", "az", "a", "e0", "e1", "e2", "e3",
  "r11", "r12", "r13", "r21", "r22", "r23", "r31", "r32", "r33", "wx", "wy", "wz", "omega", "wbx", "wby",
  "wbz", "alphax", "alphay", "alphaz", "alpha", "alphabx", "alphaby", "alphabz", "hx", "hy", "hz", "kinetic" }
local SBODYBAD = { "phi", "e4", "r00", "r34", "r1", "zyx0", "zyx4", "zyx", "zzx1", "xyzx1", "ZYX1", "zyx1 ",
  "zyx01", "zyx1.5", "e", "w", "alphab", "h" }
local SJOINTQ = { "fx", "fy", "fz", "f", "mx", "my", "mz", "m", "fx_j", "fy_j", "fz_j", "mx_j", "my_j", "mz_j",
  "violation", "misalignment", "angle", "distance" }
local SJOINTBAD = { "fn", "gap", "twist", "m_j", "f_j", "fx_k", "ex", "dx", "_j", "angle_j" }
local SOTHERQ = { "torque", "angle", "target", "power", "work", "f", "length", "rate", "energy", "fx", "fy",
  "fz", "tx", "ty", "tz", "force", "distance", "m" }
local SPOINTQ = { "x", "y", "z", "vx", "vy", "vz", "v", "ax", "ay", "az", "a", "phi", "e0" }
-- A revolute joint with clearance: its own channels (the journal in the bearing, the resultant
-- of its four contacts with the ideal joint's names) and its contacts' gap and fn, then
-- names it has not (an ideal joint's equations, a fifth contact, the contacts' other channels
-- through the joint); its contacts <joint>.radial_a, ... have a contact's channels.
local SCLEARQ = { "ex", "ey", "ez", "e", "exb", "eyb", "axial", "tilt", "angle", "impacts", "active", "fx", "fy",
  "fz", "f", "mx", "my", "mz", "m", "fx_j", "fy_j", "fz_j", "mx_j", "my_j", "mz_j", "radial_a.gap", "radial_a.fn",
  "radial_b.gap", "radial_b.fn", "axial_a.gap", "axial_a.fn", "axial_b.gap", "axial_b.fn" }
local SCLEARBAD = { "violation", "misalignment", "distance", "gap", "fn", "radial_a", "radial_c.gap", "axial.fn",
  "radial_a.z", "radial_a.penetration", "ez_j", "e_j", "tilt_j", "exb_j", "axial_a.gap.fn", "radial_a..gap",
  ".radial_a.gap", "radial_a.gap " }
local SCONTACTQ = { "gap", "penetration", "rate", "fn", "ft", "vt", "mu", "active", "impacts", "v0", "z", "stick" }
local SCONTACTBAD = { "z1", "z2", "zy", "ex", "fx", "tilt", "slip", "x", "f", "fn_j", "gap.x" }
local CONTACT_ENDS = { "radial_a", "radial_b", "axial_a", "axial_b" }
-- A prismatic joint with clearance (a box slider in a channel): the slider's pose in the guide's
-- frame, per wall <wall>_<quantity>, the resultant, and its contacts' gap and fn through the joint
-- ("xpos.c3.gap" with the corners, "zneg.fn" with the area laws); then names it has not (an ideal
-- joint's, a revolute joint's with clearance, a ninth corner, a fifth wall, the other model's
-- contacts, mangled paths).
local BOX_WALLS = { "xpos", "xneg", "zpos", "zneg" }
local SBOXQ = { "x", "y", "z", "roll", "pitch", "yaw", "impacts", "active", "fx", "fy", "fz", "f", "mx", "my", "mz",
  "m", "fx_j", "fy_j", "fz_j", "mx_j", "my_j", "mz_j" }
local SBOXWQ = { "mode", "penetration", "fn", "ft", "area", "stiffness" }
local SBOXBAD = { "violation", "misalignment", "distance", "angle", "gap", "fn", "xpos", "ypos_fn", "xpos_gap", "xpos_",
  "_fn", "xpos.c8.gap", "xpos.c-1.gap", "xpos.c07.gap", "xpos.c0", "xpos.c0.z1", "xpos.c0..gap", ".xpos.c0.gap",
  "xpos.c0.gap.fn", "xpos..fn", "radial_a.gap", "ex", "tilt", "roll_j", "yaw_j", "x_j", "xpos_mode_j", "zneg.c0.gap ",
  "XPOS_fn", "xpos_fn_j", "c0.gap", "xpos.c 0.gap", "xpos.c0x.gap", "xpos.c9999999999999999999.gap", "ynone.fn" }

function G:schannel(sys)
  local ents = sys.ents
  local r = self:int(1, 20)
  if r == 1 then return self:hstr() end
  if r <= 3 or #ents == 0 then return q("system." .. self:pick(SYSQ)) end
  if r == 4 then
    return q("ground." .. (self:chance(0.3) and self:pick(SEQS) .. self:int(1, 3) or self:pick(SBODYQ)))
  end
  local e = self:pick(ents)
  local bad = self:chance(0.1)
  local qn
  if e.kind == "body" then
    local k = self:int(1, 5)
    if bad then qn = self:pick(SBODYBAD)
    elseif k == 1 then qn = self:pick(SEQS) .. self:int(1, 3)
    else qn = self:pick(SBODYQ) end
  elseif e.kind == "joint" and e.jtype == "clearance" then
    qn = self:pick(bad and SCLEARBAD or SCLEARQ)
  elseif e.kind == "joint" and e.jtype == "box" then
    qn = self:bchannel(e, bad)
  elseif e.kind == "joint" then
    qn = self:pick(bad and SJOINTBAD or SJOINTQ)
  elseif e.kind == "ccontact" then
    qn = self:pick(bad and SCONTACTBAD or SCONTACTQ)
  elseif e.kind == "point" then
    qn = self:pick(SPOINTQ)
  else
    qn = self:pick(SOTHERQ)
  end
  return q(e.name .. "." .. qn)
end

function G:channel(sys)
  if sys and sys.dim == 3 then return self:schannel(sys) end
  local ents = sys and sys.ents or {}
  local r = self:int(1, 20)
  if r == 1 then return self:hstr() end
  if r <= 4 or #ents == 0 then return q("system." .. self:pick(SYSQ)) end
  local e = self:pick(ents)
  local qs = e.kind == "body" and BODYQ or e.kind == "joint" and JOINTQ or OTHERQ
  if e.kind == "flexible" and self:chance(0.5) then
    return q(fmt("%s.n%d.%s", e.name, self:int(1, e.nnodes or 4), self:pick(BODYQ)))
  end
  return q(e.name .. "." .. self:pick(qs))
end

-- ---- callbacks -----------------------------------------------------------------------------

-- What a hostile callback may do on its n-th call (besides returning).  `sys` is the
-- source of the system it belongs to (or nil).
function G:action(sys)
  local acts = {
    { 4, 'error("fuzz: callback error")' },
    { 2, "error({})" },
    { 1, "error(setmetatable({}, { __tostring = function() error(\"x\") end }))" },
    { 1, "error()" },
    { 2, "coroutine.yield(1)" },
    { 3, "collectgarbage()" },
    { 1, 'collectgarbage("step")' },
    { 1, "H.interrupt(" .. self:int(1, 40) .. ")" },
    { 1, "H.oom(" .. self:int(1, 60) .. ", " .. q(self:pick{ "fail", "once" }) .. ")" },
  }
  if sys then
    local more = {
      { 4, fmt("H.close(%s)", sys) },
      { 2, fmt("H.gc(%s)", sys) },
      { 2, fmt("%s:simulate{ t = 1e-3, quiet = true }", sys) },
      { 3, fmt("%s:value(%s)", sys, self:channel(self.cursys)) },
      { 2, fmt("%s:assemble()", sys) },
      { 2, fmt("%s:body{ name = %s, mass = 1, inertia = %s }", sys, self:ename("cbb"),
        self.cursys and self.cursys.dim == 3 and "{ 1, 1, 1 }" or "1") },
      { 1, fmt("%s:describe()", sys) },
      { 1, fmt("%s:lyapunov{ t = 1e-3 }", sys) },
      { 1, fmt("tostring(%s)", sys) },
      { 1, fmt("local r = %s.last_run; if r then H.gc(r) end", sys) },
    }
    for _, a in ipairs(more) do acts[#acts + 1] = a end
    local b = self.cursys and self.cursys.dim == 3 and self:any("body", function(x) return x.sys == self.cursys end)
    if b then -- a spatial system changed from its own callbacks
      acts[#acts + 1] = { 1, fmt("%s:%s{ %s.ground, %s, at = { 0, 0, 0 }, axis = { 0, 0, 1 } }", sys,
        self:pick{ "revolute", "cylindrical", "fixed" }, sys, self:v(b)) }
      acts[#acts + 1] = { 1, fmt("%s:drive{ %s, axis = { 0, 0, 1 }, speed = 1 }", sys, self:v(b)) }
      acts[#acts + 1] = { 1, fmt("%s:torque{ %s, value = { 0, 0, 1 } }", sys, self:v(b)) }
      acts[#acts + 1] = { 1, fmt("%s:point{ %s, name = %s, at = { 0, 0, 0 } }", sys, self:v(b), self:ename("cbp")) }
    end
  end
  local run = self:any("run")
  if run then
    acts[#acts + 1] = { 2, fmt("H.gc(%s)", self:v(run)) }
    acts[#acts + 1] = { 1, fmt("H.close(%s)", self:v(run)) }
  end
  local col = self:any("column")
  if col then acts[#acts + 1] = { 1, fmt("local c = %s; V[%d] = nil; c = nil; collectgarbage()", self:v(col), col.id) } end
  local fig = self:any("figure")
  if fig then acts[#acts + 1] = { 1, fmt("%s:save(%s)", self:v(fig), self:path(".png")) } end
  return self:wpick(acts)
end

-- A callback: mostly well behaved (returns `ok`, a list of return expressions), with a
-- hostile action on one call or hostile results.
function G:callback(params, ok, sys)
  local r = self:int(1, 10)
  local ret = ok
  if r <= 3 then self.mutations = self.mutations + 1 end
  if r == 1 then
    ret = self:pick{ "NAN", "INF", "nil", '"x"', "{}", "1e308", "-1e308", "1, 2, 3, 4, 5, 6, 7, 8", "true",
      "5e-324", "2^63" }
  end
  if r <= 3 and not (r == 1) then
    local n = self:pick{ 1, 1, 2, 3, 5, 10, 50 }
    return fmt("H.cb(%d, function(%s) %s end, function(%s) return %s end)", n, params,
      self:action(sys), params, ret)
  end
  return fmt("function(%s) return %s end", params, ret)
end

-- ---- calls with mutated arguments ----------------------------------------------------------

-- fields: list of { key, source } (key a string, or a number for positional values).
-- Mutations: a value made hostile, a field dropped, an unknown one added, the table
-- replaced or served through a proxy.
-- Returns a table constructor "{ ... }" or a parenthesized expression "(...)", so that
-- both "f" .. args and "x = " .. args are valid Lua.
function G:args(fields, rate)
  rate = rate or 0.15
  local out = {}
  for _, f in ipairs(fields) do out[#out + 1] = { f[1], f[2] } end
  if self:chance(rate) then
    self.mutations = self.mutations + 1
    local n = self:int(1, 3)
    for _ = 1, n do
      local m = self:int(1, 9)
      if #out > 0 and m <= 4 then
        local f = out[self:int(1, #out)]
        f[2] = m <= 2 and self:hostile() or m == 3 and self:hnum() or self:htab()
      elseif #out > 0 and m == 5 then
        table.remove(out, self:int(1, #out))
      elseif m == 6 then
        out[#out + 1] = { self:pick{ "zz", "name", "t", "mass", "x", "law", "fn" }, self:hostile() }
      elseif m == 7 then
        out[#out + 1] = { #out + 1, self:hostile() }
      elseif m == 8 then
        return "(" .. self:hostile() .. ")"
      else
        out.proxy = true
      end
    end
  end
  local parts = {}
  for _, f in ipairs(out) do
    if type(f[1]) == "number" then parts[#parts + 1] = f[2]
    else parts[#parts + 1] = f[1] .. " = " .. f[2] end
  end
  local t = "{ " .. concat(parts, ", ") .. " }"
  if out.proxy then t = "(H.proxy(" .. t .. "))" end
  return t
end

-- ---- models --------------------------------------------------------------------------------

-- A system slot records the entities made in it (for channels) and whether its model is
-- sane (only options, laws and callbacks mutated: then a run may not run away).
function G:system(rate)
  local s = self:slot("system", { ents = {}, sane = true, mutations0 = self.mutations })
  self.cursys = s
  local grav = self:chance(0.8) and vec{ 0, -9.81 } or self:pt(20)
  if self:chance(0.03) then
    grav = self:pick{ "{ 0, -1e308 }", "{ 1e308, 1e308 }", "{ 1e300, -1e300 }", "{ 0, -1.7e308 }" }
    self.mutations = self.mutations + 1
  end
  local fields = { { "gravity", grav } }
  if self:chance(0.2) then fields[#fields + 1] = { "baumgarte", vec{ self:float(0, 50), self:float(0, 50) } } end
  if self:chance(0.1) then fields[#fields + 1] = { "assemble", "false" } end
  self:step("V[%d] = mech.planar%s", s.id, self:args(fields, rate))
  if self.mutations > s.mutations0 then s.sane = false end
  return s
end

-- An entity made by sys:<method>{...}; returns its slot.
-- (The fields' values were made before: mutations counted since the template began make
-- the model insane.)
function G:entity(sys, method, kind, name, fields, rate)
  local e = self:slot(kind, { sys = sys, name = name })
  local f = { { "name", q(name) } }
  for _, x in ipairs(fields) do f[#f + 1] = x end
  local a = self:args(f, rate)
  if self.mutations > sys.mutations0 then sys.sane = false end
  if sys.dim == 3 and self:chance(0.06) then -- memory running out in a spatial constructor
    self:before(fmt("H.oom(%d, %q)", self:int(1, 40), self:pick{ "fail", "once" }))
  end
  self:step("V[%d] = %s:%s%s", e.id, self:v(sys), method, a)
  sys.ents[#sys.ents + 1] = e
  return e
end

function G:body(sys, name, m, J, at, extra, rate)
  local f = { { "mass", num(m) }, { "inertia", num(J) }, { "at", at } }
  for _, x in ipairs(extra or {}) do f[#f + 1] = x end
  return self:entity(sys, "body", "body", name, f, rate)
end

local TEMPLATES = {}

-- A pendulum, rigid or with a penalty pin, and a load or spring now and then.
function TEMPLATES.pendulum(g, rate)
  local sys = g:system(rate)
  local L = g:float(0.1, 1)
  local bob = g:body(sys, g:entname("bob"), g:float(0.1, 3), g:float(0, 0.1), vec{ L, 0 }, nil, rate)
  local pin = { { 1, g:v(sys) .. ".ground" }, { 2, g:v(bob) }, { "at", vec{ 0, 0 } } }
  if g:chance(0.3) then
    pin[#pin + 1] = { "method", '"penalty"' }
    pin[#pin + 1] = { "k", num(g:logu(1e3, 1e8)) }
  end
  g:entity(sys, "revolute", "joint", g:entname("pivot"), pin, rate)
  if g:chance(0.3) then
    local ret = g:chance(0.5) and "-0.1 * omega" or fmt("-0.1 * %s:value(%s)", g:v(sys), g:channel(sys))
    g:entity(sys, "torque", "load", g:entname("tq"), { { 1, g:v(bob) },
      { "fn", g:callback("t, x, y, phi, vx, vy, omega", ret, g:v(sys)) } }, rate)
  end
  if g:chance(0.3) then
    g:entity(sys, "spring", "spring", g:entname("spr"), { { 1, g:v(sys) .. ".ground" }, { 2, g:v(bob) },
      { "at", vec{ vec{ 0, 0.5 }, vec{ L, 0 } } }, { "k", num(g:logu(1, 1e4)) }, { "c", num(g:float(0, 5)) } }, rate)
  end
  return sys
end

-- The slider-crank of benchmark A with a clearance joint in its piston pin.
function TEMPLATES.slider_crank(g, rate)
  local sys = g:system(rate)
  local crank = g:body(sys, "crank", 0.17, 1e-4, vec{ 0.025, 0 }, nil, rate)
  local rod = g:body(sys, "rod", 0.25, 4e-4, vec{ 0.11, 0 }, nil, rate)
  local slider = g:body(sys, "slider", 0.14, g:pick{ 0, 1e-5 }, vec{ 0.17, 0 }, nil, rate)
  g:entity(sys, "revolute", "joint", "bearing", { { 1, g:v(sys) .. ".ground" }, { 2, g:v(crank) },
    { "at", vec{ 0, 0 } } }, rate)
  g:entity(sys, "revolute", "joint", "crank_pin", { { 1, g:v(crank) }, { 2, g:v(rod) }, { "at", vec{ 0.05, 0 } } }, rate)
  local pin = { { 1, g:v(rod) }, { 2, g:v(slider) }, { "at", vec{ 0.17, 0 } } }
  if g:chance(0.8) then
    local cl = { { "radial", num(g:pick{ 0.5e-3, 1e-4, 1e-3 }) }, { "radius", num(10e-3) }, { "law", g:nlaw() } }
    if g:chance(0.7) then cl[#cl + 1] = { "friction", g:flaw() } end
    pin[#pin + 1] = { "clearance", g:args(cl, rate) }
  end
  g:entity(sys, "revolute", "joint", "pin", pin, rate)
  g:entity(sys, "prismatic", "joint", "guide", { { 1, g:v(sys) .. ".ground" }, { 2, g:v(slider) },
    { "axis", vec{ 1, 0 } } }, rate)
  if g:chance(0.8) then
    g:entity(sys, "drive", "driver", "motor", { { 1, g:v(crank) }, { "speed", num(g:pick{ 523.6, 100, 10 }) } }, rate)
  else
    g:entity(sys, "drive", "driver", "motor", { { 1, g:v(crank) },
      { "motion", g:callback("t", "100 * t", g:v(sys)) } }, rate)
  end
  return sys
end

-- A slider in a guide with clearance (benchmark B's joint), free or pushed.
function TEMPLATES.guide(g, rate)
  local sys = g:system(rate)
  local slider = g:body(sys, "slider", 2, 2e-3, vec{ 0, -1e-3 }, { { "velocity", vec{ g:float(-1, 1), 0 } } }, rate)
  local cl = { { "gap", num(1e-3) }, { "length", num(0.1) }, { "height", num(0.05) }, { "law", g:nlaw() } }
  if g:chance(0.7) then cl[#cl + 1] = { "friction", g:flaw() } end
  if g:chance(0.2) then cl = { { "gap", num(1e-3) }, { "corners", vec{ vec{ -0.05, -0.025 }, vec{ 0.05, -0.025 }, vec{ 0, 0.025 } } }, { "law", g:nlaw() } } end
  g:entity(sys, "prismatic", "joint", "guide", { { 1, g:v(sys) .. ".ground" }, { 2, g:v(slider) },
    { "at", vec{ 0, 0 } }, { "axis", vec{ 1, 0 } }, { "clearance", g:args(cl, rate) } }, rate)
  if g:chance(0.5) then
    g:entity(sys, "force", "load", g:entname("push"), { { 1, g:v(slider) }, { "amplitude", vec{ 5, 0 } },
      { "omega", num(g:float(1, 100)) } }, rate)
  end
  return sys
end

-- A block dropped on the ground: a point contact with a friction law (LuGre and Dahl have
-- bristle states), sliding or at rest.
function TEMPLATES.contact(g, rate)
  local sys = g:system(rate)
  local b = g:body(sys, g:entname("block"), 1, 0.01, vec{ 0, 0.05 }, { { "velocity", vec{ g:float(-1, 1), 0 } } }, rate)
  for i = 1, g:int(1, 2) do
    g:entity(sys, "contact", "contact", g:entname("c"), { { 1, g:v(b) }, { "body_at", vec{ i == 1 and -0.05 or 0.05, -0.05 } },
      { "surface", g:args({ { "at", vec{ 0, 0 } }, { "normal", vec{ 0, 1 } } }, rate) },
      { "law", g:nlaw(true) }, { "friction", g:flaw() } }, rate)
  end
  return sys
end

-- Springs, dampers, loads and drivers with Lua functions: the slow paths.
function TEMPLATES.springs(g, rate)
  local sys = g:system(rate)
  local a = g:body(sys, g:entname("a"), 1, 0.1, vec{ 0.5, 0 }, nil, rate)
  local b = g:body(sys, g:entname("b"), 0.5, 0.05, vec{ 1, 0 }, nil, rate)
  g:entity(sys, "spring", "spring", g:entname("s"), { { 1, g:v(sys) .. ".ground" }, { 2, g:v(a) },
    { "at", vec{ vec{ 0, 0 }, vec{ 0.5, 0 } } },
    { "law", g:callback("l, rate, t", "100 * (l - 0.5) + rate", g:v(sys)) } }, rate)
  g:entity(sys, "spring", "spring", g:entname("s"), { { 1, g:v(a) }, { 2, g:v(b) }, { "k", num(g:logu(1, 1e5)) },
    { "c", num(g:float(0, 2)) } }, rate)
  g:entity(sys, "rotational_spring", "spring", g:entname("rs"), { { 1, g:v(a) }, { 2, g:v(b) },
    { "k", num(g:logu(1, 1e3)) } }, rate)
  local ret = g:chance(0.6) and "-x, -y, 0" or fmt("-x, -%s:value(%s), 0", g:v(sys), g:channel(sys))
  g:entity(sys, "force", "load", g:entname("f"), { { 1, g:v(b) }, { "body_at", vec{ 0.1, 0 } },
    { "fn", g:callback("t, x, y, phi, vx, vy, omega", ret, g:v(sys)) } }, rate)
  if g:chance(0.5) then
    g:entity(sys, "fixed", "joint", g:entname("weld"), { { 1, g:v(sys) .. ".ground" }, { 2, g:v(a) },
      { "method", '"penalty"' }, { "k", vec{ 1e4, 1e4, 1e2 } } }, rate)
  end
  local p = g:slot("point", { sys = sys })
  g:step("V[%d] = %s:point{ name = %s, body_at = %s }", p.id, g:v(b), g:ename("p"), g:pt())
  return sys
end

-- A flexible slider from a small mesh (mesher or gmsh file) in a guide.
function TEMPLATES.flexible(g, rate)
  local sys = g:system(rate)
  local m = g:slot("mesh")
  if g:chance(0.7) then
    g:step("V[%d] = mech.mesh.rectangle%s", m.id, g:args({ { "size", vec{ 0.5, 0.3 } }, { "nx", g:int(1, 3) },
      { "ny", g:int(1, 2) }, { "center", vec{ 0, 0 } }, { "triangles", g:chance(0.3) and "true" or "false" } }, rate))
  else
    local mesh = g:pick{ MESHES[1], MESHES[2], MESHES[3] }
    g:step("V[%d] = mech.mesh.read(H.file(%s))", m.id, q(mesh.text))
  end
  local fe = g:slot("flexible", { sys = sys, name = g:entname("fe"), nnodes = 4 })
  sys.ents[#sys.ents + 1] = fe
  g:step("V[%d] = %s:flexible%s", fe.id, g:v(sys), g:args({ { "name", q(fe.name) }, { "mesh", g:v(m) },
    { "E", num(g:logu(1e3, 1e9)) }, { "density", num(g:float(1, 10)) }, { "alpha", num(g:float(0, 0.1)) },
    { "beta", num(g:logu(1e-6, 0.5)) }, { "plane", q(g:pick{ "stress", "strain" }) },
    { "lumping", q(g:pick{ "row_sum", "hrz" }) } }, rate))
  g:step("V[%d] = %s:guide%s", g:slot("guide").id, g:v(sys), g:args({ { 1, g:v(fe) }, { "clearance", num(2.5e-3) },
    { "law", g:nlaw(true) }, { "friction", g:flaw() } }, rate))
  local node = g:slot("node", { sys = sys })
  g:step("V[%d] = %s:node(%s)", node.id, g:v(fe), g:chance(0.9) and tostring(g:int(1, 4)) or g:hnum())
  g:entity(sys, "force", "load", g:entname("pull"), { { 1, g:v(node) }, { "amplitude", vec{ 1.5, 0 } },
    { "omega", num(math.pi / 10) } }, rate)
  return sys
end

-- The stdlib's ready models, in quick form.
function TEMPLATES.stdlib(g, rate)
  local s = g:slot("system", { ents = {}, sane = false, mutations0 = g.mutations })
  g.cursys = s
  local r = g:int(1, 4)
  if r == 1 then
    g:step("V[%d] = require('benchmarks').a%s", s.id, g:args({ { "clearance", "require('benchmarks').a_clearance()" } }, rate))
    s.ents = { { kind = "body", name = "slider" }, { kind = "joint", name = "pin" } }
  elseif r == 2 then
    g:step("V[%d] = require('benchmarks').b%s", s.id, g:args({ { "gap", num(1e-3) } }, rate))
    s.ents = { { kind = "body", name = "slider" }, { kind = "joint", name = "guide" } }
  elseif r == 3 then
    g:step("V[%d] = require('spec000').oscillator%s", s.id, g:args({ { "nx", g:int(1, 3) }, { "ny", g:int(1, 3) } }, rate))
    s.ents = { { kind = "flexible", name = "slider", nnodes = 4 } }
  else
    g:step("V[%d] = require('spec000').slider_crank%s", s.id, g:args({ { "nx", 2 }, { "ny", 2 } }, rate))
    s.ents = { { kind = "flexible", name = "slider", nnodes = 9 }, { kind = "body", name = "crank" } }
  end
  return s
end

-- ---- simulation and what follows -----------------------------------------------------------

local METHODS = { "dopri5", "rk4", "bdf" }

-- sys:simulate with a record list, events and Lua channels; the run goes to a slot.
function G:simulate(sys, rate)
  local run = self:slot("run", { sys = sys })
  local method = self:pick(METHODS)
  local t = self:pick{ 1e-3, 2e-3, 5e-3, 1e-2 }
  local f = { { "t", num(t) }, { "method", q(method) }, { "quiet", "true" } }
  if method == "rk4" then f[#f + 1] = { "h", num(t / self:int(10, 400)) } end
  if self:chance(0.7) then f[#f + 1] = { "report", num(t / self:int(2, 200)) } end
  if self:chance(0.3) then f[#f + 1] = { "rtol", num(self:logu(1e-10, 1e-3)) } end
  if self:chance(0.2) then f[#f + 1] = { "atol", num(self:logu(1e-12, 1e-4)) } end
  if method == "bdf" and self:chance(0.3) then f[#f + 1] = { "max_order", tostring(self:int(1, 5)) } end
  if method == "dopri5" and self:chance(0.2) then f[#f + 1] = { "max_step", num(t / self:int(1, 50)) } end
  if self:chance(0.3) then -- states kept for run:scene and run:animate
    f[#f + 1] = { "motion", self:chance(0.85) and num(t / self:int(2, 60))
      or self:pick{ "0", "-1", "NAN", "1e-300", "1e300", '"x"', "{}" } }
  end
  if sys.clear and self:chance(sys.box and 0.95 or 0.85) then
    -- a journal's contacts with an unregularised or barely regularised friction law, or laws
    -- far too stiff, hold an explicit method at tiny steps (5e5 steps for 10 ms, 20 s under
    -- ASan: "slow" cases): the steps are bounded instead (the error names max_steps); a box
    -- slider jammed across its channel, spinning, with Ambrosio's friction holds BDF of order 1
    -- at 2e-9 s steps (2e6 steps for 5 ms)
    f[#f + 1] = { "max_steps", self:pick{ "1e4", "2e4", "5e4" } }
  elseif sys.dim == 3 and self:chance(0.1) then
    f[#f + 1] = { self:pick{ "max_steps", "max_distance" }, self:pick{ "1", "10", "1e5", "0", "-1", "NAN", "1e-300", "2^63" } }
  end
  local rec = {}
  for _ = 1, self:int(0, 6) do rec[#rec + 1] = self:channel(sys) end
  if self:chance(0.4) then
    rec[#rec + 1] = self:name("user") .. " = " .. self:callback("t, s", "s:value(" .. self:channel(sys) .. ")", self:v(sys))
  end
  if #rec > 0 then
    local list = "{ " .. concat(rec, ", ") .. " }"
    -- (a spatial case makes many entities that fail: keep the channels of those that exist)
    if sys.dim == 3 and self:chance(0.7) then list = fmt("H.known(%s, %s)", self:v(sys), list) end
    f[#f + 1] = { "record", list }
  end
  if self:chance(0.4) then
    local evs = {}
    for _ = 1, self:int(1, 2) do
      local e
      if self:chance(0.6) then
        e = fmt("{ name = %s, channel = %s, value = %s, direction = %d", self:ename("ev"), self:channel(sys),
          self:small(), self:int(-1, 1))
        if self:chance(0.2) then e = e .. fmt(", period = %s, direction = 1", num(self:logu(1e-4, 1))) end
      else
        e = fmt("{ name = %s, fn = %s", self:ename("ev"), self:callback("t, s", "math.sin(1000 * t)", self:v(sys)))
      end
      local a = self:int(1, 4)
      if a == 1 then e = e .. ', action = "stop"'
      elseif a == 2 then e = e .. ", action = " .. self:callback("t, s", 'nil', self:v(sys)) end
      evs[#evs + 1] = e .. " }"
    end
    if self:chance(0.2) then evs[#evs + 1] = fmt("analysis.strobe{ period = %s }", num(self:logu(1e-4, 1e-2))) end
    f[#f + 1] = { "events", "{ " .. concat(evs, ", ") .. " }" }
  end
  if self:chance(0.3) then f[#f + 1] = { "on_error", '"return"' } end
  if self:chance(0.2) then f[#f + 1] = { "params", self:chance(0.5) and fmt("{ case = %d, note = %s }", self.n, self:hstr()) or self:htab() } end
  local m0 = self.mutations
  local a = self:args(f, rate)
  local bound = sys.sane and self.mutations == m0 and "10" or "nil"
  if self:chance(0.15) then
    self:step("H.co(function() V[%d] = %s:simulate%s end)", run.id, self:v(sys), a)
  else
    self:step("V[%d] = %s:simulate%s; H.check_run(V[%d], %s)", run.id, self:v(sys), a, run.id, bound)
  end
  return run
end

-- Results: columns, CSV (with its oracle), reductions and indexing.
function G:results(run)
  local r = self:v(run)
  local sys = run.sys
  local acts = {
    function()
      local c = self:slot("column")
      self:step("V[%d] = %s[%s]", c.id, r, self:chance(0.8) and self:channel(sys) or self:hostile())
    end,
    function()
      local c = self:slot("column")
      self:step("V[%d] = %s.t", c.id, r)
    end,
    function() self:step("return #%s, %s.rows, %s.status, %s.ok, %s.message, %s.stats, %s.events, %s.channels", r, r, r, r, r, r, r, r) end,
    function() self:step("return %s:column(%s)", r, self:chance(0.7) and self:channel(sys) or self:hostile()) end,
    function()
      local path, fresh = self:path(".csv")
      local opts = self:chance(0.5) and "" or ", " .. self:args({ { "params", fmt("{ a = 1, b = %s }", self:hstr()) },
        { "columns", "{ " .. self:channel(sys) .. " }" } }, 0.3)
      if self:chance(0.2) then self:before(fmt("H.interrupt(%d)", self:int(1, 60))) end
      self:step("local ok = pcall(%s.csv, %s, %s%s); H.check_csv(%s, ok, %s)", r, r, path, opts, path,
        fresh and "true" or "false")
    end,
    function()
      local opts = self:chance(0.4) and "" or ", " .. self:args({ { "params", fmt("{ a = 1, b = %s }", self:hstr()) },
        { "columns", "{ " .. self:channel(sys) .. " }" }, { "version", self:pick{ '"5"', '"7.3"', self:hostile() } } }, 0.3)
      self:step("pcall(%s.mat, %s, %s%s)", r, r, self:path(".mat"), opts)
    end,
    function()
      local joint = #self.names > 0 and self:chance(0.8) and q(self:pick(self.names)) or self:hstr()
      self:step("local ok, f = pcall(plot.clearance, { %s, joint = %s%s }); if ok then f:save(%s) end", r, joint,
        self:chance(0.5) and "" or fmt(", clearance = %s, frame = %s", self:pick{ "1e-3", "-1", "NAN", "1e300" },
          q(self:pick{ "world", "bearing", "moon" })), self:path(".png"))
    end,
    function() self:step("print(%s, %s.t, %s.stats.method)", r, r, r) end,
    function()
      self:step("return %s.motion, %s:state(%s)", r, r, self:pick{ "1", "2", r .. ".motion", r .. ".motion + 1", "0",
        "-1", "1.5", "NAN", "2^63", self:hostile() })
    end,
    function()
      self:step("return %s:scene(%s)", r, self:chance(0.7) and num(self:float(0, 0.01)) or self:hostile())
    end,
    function()
      local path, fresh = self:path(self:chance(0.85) and ".gif" or ".mp4")
      -- at most 25 frames: 0.01 s of run at 25 fps and speed 0.01
      local all = {
        { "fps", self:pick{ "1", "25", "0", "-1", "NAN", "1e9" } },
        { "speed", self:pick{ "0.01", "1", "0", "-1", "1e300" } },
        { "magnify", self:pick{ "1", "5", "1e6", "0.5", "NAN" } },
        { "deform", self:pick{ "1", "100", "0", "-1" } },
        { "channel", self:chance(0.7) and self:channel(sys) or self:hostile() },
        { "trace", #self.names > 0 and self:chance(0.7) and q(self:pick(self.names)) or self:hstr() },
        { "view", self:pick{ '"xy"', '"xz"', '{ "xy", "yz" }', '{}', '"moon"', self:hostile() } },
        { "t", self:pick{ "{ 0, 0.001 }", "{ 0.001, 0 }", "{ 0, 1e9 }", "{}", self:hostile() } },
        { "force_scale", self:pick{ "1e-6", "0", "-1", "NAN" } },
        { "frames", self:chance(0.5) and q(self:name("frame")) or self:hostile() },
        { "width", self:pick{ "40", "160", "0", "1e9" } },
        { "title", self:hstr() } }
      local some = { { "file", path } }
      for _, fld in ipairs(all) do
        if self:chance(0.35) then some[#some + 1] = fld end
      end
      local opts = self:args(some, 0.3)
      if self:chance(0.2) then self:before(fmt("H.interrupt(%d)", self:int(1, 60))) end
      self:step("local ok = pcall(%s.animate, %s, %s); H.check_whole(%s, ok, %s)", r, r, opts, path,
        fresh and "true" or "false")
    end,
    function() self:step("return %s[%s]", r, self:hostile()) end,
    function() self:step("return %s.csv(%s, %s)", r, self:hostile(), self:path(".csv")) end,
  }
  self:pick(acts)()
end

function G:column_ops()
  local c = self:any("column")
  if not c then return end
  local v = self:v(c)
  local ops = {
    function() self:step("return %s:min(), %s:max(), %s:mean(), #%s, %s.name, %s.unit, %s.run", v, v, v, v, v, v, v) end,
    function() self:step("return %s[%s]", v, self:pick{ "1", "0", "-1", "#" .. v, "#" .. v .. " + 1", "2^63", "NAN", "1.5", '"min"', "{}", "math.mininteger" }) end,
    function() self:step("return %s:at(%s)", v, self:chance(0.5) and num(self:float(0, 0.01)) or self:hostile()) end,
    function() self:step("return %s:table()", v) end,
    function() self:step("return tostring(%s)", v) end,
    function() self:step("return %s.min(%s)", v, self:hostile()) end,
  }
  self:pick(ops)()
end

-- Figures of runs and of hostile data.
function G:figure()
  local fig = self:slot("figure")
  local f = { { "width", num(self:pick{ 60, 80, 160 }) }, { "height", num(self:pick{ 40, 60, 100 }) },
    { "dpi", num(self:pick{ 30, 50, 72 }) } }
  if self:chance(0.3) then f[#f + 1] = { "rows", tostring(self:int(1, 3)) } end
  if self:chance(0.3) then f[#f + 1] = { "title", self:chance(0.5) and q("run " .. self.n) or self:hstr() } end
  if self:chance(0.2) then f[#f + 1] = { "font", num(self:float(4, 36)) } end
  self:step("V[%d] = plot.figure%s", fig.id, self:args(f, 0.2))
  return fig
end

function G:series_data()
  local col = self:any("column")
  local r = self:int(1, 6)
  if col and r <= 3 then return self:v(col) end
  if r == 4 then return "{ 1, 2, 3, 4 }" end
  if r == 5 then
    return self:pick{ "{ 1, NAN, 3 }", "{ 1e308, -1e308 }", "{ 5e-324, 1e-320 }", "H.big(10000)", "{ 0, 0 }", "{ 1 }", "{}",
      "{ INF }", "{ -1, 0, 1 }", "{ 1e-310, 2e-310 }", "{ 5e-324, 1 }", "{ 1e-300, 1e300 }", "{ 1e-320, 1e-300 }",
      "{ -1.7e308, 1.7e308 }", "{ 1e15, 1e15 + 1 }" }
  end
  return self:hostile()
end

function G:plotting()
  local fig = self:any("figure") or self:figure()
  local v = self:v(fig)
  local acts = {
    function()
      local ax = self:slot("axes")
      self:step("V[%d] = %s:panel(%s)", ax.id, v, self:chance(0.8) and "1" or self:pick{ "0", "2, 1", "NAN", "2^63", "1, 11", '"1"' })
    end,
    function()
      local ax = self:any("axes inset")
      local kind = self:pick{ "line", "scatter", "step" }
      local f = { { "x", self:series_data() }, { "y", self:series_data() } }
      if self:chance(0.3) then f[#f + 1] = { "label", self:chance(0.5) and q("s" .. self.n) or self:hstr() } end
      if self:chance(0.2) then f[#f + 1] = { "color", self:pick{ '"red"', '"#ff0000"', "3", "9", '"nope"', '"#zzzzzz"' } } end
      if kind ~= "scatter" and self:chance(0.2) then f[#f + 1] = { "style", q(self:pick{ "dashed", "dotted", "dashdot", "wavy" }) } end
      if kind == "scatter" and self:chance(0.3) then f[#f + 1] = { "marker", q(self:pick{ "dot", "circle", "square", "triangle", "plus", "cross", "star" }) } end
      self:step("%s:%s%s", ax and self:v(ax) or v .. ":panel(1)", kind, self:args(f, 0.3))
    end,
    function()
      local ax = self:any("axes inset")
      local f = {}
      local function lim()
        local r = self:int(1, 8)
        if r == 1 then
          return self:pick{ "{ 1, 1 }", "{ 2, 1 }", "{ -1e308, 1e308 }", "{ 5e-324, 1e-323 }", "{ NAN, 1 }", "{ 0, INF }",
            "{ 1e-300, 1e300 }", "{ -5e-324, 5e-324 }", "{ 1e15, 1e15 + 1 }", "{ 1e307, 1e308 }", "{ -1.7e308, 1.7e308 }",
            "{ 0, 1e308 }", "{ 5e-324, 1 }" }
        end
        local a = self:float(-1, 1)
        return vec{ a, a + self:logu(1e-6, 10) }
      end
      if self:chance(0.5) then f[#f + 1] = { "xlim", lim() } end
      if self:chance(0.5) then f[#f + 1] = { "ylim", lim() } end
      if self:chance(0.3) then f[#f + 1] = { "xlog", "true" } end
      if self:chance(0.3) then f[#f + 1] = { "ylog", "true" } end
      if self:chance(0.3) then f[#f + 1] = { "title", self:chance(0.5) and '"t^2 #u"' or self:hstr() } end
      if self:chance(0.3) then f[#f + 1] = { "xlabel", self:hstr() } end
      if self:chance(0.2) then f[#f + 1] = { "grid", "true" } end
      if self:chance(0.2) then f[#f + 1] = { "legend", q(self:pick{ "best", "upper right", "center", "nowhere" }) } end
      if self:chance(0.2) then f[#f + 1] = { "aspect", q(self:pick{ "equal", "equal", "auto", "square" }) } end
      self:step("%s:set%s", ax and self:v(ax) or v .. ":panel(1)", self:args(f, 0.2))
    end,
    function()
      local ax = self:any("axes inset")
      self:step("%s:circle%s", ax and self:v(ax) or v .. ":panel(1)", self:args({
        { "radius", self:pick{ "1", "1e-3", "0.5", "-1", "0", "1e300", "1e-300", "NAN", "INF" } },
        { "center", self:pick{ "{ 0, 0 }", "{ 1e300, 0 }", "{ -1e301, 0 }", "{ NAN, 0 }", vec{ self:float(-1, 1), self:float(-1, 1) } } },
        { "label", self:chance(0.5) and q("c" .. self.n) or self:hstr() } }, 0.3))
    end,
    function()
      local ax = self:any("axes")
      local ins = self:slot("inset")
      self:step("V[%d] = %s:inset%s", ins.id, ax and self:v(ax) or v .. ":panel(1)", self:args({
        { "at", vec{ 0.5, 0.5, 0.4, 0.4 } }, { "xlim", vec{ 0, 1e-3 } } }, 0.3))
    end,
    function() self:step("%s:save(%s)", v, self:path(self:pick{ ".png", ".png", ".svg", ".pdf" })) end,
    function()
      -- a whole figure in one step: a series, hostile settings, saved
      local set = {}
      if self:chance(0.5) then set[#set + 1] = { self:pick{ "xlog", "ylog" }, "true" } end
      if self:chance(0.5) then set[#set + 1] = { self:pick{ "xlim", "ylim" }, self:pick{ "{ -1e308, 1e308 }", "{ 5e-324, 1 }", "{ 0, 1e308 }", "{ 1e307, 1e308 }", "{ -1.7e308, 1.7e308 }", "{ 1e-300, 1e300 }", vec{ 0, self:logu(1e-300, 1e300) } } } end
      if self:chance(0.5) then set[#set + 1] = { "grid", "true" } end
      if self:chance(0.3) then set[#set + 1] = { "aspect", '"equal"' } end
      self:step("local f = plot.figure{ dpi = 30, width = 60, height = 40 }; f:panel(1):%s{ x = %s, y = %s }:set%s; f:save(%s)",
        self:pick{ "line", "scatter", "step" }, self:series_data(), self:series_data(), self:args(set, 0.2), self:path(".png"))
    end,
    function() self:step("return tostring(%s)", v) end,
    function()
      local x = self:series_data()
      self:step("V[%d] = plot.figure%s", self:slot("figure").id, self:args({ { 1, q("short") }, { "y", x },
        { "kind", q(self:pick{ "line", "scatter", "step" }) }, { "dpi", "30" }, { "width", "50" }, { "height", "40" } }, 0.3))
    end,
  }
  self:pick(acts)()
end

-- Analysis of runs and of made-up data.
function G:analysing()
  local run = self:any("run")
  local r = run and self:v(run) or "nil"
  local sys = run and run.sys
  local acts = {
    function() self:step("return analysis.spectrum(%s, %s, %s)", r, self:channel(sys), self:args({ { "window", q(self:pick{ "hann", "none", "bad" }) } }, 0.3)) end,
    function() self:step("return analysis.spectrum(%s, { dt = %s })", self:series_data(), self:chance(0.7) and "1e-3" or self:hnum()) end,
    function() self:step("return analysis.peaks(analysis.spectrum({ 0, 1, 0, -1, 0, 1, 0, -1 }, { dt = 1e-3 }), %s)", self:pick{ "1", "3", "0", "NAN", "2^63", "1.5" }) end,
    function() self:step("return analysis.peaks(%s, 2)", self:pick{ "{ freq = { 1, 2 }, amp = { NAN, 1 } }", "{ freq = {}, amp = {} }", "{ freq = H.big(10), amp = H.big(9) }", "{ freq = { 1, 2, 3 }, amp = { 0, 1, 0 } }" }) end,
    function() self:step("return analysis.poincare(%s, %s)", r, self:args({ { "event", '"strobe"' }, { "x", self:channel(sys) }, { "skip", "0" } }, 0.3)) end,
    function() self:step("return analysis.phase(%s, %s, %s)", r, self:channel(sys), self:channel(sys)) end,
    function() self:step("return analysis.in_frame(%s, %s, %s, %s)", r, q(sys and sys.ents[1] and sys.ents[1].name or "b"), self:channel(sys), self:channel(sys)) end,
    function()
      local other = self:any("run")
      self:step("return analysis.compare(%s, %s, %s, %s)", r, other and self:v(other) or r, self:channel(sys), self:args({}, 0.3))
    end,
    function() self:step("return analysis.energy(%s)", r) end,
    function() self:step("return analysis.crossing%s", self:args({ { "channel", self:channel(sys) }, { "value", self:small() } }, 0.3)) end,
    function()
      local s = sys and self:v(sys) or "mech.planar{}"
      self:step("return analysis.bifurcation{ values = { 1, 2 }, run = function(v) return %s:simulate{ t = 1e-3, quiet = true, events = { analysis.strobe{ period = 2e-4 } } } end, section = { x = %s } }", s, self:channel(sys))
    end,
    function() self:step("return fft.spectrum(%s, %s)", self:series_data(), self:args({ { "dt", "1e-3" }, { "window", q(self:pick{ "hann", "none" }) }, { "detrend", q(self:pick{ "mean", "none", "linear" }) } }, 0.3)) end,
  }
  self:pick(acts)()
end

-- Things a script can do to the objects it holds: close, collect, re-enter, reuse.
function G:abuse()
  local acts = {
    { 3, function() local s = self:any("system"); if s then s.closed = true; self:step("H.close(%s)", self:v(s)) end end },
    { 2, function() local s = self:any("system run"); if s then self:step("H.gc(%s)", self:v(s)) end end },
    { 2, function() local s = self:any("run column figure axes"); if s then self:step("H.gc(%s); H.close(%s)", self:v(s), self:v(s)) end end },
    { 3, function() local s = self:any("system run column figure axes mesh body"); if s then self:step("V[%d] = nil; collectgarbage()", s.id) end end },
    { 3, function() local s = self:any("system"); if s then self:step("return %s:value(%s)", self:v(s), self:channel(s)) end end },
    { 2, function() local s = self:any("system"); if s then self:step("return %s:assemble()", self:v(s)) end end },
    { 2, function() local s = self:any("system"); if s then self:step("return %s:describe(), tostring(%s), %s.dof, %s.last_run, %s.ground", self:v(s), self:v(s), self:v(s), self:v(s), self:v(s)) end end },
    { 2, function() local s = self:any("system"); if s then self:step("return %s:entity(%s)", self:v(s), self:chance(0.7) and q(s.ents[1] and s.ents[1].name or "x") or self:hostile()) end end },
    { 2, function()
      local s = self:any("system")
      if s then self:step("return %s:lyapunov%s", self:v(s), self:args({ { "t", num(self:pick{ 1e-3, 1e-2 }) }, { "every", num(1e-4) }, { "method", q(self:pick(METHODS)) }, { "h", "1e-4" } }, 0.3)) end
    end },
    { 2, function()
      local e = self:any("body joint load spring contact flexible node point driver")
      if e then self:step("return %s.name, %s.kind, %s.channels, %s.system, tostring(%s), %s == %s", self:v(e), self:v(e), self:v(e), self:v(e), self:v(e), self:v(e), self:v(e)) end
    end },
    { 1, function() local e = self:any("body node"); if e then self:step("return %s:point{ name = %s, body_at = %s }", self:v(e), self:ename("p"), self:pt()) end end },
    { 2, function()
      local fe = self:any("flexible")
      if fe then
        local v = self:v(fe)
        self:step(self:pick{ "return %s:node(%s)", "return %s:node_mass(%s)", "return %s:find_nodes(%s)", "return %s:frequencies{ n = %s }" },
          v, self:chance(0.6) and tostring(self:int(1, 6)) or self:hostile())
      end
    end },
    { 1, function()
      local fe = self:any("flexible")
      if fe then self:step("return %s:find_nodes(%s)", self:v(fe), self:pick{ '{ group = "top" }', "{ box = { -1, -1, 1, 1 } }", "function(x, y, n) return x > 0 end", "{ near = { 0, 0 } }", "{ where = function() error('w') end }", "{ box = { NAN, 0, 1, 1 } }" }) end
    end },
    { 2, function()
      -- a method called on an object of another kind
      local s = self:pick(self.slots)
      local kinds = { "system", "body", "run", "column", "figure", "axes", "mesh" }
      local k = self:pick(kinds)
      local ms = SURFACE.methods[k] or {}
      if #ms > 0 then
        local m = self:pick(ms)
        local sample = self:any(k)
        if sample then self:step("local f = %s.%s; return f(%s, %s)", self:v(sample), m, self:v(s), self:hostile()) end
      end
    end },
    { 2, function()
      -- add entities to a system that has run
      local s = self:any("system")
      if s then self:step("return %s:body{ name = %s, mass = 1, inertia = 1 }", self:v(s), self:ename("late")) end
    end },
    { 1, function()
      local s = self:any("system")
      if s then self:step("local c <close> = %s", self:v(s)) end
    end },
    { 1, function()
      local s = self:any("system")
      if s then self:step("local co = coroutine.wrap(function() local c <close> = %s; coroutine.yield() end); co(); collectgarbage()", self:v(s)) end
    end },
    { 1, function() self:step("mech.quiet = %s", self:hostile()) end },
    { 1, function() self:step("mech.materials.%s = %s", self:pick(MATERIALS), self:pick{ "{ E = NAN, nu = 0.3 }", "{ E = 1e308, nu = 0.49 }", "{}", '"x"', "H.meta('__index')" }) end },
  }
  self:wpick(acts)()
end

-- ---- malformed mesh files and mesh tables --------------------------------------------------

function G:mutate_text(s)
  local n = self:int(1, 4)
  for _ = 1, n do
    local r = self:int(1, 9)
    local len = #s
    if len == 0 then break end
    local i = self:int(1, len)
    if r == 1 then -- flip a byte
      s = s:sub(1, i - 1) .. string.char(self:int(0, 255)) .. s:sub(i + 1)
    elseif r == 2 then -- truncate
      s = s:sub(1, i)
    elseif r == 3 then -- a number made huge, negative or odd
      local a, b = s:find("%d+", i)
      if a then s = s:sub(1, a - 1) .. self:pick{ "999999999", "2147483648", "-1", "0", "1e300", "nan", "18446744073709551617", "4294967295", "-2147483649" } .. s:sub(b + 1) end
    elseif r == 4 then -- delete a line
      local a = s:find("\n", i) or len
      local b = s:find("\n", a + 1) or len
      s = s:sub(1, a) .. s:sub(b + 1)
    elseif r == 5 then -- duplicate a line
      local a = s:find("\n", i) or len
      local b = s:find("\n", a + 1) or len
      s = s:sub(1, b) .. s:sub(a + 1, b) .. s:sub(b + 1)
    elseif r == 6 then -- a section marker dropped or repeated
      local a, b = s:find("%$%w+", i)
      if a then s = s:sub(1, a - 1) .. (self:chance(0.5) and "" or s:sub(a, b) .. "\n" .. s:sub(a, b)) .. s:sub(b + 1) end
    elseif r == 7 then -- junk inserted
      s = s:sub(1, i) .. self:pick{ "\0", "\255\254", "  ", "\r", "-", ".", "e", "$End", "\n\n" } .. s:sub(i + 1)
    elseif r == 8 then -- a coordinate made non-finite or huge
      local a, b = s:find("%d+%.%d+", i)
      if a then s = s:sub(1, a - 1) .. self:pick{ "nan", "inf", "1e308", "-1e308", "1e-320" } .. s:sub(b + 1) end
    else -- the version changed
      s = s:gsub("^%$MeshFormat\n[^\n]*", "$MeshFormat\n" .. self:pick{ "4.1 1 8", "3 0 8", "2.2 0 4", "4.1 0 8", "99 0 8" }, 1)
    end
  end
  return s
end

function G:meshes()
  local r = self:int(1, 4)
  if r <= 2 then
    local mesh = self:pick(MESHES)
    local m = self:slot("mesh")
    self:step("V[%d] = mech.mesh.read(H.file(%s))", m.id, q(self:mutate_text(mesh.text)))
    if self:chance(0.5) then
      local sys = self:any("system") or self:system(0)
      local fe = self:slot("flexible", { sys = sys, name = self:name("fe"), nnodes = 4 })
      sys.ents[#sys.ents + 1] = fe
      self:step("V[%d] = %s:flexible{ name = %s, mesh = V[%d], E = 1e4, density = 1 }", fe.id, self:v(sys), q(fe.name), m.id)
    end
  elseif r == 3 then
    local nodes = "{ {0, 0}, {1, 0}, {1, 1}, {0, 1} }"
    local els = "{ {1, 2, 3, 4} }"
    local muts = {
      function() nodes = self:pick{ "{ {0, 0}, {1, 0}, {1, 1}, {NAN, 1} }", "{ {0, 0}, {1, 0}, {1, 1} }", "{ {0, 0}, {1, 0}, {1, 1}, {0, 1, 5} }", "{ {0, 0}, {1, 0}, {1, 1}, {0, 1}, {9, 9} }", "H.big(4, { 0, 0 })", "{ {0, 0}, {1e308, 0}, {1e308, 1e308}, {0, 1e308} }" } end,
      function() els = self:pick{ "{ {1, 2, 3, 5} }", "{ {1, 2, 3, 0} }", "{ {4, 3, 2, 1} }", "{ {1, 1, 2, 3} }", "{ {1, 2, 3, 2^31} }", "{ {1, 2, 3, 4}, {1, 2, 3, 4} }", "{ {1, 2} }", "{ {1, 2, 3, 4, 5} }", "{ {1, 2, 3, math.mininteger} }", "{ {1.5, 2, 3, 4} }", "{ {1, 3, 2, 4} }", "{}" } end,
      function() els = els .. ", groups = " .. self:pick{ "{ top = { dim = 1, nodes = { 3, 4 } } }", "{ top = { nodes = { 99 } } }", "{ x = { elements = { 1, 1, 2 } } }", "{ x = { dim = 7, tag = NAN, nodes = {} } }", "{ [1] = {} }", "{ g = { nodes = H.big(100000, 1) } }", "{ g = { elements = { 2^40 } } }", "{ g = { nodes = 3 } }" } end,
    }
    for _ = 1, self:int(1, 2) do self:pick(muts)() end
    local m = self:slot("mesh")
    self:step("V[%d] = mech.mesh.check{ nodes = %s, elements = %s }", m.id, nodes, els)
  else
    local m = self:any("mesh")
    if m then
      local v = self:v(m)
      self:step(self:pick{ "return %s:find_nodes(%s)", "return %s:node_at(%s)", "return tostring(%s), %s" }, v,
        self:pick{ '{ group = "top" }', '{ group = "nope" }', "{ box = { -1, -1, 1, 1 } }", "{ near = { 0.5, 0.5 } }", "function(x, y) return true end", "{ x = NAN, y = 0 }", "{ x = 0, y = 0 }", "{ 1, 2 }", "{ box = { 1, 1, -1, -1 } }" })
    else
      self:step("return mech.mesh.rectangle%s", self:args({ { "size", vec{ 1, 1 } }, { "nx", self:pick{ "1", "3", "300", "0", "-1", "20000000", "2^31", "2^53", "math.maxinteger", "1.5" } },
        { "ny", self:pick{ "1", "2", "100", "2^31" } },
        { "numbering", q(self:pick{ "top", "bottom", "left" }) } }, 0.4))
    end
  end
end

-- ---- calls of every function found, with the catalogue's values or random ones -------------

local FIELD = {
  K = function(g) return num(g:logu(1e4, 1e11)) end,
  n = function(g) return num(g:pick{ 1, 1.5, 2, 3 }) end,
  c = function(g) return num(g:logu(1e-2, 1e4)) end,
  restitution = function(g) return num(g:float(0, 1)) end,
  mu = function(g) return num(g:float(0, 0.5)) end,
  mu_s = function(g) return num(g:float(0.3, 0.8)) end,
  material = function(g) return q(g:pick(MATERIALS)) end,
  materials = function(g) return fmt("{ %q, %q }", g:pick(MATERIALS), g:pick(MATERIALS)) end,
  radius = function(g) return num(g:logu(1e-3, 0.1)) end,
  bearing = function() return "0.01" end,
  journal = function() return "0.0095" end,
  R1 = function(g) return num(g:logu(1e-3, 0.1)) end,
  R2 = function(g) return num(g:logu(1e-3, 0.1)) end,
  a = function(g) return num(g:logu(1e-3, 0.1)) end,
  b = function(g) return num(g:logu(1e-3, 0.1)) end,
  area = function(g) return num(g:logu(1e-6, 1e-2)) end,
  size = function(g) return vec{ g:float(0.1, 2), g:float(0.1, 2) } end,
  nx = function(g) return tostring(g:int(1, 4)) end,
  ny = function(g) return tostring(g:int(1, 4)) end,
  crank = function() return "0.05" end,
  rod = function() return "0.12" end,
  offset = function(g) return num(g:float(-0.01, 0.01)) end,
  period = function(g) return num(g:logu(1e-3, 1)) end,
  channel = function(g) return g:channel(g.cursys) end,
  values = function() return "{ 1, 2 }" end,
  name = function(g) return g:ename("n") end,
  E = function(g) return num(g:logu(1e3, 3e11)) end,
  nu = function(g) return num(g:float(0, 0.49)) end,
  rho = function(g) return num(g:logu(1e2, 1e4)) end,
  rows = function(g) return tostring(g:int(1, 3)) end,
  cols = function(g) return tostring(g:int(1, 3)) end,
  width = function(g) return num(g:float(40, 200)) end,
  height = function(g) return num(g:float(40, 200)) end,
  dpi = function() return "30" end,
  t = function(g) return num(g:pick{ 1e-3, 2e-3, 5e-3 }) end,
  h = function(g) return num(g:pick{ 1e-4, 1e-5 }) end,
  report = function(g) return num(g:pick{ 1e-4, 1e-3 }) end,
  every = function() return "1e-4" end,
  transient = function(g) return num(g:pick{ 0, 1e-3 }) end,
  method = function(g) return q(g:pick(METHODS)) end,
  mass = function(g) return num(g:logu(1e-2, 10)) end,
  inertia = function(g) return num(g:logu(1e-4, 1)) end,
  at = function(g) return g:pt() end,
  k = function(g) return num(g:logu(1, 1e5)) end,
  speed = function(g) return num(g:float(-100, 100)) end,
  x = function(g) return g:series_data() end,
  y = function(g) return g:series_data() end,
  -- the friction laws' options
  regularization = function(g) return g:chance(0.9) and q(g:pick(REGS)) or g:pick(HREG) end,
  v_reg = function(g) return num(g:logu(1e-6, 1e-2)) end,
  v_eps = function(g) return num(g:logu(1e-6, 1e-3)) end,
  vs = function(g) return num(g:logu(1e-4, 1e-1)) end,
  delta = function(g) return num(g:float(0.5, 3)) end,
  sigma0 = function(g) return num(g:logu(1e2, 1e7)) end,
  sigma1 = function(g) return num(g:logu(1e-2, 1e3)) end,
  sigma2 = function(g) return num(g:float(0, 1)) end,
  bounded = function(g) return g:chance(0.8) and "true" or "false" end,
  normalized = function(g) return g:chance(0.5) and "true" or "false" end,
  reset = function(g) return g:chance(0.9) and q(g:pick{ "onset", "never" }) or g:pick(HRESET) end,
}

-- An argument table of some of the given fields (each with probability p), each a value
-- its FIELD generator makes, or a plain number or a hostile value for fields without one.
-- A spatial system's fields where they differ from a planar one's.
local SFIELD = {
  at = function(g) return g:pt3() end,
  body_at = function(g) return g:pt3() end,
  a_at = function(g) return g:pt3() end,
  b_at = function(g) return g:pt3() end,
  inertia = function(g) return g:inertia3(0.1) end,
  axis = function(g) return g:dir3(0.1) end,
  ref = function(g) return g:dir3(0.1) end,
  normal = function(g) return g:dir3(0.1) end,
  axis_a = function(g) return g:dir3(0.1) end,
  axis_b = function(g) return g:dir3(0.1) end,
  velocity = function(g) return g:pt3(1) end,
  omega = function(g) return g:pt3(10) end,
  value = function(g) return g:pt3(1) end,
  amplitude = function(g) return g:pt3(1) end,
  gravity = function() return "{ 0, 0, -9.81 }" end,
  what = function(g) return q(g:pick{ "angle", "distance" }) end,
  products = function(g) return q(g:pick{ "integral", "tensor" }) end,
  frame = function(g) return q(g:pick{ "global", "body" }) end,
  quaternion = function(g) return vec{ g:float(-1, 1), g:float(-1, 1), g:float(-1, 1), g:float(-1, 1) } end,
  euler = function(g) return fmt("{ %q, 0.1, 0.2, 0.3 }", g:pick(SEQS)) end,
  fn = function(g) return g:callback("t, s", "0, 0, 1", g.cursys and g:v(g.cursys)) end,
  law = function(g) return g:callback("l, rate, t", "10 * l", g.cursys and g:v(g.cursys)) end,
  motion = function(g) return g:callback("t", "t", g.cursys and g:v(g.cursys)) end,
  -- sys:revolute's clearance fields and sys:prismatic's (a box slider), each alone or with some
  -- of the others, either joint's given to the other now and then
  clearance = function(g)
    return fmt(g:chance(0.5) and "{ radial = %s, axial = %s }" or "{ x = %s, z = %s }", num(g:logu(5e-5, 1e-3)),
      num(g:logu(5e-5, 1e-3)))
  end,
  slider = function(g)
    return fmt("{ length = %s, width = %s, height = %s }", num(g:logu(1e-2, 6e-2)), num(g:logu(5e-3, 4e-2)),
      num(g:logu(5e-3, 4e-2)))
  end,
  channel = function(g) return fmt("{ width = %s, height = %s }", num(g:logu(5e-3, 4e-2)), num(g:logu(5e-3, 4e-2))) end,
  stiffness = function(g) return q(g:pick{ "corners", "area", "patch", "constant" }) end,
  materials = function(g) return fmt("{ %s, %s }", g:bmaterial(), g:bmaterial()) end,
  material = function(g) return g:bmaterial() end,
  damping = function(g) return g:chance(0.8) and "true" or "false" end,
  v_min = function(g) return num(g:logu(1e-6, 1e-2)) end,
  bearing = function(g) return fmt("{ radius = %s, length = %s }", num(g:logu(4e-3, 3e-2)), num(g:logu(1e-2, 6e-2))) end,
  journal = function(g) return fmt("{ radius = %s, length = %s }", num(g:logu(4e-3, 3e-2)), num(g:logu(1e-2, 6e-2))) end,
  contact = function(g) return g:nlaw() end,
  friction = function(g) return g:flaw(nil, true) end,
}

function G:field_args(fields, p, spatial)
  local f = {}
  for _, k in ipairs(fields) do
    if self:chance(p) then
      local gen = spatial and SFIELD[k] or FIELD[k]
      f[#f + 1] = { k, gen and gen(self) or (self:chance(0.5) and num(self:logu(1e-3, 10)) or self:hostile()) }
    end
  end
  return self:args(f, 0.3)
end

function G:sweep_call()
  local path = self:pick(SURFACE.functions)
  local fields = SURFACE.fields[path]
  local args
  if path == "slidercrank.kinematics" then
    self:step("local k = slidercrank.kinematics%s; return k(%s, %s, %s)", self:args({ { "crank", "0.05" }, { "rod", "0.12" } }, 0.4),
      self:chance(0.6) and self:small() or self:hnum(), self:chance(0.6) and "500" or self:hnum(), self:chance(0.6) and "0" or self:hnum())
    return
  elseif path == "mech.mkdir" then
    args = self:pick{ q(self:name("d") .. "/" .. self:name("e")), '""', '"a\\0b"', q(string.rep("d/", 200)), '"."', self:hostile() }
  elseif path == "mech.mesh.read" then
    args = self:pick{ '"/dev/null"', '"."', '"nofile.msh"', '"/proc/self/maps"', self:hostile() }
  elseif path == "tap.plan" or path == "tap.skip" then
    -- (a count of 1e300 would print lines for ever: a test script's own doing)
    args = self:pick{ "1", "0", "-1", "1.5", '"x"', "nil", "NAN" } .. ", " .. self:pick{ "2", "0", "1.5", "nil", self:hostile() }
  elseif path:match("^tap%.") then
    args = self:hostile() .. ", " .. self:hostile()
  elseif path == "help" then
    local s = self.slots[1] and self:v(self:pick(self.slots)) or "mech"
    args = self:pick{ s, "mech.planar", "plot.figure", "analysis", self:hostile() }
  elseif path == "mech.materials.pair" then
    args = fmt("%s, %s, %s", q(self:pick(MATERIALS)), self:chance(0.8) and q(self:pick(MATERIALS)) or self:hostile(), self:pick{ "nil", "{ mu_s = 0.5, mu = 0.3 }", "{ mu_s = NAN, mu = 0 }", self:hostile() })
  elseif path == "spec001.friction" then
    args = (self:chance(0.7) and q(self:pick(SPEC001_FRICTION)) or self:hostile()) .. ", "
      .. (self:chance(0.6) and num(self:logu(1e-6, 1e-2)) or self:hostile())
  elseif path == "options.fail" then
    args = "2, " .. self:hstr() .. ", " .. self:hstr()
  elseif path == "options.read" then
    args = fmt("%q, %s, { a = 1, b = false }", "fuzz", self:hostile())
  elseif path == "options.numbers" then
    args = fmt("%q, %s, { \"a\" }", "fuzz", self:hostile())
  elseif fields then
    args = self:field_args(fields, 0.5)
  else
    local n = self:int(0, 3)
    local a = {}
    for i = 1, n do a[i] = self:hostile() end
    args = concat(a, ", ")
  end
  self:step("return %s(%s)", path, args)
end

-- A method found by introspection, called on an object of its kind with the fields its
-- probe found (valid values where the catalogue has them) or with hostile values.
local METHOD_KIND = { system = "system", body = "body", node = "body", point = "body", joint = "body",
  load = "body", spring = "body", contact = "body", driver = "body", flexible = "flexible", run = "run",
  column = "column", figure = "figure", axes = "axes", inset = "axes", mesh = "mesh" }

function G:method_sweep()
  local slot = self:any("system body node point joint load spring contact driver flexible run column figure axes inset mesh")
  if not slot then return end
  local kind = METHOD_KIND[slot.kind]
  local spatial = slot.dim == 3 or slot.sys and slot.sys.dim == 3
  if spatial and SURFACE.methods["s" .. kind] then kind = "s" .. kind end
  if spatial then self.cursys = slot.kind == "system" and slot or slot.sys end
  local methods = SURFACE.methods[kind] or {}
  if #methods == 0 then return end
  local m = self:pick(methods)
  local fields = SURFACE.fields[kind .. ":" .. m]
  local args
  if fields and self:chance(0.7) then
    args = self:field_args(fields, 0.4, spatial)
    if spatial and kind == "ssystem" and self:chance(0.6) and args:sub(1, 1) == "{" then
      -- the positional bodies or joint the constructors take
      local r1 = self:body_ref(slot, 0.1)
      local j = self:any("joint", function(s) return s.sys == slot end)
      local first = (m == "rotational_spring" or m == "drive" and self:chance(0.5)) and j and self:v(j) or r1
      args = "{ " .. first .. ", " .. self:body_ref(slot, 0.1) .. ", " .. args:sub(3)
    end
  else
    local a = {}
    for i = 1, self:int(0, 2) do a[i] = self:chance(0.5) and self:hostile() or tostring(self:int(1, 5)) end
    args = "(" .. concat(a, ", ") .. ")"
  end
  self:step("return %s:%s%s", self:v(slot), m, args)
end

-- ---- spatial systems (mech.spatial, man mechlua-spatial(3)) ----------------------------------

-- Rotations in the generator, to write valid matrices (A by rows, world = A body).
local function matmul3(A, B)
  local C = {}
  for i = 1, 3 do
    C[i] = {}
    for k = 1, 3 do C[i][k] = A[i][1] * B[1][k] + A[i][2] * B[2][k] + A[i][3] * B[3][k] end
  end
  return C
end

local function rot3(axis, a)
  local c, s = math.cos(a), math.sin(a)
  if axis == "x" then return { { 1, 0, 0 }, { 0, c, -s }, { 0, s, c } } end
  if axis == "y" then return { { c, 0, s }, { 0, 1, 0 }, { -s, 0, c } } end
  return { { c, -s, 0 }, { s, c, 0 }, { 0, 0, 1 } }
end

local function mat_src(A)
  return "{ " .. vec(A[1]) .. ", " .. vec(A[2]) .. ", " .. vec(A[3]) .. " }"
end

-- Hostile three-vectors: not finite, huge (their norms overflow), tiny (their squares
-- underflow), of the wrong length or type, behind metatables.
local HVEC3 = { "{ 0, 0, 0 }", "{ -0.0, 0, 0 }", "{ NAN, 0, 0 }", "{ 0, INF, 0 }", "{ 0, 0, -INF }",
  "{ 1e308, 1e308, 1e308 }", "{ -1.7e308, 1.7e308, 0 }", "{ 1e200, 1e200, 0 }", "{ 5e-324, 0, 0 }",
  "{ 5e-324, 5e-324, 5e-324 }", "{ 1e-160, 0, 0 }", "{ 1e-300, 1e-300, 1e-300 }", "{ 1, 2 }", "{ 1, 2, 3, 4 }",
  "{}", '{ 1, "2", 3 }', '{ "1", "2", "3" }', "{ 1, nil, 3 }", "{ x = 1, y = 2, z = 3 }", "{ {1}, 2, 3 }",
  "{ math.maxinteger, math.mininteger, 0 }", "{ 2^63, 0, 0 }", "H.proxy({ 1, 2, 3 })",
  "setmetatable({ 1, 2, 3 }, { __index = function() error('idx') end })", 'H.meta("__len", { 1, 2, 3 })',
  "{ 1, 2, 3, n = 3 }", "{ [0] = 1, 2, 3 }", "1", '"1, 2, 3"', "true", "{ 1e-20, 1, 1e20 }", "{ 1.5, 2.5, true }" }

-- Hostile values in an entity's fields: hbegin(h) gives the entity one (now and then two)
-- with probability h, and hz() says whether the field at hand gets it, so that most
-- entities with a fault have one fault, which their constructor must name.
function G:hbegin(h)
  self.hleft = self:chance(h or 0) and self:pick{ 1, 1, 1, 2 } or 0
end

function G:hz()
  if (self.hleft or 0) > 0 and self:chance(0.3) then
    self.hleft = self.hleft - 1
    return true
  end
  return false
end

function G:hvec3()
  self.mutations = self.mutations + 1
  return self:pick(HVEC3)
end

function G:pt3(scale)
  scale = scale or 0.2
  return vec{ self:float(-scale, scale), self:float(-scale, scale), self:float(-scale, scale) }
end

-- A point, mostly fine, hostile with probability h.
function G:spt(h, scale)
  if self:hz() then return self:hvec3() end
  return self:pt3(scale)
end

-- A direction: a world axis (either sign), a random one, one of odd length; hostile with
-- probability h.
function G:dir3(h)
  if self:hz() then return self:hvec3() end
  local r = self:int(1, 7)
  if r <= 3 then
    local v = { 0, 0, 0 }
    v[self:int(1, 3)] = self:pick{ 1, -1, 2, 1e-3 }
    return vec(v)
  end
  local v = { self:float(-1, 1), self:float(-1, 1), self:float(-1, 1) }
  if r == 7 then
    local s = self:pick{ 1e-150, 1e-12, 1e6, 1e150, 1e300 }
    for i = 1, 3 do v[i] = v[i] * s end
  end
  return vec(v)
end

-- Two directions: across each other, or (hostile) parallel, opposite, nearly parallel just
-- inside or outside the tolerance (sine 1e-6), one of them zero.
function G:dir_pair(h)
  if h == true or h ~= false and self:hz() then
    self.mutations = self.mutations + 1
    return self:pick{
      { "{ 1, 0, 0 }", "{ 2, 0, 0 }" }, { "{ 0, 0, 1 }", "{ 0, 0, -1 }" }, { "{ 1, 0, 0 }", "{ 1, 1e-7, 0 }" },
      { "{ 1, 0, 0 }", "{ 1, 1.0000001e-6, 0 }" }, { "{ 1, 0, 0 }", "{ 1, 9.999999e-7, 0 }" },
      { "{ 1, 1, 1 }", "{ -3, -3, -3 }" }, { "{ 0, 0, 0 }", "{ 1, 0, 0 }" }, { "{ 1, 0, 0 }", "{ 5e-324, 0, 0 }" },
      { "{ 1e308, 0, 0 }", "{ 0, 1e308, 0 }" }, { "{ 1e308, 1e308, 0 }", "{ 0, 0, 1 }" },
      { "{ 1e-300, 0, 0 }", "{ 0, 1e-300, 0 }" }, { "{ 5e-324, 0, 0 }", "{ 0, 5e-324, 0 }" },
      { "{ 1, 0, 0 }", "{ 1e16, 1, 0 }" }, { self:hvec3(), "{ 0, 1, 0 }" }, { "{ 1, 0, 0 }", self:hvec3() },
      { "{ 1, 1e-17, 0 }", "{ 1, 0, 0 }" }, { "{ 1, 0, 0 }", "{ -1, 2e-6, 0 }" } }
  end
  local u = self:dir3()
  local v
  repeat v = self:dir3() until v ~= u
  return { u, v }
end

-- Principal moments meeting the triangle inequality, six values with small products, or
-- (hostile) tensors that are barely valid or not: on the triangle inequality or just past
-- its tolerance 1e-3, singular, barely positive definite, tiny or huge (their inverse or
-- squares overflow), of the wrong length.
local HINERTIA = { "{ 1, 1, 2 }", "{ 1, 1, 2.002 }", "{ 1, 1, 2.0021 }", "{ 1, 1, 2.00200001 }",
  "{ 1, 1, 1, 0.5, 0.5, 0.5 }", "{ 1, 1, 1, 0.4999999, 0.4999999, 0.4999999 }",
  "{ 1, 1, 1, 0.49999999999999, 0.49999999999999, 0.49999999999999 }", "{ 1, 1, 1, -0.5, -0.5, -0.5 }",
  "{ 1e-300, 1e-300, 1e-300 }", "{ 5e-324, 5e-324, 5e-324 }", "{ 1e-162, 1e-162, 1e-162 }",
  "{ 1e300, 1e300, 1e300 }", "{ 1.7e308, 1.7e308, 1.7e308 }", "{ 1e154, 1e154, 1e154, 1e154, 0, 0 }",
  "{ 1, 1, 1e-20 }", "{ 1e-20, 1, 1 }", "{ 1e-12, 1e-12, 2e-12 }", "{ 0, 0, 0 }", "{ 0, 1, 1 }", "{ -1, 1, 1 }",
  "{ 1, 1, 1, 0, 0, 1e308 }", "{ 1, 1, 1, 1, 0, 0 }", "{ 1, 2 }", "{ 1, 2, 3, 4 }", "{ 1, 2, 3, 4, 5 }",
  "{ 1, 1, 1, 0, 0, 0, 0 }", "{ NAN, 1, 1 }", "{ 1, 1, INF }", '{ 1, "1", 1 }', "1", "{ 1, 1, 1, NAN, 0, 0 }",
  "{ 1e200, 1e200, 1e200, 0, 0, 1e-200 }", "{ 1, 1, 1, 1e-17, 0, 0 }", "{ 2, 2, 4, 0, 0, 0 }",
  "{ 1, 2, 3, 0.1, 0.2, 0.3 }", "{ 3, 4, 5, 2, 2, 2 }", "{ 1e-3, 1e3, 1e3 }", "{ 1, 1, 1, -1e-300, 1e-300, 0 }" }

function G:inertia3(h)
  if self:hz() then
    self.mutations = self.mutations + 1
    return self:chance(0.85) and self:pick(HINERTIA) or self:hostile()
  end
  local a, b = self:logu(1e-4, 1), self:logu(1e-4, 1)
  local c = self:float(math.abs(a - b), a + b)
  local I = { a, b, c }
  for i = 3, 2, -1 do local j = self:int(1, i); I[i], I[j] = I[j], I[i] end
  if self:chance(0.25) then
    local m = math.min(a, b, c)
    for _ = 1, 3 do I[#I + 1] = self:float(-0.3, 0.3) * m end
  end
  return vec(I)
end

-- The orientation of a body: a list of fields (one form of the five, or none).  Hostile
-- with probability h: zero, tiny or huge quaternions, matrices that are not rotations (or
-- 180-degree turns, where the conversion is delicate), singular Euler angles, parallel
-- axes, two forms at once.
function G:orientation(h)
  local form = self:int(0, 5)
  local hostile = self:hz()
  if hostile then self.mutations = self.mutations + 1 end
  if form == 0 then
    if hostile then return { { self:pick{ "angle", "axis", "quaternion" }, self:pick{ "1", "{ 0, 0, 1 }" } },
      { self:pick{ "matrix", "euler", "axes" }, self:hostile() } } end
    return {}
  elseif form == 1 then
    if hostile then
      return { { "quaternion", self:pick{ "{ 0, 0, 0, 0 }", "{ -0.0, 0, -0.0, 0 }", "{ 5e-324, 0, 0, 0 }",
        "{ 1e-200, 1e-200, 0, 0 }", "{ 1e-320, 0, 0, 1e-320 }", "{ 1e308, 1e308, 1e308, 1e308 }",
        "{ 1e200, 0, 0, 0 }", "{ -1.7e308, 0, 0, 1.7e308 }", "{ NAN, 0, 0, 0 }", "{ 1, 0, 0, INF }", "{ 1, 0, 0 }",
        "{ 1, 0, 0, 0, 0 }", "{ -1, 0, 0, 0 }", "{ 0, 1, 0, 0 }", "{ 0, 0, 0, -1 }", "{ 1, 1e-17, 0, 0 }",
        '{ "1", 0, 0, 0 }', "{ 1, 0, 0, nil }", "{ math.maxinteger, 0, 0, 0 }", "{ 2^53, 1, 0, 0 }",
        self:hostile() } } }
    end
    return { { "quaternion", vec{ self:float(-1, 1), self:float(-1, 1), self:float(-1, 1), self:float(-1, 1) } } }
  elseif form == 2 then
    if hostile then
      return { { "matrix", self:pick{ "{ {1, 0, 0}, {0, 1, 0}, {0, 0, -1} }", "{ {0, 1, 0}, {1, 0, 0}, {0, 0, 1} }",
        "{ {0, 0, 0}, {0, 0, 0}, {0, 0, 0} }", "{ {1, 0, 0}, {0, 1, 0}, {0, 0, 1.0000005} }",
        "{ {1, 0, 0}, {0, 1, 0}, {0, 0, 1.000002} }", "{ {1, 0, 0}, {0, -1, 0}, {0, 0, -1} }",
        "{ {-1, 0, 0}, {0, -1, 0}, {0, 0, 1} }", "{ {-1, 0, 0}, {0, 1, 0}, {0, 0, -1} }",
        "{ {-1/3, 2/3, 2/3}, {2/3, -1/3, 2/3}, {2/3, 2/3, -1/3} }", "{ {1, 0, 0}, {0, 1, 0} }",
        "{ {1, 0}, {0, 1}, {0, 0} }", "{ {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0} }",
        "{ {NAN, 0, 0}, {0, 1, 0}, {0, 0, 1} }", "{ {1e308, 0, 0}, {0, 1e308, 0}, {0, 0, 1e308} }",
        "{ {1e154, 0, 0}, {0, 1e154, 0}, {0, 0, 1e154} }", "{ {2, 0, 0}, {0, 0.5, 0}, {0, 0, 1} }",
        "{ 1, 0, 0, 0, 1, 0, 0, 0, 1 }", '{ {1, 0, 0}, "x", {0, 0, 1} }', "{ {1, 0, 0}, {0, 1, 0}, {0, 0, INF} }",
        "{ {0, -1, 0}, {1, 0, 0}, {0, 0, 1e-7} }", self:hostile() } } }
    end
    local A = matmul3(matmul3(rot3("z", self:float(-4, 4)), rot3("y", self:float(-1.5, 1.5))),
      rot3("x", self:float(-4, 4)))
    if self:chance(0.2) then A = matmul3(A, rot3(self:pick{ "x", "y", "z" }, math.pi)) end
    if self:chance(0.1) then A[1][1] = A[1][1] + self:pick{ 1e-7, -9e-7, 1e-12 } end
    return { { "matrix", mat_src(A) } }
  elseif form == 3 then
    if hostile then
      return { { "axis", self:chance(0.5) and self:hvec3() or self:dir3() },
        { "angle", self:pick{ "NAN", "INF", "1e300", "-1e300", "2^63", "math.maxinteger", "math.pi",
          "-math.pi", "2 * math.pi", "0", "1e16", '"1"', "{}", "nil" } } }
    end
    return { { "axis", self:dir3() }, { "angle", num(self:float(-7, 7)) } }
  elseif form == 4 then
    local names = { "x", "y", "z" }
    local i = self:int(1, 3)
    local j = (i + self:int(0, 1)) % 3 + 1
    local d = self:dir_pair(hostile)
    local ax = fmt("%s = %s, %s = %s", names[i], d[1], names[j], d[2])
    if hostile and self:chance(0.4) then
      ax = ax .. self:pick{ ", exact = \"z\"", ", exact = 1", ", exact = \"w\"", ", exact = \"\"",
        fmt(", %s = { 1, 1, 1 }", names[6 - i - j]), ", w = { 1, 0, 0 }" }
    elseif self:chance(0.4) then
      ax = ax .. fmt(", exact = %q", self:pick{ names[i], names[j] })
    end
    return { { "axes", "{ " .. ax .. " }" } }
  else
    local seq = self:pick(SEQS)
    local proper = seq:sub(1, 1) == seq:sub(3, 3)
    if hostile then
      local r = self:int(1, 4)
      if r == 1 then -- singular: the middle angle where the sequence locks, or within rounding
        local b = proper and self:pick{ "0", "math.pi", "-math.pi", "1e-300", "math.pi - 1e-12", "1e-9", "-0.0" }
          or self:pick{ "math.pi / 2", "-math.pi / 2", "math.pi / 2 + 1e-12", "3 * math.pi / 2", "math.pi / 2 - 1e-9",
            "1.5707963267948966", "1.5707963" }
        return { { "euler", fmt("{ %q, %s, %s, %s }", seq, self:small(), b, self:small()) } }
      elseif r == 2 then
        return { { "euler", fmt("{ %s, 0.1, 0.2, 0.3 }", self:pick{ '"zzx"', '"zyxz"', '""', '"ZYX"', '"zy"',
          '"xyz\\0"', "1", "nil", '"abc"', self:hstr() }) } }
      elseif r == 3 then
        return { { "euler", self:pick{ fmt("{ %q, 1, 2 }", seq), fmt("{ %q, 1, 2, 3, 4 }", seq),
          fmt("{ %q, NAN, 0.2, 0.3 }", seq), fmt("{ %q, 0.1, INF, 0.3 }", seq), fmt("{ %q, 1e300, 0.2, -1e300 }", seq),
          fmt('{ %q, "1", 0.2, 0.3 }', seq), "{ 0.1, 0.2, 0.3 }", fmt("{ %q }", seq), fmt("{ [2] = 1, %q }", seq),
          fmt("{ %q, 2^63, 0.2, 0.3 }", seq) } } }
      end
      return { { "euler", fmt("{ %q, 0.1, 0.2, 0.3 }", seq) }, { self:pick{ "quaternion", "axes", "matrix" },
        self:pick{ "{ 1, 0, 0, 0 }", "{ x = { 1, 0, 0 }, y = { 0, 1, 0 } }", "{ {1, 0, 0}, {0, 1, 0}, {0, 0, 1} }" } } }
    end
    local b = proper and self:float(0.2, 2.9) or self:float(-1.4, 1.4)
    return { { "euler", fmt("{ %q, %s, %s, %s }", seq, num(self:float(-4, 4)), num(b), num(self:float(-4, 4))) } }
  end
end

-- mech.spatial{...}: a system slot with dim 3.
function G:ssystem(rate)
  local s = self:slot("system", { ents = {}, sane = true, mutations0 = self.mutations, dim = 3 })
  self.cursys = s
  local r = self:int(1, 10)
  local grav = r <= 6 and "{ 0, 0, -9.81 }" or r <= 8 and self:pt3(20) or "{ 0, -9.81, 0 }"
  if self:chance(0.05) then
    grav = self:pick{ "{ 0, 0, -1e308 }", "{ 1e308, 1e308, 1e308 }", "{ 0, -9.81 }", "{ 0, 0, NAN }",
      "{ 1e300, -1e300, 0 }", "{ 0, 0, -1.7e308 }", "{ 0, 0, -9.81, 0 }" }
    self.mutations = self.mutations + 1
  end
  local fields = { { "gravity", grav } }
  if self:chance(0.2) then fields[#fields + 1] = { "baumgarte", vec{ self:float(0, 50), self:float(0, 50) } } end
  if self:chance(0.1) then fields[#fields + 1] = { "assemble", "false" } end
  if self:chance(0.03) then fields[#fields + 1] = { "start", q("ideal") } end
  self:step("V[%d] = mech.spatial%s", s.id, self:args(fields, rate / 3))
  if self.mutations > s.mutations0 then s.sane = false end
  return s
end

-- sys:body{...} of a spatial system; h the chance of a hostile value in each field.
function G:sbody(sys, name, at, h, extra, rate)
  self:hbegin(h)
  local f = {}
  local mass = num(self:logu(1e-2, 10))
  if self:hz() then
    self.mutations = self.mutations + 1
    mass = self:pick{ "5e-324", "1e-300", "1e300", "1.7e308", "0", "-1", "NAN", "INF", '"1"', "true", "{ 1 }",
      "1e-12", "1e12" }
  end
  f[#f + 1] = { "mass", mass }
  f[#f + 1] = { "inertia", self:inertia3(h) }
  local I = f[#f][2]
  if select(2, I:gsub(",", "")) >= 5 and self:chance(0.3) or self:hz() then
    f[#f + 1] = { "products", self:chance(0.8) and q(self:pick{ "integral", "tensor" }) or self:hostile() }
  end
  f[#f + 1] = { "at", self:hz() and self:hvec3() or at }
  for _, x in ipairs(self:orientation(h)) do f[#f + 1] = x end
  if self:chance(0.4) then f[#f + 1] = { "velocity", self:hz() and self:hvec3() or self:pt3(1) } end
  if self:chance(0.4) then
    f[#f + 1] = { "omega", self:hz() and self:pick{ self:hvec3(), "{ 0, 0, 1e4 }", "{ 1e6, 0, 0 }" } or self:pt3(20) }
  end
  for _, x in ipairs(extra or {}) do f[#f + 1] = x end
  local e = self:entity(sys, "body", "body", name, f, rate)
  e.dim = 3
  return e
end

-- The number of equations of each spatial joint (a penalty joint's k and c per equation).
local SJOINT_NEQ = { revolute = 5, spherical = 3, universal = 4, cylindrical = 4, prismatic = 5,
  translational = 5, planar = 3, fixed = 6 }
local SJOINT_KINDS = { "revolute", "spherical", "universal", "cylindrical", "prismatic", "translational",
  "planar", "fixed" }

-- sys:<kind>{ a, b, ... } of a spatial system: a and b are sources (a body slot's V[i], the
-- ground, or anything); at the world anchor.
function G:sjoint(sys, kind, a, b, at, h, rate)
  self:hbegin(h)
  local f = { { 1, a }, { 2, b } }
  local r = self:int(1, 12)
  local centre = kind == "prismatic" or kind == "translational" or kind == "planar" or kind == "fixed"
  at = at or self:pt3()
  if r <= 8 then f[#f + 1] = { "at", self:hz() and self:hvec3() or at }
  elseif r <= 10 then
    f[#f + 1] = { "a_at", self:spt(h) }
    f[#f + 1] = { "b_at", self:spt(h) }
  elseif r == 11 and self:chance(h + 0.1) then -- both ways, or one end only
    f[#f + 1] = { self:pick{ "a_at", "b_at", "at" }, self:pt3() }
    f[#f + 1] = { self:pick{ "a_at", "b_at" }, self:pt3() }
  elseif not centre and self:chance(0.8) then
    f[#f + 1] = { "at", at }
  end
  if kind == "universal" then
    if self:chance(0.95) then
      local d = self:dir_pair(h)
      f[#f + 1] = { "axis_a", d[1] }
      f[#f + 1] = { "axis_b", d[2] }
    end
  elseif kind ~= "spherical" then
    local key = kind == "planar" and self:pick{ "normal", "normal", "axis" } or "axis"
    local need = kind ~= "fixed" or self:chance(0.5)
    if self:chance(0.3) then
      local d = self:dir_pair(h)
      f[#f + 1] = { key, d[1] }
      f[#f + 1] = { "ref", d[2] }
    elseif need and self:chance(0.97) then
      f[#f + 1] = { key, self:dir3(h) }
    end
    if kind == "planar" and self:hz() then f[#f + 1] = { key == "axis" and "normal" or "axis", self:dir3() } end
  elseif self:hz() then
    f[#f + 1] = { self:pick{ "axis", "ref", "axis_a", "normal" }, self:dir3() }
  end
  if self:chance(0.15) then
    local neq = SJOINT_NEQ[kind]
    f[#f + 1] = { "method", '"penalty"' }
    local k = {}
    local n = self:chance(0.5) and 1 or (not self:hz() and neq or self:pick{ neq - 1, neq + 1, 0, 6 })
    for i = 1, n do k[i] = self:logu(1e2, 1e9) end
    if n > 0 and self:hz() then k[self:int(1, n)] = self:pick{ 0, -1, 1e300, 0 / 0, math.huge, 5e-324 } end
    f[#f + 1] = { "k", n == 1 and num(k[1]) or vec(k) }
    if self:chance(0.5) then f[#f + 1] = { "c", num(self:logu(1e-2, 1e3)) } end
  elseif self:chance(0.03) then
    f[#f + 1] = { "k", num(1e5) } -- k without penalty: an error
  end
  if self:chance(0.1) then
    f[#f + 1] = { "baumgarte", not self:hz() and vec{ self:float(0, 50), self:float(0, 50) }
      or self:pick{ "{ -1, 5 }", "{ NAN, 1 }", "{ 1e308, 1e308 }", "{ 1, 2, 3 }", "5" } }
  end
  -- with clearance now and then (G:cfields): a revolute joint's, or (an error) another kind's;
  -- with the enforcement fields above now and then (an error too)
  -- or a box slider's (G:bsizes, G:blaws): a prismatic joint's, or (an error) another kind's
  local clear = kind == "revolute" and self:chance(0.08) or self:chance(0.01)
  local box = not clear and (kind == "prismatic" and self:chance(0.08) or self:chance(0.01))
  if clear then self:cfields(f, h) end
  local stiff
  if box then
    if not self:hz() then -- (the enforcement fields above are refused with clearance)
      for i = #f, 3, -1 do
        local k = f[i][1]
        if k == "method" or k == "k" or k == "c" or k == "baumgarte" then table.remove(f, i) end
      end
    end
    local sizes = self:bsizes()
    for _, x in ipairs(sizes) do f[#f + 1] = x end
    stiff = self:blaws(f)
  end
  local e = self:entity(sys, kind, "joint", self:entname(kind:sub(1, 3)), f, rate)
  e.jtype = kind == "translational" and "prismatic" or kind
  e.dim = 3
  if clear and kind == "revolute" then self:cjoint(sys, e) end
  if box and kind == "prismatic" then self:bjoint(sys, e, stiff) end
  return e
end

-- sys:drive{...} on a joint or body slot (any joint type: a spherical joint's driver is an
-- error), with speed or motion, what, axis, start.
function G:sdrive(sys, target, h, rate)
  self:hbegin(h)
  local f = { { 1, target and self:v(target) or self:hostile() } }
  local body = target and target.kind == "body"
  if target and target.jtype == "cylindrical" and self:chance(0.9) or self:chance(0.1) then
    f[#f + 1] = { "what", self:chance(0.9) and q(self:pick{ "angle", "distance" }) or self:hostile() }
  end
  if body and self:chance(0.7) or self:chance(0.05) then f[#f + 1] = { "axis", self:dir3(h) } end
  if self:chance(0.7) then
    local sp = self:pick{ 1, -2 * math.pi, 10, 0, 0.1 }
    f[#f + 1] = { "speed", self:hz() and self:pick{ "NAN", "INF", "1e300", "-1e308", '"1"', "{}", "5e-324" } or num(sp) }
  else
    local ret = self:pick{ "2 * t", "math.sin(10 * t)", "t * t, 2 * t, 2", "0.1 * t, 0.1", "t, nil, 0" }
    f[#f + 1] = { "motion", self:callback("t", ret, self:v(sys)) }
  end
  if self:chance(0.2) then f[#f + 1] = { "start", not self:hz() and self:small() or self:hnum() } end
  if self:chance(0.1) then f[#f + 1] = { "baumgarte", vec{ self:float(0, 50), self:float(0, 50) } } end
  if self:chance(0.03) then f[#f + 1] = { "speed", "1" }; f[#f + 1] = { "motion", "function(t) return t end" } end
  return self:entity(sys, "drive", "driver", self:entname("drv"), f, rate)
end

-- A spatial load's function(t, s): sane, hostile as other callbacks are, or abusing the state
-- table s (kept, emptied, given a metatable, filled with other types).
function G:sfn(ret, sys)
  if self:chance(0.12) then
    self.mutations = self.mutations + 1
    local act = self:pick{ "s.x = 'str'", "setmetatable(s, { __index = function() error('idx') end, __newindex = function() error('ni') end })",
      "for k in pairs(s) do s[k] = nil end", "H.keep = s", "s[1] = s; s.e0 = {}", "rawset(s, 'wx', nil)",
      "s.x = nil; s.y = nil", "setmetatable(s, { __gc = function() error('gc') end }); s = nil; collectgarbage()",
      "for i = 1, 100 do s['k' .. i] = i end" }
    return fmt("H.cb(%d, function(t, s) %s end, function(t, s) return %s end)", self:pick{ 1, 2, 5, 20 }, act, ret)
  end
  return self:callback("t, s", ret, sys)
end

function G:sload(sys, body, torque, h, rate)
  self:hbegin(h)
  local f = { { 1, body and self:v(body) or self:hostile() } }
  if not torque and self:chance(0.5) then
    f[#f + 1] = { self:pick{ "at", "body_at" }, self:spt(h) }
  elseif not torque and self:chance(0.03) then
    f[#f + 1] = { "at", self:pt3() }
    f[#f + 1] = { "body_at", self:pt3() }
  end
  local r = self:int(1, 3)
  if r == 1 then
    f[#f + 1] = { "value", self:hz() and self:hvec3() or self:pt3(torque and 0.1 or 5) }
  elseif r == 2 then
    if self:chance(0.5) then f[#f + 1] = { "value", self:pt3(1) } end
    f[#f + 1] = { "amplitude", self:hz() and self:hvec3() or self:pt3(torque and 0.1 or 5) }
    if self:chance(0.95) then f[#f + 1] = { "omega", self:hz() and self:hnum() or num(self:float(1, 100)) } end
    if self:chance(0.3) then f[#f + 1] = { "phase", self:hz() and self:hnum() or self:small() } end
  else
    local ret = torque and self:pick{ "0, 0, 0.01", "-0.01 * s.wx, -0.01 * s.wy, -0.01 * s.wz", "0, 0, math.sin(t)" }
      or self:pick{ "0, 0, 1", "-s.x, -s.y, -s.z", "-s.vx, -s.vy, -s.vz, 0, 0, 0.01", "0, 0, 0, -0.01 * s.wx, 0, 0",
        "s.e0, s.e1, s.e2, s.e3", "1, 0" }
    f[#f + 1] = { "fn", self:sfn(ret, self:v(sys)) }
  end
  if self:chance(0.2) then f[#f + 1] = { "frame", not self:hz() and q(self:pick{ "global", "body" }) or self:hostile() } end
  local e = self:entity(sys, torque and "torque" or "force", "load", self:entname(torque and "tq" or "f"), f, rate)
  return e
end

function G:sspring(sys, a, b, h, rate)
  self:hbegin(h)
  local f = { { 1, a }, { 2, b } }
  local r = self:int(1, 3)
  if r == 1 then f[#f + 1] = { "at", "{ " .. self:spt(h, 0.5) .. ", " .. self:pt3(0.5) .. " }" }
  elseif r == 2 then
    f[#f + 1] = { "a_at", self:spt(h) }
    f[#f + 1] = { "b_at", self:pt3() }
  elseif self:hz() then
    f[#f + 1] = { "at", self:pick{ "{ { 0, 0, 0 } }", "{ {0, 0}, {1, 1} }", "{ 1, 2, 3 }", "{ {0, 0, 0}, {0, 0, 0}, {1, 1, 1} }",
      "{ {0, 0, 0}, {NAN, 0, 0} }", "{ {0, 0, 0}, {1e308, 1e308, 1e308} }" } }
  end
  if self:chance(0.7) then
    f[#f + 1] = { "k", self:hz() and self:hnum() or num(self:logu(1, 1e5)) }
    if self:chance(0.5) then f[#f + 1] = { "c", self:hz() and self:hnum() or num(self:float(0, 5)) } end
  else
    f[#f + 1] = { "law", self:callback("l, rate, t", self:pick{ "100 * (l - 0.5) + rate", "10 * l", "-1e308", "l / rate" }, self:v(sys)) }
  end
  if self:chance(0.3) then f[#f + 1] = { "length", self:hz() and self:hnum() or num(self:float(0, 1)) } end
  return self:entity(sys, "spring", "spring", self:entname("sp"), f, rate)
end

function G:srspring(sys, joint, h, rate)
  self:hbegin(h)
  local f = { { 1, joint and self:v(joint) or self:hostile() } }
  f[#f + 1] = { "k", self:hz() and self:hnum() or num(self:logu(1e-2, 1e3)) }
  if self:chance(0.5) then f[#f + 1] = { "c", self:hz() and self:hnum() or num(self:float(0, 1)) } end
  if self:chance(0.3) then f[#f + 1] = { "angle", self:hz() and self:hnum() or self:small() } end
  local e = self:entity(sys, "rotational_spring", "spring", self:entname("rs"), f, rate)
  e.ch = "rspring"
  return e
end

-- The bodies of a system slot.
function G:sbodies(sys)
  return self:find("body", function(s) return s.sys == sys end)
end

-- A body source for a joint of sys: the ground, one of its bodies, now and then a body of
-- another system (planar or spatial), a joint, or a hostile value.
function G:body_ref(sys, h)
  local r = self:int(1, 20)
  local own = self:sbodies(sys)
  if r <= 6 or #own == 0 then return self:v(sys) .. ".ground" end
  if r <= 18 or not self:chance(h + 0.2) then return self:v(self:pick(own)) end
  self.mutations = self.mutations + 1
  local other = self:any("body joint driver load", function(s) return s.sys ~= sys end)
  if r == 19 and other then return self:v(other) end
  return self:pick{ "mech.planar{}.ground", "mech.spatial{}.ground", self:hostile(), "nil", self:v(sys) }
end

-- Adds one random entity to a spatial system slot (from the templates and later, also after
-- runs).
function G:sentity(sys, h, rate)
  local bodies = self:sbodies(sys)
  local r = self:wpick{ { 3, "body" }, { 3, "joint" }, { 2, "drive" }, { 2, "spring" }, { 1, "rspring" },
    { 2, "load" }, { 1, "point" }, { 1, "clearance" }, { 1, "box" } }
  if r == "body" or #bodies == 0 then
    return self:sbody(sys, self:entname("b"), self:pt3(1), h, nil, rate)
  elseif r == "joint" then
    local a, b = self:body_ref(sys, h), self:body_ref(sys, h)
    if a == b and self:chance(0.7) then b = self:v(sys) .. ".ground" end
    return self:sjoint(sys, self:pick(SJOINT_KINDS), a, b, self:pt3(1), h, rate)
  elseif r == "clearance" then -- centred: both anchors at one point
    local a, b = self:body_ref(sys, h), self:body_ref(sys, h)
    if a == b and self:chance(0.7) then b = self:v(sys) .. ".ground" end
    local at = self:pt3(1)
    return self:sclearance(sys, a, b, function() return { { "at", at } } end, h, rate)
  elseif r == "box" then -- a channel through a point, the slider centred on it
    local a, b = self:body_ref(sys, h), self:body_ref(sys, h)
    if a == b and self:chance(0.7) then b = self:v(sys) .. ".ground" end
    local Y, X, Z = self:bframe()
    local J = self:bprep(h, Y, X, Z)
    return self:sbox(sys, a, b, J, { { "at", self:pt3(1) } }, rate)
  elseif r == "drive" then
    local t = self:any("joint", function(s) return s.sys == sys end)
    if not t or self:chance(0.3) then t = self:pick(bodies) end
    return self:sdrive(sys, t, h, rate)
  elseif r == "spring" then
    return self:sspring(sys, self:body_ref(sys, h), self:body_ref(sys, h), h, rate)
  elseif r == "rspring" then
    local j = self:any("joint", function(s) return s.sys == sys end)
    return self:srspring(sys, j, h, rate)
  elseif r == "load" then
    return self:sload(sys, self:pick(bodies), self:chance(0.4), h, rate)
  else
    local b = self:pick(bodies)
    local p = self:slot("point", { sys = sys })
    local pname = self:name("p")
    p.name = b.name .. "." .. pname
    sys.ents[#sys.ents + 1] = p
    if self:chance(0.5) then
      self:step("V[%d] = %s:point{ %s, name = %s, %s = %s }", p.id, self:v(sys), self:v(b), q(pname),
        self:pick{ "at", "body_at" }, self:spt(h))
    else
      self:step("V[%d] = %s:point{ name = %s, %s = %s }", p.id, self:v(b), q(pname), self:pick{ "at", "body_at" }, self:spt(h))
    end
    return p
  end
end

local STEMPLATES = {}

-- A heavy top (or a spherical pendulum) on a spherical joint, maybe spun up by a torque.
function STEMPLATES.top(g, rate)
  local sys = g:ssystem(rate)
  local h = g:pick{ 0, 0.1, 0.3 }
  local top = g:sbody(sys, g:entname("top"), vec{ 0, g:float(-0.1, 0.1), g:float(0.05, 0.2) }, h,
    g:chance(0.5) and { { "omega", vec{ 0, g:float(-50, 50), g:float(-200, 200) } } } or nil, rate)
  g:sjoint(sys, g:chance(0.85) and "spherical" or g:pick(SJOINT_KINDS), g:v(sys) .. ".ground", g:v(top),
    vec{ 0, 0, 0 }, h, rate)
  if g:chance(0.4) then g:sload(sys, top, true, h, rate) end
  if g:chance(0.2) then g:sdrive(sys, top, h, rate) end
  return sys
end

-- The spatial slider-crank (revolute, spherical, universal, prismatic; 17 equations), driven
-- by its joint or its crank body, or free, with a spring now and then.
function STEMPLATES.slider_crank(g, rate)
  local sys = g:ssystem(rate)
  local h = g:pick{ 0, 0.1, 0.3 }
  local yc = math.sqrt(0.29 ^ 2 - 0.10 ^ 2 - 0.22 ^ 2)
  local P, S = { -0.10, 0, 0.22 }, { 0, yc, 0 }
  local d = { S[1] - P[1], S[2] - P[2], S[3] - P[3] }
  local crank = g:sbody(sys, "crank", vec{ -0.10, 0, 0.17 }, 0, nil, rate)
  local rod = g:sbody(sys, "rod", vec{ (P[1] + S[1]) / 2, (P[2] + S[2]) / 2, (P[3] + S[3]) / 2 }, h, nil, rate)
  local slider = g:sbody(sys, "slider", vec(S), h, nil, rate)
  local pivot = g:sjoint(sys, "revolute", g:v(sys) .. ".ground", g:v(crank), vec{ -0.10, 0, 0.12 }, 0, rate)
  g:sjoint(sys, g:chance(0.9) and "spherical" or g:pick(SJOINT_KINDS), g:v(crank), g:v(rod), vec(P), h, rate)
  g:sjoint(sys, g:chance(0.9) and "universal" or g:pick(SJOINT_KINDS), g:v(slider), g:v(rod), vec(S), h, rate)
  g:sjoint(sys, g:chance(0.9) and "prismatic" or g:pick(SJOINT_KINDS), g:v(sys) .. ".ground", g:v(slider), vec(S), h, rate)
  local r = g:int(1, 4)
  if r <= 2 then g:sdrive(sys, pivot, h, rate)
  elseif r == 3 then g:sdrive(sys, crank, h, rate) end
  if g:chance(0.3) then g:sspring(sys, g:v(sys) .. ".ground", g:v(slider), h, rate) end
  if g:chance(0.3) then g:srspring(sys, pivot, h, rate) end
  return sys
end

-- Random bodies joined at random by random joints (to the ground, to each other, to
-- themselves; redundant and conflicting sets), with drivers, springs and loads.
function STEMPLATES.chain(g, rate)
  local sys = g:ssystem(rate)
  local h = g:pick{ 0, 0.1, 0.3, 0.5 }
  local prev = g:v(sys) .. ".ground"
  for i = 1, g:int(1, 4) do
    local at = vec{ 0.2 * i, g:float(-0.1, 0.1), g:float(-0.1, 0.1) }
    local b = g:sbody(sys, g:entname("link"), at, h, nil, rate)
    local anchor = vec{ 0.2 * i - 0.1, 0, 0 }
    g:sjoint(sys, g:pick(SJOINT_KINDS), prev, g:v(b), anchor, h, rate)
    prev = g:v(b)
  end
  for _ = 1, g:int(0, 4) do g:sentity(sys, h, rate) end
  return sys
end

-- Free bodies with odd inertias and orientations, pushed and twisted by loads.
function STEMPLATES.free(g, rate)
  local sys = g:ssystem(rate)
  local h = g:pick{ 0, 0.2, 0.5, 0.8 }
  local bodies = {}
  for _ = 1, g:int(1, 3) do bodies[#bodies + 1] = g:sbody(sys, g:entname("free"), g:pt3(1), h, nil, rate) end
  for _ = 1, g:int(0, 3) do g:sload(sys, g:pick(bodies), g:chance(0.5), h, rate) end
  if g:chance(0.3) then g:sspring(sys, g:v(g:pick(bodies)), g:v(sys) .. ".ground", h, rate) end
  return sys
end

-- Joint sets that repeat or contradict each other: revolute joints of a planar mechanism in
-- space, two revolute joints with crossed axes, a fixed joint on a jointed body, joints
-- whose anchors disagree (a_at/b_at far apart).
function STEMPLATES.redundant(g, rate)
  local sys = g:ssystem(rate)
  local h = g:pick{ 0, 0.05, 0.2 }
  local r = g:int(1, 4)
  local G0 = g:v(sys) .. ".ground"
  if r == 1 then -- a four-bar of revolute joints about z
    local a = g:sbody(sys, g:entname("crank"), vec{ 0, 0.05, 0 }, h, nil, rate)
    local b = g:sbody(sys, g:entname("coupler"), vec{ 0.1, 0.1, 0 }, h, nil, rate)
    local c = g:sbody(sys, g:entname("rocker"), vec{ 0.2, 0.05, 0 }, h, nil, rate)
    local z = g:chance(0.8) and "{ 0, 0, 1 }" or g:dir3(h)
    local j1 = g:entity(sys, "revolute", "joint", g:entname("r"), { { 1, G0 }, { 2, g:v(a) }, { "at", "{ 0, 0, 0 }" }, { "axis", z } }, rate)
    j1.jtype = "revolute"
    g:entity(sys, "revolute", "joint", g:entname("r"), { { 1, g:v(a) }, { 2, g:v(b) }, { "at", "{ 0, 0.1, 0 }" }, { "axis", z } }, rate).jtype = "revolute"
    local kind = g:pick{ "revolute", "revolute", "spherical", "universal", "cylindrical" }
    local f = { { 1, g:v(b) }, { 2, g:v(c) }, { "at", "{ 0.2, 0.1, 0 }" } }
    if kind == "universal" then f[#f + 1] = { "axis_a", "{ 0, 0, 1 }" }; f[#f + 1] = { "axis_b", "{ 1, 0, 0 }" }
    elseif kind ~= "spherical" then f[#f + 1] = { "axis", z } end
    g:entity(sys, kind, "joint", g:entname("r"), f, rate).jtype = kind
    g:entity(sys, "revolute", "joint", g:entname("r"), { { 1, g:v(c) }, { 2, G0 }, { "at", "{ 0.2, 0, 0 }" }, { "axis", z } }, rate).jtype = "revolute"
    if g:chance(0.6) then g:sdrive(sys, j1, h, rate) end
  elseif r == 2 then -- crossed or doubled axes
    local b = g:sbody(sys, g:entname("b"), g:pt3(0.5), h, nil, rate)
    g:sjoint(sys, "revolute", G0, g:v(b), "{ 0, 0, 0 }", h, rate)
    g:sjoint(sys, g:pick(SJOINT_KINDS), G0, g:v(b), g:pick{ "{ 0, 0, 1 }", "{ 0, 0, 0 }", g:pt3() }, h, rate)
    if g:chance(0.5) then g:sjoint(sys, g:pick(SJOINT_KINDS), g:v(b), G0, g:pt3(), h, rate) end
  elseif r == 3 then -- welded, then jointed and driven
    local a = g:sbody(sys, g:entname("a"), g:pt3(0.5), h, nil, rate)
    local b = g:sbody(sys, g:entname("b"), g:pt3(0.5), h, nil, rate)
    g:sjoint(sys, "fixed", g:v(a), g:v(b), g:pt3(), h, rate)
    local j = g:sjoint(sys, g:pick{ "revolute", "cylindrical", "prismatic" }, G0, g:v(a), g:pt3(), h, rate)
    g:sjoint(sys, g:pick(SJOINT_KINDS), G0, g:v(b), g:pt3(), h, rate)
    g:sdrive(sys, j, h, rate)
  else -- anchors in body coordinates that cannot meet
    local a = g:sbody(sys, g:entname("a"), g:pt3(0.5), h, nil, rate)
    g:sjoint(sys, g:pick(SJOINT_KINDS), G0, g:v(a), "{ 0, 0, 0 }", 0, rate)
    local f = { { 1, G0 }, { 2, g:v(a) }, { "a_at", vec{ g:pick{ 5, 1e6, 0.1 }, 0, 0 } }, { "b_at", "{ 0, 0, 0 }" } }
    local kind = g:pick(SJOINT_KINDS)
    if kind == "universal" then f[#f + 1] = { "axis_a", "{ 1, 0, 0 }" }; f[#f + 1] = { "axis_b", "{ 0, 1, 0 }" }
    elseif kind ~= "spherical" then f[#f + 1] = { kind == "planar" and "normal" or "axis", g:dir3() } end
    g:entity(sys, kind, "joint", g:entname("far"), f, rate).jtype = kind
  end
  return sys
end

-- ---- revolute joints with clearance (sys:revolute{ ..., clearance, bearing, journal, contact,
-- friction }: man mechlua-spatial(3)) ------------------------------------------------------------

local SIZE_KEYS = { bearing = { "radius", "length" }, journal = { "radius", "length" }, clearance = { "radial", "axial" } }
local HCLEAR = { "0", "-0.0", "-5e-4", "NAN", "-NAN", "INF", "-INF", "1e300", "5e-324", "1e-300", "1e-12", '"5e-4"',
  "{}", "true", "2^63", "math.mininteger" }

-- The sizes of a joint with clearance, as fields clearance, bearing and journal: for the radius
-- and for the length two of the bearing's, the journal's and the clearance (now and then all
-- three, agreeing to rounding).  Hostile (hz): one of the three alone, three that disagree, a
-- journal as large as its bearing or larger, a clearance zero, negative, not finite, huge or
-- tiny, sizes far beyond a machine's (1e20 m, 1e-300 m), a part that is not a table or has a
-- field of another part.  Returns the fields and the radial and axial clearances meant.
function G:csizes()
  local Ri, cr = self:logu(4e-3, 3e-2), self:logu(5e-5, 1e-3)
  local Li, ca = self:logu(1e-2, 6e-2), self:logu(5e-5, 1e-3)
  local parts = { bearing = {}, journal = {}, clearance = {} }
  local ORDER = { "bearing", "journal", "clearance" }
  local function sizes(vals, dim) -- vals: the bearing's, the journal's, the clearance; dim 1 radius, 2 length
    local r = self:int(1, 10)
    local which = r <= 3 and { 1, 2 } or r <= 6 and { 1, 3 } or r <= 9 and { 2, 3 } or { 1, 2, 3 }
    for _, i in ipairs(which) do
      local part = ORDER[i]
      parts[part][SIZE_KEYS[part][dim]] = num(vals[i])
    end
  end
  sizes({ Ri, Ri - cr, cr }, 1)
  sizes({ Li, Li - 2 * ca, ca }, 2)
  if self:hz() then
    self.mutations = self.mutations + 1
    local dim = self:int(1, 2)
    local r = self:int(1, 8)
    if r == 1 then -- a journal as large as its bearing, or larger
      parts = { bearing = { radius = num(Ri), length = num(Li) }, clearance = {},
        journal = { radius = num(Ri * self:pick{ 1, 1.05, 2, 1 + 1e-15 }), length = num(Li - 2 * ca) } }
      if dim == 2 then parts.journal.radius, parts.journal.length = num(Ri - cr), num(Li * self:pick{ 1, 1.01, 3 }) end
    elseif r == 2 then -- a clearance zero, negative, not finite, huge or tiny
      parts = { bearing = { radius = num(Ri), length = num(Li) }, journal = {}, clearance = { radial = num(cr), axial = num(ca) } }
      parts.clearance[SIZE_KEYS.clearance[dim]] = self:pick(HCLEAR)
    elseif r == 3 then -- three sizes that disagree
      local c = dim == 1 and cr or ca
      parts.bearing[SIZE_KEYS.bearing[dim]] = num(dim == 1 and Ri or Li)
      parts.journal[SIZE_KEYS.journal[dim]] = num(dim == 1 and Ri - cr or Li - 2 * ca)
      parts.clearance[SIZE_KEYS.clearance[dim]] = num(c * self:pick{ 1.5, 0.5, 1 + 1e-9, -1, 2 })
    elseif r == 4 then -- one size alone, or none
      for _, part in ipairs(ORDER) do
        if part ~= ORDER[self:int(1, 3)] then parts[part][SIZE_KEYS[part][dim]] = nil end
      end
      if self:chance(0.3) then parts = { bearing = {}, journal = {}, clearance = {} } end
    elseif r == 5 then -- sizes far beyond a machine's
      local big = self:pick{ 1e20, 1e-300, 1e300, 1e154, 5e-324, 1e-9 }
      parts = { bearing = { radius = num(big), length = num(big) }, journal = {},
        clearance = { radial = num(self:pick{ cr, big / 2, big * 1e-17 }), axial = num(self:pick{ ca, big / 4 }) } }
    elseif r == 6 then -- a part that is not a table
      parts[self:pick(ORDER)] = self:pick{ "0.01", '"0.01"', "true", "{ 0.01, 0.02 }", "function() end", "H.proxy({ radius = 0.01, length = 0.02 })",
        'H.meta("__index")' }
    elseif r == 7 then -- a field of another part, or unknown
      local part = self:pick(ORDER)
      if type(parts[part]) == "table" then parts[part][self:pick{ "radius", "length", "radial", "axial", "width", "gap", "clearance" }] = num(1e-3) end
    else -- a hostile value in any size
      local part = self:pick(ORDER)
      parts[part][SIZE_KEYS[part][dim]] = self:hostile()
    end
  end
  local f = self:part_fields(parts, ORDER)
  return f, cr, ca
end

-- The fields of a joint with clearance appended to f: its sizes (G:csizes), a contact law and
-- mostly a friction law (any law with its options, one of spec001.friction's, one kept in a
-- slot that G:sabuse mutates later).  Hostile (hz): the contact law missing or of the wrong
-- kind, a contact law as friction, a table that looks like a law, the ideal joint's
-- enforcement fields (method, k, c, baumgarte).  Returns the radial and axial clearances.
function G:cfields(f, h)
  local sizes, cr, ca = self:csizes()
  for _, x in ipairs(sizes) do f[#f + 1] = x end
  local contact, friction
  if self:chance(0.1) then
    local s = self:slot("nlaw")
    self:step("V[%d] = %s", s.id, self:nlaw())
    contact = self:v(s)
  else
    contact = self:nlaw()
  end
  if self:chance(0.75) then
    if self:chance(0.15) then
      friction = fmt("spec001.friction(%s%s)", q(self:pick(SPEC001_FRICTION)),
        self:chance(0.3) and ", " .. num(self:logu(1e-6, 1e-2)) or "")
    elseif self:chance(0.15) then
      local s = self:slot("flaw")
      self:step("V[%d] = %s", s.id, self:flaw(nil, true))
      friction = self:v(s)
    else
      friction = self:flaw(nil, true)
    end
  end
  if self:hz() then
    self.mutations = self.mutations + 1
    local r = self:int(1, 6)
    if r == 1 then contact = nil
    elseif r == 2 then contact = self:flaw()
    elseif r == 3 then contact = self:hostile()
    elseif r == 4 then friction = self:nlaw()
    elseif r == 5 then contact = self:pick{ '{ kind = "contact", law = "hertz", K = 1e9 }',
      'setmetatable({ kind = "contact", law = "hertz", K = 1e9 }, getmetatable(mech.contact.hertz{ K = 1 }))',
      'setmetatable({ kind = "contact", law = "nope", K = 1e9 }, getmetatable(mech.contact.hertz{ K = 1 }))' }
    else friction = self:hostile() end
  end
  if contact then f[#f + 1] = { "contact", contact } end
  if friction then f[#f + 1] = { "friction", friction } end
  if self:hz() or self:chance(0.02) then
    self.mutations = self.mutations + 1
    local k = self:pick{ "method", "k", "c", "baumgarte" }
    f[#f + 1] = { k, ({ method = '"penalty"', k = "1e5", c = "10", baumgarte = "{ 5, 5 }" })[k] }
  end
  return cr, ca
end

-- The slot of a joint made with clearance: its channels and its contacts' (sys.ents), and now
-- and then one of its contacts as an object (sys:entity), for the method sweeps.
function G:cjoint(sys, e)
  e.jtype = "clearance"
  sys.clear = true
  for _, c in ipairs(CONTACT_ENDS) do
    sys.ents[#sys.ents + 1] = { kind = "ccontact", name = e.name .. "." .. c }
  end
  if self:chance(0.3) then
    local c = self:slot("contact", { sys = sys, name = e.name .. "." .. self:pick(CONTACT_ENDS), dim = 3 })
    self:step("V[%d] = %s:entity(%s)", c.id, self:v(sys), q(c.name))
  end
end

-- An offset of a journal's centre from its bearing's: inside the cavity (within 0.4 of the
-- smaller clearance), or (hostile) past a clearance, far away, not finite.
function G:coffset(cr, ca)
  local d = { self:float(-1, 1), self:float(-1, 1), self:float(-1, 1) }
  local n = math.sqrt(d[1] ^ 2 + d[2] ^ 2 + d[3] ^ 2) + 1e-9
  local s = self:float(0, 0.4) * math.min(cr, ca)
  if self:hz() then
    self.mutations = self.mutations + 1
    if self:chance(0.2) then return self:hvec3() end
    s = self:pick{ 1.5 * cr, 1.5 * ca, 3 * math.max(cr, ca), 1, 1e300, cr + ca }
  end
  return { d[1] / n * s, d[2] / n * s, d[3] / n * s }
end

local function add3(a, b)
  if type(b) == "string" then return b end
  return { a[1] + b[1], a[2] + b[2], a[3] + b[3] }
end

local function vsrc(v) return type(v) == "string" and v or vec(v) end

-- sys:revolute{ a, b, <place>, axis, <clearance fields> }: place(cr, ca) gives the anchors'
-- fields; now and then (hostile) the clearance goes to a joint of another kind.
function G:sclearance(sys, a, b, place, h, rate)
  self:hbegin(h)
  local kind = "revolute"
  if self:hz() then
    self.mutations = self.mutations + 1
    kind = self:pick{ "spherical", "cylindrical", "universal", "prismatic", "fixed", "planar" }
  end
  local f = { { 1, a }, { 2, b } }
  local cr, ca = self:cfields(f, h)
  for _, x in ipairs(place(cr, ca)) do f[#f + 1] = x end
  if kind ~= "spherical" and kind ~= "universal" then
    f[#f + 1] = { kind == "planar" and "normal" or "axis",
      self:chance(0.7) and self:pick{ "{ 0, 0, 1 }", "{ 0, 1, 0 }", "{ 1, 0, 0 }", "{ 0, 0, -1 }" } or self:dir3(h) }
    if self:chance(0.1) then f[#f + 1] = { "ref", self:dir3(h) } end
  end
  local e = self:entity(sys, kind, "joint", self:entname("bear"), f, rate)
  e.dim = 3
  e.jtype = kind
  if kind == "revolute" then self:cjoint(sys, e) end
  return e
end

-- A journal in a bearing: the bearing on the ground and the journal on a body thrown across
-- its clearance and spun (or the other way round, as spec001's crank), both on free bodies, a
-- pendulum hung by one, two in a row; sizes, laws and placements hostile now and then; loads,
-- drivers and springs on the joint and its bodies, and a run at once now and then.
function STEMPLATES.clearance(g, rate)
  local sys = g:ssystem(rate)
  local h = g:pick{ 0, 0, 0.1, 0.3 }
  local G0 = g:v(sys) .. ".ground"
  local P = { g:float(-0.2, 0.2), g:float(-0.2, 0.2), g:float(-0.2, 0.2) }
  local r = g:wpick{ { 4, 1 }, { 2, 2 }, { 2, 3 }, { 2, 4 }, { 1, 5 } }
  local bodies, joints = {}, {}
  if r == 1 then -- the bearing on the ground, the journal on a body
    local j = g:sbody(sys, g:entname("journal"), vec(P), h, nil, rate)
    bodies[1] = j
    joints[1] = g:sclearance(sys, G0, g:v(j), function(cr, ca)
      if g:chance(0.5) then return { { "at", vec(P) } } end
      return { { "a_at", vsrc(add3(P, g:coffset(cr, ca))) }, { "b_at", "{ 0, 0, 0 }" } }
    end, h, rate)
  elseif r == 2 then -- the journal on the ground, the bearing on a body
    local b = g:sbody(sys, g:entname("housing"), vec(P), h, nil, rate)
    bodies[1] = b
    joints[1] = g:sclearance(sys, g:v(b), G0, function(cr, ca)
      if g:chance(0.5) then return { { "at", vec(P) } } end
      return { { "a_at", "{ 0, 0, 0 }" }, { "b_at", vsrc(add3(P, g:coffset(cr, ca))) } }
    end, h, rate)
  elseif r == 3 then -- both on free bodies, the journal off centre by up to 20 micrometres
    local d = { g:float(-1, 1) * 1e-5, g:float(-1, 1) * 1e-5, g:float(-1, 1) * 1e-5 }
    local b = g:sbody(sys, g:entname("housing"), vec(P), h, nil, rate)
    local j = g:sbody(sys, g:entname("journal"), vec(add3(P, d)), h, nil, rate)
    bodies[1], bodies[2] = j, b
    joints[1] = g:sclearance(sys, g:v(b), g:v(j), function()
      if g:chance(0.5) then return { { "at", vec(add3(P, d)) } } end
      return { { "a_at", "{ 0, 0, 0 }" }, { "b_at", "{ 0, 0, 0 }" } }
    end, h, rate)
  elseif r == 4 then -- a pendulum hung by the joint (the journal on the link, or the bearing)
    local L = g:float(0.05, 0.3)
    local link = g:sbody(sys, g:entname("link"), vec(add3(P, { L, 0, 0 })), h, nil, rate)
    bodies[1] = link
    local a, b = G0, g:v(link)
    if g:chance(0.3) then a, b = b, a end
    joints[1] = g:sclearance(sys, a, b, function() return { { "at", vec(P) } } end, h, rate)
  else -- two in a row: ground, link, link
    local b1 = g:sbody(sys, g:entname("link"), vec(P), h, nil, rate)
    local P2 = add3(P, { 0.1, 0, 0 })
    local b2 = g:sbody(sys, g:entname("link"), vec(add3(P2, { 0.05, 0, 0 })), h, nil, rate)
    bodies[1], bodies[2] = b1, b2
    joints[1] = g:sclearance(sys, G0, g:v(b1), function() return { { "at", vec(P) } } end, h, rate)
    joints[2] = g:sclearance(sys, g:v(b1), g:v(b2), function() return { { "at", vec(P2) } } end, h, rate)
  end
  if g:chance(0.4) then g:sload(sys, g:pick(bodies), g:chance(0.4), h, rate) end
  if g:chance(0.2) then g:sdrive(sys, g:pick(joints), h, rate) end
  if g:chance(0.15) then g:srspring(sys, g:pick(joints), h, rate) end
  if g:chance(0.15) then g:sspring(sys, G0, g:v(g:pick(bodies)), h, rate) end
  for _ = 1, g:pick{ 0, 0, 0, 1, 2 } do g:sentity(sys, h, rate) end
  if g:chance(0.5) then g:simulate(sys, g:pick{ 0, 0.1 }) end
  return sys
end

-- ---- prismatic joints with clearance, a box slider in a rectangular channel (sys:prismatic{ ...,
-- clearance = { x, z }, slider, channel, contact, friction, stiffness, materials, damping,
-- restitution, v_min }: man mechlua-spatial(3)) ---------------------------------------------------

local BOX_KEYS = { channel = { "width", "height" }, slider = { "width", "height" }, clearance = { "x", "z" } }
local BOX_PARTS = { "channel", "slider", "clearance" }
-- The guide's frames (axis Y, ref X): the world's axes (Z up for the first two: gravity presses the
-- slider on the floor zneg), or one turned at random.
local BOX_FRAMES = { { { 0, 1, 0 }, { 1, 0, 0 } }, { { 1, 0, 0 }, { 0, -1, 0 } }, { { 0, 0, 1 }, { 1, 0, 0 } },
  { { 0, -1, 0 }, { 0, 0, 1 } } }
local HMATERIAL = { '"unobtainium"', '""', '"Steel"', '"steel "', "{ E = -1, nu = 0.3 }", "{ E = 2e11, nu = 0.5 }",
  "{ E = 2e11, nu = -1 }", "{ E = NAN, nu = 0.3 }", "{ E = INF, nu = 0.3 }", "{ E = 0, nu = 0 }", "{ nu = 0.3 }",
  "{ E = 2e11 }", '{ E = "2e11", nu = 0.3 }', "{ E = 2e11, nu = 0.3, rho = 7800 }", "{ E = 5e-324, nu = 0.3 }",
  "{ E = 1e308, nu = 0.49 }", "{ 2e11, 0.3 }", "{ E = 2e11, nu = 0.3, zz = 1 }", "1", "true", "H.rec()",
  'H.meta("__index")', "H.proxy({ E = 2e11, nu = 0.3 })", "{ E = 2e11, nu = NAN }", "{ E = -0.0, nu = 0.3 }" }

local function cross3(a, b)
  return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1] }
end

local function scale3(v, s) return { v[1] * s, v[2] * s, v[3] * s } end

-- v turned by the angle a about the unit vector k (Rodrigues).
local function turn3(v, k, a)
  local c, s = math.cos(a), math.sin(a)
  local kv = cross3(k, v)
  local d = (k[1] * v[1] + k[2] * v[2] + k[3] * v[3]) * (1 - c)
  return { v[1] * c + kv[1] * s + k[1] * d, v[2] * c + kv[2] * s + k[2] * d, v[3] * c + kv[3] * s + k[3] * d }
end

-- A guide's frame: Y (the travel), X (lateral) and Z = X x Y, unit and orthogonal.
function G:bframe()
  if self:chance(0.75) then
    local f = self:pick(BOX_FRAMES)
    return f[1], f[2], cross3(f[2], f[1])
  end
  local A = matmul3(matmul3(rot3("z", self:float(-4, 4)), rot3("y", self:float(-1.5, 1.5))), rot3("x", self:float(-4, 4)))
  local Y, X = { A[1][2], A[2][2], A[3][2] }, { A[1][1], A[2][1], A[3][1] }
  return Y, X, cross3(X, Y)
end

-- The sizes of a box joint, as fields clearance, channel and slider: the slider's length and, for
-- the width and the height, two of the channel's, the slider's and the clearance (now and then
-- all three, agreeing).  With the guide's frame (Y, X, Z) the slider starts turned now and then
-- (slider.axis, slider.ref: small roll, pitch and yaw that keep its corners inside).  Hostile
-- (hz): a slider as wide as its channel or wider, a clearance zero, negative, not finite or
-- tiny, three sizes that disagree, one alone, no length or a bad one, sizes far beyond a
-- machine's, a part that is not a table or has a field of another part; a slider turned into a
-- wall or a quarter turn, slider.ref without axis, parallel or hostile axes.  Returns the fields
-- and { cx, cz, length, width, height, turned }.
function G:bsizes(Y, X, Z)
  local w, hh, L = self:logu(5e-3, 4e-2), self:logu(5e-3, 4e-2), self:logu(1e-2, 6e-2)
  local cx, cz = self:logu(2e-5, 1e-3), self:logu(2e-5, 1e-3)
  local parts = { channel = {}, slider = { length = num(L) }, clearance = {} }
  local function sizes(vals, dim) -- vals: the channel's, the slider's, the clearance; dim 1 width, 2 height
    local r = self:int(1, 10)
    local which = r <= 3 and { 1, 2 } or r <= 6 and { 1, 3 } or r <= 9 and { 2, 3 } or { 1, 2, 3 }
    for _, i in ipairs(which) do
      local part = BOX_PARTS[i]
      parts[part][BOX_KEYS[part][dim]] = num(vals[i])
    end
  end
  sizes({ w + 2 * cx, w, cx }, 1)
  sizes({ hh + 2 * cz, hh, cz }, 2)
  local turned = false
  if Y and self:chance(0.15) then -- turned a little: its corners stay inside
    local amax = 0.3 * math.min(cx, cz) / (L / 2 + w / 2 + hh / 2) / 3
    local a, b, c = self:float(-amax, amax), self:float(-amax, amax), self:float(-amax, amax)
    local sy, sx = turn3(turn3(turn3(Y, Z, a), Y, b), X, c), turn3(turn3(turn3(X, Z, a), Y, b), X, c)
    parts.slider.axis, parts.slider.ref = vec(sy), vec(sx)
    if self:chance(0.2) then parts.slider.ref = nil end
    turned = true
  end
  if self:hz() then
    self.mutations = self.mutations + 1
    local dim = self:int(1, 2)
    local key, ckey = BOX_KEYS.slider[dim], BOX_KEYS.clearance[dim]
    local W, S, C = dim == 1 and w + 2 * cx or hh + 2 * cz, dim == 1 and w or hh, dim == 1 and cx or cz
    local r = self:int(1, 10)
    if r == 1 then -- a slider as wide as its channel, or wider
      parts.clearance = {}
      parts.channel[key], parts.slider[key] = num(W), num(W * self:pick{ 1, 1.05, 2, 1 + 1e-15 })
    elseif r == 2 then -- a clearance zero, negative, not finite, huge or tiny
      parts.channel[key] = nil
      parts.slider[key], parts.clearance[ckey] = num(S), self:pick(HCLEAR)
    elseif r == 3 then -- three sizes that disagree
      parts.channel[key], parts.slider[key] = num(W), num(S)
      parts.clearance[ckey] = num(C * self:pick{ 1.5, 0.5, 1 + 1e-9, -1, 2 })
    elseif r == 4 then -- one size alone, or none
      for _, part in ipairs(BOX_PARTS) do
        if part ~= BOX_PARTS[self:int(1, 3)] then parts[part][BOX_KEYS[part][dim]] = nil end
      end
    elseif r == 5 then -- the length missing or bad
      parts.slider.length = self:pick{ nil, "0", "-0.03", "NAN", "INF", "1e300", "5e-324", '"0.03"', "{}", self:hostile() }
    elseif r == 6 then -- sizes far beyond a machine's
      local big = self:pick{ 1e20, 1e-300, 1e300, 1e154, 5e-324, 1e-9 }
      parts = { channel = {}, slider = { length = num(big), width = num(big), height = num(big) },
        clearance = { x = num(self:pick{ cx, big / 2, big * 1e-17 }), z = num(self:pick{ cz, big / 4 }) } }
    elseif r == 7 then -- a part that is not a table
      parts[self:pick(BOX_PARTS)] = self:pick{ "0.01", '"0.01"', "true", "{ 0.01, 0.02 }", "function() end",
        "H.proxy({ x = 1e-4, z = 1e-4 })", 'H.meta("__index")', "H.rec()" }
    elseif r == 8 then -- a field of another part, or unknown
      local part = self:pick(BOX_PARTS)
      if type(parts[part]) == "table" then
        parts[part][self:pick{ "length", "width", "height", "x", "z", "y", "radius", "radial", "depth", "Width", "axis" }] = num(1e-3)
      end
    elseif r == 9 then -- a hostile value in any size
      local part = self:pick(BOX_PARTS)
      parts[part][BOX_KEYS[part][dim]] = self:hostile()
    else -- turned: into a wall, a quarter turn, ref without axis, parallel or hostile axes
      local k = self:int(1, 5)
      if k == 1 and Y then
        local a = self:pick{ 0.05, 0.2, 1 }
        parts.slider.axis, parts.slider.ref = vec(turn3(Y, Z, a)), vec(turn3(X, Z, a))
      elseif k == 2 and Y then
        parts.slider.axis, parts.slider.ref = vec(X), vec(Y)
      elseif k == 3 then
        parts.slider.axis, parts.slider.ref = nil, self:dir3()
      elseif k == 4 then
        local d = self:dir_pair(true)
        parts.slider.axis, parts.slider.ref = d[1], d[2]
      else
        parts.slider[self:pick{ "axis", "ref" }] = self:hvec3()
      end
    end
  end
  local f = self:part_fields(parts, BOX_PARTS)
  return f, { cx = cx, cz = cz, length = L, width = w, height = hh, turned = turned }
end

-- A material of mech.materials by name, or { E, nu }.
function G:bmaterial()
  if self:chance(0.75) then return q(self:pick(MATERIALS)) end
  return fmt("{ E = %s, nu = %s }", num(self:logu(1e9, 3e11)), num(self:float(0, 0.45)))
end

-- The laws of a box joint appended to f: stiffness "corners" (the default) with a contact law of
-- mech.contact, or an area model ("area", "patch", "constant") with material(s) by name or by E
-- and nu, damped (restitution, v_min) or not; mostly a friction law (the paper's Ambrosio or
-- ADAMS law with the coefficients of mech.materials.pair, one of spec001.friction's, any law
-- with its options, stick among them, which the joint refuses).  Hostile (hz): no contact law
-- with the corners, one with an area model, materials with the corners, an unknown model,
-- damping without restitution or the reverse, restitution or v_min out of range, materials that
-- do not exist or are not materials, a contact law as friction or the reverse, the ideal joint's
-- enforcement fields.  Returns the model meant ("corners" or "walls": its contacts' names).
function G:blaws(f)
  local stiff = self:wpick{ { 5, "corners" }, { 2, "area" }, { 1, "patch" }, { 1, "constant" } }
  if stiff ~= "corners" or self:chance(0.5) then f[#f + 1] = { "stiffness", q(stiff) } end
  local contact, friction
  if stiff == "corners" then
    if self:chance(0.1) then
      local s = self:slot("nlaw")
      self:step("V[%d] = %s", s.id, self:nlaw())
      contact = self:v(s)
    else
      contact = self:nlaw()
    end
  else
    if self:chance(0.3) then f[#f + 1] = { "material", self:bmaterial() }
    else f[#f + 1] = { "materials", fmt("{ %s, %s }", self:bmaterial(), self:bmaterial()) } end
    if self:chance(0.6) then
      f[#f + 1] = { "damping", "true" }
      f[#f + 1] = { "restitution", num(self:float(0.2, 1)) }
      if self:chance(0.3) then f[#f + 1] = { "v_min", num(self:logu(1e-6, 1e-2)) } end
    elseif self:chance(0.3) then
      f[#f + 1] = { "damping", "false" }
    end
  end
  if self:chance(0.75) then
    local r = self:int(1, 10)
    if r <= 3 then -- the paper's, with Tab. 5's coefficients (an aluminium guide)
      local pair = fmt('mech.materials.pair("aluminium", %q)', self:pick(MATERIALS))
      friction = self:chance(0.5) and fmt("mech.friction.ambrosio{ mu = %s.mu, v0 = 1e-4, v1 = 2e-4 }", pair)
        or fmt("mech.friction.adams{ mu_s = %s.mu_s, mu = %s.mu, v0 = 1e-4, v1 = 2e-4 }", pair, pair)
    elseif r == 4 then
      friction = fmt("spec001.friction(%s%s)", q(self:pick(SPEC001_FRICTION)),
        self:chance(0.3) and ", " .. num(self:logu(1e-6, 1e-2)) or "")
    elseif r == 5 then
      local s = self:slot("flaw")
      self:step("V[%d] = %s", s.id, self:flaw(nil, true))
      friction = self:v(s)
    else
      friction = self:flaw(nil, true)
    end
  end
  if self:hz() then
    self.mutations = self.mutations + 1
    local r = self:int(1, 13)
    if r == 1 then contact = nil
    elseif r == 2 then contact = self:nlaw()
    elseif r == 3 then
      f[#f + 1] = self:chance(0.5) and { "material", self:bmaterial() } or { "materials", fmt("{ %s, %s }", self:bmaterial(), self:bmaterial()) }
    elseif r == 4 then
      f[#f + 1] = { "stiffness", self:pick{ '"Area"', '"corner"', '""', '"area "', '"area\\0"', "1", "true", "{}", '"contact"', '"none"' } }
    elseif r == 5 then
      f[#f + 1] = self:chance(0.5) and { "damping", "true" } or { "restitution", num(self:float(0, 1)) }
    elseif r == 6 then
      f[#f + 1] = { "damping", "true" }
      f[#f + 1] = { "restitution", self:pick{ "0", "-0.5", "1.5", "1 + 1e-15", "NAN", "INF", "5e-324", '"0.5"' } }
    elseif r == 7 then
      f[#f + 1] = { "v_min", self:pick{ "0", "-1e-4", "NAN", "INF", "1e300", "5e-324", '"1e-4"', "{}" } }
    elseif r == 8 then
      local bad = self:pick(HMATERIAL)
      local k = self:int(1, 4)
      if k == 1 then f[#f + 1] = { "material", bad }
      elseif k == 2 then f[#f + 1] = { "materials", self:chance(0.5) and fmt("{ %s, %s }", bad, self:bmaterial()) or fmt("{ %s, %s }", self:bmaterial(), bad) }
      elseif k == 3 then f[#f + 1] = { "materials", self:pick{ '{ "steel" }', '{ "steel", "steel", "steel" }', '"steel"', "{}", "{ nil, \"steel\" }", '{ a = "steel", b = "steel" }' } }
      else f[#f + 1] = { "materials", fmt("{ %s, %s }", self:bmaterial(), self:bmaterial()) }; f[#f + 1] = { "material", self:bmaterial() } end
    elseif r == 9 then friction = fmt("mech.friction.stick{ mu = %s, mu_s = 0.6, v_eps = 1e-4 }", num(self:float(0, 0.5)))
    elseif r == 10 then friction = self:chance(0.5) and self:nlaw() or self:hostile()
    elseif r == 11 then contact = self:chance(0.5) and self:flaw() or self:hostile()
    elseif r == 12 then f[#f + 1] = { "damping", self:pick{ '"yes"', "1", "0", "NAN", "{}", "print" } }
    else
      local k = self:pick{ "method", "k", "c", "baumgarte" }
      f[#f + 1] = { k, ({ method = '"penalty"', k = "1e5", c = "10", baumgarte = "{ 5, 5 }" })[k] }
    end
  end
  if contact then f[#f + 1] = { "contact", contact } end
  if friction then f[#f + 1] = { "friction", friction } end
  return stiff == "corners" and "corners" or "walls"
end

-- The fields of a box joint but its bodies and anchors, in the guide's frame (Y, X, Z) (or
-- random axes without one): sizes, laws, axis and ref (now and then hostile: missing ref, a
-- random or parallel pair), and the slider's offset from the channel's centre line (world):
-- inside (or resting on the zneg wall), or (hostile) through a wall, far away, not finite.
-- Hostile now and then: the box fields on a joint of another kind.
function G:bprep(h, Y, X, Z)
  self:hbegin(h)
  local kind = "prismatic"
  if self:hz() then
    self.mutations = self.mutations + 1
    kind = self:pick{ "revolute", "cylindrical", "translational", "fixed", "planar", "spherical", "universal" }
  end
  local f, sz = self:bsizes(Y, X, Z)
  local J = { kind = kind, f = f, sz = sz, stiff = self:blaws(f) }
  local axis, ref = Y and vec(Y) or self:dir3(h), X and vec(X) or nil
  if self:hz() then
    self.mutations = self.mutations + 1
    local r = self:int(1, 3)
    if r == 1 then ref = nil
    elseif r == 2 then axis, ref = self:dir3(), self:dir3()
    else
      local d = self:dir_pair(true)
      axis, ref = d[1], d[2]
    end
  end
  J.axis, J.ref = axis, ref
  local off = { 0, 0, 0 }
  if Y and not sz.turned and self:chance(0.6) then
    if self:chance(0.4) then -- resting on the wall zneg
      off = scale3(Z, -sz.cz)
    else
      local a, b, c = self:float(-0.4, 0.4) * sz.cx, self:float(-0.01, 0.01), self:float(-0.4, 0.4) * sz.cz
      off = { a * X[1] + b * Y[1] + c * Z[1], a * X[2] + b * Y[2] + c * Z[2], a * X[3] + b * Y[3] + c * Z[3] }
    end
  end
  if Y and self:hz() then
    self.mutations = self.mutations + 1
    if self:chance(0.2) then off = self:hvec3()
    else
      local d = self:pick{ 1.5, 3, 1 + 1e-9, 100 } * (self:chance(0.5) and sz.cx or sz.cz)
      off = scale3(self:pick{ X, Z, scale3(X, -1), scale3(Z, -1) }, d)
    end
  end
  J.off = off
  return J
end

-- The slot of a box joint: its channels and some of its contacts' (sys.ents: four corners'
-- with the corners, the four walls' with the area laws), and now and then one of its contacts
-- as an object (sys:entity), for the method sweeps.
function G:bjoint(sys, e, stiff)
  e.jtype, e.stiff = "box", stiff
  sys.clear, sys.box = true, true
  local names = {}
  for i, w in ipairs(BOX_WALLS) do
    names[i] = stiff == "corners" and fmt("%s.%s.c%d", e.name, w, self:int(0, 7)) or e.name .. "." .. w
    sys.ents[#sys.ents + 1] = { kind = "ccontact", name = names[i] }
  end
  if self:chance(0.3) then
    local c = self:slot("contact", { sys = sys, name = self:pick(names), dim = 3 })
    self:step("V[%d] = %s:entity(%s)", c.id, self:v(sys), q(c.name))
  end
end

-- A box joint's channel (G:schannel): its own, per wall, its contacts' through it, or one it has
-- not (bad).
function G:bchannel(e, bad)
  if bad then
    if self:chance(0.3) then -- a contact of the other model
      return e.stiff == "corners" and self:pick(BOX_WALLS) .. "." .. self:pick{ "gap", "fn" }
        or fmt("%s.c%d.%s", self:pick(BOX_WALLS), self:int(0, 7), self:pick{ "gap", "fn" })
    end
    return self:pick(SBOXBAD)
  end
  local r = self:int(1, 3)
  if r == 1 then return self:pick(SBOXQ) end
  if r == 2 then return self:pick(BOX_WALLS) .. "_" .. self:pick(SBOXWQ) end
  if e.stiff == "corners" then return fmt("%s.c%d.%s", self:pick(BOX_WALLS), self:int(0, 7), self:pick{ "gap", "fn" }) end
  return self:pick(BOX_WALLS) .. "." .. self:pick{ "gap", "fn" }
end

-- sys:prismatic{ a, b, <place>, axis, ref, <box fields> } from G:bprep's J; place gives the
-- anchors' fields.
function G:sbox(sys, a, b, J, place, rate)
  local f = { { 1, a }, { 2, b } }
  for _, x in ipairs(place) do f[#f + 1] = x end
  for _, x in ipairs(J.f) do f[#f + 1] = x end
  if J.kind ~= "spherical" and J.kind ~= "universal" then
    f[#f + 1] = { J.kind == "planar" and "normal" or "axis", J.axis }
    if J.ref then f[#f + 1] = { "ref", J.ref } end
  end
  local e = self:entity(sys, J.kind, "joint", self:entname("guide"), f, rate)
  e.dim = 3
  e.jtype = J.kind
  if J.kind == "prismatic" then self:bjoint(sys, e, J.stiff) end
  return e
end

-- A box slider in its channel: on the ground's channel (centred, resting on the floor, thrown
-- across, spun), in the channel of a moving carriage (turned, shaken along a driven joint, free,
-- on a spherical joint), at the end of a crank-slider (crank, rod and slider of [Wang et al.
-- 2025]'s sizes: the crank driven about z, a spherical joint crank-rod, a revolute joint
-- rod-slider about z), a single impact on a side wall (no gravity, the turning held by an ideal
-- joint now and then), or two sliders in one channel's body; sizes, laws and placements hostile
-- now and then; loads, drivers and springs on its bodies, and a run at once now and then.
function STEMPLATES.box(g, rate)
  local sys = g:ssystem(rate)
  local h = g:pick{ 0, 0, 0.1, 0.3 }
  local G0 = g:v(sys) .. ".ground"
  local Y, X, Z = g:bframe()
  local P = { g:float(-0.2, 0.2), g:float(-0.2, 0.2), g:float(-0.2, 0.2) }
  local r = g:wpick{ { 4, 1 }, { 2, 2 }, { 2, 3 }, { 1, 4 }, { 1, 5 } }
  local bodies, joints = {}, {}
  local function slider_at(J, at, extra)
    local sv = g:sbody(sys, g:entname("slider"), vsrc(add3(at, J.off)), h, extra, rate)
    bodies[#bodies + 1] = sv
    return sv
  end
  if r == 1 then -- the ground's channel
    local J = g:bprep(h, Y, X, Z)
    local extra = g:chance(0.3) and { { "velocity", vec(scale3(X, g:float(-0.5, 0.5))) } } or nil
    local s = slider_at(J, P, extra)
    local place = g:chance(0.3) and type(J.off) == "table" and J.off[1] == 0 and J.off[2] == 0 and J.off[3] == 0
      and { { "at", vec(P) } } or { { "a_at", vec(P) }, { "b_at", "{ 0, 0, 0 }" } }
    joints[1] = g:sbox(sys, G0, g:v(s), J, place, rate)
  elseif r == 2 then -- a moving carriage's channel
    local c = g:sbody(sys, g:entname("carriage"), vec(P), h, nil, rate)
    bodies[1] = c
    local k = g:int(1, 4)
    if k == 1 then joints[#joints + 1] = g:sjoint(sys, "revolute", G0, g:v(c), vec(P), h, rate)
    elseif k == 2 then joints[#joints + 1] = g:sjoint(sys, "prismatic", G0, g:v(c), vec(P), h, rate)
    elseif k == 3 then joints[#joints + 1] = g:sjoint(sys, "spherical", G0, g:v(c), vec(P), h, rate) end
    if joints[1] and g:chance(0.7) then g:sdrive(sys, joints[1], h, rate) end
    local J = g:bprep(h, Y, X, Z)
    local s = slider_at(J, P)
    joints[#joints + 1] = g:sbox(sys, g:v(c), g:v(s), J, { { "a_at", "{ 0, 0, 0 }" }, { "b_at", "{ 0, 0, 0 }" } }, rate)
  elseif r == 3 then -- the crank-slider: crank 40 mm, rod 130 mm, the slider along world y
    local rc, l = 0.04, 0.13
    local w = g:pick{ 20, 60, 200, 0, -100 } * math.pi / 30
    local S = { 0, rc + l, 0 }
    Y, X, Z = { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, 1 }
    local crank = g:sbody(sys, "crank", vec{ 0, rc / 2, 0 }, 0, { { "velocity", vec{ -w * rc / 2, 0, 0 } },
      { "omega", vec{ 0, 0, w } } }, rate)
    local rod = g:sbody(sys, "rod", vec{ 0, rc + l / 2, 0 }, h, { { "velocity", vec{ -w * rc / 2, 0, 0 } },
      { "omega", vec{ 0, 0, -w * rc / l } } }, rate)
    local pin = g:entity(sys, "revolute", "joint", g:entname("crank_pin"), { { 1, G0 }, { 2, g:v(crank) },
      { "at", "{ 0, 0, 0 }" }, { "axis", "{ 0, 0, 1 }" } }, rate)
    pin.jtype, pin.dim = "revolute", 3
    g:entity(sys, "spherical", "joint", g:entname("crank_rod"), { { 1, g:v(crank) }, { 2, g:v(rod) },
      { "at", vec{ 0, rc, 0 } } }, rate).jtype = "spherical"
    local J = g:bprep(h, Y, X, Z)
    J.off = { 0, 0, 0 }
    local s = slider_at(J, S)
    if g:chance(0.9) then
      g:entity(sys, "revolute", "joint", g:entname("rod_pin"), { { 1, g:v(rod) }, { 2, g:v(s) }, { "at", vec(S) },
        { "axis", "{ 0, 0, 1 }" } }, rate).jtype = "revolute"
    else
      g:sjoint(sys, g:pick(SJOINT_KINDS), g:v(rod), g:v(s), vec(S), h, rate)
    end
    joints[1] = g:sbox(sys, G0, g:v(s), J, { { "at", vec(S) } }, rate)
    joints[2] = pin
    if g:chance(0.8) then g:entity(sys, "drive", "driver", g:entname("motor"), { { 1, g:v(pin) }, { "speed", num(w) } }, rate) end
  elseif r == 4 then -- a single impact on a side wall, no gravity
    local J = g:bprep(h, Y, X, Z)
    local speed = g:pick{ 0.1, 1, 3 }
    local s = slider_at(J, P, { { "velocity", vec(scale3(X, speed)) } })
    joints[1] = g:sbox(sys, G0, g:v(s), J, { { "a_at", vec(P) }, { "b_at", "{ 0, 0, 0 }" } }, rate)
    if g:chance(0.5) then joints[2] = g:sjoint(sys, "prismatic", G0, g:v(s), vec(P), 0, rate) end
  else -- two sliders in one carriage's channel, one behind the other
    local c = g:sbody(sys, g:entname("carriage"), vec(P), h, nil, rate)
    bodies[1] = c
    for i = 1, 2 do
      local J = g:bprep(h, Y, X, Z)
      local Q = add3(P, scale3(Y, (i - 1.5) * 0.1))
      local s = slider_at(J, Q)
      joints[#joints + 1] = g:sbox(sys, g:v(c), g:v(s), J, { { "a_at", vec(scale3(Y, (i - 1.5) * 0.1)) },
        { "b_at", "{ 0, 0, 0 }" } }, rate)
    end
  end
  if #bodies > 0 and g:chance(0.4) then g:sload(sys, g:pick(bodies), g:chance(0.4), h, rate) end
  if g:chance(0.2) then g:sdrive(sys, g:pick(joints), h, rate) end
  if g:chance(0.1) then g:srspring(sys, g:pick(joints), h, rate) end
  if #bodies > 0 and g:chance(0.15) then g:sspring(sys, G0, g:v(g:pick(bodies)), h, rate) end
  for _ = 1, g:pick{ 0, 0, 0, 1, 2 } do g:sentity(sys, h, rate) end
  if g:chance(0.5) then g:simulate(sys, g:pick{ 0, 0.1 }) end
  return sys
end

-- The spec003 module's crank-slider ([Wang et al. 2025]) with mutated parameters, its single
-- impact (spec003.impact), and spec003.hull_area on runs' columns or odd tables.  (The module
-- may be missing: the template is then not picked, G:sabuse's calls fail.)
local SPEC003_FRICTION = { "ambrosio", "adams", "none" }
local SPEC003_STIFF = { "area", "patch", "constant", "corners" }

function STEMPLATES.spec003(g, rate)
  local s = g:slot("system", { ents = {}, sane = false, mutations0 = g.mutations, dim = 3 })
  g.cursys = s
  local f = {}
  local r = g:int(1, 4)
  if r <= 3 then
    if g:chance(0.7) then f[#f + 1] = { "rpm", num(g:pick{ 20, 60, 200, 0, -20, 1000 }) } end
    local clear = g:chance(0.8)
    local stiff = g:pick(SPEC003_STIFF)
    if g:chance(0.6) then f[#f + 1] = { "clearance", clear and num(g:logu(2e-5, 1e-3)) or "false" }
    elseif not clear then f[#f + 1] = { "clearance", "false" } end
    if g:chance(0.6) then f[#f + 1] = { "stiffness", q(stiff) } else stiff = "area" end
    if g:chance(0.5) then
      f[#f + 1] = { "friction", g:chance(0.7) and q(g:pick(SPEC003_FRICTION)) or g:chance(0.5) and g:flaw(nil, true) or "false" }
    end
    if g:chance(0.3) then f[#f + 1] = { "guide", g:bmaterial() } end
    if g:chance(0.3) then f[#f + 1] = { "slider", g:bmaterial() } end
    if g:chance(0.2) then f[#f + 1] = { "mu", num(g:float(0, 0.5)) } end
    if g:chance(0.1) then f[#f + 1] = { "mu_s", num(g:float(0.3, 0.8)) } end
    if g:chance(0.2) then f[#f + 1] = { "damping", g:chance(0.5) and "true" or "false" } end
    if g:chance(0.2) then f[#f + 1] = { "restitution", num(g:float(0.2, 1)) } end
    if g:chance(0.1) then f[#f + 1] = { "radius", num(g:logu(1e-4, 1e-2)) } end
    if g:chance(0.1) then
      local v0 = g:logu(1e-5, 1e-3)
      f[#f + 1] = { "v0", num(v0) }
      f[#f + 1] = { "v1", num(v0 * 2) }
    end
    if g:chance(0.3) then -- one parameter made hostile
      g.mutations = g.mutations + 1
      local k = g:int(1, 10)
      if k == 1 then f[#f + 1] = { "rpm", g:pick{ "NAN", "INF", "1e300", "1e6", '"20"', "{}" } }
      elseif k == 2 then f[#f + 1] = { "clearance", g:pick{ "0", "-1e-4", "NAN", "INF", "true", '"1e-4"', "0.01", "1e300", "5e-324", "{}" } }
      elseif k == 3 then f[#f + 1] = { g:pick{ "crank", "rod" }, g:pick{ "0", "-0.04", "0.2", "NAN", "1e300", "0.13" } }
      elseif k == 4 then f[#f + 1] = { "stiffness", g:pick{ '"Area"', '""', "1", '"corner"', "true" } }
      elseif k == 5 then f[#f + 1] = { "friction", g:pick{ '"stick"', '"coulomb"', '"AMBROSIO"', '""', "true", "1", g:hostile() } }
      elseif k == 6 then f[#f + 1] = { g:pick{ "guide", "slider" }, g:pick(HMATERIAL) }
      elseif k == 7 then f[#f + 1] = { g:pick{ "m_crank", "m_rod", "m_slider", "length", "width", "height" }, g:pick{ "0", "-1", "NAN", "1e300", "5e-324" } }
      elseif k == 8 then f[#f + 1] = { g:pick{ "J_crank", "J_rod", "J_slider" }, g:chance(0.7) and g:pick(HINERTIA) or g:hostile() }
      elseif k == 9 then f[#f + 1] = { "friction", '"adams"' }; f[#f + 1] = { "mu_s", "0.1" }; f[#f + 1] = { "mu", "0.5" }
      else f[#f + 1] = { g:pick{ "zz", "gravity", "baumgarte", "v0", "v1", "restitution", "radius" }, g:pick{ "NAN", "-1", "0", '"x"', "1e300" } } end
    end
    g:step("V[%d] = spec003.model%s", s.id, g:args(f, rate))
    for _, b in ipairs{ "crank", "rod", "slider" } do
      local e = g:slot("body", { sys = s, name = b, dim = 3 })
      s.ents[#s.ents + 1] = e
      g:step("V[%d] = %s:entity(%q)", e.id, g:v(s), b)
    end
    for _, j in ipairs{ { "crank_pin", "revolute" }, { "crank_rod", "spherical" }, { "rod_pin", clear and "revolute" or "universal" },
      { "guide", "prismatic" } } do
      local e = g:slot("joint", { sys = s, name = j[1], jtype = j[2], dim = 3 })
      s.ents[#s.ents + 1] = e
      g:step("V[%d] = %s:entity(%q)", e.id, g:v(s), j[1])
      if clear and j[1] == "guide" then g:bjoint(s, e, stiff == "corners" and "corners" or "walls") end
    end
    s.ents[#s.ents + 1] = { kind = "driver", name = "motor" }
  else
    local stiff = g:pick(SPEC003_STIFF)
    if g:chance(0.7) then f[#f + 1] = { "roll", num(g:pick{ 0, 0.5, 1, 1.5, -1 }) } end
    if g:chance(0.7) then f[#f + 1] = { "yaw", num(g:pick{ 0, 0.3, 1, 1.5, -0.3 }) } end
    if g:chance(0.5) then f[#f + 1] = { "speed", num(g:pick{ 0.1, 1, 3 }) } end
    if g:chance(0.6) then f[#f + 1] = { "stiffness", q(stiff) } else stiff = "area" end
    if g:chance(0.3) then f[#f + 1] = { "damping", g:chance(0.5) and "true" or "false" } end
    if g:chance(0.2) then f[#f + 1] = { "clearance", num(g:logu(1e-4, 2e-3)) } end
    if g:chance(0.2) then f[#f + 1] = { g:pick{ "guide", "slider" }, g:bmaterial() } end
    if g:chance(0.3) then
      g.mutations = g.mutations + 1
      f[#f + 1] = { g:pick{ "roll", "yaw", "speed", "clearance", "restitution", "zz", "rpm" },
        g:pick{ "NAN", "INF", "0", "-1", "90", "1e300", '"1"', "{}", "5e-324" } }
    end
    g:step("V[%d] = spec003.impact%s", s.id, g:args(f, rate))
    local e = g:slot("body", { sys = s, name = "slider", dim = 3 })
    s.ents[#s.ents + 1] = e
    g:step("V[%d] = %s:entity(%q)", e.id, g:v(s), "slider")
    for _, j in ipairs{ "guide", "lock" } do
      local je = g:slot("joint", { sys = s, name = j, jtype = "prismatic", dim = 3 })
      s.ents[#s.ents + 1] = je
      g:step("V[%d] = %s:entity(%q)", je.id, g:v(s), j)
      if j == "guide" then g:bjoint(s, je, stiff == "corners" and "corners" or "walls") end
    end
  end
  if g:chance(0.3) then g:sentity(s, 0.1, rate) end
  if g:chance(0.6) then g:simulate(s, g:pick{ 0, 0.1 }) end
  return s
end

-- spec003.hull_area(x, y, sx, sy) on a run's columns, on tables, or on hostile values.
function G:hull_area()
  local run = self:any("run")
  local x, y
  local r = self:int(1, 4)
  if r == 1 and run then
    x, y = fmt("%s[%s]", self:v(run), self:channel(run.sys)), fmt("%s[%s]", self:v(run), self:channel(run.sys))
  elseif r == 2 then
    x, y = self:pick{ "{ 0, 1, 1, 0 }", "{ 1, 2, 3 }", "H.big(1000)", "{}", "{ 0 }", "{ 0, 0, 0 }", "{ 1, 1, 1, 1 }",
      "{ NAN, 1, 2 }", "{ INF, -INF, 0 }", "{ 1e308, -1e308, 1e308 }" }, self:pick{ "{ 0, 0, 1, 1 }", "{ 1, 2, 3 }",
      "H.big(1000, 0.5)", "{}", "{ 0 }", "{ 5e-324, 0, 1 }", "{ 1, 2 }", "{ NAN, NAN, NAN }" }
  else
    x, y = self:chance(0.5) and "{ 0, 1, 0.5 }" or self:hostile(), self:chance(0.5) and "{ 0, 0, 1 }" or self:hostile()
  end
  local sc = self:chance(0.5) and "" or ", " .. self:pick{ "1", "0", "-1", "NAN", "1e-300", "nil", "1e308", self:hostile() }
    .. ", " .. self:pick{ "1", "0", "NAN", "nil", "5e-324", self:hostile() }
  self:step("return spec003.hull_area(%s, %s%s)", x, y, sc)
end

-- The spec001 module's slider-crank with mutated parameters.
function STEMPLATES.spec001(g, rate)
  local s = g:slot("system", { ents = {}, sane = false, mutations0 = g.mutations, dim = 3 })
  g.cursys = s
  local f = {}
  if g:chance(0.5) then f[#f + 1] = { "driven", "true" } end
  if g:chance(0.3) then f[#f + 1] = { "omega", num(g:pick{ -2 * math.pi, 10, 0, -100, 1e3 }) } end
  if g:chance(0.2) then f[#f + 1] = { "J_rod", vec{ 4e-3, 4e-4, 4e-3 } } end
  if g:chance(0.3) then -- one parameter made hostile
    g:hbegin(1)
    g.hleft = 1
    local r = g:int(1, 9)
    if r == 1 then f[#f + 1] = { "driven", g:hostile() }
    elseif r == 2 then f[#f + 1] = { "rod", g:pick{ "0.2", "0.1", "math.sqrt(0.1^2 + 0.22^2)", "1e300", "NAN", "-0.29", "0.2420" } }
    elseif r == 3 then f[#f + 1] = { "crank", g:pick{ "0", "-0.1", "0.3", "1e-300", "0.19" } }
    elseif r == 4 then f[#f + 1] = { g:pick{ "J_crank", "J_rod", "J_slider" }, g:chance(0.7) and g:pick(HINERTIA) or g:hostile() }
    elseif r == 5 then f[#f + 1] = { g:pick{ "m_crank", "m_rod", "m_slider" }, g:pick{ "0", "-1", "1e300", "5e-324", "NAN", "1e-12" } }
    elseif r == 6 then f[#f + 1] = { "pivot", g:hvec3() }
    elseif r == 7 then f[#f + 1] = { "gravity", g:pick{ "0", "-9.81", "1e308", "NAN", "1e4" } }
    elseif r == 8 then f[#f + 1] = { "baumgarte", g:pick{ "0", "-1", "1e300", "NAN", "1e6" } }
    else f[#f + 1] = { "omega", g:pick{ "1e300", "NAN", "1e4", "-3e4" } } end -- (1e8 rad/s runs for minutes: 1600 steps a turn)
  end
  local clear = g:chance(0.4)
  if clear then -- the paper's clearance joint at the crank, its fields now and then, one hostile
    local c = {}
    if g:chance(0.6) then
      c[#c + 1] = { "friction", g:chance(0.7) and q(g:pick(SPEC001_FRICTION)) or g:chance(0.5) and g:flaw(nil, true) or "false" }
    end
    if g:chance(0.3) then c[#c + 1] = { "radial", num(g:logu(1e-4, 1e-3)) } end
    if g:chance(0.3) then c[#c + 1] = { "axial", num(g:logu(1e-4, 1e-3)) } end
    if g:chance(0.2) then c[#c + 1] = { "radius", num(g:logu(5e-3, 2e-2)) } end
    if g:chance(0.2) then c[#c + 1] = { "length", num(g:logu(1e-2, 4e-2)) } end
    if g:chance(0.2) then c[#c + 1] = { "K", num(g:logu(1e8, 1e11)) } end
    if g:chance(0.2) then c[#c + 1] = { "restitution", num(g:float(0.3, 1)) } end
    if g:chance(0.2) then c[#c + 1] = { "v_reg", num(g:logu(1e-6, 1e-3)) } end
    local src
    if g:chance(0.15) then
      local r = g:int(1, 9)
      g.mutations = g.mutations + 1
      if r == 1 then c[#c + 1] = { "friction", g:pick{ '"stick"', '"LuGre"', '""', '"none "', "true", "1", g:hostile() } }
      elseif r == 2 then c[#c + 1] = { "radial", g:pick{ "0.02", "0.0095", "0", "-1e-3", "NAN", "1e300", "5e-324" } }
      elseif r == 3 then c[#c + 1] = { "length", g:pick{ "1e-3", "0", "-0.02", "INF", "5e-324" } }
      elseif r == 4 then c[#c + 1] = { "K", g:pick{ "NAN", "-1", "0", "1e300", "5e-324" } }
      elseif r == 5 then c[#c + 1] = { "restitution", g:pick{ "2", "-0.5", "NAN", "0" } }
      elseif r == 6 then c[#c + 1] = { "v_reg", g:pick{ '"x"', "0", "-1", "NAN", "INF", "{}" } }
      elseif r == 7 then c[#c + 1] = { g:pick{ "zz", "contact", "bearing", "mu" }, "1" }
      elseif r == 8 then c[#c + 1] = { "axial", g:pick{ "0.01", "0", "-1e-3", "NAN" } }
      else src = g:pick{ "true", '"yes"', "1", "H.rec()", 'H.meta("__index")', "H.proxy({ radial = 1e-3 })" } end
    end
    if not src then
      local items = {}
      for _, x in ipairs(c) do items[#items + 1] = x[1] .. " = " .. x[2] end
      src = "{ " .. concat(items, ", ") .. " }"
    end
    f[#f + 1] = { "clearance", src }
  end
  g:step("V[%d] = require('spec001').model%s", s.id, g:args(f, rate))
  for _, b in ipairs{ "crank", "rod", "slider" } do
    local e = g:slot("body", { sys = s, name = b, dim = 3 })
    s.ents[#s.ents + 1] = e
    g:step("V[%d] = %s:entity(%q)", e.id, g:v(s), b)
  end
  for _, j in ipairs{ { "crank_pin0", "revolute" }, { "crank_rod", "spherical" }, { "rod_slider", "universal" },
    { "guide", "prismatic" } } do
    local e = g:slot("joint", { sys = s, name = j[1], jtype = j[2], dim = 3 })
    s.ents[#s.ents + 1] = e
    g:step("V[%d] = %s:entity(%q)", e.id, g:v(s), j[1])
    if clear and j[1] == "crank_pin0" then g:cjoint(s, e) end
  end
  s.ents[#s.ents + 1] = { kind = "driver", name = "motor" }
  if g:chance(0.4) then g:sentity(s, 0.1, rate) end
  return s
end

local STEMPLATE_NAMES = { "top", "slider_crank", "chain", "chain", "free", "redundant", "spec001", "clearance",
  "clearance", "box", "box", "box" }
if HAVE.spec003 then STEMPLATE_NAMES[#STEMPLATE_NAMES + 1] = "spec003" end

-- Things done to spatial systems and their entities mid-case: more entities (after runs
-- too), entities of one dimension given to the other, the stubs of the other dimension,
-- the spec001 module's functions, the state table a load function kept.
function G:sabuse()
  local sys = self:any("system", function(s) return s.dim == 3 and not s.closed end)
    or self:any("system", function(s) return s.dim == 3 end)
  if not sys then return end
  local v = self:v(sys)
  local acts = {
    { 6, function() self.cursys = sys; self:sentity(sys, self:pick{ 0, 0.1, 0.3 }, 0.1) end },
    { sys.closed and 6 or 1, function() STEMPLATES[self:pick(STEMPLATE_NAMES)](self, self:pick{ 0, 0.05, 0.1 }) end },
    { 2, function()
      local ps = self:any("system", function(s) return s.dim ~= 3 end)
      local pb = self:any("body", function(s) return s.dim ~= 3 end)
      local sb = self:any("body", function(s) return s.dim == 3 end)
      if ps and sb then
        self:step("return %s:%s{ %s.ground, %s, at = { 0, 0 }, axis = { 1, 0 } }", self:v(ps),
          self:pick{ "revolute", "prismatic", "spring", "fixed", "drive", "translational" }, self:v(ps), self:v(sb))
      elseif pb then
        self:step("return %s:%s{ %s.ground, %s, at = { 0, 0, 0 }, axis = { 1, 0, 0 } }", v,
          self:pick{ "revolute", "spherical", "spring", "fixed", "drive", "cylindrical" }, v, self:v(pb))
      else
        self:step("return %s:force{ %s.ground, value = { 1, 0, 0 } }", v, v)
      end
    end },
    { 3, function()
      -- a method taken from a system of one dimension (the other's stub, or a method both
      -- have under one name) and called with a system of the other, with either's fields
      local names = { "spherical", "universal", "cylindrical", "planar", "contact", "flexible", "guide", "body",
        "revolute", "prismatic", "translational", "fixed", "spring", "rotational_spring", "force", "torque",
        "drive", "point", "simulate", "lyapunov" }
      local m = self:pick(names)
      local other, target
      local ps = self:any("system", function(s) return s.dim ~= 3 end)
      if self:chance(0.5) or not ps then
        other, target = "mech.planar{}", sys
      else
        other, target = "mech.spatial{}", ps
      end
      local tv = self:v(target)
      local b = self:any("body", function(s) return s.sys == target end)
      local j = self:any("joint", function(s) return s.sys == target end)
      local pos = m == "rotational_spring" and (j and self:v(j) or tv .. ".ground")
        or (m == "drive" or m == "force" or m == "torque" or m == "point") and (b and self:v(b) or tv .. ".ground")
        or fmt("%s.ground, %s", tv, b and self:v(b) or tv .. ".ground")
      -- the fields the function knows (its own dimension's), with values of either dimension
      local known = SURFACE.fields[(other == "mech.planar{}" and "system:" or "ssystem:") .. m] or {}
      local fields = {}
      for _, k in ipairs(known) do
        if self:chance(0.35) then
          local gen = self:chance(0.5) and SFIELD[k] or FIELD[k]
          fields[#fields + 1] = k .. " = " .. (gen and gen(self) or self:pick{ "{ 0, 0 }", "{ 0, 0, 1 }", "1",
            "{ { 0, 0 }, { 1, 1 } }", "{ { 0, 0, 0 }, { 1, 1, 1 } }", "1e-3" })
        end
      end
      self:step("local f = %s.%s; return f(%s, { %s%s })", other, m, tv, self:chance(0.8) and pos .. ", " or "",
        concat(fields, ", "))
    end },
    { 1, function()
      self:step("local sp = mech.spatial{}; local f = sp.%s; return f(mech.planar{}, %s)",
        self:pick{ "spherical", "universal", "cylindrical", "planar", "body", "torque", "rotational_spring" }, self:hostile())
    end },
    { 2, function() self:step("return %s:describe(), tostring(%s), %s.dim, %s.dof", v, v, v, v) end },
    { 2, function()
      local e = self:any("body joint driver load spring point", function(s) return s.sys == sys end)
      if e then self:step("return tostring(%s), %s.channels, %s.kind, %s.name, %s.system", self:v(e), self:v(e), self:v(e), self:v(e), self:v(e)) end
    end },
    { 1, function() self:step("return H.keep and (H.keep.x or 0) + #H.keep, H.keep and next(H.keep)") end },
    { 1, function()
      self:step("return spec001.friction(%s%s)", self:chance(0.8) and q(self:pick(SPEC001_FRICTION)) or self:hostile(),
        self:pick{ "", "", ", 1e-4", ", " .. num(self:logu(1e-8, 1)), ", 0", ", -1", ", NAN", ", INF", ', "1e-4"', ", {}", ", nil" })
    end },
    { 2, function()
      -- a law kept in a slot, changed behind its constructor's back, then shown and given to a
      -- joint with clearance (its fields are read again there)
      local law = self:any("flaw nlaw")
      if not law then return end
      local lv = self:v(law)
      local value = self:chance(0.1) and lv or self:pick{ self:pick(HREG), self:pick(HPOS), self:pick(HRESET), '"hertz"',
        '"lugre"', '"friction"', '"contact"', "nil", "true", self:hostile() }
      local edit = self:pick{ "@.bounded, @.normalized = true, true", "@.regularization = %s", "@.v_reg = %s",
        "@.reset = %s", "@.law = %s", "@.kind = %s", "@.mu = %s", "setmetatable(@, nil)", "@.K = %s", "@.zz = %s",
        "@.sigma0 = %s", "@.bounded = %s", "@.normalized = %s", "@.n = %s", "@.restitution = %s" }
      self:step((edit:gsub("@", lv):gsub("%%s", function() return value end)))
      if self:chance(0.5) then self:step("return tostring(%s)", lv) end
      local b = self:any("body", function(s) return s.sys == sys end)
      local field = law.kind == "nlaw" and "contact = " .. lv or "contact = mech.contact.hertz{ K = 1e9 }, friction = " .. lv
      sys.clear = true
      if self:chance(0.5) then
        self:step("return %s:revolute{ %s.ground, %s, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, clearance = { radial = 5e-4, "
          .. "axial = 5e-4 }, bearing = { radius = 0.01, length = 0.04 }, %s }", v, v, b and self:v(b) or v .. ".ground", field)
      else -- a box slider's, with the corners (an area model takes only its friction)
        if law.kind ~= "nlaw" and self:chance(0.3) then field = 'stiffness = "area", material = "steel", friction = ' .. lv end
        self:step("return %s:prismatic{ %s.ground, %s, at = { 0, 0, 0 }, axis = { 0, 1, 0 }, ref = { 1, 0, 0 }, clearance = "
          .. "{ x = 1e-4, z = 1e-4 }, slider = { length = 0.03, width = 0.015, height = 0.015 }, %s }", v, v,
          b and self:v(b) or v .. ".ground", field)
      end
    end },
    { HAVE.spec003 and 2 or 0, function() self:hull_area() end },
    { HAVE.spec003 and 1 or 0, function()
      self:step("return spec003.slider(%s, %s)", self:chance(0.7) and num(self:float(0, 1)) or self:hnum(),
        self:pick{ "nil", "{}", "{ rpm = NAN }", "{ crank = 0.2, rod = 0.1 }", "{ rpm = 1e300 }", "spec003.PARAMS", self:hostile() })
    end },
    { 1, function()
      self:step("return require('spec001').slider(%s, %s)", self:chance(0.7) and num(self:float(0, 1)) or self:hnum(),
        self:pick{ "nil", "require('spec001').PARAMS", "{}", "{ omega = NAN, crank = 0.1, rod = 0.29, pivot = { 0, 0, 0 } }", self:hostile() })
    end },
    { 2, function()
      local e = self:any("body", function(s) return s.sys == sys end)
      self:step("return %s:value(%s)", v, self:channel(sys))
      if e then self:step("return %s:point{ name = %s, body_at = %s }", self:v(e), self:ename("p"), self:spt(0.3)) end
    end },
    { 1, function() self:step("return %s:assemble()", v) end },
    { 1, function()
      self:step("return %s:lyapunov%s", v, self:args({ { "t", num(self:pick{ 1e-3, 1e-2 }) }, { "every", num(1e-4) },
        { "method", q(self:pick(METHODS)) }, { "h", "1e-4" }, { "d0", self:pick{ "1e-8", "0", "-1", "NAN", "1e300" } } }, 0.3))
    end },
  }
  self:wpick(acts)()
end

-- ---- one case ------------------------------------------------------------------------------

local TEMPLATE_NAMES = { "pendulum", "slider_crank", "guide", "contact", "springs", "flexible", "stdlib" }

function G:generate()
  self:emit(fmt("-- mechlua fuzz case: seed %d, case %d (tests/fuzz/gen.lua).", self.seed, self.n))
  self:emit("-- Run it in an empty folder (it writes files there): mechlua case.lua")
  self:emit(PRELUDE)
  self:emit('local plot, analysis, fft, slidercrank = require "plot", require "analysis", require "fft", require "slidercrank"')
  self:emit('local options, tap = require "options", require "tap"')
  self:emit('local benchmarks, spec000 = require "benchmarks", require "spec000"')
  self:emit('local spec001 = require "spec001"')
  self:emit('local spec003 = (function() local ok, m = pcall(require, "spec003"); return ok and m or nil end)()')
  -- a third of the cases build spatial systems (now and then a planar one beside them)
  local spatial = self:chance(1 / 3)
  local episodes = self:int(1, 3)
  for e = 1, episodes do
    local rate = self:pick{ 0, 0.05, 0.1, 0.3 }
    local sys
    if spatial and (e == 1 or self:chance(0.8)) then
      sys = STEMPLATES[self:pick(STEMPLATE_NAMES)](self, rate)
    else
      sys = TEMPLATES[self:pick(TEMPLATE_NAMES)](self, rate)
    end
    local nact = self:int(15, 40)
    for _ = 1, nact do
      local act = self:wpick{
        { 5, "simulate" }, { 5, "results" }, { 4, "column" }, { 4, "plot" }, { 3, "analysis" },
        { 5, "abuse" }, { 4, "sweep" }, { 3, "methods" }, { 1, "mesh" }, { 1, "oom" }, { 1, "interrupt" },
        { spatial and 6 or 0, "sabuse" }, { spatial and 4 or 0, "simulate" },
      }
      if act == "sabuse" then self:sabuse()
      elseif act == "simulate" then
        local open = spatial and self:chance(0.8) and self:any("system", function(s) return s.dim == 3 and not s.closed end)
        self:simulate(open or self:any("system") or sys, self:pick{ 0, 0.1, 0.3 })
      elseif act == "results" then
        local run = self:any("run")
        if run then self:results(run) else self:simulate(sys, 0) end
      elseif act == "column" then self:column_ops()
      elseif act == "plot" then self:plotting()
      elseif act == "analysis" then self:analysing()
      elseif act == "abuse" then self:abuse()
      elseif act == "sweep" then self:sweep_call()
      elseif act == "methods" then self:method_sweep()
      elseif act == "mesh" then self:meshes()
      elseif act == "oom" then
        -- the next step runs with an allocation failing
        self:before(fmt("H.oom(%d, %q)", self:int(1, 400), self:pick{ "fail", "once" }))
        self:simulate(self:any("system") or sys, 0)
      else
        -- Ctrl-C at an allocation of the next step (as a signal arriving there would)
        local s = self:any("system") or sys
        self:emit(fmt("S(function() H.interrupt(%d) %s:simulate{ t = %s, quiet = true, record = { %s }%s } end)",
          self:int(1, 300), self:v(s), num(self:pick{ 1e-3, 1e-2 }), self:channel(sys), s.clear and ", max_steps = 5e4" or ""))
      end
    end
  end
  self:emit('io.stderr:write(string.format("fuzz-case-done calls %d errors %d\\n", CALLS, ERRORS))')
  return concat(self.lines, "\n") .. "\n"
end

for i = 0, COUNT - 1 do
  local n = FIRST + i * STRIDE
  local g = new_case(SEED, n)
  local src = g:generate()
  local ok, err = load(src, "=case")
  if not ok then error(fmt("gen.lua: case %d of seed %d does not compile: %s", n, SEED, err)) end
  local f = assert(io.open(fmt("%s/case-%d-%d.lua", OUTDIR, SEED, n), "wb"))
  f:write(src)
  f:close()
end
