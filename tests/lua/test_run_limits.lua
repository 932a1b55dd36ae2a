-- SPDX-License-Identifier: MIT
-- Runs that cannot end must not start (issue 14): every option that sets a count of steps,
-- rows or renormalisations has a limit, and the error names the option, the count it
-- implies and what to do.  An adaptive run, whose steps no option counts, fails when at its
-- pace it would take more steps than that.  Each call here used to run for hours or for
-- ever: a watchdog (a callback that raises after a number of calls) stands in for the hang.
local tap = require "tap"

-- An oscillator; `watch` Lua calls (an event function, called at least once a step, or with
-- force = true a force, called at every evaluation) raise "watchdog" instead of a hang.
local function model(watch, force)
  local sys = mech.planar{}
  local b = sys:body{ name = "b", mass = 1, inertia = 1, velocity = { 1, 0 } }
  sys:spring{ sys.ground, b, k = 1, name = "s" }
  local calls = 0
  local function watchdog()
    calls = calls + 1
    if calls > watch then error("watchdog: still running after " .. watch .. " calls") end
  end
  if force then
    sys:force{ b, name = "watchdog", fn = function() watchdog() return 0, 0, 0 end }
  end
  local events = { { name = "watchdog", fn = function() watchdog() return 1 end } }
  return sys, not force and events or nil
end

local function simulate(o, watch)
  local sys, events = model(watch or 1000)
  o.events, o.quiet = events, true
  return function() return sys:simulate(o) end
end

do -- a fixed step: t / h steps
  tap.raises(simulate{ t = 1, method = "rk4", h = 1e-12, report = 0.5 },
    "sys:simulate: h = 1e-12 s makes 1e+12 steps to t = 1 s, more than max_steps = 1e+09: "
    .. "take a longer h or a shorter t (or raise max_steps)", "rk4: h = 1e-12 over 1 s")
  tap.raises(simulate{ t = 1, method = "rk4", h = 1e-320, report = 0.5 },
    "sys:simulate: h = 9.99989e-321 s makes 1e+320 steps to t = 1 s", "rk4: a subnormal h")
  tap.raises(simulate{ t = 1e300, method = "rk4", h = 1, report = 1e299 },
    "sys:simulate: h = 1 s makes 1e+300 steps to t = 1e+300 s", "rk4: a huge t")
  tap.raises(simulate{ t = 1, method = "rk4", h = 2 },
    "sys:simulate: h = 2 s is longer than the run (t = 1 s): take h <= t",
    "rk4: a step longer than the run (it took one step of 1 s, not 2)")
  local sys = model(1e6)
  local run = sys:simulate{ t = 1, method = "rk4", h = 1, quiet = true }
  tap.is(run.stats.steps, 1, "rk4: h = t is one step")
end

do -- the largest step of an adaptive method: at least t / max_step steps
  for _, method in ipairs{ "dopri5", "bdf" } do
    tap.raises(simulate{ t = 1, method = method, max_step = 1e-12, report = 0.5 },
      "sys:simulate: max_step = 1e-12 s makes at least 1e+12 steps to t = 1 s, more than "
      .. "max_steps = 1e+09: take a longer max_step or leave it out", method .. ": max_step = 1e-12 over 1 s")
  end
  -- bdf took 1e-320 as "no step at all": "step size underflow at t = 0 (h = 0)"
  tap.raises(simulate{ t = 1, method = "bdf", max_step = 1e-320 },
    "sys:simulate: max_step = 9.99989e-321 s makes at least 1e+320 steps", "bdf: a subnormal max_step")
end

