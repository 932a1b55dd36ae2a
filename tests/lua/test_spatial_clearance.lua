-- SPDX-License-Identifier: MIT
-- sys:revolute{ ..., clearance = { radial, axial }, bearing = { radius, length },
-- journal = { radius, length }, contact = law, friction = law } in a spatial system: the
-- spatial revolute joint with clearance of [Spatial revolute paper] through the Lua API.
-- A journal drops in a bearing fixed to the ground: with an elastic law its energy stays,
-- with Lankarani-Nikravesh it only decreases into the contact damping account, with LuGre
-- friction (two bristle states per contact) the balance still closes, and so with the bounded
-- bristle laws and the square-root regularisation; the sizes given in any two of the three
-- ways make the same joint; the errors name the joint and the values.
local tap = require "tap"
local raises = tap.raises

local function model(extra, vel)
  local sys = mech.spatial { gravity = { 0, -9.81, 0 } }
  local r, l = 9.5e-3, 39e-3
  local j = sys:body { name = "journal", mass = 1, at = { 0, 0, 0 },
    inertia = { (3 * r * r + l * l) / 12, (3 * r * r + l * l) / 12, r * r / 2 },
    velocity = vel or { 0.02, 0, 0 }, omega = { 0, 0, 5 } }
  local def = { sys.ground, j, name = "bear", at = { 0, 0, 0 }, axis = { 0, 0, 1 } }
  for k, v in pairs(extra) do def[k] = v end
  sys:revolute(def)
  return sys
end

local hertz = mech.contact.hertz { K = 1e9, n = 1.5 }
local sizes = { clearance = { radial = 0.5e-3, axial = 0.5e-3 },
  bearing = { radius = 10e-3, length = 40e-3 } }
local function with(t)
  local d = {}
  for k, v in pairs(sizes) do d[k] = v end
  for k, v in pairs(t) do d[k] = v end
  return d
end
local REC = { "system.energy", "system.balance", "system.contact_damping", "system.friction",
  "bear.radial_a.impacts", "bear.radial_b.impacts" }

-- ---- elastic: the energy stays through the impacts -------------------------------------------
do
  local sys = model(with { contact = hertz })
  tap.like(sys:describe(), "joint bear: revolute, .*clearance: bearing radius 0%.01 m, length "
    .. "0%.04 m, journal radius 0%.0095 m, length 0%.039 m; hertz", "describe: the clearance")
  local run = sys:simulate { t = 0.1, rtol = 1e-8, atol = 1e-11, record = REC }
  local E = run["system.energy"]
  local scale = 9.81 * 0.5e-3 + 0.5 * 0.02 ^ 2
  tap.ok(run["bear.radial_a.impacts"]:max() >= 5 and run["bear.radial_b.impacts"]:max() >= 5,
    "elastic: impacts at both ends")
  -- as in test_sclearance.c: measured drift about 4e-6 of the energy that moves
  tap.ok((E:max() - E:min()) <= 5e-5 * scale, string.format("elastic: energy kept (drift %.3g J)",
    E:max() - E:min()))
end

