-- SPDX-License-Identifier: MIT
-- Force elements, drivers and joint variants against closed forms.
local tap = require "tap"
local sc = require "slidercrank"

local tight = { method = "dopri5", rtol = 1e-11, atol = 1e-13 }
local function sim(sys, opts)
  for k, v in pairs(tight) do if opts[k] == nil then opts[k] = v end end
  return sys:simulate(opts)
end

-- Largest |a[i] - f(t[i])| over a run's rows.
local function worst(run, channel, f)
  local w, col = 0, run[channel]
  for i = 1, #run do w = math.max(w, math.abs(col[i] - f(run.t[i]))) end
  return w
end

do -- forced undamped oscillator: built-in spring, Lua spring law, harmonic force
  local m, k, F0, W = 2.0, 800.0, 3.0, 13.0
  local w = math.sqrt(k / m)
  -- from rest at x = 0: x = F0 / (m (w^2 - W^2)) (sin W t - (W / w) sin w t)
  local function exact(t) return F0 / (m * (w * w - W * W)) * (math.sin(W * t) - W / w * math.sin(w * t)) end
  local amp = F0 / (m * math.abs(w * w - W * W)) * 2
  for _, variant in ipairs{ "k", "law" } do
    local sys = mech.planar{}
    local b = sys:body{ name = "b", mass = m, inertia = 1 }
    sys:prismatic{ sys.ground, b, axis = { 1, 0 } }
    if variant == "k" then
      sys:spring{ sys.ground, b, at = { { -0.5, 0 }, { 0, 0 } }, k = k, name = "s" }
    else
      sys:spring{ sys.ground, b, at = { { -0.5, 0 }, { 0, 0 } }, name = "s",
        law = function(len, rate) return k * (len - 0.5) end }
    end
    sys:force{ b, amplitude = { F0, 0 }, omega = W, name = "drive" }
    local run = sim(sys, { t = 3, report = 0.01, record = { "b.x", "s.f", "drive.fx", "system.balance" } })
    tap.ok(worst(run, "b.x", exact) < 1e-8 * amp,
      string.format("spring (%s) + harmonic force: x(t) is the closed form (%.1e m)", variant,
        worst(run, "b.x", exact)))
    tap.ok(worst(run, "drive.fx", function(t) return F0 * math.sin(W * t) end) < 1e-12,
      "the force channel is F0 sin(W t)")
    tap.ok(worst(run, "s.f", function(t) return k * exact(t) end) < 1e-8 * k * amp,
      "the spring tension is k x")
    local bal = run["system.balance"]
    tap.ok(math.max(bal:max(), -bal:min()) < 1e-9, "energy balance closes with the work of the force")
  end
end

do -- damped oscillator: the dissipated energy closes the balance
  local sys = mech.planar{}
  local b = sys:body{ name = "b", mass = 1, inertia = 1, velocity = { 2, 0 } }
  sys:prismatic{ sys.ground, b, axis = { 1, 0 } }
  sys:spring{ sys.ground, b, at = { { -1, 0 }, { 0, 0 } }, k = 100, c = 0.8 }
  local run = sim(sys, { t = 5, report = 0.01,
    record = { "system.energy", "system.dissipated", "system.balance" } })
  local n = #run
  local E0, En, D = run["system.energy"][1], run["system.energy"][n], run["system.dissipated"][n]
  tap.near(E0, 2, 1e-12, "initial energy m v^2 / 2")
  tap.ok(En < 0.1 * E0, "the damper takes most of it")
  tap.near(E0 - En, D, 1e-9, "what is lost is what the damper dissipated")
end

