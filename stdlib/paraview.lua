-- SPDX-License-Identifier: MIT
-- paraview: a run's motion as ParaView files (VTK XML, ASCII), made from run:scene at each
-- frame's time.  Called as run:paraview(prefix, opts); man mechlua(3), RESULTS, has the
-- details and help "run:paraview" a summary.
--
--   run:paraview("out/crank")                -- out/crank.pvd and the folder out/crank/
--   run:paraview("out/crank", { fps = 25, t = { 0, 1 }, thickness = 0.01 })
--
-- What it writes: prefix.pvd, a collection with one time step per frame (the time its
-- timestep), and in the folder prefix/ per frame k (from 0):
--   bodies_<k>.vtp    PolyData: bodies' outlines (planar ones extruded into prisms of the
--                     thickness), links and guide surfaces as lines, bearings and journals as
--                     rings (planar: bands of the thickness), cylinders, boxes, joints'
--                     anchors as vertices; cell data entity, body, role (integer ids, names
--                     in the field data entity_names and role_names); the recorded channels
--                     at the frame's time as field data (one value each), TimeValue.
--   meshes_<k>.vtu    UnstructuredGrid of the flexible bodies (z = 0): quads and triangles,
--                     point data displacement, velocity; cell data von_mises [Pa], entity.
--   contacts_<k>.vtp  PolyData: a vertex at each contact's point; point data normal, fn,
--                     ft, force (fn + ft) [N], fn_mag, ft_mag, touching (0 or 1), entity.
-- Every file starts with a comment: the program's version, the script, the user's
-- parameters and the run's model and integrator (run.parameters).  Everything is written
-- under temporary names beside the target and renamed at the end: whole or not at all.
local paraview = {}

local fmt, concat = string.format, table.concat
local typename = require("options").typename
local FN = "run:paraview"

local function fail(...)
  error(FN .. ": " .. fmt(...), 0)
end

local ROLES = { "outline", "link", "joint", "bearing", "journal", "guide", "slider", "surface" }
local ROLE_ID = {}
for i, r in ipairs(ROLES) do ROLE_ID[r] = i - 1 end

local OPTIONS = { fps = true, t = true, every = true, channels = true, thickness = true,
  segments = true }

local function xml_attr(s)
  return (tostring(s):gsub('[&<>"\']', { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
    ['"'] = "&quot;", ["'"] = "&apos;" }))
end

-- An XML comment holding text: no "--" inside, no "-" at its end.
local function xml_comment(text)
  text = text:gsub("%-%-", "- -"):gsub("%-%-", "- -"):gsub("%-$", "- ")
  return "<!--\n" .. text .. "\n-->\n"
end

local function exists(path)
  local f = io.open(path, "r")
  if f then f:close() end
  return f ~= nil
end

-- The names of entities (bodies, joints, contacts, meshes) as integer ids from 0, in the order
-- met, the same in every file of the export.
local function namer()
  local ids, names = {}, {}
  return function(name)
    local id = ids[name]
    if id == nil then
      id = #names
      names[id + 1] = name
      ids[name] = id
    end
    return id
  end, names
end

