-- SPDX-License-Identifier: MIT
-- spec001: the spatial slider-crank of [Spatial revolute paper] (paper 001 of
-- mechlua-references(7)) with ideal joints, built from a table of parameters, for scripts,
-- tests, benchmarks and sweeps.
--
--   local spec001 = require "spec001"
--   local sys = spec001.model{}                      -- free under gravity, the paper's start
--   local sys = spec001.model{ driven = true }       -- the crank turned at constant speed
--   local y, vy, ay = spec001.slider(t, spec001.PARAMS)   -- the driven motion in closed form
--
-- model builds a new system each call and touches nothing else.  man mechlua-spatial(3),
-- MODULE spec001, has the fields.
--
-- The paper's data (its Tab. 1 and section 3): crank 0.10 m, 0.12 kg, principal moments
-- 1e-4, 1e-4, 1e-5 kg m^2; rod 0.29 m, 0.5 kg, 4e-3, 4e-4, 4e-3; slider 0.5 kg, 1e-4 each;
-- gravity 9.81 m/s^2 along -z; at t = 0 the crank points up (+z) and turns at 2 pi rad/s about
-- -y, the other bodies moving as the joints make them.  Its figure of the mechanism was lost,
-- and these are this project's choices [A]:
--   layout   Haug's spatial slider-crank (Computer-Aided Kinematics and Dynamics of Mechanical
--            Systems, 1989) turned so that the crank's axis is world y, as the paper says: the
--            crank pivot at (-0.10, 0, 0.12) m, the slider on the world y axis (x = z = 0), so
--            the slider starts at y = sqrt(0.29^2 - 0.10^2 - 0.22^2) = 0.16031 m
--   axes     each link's smallest principal moment along its length: the crank's body z, the
--            rod's body y; the rod's body x starts along world x
--   joints   revolute crank-ground "crank_pin0" (the one the paper gives clearance), spherical
--            crank-rod "crank_rod", universal rod-slider "rod_slider" (its cross: world x on the
--            slider, on the rod the normal to the rod and to world x), prismatic slider-ground
--            "guide" along world y
--   start    the ideal mechanism's velocities for the crank's 2 pi rad/s, computed here in
--            closed form (so the assembly keeps them)
local spec001 = {}

local options = require "options"

spec001.PARAMS = {
  crank = 0.10, rod = 0.29,                       -- m
  m_crank = 0.12, J_crank = { 1e-4, 1e-4, 1e-5 }, -- kg, kg m^2 (body x, y, z)
  m_rod = 0.5, J_rod = { 4e-3, 4e-4, 4e-3 },
  m_slider = 0.5, J_slider = { 1e-4, 1e-4, 1e-4 },
  pivot = { -0.10, 0, 0.12 },                     -- m, the crank's bearing
  omega = -2 * math.pi,                           -- rad/s about +y: the paper's 2 pi about -y
  gravity = 9.81,                                 -- m/s^2 along -z
  driven = false,                                 -- true: the crank turned at omega
  baumgarte = 5,                                  -- 1/s, alpha = beta
  clearance = false,                              -- a table: the crank's bearing with clearance
}

-- The clearance joint of the paper's Tab. 2: a bearing of radius 10 mm and length 20 mm on the
-- crank, a journal of radius 9.5 mm and length 19 mm on the ground (radial and axial
-- clearance 0.5 mm), Lankarani-Nikravesh contact with K = 6.71e10 N/m^1.5 (steel on steel)
-- and restitution 0.9, no friction.  spec001.model{ clearance = {} } takes these; any field
-- given replaces its default.
spec001.CLEARANCE = {
  radial = 0.5e-3, axial = 0.5e-3,                -- m
  radius = 10e-3, length = 20e-3,                 -- m, the bearing
  K = 6.71e10, restitution = 0.9,                 -- N/m^1.5
  friction = false,                               -- a mech.friction law, or one of spec001.FRICTION's names
  v_reg = 1e-4,                                   -- m/s, the named Coulomb and Stribeck laws' regularisation
}

-- The paper's friction laws with its Tab. 2 values: mu_k 0.1, mu_s 0.2, sigma0 1e5 N/m,
-- sigma1 10^2.5 N s/m, sigma2 0, Stribeck velocity 1e-3 m/s; the sign of the slip velocity
-- regularised as v / sqrt(|v|^2 + v_reg^2) with v_reg = 1e-4 m/s unless given (Coulomb, Stribeck), the
-- bristle laws in their bounded form (mechlua-contact(3)).
spec001.FRICTION = { "none", "coulomb", "stribeck", "dahl", "lugre" }

