-- SPDX-License-Identifier: MIT
-- Out of memory in the bindings, beyond tests/lua/test_alloc_fail.lua's scenario: meshes
-- (built, checked, read from the gmsh files of tests/data), a run on the sparse solver
-- (KLU's allocations go through libmech's), flexible bodies with their frequencies, mesh
-- and guide, sys:lyapunov, the analysis module and fft, the text of
-- systems, entities, runs and columns, a run's events, stats and columns, run:csv, a
-- simulation that fails after its run was made (finding F1), callbacks whose failure is
-- reported with memory short, the functions that add entities to a system, planar and
-- spatial (a call that fails must add nothing), and the REPL.
--
-- Each scenario runs once per k with the k-th allocation (Lua's or libmech's) failing, in
-- mode "fail" (it and every later one: Lua's memory error) and "once" (it alone: Lua's own
-- allocations then succeed on its emergency collection, so libmech's statuses are what is
-- tested).  Every run must succeed, or fail with Lua's "not enough memory" or libmech's
-- "out of memory"; nothing may crash, leak (LeakSanitizer, at the child's exit) or leave
-- a file behind.  Needs a build with MECH_FAULT_INJECTION (the sanitizer build).
--
-- The sweeps run in a child mechlua (this script with the argument "child"); the REPL runs
-- in one mechlua per k, fed by a pipe.  This test reads their sanitizer reports,
-- LeakSanitizer's at exit included.
package.path = (os.getenv("MECHLUA_SOURCE") or ".") .. "/tests/lib/?.lua;" .. package.path
local oomtest = require "oomtest"
oomtest.skip_unless_available()
local sh, slurp, sanitizer_reports = oomtest.sh, oomtest.slurp, oomtest.sanitizer_reports

if arg[1] ~= "child" then
  local tap = require "tap"
  local interp = arg[-1]

  -- 1. The sweeps of the scenarios, in one child.
  oomtest.check_child(tap, "the sweeps")

  -- 2. The REPL, reading from a pipe: allocation k after the line that arms the fault
  -- fails, and every later one (mode "fail"), while it reads, compiles, runs and shows
  -- the lines that follow.  Each line must then fail with a report, and the REPL go on
  -- to the end of its input and end with status 1 (a chunk failed) or 0.
  local errfile = os.tmpname()
  local input = os.tmpname()
  local f = assert(io.open(input, "w"))
  f:write('fi = require "faultinject"\n', "fi.arm(tonumber(os.getenv('K')))\n",
    '{ 1, "two", x = { 3 }, [true] = mech.mkdir }\n', "for i = 1, 2 do\n", "end\n",
    "print('past ' .. tostring(fi.disarm()))\n")
  f:close()
  -- the allocations of the lines after fi.arm, counted by a run with k out of reach
  local counted = io.popen("K=1000000 " .. sh(interp) .. " < " .. sh(input) .. " 2>&1"):read("a")
  local total = tonumber(counted:match("past (%d+)"))
  tap.ok(total and total > 10, "the REPL lines allocate " .. tostring(total) .. " times")
  total = total or 0
  local outfile = os.tmpname()
  local loop = "for k in $(seq 1 " .. total .. "); do K=$k " .. sh(interp) .. " < " .. sh(input)
    .. " >/dev/null 2>>" .. sh(errfile) .. "; echo \"$k $?\"; done > " .. sh(outfile)
  os.execute(loop)
  local bad = {}
  for k, st in slurp(outfile):gmatch("(%d+) (%d+)") do
    if st ~= "0" and st ~= "1" then bad[#bad + 1] = "k = " .. k .. ": exit status " .. st end
  end
  os.remove(outfile)
  os.remove(input)
  stderr = slurp(errfile)
  os.remove(errfile)
  tap.is(#bad, 0, string.format("the REPL ends well with allocation k = 1 .. %d failing", total))
  for i = 1, math.min(#bad, 10) do tap.diag(bad[i]) end
  reports = sanitizer_reports(stderr)
  tap.is(#reports, 0, "the REPL: no sanitizer report")
  for i = 1, math.min(#reports, 10) do tap.diag(reports[i]) end
  local _, nomem = stderr:gsub("not enough memory", "")
  tap.ok(nomem >= total, "the REPL reports the failing lines as 'not enough memory'")
  tap.ok(not stderr:find("mechlua: not enough memory", 1, true),
    "the REPL does not end on a memory error: it reads on to the end of its input")
  tap.done()
  return
end

-- ---- the child: the sweeps ------------------------------------------------------------------

local fi = require "faultinject"
local analysis = require "analysis"
local fft = require "fft"

local tap = oomtest.child_tap()

local data = (os.getenv("MECHLUA_SOURCE") or ".") .. "/tests/data/"
local dir = os.tmpname()
os.remove(dir)
mech.mkdir(dir)

-- Text of a value, tables in key order, for comparing a scenario's results.
local function digest(v, depth)
  depth = depth or 0
  if type(v) ~= "table" or depth > 8 then
    return type(v) == "number" and string.format("%.17g", v) or tostring(v)
  end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. digest(v[k], depth + 1) end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- A mass on a spring along x.
local function oscillator()
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  local b = sys:body{ name = "b", mass = 1, inertia = 1, velocity = { 1, 0 } }
  sys:prismatic{ sys.ground, b, axis = { 1, 0 }, name = "guide" }
  sys:spring{ sys.ground, b, at = { { -1, 0 }, { 0, 0 } }, k = 400, c = 0.5, name = "s" }
  return sys, b
end

-- 0.2 s of it, with a Lua channel, a channel event and a strobe (a Lua event function).
local function simulate(sys)
  return sys:simulate{ t = 0.2, report = 0.01, quiet = true,
    record = { "b.x", "b.y", "b.phi", "b.vx", "system.energy", "system.balance", "system.kinetic",
      v2 = function(_, s) return s:value("b.vx") ^ 2 end },
    events = { { name = "zero", channel = "b.x", value = 0 }, analysis.strobe{ period = 0.05 } },
    params = { case = "oom" } }
end

local ref_sys, ref_b = oscillator()
local ref_run = simulate(ref_sys)
local csv_path = dir .. "/run.csv"
local small_mesh = mech.mesh.rectangle{ size = { 0.2, 0.1 }, nx = 2, ny = 1 }

local scenarios = {
  { "sys:simulate (finding F1)", function()
    local sys = mech.planar{ gravity = { 0, -9.81 } }
    sys:body{ name = "b", mass = 1, inertia = 1 }
    local run = sys:simulate{ t = 1e-3, quiet = true, record = { "b.x" },
      events = { { channel = "b.y", value = -1e-6 } } }
    return run.rows
  end },
  { "a chain on the sparse solver (KLU's allocations)", function()
    local sys = mech.planar{ gravity = { 0, -9.81 }, solver = "sparse" }
    local prev = sys.ground
    for i = 1, 4 do
      local link = sys:body{ name = "l" .. i, mass = 0.1, inertia = 1e-4, at = { (i - 0.5) * 0.1, 0 } }
      sys:revolute{ prev, link, at = { (i - 1) * 0.1, 0 }, name = "j" .. i }
      prev = link
    end
    local run = sys:simulate{ t = 0.01, report = 0.005, quiet = true, record = { "l4.y", "j1.fy" } }
    return run.stats.solver .. " " .. digest{ run["l4.y"]:table(), run["j1.fy"]:table() }
  end },
  { "a simulation with a Lua channel and events", function()
    local run = simulate((oscillator()))
    return run.rows .. " " .. #run.events
  end },
  { "the text of systems, entities, runs and columns", function()
    local out = { ref_sys:describe(), tostring(ref_sys), tostring(ref_b), tostring(ref_b.channels),
      tostring(ref_sys:entity("s")), ref_sys:value("b.x"), tostring(ref_run), tostring(ref_run.t),
      tostring(ref_run["b.x"]), ref_run.message, ref_run.status, ref_run.parameters }
    return table.concat(out, "\n")
  end },
  { "a run's events, stats, channels and columns", function()
    local r = ref_run
    local col = r:column("b.vx")
    local ok, err = pcall(r.column, r, "nothing")
    assert(not ok)
    if not err:find("not recorded", 1, true) then error(err, 0) end
    local stats = r.stats
    stats.wall_time = nil
    return digest{ r.events, stats, r.channels, col:table(), col:at(0.105), col:min(), col:max(),
      col:mean(), #col, col[3], col.name, col.unit, r.t:table(), r.ok }
  end },
  { "run:csv", function()
    os.remove(csv_path)
    ref_run:csv(csv_path, { columns = { "b.x", "v2" }, params = { note = "oom" } })
    return slurp(csv_path)
  end },
  { "mech.mesh: rectangle, check, find_nodes, node_at, tostring", function()
    local m = mech.mesh.rectangle{ size = { 2, 1 }, nx = 3, ny = 2, triangles = true }
    local hand = mech.mesh.check{ nodes = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 }, { 2, 0 } },
      elements = { { 1, 2, 3, 4 }, { 2, 5, 3 } }, groups = { left = { nodes = { 1, 4 }, tag = 7 },
        right = { elements = { 2 } } }, tags = { 10, 20, 30, 40, 50 } }
    local node, dist = m:node_at{ 0.9, 0.6 }
    local ok, err = pcall(m.find_nodes, m, { group = "nothing" })
    assert(not ok)
    if not err:find("no group", 1, true) then error(err, 0) end
    return digest{ m, tostring(m), m:find_nodes{ box = { 0, 0, 1, 0.5 } }, m:find_nodes{ near = { 2, 1 } },
      m:find_nodes(function(x) return x > 1 end), node, dist, tostring(hand) }
  end },
  { "mech.mesh.read of tests/data/square_*.msh", function()
    return digest{ mech.mesh.read(data .. "square_22.msh"), mech.mesh.read(data .. "square_41.msh") }
  end },
  { "mech.mesh.read of tests/data/plate_hole_*.msh", function()
    local a, b = mech.mesh.read(data .. "plate_hole_22.msh"), mech.mesh.read(data .. "plate_hole_41.msh")
    return #a.nodes .. " " .. #a.elements .. " " .. #b.nodes .. " " .. #b.elements
  end, 7 },
  { "sys:flexible, frequencies, fe.mesh, find_nodes, sys:guide", function()
    local sys = mech.planar{ gravity = { 0, -9.81 } }
    local fe = sys:flexible{ name = "block", mesh = small_mesh, E = 1e5, density = 50, beta = 0.002 }
    local w = fe:frequencies{ n = 4, mass = "consistent" }
    local held = fe:frequencies{ n = 2, fixed = fe:find_nodes{ group = "left" } }
    local guide = sys:guide{ fe, clearance = 1e-3, law = mech.contact.kelvin_voigt{ K = 1e6, c = 1e3 },
      friction = mech.friction.coulomb{ mu = 0.1 } }
    return digest{ w, held, fe.mesh, fe.mass, fe.nnodes, fe:node(2).name, fe:node_mass(2),
      #guide.lower, #guide.upper, tostring(fe), sys:describe() }
  end },
  { "sys:lyapunov", function()
    local sys = oscillator()
    local lambda, h = sys:lyapunov{ t = 1, every = 0.25, method = "rk4", h = 1e-3 }
    return digest{ lambda, h }
  end },
  { "analysis and fft", function()
    local r = ref_run
    local s = analysis.spectrum(r, "b.x", { window = "hann" })
    local p = analysis.peaks(s, 2)
    local l = analysis.spectrum({ 1, 2, 3, 2, 1, 0, -1, 0 }, { dt = 0.5 })
    local f1, a1 = fft.spectrum(r["b.vx"], { dt = 0.01, window = "blackman", detrend = "linear" })
    local pts = analysis.poincare(r, { x = "b.x", y = "b.vx" })
    local x, v = analysis.phase(r, "b.x", "b.vx")
    local c = analysis.compare(r, r, "b.x")
    local e = analysis.energy(r)
    local u, w = analysis.in_frame(r, "b", "b.x", "b.y")
    return digest{ s.amp, p, l, f1, a1, pts, tostring(x), tostring(v), c, e.residual, e.accounts, u, w }
  end },
}

-- A clean failure: Lua's memory error, or libmech's status text for it.
local out_of_memory = oomtest.out_of_memory

-- Runs fn with the k-th allocation failing (mode), for k = 1, 1 + step, ... until fn
-- runs through without reaching k.  Returns the failures, the bad ones, the last k and
-- the result of the run that went through.
local function sweep(fn, mode, step)
  local failures, bad, k = 0, {}, 1 - step
  while true do
    k = k + step
    collectgarbage()
    fi.arm(k, mode)
    local ok, res = pcall(fn)
    local counted = fi.disarm()
    collectgarbage()
    if ok then
      if counted < k then return failures, bad, k, res end -- the k-th allocation never came
    elseif out_of_memory(res) then
      failures = failures + 1
    else
      bad[#bad + 1] = string.format("k = %d: %s", k, tostring(res))
    end
  end
end

for _, s in ipairs(scenarios) do
  local name, fn, step = s[1], s[2], s[3] or 1
  local reference = fn()
  for _, mode in ipairs{ "fail", "once" } do
    local failures, bad, k, res = sweep(fn, mode, step)
    tap.ok(#bad == 0 and (failures > 0 or mode == "once"), string.format(
      "%s, mode %s: k = 1 .. %d%s, %d failed with 'not enough memory' or 'out of memory', none otherwise",
      name, mode, k, step > 1 and (" in steps of " .. step) or "", failures))
    for i = 1, math.min(#bad, 5) do tap.diag(bad[i]) end
    tap.ok(res == reference, name .. ", mode " .. mode .. ": the run past the last allocation gives the same results")
  end
end

-- A call that adds an entity and fails adds nothing: the entity (named below) is not in the
-- system after a failure, and the same call then succeeds.
local law = mech.contact.hertz{ K = 1e6 }
local function body_system()
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  return sys, sys:body{ name = "b", mass = 1, inertia = 1, at = { 1, 0 } }
end
local strip = mech.mesh.rectangle{ size = { 2, 0.1 }, nx = 20, ny = 1 } -- 42 guide contacts
local function fe_system()
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  return sys, sys:flexible{ name = "fe", mesh = strip, E = 1e5, density = 10 }
end
local function sbody_system()
  local sys = mech.spatial{ gravity = { 0, 0, -9.81 } }
  return sys, sys:body{ name = "b", mass = 1, inertia = { 1, 1, 1 }, at = { 1, 0, 0 } }
end
local function pinned_system() -- a spatial body on a revolute joint to the ground
  local sys, b = sbody_system()
  sys:revolute{ sys.ground, b, at = { 0, 0, 0 }, axis = { 0, 0, 1 } }
  return sys, b
end
local adders = {
  { "sys:body", "b2", function(sys) sys:body{ name = "b2", mass = 1, inertia = 1, rectangle = { 0.1, 0.2 } } end },
  { "sys:point", "b.p", function(sys, b) sys:point{ b, name = "p", at = { 1, 0 } } end },
  { "body:point", "b.q", function(_, b) b:point{ name = "q", body_at = { 0, 0 } } end },
  { "sys:revolute", "j", function(sys, b) sys:revolute{ sys.ground, b, at = { 0, 0 }, name = "j" } end },
  { "sys:revolute with clearance", "jc", function(sys, b)
    sys:revolute{ sys.ground, b, at = { 0, 0 }, name = "jc", clearance = { radial = 1e-3, radius = 1e-2, law = law } }
  end },
  { "sys:prismatic", "pr", function(sys, b) sys:prismatic{ sys.ground, b, name = "pr" } end },
  { "sys:fixed", "fx", function(sys, b) sys:fixed{ sys.ground, b, at = { 1, 0 }, name = "fx" } end },
  { "sys:drive", "d", function(sys, b) sys:drive{ b, speed = 1, name = "d" } end },
  { "sys:drive with a motion", "dm", function(sys, b) sys:drive{ b, motion = function(t) return t end, name = "dm" } end },
  { "sys:spring", "s", function(sys, b) sys:spring{ sys.ground, b, at = { { 0, 0 }, { 1, 0 } }, k = 1, name = "s" } end },
  { "sys:spring with a law", "sl", function(sys, b)
    sys:spring{ sys.ground, b, at = { { 0, 0 }, { 1, 0 } }, law = function(x) return x end, name = "sl" }
  end },
  { "sys:rotational_spring", "rs", function(sys, b) sys:rotational_spring{ sys.ground, b, k = 1, name = "rs" } end },
  { "sys:force", "f", function(sys, b) sys:force{ b, value = { 1, 0 }, name = "f" } end },
  { "sys:torque", "tq", function(sys, b) sys:torque{ b, fn = function() return 1 end, name = "tq" } end },
  { "sys:contact", "c", function(sys, b) sys:contact{ b, surface = { normal = { 0, 1 } }, law = law, name = "c" } end },
  { "sys:flexible", "fe.n1", function(sys) sys:flexible{ name = "fe", mesh = small_mesh, E = 1e5, density = 10 } end },
  { "sys:guide", "g_n1_lower", function(sys, fe, args) sys:guide(args) end, fe_system,
    function(fe) return { fe, name = "g", clearance = 1e-3, law = law } end },
  -- spatial systems (vm/lspatial.c)
  { "spatial sys:body", "b2", function(sys)
    sys:body{ name = "b2", mass = 1, inertia = { 1, 2, 2.5, 0.1, 0, 0 }, euler = { "zyx", 0.1, 0.2, 0.3 } }
  end, sbody_system },
  { "spatial sys:body with axes", "b3", function(sys)
    sys:body{ name = "b3", mass = 1, inertia = { 1, 1, 1 }, axes = { x = { 1, 1, 0 }, y = { 0, 1, 0 } } }
  end, sbody_system },
  { "spatial sys:point", "b.p", function(sys, b) sys:point{ b, name = "p", at = { 1, 0, 0 } } end, sbody_system },
  { "spatial body:point", "b.q", function(_, b) b:point{ name = "q", body_at = { 0, 0, 1 } } end, sbody_system },
  { "spatial sys:revolute", "j", function(sys, b)
    sys:revolute{ sys.ground, b, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, name = "j" }
  end, sbody_system },
  { "spatial sys:universal", "u", function(sys, b)
    sys:universal{ sys.ground, b, at = { 0, 0, 0 }, axis_a = { 1, 0, 0 }, axis_b = { 0, 1, 0 }, name = "u" }
  end, sbody_system },
  { "spatial sys:planar", "pl", function(sys, b) sys:planar{ sys.ground, b, normal = { 0, 0, 1 }, name = "pl" } end,
    sbody_system },
  { "spatial sys:drive", "d", function(sys, b) sys:drive{ b, speed = 1, name = "d" } end, pinned_system },
  { "spatial sys:drive of a cylindrical joint", "dc", function(sys, b, j)
    sys:drive{ j, what = "distance", speed = 1, name = "dc" }
  end, sbody_system, function(b) return b.system:cylindrical{ b.system.ground, b, at = { 0, 0, 0 }, axis = { 0, 0, 1 } } end },
  { "spatial sys:spring with a law", "sl", function(sys, b)
    sys:spring{ sys.ground, b, at = { { 0, 0, 0 }, { 1, 0, 0 } }, law = function(x) return x end, name = "sl" }
  end, sbody_system },
  { "spatial sys:rotational_spring", "rs", function(sys, b, j) sys:rotational_spring{ j, k = 1, name = "rs" } end,
    sbody_system, function(b) return b.system:revolute{ b.system.ground, b, at = { 0, 0, 0 }, axis = { 0, 0, 1 } } end },
  { "spatial sys:force with a function", "f", function(sys, b)
    sys:force{ b, fn = function(t, s) return 1, 0, s.z end, body_at = { 0, 0, 1 }, name = "f" }
  end, sbody_system },
  { "spatial sys:torque", "tq", function(sys, b) sys:torque{ b, value = { 0, 0, 1 }, name = "tq" } end, sbody_system },
}
for _, a in ipairs(adders) do
  local what, name, add, make, args = a[1], a[2], a[3], a[4] or body_system, a[5]
  for _, mode in ipairs{ "fail", "once" } do
    local bad, k, counted = {}, 0, 0
    repeat
      k = k + 1
      local sys, b = make()
      local arg = args and args(b) -- made before the fault is armed
      collectgarbage()
      fi.arm(k, mode)
      local ok, err = pcall(add, sys, b, arg)
      counted = fi.disarm()
      if not ok then
        local added = sys:entity(name) ~= nil
        local again, err2 = pcall(add, sys, b, arg)
        if not out_of_memory(err) then
          bad[#bad + 1] = string.format("k = %d: %s", k, tostring(err))
        elseif added or not again then
          bad[#bad + 1] = string.format("k = %d: %s (%s)", k, err, added and "added" or tostring(err2))
        end
      end
    until ok and counted < k
    tap.ok(#bad == 0, string.format("%s, mode %s: k = 1 .. %d, a call that fails adds nothing", what, mode, k))
    for i = 1, math.min(#bad, 3) do tap.diag(bad[i]) end
  end
end

-- Callbacks that fail in ways whose report takes memory (a result that is not a number, an
-- error object that is not a string, an event action returning a number): with memory
-- short the run fails, cleanly, and leaves its system free to change (it stayed "being
-- simulated" when the report raised a memory error through libmech, which leaked the run).
local callback_cases = {
  { "a channel function returning a table", { t = 1e-3, quiet = true, on_error = "return",
    record = { x = function() return {} end } } },
  { "a channel function raising a table", { t = 1e-3, quiet = true, on_error = "return",
    record = { x = function() error({}) end } } },
  { "an event action returning a number", { t = 0.1, quiet = true, record = { "b.y" },
    events = { { channel = "b.y", value = -1e-3, action = function() return 271828.5 end } } } },
}
for _, c in ipairs(callback_cases) do
  local bad, k, counted = {}, 0, 0
  repeat
    k = k + 1
    local sys = mech.planar{ gravity = { 0, -9.81 } }
    sys:body{ name = "b", mass = 1, inertia = 1 }
    collectgarbage()
    fi.arm(k)
    local ok, err = pcall(sys.simulate, sys, c[2])
    counted = fi.disarm()
    if not ok and not out_of_memory(err) then bad[#bad + 1] = string.format("k = %d: %s", k, tostring(err)) end
    local changed, err2 = pcall(sys.body, sys, { name = "z", mass = 1, inertia = 1 })
    if not changed then bad[#bad + 1] = string.format("k = %d: then %s", k, tostring(err2)) end
  until ok and counted < k
  tap.ok(#bad == 0, string.format("sys:simulate with %s: k = 1 .. %d, failures are clean", c[1], k))
  for i = 1, math.min(#bad, 3) do tap.diag(bad[i]) end
end

-- No temporary file may be left: the folder holds run.csv only.
local ls = io.popen("ls -A " .. sh(dir))
local left = {}
for entry in ls:lines() do left[#left + 1] = entry end
ls:close()
table.sort(left)
tap.is(table.concat(left, " "), "run.csv", "no temporary file is left in the folder")
os.remove(csv_path)
os.remove(dir)