do -- torsional oscillator: omega = sqrt(k / J)
  local J, k = 0.02, 5.0
  local sys = mech.planar{}
  local disk = sys:body{ name = "disk", mass = 1, inertia = J, angle = 0.3 }
  sys:revolute{ sys.ground, disk, at = { 0, 0 } }
  sys:rotational_spring{ sys.ground, disk, k = k, angle = 0, name = "torsion" }
  local run = sim(sys, { t = 2, report = 0.01, record = { "disk.phi", "torsion.torque" } })
  local w = math.sqrt(k / J)
  tap.ok(worst(run, "disk.phi", function(t) return 0.3 * math.cos(w * t) end) < 1e-9,
    "phi = phi0 cos(sqrt(k/J) t)")
  tap.ok(worst(run, "torsion.torque", function(t) return -k * 0.3 * math.cos(w * t) end) < 1e-8,
    "the spring torque is -k phi")
end

do -- harmonic torque on a disk: omega' = T0 sin(W t) / J
  local J, T0, W = 0.5, 2.0, 4.0
  local sys = mech.planar{}
  local disk = sys:body{ name = "disk", mass = 1, inertia = J }
  sys:revolute{ sys.ground, disk, at = { 0, 0 } }
  sys:torque{ disk, amplitude = T0, omega = W }
  local run = sim(sys, { t = 2, report = 0.01, record = { "disk.omega" } })
  -- rtol 1e-11 bounds each step's error; ~170 steps accumulate to about 1e-10 of omega ~ 2
  tap.ok(worst(run, "disk.omega", function(t) return T0 / (J * W) * (1 - math.cos(W * t)) end) < 1e-9,
    "omega = T0 (1 - cos W t) / (J W)")
end

do -- a force fixed in a spinning body's frame
  local m, F, w = 2.0, 1.5, 3.0
  local sys = mech.planar{}
  local b = sys:body{ name = "b", mass = m, inertia = 0.1, omega = w }
  sys:force{ b, value = { 0, F }, frame = "body" }
  local run = sim(sys, { t = 2, report = 0.01, record = { "b.vx", "b.vy", "b.omega" } })
  -- a = F/m (-sin w t, cos w t): v = F / (m w) (cos w t - 1, sin w t)
  tap.ok(worst(run, "b.vx", function(t) return F / (m * w) * (math.cos(w * t) - 1) end) < 1e-10
    and worst(run, "b.vy", function(t) return F / (m * w) * math.sin(w * t) end) < 1e-10,
    "a body-frame force turns with the body")
  tap.ok(worst(run, "b.omega", function() return w end) < 1e-12, "and, applied at the centre, makes no torque")
end

do -- Lua force function = the same constant force
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  local b = sys:body{ name = "b", mass = 3, inertia = 1 }
  sys:force{ b, fn = function(t, x, y, phi, vx, vy, om) return 6, 0, 0 end }
  local run = sim(sys, { t = 1, report = 0.1, record = { "b.x", "b.y" } })
  tap.ok(worst(run, "b.x", function(t) return t * t end) < 1e-12
    and worst(run, "b.y", function(t) return -9.81 / 2 * t * t end) < 1e-12,
    "a Lua force and gravity: x = F t^2 / 2m, y = -g t^2 / 2")
end

-- Slider-crank driven by a motion law, with and without its derivatives.
local function crank_motion(motion)
  local r, l = 0.05, 0.12
  local sys = mech.planar{}
  local crank = sys:body{ name = "crank", mass = 0.17, inertia = 1e-4, at = { r / 2, 0 } }
  local rod = sys:body{ name = "rod", mass = 0.25, inertia = 4e-4, at = { r + l / 2, 0 } }
  local slider = sys:body{ name = "slider", mass = 0.14, at = { r + l, 0 } }
  local bearing = sys:revolute{ sys.ground, crank, at = { 0, 0 } }
  sys:revolute{ crank, rod, at = { r, 0 } }
  sys:revolute{ rod, slider, at = { r + l, 0 } }
  sys:prismatic{ sys.ground, slider, axis = { 1, 0 } }
  return sys, crank, bearing, sc.kinematics{ crank = r, rod = l }
end

