-- SPDX-License-Identifier: MIT
-- analysis: Poincare sections, bifurcation sweeps, energy accounts, comparison with a
-- reference run and body frames, on oscillators whose answers are known in closed form.
local tap = require "tap"
local analysis = require "analysis"

local tight = { method = "dopri5", rtol = 1e-10, atol = 1e-12 }

-- A damped oscillator on a guide: m x'' + c x' + k x = sum F_i sin(W_i t), from rest.
-- wn = 20 rad/s, zeta = 0.5: the free part decays as exp(-10 t), to 1e-13 by t = 3 s.
local m, k, c = 1.0, 400.0, 20.0
local function oscillator(forces, sim)
  local sys = mech.planar{}
  local b = sys:body{ name = "b", mass = m, inertia = 1 }
  sys:prismatic{ sys.ground, b, axis = { 1, 0 } }
  sys:spring{ sys.ground, b, at = { { -0.5, 0 }, { 0, 0 } }, k = k, c = c, name = "s" }
  for i, f in ipairs(forces) do
    sys:force{ b, amplitude = { f[1], 0 }, omega = f[2], name = "f" .. i }
  end
  for key, v in pairs(tight) do if sim[key] == nil then sim[key] = v end end
  return sys:simulate(sim), b
end

-- Steady response to F0 sin(W t): X sin(W t - phi).
local function steady(F0, W)
  local re, im = k - m * W * W, c * W
  return F0 / math.sqrt(re * re + im * im), math.atan(im, re)
end

-- Largest distance between values of a list, and its mean.
local function spread(v)
  local lo, hi, s = math.huge, -math.huge, 0
  for _, x in ipairs(v) do lo, hi, s = math.min(lo, x), math.max(hi, x), s + x end
  return hi - lo, s / #v
end

local W, F0 = 15.0, 10.0
local T = 2 * math.pi / W

