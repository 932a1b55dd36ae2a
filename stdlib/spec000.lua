-- SPDX-License-Identifier: MIT
-- spec000: the two examples of Zheng and Wang's frictional translational joint with a
-- flexible slider ([Zheng & Wang], paper 000 of mechlua-references(7); its extended
-- abstract, paper 002, uses a Lagrange joint instead), built with the paper's Tables 1
-- and 2 unless told otherwise, for the scenario scripts, the tests and the benchmark.
--
--   local spec000 = require "spec000"
--   local sys, slider = spec000.oscillator{}          -- Sec. 4.1: 25 elements, 36 nodes
--   local sys, slider = spec000.slider_crank{ nx = 2 } -- Sec. 4.2: 4 elements (nx = 4: 8)
--
-- Both return the system and the flexible body "slider".  The guide is "guide": one
-- contact per surface node, "guide_n<k>_lower" / "guide_n<k>_upper", Kelvin-Voigt normal
-- law ([Zheng & Wang, Eq. 1]) and the trial-and-error stick-slip friction of Eq. 13.  Nodes are
-- numbered row by row from the top-left corner (Figs. 6 and 12), so slider.n1 is the
-- top-left corner.  man mechlua has the fields and their defaults.
local spec000 = {}

local options = require "options"
local fmt, fail = string.format, options.fail

-- The fields of o with the defaults filled in; those whose default is a number must be
-- finite numbers.
local function fields(fname, o, known)
  local p = options.read(fname, o, known)
  for k, def in pairs(known) do
    if type(def) == "number" then
      local v = p[k]
      if type(v) ~= "number" or v ~= v or math.abs(v) == math.huge then
        fail(2, fname, "field '%s' must be a finite number (got %s)", k, tostring(v))
      end
    end
  end
  return p
end

