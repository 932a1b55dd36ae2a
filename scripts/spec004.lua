-- SPDX-License-Identifier: MIT
-- Paper 004, [Sci. Rep. 2023] (man -l man/mechlua-references.7): a planar slider-crank with
-- two revolute clearance joints and one translational clearance joint, after the Sci. Rep. 13
-- (2023) article doi 10.1038/s41598-023-47315-1 (title not recovered).  Three studies:
--   E1  one impact with the paper's "modified" law (Hu and Guo's) and with Lankarani-Nikravesh
--   E2  the test rig's cases: clearance in the rod-slider joint only, 0.25, 0.5 and 1 mm at
--       150 rpm, and 0.5 mm at four crank speeds
--   E3  the main study: ideal; translational clearance only; two revolute clearances
--       (crank-rod and rod-slider); all three, each clearance 0.5 mm
--
--   mechlua scripts/spec004.lua [output-folder [quick]] [workers=N] [resume=no]   (folder: out)
--
-- "quick" keeps the model and shortens the runs (fewer revolutions), for the tests.
-- Writes CSV files and PNG and PDF figures into the folder and prints a summary.
--
-- The runs are two sweeps (module sweep, man mechlua-sweep(3)): the rig's cases (E1's
-- impacts and E2's runs) and E3's four configurations, each case in a worker process, on
-- every core (workers=N: N at a time) and, under `mpirun -n K mechlua scripts/spec004.lua`,
-- on every rank (rank 0 alone prints and writes the figures and CSV files).  A case keeps
-- what the rest of the script takes from its runs (windows of channels, section points,
-- the numbers of its events, wall times) in <folder>/spec004_sweeps/<study>/cases/<key>/data
-- (sweep.write, exact); the summary, CSV files and figures are made from these files.  A
-- rerun resumes: the cases already done are read back, not run.  A case's key covers this
-- script, the program (its version and mech.program_digest(): a rebuilt program runs the
-- cases afresh), the Lua modules its runs use (spec004, slidercrank, analysis) and quick or
-- not.
--
-- The model, its parameters and its laws are module spec004 (stdlib/spec004.lua: man
-- mechlua-contact(3), MODULE spec004), where each stand-in value is marked [R] (rebuilt
-- from the paper's surviving text or from the literature it cites) or [A] (an assumption
-- of this project, not the paper's).  The studies' own choices:
--   integration   The paper integrates with fixed-step RK4, dt = 1e-6 s and Baumgarte
--                 alpha = beta = 1/dt [R].  That cannot be done with this friction law:
--                 the LuGre bristle equation relaxes at sigma0 |v| / mu = 1e7 |v| 1/s, beyond
--                 RK4's stability limit 2.8/dt once the slip exceeds 0.28 m/s.
--                 RK4 at 1e-6 s diverges at the first impact of the crank-rod journal
--                 (t = 4.8 ms; without friction it runs; at 5e-7 s too), and the slider
--                 sliding on its guide at up to 2.4 m/s would need dt < 1.2e-7 s: 20 s of
--                 computing per revolution.  We integrate with CVODE's implicit BDF instead,
--                 rtol 1e-8, atol 1e-10, contact onsets located as events, and Baumgarte
--                 alpha = beta = 50 1/s [A]; the summary reports
--                 the constraint drift (largest residual of the Lagrange equations).
--   sections      Poincare sections once per revolution, at the crank angle passing 2 pi k
--                 (an event with period 2 pi), after 5 discarded revolutions, 100 points
--                 [A]; the figures and CSV files show the 2 revolutions after the
--                 5 discarded.  Quick: 1 discarded, 1 shown, 3 points.
--   E1            unit mass [A], impact velocity 1 m/s, K of the 0.5 mm journal (Hertz),
--                 e = 0.2, 0.4, 0.6, 0.8, 1.0 [A] plus 0.55 and 0.9 (the values checked in
--                 mechlua-contact(3), ACCURACY OF THE RESTITUTION LAWS)
--   E2            only piston_pin has clearance (the rig: needle bearings elsewhere, a
--                 preloaded linear guide), with the journal's radius 10 mm - c; the four crank
--                 speeds are lost: 100, 150, 200 and 250 rpm [A]; 3 revolutions
--                 discarded, 5 measured, the first of them drawn (quick: 1 and 1); the ideal
--                 reference is the closed form (module slidercrank)
-- The numbers the paper's text does give are used as given (0.01 0.01 0.55, 150 rpm,
-- 0.25/0.5/1 mm, x in [0.391, 0.691] m).
--
-- Output (in the folder): spec004_<config>.csv (the two revolutions after the transient,
-- every 1e-5 s; quick: one) and spec004_<config>_poincare.csv for the configurations ideal,
-- translational, revolute and mixed; spec004_e1_impacts.csv; spec004_e2_*.csv; figures
-- spec004_*.png and .pdf; the sweeps' folders spec004_sweeps/rig and
-- spec004_sweeps/configurations.  What the cases computed and the numbers of the summary
-- stay in the global table spec004 (for `mechlua -i` and the tests).
local plot = require "plot"
local analysis = require "analysis"
local output = require "output"
local sweep = require "sweep"
local model = require "spec004"

local fmt = string.format
local pi = math.pi

