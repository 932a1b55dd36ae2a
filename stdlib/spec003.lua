-- SPDX-License-Identifier: MIT
-- spec003: the crank-slider of [Wang et al. 2025] (paper 003 of mechlua-references(7)), its
-- slider a box in a rectangular channel with clearance in both lateral directions, built from
-- a table of parameters, for scripts, tests, benchmarks and sweeps.
--
--   local spec003 = require "spec003"
--   local sys = spec003.model{ rpm = 20, clearance = 0.1e-3 }    -- the clearance joint
--   local sys = spec003.model{ rpm = 20, clearance = false }     -- the ideal mechanism
--   local y, v, a = spec003.slider(t, { rpm = 20 })              -- its closed form
--   local sys = spec003.impact{ roll = 0, yaw = 0.3 }            -- a single impact (its Fig. 9)
--
-- model and impact build a new system each call and touch nothing else.  man
-- mechlua-spatial(3), MODULE spec003, has the fields.
--
-- The paper's data: crank 40 mm, rod 130 mm, slider 0.019 kg (its Tab. 2); the crank turned at
-- constant speed.  What it leaves open, and this module's choices [A]:
--   layout    the mechanism's plane horizontal, the crank's axis world z, the crank pivot at
--             the origin; at t = 0 the crank points along +y, toward the slider, so that the
--             slider starts at its furthest place y = 0.17 m; the slider travels along world y
--             on the line through the pivot; gravity 9.81 m/s^2 along -z presses it onto the
--             channel's floor; x is the lateral direction of the side walls
--   joints    revolute ground-crank "crank_pin" (driven, "motor"), spherical crank-rod
--             "crank_rod" (the rod may leave the plane, so the slider may move in x and z),
--             revolute rod-slider "rod_pin" at the slider's centre, about z, and the slider in
--             the ground's channel "guide"; the ideal mechanism (clearance = false) has a
--             universal joint rod-slider (the revolute one with the ideal prismatic joint would
--             repeat an equation) and the ideal prismatic joint
--   sizes     the slider a 30 mm (along y) x 15 mm x 15 mm box, the channel 15 + 2 C wide and
--             high, without end
--   inertia   the centroidal moments of uniform shapes (its Tab. 2's values are about some
--             other point): crank and rod slender bars, 3.2e-6 and 1.056e-4 kg m^2 across,
--             1e-8 and 1e-7 along; the slider's box 1.781e-6, 7.125e-7, 1.781e-6 kg m^2; the
--             crank's mass 0.024 kg, the rod's 0.075 kg
--   start     the slider centred and aligned in its channel, every velocity the ideal
--             mechanism's
local spec003 = {}

local options = require "options"

spec003.PARAMS = {
  crank = 0.040, rod = 0.130,                         -- m
  m_crank = 0.024, J_crank = { 3.2e-6, 1e-8, 3.2e-6 },  -- kg, kg m^2 (body x, y, z; the crank along y)
  m_rod = 0.075, J_rod = { 1.056e-4, 1e-7, 1.056e-4 },
  m_slider = 0.019, J_slider = { 1.781e-6, 7.125e-7, 1.781e-6 },
  length = 0.030, width = 0.015, height = 0.015,      -- m, the slider (y, x, z)
  rpm = 20,                                           -- the crank's speed, about +z
  gravity = 9.81,                                     -- m/s^2 along -z
  clearance = 0.1e-3,                                 -- m on each side, x and z; false: the ideal mechanism
  guide = "aluminium", slider = "aluminium",          -- names of mech.materials, or { E, nu }
  stiffness = "area",                                 -- "area", "patch", "constant" or "corners"
  damping = true, restitution = 0.58,                 -- the Lankarani-Nikravesh factor (area laws)
  radius = 1e-3,                                      -- m, the corners' radius ("corners": Hertz)
  friction = "ambrosio",                              -- "ambrosio", "adams", "none", or a mech.friction law
  mu = false, mu_s = false,                           -- false: the materials' pair (mech.materials.pair)
  v0 = 1e-4, v1 = 2e-4,                               -- m/s, the friction laws' speeds
  baumgarte = 20,                                     -- 1/s, alpha = beta
}

-- The paper's Tab. 3 (its section 5.1's "alloy steel" with an aluminium's modulus): E 72 GPa,
-- nu 0.37 for both bodies, mu 0.17, restitution 0.58.
spec003.TABLE3 = { E = 72e9, nu = 0.37, mu = 0.17, restitution = 0.58 }