-- Table 1 of [Zheng & Wang] (Sec. 4.1), and this project's choices where the paper is silent.
spec000.OSCILLATOR = {
  width = 0.6, height = 0.5,        -- m
  nx = 5, ny = 5,                   -- elements (25)
  clearance = 2.5e-3,               -- m, on each side of the centred slider
  force_at = 0.05,                  -- m above the bottom face, on the right face
  density = 1 / 3, thickness = 1,   -- kg/m^3 with 1 m (the paper's kg/m^2): 0.1 kg
  E = 1000, nu = 0.3,               -- Pa, -
  alpha = 0.010, beta = 0.544,      -- Rayleigh, 1/s and s
  K = 1e4, chi = 1e3,               -- N/m and N s/m per node (Eq. 1)
  mu = 0.15, mu_s = 0.20,           -- kinetic and static friction
  v_eps = 1e-5,                     -- m/s, the stick band of Eq. 13
  F = 1.5, Omega = math.pi / 10,    -- N, rad/s: F sin(Omega t) along +x
  k = 1.0,                          -- N/m, the spring to the ground (printed "N/s")
  gravity = 9.81,                   -- m/s^2 along -y
  resting = false,                  -- true: start on the lower surface (guide gap 2c above)
  mesh = false,                     -- a mesh of the slider instead of the nx x ny rectangle
}

-- The stick-slip oscillator of [Zheng & Wang, Sec. 4.1] (Fig. 6): a 0.6 x 0.5 m slider of 5 x 5
-- quadrilaterals in a guide with clearance c above and below, pulled by F sin(Omega t)
-- along +x on its right face at force_at above the bottom (split evenly between the two
-- right-face nodes bounding that height: 36 and 30 for the paper's mesh) and held by a
-- spring k to the ground on its left face at mid-height (two springs k/2 along x at nodes
-- 13 and 19).  The slider's reference configuration has its lower-left corner at the
-- origin; the guide surfaces are at y = -c and y = h + c (resting: y = 0 and h + 2c).
-- With `mesh` (a mesh table, such as mech.mesh.read of a gmsh file, spanning exactly
-- [0, width] x [0, height], with node sets "top" and "bottom"), that mesh replaces the
-- rectangle of nx x ny; the load and the spring go to the nodes of its right and left faces
-- in the same way.
function spec000.oscillator(o)
  local fname = "spec000.oscillator"
  local p = fields(fname, o, spec000.OSCILLATOR)
  local sys = mech.planar{ gravity = { 0, -p.gravity } }
  local mesh = p.mesh
  if mesh then
    if type(mesh) ~= "table" or type(mesh.nodes) ~= "table" then
      fail(1, fname, "field 'mesh' must be a mesh table (got %s)", type(mesh))
    end
    local x0, y0, x1, y1 = math.huge, math.huge, -math.huge, -math.huge
    for _, xy in ipairs(mesh.nodes) do
      x0, x1 = math.min(x0, xy[1]), math.max(x1, xy[1])
      y0, y1 = math.min(y0, xy[2]), math.max(y1, xy[2])
    end
    local tol = 1e-9 * math.max(p.width, p.height)
    if math.abs(x0) > tol or math.abs(y0) > tol or math.abs(x1 - p.width) > tol or math.abs(y1 - p.height) > tol then
      fail(1, fname, "field 'mesh' spans [%g, %g] x [%g, %g] m; expected [0, %g] x [0, %g] (width x height)",
        x0, x1, y0, y1, p.width, p.height)
    end
  else
    mesh = mech.mesh.rectangle{ size = { p.width, p.height }, nx = p.nx, ny = p.ny }
  end
  local slider = sys:flexible{ name = "slider", mesh = mesh, E = p.E, nu = p.nu,
    density = p.density, thickness = p.thickness, alpha = p.alpha, beta = p.beta }
  local tol = 1e-6 * math.max(p.width, p.height)
  -- the force: on the right face, shared by the two nodes around force_at
  local right = slider:find_nodes{ box = { p.width - tol, -tol, p.width + tol, p.height + tol } }
  local mesh_nodes = slider.mesh.nodes
  local below, above
  for _, k in ipairs(right) do
    local y = mesh_nodes[k][2]
    if y <= p.force_at + 1e-12 and (not below or y > mesh_nodes[below][2]) then below = k end
    if y >= p.force_at - 1e-12 and (not above or y < mesh_nodes[above][2]) then above = k end
  end
  if not below or not above then fail(1, fname, "force_at must be within the slider's height") end
  local shares = below == above and { [below] = 1 } or { [below] = 0.5, [above] = 0.5 }
  for k, share in pairs(shares) do
    sys:force{ slider:node(k), amplitude = { share * p.F, 0 }, omega = p.Omega,
      name = fmt("F_n%d", k) }
  end
  -- the spring: on the left face at mid-height, shared like the force
  local left = slider:find_nodes{ box = { -tol, -tol, tol, p.height + tol } }
  local lo, hi
  for _, k in ipairs(left) do
    local y = mesh_nodes[k][2]
    if y <= p.height / 2 + 1e-12 and (not lo or y > mesh_nodes[lo][2]) then lo = k end
    if y >= p.height / 2 - 1e-12 and (not hi or y < mesh_nodes[hi][2]) then hi = k end
  end
  local sshares = lo == hi and { [lo] = 1 } or { [lo] = 0.5, [hi] = 0.5 }
  for k, share in pairs(sshares) do
    sys:spring{ sys.ground, slider:node(k), k = share * p.k, axis = { 1, 0 },
      name = fmt("spring_n%d", k) }
  end
  local lower, upper = -p.clearance, p.height + p.clearance
  if p.resting then lower, upper = 0, p.height + 2 * p.clearance end
  sys:guide{ slider, name = "guide", lower = lower, upper = upper, -- the mesh's "bottom", "top"
    law = mech.contact.kelvin_voigt{ K = p.K, c = p.chi },
    friction = mech.friction.stick{ mu = p.mu, mu_s = p.mu_s, v_eps = p.v_eps } }
  return sys, slider
end

-- Table 2 of [Zheng & Wang] (Sec. 4.2).
spec000.SLIDER_CRANK = {
  L1 = 1.8, L2 = 2.0,               -- m, crank OA and rod AB
  m1 = 2.0, m2 = 1.0,               -- kg, uniform rods
  width = 0.5, height = 0.3,        -- m, the slider
  nx = 2, ny = 2,                   -- 4 elements (nx = 4: the 8-element mesh)
  clearance = 2.5e-3,               -- m, above and below
  density = 20 / 3, thickness = 1,  -- slider mass 1 kg
  E = 1000, nu = 0.3,
  alpha = 0.010, beta = 0.544,
  K = 1e4, chi = 1e3,
  mu = 0.03, mu_s = 0.04, v_eps = 1e-5,
  k_joint = 1e5,                    -- N/m, penalty factors k_RX = k_RY of Eq. 4
  c_joint = 0,                      -- N s/m, a damper beside them (Eq. 4 has none)
  joint = "penalty",                -- or "lagrange" ([Zheng & Wang, abstract])
  P0 = 6.0, Omega = math.pi / 6,    -- N m, rad/s: the moment P0 sin(Omega t) on the crank
  gravity = 9.81,
}

-- The slider-crank of [Zheng & Wang, Sec. 4.2] (Fig. 12): crank "crank" pivoted at the origin
-- ("O"), rod "rod" ("A" the crank pin), both uniform rods starting along +x; the slider's
-- centre node starts at B = (L1 + L2, 0) and is joined to the rod's end by "B", penalty
-- springs k_joint (Eq. 4) or a Lagrange-multiplier joint ([Zheng & Wang, abstract]).  The guide's centre
-- line is y = 0, its surfaces at -+(h/2 + c).  The crank carries the moment "P".
function spec000.slider_crank(o)
  local fname = "spec000.slider_crank"
  local p = fields(fname, o, spec000.SLIDER_CRANK)
  if p.joint ~= "penalty" and p.joint ~= "lagrange" then
    fail(1, fname, "field 'joint' must be \"penalty\" or \"lagrange\" (got %s)", tostring(p.joint))
  end
  if p.c_joint < 0 then
    fail(1, fname, "field 'c_joint' must be >= 0 N s/m (got %g)", p.c_joint)
  end
  if p.nx % 2 ~= 0 or p.ny % 2 ~= 0 then
    fail(1, fname, "nx and ny must be even: the rod joins the slider's centre node")
  end
  local L1, L2 = p.L1, p.L2
  local sys = mech.planar{ gravity = { 0, -p.gravity } }
  local crank = sys:body{ name = "crank", mass = p.m1, inertia = p.m1 * L1 ^ 2 / 12, at = { L1 / 2, 0 } }
  local rod = sys:body{ name = "rod", mass = p.m2, inertia = p.m2 * L2 ^ 2 / 12, at = { L1 + L2 / 2, 0 } }
  sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "O" }
  sys:revolute{ crank, rod, at = { L1, 0 }, name = "A" }
  sys:torque{ crank, amplitude = p.P0, omega = p.Omega, name = "P" }
  local B = L1 + L2
  local mesh = mech.mesh.rectangle{ size = { p.width, p.height }, nx = p.nx, ny = p.ny,
    center = { B, 0 } }
  local slider = sys:flexible{ name = "slider", mesh = mesh, E = p.E, nu = p.nu,
    density = p.density, thickness = p.thickness, alpha = p.alpha, beta = p.beta }
  local centre = slider:find_nodes{ near = { B, 0 } }[1]
  if p.joint == "penalty" then
    sys:revolute{ rod, slider:node(centre), at = { B, 0 }, name = "B", method = "penalty",
      k = p.k_joint, c = p.c_joint }
  else
    sys:revolute{ rod, slider:node(centre), at = { B, 0 }, name = "B" }
  end
  sys:guide{ slider, name = "guide", clearance = p.clearance, -- the mesh's "bottom", "top"
    law = mech.contact.kelvin_voigt{ K = p.K, c = p.chi },
    friction = mech.friction.stick{ mu = p.mu, mu_s = p.mu_s, v_eps = p.v_eps } }
  return sys, slider, centre
end

return spec000
