-- SPDX-License-Identifier: MIT
-- Contact elements with the law library: impacts on a rigid wall (restitution, energy,
-- no pull, hysteresis), resting contact, and friction (incline, belt stick-slip, Dahl
-- and LuGre steady sliding and pre-sliding, no energy injected).
local tap = require "tap"

local g = 9.81

-- A ball (point) thrown at a fixed floor y = 0 at speed v_in, no gravity.
local function impact(law, v_in)
  local sys = mech.planar{}
  local ball = sys:body{ name = "ball", mass = 1, inertia = 1, at = { 0, 1e-4 }, velocity = { 0, -v_in } }
  sys:prismatic{ sys.ground, ball, axis = { 0, 1 } }
  sys:contact{ ball, body_at = { 0, 0 }, surface = { at = { 0, 0 }, normal = { 0, 1 } }, law = law,
    name = "floor" }
  -- free flight 1e-4 s, then a contact of about 3.2 (m^2 / (K^2 v))^(1/5) = 3.2e-4 s
  local run = sys:simulate{ t = 8e-4, report = 1e-7, method = "dopri5", rtol = 1e-10, atol = 1e-13,
    record = { "ball.vy", "floor.fn", "floor.penetration", "floor.rate", "floor.impacts",
      "system.energy", "system.contact_damping", "system.balance" } }
  return run
end

local K = 1e10
local laws = {
  { "hunt_crossley", function(e) return mech.contact.hunt_crossley{ K = K, restitution = e } end, 0.9 },
  { "lankarani_nikravesh", function(e) return mech.contact.lankarani_nikravesh{ K = K, restitution = e } end, 0.9 },
  { "flores", function(e) return mech.contact.flores{ K = K, restitution = e } end, 0.1 },
  { "gonthier", function(e) return mech.contact.gonthier{ K = K, restitution = e } end, 0.1 },
  { "hu_guo", function(e) return mech.contact.hu_guo{ K = K, restitution = e } end, 0.1 },
}