-- The slider's y, y' and y'' of the ideal in-line crank-slider at time t, the crank at w t.
function spec003.slider(t, o)
  local fname = "spec003.slider"
  if type(t) ~= "number" then options.fail(2, fname, "argument #1 (t) must be a number [s] (got %s)", options.typename(t)) end
  local p = options.read(fname, o, spec003.PARAMS)
  options.numbers(fname, p, { "crank", "rod", "rpm" })
  local r, l, w = p.crank, p.rod, p.rpm * math.pi / 30
  local th = w * t
  local s, c = math.sin(th), math.cos(th)
  local g = l * l - r * r * s * s
  local sq = math.sqrt(g)
  local y = r * c + sq
  local v = -r * s * w - r * r * s * c * w / sq
  local a = -r * c * w * w - r * r * w * w * (c * c - s * s) / sq - r ^ 4 * s * s * c * c * w * w / (g * sq)
  return y, v, a
end

local function material(fname, field, m)
  if type(m) == "string" then
    if not mech.materials[m] then options.fail(2, fname, "field '%s' must name one of mech.materials (got %s)", field, m) end
    return m
  elseif type(m) == "table" then
    return m
  end
  options.fail(2, fname, "field '%s' must be a name of mech.materials or { E, nu } (got %s)", field, options.typename(m))
end

local function friction_law(fname, p)
  local f = p.friction
  if f == "none" or f == false then return nil end
  if type(f) ~= "string" then return f end
  local mu, mu_s = p.mu, p.mu_s
  if not mu or (f == "adams" and not mu_s) then
    if type(p.guide) ~= "string" or type(p.slider) ~= "string" then
      options.fail(2, fname, "field 'mu' is needed when a material is not a name")
    end
    local pair = mech.materials.pair(p.guide, p.slider)
    mu, mu_s = mu or pair.mu, mu_s or pair.mu_s
  end
  -- the law's own checks, reported as this function's field
  local function made(ok, law)
    if not ok then options.fail(3, fname, "field 'friction' (%s): %s", f, tostring(law):gsub("^[^:]*:%d+: ", "")) end
    return law
  end
  local law -- not a tail call: fail counts the levels
  if f == "ambrosio" then law = made(pcall(mech.friction.ambrosio, { mu = mu, v0 = p.v0, v1 = p.v1 })) end
  if f == "adams" then law = made(pcall(mech.friction.adams, { mu_s = mu_s, mu = mu, v0 = p.v0, v1 = p.v1 })) end
  if law then return law end
  options.fail(2, fname, "field 'friction' must be ambrosio, adams, none or a law of mech.friction (got %s)", f)
end

-- p.stiffness one of the joint's laws (sys:prismatic's 'stiffness'), checked here so that the
-- error names fname, not the joint inside it.
local STIFFNESS = { corners = true, area = true, patch = true, constant = true }
local function stiffness(fname, p)
  if not STIFFNESS[p.stiffness] then
    options.fail(2, fname, "field 'stiffness' must be \"corners\", \"area\", \"patch\" or \"constant\" (got %s)",
      tostring(p.stiffness))
  end
end

-- The normal law of the channel def from p's stiffness: Lankarani-Nikravesh at the corners with
-- Hertz's K for a corner of p.radius, or an area law on the materials, damped or not.
local function box_law(def, p, guide, slider)
  if p.stiffness == "corners" then
    def.contact = mech.contact.lankarani_nikravesh{ materials = { guide, slider }, radius = p.radius,
      restitution = p.restitution }
  else
    def.materials = { guide, slider }
    def.damping = p.damping and true or false
    if p.damping then def.restitution = p.restitution end
  end
end

