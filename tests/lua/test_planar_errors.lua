-- SPDX-License-Identifier: MIT
-- Every validation error of the planar API: a Lua error naming the function, the
-- argument and what was expected.
local tap = require "tap"

local function sys0() return mech.planar{ gravity = { 0, -9.81 } } end

local function raises(f, text, name) return tap.raises(f, text, name) end

-- mech.planar
raises(function() mech.planar{ gravity = "down" } end,
  "mech.planar: field 'gravity' must be a table of two numbers {x, y}", "gravity must be a vector")
raises(function() mech.planar{ gravty = { 0, -9.81 } } end,
  "mech.planar: unknown field 'gravty' (known fields: gravity, baumgarte, assemble, start, solver)",
  "misspelled fields are caught")
raises(function() mech.planar{ baumgarte = { -1, 5 } } end,
  "Baumgarte alpha and beta must be finite and >= 0", "negative Baumgarte coefficient")
raises(function() mech.planar(5) end, "mech.planar: expected a table", "not a table")

-- bodies
local s = sys0()
raises(function() s:body{ name = "b" } end, "sys:body: field 'mass' is required (a number)",
  "mass is required")
raises(function() s:body{ name = "b", mass = -1 } end,
  "sys:body: body 'b': mass must be > 0 (got -1)", "mass > 0")
raises(function() s:body{ name = "b", mass = 1, inertia = -2 } end,
  "body 'b': inertia must be >= 0 (got -2)", "inertia >= 0")
raises(function() s:body{ name = "b", mass = 1, at = { 0 / 0, 0 } } end,
  "sys:body: field 'at' must be finite", "finite position")
raises(function() s:body{ name = "b", mass = 1, at = { 1 } } end,
  "field 'at' must be a table of two numbers {x, y}", "positions have two numbers")
raises(function() s:body{ name = "b", mass = "heavy" } end,
  "field 'mass' must be a number (got string)", "mass is a number")
raises(function() s:body{ name = "a.b", mass = 1 } end, "name must not contain '.'",
  "names have no dots")
local a = s:body{ name = "a", mass = 1, inertia = 1 }
raises(function() s:body{ name = "a", mass = 1 } end, "body 'a': the name is already used",
  "unique names")
raises(function() s:body{ name = "ground", mass = 1 } end, "body 'ground': the name is already used",
  "the ground's name is taken")
raises(function() s:body{ name = "r", mass = 1, rectangle = { 0, 1 } } end,
  "sys:body: field 'rectangle' must be {width, height}, both > 0 (got {0, 1})", "rectangle sizes")
raises(function() s:body{ name = "r", mass = 1, segment = { { 1, 0 }, { 1, 0 } } } end,
  "sys:body: field 'segment' must be two distinct points", "segment ends")
raises(function() s:body{ name = "r", mass = 1, rectangle = { 1, 1 }, segment = 3 } end,
  "field 'segment' must be a list of 2 points", "segment type")
tap.is(s:entity("r"), nil, "a body whose outline is refused is not added (it was)")

-- joints
local b = s:body{ name = "b2", mass = 1, inertia = 1, at = { 1, 0 } }
raises(function() s:revolute{ a, a, at = { 0, 0 } } end, "revolute 'revolute1': joins body 'a' to itself",
  "a joint needs two bodies")
raises(function() s:revolute{ a, "b2", at = { 0, 0 } } end,
  "the second body (value #2) must be a body of this system (got string)", "bodies are entities")
local other = sys0()
local c = other:body{ name = "c", mass = 1, inertia = 1 }
raises(function() s:revolute{ a, c, at = { 0, 0 } } end, "belongs to another system",
  "bodies of another system are refused")
raises(function() s:revolute{ a, b } end, "give the anchor", "an anchor is needed")
raises(function() s:revolute{ a, b, at = { 0, 0 }, a_at = { 0, 0 } } end,
  "give either 'at' or 'a_at'/'b_at', not both", "one way to give anchors")
raises(function() s:prismatic{ s.ground, b, axis = { 0, 0 } } end,
  "axis must be a non-zero finite vector (got 0, 0)", "prismatic axis")
raises(function() s:revolute{ s.ground, a, at = { 0, 0 }, method = "penalty" } end,
  "a penalty joint needs 'k'", "penalty needs stiffness")
raises(function() s:revolute{ s.ground, a, at = { 0, 0 }, k = 1e5 } end,
  "'k' is for penalty joints", "k only for penalty")
