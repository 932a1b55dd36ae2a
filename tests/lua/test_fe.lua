-- SPDX-License-Identifier: MIT
-- Flexible bodies from Lua: sys:flexible and its nodes, node loads and springs to the
-- ground, a node-to-guide contact set (sys:guide) with the stick-slip friction of [Zheng & Wang]
-- Eq. 13 per node, the channels of nodes and bodies, natural frequencies, and every
-- validation error.
local tap = require "tap"

local g = 9.81

local function block(o)
  o = o or {}
  local sys = mech.planar{ gravity = { 0, -g } }
  local mesh = mech.mesh.rectangle{ size = { 0.2, 0.1 }, nx = o.nx or 2, ny = o.ny or 1 }
  local b = sys:flexible{ name = "block", mesh = mesh, E = o.E or 1e5, nu = 0.3, density = o.density or 50,
    alpha = o.alpha or 0, beta = o.beta or 0.002, lumping = o.lumping }
  return sys, b
end

do -- the body and its nodes
  local sys, b = block()
  tap.is(b.kind, "flexible body", "sys:flexible returns a flexible body")
  tap.is(b.nnodes, 6, "2 x 1 elements: 6 nodes")
  tap.near(b.mass, 50 * 0.2 * 0.1, 1e-15, "mass: density x thickness x area")
  tap.near(b:node_mass(1), 0.125, 1e-15, "a corner node carries a quarter of its element (0.5 kg)")
  tap.is(b:node(4).name, "block.n4", "nodes are named <body>.n<k>")
  tap.is(b:node(4).kind, "body", "a node is a body")
  tap.is(sys:entity("block.n4"), b:node(4), "and is found by name")
  tap.is(#b.mesh.nodes, 6, "fe.mesh is the mesh table")
  local top = b:find_nodes{ group = "top" }
  tap.is(table.concat(top, ","), "1,2,3", "find_nodes on the body's mesh: the top row is 1-3")
  tap.like(tostring(b), "flexible body 'block': 6 nodes, 2 quadrilaterals", "tostring")
  tap.like(sys:describe(), "flexible body block: 6 nodes", "describe lists the body")
  tap.ok(not sys:describe():find("block.n1", 1, true), "but not its nodes one by one")
end

do -- a block at rest on a floor with stiction: the nodes stick under a small pull and
  -- slide at mu_k beyond mu_s m g ([Zheng & Wang, Eq. 13], per node thanks to the lumped mass)
  -- Settling under its weight the block spreads sideways (Poisson), and the floor holds
  -- its bottom corners with friction of about nu/(1 - nu) of their load, opposite at the
  -- two ends: that takes up part of each corner's static limit.  mu_s = 0.3 leaves room
  -- for a pull of 0.1 m g; 0.35 m g exceeds mu_s m g.
  for _, v in ipairs{ { 0.1, "holds" }, { 0.35, "slides" } } do
    local sys, b = block{ alpha = 1 }
    local m = b.mass
    local contacts = sys:guide{ b, lower = 0, lower_nodes = b:find_nodes{ group = "bottom" },
      law = mech.contact.kelvin_voigt{ K = 1e6, c = 1e3 },
      friction = mech.friction.stick{ mu = 0.1, mu_s = 0.3, v_eps = 1e-5 } }
    tap.is(#contacts.lower, 3, "a contact per bottom node")
    tap.ok(contacts.upper and #contacts.upper == 0, "no upper surface asked for")
    -- the pull: v[1] m g on the bottom nodes, shared as they share the weight (1/4, 1/2,
    -- 1/4), so that every node's share stays below its own static limit; ramped up from
    -- 0.05 s to 0.1 s, once the block has settled on the floor (it starts at rest on it, and
    -- the contacts need a millisecond to take its weight).  (A pull on one edge would make
    -- that node slip first and, with mu_k < mu_s, the slip can spread: a flexible block.)
    for k, share in pairs{ [4] = 0.25, [5] = 0.5, [6] = 0.25 } do
      sys:force{ b:node(k), fn = function(t)
        return share * v[1] * m * g * math.min(math.max((t - 0.05) / 0.05, 0), 1), 0
      end }
    end
    local run = sys:simulate{ t = 0.5, report = 0.01, method = "bdf", rtol = 1e-8, atol = 1e-11,
      record = { "block.x", "block.vx", "block.ft", "block.fn", "block.n1.fn", "block.n5.ft", "block.contacts" } }
    local n = #run
    tap.near(run["block.fn"][n], m * g, 1e-6 * m * g, v[2] .. ": the normal forces carry the weight")
    tap.is(run["block.n1.fn"][n], 0, "top nodes are not in contact")
    if v[1] < 0.3 then
      -- sticking: the friction balances the pull exactly, the body creeps at most while the
      -- stick band (1e-5 m/s) is entered
      tap.near(run["block.ft"][n], -v[1] * m * g, 1e-6 * m * g, "holds: friction = -pull")
      tap.ok(math.abs(run["block.x"][n] - run["block.x"][1]) < 1e-5, "holds: the block does not slide")
    else
      -- sliding: once the pull is whole (t >= 0.1 s), m v' = (0.35 - 0.1) m g - alpha m v
      -- (alpha = 1/s), so v(0.5) = a + (v(0.1) - a) exp(-0.4) with a = 0.25 g
      local i1 = 11 -- t = 0.1 s
      local a = 0.25 * g
      local want = a + (run["block.vx"][i1] - a) * math.exp(-0.4)
      tap.ok(run["block.vx"][i1] > 0, "slides: it broke away before the pull was whole")
      tap.near(run["block.vx"][n], want, 1e-4 * want, "slides: v' = (pull - mu_k m g) / m - alpha v")
      tap.near(run["block.ft"][n], -0.1 * m * g, 1e-4 * m * g, "slides: friction = -mu_k m g")
    end
    tap.is(run["block.contacts"][n], 3, "three nodes touch")
  end
end

do -- a node spring along a fixed axis, and node loads
  local sys2 = mech.planar{}
  local b2 = sys2:flexible{ name = "p", mesh = mech.mesh.rectangle{ size = { 0.2, 0.1 }, nx = 1, ny = 1 },
    E = 1e6, density = 10, beta = 0.01, alpha = 5 }
  for k = 1, 4 do sys2:spring{ sys2.ground, b2:node(k), k = 25, axis = { 1, 0 }, name = "s" .. k } end
  for k = 1, 4 do sys2:force{ b2:node(k), value = { 0.5, 0.2 } } end
  local run = sys2:simulate{ t = 4, report = 0.1, method = "bdf", rtol = 1e-9, atol = 1e-12,
    record = { "p.n1.ux", "p.n1.uy", "s1.f", "p.n1.ay" } }
  local n = #run
  -- x: 4 springs of 25 N/m hold 4 x 0.5 N: u = 0.02 m; y: nothing holds 4 x 0.2 N on
  -- 0.2 kg, damped by alpha: v -> F / (alpha m) = 0.8 / (5 * 0.2) = 0.8 m/s
  tap.near(run["p.n1.ux"][n], 0.02, 1e-6, "springs along x hold the x load (u = F / k)")
  tap.near(run["s1.f"][n], 0.5, 1e-4, "the spring's tension")
  tap.ok(run["p.n1.uy"][n] > 1, "springs along x do not hold y")
end

do -- frequencies of a free block: three rigid modes, then a positive one
  local _, b = block{ nx = 4, ny = 2 }
  local w = b:frequencies{ n = 4, mass = "consistent" }
  tap.ok(w[1] < 1e-6 * w[4] and w[3] < 1e-6 * w[4] and w[4] > 0, "free body: three zero frequencies")
  local held = b:frequencies{ n = 1, fixed = b:find_nodes{ group = "left" } }
  tap.ok(held[1] > 0, "held at its left side: the first frequency is positive")
end

do -- the joint to a rigid body: penalty ([Zheng & Wang, Eq. 4]) and Lagrange ([Zheng & Wang, abstract])
  for _, method in ipairs{ "penalty", "lagrange" } do
    local sys = mech.planar{ gravity = { 0, -g } }
    local bar = sys:body{ name = "bar", mass = 1, inertia = 1 / 12, at = { 0.5, 0 } }
    sys:revolute{ sys.ground, bar, at = { 0, 0 } }
    local b = sys:flexible{ name = "tip", mesh = mech.mesh.rectangle{ size = { 0.1, 0.1 }, nx = 2, ny = 2,
      center = { 1, 0 } }, E = 1e5, density = 20, beta = 0.005 }
    local centre = b:find_nodes{ near = { 1, 0 } }[1]
    if method == "penalty" then
      sys:revolute{ bar, b:node(centre), at = { 1, 0 }, name = "J", method = "penalty", k = 1e6 }
    else
      sys:revolute{ bar, b:node(centre), at = { 1, 0 }, name = "J" }
    end
    local run = sys:simulate{ t = 0.3, report = 0.01, method = "bdf", rtol = 1e-7, atol = 1e-10,
      record = { "J.dx", "J.dy", "bar.phi", "system.balance", "system.energy" } }
    local n = #run
    tap.ok(run.ok, method .. ": the pendulum with a flexible bob runs")
    tap.ok(run["bar.phi"][n] < -0.3, method .. ": it swings down")
    local err = math.max(run["J.dx"]:max(), -run["J.dx"]:min(), run["J.dy"]:max(), -run["J.dy"]:min())
    if method == "penalty" then
      -- the joint carries about the bob's weight and inertia, ~ 0.2 kg x 30 m/s^2: 6 N over
      -- 1e6 N/m is 6e-6 m
      tap.ok(err < 2e-5 and err > 1e-8, string.format("penalty: the joint gives %.2g m", err))
    else
      tap.ok(err < 1e-7, string.format("Lagrange: the joint holds (%.2g m)", err))
    end
    tap.ok(math.abs(run["system.balance"][n]) < 1e-4 * math.abs(run["system.energy"][1] - run["system.energy"][n]) + 1e-6,
      method .. ": the energy balance closes")
  end
end

do -- errors
  local sys = mech.planar{}
  local mesh = mech.mesh.rectangle{ size = { 0.2, 0.1 }, nx = 2, ny = 1 }
  tap.raises(function() sys:flexible{ mesh = mesh, density = 1 } end,
    "sys:flexible: field 'E' is required", "E is required")
  tap.raises(function() sys:flexible{ E = 1, density = 1 } end, "field 'mesh' is required", "mesh is required")
  tap.raises(function() sys:flexible{ mesh = mesh, E = 1, density = 1, nu = 0.6 } end,
    "Poisson's ratio nu must be in (-1, 0.5)", "nu out of range")
  tap.raises(function() sys:flexible{ mesh = mesh, E = 1, density = 1, plane = "3d" } end,
    "plane", "plane must be stress or strain")
  tap.raises(function() sys:flexible{ mesh = mesh, E = 1, density = 1, young = 3 } end,
    "young", "a misspelled field is named")
  local bad = { nodes = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } }, elements = { { 1, 4, 3, 2 } } }
  tap.raises(function() sys:flexible{ mesh = bad, E = 1, density = 1 } end, "element 1",
    "a clockwise element is named")
  local b = sys:flexible{ mesh = mesh, E = 1, density = 1, name = "b" }
  tap.raises(function() b:node(7) end, "node 7 does not exist ('b' has nodes 1 to 6)", "unknown node")
  tap.raises(function() b:node("x") end, "node number expected", "node number type")
  tap.raises(function() b:find_nodes{ box = { 5, 5, 6, 6 } } end, "", "an empty node set is an error")
  tap.raises(function() sys:prismatic{ sys.ground, b:node(1) } end, "a node takes only revolute joints",
    "prismatic joint on a node")
  tap.raises(function() sys:torque{ b:node(1), value = 1 } end, "has no rotation", "torque on a node")
  tap.raises(function() sys:guide{ b, law = mech.contact.hertz{ K = 1 } } end, "give 'clearance' or",
    "a guide needs its surfaces")
  tap.raises(function() sys:guide{ b, clearance = 1e-3, lower_nodes = {}, law = mech.contact.hertz{ K = 1 } } end,
    "'lower_nodes' is empty", "an empty node list")
  tap.raises(function() sys:guide{ b, clearance = 1e-3, lower_nodes = { 9 }, law = mech.contact.hertz{ K = 1 } } end,
    "node 9 does not exist", "an unknown node in a guide")
  tap.raises(function() sys:guide{ b, clearance = 1e-3 } end, "field 'law' is required", "a guide needs a law")
  -- a guide whose contacts cannot all be named adds none of them (it added those before)
  local law = mech.contact.hertz{ K = 1 }
  sys:contact{ b:node(5), surface = { normal = { 0, 1 } }, law = law, name = "g_n5_lower" }
  tap.raises(function() sys:guide{ b, name = "g", lower = 0, lower_nodes = { 4, 5, 6 }, law = law } end,
    "sys:guide: contact 'g_n5_lower': the name is already used", "a contact name already used")
  tap.is(sys:entity("g_n4_lower"), nil, "and the guide added no contact")
  tap.raises(function() sys:guide{ b, name = "h", lower = 0, lower_nodes = { 4, 6, 4 }, law = law } end,
    "sys:guide: node 4 is listed twice in 'lower_nodes'", "a node listed twice")
  tap.is(sys:entity("h_n4_lower"), nil, "and the guide added no contact")
  local long = string.rep("x", 47)
  tap.raises(function() sys:guide{ b, name = long, lower = 0, lower_nodes = { 4, 5 }, law = law } end,
    "sys:guide: name '" .. long .. "' is too long for the names of its contacts", "a name too long")
  tap.is(sys:entity(long), nil, "and the guide added no contact (it added one with the name cut short)")
  tap.raises(function() b:frequencies{ n = 100 } end, "ask for 1 to", "too many frequencies")
end

tap.done()
