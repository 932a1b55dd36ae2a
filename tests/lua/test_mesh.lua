-- SPDX-License-Identifier: MIT
-- mech.mesh: the structured mesher's numbering ([Zheng & Wang, Figs. 6 and 12]), node sets by
-- box, function, group and nearest point, the gmsh fixtures in both formats, hand-made
-- meshes through mech.mesh.check, and the error messages.
local tap = require "tap"

local source = os.getenv("MECHLUA_SOURCE") or ((arg[0]:match("^(.*)/") or ".") .. "/../..")
local data = source .. "/tests/data/"

local function list(t) return table.concat(t, " ") end

local function near_xy(p, x, y) return math.abs(p[1] - x) < 1e-12 and math.abs(p[2] - y) < 1e-12 end

local function area(m, e)
  local el, a = m.elements[e], 0
  for k = 1, #el do
    local p, q = m.nodes[el[k]], m.nodes[el[k % #el + 1]]
    a = a + p[1] * q[2] - q[1] * p[2]
  end
  return a / 2
end

-- ---- mech.mesh.rectangle -----------------------------------------------------------------

do -- [Zheng & Wang, Sec. 4.1]: 5 x 5 Q4 over 0.6 x 0.5 m, nodes 1-6 on top, 31-36 at the bottom
  local m = mech.mesh.rectangle{ size = { 0.6, 0.5 }, nx = 5, ny = 5 }
  tap.is(getmetatable(m).__name, "mech.mesh", "a mesh carries the metatable mech.mesh")
  tap.ok(#m.nodes == 36 and #m.elements == 25 and m.tags == nil, "5 x 5: 36 nodes, 25 elements, no tags")
  tap.ok(near_xy(m.nodes[1], 0, 0.5) and near_xy(m.nodes[6], 0.6, 0.5), "5 x 5: nodes 1 and 6 are the top corners")
  tap.ok(near_xy(m.nodes[31], 0, 0) and near_xy(m.nodes[36], 0.6, 0), "5 x 5: node 31 at the origin, 36 bottom-right")
  tap.is(list(m.elements[1]), "7 8 2 1", "5 x 5: element 1 is the top-left cell, counter-clockwise")
  local ok, total = true, 0
  for e = 1, #m.elements do
    local a = area(m, e)
    ok = ok and a > 0
    total = total + a
  end
  tap.ok(ok and math.abs(total - 0.3) < 1e-14, "5 x 5: every element counter-clockwise, 0.3 m^2 in all")
  tap.is(list(m.groups.top.nodes), "1 2 3 4 5 6", "5 x 5: group top")
  tap.is(list(m.groups.bottom.nodes), "31 32 33 34 35 36", "5 x 5: group bottom")
  tap.is(list(m.groups.left.nodes), "1 7 13 19 25 31", "5 x 5: group left")
  tap.is(list(m.groups.corners.nodes), "1 6 31 36", "5 x 5: group corners")
  tap.ok(m.groups.top.dim == 1 and m.groups.corners.dim == 0 and m.groups.all.dim == 2
    and #m.groups.all.elements == 25 and m.groups.top.elements == nil,
    "5 x 5: dimensions of the groups; only dim 2 lists elements")
  tap.is(tostring(m), "mesh: 36 nodes, 25 quadrilaterals, groups: all, bottom, corners, left, right, top",
    "tostring summarises the mesh")

  -- node sets
  tap.is(list(m:find_nodes{ group = "top" }), "1 2 3 4 5 6", "find_nodes by group")
  tap.is(list(m:find_nodes{ box = { 0, 0, 0.6, 0 } }), "31 32 33 34 35 36",
    "find_nodes by box: a box of zero height on the bottom edge")
  tap.is(list(m:find_nodes{ box = { 0.12, 0.1, 0.24, 0.2 } }), "20 21 26 27",
    "find_nodes by box: edges included")
  tap.is(list(m:find_nodes(function(x, y) return x < 0.01 end)), "1 7 13 19 25 31",
    "find_nodes by function")
  tap.is(list(m:find_nodes{ where = function(x, y, n) return n % 2 == 0 end, group = "bottom" }),
    "32 34 36", "find_nodes: where and group together, the node number given")
  tap.is(list(m:find_nodes{ near = { 0.31, 0.26 } }), "16", "find_nodes near a point: the nearest node")
  tap.is(list(m:find_nodes{ near = { 0.31, 0.26 }, group = "top" }), "4",
    "find_nodes near a point among a group")
  local n, d = m:node_at{ 0.36, 0.2 }
  tap.ok(n == 22 and d < 1e-12, "node_at: the node at a point and its distance")
  n, d = m:node_at(0.6, 0.55)
  tap.ok(n == 6 and math.abs(d - 0.05) < 1e-12, "node_at(x, y): the nearest node and its distance")

  tap.raises(function() m:find_nodes{ box = { 1, 1, 2, 2 } } end,
    "mesh:find_nodes: no node in box {1.0, 1.0, 2.0, 2.0}", "an empty box is an error")
  tap.raises(function() m:find_nodes{ group = "top", box = { 0, 0, 1, 0.1 } } end,
    "mesh:find_nodes: no node of group 'top' and in box", "the message says every test")
  tap.raises(function() m:find_nodes(function() return false end) end,
    "mesh:find_nodes: no node for which the function is true", "a function that keeps nothing")
  tap.raises(function() m:find_nodes{ group = "middle" } end,
    "mesh:find_nodes: the mesh has no group 'middle' (groups: all, bottom, corners, left, right, top)",
    "an unknown group lists the groups")
  tap.raises(function() m:find_nodes{ boxx = { 0, 0, 1, 1 } } end,
    "mesh:find_nodes: unknown field 'boxx' (known fields: box, group, where, near)", "misspelled selection")
  tap.raises(function() m:find_nodes{ box = { 1, 0, 0, 1 } } end,
    "field 'box' must be {xmin, ymin, xmax, ymax} with xmin <= xmax", "a box upside down")
  tap.raises(function() m:find_nodes("top") end,
    "mesh:find_nodes: expected a function(x, y) or a table", "a selection of the wrong type")
  tap.raises(function() m:node_at("here") end, "mesh:node_at: expected a point {x, y} (got string)",
    "node_at needs a point")
end

do -- [Zheng & Wang, Sec. 4.2] (Fig. 12): the slider centred on B = (3.8, 0)
  local m = mech.mesh.rectangle{ size = { 0.2, 0.1 }, center = { 3.8, 0 }, nx = 2, ny = 2 }
  tap.ok(#m.nodes == 9 and near_xy(m.nodes[5], 3.8, 0), "2 x 2: node 5 is the centre B")
  tap.ok(near_xy(m.nodes[1], 3.7, 0.05) and near_xy(m.nodes[9], 3.9, -0.05), "2 x 2: nodes 1 and 9")
  tap.is(list(m.groups.top.nodes) .. " / " .. list(m.groups.bottom.nodes), "1 2 3 / 7 8 9",
    "2 x 2: nodes 1-3 on top, 7-9 at the bottom")
  m = mech.mesh.rectangle{ width = 0.2, height = 0.1, center = { 3.8, 0 }, nx = 4, ny = 2 }
  tap.ok(#m.nodes == 15 and near_xy(m.nodes[8], 3.8, 0), "4 x 2: node 8 is the centre")
  tap.is(list(m.groups.top.nodes) .. " / " .. list(m.groups.bottom.nodes), "1 2 3 4 5 / 11 12 13 14 15",
    "4 x 2: nodes 1-5 on top, 11-15 at the bottom")
  tap.is(m:node_at{ 3.8, 0 }, 8, "4 x 2: node_at finds the centre node")
end

do -- numbering from the bottom, triangles
  local m = mech.mesh.rectangle{ size = { 2, 1 }, origin = { 1, 2 }, nx = 2, ny = 2, numbering = "bottom" }
  tap.ok(near_xy(m.nodes[1], 1, 2) and near_xy(m.nodes[9], 3, 3), "from the bottom: node 1 at the origin")
  tap.is(list(m.elements[1]), "1 2 5 4", "from the bottom: element 1 is the bottom-left cell")
  local t = mech.mesh.rectangle{ size = { 3, 2 }, nx = 3, ny = 2, triangles = true }
  local ok, total = #t.elements == 12, 0
  for e = 1, #t.elements do
    ok = ok and #t.elements[e] == 3 and area(t, e) > 0
    total = total + area(t, e)
  end
  tap.ok(ok and math.abs(total - 6) < 1e-13, "triangles: 12 counter-clockwise triangles covering 6 m^2")
  tap.is(list(t.elements[1]) .. " / " .. list(t.elements[2]), "5 6 2 / 5 2 1",
    "triangles: the lower-right triangle of a cell first")
  tap.is(tostring(t), "mesh: 12 nodes, 12 triangles, groups: all, bottom, corners, left, right, top",
    "tostring of a triangle mesh")
end

do -- argument errors of mech.mesh.rectangle
  local fn = mech.mesh.rectangle
  tap.raises(function() fn{ nx = 0 } end, "mech.mesh.rectangle: nx must be an integer >= 1 (got 0)", "nx = 0")
  tap.raises(function() fn{ ny = 2.5 } end, "mech.mesh.rectangle: ny must be an integer >= 1 (got 2.5)",
    "ny not an integer")
  tap.raises(function() fn{ nx = "4" } end, "mech.mesh.rectangle: nx must be an integer >= 1 (got string)",
    "nx not a number")
  tap.raises(function() fn{ nx = 1e10 } end, "nx must be an integer >= 1 (got 10000000000.0)", "nx beyond an int")
  tap.raises(function() fn{ nx = 5000, ny = 5000 } end, "mech.mesh.rectangle: nx ny = 25000000 cells is too many",
    "too many cells")
  tap.raises(function() fn{ size = { 1, -1 } } end,
    "mech.mesh.rectangle: the width and height must be finite and > 0 (got 1 x -1)", "negative height")
  tap.raises(function() fn{ size = { 1, 1 }, width = 2 } end, "give 'size' = {w, h} or 'width' and 'height', not both",
    "size and width")
  tap.raises(function() fn{ width = 2 } end, "give both 'width' and 'height'", "width alone")
  tap.raises(function() fn{ origin = { 0, 0 }, center = { 1, 1 } } end, "give 'origin' or 'center', not both",
    "origin and center")
  tap.raises(function() fn{ numbering = "left" } end,
    "mech.mesh.rectangle: field 'numbering' must be one of \"top\", \"bottom\" (got \"left\")", "numbering")
  tap.raises(function() fn{ nz = 3 } end, "mech.mesh.rectangle: unknown field 'nz'", "misspelled field")
  tap.raises(function() fn(3) end, "mech.mesh.rectangle: expected a table", "not a table")
end

-- ---- mech.mesh.read ----------------------------------------------------------------------

do -- the same mixed mesh in MSH 2.2 and 4.1
  local a = mech.mesh.read(data .. "square_22.msh")
  local b = mech.mesh.read(data .. "square_41.msh")
  tap.is(tostring(a), "mesh: 9 nodes, 3 quadrilaterals and 2 triangles, groups: 0:5, body, bottom, corner, top",
    "square_22.msh: node 10 (unused) dropped, element 11 (a repeat of 6) kept once")
  tap.is(list(a.tags), "1 2 3 4 5 6 7 8 9", "square: the file's node numbers in tags")
  tap.is(list(a.elements[5]), "9 3 7", "square: the clockwise triangle 9-7-3 turned counter-clockwise")
  tap.ok(a.groups.bottom.dim == 1 and a.groups.bottom.tag == 1 and list(a.groups.bottom.nodes) == "1 2 5",
    "square: group bottom from its lines, with gmsh's dimension and tag")
  tap.ok(a.groups.corner.dim == 2 and list(a.groups.corner.elements) == "1" and list(a.groups.corner.nodes) == "1 5 8 9",
    "square: group corner holds element 1 and its nodes")
  tap.is(list(a.groups["0:5"].nodes), "1", "square: an unnamed physical point is named dim:tag")
  local function same(x, y)
    if #x.nodes ~= #y.nodes or #x.elements ~= #y.elements then return false end
    for i = 1, #x.nodes do
      if x.nodes[i][1] ~= y.nodes[i][1] or x.nodes[i][2] ~= y.nodes[i][2] then return false end
    end
    for e = 1, #x.elements do
      if list(x.elements[e]) ~= list(y.elements[e]) then return false end
    end
    for name, g in pairs(x.groups) do
      local h = y.groups[name]
      if not h or g.dim ~= h.dim or list(g.nodes) ~= list(h.nodes)
        or list(g.elements or {}) ~= list(h.elements or {}) then return false end
    end
    return list(x.tags) == list(y.tags)
  end
  tap.ok(same(a, b) and same(b, a), "square: both formats give the same mesh table")
  tap.is(list(a:find_nodes{ group = "top" }), "3 4 7", "find_nodes works on a mesh read from a file")
end

do -- a plate with a hole, meshed by gmsh 4.8.4 (tests/data/plate_hole.geo)
  local p41 = mech.mesh.read(data .. "plate_hole_41.msh")
  local p22 = mech.mesh.read(data .. "plate_hole_22.msh")
  tap.is(tostring(p41), "mesh: 232 nodes, 196 quadrilaterals, groups: bottom, corner, hole, plate, top",
    "plate_hole_41.msh: 196 quadrangles")
  tap.is(tostring(p22), tostring(p41), "plate_hole_22.msh: the same")
  local total = 0
  for e = 1, #p41.elements do total = total + area(p41, e) end
  local r, n = 0.025, #p41.groups.hole.nodes
  tap.ok(n == 16 and math.abs(total - (0.02 - n / 2 * r * r * math.sin(2 * math.pi / n))) < 1e-15,
    "plate: the elements cover the plate minus the 16-gon of the hole")
  local hole = p41:find_nodes{ where = function(x, y) return math.abs(math.sqrt((x - 0.1) ^ 2 + (y - 0.05) ^ 2) - r) < 1e-9 end }
  tap.is(list(hole), list(p41.groups.hole.nodes), "plate: the group hole is the nodes on the circle")
  tap.ok(mech.mesh.check(p41) == p41 and mech.mesh.check(mech.mesh.rectangle{ nx = 3, ny = 2, triangles = true }),
    "the tables mech.mesh makes pass mech.mesh.check (tags, groups and all)")
end

do -- errors name the file and the line
  local dir = os.tmpname()
  local function write(name, text)
    local path = dir .. "." .. name
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
    return path
  end
  local head = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n"
  local bad = write("type9.msh", head .. "$Elements\n1\n1 9 2 1 1 1 2 3 4 5 6\n$EndElements\n")
  tap.raises(function() mech.mesh.read(bad) end,
    "mech.mesh.read: " .. bad .. ":12: element type 9 (6-node second-order triangle) is not supported",
    "an unsupported element type: file and line")
  local undefined = write("undef.msh", head .. "$Elements\n1\n1 2 2 1 1 1 2 7\n$EndElements\n")
  tap.raises(function() mech.mesh.read(undefined) end,
    undefined .. ":12: element 1 uses node 7, which $Nodes does not define", "an undefined node")
  local cut = write("cut.msh", head:sub(1, 50)) -- within "1 0 0 0" on line 6
  tap.raises(function() mech.mesh.read(cut) end, cut .. ":6: the file ends in $Nodes (expected the z coordinate of a node",
    "a truncated file: the last line")
  tap.raises(function() mech.mesh.read(dir .. ".none.msh") end,
    "mech.mesh.read: cannot open '" .. dir .. ".none.msh': No such file or directory", "a missing file")
  tap.raises(function() mech.mesh.read() end, "mech.mesh.read: expected the path of a gmsh file (got no value)",
    "read needs a path")
  for _, name in ipairs{ "type9.msh", "undef.msh", "cut.msh" } do os.remove(dir .. "." .. name) end
  os.remove(dir)
end

-- ---- meshes made by hand -----------------------------------------------------------------

do
  local t = { nodes = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 }, { 2, 0 } },
    elements = { { 1, 2, 3, 4 }, { 2, 5, 3 } },
    groups = { right = { elements = { 2 } }, base = { nodes = { 5, 1, 2, 1 }, dim = 1 } } }
  tap.ok(mech.mesh.check(t) == t and getmetatable(t).__name == "mech.mesh",
    "check returns a good mesh, given the mesh methods")
  tap.is(tostring(t), "mesh: 5 nodes, 1 quadrilateral and 1 triangle, groups: base, right", "its summary")
  tap.is(list(t:find_nodes{ near = { 2, 0.1 } }), "5", "its methods")
  local mt = setmetatable({}, { __index = t })
  tap.ok(mech.mesh.check(setmetatable({ nodes = t.nodes, elements = t.elements }, getmetatable(mt))) ~= nil,
    "check keeps a table's own metatable")

  local function bad(mesh, text, name)
    tap.raises(function() mech.mesh.check(mesh) end, "mech.mesh.check: mesh: " .. text, name)
  end
  local sq = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } }
  bad(5, "expected a mesh table", "not a table")
  bad({ elements = { { 1, 2, 3 } } }, "field 'nodes' must be a list of nodes {{x, y}, ...} (got nil)", "no nodes")
  bad({ nodes = {}, elements = { { 1, 2, 3 } } },
    "field 'nodes' must be a list of nodes {{x, y}, ...} (got an empty table)", "empty nodes")
  bad({ nodes = { { 0, 0 }, { 1 }, { 0, 1 } }, elements = { { 1, 2, 3 } } },
    "node 2 must be {x, y}, two finite numbers", "a node with one coordinate")
  bad({ nodes = { { 0, 0 }, { 1, 0 / 0 }, { 0, 1 } }, elements = { { 1, 2, 3 } } },
    "node 2 must be {x, y}, two finite numbers", "a NaN coordinate")
  bad({ nodes = sq }, "field 'elements' must be a list of elements", "no elements")
  bad({ nodes = sq, elements = { { 1, 2, 3, 4, 1 } } }, "element 1 has 5 nodes (expected 3 or 4)", "five nodes")
  bad({ nodes = sq, elements = { { 1, 2, 3, 4 }, "x" } }, "element 2 must be a list of 3 or 4 node numbers (got string)",
    "an element that is not a table")
  bad({ nodes = sq, elements = { { 1, 2, 3, 99 } } }, "element 1: node 99 does not exist (the mesh has 4 nodes)",
    "a node that does not exist")
  bad({ nodes = sq, elements = { { 1, 2, "3", 4 } } }, "element 1: corner 3 must be a node number (got string)",
    "a corner that is not a number")
  bad({ nodes = sq, elements = { { 1, 2, 3.5, 4 } } }, "element 1: corner 3 must be a node number (got 3.5)",
    "a corner that is not an integer")
  bad({ nodes = sq, elements = { { 1, 4, 3, 2 } } }, "element 1 is inverted (area -1 m^2 < 0", "clockwise corners")
  bad({ nodes = sq, elements = { { 1, 2, 2, 4 } } }, "element 1 repeats node 2", "a repeated corner")
  bad({ nodes = { { 0, 0 }, { 1, 0 }, { 0.2, 0.2 }, { 0, 1 } }, elements = { { 1, 2, 3, 4 } } },
    "element 1 is not convex (its angle at node 3", "a dart")
  bad({ nodes = { { 0, 0 }, { 1, 0 }, { 2, 0 } }, elements = { { 1, 2, 3 } } }, "element 1 is degenerate",
    "three nodes on a line")
  bad({ nodes = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 5, 5 } }, elements = { { 1, 2, 3 } } },
    "node 4 is not used by any element", "an unused node")
  bad({ nodes = sq, elements = { { 1, 2, 3, 4 } }, tags = { 1, 2 } }, "field 'tags' must list one integer per node (4)",
    "tags of the wrong length")
  bad({ nodes = sq, elements = { { 1, 2, 3, 4 } }, groups = { top = { nodes = { 3, 9 } } } },
    "group 'top': node 9 does not exist (the mesh has 4)", "a group node out of range")
  bad({ nodes = sq, elements = { { 1, 2, 3, 4 } }, groups = { top = { dim = 1, elements = { 1 } } } },
    "group 'top': only a group of dim 2 lists elements", "elements in a group of dim 1")
  bad({ nodes = sq, elements = { { 1, 2, 3, 4 } }, groups = { top = { node = { 3 } } } },
    "group 'top': unknown field 'node' (known fields: dim, tag, nodes, elements)", "a misspelled group field")
  bad({ nodes = sq, elements = { { 1, 2, 3, 4 } }, groups = { top = { dim = 3, nodes = { 3 } } } },
    "group 'top': dim must be 0, 1 or 2 (got 3)", "a group of dim 3")
  bad({ nodes = sq, elements = { { 1, 2, 3, 4 } }, groups = { top = {} } },
    "group 'top' lists no nodes and no elements", "an empty group")
  bad({ nodes = sq, elements = { { 1, 2, 3, 4 } }, groups = { { nodes = { 1 } } } },
    "field 'groups': keys must be names (got a number)", "a group without a name")
  bad({ nodes = sq, elements = { { 1, 2, 3, 4 } }, groups = { [string.rep("g", 64)] = { nodes = { 1 } } } },
    "group name '" .. string.rep("g", 64) .. "' must have 1 to 63 characters", "a group name too long")
end

do -- Ctrl-C while a large mesh becomes Lua tables (no Lua code runs there to take it):
  -- the call stops soon after, not once every table is built (a minute for 1e7 cells).
  -- The sanitizer build raises the SIGINT at a chosen allocation (faultinject).
  if package.preload.faultinject then
    local fi = require "faultinject"
    local ok, err = pcall(function()
      fi.arm(1000, "interrupt")
      return mech.mesh.rectangle{ size = { 1, 1 }, nx = 300, ny = 100 }
    end)
    local n = fi.disarm()
    tap.ok(not ok and tostring(err):find("interrupted", 1, true), "a Ctrl-C stops mech.mesh.rectangle: " .. tostring(err))
    tap.ok(n < 10000, string.format("within a few thousand allocations of the Ctrl-C (%d; 60000 tables in all)", n))
    local sys = mech.planar{}
    sys:body{ name = "b", mass = 1, inertia = 1 }
    ok, err = pcall(sys.simulate, sys, { t = 1e-3, quiet = true })
    tap.ok(ok, "and the interrupt is not pending after (a run goes through): " .. tostring(err))
  else
    tap.skip("needs the sanitizer build's faultinject module", 3)
  end
end

tap.done()