local A, W = 1.2, 7.0
local function th(t) return A * math.sin(W * t), A * W * math.cos(W * t), -A * W * W * math.sin(W * t) end

do
  local sys, crank, _, k = crank_motion()
  sys:drive{ crank, motion = th }
  local run = sim(sys, { t = 1, report = 0.005, record = { "slider.x", "slider.ax" } })
  tap.ok(worst(run, "slider.x", function(t) return (k(th(t))) end) < 1e-10,
    "a motion law (value, speed, acceleration) drives the crank")
  tap.ok(worst(run, "slider.ax", function(t) return select(3, k(th(t))) end) < 1e-6,
    "the slider acceleration includes the crank's angular acceleration")
end

do
  local sys, crank, _, k = crank_motion()
  sys:drive{ crank, motion = function(t) return (th(t)) end }
  local run = sim(sys, { t = 1, report = 0.005, record = { "slider.x", "slider.ax" } })
  -- five-point differences with h = 1e-3 s: truncation A W^6 h^4 / 90 ~ 2e-9 rad/s^2,
  -- rounding eps A / h^2 ~ 3e-10: the slider follows the closed form to ~1e-10 m
  tap.ok(worst(run, "slider.x", function(t) return (k(th(t))) end) < 1e-9,
    "a motion law giving only the value: derivatives by differences")
  tap.ok(worst(run, "slider.ax", function(t) return select(3, k(th(t))) end) < 1e-5,
    "accurately enough for the accelerations")
end

do -- a joint-angle driver on the ground bearing equals the body-angle driver
  local sys, _, bearing, k = crank_motion()
  sys:drive{ bearing, speed = 100, name = "motor" }
  local run = sim(sys, { t = 0.1, report = 0.001, record = { "slider.x", "motor.angle" } })
  tap.ok(worst(run, "slider.x", function(t) return (k(100 * t)) end) < 1e-10,
    "a revolute joint driven at constant speed")
  tap.ok(worst(run, "motor.angle", function(t) return 100 * t end) < 1e-9, "its angle channel")
end

do -- prismatic distance driver: the driver force is m s''
  local m = 0.8
  local sys = mech.planar{}
  local s = sys:body{ name = "s", mass = m, at = { 0.3, 0 } }
  local guide = sys:prismatic{ sys.ground, s, axis = { 1, 0 } }
  sys:drive{ guide, name = "screw", motion = function(t)
    return 0.1 * math.sin(2 * t), 0.2 * math.cos(2 * t), -0.4 * math.sin(2 * t) end }
  local run = sim(sys, { t = 2, report = 0.01, record = { "s.x", "screw.force", "screw.distance" } })
  tap.ok(worst(run, "s.x", function(t) return 0.3 + 0.1 * math.sin(2 * t) end) < 1e-10,
    "a prismatic joint driven by distance")
  tap.ok(worst(run, "screw.force", function(t) return -0.4 * m * math.sin(2 * t) end) < 1e-8,
    "the driver pushes with m s''")
end