function spec001.friction(name, v_reg)
  local fname = "spec001.friction"
  if v_reg == nil then v_reg = 1e-4 end
  if type(v_reg) ~= "number" then options.fail(1, fname, "argument #2 (v_reg) must be a number [m/s] (got %s)", type(v_reg)) end
  if not (v_reg > 0 and v_reg < math.huge) then
    options.fail(1, fname, "argument #2 (v_reg) must be a finite number > 0 [m/s] (got %s)", tostring(v_reg))
  end
  if name == "none" then return nil
  elseif name == "coulomb" then return mech.friction.coulomb{ mu = 0.1, regularization = "sqrt", v_reg = v_reg }
  elseif name == "stribeck" then
    return mech.friction.stribeck{ mu = 0.1, mu_s = 0.2, vs = 1e-3, regularization = "sqrt", v_reg = v_reg }
  elseif name == "dahl" then return mech.friction.dahl{ mu = 0.1, sigma0 = 1e5, bounded = true }
  elseif name == "lugre" then
    return mech.friction.lugre{ mu = 0.1, mu_s = 0.2, sigma0 = 1e5, sigma1 = 10 ^ 2.5, sigma2 = 0, vs = 1e-3,
      bounded = true }
  end
  options.fail(1, fname, "argument #1 must be one of none, coulomb, stribeck, dahl, lugre (got %s)",
    tostring(name))
end

local function cross(a, b)
  return { a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1] }
end

local function dot(a, b)
  return a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
end

-- The crank pin's position and velocity at crank angle phi (about +y from +z) turning at w.
local function pin(p, phi, w)
  local r, c = p.crank, p.pivot
  return { c[1] + r * math.sin(phi), 0, c[3] + r * math.cos(phi) },
    { r * math.cos(phi) * w, 0, -r * math.sin(phi) * w }
end

-- The slider's y, y' and y'' when the crank turns at constant speed w from angle 0 (pointing
-- up) to angle w t: the closed form of the driven mechanism ([Spatial revolute paper]'s
-- geometry as this module lays it out).
function spec001.slider(t, o)
  local fname = "spec001.slider"
  if type(t) ~= "number" then options.fail(2, fname, "argument #1 (t) must be a number [s] (got %s)", options.typename(t)) end
  local p = options.read(fname, o, spec001.PARAMS)
  options.numbers(fname, p, { "crank", "rod", "omega" })
  local c = p.pivot
  if type(c) ~= "table" or type(c[1]) ~= "number" or type(c[3]) ~= "number" then
    options.fail(2, fname, "field 'pivot' must be {x, y, z} [m]")
  end
  local w, r, L = p.omega, p.crank, p.rod
  local phi = w * t
  local px, pz = c[1] + r * math.sin(phi), c[3] + r * math.cos(phi)
  local dx, dz = r * math.cos(phi) * w, -r * math.sin(phi) * w
  local ddx, ddz = -r * math.sin(phi) * w * w, -r * math.cos(phi) * w * w
  local g = L * L - px * px - pz * pz
  local gd = -2 * (px * dx + pz * dz)
  local gdd = -2 * (dx * dx + px * ddx + dz * dz + pz * ddz)
  local y = math.sqrt(g)
  return y, gd / (2 * y), gdd / (2 * y) - gd * gd / (4 * y * y * y)
end

