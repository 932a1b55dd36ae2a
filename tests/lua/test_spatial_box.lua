-- SPDX-License-Identifier: MIT
-- sys:prismatic{ ..., clearance = { x, z }, slider = { length, width, height },
-- channel = { width, height }, contact = law, friction = law } in a spatial system: the spatial
-- prismatic joint with clearance of [Wang et al. 2025] (a box slider in a rectangular channel,
-- per-corner contacts) through the Lua API: its description and channels, the sizes given in
-- any two of the three ways, a slider at rest on the floor, a slider that goes through a soft
-- floor, the errors; and its planar limit, benchmark B ([Flores, Leine & Glocker 2010]) built
-- in space against the planar joint.
local tap = require "tap"
local raises = tap.raises
local benchmarks = require "benchmarks"

-- a 30 x 15 x 15 mm slider of 1 kg in the ground's channel along world y, x lateral: the
-- channel's centre line through the world's origin (a_at), the slider's centre its centre of mass
-- (b_at)
local function model(extra, o)
  o = o or {}
  local sys = mech.spatial { gravity = o.gravity or { 0, 0, -9.81 } }
  local s = sys:body { name = "slider", mass = 1, at = o.at or { 0, 0, 0 },
    inertia = { 9.375e-5, 3.75e-5, 9.375e-5 }, velocity = o.velocity }
  local def = { sys.ground, s, name = "guide", axis = { 0, 1, 0 }, ref = { 1, 0, 0 }, a_at = { 0, 0, 0 },
    b_at = { 0, 0, 0 } }
  for k, v in pairs(extra) do def[k] = v end
  sys:prismatic(def)
  return sys
end
local hertz = mech.contact.hertz { K = 1e9, n = 1.5 }
local sizes = { clearance = { x = 0.1e-3, z = 0.2e-3 }, slider = { length = 0.03, width = 0.015, height = 0.015 } }
local function with(t, base)
  local d = {}
  for k, v in pairs(base or sizes) do d[k] = v end
  for k, v in pairs(t) do d[k] = v end
  return d
end

-- ---- the joint: its description, channels and contacts ------------------------------------------
do
  local sys = model(with { contact = hertz })
  local d = sys:describe()
  tap.like(d, "joint guide: prismatic, ground %(0, 0, 0%) axes x %(1, 0, 0%) z %(0, 1, 0%) %- slider "
    .. "%(0, 0, 0%) axes x %(1, 0, 0%) z %(0, 1, 0%), clearance: channel 0%.0152 m wide %(x%), 0%.0154 m "
    .. "high %(z%); slider 0%.03 m long, 0%.015 m wide, 0%.015 m high; contacts at the slider's corners; "
    .. "hertz K 1000000000 n 1%.5", "describe: the channel, the slider, the law")
  tap.like(d, "\nstart: ideal %(", "start: centred and at rest, the ideal prismatic joint holds it for the assembly")
  tap.like(model(with { contact = hertz }, { at = { 0, 0, -0.2e-3 } }):describe(), "\nstart: as given %(",
    "start: off the centre, as given")
  local joint = sys:entity("guide")
  tap.is(joint.kind, "joint", "a joint with clearance is a joint")
  tap.like(tostring(joint.channels), "^x, y, z, roll, pitch, yaw, xpos_mode, xpos_penetration, xpos_fn, "
    .. "xpos_ft, xpos_area, xpos_stiffness, xneg_mode, .*, zneg_stiffness, impacts, active, fx, fy, fz, f, "
    .. "mx, my, mz, m, fx_j, fy_j, fz_j, mx_j, my_j, mz_j, xpos%.c0%.gap, xpos%.c0%.fn, .*zneg%.c7%.fn$",
    "the joint's channels")
  tap.is(sys:entity("guide.zneg.c5").kind, "contact", "its contacts: <joint>.<wall>.c<k>")
  tap.is(sys.dof, 6, "no equation: the slider's six freedoms")
  -- the same joint from the channel and the slider, the channel and the clearance
  local a = model(with({ contact = hertz, channel = { width = 0.0152, height = 0.0154 },
    slider = { length = 0.03, width = 0.015, height = 0.015 } }, {})):describe()
  local b = model(with({ contact = hertz, channel = { width = 0.0152, height = 0.0154 },
    clearance = { x = 0.1e-3, z = 0.2e-3 }, slider = { length = 0.03 } }, {})):describe()
  tap.is(a, d, "sizes: the channel and the slider give the same joint")
  tap.is(b, d, "sizes: the channel and the clearance give the same joint")
end

