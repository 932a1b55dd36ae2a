-- SPDX-License-Identifier: MIT
-- [Zheng & Wang, Sec. 4.1] (paper 000 of mechlua-references(7)), the stick-slip oscillator, with slider meshes read from gmsh files:
-- how a mesh made elsewhere goes into a flexible body, and how much the answer depends on
-- the mesh.  Three runs of the same model (spec000.oscillator, the paper's Table 1):
--
--   rectangle   the structured mesher's 5 x 5 quadrilaterals (the paper's Fig. 6)
--   gmsh quads  scripts/data/spec000_slider_quad.msh (format 4.1): a transfinite 5 x 5
--               mesh of the same nodes in gmsh's numbering; the results must agree
--   gmsh tris   scripts/data/spec000_slider_tri.msh (format 2.2): unstructured triangles
--               about 0.05 m across, with nodes where the load and the spring act
--
-- The guide finds its surface nodes through the files' physical groups "top" and "bottom";
-- the .geo sources sit beside the .msh files.
--
--   mechlua scripts/spec000_gmsh.lua [output-folder] [quick]   (default folder: out)
--
-- "quick" simulates 8 s instead of 40 s (for the tests).  Writes spec000_gmsh_<mesh>.csv
-- (every 2 ms, parameters in the header) and spec000_gmsh.png/.pdf: the slider's mean
-- x velocity and the sum of its friction forces for the three meshes.
--
-- The three runs are a study of the sweep module (mechlua-sweep(3)): each mesh is a case in
-- a worker process of its own, run side by side, kept in <output-folder>/spec000_gmsh/
-- (results.csv, and cases/<key>/ with the run's CSV and the columns the comparison needs,
-- written exactly by sweep.write), so that a second run of the script reuses them.  Under
-- `mpirun -n K mechlua scripts/spec000_gmsh.lua` the ranks share the cases and only the
-- first writes the outputs and prints.
local spec000 = require "spec000"
local plot = require "plot"
local output = require "output"
local sweep = require "sweep"

local outdir, quick = require("options").script_args(arg)
local here = (arg and arg[0] or "scripts/spec000_gmsh.lua"):match("^(.*)/[^/]*$") or "."

local p = {
  duration = quick and 8 or 40,   -- s
  report = 2e-3,                  -- s
  method = "bdf", rtol = 1e-6, atol = 1e-9,
}
for k, v in pairs(spec000.OSCILLATOR) do if p[k] == nil and k ~= "mesh" then p[k] = v end end

local meshes = {
  { key = "rectangle", label = "rectangle 5 x 5 (mesher)" },
  { key = "quad", label = "gmsh quadrangles 5 x 5", file = here .. "/data/spec000_slider_quad.msh" },
  { key = "tri", label = "gmsh triangles", file = here .. "/data/spec000_slider_tri.msh" },
}

local by_key = {}
for _, m in ipairs(meshes) do by_key[m.key] = m end

-- A case: one mesh's run.  It writes the run's CSV and the three columns the comparison and
-- the figure need into its folder, and returns the mesh's size and the run's statistics.
local function case(c, dir)
  local m = by_key[c.mesh]
  local mesh = m.file and mech.mesh.read(m.file) or nil
  local sys, slider = spec000.oscillator{ mesh = mesh }
  local params = {}
  for k, v in pairs(p) do params[k] = v end
  params.mesh = m.file or "mech.mesh.rectangle 5 x 5"
  local run = sys:simulate{ t = p.duration, report = p.report, method = p.method, rtol = p.rtol,
    atol = p.atol, record = { "slider.vx", "slider.ft", "slider.fn", "system.balance" },
    params = params }
  local columns = { t = run.t:table(), vx = run["slider.vx"]:table(), ft = run["slider.ft"]:table() }
  return { nodes = #slider.mesh.nodes, elements = #slider.mesh.elements, steps = run.stats.steps,
    wall_time = run.stats.wall_time,
    files = { run:csv(dir .. "/run.csv"), sweep.write(dir .. "/columns", columns) } }
end

mech.mkdir(outdir)
local design = {}
for i, m in ipairs(meshes) do design[i] = { mesh = m.key } end
local study = sweep.run{ sweep.list(design), case = case, folder = outdir .. "/spec000_gmsh" }
for i, m in ipairs(meshes) do
  local row = study[i]
  if row.status ~= "ok" then
    error(string.format("the %s run ended with %s: %s (%s)", m.key, row.status, tostring(row.message),
      row.dir), 0)
  end
end
if not sweep.leader() then return end -- under mpirun, the first rank writes and prints

