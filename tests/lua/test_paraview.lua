-- SPDX-License-Identifier: MIT
-- run:paraview(prefix, opts): the run's motion as ParaView files.  Every file parses
-- (xmllint); the .pvd's frames at the kept states' times or at the requested rate and window;
-- the positions, fields and channels in the files equal the run's at those times (ASCII
-- with 17 digits); a planar model with a flexible body and contacts, spatial ones (links and
-- joints; clearance joints' cylinders, a box slider); bad input raises a clear error and
-- leaves no file, not even a temporary one.
local tap = require "tap"

package.path = (os.getenv("MECHLUA_SOURCE") or ".") .. "/tests/lib/?.lua;" .. package.path
local scratch = require "scratch"
local dir = scratch.dir()
local read = tap.slurp
local function ls(d) return scratch.ls(d or dir) end
local function xmllint(pattern)
  return os.execute("xmllint --noout " .. pattern .. " 2>&1")
end

-- The ASCII DataArray named name (in the part of text after `after`, when given) as numbers.
local function array(text, name, after)
  if after then
    local i = text:find(after, 1, true)
    assert(i, after)
    text = text:sub(i)
  end
  local body = text:match('<DataArray[^>]-Name="' .. name:gsub("%p", "%%%0") .. '"[^>]*>(.-)</DataArray>')
  assert(body, "no array " .. name)
  local v = {}
  for w in body:gmatch("%S+") do v[#v + 1] = tonumber(w) end
  return v
end
-- A String array's strings.
local function strings(text, name)
  local v, cur = {}, {}
  for _, c in ipairs(array(text, name)) do
    if c == 0 then
      v[#v + 1] = string.char(table.unpack(cur))
      cur = {}
    else
      cur[#cur + 1] = c
    end
  end
  return v
end
local function rel(a, b)
  return math.abs(a - b) / math.max(1, math.abs(b))
end
-- The .pvd's datasets: { t, part, name, file }.
local function datasets(pvd)
  local v = {}
  for attrs in read(pvd):gmatch("<DataSet([^>]*)/>") do
    v[#v + 1] = { t = tonumber(attrs:match('timestep="([^"]*)"')), part = tonumber(attrs:match('part="([^"]*)"')),
      name = attrs:match('name="([^"]*)"'), file = attrs:match('file="([^"]*)"') }
  end
  return v
end
local function frames(pvd, name)
  local v = {}
  for _, d in ipairs(datasets(pvd)) do
    if d.name == name then v[#v + 1] = d end
  end
  return v
end

-- ---- the planar slider-crank with a flexible slider in its guide ---------------------------
local spec000 = require "spec000"
local sys = spec000.slider_crank{ nx = 2 }
local run = sys:simulate{ t = 0.2, report = 0.01, method = "bdf", rtol = 1e-5, atol = 1e-8, max_order = 3,
  motion = 0.01, record = { "rod.x", "rod.y", "rod.phi", "slider.n5.x", "slider.n5.y", "crank.phi" }, quiet = true }
local prefix = dir .. "/crank"
local pvd, n = run:paraview(prefix)
tap.is(pvd, prefix .. ".pvd", "returns the .pvd's path")
tap.is(n, run.motion, "a frame per kept state by default (" .. run.motion .. ")")
tap.ok(xmllint(prefix .. ".pvd " .. prefix .. "/*"), "every file parses (xmllint)")
tap.is(ls(), "crank\ncrank.pvd\n", "the .pvd and its folder, nothing else beside them")
local pv = read(pvd)
tap.like(pv, '<VTKFile type="Collection"', "a VTK collection")
tap.like(pv, "mechlua " .. mech.version:gsub("%p", "%%%0"), "the .pvd names the program's version")
tap.like(pv, "joint B: revolute, rod", "and the run's model")
local bodies, meshes, contacts = frames(pvd, "bodies"), frames(pvd, "meshes"), frames(pvd, "contacts")
tap.ok(#bodies == n and #meshes == n and #contacts == n, "bodies, meshes and contacts at each frame")
local times_ok = true
for k = 1, n do
  local t = run:state(k)
  for _, f in ipairs{ bodies, meshes, contacts } do times_ok = times_ok and f[k].t == t end
end
tap.ok(times_ok, "each frame's timestep is its kept state's time")
tap.is(bodies[4].file, "crank/bodies_000003.vtp", "files in the folder, relative to the .pvd")

local worst, worst_ch, worst_rod, worst_field = 0, 0, 0, 0
for k = 1, n do
  local t = bodies[k].t
  local scene = run:scene(t)
  local mesh = read(dir .. "/" .. meshes[k].file)
  local P = array(mesh, "Points")
  local m = scene.meshes[1]
  local fields_ok = #P == 3 * #m.nodes
  for i, q in ipairs(m.nodes) do
    worst = math.max(worst, rel(P[3 * i - 2], q[1]), rel(P[3 * i - 1], q[2]), math.abs(P[3 * i]))
  end
  worst = math.max(worst, rel(P[13], run["slider.n5.x"][k]), rel(P[14], run["slider.n5.y"][k]))
  local D, V, S = array(mesh, "displacement"), array(mesh, "velocity"), array(mesh, "von_mises")
  for i = 1, #m.nodes do
    worst_field = math.max(worst_field, rel(D[3 * i - 2], m.displacement[i][1]), rel(D[3 * i - 1], m.displacement[i][2]),
      rel(V[3 * i - 2], m.velocity[i][1]), rel(V[3 * i - 1], m.velocity[i][2]))
  end
  for e = 1, #m.elements do worst_field = math.max(worst_field, rel(S[e], m.von_mises[e])) end
  if k == 1 then tap.ok(fields_ok, "the mesh's nodes are its points") end
  local b = read(dir .. "/" .. bodies[k].file)
  for _, name in ipairs{ "rod.x", "rod.y", "rod.phi", "crank.phi" } do
    worst_ch = math.max(worst_ch, rel(array(b, name)[1], run[name][k]))
  end
  -- the rod's links start at its centre of mass: (rod.x, rod.y)
  local names, ent, BP = strings(b, "entity_names"), array(b, "entity"), array(b, "Points")
  local conn, offs = array(b, "connectivity", "<Lines>"), array(b, "offsets", "<Lines>")
  local nverts = #array(b, "offsets", "<Verts>")
  local best = math.huge
  for c = 1, #offs do
    if names[ent[nverts + c] + 1] == "rod" then
      local i = conn[(offs[c - 1] or 0) + 1]
      best = math.min(best, math.max(rel(BP[3 * i + 1], run["rod.x"][k]), rel(BP[3 * i + 2], run["rod.y"][k])))
    end
  end
  worst_rod = math.max(worst_rod, best)
end
tap.ok(worst < 1e-12, string.format("the mesh's points are the nodes of run:scene and the recorded channels (worst %.2g)", worst))
tap.ok(worst_field < 1e-12, string.format("displacement, velocity and von_mises as run:scene has them (worst %.2g)", worst_field))
tap.ok(worst_ch < 1e-12, string.format("the recorded channels as field data at each frame (worst %.2g)", worst_ch))
tap.ok(worst_rod < 1e-12, string.format("the rod's links start at (rod.x, rod.y) (worst %.2g)", worst_rod))

local b = read(dir .. "/" .. bodies[11].file)
tap.like(b, '<DataArray type="Float64" Name="TimeValue" NumberOfTuples="1" format="ascii">0.1', "TimeValue in the field data")
tap.like(b, "mechlua " .. mech.version:gsub("%p", "%%%0") .. ", script", "every file names the program and the script")
tap.like(b, "frame 11 of 21, t = 0.1", "and its frame")
local names = strings(b, "entity_names")
tap.is(table.concat(strings(b, "role_names"), ","), "outline,link,joint,bearing,journal,guide,slider,surface", "the roles' names")
tap.ok(names[1] == "crank" and names[2] == "rod", "the entities' names, bodies first: " .. table.concat(names, ", "))
local c = read(dir .. "/" .. contacts[11].file)
local N, FNv, FTv, F = array(c, "normal"), array(c, "fn"), array(c, "ft"), array(c, "force")
local scene = run:scene(0.1)
local sum_ok = #F == 18
for i = 1, #F do sum_ok = sum_ok and F[i] == FNv[i] + FTv[i] end
tap.ok(sum_ok, "six contacts' points, force = fn + ft")
tap.ok(N[2] == scene.contacts[1].normal[2] and N[3] == 0, "their normals")
local touch = array(c, "touching")
local want = 0
for _, ct in ipairs(scene.contacts) do want = want + (ct.touching and 1 or 0) end
local got = 0
for _, v in ipairs(touch) do got = got + v end
tap.is(got, want, "touching as run:scene says (" .. want .. ")")
tap.like(read(dir .. "/" .. meshes[1].file), '<DataArray type="UInt8" Name="types" format="ascii">\n9 9 9 9\n', "4 quads (VTK_QUAD)")

-- fps and a window; every k-th state; channels chosen
pvd, n = run:paraview(prefix, { fps = 30 })
bodies = frames(pvd, "bodies")
local ok = n == 7 and #bodies == 7
for i = 1, #bodies do ok = ok and math.abs(bodies[i].t - (i - 1) / 30) < 1e-15 end
tap.ok(ok, "fps = 30 over 0.2 s: 7 frames, 1/30 s apart")
tap.is(ls(), "crank\ncrank.pvd\n", "a second export replaces the first")
tap.is(#ls(prefix):gsub("[^\n]", ""), 21, "its folder holds only the new frames' files")
worst = 0
for i = 2, #bodies do
  local bt = read(dir .. "/" .. bodies[i].file)
  worst = math.max(worst, rel(array(bt, "rod.x")[1], run["rod.x"]:at(bodies[i].t)))
  local P = array(read(dir .. "/" .. frames(pvd, "meshes")[i].file), "Points")
  worst = math.max(worst, rel(P[13], run:scene(bodies[i].t).meshes[1].nodes[5][1]))
end
tap.ok(worst < 1e-12, string.format("between kept states: channels as col:at, nodes as run:scene (worst %.2g)", worst))
pvd, n = run:paraview(prefix, { t = { 0.05, 0.15 }, every = 2, channels = { "rod.x" }, thickness = 0.5 })
bodies = frames(pvd, "bodies")
ok = n == 6
for i = 1, n do ok = ok and math.abs(bodies[i].t - (0.05 + 0.02 * (i - 1))) < 1e-12 end
tap.ok(ok, "t = {0.05, 0.15}, every = 2: 6 frames, 0.02 s apart")
b = read(dir .. "/" .. bodies[1].file)
tap.ok(b:find('Name="rod.x"', 1, true) and not b:find('Name="rod.y"', 1, true), "channels = { \"rod.x\" }: that one")
tap.like(read(pvd), "thickness of planar outlines 0.5 m", "the thickness said in the .pvd")
pvd, n = run:paraview(prefix, { channels = false, t = { 0.2, 0.2 } })
tap.ok(n == 1 and not read(dir .. "/crank/bodies_000000.vtp"):find('Name="rod.x"', 1, true), "channels = false: none; t = {0.2, 0.2}: the last state")

-- a planar body's outline: a prism of the thickness
do
  local s = mech.planar{ gravity = { 0, -9.81 } }
  s:body{ name = "plate", mass = 1, inertia = 1, at = { 0, 0 }, rectangle = { 0.2, 0.1 } }
  local r = s:simulate{ t = 0.1, motion = 0.05, quiet = true }
  local p = r:paraview(dir .. "/plate", { thickness = 0.02 })
  tap.ok(xmllint(p .. " " .. dir .. "/plate/*"), "a free plate's files parse")
  local t = read(dir .. "/plate/bodies_000002.vtp")
  tap.like(t, 'NumberOfPoints="8" NumberOfVerts="0" NumberOfLines="0" NumberOfStrips="0" NumberOfPolys="6"',
    "its rectangle: a box of 8 points and 6 faces")
  local P = array(t, "Points")
  local zok, yok = true, true
  local y = -9.81 * 0.1 ^ 2 / 2
  for i = 1, 8 do
    zok = zok and math.abs(math.abs(P[3 * i]) - 0.01) < 1e-15
    yok = yok and math.abs(math.abs(P[3 * i - 1] - y) - 0.05) < 1e-12
  end
  tap.ok(zok and yok, "at z = +-0.01 (thickness 0.02), fallen by g t^2 / 2")
  tap.ok(not ls():find("plate.tmp", 1, true) and not ls():find("plate.pvd.tmp", 1, true), "no temporary file left")
end

-- ---- spatial: the slider-crank of links and joints, clearance joints, a box slider ---------
do
  local spec001 = require "spec001"
  local s = spec001.model{}
  local r = s:simulate{ t = 0.02, report = 0.005, motion = 0.005, quiet = true,
    record = { "slider.x", "slider.y", "slider.z", "rod.x", "rod.y", "rod.z" } }
  local p, nf = r:paraview(dir .. "/spatial")
  tap.ok(xmllint(p .. " " .. dir .. "/spatial/*"), "a spatial slider-crank's files parse")
  tap.is(nf, 5, "5 frames")
  local fr = frames(p, "bodies")
  local worst3 = 0
  for k = 1, nf do
    local t = read(dir .. "/" .. fr[k].file)
    local sc = r:scene(fr[k].t)
    local P = array(t, "Points")
    local i = 0
    for _, it in ipairs(sc.items) do
      for _, q in ipairs(it.points) do
        worst3 = math.max(worst3, rel(P[3 * i + 1], q[1]), rel(P[3 * i + 2], q[2]), rel(P[3 * i + 3], q[3]))
        i = i + 1
      end
    end
    -- the rod's links start at its centre of mass
    local best = math.huge
    for j = 0, #P // 3 - 1 do
      best = math.min(best, math.max(rel(P[3 * j + 1], r["rod.x"][k]), rel(P[3 * j + 2], r["rod.y"][k]),
        rel(P[3 * j + 3], r["rod.z"][k])))
    end
    worst3 = math.max(worst3, best)
  end
  tap.ok(worst3 < 1e-12, string.format("its joints' anchors and links in 3-D as run:scene and the channels say (worst %.2g)", worst3))

  s = spec001.model{ clearance = {} }
  r = s:simulate{ t = 0.002, motion = 0.001, quiet = true }
  p = r:paraview(dir .. "/cyl", { segments = 12 })
  tap.ok(xmllint(p .. " " .. dir .. "/cyl/*"), "clearance joints' files parse")
  local t = read(dir .. "/cyl/bodies_000001.vtp")
  local ncyl = 0
  for _, it in ipairs(r:scene(0.001).items) do ncyl = ncyl + (it.shape == "cylinder" and 1 or 0) end
  local roles = array(t, "role")
  local nbear = 0
  for _, v in ipairs(roles) do nbear = nbear + ((v == 3 or v == 4) and 1 or 0) end
  tap.ok(ncyl > 0 and nbear == ncyl * 14, string.format("%d cylinders: 12 sides and 2 caps each (%d faces)", ncyl, nbear))
end
do
  local s = mech.spatial{ gravity = { 0, 0, -9.81 } }
  local b = s:body{ name = "slider", mass = 0.06, inertia = { 9.375e-5, 3.75e-5, 9.375e-5 }, at = { 0, 0, 0 } }
  s:prismatic{ s.ground, b, name = "guide", axis = { 0, 1, 0 }, ref = { 1, 0, 0 }, a_at = { 0, 0, 0 }, b_at = { 0, 0, 0 },
    contact = mech.contact.hertz{ K = 1e9, n = 1.5 }, clearance = { x = 0.1e-3, z = 0.2e-3 },
    slider = { length = 0.03, width = 0.015, height = 0.015 } }
  local r = s:simulate{ t = 0.002, motion = 0.001, quiet = true }
  local p = r:paraview(dir .. "/box")
  tap.ok(xmllint(p .. " " .. dir .. "/box/*"), "a box slider's files parse")
  local t = read(dir .. "/box/bodies_000001.vtp")
  local sc = r:scene(0.001)
  local P, conn = array(t, "Points"), array(t, "connectivity", "<Polys>")
  local roles, ent = array(t, "role"), array(t, "entity")
  -- each box's 8 corners (the points in the items' order): at its centre plus R times its half sizes
  local far, j, nbox = 0, 0, 0
  for _, box in ipairs(sc.items) do
    if box.shape == "box" then
      nbox = nbox + 1
      for _ = 1, 8 do
        local d = { P[3 * j + 1] - box.points[1][1], P[3 * j + 2] - box.points[1][2], P[3 * j + 3] - box.points[1][3] }
        for a = 1, 3 do
          local x = box.R[a] * d[1] + box.R[a + 3] * d[2] + box.R[a + 6] * d[3] -- along the box's axis a
          far = math.max(far, math.abs(math.abs(x) - box.half[a]) / box.half[a])
        end
        j = j + 1
      end
    end
  end
  local ok_box = nbox == 2 and #P == 3 * 16 and #roles == 12 and far < 1e-12
  tap.ok(ok_box, string.format("the channel's and the slider's boxes: 8 corners each at their half sizes along their axes (worst %.2g)", far))
  tap.ok(#conn > 0 and #ent == #roles, "faces with entity and role")
end

-- ---- VTK's own XML readers (python3-vtk9) read every file as it says ----------------------
do
  local script = os.tmpname()
  local f = io.open(script, "w")
  f:write([[
import glob, re, sys
try:
    import vtk
except ImportError:
    print("novtk"); sys.exit(0)
vtk.vtkObject.GlobalWarningDisplayOff()
bad, n = [], 0
for path in sorted(glob.glob(sys.argv[1] + "/*/*.vt[pu]")):
    text = open(path).read()
    want = int(re.search(r'NumberOfPoints="(\d+)"', text).group(1))
    names = re.search(r'Name="entity_names" NumberOfTuples="(\d+)"', text)
    r = vtk.vtkXMLPolyDataReader() if path.endswith(".vtp") else vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    o = r.GetOutput()
    a = o.GetFieldData().GetAbstractArray("entity_names")
    got_names = a.GetNumberOfValues() if a else -1
    if r.GetErrorCode() != 0 or o.GetNumberOfPoints() != want or (names and got_names != int(names.group(1))):
        bad.append(path)
    n += 1
print("read", n, "bad", len(bad), " ".join(bad[:3]))
]])
  f:close()
  local sysp = io.open("/usr/bin/python3", "r") -- Debian's, where python3-vtk9 installs
  if sysp then sysp:close() end
  local pipe = io.popen((sysp and "/usr/bin/python3 " or "python3 ") .. script .. " '" .. dir .. "' 2>&1")
  local out = pipe:read("a")
  pipe:close()
  os.remove(script)
  if out:match("^novtk") or not out:match("^read") then
    tap.skip("no VTK for Python (Debian package python3-vtk9): " .. out:sub(1, 80), 1)
  else
    local nread, nbad = out:match("^read (%d+) bad (%d+)")
    tap.ok(tonumber(nread) > 20 and tonumber(nbad) == 0, "VTK's XML readers read every file, its points and "
      .. "entity names as written: " .. out:gsub("\n", ""))
  end
end

-- ---- bad input: a clear error, no file ------------------------------------------------------
local before = ls()
local function refuses(fn, text, name)
  tap.raises(fn, text, name)
  tap.is(ls(), before, "  and leaves no file")
end
local none = spec000.slider_crank{ nx = 2 }:simulate{ t = 0.01, method = "bdf", quiet = true }
refuses(function() none:paraview(dir .. "/none") end,
  "run:paraview: the run kept no states: give sys:simulate a 'motion' step (sys:simulate{ ..., motion = dt })", "a run without kept states")
refuses(function() run:paraview(dir .. "/nofolder/x") end,
  "run:paraview: cannot write '" .. dir .. "/nofolder/x.pvd': the folder '" .. dir .. "/nofolder' does not exist: create it first with mech.mkdir(\"" .. dir .. "/nofolder\")",
  "a folder that does not exist")
refuses(function() run:paraview(dir .. "/x", { speed = 2 }) end,
  "run:paraview: unknown option 'speed' (known options: channels, every, fps, segments, t, thickness)", "an unknown option")
refuses(function() run:paraview(dir .. "/x", { fps = 0 }) end, "run:paraview: option 'fps' must be a number > 0", "fps = 0")
refuses(function() run:paraview(dir .. "/x", { fps = -5 }) end, "(frames per second of the run's time; got -5)", "fps < 0")
refuses(function() run:paraview(dir .. "/x", { t = { 0.1, 0.3 } }) end,
  "run:paraview: option 't' must be a time window {t0, t1} with 0 <= t0 <= t1 <= 0.2 s, the kept states' (got {0.1, 0.3})",
  "a window past the run")
refuses(function() run:paraview(dir .. "/x", { t = { 0.101, 0.102 } }) end, "holds no kept state", "a window between kept states")
refuses(function() run:paraview(dir .. "/x", { t = 0.1 }) end, "option 't' must be a time window {t0, t1}", "t not a window")
refuses(function() run:paraview(dir .. "/x", { every = 0 }) end, "option 'every' must be an integer >= 1", "every = 0")
refuses(function() run:paraview(dir .. "/x", { every = 2, fps = 10 }) end, "options 'fps' and 'every' exclude each other", "fps and every")
refuses(function() run:paraview(dir .. "/x", { thickness = -1 }) end, "option 'thickness' must be a number > 0", "a negative thickness")
refuses(function() run:paraview(dir .. "/x", { channels = { "rod.vx" } }) end,
  "run:paraview: option 'channels': 'rod.vx' is not a recorded channel (recorded: rod.x, rod.y", "a channel not recorded")
refuses(function() run:paraview(42) end, "run:paraview: argument #1 must be a path prefix", "a prefix not a string")
refuses(function() run:paraview(dir .. "/x", 3) end, "run:paraview: argument #2 must be a table of options", "options not a table")
mech.mkdir(dir .. "/mine")
before = ls()
refuses(function() run:paraview(dir .. "/mine") end, "exists and is not the folder of an export by run:paraview", "a folder not of an export")
-- a failure while writing: a scene that cannot be made (the system changed since the run)
sys:body{ name = "other", mass = 1, inertia = 1, at = { 9, 9 } }
refuses(function() run:paraview(dir .. "/changed") end, "run:paraview: run:scene: the run's system was changed since the run", "a system changed since the run")
refuses(function() run:paraview(prefix) end, "the run's system was changed", "an export not replaced by a failed one")
tap.like(read(prefix .. ".pvd"), "thickness", "the previous export is still there")

scratch.remove(dir)
tap.done()
