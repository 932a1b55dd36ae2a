-- SPDX-License-Identifier: MIT
-- Spatial systems against closed forms and against the planar system: benchmark A's
-- slider-crank built with mech.spatial matches mech.planar in every channel they share; the
-- spatial slider-crank of [Spatial revolute paper], driven, against its kinematics, and free
-- under gravity, keeping its energy; every integrator, events, CSV, analysis (spectrum,
-- Poincare section, energy balance) and the Lyapunov exponent with the planar system's calls.
local tap = require "tap"
local analysis = require "analysis"
local benchmarks = require "benchmarks"

local pi = math.pi

-- The largest |a - b| over two columns, and the largest |a| (the column's scale).
local function differ(a, b)
  local worst, scale = 0, 0
  for i = 1, #a do
    worst = math.max(worst, math.abs(a[i] - b[i]))
    scale = math.max(scale, math.abs(a[i]))
  end
  return worst, scale
end

-- Benchmark A's slider-crank ([Flores & Ambrosio 2004]) in space, held in the plane z = 0 by
-- its joints: a revolute joint about z at the origin, a spherical joint at the crank pin, a
-- universal joint at the slider (its cross: z on the slider, y on the rod) and a prismatic
-- joint along x, 17 equations on 18 velocities.  The planar model's bodies, masses and
-- moments about z; the other principal moments only need to make a rigid body (nothing turns
-- about them).  The crank is driven as the planar model's "motor".
local function spatial_a(w)
  local r, l = 0.05, 0.12
  local sys = mech.spatial{ gravity = { 0, -9.81, 0 } }
  local crank = sys:body{ name = "crank", mass = 0.17, inertia = { 1e-5, 1e-4, 1e-4 },
    at = { r / 2, 0, 0 }, velocity = { 0, r * w / 2, 0 }, omega = { 0, 0, w } }
  local rod = sys:body{ name = "rod", mass = 0.25, inertia = { 1e-5, 4e-4, 4e-4 },
    at = { r + l / 2, 0, 0 }, velocity = { 0, r * w / 2, 0 }, omega = { 0, 0, -r * w / l } }
  local slider = sys:body{ name = "slider", mass = 0.14, inertia = { 1e-5, 1e-5, 1e-5 },
    at = { r + l, 0, 0 } }
  local bearing = sys:revolute{ sys.ground, crank, at = { 0, 0, 0 }, axis = { 0, 0, 1 },
    name = "main_bearing" }
  sys:spherical{ crank, rod, at = { r, 0, 0 }, name = "crank_pin" }
  sys:universal{ slider, rod, at = { r + l, 0, 0 }, axis_a = { 0, 0, 1 }, axis_b = { 0, 1, 0 },
    name = "pin" }
  sys:prismatic{ sys.ground, slider, axis = { 1, 0, 0 }, name = "guide" }
  sys:drive{ bearing, speed = w, name = "motor" }
  return sys
end

do -- benchmark A in space and in the plane: the same motion, forces and energies
  local w = mech.rpm(5000)
  local opt = { t = 0.024, report = 1e-4, method = "dopri5", rtol = 1e-12, atol = 1e-14 }
  -- the channels both have, planar name = spatial name
  local same = { "crank.x", "crank.y", "crank.vx", "crank.vy", "crank.ax", "crank.ay",
    "rod.x", "rod.y", "rod.vx", "rod.vy", "rod.ax", "rod.ay", "slider.x", "slider.vx",
    "slider.ax", "main_bearing.fx", "main_bearing.fy", "crank_pin.fx", "crank_pin.fy",
    "pin.fx", "pin.fy", "motor.torque", "motor.power", "motor.work", "system.kinetic",
    "system.potential", "system.energy", "system.balance" }
  local renamed = { ["crank.omega"] = "crank.wz", ["rod.omega"] = "rod.wz",
    ["crank.alpha"] = "crank.alphaz", ["rod.alpha"] = "rod.alphaz" }
  local precord, srecord = {}, {}
  for _, c in ipairs(same) do precord[#precord + 1], srecord[#srecord + 1] = c, c end
  for p, s in pairs(renamed) do precord[#precord + 1], srecord[#srecord + 1] = p, s end
  local pr = benchmarks.a{}:simulate(setmetatable({ record = precord }, { __index = opt }))
  local plane = { "rod.z", "slider.z", "rod.wx", "rod.wy", "crank_pin.fz", "pin.fz" }
  for _, c in ipairs(plane) do srecord[#srecord + 1] = c end
  local sa = spatial_a(w)
  tap.is(sa.dof, 0, "17 equations and the driver on 18 velocities: no freedom left, none redundant")
  local sr = sa:simulate(setmetatable({ record = srecord }, { __index = opt }))
  local off = 0
  for _, c in ipairs(plane) do off = math.max(off, sr[c]:max(), -sr[c]:min()) end
  -- out of the plane: nothing acts, so only rounding (1e-14 of forces of 1e4 N)
  tap.ok(off < 1e-9, string.format("the spatial model stays in its plane (%.1e at most)", off))
  tap.is(#sr.t, #pr.t, "the same rows")
  -- a channel that stays near 0 (the crank's angular acceleration at constant speed, the energy
  -- balance) is measured against the scale of its kind: the rod's, the energy
  local scale_of = { ["crank.alpha"] = "rod.alpha", ["system.balance"] = "system.energy" }
  local worst, which = 0, "?"
  for i, p in ipairs(precord) do
    local d, scale = differ(sr[srecord[i]], pr[p])
    if scale_of[p] then scale = select(2, differ(pr[scale_of[p]], pr[scale_of[p]])) end
    if d / scale > worst then worst, which = d / scale, p end
  end
  tap.diag(string.format("benchmark A, 2 revolutions at 5000 rpm: %d channels, largest difference "
    .. "%.2e of the channel's scale (%s)", #precord, worst, which))
  -- both integrate the same motion at rtol 1e-12 with their own steps: each differs from the
  -- exact motion by about 1e-11 of its scale over two turns (measured: 3e-11 at most, the
  -- driver's work); the issue asks for 1e-9
  tap.ok(worst < 1e-9, "every channel of the spatial model equals the planar one's to 1e-9 of its scale")
end

local spec001 = require "spec001"

do -- the spatial slider-crank driven at 2 pi rad/s: the slider against the closed form
  local sys = spec001.model{ driven = true }
  tap.is(sys.dof, 0, "driven: no degree of freedom left")
  local run = sys:simulate{ t = 2, report = 1e-3, method = "dopri5", rtol = 1e-11, atol = 1e-13,
    record = { "slider.y", "slider.vy", "slider.ay", "motor.angle", "crank_pin0.angle",
      "system.balance", "system.violation", "rod_slider.misalignment" } }
  local e = { 0, 0, 0 }
  for i, t in ipairs(run.t) do
    local y, vy, ay = spec001.slider(t)
    e[1] = math.max(e[1], math.abs(run["slider.y"][i] - y))
    e[2] = math.max(e[2], math.abs(run["slider.vy"][i] - vy))
    e[3] = math.max(e[3], math.abs(run["slider.ay"][i] - ay))
  end
  tap.diag(string.format("driven, 2 turns: slider y off by %.2e m, vy by %.2e m/s, ay by %.2e "
    .. "m/s^2 (|ay| up to %.2f)", e[1], e[2], e[3], run["slider.ay"]:max()))
  -- DOPRI5 at rtol 1e-11 over 2 s: errors of order 1e-11 of the motion (0.1 m, 0.6 m/s,
  -- 2.5 m/s^2); 1e-8 leaves a margin of 1e3
  tap.ok(e[1] < 1e-8 and e[2] < 1e-8 and e[3] < 1e-8,
    "slider position, velocity and acceleration as the closed form, to 1e-8")
  tap.near(run["crank_pin0.angle"][#run.t], -4 * pi, 1e-8, "the joint's angle counts two turns")
  tap.near(run["system.balance"]:max(), 0, 1e-8, "energy balance with the driver's work")
end

do -- free under gravity from the paper's start: the ideal joints keep the energy ([Spatial
  -- revolute paper]'s ideal case, its baseline of zero energy change)
  local sys = spec001.model{}
  tap.is(sys.dof, 1, "free: one degree of freedom (revolute, spherical, universal, prismatic)")
  local run = sys:simulate{ t = 1, report = 1e-3, method = "dopri5", rtol = 1e-10, atol = 1e-12,
    record = { "system.energy", "crank.wy", "slider.vy", "system.violation" } }
  tap.near(run["crank.wy"][1], -2 * pi, 1e-12, "the crank starts at 2 pi rad/s about -y")
  tap.near(run["slider.vy"][1], -0.062832 / 0.160312, 1e-5, "the slider at its ideal speed")
  local E = run["system.energy"]
  local drift = math.max(E:max() - E[1], E[1] - E:min()) / math.abs(E[1])
  tap.diag(string.format("free, 1 s: energy %.6f J, drift %.2e of it; violation up to %.1e",
    E[1], drift, run["system.violation"]:max()))
  -- rtol 1e-10 on 400 steps: the energy error is a few 1e-10 of it
  tap.ok(drift < 1e-8, "mechanical energy conserved to 1e-8 relative at rtol 1e-10")
end

do -- every integrator on the free slider-crank: the same motion to their accuracy
  local ref = spec001.model{}:simulate{ t = 0.5, report = 0.05, method = "dopri5", rtol = 1e-12,
    atol = 1e-14, record = { "slider.y", "crank.wy" } }
  local y, w = ref["slider.y"][#ref.t], ref["crank.wy"][#ref.t]
  for _, m in ipairs{ { method = "rk4", h = 1e-4, tol = 1e-9 },
    { method = "dopri5", rtol = 1e-8, atol = 1e-10, tol = 1e-6 },
    { method = "bdf", rtol = 1e-8, atol = 1e-10, tol = 1e-5 } } do
    local run = spec001.model{}:simulate{ t = 0.5, report = 0.05, method = m.method, h = m.h,
      rtol = m.rtol, atol = m.atol, record = { "slider.y", "crank.wy" } }
    local dy, dw = math.abs(run["slider.y"][#run.t] - y), math.abs(run["crank.wy"][#run.t] - w)
    -- RK4 at h = 1e-4: h^4 times derivatives of order (2 pi)^5 ~ 1e4: 1e-12 m; the adaptive
    -- methods at rtol 1e-8 keep their global error within a few 1e2 rtol
    tap.ok(run.ok and dy < m.tol and dw < 100 * m.tol, string.format(
      "%s: slider off by %.1e m, crank rate by %.1e rad/s at t = 0.5 s", m.method, dy, dw))
  end
end

do -- events, CSV, spectrum, Poincare section and energy accounts with the planar calls
  local sys = spec001.model{ driven = true }
  local record = { "slider.y", "slider.vy", "motor.torque" }
  for _, c in ipairs(analysis.energy_channels) do record[#record + 1] = c end
  local run = sys:simulate{ t = 8, report = 1e-3, method = "dopri5", rtol = 1e-10, atol = 1e-12,
    record = record, events = { { name = "up", channel = "slider.y", value = 0.2, direction = 1 },
      analysis.strobe{ period = 1, name = "turn" } } }
  local up = {}
  for _, e in ipairs(run.events) do if e.name == "up" then up[#up + 1] = e.t end end
  tap.is(#up, 8, "the slider passes y = 0.2 m upwards once a turn")
  -- the crossing in closed form: y(t) = 0.2 by bisection on spec001.slider
  local a, b = up[1] - 0.01, up[1] + 0.01
  for _ = 1, 60 do
    local m = (a + b) / 2
    if spec001.slider(m) < 0.2 then a = m else b = m end
  end
  tap.near(up[1], a, 1e-9, "located at the closed form's time")
  tap.near(up[8] - up[1], 7, 1e-9, "a turn apart")
  local p = analysis.poincare(run, { event = "turn", x = "slider.y", y = "slider.vy" })
  local sx = 0
  for i = 2, #p.x do sx = math.max(sx, math.abs(p.x[i] - p.x[1])) end
  tap.ok(#p.x == 8 and sx < 1e-9, string.format("the section of the periodic motion: one point "
    .. "(%d points within %.1e m)", #p.x, sx))
  local spec = analysis.spectrum(run, "slider.y", { from = 0 })
  local peaks = analysis.peaks(spec, 2)
  tap.near(peaks[1].freq, 1, 0.01, "the slider's spectrum peaks at the crank's 1 Hz")
  local e = analysis.energy(run)
  tap.ok(e.relative < 1e-7, string.format("energy accounts close to %.1e (driver's work)",
    e.relative))
  local tmp = os.tmpname()
  os.remove(tmp)
  mech.mkdir(tmp)
  local path = run:csv(tmp .. "/spatial.csv")
  local text = assert(io.open(path)):read("a")
  tap.like(text, "\n# spatial; gravity %(0, 0, %-9%.81%) m/s%^2", "the CSV header names a spatial system")
  tap.like(text, "\n# joint rod_slider: universal, slider ", "and its joints")
  tap.like(text, "\nt %[s%],slider%.y %[m%],slider%.vy %[m/s%],motor%.torque %[N m%]",
    "column names with units")
  local plot = require "plot"
  local png = plot.figure{ "slider", x = run.t, y = run["slider.y"], xlabel = "t [s]",
    ylabel = "y [m]" }:save(tmp .. "/slider.png")
  tap.ok(io.open(png) ~= nil, "a figure of a spatial run")
  os.execute("rm -rf '" .. tmp .. "'")
end

do -- the largest Lyapunov exponent of a damped rotor on a revolute joint: -c / (2 J)
  -- natural frequency w0 = sqrt(k / J) = 0.5 rad/s: the separation's angle part, carried by
  -- the quaternion as dtheta / 2, and its rate part, w0 dtheta, are then of one size, so its
  -- norm hardly oscillates as it decays (zeta = 0.1)
  local J, k, c = 0.02, 0.005, 0.002
  local sys = mech.spatial{}
  local rotor = sys:body{ name = "rotor", mass = 1, inertia = { 0.015, 0.015, J },
    axes = { x = { 0, 1, 0 }, y = { 0, 0, 1 } } } -- its z along world x
  local hinge = sys:revolute{ sys.ground, rotor, at = { 0, 0, 0 }, axis = { 1, 0, 0 } }
  sys:rotational_spring{ hinge, k = k, c = c, angle = 0.1 }
  local lambda = sys:lyapunov{ t = 200, every = 0.5, rtol = 1e-10, atol = 1e-13 }
  -- the separation decays as exp(-c t / 2 J) within a factor of about 1.2 that oscillates:
  -- 200 s leave an error of about log(1.2) / 200 = 1e-3
  tap.near(lambda, -c / (2 * J), 0.002, string.format("lambda = %.4f 1/s, -c / 2J = %.4f", lambda,
    -c / (2 * J)))
end

-- A joint that turns more than half a turn in a step counts its turns: its angle is read near
-- where the last step's angle and rate lead (it once read the angle within pi of the last step's,
-- skipping a turn back at every step of more than pi).
do
  -- driven at 100 rad/s, RK4 steps of 0.04 s: 4 rad a step
  local sys = mech.spatial{ gravity = { 0, 0, -9.81 } }
  local b = sys:body{ name = "rotor", mass = 1, inertia = { 0.1, 0.1, 0.2 } }
  local j = sys:revolute{ sys.ground, b, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, name = "bearing" }
  sys:drive{ j, speed = 100, name = "motor" }
  local run = sys:simulate{ t = 0.4, method = "rk4", h = 0.04, report = 0.01, record = { "bearing.angle" } }
  local e = 0
  for i = 1, #run do e = math.max(e, math.abs(run["bearing.angle"][i] - 100 * run.t[i])) end
  tap.ok(e < 1e-9, "a driven joint turning 4 rad a step: its angle channel is 100 t at every row", e)

  -- a free rotor on a rotational spring: theta = w0 / wn sin(wn t), 3.5 rad a step at first;
  -- RK4's own error at that step is 0.68 rad, a turn skipped 2 pi
  local I, k, w0 = 0.2, 1, 100
  local wn = math.sqrt(k / I)
  local s2 = mech.spatial{ gravity = { 0, 0, 0 } }
  local b2 = s2:body{ name = "rotor", mass = 1, inertia = { 0.1, 0.1, I }, omega = { 0, 0, w0 } }
  local j2 = s2:revolute{ s2.ground, b2, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, name = "bearing" }
  s2:rotational_spring{ j2, k = k, name = "spring" }
  run = s2:simulate{ t = 1, method = "rk4", h = 0.035, report = 0.005, record = { "bearing.angle", "spring.torque" } }
  local ea, et = 0, 0
  for i = 1, #run do
    ea = math.max(ea, math.abs(run["bearing.angle"][i] - w0 / wn * math.sin(wn * run.t[i])))
    et = math.max(et, math.abs(run["spring.torque"][i] + k * run["bearing.angle"][i]))
  end
  tap.ok(ea < 1, "a rotational spring's joint turning 3.5 rad a step: no turn skipped (within 1 rad of the closed form)", ea)
  tap.ok(et < 1e-12, "and its torque is -k times that angle", et)
end

tap.done()