-- The crank-slider; o overrides spec003.PARAMS.
function spec003.model(o)
  local fname = "spec003.model"
  local p = options.read(fname, o, spec003.PARAMS)
  options.numbers(fname, p, { "crank", "rod", "m_crank", "m_rod", "m_slider", "length", "width", "height", "rpm",
    "gravity", "baumgarte", "v0", "v1", "radius", "restitution" })
  if p.clearance and not (type(p.clearance) == "number" and p.clearance > 0) then
    options.fail(1, fname, "field 'clearance' must be a number > 0 [m] or false (got %s)", tostring(p.clearance))
  end
  stiffness(fname, p)
  if not (p.rod > p.crank and p.crank > 0) then
    options.fail(1, fname, "the rod (%g m) must be longer than the crank (%g m)", p.rod, p.crank)
  end
  local guide, sl = material(fname, "guide", p.guide), material(fname, "slider", p.slider)
  local r, l, w = p.crank, p.rod, p.rpm * math.pi / 30
  local S = { 0, r + l, 0 }
  local sys = mech.spatial{ gravity = { 0, 0, -p.gravity }, baumgarte = { p.baumgarte, p.baumgarte } }
  local crank = sys:body{ name = "crank", mass = p.m_crank, inertia = p.J_crank, at = { 0, r / 2, 0 },
    velocity = { -w * r / 2, 0, 0 }, omega = { 0, 0, w } }
  local rod = sys:body{ name = "rod", mass = p.m_rod, inertia = p.J_rod, at = { 0, r + l / 2, 0 },
    velocity = { -w * r / 2, 0, 0 }, omega = { 0, 0, -w * r / l } }
  local slider = sys:body{ name = "slider", mass = p.m_slider, inertia = p.J_slider, at = S }
  local pin = sys:revolute{ sys.ground, crank, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, ref = { 0, 1, 0 },
    name = "crank_pin" }
  sys:spherical{ crank, rod, at = { 0, r, 0 }, name = "crank_rod" }
  if p.clearance then
    sys:revolute{ rod, slider, at = S, axis = { 0, 0, 1 }, name = "rod_pin" }
    local def = { sys.ground, slider, at = S, axis = { 0, 1, 0 }, ref = { 1, 0, 0 }, name = "guide",
      clearance = { x = p.clearance, z = p.clearance },
      slider = { length = p.length, width = p.width, height = p.height },
      stiffness = p.stiffness, friction = friction_law(fname, p) }
    box_law(def, p, guide, sl)
    sys:prismatic(def)
  else
    sys:universal{ slider, rod, at = S, axis_a = { 0, 0, 1 }, axis_b = { 1, 0, 0 }, name = "rod_pin" }
    sys:prismatic{ sys.ground, slider, axis = { 0, 1, 0 }, ref = { 1, 0, 0 }, name = "guide" }
  end
  sys:drive{ pin, speed = w, name = "motor" }
  return sys
end

-- The points of hull_area and spread: x and y arrays of finite numbers of the same length, the
-- scales finite and > 0.
local function points(fname, x, y, sx, sy)
  if type(x) ~= "table" or type(y) ~= "table" then
    options.fail(2, fname, "arguments #1 and #2 (x, y) must be arrays of numbers (got %s, %s)", options.typename(x),
      options.typename(y))
  end
  for i, sc in ipairs{ sx, sy } do
    if type(sc) ~= "number" or not (sc > 0 and sc < math.huge) then
      options.fail(2, fname, "argument #%d (%s) must be a finite number > 0 (got %s)", i + 2, i == 1 and "sx" or "sy",
        type(sc) == "number" and tostring(sc) or options.typename(sc))
    end
  end
  if #x ~= #y then options.fail(2, fname, "x and y must have the same length (%d, %d)", #x, #y) end
  for i = 1, #x do
    local a, b = x[i], y[i]
    if type(a) ~= "number" or type(b) ~= "number" or a ~= a or b ~= b or math.abs(a) == math.huge
      or math.abs(b) == math.huge then
      options.fail(2, fname, "point %d (%s, %s) must be two finite numbers", i, tostring(a), tostring(b))
    end
  end
end

