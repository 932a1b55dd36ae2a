-- SPDX-License-Identifier: MIT
-- sys:simulate{ motion = dt }: the run keeps the model's whole state every dt seconds, from the
-- dense output (not the steps' ends): a thrown body's states on its parabola at every grid
-- time, equal to the recorded rows where the grids meet, up to where a run fails or stops,
-- the same bits on a second run; bad values and run:state's errors.
local tap = require "tap"

local g = 9.81
local function thrown()
  local sys = mech.planar{ gravity = { 0, -g } }
  sys:body{ name = "ball", mass = 1, inertia = 1, at = { 0, 0 }, velocity = { 1, 2 }, omega = 3 }
  return sys
end

-- A free body's state is (x, y, phi, vx, vy, omega) and then the energy accounts.
local sys = thrown()
local run = sys:simulate{ t = 1, report = 0.01, motion = 0.01, rtol = 1e-3, record = { "ball.y" },
  quiet = true }
tap.is(run.motion, 101, "1 s every 0.01 s: 101 states kept (t = 0 included)")
tap.ok(run.stats.steps < 20, "in far fewer steps (" .. run.stats.steps .. "): the dense output's")
local worst, tgrid = 0, 0
for k = 1, run.motion do
  local t, y = run:state(k)
  tgrid = math.max(tgrid, math.abs(t - (k - 1) * 0.01))
  -- DOPRI5 and its dense output are exact on a quadratic, to rounding
  local want = { t, 2 * t - g * t * t / 2, 3 * t, 1, 2 - g * t, 3 }
  for i = 1, 6 do worst = math.max(worst, math.abs(y[i] - want[i])) end
end
tap.ok(tgrid < 1e-15, "the states' times are k dt")
tap.ok(worst < 1e-13, string.format("every state on the closed-form motion (worst %.2g)", worst))
local _, y0 = run:state(1)
tap.is(#y0, 10, "a state is the model's state vector (6 coordinates, 4 energy accounts)")
local col = run:column("ball.y")
local same = true
for r = 1, run.rows do
  local _, y = run:state(r)
  same = same and y[2] == col[r]
end
tap.ok(same, "where the grids meet, the state is the one the row was recorded from, bit for bit")

local again = thrown():simulate{ t = 1, report = 0.01, motion = 0.01, rtol = 1e-3, quiet = true }
local bits = again.motion == run.motion
for k = 1, run.motion do
  local _, a = run:state(k)
  local _, b = again:state(k)
  for i = 1, #a do bits = bits and a[i] == b[i] end
end
tap.ok(bits, "a second run keeps the same states, bit for bit")

-- a grid that does not divide the end: the last state is before it
run = thrown():simulate{ t = 0.1, motion = 0.03, quiet = true }
tap.is(run.motion, 4, "t = 0.1 every 0.03 s: 0, 0.03, 0.06, 0.09")
-- without the option nothing is kept
run = thrown():simulate{ t = 0.1, quiet = true }
tap.is(run.motion, 0, "no motion step: no state kept")
tap.raises(function() run:state(1) end, "run:state: the run kept no states (give sys:simulate a 'motion' step)",
  "run:state on a run that kept none says how to keep them")

-- a run that stops at an event keeps the states up to the stop
run = thrown():simulate{ t = 2, motion = 0.01, quiet = true,
  events = { { channel = "ball.y", value = -1, direction = -1, action = "stop" } } }
local tstop = (2 + math.sqrt(4 + 2 * g)) / g
local tl = select(1, run:state(run.motion))
tap.is(run.status, "stopped", "the event stops the run")
tap.ok(tl <= tstop and tl > tstop - 0.01, string.format("the last state (t = %.4f) is the grid's last before the stop (%.4f)", tl, tstop))

-- a run that fails keeps the states up to the failure
local fall = mech.planar{ gravity = { 0, -g } }
local b = fall:body{ name = "ball", mass = 1, inertia = 1, at = { 0, 0.1 }, velocity = { 0, -1 } }
fall:contact{ b, body_at = { 0, 0 }, surface = { at = { 0, 0 }, normal = { 0, 1 } },
  law = mech.contact.hertz{ K = 1e100 }, name = "floor" }
local msg
run, msg = fall:simulate{ t = 1, h = 1e-3, method = "rk4", report = 1e-2, motion = 1e-3, quiet = true,
  on_error = "return" }
tap.is(run.status, "failed", "a run that blows up fails")
local tf = tonumber(msg:match("t = ([%d.]+)"))
tl = select(1, run:state(run.motion))
tap.ok(run.motion >= 70 and tl <= tf, string.format("it keeps the %d states before the failure at %.4f s", run.motion, tf))

-- errors
for _, bad in ipairs{ 0, -1, math.huge, 0 / 0, "fast", true } do
  tap.raises(function() thrown():simulate{ t = 1, motion = bad, quiet = true } end,
    "sys:simulate: field 'motion' must be a time step > 0 [s] (got ", "motion = " .. tostring(bad) .. " is refused")
end
tap.raises(function() thrown():simulate{ t = 1, motion = 1e-12, quiet = true } end,
  "motion = 1e-12 s keeps 1e+12 states to t = 1 s, more than the limit of 1e+09: take a longer motion step",
  "a grid with more states than the limit is refused before the run")
run = thrown():simulate{ t = 0.1, motion = 0.05, quiet = true }
tap.raises(function() run:state(0) end, "run:state: argument #1 must be a state index from 1 to 3 (got 0)", "state 0")
tap.raises(function() run:state(4) end, "from 1 to 3 (got 4)", "a state past the last")
tap.raises(function() run:state("x") end, "run:state", "a state index that is not a number")
tap.done()
