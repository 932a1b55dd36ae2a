-- SPDX-License-Identifier: MIT
-- What each kind of entity answers: the names Tab completes on it in the REPL (its
-- metatable's __complete, called with the entity as the REPL's completion calls it) are
-- exactly the fields and methods of its kind, and each of them works.
local tap = require "tap"

-- The names completion offers on e, sorted, and the methods among them (what "e:" offers).
local function completion(e)
  local complete = getmetatable(e).__complete
  local names, methods = {}, {}
  for k, v in pairs(type(complete) == "function" and complete(e) or complete) do
    names[#names + 1] = k
    if type(v) == "function" then methods[#methods + 1] = k end
  end
  table.sort(names)
  table.sort(methods)
  return table.concat(names, " "), table.concat(methods, " ")
end

local sys = mech.planar{ gravity = { 0, -9.81 } }
local body = sys:body{ name = "crank", mass = 1, inertia = 0.01, at = { 0.1, 0 } }
local point = body:point{ name = "tip", at = { 0.2, 0 } }
local joint = sys:revolute{ sys.ground, body, at = { 0, 0 }, name = "pin" }
local driver = sys:drive{ body, speed = 1, name = "motor" }
local spring = sys:force{ body, value = { 0, 1 }, name = "push" }
local fe = sys:flexible{ name = "plate", mesh = mech.mesh.rectangle{ nx = 2 }, E = 1e5, density = 10,
  displacement = { 2, 0 } }
local node = fe:node(1)
local contact = sys:contact{ body, body_at = { 0, 0 }, surface = { at = { 0, -1 }, normal = { 0, 1 } },
  law = mech.contact.hertz{ K = 1e6 }, name = "floor" }

local common = "channels kind name system"
local expect = {
  { "body", body, "channels kind name point system", "point" },
  { "ground", sys.ground, "channels kind name point system", "point" },
  { "node", node, "channels kind name point system", "point" },
  { "point", point, common, "" },
  { "joint", joint, common, "" },
  { "driver", driver, common, "" },
  { "force", spring, common, "" },
  { "contact", contact, common, "" },
  { "flexible body", fe,
    "channels find_nodes frequencies kind mass mesh name nnodes node node_mass system",
    "find_nodes frequencies node node_mass" },
}
for _, c in ipairs(expect) do
  local what, e, names, methods = c[1], c[2], c[3], c[4]
  local got, got_methods = completion(e)
  tap.is(got, names, what .. ": Tab completes exactly its fields and methods")
  tap.is(got_methods, methods, what .. ": and \":\" only its methods")
  local broken = {}
  for name in got:gmatch("%S+") do
    local v = e[name]
    local method = (" " .. methods .. " "):find(" " .. name .. " ", 1, true)
    if v == nil or (method and type(v) ~= "function") then broken[#broken + 1] = name end
  end
  tap.is(table.concat(broken, " "), "", what .. ": every name completed answers")
end

-- the rigid body's completion names no flexible-body method, and those are not there
tap.is(body.frequencies, nil, "a rigid body has no frequencies")
tap.is(body.find_nodes, nil, "nor find_nodes")

-- the methods completed work on their entity
tap.is(body:point{ name = "p2", at = { 0, 0 } }.name, "crank.p2", "body:point works")
tap.is(node:point{ name = "q", at = { 2, 0 } }.name, "plate.n1.q", "node:point works")
tap.is(#fe:find_nodes{ where = function() return true end }, 6, "fe:find_nodes works")
tap.ok(fe:node_mass(1) > 0, "fe:node_mass works")
tap.is(fe.nnodes, 6, "fe.nnodes works")

tap.done()