-- The area of the convex hull of the points (x[i] / sx, y[i] / sy), i = 1 .. #x (the scatter
-- measure of a Poincare map: 0 for a periodic motion's few points, growing as they spread).
function spec003.hull_area(x, y, sx, sy)
  sx, sy = sx or 1, sy or 1
  points("spec003.hull_area", x, y, sx, sy)
  local pts = {}
  for i = 1, #x do pts[i] = { x[i] / sx, y[i] / sy } end
  table.sort(pts, function(a, b) return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]) end)
  if #pts < 3 then return 0 end
  local function turn(o, a, b) return (a[1] - o[1]) * (b[2] - o[2]) - (a[2] - o[2]) * (b[1] - o[1]) end
  local hull = {}
  for pass = 1, 2 do -- the lower chain left to right, then the upper one back
    local start = #hull
    for k = pass == 1 and 1 or #pts, pass == 1 and #pts or 1, pass == 1 and 1 or -1 do
      while #hull >= start + 2 and turn(hull[#hull - 1], hull[#hull], pts[k]) <= 0 do hull[#hull] = nil end
      hull[#hull + 1] = pts[k]
    end
    hull[#hull] = nil
  end
  local area = 0
  for i = 1, #hull do
    local a, b = hull[i], hull[i % #hull + 1]
    area = area + a[1] * b[2] - b[1] * a[2]
  end
  return math.abs(area) / 2
end

-- The RMS distance of the points (x[i] / sx, y[i] / sy) from their mean: a Poincare map's spread
-- (0 for a periodic motion, and not 0 for points scattered along a line, unlike the hull's area).
function spec003.spread(x, y, sx, sy)
  sx, sy = sx or 1, sy or 1
  points("spec003.spread", x, y, sx, sy)
  local n = #x
  if n == 0 then return 0 end
  local mx, my = 0, 0
  for i = 1, n do mx, my = mx + x[i] / sx, my + y[i] / sy end
  mx, my = mx / n, my / n
  local v = 0
  for i = 1, n do v = v + (x[i] / sx - mx) ^ 2 + (y[i] / sy - my) ^ 2 end
  return math.sqrt(v / n)
end

-- The single impact of its Fig. 9: the slider (0.019 kg, its turning held by an ideal
-- prismatic joint "lock" along world x) turned by roll (about the travel y) and then yaw (about
-- z), in degrees, thrown at speed [m/s] against the channel's side wall xpos (the guide's x
-- along world x), its deepest corner 1 um from the wall; the channel 1 mm wider than the slider
-- on each side (1.5 degrees of roll and yaw take 0.6 mm); the law of spec003.PARAMS's fields
-- stiffness, damping, restitution, guide, slider (aluminium on aluminium), no friction, no gravity.
spec003.IMPACT = { roll = 0, yaw = 0.3, speed = 1, clearance = 1e-3, stiffness = "area", damping = false,
  restitution = 0.58, guide = "aluminium", slider = "aluminium", radius = 1e-3 }

function spec003.impact(o)
  local fname = "spec003.impact"
  local p = options.read(fname, o, spec003.IMPACT)
  options.numbers(fname, p, { "roll", "yaw", "speed", "clearance", "restitution", "radius" })
  if not (p.speed > 0) then options.fail(1, fname, "field 'speed' must be > 0 [m/s] (got %g)", p.speed) end
  stiffness(fname, p)
  local P = spec003.PARAMS
  local a, b = math.rad(p.roll), math.rad(p.yaw)
  -- R = Rz(yaw) Ry(roll): the slider's x and y axes in the world
  local ca, sa, cb, sb = math.cos(a), math.sin(a), math.cos(b), math.sin(b)
  local R = { { cb * ca, -sb, cb * sa }, { sb * ca, cb, sb * sa }, { -sa, 0, ca } }
  local H = { P.width / 2, P.length / 2, P.height / 2 }
  local reach = H[1] * math.abs(R[1][1]) + H[2] * math.abs(R[1][2]) + H[3] * math.abs(R[1][3])
  local zreach = H[1] * math.abs(R[3][1]) + H[2] * math.abs(R[3][2]) + H[3] * math.abs(R[3][3])
  if not (p.clearance > 0) or reach - 1e-6 >= H[1] + p.clearance or zreach >= H[3] + p.clearance then
    options.fail(1, fname, "roll %g and yaw %g degrees take the slider's corners %.4g mm across and %.4g mm up "
      .. "from its centre: more than the channel's %.4g mm (clearance %g m): turn it less or give more clearance",
      p.roll, p.yaw, reach * 1e3, zreach * 1e3, (H[1] + p.clearance) * 1e3, p.clearance)
  end
  local sys = mech.spatial{ gravity = { 0, 0, 0 } }
  local s = sys:body{ name = "slider", mass = P.m_slider, inertia = P.J_slider,
    at = { H[1] + p.clearance - reach - 1e-6, 0, 0 }, velocity = { p.speed, 0, 0 } }
  local def = { sys.ground, s, a_at = { 0, 0, 0 }, b_at = { 0, 0, 0 }, axis = { 0, 1, 0 }, ref = { 1, 0, 0 },
    name = "guide", clearance = { x = p.clearance, z = p.clearance },
    slider = { length = P.length, width = P.width, height = P.height,
      axis = { R[1][2], R[2][2], R[3][2] }, ref = { R[1][1], R[2][1], R[3][1] } },
    stiffness = p.stiffness }
  local guide, sl = material(fname, "guide", p.guide), material(fname, "slider", p.slider)
  box_law(def, p, guide, sl)
  sys:prismatic(def)
  sys:prismatic{ sys.ground, s, axis = { 1, 0, 0 }, name = "lock" }
  return sys
end

return spec003