-- ---- at rest on the floor: the floor carries the weight -------------------------------------------
-- Kelvin-Voigt K 1e8 N/m, c 1e4 N s/m per contact (damped near critical, settled in milliseconds),
-- the slider started on the floor: as in test_sbox.c, the floor's normal forces and the joint's
-- resultant are the weight to the integrator's tolerance.
do
  local kv = mech.contact.kelvin_voigt { K = 1e8, c = 1e4 }
  local sys = model(with { contact = kv, name = "guide" }, { at = { 0, 0, -0.2e-3 } })
  local run = sys:simulate { t = 0.05, report = 1e-3, method = "dopri5", rtol = 1e-10, atol = 1e-13,
    record = { "guide.zneg_fn", "guide.fz", "guide.fz_j", "guide.fy_j", "guide.zneg_mode", "guide.z",
      "guide.active", "guide.impacts" } }
  local n = #run.t
  local W = 9.81
  tap.diag(string.format("rest: floor %.12g N, fz %.12g N, z %.9g m", run["guide.zneg_fn"][n],
    run["guide.fz"][n], run["guide.z"][n]))
  tap.ok(math.abs(run["guide.zneg_fn"][n] - W) <= 1e-6 * W, "rest: the floor carries m g")
  tap.ok(math.abs(run["guide.fz"][n] - W) <= 1e-6 * W, "rest: the resultant fz is m g")
  tap.ok(run["guide.fy_j"][n] == -run["guide.fz"][n] and math.abs(run["guide.fz_j"][n]) <= 1e-12,
    "rest: in a's joint frame (x = ref, z = axis) the weight is along -y")
  tap.is(run["guide.zneg_mode"][n], 3, "rest: the floor in face mode")
  tap.is(run["guide.active"][n], 4, "rest: on four corners")
end

-- ---- a soft floor: the slider goes through it and the run stops -------------------------------------
do
  local soft = mech.contact.hertz { K = 1e3, n = 1.5 }
  local sys = model(with { contact = soft }, { at = { 0, 0, -0.2e-3 } })
  local run, msg = sys:simulate { t = 0.2, report = 1e-3, quiet = true, on_error = "return",
    record = { "guide.zneg_penetration" } }
  tap.is(run.status, "failed", "through: the run stops")
  tap.like(msg, "prismatic 'guide': the slider went through the channel's wall zneg at t = [%d.e%-]+ s: "
    .. "%d of its corners are past it, its centre [%d.e%-]+ m beyond", "through: the message names the "
    .. "joint, the wall and the values")
end

-- ---- errors name the joint, the field and the values --------------------------------------------
do
  local function err(extra, o)
    return function() model(extra, o) end
  end
  local pre = "sys:prismatic %(clearance of 'guide'%): "
  tap.like(select(2, pcall(err(with { contact = hertz, slider = { width = 0.015, height = 0.015 } }))),
    pre .. "the slider's length along the travel is required", "errors: the slider's length")
  tap.like(select(2, pcall(err(with({ contact = hertz, slider = { length = 0.03, width = 0.015 } },
    { clearance = { x = 1e-4 } })))), pre .. "give two of the channel's height %(channel = { height = %.%.%. }%), "
    .. "the slider's %(slider = { height = %.%.%. }%) and the z clearance %(clearance = { z = %.%.%. }%)",
    "errors: a lateral size given once")
  tap.like(select(2, pcall(err(with { contact = hertz, channel = { width = 0.02 } }))),
    pre .. "the channel's width 0%.02 m, the slider's 0%.015 m and the x clearance 0%.0001 m do not agree "
    .. "%(the channel's less the slider's is twice the clearance%)", "errors: three sizes that disagree")
  tap.like(select(2, pcall(err(with { contact = hertz, slider = { length = 0.03, width = 0.015, hight = 1 } }))),
    "unknown field 'hight'", "errors: a misspelled size")
  tap.like(select(2, pcall(err(with { contact = hertz, method = "penalty" }))),
    pre .. "'method' is for ideal joints", "errors: method with clearance")
  tap.like(select(2, pcall(err(with {}))), pre .. "field 'contact' is required", "errors: no contact law")
  tap.like(select(2, pcall(err(with { contact = hertz, stiffness = "wood" }))), "stiffness",
    "errors: an unknown stiffness model")
  tap.like(select(2, pcall(err(with { contact = hertz }, { at = { 0.15e-3, 0, 0 } }))),
    "prismatic 'guide': the slider's corner c1 %(%+x %-y %-z%) is 5e%-05 m into the channel's wall xpos at "
    .. "the start %(channel 0%.0152 m wide, 0%.0154 m high; slider 0%.03 m long, 0%.015 m wide, 0%.015 m high%)",
    "errors: a slider in a wall at the start, named with the corner and the sizes")
  tap.like(model(with { contact = hertz, friction = mech.friction.stick { mu = 0.2, mu_s = 0.3 } }):describe(),
    "hertz K 1000000000 n 1%.5; friction stick mu 0%.2 mu_s 0%.3 v_eps 1e%-05\n",
    "the stick law is a slider's friction (it was refused)")
  tap.like(select(2, pcall(function()
    local sys = mech.spatial {}
    local b = sys:body { mass = 1, inertia = { 1, 1, 1 } }
    sys:cylindrical { sys.ground, b, axis = { 0, 0, 1 }, clearance = { x = 1 } }
  end)), "unknown field 'clearance'", "errors: a cylindrical joint takes no clearance")
end

