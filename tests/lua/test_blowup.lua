-- SPDX-License-Identifier: MIT
-- Runs that blow up stop and say why: non-finite values, runaway states, stiffness,
-- collapsing steps and failing integrators end the run with a message naming the time,
-- the step and the entity, and the rows recorded so far are kept.
local tap = require "tap"

do -- finite terms whose sum overflows (issue 14, item 3)
  -- gravity 1e308 on two bodies: every force and acceleration is finite, their sum is not
  local sys = mech.planar{ gravity = { 0, -1e308 } }
  sys:body{ name = "a", mass = 1, inertia = 1 }
  sys:body{ name = "b", mass = 1, inertia = 1, at = { 1, 0 } }
  tap.is(sys:value("b.ay"), -1e308, "the model evaluates: b.ay = -1e308 (no read through a NULL state)")
  local run, msg = sys:simulate{ t = 0.01, h = 1e-3, method = "rk4", quiet = true, on_error = "return",
    record = { "a.y" } }
  tap.is(run.status, "failed", "RK4: the run fails")
  tap.is(msg, "simulation failed at t = 0 s (step 1): body 'a' vy is not finite at t = 0.001",
    "where its step overflows, naming the body and the quantity")
  tap.is(#run, 1, "the row at t = 0 is kept")
  local fall = mech.planar{ gravity = { 0, -1e300 } }
  fall:body{ name = "a", mass = 1, inertia = 1 }
  run, msg = fall:simulate{ t = 0.01, h = 1e-3, method = "rk4", quiet = true, on_error = "return",
    record = { "a.y" } }
  tap.like(msg, "^simulation failed at t = 0.001 s %(step 1%): the kinetic energy of body 'a' is not "
    .. "finite at t = 0.001 %(at %(0, %-5e%+293%) m", "an energy that overflows stops the run, naming the body")
  run, msg = sys:simulate{ t = 0.01, quiet = true, on_error = "return", record = { "a.y" } }
  tap.like(msg, "derivative too large to control at t = 0 .*%(at fault: body 'a' vy%)",
    "DOPRI5: the derivative too large for its tolerances is named")
  local fast = mech.planar{}
  fast:body{ name = "c", mass = 1, inertia = 1, velocity = { 1e300, 0 } }
  tap.raises(function() fast:simulate{ t = 1 } end,
    "sys:simulate: the kinetic energy of body 'c' is not finite at t = 0", "an infinite kinetic energy at the start")
  local tiny = mech.planar{}
  tiny:body{ name = "d", mass = 1e-320, inertia = 1 }
  tap.raises(function() tiny:simulate{ t = 1 } end, "body 'd': mass 9.99989e-321 is too small (its inverse is not finite)",
    "a mass whose inverse overflows")
end

tap.done()