-- ASCII string array: each string's bytes as integers, each ended by a 0.
local function string_array(name, list)
  local out = {}
  for i, s in ipairs(list) do
    local codes = { s:byte(1, -1) }
    codes[#codes + 1] = 0
    out[i] = concat(codes, " ")
  end
  return fmt('<DataArray type="String" Name="%s" NumberOfTuples="%d" format="ascii">\n%s\n</DataArray>\n',
    xml_attr(name), #list, concat(out, "\n"))
end

local function float_array(name, values, ncomp)
  local n = #values
  local out = {}
  if ncomp == 3 then
    for i = 1, n, 3 do out[#out + 1] = fmt("%.17g %.17g %.17g", values[i], values[i + 1], values[i + 2]) end
  else
    for i = 1, n do out[i] = fmt("%.17g", values[i]) end
  end
  return fmt('<DataArray type="Float64" Name="%s" NumberOfComponents="%d" format="ascii">\n%s\n</DataArray>\n',
    xml_attr(name), ncomp, concat(out, "\n"))
end

local function int_array(name, values, type_)
  return fmt('<DataArray type="%s" Name="%s" format="ascii">\n%s\n</DataArray>\n', type_ or "Int32",
    xml_attr(name), concat(values, " "))
end

-- The field data of every file: the time, the entities' names, more arrays given as text.
local function field_data(t, names, extra)
  return "<FieldData>\n" .. fmt('<DataArray type="Float64" Name="TimeValue" NumberOfTuples="1" format="ascii">%.17g</DataArray>\n', t)
    .. (#names > 0 and string_array("entity_names", names) or "") .. (extra or "") .. "</FieldData>\n"
end

-- A vector of dim components as 3 (z = 0 for a planar one), appended to list.
local function push3(list, v)
  local n = #list
  list[n + 1], list[n + 2], list[n + 3] = v[1], v[2], v[3] or 0
end

-- Two unit vectors normal to the unit vector a (and to each other).
local function normals(a)
  local x, y, z = a[1], a[2], a[3]
  local ux, uy, uz
  if math.abs(x) < 0.9 then ux, uy, uz = 0, -z, y else ux, uy, uz = z, 0, -x end -- a x e1 or a x e2 (up to sign)
  local l = math.sqrt(ux * ux + uy * uy + uz * uz)
  ux, uy, uz = ux / l, uy / l, uz / l
  return { ux, uy, uz }, { y * uz - z * uy, z * ux - x * uz, x * uy - y * ux }
end

-- The bodies' geometry of a scene: points and cells (vertices, lines, polygons).
local function body_geometry(scene, o, id)
  local P = {}
  local cells = { verts = {}, lines = {}, polys = {} }
  local planar = scene.dim == 2
  local h2 = o.thickness / 2
  local nseg = o.segments
  local function point(x, y, z)
    local n = #P
    P[n + 1], P[n + 2], P[n + 3] = x, y, z
    return n // 3
  end
  local function cell(kind, ids, it)
    local c = cells[kind]
    c[#c + 1] = { ids, id(it.owner), id(it.body), ROLE_ID[it.role] or -1 }
  end
  -- a ring of nseg points around c in the plane of u, v
  local function ring(c, r, u, v, off)
    local ids = {}
    for k = 0, nseg - 1 do
      local a = 2 * math.pi * k / nseg
      local ca, sa = r * math.cos(a), r * math.sin(a)
      ids[k + 1] = point(c[1] + ca * u[1] + sa * v[1] + off[1], c[2] + ca * u[2] + sa * v[2] + off[2],
        c[3] + ca * u[3] + sa * v[3] + off[3])
    end
    return ids
  end
  -- the quads between two rings (or two polygons) of equal length, closed around
  local function band(a, b, it)
    local n = #a
    for k = 1, n do
      local k1 = k % n + 1
      cell("polys", { a[k], a[k1], b[k1], b[k] }, it)
    end
  end
  for _, it in ipairs(scene.items) do
    local p, shape = it.points, it.shape
    if shape == "points" then
      for _, q in ipairs(p) do cell("verts", { point(q[1], q[2], q[3] or 0) }, it) end
    elseif shape == "segment" then
      cell("lines", { point(p[1][1], p[1][2], p[1][3] or 0), point(p[2][1], p[2][2], p[2][3] or 0) }, it)
    elseif shape == "polygon" then
      if planar then -- a prism: bottom (reversed), top, sides
        local lo, hi = {}, {}
        for k, q in ipairs(p) do
          lo[k] = point(q[1], q[2], -h2)
          hi[k] = point(q[1], q[2], h2)
        end
        local rev = {}
        for k = #lo, 1, -1 do rev[#rev + 1] = lo[k] end
        cell("polys", rev, it)
        cell("polys", hi, it)
        band(lo, hi, it)
      else
        local ids = {}
        for k, q in ipairs(p) do ids[k] = point(q[1], q[2], q[3]) end
        cell("polys", ids, it)
      end
    elseif shape == "circle" then
      local c = { p[1][1], p[1][2], p[1][3] or 0 }
      local u, v = { 1, 0, 0 }, { 0, 1, 0 }
      if planar then -- a band of the thickness
        band(ring(c, it.radius, u, v, { 0, 0, -h2 }), ring(c, it.radius, u, v, { 0, 0, h2 }), it)
      else
        local ids = ring(c, it.radius, u, v, { 0, 0, 0 })
        ids[#ids + 1] = ids[1]
        cell("lines", ids, it)
      end
    elseif shape == "cylinder" then
      local c, a, L = p[1], it.axis, it.length / 2
      local u, v = normals(a)
      local lo = ring(c, it.radius, u, v, { -L * a[1], -L * a[2], -L * a[3] })
      local hi = ring(c, it.radius, u, v, { L * a[1], L * a[2], L * a[3] })
      band(lo, hi, it)
      local rev = {}
      for k = #lo, 1, -1 do rev[#rev + 1] = lo[k] end
      cell("polys", rev, it)
      cell("polys", hi, it)
    elseif shape == "box" then
      local c, R, hf = p[1], it.R, it.half
      local ids = {}
      for k = 0, 7 do -- corner k: bit 0 x, bit 1 y, bit 2 z
        local lx = (k & 1 == 1 and 1 or -1) * hf[1]
        local ly = (k & 2 == 2 and 1 or -1) * hf[2]
        local lz = (k & 4 == 4 and 1 or -1) * hf[3]
        ids[k] = point(c[1] + R[1] * lx + R[2] * ly + R[3] * lz, c[2] + R[4] * lx + R[5] * ly + R[6] * lz,
          c[3] + R[7] * lx + R[8] * ly + R[9] * lz)
      end
      for _, f in ipairs{ { 0, 2, 3, 1 }, { 4, 5, 7, 6 }, { 0, 1, 5, 4 }, { 2, 6, 7, 3 }, { 0, 4, 6, 2 },
        { 1, 3, 7, 5 } } do
        cell("polys", { ids[f[1]], ids[f[2]], ids[f[3]], ids[f[4]] }, it)
      end
    end
  end
  return P, cells
end

local function cell_arrays(kind, list)
  local conn, offs, off = {}, {}, 0
  for i, c in ipairs(list) do
    for _, v in ipairs(c[1]) do conn[#conn + 1] = v end
    off = off + #c[1]
    offs[i] = off
  end
  return fmt("<%s>\n", kind) .. int_array("connectivity", conn) .. int_array("offsets", offs) .. fmt("</%s>\n", kind)
end

local HEAD = '<?xml version="1.0"?>\n'

local function vtk_open(type_, comment)
  return HEAD .. comment .. fmt('<VTKFile type="%s" version="1.0" byte_order="LittleEndian" header_type="UInt64">\n<%s>\n', type_, type_)
end

local function vtk_close(type_)
  return fmt("</%s>\n</VTKFile>\n", type_)
end

local function bodies_file(scene, o, id, names, comment, channel_xml)
  local P, cells = body_geometry(scene, o, id)
  local all = {}
  for _, kind in ipairs{ "verts", "lines", "polys" } do
    for _, c in ipairs(cells[kind]) do all[#all + 1] = c end
  end
  local ent, bod, rol = {}, {}, {}
  for i, c in ipairs(all) do ent[i], bod[i], rol[i] = c[2], c[3], c[4] end
  local out = { vtk_open("PolyData", comment), field_data(scene.t, names, string_array("role_names", ROLES) .. channel_xml),
    fmt('<Piece NumberOfPoints="%d" NumberOfVerts="%d" NumberOfLines="%d" NumberOfStrips="0" NumberOfPolys="%d">\n',
      #P // 3, #cells.verts, #cells.lines, #cells.polys) }
  if #all > 0 then
    out[#out + 1] = '<CellData Scalars="entity">\n' .. int_array("entity", ent) .. int_array("body", bod) .. int_array("role", rol) .. "</CellData>\n"
  end
  out[#out + 1] = "<Points>\n" .. float_array("Points", P, 3) .. "</Points>\n"
  if #cells.verts > 0 then out[#out + 1] = cell_arrays("Verts", cells.verts) end
  if #cells.lines > 0 then out[#out + 1] = cell_arrays("Lines", cells.lines) end
  if #cells.polys > 0 then out[#out + 1] = cell_arrays("Polys", cells.polys) end
  out[#out + 1] = "</Piece>\n" .. vtk_close("PolyData")
  return concat(out)
end

local function meshes_file(scene, id, names, comment)
  local P, D, V, conn, offs, types, vm, ent = {}, {}, {}, {}, {}, {}, {}, {}
  local base, off = 0, 0
  for _, m in ipairs(scene.meshes) do
    local e = id(m.name)
    for k, q in ipairs(m.nodes) do
      push3(P, q)
      push3(D, m.displacement[k])
      push3(V, m.velocity[k])
    end
    for k, el in ipairs(m.elements) do
      for _, nd in ipairs(el) do conn[#conn + 1] = base + nd - 1 end
      off = off + #el
      offs[#offs + 1] = off
      types[#types + 1] = #el == 4 and 9 or 5 -- VTK_QUAD, VTK_TRIANGLE
      vm[#vm + 1] = m.von_mises[k]
      ent[#ent + 1] = e
    end
    base = base + #m.nodes
  end
  return concat{ vtk_open("UnstructuredGrid", comment), field_data(scene.t, names),
    fmt('<Piece NumberOfPoints="%d" NumberOfCells="%d">\n', #P // 3, #types),
    '<PointData Vectors="displacement">\n', float_array("displacement", D, 3), float_array("velocity", V, 3), "</PointData>\n",
    '<CellData Scalars="von_mises">\n', float_array("von_mises", vm, 1), int_array("entity", ent), "</CellData>\n",
    "<Points>\n", float_array("Points", P, 3), "</Points>\n",
    "<Cells>\n", int_array("connectivity", conn), int_array("offsets", offs), int_array("types", types, "UInt8"), "</Cells>\n",
    "</Piece>\n", vtk_close("UnstructuredGrid") }
end

local function contacts_file(scene, id, names, comment)
  local P, N, FN_, FT, F, fnm, ftm, touch, ent = {}, {}, {}, {}, {}, {}, {}, {}, {}
  for _, c in ipairs(scene.contacts) do
    if c.point then
      push3(P, c.point)
      push3(N, c.normal)
      push3(FN_, c.fn)
      push3(FT, c.ft)
      push3(F, { c.fn[1] + c.ft[1], c.fn[2] + c.ft[2], (c.fn[3] or 0) + (c.ft[3] or 0) })
      fnm[#fnm + 1], ftm[#ftm + 1] = c.fn_mag, c.ft_mag
      touch[#touch + 1] = c.touching and 1 or 0
      ent[#ent + 1] = id(c.name)
    end
  end
  local n = #touch
  local verts = {}
  for i = 1, n do verts[i] = { { i - 1 } } end
  local out = { vtk_open("PolyData", comment), field_data(scene.t, names),
    fmt('<Piece NumberOfPoints="%d" NumberOfVerts="%d" NumberOfLines="0" NumberOfStrips="0" NumberOfPolys="0">\n', n, n) }
  if n > 0 then
    out[#out + 1] = concat{ '<PointData Vectors="force">\n', float_array("normal", N, 3), float_array("fn", FN_, 3),
      float_array("ft", FT, 3), float_array("force", F, 3), float_array("fn_mag", fnm, 1), float_array("ft_mag", ftm, 1),
      int_array("touching", touch, "UInt8"), int_array("entity", ent), "</PointData>\n" }
  end
  out[#out + 1] = "<Points>\n" .. float_array("Points", P, 3) .. "</Points>\n"
  if n > 0 then out[#out + 1] = cell_arrays("Verts", verts) end
  out[#out + 1] = "</Piece>\n" .. vtk_close("PolyData")
  return concat(out)
end

-- The options, checked; the frames' times.
local function read_options(run, opts)
  if opts == nil then opts = {} end
  if type(opts) ~= "table" then
    fail("argument #2 must be a table of options { fps, t, every, channels, thickness, segments } (got %s)", typename(opts))
  end
  for k in pairs(opts) do
    if not OPTIONS[k] then
      fail("unknown option '%s' (known options: channels, every, fps, segments, t, thickness)", tostring(k))
    end
  end
  local m = run.motion
  if m == 0 then
    fail("the run kept no states: give sys:simulate a 'motion' step (sys:simulate{ ..., motion = dt }) to export its motion")
  end
  local kept = {}
  for k = 1, m do kept[k] = (run:state(k)) end
  local tlast = kept[m]
  local o = {}
  local t0, t1 = 0, tlast
  if opts.t ~= nil then
    local w = opts.t
    if type(w) ~= "table" or type(w[1]) ~= "number" or type(w[2]) ~= "number" then
      fail("option 't' must be a time window {t0, t1} in [0, %.9g] s, the kept states' (got %s)", tlast, typename(w))
    end
    t0, t1 = w[1], w[2]
    if not (t0 >= 0 and t0 <= t1 and t1 <= tlast) then
      fail("option 't' must be a time window {t0, t1} with 0 <= t0 <= t1 <= %.9g s, the kept states' (got {%g, %g})", tlast, t0, t1)
    end
  end
  if opts.fps ~= nil and opts.every ~= nil then
    fail("options 'fps' and 'every' exclude each other (fps: frames per second of the run's time; every: every k-th kept state)")
  end
  local times = {}
  if opts.fps ~= nil then
    local fps = opts.fps
    if type(fps) ~= "number" or not (fps > 0 and fps < math.huge) then
      fail("option 'fps' must be a number > 0 (frames per second of the run's time; got %s)", tostring(fps))
    end
    local n = math.floor((t1 - t0) * fps * (1 + 1e-12) + 1e-9)
    if n > 1e6 then fail("option 'fps' = %g gives %d frames (at most 1000000)", fps, n + 1) end
    for i = 0, n do times[i + 1] = math.min(t0 + i / fps, t1) end
  else
    local every = opts.every or 1
    if math.type(every) ~= "integer" or every < 1 then
      fail("option 'every' must be an integer >= 1 (every k-th kept state; got %s)", tostring(every))
    end
    local j = 0
    for k = 1, m do
      local t = kept[k]
      if t >= t0 and t <= t1 then
        if j % every == 0 then times[#times + 1] = t end
        j = j + 1
      end
    end
    if #times == 0 then
      fail("option 't' = {%g, %g} holds no kept state (they are %.9g s apart): give a wider window or 'fps'", t0, t1,
        m > 1 and kept[2] - kept[1] or 0)
    end
  end
  o.times = times
  local ch = opts.channels
  if ch == nil or ch == true then
    o.channels = {}
    for i, name in ipairs(run.channels) do o.channels[i] = name end
  elseif ch == false then
    o.channels = {}
  elseif type(ch) == "table" then
    o.channels = {}
    for i, name in ipairs(ch) do
      if type(name) ~= "string" then fail("option 'channels'[%d] must be a channel name (got %s)", i, typename(name)) end
      o.channels[i] = name
    end
  else
    fail("option 'channels' must be true, false or a list of recorded channels (got %s)", typename(ch))
  end
  local seg = opts.segments or 32
  if math.type(seg) ~= "integer" or seg < 3 or seg > 1000 then
    fail("option 'segments' must be an integer from 3 to 1000 (the sides of a circle; got %s)", tostring(seg))
  end
  o.segments = seg
  if opts.thickness ~= nil and (type(opts.thickness) ~= "number" or not (opts.thickness > 0 and opts.thickness < math.huge)) then
    fail("option 'thickness' must be a number > 0 (m, planar outlines' extrusion; got %s)", tostring(opts.thickness))
  end
  o.thickness = opts.thickness
  return o
end

-- The model's size at a scene: the largest extent of its points and nodes.
local function model_size(scene)
  local lo, hi = { math.huge, math.huge }, { -math.huge, -math.huge }
  local function add(q)
    for i = 1, 2 do
      lo[i], hi[i] = math.min(lo[i], q[i]), math.max(hi[i], q[i])
    end
  end
  for _, it in ipairs(scene.items) do
    for _, q in ipairs(it.points) do add(q) end
  end
  for _, m in ipairs(scene.meshes) do
    for _, q in ipairs(m.nodes) do add(q) end
  end
  local s = math.max(hi[1] - lo[1], hi[2] - lo[2])
  return s > 0 and s < math.huge and s or 1
end

-- The channels' values at the frames' times (linear between rows, as col:at does).
local function channel_values(run, names, times)
  local values = {}
  if #names == 0 then return values end
  local tt = run.t:table()
  local cols = {}
  for i, name in ipairs(names) do
    local ok, col = pcall(run.column, run, name)
    if not ok then fail("option 'channels': '%s' is not a recorded channel (recorded: %s)", name, concat(run.channels, ", ")) end
    cols[i] = col:table()
  end
  local n, lo = #tt, 1
  for f, t in ipairs(times) do
    while lo < n - 1 and tt[lo + 1] <= t do lo = lo + 1 end
    local hi = math.min(lo + 1, n)
    local w = tt[hi] > tt[lo] and (t - tt[lo]) / (tt[hi] - tt[lo]) or 0
    if w < 0 then w = 0 elseif w > 1 then w = 1 end
    local row = {}
    for i = 1, #names do
      local c = cols[i]
      row[i] = w == 0 and c[lo] or w == 1 and c[hi] or c[lo] + w * (c[hi] - c[lo])
    end
    values[f] = row
  end
  return values
end

local function write_file(path, text, made)
  local f, msg = io.open(path, "w")
  if not f then fail("cannot write %s", msg) end
  made[#made + 1] = path
  local ok, err = f:write(text)
  local closed, cerr = f:close()
  if not ok or not closed then fail("cannot write '%s': %s", path, tostring(err or cerr)) end
end

-- The files a previous export's .pvd names (relative to its folder), or nil.
local function previous_export(pvd)
  local f = io.open(pvd, "r")
  if not f then return nil end
  local text = f:read("a") or ""
  f:close()
  if not text:find("run:paraview", 1, true) then return nil end
  local files = {}
  for file in text:gmatch('file="([^"]*)"') do files[#files + 1] = file:match("[^/]*$") end
  return files
end

-- run:paraview(prefix, opts) -> path of the .pvd, number of frames
function paraview.write(run, prefix, opts, header)
  if type(prefix) ~= "string" or prefix == "" then
    fail("argument #1 must be a path prefix such as \"out/crank\" (got %s)", typename(prefix))
  end
  prefix = prefix:gsub("%.pvd$", "")
  local dir, base = prefix:match("^(.*)/([^/]*)$")
  if not dir then dir, base = ".", prefix end
  if dir == "" then dir = "/" end
  if base == "" or base == "." or base == ".." then
    fail("argument #1 must be a path prefix ending in a name, such as \"out/crank\" (got \"%s\")", prefix)
  end
  local o = read_options(run, opts)
  if not exists(dir) then
    fail("cannot write '%s.pvd': the folder '%s' does not exist: create it first with mech.mkdir(\"%s\")", prefix, dir, dir)
  end
  local old_files
  if exists(prefix) then
    old_files = previous_export(prefix .. ".pvd")
    if not old_files then
      fail("'%s' exists and is not the folder of an export by run:paraview ('%s.pvd'): remove it or choose another prefix",
        prefix, prefix)
    end
  end
  local values = channel_values(run, o.channels, o.times)

  local pid = require("sweepcore").pid()
  local tmpdir, tmppvd = fmt("%s.tmp%d", prefix, pid), fmt("%s.pvd.tmp%d", prefix, pid)
  local made, dir_made = {}, false
  local nframes = #o.times
  local ok, err = pcall(function()
    local ok_mk, mk_err = pcall(mech.mkdir, tmpdir)
    if not ok_mk then fail("cannot create the folder '%s': %s", tmpdir, tostring(mk_err)) end
    dir_made = true
    local info = { (header or ""):gsub("\n+$", ""), "", "run:paraview of the run: " .. nframes .. " frames", "",
      run.parameters }
    local text = concat(info, "\n")
    local id, names = namer()
    local first = run:scene(o.times[1])
    o.thickness = o.thickness or 0.05 * model_size(first)
    -- the ids in the order of the scene, the same in every frame's files
    for _, b in ipairs(first.bodies) do id(b.name) end
    for _, it in ipairs(first.items) do id(it.owner); id(it.body) end
    for _, m in ipairs(first.meshes) do id(m.name) end
    for _, c in ipairs(first.contacts) do id(c.name) end
    local has_meshes, has_contacts = #first.meshes > 0, #first.contacts > 0
    local pvd = { HEAD, xml_comment(text .. fmt("\nthickness of planar outlines %.9g m", o.thickness)),
      '<VTKFile type="Collection" version="1.0" byte_order="LittleEndian">\n<Collection>\n' }
    for f, t in ipairs(o.times) do
      local scene = f == 1 and first or run:scene(t)
      local comment = xml_comment(fmt("%s\nframe %d of %d, t = %.17g s", text, f, nframes, t))
      local chx = {}
      for i, name in ipairs(o.channels) do
        chx[i] = fmt('<DataArray type="Float64" Name="%s" NumberOfTuples="1" format="ascii">%.17g</DataArray>\n',
          xml_attr(name), values[f][i])
      end
      local parts = { { "bodies", "vtp", bodies_file(scene, o, id, names, comment, concat(chx)) } }
      if has_meshes then parts[#parts + 1] = { "meshes", "vtu", meshes_file(scene, id, names, comment) } end
      if has_contacts then parts[#parts + 1] = { "contacts", "vtp", contacts_file(scene, id, names, comment) } end
      for p, part in ipairs(parts) do
        local file = fmt("%s_%06d.%s", part[1], f - 1, part[2])
        write_file(tmpdir .. "/" .. file, part[3], made)
        pvd[#pvd + 1] = fmt('<DataSet timestep="%.17g" group="" part="%d" name="%s" file="%s/%s"/>\n', t, p - 1, part[1],
          xml_attr(base), file)
      end
    end
    pvd[#pvd + 1] = "</Collection>\n</VTKFile>\n"
    write_file(tmppvd, concat(pvd), made)
  end)
  local olddir = fmt("%s.old%d", prefix, pid)
  if ok and old_files then
    local r, e = os.rename(prefix, olddir)
    if not r then ok, err = false, fmt("%s: cannot replace '%s': %s", FN, prefix, e) end
  end
  if ok then
    local r, e = os.rename(tmpdir, prefix)
    if not r then
      if old_files then os.rename(olddir, prefix) end
      ok, err = false, fmt("%s: cannot write '%s': %s", FN, prefix, e)
    else
      dir_made = false
      for k, path in ipairs(made) do made[k] = path:gsub("^" .. tmpdir:gsub("%p", "%%%0"), prefix) end
    end
  end
  if ok then
    local r, e = os.rename(tmppvd, prefix .. ".pvd")
    if not r then ok, err = false, fmt("%s: cannot write '%s.pvd': %s", FN, prefix, e) end
  end
  if not ok then
    err = tostring(err):gsub("^[^\n]-paraview%.lua:%d+: ", "")
    if err:sub(1, #FN + 1) ~= FN .. ":" then err = FN .. ": " .. err end -- run:scene's, io's
    for _, path in ipairs(made) do os.remove(path) end
    if dir_made then os.remove(tmpdir) else os.remove(prefix) end
    if old_files and exists(olddir) then os.rename(olddir, prefix) end
    error(err, 0)
  end
  if old_files then -- the previous export's files, then its folder
    for _, file in ipairs(old_files) do os.remove(olddir .. "/" .. file) end
    os.remove(olddir)
  end
  return prefix .. ".pvd", nframes
end

return paraview