raises(function() s:revolute{ s.ground, a, at = { 0, 0 }, method = "magic" } end,
  "field 'method' must be one of \"lagrange\", \"penalty\" (got \"magic\")", "methods listed")
raises(function() s:revolute{ s.ground, a, at = { 0, 0 }, method = "penalty", k = { 1, 2, 3 } } end,
  "field 'k' must be a number or a table of 2 numbers", "penalty stiffness per equation")
raises(function() s:revolute{ s.ground, a, at = { 0, 0 }, method = "penalty", k = -5 } end,
  "penalty stiffness 1 must be > 0 (got -5)", "positive penalty stiffness")

-- drivers
local f = s:fixed{ s.ground, b, at = { 1, 0 } }
raises(function() s:drive{ a } end, "give 'speed' (constant) or 'motion' (a function of time)",
  "a driver needs a motion")
raises(function() s:drive{ f, speed = 1 } end, "a fixed joint cannot be driven", "fixed joints")
raises(function() s:drive{ a, speed = 1, motion = function(t) return t end } end,
  "give either 'speed' or 'motion', not both", "one motion only")
raises(function() s:drive{ "a", speed = 1 } end, "value #1 must be the body or joint to drive",
  "the driven entity")

-- forces
raises(function() s:spring{ a, b } end, "field 'k' is required", "spring stiffness")
raises(function() s:spring{ a, b, k = -1 } end, "stiffness must be >= 0 (got -1)", "k >= 0")
raises(function() s:spring{ a, b, k = 1, law = function() return 0 end } end,
  "give either 'k'/'c' or 'law', not both", "law or k")
raises(function() s:force{ a, amplitude = { 1, 0 } } end,
  "a harmonic load needs 'omega'", "harmonic needs a frequency")
raises(function() s:force{ s.ground, value = { 1, 0 } } end, "cannot act on the ground",
  "no loads on the ground")
raises(function() s:torque{ a, value = { 1, 0 } } end, "field 'value' must be a number",
  "a torque is a number")

-- assembly problems are named
do
  local t = sys0()
  local p = t:body{ name = "plate", mass = 1, inertia = 0.1, at = { 0.5, 0 } }
  t:revolute{ t.ground, p, at = { 0, 0 }, name = "left" }
  t:revolute{ t.ground, p, at = { 0, 0 }, name = "again" }
  raises(function() t:assemble() end, "revolute 'again' (equation x) is redundant",
    "a redundant joint is named")
end
do
  local t = sys0()
  local p = t:body{ name = "plate", mass = 1, inertia = 0.1, at = { 0.5, 0 } }
  t:revolute{ t.ground, p, at = { 0, 0 }, name = "left" }
  -- the plate's point (0.6, 0) pinned to the ground at (1, 0): 0.4 m away
  t:revolute{ t.ground, p, a_at = { 1, 0 }, b_at = { 0.1, 0 }, name = "right" }
  raises(function() t:assemble() end, "conflicts with the joints and drivers before it",
    "a conflicting joint is named")
end
do
  local t = sys0()
  -- two 1 m links pinned to the ground 3 m apart cannot meet
  local l1 = t:body{ name = "l1", mass = 1, inertia = 0.1, at = { 0.5 * math.cos(0.4), 0.5 * math.sin(0.4) },
    angle = 0.4 }
  local l2 = t:body{ name = "l2", mass = 1, inertia = 0.1,
    at = { 3 + 0.5 * math.cos(2.6), 0.5 * math.sin(2.6) }, angle = 2.6 }
  t:revolute{ t.ground, l1, a_at = { 0, 0 }, b_at = { -0.5, 0 } }
  t:revolute{ t.ground, l2, a_at = { 3, 0 }, b_at = { 0.5, 0 } }
  t:revolute{ l1, l2, a_at = { 0.5, 0 }, b_at = { -0.5, 0 }, name = "tips" }
  local msg = raises(function() t:assemble() end, "assembly failed: the joints cannot all hold; still violated: revolute",
    "a mechanism that cannot close names the violated joints")
  tap.like(msg, "still violated: revolute '%w+' %(equation [xy]%) by %d[%d.e%-]*, ", "largest first, with the amount")
  -- each equation once (the largest was listed four times)
  local seen, twice = {}, nil
  for eq in msg:gmatch("(revolute '%w+' %(equation [xy]%))") do
    if seen[eq] then twice = eq end
    seen[eq] = true
  end
  tap.is(twice, nil, "each violated equation is listed once")
