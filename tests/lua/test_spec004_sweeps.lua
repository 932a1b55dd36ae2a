-- SPDX-License-Identifier: MIT
-- scripts/spec004.lua runs its rig's cases and its four configurations as sweeps (module
-- sweep, a worker process per case): in quick mode, the same numbers, CSV files and figures
-- with one worker and with two; a rerun in the same folder runs no case again (it reads
-- back what the cases kept) and gives the same again; a bad workers= or resume= argument is
-- a usage error.  The claims of the paper are tested on the same script in test_spec004.lua.
-- The sanitizer build skips it: it adds no C to what runs (the sweep's processes are tested
-- there by test_sweep.lua and sweep_mpi.t, the script itself by test_spec004.lua), and its
-- three quick runs of the script would take two minutes of make check's ten.
if package.preload.faultinject then
  print("1..0 # SKIP the sanitizer build: the script's sweeps are Lua over primitives tested there")
  os.exit(0)
end
local tap = require "tap"

local source = os.getenv("MECHLUA_SOURCE") or ((arg[0]:match("^(.*)/") or ".") .. "/../..")
local script = source .. "/scripts/spec004.lua"
local program = os.getenv("MECHLUA") or arg[-1]
local root = os.tmpname()
os.remove(root)
mech.mkdir(root)

local slurp = tap.slurp

-- A number as its bits (a float in hex: exact, and 0 and -0 differ): equal strings, equal
-- numbers.
local function bits(v)
  if math.type(v) == "float" then return string.format("%a", v) end
  return tostring(v)
end