-- Restitution measured through the whole contact element: onset located, v0 captured.
local report = { "target e:" }
for e = 1, 10 do report[#report + 1] = string.format("%5.1f", e / 10) end
tap.diag(table.concat(report, " "))
for _, L in ipairs(laws) do
  local name, make, accurate_from = L[1], L[2], L[3]
  local row, worst = { string.format("%-20s", name) }, 0
  for i = 1, 10 do
    local e = i / 10
    local run = impact(make(e), 1.0)
    local eff = run["ball.vy"][#run] / 1.0
    row[#row + 1] = string.format("%5.3f", eff)
    if e >= accurate_from then worst = math.max(worst, math.abs(eff - e)) end
  end
  tap.diag(table.concat(row, " "))
  -- the same tolerance as the law's own single-mass test (tests/c/test_contact_laws.c):
  -- the contact element must not change the law's restitution
  tap.ok(worst < 0.05, string.format("%s: restitution within 0.05 of the target for e >= %.1f (worst %.3f)",
    name, accurate_from, worst))
end

do -- elastic laws conserve energy across the impact; no law pulls; the loop
  local run = impact(mech.contact.hertz{ K = K, n = 1.5 }, 1.0)
  tap.near(run["ball.vy"][#run], 1.0, 1e-6, "Hertz: the ball leaves at the speed it came")
  tap.near(run["system.energy"][#run], run["system.energy"][1], 1e-6, "and the energy is conserved")
  tap.is(run["floor.impacts"][#run], 1, "one impact, located")
  for _, e in ipairs{ 0.2, 0.8 } do
    local r = impact(mech.contact.flores{ K = K, restitution = e }, 1.0)
    tap.ok(r["floor.fn"]:min() >= 0, "Flores e = " .. e .. ": the contact never pulls")
    local bal = r["system.balance"]
    tap.ok(math.max(bal:max(), -bal:min()) < 1e-6 * 0.5,
      "the energy lost is the contact damping's (balance within 1e-6 of m v^2 / 2)")
    -- hysteresis: at the same penetration the force is larger approaching than leaving
    local d, f, rate = r["floor.penetration"], r["floor.fn"], r["floor.rate"]
    local dmax = d:max()
    local approach, leave
    for i = 1, #r do
      if d[i] > 0.5 * dmax and d[i] < 0.55 * dmax then
        if rate[i] > 0 and not approach then approach = f[i] end
        if rate[i] < 0 then leave = f[i] end
      end
    end
    tap.ok(approach and leave and approach > leave,
      string.format("e = %.1f: the force-penetration curve is a loop (%.4g N approaching > %.4g N "
        .. "leaving at half the penetration)", e, approach or 0, leave or 0))
  end
end

do -- resting contact: the impact velocity is tiny, the law stays finite and settles
  local m, n = 2.0, 1.5
  for _, law in ipairs{ mech.contact.lankarani_nikravesh{ K = K, restitution = 0.5 },
                        mech.contact.hu_guo{ K = K, restitution = 0.5 } } do
    local sys = mech.planar{ gravity = { 0, -g } }
    local block = sys:body{ name = "block", mass = m, inertia = 1, at = { 0, 0 } }
    sys:prismatic{ sys.ground, block, axis = { 0, 1 } }
    sys:contact{ block, body_at = { 0, 0 }, surface = { at = { 0, 0 }, normal = { 0, 1 } }, law = law,
      name = "floor" }
    -- a resting contact starts with the impact velocity v_min = 1e-4 m/s: the damping
    -- K d^n h dd / v_min makes it creep to rest with a time constant h d / (n v_min),
    -- 15 ms for Hu-Guo at e = 0.5: 0.2 s is 13 of them
    local run = sys:simulate{ t = 0.2, report = 1e-3, method = "bdf", rtol = 1e-8, atol = 1e-13,
      record = { "floor.penetration", "floor.fn" } }
    local d_static = (m * g / K) ^ (1 / n)
    tap.near(run["floor.penetration"][#run], d_static, 1e-3 * d_static,
      law.law .. ": a resting body settles at (m g / K)^(1/n)")
    tap.near(run["floor.fn"][#run], m * g, 1e-3 * m * g, "carried by the contact force")
  end
end

-- A block (two bottom corners) on a plane tilted by theta, under gravity.  With hold =
-- true it starts in static equilibrium: the corners' penetrations carry its weight and
-- balance the moment of the friction force that holds it (the down-slope corner deeper).
local function block_on_incline(theta, friction, speed, hold)
  local sys = mech.planar{ gravity = { 0, -g } }
  local m, hx, hy, K = 1.0, 0.05, 0.025, 1e7
  local law = mech.contact.kelvin_voigt{ K = K, c = 2e3 }
  local c, s = math.cos(theta), math.sin(theta)
  local fn1, fn2 = m * g * c / 2, m * g * c / 2
  if hold then -- friction m g s up the slope, at the bottom face hy below the centre
    local diff = m * g * s * hy / hx
    fn1, fn2 = fn1 + diff / 2, fn2 - diff / 2
  end
  local d1, d2 = fn1 / K, fn2 / K
  local delta = math.asin((d1 - d2) / (2 * hx))
  local h = -(d1 + d2) / 2 + hy * math.cos(delta) -- centre's height along the normal
  local block = sys:body{ name = "block", mass = m, inertia = m * (0.1 ^ 2 + 0.05 ^ 2) / 12,
    at = { -s * h, c * h }, angle = theta + delta }
  for i, x in ipairs{ -hx, hx } do
    sys:contact{ block, body_at = { x, -hy }, name = "corner" .. i, law = law, friction = friction,
      surface = { at = { 0, 0 }, normal = { -s, c }, speed = speed } }
  end
  return sys, block
end

do -- static friction: tan(theta) below mu_s stays at rest, exactly with the stick law
  local theta = math.atan(0.4)
  local sys = block_on_incline(theta, mech.friction.stick{ mu_s = 0.5, mu = 0.3 }, 0, true)
  local run = sys:simulate{ t = 1, report = 0.01, method = "rk4", h = 2e-5,
    record = { "block.x", "block.y", "corner1.stick", "corner1.ft", "corner1.fn" } }
  local moved = math.abs(run["block.x"][#run] - run["block.x"][1])
  tap.ok(moved < 1e-12, string.format("stick law, tan(theta) = 0.4 < mu_s = 0.5: the block stays (moved %.1e m)",
    moved))
  tap.is(run["corner1.stick"]:min(), 1, "its corners stick all along")
  local sys2 = block_on_incline(theta, mech.friction.coulomb{ mu = 0.5, regularization = "tanh", v_reg = 1e-4 })
  local run2 = sys2:simulate{ t = 1, report = 0.01, method = "rk4", h = 2e-5, record = { "block.x" } }
  -- regularised Coulomb creeps: tanh(v / v_reg) = tan(theta) / mu -> v = v_reg atanh(0.8)
  local expected = 1e-4 * 0.5 * math.log((1 + 0.8) / (1 - 0.8))
  local rate = math.abs(run2["block.x"][#run2] - run2["block.x"][51]) / 0.5 / math.cos(theta)
  tap.near(rate, expected, 0.05 * expected,
    string.format("regularised Coulomb (tanh, v_reg = 1e-4): creeps at v_reg atanh(tan/mu) = %.3g m/s", expected))
  -- the square-root regularisation creeps where mu v / sqrt(v^2 + v_reg^2) = tan(theta):
  -- v = v_reg r / sqrt(1 - r^2) with r = 0.8, 4/3 v_reg; a regularised Stribeck law with
  -- mu_s = mu (g = mu whatever the speed) creeps like Coulomb with the same regularisation
  for _, case in ipairs{
    { mech.friction.coulomb{ mu = 0.5, regularization = "sqrt", v_reg = 1e-4 }, 1e-4 * 4 / 3,
      "regularised Coulomb (sqrt, v_reg = 1e-4): creeps at 4/3 v_reg" },
    { mech.friction.stribeck{ mu = 0.5, regularization = "tanh", v_reg = 1e-4 }, expected,
      "regularised Stribeck (tanh) with mu_s = mu creeps like Coulomb" },
    { mech.friction.stribeck{ mu = 0.5, regularization = "sqrt", v_reg = 1e-4 }, 1e-4 * 4 / 3,
      "regularised Stribeck (sqrt) with mu_s = mu creeps like Coulomb" } } do
    local sysr = block_on_incline(theta, case[1])
    local runr = sysr:simulate{ t = 1, report = 0.01, method = "rk4", h = 2e-5, record = { "block.x" } }
    local v = math.abs(runr["block.x"][#runr] - runr["block.x"][51]) / 0.5 / math.cos(theta)
    -- the same 5% as the tanh case: the block's corners share the load unevenly
    tap.near(v, case[2], 0.05 * case[2], string.format("%s (%.3g m/s)", case[3], v))
  end
  local sys3 = block_on_incline(math.atan(0.6), mech.friction.stick{ mu_s = 0.5, mu = 0.3 })
  local run3 = sys3:simulate{ t = 0.2, report = 0.01, method = "rk4", h = 2e-5, record = { "block.x" } }
  -- sliding: a = g (sin - mu cos) along the plane
  local a = g * (math.sin(math.atan(0.6)) - 0.3 * math.cos(math.atan(0.6)))
  local along = math.abs(run3["block.x"][#run3] - run3["block.x"][1]) / math.cos(math.atan(0.6))
  tap.near(along, 0.5 * a * 0.2 ^ 2, 0.02 * 0.5 * a * 0.2 ^ 2,
    "tan(theta) = 0.6 > mu_s: it slides with a = g (sin - mu_k cos)")
end

do -- a belt drives a block held by a spring: stick-slip
  local sys, block = block_on_incline(0, mech.friction.stick{ mu_s = 0.6, mu = 0.3 }, 0.1)
  sys:spring{ sys.ground, block, at = { { -0.5, 0.025 }, { 0, 0.025 } }, k = 100, name = "spring" }
  local run = sys:simulate{ t = 2, report = 1e-3, method = "rk4", h = 2e-5,
    record = { "block.x", "block.vx", "corner1.stick", "corner1.vt", "system.friction" } }
  local stick = 0
  for i = 1, #run do stick = stick + run["corner1.stick"][i] end
  local frac = stick / #run
  tap.ok(frac > 0.2 and frac < 0.95, string.format("the block sticks to the belt part of the time (%.0f%%)",
    100 * frac))
  -- while sticking it moves with the belt (v = 0.1 m/s); the spring pulls it back when
  -- k x exceeds mu_s m g = 5.9 N, at x ~ 0.059 m
  tap.ok(run["block.x"]:max() > 0.05 and run["block.x"]:max() < 0.07,
    string.format("it breaks away near mu_s m g / k (x max %.4f m)", run["block.x"]:max()))
  -- sticking means sliding slower than v_eps = 1e-5 m/s relative to the belt
  tap.ok(run["corner1.vt"]:max() < 2e-5, string.format("its corners never overtake the belt "
    .. "(%.1e m/s at most)", run["corner1.vt"]:max()))
  local fr = run["system.friction"]
  local down = 0
  for i = 2, #run do down = math.min(down, fr[i] - fr[i - 1]) end
  tap.ok(down > -1e-9, "friction never injects energy (its dissipated work never decreases)")
end

do -- Dahl and LuGre: steady sliding reaches the Coulomb/Stribeck value
  for _, law in ipairs{ mech.friction.dahl{ mu = 0.3, sigma0 = 1e5 },
                        mech.friction.lugre{ mu = 0.3, mu_s = 0.5, vs = 0.01, sigma0 = 1e5,
                          sigma1 = 20, sigma2 = 0.4 } } do
    local sys, block = block_on_incline(0, law, 0.2) -- the belt slides under the block
    sys:spring{ sys.ground, block, at = { { -0.5, 0.025 }, { 0, 0.025 } }, k = 1e4, name = "spring" }
    local run = sys:simulate{ t = 0.5, report = 1e-3, method = "bdf", rtol = 1e-7, atol = 1e-10,
      record = { "corner1.ft", "corner2.ft", "corner1.fn", "corner2.fn", "corner1.vt", "corner2.vt",
        "corner1.z", "corner2.z" } }
    -- the block still swings slowly on its spring: compare with the law at the slip speed and
    -- normal force of the moment; the bristles have settled (their time constant
    -- g / (sigma0 |v|) is about 0.1 ms)
    local n, ft, expected = #run, 0, 0
    for _, c in ipairs{ "corner1", "corner2" } do
      local v, fn = run[c .. ".vt"][n], run[c .. ".fn"][n]
      ft = ft + run[c .. ".ft"][n]
      expected = expected - (0.3 * fn + (law.law == "lugre" and 0.4 * math.abs(v) or 0)) * (v > 0 and 1 or -1)
    end
    tap.near(ft, expected, 1e-3 * math.abs(expected),
      string.format("%s: steady sliding friction %.4f N = mu_k F_n (+ viscous) %.4f N", law.law, ft, expected))
  end
end

-- A ball dropped from 1 mm onto a belt that runs at 0.1 m/s (the ball slides on it at -0.1
-- m/s): elastic Hertz contact (K = 1e9 N/m^1.5), two bounces in 0.05 s of about 1.2 ms each.
-- Events record the state just after each contact ends (gap 1e-9 m, rising), just before each
-- begins (gap 1e-9 m, falling) and early in each (penetration 1e-7 m, fn = 0.03 N).
local function bounce(friction)
  local sys = mech.planar{ gravity = { 0, -g } }
  local ball = sys:body{ name = "ball", mass = 1, inertia = 1, at = { 0, 1e-3 } }
  sys:prismatic{ sys.ground, ball, axis = { 0, 1 } }
  sys:contact{ ball, body_at = { 0, 0 }, name = "floor", law = mech.contact.hertz{ K = 1e9 },
    friction = friction, surface = { at = { 0, 0 }, normal = { 0, 1 }, speed = 0.1 } }
  local run = sys:simulate{ t = 0.05, report = 1e-3, method = "bdf", rtol = 1e-10, atol = 1e-12,
    record = { "floor.z", "floor.fn", "floor.ft", "floor.vt", "floor.impacts" },
    events = { { name = "after", channel = "floor.gap", value = 1e-9, direction = 1 },
               { name = "before", channel = "floor.gap", value = 1e-9, direction = -1 },
               { name = "in", channel = "floor.penetration", value = 1e-7, direction = 1 } } }
  local ev = {}
  for _, e in ipairs(run.events) do
    ev[e.name] = ev[e.name] or {}
    table.insert(ev[e.name], e)
  end
  return run, ev
end

do -- the bristle state at a contact's onset: reset to 0 (default) or kept (reset = "never")
  -- The bounded Dahl law keeps its deflection when g shrinks at the end of a contact (the
  -- deflection used is held on the ball |z| <= g/sigma0 and z' = v - |v| z/|z| = 0 for z along
  -- v), so the first contact ends with a deflection of about |v| times its duration, 1e-4 m.
  -- From the onset to the event 'in' (0.7 us) the state moves by at most 2 |v| dt = 1.4e-7 m:
  -- reset, it is within that of 0; kept, within that of the value the first contact ended with.
  for _, reset in ipairs{ "onset", "never" } do
    local run, ev = bounce(mech.friction.dahl{ mu = 0.3, sigma0 = 1e5, bounded = true,
      reset = reset })
    tap.is(run["floor.impacts"][#run], 2, reset .. ": two separate contacts")
    local z_end = ev.after[1].values["floor.z"]
    local z_before = ev.before[2].values["floor.z"]
    local z_in = ev["in"][2].values["floor.z"]
    local moved = 2 * 0.1 * (ev["in"][2].t - ev.before[2].t)
    tap.ok(math.abs(z_end) > 5e-5, string.format("%s: the first contact ends with z = %.3g m",
      reset, z_end))
    tap.near(z_before, z_end, 1e-12 * math.abs(z_end),
      reset .. ": the bristle state is frozen while the contact is open")
    if reset == "onset" then
      tap.ok(math.abs(z_in) <= moved, string.format("onset: the second contact starts from z = 0 "
        .. "(%.3g m early in it, bound %.3g m)", z_in, moved))
    else
      tap.ok(math.abs(z_in - z_end) <= moved, string.format("never: the second contact starts "
        .. "from the first one's z (%.6g m early in it; the first ended with %.6g m)", z_in, z_end))
    end
  end
end

do -- bounded LuGre: no friction above mu_s fn + sigma2 |v| at the ends of a contact
  -- Canudas de Wit's sigma1 = sqrt(1e5) N s/m: early in the contact z' ~ v and the plain
  -- law's damping term sigma1 z' is tens of newtons while fn is 0.03 N
  local function law(bounded)
    return mech.friction.lugre{ mu = 0.3, mu_s = 0.5, vs = 0.01, sigma0 = 1e5,
      sigma1 = math.sqrt(1e5), sigma2 = 0.4, bounded = bounded }
  end
  local _, plain = bounce(law(false))
  local e = plain["in"][1].values
  tap.ok(math.abs(e["floor.ft"]) > 100 * 0.5 * e["floor.fn"], string.format("plain LuGre: "
    .. "friction %.3g N from a normal force of %.3g N", e["floor.ft"], e["floor.fn"]))
  local run, bounded = bounce(law(true))
  local worst = 0
  local function check(v)
    local cap = 0.5 * v["floor.fn"] + 0.4 * math.abs(v["floor.vt"])
    if v["floor.fn"] > 0 then worst = math.max(worst, math.abs(v["floor.ft"]) / cap) end
  end
  for _, list in pairs(bounded) do for _, x in ipairs(list) do check(x.values) end end
  for i = 1, #run do
    check{ ["floor.fn"] = run["floor.fn"][i], ["floor.ft"] = run["floor.ft"][i],
      ["floor.vt"] = run["floor.vt"][i] }
  end
  -- the cap is reached in the sliding that follows the onset: rounding only above it
  tap.ok(worst <= 1 + 1e-12, string.format("bounded LuGre: |ft| <= mu_s fn + sigma2 |v| "
    .. "(largest ratio %.15g)", worst))
end

do -- LuGre pre-sliding: a tiny oscillation is resisted like a spring of stiffness sigma0
  local sigma0 = 1e5
  local sys, block = block_on_incline(0, mech.friction.lugre{ mu = 0.3, mu_s = 0.5, vs = 0.01,
    sigma0 = sigma0, sigma1 = 300, sigma2 = 0 })
  block:point{ name = "c1", body_at = { -0.05, -0.025 } }
  block:point{ name = "c2", body_at = { 0.05, -0.025 } }
  local x0 = (sys:value("block.c1.x") + sys:value("block.c2.x")) / 2
  -- a hand on a rail shakes the block through a stiff horizontal spring
  local yc = sys:value("block.y")
  local guide = sys:body{ name = "hand", mass = 1, inertia = 1, at = { -0.2, yc } }
  sys:prismatic{ sys.ground, guide, axis = { 1, 0 }, name = "rail" }
  sys:drive{ sys:entity("rail"), name = "shaker", motion = function(t)
    local A, w = 1e-7, 20
    return A * math.sin(w * t), A * w * math.cos(w * t), -A * w * w * math.sin(w * t) end }
  sys:spring{ guide, block, at = { { -0.2, yc }, { 0, yc } }, k = 1e8, c = 1e3, name = "link" }
  local run = sys:simulate{ t = 0.6, report = 1e-4, method = "bdf", rtol = 1e-8, atol = 1e-13,
    record = { "block.c1.x", "block.c2.x", "corner1.ft", "corner2.ft" } }
  -- slope of the friction force against the corners' displacement: -sigma0 per corner
  -- (the bristles follow the surface: z ~ x when x << g / sigma0 = 3e-5 m)
  local num, den = 0, 0
  for i = math.floor(#run / 2), #run do
    local dx = (run["block.c1.x"][i] + run["block.c2.x"][i]) / 2 - x0
    num = num + dx * (run["corner1.ft"][i] + run["corner2.ft"][i])
    den = den + dx * dx
  end
  local k = -num / den
  tap.near(k / (2 * sigma0), 1, 0.1, string.format("pre-sliding stiffness %.3g N/m ~ 2 sigma0", k))
end

do -- errors
  local sys = mech.planar{}
  local b = sys:body{ name = "b", mass = 1, inertia = 1 }
  tap.raises(function() mech.contact.hertz{ n = 1.5 } end, "give 'K', or 'material'", "a law needs K")
  tap.raises(function() mech.contact.flores{ K = 1e9 } end, "field 'restitution' is required",
    "restitution laws need e")
  tap.raises(function() mech.contact.flores{ K = 1e9, restitution = 0 } end, "restitution",
    "e = 0 is refused by Flores (it divides by e)")
  tap.raises(function() mech.contact.hertz{ K = -1 } end, "K must be > 0", "K > 0")
  tap.raises(function() mech.friction.coulomb{} end, "field 'mu' is required", "mu is required")
  tap.raises(function() mech.friction.stick{ mu = 0.5, mu_s = 0.3 } end, "mu_s", "mu_s >= mu")
  tap.raises(function() sys:contact{ b, surface = { at = { 0, 0 } } } end, "field 'law' is required",
    "a contact needs a law")
  tap.raises(function() sys:contact{ b, law = mech.friction.coulomb{ mu = 0.1 }, surface = {} } end,
    "field 'law' must be a contact law (got a friction law)", "laws are checked by kind")
  tap.raises(function() sys:contact{ b, law = mech.contact.hertz{ K = 1 }, surface = { normal = { 0, 0 } } } end,
    "the normal not zero", "the surface needs a normal")
  tap.raises(function() sys:contact{ sys.ground, law = mech.contact.hertz{ K = 1 }, surface = {} } end,
    "the touching point must be on a moving body", "the ground does not touch")
  -- stiffness from materials and geometry
  local k = mech.stiffness.journal{ material = "steel", bearing = 0.010, journal = 0.0095 }
  tap.ok(k > 6e10 and k < 7e10, string.format("journal in bearing, steel 10/9.5 mm: K = %.3g N/m^1.5", k))
  local law = mech.contact.lankarani_nikravesh{ material = "steel", bearing = 0.010, journal = 0.0095,
    restitution = 0.9 }
  tap.near(law.K, k, 1e-6 * k, "a law can take its K from materials and geometry")
  tap.is(mech.materials.pair("steel", "aluminium").mu_s, 0.61, "friction pairs by name")
  -- two materials: the law is a law (its metatable once went onto the materials' table, which
  -- every joint then refused), and the caller's table is left as it was
  local pair = { "steel", "aluminium" }
  local two = mech.contact.lankarani_nikravesh{ materials = pair, radius = 1e-3, restitution = 0.58 }
  tap.is(getmetatable(pair), nil, "a law from materials = {a, b} leaves the caller's table alone")
  tap.is(tostring(two):match("^contact law lankarani_nikravesh:") ~= nil, true,
    "a law from materials = {a, b} is a law")
  local sys = mech.planar{}
  local b = sys:body{ name = "b", mass = 1, inertia = 1e-3 }
  tap.ok(pcall(sys.contact, sys, { b, body_at = { 0, 0 }, law = two, surface = { at = { 0, -1 }, normal = { 0, 1 } } }),
    "a law from materials = {a, b} is taken by a contact")
  tap.raises(function() mech.contact.hertz{ material = "unobtainium", radius = 1 } end,
    "unknown material 'unobtainium'", "unknown materials are named")
end

tap.done()