-- ---- damped: the energy only decreases, into the contact damping account ---------------------
do
  local law = mech.contact.lankarani_nikravesh { K = 1e9, n = 1.5, restitution = 0.8 }
  local run = model(with { contact = law }):simulate { t = 0.1, rtol = 1e-8, atol = 1e-11,
    record = REC }
  local E, D = run["system.energy"], run["system.contact_damping"]
  local rise = 0
  for i = 2, #E do rise = math.max(rise, E[i] - E[i - 1]) end
  tap.ok(rise <= 1e-12, "damped: the energy never rises")
  tap.ok(E[1] - E[#E] > 0 and math.abs(D[#D] - (E[1] - E[#E])) <= 1e-8,
    "damped: the loss is the contact damping")
end

-- ---- friction: a vector law with bristles per contact; the balance closes --------------------
do
  local law = mech.contact.lankarani_nikravesh { K = 1e9, n = 1.5, restitution = 0.9 }
  -- the normalised LuGre law (the force-form one's bristles are too stiff while the normal
  -- force is small, at each onset: planar contacts share that) and a regularised Coulomb law
  for _, fr in ipairs { mech.friction.lugre { mu = 0.1, mu_s = 0.15, sigma0 = 1e5, sigma1 = 300,
    vs = 0.01, normalized = true }, mech.friction.ambrosio { mu = 0.1 } } do
    local run = model(with { contact = law, friction = fr }):simulate { t = 0.1, rtol = 1e-8,
      atol = 1e-11, record = REC }
    local F, B = run["system.friction"], run["system.balance"]
    local name = fr.type or tostring(fr)
    tap.ok(F[#F] > 1e-4, string.format("friction %s: friction dissipates (%.3g J)", name, F[#F]))
    tap.ok(math.max(B:max(), -B:min()) <= 1e-7,
      string.format("friction %s: the energy balance closes (%.3g J)", name,
        math.max(B:max(), -B:min())))
  end
end

-- ---- an aligned end face against its end wall -----------------------------------------------
-- The journal, exactly aligned and centred, slides along the axis into end wall B and back
-- into end wall A, without gravity.  Its flat end meets the wall face to face: the face contact
-- is smooth through the alignment (before it was, the point flipped across the rim with the
-- sign of a tilt of 1e-17 rad and DOPRI5 crawled: 625 000 steps for 25 ms).  The journal keeps
-- its energy and comes back along the axis without turning.
do
  local sys = mech.spatial { gravity = { 0, 0, 0 } }
  local r, l = 9.5e-3, 39e-3
  local j = sys:body { name = "journal", mass = 1, at = { 0, 0, 0 },
    inertia = { (3 * r * r + l * l) / 12, (3 * r * r + l * l) / 12, r * r / 2 },
    velocity = { 0, 0, 0.05 } }
  sys:revolute(with { sys.ground, j, name = "bear", at = { 0, 0, 0 }, axis = { 0, 0, 1 },
    contact = hertz })
  local run = sys:simulate { t = 0.05, rtol = 1e-8, atol = 1e-11,
    record = { "system.energy", "journal.vz", "journal.wx", "journal.wy", "bear.axial_a.impacts",
      "bear.axial_b.impacts" } }
  local E = run["system.energy"]
  tap.ok(run["bear.axial_b.impacts"]:max() == 1 and run["bear.axial_a.impacts"]:max() == 1,
    "aligned face: one impact on end wall B, then one on A")
  -- rtol 1e-8 over 85 steps and two impacts: measured 2e-6 of the energy; a force off the
  -- gradient of the depth (the point on the face, the depth at the rim) loses percents
  tap.ok((E:max() - E:min()) <= 1e-5 * E[1], string.format(
    "aligned face: energy kept to 1e-5 (%.3g of it)", (E:max() - E:min()) / E[1]))
  local w = math.max(run["journal.wx"]:max(), -run["journal.wx"]:min(), run["journal.wy"]:max(),
    -run["journal.wy"]:min())
  tap.ok(w <= 1e-9, string.format("aligned face: the journal does not turn (%.3g rad/s)", w))
  tap.ok(run.stats.steps < 5000, string.format("aligned face: %d steps for 50 ms",
    run.stats.steps))
end

-- ---- the options of the friction laws in the tangent plane (dim 2) --------------------------
do
  local law = mech.contact.lankarani_nikravesh { K = 1e9, n = 1.5, restitution = 0.9 }
  -- the plain force-form LuGre law (sigma1 = sqrt(1e5) N s/m) stops this run at the first
  -- onset (measured: step size underflow near t = 0.0097 s); its bounded form runs, as do
  -- bounded Dahl, a contact that keeps its bristles and the square-root regularisation of
  -- Coulomb and Stribeck friction
  local cases = {
    { "bounded lugre", mech.friction.lugre { mu = 0.1, mu_s = 0.15, sigma0 = 1e5, vs = 0.01,
      bounded = true } },
    { "bounded lugre, reset never", mech.friction.lugre { mu = 0.1, mu_s = 0.15, sigma0 = 1e5,
      vs = 0.01, bounded = true, reset = "never" } },
    { "bounded dahl", mech.friction.dahl { mu = 0.1, sigma0 = 1e5, bounded = true } },
    { "coulomb sqrt", mech.friction.coulomb { mu = 0.1, regularization = "sqrt" } },
    { "stribeck sqrt", mech.friction.stribeck { mu = 0.1, mu_s = 0.15, vs = 0.01,
      regularization = "sqrt", v_reg = 1e-3 } },
  }
  for _, c in ipairs(cases) do
    local run = model(with { contact = law, friction = c[2] }):simulate { t = 0.1, rtol = 1e-8,
      atol = 1e-11, record = REC }
    local F, B = run["system.friction"], run["system.balance"]
    tap.ok(run.status == "complete" and F[#F] > 1e-4,
      string.format("%s: runs through the impacts, friction dissipates (%.3g J)", c[1], F[#F]))
    -- the same bound as the laws above: measured 6e-10 to 5e-9 J
    tap.ok(math.max(B:max(), -B:min()) <= 1e-7, string.format("%s: the energy balance closes "
      .. "(%.3g J)", c[1], math.max(B:max(), -B:min())))
  end
end

-- ---- sticking friction in the tangent plane ------------------------------------------------------
-- A journal pressed down on the bearing's wall by 10 N (no gravity; both ends carry it) and
-- pushed along the axis, where the wall is straight: the stick law of [Zheng & Wang, Eq. 13]
-- (mu_s 0.3, mu 0.2, v_eps 1e-4 m/s).  Pushed by 1 N (below mu F_N = 2 N): the friction slows
-- it to the stick band and then holds it, equal to the push; pushed by 4 N (above mu_s F_N =
-- 3 N): it slides, the friction mu F_N, the acceleration (4 - 2) N / 1 kg.  A huge moment of
-- inertia keeps it from rolling (the law ignores rotations, as in the plane).
local function pressed(F, t)
  local sys = mech.spatial { gravity = { 0, 0, 0 } }
  local j = sys:body { name = "journal", mass = 1, at = { 0, -0.5e-3, 0 }, inertia = { 10, 10, 10 } }
  sys:revolute { sys.ground, j, name = "bear", a_at = { 0, 0, 0 }, b_at = { 0, 0, 0 }, axis = { 0, 0, 1 },
    clearance = { radial = 0.5e-3, axial = 0.5e-3 }, bearing = { radius = 10e-3, length = 40e-3 },
    contact = mech.contact.lankarani_nikravesh { K = 1e9, n = 1.5, restitution = 0.3 },
    friction = mech.friction.stick { mu_s = 0.3, mu = 0.2, v_eps = 1e-4 } }
  sys:force { j, value = { 0, -10, F }, name = "push" }
  return sys:simulate { t = t, report = 1e-4, rtol = 1e-8, atol = 1e-11,
    record = { "journal.vz", "bear.radial_a.fn", "bear.radial_b.fn", "bear.radial_a.ft", "bear.radial_b.ft",
      "bear.radial_a.vt", "system.friction", "system.balance" } }
end
do
  local r = pressed(1, 0.05)
  local n = #r.t
  local ft = r["bear.radial_a.ft"][n] + r["bear.radial_b.ft"][n]
  local fn = r["bear.radial_a.fn"][n] + r["bear.radial_b.fn"][n]
  local dv = math.abs(r["journal.vz"][n] - r["journal.vz"][n - 100])
  -- held: the slip stays in the band (the start's settling leaves it at 9.96e-5 m/s, where the
  -- holding force keeps it); it changes by 4e-20 m/s in the last 10 ms, while sliding it would
  -- change by 1e-2
  tap.ok(r["bear.radial_a.vt"][n] < 2e-4 and dv <= 1e-6, string.format("stick: pushed by 1 N, held in the "
    .. "stick band (slip %.3g m/s, its change over the last 10 ms %.2g m/s)", r["bear.radial_a.vt"][n], dv))
  -- the holding force equals the push to the balance of the 10 N and 1 N loads, far below mu_s F_N
  tap.ok(math.abs(ft - 1) <= 1e-4 and ft < 0.3 * fn, string.format("stick: the friction holds with the "
    .. "push, %.6f N (mu_s F_N = %.3f N)", ft, 0.3 * fn))
  -- each end takes the share of the push its normal force gives it (they differ by 3%): once the
  -- first end's force was read by the second as a load of its own, 0.61 and 0.39 N, the journal
  -- creeping on the ramp at 1.24e-4 m/s
  local share = r["bear.radial_a.ft"][n] / ft - r["bear.radial_a.fn"][n] / fn
  tap.ok(math.abs(share) <= 1e-5, string.format("stick: the ends share the holding force by their normal "
    .. "forces (%.6f N of %.6f N for %.6f N of %.6f N)", r["bear.radial_a.ft"][n], ft, r["bear.radial_a.fn"][n], fn))
  local B = r["system.balance"]
  tap.ok(math.max(B:max(), -B:min()) <= 1e-9, "stick: the energy balance closes")
  r = pressed(4, 0.02)
  n = #r.t
  ft = r["bear.radial_a.ft"][n] + r["bear.radial_b.ft"][n]
  fn = r["bear.radial_a.fn"][n] + r["bear.radial_b.fn"][n]
  local a = (r["journal.vz"][n] - r["journal.vz"][n - 50]) / (r.t[n] - r.t[n - 50])
  -- the acceleration by a difference over 5 ms, while the normal force rings by 1e-4 N
  tap.ok(math.abs(ft - 0.2 * fn) <= 1e-9 * fn and math.abs(a - (4 - ft)) <= 1e-3, string.format("stick: "
    .. "pushed by 4 N it slides, friction mu F_N = %.6f N, acceleration %.6f m/s^2", ft, a))
end

-- ---- the start's warning in space ----------------------------------------------------------------
-- A joint whose journal starts fast across its clearance while the mechanism is slow is
-- named in a warning (its first impact comes from the start).  The spatial warning once read
-- the bodies as planar ones: a journal sliding along z counted as at rest, so the journal of
-- the aligned-face run above (0.05 m/s along its axis, the only moving body) was reported
-- against a "fastest point" of 0 m/s, with a remedy for planar systems.
local function warnings()
  local out = {}
  for message in pairs(debug.getregistry()["mechlua.warned"] or {}) do out[#out + 1] = message end
  return out
end
do
  local before = #warnings()
  local sys = mech.spatial { gravity = { 0, 0, 0 } }
  local j = sys:body { name = "journal", mass = 1, at = { 0, 0, 0 }, inertia = { 1e-4, 1e-4, 1e-4 },
    velocity = { 0, 0, 0.05 } }
  sys:revolute(with { sys.ground, j, name = "slide", at = { 0, 0, 0 }, axis = { 0, 0, 1 }, contact = hertz })
  sys:simulate { t = 1e-3, record = { "journal.z" } }
  tap.is(#warnings(), before, "a journal moving alone along its axis: no warning (it is the mechanism)")
  -- a slow wheel (0.01 rad/s) whose bearing, 0.5 m off its hub, holds a journal thrown across the
  -- clearance at 0.02 m/s: 0.025 m/s relative to the bearing
  local sys2 = mech.spatial { gravity = { 0, 0, 0 } }
  local wheel = sys2:body { name = "wheel", mass = 1, at = { 0.5, 0, 0 }, inertia = { 1e-3, 1e-3, 1e-3 },
    omega = { 0, 0, 0.01 } }
  sys2:revolute { sys2.ground, wheel, at = { 0.5, 0, 0 }, axis = { 0, 0, 1 }, name = "hub" }
  local jj = sys2:body { name = "thrown", mass = 1, at = { 0, 0, 0 }, inertia = { 1e-4, 1e-4, 1e-4 },
    velocity = { 0, 0.02, 0 } }
  sys2:revolute(with { wheel, jj, name = "loose", at = { 0, 0, 0 }, axis = { 0, 0, 1 },
    contact = hertz })
  sys2:simulate { t = 1e-4, record = { "thrown.y" } }
  local found
  for _, w in ipairs(warnings()) do if w:find("'loose'", 1, true) then found = w end end
  tap.ok(found and found:find("moving at 0.025 m/s", 1, true) and not found:find("mech.planar", 1, true)
    and found:find("ideal mechanism's velocities", 1, true), "a journal thrown across its clearance: "
    .. "the warning names it, its speed and a remedy for spatial systems")
  tap.diag(found or "(no warning)")
end

-- ---- the sizes in any two of three ways ------------------------------------------------------
do
  local a = model { contact = hertz, bearing = { radius = 10e-3, length = 40e-3 },
    journal = { radius = 9.5e-3, length = 39e-3 } }
  local b = model { contact = hertz, clearance = { radial = 0.5e-3, axial = 0.5e-3 },
    journal = { radius = 9.5e-3, length = 39e-3 } }
  local d1, d2 = a:describe(), b:describe()
  tap.is(d1, d2, "bearing + journal and clearance + journal make the same joint")
end

-- ---- the joint's channels -----------------------------------------------------------------------
do
  local sys = model(with { contact = hertz })
  local list = tostring(sys:entity("bear").channels)
  tap.is(list, "ex, ey, ez, e, exb, eyb, axial, tilt, angle, impacts, active, fx, fy, fz, f, mx, my, "
    .. "mz, m, fx_j, fy_j, fz_j, mx_j, my_j, mz_j, radial_a.gap, radial_a.fn, radial_b.gap, "
    .. "radial_b.fn, axial_a.gap, axial_a.fn, axial_b.gap, axial_b.fn",
    "channels: eccentricity, tilt, angle, totals, the resultant as the ideal joint's, each contact")
  tap.raises(function() sys:simulate { t = 1e-3, record = { "bear.violation" } } end,
    "'bear' has no quantity 'violation'; it has ex, ey", "no violation: no equation (as planar)")
  local f = assert(io.open((os.getenv("MECHLUA_SOURCE") or ".") .. "/man/mechlua-spatial.3"))
  local man = f:read("a")
  f:close()
  local section = man:match("%.B revolute joint with clearance\n(.-)\n%.TP") or ""
  local missing = {}
  for q in list:gsub("[%w_]+%.", ""):gmatch("[%w_]+") do
    if not section:find(q, 1, true) then missing[#missing + 1] = q end
  end
  tap.is(#missing, 0, "mechlua-spatial(3) names every channel in the joint's entry "
    .. table.concat(missing, " "))
  tap.like(require("mechhelp").topics["spatial:revolute"], "axial, tilt, angle, impacts, active",
    "help(\"spatial:revolute\") lists them")
end

-- ---- its contacts, described ------------------------------------------------------------------
-- Each of the four contacts is an entity; tostring once described it as a planar point contact
-- ("journal (0, 0) on the surface of ground through (0, 0) normal (0, 0)", found by the fuzzer
-- in an error message that showed the contact): it names the journal's end, the wall, both
-- cylinders and the joint.
do
  local sys = model(with { contact = hertz })
  for _, c in ipairs { { "radial_a", "A", "wall" }, { "radial_b", "B", "wall" }, { "axial_a", "A", "end wall A" },
    { "axial_b", "B", "end wall B" } } do
    local want = "^contact 'bear%." .. c[1] .. "': end " .. c[2] .. " of the journal of journal %(radius 0%.0095 m, "
      .. "length 0%.039 m%) against the bearing's " .. c[3] .. " of ground %(radius 0%.01 m, length 0%.04 m%), in "
      .. "revolute 'bear'; hertz K 1000000000 "
    tap.like(tostring(sys:entity("bear." .. c[1])), want,
      "tostring of contact " .. c[1] .. ": its end, its wall, the cylinders, the joint")
  end
end

-- ---- the resultant: Newton and Euler on the journal, at every row --------------------------------
-- The contacts are the only forces on the journal but gravity, and its anchor is its centre of
-- mass, so the resultant the joint reports must be m (a - g) and, about the anchor,
-- J_w alpha + omega x H (J_w = A J A^T), with a, alpha, omega, H, A the journal's own channels
-- of the same evaluation.  Only the rounding of the sums separates them: the forces reach
-- 200 N here and agree to 1e-14 N (seen); 1e-10 of the largest is a bound with room and far
-- below any wrong sign, missing contact or friction term (those are of the order of the force).
do
  local g = 9.81
  local sys = mech.spatial { gravity = { 0, -g, 0 } }
  local r, l = 9.5e-3, 39e-3
  local J = { (3 * r * r + l * l) / 12, (3 * r * r + l * l) / 12, r * r / 2 }
  local jb = sys:body { name = "journal", mass = 1, at = { 0, 0, 0 }, inertia = J,
    velocity = { 0.02, 0, 0.01 }, omega = { 0.3, 0.2, 100 } }
  sys:revolute(with { sys.ground, jb, name = "bear", at = { 0, 0, 0 }, axis = { 0, 0, 1 },
    ref = { 1, 0, 0 }, contact = mech.contact.lankarani_nikravesh { K = 1e9, n = 1.5, restitution = 0.8 },
    friction = mech.friction.ambrosio { mu = 0.1 } })
  local rec = { "bear.fx", "bear.fy", "bear.fz", "bear.f", "bear.mx", "bear.my", "bear.mz", "bear.m",
    "bear.fx_j", "bear.fy_j", "bear.fz_j", "bear.mx_j", "bear.my_j", "bear.mz_j", "bear.tilt",
    "bear.angle", "bear.impacts", "bear.active", "bear.ex", "bear.ey", "bear.ez", "bear.e", "bear.exb",
    "bear.eyb", "bear.axial", "journal.x", "journal.y", "journal.z" }
  for _, q in ipairs { "ax", "ay", "az", "alphax", "alphay", "alphaz", "wx", "wy", "wz", "hx", "hy", "hz" } do
    rec[#rec + 1] = "journal." .. q
  end
  for i = 1, 3 do for k = 1, 3 do rec[#rec + 1] = "journal.r" .. i .. k end end
  for _, c in ipairs { "radial_a", "radial_b", "axial_a", "axial_b" } do
    rec[#rec + 1] = "bear." .. c .. ".impacts"
    rec[#rec + 1] = "bear." .. c .. ".active"
  end
  local run = sys:simulate { t = 0.1, rtol = 1e-8, atol = 1e-11, record = rec }
  local function at(name, i) return run[name][i] end
  local fmax, ferr, mmax, merr, jerr, nerr = 0, 0, 0, 0, 0, 0
  local terr, aerr, eerr, serr, near, turns = 0, 0, 0, 0, 0, 0
  for i = 1, #run do
    local A = {}
    for p = 1, 3 do A[p] = { at("journal.r" .. p .. "1", i), at("journal.r" .. p .. "2", i), at("journal.r" .. p .. "3", i) } end
    local acc = { at("journal.ax", i), at("journal.ay", i) + g, at("journal.az", i) }
    local al = { at("journal.alphax", i), at("journal.alphay", i), at("journal.alphaz", i) }
    local w = { at("journal.wx", i), at("journal.wy", i), at("journal.wz", i) }
    local H = { at("journal.hx", i), at("journal.hy", i), at("journal.hz", i) }
    local b, Jal = {}, {}
    for p = 1, 3 do
      b[p] = 0
      for q = 1, 3 do b[p] = b[p] + A[q][p] * al[q] end
      b[p] = b[p] * J[p]
    end
    for p = 1, 3 do
      Jal[p] = 0
      for q = 1, 3 do Jal[p] = Jal[p] + A[p][q] * b[q] end
    end
    local torque = { Jal[1] + w[2] * H[3] - w[3] * H[2], Jal[2] + w[3] * H[1] - w[1] * H[3],
      Jal[3] + w[1] * H[2] - w[2] * H[1] }
    local f = { at("bear.fx", i), at("bear.fy", i), at("bear.fz", i) }
    local m = { at("bear.mx", i), at("bear.my", i), at("bear.mz", i) }
    for k = 1, 3 do
      fmax, ferr = math.max(fmax, math.abs(f[k])), math.max(ferr, math.abs(f[k] - acc[k]))
      mmax, merr = math.max(mmax, math.abs(m[k])), math.max(merr, math.abs(m[k] - torque[k]))
    end
    -- the bearing is the ground with its joint frame the world's: the _j channels are the same
    local fj = { at("bear.fx_j", i), at("bear.fy_j", i), at("bear.fz_j", i) }
    local mj = { at("bear.mx_j", i), at("bear.my_j", i), at("bear.mz_j", i) }
    for k = 1, 3 do jerr = math.max(jerr, math.abs(fj[k] - f[k]), math.abs(mj[k] - m[k])) end
    nerr = math.max(nerr, math.abs(at("bear.f", i) - math.sqrt(f[1] ^ 2 + f[2] ^ 2 + f[3] ^ 2)),
      math.abs(at("bear.m", i) - math.sqrt(m[1] ^ 2 + m[2] ^ 2 + m[3] ^ 2)))
    -- the journal's axis is its body z (it starts aligned), its x axis the body x: the tilt
    -- and the angle from its rotation matrix, the angle followed across turns
    terr = math.max(terr, math.abs(at("bear.tilt", i) - math.atan(math.sqrt(A[1][3] ^ 2 + A[2][3] ^ 2), A[3][3])))
    local raw = math.atan(A[2][1], A[1][1])
    near = raw + 2 * math.pi * math.floor((near - raw) / (2 * math.pi) + 0.5)
    aerr = math.max(aerr, math.abs(at("bear.angle", i) - near))
    turns = near
    -- the bearing's centre is the origin: the journal's centre is its position
    local x, y, z = at("journal.x", i), at("journal.y", i), at("journal.z", i)
    eerr = math.max(eerr, math.abs(at("bear.ex", i) - x), math.abs(at("bear.ey", i) - y),
      math.abs(at("bear.ez", i) - z), math.abs(at("bear.exb", i) - x), math.abs(at("bear.eyb", i) - y),
      math.abs(at("bear.axial", i) - z), math.abs(at("bear.e", i) - math.sqrt(x * x + y * y)))
    local imp, act = 0, 0
    for _, c in ipairs { "radial_a", "radial_b", "axial_a", "axial_b" } do
      imp, act = imp + at("bear." .. c .. ".impacts", i), act + at("bear." .. c .. ".active", i)
    end
    serr = math.max(serr, math.abs(at("bear.impacts", i) - imp), math.abs(at("bear.active", i) - act))
  end
  tap.diag(string.format("resultant: up to %.3g N, %.3g N m; off Newton by %.3g N, Euler by %.3g N m; "
    .. "%d impacts, tilt up to %.3g rad, angle %.3f rad", fmax, mmax, ferr, merr, at("bear.impacts", #run),
    run["bear.tilt"]:max(), turns))
  tap.ok(fmax > 10 and ferr <= 1e-10 * fmax, "fx, fy, fz: the contacts' force on the journal, m (a - g)")
  tap.ok(mmax > 0.1 and merr <= 1e-10 * mmax,
    "mx, my, mz: their moment about its anchor, J_w alpha + omega x H")
  tap.ok(jerr <= 1e-12 * fmax, "fx_j .. mz_j: the same in the bearing's frame (here the world's)")
  tap.ok(nerr <= 1e-12 * fmax, "f, m: their magnitudes")
  -- a few roundings of O(1) values; the angle counts the turns of the spin (100 rad/s)
  tap.ok(terr <= 1e-12 and run["bear.tilt"]:max() > 1e-3, "tilt: the angle between the axes")
  tap.ok(aerr <= 1e-12 and turns > 2 * math.pi, string.format("angle: the turn about the axis, counting "
    .. "turns (%.3f rad)", turns))
  tap.ok(eerr <= 1e-15, "ex .. axial, e: the journal's centre against the bearing's")
  tap.ok(serr == 0 and at("bear.impacts", #run) >= 5, "impacts, active: the sums over the four contacts")
end

-- ---- at rest: the journal carries its weight, as on an ideal joint ---------------------------------
-- A linear law with damping (Kelvin-Voigt, K 1e8 N/m, c 1.5e4 N s/m per contact: the two
-- contacts under the journal's ends damp its bounce and its rocking at more than critical)
-- settles in about 1e-4 s; after 0.02 s the weight is carried to the integrator's tolerance:
-- fz = m g to 1e-6 relative (seen: 7e-11), and the journal sits m g / (2 K) below the
-- clearance, each end on its contact.  The bearing's axis is world x, its frame's x axis world
-- y (ref), so that the bearing-frame channels are not the world ones.
do
  local g, K, c, cr = 9.81, 1e8, 1.5e4, 0.5e-3
  local function rest(clear)
    local sys = mech.spatial { gravity = { 0, 0, -g } }
    local r, l = 9.5e-3, 39e-3
    local jb = sys:body { name = "journal", mass = 1, at = { 0, 0, clear and -cr or 0 },
      inertia = { r * r / 2, (3 * r * r + l * l) / 12, (3 * r * r + l * l) / 12 } }
    local def = { sys.ground, jb, name = "bear", a_at = { 0, 0, 0 }, b_at = { 0, 0, 0 },
      axis = { 1, 0, 0 }, ref = { 0, 1, 0 } }
    if clear then
      def.clearance = { radial = cr, axial = 0.5e-3 }
      def.bearing = { radius = 10e-3, length = 40e-3 }
      def.contact = mech.contact.kelvin_voigt { K = K, c = c }
    end
    sys:revolute(def)
    return sys
  end
  local rec = { "bear.fx", "bear.fy", "bear.fz", "bear.mx", "bear.my", "bear.mz", "bear.fx_j",
    "bear.fy_j", "bear.fz_j", "bear.e", "bear.exb", "bear.eyb", "bear.ez", "bear.active",
    "bear.radial_a.fn", "bear.radial_b.fn" }
  local run = rest(true):simulate { t = 0.02, report = 1e-3, rtol = 1e-10, atol = 1e-14, record = rec }
  local n = #run
  local function v(name) return run[name][n] end
  tap.near(v("bear.fz"), g, 1e-6 * g, string.format("fz carries the weight (%.12g N)", v("bear.fz")))
  tap.ok(math.abs(v("bear.fx")) + math.abs(v("bear.fy")) <= 1e-9 * g
    and math.abs(v("bear.mx")) + math.abs(v("bear.my")) + math.abs(v("bear.mz")) <= 1e-9 * g,
    "no other force, no moment about the journal's centre")
  tap.ok(math.abs(v("bear.fy_j") - v("bear.fz")) <= 1e-12 * g
    and math.abs(v("bear.fx_j")) + math.abs(v("bear.fz_j")) <= 1e-9 * g,
    "in the bearing's frame the weight is along its y axis (world z)")
  tap.ok(math.abs(v("bear.radial_a.fn") - g / 2) <= 1e-6 * g and math.abs(v("bear.radial_b.fn") - g / 2) <= 1e-6 * g
    and v("bear.active") == 2, "each end's radial contact carries half of it")
  local delta = g / (2 * K)
  tap.near(v("bear.e") - cr, delta, 1e-6 * delta, "the eccentricity is the clearance plus m g / (2 K)")
  tap.ok(v("bear.eyb") == v("bear.ez") and v("bear.eyb") < 0 and v("bear.exb") == 0,
    "exb, eyb: in the bearing's frame, down along its y axis")
  local irun = rest(false):simulate { t = 1e-3, report = 1e-3, record = { "bear.fx", "bear.fy", "bear.fz", "bear.fy_j" } }
  tap.ok(math.abs(irun["bear.fz"][#irun] - v("bear.fz")) <= 1e-6 * g
    and math.abs(irun["bear.fy_j"][#irun] - v("bear.fy_j")) <= 1e-6 * g,
    string.format("the ideal joint's fz, fy_j are the same (%.9g N): the same names and sign",
      irun["bear.fz"][#irun]))
end

-- ---- a journal that turns over in its bearing and leaves it through the far end wall ----------
-- A disc (radius 8 mm, length 4 mm) in a bearing of radius 10 mm: sqrt(8^2 + 2^2) < 10, so it
-- tumbles freely, turning at 87 rad/s about a diameter while it drifts along the axis at
-- 0.5 m/s, without gravity: a torque-free spin about a principal axis, so its motion is known.
-- Past 90 degrees of tilt end A leads towards end wall B, which only end B's axial contact
-- faces: end A's rim crosses the wall at about 24 ms with no contact ever touched, and the run
-- stops at the end of the first step that ends with the rim past the wall (the free motion
-- takes steps of milliseconds: up to one step late), naming the joint, the end, the wall, the
-- time and the rim point's place; the rows before are kept.  The rim point that leads towards wall B is end A's at
-- s = 0.5 t - (Lj/2) cos(87 t) + Rj sin(87 t) (cos < 0, sin > 0 there).
do
  local sys = mech.spatial { gravity = { 0, 0, 0 } }
  local r, l = 8e-3, 4e-3
  local jb = sys:body { name = "disc", mass = 1, at = { 0, 0, 0 },
    inertia = { (3 * r * r + l * l) / 12, (3 * r * r + l * l) / 12, r * r / 2 },
    velocity = { 0, 0, 0.5 }, omega = { 87, 0, 0 } }
  sys:revolute { sys.ground, jb, name = "bear", at = { 0, 0, 0 }, axis = { 0, 0, 1 },
    bearing = { radius = 10e-3, length = 40e-3 }, journal = { radius = r, length = l }, contact = hertz }
  local run, msg = sys:simulate { t = 0.05, report = 1e-3, rtol = 1e-10, atol = 1e-13, quiet = true,
    on_error = "return", record = { "bear.impacts", "bear.tilt" } }
  tap.is(run.status, "failed", "the run stops")
  tap.like(msg, "^simulation failed at t = [%d.e%-]+ s %(step %d+%): revolute 'bear': the journal's end A left "
    .. "the bearing through end wall B at t = [%d.e%-]+ s: its rim point at axial position s = [%d.e%-]+ m is "
    .. "beyond the half length 0%.02 m %([%d.e%-]+ m from the axis, the bearing's radius 0%.01 m%), where no "
    .. "contact holds it: the journal turned over, its axis [%d.]+ rad from the bearing's %(it is short "
    .. "enough to tumble in its cavity: sqrt%(Rj%^2 %+ %(Lj/2%)%^2%) is less than the bearing's radius%)$",
    "the message")
  local t = tonumber(msg:match("at t = ([%d.e%-]+) s:"))
  local sr = tonumber(msg:match("axial position s = ([%d.e%-]+) m"))
  local want = 0.5 * t - l / 2 * math.cos(87 * t) + r * math.sin(87 * t)
  tap.diag(string.format("left at t = %.6g s, s = %.7g m (free motion: %.7g m), tilt %.3f rad", t, sr, want, 87 * t))
  -- the message prints 6 digits of s: 1e-7 m; the free motion integrated at rtol 1e-10
  tap.ok(t > 0.02 and t < 0.03 and math.abs(sr - want) <= 1e-7 and sr > 0.02,
    "at the time and place of the free motion, past the half length")
  tap.ok(#run >= 20 and run.t[#run] < t and run["bear.impacts"]:max() == 0,
    string.format("the rows before are kept (%d, to %.3g s), and no contact touched it", #run, run.t[#run]))
end

-- ---- the paper's slider-crank: corners are contacts, not faults -----------------------------------
-- Its crank's bearing touches the journal's wall and an end wall at the same end at once in
-- many rows: the run goes on (the check looks only at the end walls that no contact faces).
do
  local spec001 = require "spec001"
  local rec = {}
  for _, c in ipairs { "radial_a", "radial_b", "axial_a", "axial_b" } do rec[#rec + 1] = "crank_pin0." .. c .. ".penetration" end
  local run = spec001.model { clearance = {} }:simulate { t = 0.2, record = rec }
  local both = 0
  for i = 1, #run do
    for _, e in ipairs { "a", "b" } do
      if run["crank_pin0.radial_" .. e .. ".penetration"][i] > 0 and run["crank_pin0.axial_" .. e .. ".penetration"][i] > 0 then
        both = both + 1
      end
    end
  end
  tap.ok(run.status == "complete" and both > 10,
    string.format("spec001 with clearance runs 0.2 s (%d rows with a radial and an axial contact at one end)", both))
end

-- ---- errors ----------------------------------------------------------------------------------
raises(function() model { contact = hertz, clearance = { radial = 0.5e-3, axial = 0.5e-3 } } end,
  "sys:revolute (clearance of 'bear'): give two of the bearing's radius", "two sizes are needed")
raises(function()
  model { contact = hertz, clearance = { radial = 0.5e-3, axial = 0.5e-3 },
    bearing = { radius = 10e-3, length = 40e-3 }, journal = { radius = 9e-3, length = 39e-3 } }
end, "the bearing's radius 0.01 m, the journal's 0.009 m and the radial clearance 0.0005 m do "
  .. "not agree", "three sizes that do not agree")
-- a journal given as large as its bearing, or larger: named as such (it was "the radial and axial
-- clearances must be > 0 (got radial -0.0005 m, ...)", clearances the script never gave)
raises(function()
  model { contact = hertz, bearing = { radius = 10e-3, length = 40e-3 }, journal = { radius = 10.5e-3, length = 39e-3 } }
end, "sys:revolute (clearance of 'bear'): the journal's radius 0.0105 m is not less than the bearing's 0.01 m: the "
  .. "journal must fit in the bearing", "a journal wider than its bearing")
raises(function()
  model { contact = hertz, bearing = { radius = 10e-3, length = 40e-3 }, journal = { radius = 9.5e-3, length = 40e-3 } }
end, "the journal's length 0.04 m is not less than the bearing's 0.04 m", "a journal as long as its bearing")
raises(function() model { clearance = sizes.clearance, bearing = sizes.bearing } end,
  "field 'contact' is required", "a contact law is required")
raises(function() model(with { contact = hertz, method = "penalty" }) end,
  "'method' is for ideal joints", "no enforcement with clearance")
raises(function() model(with { contact = hertz, bearing = { radius = 10e-3, width = 1 } }) end,
  "unknown field 'width'", "the bearing's fields")
tap.ok(pcall(model, with { contact = hertz }, { 0, 0, 0 }), "a journal at rest, centred")
raises(function()
  local sys = mech.spatial { gravity = { 0, 0, 0 } }
  local j = sys:body { name = "journal", mass = 1, inertia = { 1e-4, 1e-4, 1e-4 },
    at = { 0, -0.6e-3, 0 } }
  sys:revolute(with { sys.ground, j, name = "bear", a_at = { 0, 0, 0 }, b_at = { 0, -0.6e-3, 0 },
    axis = { 0, 0, 1 }, contact = hertz })
end, "revolute 'bear': the journal's end A is", "a journal outside the cavity")

tap.done()