-- ---- the area-dependent laws ([Wang et al. 2025], Eqs. 18-22): stiffness = "area", "patch", "constant" ----
do
  local function area(extra, o)
    local d = with { stiffness = "area", materials = { "aluminium", "steel" } }
    for k, v in pairs(extra) do d[k] = v end
    return model(d, o)
  end
  local sys = area { damping = true, restitution = 0.58, friction = mech.friction.ambrosio { mu = 0.47 } }
  tap.like(sys:describe(), "0%.015 m high; a contact per wall, stiffness area %(by the overlap's mode%); guide E "
    .. "7%.2e%+10 Pa nu 0%.33, slider E 2%.07e%+11 Pa nu 0%.29; linear, damped %(Lankarani%-Nikravesh%) restitution "
    .. "0%.58 v_min 0%.0001; friction ambrosio mu 0%.47", "area: the description")
  tap.like(tostring(sys:entity("guide").channels), "mz_j, xpos%.gap, xpos%.fn, xneg%.gap, xneg%.fn, zpos%.gap, "
    .. "zpos%.fn, zneg%.gap, zneg%.fn$", "area: a contact per wall, <joint>.<wall>")
  tap.is(sys:entity("guide.zneg").kind, "contact", "area: the contact guide.zneg")
  tap.like(model(with { stiffness = "constant", material = "aluminium" }):describe(), "stiffness constant %(flat "
    .. "punch, 2d = 0%.015 m on the x walls, 0%.015 m on the z walls%); guide E 7%.2e%+10 Pa nu 0%.33, slider E "
    .. "7%.2e%+10 Pa nu 0%.33; linear, elastic", "constant: the punch, one material for both")
  tap.like(model(with { stiffness = "patch", materials = { "aluminium", { E = 1e11, nu = 0.3 } } }):describe(),
    "stiffness patch %(the projected patch%); guide E 7%.2e%+10 Pa nu 0%.33, slider E 1e%+11 Pa nu 0%.3",
    "patch: a material given by E and nu")
  -- a flat drop onto the floor from 1 um, damped: no turning (the force at the overlap's pressure
  -- centre, under the centre), so the law stores the energy V of sbox_law.h exactly and the balance closes
  local drop = area({ damping = true, restitution = 0.58 }, { at = { 0, 0, -0.2e-3 + 1e-6 } })
  local run = drop:simulate { t = 0.01, report = 1e-5, record = { "system.balance", "system.contact_damping",
    "guide.zneg_fn", "guide.zneg_mode", "guide.zneg_area", "guide.zneg_stiffness", "guide.impacts", "guide.pitch" } }
  local n, bal = #run.t, 0
  for i = 1, n do bal = math.max(bal, math.abs(run["system.balance"][i])) end
  tap.diag(string.format("flat drop, area law: %d impacts, damping %.3g J, balance %.2g J; at rest k = %.4g N/m, "
    .. "area %.4g m^2, fn %.6g N", run["guide.impacts"][n], run["system.contact_damping"][n], bal,
    run["guide.zneg_stiffness"][n], run["guide.zneg_area"][n], run["guide.zneg_fn"][n]))
  tap.ok(run["guide.impacts"][n] >= 2 and bal <= 1e-4 * run["system.contact_damping"][n],
    "area: a flat drop bounces, the loss is the contact damping account")
  tap.is(run["guide.zneg_mode"][n], 3, "area: on its face")
  tap.ok(math.abs(run["guide.zneg_area"][n] - 0.03 * 0.015) <= 1e-15, "area: the patch is the slider's face")
  local k = mech.stiffness.rectangle { materials = { "aluminium", "steel" }, area = 0.03 * 0.015, a = 0.015, b = 0.0075 } -- the sides 30 and 15 mm
  tap.ok(math.abs(run["guide.zneg_stiffness"][n] - k) <= 1e-9 * k,
    string.format("area: k of the face is Eq. 20's (%.6g N/m)", k))
  -- the stored energy is an integral: the evaluations for events leave it out unless an event
  -- reads an energy; the rows keep it (the same balance with a gap event as without), and an
  -- event on the elastic energy is located where the energy has its level
  local function dropped(events)
    return drop:simulate { t = 2e-3, report = 1e-5, rtol = 1e-8, events = events, record = { "system.balance",
      "system.elastic", "guide.zneg_fn" } }
  end
  local plain = dropped(nil)
  local gap = dropped { { name = "touch", channel = "guide.zneg.gap", value = 0, direction = -1 } }
  local same = #gap.t == #plain.t
  for i = 1, #plain.t do same = same and gap["system.balance"][i] == plain["system.balance"][i] end
  tap.ok(same and #gap.events >= 1, string.format("energy: with a gap event (%d onsets) the rows' balance is "
    .. "the same to the bit", #gap.events))
  -- (within its rate times the event's time tolerance, 1e-12 s, ten times that, and the local
  -- error of the step cut there, rtol of the energy)
  local top, rate, E = 0, 0, plain["system.elastic"]
  for i = 1, #plain.t do top = math.max(top, E[i]) end
  for i = 2, #plain.t do rate = math.max(rate, math.abs(E[i] - E[i - 1]) / (plain.t[i] - plain.t[i - 1])) end
  local level = top / 2
  local e = dropped { { name = "half", channel = "system.elastic", value = level, direction = 1 } }
  local v = e.events[1] and e.events[1].values["system.elastic"]
  tap.ok(v and math.abs(v - level) <= 1e-11 * rate + 1e-8 * level, string.format("energy: an event on the elastic energy "
    .. "finds it at its level (%.9g J against %.9g J, the rate up to %.3g J/s)", v or 0 / 0, level, rate))
  local pre = "sys:prismatic %(clearance of 'guide'%): "
  tap.like(select(2, pcall(area, { contact = hertz })), pre .. "'contact' is for stiffness = \"corners\"",
    "errors: a contact law with an area model")
  tap.like(select(2, pcall(model, with { stiffness = "area" })), pre .. "give 'material' %(both bodies%) or "
    .. "'materials' = {a, b}", "errors: an area model without materials")
  tap.like(select(2, pcall(area, { damping = true })), pre .. "damping = true needs 'restitution'",
    "errors: damping without restitution")
  tap.like(select(2, pcall(area, { restitution = 0.5 })), pre .. "'restitution' goes with damping = true",
    "errors: restitution without damping")
  tap.like(select(2, pcall(area, { damping = true, restitution = 1.5 })), "prismatic 'guide': the restitution "
    .. "of the damped area law must be in %(0, 1%] %(got 1%.5%)", "errors: restitution out of range")
  tap.like(select(2, pcall(model, with { contact = hertz, materials = { "steel", "steel" } })), pre .. "'materials' "
    .. "is for the area models", "errors: materials with the corners")
  tap.like(select(2, pcall(area, { materials = { "steel", "unobtainium" } })), "unknown material 'unobtainium'",
    "errors: an unknown material")
  tap.like(select(2, pcall(area, {}, { at = { 0.15e-3, 0, 0 } })), "prismatic 'guide': the slider is 5e%-05 m "
    .. "into the channel's wall xpos at the start %(channel 0%.0152 m wide", "errors: a slider in a wall, area model")
end

-- ---- friction ([Wang et al. 2025], Eqs. 25-26, Tabs. 4-5): a slider on the floor pushed along ----
-- the travel by F = f m g at its centre, the floor's four corners sharing its weight: every corner
-- slips at the slider's speed, so the friction is mu(v) m g whatever the shares, and the slider
-- creeps at the speed where mu(v) = f, or accelerates at (f - mu) g where no speed holds it.
-- Ambrosio's law (v0 = 1e-4, v1 = 2e-4 m/s) creeps at v0 + (f / mu)(v1 - v0); the ADAMS law
-- creeps where its cubic step reaches f (below mu_s), and slides above mu_s.  The aluminium-steel
-- pair of Tab. 5: mu_s 0.61, mu 0.47.
do
  local function push(friction, f)
    local sys = model(with { contact = mech.contact.kelvin_voigt { K = 1e8, c = 1e4 }, friction = friction },
      { at = { 0, 0, -0.2e-3 } })
    sys:force { sys:entity("slider"), value = { 0, f * 9.81, 0 }, name = "push" }
    local run = sys:simulate { t = 0.05, report = 5e-4, record = { "slider.vy", "slider.ay", "guide.zneg_ft",
      "system.balance", "system.friction" } }
    return run, #run.t
  end
  local pair = mech.materials.pair("aluminium", "steel")
  tap.ok(pair.mu_s == 0.61 and pair.mu == 0.47, "Tab. 5: aluminium-steel mu_s 0.61, mu 0.47")
  local amb = mech.friction.ambrosio { mu = pair.mu, v0 = 1e-4, v1 = 2e-4 }
  local run, n = push(amb, 0.3)
  local creep = 1e-4 + 0.3 / pair.mu * 1e-4
  tap.diag(string.format("ambrosio, f = 0.3: creeps at %.9g m/s (%.9g m/s), friction %.9g N, balance %.2g J",
    run["slider.vy"][n], creep, run["guide.zneg_ft"][n], run["system.balance"][n]))
  tap.ok(math.abs(run["slider.vy"][n] - creep) <= 1e-6 * creep, "ambrosio: creeps where mu(v) = f")
  tap.ok(math.abs(run["guide.zneg_ft"][n] - 0.3 * 9.81) <= 1e-6 * 9.81, "ambrosio: the floor's friction is f m g")
  run, n = push(amb, 0.6)
  tap.ok(math.abs(run["slider.ay"][n] - (0.6 - pair.mu) * 9.81) <= 1e-6 * 9.81,
    "ambrosio: slides at (f - mu) g above mu")
  tap.ok(math.abs(run["system.balance"][n]) <= 1e-6 * run["system.friction"][n], "ambrosio: the balance closes")
  local ad = mech.friction.adams { mu = pair.mu, mu_s = pair.mu_s, v0 = 1e-4, v1 = 2e-4 }
  -- the documented step below v0: -mu_s + 2 mu_s d^2 (3 - 2 d), d = (v + v0) / (2 v0); where it is f
  local lo, hi = 0, 1e-4
  for _ = 1, 100 do
    local v = (lo + hi) / 2
    local d = (v + 1e-4) / 2e-4
    if -pair.mu_s + 2 * pair.mu_s * d * d * (3 - 2 * d) < 0.55 then lo = v else hi = v end
  end
  run, n = push(ad, 0.55)
  tap.diag(string.format("adams, f = 0.55 (between mu and mu_s): creeps at %.9g m/s (%.9g m/s)",
    run["slider.vy"][n], lo))
  tap.ok(math.abs(run["slider.vy"][n] - lo) <= 1e-6 * lo, "adams: held below mu_s, creeping where its step is f")
  run, n = push(ad, 0.65)
  tap.ok(math.abs(run["slider.ay"][n] - (0.65 - pair.mu) * 9.81) <= 1e-6 * 9.81,
    "adams: slides at (f - mu) g above mu_s")
  tap.like(model(with { contact = hertz, friction = ad }):describe(), "friction adams mu 0%.47 mu_s 0%.61 v0 0%.0001 "
    .. "v1 0%.0002", "adams: the description")
end

-- ---- sticking friction ([Zheng & Wang, Eq. 13]) in both layouts ---------------------------------------
-- mech.friction.stick { mu_s = 0.3, mu = 0.2, v_eps = 1e-5 } on every contact: the corners on a damped
-- Hertz law (Lankarani-Nikravesh K 1e9, n 1.5), the area law damped; both settle on the floor within
-- 10 ms.  From 20 ms a push acts at the centre of the slider's bottom face, in line with the floor's
-- contacts (a push higher up rocks the slider, and the holding force ignores rotations).  Its 1 N across
-- the floor, (0.6, 0.8) N along (X, Y), is below mu_s m g = 2.943 N: the sticking contacts share the
-- holding force by their normal forces, -F in both directions, and the slider stays (travel measured at
-- 1e-20 m and below); 4 N along the travel slides it at (F - mu m g)/m = 2.038 m/s^2: the corners to
-- 1e-6 (measured 1e-9); the area law chatters on its face as it slides, as it does with Ambrosio's law,
-- so its mean acceleration from 30 to 60 ms is held to 2e-3 (measured 2e-5 here, 8e-4 in test_sbox.c
-- with slightly other materials), while the friction's impulse is mu times the floor's, mu m (dvz + g dt),
-- to 1e-6 (measured 5e-16 m/s of 0.06 m/s).
do
  local stick = mech.friction.stick { mu_s = 0.3, mu = 0.2, v_eps = 1e-5 }
  local layouts = {
    { "corners", { contact = mech.contact.lankarani_nikravesh { K = 1e9, n = 1.5, restitution = 0.5, v_min = 1e-3 } },
      { "zneg.c0", "zneg.c1", "zneg.c2", "zneg.c3" } },
    { "area", { stiffness = "area", materials = { "steel", "aluminium" }, damping = true, restitution = 0.5,
      v_min = 1e-3 }, { "zneg" } } }
  local function pushed(layout, F)
    local d = with(layout[2])
    d.friction = stick
    local sys = model(d, { at = { 0, 0, -0.2e-3 } })
    sys:force { sys:entity("slider"), body_at = { 0, 0, -0.0075 }, name = "push",
      fn = function(t) if t >= 0.02 then return F[1], F[2], 0 end return 0, 0, 0 end }
    local rec = { "guide.x", "guide.y", "guide.fx", "guide.fy", "guide.zneg_fn", "guide.zneg_ft", "slider.vy",
      "slider.vz", "system.friction" }
    for _, c in ipairs(layout[3]) do
      for _, q in ipairs { "stick", "fn", "ft", "vt" } do rec[#rec + 1] = "guide." .. c .. "." .. q end
    end
    return sys:simulate { t = 0.06, report = 1e-3, rtol = 1e-9, atol = 1e-12, record = rec }
  end
  -- the largest drop of the friction account between rows (the rounding of slips of 1e-14 m/s under
  -- 1 N leaves 1e-18 J)
  local function drop(run)
    local F, d = run["system.friction"], 0
    for i = 2, #F do d = math.max(d, F[i - 1] - F[i]) end
    return d
  end
  for _, layout in ipairs(layouts) do
    local name = layout[1]
    local run = pushed(layout, { 0.6, 0.8 })
    local n, k0 = #run.t, 21 -- the row at 20 ms
    local travel = 0
    for i = k0, n do
      travel = math.max(travel, math.abs(run["guide.x"][i] - run["guide.x"][k0]),
        math.abs(run["guide.y"][i] - run["guide.y"][k0]))
    end
    local fn, stuck, share, slip = run["guide.zneg_fn"][n], 0, 0, 0
    for _, c in ipairs(layout[3]) do
      stuck = stuck + run["guide." .. c .. ".stick"][n]
      share = math.max(share, math.abs(run["guide." .. c .. ".ft"][n] - run["guide." .. c .. ".fn"][n] / fn))
      slip = math.max(slip, run["guide." .. c .. ".vt"][n])
    end
    tap.diag(string.format("stick, %s, 1 N: travel %.3g m, fx %.12g N, fy %.12g N, slip %.3g m/s, shares off by "
      .. "%.3g N, friction account %.3g J (largest drop %.3g J)", name, travel, run["guide.fx"][n],
      run["guide.fy"][n], slip, share, run["system.friction"][n], drop(run)))
    tap.ok(travel <= 1e-12, string.format("stick, %s: pushed by 1 N < mu_s m g, the slider stays", name))
    tap.ok(math.abs(run["guide.fx"][n] + 0.6) <= 1e-9 and math.abs(run["guide.fy"][n] + 0.8) <= 1e-9
      and math.abs(run["guide.zneg_ft"][n] - 1) <= 1e-9,
      string.format("stick, %s: the friction is minus the push, across and along the travel", name))
    tap.ok(stuck == #layout[3] and slip < 1e-5 and share <= 1e-9,
      string.format("stick, %s: the floor's contacts stick, each with its normal force's share", name))
    tap.ok(drop(run) <= 1e-15, string.format("stick, %s: the friction account never decreases", name))
    run = pushed(layout, { 0, 4 })
    local k1 = 31 -- from 30 ms
    local dt, dv = run.t[n] - run.t[k1], run["slider.vy"][n] - run["slider.vy"][k1]
    local a, want = dv / dt, 4 - 0.2 * 9.81
    local impulse = dv - (4 * dt - 0.2 * (run["slider.vz"][n] - run["slider.vz"][k1] + 9.81 * dt))
    stuck = 0
    for _, c in ipairs(layout[3]) do stuck = stuck + run["guide." .. c .. ".stick"][n] end
    tap.diag(string.format("stick, %s, 4 N: acceleration %.9g m/s^2 ((F - mu m g)/m %.9g), the impulse along the "
      .. "travel off by %.3g m/s of %.3g m/s; friction account %.6g J (largest drop %.3g J)", name, a, want,
      impulse, dv, run["system.friction"][n], drop(run)))
    tap.ok(math.abs(a - want) <= (name == "area" and 2e-3 or 1e-6) * want and math.abs(impulse) <= 1e-6 * dv,
      string.format("stick, %s: pushed by 4 N > mu_s m g, it slides at (F - mu m g)/m", name))
    tap.ok(stuck == 0 and math.abs(run["guide.zneg_ft"][n] - 0.2 * run["guide.zneg_fn"][n]) <= 1e-9,
      string.format("stick, %s: sliding, the friction is mu F_N", name))
    tap.ok(drop(run) <= 1e-15 and run["system.friction"][n] > 0,
      string.format("stick, %s: sliding, the friction account only grows", name))
  end
end

-- ---- the planar limit: benchmark B in space ---------------------------------------------------------
-- Benchmark B's slider-crank ([Flores, Leine & Glocker 2010]) with its pins revolute joints about
-- z: the rest of the mechanism holds the slider in the plane (no z motion, no roll or pitch), so
-- its box never meets the z walls and each planar corner, a line along z in space, is the two
-- spatial corners at its ends, at the same depth and rate.  The Flores law and Ambrosio's
-- friction are linear in K and in the normal force: with K/2 per spatial corner the two add up
-- to the planar corner's force.  The planar x-y plane is the world's; the travel is world x, the
-- planar guide's surfaces (y = -+(H/2 + gap)) are the x walls with ref = world y (so xneg is the
-- planar bottom, xpos the top; Z = ref x axis = -z).  Through 40 ms (25 impacts) both runs
-- converge: from rtol 1e-8 to 1e-12 the impacts' times and peaks do not move; later a grazing
-- contact of 10 N comes and goes with the tolerance in either model.
do
  local r, l, wc, wr = 0.153, 0.306, 150, -75
  local K, e, mu = 1e10, 0.4, 0.01
  local sys = mech.spatial { gravity = { 0, -9.81, 0 }, baumgarte = { 5, 5 } }
  local crank = sys:body { name = "crank", mass = 0.038, inertia = { 1e-6, 7.4e-5, 7.4e-5 },
    at = { r / 2, 0, 0 }, velocity = { 0, wc * r / 2, 0 }, omega = { 0, 0, wc } }
  local rod = sys:body { name = "rod", mass = 0.038, inertia = { 1e-6, 5.9e-4, 5.9e-4 },
    at = { r + l / 2, 0, 0 }, velocity = { 0, wc * r + wr * l / 2, 0 }, omega = { 0, 0, wr } }
  local slider = sys:body { name = "slider", mass = 0.076, inertia = { 2.7e-6, 2.7e-6, 2.7e-6 },
    at = { r + l, 0, 0 }, velocity = { 0, wc * r + wr * l, 0 }, omega = { 0, 0, -0.01 } }
  sys:revolute { sys.ground, crank, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, name = "main_bearing" }
  sys:revolute { crank, rod, at = { r, 0, 0 }, axis = { 0, 0, 1 }, name = "crank_pin" }
  sys:revolute { rod, slider, at = { r + l, 0, 0 }, axis = { 0, 0, 1 }, name = "pin" }
  sys:prismatic { sys.ground, slider, axis = { 1, 0, 0 }, ref = { 0, 1, 0 }, name = "guide",
    clearance = { x = 1e-3, z = 1e-3 }, slider = { length = 0.1, width = 0.05, height = 0.05 },
    contact = mech.contact.flores { K = K / 2, restitution = e },
    friction = mech.friction.ambrosio { mu = mu } }
  local opt = { t = 0.04, report = 1e-5, method = "dopri5", rtol = 1e-10, atol = 1e-13 }
  local prec, srec = { "guide.fn", "guide.impacts", "slider.y", "system.contact_damping", "system.friction" },
    { "guide.xpos_fn", "guide.xneg_fn", "guide.zpos_fn", "guide.zneg_fn", "guide.impacts", "slider.y",
      "slider.z", "system.contact_damping", "system.friction" }
  -- planar corner k against a surface = two spatial corners (bits: x = ref = world y, y = the
  -- travel = world x, z = -world z) on one x wall
  local pairs_of = { { "c1_bottom", "xneg", 0 }, { "c2_bottom", "xneg", 2 }, { "c3_top", "xpos", 3 },
    { "c4_top", "xpos", 1 }, { "c1_top", "xpos", 0 }, { "c2_top", "xpos", 2 }, { "c3_bottom", "xneg", 3 },
    { "c4_bottom", "xneg", 1 } }
  for _, p in ipairs(pairs_of) do
    prec[#prec + 1] = "guide." .. p[1] .. ".fn"
    for _, c in ipairs { p[3], p[3] + 4 } do srec[#srec + 1] = string.format("guide.%s.c%d.fn", p[2], c) end
  end
  local planar = benchmarks.b {}:simulate { t = opt.t, report = opt.report, method = opt.method,
    rtol = opt.rtol, atol = opt.atol, record = prec }
  local space = sys:simulate { t = opt.t, report = opt.report, method = opt.method, rtol = opt.rtol,
    atol = opt.atol, record = srec }
  local n = #planar.t
  tap.is(#space.t, n, "planar limit: the same rows")
  local peak_p, peak_s, at_p, at_s, corner, ends, zwall, dy, dz = 0, 0, 0, 0, 0, 0, 0, 0, 0
  for i = 1, n do
    local f = space["guide.xpos_fn"][i] + space["guide.xneg_fn"][i]
    if planar["guide.fn"][i] > peak_p then peak_p, at_p = planar["guide.fn"][i], planar.t[i] end
    if f > peak_s then peak_s, at_s = f, space.t[i] end
    for _, p in ipairs(pairs_of) do
      local a = space[string.format("guide.%s.c%d.fn", p[2], p[3])][i]
      local b = space[string.format("guide.%s.c%d.fn", p[2], p[3] + 4)][i]
      corner = math.max(corner, math.abs(a + b - planar["guide." .. p[1] .. ".fn"][i]))
      ends = math.max(ends, math.abs(a - b))
    end
    zwall = math.max(zwall, space["guide.zpos_fn"][i] + space["guide.zneg_fn"][i])
    dy = math.max(dy, math.abs(space["slider.y"][i] - planar["slider.y"][i]))
    dz = math.max(dz, math.abs(space["slider.z"][i]))
  end
  local hits_p, hits_s = planar["guide.impacts"][n], space["guide.impacts"][n]
  tap.diag(string.format("planar: %d impacts, peak corner force %.10g N at t = %.6g s; spatial: %d impacts, "
    .. "peak %.10g N at t = %.6g s (%.2g relative); corners' forces within %.3g N, ends within %.3g N; "
    .. "slider y within %.3g m", hits_p, peak_p, at_p, hits_s, peak_s, at_s, math.abs(peak_s - peak_p) / peak_p,
    corner, ends, dy))
  tap.ok(hits_p >= 20, "planar limit: tens of impacts in the plane")
  tap.is(hits_s, 2 * hits_p, "planar limit: each planar impact is two corners' in space")
  tap.ok(math.abs(peak_s - peak_p) <= 1e-3 * peak_p, "planar limit: the peak corner force within 0.1 %")
  tap.ok(corner <= 1e-3 * peak_p, "planar limit: every corner's force within 0.1 % of the peak, at every row")
  tap.ok(ends <= 1e-6 * peak_p, "planar limit: the two ends of a planar corner carry the same force")
  tap.ok(zwall == 0 and dz <= 1e-12, "planar limit: the slider stays in its plane, off the z walls")
  tap.ok(dy <= 1e-8, "planar limit: the slider moves as in the plane")
  local dd = math.abs(space["system.contact_damping"][n] - planar["system.contact_damping"][n])
  local df = math.abs(space["system.friction"][n] - planar["system.friction"][n])
  tap.ok(dd <= 1e-6 * planar["system.contact_damping"][n] and df <= 1e-6 * planar["system.friction"][n],
    string.format("planar limit: the same energy into contact damping (%.2g J apart) and friction "
      .. "(%.2g J apart)", dd, df))
end

-- ---- where the area laws' force acts: the overlap's pressure centre -----------------------------
-- A slider rolled by 1e-5 rad about its travel drops 1 um onto the floor (constant law, elastic,
-- frictionless) and rocks on its face as it bounces.  While the whole face is in, the overlap is
-- a slab whose vertical thickness runs linearly across the face: t(x) = A + x tan(roll) over the
-- face's width W = w cos(roll), A the thickness under the face's centre, the deepest corner's
-- penetration less W/2 |tan(roll)|.  A pressure growing as the depth acts at the slab's mean x,
-- tan(roll) W^2 / (12 A) from the face's centre, which is -h sin(roll) from the slider's (h the
-- half height); the force is vertical, so x = -my / fz of the joint's resultant about the
-- slider's centre.  Neglected: the slab's ends along the tilted sides, depth times roll, ~1e-12
-- of the distances here (1e-4 m): 1e-7 relative and 1e-13 m (seen: 1e-10 relative).  The patch's
-- centroid, where the force acted before, is -h sin(roll) (within 1e-9 m): the moment then
-- vanished while the face was in, and jumped to F w / 2 as it lifted.
do
  local th = 1e-5
  local sys = model({ clearance = { x = 0.1e-3, z = 0.2e-3 }, stiffness = "constant", material = "aluminium",
    slider = { length = 0.03, width = 0.015, height = 0.015, axis = { 0, 1, 0 },
      ref = { math.cos(th), 0, math.sin(th) } } }, { at = { 0, 0, -0.2e-3 + 1e-6 } })
  local run = sys:simulate { t = 1e-3, report = 1e-6, record = { "guide.fz", "guide.my", "guide.roll",
    "guide.zneg_mode", "guide.zneg_penetration" } }
  local rows, worst, lo, hi = 0, 0, math.huge, -math.huge
  for i = 1, #run do
    local F = run["guide.fz"][i]
    if F > 0 and run["guide.zneg_mode"][i] == 3 then
      local r, d = run["guide.roll"][i], run["guide.zneg_penetration"][i]
      local B, W = math.tan(r), 0.015 * math.cos(r)
      local A = d - W / 2 * math.abs(B)
      local want = B * W * W / (12 * A) - 0.0075 * math.sin(r)
      local got = -run["guide.my"][i] / F
      worst = math.max(worst, math.abs(got - want) / (1e-7 * math.abs(want) + 1e-13))
      lo, hi = math.min(lo, r), math.max(hi, r)
      rows = rows + 1
    end
  end
  tap.diag(string.format("pressure centre: %d rows on the face, roll from %.3g to %.3g rad; worst %.3g of the "
    .. "tolerance", rows, lo, hi, worst))
  tap.ok(rows >= 10 and lo < 0 and hi > 0, "pressure centre: the slider rocks on its face through flat")
  tap.ok(worst <= 1, "pressure centre: the force acts at the slab's centroid, tan(roll) W^2 / (12 A) across")
end

-- ---- a slider that starts turned: slider = { ..., axis, ref } ----------------------------------
do
  local function build(slider)
    local sys = mech.spatial { gravity = { 0, 0, 0 } }
    local s = sys:body { name = "slider", mass = 1, inertia = { 1e-4, 1e-4, 1e-4 } }
    sys:prismatic { sys.ground, s, axis = { 0, 1, 0 }, ref = { 1, 0, 0 }, name = "guide",
      clearance = { x = 1e-3, z = 1e-3 }, slider = slider, contact = hertz }
    return sys
  end
  local b = math.rad(1)
  local sys = build { length = 0.03, width = 0.015, height = 0.015, axis = { -math.sin(b), math.cos(b), 0 },
    ref = { math.cos(b), math.sin(b), 0 } }
  tap.like(sys:describe(), "\nstart: as given", "turned: the start as given")
  local run = sys:simulate { t = 1e-4, report = 1e-4, record = { "guide.yaw", "guide.roll", "guide.xpos.c3.gap",
    "guide.xpos.c1.gap" } }
  tap.near(run["guide.yaw"][1], b, 1e-14, "turned: the slider yawed by 1 degree in its channel")
  tap.near(run["guide.roll"][1], 0, 1e-14, "turned: not rolled")
  -- the +x corners: 7.5 mm cos b -+ 15 mm sin b across, the wall at 8.5 mm
  tap.near(run["guide.xpos.c3.gap"][1], 0.0085 - (0.0075 * math.cos(b) - 0.015 * math.sin(b)), 1e-15,
    "turned: the corner +x +y that much further from the wall")
  tap.near(run["guide.xpos.c1.gap"][1], 0.0085 - (0.0075 * math.cos(b) + 0.015 * math.sin(b)), 1e-15,
    "turned: the corner +x -y nearer")
  b = math.rad(5)
  raises(function() build { length = 0.03, width = 0.015, height = 0.015, axis = { -math.sin(b), math.cos(b), 0 } } end,
    "the slider's corner c0 (-x -y -z) is 0.000278796 m into the channel's wall xpos at the start",
    "turned too far: a corner in the wall is an error naming it")
  raises(function() build { length = 0.03, width = 0.015, height = 0.015, ref = { 1, 0, 0 } } end,
    "sys:prismatic (clearance of 'guide'): slider: field 'axis' is required", "turned: 'ref' needs 'axis'")
  raises(function() build { length = 0.03, width = 0.015, height = 0.015, axis = { 0, 1, 0 }, ref = { 0, 1, 0 } } end,
    "slider: fields 'axis' = {0, 1, 0} and 'ref' = {0, 1, 0}: axes z and x are parallel", "turned: parallel axes")
end

tap.done()
