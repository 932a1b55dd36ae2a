-- SPDX-License-Identifier: MIT
-- Largest Lyapunov exponent: negative for a stable linear system (its decay rate),
-- positive for the chaotic Duffing oscillator.
local tap = require "tap"

do -- damped oscillator m x'' + c x' + k x = 0: both exponents are -c / 2m
  local m, c, k = 1.0, 0.4, 4.0
  local sys = mech.planar{}
  local b = sys:body{ name = "b", mass = m, inertia = 1, velocity = { 1, 0 } }
  sys:prismatic{ sys.ground, b, axis = { 1, 0 } }
  sys:spring{ sys.ground, b, at = { { -1, 0 }, { 0, 0 } }, k = k, c = c }
  local lambda, h = sys:lyapunov{ t = 200, every = 0.5, rtol = 1e-10, atol = 1e-13 }
  -- the (x, v) norm of the separation oscillates within a factor omega = 2 while it decays,
  -- so a 200 s estimate is off by at most log(2) / 200 = 0.0035
  tap.near(lambda, -c / (2 * m), 0.005, string.format("stable linear system: lambda = %.4f, -c/2m = %.4f",
    lambda, -c / (2 * m)))
  tap.is(#h.t, 400, "one estimate per renormalisation")
  tap.near(h.estimate[#h.estimate], lambda, 0, "the last estimate is the result")
end

local function duffing(gamma)
  -- x'' + 0.3 x' - x + x^3 = gamma cos(1.2 t): a body on a guide, a Lua spring law for
  -- the double-well force and the damping, and a harmonic force
  local sys = mech.planar{}
  local b = sys:body{ name = "b", mass = 1, inertia = 1, at = { 1, 0 } }
  sys:prismatic{ sys.ground, b, axis = { 1, 0 } }
  sys:spring{ sys.ground, b, at = { { -10, 0 }, { 1, 0 } }, law = function(l, rate)
    local x = l - 10
    return -x + x * x * x + 0.3 * rate
  end }
  sys:force{ b, amplitude = { gamma, 0 }, omega = 1.2, phase = math.pi / 2 }
  return sys
end

do
  local chaotic = duffing(0.5):lyapunov{ t = 1000, transient = 100, every = 1, rtol = 1e-9, atol = 1e-12 }
  -- published estimates for these parameters are about 0.1 to 0.15 1/s
  tap.ok(chaotic > 0.05 and chaotic < 0.25,
    string.format("chaotic Duffing oscillator (gamma = 0.5): lambda = %.3f > 0", chaotic))
  local periodic = duffing(0.2):lyapunov{ t = 1000, transient = 100, every = 1, rtol = 1e-9, atol = 1e-12 }
  -- on a stable periodic orbit the exponents sum to -0.3 (the damping): both negative
  tap.ok(periodic < -0.05, string.format("periodic Duffing response (gamma = 0.2): lambda = %.3f < 0", periodic))
end

do -- errors
  local sys = mech.planar{}
  local w = sys:body{ name = "w", mass = 1, inertia = 1 }
  sys:revolute{ sys.ground, w, at = { 0, 0 } }
  sys:drive{ w, speed = 1 }
  tap.raises(function() sys:lyapunov{ t = 10, every = 1 } end,
    "sys:lyapunov: the joints and drivers leave no freedom to move", "no degree of freedom")
  local free = mech.planar{}
  free:body{ name = "f", mass = 1, inertia = 1 }
  tap.raises(function() free:lyapunov{ t = 10 } end, "field 'every' is required", "every is required")
  tap.raises(function() free:lyapunov{ t = 10, every = 1, transient = 20 } end,
    "need 0 <= transient < end time", "transient before the end")
  tap.raises(function() free:lyapunov{ t = 10, every = 1, d0 = 0 } end, "d0 must be > 0", "d0 > 0")
end

tap.done()