-- The arguments: workers=N and resume=no, anywhere after the script; the others are
-- [output-folder [quick]] (options.script_args).
local args, workers, resume = nil, nil, true
if arg then
  args = { [0] = arg[0] }
  for i = 1, #arg do
    local k, v = tostring(arg[i]):match("^(%a+)=(.*)$")
    if k == "workers" or k == "resume" then
      local n = math.tointeger(tonumber(v))
      if k == "workers" and n and n >= 1 then
        workers = n
      elseif k == "resume" and (v == "yes" or v == "no") then
        resume = v == "yes"
      else
        io.stderr:write(fmt("usage: mechlua %s [output-folder] [quick] [workers=N] [resume=no] (got '%s')\n",
          tostring(arg[0]), arg[i]))
        os.exit(2)
      end
    else
      args[#args + 1] = arg[i]
    end
  end
end
local outdir, quick = require("options").script_args(args)
local leader = sweep.leader()   -- false on the ranks of an MPI job other than rank 0
local clock0 = os.time()

-- the model's parameters (spec004.PARAMS), and the studies'
local p = {
  method = "bdf", rtol = 1e-8, atol = 1e-10,
  report = 1e-5,                                     -- s, the paper's output step
  transient = quick and 1 or 5,                      -- revolutions discarded
  shown = quick and 1 or 2,                          -- revolutions in the figures and CSV files
  sections = quick and 3 or 100,                     -- Poincare points
  e1_mass = 1, e1_v0 = 1,                            -- kg, m/s
  e2_transient = quick and 1 or 3, e2_revolutions = quick and 1 or 5,
}
for k, v in pairs(model.PARAMS) do p[k] = v end
local T = 2 * pi / mech.rpm(p.speed_rpm)             -- s per revolution
local JOURNALS, JOINTS = model.JOURNALS, model.JOINTS

-- the model's fields of p, and those given (which win)
local function model_params(t)
  local out = {}
  for k in pairs(model.PARAMS) do out[k] = p[k] end
  for k, v in pairs(t or {}) do out[k] = v end
  return out
end

local function journal_stiffness(c) return model.journal_stiffness(model_params{ clearance = c }) end
local K_corner = model.corner_stiffness(model_params())

-- The mechanism: joints = { crank_pin = c, piston_pin = c, guide = c } gives the joints with
-- clearance (c in m); a joint left out is ideal.  At rpm (default speed_rpm).
local function mechanism(joints, rpm)
  return model.model(model_params{ joints = joints, speed_rpm = rpm })
end

local function simulate(sys, joints, revolutions, speed, report, params)
  return sys:simulate{ t = revolutions * 2 * pi / speed, report = report, method = p.method, rtol = p.rtol,
    atol = p.atol, quiet = true, record = model.channels(joints), events = model.events(joints), params = params }
end

-- The rows of a run whose crank angle lies in [a0, a1] (rad), as Lua arrays: every recorded
-- channel, t, and the derived "<joint>.force" (|reaction| of an ideal joint, |fn + ft| with
-- clearance), "guide.bottom" and "guide.top" (the corners' forces on each surface) and
-- "angle" (crank angle from a0, deg).
local function window(run, joints, a0, a1)
  local phi = run["crank.phi"]:table()
  local i0, i1
  for i = 1, #phi do
    if not i0 and phi[i] >= a0 - 1e-9 then i0 = i end
    if phi[i] <= a1 + 1e-9 then i1 = i end
  end
  local w = { n = i1 - i0 + 1, i0 = i0, i1 = i1, names = { "t" }, units = { t = "s" } }
  local function add(name, values, unit)
    w[name], w.units[name] = values, unit
    if name ~= "t" then w.names[#w.names + 1] = name end
  end
  add("t", table.move(run.t:table(), i0, i1, 1, {}), "s")
  for _, ch in ipairs(run.channels) do add(ch, table.move(run[ch]:table(), i0, i1, 1, {}), run[ch].unit) end
  local function derived(name, unit, f)
    local v = {}
    for i = 1, w.n do v[i] = f(i) end
    add(name, v, unit)
  end
  for _, j in ipairs(JOINTS) do
    if joints[j] then
      local fn, ft = w[j .. ".fn"], w[j .. ".ft"]
      derived(j .. ".force", "N", function(i) return math.sqrt(fn[i] ^ 2 + ft[i] ^ 2) end)
    else
      local f = w[j .. (j == "guide" and ".fn" or ".f")]
      derived(j .. ".force", "N", function(i) return math.abs(f[i]) end)
    end
  end
  if joints.guide then
    for _, side in ipairs{ "bottom", "top" } do
      local cs = {}
      for k = 1, 4 do cs[k] = w[fmt("guide.c%d_%s.fn", k, side)] end
      derived("guide." .. side, "N", function(i) return cs[1][i] + cs[2][i] + cs[3][i] + cs[4][i] end)
    end
  end
  derived("angle", "deg", function(i) return (w["crank.phi"][i] - a0) * 180 / pi end)
  return w
end

-- ---- files ---------------------------------------------------------------------------------

mech.mkdir(outdir)
local figures, csvs = {}, {}
local function save(fig, name) output.figure(fig, outdir, "spec004_" .. name, figures) end

-- A CSV file of columns (lists of numbers), its header lines and column names: output.csv
-- (whole or absent; the header names the program and the script first).
local function write_csv(name, header, names, cols)
  local path = output.csv(fmt("%s/spec004_%s.csv", outdir, name), names, cols, header)
  csvs[#csvs + 1] = path
  return path
end

-- The header of a run's CSV, as run:csv writes it: parameters, model, integrator; then
-- which rows are in the file (the runs cover the transient too; the files hold the window).
local function run_header(sys, run, params, note)
  local h, keys = {}, {}
  for k in pairs(params) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do h[#h + 1] = fmt("parameter %s = %s", k, tostring(params[k])) end
  for line in sys:describe():gmatch("[^\n]+") do h[#h + 1] = line end
  local st = run.stats
  h[#h + 1] = fmt("integrator %s, rtol %g, atol %g; report every %g s; end %.10g s; %d steps, %d rejected",
    st.method, p.rtol, p.atol, p.report, st.t_end, st.steps, st.rejected)
  h[#h + 1] = note
  return h
end

-- The columns of a window written to CSV, those the run has.
local CSV_COLUMNS = { "t", "angle", "crank.phi", "slider.x", "slider.vx", "slider.ax", "motor.torque",
  "crank_pin.force", "piston_pin.force", "guide.force", "crank_pin.ex", "crank_pin.ey", "crank_pin.penetration",
  "piston_pin.ex", "piston_pin.ey", "piston_pin.penetration", "guide.offset", "guide.tilt", "guide.bottom", "guide.top",
  "system.violation" }

-- A window's CSV file; header: the lines of run_header.
local function write_window(name, header, w)
  local names, cols = {}, {}
  for _, ch in ipairs(CSV_COLUMNS) do
    if w[ch] then
      names[#names + 1] = w.units[ch] ~= "" and fmt("%s [%s]", ch, w.units[ch]) or ch
      cols[#cols + 1] = w[ch]
    end
  end
  return write_csv(name, header, names, cols)
end

-- ---- small helpers -------------------------------------------------------------------------

local function scaled(list, s)
  local out = {}
  for i, v in ipairs(list) do out[i] = v * s end
  return out
end

-- every parameter of p, and those given (which win): the parameters of a CSV header
local function with_parameters(t)
  local out = {}
  for k, v in pairs(p) do out[k] = v end
  for k, v in pairs(t) do out[k] = v end
  return out
end

-- rows k0..k1 of a list
local function part(list, k0, k1) return table.move(list, k0, k1, 1, {}) end

-- the rows of a window with angle0 <= angle <= angle1, as { angle = ..., [ch] = ... }
local function angles(w, angle0, angle1, chs)
  local k0, k1 = nil, nil
  for k = 1, w.n do
    if not k0 and w.angle[k] >= angle0 then k0 = k end
    if w.angle[k] <= angle1 then k1 = k end
  end
  local out = { angle = part(w.angle, k0, k1) }
  for _, ch in ipairs(chs) do out[ch] = part(w[ch], k0, k1) end
  return out
end

-- ---- the sweeps ----------------------------------------------------------------------------

-- A case hands its data back in a file (sweep.write: named numbers, strings, booleans and
-- lists of them, exactly): a nested table travels flat, t.w.units["slider.ax"] under the
-- name "w/units/slider.ax".  A table without t[1] is a table of names (recursed into),
-- else a list.
local function flat(t, prefix, out)
  out = out or {}
  for k, v in pairs(t) do
    local name = (prefix or "") .. k
    if type(v) == "table" and v[1] == nil and next(v) ~= nil then flat(v, name .. "/", out) else out[name] = v end
  end
  return out
end

local function nested(t)
  local out = {}
  for name, v in pairs(t) do
    local node, keys = out, {}
    for k in name:gmatch("[^/]+") do keys[#keys + 1] = k end
    for j = 1, #keys - 1 do
      node[keys[j]] = node[keys[j]] or {}
      node = node[keys[j]]
    end
    node[keys[#keys]] = v
  end
  return out
end

-- What the cases' results depend on besides this script (whose text is part of every
-- key): the program (its version and its file's digest) and the Lua modules the runs use.  Their fingerprint
-- (FNV-1a, 64 bits) is a parameter of every case, so that a change to them starts afresh.
local FINGERPRINT = (function()
  local h = -3750763034362895579      -- the offset basis 14695981039346656037
  local function add(s)
    for i = 1, #s do h = (h ~ s:byte(i)) * 1099511628211 end
  end
  add(mech.version)
  add(mech.program_digest())
  for _, name in ipairs{ "spec004", "slidercrank", "analysis" } do
    local path = package.searchpath(name, package.path)
    local f = path and io.open(path, "rb")
    add(name .. "\0" .. (f and f:read("a") or ""))
    if f then f:close() end
  end
  return fmt("%016x", h)
end)()

-- A column of a run carried out of its worker, rows k0..k1 of it: its values, and the run's
-- times as field t.  col:at(t) interpolates as the run's column does (col_at of vm/lrun.c:
-- the same search and the same operations, so the same bits) for t in [t[1], t[n]): the
-- search ends on the last row at or before t, which lies in k0..k1 - 1 when t does.  Other
-- times are an error (where the run's column could have answered).
local TRACE = { __index = {} }
function TRACE.__index.at(col, t)
  local tt, n = col.t, #col
  if n < 2 or not (t >= tt[1] and t < tt[n]) then
    error(fmt("spec004: column:at: t = %.17g is outside the rows carried from the run (%.17g to %.17g, the last "
      .. "excluded)", t, n > 0 and tt[1] or 0, n > 0 and tt[n] or 0), 2)
  end
  local lo, hi = 1, n
  while hi - lo > 1 do
    local mid = (lo + hi) // 2
    if tt[mid] <= t then lo = mid else hi = mid end
  end
  local w = tt[hi] > tt[lo] and (t - tt[lo]) / (tt[hi] - tt[lo]) or 0.0
  return col[lo] + w * (col[hi] - col[lo])
end

spec004 = { p = p, mechanism = mechanism, journal_stiffness = journal_stiffness, K_corner = K_corner,
  sweeps = {}, warnings = {} }

-- The warnings this process gave so far (lu_warn keeps them in the registry): a case returns
-- those of its worker, which the studies gather in spec004.warnings.
local function warnings_given()
  local out = {}
  for message in pairs(debug.getregistry()["mechlua.warned"] or {}) do out[#out + 1] = message end
  table.sort(out)
  return out
end

-- Runs a study: each case (a table of parameters, FINGERPRINT added) in a worker, where
-- compute(case) returns its data, kept in the case's folder <outdir>/spec004_sweeps/<name>/
-- cases/<key>/data.  Returns the data of the cases, in order; a case that failed is an error.
local function study(name, cases, compute)
  for _, c in ipairs(cases) do c.fingerprint = FINGERPRINT end
  local res = sweep.run{ cases, name = "spec004_" .. name, folder = fmt("%s/spec004_sweeps/%s", outdir, name),
    workers = workers, resume = resume, case = function(c, dir)
      local data = compute(c)
      data.warnings = warnings_given()
      return { files = { sweep.write(dir .. "/data", flat(data)) } }
    end }
  spec004.sweeps[name] = res
  local data, warned = {}, {}
  for _, message in ipairs(spec004.warnings) do warned[message] = true end
  for i = 1, #res do
    local r = res[i]
    if r.status ~= "ok" then
      error(fmt("spec004: study %s, case %d (%s): %s: %s (its folder: %s)", name, i, r.key, r.status,
        tostring(r.message), r.dir), 2)
    end
    data[i] = nested(sweep.read(r.files[1]))
    for _, message in ipairs(data[i].warnings or {}) do
      if not warned[message] then
        warned[message] = true
        spec004.warnings[#spec004.warnings + 1] = message
      end
    end
  end
  return data
end

if leader then
  print(fmt("mechlua %s: [Sci. Rep. 2023], slider-crank with two revolute and one translational clearance joint%s",
    mech.version, quick and " (quick: short runs)" or ""))
  print(fmt("  Sci. Rep. 13 (2023), doi 10.1038/s41598-023-47315-1; L1 %.3f m, L2 %.3f m, %g rpm, gravity -y",
    p.L1, p.L2, p.speed_rpm))
  print(fmt("  modified (Hu-Guo) law e = %.2f, K = %.4g N/m^1.5 (journals, c = 0.5 mm), %.4g (slider corners);",
    p.restitution, journal_stiffness(p.clearance), K_corner))
  print(fmt("  normalised LuGre mu_k = mu_s = %.2f, sigma0 = %g 1/m; %s rtol %g atol %g, Baumgarte %g 1/s",
    p.mu_k, p.sigma0, p.method, p.rtol, p.atol, p.baumgarte))
end

-- ---- the rig's cases: E1's impacts and E2's runs, one sweep ---------------------------------

-- E1: a unit mass strikes a flat surface at 1 m/s.  Returns { e_eff, t_comp, t_rest, d_max,
-- loss, t_onset } and the curve of the run (up to just after the contact ends): its t,
-- hit.penetration and hit.fn.
local function impact(law)
  local sys = mech.planar{}
  local gap = 1e-7
  local ball = sys:body{ name = "ball", mass = p.e1_mass, inertia = 1, at = { 0, gap }, velocity = { 0, -p.e1_v0 } }
  sys:contact{ ball, body_at = { 0, 0 }, surface = { at = { 0, 0 }, normal = { 0, 1 } }, law = law, name = "hit" }
  local run = sys:simulate{ t = 0.01, report = 2e-7, method = "dopri5", rtol = 1e-10, atol = 1e-15, quiet = true,
    record = { "hit.penetration", "hit.fn", "ball.vy", "hit.gap" },
    events = { { name = "deepest", channel = "hit.rate", value = 0, direction = -1 },
      -- 1e-12 m past the end: an event at the very instant a contact begins or ends is not
      -- reported (the run restarts there); the ball is free by then, its velocity final
      { name = "end", channel = "hit.gap", value = 1e-12, direction = 1, action = "stop" } } }
  local ev = {}
  for _, e in ipairs(run.events) do ev[e.name] = ev[e.name] or e end
  local v1 = ev["end"].values["ball.vy"]
  local t0 = gap / p.e1_v0   -- the onset: free flight until then
  return { e_eff = v1 / p.e1_v0, t_comp = ev.deepest.t - t0, t_rest = ev["end"].t - ev.deepest.t,
    d_max = ev.deepest.values["hit.penetration"], loss = 0.5 * p.e1_mass * (p.e1_v0 ^ 2 - v1 ^ 2), t_onset = t0 },
    { t = run.t:table(), ["hit.penetration"] = run["hit.penetration"]:table(), ["hit.fn"] = run["hit.fn"]:table() }
end

local K1 = journal_stiffness(p.clearance)
local LAWS = {
  hu_guo = function(e) return model.law(K1, model_params{ restitution = e }) end,
  lankarani_nikravesh = function(e)
    return mech.contact.lankarani_nikravesh{ K = K1, n = p.exponent, restitution = e, v_min = p.v_min }
  end,
}

-- E2: only the rod-slider joint has clearance.  Each case runs transient + revolutions; the
-- figures show the first revolution after the transient, the numbers cover them all.  The
-- ideal reference is the closed form (module slidercrank), which the ideal run of E3
-- follows to 1e-5 m/s^2.  Returns the numbers, the columns of the revolution the figures
-- and the CSV file show (first), their units and the CSV file's header.
local kinematics = require("slidercrank").kinematics{ crank = p.L1, rod = p.L2 }
local RIG_COLUMNS = { "t", "angle", "crank.phi", "slider.x", "slider.vx", "slider.ax", "piston_pin.force",
  "piston_pin.ex", "piston_pin.ey", "motor.torque" }
local function rig_case(cl, rpm)
  local joints = { piston_pin = cl }
  local w = mech.rpm(rpm)
  local n = p.e2_transient + p.e2_revolutions
  local params = with_parameters{ case = fmt("piston_pin clearance %g m", cl), speed_rpm = rpm }
  local sys = mechanism(joints, rpm)
  local run = simulate(sys, joints, n + 0.25, w, p.report, params)
  local win = window(run, joints, 2 * pi * p.e2_transient, 2 * pi * n)
  -- the ideal acceleration, and the oscillation: the rms of a - a_ideal over crank angles
  -- 0-180 and 180-360 deg
  local ideal_a, sq, cnt = {}, { 0, 0 }, { 0, 0 }
  for i = 1, win.n do
    local _, _, a = kinematics(win["crank.phi"][i], w, 0)
    local half = win.angle[i] % 360 < 180 and 1 or 2
    ideal_a[i] = a
    sq[half], cnt[half] = sq[half] + (win["slider.ax"][i] - a) ^ 2, cnt[half] + 1
  end
  win.ideal_ax = ideal_a
  local units = {}
  for _, ch in ipairs(RIG_COLUMNS) do units[ch] = win.units[ch] end
  return { a_peak = analysis.stats(win["slider.ax"]).absmax, ideal_peak = analysis.stats(ideal_a).absmax,
    rms_first = math.sqrt(sq[1] / cnt[1]), rms_second = math.sqrt(sq[2] / cnt[2]),
    first = angles(win, 0, 360, { "t", "crank.phi", "slider.x", "slider.vx", "slider.ax", "piston_pin.force",
      "piston_pin.ex", "piston_pin.ey", "motor.torque", "ideal_ax" }),
    units = units,
    header = run_header(sys, run, params, fmt("rows: revolution %d, after %d discarded (column angle: from its start)",
      p.e2_transient + 1, p.e2_transient)) }
end

local e1 = { K = K1, restitution = { 0.2, 0.4, 0.55, 0.6, 0.8, 0.9, 1.0 }, hu_guo = {}, lankarani_nikravesh = {},
  curves = {} }
spec004.e1 = e1
local e2 = { clearance = {}, speed = {} }
spec004.e2 = e2
do
  -- the cases: E1's for each restitution and law; E2's clearances at 150 rpm, then 0.5 mm at
  -- the other speeds (the quick mode's revolutions are parameters: its cases are its own)
  local cases = {}
  for _, e in ipairs(e1.restitution) do
    for _, law in ipairs{ "hu_guo", "lankarani_nikravesh" } do
      cases[#cases + 1] = { study = "E1", law = law, restitution = e }
    end
  end
  for _, cl in ipairs{ 0.25e-3, 0.5e-3, 1e-3 } do cases[#cases + 1] = { study = "E2", clearance = cl, rpm = p.speed_rpm } end
  for _, rpm in ipairs{ 100, 200, 250 } do cases[#cases + 1] = { study = "E2", clearance = 0.5e-3, rpm = rpm } end
  for _, c in ipairs(cases) do
    if c.study == "E2" then c.transient, c.revolutions = p.e2_transient, p.e2_revolutions end
  end
  local data = study("rig", cases, function(c)
    if c.study == "E1" then
      local numbers, curve = impact(LAWS[c.law](c.restitution))
      return { numbers = numbers, curve = curve }
    end
    return rig_case(c.clearance, c.rpm)
  end)
  local rig = {}
  for i, c in ipairs(cases) do
    local d = data[i]
    if c.study == "E1" then
      e1[c.law][c.restitution] = d.numbers
      e1.curves[c.restitution] = e1.curves[c.restitution] or {}
      e1.curves[c.restitution][c.law] = d.curve
    else
      d.clearance, d.rpm, d.warnings = c.clearance, c.rpm, nil
      rig[c.rpm] = rig[c.rpm] or {}
      rig[c.rpm][c.clearance] = d
    end
  end
  for _, cl in ipairs{ 0.25e-3, 0.5e-3, 1e-3 } do e2.clearance[#e2.clearance + 1] = rig[p.speed_rpm][cl] end
  for _, rpm in ipairs{ 100, 150, 200, 250 } do e2.speed[#e2.speed + 1] = rig[rpm][0.5e-3] end
end

-- ---- E1: one impact ------------------------------------------------------------------------

if leader then
  print(fmt("E1 one impact, %g kg at %g m/s, K = %.4g N/m^1.5: target e, effective e (Hu-Guo, Lankarani-Nikravesh),",
    p.e1_mass, p.e1_v0, K1))
  print("   Hu-Guo compression and restitution times, deepest penetration, energy lost (Hu-Guo, L-N)")
  for _, e in ipairs(e1.restitution) do
    local hg, ln = e1.hu_guo[e], e1.lankarani_nikravesh[e]
    print(fmt("  e %.2f: %.4f %.4f  %6.1f %6.1f us  %5.1f um  %.4f %.4f J", e, hg.e_eff, ln.e_eff, hg.t_comp * 1e6,
      hg.t_rest * 1e6, hg.d_max * 1e6, hg.loss, ln.loss))
  end
  local keys = { "e_eff", "t_comp", "t_rest", "d_max", "loss" }
  local names, cols = { "e" }, { e1.restitution }
  for _, law in ipairs{ "hu_guo", "lankarani_nikravesh" } do
    for _, key in ipairs(keys) do
      local col = {}
      for i, e in ipairs(e1.restitution) do col[i] = e1[law][e][key] end
      names[#names + 1] = fmt("%s %s [%s]", key, law, ({ e_eff = "-", t_comp = "s", t_rest = "s", d_max = "m", loss = "J" })[key])
      cols[#cols + 1] = col
    end
  end
  write_csv("e1_impacts", { fmt("E1: one impact of %g kg at %g m/s on a flat surface, K = %.6g N/m^1.5 (journal 9.5 mm "
      .. "in a 10 mm bearing, Hertz), n = 1.5", p.e1_mass, p.e1_v0, K1),
    "effective restitution e_eff = v_out/v_in; t_comp: onset to deepest point; t_rest: deepest point to separation;"
      .. " d_max: deepest penetration; loss: kinetic energy lost" }, names, cols)
end

if leader then -- E1 figures: the two laws at e = 0.9 and 0.4; the modified law for five e
  local function curve(cv, what)
    local t = scaled(cv.t, 1e6)
    for i = 1, #t do t[i] = t[i] - 0.1 end   -- microseconds from the onset (at 0.1 us)
    local d, f = scaled(cv["hit.penetration"], 1e6), scaled(cv["hit.fn"], 1e-3)
    if what == "d" then return t, d end
    if what == "f" then return t, f end
    return d, f
  end
  local fig = plot.figure{ rows = 1, cols = 2, width = 160, height = 75,
    title = "Modified (Hu-Guo) and Lankarani-Nikravesh laws, one impact at 1 m/s" }
  for k, e in ipairs{ 0.9, 0.4 } do
    local ax = fig:panel(k)
    local x, y = curve(e1.curves[e].hu_guo, "fd")
    ax:line{ x = x, y = y, label = "modified (Hu-Guo)", color = 1 }
    x, y = curve(e1.curves[e].lankarani_nikravesh, "fd")
    ax:line{ x = x, y = y, label = "Lankarani-Nikravesh", color = 3, style = "dashed" }
    -- headroom above the loops for the legend
    ax:set{ title = fmt("e = %.1f", e), xlabel = "deformation [µm]", ylabel = k == 1 and "contact force [kN]" or "",
      ylim = { -1, 22 }, legend = "upper left" }
  end
  save(fig, "e1_laws")
  fig = plot.figure{ rows = 3, cols = 1, width = 160, height = 190,
    title = "Modified (Hu-Guo) law, one impact at 1 m/s, several restitution coefficients" }
  for k, e in ipairs{ 0.2, 0.4, 0.6, 0.8, 1.0 } do
    local cv = e1.curves[e].hu_guo
    local label = fmt("e = %.1f", e)
    local x, y = curve(cv, "d")
    fig:panel(1):line{ x = x, y = y, label = label, color = k }
    x, y = curve(cv, "f")
    fig:panel(2):line{ x = x, y = y, label = label, color = k }
    x, y = curve(cv, "fd")
    fig:panel(3):line{ x = x, y = y, label = label, color = k }
  end
  fig:panel(1):set{ xlabel = "time from the onset [µs]", ylabel = "deformation [µm]", legend = "upper right" }
  fig:panel(2):set{ xlabel = "time from the onset [µs]", ylabel = "contact force [kN]", legend = "upper right" }
  fig:panel(3):set{ xlabel = "deformation [µm]", ylabel = "contact force [kN]", legend = "upper left" }
  save(fig, "e1_restitution")
end

-- ---- E3: the four configurations -------------------------------------------------------------

local c = p.clearance
local configs = {
  { key = "ideal", label = "ideal", short = "ideal", joints = {} },
  { key = "translational", label = "translational clearance", short = "translational", joints = { guide = c } },
  { key = "revolute", label = "two revolute clearances", short = "two revolute", joints = { crank_pin = c, piston_pin = c } },
  { key = "mixed", label = "three clearance joints", short = "all three", joints = { crank_pin = c, piston_pin = c, guide = c } },
}
spec004.configs = configs

-- Each configuration: a run recorded every 1e-5 s up to the end of the revolutions shown
-- after the transient, and the Poincare run of transient + sections revolutions, recorded
-- coarsely (its sections are events).  When the Poincare run has at most 400000 rows at
-- 1e-5 s, it is both.
local n_fig = p.transient + p.shown
local n_all = p.transient + p.sections
local a0, a1 = 2 * pi * p.transient, 2 * pi * n_fig     -- the window, crank angle [rad]
local w150 = mech.rpm(p.speed_rpm)

-- The numbers of the summary a configuration's own runs give (those against the ideal come
-- later): w its window, section its Poincare points, deepest its journals' deepest points.
local function summarise(cf, run, long, w, section, deepest)
  local s = {}
  local a = analysis.stats(w["slider.ax"])
  s.a_peak = a.absmax
  s.a_peak_angle = w.angle[a.at] % 360
  s.torque_peak = analysis.stats(w["motor.torque"]).absmax
  for _, j in ipairs(JOINTS) do s[j .. "_peak"] = analysis.stats(w[j .. ".force"]).absmax end
  local sv, sa = analysis.stats(section["slider.vx"]), analysis.stats(section["slider.ax"])
  s.v_spread, s.a_spread = sv.spread, sa.spread
  s.v_std, s.a_std = sv.std, sa.std
  s.v_min, s.v_max = sv.min, sv.max
  s.a_min, s.a_max = sa.min, sa.max
  s.violation = run["system.violation"]:max()
  s.wall = run.stats.wall_time + (long ~= run and long.stats.wall_time or 0)
  -- impacts per revolution over the sections
  s.impacts = 0
  for _, j in ipairs(JOINTS) do
    if cf.joints[j] then
      local n = analysis.poincare(long, { event = "section", x = j .. ".impacts" }).x
      s[j .. "_impacts"] = (n[#n] - n[p.transient]) / (#n - p.transient)
      s.impacts = s.impacts + s[j .. "_impacts"]
    end
  end
  -- each journal impact's deepest point over the sections' revolutions; where the journals touch
  s.penetration = 0
  for _, j in ipairs(JOURNALS) do
    if cf.joints[j] then
      local n, sum, top, deepest_j = 0, 0, 0, 0
      local d = deepest[j]
      for k = 1, #d.t do
        if d.t[k] > p.transient * T and d.penetration[k] > 0 then
          n, sum, top = n + 1, sum + d.fn[k], math.max(top, d.fn[k])
          deepest_j = math.max(deepest_j, d.penetration[k])
        end
      end
      s[j .. "_impact_force_mean"], s[j .. "_impact_force_max"] = n > 0 and sum / n or 0, top
      s[j .. "_deepest"] = deepest_j
      s.penetration = math.max(s.penetration, deepest_j)
      -- the share of the window's contact time with the journal off-centre mostly along x
      local along_x, touching = 0, 0
      for i = 1, w.n do
        if w[j .. ".active"][i] > 0 then
          touching = touching + 1
          if math.abs(w[j .. ".ex"][i]) > math.abs(w[j .. ".ey"][i]) then along_x = along_x + 1 end
        end
      end
      s[j .. "_contact_share"] = touching / w.n
      s[j .. "_along_x"] = touching > 0 and along_x / touching or 0
    end
  end
  if cf.joints.guide then
    -- the share of the window with the slider on each surface, and the crank angles (deg,
    -- 0..360) where the top surface carries it
    local bottom, top = 0, 0
    for i = 1, w.n do
      if w["guide.bottom"][i] > 0 then bottom = bottom + 1 end
      if w["guide.top"][i] > 0 then
        top = top + 1
        local deg = w.angle[i] % 360
        s.top_from, s.top_to = math.min(s.top_from or 360, deg), math.max(s.top_to or 0, deg)
      end
    end
    s.bottom_share, s.top_share = bottom / w.n, top / w.n
  end
  return s
end

-- The channels of the runs carried for comparisons against the ideal (col:at), from 1/8
-- revolution before the window to 1/8 after it: the windows of the other configurations
-- cover the same crank angles, at the same times (the motor drives the crank).
local TRACED = { "slider.x", "slider.vx", "slider.ax" }

-- One configuration, in its worker: its runs, and what the rest of the script takes from
-- them: the window's columns the CSV files, figures and numbers use (w), the Poincare
-- points (section, section_names, section_units), the deepest points of the journals'
-- impacts ({ t, penetration, fn } for each journal with clearance), the summary's numbers,
-- the trace (t and TRACED around the window) and the header of the window's CSV file.
local function configuration(cf)
  local params = with_parameters{ configuration = cf.key }
  local one_run = (n_all + 0.25) * T / p.report <= 400000
  local sys = mechanism(cf.joints)
  local run = simulate(sys, cf.joints, (one_run and n_all or n_fig) + 0.25, w150, p.report, params)
  local long = one_run and run or simulate(mechanism(cf.joints), cf.joints, n_all + 0.25, w150, T / 40, params)
  local w = window(run, cf.joints, a0, a1)
  local d = { header = run_header(sys, run, params, fmt("rows: %d revolution(s) after %d discarded, crank angle"
    .. " %g to %g deg (column angle: from the start of the window)", p.shown, p.transient, a0 * 180 / pi, a1 * 180 / pi)) }
  -- the Poincare points
  local names = { "slider.vx", "slider.ax" }
  for _, j in ipairs(JOURNALS) do
    if cf.joints[j] then names[#names + 1] = j .. ".ex"; names[#names + 1] = j .. ".ey" end
  end
  if cf.joints.guide then names[#names + 1] = "guide.offset"; names[#names + 1] = "guide.tilt" end
  local section, units = {}, {}
  for _, ch in ipairs(names) do
    local pts = analysis.poincare(long, { event = "section", x = ch, skip = p.transient })
    section[ch], section.t = pts.x, pts.t
    units[ch] = run[ch].unit
  end
  d.section, d.section_names, d.section_units = section, names, units
  -- the deepest points of the journals' impacts (events <joint>.deepest)
  d.deepest = {}
  for _, j in ipairs(JOURNALS) do
    if cf.joints[j] then
      local dp = { t = {}, penetration = {}, fn = {} }
      for _, e in ipairs(long.events) do
        if e.name == j .. ".deepest" then
          local k = #dp.t + 1
          dp.t[k], dp.penetration[k], dp.fn[k] = e.t, e.values[j .. ".penetration"], e.values[j .. ".fn"]
        end
      end
      d.deepest[j] = dp
    end
  end
  d.summary = summarise(cf, run, long, w, section, d.deepest)
  -- the window's columns the rest of the script uses: those of the CSV file, and guide.fn
  d.w = { n = w.n, i0 = w.i0, i1 = w.i1, names = {}, units = {} }
  for _, ch in ipairs(CSV_COLUMNS) do
    if w[ch] then d.w[ch], d.w.units[ch], d.w.names[#d.w.names + 1] = w[ch], w.units[ch], ch end
  end
  d.w["guide.fn"], d.w.units["guide.fn"], d.w.names[#d.w.names + 1] = w["guide.fn"], w.units["guide.fn"], "guide.fn"
  local margin = math.floor(T / 8 / p.report)
  local k0, k1 = math.max(1, w.i0 - margin), math.min(#run, w.i1 + margin)
  d.trace = { t = part(run.t:table(), k0, k1) }
  for _, ch in ipairs(TRACED) do d.trace[ch] = part(run[ch]:table(), k0, k1) end
  return d
end

do
  local cases, of = {}, {}
  for k, cf in ipairs(configs) do
    cases[k] = { configuration = cf.key, transient = p.transient, shown = p.shown, sections = p.sections }
    of[cf.key] = cf
  end
  local data = study("configurations", cases, function(cs) return configuration(of[cs.configuration]) end)
  for k, cf in ipairs(configs) do
    local d = data[k]
    cf.w, cf.section, cf.summary, cf.deepest = d.w, d.section, d.summary, d.deepest or {}
    cf.trace = { t = d.trace.t }
    for _, ch in ipairs(TRACED) do
      cf.trace[ch] = setmetatable(d.trace[ch], TRACE)
      cf.trace[ch].t = d.trace.t
    end
    if leader then
      write_window(cf.key, d.header, cf.w)
      local cnames, cols = { "revolution", "t [s]" }, { {}, cf.section.t }
      for i = 1, #cf.section.t do cols[1][i] = i + p.transient end
      for _, ch in ipairs(d.section_names) do
        cnames[#cnames + 1] = fmt("%s [%s]", ch, d.section_units[ch])
        cols[#cols + 1] = cf.section[ch]
      end
      write_csv(cf.key .. "_poincare", { fmt("Poincare section of configuration %s: crank angle 2 pi k, after %d discarded"
        .. " revolutions", cf.key, p.transient), fmt("model and integrator as in spec004_%s.csv", cf.key) }, cnames, cols)
    end
  end
end

-- ---- E3: the numbers -----------------------------------------------------------------------

local ideal = configs[1]
-- largest |x - x_ideal| over the window, the ideal interpolated at the run's times
local function against_ideal(cf, ch)
  local d, ref = 0, ideal.trace[ch]
  for i = 1, cf.w.n do d = math.max(d, math.abs(cf.w[ch][i] - ref:at(cf.w.t[i]))) end
  return d
end

-- How often |a - a_ideal| rises through a level, per revolution: the peaks of the response.
local function peaks_per_revolution(cf, level)
  local n, above, ref = 0, false, ideal.trace["slider.ax"]
  for i = 1, cf.w.n do
    local d = math.abs(cf.w["slider.ax"][i] - ref:at(cf.w.t[i]))
    if d > level and not above then n = n + 1 end
    above = d > level
  end
  return n / p.shown
end

for _, cf in ipairs(configs) do
  local s = cf.summary
  s.dx, s.dv, s.da = against_ideal(cf, "slider.x"), against_ideal(cf, "slider.vx"), against_ideal(cf, "slider.ax")
  s.peaks = peaks_per_revolution(cf, 50)
end
-- the guide's normal force of the ideal mechanism: its sign says which surface carries the slider
do
  local g = analysis.stats(ideal.w["guide.fn"])
  spec004.ideal_guide_min, spec004.ideal_guide_max = g.min, g.max
end
local s_of = {}
for _, cf in ipairs(configs) do s_of[cf.key] = cf.summary end

if leader then
  print(fmt("E3 four configurations, %g rpm, clearances %g mm; revolutions %d-%d shown; sections after %d, %d points",
    p.speed_rpm, c * 1e3, p.transient + 1, n_fig, p.transient, p.sections))
  print("  configuration            peak |a| crank moment joint force peaks [N]      section spread     impacts peaks drift   wall")
  print("                           [m/s^2]  [N m]        crank_pin piston_pin guide v [m/s]  a [m/s^2] /rev    /rev  [m]     [s]")
  for _, cf in ipairs(configs) do
    local s = cf.summary
    print(fmt("  %-24s %7.1f  %7.3f      %8.1f  %8.1f %6.1f  %.2e %.2e  %5.1f %5.1f  %.0e %6.1f", cf.label, s.a_peak,
      s.torque_peak, s.crank_pin_peak, s.piston_pin_peak, s.guide_peak, s.v_spread, s.a_spread, s.impacts, s.peaks,
      s.violation, s.wall))
  end
  print("  (section spread: largest minus smallest value over the points; peaks /rev: rises of |a - a_ideal| through 50 m/s^2)")
  print("  section standard deviation of v [m/s] and a [m/s^2]: " .. table.concat((function()
    local out = {}
    for _, cf in ipairs(configs) do out[#out + 1] = fmt("%s %.2e, %.2e", cf.key, cf.summary.v_std, cf.summary.a_std) end
    return out
  end)(), "; "))
  print("  largest difference from the ideal: displacement [m], velocity [m/s], acceleration [m/s^2]")
  for _, cf in ipairs(configs) do
    local s = cf.summary
    print(fmt("  %-24s %.3e %.3e %7.1f", cf.label, s.dx, s.dv, s.da))
  end
  print(fmt("  largest acceleration peak at crank angle (mod 360): two revolute %.1f deg, three joints %.1f deg",
    s_of.revolute.a_peak_angle, s_of.mixed.a_peak_angle))
  print(fmt("  ideal guide normal force %.2f to %.2f N (positive: the bottom surface carries the slider)",
    spec004.ideal_guide_min, spec004.ideal_guide_max))
  for _, cf in ipairs(configs) do
    local s = cf.summary
    for _, j in ipairs(JOURNALS) do
      if cf.joints[j] then
        print(fmt("  %s, %s: %.1f impacts/rev, impact force mean %.1f N, max %.1f N; deepest %.2f um (%.1f%% of c);",
          cf.key, j, s[j .. "_impacts"], s[j .. "_impact_force_mean"], s[j .. "_impact_force_max"],
          s[j .. "_deepest"] * 1e6, 100 * s[j .. "_deepest"] / c))
        print(fmt("      in contact %.0f%% of the time, %.0f%% of it with |ex| > |ey|", 100 * s[j .. "_contact_share"],
          100 * s[j .. "_along_x"]))
      end
    end
    if cf.joints.guide then
      print(fmt("  %s, guide: %.1f impacts/rev; slider on the bottom surface %.0f%% of the time, on the top %.0f%%%s",
        cf.key, s.guide_impacts, 100 * s.bottom_share, 100 * s.top_share,
        s.top_from and fmt(" (crank angles %.0f to %.0f deg)", s.top_from, s.top_to) or ""))
    end
  end
end

-- ---- E3: figures -----------------------------------------------------------------------------

if leader then
  local colors = { ideal = "black", translational = 2, revolute = 3, mixed = 4 }
  local deg_ticks = { 0, 360 * p.shown }
  -- overlays draw the ideal last, dashed, so that it shows where a case follows it
  local ideal_last = { configs[2], configs[3], configs[4], configs[1] }

  -- limits {lo, hi} taking in every value of the lists, with a margin of 5%
  local function limits(lists)
    local lo, hi = math.huge, -math.huge
    for _, l in ipairs(lists) do
      local st = analysis.stats(l)
      lo, hi = math.min(lo, st.min), math.max(hi, st.max)
    end
    local m = 0.05 * (hi - lo)
    if not (m > 0) then m = math.max(1e-12, 0.05 * math.abs(hi)) end
    return { lo - m, hi + m }
  end

  do -- slider displacement and velocity over the revolutions shown, and magnified details
    local fig = plot.figure{ rows = 2, cols = 2, width = 160, height = 150,
      title = fmt("Slider motion, %g rpm, clearances %g mm", p.speed_rpm, c * 1e3) }
    local zooms = { { "slider.x", "displacement [m]", 170, 190 }, { "slider.vx", "velocity [m/s]", 80, 120 } }
    for r, z in ipairs(zooms) do
      local full, detail = fig:panel(r, 1), fig:panel(r, 2)
      for _, cf in ipairs(ideal_last) do
        local style = cf.key == "ideal" and "dashed" or "solid"
        full:line{ x = cf.w.angle, y = cf.w[z[1]], color = colors[cf.key], style = style }
        local d = angles(cf.w, z[3], z[4], { z[1] })
        detail:line{ x = d.angle, y = d[z[1]], color = colors[cf.key], style = style, label = cf.short,
          width = cf.key == "ideal" and 0.9 or 0.6 }
      end
      full:set{ xlabel = r == 2 and "crank angle [deg]" or "", ylabel = z[2], xlim = deg_ticks }
      detail:set{ xlabel = r == 2 and "crank angle [deg]" or "", ylabel = "", xlim = { z[3], z[4] },
        title = fmt("detail, %d-%d deg", z[3], z[4]), legend = r == 2 and "upper left" or false }
    end
    fig:panel(1, 1):set{ title = p.shown == 2 and "two revolutions" or "one revolution" }
    save(fig, "slider_motion")
  end

  -- One panel per configuration, the ideal dashed in each; the panels of the two revolute
  -- cases share their limits, as do the ideal and the translational one.
  local function by_configuration(name, ch, ylabel, title)
    local fig = plot.figure{ rows = 4, cols = 1, width = 160, height = 230, title = title .. " (dashed: ideal)" }
    local small = limits{ configs[1].w[ch], configs[2].w[ch] }
    local large = limits{ configs[3].w[ch], configs[4].w[ch] }
    for k, cf in ipairs(configs) do
      local ax = fig:panel(k)
      if cf.key ~= "ideal" then ax:line{ x = cf.w.angle, y = cf.w[ch], color = colors[cf.key] } end
      ax:line{ x = ideal.w.angle, y = ideal.w[ch], color = "black", style = cf.key == "ideal" and "solid" or "dashed" }
      ax:set{ xlabel = k == 4 and "crank angle [deg]" or "", ylabel = ylabel, xlim = deg_ticks, title = cf.label,
        ylim = k <= 2 and small or large }
    end
    save(fig, name)
  end
  local setting = fmt("%g rpm, clearances %g mm", p.speed_rpm, c * 1e3)
  by_configuration("slider_acceleration", "slider.ax", "a [m/s^2]", "Slider acceleration, " .. setting)
  by_configuration("force_crank_pin", "crank_pin.force", "force [N]", "Crank-rod joint force, " .. setting)
  by_configuration("force_piston_pin", "piston_pin.force", "force [N]", "Rod-slider joint force, " .. setting)
  by_configuration("force_guide", "guide.force", "force [N]", "Guide force on the slider, " .. setting)
  by_configuration("crank_moment", "motor.torque", "moment [N m]", "Crank balance moment, " .. setting)

  do -- detail around the largest acceleration peak of the two-revolute case: all four cases
    local rev = configs[3]
    local at = analysis.stats(rev.w["slider.ax"]).at
    local centre = math.floor(rev.w.angle[at] + 0.5)
    local from, to = centre - 8, centre + 12
    spec004.detail = { from = from, to = to }
    local rows = { { "slider.ax", "a [m/s^2]" }, { "crank_pin.force", "crank-rod force [N]" },
      { "piston_pin.force", "rod-slider force [N]" }, { "motor.torque", "crank moment [N m]" } }
    local fig = plot.figure{ rows = 4, cols = 1, width = 160, height = 230,
      title = fmt("Detail around the largest peak, crank angles %d-%d deg", from, to) }
    for k, r in ipairs(rows) do
      local ax = fig:panel(k)
      for _, cf in ipairs(ideal_last) do
        local d = angles(cf.w, from, to, { r[1] })
        ax:line{ x = d.angle, y = d[r[1]], color = colors[cf.key], label = cf.short,
          style = cf.key == "ideal" and "dashed" or "solid", width = cf.key == "ideal" and 0.9 or 0.6 }
      end
      ax:set{ xlabel = k == 4 and "crank angle [deg]" or "", ylabel = r[2], xlim = { from, to },
        legend = k == 1 and "best" or false }
    end
    save(fig, "detail")
  end

  do -- phase diagrams (the second revolution of the window) and Poincare maps
    local fig = plot.figure{ rows = 2, cols = 2, width = 160, height = 150,
      title = "Phase diagrams of the slider over one revolution (dashed: ideal)" }
    local fig2 = plot.figure{ rows = 2, cols = 2, width = 160, height = 150,
      title = fmt("Poincare maps of the slider at crank angle 0, %d revolutions after %d", p.sections, p.transient) }
    local vs, as = {}, {}
    for _, cf in ipairs(configs) do vs[#vs + 1], as[#as + 1] = cf.section["slider.vx"], cf.section["slider.ax"] end
    local vlim, alim = limits(vs), limits(as)
    local last = {}
    for k, cf in ipairs(configs) do
      last[k] = angles(cf.w, 360 * (p.shown - 1), 360 * p.shown, { "slider.vx", "slider.ax" })
    end
    -- the two revolute cases share their limits
    local rev_a = limits{ last[3]["slider.ax"], last[4]["slider.ax"] }
    for k, cf in ipairs(configs) do
      local ax = fig:panel(k)
      ax:line{ x = last[k]["slider.vx"], y = last[k]["slider.ax"], color = colors[cf.key] }
      if cf.key ~= "ideal" then
        ax:line{ x = last[1]["slider.vx"], y = last[1]["slider.ax"], color = "black", style = "dashed" }
      end
      ax:set{ title = cf.label, xlabel = "v [m/s]", ylabel = "a [m/s^2]", ylim = k >= 3 and rev_a or nil }
      fig2:panel(k):scatter{ x = cf.section["slider.vx"], y = cf.section["slider.ax"], color = colors[cf.key],
        marker = "dot", size = 2.5 }:set{ title = cf.label, xlabel = "v [m/s]", ylabel = "a [m/s^2]", xlim = vlim,
        ylim = alim }
    end
    save(fig, "phase")
    save(fig2, "poincare")
  end

  do -- journal centres: orbits over the window, Poincare maps, x and y against the crank angle
    local circle_x, circle_y = {}, {}
    for k = 0, 360 do
      circle_x[#circle_x + 1] = c * 1e3 * math.cos(k * pi / 180)
      circle_y[#circle_y + 1] = c * 1e3 * math.sin(k * pi / 180)
    end
    local lim = { -1.2 * c * 1e3, 1.2 * c * 1e3 }
    -- 160 x 160 mm makes the plot boxes of a 2 x 2 figure square: the circle stays round
    local orbit = plot.figure{ rows = 2, cols = 2, width = 160, height = 160,
      title = fmt("Journal centre relative to the bearing centre, %d revolution%s", p.shown, p.shown > 1 and "s" or "") }
    local section = plot.figure{ rows = 2, cols = 2, width = 160, height = 160,
      title = fmt("Poincare maps of the journal centres at crank angle 0, %d revolutions", p.sections) }
    local xy = plot.figure{ rows = 4, cols = 2, width = 160, height = 230,
      title = "Journal centre relative to the bearing centre against the crank angle" }
    for r, j in ipairs(JOURNALS) do
      local jname = j == "crank_pin" and "crank-rod" or "rod-slider"
      for col, cf in ipairs{ configs[3], configs[4] } do
        local title = r == 1 and cf.label or nil
        orbit:panel(r, col):line{ x = circle_x, y = circle_y, color = "gray", style = "dashed" }
          :line{ x = scaled(cf.w[j .. ".ex"], 1e3), y = scaled(cf.w[j .. ".ey"], 1e3), color = colors[cf.key] }
          :set{ title = title, xlabel = "x [mm]", ylabel = col == 1 and jname .. " joint, y [mm]" or "y [mm]",
            xlim = lim, ylim = lim }
        section:panel(r, col):line{ x = circle_x, y = circle_y, color = "gray", style = "dashed" }
          :scatter{ x = scaled(cf.section[j .. ".ex"], 1e3), y = scaled(cf.section[j .. ".ey"], 1e3),
            color = colors[cf.key], size = 2.5 }
          :set{ title = title, xlabel = "x [mm]", ylabel = col == 1 and jname .. " joint, y [mm]" or "y [mm]",
            xlim = lim, ylim = lim }
        xy:panel(2 * r - 1, col):line{ x = cf.w.angle, y = scaled(cf.w[j .. ".ex"], 1e3), color = colors[cf.key] }
          :set{ title = title, xlabel = "", ylabel = col == 1 and jname .. ", x [mm]" or "x [mm]", xlim = deg_ticks, ylim = lim }
        xy:panel(2 * r, col):line{ x = cf.w.angle, y = scaled(cf.w[j .. ".ey"], 1e3), color = colors[cf.key] }
          :set{ xlabel = r == 2 and "crank angle [deg]" or "", ylabel = col == 1 and jname .. ", y [mm]" or "y [mm]",
            xlim = deg_ticks, ylim = lim }
      end
    end
    save(orbit, "journal_orbits")
    save(section, "journal_poincare")
    save(xy, "journal_xy")
  end

  do -- the slider in its guide
    local fig = plot.figure{ rows = 3, cols = 1, width = 160, height = 190,
      title = fmt("Slider in its guide, %g mm per side (dashed: the bottom surface)", c * 1e3) }
    local surface = {}
    for k = 1, ideal.w.n do surface[k] = -c * 1e3 end
    fig:panel(1):line{ x = ideal.w.angle, y = surface, color = "gray", style = "dashed" }
    for _, cf in ipairs{ configs[4], configs[2] } do   -- the smooth translational case on top
      local net = {}
      for k = 1, cf.w.n do net[k] = cf.w["guide.bottom"][k] - cf.w["guide.top"][k] end
      fig:panel(1):line{ x = cf.w.angle, y = scaled(cf.w["guide.offset"], 1e3), label = cf.label, color = colors[cf.key] }
      fig:panel(2):line{ x = cf.w.angle, y = net, color = colors[cf.key] }
      fig:panel(3):line{ x = cf.w.angle, y = scaled(cf.w["guide.tilt"], 1e3), color = colors[cf.key] }
    end
    fig:panel(1):set{ xlabel = "", ylabel = "centre offset [mm]", xlim = deg_ticks, legend = "upper right" }
    fig:panel(2):set{ xlabel = "", ylabel = "bottom - top force [N]", xlim = deg_ticks }
    fig:panel(3):set{ xlabel = "crank angle [deg]", ylabel = "tilt [mrad]", xlim = deg_ticks }
    save(fig, "guide")
  end
end

-- ---- E2: the rig's cases -------------------------------------------------------------------

if leader then
  print(fmt("E2 the rig: rod-slider clearance only, %d revolution%s after %d: peak |a| (ideal), rms of a - a_ideal"
    .. " over crank angles 0-180 and 180-360 deg [m/s^2]", p.e2_revolutions, p.e2_revolutions > 1 and "s" or "",
    p.e2_transient))
  for _, list in ipairs{ e2.clearance, e2.speed } do
    for _, cs in ipairs(list) do
      print(fmt("  %3g rpm, %.2f mm: %7.1f (%5.1f)  %6.2f %6.2f", cs.rpm, cs.clearance * 1e3, cs.a_peak, cs.ideal_peak,
        cs.rms_first, cs.rms_second))
    end
  end
  -- the CSV files: the revolution the figures show, of each case
  for _, cs in ipairs{ e2.clearance[1], e2.clearance[2], e2.clearance[3], e2.speed[1], e2.speed[3], e2.speed[4] } do
    local names, cols = {}, {}
    for _, ch in ipairs(RIG_COLUMNS) do
      names[#names + 1] = fmt("%s [%s]", ch, cs.units[ch])
      cols[#cols + 1] = cs.first[ch]
    end
    write_csv(fmt("e2_%grpm_%gmm", cs.rpm, cs.clearance * 1e3), cs.header, names, cols)
  end
end

if leader then -- slider acceleration of the rig's cases, one revolution each
  local function panel(ax, cs)
    local d = cs.first
    ax:line{ x = d.angle, y = d["slider.ax"], color = 3, label = "clearance" }
      :line{ x = d.angle, y = d.ideal_ax, color = "black", style = "dashed", label = "ideal" }
      :set{ xlim = { 0, 360 }, ylabel = "a [m/s^2]", xlabel = "", legend = false }
    return ax
  end
  local fig = plot.figure{ rows = 3, cols = 1, width = 160, height = 190,
    title = fmt("Slider acceleration, rod-slider clearance only, %g rpm, revolution %d (dashed: ideal)", p.speed_rpm,
      p.e2_transient + 1) }
  for k, cs in ipairs(e2.clearance) do
    panel(fig:panel(k), cs):set{ title = fmt("radial clearance %.2f mm", cs.clearance * 1e3) }
  end
  fig:panel(3):set{ xlabel = "crank angle [deg]" }
  save(fig, "e2_clearance")
  fig = plot.figure{ rows = 4, cols = 1, width = 160, height = 230,
    title = fmt("Slider acceleration, rod-slider clearance 0.5 mm, revolution %d (dashed: ideal)", p.e2_transient + 1) }
  for k, cs in ipairs(e2.speed) do panel(fig:panel(k), cs):set{ title = fmt("%g rpm", cs.rpm) } end
  fig:panel(4):set{ xlabel = "crank angle [deg]" }
  save(fig, "e2_speed")
end

-- full mode: the three clearance joints' mechanism, its second revolution at 150 rpm as an
-- animation at a fifth of real time, the clearances drawn 4 times as large (a run of its own)
if leader and not quick then
  local joints = configs[4].joints
  local T1 = 2 * pi / w150
  local arun = mechanism(joints):simulate{ t = 2 * T1, report = 1e-4, method = p.method, rtol = p.rtol,
    atol = p.atol, quiet = true, motion = T1 / 200, record = { "slider.ax" } }
  output.animation(arun, outdir, "spec004", { fps = 25, speed = T1 / 8, t = { T1, 2 * T1 }, magnify = 4,
    trace = "piston_pin", channel = "slider.ax", title = "Three clearance joints, 150 rpm" }, figures)
end

if leader then
  print("  CSV: " .. table.concat(csvs, ", "))
  print("  figures: " .. table.concat(figures, ", "))
  print(fmt("  wall time %d s", os.time() - clock0))
end
spec004.figures, spec004.csvs = figures, csvs
