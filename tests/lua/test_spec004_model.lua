-- SPDX-License-Identifier: MIT
-- Module spec004: the slider-crank of [Sci. Rep. 2023] (paper 004 of
-- mechlua-references(7)) as a pure function of its parameters: the model it builds, its
-- laws and stiffnesses, the channels and events of the studies, and its argument checks.
-- (The studies of scripts/spec004.lua are tested in test_spec004.lua.)
local tap = require "tap"
local spec004 = require "spec004"

local P = spec004.PARAMS
local w = mech.rpm(P.speed_rpm)

do -- the ideal mechanism: bodies, joints, the start
  local sys = spec004.model{}
  local d = sys:describe()
  for _, name in ipairs{ "main_bearing", "crank_pin", "piston_pin", "guide" } do
    tap.like(d, "\njoint " .. name .. ": ", "model: joint " .. name)
  end
  tap.ok(not d:find("clearance", 1, true), "model{}: every joint ideal")
  tap.near(sys:value("crank.omega"), w, 1e-12 * w, "model: the crank turns at 150 rpm")
  tap.near(sys:value("rod.omega"), -P.L1 * w / P.L2, 1e-12 * w, "model: the rod's angular velocity")
  tap.near(sys:value("slider.x"), P.L1 + P.L2, 1e-15, "model: the slider at L1 + L2")
  tap.is(sys:value("slider.vx"), 0, "model: the slider at rest at the dead centre")
end

do -- with clearance: the laws of the paper
  local c = 0.5e-3
  local sys = spec004.model{ joints = { crank_pin = c, piston_pin = c, guide = c } }
  local d = sys:describe()
  tap.like(d, "\njoint guide: prismatic, ground .- slider .-, axis %(1, 0%), clearance 0%.0005 m",
    "model: the guide has its clearance")
  tap.like(d, "\njoint crank_pin: [^\n]*clearance", "model: the crank pin too")
  tap.like(d, "\nstart: as given", "model: starts as given (the ideal mechanism's velocities)")
  local s = (1 - 0.33 ^ 2) / 71e9
  local K = 4 / (3 * 2 * s) * math.sqrt(0.010 * 0.0095 / 0.0005)
  tap.near(spec004.journal_stiffness{}, K, 1e-9 * K, "journal_stiffness: Hertz, R = Ri Rj / (Ri - Rj)")
  local K2 = 4 / (3 * 2 * s) * math.sqrt(0.010 * 0.009 / 0.001)
  tap.near(spec004.journal_stiffness{ clearance = 1e-3 }, K2, 1e-9 * K2, "journal_stiffness: of another clearance")
  tap.near(spec004.corner_stiffness{}, 4 / (3 * 2 * s) * math.sqrt(1e-3), 1e-9 * K, "corner_stiffness: Hertz")
  tap.ok(spec004.law(K) ~= nil and spec004.friction{} ~= nil, "law and friction build")
  tap.ok(not mech.materials.aluminium_alloy, "no material is added")
end

do -- a sweep: the same function over parameter tables
  local speeds = { 100, 200 }
  local systems = {}
  for i, rpm in ipairs(speeds) do systems[i] = spec004.model{ speed_rpm = rpm, joints = { piston_pin = 1e-3 } } end
  for i, rpm in ipairs(speeds) do
    tap.near(systems[i]:value("crank.omega"), mech.rpm(rpm), 1e-12 * mech.rpm(rpm),
      string.format("sweep: the model at %g rpm turns at %g rpm", rpm, rpm))
  end
  tap.is(spec004.model{}:describe(), spec004.model{}:describe(), "the same parameters give the same model")
  tap.is(P.speed_rpm, 150, "a sweep leaves spec004.PARAMS as it was")
end

do -- the studies' channels and events
  local ideal = spec004.channels{}
  tap.is(table.concat(ideal, " "), "crank.phi slider.x slider.vx slider.ax motor.torque system.violation "
    .. "crank_pin.f piston_pin.f guide.fn", "channels of the ideal mechanism")
  local all = spec004.channels{ crank_pin = 1e-3, piston_pin = 1e-3, guide = 1e-3 }
  tap.is(#all, 6 + 7 + 7 + 1 + 4 + 8, "channels with three clearances")
  local sys = spec004.model{ joints = { crank_pin = 1e-3, piston_pin = 1e-3, guide = 1e-3 } }
  local run = sys:simulate{ t = 1e-3, report = 1e-4, record = all, quiet = true,
    events = spec004.events{ crank_pin = 1e-3, piston_pin = 1e-3, guide = 1e-3 } }
  tap.ok(run.ok and #run.channels == #all, "the model records them")
  local ev = spec004.events{ piston_pin = 1e-3 }
  tap.ok(#ev == 2 and ev[1].name == "section" and ev[2].name == "piston_pin.deepest", "events: section and deepest")
  tap.is(#spec004.events{}, 1, "events of the ideal mechanism: the section")
end

do -- argument checks
  tap.raises(spec004.model, "spec004.model: unknown field 'speed' (known fields: ", "an unknown field", { speed = 1 })
  tap.raises(spec004.model, "spec004.model: field 'L1' must be a finite number", "a NaN",
    { L1 = 0 / 0 })
  tap.raises(spec004.model, "spec004.model: joints: unknown joint 'main_bearing'", "an ideal-only joint",
    { joints = { main_bearing = 1e-3 } })
  tap.raises(spec004.model, "spec004.model: joints.guide must be a clearance > 0 in m, or false (got -1)",
    "a negative clearance", { joints = { guide = -1 } })
  tap.raises(spec004.channels, "spec004.channels: field 'joints' must be a table", "channels of a number", 1)
  tap.raises(spec004.law, "spec004.law: K must be a stiffness > 0", "law without K")
  tap.raises(spec004.journal_stiffness, "spec004.journal_stiffness: clearance must be > 0 and below bearing_radius",
    "a clearance as large as the bearing", { clearance = 0.02 })
  local msg = tap.raises(function() spec004.model{ gravity = "down" } end,
    "spec004.model: field 'gravity' must be a finite number", "a string for a number")
  tap.like(msg or "", "^[^:]*test_spec004_model%.lua:%d+: spec004%.model", "errors point at the caller's line")
end

tap.done()
