-- SPDX-License-Identifier: MIT
-- spec004: the slider-crank of [Sci. Rep. 2023] (paper 004 of mechlua-references(7)) with
-- two revolute clearance joints and one translational clearance joint, built from a table
-- of parameters, for scripts/spec004.lua, the tests and parameter sweeps.
--
--   local spec004 = require "spec004"
--   local sys = spec004.model{}                                 -- ideal joints, 150 rpm
--   local sys = spec004.model{ joints = { crank_pin = 0.5e-3, guide = 0.5e-3 }, speed_rpm = 100 }
--   local run = sys:simulate{ t = 0.4, record = spec004.channels(joints),
--     events = spec004.events(joints) }
--
-- model builds a new system each call and touches nothing else (no global, no material
-- added, no output): map it over a list of parameter tables for a sweep.  man
-- mechlua-contact(3), MODULE spec004, has the fields.
--
-- Every parameter table of the paper is lost from the copy the project worked from; the
-- values of spec004.PARAMS are stand-ins, marked [R] (rebuilt from the paper's surviving
-- text or from the literature it cites) or [A] (an assumption of this project, not the
-- paper's):
--   links         crank L1 = 0.150 m, rod L2 = 0.541 m [R]: the ideal slider-pin trajectory
--                 of the paper is x in [0.391, 0.691] m = [L2 - L1, L2 + L1]; offset 0 [A]
--   bodies        30 x 10 mm aluminium bars [A]: crank 0.1215 kg, 2.28e-4 kg m^2; rod 0.438 kg,
--                 1.069e-2 kg m^2; centres of mass at mid-length; slider 0.5 kg [A], and for
--                 its tilt in the guide the inertia of a 60 x 40 mm rectangle, 2.17e-4 kg m^2
--                 [A]
--   motion        crank driven at constant speed, 150 rpm [A]; start at crank angle 0,
--                 crank and rod collinear, velocities of the ideal mechanism, journals
--                 centred, slider centred in its guide; gravity 9.81 m/s^2 along -y, in the
--                 plane (the rig is vertical) [A]
--   joints        crank-rod (crank_pin) and rod-slider (piston_pin) have the revolute
--                 clearances [A]: bearing radius 10 mm, journal 10 mm - c [A]; the bearings
--                 are in the rod, the journals on the crank and on the slider (the rig's
--                 journal is fixed to the slider); crank-ground stays ideal
--   guide         slider 60 x 40 mm, c per side, W_g = W_s + 2c [A]; its four corners touch
--                 the two surfaces
--   materials     aluminium alloy, E = 71 GPa, nu = 0.33 [A] (mechlua's "aluminium" has
--                 72 GPa: the stiffnesses take E and nu directly)
--   normal law    the paper's "modified" law, identified as Hu and Guo's [R],
--                 F = K d^1.5 (1 + 3(1 - e)/(2e) d'/d'(-)), e = 0.55 (the paper), d'(-)
--                 floored at 1e-4 m/s [A]; K by Hertz: for the journals the sphere formula
--                 with R = Ri Rj / (Ri - Rj), for the slider corners a sphere of radius
--                 1 mm [A] on a plane
--   friction      the paper's LuGre law written for the friction coefficient (normalised),
--                 mu_k = mu_s = 0.01 (the paper), sigma0 = 1e5 1/m, sigma1 = sigma2 = 0,
--                 v_s = 1e-3 m/s [A]
--   constraints   Baumgarte alpha = beta = 50 1/s [A] (scripts/spec004.lua says why not the
--                 paper's 1/dt)
local spec004 = {}

local options = require "options"
local fmt, fail = string.format, options.fail

-- The model's parameters (SI units) and their defaults.
spec004.PARAMS = {
  L1 = 0.150, L2 = 0.541,                            -- m
  m_crank = 0.1215, J_crank = 2.28e-4,               -- kg, kg m^2
  m_rod = 0.438, J_rod = 1.069e-2,
  m_slider = 0.5, J_slider = 0.5 * (0.06 ^ 2 + 0.04 ^ 2) / 12,
  speed_rpm = 150, gravity = 9.81,
  clearance = 0.5e-3,                                -- m, each joint (radial; per side in the guide)
  bearing_radius = 10e-3, slider_length = 0.060, slider_width = 0.040, corner_radius = 1e-3,
  E = 71e9, nu = 0.33,
  restitution = 0.55, exponent = 1.5, v_min = 1e-4,
  mu_k = 0.01, mu_s = 0.01, sigma0 = 1e5, sigma1 = 0, sigma2 = 0, v_s = 1e-3,
  baumgarte = 50,                                    -- 1/s, alpha = beta
}

-- The joints that can have clearance: the two journals, and the three with the guide.
spec004.JOURNALS = { "crank_pin", "piston_pin" }
spec004.JOINTS = { "crank_pin", "piston_pin", "guide" }

local is_joint = { crank_pin = true, piston_pin = true, guide = true }

-- The fields of o (PARAMS and those of `extra`, name -> default or false) with the defaults
-- filled in; every field of PARAMS must be a finite number.  Raised at the caller of the
-- public function that calls it.
local function params(fname, o, extra)
  local known = {}
  for k, v in pairs(spec004.PARAMS) do known[k] = v end
  for k, v in pairs(extra or {}) do known[k] = v end
  local p = options.read(fname, o, known, 1)
  for k in pairs(spec004.PARAMS) do
    local v = p[k]
    if type(v) ~= "number" or v ~= v or math.abs(v) == math.huge then
      fail(2, fname, "field '%s' must be a finite number (got %s)", k, tostring(v))
    end
  end
  return p
end

-- The joints table { crank_pin = c, piston_pin = c, guide = c }: each c a clearance > 0 in
-- m, or nil/false for an ideal joint.
local function check_joints(fname, joints)
  if joints == nil or joints == false then return {} end
  if type(joints) ~= "table" then
    fail(2, fname, "field 'joints' must be a table { crank_pin = c, piston_pin = c, guide = c } (got %s)",
      type(joints))
  end
  for k, c in pairs(joints) do
    if not is_joint[k] then
      fail(2, fname, "joints: unknown joint '%s' (joints with clearance: crank_pin, piston_pin, guide)",
        tostring(k))
    end
    if c ~= false and not (type(c) == "number" and c > 0 and c < math.huge) then
      fail(2, fname, "joints.%s must be a clearance > 0 in m, or false (got %s)", k, tostring(c))
    end
  end
  return joints
end

-- The laws of a checked parameter table p.
local function materials(p)
  local alloy = { E = p.E, nu = p.nu }
  return { alloy, alloy }
end

local function journal_K(p, c)
  return mech.stiffness.journal{ materials = materials(p), bearing = p.bearing_radius, journal = p.bearing_radius - c }
end

local function corner_K(p)
  return mech.stiffness.sphere{ materials = materials(p), R1 = p.corner_radius }
end

local function hu_guo(p, K)
  return mech.contact.hu_guo{ K = K, n = p.exponent, restitution = p.restitution, v_min = p.v_min }
end

local function lugre(p)
  return mech.friction.lugre{ mu = p.mu_k, mu_s = p.mu_s, vs = p.v_s, sigma0 = p.sigma0,
    sigma1 = p.sigma1, sigma2 = p.sigma2, normalized = true }
end

-- spec004.journal_stiffness{ fields of PARAMS } -> K [N/m^1.5]: a journal of radius
-- bearing_radius - clearance in a bearing of radius bearing_radius (Hertz).
function spec004.journal_stiffness(o)
  local p = params("spec004.journal_stiffness", o)
  if not (p.clearance > 0 and p.clearance < p.bearing_radius) then
    fail(1, "spec004.journal_stiffness", "clearance must be > 0 and below bearing_radius (got %g m)", p.clearance)
  end
  return journal_K(p, p.clearance)
end

-- spec004.corner_stiffness{ fields of PARAMS } -> K [N/m^1.5]: a slider corner of radius
-- corner_radius on the flat guide (Hertz).
function spec004.corner_stiffness(o)
  return corner_K(params("spec004.corner_stiffness", o))
end

-- spec004.law(K, { fields of PARAMS }) -> the paper's modified (Hu and Guo's) normal law
-- with stiffness K, restitution, exponent and v_min.
function spec004.law(K, o)
  if type(K) ~= "number" or not (K > 0 and K < math.huge) then
    fail(1, "spec004.law", "K must be a stiffness > 0 in N/m^n (got %s)", tostring(K))
  end
  return hu_guo(params("spec004.law", o), K)
end

-- spec004.friction{ fields of PARAMS } -> the normalised LuGre friction law of the joints.
function spec004.friction(o)
  return lugre(params("spec004.friction", o))
end

-- spec004.model{ fields of PARAMS, joints = { crank_pin = c, piston_pin = c, guide = c } }
-- -> sys.  Bodies "crank", "rod", "slider"; joints "main_bearing" (ground-crank, ideal),
-- "crank_pin" (rod-crank), "piston_pin" (rod-slider), "guide" (ground-slider, prismatic
-- along x); the drive "motor" turns the crank at speed_rpm.  A joint given a clearance c
-- (m) in `joints` has clearance c (radial for the journals, per side in the guide), the
-- modified law and LuGre friction; the others are ideal.  Starts at crank angle 0 with the
-- ideal mechanism's velocities, the journals centred and the slider centred in its guide.
function spec004.model(o)
  local fname = "spec004.model"
  local p = params(fname, o, { joints = false })
  local joints = check_joints(fname, p.joints)
  local function journal(c)
    if not c then return nil end
    return { radial = c, radius = p.bearing_radius, law = hu_guo(p, journal_K(p, c)), friction = lugre(p) }
  end
  local function guide(c)
    if not c then return nil end
    return { gap = c, length = p.slider_length, height = p.slider_width, law = hu_guo(p, corner_K(p)),
      friction = lugre(p) }
  end
  local w = mech.rpm(p.speed_rpm)
  local L1, L2 = p.L1, p.L2
  local sys = mech.planar{ gravity = { 0, -p.gravity }, baumgarte = { p.baumgarte, p.baumgarte } }
  local crank = sys:body{ name = "crank", mass = p.m_crank, inertia = p.J_crank, at = { L1 / 2, 0 },
    velocity = { 0, L1 * w / 2 }, omega = w }
  local rod = sys:body{ name = "rod", mass = p.m_rod, inertia = p.J_rod, at = { L1 + L2 / 2, 0 },
    velocity = { 0, L1 * w / 2 }, omega = -L1 * w / L2 }
  local slider = sys:body{ name = "slider", mass = p.m_slider, inertia = p.J_slider, at = { L1 + L2, 0 },
    rectangle = { p.slider_length, p.slider_width } }
  sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "main_bearing" }
  sys:revolute{ rod, crank, at = { L1, 0 }, name = "crank_pin", clearance = journal(joints.crank_pin) }
  sys:revolute{ rod, slider, at = { L1 + L2, 0 }, name = "piston_pin", clearance = journal(joints.piston_pin) }
  sys:prismatic{ sys.ground, slider, axis = { 1, 0 }, name = "guide", clearance = guide(joints.guide) }
  sys:drive{ crank, speed = w, name = "motor" }
  return sys