-- Physical pendulum period from upward crossings of x = 0.
local function period(run)
  local ts = {}
  for _, e in ipairs(run.events) do ts[#ts + 1] = e.t end
  return (ts[#ts] - ts[1]) / (#ts - 1)
end

do -- a fixed joint makes two bodies one
  local g, th0 = 9.81, 0.01
  local sys = mech.planar{ gravity = { 0, -g } }
  local c, s = math.cos(th0 - math.pi / 2), math.sin(th0 - math.pi / 2)
  local a = sys:body{ name = "a", mass = 1, inertia = 0.02, at = { 0.5 * c, 0.5 * s }, angle = th0 - math.pi / 2 }
  local b = sys:body{ name = "b", mass = 0.5, inertia = 0.01, at = { 1.0 * c, 1.0 * s }, angle = th0 - math.pi / 2 }
  sys:revolute{ sys.ground, a, at = { 0, 0 } }
  sys:fixed{ a, b, at = { 0.75 * c, 0.75 * s }, name = "weld" }
  local run = sim(sys, { t = 10, report = 0.01, record = { "weld.violation" },
    events = { { channel = "a.x", value = 0, direction = 1 } } })
  -- combined body: m = 1.5 at 2/3 m from the pivot; inertia about the pivot
  local Jp = 0.02 + 1 * 0.5 ^ 2 + 0.01 + 0.5 * 1.0 ^ 2
  local T = 2 * math.pi * math.sqrt(Jp / (1.5 * g * (2 / 3))) * (1 + th0 * th0 / 16)
  tap.near(period(run) / T, 1, 1e-7, "the welded pair swings as one body")
  tap.ok(run["weld.violation"]:max() < 1e-10, "and the weld holds")
end

do -- penalty joints approach the Lagrange ones as the stiffness grows
  local function slider_x(method, k)
    local sys, crank = crank_motion()
    sys:drive{ crank, speed = 300 }
    local run
    if method == "penalty" then
      -- rebuild with a penalty guide
      local r, l = 0.05, 0.12
      sys = mech.planar{}
      crank = sys:body{ name = "crank", mass = 0.17, inertia = 1e-4, at = { r / 2, 0 } }
      local rod = sys:body{ name = "rod", mass = 0.25, inertia = 4e-4, at = { r + l / 2, 0 } }
      local slider = sys:body{ name = "slider", mass = 0.14, inertia = 1e-5, at = { r + l, 0 } }
      sys:revolute{ sys.ground, crank, at = { 0, 0 } }
      sys:revolute{ crank, rod, at = { r, 0 } }
      sys:revolute{ rod, slider, at = { r + l, 0 } }
      sys:prismatic{ sys.ground, slider, axis = { 1, 0 }, method = "penalty", k = { k, k / 100 },
        c = { 2 * math.sqrt(k * 0.14), 2 * math.sqrt(k / 100 * 1e-5) }, name = "guide" }
      sys:drive{ crank, speed = 300 }
    end
    run = sys:simulate{ t = 0.05, report = 1e-3, method = "bdf", rtol = 1e-8, atol = 1e-11,
      record = { "slider.y" } }
    return math.max(run["slider.y"]:max(), -run["slider.y"]:min())
  end
  local y6, y8 = slider_x("penalty", 1e6), slider_x("penalty", 1e8)
  tap.ok(y8 < y6 / 30, string.format("penalty guide: the slider leaves its axis by %.1e m at k = 1e6, "
    .. "%.1e m at k = 1e8 (error ~ force / k)", y6, y8))
  tap.ok(slider_x("lagrange") < 1e-10, "the Lagrange guide holds it on the axis")
end

do -- point channels: accelerations agree with differences of the velocities
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  local bob = sys:body{ name = "bob", mass = 1, inertia = 0.05, at = { 0.4, 0 } }
  bob:point{ name = "tip", body_at = { 0.3, 0.1 } }
  sys:revolute{ sys.ground, bob, at = { 0, 0 } }
  local run = sim(sys, { t = 1, report = 1e-3, record = { "bob.tip.vx", "bob.tip.ax", "bob.tip.x" } })
  local vx, ax, x, t = run["bob.tip.vx"], run["bob.tip.ax"], run["bob.tip.x"], run.t
  local wa, wv = 0, 0
  for i = 2, #run - 1 do
    local h = t[i + 1] - t[i - 1]
    wa = math.max(wa, math.abs((vx[i + 1] - vx[i - 1]) / h - ax[i]))
    wv = math.max(wv, math.abs((x[i + 1] - x[i - 1]) / h - vx[i]))
  end
  -- h = 2e-3 s on motions of ~1 s: central differences err by ~h^2/6 |x'''| ~ 1e-5 of the values
  tap.ok(wv < 1e-4 and wa < 1e-3, string.format("point velocity and acceleration are the derivatives "
    .. "of its position (%.1e, %.1e)", wv, wa))
end

tap.done()
