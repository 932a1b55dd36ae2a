-- SPDX-License-Identifier: MIT
-- Object lifetimes and re-entrancy (issue 14): callbacks and metamethods that close,
-- change or re-enter the objects a running C function uses; sys:value outside a run;
-- Ctrl-C delivered to callbacks and to run:csv; names and parameters in the CSV header.
local tap = require "tap"

-- A body at (0.5, 0) moving at 1 m/s, under gravity.
local function body_system()
  local s = mech.planar{ gravity = { 0, -9.81 } }
  local b = s:body{ name = "b", mass = 1, inertia = 1, at = { 0.5, 0 }, velocity = { 1, 0 } }
  return s, b
end

-- A pendulum (one degree of freedom, for sys:lyapunov).
local function pendulum()
  local s = mech.planar{ gravity = { 0, -9.81 } }
  local b = s:body{ name = "b", mass = 1, inertia = 0.01, at = { 0.5, 0 } }
  s:revolute{ s.ground, b, at = { 0, 0 } }
  return s, b
end

local function close(obj) getmetatable(obj).__close(obj) end

-- ---- 1. a callback closes its own system while libmech uses it ----------------------------

do
  local s, b = body_system()
  s:force{ b, fn = function(t)
    if t > 0.005 then close(s) end
    return 0
  end }
  s:assemble()
  tap.raises(function() s:simulate{ t = 0.01 } end, "sys:close: the system is being simulated",
    "a force function cannot close its system while it is simulated")
  tap.ok(s.last_run and s.last_run.rows > 1, "the failed run keeps what it recorded")
  tap.like(tostring(s), "^mech.planar: 1 body %(b%)", "the system lives on after the refused close")
  close(s)
  tap.is(tostring(s), "mech.planar (closed)", "and closes once the run is over")
end

do
  local s = body_system()
  s:assemble()
  tap.raises(function()
    s:simulate{ t = 0.01, events = { { name = "e", fn = function(t, sys)
      if t > 0.005 then debug.getmetatable(sys).__gc(sys) end
      return t - 1
    end } } }
  end, "sys:close: the system is being simulated", "an event function cannot collect its system")
  tap.raises(function()
    s:simulate{ t = 0.01, record = { c = function(t, sys)
      if t > 0.005 then close(sys) end
      return t
    end } }
  end, "sys:close: the system is being simulated", "a channel function cannot close its system")
  tap.raises(function()
    s:simulate{ t = 0.01, record = { c = function(t, sys)
      local _ <close> = sys
      return t
    end } }
  end, "sys:close: the system is being simulated",
    "a to-be-closed variable in a callback cannot close the system")
end

do
  local s, b = body_system()
  s:force{ b, fn = function() close(s) return 0 end }
  tap.raises(function() s:assemble() end, "sys:close: the system is being assembled",
    "nor while it is assembled")
end

do
  local s, b = pendulum()
  s:force{ b, fn = function(t)
    if t > 0.05 then close(s) end
    return 0
  end }
  s:assemble()
  tap.raises(function() s:lyapunov{ t = 0.2, every = 0.02 } end,
    "sys:close: the system is being simulated", "nor while sys:lyapunov integrates it")
end

-- Lua code run while a binding reads its arguments
do
  local s = body_system()
  local evil = setmetatable({}, { __tostring = function() close(s) return "x" end })
  tap.raises(function() s:simulate{ t = 0.01, params = { p = evil } } end,
    "sys:simulate: the system was closed", "a parameter's __tostring closing the system")
end

do
  local s = body_system()
  local r = s:simulate{ t = 0.01 }
  local evil = setmetatable({}, { __tostring = function() close(r) return "x" end })
  tap.raises(function() r:csv(os.tmpname(), { params = { p = evil } }) end,
    "run:csv: the run was freed", "a parameter's __tostring freeing the run")
end