-- The spatial slider-crank; o overrides spec001.PARAMS.
function spec001.model(o)
  local fname = "spec001.model"
  local p = options.read(fname, o, spec001.PARAMS)
  options.numbers(fname, p, { "crank", "rod", "m_crank", "m_rod", "m_slider", "omega", "gravity",
    "baumgarte" })
  local c = p.pivot
  if type(c) ~= "table" or type(c[1]) ~= "number" or type(c[2]) ~= "number" or type(c[3]) ~= "number" then
    options.fail(1, fname, "field 'pivot' must be {x, y, z} [m] (got %s)", options.typename(c))
  end
  local w, r, L = p.omega, p.crank, p.rod
  local P, vP = pin(p, 0, w)
  local yc = math.sqrt(L * L - P[1] * P[1] - P[3] * P[3])
  if yc ~= yc then options.fail(1, fname, "the rod (%g m) cannot reach the slider's axis", L) end
  local S = { 0, yc, 0 }
  local d = { S[1] - P[1], S[2] - P[2], S[3] - P[3] }
  local vy = d[1] * vP[1] / d[2] -- |S - P| = L: (S - P) . (vS - vP) = 0
  -- the rod's cross axis, normal to it and to world x, and its angular velocity
  -- a n2 + b x solving w x d = vS - vP (the universal joint leaves no other turn)
  local n2 = cross(d, { 1, 0, 0 })
  local dv = { -vP[1], vy - vP[2], -vP[3] }
  local c1, c2 = cross(n2, d), cross({ 1, 0, 0 }, d)
  local m11, m12, m22 = dot(c1, c1), dot(c1, c2), dot(c2, c2)
  local r1, r2 = dot(c1, dv), dot(c2, dv)
  local det = m11 * m22 - m12 * m12
  local a, b = (r1 * m22 - r2 * m12) / det, (m11 * r2 - m12 * r1) / det
  local sys = mech.spatial{ gravity = { 0, 0, -p.gravity }, baumgarte = { p.baumgarte, p.baumgarte } }
  local crank = sys:body{ name = "crank", mass = p.m_crank, inertia = p.J_crank,
    at = { p.pivot[1], p.pivot[2], p.pivot[3] + r / 2 },
    velocity = { w * r / 2, 0, 0 }, omega = { 0, w, 0 } }
  local rod = sys:body{ name = "rod", mass = p.m_rod, inertia = p.J_rod,
    at = { (P[1] + S[1]) / 2, (P[2] + S[2]) / 2, (P[3] + S[3]) / 2 },
    axes = { y = d, x = { 1, 0, 0 }, exact = "y" },
    velocity = { vP[1] / 2, vy / 2, 0 }, omega = { a * n2[1] + b, a * n2[2], a * n2[3] } }
  local slider = sys:body{ name = "slider", mass = p.m_slider, inertia = p.J_slider, at = S,
    velocity = { 0, vy, 0 } }
  local bearing
  if p.clearance then
    local c = options.read(fname .. " (clearance)", p.clearance, spec001.CLEARANCE)
    options.numbers(fname .. " (clearance)", c, { "radial", "axial", "radius", "length", "K", "restitution", "v_reg" })
    -- checked here, so that an error names this function's field and the caller's line
    local cfn = fname .. " (clearance)"
    if not (c.K > 0) then options.fail(1, cfn, "field 'K' must be > 0 [N/m^1.5] (got %s)", tostring(c.K)) end
    if not (c.restitution > 0 and c.restitution <= 1) then
      options.fail(1, cfn, "field 'restitution' must be in (0, 1] (got %s)", tostring(c.restitution))
    end
    if not (c.v_reg > 0) then options.fail(1, cfn, "field 'v_reg' must be > 0 [m/s] (got %s)", tostring(c.v_reg)) end
    local friction = c.friction
    if type(friction) == "string" then
      local known = false
      for _, name in ipairs(spec001.FRICTION) do known = known or name == friction end
      if not known then
        options.fail(1, cfn, "field 'friction' must be a law of mech.friction, false or one of %s (got %s)",
          table.concat(spec001.FRICTION, ", "), friction)
      end
      friction = spec001.friction(friction, c.v_reg)
    end
    -- the bearing on the crank, the journal on the ground, as in the paper
    bearing = sys:revolute{ crank, sys.ground, at = p.pivot, axis = { 0, 1, 0 },
      clearance = { radial = c.radial, axial = c.axial },
      bearing = { radius = c.radius, length = c.length },
      contact = mech.contact.lankarani_nikravesh{ K = c.K, n = 1.5, restitution = c.restitution },
      friction = friction or nil, name = "crank_pin0" }
  else
    bearing = sys:revolute{ sys.ground, crank, at = p.pivot, axis = { 0, 1, 0 },
      ref = { 1, 0, 0 }, name = "crank_pin0" }
  end
  sys:spherical{ crank, rod, at = P, name = "crank_rod" }
  sys:universal{ slider, rod, at = S, axis_a = { 1, 0, 0 }, axis_b = n2, name = "rod_slider" }
  sys:prismatic{ sys.ground, slider, axis = { 0, 1, 0 }, name = "guide" }
  if p.driven then sys:drive{ bearing, speed = w, name = "motor" } end
  return sys
end

return spec001
