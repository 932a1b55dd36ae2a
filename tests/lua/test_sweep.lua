-- SPDX-License-Identifier: MIT
-- sweep and sweepcore: designs (the same bits everywhere), the exact record encoding, studies
-- on worker processes (the same table whatever the number of workers, failures recorded
-- with their reasons, resuming), results as columns and CSV, and the messages of bad input.
-- Ctrl-C, a killed program and the progress line are tests/cli/sweep.t's.  No timing is
-- asserted.
local tap = require "tap"
local sweep = require "sweep"
local core = require "sweepcore"
local plot = require "plot"

local fmt = string.format
local root = os.tmpname()
os.remove(root)
mech.mkdir(root)

local function slurp(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- Every field of a CSV text but the columns named in drop ("wall [s]", "worker").
local function without(text, drop)
  local out, skip = {}, nil
  for line in text:gmatch("[^\n]*\n") do
    if line:sub(1, 1) == "#" or skip == nil and line:sub(1, 1) == "#" then
      out[#out + 1] = line
    else
      local fields = {}
      for f in (line:sub(1, -2) .. ","):gmatch("([^,]*),") do fields[#fields + 1] = f end
      if skip == nil then
        skip = {}
        for j, f in ipairs(fields) do if drop[f] then skip[j] = true end end
      end
      local kept = {}
      for j, f in ipairs(fields) do if not skip[j] then kept[#kept + 1] = f end end
      out[#out + 1] = table.concat(kept, ",") .. "\n"
    end
  end
  return table.concat(out)
end
local TIMING = { ["wall [s]"] = true, worker = true }

-- ---- designs ------------------------------------------------------------------------------

do -- grid: every combination, the last name (sorted, or as ordered) fastest
  local d = sweep.grid{ speed = { 1000, 2000 }, mode = { "a", "b", "c" } }
  tap.is(#d, 6, "grid: 2 x 3 cases")
  tap.is(table.concat(d.names, ","), "mode,speed", "grid: the names sorted")
  local seq = {}
  for i = 1, #d do seq[i] = d[i].mode .. d[i].speed end
  tap.is(table.concat(seq, " "), "a1000 a2000 b1000 b2000 c1000 c2000", "grid: the last name varies fastest")
  local o = sweep.grid({ speed = { 1000, 2000 }, mode = { "a", "b", "c" } }, { "speed", "mode" })
  seq = {}
  for i = 1, #o do seq[i] = o[i].mode .. o[i].speed end
  tap.is(table.concat(seq, " "), "a1000 b1000 c1000 a2000 b2000 c2000", "grid: an order given, its last fastest")
  tap.is(math.type(d[1].speed), "integer", "grid: values kept as given (integers stay integers)")
  tap.like(d.text, '^grid mode = {"a", "b", "c"} x speed = {1000, 2000} %(6 cases, the last name fastest%)$',
    "grid: the description for the CSV header")
end

do -- list, random, Latin hypercube
  local l = sweep.list{ { config = "ideal" }, { config = "guide", c = 0.5e-3 } }
  tap.ok(#l == 2 and l[2].c == 0.5e-3 and l.names[1] == "c" and l.names[2] == "config", "list: the cases as given")
  -- splitmix64 from 0 gives 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4 (Vigna's reference)
  local r = sweep.random{ n = 2, seed = 0, ranges = { x = { 0, 1 } } }
  tap.is(r[1].x, (0xe220a8397b1dcdaf >> 11) * 0x1p-53, "random: the first value is splitmix64's first, exactly")
  tap.is(r[2].x, (0x6e789e6aa1b965f4 >> 11) * 0x1p-53, "random: and the second")
  local a = sweep.random{ n = 50, seed = 7, ranges = { x = { -2, 3 }, y = { 10, 10 } } }
  local b = sweep.random{ n = 50, seed = 7, ranges = { x = { -2, 3 }, y = { 10, 10 } } }
  local same, inside = true, true
  for i = 1, 50 do
    same = same and a[i].x == b[i].x and a[i].y == b[i].y
    inside = inside and a[i].x >= -2 and a[i].x <= 3 and a[i].y == 10
  end
  tap.ok(same and inside, "random: the same seed gives the same cases, inside the ranges")
  tap.ok(sweep.random{ n = 1, seed = 8, ranges = { x = { 0, 1 } } }[1].x ~= a[1].x, "random: another seed, other values")
  local h = sweep.lhs{ n = 20, seed = 3, ranges = { x = { 0, 2 }, y = { -1, 1 } } }
  local strata_ok = true
  for _, k in ipairs{ "x", "y" } do
    local lo = k == "x" and 0 or -1
    local used = {}
    for i = 1, 20 do
      local s = math.floor((h[i][k] - lo) / 2 * 20)
      if used[s] or s < 0 or s > 19 then strata_ok = false end
      used[s] = true
    end
  end
  tap.ok(strata_ok, "lhs: each of the 20 strata of each range holds one case")
  local h2 = sweep.lhs{ n = 20, seed = 3, ranges = { x = { 0, 2 }, y = { -1, 1 } } }
  tap.ok(h2[7].x == h[7].x and h2[13].y == h[13].y, "lhs: seeded: the same bits again")
  tap.is(sweep.lhs{ n = 3, ranges = { x = { 0, 1 } } }.text, "latin hypercube, n = 3, seed = 1: x in [0, 1]",
    "lhs: seed 1 by default, and the description")
end

do -- bad designs: the function and the field named
  local function msg(f, ...) local ok, e = pcall(f, ...) return not ok and e or "no error" end
  local cases = {
    { sweep.grid, { {} }, "sweep.grid: empty design: no parameter (sweep.grid{ name = {values...}, ... })" },
    { sweep.grid, { { speed = 3 } }, "sweep.grid: field 'speed' must be a list of values (got number)" },
    { sweep.grid, { { speed = { 1, 2, lo = 3 } } }, "sweep.grid: field 'speed' must be a list of values (it has the key \"lo\")" },
    { sweep.grid, { { speed = {} } }, "sweep.grid: field 'speed' is an empty list: no value" },
    { sweep.grid, { { speed = { 1, {} } } }, "sweep.grid: speed[2] must be a number, a string or a boolean (got table)" },
    { sweep.grid, { { speed = { 0 / 0 } } }, "sweep.grid: speed[1] is NaN" },
    { sweep.grid, { { status = { 1 } } }, "sweep.grid: parameter name 'status' is reserved (reserved: case, key, status, message, wall, worker, files)" },
    { sweep.grid, { { 1, 2 } }, "sweep.grid: parameter names must be strings (got the number key 1)" },
    { sweep.grid, { "speed" }, "sweep.grid: expected a table { name = {values...}, ... } (got string)" },
    { sweep.grid, { { a = { 1 }, b = { 2 } }, { "a", "c" } }, "sweep.grid: argument #2: order[2] = \"c\" is not a parameter named once (parameters: a, b)" },
    { sweep.list, { {} }, "sweep.list: empty design: no case" },
    { sweep.list, { { { a = 1 }, 5 } }, "sweep.list: case 2 must be a table of parameters (got number)" },
    { sweep.list, { { { a = 1 }, {} } }, "sweep.list: case 2 has no parameter" },
    { sweep.list, { { { a = 1 }, x = 2 } }, "sweep.list: unknown field \"x\" (a list of cases { {name = value, ...}, ... } expected)" },
    { sweep.list, { { { a = print } } }, "sweep.list: case 1: parameter 'a' must be a number, a string or a boolean (got function)" },
    { sweep.random, { { n = 3, ranges = { x = { 0, "1" } } } }, "sweep.random: field 'ranges.x' must be {lo, hi}, finite numbers with lo <= hi (got {0, \"1\"})" },
    { sweep.random, { { n = 3, ranges = { x = { 2, 1 } } } }, "sweep.random: field 'ranges.x' must be {lo, hi}, finite numbers with lo <= hi (got {2, 1})" },
    { sweep.random, { { n = 3, ranges = { x = 5 } } }, "sweep.random: field 'ranges.x' must be {lo, hi}, finite numbers with lo <= hi (got number)" },
    { sweep.random, { { n = 3, ranges = {} } }, "sweep.random: empty design: field 'ranges' names no parameter" },
    { sweep.lhs, { { n = 0, ranges = { x = { 0, 1 } } } }, "sweep.lhs: field 'n' must be a whole number of cases from 1 to 1e7 (got 0)" },
    { sweep.lhs, { { n = 2, seed = 0.5, ranges = { x = { 0, 1 } } } }, "sweep.lhs: field 'seed' must be an integer (got 0.5)" },
    { sweep.lhs, { { n = 2, range = {} } }, "sweep.lhs: unknown field 'range' (known fields: n, ranges, seed)" },
  }
  for _, c in ipairs(cases) do
    local e = msg(c[1], table.unpack(c[2]))
    tap.is(e:gsub("^[^:]*test_sweep%.lua:%d+: ", ""), c[3], "bad design: " .. c[3]:match("^[^:]*: (.*)$"))
  end
  tap.like(msg(function() local d = sweep.grid({}) return d end), "test_sweep%.lua:%d+: sweep%.grid:", "raised at the caller's line")
end

-- ---- the record encoding ---------------------------------------------------------------------

do
  local nan = 0 / 0
  local t = { i = math.mininteger, j = 42, f = 0.1, neg0 = -0.0, tiny = 5e-324, big = 1.7976931348623157e308,
    inf = -math.huge, nan = nan, yes = true, no = false, s = "a\0b\n,\"", empty = "", files = { "a.csv", "b c.png" },
    mixed = { 1, 2.5, "x", true }, none = {} }
  local s = core.encode(t)
  local d = core.decode(s)
  local exact = true
  for k, v in pairs(t) do
    local w = d[k]
    if type(v) == "table" then
      exact = exact and type(w) == "table" and #w == #v
      for i = 1, #v do exact = exact and w[i] == v[i] and math.type(w[i]) == math.type(v[i]) end
    elseif v ~= v then
      exact = exact and w ~= w and fmt("%q", w) == fmt("%q", v)
    else
      exact = exact and w == v and math.type(w) == math.type(v)
        and (v ~= 0 or 1 / v == 1 / w)
    end
  end
  tap.ok(exact, "encode/decode: every value back exactly (integers, -0, subnormals, inf, NaN, bytes, lists)")
  tap.is(core.encode(d), s, "encode: the same table, the same bytes (keys in order)")
  tap.like(s, "\nf1:f=0x1%.999999999999ap%-4\n", "encode: floats as hex floats of their bits")
  tap.is(select(2, core.decode("mechlua-sweep 1\nf1:x=0x1.zz\n")), "not a sweep record (malformed at byte 17)",
    "decode: a malformed record is nil and where")
  tap.is(core.decode("junk"), nil, "decode: not a record")
  tap.raises(core.encode, "sweepcore.encode: field 'f' is a function (values are numbers, strings, booleans or lists of them)",
    "encode: a function refused, named", { f = print })
  tap.raises(core.encode, "sweepcore.encode: field 't' is a table that is not a list of numbers, strings or booleans",
    "encode: a nested table refused", { t = { x = 1 } })
  tap.raises(core.encode, "sweepcore.encode: key 1: the names of values must be strings", "encode: a list refused", { 1 })
  local path = sweep.write(root .. "/points", { x = { 0.1, 0.2 }, n = 2 })
  local back = sweep.read(path)
  tap.ok(back.n == 2 and back.x[1] == 0.1 and back.x[2] == 0.2, "sweep.write/read: a table of lists, exactly")
  tap.raises(sweep.read, "sweep.read: cannot read '" .. root .. "/nope'", "sweep.read: a missing file", root .. "/nope")
end

-- ---- studies ------------------------------------------------------------------------------------

local benchmarks = require "benchmarks"

-- Benchmark A for a third of a turn: the slider's peak acceleration and the motor's torque.
local function crank_case(p, dir)
  local sys = benchmarks.a{ speed = mech.rpm(p.rpm), rod = p.rod }
  local run = sys:simulate{ t = 2 * math.pi / mech.rpm(p.rpm) / 3, report = 1e-4, record = { "slider.ax", "motor.torque" } }
  return { peak = run["slider.ax"]:max(), torque = run["motor.torque"]:min(), rows = #run,
    files = { run:csv(dir .. "/run.csv") } }
end

do -- the same table, bit for bit, with 1 and 2 workers
  local folder = root .. "/bits"
  local design = sweep.grid{ rpm = { 3000, 5000, 7000 }, rod = { 0.12, 0.15 } }
  local one = sweep.run{ design, case = crank_case, folder = folder, workers = 1, progress = false, name = "bits" }
  local csv1 = slurp(one.path)
  local two = sweep.run{ design, case = crank_case, folder = folder, workers = 2, resume = false, progress = false,
    name = "bits" }
  local csv2 = slurp(two.path)
  tap.is(one.path, folder .. "/results.csv", "the CSV goes to folder/results.csv")
  tap.is(#one, 6, "a row per case")
  tap.is(one.ok, 6, "every case ok")
  tap.is(two.ran, 6, "resume = false runs every case again")
  tap.ok(csv1 ~= nil and csv1 == csv1 and without(csv1, TIMING) == without(csv2, TIMING),
    "1 and 2 workers: the same CSV, bit for bit, timing and worker columns aside")
  local same = true
  for i = 1, 6 do
    same = same and one[i].peak == two[i].peak and one[i].torque == two[i].torque and one[i].key == two[i].key
  end
  tap.ok(same, "and the same values in the results")
  local workers = {}
  for i = 1, 6 do workers[two[i].worker] = true end
  tap.ok(workers[1] and workers[2] and not workers[3], "2 workers: cases ran on workers 1 and 2")
  local direct = crank_case(design[4], root)
  tap.is(one[4].peak, direct.peak, "a case's value is what the case computes in the program itself")
  tap.like(csv1, "^# mechlua [%d.]+, script [^\n]*test_sweep%.lua\n# sweep bits: 6 cases, folder [^\n]+/bits\n"
    .. "# design grid rod = {0.12, 0.14999999999999999} x rpm = {3000, 5000, 7000} %(6 cases, the last name fastest%)\n"
    .. "case,key,rod,rpm,peak,rows,torque,status,message,wall %[s%],worker,files\n",
    "the provenance header and the columns")
  tap.like(csv1, "\n1,%x+,0%.12,3000,[-0-9.e]+,%d+,[-0-9.e]+,ok,,[0-9.e-]+,1,[^\n]+/run%.csv\n",
    "rows: numbers with 17 digits, files listed")
  -- columns, as a run's
  local peak = one.peak
  tap.is(#peak, 6, "a column: #col")
  tap.is(peak[2], one[2].peak, "col[i]")
  local hi, lo, sum = -math.huge, math.huge, 0
  for i = 1, 6 do hi, lo, sum = math.max(hi, peak[i]), math.min(lo, peak[i]), sum + peak[i] end
  tap.ok(peak:max() == hi and peak:min() == lo and peak:mean() == sum / 6, "col:min(), col:max(), col:mean()")
  tap.is(peak.name, "peak", "col.name")
  tap.is(one:column("status")[3], "ok", "res:column(name): any column, strings too")
  tap.is(one.files[1], one[1].files[1], "the files column")
  tap.ok(io.open(one[1].files[1]) ~= nil, "a case's file is in its folder")
  tap.is(one[1].dir, folder .. "/cases/" .. one[1].key, "rows know their folder: folder/cases/<key>")
  local fig = plot.figure{ "peak against speed", x = one.rpm, y = one.peak }
  tap.ok(fig:save(root .. "/peak.png"), "columns are plot.figure's x and y")
  tap.raises(function() return one:column("nope") end, "res:column: no column 'nope' (columns: case, key, rod, rpm, peak, rows, torque, status, message, wall, worker, files)",
    "res:column of an unknown name")
  tap.is(one.nope, nil, "res.<unknown> is nil")
  tap.raises(function() return one.status:max() end, "col:max: column 'status' does not hold numbers",
    "col:max of strings")
  -- resume: nothing runs again
  local again = sweep.run{ design, case = crank_case, folder = folder, workers = 2, progress = false, name = "bits" }
  tap.ok(again.ran == 0 and again.resumed == 6, "a rerun of the same study runs no case (6 resumed)")
  tap.is(slurp(again.path), csv2, "and writes the same CSV, wall and worker columns included")
  -- a result file that does not match is run again
  local f = io.open(one[2].dir .. "/result", "wb")
  f:write("mechlua-sweep 1\nbroken")
  f:close()
  os.remove(one[5].dir .. "/result")
  again = sweep.run{ design, case = crank_case, folder = folder, workers = 2, progress = false, name = "bits" }
  tap.ok(again.ran == 2 and again.resumed == 4, "a damaged and a missing result: those two cases run again")
  tap.is(without(slurp(again.path), TIMING), without(csv1, TIMING), "and the table is the same")
  tap.is(again:csv(root .. "/copy.csv"), root .. "/copy.csv", "res:csv(path) writes the table elsewhere")
  tap.is(slurp(root .. "/copy.csv"), slurp(again.path), "the same text")
end

do -- failures: recorded with their reasons, the other cases complete
  local folder = root .. "/fail"
  local sanitized = package.preload.faultinject ~= nil -- the sanitizer build
  local nasty = sweep.list{ { what = "fine" }, { what = "error" }, { what = "blowup" }, { what = "signal" },
    { what = "exit" }, { what = "loop" }, { what = "print" }, { what = "memory" }, { what = "also fine" } }
  local res = sweep.run{ nasty, folder = folder, workers = 2, progress = false, timeout = 2,
    memory = not sanitized and 64e6 or nil, case = function(p, dir)
    if p.what == "error" then error("this case fails") end
    if p.what == "blowup" then -- a contact far too stiff for the RK4 step: the motion runs away
      local sys = mech.planar{ gravity = { 0, -9.81 } }
      local b = sys:body{ name = "ball", mass = 1, inertia = 1, at = { 0, 0.1 }, velocity = { 0, -1 } }
      sys:contact{ b, body_at = { 0, 0 }, surface = { at = { 0, 0 }, normal = { 0, 1 } },
        law = mech.contact.hertz{ K = 1e100 }, name = "floor" }
      sys:simulate{ t = 1, h = 1e-3, method = "rk4", report = 1e-2, quiet = true, record = { "ball.y" } }
    end
    if p.what == "signal" then core._raise("SIGSEGV") end
    if p.what == "exit" then os.exit(3) end
    if p.what == "loop" then while true do end end
    if p.what == "memory" and sanitized then -- the allocator of a sanitizer cannot take a limit
      require("faultinject").arm(1) -- every allocation from here on fails
      local t = { "x" }
    elseif p.what == "memory" then
      local t = {}
      for i = 1, 1e9 do t[i] = string.rep(string.rep("x", 4096) .. i, 4096) end -- 16 MB each
    end
    return { in_worker = core.in_worker(), n = #p.what }
  end }
  local by = {}
  for i = 1, #res do by[res[i].what] = res[i] end
  tap.ok(by.fine.status == "ok" and by["also fine"].status == "ok" and by.print.status == "ok",
    "the cases that work complete")
  tap.ok(by.fine.in_worker, "a case runs in a worker process")
  tap.is(by.error.status, "error", "an error: status error")
  tap.like(by.error.message, "test_sweep%.lua:%d+: this case fails$", "with its message")
  tap.like(slurp(by.error.dir .. "/error.txt") or "", "this case fails\nstack traceback:\n",
    "and its traceback in the case's folder (error.txt)")
  tap.is(by.blowup.status, "error", "a simulation that blows up: status error")
  tap.like(by.blowup.message, "^[^:]*test_sweep%.lua:%d+: sys:simulate: simulation failed at t = .* the motion has run away", "with libmech's reason")
  tap.is(by.signal.status, "signal", "a case killed by a signal: status signal")
  tap.is(by.signal.message, "killed by SIGSEGV (signal 11)", "its name and number")
  tap.is(by.exit.status, "error", "os.exit in a case: status error")
  tap.is(by.exit.message, "the case called os.exit(3)", "the case is named as having called it")
  tap.is(by.loop.status, "timeout", "a case that runs past the timeout: status timeout")
  tap.is(by.loop.message, "ran longer than 2 s (ended by SIGTERM)", "ended by SIGTERM")
  tap.ok(by.memory.status == "error" or by.memory.status == "signal", "a case that runs out of memory fails: "
    .. tostring(by.memory.status) .. ", " .. tostring(by.memory.message))
  tap.is(res.failed, 6, "res.failed counts them")
  tap.is(res.ok, 3, "res.ok the others")
  tap.ok(res.n[1] == 4 and res.n[2] ~= res.n[2], "a failed case's values are NaN in a column of numbers")
  tap.is(res.message[1], "", "and its missing strings empty")
  -- failed cases count as finished: a rerun keeps them, resume = "ok" runs them again
  local again = sweep.run{ nasty, folder = folder, workers = 2, progress = false, timeout = 2,
    case = function() return { n = 0 } end }
  tap.ok(again.ran == 0 and again[2].status == "error", "a rerun keeps the failed cases as they were")
  again = sweep.run{ nasty, folder = folder, workers = 2, progress = false, resume = "ok",
    case = function() return { n = 0 } end }
  tap.ok(again.ran == 6 and again.ok == 9, "resume = \"ok\" runs the failed ones again")
end

do -- a case that returns what a table cannot hold stops the study with an error naming it
  local folder = root .. "/bad"
  local d = sweep.grid{ x = { 1, 2, 3 } }
  local function run(case) return sweep.run{ d, folder = folder, workers = 1, progress = false, resume = false, case = case } end
  tap.raises(run, "sweep.run: case 2 (x = 2): field 'peak' is a list (a case returns a table of numbers, "
    .. "strings and booleans by name, and files = {paths})", "a list in a field",
    function(p) return { peak = p.x == 2 and { 1, 2 } or 1 } end)
  tap.raises(run, "sweep.run: case 1 (x = 1): field 'peak' is a table that is not a list of numbers, strings or booleans",
    "a table in a field", function(p) return { peak = { a = 1 } } end)
  tap.raises(run, "sweep.run: case 1 (x = 1): field 'f' is a function", "a function in a field",
    function(p) return { f = print } end)
  tap.raises(run, "sweep.run: case 1 (x = 1): returned a number, not a table of named values", "a number returned",
    function(p) return 42 end)
  tap.raises(run, "sweep.run: case 1 (x = 1): returned 'x', the name of a parameter", "a parameter's name returned",
    function(p) return { x = 1 } end)
  tap.raises(run, "sweep.run: case 1 (x = 1): returned the reserved name 'status'", "a reserved name returned",
    function(p) return { status = 1 } end)
  tap.raises(run, "sweep.run: case 1 (x = 1): field 'files' must be a list of file paths (got string)",
    "files must be a list", function(p) return { files = "a.csv" } end)
  local ok, res = pcall(run, function() return nil end)
  tap.ok(ok and res.ok == 3 and #res.values == 0, "a case may return nothing")
end

do -- bad input of sweep.run
  local d = sweep.grid{ x = { 1 } }
  local f = function() end
  local cases = {
    { {}, "sweep.run: no design: sweep.run{ design, case = function(params, dir) ... end }" },
    { { {}, case = f }, "sweep.run: empty design: no case" },
    { { { { x = 1 }, 7 }, case = f }, "sweep.run: case 2 must be a table of parameters (got number)" },
    { { d }, "sweep.run: field 'case' must be a function(params, dir) returning a table of values (got nil)" },
    { { d, case = f, worker = 2 }, "sweep.run: unknown field 'worker' (known fields: case, csv, design, folder, memory, "
      .. "name, params, progress, resume, timeout, workers, and the design first)" },
    { { d, case = f, workers = 0 }, "sweep.run: field 'workers' must be a whole number from 1 to 4096 (got 0)" },
    { { d, case = f, workers = 1.5 }, "sweep.run: field 'workers' must be a whole number >= 1 (got 1.5)" },
    { { d, case = f, resume = "yes" }, "sweep.run: field 'resume' must be true, false or \"ok\" (got \"yes\")" },
    { { d, case = f, timeout = -1 }, "sweep.run: field 'timeout' must be a time > 0 s (got -1)" },
    { { d, case = f, folder = 3 }, "sweep.run: field 'folder' must be a path (got number)" },
    { { d, design = d, case = f }, "sweep.run: two designs: the first field and field 'design'" },
    { { { { x = 1 }, { x = 1 } }, case = f }, "sweep.run: cases 1 and 2 have the same parameters (x = 1)" },
    { "x", "sweep.run: expected a table { design, case = function(params, dir) ... end, ... } (got string)" },
  }
  for _, c in ipairs(cases) do
    local ok, e = pcall(sweep.run, c[1])
    tap.is(not ok and e:gsub("^[^:]*test_sweep%.lua:%d+: ", "") or "no error", c[2], "bad input: " .. c[2]:match(": (.*)$"))
  end
  local ok, e = pcall(function() sweep.run{} end)
  tap.like(not ok and e or "", "^[^:]*test_sweep%.lua:%d+: sweep%.run: no design", "raised at the caller's line")
end

do -- the primitives
  tap.ok(math.type(core.ncores()) == "integer" and core.ncores() >= 1, "ncores: the CPUs this process may use")
  tap.is(core.in_worker(), false, "in_worker: false in the program")
  tap.raises(core._raise, "sweepcore._raise: only in a worker (a test hook)", "the signal hook refuses the program", "SIGSEGV")
  local h = core.spawn(function(i, dir) return { i = i, dir = dir } end, 7, "somewhere")
  tap.like(tostring(h), "^sweepcore%.worker: case 7, pid %d+, ", "a worker handle")
  local done, interrupted
  repeat done, interrupted = core.wait({ h }, -1) until #done == 1
  tap.ok(done[1].status == "ok" and done[1].values.i == 7 and done[1].values.dir == "somewhere" and done[1].i == 7
    and done[1].handle == h and not interrupted, "spawn(fn, i, dir), wait: fn(i, dir) ran and its values came back")
  tap.is(#core.wait({ h }, 0), 0, "a worker is reported once")
  local sleeper = core.spawn(function() while true do end end, 1, ".")
  tap.ok(core.kill(sleeper), "kill: SIGTERM sent")
  repeat done = core.wait({ sleeper }, -1) until #done == 1
  tap.ok(done[1].status == "signal" and done[1].signal == "SIGTERM" and done[1].killed == "SIGTERM",
    "the record says which signal ended it, and that it was sent by kill")
  tap.is(core.kill(sleeper), false, "kill of an ended worker: nothing sent")
  local gone = core.spawn(function() while true do end end, 1, ".")
  local pid = gone.pid
  gone = nil -- luacheck: ignore
  collectgarbage()
  collectgarbage()
  tap.ok(io.open("/proc/" .. pid .. "/stat") == nil, "a handle collected ends and reaps its worker")
  -- with nothing alive, wait pauses for its timeout (an MPI rank's idle loop) or returns at once
  local t0 = core.now()
  tap.is(#core.wait({ h }, 60), 0, "wait on ended workers: nothing")
  tap.ok(core.now() - t0 >= 0.055, "wait with no worker alive sleeps for its timeout")
  t0 = core.now()
  core.wait({}, -1)
  tap.ok(core.now() - t0 < 1, "wait with no worker and no timeout returns at once")
  tap.ok(math.type(core.pid()) == "integer" and core.pid() > 1, "pid: this process")
  local child = core.spawn(function() return { pid = core.pid() } end, 1, ".")
  repeat done = core.wait({ child }, -1) until #done == 1
  tap.ok(done[1].values.pid ~= core.pid(), "pid in a worker: its own")
end

do -- a case that raises an error object that is not a string: its text, as the program shows it
  local res = sweep.run{ sweep.list{ { what = "table" }, { what = "tostring" } }, folder = root .. "/objects",
    workers = 1, progress = false, csv = false, case = function(p)
      if p.what == "table" then error({ code = 7 }) end
      error(setmetatable({}, { __tostring = function() return "custom failure" end }))
    end }
  tap.is(res[1].message, "(error object is a table value)", "an error table: described by its type")
  tap.is(res[2].message, "custom failure", "an error object with __tostring: shown through it")
end

do -- two processes writing the same file at once: each writes its own temporary, the file is whole
  local path = root .. "/same.csv"
  local text = {}
  local ws = {}
  for k = 1, 2 do
    ws[k] = core.spawn(function()
      for _ = 1, 200 do sweep.write(path, { k = 1, list = { 1, 2, 3 } }) end
      return {}
    end, k, ".")
  end
  local ok, ended = 0, 0
  while ended < 2 do
    for _, r in ipairs(core.wait(ws, -1)) do
      ended = ended + 1
      if r.status == "ok" then ok = ok + 1 end
    end
  end
  tap.is(ok, 2, "both writers ended without an error")
  text = slurp(path)
  local back = sweep.read(path)
  tap.ok(back.k == 1 and #back.list == 3 and back.list[3] == 3, "sweep.write from two processes at once: whole")
  local stray = io.popen("ls '" .. root .. "' | grep -c tmp"):read("a")
  tap.is(tonumber(stray), 0, "and no temporary left behind")
  tap.ok(text ~= nil, "the file exists")
end

os.execute("rm -rf '" .. root .. "'")
tap.done()
