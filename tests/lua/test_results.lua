-- SPDX-License-Identifier: MIT
-- Runs, columns, CSV files, user channels, events, failures that keep their data, and
-- what the REPL shows of each object.
local tap = require "tap"

local function crank_system()
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  local crank = sys:body{ name = "crank", mass = 0.5, inertia = 0.004, at = { 0.1, 0 } }
  crank:point{ name = "tip", at = { 0.2, 0 } }
  sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "pin" }
  sys:drive{ crank, speed = 2 * math.pi, name = "motor" }
  return sys, crank
end

local tmp = os.tmpname()
os.remove(tmp)
mech.mkdir(tmp)

do -- columns
  local sys = crank_system()
  local run = sys:simulate{ t = 1, report = 0.01, method = "dopri5", rtol = 1e-10, atol = 1e-12,
    record = { "crank.tip.x", "crank.tip.y", "motor.torque",
      radius = function(t, s) return math.sqrt(s:value("crank.tip.x") ^ 2 + s:value("crank.tip.y") ^ 2) end } }
  tap.is(#run, 101, "1 s at 0.01 s: 101 rows")
  tap.is(#run.t, 101, "the time column has as many values")
  tap.near(run.t[101], 1.0, 1e-15, "the last row is at the end time")
  tap.near(run["crank.tip.x"][1], 0.2, 1e-12, "columns index from 1")
  tap.is(run["crank.tip.x"][102], nil, "past the end is nil")
  tap.near(run.radius:min(), 0.2, 1e-9, "a Lua channel is recorded")
  tap.near(run.radius:max(), 0.2, 1e-9, "and holds its value (the tip stays on its circle)")
  tap.near(run["crank.tip.y"]:at(0.25), 0.2, 1e-3, "column:at interpolates on the time grid")
  tap.is(run.channels[1], "crank.tip.x", "run.channels lists the recorded channels in order")
  tap.is(run.channels[4], "radius", "Lua channels come after the built-in ones")
  tap.is(run["crank.tip.x"].unit, "m", "columns know their unit")
  tap.like(tostring(run["crank.tip.x"]), "^column 'crank.tip.x' %[m%]: 101 values from %-0.2 to 0.2",
    "a column prints a summary")
  tap.like(tostring(run), "^run %(dopri5%): complete, t = 0 %.%. 1%.0+ s, 101 rows x 4 channels "
    .. "%(crank.tip.x, crank.tip.y, motor.torque, radius%); %d+ steps", "a run prints a summary")
  tap.is(run.status, "complete", "status")
  tap.ok(run.ok, "ok")
  local st = run.stats
  tap.ok(st.steps > 0 and st.rhs_evals >= 6 * st.steps and st.wall_time >= 0,
    "statistics: steps, right-hand sides, wall time")
  tap.ok(st.newton_iters == 0 and st.newton_fails == 0, "dopri5 makes no Newton iterations")
  local bdf = crank_system():simulate{ t = 0.5, report = 0.1, method = "bdf", record = { "crank.phi" } }
  tap.ok(bdf.stats.newton_iters >= bdf.stats.steps and bdf.stats.newton_fails >= 0,
    "bdf counts its Newton iterations, at least one a step")
  tap.is(#run["crank.tip.x"]:table(), 101, "column:table copies the values")

  -- CSV
  local path = tmp .. "/crank.csv"
  tap.is(run:csv(path, { params = { speed_rpm = 60, note = "test" } }), path, "run:csv returns the path")
  local text = assert(io.open(path)):read("a")
  local lines = {}
  for line in text:gmatch("[^\n]+") do lines[#lines + 1] = line end
  tap.like(lines[1], "^# mechlua " .. mech.version:gsub("%.", "%%.") .. ", script ", "header names the version and script")
  tap.like(text, "\n# parameter note = test\n# parameter speed_rpm = 60\n", "user parameters, sorted")
  tap.like(text, "\n# body crank: mass 0.5 kg, inertia 0.004 kg m%^2", "the model's parameters")
  tap.like(text, "\n# integrator dopri5, rtol 1e%-10", "the integrator settings")
  tap.like(text, "\nt %[s%],crank.tip.x %[m%],crank.tip.y %[m%],motor.torque %[N m%],radius %[%]\n",
    "column names with units")
  local last = lines[#lines]
  local fields = {}
  for v in last:gmatch("[^,]+") do fields[#fields + 1] = tonumber(v) end
  tap.ok(#fields == 5 and fields[1] == 1.0, "rows hold time and the values")
  tap.ok(fields[2] == run["crank.tip.x"][101], "values are written with all their digits (%.17g)")
  run:csv(tmp .. "/two.csv", { columns = { "motor.torque" } })
  local two = assert(io.open(tmp .. "/two.csv")):read("a")
  tap.like(two, "\nt %[s%],motor.torque %[N m%]\n", "columns selects channels")
  tap.raises(function() run:csv(tmp .. "/x.csv", { columns = { "nope.x" } }) end,
    "run:csv: channel 'nope.x' was not recorded in this run", "unknown column")
  tap.raises(function() run:csv("/proc/no/such/dir/x.csv") end, "run:csv: cannot write",
    "an unwritable path is an error")
  tap.raises(run.csv, "run:csv: cannot write '" .. tmp .. "/nodir/x.csv': No such file or directory; "
    .. "the folder '" .. tmp .. "/nodir' does not exist: create it first with mech.mkdir(\"" .. tmp
    .. "/nodir\")", "a missing folder: the error says how to create it", run, tmp .. "/nodir/x.csv")
  local msg = select(2, pcall(run.csv, run, "/proc/x.csv"))
  tap.ok(msg:find("run:csv: cannot write '/proc/x.csv'", 1, true) and not msg:find("mkdir", 1, true),
    "a folder that exists but cannot be written gets no such advice")

  -- same script, same machine: same bits
  local again = crank_system():simulate{ t = 1, report = 0.01, method = "dopri5", rtol = 1e-10,
    atol = 1e-12, record = { "crank.tip.x", "crank.tip.y", "motor.torque",
      radius = function(t, s) return math.sqrt(s:value("crank.tip.x") ^ 2 + s:value("crank.tip.y") ^ 2) end } }
  again:csv(tmp .. "/again.csv", { params = { speed_rpm = 60, note = "test" } })
  local a = assert(io.open(tmp .. "/again.csv")):read("a")
  tap.ok(a == text, "a second identical run writes an identical file")
end

do -- events: record and stop
  local sys = crank_system()
  local run = sys:simulate{ t = 3.5, report = 0.05, method = "rk4", h = 1e-3,
    record = { "crank.phi" },
    events = { { name = "turn", fn = function(t, s) return math.sin(s:value("crank.phi") / 2) end },
      { name = "top", channel = "crank.tip.y", value = 0.2 - 1e-6, direction = 1 } } }
  local turns, tops = {}, 0
  for _, e in ipairs(run.events) do
    if e.name == "turn" then turns[#turns + 1] = e end
    if e.name == "top" then tops = tops + 1 end
  end
  tap.is(#turns, 3, "a function event fires at every half-angle zero: each full turn")
  tap.is(tops, 4, "a channel event fires in its direction only")
  tap.ok(run.events[1].t < run.events[2].t, "events are listed in time order")
  -- RK4 with h = 1e-3 on a driven crank: the angle is exact to rounding (constant speed)
  tap.near(turns[1].t, 1.0, 1e-9, "the first turn is located at t = 1 s")
  tap.near(turns[1].values["crank.phi"], 2 * math.pi, 1e-8, "with the channel values there")

  local stop = sys:simulate{ t = 3, report = 0.01, method = "dopri5", record = { "crank.phi" },
    events = { { channel = "crank.phi", value = 3, action = "stop" } } }
  tap.is(stop.status, "stopped", "a stop event ends the run")
  tap.near(stop.stats.t_end, 3 / (2 * math.pi), 1e-8, "at the event time")
  tap.ok(stop.t[#stop] <= stop.stats.t_end, "rows stop there")
  local called = 0
  local cb = sys:simulate{ t = 3, report = 0.01, method = "dopri5", record = { "crank.phi" },
    events = { { channel = "crank.phi", value = 5, action = function(t, s)
      called = called + 1
      return "stop"
    end } } }
  tap.is(called, 1, "an action function is called once")
  tap.is(cb.status, "stopped", "and may stop the run")
end

do -- periodic crossings: every revolution, even when one step spans several
  local sys = mech.planar{}
  local c = sys:body{ name = "wheel", mass = 1, inertia = 1 }
  sys:revolute{ sys.ground, c, at = { 0, 0 } }
  sys:drive{ c, speed = 2 * math.pi }
  -- a constant speed lets DOPRI5 take steps much longer than a revolution
  local run = sys:simulate{ t = 10.5, report = 0.5, record = { "wheel.phi" },
    events = { { name = "rev", channel = "wheel.phi", value = 1, period = 2 * math.pi, direction = 1 } } }
  tap.ok(run.stats.steps < 20, "the run takes few, long steps (" .. run.stats.steps .. ")")
  tap.is(#run.events, 11, "a periodic event fires once per revolution (t = 0.16, 1.16, ... 10.16 s)")
  local worst = 0
  for k, e in ipairs(run.events) do
    worst = math.max(worst, math.abs(e.values["wheel.phi"] - (1 + 2 * math.pi * (k - 1))))
  end
  -- located to 1e-12 s in time at 2 pi rad/s: the recorded angle is on the level to ~1e-11
  tap.ok(worst < 1e-10, string.format("located where the recorded angle is 1 + 2 pi k (%.1e rad)", worst))
  local back = mech.planar{}
  local w = back:body{ name = "wheel", mass = 1, inertia = 1 }
  back:revolute{ back.ground, w, at = { 0, 0 } }
  back:drive{ w, speed = -2 * math.pi }
  local r2 = back:simulate{ t = 3.2, report = 0.1, method = "rk4", h = 1e-3,
    events = { { channel = "wheel.phi", value = 0, period = 2 * math.pi, direction = -1 },
      { channel = "wheel.phi", value = 0, period = 2 * math.pi, direction = 1, name = "never" } } }
  tap.is(#r2.events, 3, "falling crossings of a wheel turning backwards; none rising")
  tap.raises(function() back:simulate{ t = 1, events = { { channel = "wheel.phi", period = 1 } } } end,
    "a periodic crossing needs a direction (1 or -1)", "a periodic event needs a direction")
end

do -- failures keep the data recorded so far
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  local p = sys:body{ name = "p", mass = 1, inertia = 1 }
  sys:force{ p, name = "push", fn = function(t)
    if t > 0.5 then error("the actuator broke") end
    return 1, 0, 0
  end }
  local ok, err = pcall(sys.simulate, sys, { t = 1, report = 0.01, max_step = 0.01, record = { "p.x" } })
  tap.ok(not ok, "a failing callback stops the simulation with an error")
  tap.like(err, "sys:simulate: simulation failed at t = 0%.49%d* s %(step %d+%): load 'push': its function "
    .. "failed at t = 0%.50%d*: force 'push' function: .*the actuator broke %(the results so far are in sys.last_run%)",
    "naming the time, the step, the entity and the Lua error")
  local last = sys.last_run
  tap.is(last.status, "failed", "the partial run is kept")
  tap.ok(#last >= 50 and #last <= 51, "with the rows up to the failure (" .. #last .. ")")
  last:csv(tmp .. "/partial.csv")
  local text = assert(io.open(tmp .. "/partial.csv")):read("a")
  tap.like(text, "# run ended early: simulation failed at t = 0%.49", "its CSV says it ended early")

  local run, msg = sys:simulate{ t = 1, report = 0.01, max_step = 0.01, record = { "p.x" },
    on_error = "return" }
  tap.is(run.status, "failed", "on_error = \"return\" returns the partial run")
  tap.like(msg, "the actuator broke", "and the message")

  local nan = mech.planar{}
  local q = nan:body{ name = "q", mass = 1, inertia = 1 }
  nan:force{ q, name = "bad", fn = function(t) return t > 0.2 and 0 / 0 or 0, 0, 0 end }
  local ok2, err2 = pcall(nan.simulate, nan, { t = 1, report = 0.1 })
  tap.ok(not ok2, "a non-finite force stops the run")
  tap.like(err2, "the forces on body 'q' are not finite at t = 0%.2", "and names the body")
end

do -- finite-time blow-up: x' = x^2 reaches infinity at t = 1
  local sys = mech.planar{}
  local b = sys:body{ name = "rocket", mass = 1, inertia = 1, at = { 1, 0 }, velocity = { 1, 0 } }
  sys:force{ b, fn = function(t, x) return 2 * x * x * x, 0, 0 end }
  local ok, err = pcall(sys.simulate, sys, { t = 2, report = 0.01, record = { "rocket.x" }, max_distance = math.huge })
  tap.ok(not ok, "a blow-up stops the run")
  tap.like(err, "simulation failed at t = 1%.0000%d+ s %(step %d+%): step size underflow at t = 1%.0000%d+ "
    .. "%(h = [%d.e%-]+%) %(largest error in body 'rocket' x%)",
    "step size underflow, naming the time, the step and the body")
  tap.ok(#sys.last_run >= 100, "the rows before it are kept")
end

do -- a channel that was not recorded is an error that says what was, and how to record it
  local sys = crank_system()
  local run = sys:simulate{ t = 0.1, report = 0.05, record = { "crank.tip.x", "motor.torque",
    radius = function(_, s) return s:value("crank.tip.x") end } }
  tap.raises(function() return run["crank.tip.vx"] end,
    "run: channel 'crank.tip.vx' was not recorded (recorded: t, crank.tip.x, motor.torque, radius); "
    .. "record it with sys:simulate{ ..., record = { \"crank.tip.vx\", ... } }",
    "run[name] of a channel of the model that was not recorded")
  tap.raises(run.column, "run:column: channel 'crank.tip.vx' was not recorded (recorded: t, "
    .. "crank.tip.x, motor.torque, radius); record it with", "run:column says the same", run, "crank.tip.vx")
  tap.raises(function() return run["crank.tp.x"] end, "run: no channel 'crank.tp.x' in this run "
    .. "(recorded: t, crank.tip.x, motor.torque, radius), nor in the model: no body, node, flexible "
    .. "body, point, force, joint, driver or contact is named 'crank.tp'", "a name the model does not have")
  tap.raises(function() return run["motor.speed"] end, "nor in the model: 'motor' has no quantity "
    .. "'speed'; it has torque, angle, target, power, work", "a quantity the entity does not have")
  tap.raises(run.column, "run:column: channel 'other' was not recorded (recorded: t, crank.tip.x, "
    .. "motor.torque, radius)", "run:column of an unknown plain name", run, "other")
  tap.is(run.nothing, nil, "a name that is no channel (no '.') and no field of the run is nil")
  tap.is(type(run.csv), "function", "methods are still there")
  tap.is(run.rows, 3, "and fields")
  tap.near(run.radius[1], 0.2, 1e-12, "and recorded Lua channels")
  sys:simulate{ t = 0.05, report = 0.05, record = { "crank.x" } }
  tap.raises(function() return run["crank.tip.vx"] end, "record it with",
    "a later run of the system does not change what an earlier one says")
  local big = crank_system()
  local names = { "crank.x", "crank.y", "crank.phi", "crank.vx", "crank.vy", "crank.omega", "crank.ax",
    "crank.ay", "crank.alpha", "crank.kinetic", "crank.tip.x", "crank.tip.y", "crank.tip.vx",
    "crank.tip.vy", "crank.tip.ax", "crank.tip.ay", "motor.torque", "motor.angle", "motor.target",
    "motor.power", "motor.work", "pin.fx" }
  local r2 = big:simulate{ t = 0.05, report = 0.05, record = names }
  tap.raises(function() return r2["pin.fy"] end, "motor.power, ... (23 in all: run.channels)); "
    .. "record it with", "a long list is cut after 20 channels")
end

do -- a message names the Lua function once: libmech's own "simulate: ", "csv: ", ... are not repeated
  local sys = mech.planar{}
  sys:body{ name = "b", mass = 1, inertia = 1 }
  tap.raises(sys.simulate, "sys:simulate: end time must be > 0 (got -1)", "sys:simulate", sys, { t = -1 })
  local msg = select(2, pcall(sys.simulate, sys, { t = -1 }))
  tap.ok(not msg:find("simulate: simulate", 1, true), "no doubled prefix: " .. msg)
  tap.raises(sys.lyapunov, "sys:lyapunov: need 0 <= transient < end time (got 0 and -1)", "sys:lyapunov",
    sys, { t = -1, every = 0.1 })
  local fe = sys:flexible{ name = "plate", mesh = mech.mesh.rectangle{ nx = 2 }, E = 1e5, density = 10 }
  tap.raises(fe.frequencies, "fe:frequencies: flexible body 'plate': ask for 1 to 12 (got 1000)",
    "fe:frequencies: the entity stays named, the function once", fe, { n = 1000 })
  local run = sys:simulate{ t = 0.1, record = { "b.x" } }
  tap.raises(run.csv, "run:csv: cannot write '/proc/nonexistent/x.csv': ", "run:csv", run,
    "/proc/nonexistent/x.csv")
  tap.raises(function() sys:body{ name = "x\ny", mass = 1 } end,
    "sys:body: name must not contain control characters", "sys:body")
end

do -- summaries for the REPL
  local sys, crank = crank_system()
  tap.like(tostring(sys), "^mech%.planar: 1 body %(crank%), 1 joint, 1 driver, 0 force elements, "
    .. "1 point; 0 degrees of freedom$", "a system prints its contents")
  tap.like(tostring(crank), "^body 'crank': mass 0%.5 kg, inertia 0%.004 kg m%^2, at %(0%.1, 0%) m",
    "a body prints its parameters")
  tap.like(tostring(sys:entity("pin")), "^joint 'pin': revolute, ground %(0, 0%) %- crank %(%-0%.1, 0%), Lagrange",
    "a joint prints its bodies and anchors")
  tap.like(tostring(sys:entity("motor")), "^driver 'motor': body angle of crank, from 0 at constant speed 6%.28",
    "a driver prints its motion")
  tap.is(sys:entity("crank.tip").name, "crank.tip", "points are named body.point")
  tap.is(type(crank.channels), "table", "an entity's channels are a Lua list")
  tap.is(#crank.channels, 10, "of the names of its quantities")
  tap.is(crank.channels[1] .. " " .. crank.channels[10], "x kinetic", "in the order of the man page")
  tap.is(tostring(crank.channels), "x, y, phi, vx, vy, omega, ax, ay, alpha, kinetic",
    "and tostring (print, the REPL) shows them on one line")
  sys:assemble()
  local readable = 0
  for _, q in ipairs(crank.channels) do
    if pcall(sys.value, sys, "crank." .. q) then readable = readable + 1 end
  end
  tap.is(readable, 10, "every name listed reads as a channel")
  tap.is(sys:entity("nothing"), nil, "sys:entity of an unknown name is nil")
  tap.ok(sys:entity("crank") == crank, "entities compare equal")
end

for _, f in ipairs{ "crank.csv", "two.csv", "again.csv", "partial.csv" } do os.remove(tmp .. "/" .. f) end
os.remove(tmp)
tap.done()