end
do
  -- a four-bar that cannot turn fully (ground 0.3, crank 0.25, coupler 0.2, rocker 0.1 m),
  -- its crank driven from the angle where coupler and rocker align: the assembly reaches
  -- that toggle, where the driven crank cannot move (the velocities were 3e6 rad/s)
  local t = sys0()
  local th = math.acos(0.0625 / 0.15)
  local A = { 0.25 * math.cos(th), 0.25 * math.sin(th) }
  local B = { A[1] + 0.2, A[2] }
  local crank = t:body{ name = "crank", mass = 1, inertia = 1e-3, at = { A[1] / 2, A[2] / 2 }, angle = th }
  local coupler = t:body{ name = "coupler", mass = 1, inertia = 1e-3, at = { A[1] + 0.1, A[2] } }
  local rocker = t:body{ name = "rocker", mass = 1, inertia = 1e-3, at = { B[1], B[2] - 0.05 }, angle = math.pi / 2 }
  t:revolute{ t.ground, crank, at = { 0, 0 }, name = "O2" }
  t:revolute{ crank, coupler, at = A, name = "A" }
  t:revolute{ t.ground, rocker, a_at = { 0.3, 0 }, b_at = { -0.05, 0 }, name = "O4" }
  t:revolute{ coupler, rocker, at = B, name = "B" }
  t:drive{ crank, speed = 10, name = "motor" }
  raises(function() t:assemble() end, "sys:assemble: assembly: in the assembled configuration driver "
    .. "'motor' depends on the joints and drivers before it: the mechanism is locked there (links "
    .. "aligned, a dead centre) and its velocities are not determined", "a locked configuration is named")
end
do
  local t = sys0()
  t:body{ name = "puck", mass = 1, inertia = 0 }
  raises(function() t:assemble() end,
    "body 'puck': inertia is 0 but no Lagrange joint keeps it from rotating",
    "zero inertia needs a guide")
end

-- simulate
do
  local t = sys0()
  local p = t:body{ name = "p", mass = 1, inertia = 1 }
  raises(function() t:simulate{ report = 0.1 } end, "sys:simulate: field 't' is required", "end time")
  raises(function() t:simulate{ t = 1, method = "euler" } end,
    "field 'method' must be one of \"rk4\", \"dopri5\", \"bdf\"", "methods listed")
  raises(function() t:simulate{ t = 1, method = "rk4" } end, "method \"rk4\" needs 'h'", "rk4 step")
  raises(function() t:simulate{ t = 1, record = { "p.xx" } } end,
    "channel 'p.xx': 'p' has no quantity 'xx'; it has x, y, phi, vx, vy, omega, ax, ay, alpha, kinetic",
    "unknown quantity lists the known ones")
  raises(function() t:simulate{ t = 1, record = { "q.x" } } end,
    "no body, node, flexible body, point, force, joint, driver or contact is named 'q'", "unknown entity")
  raises(function() t:simulate{ t = 1, record = { "px" } } end,
    "expected \"entity.quantity\"", "channel syntax")
  raises(function() t:simulate{ t = -1 } end, "end time must be > 0 (got -1)", "positive end time")
  raises(function() t:simulate{ t = 1, report = 0 } end, "report step must be > 0", "report step")
  raises(function() t:simulate{ t = 1, rtol = -1 } end, "rtol", "tolerances")
  raises(function() t:simulate{ t = 1, method = "bdf", max_order = 6 } end,
    "sys:simulate: 'max_order' must be an integer from 1 to 5 (got 6)", "BDF order limit in range")
  raises(function() t:simulate{ t = 1, method = "bdf", max_order = 2.5 } end,
    "'max_order' must be an integer from 1 to 5 (got 2.5)", "BDF order limit an integer")
  raises(function() t:simulate{ t = 1, max_order = 3 } end,
    "sys:simulate: 'max_order' is for method \"bdf\"", "order limit with dopri5 refused")
  raises(function() t:simulate{ t = 1, events = { { value = 1 } } } end,
    "events[1]: give 'channel' (and 'value') or 'fn'", "event definition")
  raises(function() t:simulate{ t = 1, tt = 2 } end, "unknown field 'tt'", "misspelled option")
end

tap.done()