do
  local s = body_system()
  tap.raises(function()
    s:body(setmetatable({ name = "c" }, { __index = function() close(s) return 1 end }))
  end, "sys:body: field 'mass' would be looked up through an __index function",
    "argument tables are read without running an __index function")
  tap.ok(tostring(s):match("^mech.planar: 1 body"), "which did not run")
  local d = s:body(setmetatable({ name = "d" }, { __index = { mass = 2, inertia = 3 } }))
  tap.like(tostring(d), "mass 2 kg, inertia 3 kg m%^2", "an __index table of defaults is read")
end

-- a finalizer that an allocation inside a binding runs
do
  local outcomes = {}
  collectgarbage("incremental", 0, 1000) -- a collection step at every allocation
  for round = 1, 50 do
    local s = mech.planar{}
    for i = 1, 8 do s:body{ name = "b" .. i, mass = 1, inertia = 1 } end
    setmetatable({}, { __gc = function() close(s) end })
    local ok, err = pcall(function()
      for i = 1, 50 do
        local _ = tostring(s) .. s:describe()
        s:body{ name = "c" .. i, mass = 1, inertia = 1, at = { i, 0 } }
      end
    end)
    outcomes[ok and "ok" or err:match("system was closed") and "closed" or err] = true
  end
  collectgarbage("incremental", 200, 100)
  collectgarbage("collect")
  local other = {}
  for k in pairs(outcomes) do if k ~= "ok" and k ~= "closed" then other[#other + 1] = k end end
  tap.is(table.concat(other, "; "), "", "a finalizer closing a system that a binding reads: an error")
end

do -- the same for flexible bodies: their mesh, node lists and guides
  local outcomes = {}
  collectgarbage("incremental", 0, 1000)
  for round = 1, 20 do
    local s = mech.planar{}
    local m = mech.mesh.rectangle{ size = { 0.1, 0.02 }, nx = 10, ny = 2 }
    local fe = s:flexible{ name = "f", mesh = m, E = 2e11, density = 7800 }
    setmetatable({}, { __gc = function() close(s) end })
    local ok, err = pcall(function()
      for i = 1, 20 do
        local mm = fe.mesh
        local nodes = fe:find_nodes{ box = { 0, 0, 0.05, 0.02 } }
        s:guide{ fe, name = "g" .. i, clearance = 1e-4, law = mech.contact.hertz{ K = 1e9 } }
        local _ = tostring(fe) .. #mm.nodes .. #nodes
      end
    end)
    outcomes[ok and "ok" or err:match("system was closed") and "closed" or err] = true
  end
  collectgarbage("incremental", 200, 100)
  collectgarbage("collect")
  local other = {}
  for k in pairs(outcomes) do if k ~= "ok" and k ~= "closed" then other[#other + 1] = k end end
  tap.is(table.concat(other, "; "), "", "a finalizer closing a system whose flexible body is read")
end

-- ---- 2. sys:value from a callback during assembly ---------------------------------------

do
  local s, b = body_system()
  s:force{ b, fn = function() return s:value("b.x") end }
  tap.raises(function() s:assemble() end,
    "sys:value: the system is being assembled: it has no values yet",
    "sys:value in a force function during assembly is an error, not a NULL read")
  local s2, b2 = body_system()
  s2:assemble()
  s2:force{ b2, fn = function() return s2:value("b.x") end }
  tap.raises(function() s2:simulate{ t = 0.01 } end, "the system is being assembled",
    "also when simulate assembles a changed system")
end

-- ---- 14. sys:value after a run ------------------------------------------------------------

do
  local s, b = body_system()
  s:simulate{ t = 0.01 }
  tap.is(s:value("b.x"), 0.5, "after a run, sys:value gives the initial position")
  tap.is(s:value("b.vx"), 1.0, "and the initial velocity")
  tap.is(s:value("b.ay"), -9.81, "and the initial acceleration")
  local armed, firsts = false, {}
  s:force{ b, fn = function()
    if armed then firsts[#firsts + 1] = s:value("b.x") end
    return 0
  end }
  s:assemble()
  armed = true
  s:simulate{ t = 0.01 }
  local n1 = #firsts
  s:simulate{ t = 0.01 }
  tap.is(firsts[n1 + 1], 0.5, "a callback reads the initial state at the start of the next run")
  local finite = true
  for _, v in ipairs(firsts) do finite = finite and v == v and math.abs(v) < 1 end
  tap.ok(finite and #firsts > n1 + 10, "and finite values all along")
  local p, pb = pendulum()
  p:lyapunov{ t = 0.1, every = 0.01 }
  tap.is(p:value("b.x"), 0.5, "after sys:lyapunov too")
  local seen
  p:force{ pb, fn = function()
    if armed then seen = seen or p:value("b.x") end
    return 0
  end }
  armed = false
  p:assemble()
  armed = true
  p:simulate{ t = 0.01 }
  seen = nil
  tap.ok(pcall(p.lyapunov, p, { t = 0.1, every = 0.01 }) and seen == 0.5,
    "sys:lyapunov after a run: callbacks read the initial state")
end

-- ---- re-entrancy, error objects and yields in callbacks ----------------------------------

-- make(s) gives the force function of a fresh system s, which must fail the run with text
-- (the function runs once the system is assembled)
local function fails_with(make, text, name)
  local s, b = body_system()
  local f, armed = make(s), false
  s:force{ b, fn = function(...)
    if armed then return f(...) end
    return 0
  end }
  s:assemble()
  armed = true
  tap.raises(function() s:simulate{ t = 0.01 } end, text, name)
  tap.ok(s:body{ mass = 1 }, name .. ": the system can change after the run")
  return s
end

fails_with(function(s) return function() s:simulate{ t = 1 } return 0 end end,
  "sys:simulate: the system cannot change while it is simulated", "simulate from a callback")
fails_with(function(s) return function() s:assemble() return 0 end end,
  "sys:assemble: the system cannot change while it is simulated", "assemble from a callback")
fails_with(function(s) return function() s:body{ mass = 1 } return 0 end end,
  "sys:body: the system cannot change while it is simulated", "a new body from a callback")
fails_with(function() return function() error({}) end end, "(error object is a table value)",
  "an error object that is a table")
fails_with(function() return function() error(2.0, 0) end end, "force 'force1' function: 2.0",
  "an error object that is a number")
fails_with(function()
  return function() error(setmetatable({}, { __tostring = function() return "mine" end })) end
end, "force 'force1' function: mine", "an error object with __tostring")
fails_with(function()
  return function() error(setmetatable({}, { __tostring = function() error("again") end })) end
end, "(error object is a table value)", "an error object whose __tostring fails")

do
  local s, b = body_system()
  s:force{ b, fn = function() coroutine.yield() return 0 end }
  local co = coroutine.wrap(function() return pcall(s.simulate, s, { t = 0.01 }) end)
  local ok, err = co()
  tap.ok(not ok and err:find("attempt to yield across a C-call boundary", 1, true),
    "a callback that yields fails the run")
  tap.ok(s:body{ mass = 1 }, "and the system can change afterwards")
end

-- os.exit from a callback closes the state while the run is in C: nothing leaks or crashes
do
  local script = os.tmpname()
  local f = assert(io.open(script, "w"))
  f:write([[
local s = mech.planar{ gravity = { 0, -9.81 } }
local b = s:body{ name = "b", mass = 1, inertia = 1 }
s:force{ b, fn = function(t) if t > 0.001 then os.exit(3, true) end return 0 end }
s:simulate{ t = 0.01 }
]])
  f:close()
  local p = io.popen(string.format("'%s' '%s' 2>&1; echo \"rc=$?\"", os.getenv("MECHLUA"), script))
  local out = p:read("a")
  p:close()
  os.remove(script)
  tap.is(out, "rc=3\n", "os.exit(3, true) from a callback exits cleanly with its code")
end

-- ---- 7. a Ctrl-C caught by a pcall in a callback is delivered, then cleared ----------------

do
  local s, b = body_system()
  s:assemble()
  local caught
  s:force{ b, fn = function()
    if caught == nil then
      caught = false
      local ok, err = pcall(function()
        local k = io.popen("kill -INT $PPID") -- Ctrl-C, as the terminal sends it
        k:close()
        for _ = 1, 10 do end
      end)
      caught = not ok and tostring(err)
    end
    return 0
  end }
  local ok1, r1 = pcall(s.simulate, s, { t = 0.01 })
  tap.like(caught, "interrupted", "the Ctrl-C reached the pcall in the callback")
  tap.ok(ok1 and r1.status == "complete", "the run goes on: the callback handled it")
  local ok2, r2 = pcall(s.simulate, s, { t = 0.01 })
  tap.ok(ok2 and r2.status == "complete", "and the next run is not interrupted at t = 0")
end

-- ---- 8. Ctrl-C while run:csv writes: no file, no temporary, an error ----------------------

do
  local pid = io.open("/proc/self/stat"):read("l"):match("^(%d+)")
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir '" .. dir .. "'"))
  local path = dir .. "/big.csv"
  local tmp = path .. ".tmp" .. pid
  -- the writer's temporary file is a pipe: a reader takes 100 bytes and presses Ctrl-C;
  -- if 1 MB more still flows, it presses Ctrl-C again (the old writer went on, and the
  -- second Ctrl-C killed the program, leaving the temporary file)
  assert(os.execute("mkfifo '" .. tmp .. "'"))
  local reader = string.format([[
exec 3<'%s'
head -c 100 <&3 >/dev/null
kill -INT %s
if [ "$(head -c 1000000 <&3 | wc -c)" -ge 1000000 ]; then kill -INT %s; fi
cat <&3 >/dev/null
]], tmp, pid, pid)
  local sh = assert(io.open(dir .. "/reader.sh", "w"))
  sh:write(reader)
  sh:close()
  local s = body_system()
  local r = s:simulate{ t = 0.5, report = 1e-5, record = { "b.x", "b.y", "b.vx", "b.vy" } }
  assert(os.execute("sh '" .. dir .. "/reader.sh' &"))
  local ok, err = pcall(r.csv, r, path)
  tap.ok(not ok and err:find("run:csv: interrupted; '" .. path .. "' was not written", 1, true),
    "Ctrl-C while writing: an error that says the file was not written")
  tap.is(io.open(path), nil, "no file")
  tap.is(io.open(tmp), nil, "no temporary file")
  local again = r:csv(path)
  tap.is(again, path, "the next run:csv writes the file")
  os.remove(path)
  os.remove(dir .. "/reader.sh")
  os.remove(dir)
end

-- ---- 9. names and parameters in the CSV header --------------------------------------------

do
  local s = mech.planar{}
  s:body{ name = 'a,"b', mass = 1, inertia = 1 }
  tap.raises(function() s:body{ name = "x\ny", mass = 1 } end,
    "sys:body: name must not contain control characters (byte 0x0a at position 2)",
    "a newline in a name is refused")
  tap.raises(function() s:body{ name = "x\0y", mass = 1 } end,
    "sys:body: field 'name' must not contain a zero byte", "a zero byte in a name is refused")
  local b = s:body{ name = "c", mass = 1, inertia = 1 }
  tap.raises(function() b:point{ name = "p\tq" } end, "without '.' and control characters",
    "a tab in a point's name is refused")
  tap.raises(function() s:simulate{ t = 0.01, record = { ["u\nv"] = function() return 0 end } } end,
    "sys:simulate: record: the name of a channel function must not contain control characters",
    "a newline in a channel function's name is refused")
  local r = s:simulate{ t = 0.01, record = { 'a,"b.x', ["q,r"] = function() return 1 end },
    params = { note = "two\nlines", ["k\r"] = 1 } }
  local path = os.tmpname()
  r:csv(path)
  local lines = {}
  for line in io.lines(path) do lines[#lines + 1] = line end
  os.remove(path)
  local header
  for _, line in ipairs(lines) do
    if line:sub(1, 1) ~= "#" then header = header or line end
  end
  tap.is(header, 't [s],"a,""b.x [m]","q,r []"', "names with a comma or a quote are quoted (RFC 4180)")
  tap.is(lines[2], "# parameter k\\r = 1", "a control character in a parameter's key is escaped")
  tap.is(lines[3], "# parameter note = two\\nlines", "a newline in a parameter stays on its line")
end

tap.done()
