-- SPDX-License-Identifier: MIT
-- Events that meet the model's own (a contact's onset and end cut the step there): every
-- located crossing is delivered once, in run.events, and run.stats.events counts that list.
local tap = require "tap"
local benchmarks = require "benchmarks"

local w = mech.rpm(5000)
local T = 2 * math.pi / w -- one revolution of benchmark A's crank

do -- a user event on the contact's own gap crosses at the very instant of each onset
  local sys = benchmarks.a{ clearance = benchmarks.a_clearance() }
  local run = sys:simulate{ t = T, report = 1e-5, rtol = 1e-6, atol = 1e-12, quiet = true,
    events = { { name = "closing", channel = "pin.gap", value = 0, direction = -1 } },
    record = { "pin.impacts", "pin.gap" } }
  local impacts = run["pin.impacts"][#run]
  tap.ok(impacts > 5, string.format("the journal strikes its bearing (%d impacts)", impacts))
  tap.is(#run.events, impacts, "each onset is listed as the user's event too")
  tap.is(run.stats.events, #run.events, "and counted once: stats.events is the length of the list")
  local ordered, closing = true, true
  for i, e in ipairs(run.events) do
    ordered = ordered and (i == 1 or e.t >= run.events[i - 1].t)
    local gap = e.values["pin.gap"]
    closing = closing and e.name == "closing" and gap <= 0 and gap > -1e-7
  end
  tap.ok(ordered, "in time order")
  -- at the contact's located onset: on the closed side, by the location error (~1e-9 m)
  tap.ok(closing, "each at the gap's zero, on its closed side")
end

do -- a periodic event located in the part of a step that a contact's onset cut off
  local sys = benchmarks.a{ clearance = benchmarks.a_clearance() }
  local P, level = math.pi / 64, 1e-3
  for _, method in ipairs{ "dopri5", "bdf" } do
    local run = sys:simulate{ t = 2 * T, report = 1e-5, method = method, rtol = 1e-6, atol = 1e-12,
      quiet = true, events = { { channel = "crank.phi", value = level, period = P, direction = 1 } },
      record = { "pin.impacts" } }
    -- the crank turns at w exactly: it passes level + k P for k = 0 .. floor((w t - level) / P)
    local want = math.floor((w * 2 * T - level) / P) + 1
    tap.is(#run.events, want, string.format("%s: every crank angle level + k pi/64 is listed (%d, with %d impacts)",
      method, want, run["pin.impacts"][#run]))
    tap.is(run.stats.events, want, method .. ": and counted once")
    local worst = 0
    for k, e in ipairs(run.events) do worst = math.max(worst, math.abs(w * e.t - level - (k - 1) * P)) end
    tap.ok(worst < 1e-6, string.format("%s: each at its angle (worst %.1e rad)", method, worst))
  end
end

tap.done()