do -- report rows: t / report + 1, and their memory (allocated at the start)
  tap.raises(simulate{ t = 1, report = 1e-10 },
    "sys:simulate: report = 1e-10 s makes 1e+10 rows to t = 1 s, more than the limit of 1e+09: "
    .. "take a longer report step", "report = 1e-10 over 1 s")
  tap.raises(simulate{ t = 1, h = 1e-320 },
    "sys:simulate: report = 9.99989e-321 s makes 1e+320 rows", "the report step defaults to h")
  -- 5e8 rows of 10001 values: 40 TB, refused before any is allocated (the sanitizer build
  -- stopped at the allocation, the normal one said "out of memory")
  local record = {}
  for i = 1, 10000 do record["c" .. i] = function() return 0 end end
  local msg = tap.raises(simulate{ t = 1, report = 2e-9, record = record },
    "more than this machine's memory (", "rows that do not fit in memory")
  tap.like(msg, "sys:simulate: 500000001 rows of t and 10000 channels take 4e%+13 bytes, "
    .. "more than this machine's memory %([%d.]+e%+%d+ bytes%): record fewer channels or take a longer "
    .. "report step$", "naming the rows, the channels and the bytes")
end

do -- an adaptive run that would need more than 1e9 steps fails once 1e5 steps show its pace
  -- (bdf fails the first step of t = 1e300 s: CVODE's first step is 5e132 s)
  for _, case in ipairs{ { "dopri5", 1e300 }, { "bdf", 1e20 } } do
    local method, t = case[1], case[2]
    local sys, events = model(3e5)
    local run, msg = sys:simulate{ t = t, method = method, report = t / 10, quiet = true,
      on_error = "return", events = events, record = { "b.x" } }
    tap.is(run.status, "failed", string.format("%s: a run of t = %g s fails", method, t))
    tap.like(msg, "^simulation failed at t = [%d.e%+]+ s %(step 100000%): at the pace of its 100000 steps to t "
      .. "= [%d.e%+]+ s %([%d.e%+%-]+ s a step%) the run would take about [%d.]+e%+%d+ steps to reach t = "
      .. string.format("%g", t):gsub("%+", "%%+") .. " s, more than max_steps = 1e%+09 %(largest error in [^)]+%); shorten t or loosen rtol and atol$", method .. ": at step 1e5, naming the pace")
    tap.is(#run, 1, method .. ": its row at t = 0 is kept")
    tap.ok(sys.last_run == run, method .. ": in sys.last_run")
  end
end

do -- sys:lyapunov: renormalisations, steps and pace
  local function lyapunov(o, watch)
    local sys = model(watch or 1000, true)
    return function() return sys:lyapunov(o) end
  end
  tap.raises(lyapunov{ t = 1, every = 1e-300 },
    "sys:lyapunov: every = 1e-300 s makes 1e+300 renormalisations from transient = 0 s to t = 1 s, "
    .. "more than the limit of 1e+08: take a longer every", "every = 1e-300")
  -- it returned NaN and no history
  tap.raises(lyapunov{ t = 1, every = 2 },
    "sys:lyapunov: every = 2 s is longer than the measured time (t - transient = 1 s): there would "
    .. "be no estimate", "every longer than t - transient")
  tap.raises(lyapunov{ t = 1, every = 0.5, transient = 0.8 }, "every = 0.5 s is longer than the measured time "
    .. "(t - transient = 0.2 s)", "every longer than t - transient, after a transient")
  tap.raises(lyapunov{ t = 1, every = 0.1, method = "rk4", h = 1e-12 },
    "sys:lyapunov: h = 1e-12 s makes 1e+12 steps to t = 1 s, more than max_steps = 1e+09",
    "rk4: h = 1e-12")
  tap.raises(lyapunov{ t = 1, every = 0.1, max_step = 1e-12 },
    "sys:lyapunov: max_step = 1e-12 s makes at least 1e+12 steps to t = 1 s", "max_step = 1e-12")
  local msg = select(2, pcall(lyapunov({ t = 1e300, every = 1e299 }, 2e6)))
  tap.like(msg, "sys:lyapunov: the reference trajectory failed at t = [%d.e%+]+ s %(step 100000%): "
    .. "at the pace of its 100000 steps to t = [%d.e%+]+ s %([%d.e%+%-]+ s a step%) the run would take about [%d.]+e%+30%d steps to "
    .. "reach t = 1e%+300 s", "t = 1e300: the pace fails the reference trajectory at step 1e5")
end

do -- a periodic event whose channel is more periods from its level than doubles can count
  -- (k + 1 == k): it was called an event that fired more than 256 times in one step
  local sys, events = model(1000)
  sys:entity("b"):point{ name = "p", at = { 1, 0 } }
  events[2] = { name = "tick", channel = "b.p.x", value = 0, period = 1e-17, direction = 1 }
  local run, msg = sys:simulate{ t = 1, quiet = true, on_error = "return", events = events }
  tap.is(msg, "simulation failed at t = 0.000999000999 s (step 1): event 'tick': the channel is 1e+17 periods "
    .. "from its level at t = 0.000999000999: the period is too small to count its crossings",
    "the period is too small to count the crossings")
  tap.is(run.status, "failed", "the run fails")

  -- a channel that spikes inside a step, at its cut: the levels passed between the step start
  -- and the cut were delivered one by one, here 1e15 (the watchdog is the force, which every
  -- evaluation calls)
  sys = mech.planar{}
  local b = sys:body{ name = "b", mass = 1, inertia = 1 }
  local calls = 0
  sys:force{ b, name = "spike", fn = function(t)
    calls = calls + 1
    if calls > 1e5 then error("watchdog: still running after 1e5 calls") end
    return (t > 0.0101 and t < 0.0102) and 1e15 or 0, 0, 0
  end }
  run, msg = sys:simulate{ t = 0.02, method = "rk4", h = 1e-3, quiet = true, on_error = "return", events = {
    { name = "tick", channel = "b.ax", value = 0.5, period = 1, direction = 1 },
    { name = "cut", fn = function(t) return t - 0.01015 end, action = "stop" } } }
  tap.is(msg, "simulation failed at t = 0.01015 s (step 11): event 'tick' fired more than 256 times in one step at "
    .. "t = 0.01015: limit the step size (max_step)", "a periodic event at the cut of a step: at most 256 too")
end

do -- a run that could not start is not returned (nor kept in sys.last_run): it was a
  -- "complete" run of no rows
  local sys = model(1000)
  local ok, msg = pcall(sys.simulate, sys, { t = 1, method = "rk4", h = -1, report = 0.1 })
  tap.is(msg, "sys:simulate: integrator option h = -1: rk4 needs a positive finite step",
    "an option the integrator refuses: the error, without 'results so far'")
  tap.ok(not ok and sys.last_run == nil, "no run in sys.last_run")
end

do -- max_steps: the limit is the user's to set
  local sys, events = model(1e6)
  local run, msg = sys:simulate{ t = 10, report = 1, quiet = true, max_steps = 5, on_error = "return",
    events = events, record = { "b.x" } }
  tap.is(run.status, "failed", "an adaptive run stops after max_steps steps")
  tap.like(msg, "^simulation failed at t = [%d.e%+%-]+ s %(step 6%): 6 steps to t = [%d.e%+%-]+ s, more than "
    .. "max_steps = 5", "naming the steps and the limit")
  tap.ok(#run >= 1 and sys.last_run == run, "keeping its rows")
  tap.raises(simulate{ t = 1, method = "rk4", h = 1e-3, max_steps = 999 },
    "h = 0.001 s makes 1e+03 steps to t = 1 s, more than max_steps = 999", "and a fixed step too")
  run = sys:simulate{ t = 1, method = "rk4", h = 1e-3, max_steps = 1000, quiet = true }
  tap.is(run.stats.steps, 1000, "1000 steps of max_steps = 1000 run")
  for _, bad in ipairs{ 0, -1, 0 / 0, "many" } do
    tap.raises(function() sys:simulate{ t = 1, max_steps = bad } end,
      "sys:simulate: field 'max_steps' must be a number >= 1 (math.huge: no limit)",
      "max_steps = " .. tostring(bad) .. " is refused")
  end
  tap.raises(function() sys:lyapunov{ t = 1, every = 0.1, max_steps = 0.5 } end,
    "sys:lyapunov: field 'max_steps' must be a number >= 1", "by sys:lyapunov too")
end

do -- a block set down on a floor with Dahl friction (found by the fuzzer): the bristles'
  -- rate sigma0 |v| / (mu fn) has no bound as the contact closes (fn -> 0), and DOPRI5's
  -- steps fell to 1e-12 s: 5e9 of them to t = 5 ms, hours of work.  The pace stops it after
  -- 1e5 steps, naming what holds the step down; BDF runs the same model in about 100.
  local function block(method)
    local sys = mech.planar{ gravity = { 0, -9.81 } }
    local b = sys:body{ name = "block", mass = 1, inertia = 0.01, at = { 0, 0.05 }, velocity = { -0.228, 0 } }
    sys:contact{ name = "c", b, body_at = { -0.05, -0.05 }, surface = { at = { 0, 0 }, normal = { 0, 1 } },
      law = mech.contact.hu_guo{ K = 137534.55, restitution = 0.1 },
      friction = mech.friction.dahl{ mu = 0.2477, sigma0 = 5209.88 } }
    return sys:simulate{ t = 0.005, method = method, quiet = true, on_error = "return", record = { "block.x" } }
  end
  local run, msg = block("dopri5")
  tap.is(run.status, "failed", "dopri5: the run stops")
  tap.ok(run.stats.steps <= 100000, "dopri5: within the first 1e5 steps (" .. run.stats.steps .. ")")
  tap.like(msg, "the run would take about [%d.]+e%+%d+ steps to reach t = 0.005 s, more than max_steps = 1e%+09 "
    .. "%(largest error in body 'block' [xy]%); %d+ of %d+ steps were rejected: a law too stiff for an "
    .. "explicit method %(try method = \"bdf\"%) or a force that jumps holds the step short$", "dopri5: naming the pace, the body and the remedy")
  run = block("bdf")
  tap.is(run.status, "complete", "bdf: the same run completes")
  tap.ok(run.stats.steps < 1000, "bdf: in " .. run.stats.steps .. " steps")
end

do -- a slider pulled by a spring whose law has a pole (l / rate; found by the fuzzer): DOPRI5 ran
  -- fast, then crawled at 5e-16 s steps, and the pace averaged from t = 0 let it go on for
  -- 5.3e6 steps; the pace over the last 1e5 steps stops it at step 2e5
  local s = mech.spatial{ gravity = { 0, 0, -9.81 } }
  local slider = s:body{ name = "slider", mass = 0.05, inertia = { 1.4e-4, 0.13, 0.13 },
    euler = { "zyx", -2.0696777278396006, 0.08919354451345796, 3.159255675058245 },
    velocity = { -0.45313180945070974, -0.09508089170559697, 0.6805725800367493 } }
  s:prismatic{ s.ground, slider, axis = { -0.0019013429534924242, 0.7664859469400316, 0.08588797881621568 } }
  s:spring{ s.ground, slider, at = { { 0.1, 0.38, 0.22 }, { 0.41, -0.27, -0.41 } },
    law = function(l, rate) return l / rate end }
  local run, msg = s:simulate{ t = 1e-3, quiet = true, on_error = "return", record = { "slider.x" } }
  tap.is(run.status, "failed", "a run that crawls after a fast start stops")
  tap.ok(run.stats.steps <= 200000, "within two windows of 1e5 steps (" .. run.stats.steps .. ")")
  tap.like(msg, "at the pace of its 100000 steps to t = [%d.e-]+ s %(", "naming the pace of the last steps")
end

do -- sys:lyapunov with RK4 and every shorter than h (found by the fuzzer): every interval is a
  -- step, 1e6 of them, which max_steps did not bound
  local p = mech.planar{ gravity = { 0, -9.81 } }
  local b = p:body{ name = "b", mass = 1, inertia = 0.1, at = { 0.5, 0 } }
  p:revolute{ p.ground, b, at = { 0, 0 } }
  tap.raises(function() p:lyapunov{ t = 1e-3, every = 1e-9, method = "rk4", h = 1e-4, max_steps = 1000 } end,
    "sys:lyapunov: every = 1e-09 s is shorter than h = 0.0001 s, so each of its 1e+06 renormalisations "
    .. "takes a step of its own, more than max_steps = 1000: take a longer every", "refused before it starts")
end

tap.done()
