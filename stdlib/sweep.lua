-- SPDX-License-Identifier: MIT
-- sweep: parameter studies, each case in its own worker process.
--
--   local sweep = require "sweep"
--   local design = sweep.grid{ speed = { 1000, 2000, 3000 }, clearance = { 0.1e-3, 0.5e-3 } }
--   local res = sweep.run{ design, folder = "out/study", case = function(p, dir)
--     local run = model(p):simulate{ ... }
--     return { peak = run["slider.ax"]:max(), files = { run:csv(dir .. "/run.csv") } }
--   end }
--   print(#res, res.ok, res.peak:max())        -- rows, cases that succeeded, a column
--
-- Designs: sweep.grid (every combination), sweep.list (the cases given), sweep.random and
-- sweep.lhs (seeded samples over ranges, the same bits on every machine).  sweep.run runs
-- the cases on worker processes (module sweepcore: a fork per case), keeps each finished
-- case in folder/cases/<key>/result (a rerun of the same script skips it), and returns the
-- results as rows and columns, written as CSV.  man mechlua-sweep(3) has the details.
--
-- The orchestration is here, in Lua, over small primitives (sweepcore): dispatch() hands
-- out cases to the free slots of one or more pools.  A pool is
--   pool.slots                    how many cases it runs at once
--   pool:start(slot, i, dir)      starts case i on a free slot (1..slots)
--   pool:poll(ms)                 -> { { slot = s, record = r }, ... }, interrupted: the cases
--                                    that ended (r as sweepcore.wait gives it), sleeping up to ms
--   pool:kill(slot, signal)       ends the case on a slot (its record comes through poll)
--   pool:close()                  ends and reaps every case still running
-- local_pool() is the workers of this machine; another kind of slot (remote ranks) joins
-- by being one more pool in the list.
local core = require "sweepcore"
local options = require "options"
local mpi = require "mpi"

local sweep = {}

-- sweep.leader() -> true unless this process is a rank of an MPI job other than rank 0.
-- Under mpirun every rank runs the whole script; sweep.run hands the cases out from rank 0
-- and returns the same results on every rank, and what only one copy should do (figures,
-- files, a summary) goes under `if sweep.leader() then ... end`.
function sweep.leader()
  local c = package.loaded.sweepmpi
  if type(c) == "table" and c.initialized() then return c.rank() == 0 end
  if not mpi.under_mpi() then return true end
  local r = os.getenv("OMPI_COMM_WORLD_RANK") or os.getenv("PMIX_RANK") or os.getenv("PMI_RANK")
  return (tonumber(r or "0") or 0) == 0
end
-- The ranks other than 0 print nothing on the standard output (their errors and warnings
-- still reach the standard error): the script's lines appear once.
if not sweep.leader() then core.stdout_null() end

local fmt = string.format
local typename = options.typename

-- Raises "fname: message" lvl levels above the function calling fail (1: its caller).
local function fail(lvl, fname, ...)
  error(fname .. ": " .. fmt(...), lvl + 1)
end

-- Column names of the results that parameters and values cannot take.
local RESERVED = { "case", "key", "status", "message", "wall", "worker", "files" }
local reserved = {}
for _, k in ipairs(RESERVED) do reserved[k] = true end

-- A value as the CSV header and messages show it.
local function show(v)
  local t = math.type(v)
  if t == "integer" then return fmt("%d", v) end
  if t == "float" then return fmt("%.17g", v) end
  if type(v) == "string" then
    return '"' .. v:gsub("[%c\"\\]", function(c) return fmt("\\%03d", c:byte()) end) .. '"'
  end
  return tostring(v)
end

-- ---- designs --------------------------------------------------------------------------

local DESIGN = { __name = "sweep.design" }
DESIGN.__index = function(d, k)
  if math.type(k) == "integer" then return rawget(d, "cases")[k] end
  return nil
end
DESIGN.__len = function(d) return #rawget(d, "cases") end
DESIGN.__tostring = function(d)
  return fmt("sweep.design: %s, %d cases (%s)", d.kind, #d.cases, table.concat(d.names, ", "))
end

local function new_design(kind, names, cases, text)
  return setmetatable({ kind = kind, names = names, cases = cases, text = text }, DESIGN)
end

local function is_design(v) return getmetatable(v) == DESIGN end

-- Checks a parameter name (where says where it was found).
local function check_name(fname, k, where, lvl)
  if type(k) ~= "string" then
    fail(lvl + 1, fname, "%sparameter names must be strings (got the %s key %s)", where, type(k), tostring(k))
  end
  if reserved[k] then
    fail(lvl + 1, fname, "%sparameter name '%s' is reserved (reserved: %s)", where, k, table.concat(RESERVED, ", "))
  end
end

-- Checks a parameter value; what names it.
local function check_value(fname, what, v, lvl)
  local t = type(v)
  if t == "number" then
    if v ~= v then fail(lvl + 1, fname, "%s is NaN", what) end
  elseif t ~= "string" and t ~= "boolean" then
    fail(lvl + 1, fname, "%s must be a number, a string or a boolean (got %s)", what, typename(v))
  end
end

-- The length of t when it is a list (keys 1..n only), else nil and the first other key.
local function list_length(t)
  local n, count = #t, 0
  for k in pairs(t) do
    if math.type(k) ~= "integer" or k < 1 or k > n then return nil, k end
    count = count + 1
  end
  if count ~= n then return nil end
  return n
end

-- sweep.grid{ name = {values...}, ... } [, order]: every combination, the last name in
-- order (default: the names sorted) varying fastest.
function sweep.grid(spec, order)
  local fname = "sweep.grid"
  if type(spec) ~= "table" then
    fail(2, fname, "expected a table { name = {values...}, ... } (got %s)", typename(spec))
  end
  local names = {}
  for k in pairs(spec) do
    check_name(fname, k, "", 2)
    names[#names + 1] = k
  end
  if #names == 0 then fail(2, fname, "empty design: no parameter (sweep.grid{ name = {values...}, ... })") end
  table.sort(names)
  if order ~= nil then
    if type(order) ~= "table" or list_length(order) ~= #names then
      fail(2, fname, "argument #2 must list the %d parameter names in order (got %s)", #names, typename(order))
    end
    local seen = {}
    for j, k in ipairs(order) do
      if spec[k] == nil or seen[k] then
        fail(2, fname, "argument #2: order[%d] = %s is not a parameter named once (parameters: %s)", j, show(k),
          table.concat(names, ", "))
      end
      seen[k] = true
    end
    names = table.move(order, 1, #order, 1, {})
  end
  local total, parts = 1, {}
  for j, k in ipairs(names) do
    local list = spec[k]
    if type(list) ~= "table" then
      fail(2, fname, "field '%s' must be a list of values (got %s)", k, typename(list))
    end
    local n, bad = list_length(list)
    if n == nil then
      fail(2, fname, "field '%s' must be a list of values (it has the key %s)", k, show(bad))
    end
    if n == 0 then fail(2, fname, "field '%s' is an empty list: no value", k) end
    local shown = {}
    for i = 1, n do
      check_value(fname, fmt("%s[%d]", k, i), list[i], 2)
      shown[i] = show(list[i])
    end
    total = total * n
    if total > 1e7 then fail(2, fname, "more than 1e7 cases") end
    parts[j] = fmt("%s = {%s}", k, table.concat(shown, ", "))
  end
  local cases = {}
  for c = 1, total do
    local p, idx = {}, c - 1
    for j = #names, 1, -1 do
      local list = spec[names[j]]
      p[names[j]] = list[idx % #list + 1]
      idx = idx // #list
    end
    cases[c] = p
  end
  return new_design("grid", names, cases, fmt("grid %s (%d cases, the last name fastest)",
    table.concat(parts, " x "), total))
end

-- The cases of a list, checked (a design of kind "list").
local function list_design(fname, list, lvl)
  if type(list) ~= "table" then
    fail(lvl + 1, fname, "expected a list of cases { {name = value, ...}, ... } (got %s)", typename(list))
  end
  local n, bad = list_length(list)
  if n == nil then
    fail(lvl + 1, fname, "unknown field %s (a list of cases { {name = value, ...}, ... } expected)", show(bad))
  end
  if n == 0 then fail(lvl + 1, fname, "empty design: no case") end
  local cases, seen, names = {}, {}, {}
  for i = 1, n do
    local c = list[i]
    if type(c) ~= "table" or is_design(c) then
      fail(lvl + 1, fname, "case %d must be a table of parameters (got %s)", i, typename(c))
    end
    local p = {}
    for k, v in pairs(c) do
      check_name(fname, k, fmt("case %d: ", i), lvl + 1)
      check_value(fname, fmt("case %d: parameter '%s'", i, k), v, lvl + 1)
      p[k] = v
      if not seen[k] then seen[k], names[#names + 1] = true, k end
    end
    if next(p) == nil then fail(lvl + 1, fname, "case %d has no parameter", i) end
    cases[i] = p
  end
  table.sort(names)
  return new_design("list", names, cases, fmt("list of %d cases", n))
end

-- sweep.list{ {name = value, ...}, ... }: the cases as given.
function sweep.list(list)
  return list_design("sweep.list", list, 2)
end

-- splitmix64 (Steele, Lea and Flood 2014) in Lua's 64-bit integers: u in [0, 1) with 53
-- random bits, the same bits on every machine.
local function generator(seed)
  local s = seed
  return function()
    s = s + 0x9e3779b97f4a7c15
    local z = s
    z = (z ~ (z >> 30)) * 0xbf58476d1ce4e5b9
    z = (z ~ (z >> 27)) * 0x94d049bb133111eb
    z = z ~ (z >> 31)
    return (z >> 11) * 0x1p-53
  end
end

-- The fields of sweep.random and sweep.lhs: n, seed, and the ranges by sorted name.
local function sample_options(fname, o)
  local p = options.read(fname, o, { n = false, seed = 1, ranges = false }, 1)
  local n = p.n
  if type(n) ~= "number" or n ~= math.floor(n) or n < 1 or n > 1e7 then
    fail(3, fname, "field 'n' must be a whole number of cases from 1 to 1e7 (got %s)", show(n))
  end
  if math.type(p.seed) ~= "integer" and not (type(p.seed) == "number" and p.seed == math.floor(p.seed)
      and math.abs(p.seed) < 2 ^ 63) then
    fail(3, fname, "field 'seed' must be an integer (got %s)", show(p.seed))
  end
  if type(p.ranges) ~= "table" then
    fail(3, fname, "field 'ranges' must be a table { name = {lo, hi}, ... } (got %s)", typename(p.ranges))
  end
  local names, ranges, parts = {}, {}, {}
  for k in pairs(p.ranges) do
    check_name(fname, k, "field 'ranges': ", 3)
    names[#names + 1] = k
  end
  if #names == 0 then fail(3, fname, "empty design: field 'ranges' names no parameter") end
  table.sort(names)
  for j, k in ipairs(names) do
    local r = p.ranges[k]
    local ok = type(r) == "table" and list_length(r) == 2
    local lo, hi = ok and r[1], ok and r[2]
    local finite = function(v) return type(v) == "number" and v == v and math.abs(v) ~= math.huge end
    if not (ok and finite(lo) and finite(hi) and lo <= hi and finite(hi - lo)) then
      local got = type(r) == "table" and "{" .. table.concat((function()
        local t = {}
        for i = 1, #r do t[i] = show(r[i]) end
        return t
      end)(), ", ") .. "}" or typename(r)
      fail(3, fname, "field 'ranges.%s' must be {lo, hi}, finite numbers with lo <= hi (got %s)", k, got)
    end
    ranges[k] = { lo, hi }
    parts[j] = fmt("%s in [%s, %s]", k, show(lo), show(hi))
  end
  return math.tointeger(n), math.tointeger(p.seed), names, ranges, table.concat(parts, ", ")
end

-- sweep.random{ n, seed = 1, ranges = { name = {lo, hi}, ... } }: n cases drawn uniformly,
-- case by case, each name in sorted order: lo + u (hi - lo).
function sweep.random(o)
  local fname = "sweep.random"
  local n, seed, names, ranges, text = sample_options(fname, o)
  local u, cases = generator(seed), {}
  for c = 1, n do
    local p = {}
    for _, k in ipairs(names) do
      local lo, hi = ranges[k][1], ranges[k][2]
      p[k] = lo + u() * (hi - lo)
    end
    cases[c] = p
  end
  return new_design("random", names, cases, fmt("random, n = %d, seed = %d: %s", n, seed, text))
end

-- sweep.lhs{ n, seed = 1, ranges }: a Latin hypercube: each range cut into n strata, each
-- stratum of each name used once.  For each name in sorted order: a permutation of the
-- strata (Fisher-Yates), then a uniform point in each case's stratum.
function sweep.lhs(o)
  local fname = "sweep.lhs"
  local n, seed, names, ranges, text = sample_options(fname, o)
  local u, cases = generator(seed), {}
  for c = 1, n do cases[c] = {} end
  for _, k in ipairs(names) do
    local lo, hi = ranges[k][1], ranges[k][2]
    local perm = {}
    for c = 1, n do perm[c] = c end
    for c = n, 2, -1 do
      local j = math.min(c, 1 + math.floor(u() * c))
      perm[c], perm[j] = perm[j], perm[c]
    end
    for c = 1, n do cases[c][k] = lo + (perm[c] - 1 + u()) / n * (hi - lo) end
  end
  return new_design("lhs", names, cases, fmt("latin hypercube, n = %d, seed = %d: %s", n, seed, text))
end

-- ---- files ------------------------------------------------------------------------------

-- Writes text to path under a temporary name, then renames it: whole or absent.
local function write_atomic(path, text)
  local tmp = path .. ".tmp" .. core.pid() -- several processes may write the same file
  local f, err = io.open(tmp, "wb")
  if not f then return nil, err end
  local ok, werr = f:write(text)
  local closed, cerr = f:close()
  if ok and not closed then ok, werr = nil, cerr end
  if ok then ok, werr = os.rename(tmp, path) end
  if not ok then
    os.remove(tmp)
    return nil, werr
  end
  return path
end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- sweep.write(path, t) -> path: a table of named numbers, strings, booleans and lists of
-- them, exactly (sweepcore.encode), whole or absent.
function sweep.write(path, t)
  local fname = "sweep.write"
  if type(path) ~= "string" then fail(2, fname, "bad argument #1 (a path expected, got %s)", typename(path)) end
  if type(t) ~= "table" then fail(2, fname, "bad argument #2 (a table expected, got %s)", typename(t)) end
  local ok, s = pcall(core.encode, t)
  if not ok then fail(2, fname, "%s", (tostring(s):gsub("^.-sweepcore%.encode: ", ""))) end
  local done, err = write_atomic(path, s)
  if not done then fail(2, fname, "cannot write %s", tostring(err)) end
  return path
end

-- sweep.read(path) -> the table sweep.write wrote.
function sweep.read(path)
  local fname = "sweep.read"
  if type(path) ~= "string" then fail(2, fname, "bad argument #1 (a path expected, got %s)", typename(path)) end
  local s = read_file(path)
  if not s then fail(2, fname, "cannot read '%s'", path) end
  local t, err = core.decode(s)
  if not t then fail(2, fname, "'%s': %s", path, err) end
  return t
end

-- FNV-1a, 64 bits, of s, mixed by splitmix64's finalizer (every bit of the key depends on
-- every byte): 16 hex digits.
local function hash(s)
  local h = -3750763034362895579 -- 14695981039346656037
  for i = 1, #s, 64 do
    local bytes = { s:byte(i, i + 63) }
    for j = 1, #bytes do h = (h ~ bytes[j]) * 1099511628211 end
  end
  h = (h ~ (h >> 30)) * 0xbf58476d1ce4e5b9
  h = (h ~ (h >> 27)) * 0x94d049bb133111eb
  return fmt("%016x", h ~ (h >> 31))
end

-- The script of the study (arg[0]) and a hash of its path and contents.
local function script_identity()
  local path = type(arg) == "table" and rawget(arg, 0) or nil
  if type(path) ~= "string" then return nil, hash("") end
  return path, hash(path .. "\0" .. (read_file(path) or ""))
end

-- ---- results ----------------------------------------------------------------------------

local COLUMN_METHODS = {}
local column_info = setmetatable({}, { __mode = "k" }) -- column -> { name, numeric }

-- The metatables of designs, results and columns, in the registry under their names (as
-- luaL_newmetatable keeps a C type's): help() finds their methods there.
local COLUMN = { __name = "sweep.column", __methods = COLUMN_METHODS }
COLUMN.__index = function(col, k)
  if k == "name" then return column_info[col].name end
  return COLUMN_METHODS[k]
end
COLUMN.__tostring = function(col)
  return fmt("sweep column '%s': %d values", column_info[col].name, #col)
end

local function numbers_of(col, fname)
  if getmetatable(col) ~= COLUMN then
    fail(3, fname, "bad argument #1 (a sweep column expected, got %s)", typename(col))
  end
  if not column_info[col].numeric then
    fail(3, fname, "column '%s' does not hold numbers", column_info[col].name)
  end
  return col
end

-- col:min(), col:max(), col:mean(): over the values that are not NaN (the cases without
-- one are NaN); NaN when there is none.
function COLUMN_METHODS.min(col)
  local v, r = numbers_of(col, "col:min"), 0 / 0
  for i = 1, #v do if v[i] == v[i] and not (v[i] >= r) then r = v[i] end end
  return r
end

function COLUMN_METHODS.max(col)
  local v, r = numbers_of(col, "col:max"), 0 / 0
  for i = 1, #v do if v[i] == v[i] and not (v[i] <= r) then r = v[i] end end
  return r
end

function COLUMN_METHODS.mean(col)
  local v, s, n = numbers_of(col, "col:mean"), 0, 0
  for i = 1, #v do if v[i] == v[i] then s, n = s + v[i], n + 1 end end
  return n > 0 and s / n or 0 / 0
end

-- col:table(): a plain list, a copy.
function COLUMN_METHODS.table(col)
  return table.move(col, 1, #col, 1, {})
end

-- A column: a list of the rows' values of name (plot and analysis read it as a list), with
-- the methods above.  Missing values are NaN in a column of numbers, "" otherwise.
local function make_column(res, name)
  local n, numeric = #res, true
  for i = 1, n do
    local v = res[i][name]
    if v ~= nil and type(v) ~= "number" then numeric = false end
  end
  local col = {}
  for i = 1, n do
    local v = res[i][name]
    if v == nil then v = numeric and 0 / 0 or "" end
    if type(v) == "table" then v = table.concat(v, ";") end
    col[i] = v
  end
  column_info[col] = { name = name, numeric = numeric }
  return setmetatable(col, COLUMN)
end

local RESULT_METHODS = {}
local RESULTS = { __name = "sweep.results", __methods = RESULT_METHODS }
do
  local reg = debug.getregistry()
  for _, mt in ipairs{ DESIGN, COLUMN, RESULTS } do
    reg[mt.__name] = mt
  end
end

-- res:column(name) -> the column of a parameter, a value or status, message, wall, worker.
function RESULT_METHODS.column(res, name)
  if getmetatable(res) ~= RESULTS then fail(2, "res:column", "bad argument #1 (results expected, got %s)", typename(res)) end
  for _, k in ipairs(res.names) do
    if k == name then return make_column(res, name) end
  end
  fail(2, "res:column", "no column '%s' (columns: %s)", tostring(name), table.concat(res.names, ", "))
end

RESULTS.__index = function(res, k)
  local m = RESULT_METHODS[k]
  if m then return m end
  if type(k) ~= "string" then return nil end
  for _, name in ipairs(rawget(res, "names")) do
    if name == k then return make_column(res, k) end
  end
  return nil
end
RESULTS.__tostring = function(res)
  return fmt("sweep results '%s': %d cases, %d ok, %d failed (%s)", res.name, #res, res.ok, res.failed,
    table.concat(res.names, ", "))
end

-- One CSV field: numbers exactly (%.17g; integers as they are), strings quoted when needed.
local function csv_field(v, wall)
  if v == nil then return "" end
  local t = math.type(v)
  if t == "integer" then return fmt("%d", v) end
  if t == "float" then
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" end
    if v == -math.huge then return "-inf" end
    return fmt(wall and "%.6g" or "%.17g", v)
  end
  if type(v) == "table" then v = table.concat(v, ";") end
  local s = tostring(v)
  if s:find('[,"\r\n]') then s = '"' .. s:gsub('"', '""') .. '"' end
  return s
end

-- The CSV text of the results: the provenance header, then a row per case in case order.
local function csv_text(res)
  local out = {}
  local script = res.script
  out[1] = fmt("# mechlua %s%s\n", mech.version, script and (", script " .. script) or "")
  out[#out + 1] = fmt("# sweep %s: %d cases, folder %s\n", res.name, #res, res.folder)
  out[#out + 1] = fmt("# design %s\n", res.design)
  local keys = {}
  for k in pairs(res.header_params or {}) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  for _, k in ipairs(keys) do
    out[#out + 1] = fmt("# parameter %s = %s\n", k, tostring(res.header_params[k]):gsub("[\r\n]", " "))
  end
  local heads = {}
  for j, k in ipairs(res.names) do heads[j] = csv_field(k == "wall" and "wall [s]" or k) end
  out[#out + 1] = table.concat(heads, ",") .. "\n"
  for i = 1, #res do
    local row, fields = res[i], {}
    for j, k in ipairs(res.names) do fields[j] = csv_field(row[k], k == "wall") end
    out[#out + 1] = table.concat(fields, ",") .. "\n"
  end
  return table.concat(out)
end

-- res:csv(path) -> path: the results as CSV (as sweep.run wrote them), whole or absent.
function RESULT_METHODS.csv(res, path)
  if getmetatable(res) ~= RESULTS then fail(2, "res:csv", "bad argument #1 (results expected, got %s)", typename(res)) end
  if type(path) ~= "string" then fail(2, "res:csv", "bad argument #1 (a path expected, got %s)", typename(path)) end
  local ok, err = write_atomic(path, csv_text(res))
  if not ok then fail(2, "res:csv", "cannot write %s", tostring(err)) end
  return path
end

-- ---- the local pool ---------------------------------------------------------------------

-- n worker processes of this machine: each case a fork (sweepcore.spawn) of job(i, dir).
local function local_pool(n, job, spawn_options)
  local pool = { slots = n, busy = {} }
  function pool:start(slot, i, dir)
    self.busy[slot] = core.spawn(job, i, dir, spawn_options)
  end
  function pool:poll(ms)
    local handles, slot_of = {}, {}
    for slot = 1, self.slots do
      local h = self.busy[slot]
      if h then
        handles[#handles + 1] = h
        slot_of[h] = slot
      end
    end
    if #handles == 0 then return {}, core.interrupted() end
    local done, interrupted = core.wait(handles, ms)
    local out = {}
    for k, r in ipairs(done) do
      local slot = slot_of[r.handle]
      self.busy[slot] = nil
      out[k] = { slot = slot, record = r }
    end
    return out, interrupted
  end
  function pool:kill(slot, signal)
    if self.busy[slot] then core.kill(self.busy[slot], signal) end
  end
  function pool:close() -- SIGKILL and reap whatever still runs
    local handles = {}
    for slot = 1, self.slots do
      local h = self.busy[slot]
      if h then
        core.kill(h, "SIGKILL")
        handles[#handles + 1] = h
      end
      self.busy[slot] = nil
    end
    while #handles > 0 do
      local done = core.wait(handles, 100)
      local left = {}
      local ended = {}
      for _, r in ipairs(done) do ended[r.handle] = true end
      for _, h in ipairs(handles) do if not ended[h] then left[#left + 1] = h end end
      handles = left
    end
  end
  return setmetatable(pool, { __close = function(p) p:close() end })
end

-- ---- dispatch ---------------------------------------------------------------------------

local GRACE = 2 -- s between SIGTERM and SIGKILL
local POLL_MS = 1 -- ms: the pause between looks at MPI's messages and the local workers
local BUSY_MS = 20 -- ms: the same on a rank whose workers are all busy (a kill may wait that long)

-- Runs the cases of queue (indices, in that order) on the free slots of the pools.
-- study.dir(i) is the folder of case i, study.done(i, record, worker, killed) takes each
-- record (worker: the slot's number over all the pools; killed: why the study ended the
-- case, if it did) and may return a message to stop the study with, study.tick(running,
-- stop, final) shows progress, study.timeout is the time a case may take.  Returns nil,
-- or "interrupted" (Ctrl-C) or the stop message; either way every case started has ended
-- and was passed to done.  A case is ended by SIGTERM, then SIGKILL GRACE s later.
local function dispatch(pools, queue, study)
  local base, nslots = {}, 0
  for k, pool in ipairs(pools) do base[k], nslots = nslots, nslots + pool.slots end
  local busy = {} -- [global slot] = { i, t0, pool, slot, killed = reason, term = t, hard }
  local running, nextq, stop = 0, 1, nil
  local timeout = study.timeout
  local function end_all(reason)
    local t = core.now()
    for _, b in pairs(busy) do
      if not b.killed then
        b.killed, b.term = reason, t
        b.pool:kill(b.slot, "SIGTERM")
      end
    end
  end
  while true do
    if not stop then
      for k, pool in ipairs(pools) do
        for slot = 1, pool.slots do
          local g = base[k] + slot
          if nextq > #queue then break end
          if not busy[g] then
            local i = queue[nextq]
            nextq = nextq + 1
            pool:start(slot, i, study.dir(i))
            busy[g] = { i = i, t0 = core.now(), pool = pool, slot = slot }
            running = running + 1
          end
        end
      end
    end
    if running == 0 then break end
    -- sleep until a case ends, Ctrl-C, the next progress line or the next deadline
    local now = core.now()
    local wake = now + 0.25
    for _, b in pairs(busy) do
      if b.term and not b.hard then
        wake = math.min(wake, b.term + GRACE)
      elseif timeout and not b.term then
        wake = math.min(wake, b.t0 + timeout)
      end
    end
    local ms = math.max(0, math.ceil((wake - now) * 1000))
    if #pools > 1 then ms = math.min(ms, POLL_MS) end
    for k, pool in ipairs(pools) do
      local done, interrupted = pool:poll(ms)
      for _, d in ipairs(done) do
        local g = base[k] + d.slot
        local b = busy[g]
        busy[g] = nil
        running = running - 1
        local msg = study.done(b.i, d.record, g, b.killed)
        if msg and not stop then
          stop = msg
          end_all("stopped")
        end
      end
      if interrupted and not stop then
        stop = "interrupted"
        end_all("interrupted")
      end
    end
    now = core.now()
    for _, b in pairs(busy) do
      if b.term and not b.hard and now >= b.term + GRACE then
        b.hard = true
        b.pool:kill(b.slot, "SIGKILL")
      elseif timeout and not b.killed and now >= b.t0 + timeout then
        b.killed, b.term = "timeout", now
        b.pool:kill(b.slot, "SIGTERM")
      end
    end
    study.tick(running, stop)
  end
  study.tick(0, stop, true)
  return stop
end

-- ---- MPI: the ranks of a job ------------------------------------------------------------

-- Under mpirun (or srun) every rank runs the script.  At a sweep.run, rank 0 dispatches:
-- its own workers are one pool, the workers of the other ranks another (remote_pool), and
-- the cases go to whichever slot is free first, so long and short cases balance.  The
-- other ranks serve (follow): they run the cases rank 0 sends them, each in a worker
-- process of their own, send the records back, and at the end receive the rows of the
-- whole table, so sweep.run returns the same results on every rank.  Rank 0 alone writes
-- result files and the CSV.  Messages are flat records (sweepcore.encode), tagged:
local TAG_CASE, TAG_KILL, TAG_RESULT, TAG_END = 1, 2, 3, 4

local session -- { m = sweepmpi, rank, size, seq = sweep.run calls so far }, or false

-- The MPI session of this process (started at the first call), or nil in a plain run.
local function mpi_session(fname, lvl)
  if session ~= nil then return session or nil end
  local under, launcher = mpi.under_mpi()
  if not under then
    session = false
    return nil
  end
  if not mpi.available() then
    fail(lvl, fname, "this program is a rank of an MPI job (%s) but was built without MPI support: "
      .. "each rank would run the whole study (install Debian's libopenmpi-dev and openmpi-bin, rebuild)",
      launcher)
  end
  local m = mpi.load()
  local rank, size
  if m.initialized() then rank, size = m.rank(), m.size() else rank, size = m.init() end
  session = { m = m, rank = rank, size = size, seq = 0 }
  return session
end

-- The workers a rank runs at once by default: its share of the machine's CPUs among the
-- ranks on that machine, within the CPUs it may run on (at least 1).
local function rank_workers()
  local here = tonumber(os.getenv("OMPI_COMM_WORLD_LOCAL_SIZE") or os.getenv("MPI_LOCALNRANKS")
    or os.getenv("PMIX_LOCAL_SIZE") or os.getenv("SLURM_NTASKS_PER_NODE") or "") or 1
  return math.max(1, math.min(core.ncores(), core.ncores(true) // math.max(1, math.floor(here))))
end

-- A record of sweepcore.wait, flat for a message (its values under "v:").
local function flat_record(r, extra)
  local out = extra or {}
  for k, v in pairs(r) do
    if k == "values" then
      for vk, vv in pairs(v) do out["v:" .. vk] = vv end
    elseif k ~= "handle" and (type(v) ~= "table") then
      out["r:" .. k] = v
    end
  end
  return out
end

local function unflat_record(t)
  local r, values = {}, nil
  for k, v in pairs(t) do
    local rk = k:match("^r:(.*)$")
    if rk then
      r[rk] = v
    else
      local vk = k:match("^v:(.*)$")
      if vk then
        values = values or {}
        values[vk] = v
      end
    end
  end
  r.values = values
  return r
end

local function send(m, dest, tag, t) m.send(dest, tag, core.encode(t)) end

local function receive(m, src, tag, fname)
  local s = m.recv(src, tag)
  local t, err = core.decode(s)
  if not t then error(fmt("%s: a message between ranks could not be read: %s", fname, err), 0) end
  return t
end

-- The workers of ranks 1..size-1, w each, as a pool of dispatch().
local function remote_pool(sess, w, fname)
  local m = sess.m
  local pool = { slots = (sess.size - 1) * w, busy = {} }
  local function where(slot) return (slot - 1) // w + 1, (slot - 1) % w + 1 end
  function pool:start(slot, i, dir)
    local rank, lslot = where(slot)
    send(m, rank, TAG_CASE, { seq = sess.seq, i = i, slot = lslot, dir = dir })
    self.busy[slot] = true
  end
  function pool:poll(ms)
    local out, interrupted = {}, false
    local deadline = core.now() + ms / 1000
    while true do
      while m.iprobe(nil, TAG_RESULT) do
        local t = receive(m, nil, TAG_RESULT, fname)
        if t.seq ~= sess.seq then
          error(fmt("%s: rank %d answered for another study (the ranks do not run the same script?)", fname,
            t.rank), 0)
        end
        local slot = (t.rank - 1) * w + t.slot
        self.busy[slot] = nil
        if t.interrupted then interrupted = true end
        out[#out + 1] = { slot = slot, record = unflat_record(t) }
      end
      if #out > 0 or interrupted or core.now() >= deadline then break end
      local _, intr = core.wait({}, math.min(POLL_MS, math.max(1, ms)))
      if intr then
        interrupted = true
        break
      end
    end
    return out, interrupted or core.interrupted()
  end
  function pool:kill(slot, signal)
    if not self.busy[slot] then return end
    local rank, lslot = where(slot)
    send(m, rank, TAG_KILL, { seq = sess.seq, slot = lslot, signal = signal })
  end
  function pool:close() end -- every case has ended when dispatch returns; an error ends the job
  return pool
end

local GRACE_REMOTE = 2 -- s a rank gives its workers between SIGTERM and SIGKILL after Ctrl-C

-- A rank other than 0: runs the cases rank 0 sends on w workers of its own until the end of
-- the study, then returns rank 0's rows as { [i] = flat row record } and its stop message.
local function follow(sess, w, job, spawn_options, fname)
  local m = sess.m
  local busy, handles = {}, {}
  local interrupted_at
  while true do
    -- the cases that ended
    local list, slot_of = {}, {}
    for slot = 1, w do
      if busy[slot] then
        list[#list + 1] = busy[slot]
        slot_of[busy[slot]] = slot
      end
    end
    local done, intr
    if #list > 0 then
      -- every slot busy: nothing to ask rank 0 for, only its rare kill to hear
      done, intr = core.wait(list, #list == w and BUSY_MS or POLL_MS)
    else
      done, intr = {}, select(2, core.wait({}, POLL_MS))
    end
    for _, r in ipairs(done) do
      local slot = slot_of[r.handle]
      busy[slot] = nil
      send(m, 0, TAG_RESULT, flat_record(r, { seq = sess.seq, rank = sess.rank, slot = slot,
        interrupted = interrupted_at ~= nil }))
    end
    if intr and not interrupted_at then -- Ctrl-C here: end this rank's cases, rank 0 stops the study
      interrupted_at = core.now()
      for slot = 1, w do if busy[slot] then core.kill(busy[slot], "SIGTERM") end end
    elseif interrupted_at and core.now() > interrupted_at + GRACE_REMOTE then
      for slot = 1, w do if busy[slot] then core.kill(busy[slot], "SIGKILL") end end
    end
    -- what rank 0 says
    while true do
      local src, tag = m.iprobe(0)
      if not src then break end
      local t = receive(m, 0, tag, fname)
      if t.seq ~= sess.seq then
        error(fmt("%s: rank 0 sent a message of another study (the ranks do not run the same script?)",
          fname), 0)
      end
      if tag == TAG_CASE then
        mech.mkdir(t.dir)
        busy[t.slot] = core.spawn(job, t.i, t.dir, spawn_options)
      elseif tag == TAG_KILL then
        if busy[t.slot] then core.kill(busy[t.slot], t.signal) end
      elseif tag == TAG_END then
        for slot = 1, w do if busy[slot] then core.kill(busy[slot], "SIGKILL") end end
        return t
      end
    end
  end
end

-- Rank 0, after the study: the rows (flat, as result files hold them) to every other rank.
local function broadcast_end(sess, rows, n, counts, stop, csv_path)
  local t = { seq = sess.seq, n = n, stop = stop, csv = csv_path, ran = counts.ran, resumed = counts.resumed,
    done = counts.done }
  for i = 1, n do
    local row = rows[i]
    if row then
      t[i .. ":status"], t[i .. ":message"], t[i .. ":wall"], t[i .. ":worker"] =
        row.status, row.message, row.wall, row.worker
      t[i .. ":files"], t[i .. ":resumed"] = row.files, row.resumed
      for k, v in pairs(row.values or {}) do
        if k ~= "files" then t[i .. ":v:" .. k] = v end
      end
    end
  end
  local s = core.encode(t)
  for r = 1, sess.size - 1 do sess.m.send(r, TAG_END, s) end
end

-- The rows broadcast_end sent.
local function rows_of_end(t)
  local rows = {}
  for k, v in pairs(t) do
    local i, field = k:match("^(%d+):(.*)$")
    if i then
      i = tonumber(i)
      local row = rows[i] or { values = {} }
      rows[i] = row
      local vk = field:match("^v:(.*)$")
      if vk then row.values[vk] = v else row[field] = v end
    end
  end
  return rows
end

-- ---- sweep.run --------------------------------------------------------------------------

local RUN_FIELDS = { "case", "design", "folder", "workers", "resume", "progress", "name", "csv", "timeout",
  "memory", "params" }
local run_known = {}
for _, k in ipairs(RUN_FIELDS) do run_known[k] = true end

local FAILED = { error = true, signal = true, timeout = true }

-- The fields of sweep.run, checked; lvl: levels up to the caller of sweep.run.
local function run_options(o, lvl)
  local fname = "sweep.run"
  if type(o) ~= "table" then
    fail(lvl, fname, "expected a table { design, case = function(params, dir) ... end, ... } (got %s)",
      typename(o))
  end
  for k in pairs(o) do
    if not (k == 1 or run_known[k]) then
      local names = table.move(RUN_FIELDS, 1, #RUN_FIELDS, 1, {})
      table.sort(names)
      fail(lvl, fname, "unknown field '%s' (known fields: %s, and the design first)", tostring(k),
        table.concat(names, ", "))
    end
  end
  if o[1] ~= nil and o.design ~= nil then fail(lvl, fname, "two designs: the first field and field 'design'") end
  local design = o[1] or o.design
  if design == nil then
    fail(lvl, fname, "no design: sweep.run{ design, case = function(params, dir) ... end }")
  end
  if not is_design(design) then design = list_design(fname, design, lvl) end
  local p = { design = design, case = o.case }
  if type(p.case) ~= "function" then
    fail(lvl, fname, "field 'case' must be a function(params, dir) returning a table of values (got %s)",
      typename(o.case))
  end
  local script, script_hash = script_identity()
  p.script, p.script_hash = script, script_hash
  p.name = o.name
  if p.name == nil then p.name = script and script:match("([^/]+)%.lua$") or "sweep" end
  if type(p.name) ~= "string" or p.name == "" then
    fail(lvl, fname, "field 'name' must be a non-empty string (got %s)", typename(o.name))
  end
  p.folder = o.folder or ("out/" .. p.name)
  if type(p.folder) ~= "string" or p.folder == "" then
    fail(lvl, fname, "field 'folder' must be a path (got %s)", typename(o.folder))
  end
  p.workers = o.workers or core.ncores()
  if math.type(p.workers) ~= "integer" and not (type(p.workers) == "number" and p.workers == math.floor(p.workers)) then
    fail(lvl, fname, "field 'workers' must be a whole number >= 1 (got %s)", show(o.workers))
  end
  if p.workers < 1 or p.workers > 4096 then
    fail(lvl, fname, "field 'workers' must be a whole number from 1 to 4096 (got %s)", show(o.workers))
  end
  p.workers = math.tointeger(p.workers)
  p.resume = o.resume
  if p.resume == nil then p.resume = true end
  if p.resume ~= true and p.resume ~= false and p.resume ~= "ok" then
    fail(lvl, fname, "field 'resume' must be true, false or \"ok\" (got %s)", show(o.resume))
  end
  p.progress = o.progress
  if p.progress == nil then
    p.progress = mech.isatty(2) and not mech.quiet
  elseif type(p.progress) ~= "boolean" then
    fail(lvl, fname, "field 'progress' must be true or false (got %s)", typename(o.progress))
  end
  p.csv = o.csv
  if p.csv == nil then p.csv = p.folder .. "/results.csv" end
  if p.csv ~= false and type(p.csv) ~= "string" then
    fail(lvl, fname, "field 'csv' must be a path or false (got %s)", typename(o.csv))
  end
  if o.timeout ~= nil and not (type(o.timeout) == "number" and o.timeout > 0 and o.timeout < math.huge) then
    fail(lvl, fname, "field 'timeout' must be a time > 0 s (got %s)", show(o.timeout))
  end
  p.timeout = o.timeout
  if o.memory ~= nil and not (type(o.memory) == "number" and o.memory > 0 and o.memory < 1e18) then
    fail(lvl, fname, "field 'memory' must be a number of bytes > 0 (got %s)", show(o.memory))
  end
  p.memory = o.memory
  if o.params ~= nil and type(o.params) ~= "table" then
    fail(lvl, fname, "field 'params' must be a table (got %s)", typename(o.params))
  end
  p.params = o.params
  return p
end

-- "speed = 1000, clearance = 0.0005": a case's parameters for messages.
local function case_text(design, i)
  local parts, p = {}, design.cases[i]
  for _, k in ipairs(design.names) do
    if p[k] ~= nil then parts[#parts + 1] = k .. " = " .. show(p[k]) end
  end
  return table.concat(parts, ", ")
end

-- The record of a finished case as its result file holds it.
local function result_record(row, design, key, script_hash)
  local r = { case = row.case, key = key, script = script_hash, status = row.status, message = row.message,
    wall = row.wall, worker = row.worker, files = row.files }
  for k, v in pairs(design.cases[row.case]) do r["p:" .. k] = v end
  for k, v in pairs(row.values or {}) do
    if k ~= "files" then r["v:" .. k] = v end
  end
  return r
end

-- The row of a result file, when it is that of case i of this script; else nil.
local function row_of_record(r, i, design, key, script_hash)
  if type(r) ~= "table" or r.key ~= key or r.script ~= script_hash or type(r.status) ~= "string" then return nil end
  local p, count = design.cases[i], 0
  for k, v in pairs(r) do
    local name = type(k) == "string" and k:match("^p:(.*)$")
    if name then
      if p[name] ~= v or math.type(p[name]) ~= math.type(v) then return nil end
      count = count + 1
    end
  end
  for _ in pairs(p) do count = count - 1 end
  if count ~= 0 then return nil end
  local values = {}
  for k, v in pairs(r) do
    local name = type(k) == "string" and k:match("^v:(.*)$")
    if name then values[name] = v end
  end
  return { status = r.status, message = r.message, wall = r.wall, worker = r.worker, files = r.files,
    values = values }
end

-- Formats seconds for the progress line.
local function duration(s)
  s = math.floor(s + 0.5)
  if s >= 3600 then return fmt("%dh%02dm", s // 3600, s % 3600 // 60) end
  if s >= 60 then return fmt("%dm%02ds", s // 60, s % 60) end
  return fmt("%d s", s)
end

-- sweep.run{ design, case = function(params, dir) ... end, folder, workers, resume,
-- progress, name, csv, timeout, memory, params } -> results (see the man page).
function sweep.run(o)
  local fname = "sweep.run"
  local p = run_options(o, 3)
  local design = p.design
  local n = #design.cases
  -- keys and folders
  local keys, dirs, by_key = {}, {}, {}
  for i = 1, n do
    local key = hash(p.script_hash .. "\0" .. p.name .. "\0" .. core.encode(design.cases[i]))
    if by_key[key] then
      fail(2, fname, "cases %d and %d have the same parameters (%s)", by_key[key], i, case_text(design, i))
    end
    by_key[key], keys[i], dirs[i] = i, key, p.folder .. "/cases/" .. key
  end
  local sess = mpi_session(fname, 3)
  local follower = sess and sess.rank > 0
  if sess then
    sess.seq = sess.seq + 1
    if o.workers == nil then p.workers = rank_workers() end
    if follower then p.progress = false end
  end
  local hold <close> = core.hold() -- Ctrl-C arrives in sweepcore.wait only
  mech.mkdir(p.folder .. "/cases")
  -- resume (rank 0 decides what runs)
  local rows, queue, resumed = {}, {}, 0
  for i = 1, follower and 0 or n do
    local row
    if p.resume then
      local s = read_file(dirs[i] .. "/result")
      local r = s and core.decode(s)
      row = r and row_of_record(r, i, design, keys[i], p.script_hash)
      if row and p.resume == "ok" and row.status ~= "ok" then row = nil end
    end
    if row then
      row.resumed = true
      rows[i] = row
      resumed = resumed + 1
    else
      queue[#queue + 1] = i
    end
  end
  -- the cases
  local case, cases = p.case, design.cases
  local function job(i, dir)
    mech.quiet = true -- no progress lines from the workers
    return case(cases[i], dir)
  end
  local params_of = {}
  for _, k in ipairs(design.names) do params_of[k] = true end
  local ndone, nfailed, ran, t_start = resumed, 0, 0, core.now()
  for i = 1, n do if rows[i] and FAILED[rows[i].status] then nfailed = nfailed + 1 end end
  local shown, last = false, 0
  local study = { timeout = p.timeout }
  function study.dir(i)
    mech.mkdir(dirs[i])
    return dirs[i]
  end
  -- A value returned by case i that is not a scalar (nil if all are fine).
  local function bad_values(i, values)
    for k, v in pairs(values) do
      if reserved[k] and k ~= "files" then
        return fmt("returned the reserved name '%s' (reserved: %s)", k, table.concat(RESERVED, ", "))
      end
      if params_of[k] then return fmt("returned '%s', the name of a parameter", k) end
      if k == "files" then
        local ok = type(v) == "table"
        for j = 1, ok and #v or 0 do ok = ok and type(v[j]) == "string" end
        if not ok then return fmt("field 'files' must be a list of file paths (got %s)", typename(v)) end
      elseif type(v) == "table" then
        return fmt("field '%s' is a list", k)
      end
    end
    return nil
  end
  function study.done(i, r, worker, killed)
    local status, message, values = r.status, r.message, r.values
    if status == "invalid" or (status == "ok" and bad_values(i, values)) then
      return fmt("%s: case %d (%s): %s (a case returns a table of numbers, strings and booleans by name, and "
        .. "files = {paths})", fname, i, case_text(design, i), message or bad_values(i, values))
    end
    if status ~= "ok" and killed == "timeout" then
      status, message = "timeout", fmt("ran longer than %g s (ended by %s)", p.timeout, r.signal or "its end")
    elseif status ~= "ok" and killed then
      status, message = "interrupted", nil
    end
    local row = { status = status, message = message, wall = r.wall, worker = worker, values = values or {},
      files = values and values.files or nil }
    rows[i] = row
    if status == "interrupted" then return nil end
    ran, ndone = ran + 1, ndone + 1
    if FAILED[status] then nfailed = nfailed + 1 end
    row.case = i
    local s = core.encode(result_record(row, design, keys[i], p.script_hash))
    local ok, err = write_atomic(dirs[i] .. "/result", s)
    if not ok then return fmt("%s: cannot write the result of case %d: %s", fname, i, tostring(err)) end
    if r.traceback then write_atomic(dirs[i] .. "/error.txt", r.traceback .. "\n") end
    return nil
  end
  function study.tick(running, stop, final)
    if not p.progress then return end
    local now = core.now()
    if final then
      if shown then io.stderr:write("\r\027[K") io.stderr:flush() end
      return
    end
    if now - t_start < 1 or now - last < 0.25 then return end
    last, shown = now, true
    local left = n - ndone
    local eta = ran > 0 and duration((now - t_start) / ran * left) .. " left" or "..."
    if stop then eta = stop == "interrupted" and "interrupted: ending the workers" or "stopping" end
    io.stderr:write(fmt("\rsweep %s: %d/%d cases (%s%d failed, %d running)  %s   ", p.name, ndone, n,
      resumed > 0 and fmt("%d resumed, ", resumed) or "", nfailed, running, eta))
    io.stderr:flush()
  end
  local stop, leader_csv
  local spawn_options = p.memory and { memory = p.memory } or nil
  if follower then
    local t = follow(sess, p.workers, job, spawn_options, fname)
    rows, stop, leader_csv = rows_of_end(t), t.stop, t.csv
    ran, resumed, ndone = t.ran, t.resumed, t.done
  else
    local pool <close> = local_pool(math.min(p.workers, math.max(#queue, 1)), job, spawn_options)
    local pools = { pool }
    if sess and sess.size > 1 then pools[2] = remote_pool(sess, p.workers, fname) end
    stop = dispatch(pools, queue, study)
  end
  local counts = { ran = ran, resumed = resumed, done = ndone }
  if stop and stop ~= "interrupted" then
    if sess and not follower then broadcast_end(sess, rows, n, counts, stop) end
    error(stop, 2)
  end
  -- the results
  local values, vseen = {}, {}
  local has_files = false
  for i = 1, n do
    local row = rows[i]
    for k in pairs(row and row.values or {}) do
      if k ~= "files" and not vseen[k] then vseen[k], values[#values + 1] = true, k end
    end
    if row and row.files then has_files = true end
  end
  table.sort(values)
  local names = { "case", "key" }
  for _, k in ipairs(design.names) do names[#names + 1] = k end
  for _, k in ipairs(values) do names[#names + 1] = k end
  for _, k in ipairs{ "status", "message", "wall", "worker" } do names[#names + 1] = k end
  if has_files then names[#names + 1] = "files" end
  local res = { names = names, params = table.move(design.names, 1, #design.names, 1, {}), values = values,
    folder = p.folder, name = p.name, script = p.script, design = design.text, header_params = p.params,
    ok = 0, failed = 0, ran = ran, resumed = resumed }
  for i = 1, n do
    local row = rows[i] or { status = "pending" }
    local out = { case = i, key = keys[i], dir = dirs[i], status = row.status, message = row.message,
      wall = row.wall, worker = row.worker, files = row.files, resumed = row.resumed or false }
    for k, v in pairs(design.cases[i]) do out[k] = v end
    for k, v in pairs(row.values or {}) do
      if k ~= "files" then out[k] = v end
    end
    if out.status == "ok" then res.ok = res.ok + 1 elseif FAILED[out.status] then res.failed = res.failed + 1 end
    res[i] = out
  end
  setmetatable(res, RESULTS)
  if follower then
    res.path = leader_csv
  elseif p.csv then
    local ok, err = write_atomic(p.csv, csv_text(res))
    if not ok and stop == nil then
      if sess then broadcast_end(sess, rows, n, counts, fmt("%s: rank 0 cannot write %s", fname, tostring(err))) end
      fail(2, fname, "cannot write %s", tostring(err))
    end
    res.path = ok and p.csv or nil
  end
  if sess and not follower then broadcast_end(sess, rows, n, counts, stop, res.path) end
  if stop == "interrupted" then
    error(fmt("%s: interrupted (%d of %d cases done, kept in %s)", fname, ndone, n, p.folder), 2)
  end
  return res
end

return sweep