do -- stroboscopic section of a harmonically forced linear oscillator: one point
  local run = oscillator({ { F0, W } }, { t = 8, report = 0.01, record = { "b.x", "b.vx" },
    events = { analysis.strobe{ period = T } } })
  local all = analysis.poincare(run, { x = "b.x", y = "b.vx" })
  -- t = 8 s holds 19.1 periods; t = 0 is not an event (g starts at 0)
  tap.is(#all.t, 19, "the strobe fires once per drive period, from t = T")
  local wt = 0
  for i, t in ipairs(all.t) do wt = math.max(wt, math.abs(t - i * T)) end
  -- located to the event tolerance, 1e-12 max(1, t) s
  tap.ok(wt < 1e-11, string.format("at t = k T (%.1e s)", wt))
  local p = analysis.poincare(run, { x = "b.x", y = "b.vx", transient = 3 })
  tap.is(#p.x, 12, "after the transient (t >= 3 s): 12 points")
  tap.is(p.t[1], all.t[8], "the first at the 8th period")
  local X, phi = steady(F0, W)
  local sx, mx = spread(p.x)
  local sv, mv = spread(p.y)
  tap.diag(string.format("section point x = %.12f m, v = %.12f m/s; spread %.1e m, %.1e m/s; "
    .. "off the closed form by %.1e m, %.1e m/s", mx, mv, sx, sv, mx + X * math.sin(phi),
    mv - X * W * math.cos(phi)))
  -- DOPRI5 at rtol 1e-10 on an amplitude of 2.9e-2 m: global error ~1e-11 m; the
  -- transient left at t = 3 s is exp(-30) ~ 1e-13 of it
  tap.ok(sx < 1e-10 and sv < 1e-9, "all points coincide (to 1e-10 m, 1e-9 m/s)")
  tap.near(mx, -X * math.sin(phi), 1e-10, "at the closed form x = X sin(W kT - phi) = -X sin(phi)")
  tap.near(mv, X * W * math.cos(phi), 1e-9, "and v = X W cos(phi)")
  local early = analysis.poincare(run, { x = "b.x", skip = 1 })
  tap.is(#early.x, 18, "skip = 1 leaves out the first point")
  -- one period in, the free part is still exp(-10 T) = 1.5e-2 of the response
  tap.ok(math.abs(all.x[1] - mx) > 1e-5, "which the transient still moves")
  tap.is(early.y, nil, "no y channel, no y list")
  local both = analysis.poincare(run, { x = "b.x", transient = 3, skip = 10 })
  tap.is(#both.x, 9, "transient and skip together: the first 10 points and those before 3 s go")
  local ph = analysis.strobe{ period = T, phase = T / 4, name = "quarter" }
  local run2 = oscillator({ { F0, W } }, { t = 5, report = 0.01, record = { "b.x" }, events = { ph } })
  local q = analysis.poincare(run2, { event = "quarter", x = "b.x", transient = 3 })
  local sq, mq = spread(q.x)
  tap.near(q.t[1] % T, T / 4, 1e-11, "phase = T/4 strobes a quarter period later")
  tap.ok(sq < 1e-10, "its points coincide too")
  tap.near(mq, X * math.sin(math.pi / 2 - phi), 1e-10, "at X sin(pi/2 - phi)")
  -- a channel crossing as section: x' = 0 from above, the maxima of x: x = X
  local cr = oscillator({ { F0, W } }, { t = 5, report = 0.01, record = { "b.x" },
    events = { analysis.crossing{ channel = "b.vx", value = 0, direction = -1, name = "top" } } })
  local top = analysis.poincare(cr, { event = "top", x = "b.x", transient = 3 })
  local st, mt = spread(top.x)
  tap.ok(#top.x >= 4 and st < 1e-10, "analysis.crossing: the maxima of x lie on one point")
  tap.near(mt, X, 1e-10, "the steady amplitude X")
end

do -- period 2: forcing at W and W/2, strobed at 2 pi / W, alternates between two points
  local run = oscillator({ { F0, W }, { F0, W / 2 } }, { t = 8, report = 0.01, record = { "b.x" },
    events = { analysis.strobe{ period = T } } })
  local p = analysis.poincare(run, { x = "b.x", transient = 3 })
  local sorted = {}
  for i, x in ipairs(p.x) do sorted[i] = x end
  table.sort(sorted)
  local gap, at = 0, 1
  for i = 1, #sorted - 1 do
    if sorted[i + 1] - sorted[i] > gap then gap, at = sorted[i + 1] - sorted[i], i end
  end
  local lo, hi = {}, {}
  for i, x in ipairs(sorted) do table.insert(i <= at and lo or hi, x) end
  local slo, mlo = spread(lo)
  local shi, mhi = spread(hi)
  tap.diag(string.format("two points %.12f and %.12f m, spreads %.1e and %.1e m", mlo, mhi, slo, shi))
  tap.ok(#lo == 6 and #hi == 6, "12 points split into two clusters of 6")
  -- integration error ~1e-11 m against a separation of 2 X2 sin(phi2) = 1.1e-2 m
  tap.ok(math.max(slo, shi) < 1e-10 and gap > 1e7 * math.max(slo, shi, 1e-18),
    "each cluster is a point, far apart relative to the spread")
  local alternate = true
  for i = 2, #p.x do
    local a, b = p.x[i - 1] > mlo + gap / 2, p.x[i] > mlo + gap / 2
    alternate = alternate and a ~= b
  end
  tap.ok(alternate, "successive points alternate between the two")
  -- x(kT) = -X1 sin(phi1) - (-1)^k X2 sin(phi2)
  local X1, phi1 = steady(F0, W)
  local X2, phi2 = steady(F0, W / 2)
  tap.near(mhi, -X1 * math.sin(phi1) + X2 * math.sin(phi2), 1e-10, "odd periods: the closed form")
  tap.near(mlo, -X1 * math.sin(phi1) - X2 * math.sin(phi2), 1e-10, "even periods: the closed form")
  local k1 = math.floor(p.t[1] / T + 0.5)
  tap.ok((p.x[1] > mlo + gap / 2) == (k1 % 2 == 1), "and the parity of the period picks the point")
end

-- A scratch folder for the files of the bifurcation studies.
local scratch = os.tmpname()
os.remove(scratch)
mech.mkdir(scratch)

-- The lines of a file, sorted, joined by spaces ("" for no file).
local function sorted_lines(path)
  local f = io.open(path)
  if not f then return "" end
  local lines = {}
  for line in f:lines() do lines[#lines + 1] = line end
  f:close()
  table.sort(lines)
  return table.concat(lines, " ")
end

-- Appends a line to a file: what a worker process can tell the test.
local function log_line(path, text)
  local f = assert(io.open(path, "a"))
  f:write(text, "\n")
  f:close()
end

do -- bifurcation sweep over the forcing amplitude: one point each, linear in F0
  local values = { 1, 2, 3 }
  local calls = 0
  local log = scratch .. "/calls.log"
  local b = analysis.bifurcation{ values = values, section = { x = "b.x", transient = 3 },
    run = function(F)
      calls = calls + 1
      log_line(log, tostring(F))
      return (oscillator({ { F, W } }, { t = 5, report = 0.01, record = { "b.x" },
        events = { analysis.strobe{ period = T } } }))
    end }
  tap.is(sorted_lines(log), "1 2 3", "one run per value")
  tap.is(calls, 0, "each in a worker process: none in this one")
  tap.is(#b, 3, "one entry per value")
  local X, phi = steady(1, W)
  local ok, worst = true, 0
  for i, e in ipairs(b) do
    ok = ok and e.value == values[i] and #e.x == 4
    local s, mean = spread(e.x)
    worst = math.max(worst, s, math.abs(mean / e.value + X * math.sin(phi)))
  end
  tap.ok(ok, "in the order of the values, 4 points each in 3 .. 5 s")
  -- x / F0 is the same compliance for all: integration error ~1e-11 m per newton
  tap.ok(worst < 1e-10, string.format("each a single point, x / F0 = -X(1) sin(phi) (%.1e)", worst))
  tap.raises(analysis.bifurcation, "analysis.bifurcation: run(2) must return a run (got nil)",
    "the run function must return a run", { values = { 2 }, run = function() end, section = { x = "b.x" } })
  tap.raises(analysis.bifurcation, "analysis.bifurcation: field 'section': field 'x' is required",
    "the section needs x", { values = { 2 }, run = function() end, section = {} })
end

do -- bifurcation through worker processes: the same bits as a loop over the values here
  -- the period-2 oscillator above, the amplitude of its forcing at W/2 as the parameter
  local function model(F2)
    return (oscillator({ { F0, W }, { F2, W / 2 } }, { t = 4, report = 0.01, record = { "b.x", "b.vx" },
      events = { analysis.strobe{ period = T } } }))
  end
  -- bits of a number: the format tells -0 from 0 and floats from integers
  local function bits(v)
    return math.type(v) == "float" and string.format("%a", v) or tostring(v)
  end
  local function same_list(a, b)
    if type(a) ~= "table" or type(b) ~= "table" or #a ~= #b then return false end
    for i = 1, #a do if bits(a[i]) ~= bits(b[i]) then return false end end
    return true
  end
  local function fields(e)
    local k = {}
    for key in pairs(e) do k[#k + 1] = key end
    table.sort(k)
    return table.concat(k, " ")
  end
  -- the serial computation: run, then the section of the run
  local function serial(values, section)
    local out = {}
    for i, v in ipairs(values) do
      local p = analysis.poincare(model(v), section)
      out[i] = { value = v, x = p.x, y = p.y, t = p.t }
    end
    return out
  end
  -- whether b holds the same entries as a, bit for bit, and why not
  local function same(a, b)
    if #a ~= #b then return false, string.format("%d entries for %d", #b, #a) end
    for i = 1, #a do
      if fields(a[i]) ~= fields(b[i]) then return false, "entry " .. i .. ": fields " .. fields(b[i]) end
      if bits(a[i].value) ~= bits(b[i].value) then return false, "entry " .. i .. ": value" end
      for _, k in ipairs{ "x", "y", "t" } do
        if a[i][k] ~= nil and not same_list(a[i][k], b[i][k]) then return false, "entry " .. i .. ": " .. k end
      end
    end
    return true, "same"
  end
  -- os.tmpname, watched: the temporary folders the studies make are next to its names
  local real_tmpname, names = os.tmpname, {}
  os.tmpname = function()
    local n = real_tmpname()
    names[#names + 1] = n
    return n
  end
  local function exists(path)
    local f = io.open(path)
    if f then f:close() end
    return f ~= nil
  end
  local function left_behind()
    local left = {}
    for _, n in ipairs(names) do
      if exists(n) then left[#left + 1] = n end
      if exists(n .. ".d") then left[#left + 1] = n .. ".d" end
    end
    return table.concat(left, ", ")
  end

  -- values with repeats (5 twice; 0 as an integer, as a float and as -0.0), out of order
  local values = { 10, 5, 0, 20, 5, 0.0, -0.0 }
  local section = { x = "b.x", y = "b.vx", transient = 2, skip = 1 }
  local want = serial(values, section)
  tap.ok(#want[1].x == 5 and #want[1].y == 5, "the serial loop: 5 points per value in 2 .. 4 s")
  for _, workers in ipairs{ 1, 2, 3 } do
    local got = analysis.bifurcation{ values = values, run = model, section = section, workers = workers }
    tap.ok(same(want, got), string.format("workers = %d: the entries of the serial loop, bit for bit "
      .. "(%s)", workers, select(2, same(want, got))))
  end
  tap.is(#names, 3, "each study made a temporary folder")
  tap.is(left_behind(), "", "and removed it, and the name it took")
  local no_y = { x = "b.vx", event = "strobe" }
  tap.ok(same(serial({ 3, 7 }, no_y), analysis.bifurcation{ values = { 3, 7 }, run = model, section = no_y }),
    "without y: no y list, as the serial loop")
  local none = { x = "t", transient = 100 }
  local empty = analysis.bifurcation{ values = { 1 }, run = model, section = none }
  tap.ok(same(serial({ 1 }, none), empty) and #empty[1].x == 0 and #empty[1].t == 0,
    "a section without points: empty lists")

  -- the errors of a case name its value; the first value in order that failed is reported
  local function failing(bad)
    return function(v)
      if bad[v] == "error" then error("no convergence at " .. v) end
      if bad[v] == "table" then return {} end
      if bad[v] == "signal" then require("sweepcore")._raise() end
      return model(v)
    end
  end
  local msg = tap.raises(analysis.bifurcation, "analysis.bifurcation: run(1500) failed: ",
    "a run that raises: the value and its message",
    { values = { 1, 1500 }, run = failing{ [1500] = "error" }, section = section })
  tap.ok(msg and msg:find("no convergence at 1500", 1, true), "the run's own message follows")
  msg = tap.raises(function()
    analysis.bifurcation{ values = { 1, 7, 3 }, run = failing{ [3] = "error", [7] = "error" }, section = section }
  end, "analysis.bifurcation: run(7) failed: ", "of two values that fail, the first in the list is named")
  tap.like(msg, "^[^:]*test_analysis%.lua:%d+: analysis%.bifurcation:", "errors point at the caller's line")
  tap.raises(analysis.bifurcation, "analysis.bifurcation: run(1500) must return a run (got table)",
    "a run function that returns something else",
    { values = { 1500 }, run = failing{ [1500] = "table" }, section = section })
  tap.raises(analysis.bifurcation, "analysis.bifurcation: run(2): field 'section': field 'y': channel 'b.q' "
    .. "was not recorded (recorded: t, b.x, b.vx)", "a section channel the run did not record",
    { values = { 2 }, run = model, section = { x = "b.x", y = "b.q" } })
  tap.raises(analysis.bifurcation, "analysis.bifurcation: run(2): field 'section': the run has no event "
    .. "'strob' (its events: strobe)", "an event the run does not have",
    { values = { 2 }, run = model, section = { x = "b.x", event = "strob" } })
  tap.raises(analysis.bifurcation, "analysis.bifurcation: run(4) failed: killed by SIGSEGV (signal 11)",
    "a run whose process dies by a signal",
    { values = { 2, 4 }, run = failing{ [4] = "signal" }, section = section })
  tap.is(#names, 11, "every study made a temporary folder")
  tap.is(left_behind(), "", "and removed it after the errors too")
  local log = scratch .. "/unstarted.log"
  local function logged(v)
    log_line(log, tostring(v))
    return model(v)
  end
  tap.raises(analysis.bifurcation,
    "analysis.bifurcation: field 'workers' must be a whole number from 1 to 4096 (got 0)",
    "workers: at least 1", { values = { 1 }, run = logged, section = section, workers = 0 })
  tap.raises(analysis.bifurcation,
    "analysis.bifurcation: field 'workers' must be a whole number from 1 to 4096 (got 1.5)",
    "workers: a whole number", { values = { 1 }, run = logged, section = section, workers = 1.5 })
  tap.raises(analysis.bifurcation, "analysis.bifurcation: field 'folder' must be a path (got number)",
    "folder: a path", { values = { 1 }, run = logged, section = section, folder = 3 })
  tap.raises(analysis.bifurcation, "analysis.bifurcation: unknown field 'worker' (known fields: folder, "
    .. "progress, run, section, values, workers)", "a misspelled field", { values = { 1 }, run = logged,
    section = section, worker = 2 })
  tap.is(sorted_lines(log), "", "bad arguments are refused before any run starts")
  tap.is(#names, 11, "and before a folder is made")
  os.tmpname = real_tmpname

  -- a folder of its own: kept, and a second call takes the cases done from it
  local folder = scratch .. "/study"
  local flag = scratch .. "/fail"
  log = scratch .. "/study.log"
  local function flaky(v)
    log_line(log, tostring(v))
    if v == 2 and exists(flag) then error("the flag is up") end
    return model(v)
  end
  log_line(flag, "up")
  tap.raises(analysis.bifurcation, "analysis.bifurcation: run(2) failed: ", "a study in a folder fails",
    { values = { 1, 2, 3 }, run = flaky, section = section, folder = folder })
  tap.is(sorted_lines(log), "1 2 3", "after running every value")
  os.remove(flag)
  os.remove(log)
  local first = analysis.bifurcation{ values = { 1, 2, 3 }, run = flaky, section = section, folder = folder }
  tap.is(sorted_lines(log), "2",
    "run again, it takes the values that succeeded from the folder and runs the other")
  tap.ok(same(serial({ 1, 2, 3 }, section), first), "with the same bits as the serial loop")
  -- the folder keeps each value's points: cases/<key>/section, as sweep.read reads it
  local sweep, encode = require "sweep", require("sweepcore").encode
  local kept, returned = {}, {}
  local ls = io.popen("ls '" .. folder .. "/cases'")
  for key in ls:lines() do kept[#kept + 1] = encode(sweep.read(folder .. "/cases/" .. key .. "/section")) end
  ls:close()
  for i, e in ipairs(first) do returned[i] = encode{ x = e.x, y = e.y, t = e.t } end
  table.sort(kept)
  table.sort(returned)
  tap.ok(#kept == 3 and table.concat(kept, "|") == table.concat(returned, "|"),
    "the folder keeps the points of each value (sweep.read of cases/<key>/section)")
  local again = analysis.bifurcation{ values = { 1, 2, 3 }, run = flaky, section = section, folder = folder }
  tap.is(sorted_lines(log), "2", "a third call runs nothing")
  tap.ok(same(first, again), "and gives the same entries")
end

do -- energy accounts of a forced, damped oscillator
  local record = { "system.potential", "system.violation" }
  for _, ch in ipairs(analysis.energy_channels) do record[#record + 1] = ch end
  local run = oscillator({ { F0, W } }, { t = 3, report = 0.01, record = record })
  local e = analysis.energy(run)
  tap.diag(string.format("energy balance: residual %.2e J of %.3e J (relative %.1e)", e.residual,
    e.scale, e.relative))
  -- the work and dissipation accounts are integrated along with the motion but do not
  -- steer the step size, so they carry the error of steps chosen for rtol 1e-10 on the
  -- positions (5.7e-9 measured); forgetting one account would leave a residual ~ 1
  tap.ok(e.relative < 1e-7, "the balance closes to 1e-7 of the largest energy")
  tap.ok(e.residual > 0, "the residual is measured (not identically 0)")
  tap.near(e.scale, math.max(e.energy:max(), -e.energy:min()), 0, "scale: the largest |system.energy|")
  local names = table.concat(e.accounts, " ")
  tap.is(names, "potential kinetic gravity elastic energy work applied dissipated balance",
    "every recorded system.* account in joules, in record order; not the violation")
  tap.is(e.dissipated.name, "system.dissipated", "the accounts are the run's columns")
  tap.ok(e.applied[#run] > 0 and e.dissipated[#run] > 0, "the force did work, the damper took some")
  local bare = oscillator({ { F0, W } }, { t = 3, report = 0.01,
    record = { "system.kinetic", "system.elastic", "system.balance" } })
  local eb = analysis.energy(bare)
  local ke, el, worst = bare["system.kinetic"], bare["system.elastic"], 0
  for i = 1, #bare do worst = math.max(worst, ke[i] + el[i]) end
  tap.is(eb.scale, worst, "without system.energy the scale is the largest kinetic + potential sum")
  tap.raises(analysis.energy, "analysis.energy: channel 'system.balance' was not recorded",
    "the balance is required", oscillator({}, { t = 0.1, record = { "system.kinetic" } }))
  local only = analysis.energy(oscillator({ { F0, W } }, { t = 0.1, record = { "system.balance" } }))
  tap.ok(only.residual < 1e-9 and only.scale == nil and only.relative == nil,
    "the balance alone: a residual, nothing to scale it by")
end

do -- compare: two free bodies at 3 and 2 m/s, on different report grids
  local function coast(v, t, report)
    local sys = mech.planar{}
    sys:body{ name = "b", mass = 1, inertia = 1, velocity = { v, 0 } }
    return sys:simulate{ t = t, report = report, record = { "b.x" } }
  end
  local run, ref = coast(3, 1, 0.01), coast(2, 1.2, 0.03)
  local cmp = analysis.compare(run, ref, "b.x", { from = 0.1, to = 0.9 })
  tap.is(#cmp.t, 81, "the run's rows from 0.1 to 0.9 s")
  -- x = v t is linear: interpolating it is exact up to rounding (~1e-16 m)
  local wd = 0
  for i, t in ipairs(cmp.t) do wd = math.max(wd, math.abs(cmp.diff[i] - t)) end
  tap.ok(wd < 1e-14, string.format("diff = 3t - 2t = t on the run's grid (%.1e m)", wd))
  tap.near(cmp.peak, 0.9, 1e-14, "peak |diff| at the end of the window")
  tap.near(cmp.t_peak, 0.9, 1e-14, "t_peak")
  tap.near(cmp.value, 2.7, 1e-14, "value: the run there")
  tap.near(cmp.ref, 1.8, 1e-14, "ref: the reference there")
  tap.near(cmp.ratio, 1.5, 1e-14, "ratio = value / ref")
  tap.near(cmp.max.value, 2.7, 1e-14, "max: the run's largest |value|")
  tap.near(cmp.max.ratio, 1.5, 1e-14, "max.ratio")
  tap.near(cmp.max.ref_max, 1.8, 1e-14, "max.ref_max: the reference's own largest |value| in the window")
  tap.near(cmp.max.ratio_max, 1.5, 1e-14, "max.ratio_max")
  -- rms of t over 0.1, 0.11, ..., 0.9
  local s2 = 0
  for i = 10, 90 do s2 = s2 + (i / 100) ^ 2 end
  tap.near(cmp.rms, math.sqrt(s2 / 81), 1e-14, "rms of diff")
  local full = analysis.compare(run, ref, "b.x")
  tap.ok(full.from == 0 and full.to == 1 and #full.t == 101, "by default the whole overlap")
  tap.raises(analysis.compare, "analysis.compare: the reference covers t = 0 .. 1.2 s only, not 0 .. 2 s",
    "a window beyond the reference", run, ref, "b.x", { to = 2 })
  tap.raises(analysis.compare, "analysis.compare: argument #3: channel 'b.y' was not recorded (recorded: t, b.x)",
    "an unrecorded channel", run, ref, "b.y")
  tap.raises(analysis.compare, "argument #2 (the reference) must be a run", "the reference must be a run",
    run, {}, "b.x")
end

do -- compare: the peak acceleration of an oscillator of twice the amplitude is 2 times
  local function free(A)
    local sys = mech.planar{}
    local b = sys:body{ name = "b", mass = 1, inertia = 1, at = { A, 0 } }
    sys:prismatic{ sys.ground, b, axis = { 1, 0 } }
    -- k = 4 pi^2 m: 1 Hz, x = A cos(2 pi t), ax = -4 pi^2 A cos(2 pi t)
    sys:spring{ sys.ground, b, at = { { -1, 0 }, { A, 0 } }, k = 4 * math.pi ^ 2, length = 1 }
    local o = { t = 1, report = 0.01, record = { "b.ax" } }
    for key, v in pairs(tight) do o[key] = v end
    return sys:simulate(o)
  end
  local cmp = analysis.compare(free(0.02), free(0.01), "b.ax", { from = 0.05, to = 0.9 })
  local w2 = 4 * math.pi ^ 2
  -- |diff| = 0.01 w^2 |cos(2 pi t)| is largest at t = 0.5 s, a row; rtol 1e-10 on ~1
  tap.near(cmp.t_peak, 0.5, 1e-15, "the largest difference at t = 0.5 s")
  tap.near(cmp.peak, 0.01 * w2, 1e-9, "of 0.01 w^2")
  tap.near(cmp.value, 0.02 * w2, 1e-9, "the run's acceleration there")
  tap.near(cmp.ratio, 2, 1e-9, "is twice the reference's")
  tap.near(cmp.max.ratio_max, 2, 1e-9, "and so is its peak")
end

do -- in_frame: a point fixed on a body keeps its body coordinates
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  local b = sys:body{ name = "b", mass = 1, inertia = 0.02, at = { 0.1, 0.2 }, angle = 0.3,
    velocity = { 0.4, 1.5 }, omega = 7 }
  b:point{ name = "mark", body_at = { 0.05, -0.02 } }
  local run = sys:simulate{ t = 1, report = 0.01,
    record = { "b.x", "b.y", "b.phi", "b.mark.x", "b.mark.y" } }
  local u, v = analysis.in_frame(run, b, "b.mark.x", "b.mark.y")
  local wu = 0
  for i = 1, #u do wu = math.max(wu, math.abs(u[i] - 0.05), math.abs(v[i] + 0.02)) end
  -- the world point is x + R(phi) p; turning it back only rounds (~1e-16 m)
  tap.ok(#u == #run and wu < 1e-14, string.format("a marker of a spinning, falling body (%.1e m)", wu))
  local uc, vc = analysis.in_frame(run, "b", "b.x", "b.y")
  tap.ok(uc[50] == 0 and vc[50] == 0, "the body's own centre is its origin (a name works too)")
  local bm = analysis.in_frame(run, b, "b.x", "b.mark.y") -- not a point: u varies
  tap.ok(spread(bm) > 1e-3, "a point that is not fixed on the body moves in its frame")
  tap.raises(analysis.in_frame, "analysis.in_frame: body 'c': channel 'c.x' was not recorded",
    "the body's channels must be recorded", run, "c", "b.x", "b.y")
  tap.raises(analysis.in_frame, "argument #2 must be a body or a body name (got number)",
    "a body is needed", run, 3, "b.x", "b.y")
  local px, py = analysis.phase(run, "b.x", "b.y")
  tap.ok(px.name == "b.x" and py.name == "b.y" and #px == #run, "analysis.phase returns the two columns")
end

do -- event definitions and argument errors
  local s = analysis.strobe{ period = 0.5, phase = 0.1 }
  tap.ok(s.name == "strobe" and s.direction == 0 and type(s.fn) == "function", "strobe: a function event")
  -- g(t) = +-sin(pi (t - phase) / T) with the argument reduced: zero on phase + k T, and
  -- continuous across the half periods where the reduction switches k
  tap.near(s.fn(0), math.sin(-math.pi * 0.2), 1e-15, "g(0) = sin(pi (0 - phase) / T)")
  tap.ok(s.fn(0.1) == 0, "zero at t = phase")
  local h = 0.1 + 0.25
  tap.ok(math.abs(s.fn(h - 1e-12) - s.fn(h + 1e-12)) < 1e-12, "continuous at half periods")
  tap.near(s.fn(0.4), math.sin(math.pi * 0.3 / 0.5), 1e-15, "equal to sin(pi (t - phase) / T)")
  local far = analysis.strobe{ period = 0.5, phase = -5000 }
  -- sin(pi u) itself is -2e-12 at u = 10000 (pi is rounded): a root 3e-13 s off
  tap.ok(far.fn(0) == 0, "exactly zero at k = 10000 periods")
  tap.raises(s.fn, "analysis.strobe: an integration step from t = 0.4 s to 0.9 s is not shorter than the period 0.5 s",
    "a step of a whole period is refused", 0.9)
  do
    local sys = mech.planar{}
    sys:body{ name = "b", mass = 1, inertia = 1 }
    local ev = { analysis.strobe{ period = 0.25 } }
    -- nothing moves: DOPRI5 lengthens its steps without bound and would step over roots
    tap.raises(sys.simulate, "event 'strobe' function: analysis.strobe: an integration step",
      "a run whose steps outgrow the period fails", sys, { t = 1.1, record = { "b.x" }, events = ev })
    local r = sys:simulate{ t = 1.1, max_step = 0.2, record = { "b.x" }, events = ev }
    local p = analysis.poincare(r, { x = "t" })
    tap.ok(#p.t == 4 and math.abs(p.x[4] - 1) < 1e-12,
      "with max_step below the period it fires at 0.25, 0.5, 0.75, 1 s (the same definition reused)")
  end
  local c = analysis.crossing{ channel = "crank.phi", value = 0, period = 2 * math.pi, direction = 1 }
  tap.ok(c.name == "crank.phi" and c.channel == "crank.phi" and c.period == 2 * math.pi
    and c.direction == 1 and c.value == 0, "crossing: a channel event named after its channel")
  tap.raises(analysis.strobe, "analysis.strobe: field 'period' is required", "strobe needs a period", {})
  tap.raises(analysis.strobe, "analysis.strobe: field 'period' must be a number of seconds > 0 (got -1)",
    "a positive period", { period = -1 })
  tap.raises(analysis.strobe, "analysis.strobe: unknown field 'perod'", "misspelled field", { perod = 1 })
  tap.raises(analysis.crossing, "analysis.crossing: field 'channel' is required", "crossing needs a channel", {})
  tap.raises(analysis.crossing, "analysis.crossing: field 'direction' must be 1 or -1 with a period",
    "a periodic crossing needs a direction", { channel = "a.x", period = 1 })
  tap.raises(analysis.crossing, "field 'direction' must be 1 (rising), -1 (falling) or 0 (both) (got 2)",
    "direction values", { channel = "a.x", direction = 2 })
  local run = oscillator({ { F0, W } }, { t = 1, report = 0.01, record = { "b.x" },
    events = { analysis.strobe{ period = T } } })
  tap.raises(analysis.poincare, "analysis.poincare: the run has no event 'strob' (its events: strobe)",
    "a misspelled event name", run, { event = "strob", x = "b.x" })
  tap.raises(analysis.poincare, "analysis.poincare: field 'y': channel 'b.vx' was not recorded (recorded: t, b.x)",
    "section channels must be recorded", run, { x = "b.x", y = "b.vx" })
  tap.raises(analysis.poincare, "analysis.poincare: field 'skip' must be a whole number of points >= 0 (got 1.5)",
    "skip counts points", run, { x = "b.x", skip = 1.5 })
  tap.raises(analysis.poincare, "analysis.poincare: field 'transient' must be a time >= 0 s (got -1)",
    "transient is a time", run, { x = "b.x", transient = -1 })
  tap.raises(analysis.poincare, "analysis.poincare: argument #1 must be a run (what sys:simulate returns; got table)",
    "poincare needs a run", {}, { x = "b.x" })
  tap.raises(analysis.phase, "analysis.phase: argument #3 must be a channel name (got nil)",
    "phase needs two channels", run, "b.x")
  local none = oscillator({ { F0, W } }, { t = 0.1, report = 0.01, record = { "b.x" } })
  tap.is(#analysis.poincare(none, { x = "b.x" }).x, 0, "a run without events has an empty section")
  local msg = tap.raises(function() analysis.spectrum(run, "b.q") end,
    "analysis.spectrum: argument #2: channel 'b.q' was not recorded", "spectrum of an unrecorded channel")
  tap.like(msg, "^[^:]*test_analysis%.lua:%d+: analysis%.spectrum", "errors point at the caller's line")
end

do -- analysis.stats: a list and a column
  local s = analysis.stats{ 2, -5, 3, 4 }
  tap.is(s.n, 4, "stats: n")
  tap.ok(s.min == -5 and s.max == 4 and s.spread == 9, "stats: min, max, spread")
  tap.is(s.mean, 1, "stats: mean")
  tap.near(s.std, math.sqrt((1 + 36 + 4 + 9) / 3), 1e-15, "stats: the sample standard deviation (n - 1)")
  tap.ok(s.absmax == 5 and s.at == 2, "stats: the largest |v| and its index")
  local t = analysis.stats{ 3, -3, 1 }
  tap.is(t.at, 1, "stats: the first index on ties")
  tap.is(analysis.stats{ 7 }.std, 0, "stats: one value has std 0")
  local sys = mech.planar{}
  sys:body{ name = "b", mass = 1, inertia = 1, velocity = { 1, 0 } }
  local run = sys:simulate{ t = 1, report = 0.25, record = { "b.x" } }
  local c = analysis.stats(run["b.x"])
  tap.ok(c.n == 5 and c.min == run["b.x"]:min() and c.max == run["b.x"]:max() and c.at == 5,
    "stats of a column")
  tap.raises(analysis.stats, "analysis.stats: argument #1 is empty", "stats of an empty list", {})
  tap.raises(analysis.stats, "analysis.stats: value 2 must be a finite number", "stats refuses NaN",
    { 1, 0 / 0 })
  tap.raises(analysis.stats, "analysis.stats: argument #1 must be a list of numbers or a column (got mech.run)",
    "stats of a run", run)
end

do -- every function of analysis and fft is in mechlua-analysis(3)
  local page = (os.getenv("MECHLUA_SOURCE") or ".") .. "/man/mechlua-analysis.3"
  local p = io.popen("groff -man -Tascii -P-c -P-b -P-u '" .. page .. "' 2>/dev/null")
  local text = p:read("a")
  p:close()
  local missing = {}
  for mod, t in pairs{ analysis = analysis, fft = require "fft" } do
    for key in pairs(t) do
      local name = mod .. "." .. key
      if not text:find("\n%s+" .. name:gsub("%.", "%%.") .. "%f[^%w_]") then missing[#missing + 1] = name end
    end
  end
  table.sort(missing)
  tap.ok(#text > 1000 and #missing == 0, "the page documents every function (missing: "
    .. (#missing > 0 and table.concat(missing, ", ") or "none") .. ")")
end

os.execute("rm -rf '" .. scratch .. "'")
tap.done()