end

-- spec004.channels(joints) -> the channels a study records: the crank angle, the slider,
-- the crank moment (the driver's torque), the constraint drift, each joint's force (the
-- reaction of an ideal joint; the normal and friction forces of a joint with clearance),
-- the journals' eccentricity (journal centre minus bearing centre, world axes), the
-- slider's place in its guide and each corner's force on each surface.
function spec004.channels(joints)
  joints = check_joints("spec004.channels", joints)
  local rec = { "crank.phi", "slider.x", "slider.vx", "slider.ax", "motor.torque", "system.violation" }
  for _, j in ipairs(spec004.JOURNALS) do
    local q = joints[j] and { "fn", "ft", "ex", "ey", "penetration", "impacts", "active" } or { "f" }
    for _, name in ipairs(q) do rec[#rec + 1] = j .. "." .. name end
  end
  rec[#rec + 1] = "guide.fn"
  if joints.guide then
    for _, name in ipairs{ "ft", "offset", "tilt", "impacts" } do rec[#rec + 1] = "guide." .. name end
    for k = 1, 4 do
      rec[#rec + 1] = fmt("guide.c%d_bottom.fn", k)
      rec[#rec + 1] = fmt("guide.c%d_top.fn", k)
    end
  end
  return rec
end

-- spec004.events(joints) -> the events a study gives: "section" at each crank angle 2 pi k
-- (recorded), and for each journal with clearance "<joint>.deepest", the deepest point of
-- every approach (its penetration rate falling through 0): the peak force and penetration
-- of each impact.
function spec004.events(joints)
  joints = check_joints("spec004.events", joints)
  local ev = { { name = "section", channel = "crank.phi", value = 0, period = 2 * math.pi, direction = 1,
    action = "record" } }
  for _, j in ipairs(spec004.JOURNALS) do
    if joints[j] then
      ev[#ev + 1] = { name = j .. ".deepest", channel = j .. ".rate", value = 0, direction = -1, action = "record" }
    end
  end
  return ev
end

return spec004