-- Copies a file byte for byte.
local function copy(from, to)
  local src = assert(io.open(from, "rb"))
  local bytes = src:read("a")
  src:close()
  local dst = assert(io.open(to, "wb"))
  assert(dst:write(bytes))
  assert(dst:close())
  return to
end

-- runs[key]: the columns of that mesh's run, as the case wrote them
local runs, files = {}, {}
for i, m in ipairs(meshes) do
  local row = study[i]
  m.nodes, m.elements = row.nodes, row.elements
  local cols = sweep.read(row.files[2])
  runs[m.key] = { t = cols.t, ["slider.vx"] = cols.vx, ["slider.ft"] = cols.ft,
    stats = { steps = row.steps, wall_time = row.wall_time } }
  files[#files + 1] = copy(row.files[1], string.format("%s/spec000_gmsh_%s.csv", outdir, m.key))
end

-- ---- numbers ---------------------------------------------------------------------------

local ref = runs.rectangle
local n = #ref.t
local function min(v)
  local m = v[1]
  for i = 2, #v do if v[i] < m then m = v[i] end end
  return m
end
local function max(v)
  local m = v[1]
  for i = 2, #v do if v[i] > m then m = v[i] end end
  return m
end
local function maxdiff(a, b, name)
  local d = 0
  for i = 1, n do d = math.max(d, math.abs(a[name][i] - b[name][i])) end
  return d
end
local function stuck(run)
  local s = 0
  for i = 1, n do if math.abs(run["slider.vx"][i]) < 1e-3 then s = s + 1 end end
  return 100 * s / n
end
-- while sliding, the friction of the whole slider is mu times its weight (0.1 kg)
local function sliding_friction(run)
  local lo, hi = math.huge, -math.huge
  for i = 1, n do
    if math.abs(run["slider.vx"][i]) > 0.05 then
      local f = math.abs(run["slider.ft"][i])
      lo, hi = math.min(lo, f), math.max(hi, f)
    end
  end
  return lo, hi
end

print(string.format("mechlua %s: [Zheng & Wang, Sec. 4.1], stick-slip oscillator with gmsh meshes, %g s%s",
  mech.version, p.duration, quick and " (quick)" or ""))
for _, m in ipairs(meshes) do
  local run = runs[m.key]
  local lo, hi = sliding_friction(run)
  local st = run.stats
  print(string.format("  %-26s %3d nodes %3d elements: x velocity %.3f to %.3f m/s, stuck %.0f%%, "
    .. "friction while sliding %.4f to %.4f N, %d steps, %.2f s", m.label, m.nodes, m.elements,
    min(run["slider.vx"]), max(run["slider.vx"]), stuck(run), lo, hi, st.steps, st.wall_time))
end
print(string.format("  mu m g = %.4f N", p.mu * 0.1 * p.gravity))
print(string.format("  gmsh quadrangles against the mesher: x velocity within %.1e m/s, friction "
  .. "within %.1e N", maxdiff(runs.quad, ref, "slider.vx"), maxdiff(runs.quad, ref, "slider.ft")))
print(string.format("  gmsh triangles against the mesher: x velocity within %.1e m/s (peak %.3f m/s)",
  maxdiff(runs.tri, ref, "slider.vx"), math.max(max(ref["slider.vx"]), -min(ref["slider.vx"]))))
print("  CSV: " .. table.concat(files, ", "))

-- ---- figures ---------------------------------------------------------------------------

local BLUE, VERMILLION, GREEN = 2, 3, 4
local styles = { rectangle = { color = BLUE }, quad = { color = VERMILLION, style = "dashed" },
  tri = { color = GREEN, style = "dotted" } }
local fig = plot.figure{ rows = 2, title = "Zheng & Wang, Sec. 4.1: stick-slip oscillator, three meshes",
  width = 160, height = 130 }
for _, m in ipairs(meshes) do
  local run, s = runs[m.key], styles[m.key]
  fig:panel(1):line{ x = run.t, y = run["slider.vx"], color = s.color, style = s.style, label = m.label }
  fig:panel(2):line{ x = run.t, y = run["slider.ft"], color = s.color, style = s.style }
end
-- room above the curves for the legend (it serves both panels); the columns read back are
-- plain lists, which name no axis: the time axis is named here
fig:panel(1):set{ xlabel = "t [s]", ylabel = "mean x velocity [m/s]", legend = "upper right",
  ylim = { -1, 1.7 } }
fig:panel(2):set{ xlabel = "t [s]", ylabel = "sum of friction forces [N]" }
local figures = {}
output.figure(fig, outdir, "spec000_gmsh", figures)
print("  figures: " .. table.concat(figures, ", "))