-- Runs the script in quick mode in this process with the extra arguments, into folder dir.
-- Returns its printed lines and what the tests compare of the global table spec004: the
-- summary's numbers as "name = bits", the files it wrote (CSV files and figures) and its
-- sweeps' results.
local function run_script(dir, extra)
  local ok, printed, err = tap.script(script, dir, "quick", table.unpack(extra))
  if not ok then
    tap.diag(err)
    return nil
  end
  local numbers = {}
  local function add(name, t)
    local keys = {}
    for k in pairs(t) do if type(t[k]) == "number" then keys[#keys + 1] = k end end
    table.sort(keys)
    for _, k in ipairs(keys) do numbers[#numbers + 1] = name .. "." .. k .. " = " .. bits(t[k]) end
  end
  for _, cf in ipairs(spec004.configs) do add(cf.key, cf.summary) end
  for _, e in ipairs(spec004.e1.restitution) do
    add("e1.hu_guo." .. e, spec004.e1.hu_guo[e])
    add("e1.lankarani_nikravesh." .. e, spec004.e1.lankarani_nikravesh[e])
  end
  for k, cs in ipairs(spec004.e2.clearance) do add("e2.clearance." .. k, cs) end
  for k, cs in ipairs(spec004.e2.speed) do add("e2.speed." .. k, cs) end
  local out = { printed = printed, numbers = numbers, files = {}, sweeps = spec004.sweeps }
  for _, list in ipairs{ spec004.csvs, spec004.figures } do
    for _, f in ipairs(list) do out.files[#out.files + 1] = f end
  end
  spec004 = nil -- its windows and traces are large
  collectgarbage()
  return out
end

-- The numbers without the wall times of the configurations' runs.
local function without_wall(numbers)
  local out = {}
  for _, l in ipairs(numbers) do
    if not l:match("^%a+%.wall = ") then out[#out + 1] = l end
  end
  return out
end

-- The printed lines with the folder's name replaced and without the line "wall time";
-- without the wall times of the configurations' table (its rows' last field) unless
-- keep_wall.
local function masked(lines, dir, keep_wall)
  local out = {}
  for _, l in ipairs(lines) do
    l = l:gsub(dir:gsub("%p", "%%%0"), "DIR")
    if not l:match("^  wall time %d+ s$") then
      if not keep_wall and l:match("%de[-+]%d%d +%d+%.%d$") then l = l:gsub("%d+%.%d$", "WALL") end
      out[#out + 1] = l
    end
  end
  return out
end

-- The first difference of two lists of strings, or nil.
local function first_difference(a, b)
  for i = 1, math.max(#a, #b) do
    if a[i] ~= b[i] then return string.format("line %d: %s | %s", i, tostring(a[i]), tostring(b[i])) end
  end
  return nil
end

-- The files of run a (in folder da) that differ from those of run b (in db): PNG and CSV
-- files byte for byte, PDF files but for their creation date.
local function differing_files(a, b, da, db)
  if #a.files ~= #b.files then return { string.format("%d files against %d", #a.files, #b.files) } end
  local bad = {}
  for i, fa in ipairs(a.files) do
    local name = fa:sub(#da + 2)
    local sa, sb = slurp(fa), slurp(b.files[i])
    if b.files[i] ~= db .. "/" .. name or not sa or not sb then
      bad[#bad + 1] = name .. " (missing)"
    else
      if name:match("%.pdf$") then
        sa, sb = sa:gsub("/CreationDate %b()", ""), sb:gsub("/CreationDate %b()", "")
      end
      if sa ~= sb then bad[#bad + 1] = name end
    end
  end
  return bad
end

local function check(diff, name)
  tap.ok(diff == nil, name)
  if diff then tap.diag(diff) end
end

-- ---- one worker, then two ------------------------------------------------------------------

local d1, d2 = root .. "/w1", root .. "/w2"
local one = run_script(d1, { "workers=1" })
local two = one and run_script(d2, { "workers=2" })
if not tap.ok(one and two, "scripts/spec004.lua runs in quick mode with workers=1 and workers=2") then tap.done() end

local function workers_used(res)
  local n = 0
  for i = 1, #res do n = math.max(n, res[i].worker) end
  return n
end
for _, name in ipairs{ "rig", "configurations" } do
  local r1, r2 = one.sweeps[name], two.sweeps[name]
  tap.ok(#r1 == #r2 and r1.ran == #r1 and r2.ran == #r2 and r1.ok == #r1 and r2.ok == #r2,
    string.format("study %s: all its %d cases ran and ended ok, with either number of workers", name, #r1))
  tap.is(workers_used(r1), 1, string.format("study %s: workers=1 runs the cases on one worker", name))
  tap.is(workers_used(r2), 2, string.format("study %s: workers=2 runs them on two", name))
end
tap.ok(#one.numbers > 150, string.format("the summary has %d numbers", #one.numbers))
check(first_difference(without_wall(one.numbers), without_wall(two.numbers)),
  "the summary's numbers are the same bits with one worker and with two (wall times aside)")
check(first_difference(masked(one.printed, d1), masked(two.printed, d2)), "and so is the printed summary")
local bad = differing_files(one, two, d1, d2)
tap.is(#bad, 0, string.format("and so are its %d CSV files and figures", #one.files))
if #bad > 0 then tap.diag(table.concat(bad, "\n")) end

-- ---- a rerun resumes -----------------------------------------------------------------------

local again = run_script(d2, { "workers=2" })
if not tap.ok(again, "scripts/spec004.lua runs again in the same folder") then tap.done() end
for _, name in ipairs{ "rig", "configurations" } do
  local r, resumed = again.sweeps[name], 0
  for i = 1, #r do if r[i].resumed then resumed = resumed + 1 end end
  tap.ok(r.ran == 0 and r.resumed == #r and resumed == #r and r.ok == #r,
    string.format("study %s: the rerun runs no case, it resumes all %d (ran %d)", name, #r, r.ran))
end
-- the wall times too: they are the runs' own, kept with the cases
check(first_difference(two.numbers, again.numbers), "the rerun's numbers are the same bits, wall times included")
check(first_difference(masked(two.printed, d2, true), masked(again.printed, d2, true)), "and so is its printed summary")
bad = differing_files(one, again, d1, d2)
tap.is(#bad, 0, "the CSV files and figures it writes again are the same as before")
if #bad > 0 then tap.diag(table.concat(bad, "\n")) end

-- ---- arguments -----------------------------------------------------------------------------

local function sh(s) return "'" .. s:gsub("'", "'\\''") .. "'" end
for _, a in ipairs{ "workers=0", "workers=two", "resume=maybe" } do
  local dir, errfile = root .. "/u", root .. "/err.txt"
  local ok, how, code = os.execute(string.format("%s %s %s quick %s 2>%s", sh(program), sh(script), sh(dir), a,
    sh(errfile)))
  local err = slurp(errfile) or ""
  tap.ok(not ok and how == "exit" and code == 2 and not os.rename(dir, dir)
    and err:match("^usage: mechlua .*spec004%.lua %[output%-folder%] %[quick%] %[workers=N%] %[resume=no%] %(got '"
      .. a .. "'%)\n$") ~= nil, string.format("%s is a usage error that writes nothing", a))
  if code ~= 2 then tap.diag(err) end
end

os.execute("rm -rf " .. sh(root))
tap.done()
