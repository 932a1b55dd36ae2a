-- SPDX-License-Identifier: MIT
-- analysis: post-processing of simulation runs, the numbers and sections papers quote.
--
--   local analysis = require "analysis"
--   local s = analysis.spectrum(run, "slider.ax", { window = "hann" })   -- Hz, amplitude
--   local p = analysis.peaks(s, 3)                 -- { {freq, amp, bin}, ... } largest first
--   events = { analysis.strobe{ period = 2 * math.pi / W } }             -- in sys:simulate
--   local pts = analysis.poincare(run, { x = "b.x", y = "b.vx", transient = 5 })
--   local c = analysis.compare(run, ideal, "slider.ax")    -- c.peak, c.max.ratio, ...
--   local e = analysis.energy(run)                         -- e.residual, e.relative
--
-- Everything is plain Lua over runs and columns, except the transform itself (module
-- fft, FFTW).  Functions check their arguments and raise "analysis.name: ..." errors
-- that name the argument or field at fault.  man mechlua-analysis has the definitions.
local fft = require "fft"

local analysis = {}

local abs, floor, huge, sin, pi = math.abs, math.floor, math.huge, math.sin, math.pi
local fmt = string.format

-- ---- argument checks ------------------------------------------------------------------

local typename = require("options").typename

local function is_run(v) return typename(v) == "mech.run" end
local function is_column(v) return typename(v) == "mech.column" end

-- Raises "fname: message" at the caller of the public function (level 3 from a helper
-- called by it; pass lvl to go further out).
local function fail(lvl, fname, ...)
  error(fname .. ": " .. fmt(...), lvl + 1)
end

local function check_run(fname, v, what, lvl)
  if not is_run(v) then
    fail(lvl or 3, fname, "%s must be a run (what sys:simulate returns; got %s)", what, typename(v))
  end
  return v
end

local function check_options(fname, o, known, lvl)
  if o == nil then return {} end
  if type(o) ~= "table" then fail(lvl or 3, fname, "the options must be a table (got %s)", typename(o)) end
  for k in pairs(o) do
    if type(k) ~= "string" or known[k] == nil then
      local names = {}
      for name in pairs(known) do names[#names + 1] = name end
      table.sort(names)
      fail(lvl or 3, fname, "unknown field '%s' (known fields: %s)", tostring(k), table.concat(names, ", "))
    end
  end
  return o
end

local function finite(v) return type(v) == "number" and v == v and abs(v) ~= huge end

local function number_field(fname, o, key, def, lvl, test, expect)
  local v = o[key]
  if v == nil then return def end
  if not finite(v) or (test and not test(v)) then
    fail(lvl or 3, fname, "field '%s' must be %s (got %s)", key, expect or "a finite number", tostring(v))
  end
  return v
end

local function positive(v) return v > 0 end
local function nonnegative(v) return v >= 0 end

local function string_field(fname, o, key, def, lvl)
  local v = o[key]
  if v == nil then return def end
  if type(v) ~= "string" then
    fail(lvl or 3, fname, "field '%s' must be a string (got %s)", key, typename(v))
  end
  return v
end

-- The column of channel `name` ("t" for time) of a run, or an error listing the
-- recorded channels.
local function column(fname, run, name, what, lvl)
  lvl = lvl or 3
  if type(name) ~= "string" then
    fail(lvl, fname, "%s must be a channel name (got %s)", what, typename(name))
  end
  if name == "t" then return run.t end
  local channels = run.channels
  for _, c in ipairs(channels) do
    if c == name then return run:column(name) end
  end
  fail(lvl, fname, "%s: channel '%s' was not recorded (recorded: t%s)", what, name,
    #channels > 0 and ", " .. table.concat(channels, ", ") or "")
end

-- ---- spectra --------------------------------------------------------------------------

-- Sampling step of a time column, checked to be even (within 1e-6 of a step: rows are
-- recorded at k * report exactly, so only a run with irregular rows fails).
local function even_step(fname, t, lvl)
  local n = #t
  if n < 2 then fail(lvl, fname, "the run has %d rows: no sampling step", n) end
  local t1 = t[1]
  local dt = (t[n] - t1) / (n - 1)
  for i = 2, n do
    if abs(t[i] - t1 - (i - 1) * dt) > 1e-6 * dt then
      fail(lvl, fname, "the run's rows are not evenly spaced in time (row %d at t = %.9g s); "
        .. "give 'dt'", i, t[i])
    end
  end
  return dt
end

-- The run a column belongs to.
local function run_of(col)
  local r = col.run
  if is_run(r) then return r end
  return nil
end

local spectrum_known = { dt = true, window = true, detrend = true, from = true, to = true }

-- analysis.spectrum(run, channel, opts) | (column, opts) | (list, opts)
--   -> { freq = {...} Hz, amp = {...}, dt, n, window, detrend, channel }
-- opts: dt [s] (default: the run's report step), window ("hann"), detrend ("mean"),
-- from, to [s]: only the rows with from <= t <= to (a list's sample i is at (i - 1) dt).
function analysis.spectrum(a, b, c)
  local fname = "analysis.spectrum"
  local y, o, t, name
  if is_run(a) then
    y, o, t, name = column(fname, a, b, "argument #2"), c, a.t, b
  elseif is_column(a) then
    y, o, name = a, b, a.name
    local r = run_of(a)
    t = r and r.t
  elseif type(a) == "table" then
    y, o = a, b
  else
    fail(2, fname, "argument #1 must be a run, a results column or a list of numbers (got %s)", typename(a))
  end
  o = check_options(fname, o, spectrum_known)
  local dt = number_field(fname, o, "dt", nil, 3, positive, "a number of seconds > 0")
  local from = number_field(fname, o, "from", nil)
  local to = number_field(fname, o, "to", nil)
  local tt = t and (dt == nil or from or to) and t:table()
  if dt == nil then
    if tt == nil then fail(2, fname, "field 'dt' is required for a list of samples") end
    dt = even_step(fname, tt, 3)
  end
  if from or to then
    from, to = from or -huge, to or huge
    if from > to then fail(2, fname, "field 'from' (%g) is after 'to' (%g)", from, to) end
    local slack = 1e-9 * dt
    local src, sel = (type(y) == "table") and y or y:table(), {}
    for i = 1, #src do
      local ti = tt and tt[i] or (i - 1) * dt
      if ti >= from - slack and ti <= to + slack then sel[#sel + 1] = src[i] end
    end
    y = sel
  end
  local ok, freq, amp = pcall(fft.spectrum, y, { dt = dt, window = o.window, detrend = o.detrend })
  if not ok then error((tostring(freq):gsub("^fft%.spectrum:", fname .. ":")), 2) end
  return { freq = freq, amp = amp, dt = dt, n = #y, window = o.window or "hann",
    detrend = o.detrend or "mean", channel = name }
end

local interpolations = { log = true, linear = true, none = true }

-- Vertex of the parabola through (-1, a), (0, b), (1, c) with b >= a, b >= c: the
-- offset p in [-1/2, 1/2] and the value there.
local function vertex(a, b, c)
  local d = a - 2 * b + c
  if d >= 0 then return 0, b end -- flat: no curvature to fit
  local p = 0.5 * (a - c) / d
  return p, b - 0.25 * (a - c) * p
end

-- analysis.peaks(spectrum, n, { dc = false, interpolation = "log" })
--   -> up to n peaks { freq, amp, bin } by decreasing amplitude.
-- A peak is a bin above its left neighbour and not below its right one.  Its frequency
-- and amplitude come from the parabola through the bin and its two neighbours, fitted to
-- the logarithm of the amplitudes ("log", exact for a Gaussian peak and close for the
-- Hann window), to the amplitudes ("linear") or not at all ("none").  The default is
-- "log", or "linear" for a spectrum made with window = "none": the near-zero neighbours
-- of a bin-frequency sine would tilt a parabola in log scale.
function analysis.peaks(s, n, o)
  local fname = "analysis.peaks"
  if type(s) ~= "table" or type(s.freq) ~= "table" or type(s.amp) ~= "table" then
    fail(2, fname, "argument #1 must be a spectrum { freq = {...}, amp = {...} } (got %s)", typename(s))
  end
  local f, A = s.freq, s.amp
  local m = #A
  if #f ~= m or m < 2 then
    fail(2, fname, "the spectrum needs as many frequencies as amplitudes, at least 2 (got %d and %d)", #f, m)
  end
  for k = 1, m do
    if not finite(f[k]) or not finite(A[k]) then
      fail(2, fname, "bin %d of the spectrum is not a pair of finite numbers", k)
    end
  end
  if n == nil then n = 1 end
  if math.type(n) ~= "integer" or n < 1 then
    fail(2, fname, "argument #2 must be a number of peaks >= 1 (got %s)", tostring(n))
  end
  o = check_options(fname, o, { dc = true, interpolation = true })
  if o.dc ~= nil and type(o.dc) ~= "boolean" then
    fail(2, fname, "field 'dc' must be true or false (got %s)", typename(o.dc))
  end
  local interp = string_field(fname, o, "interpolation", s.window == "none" and "linear" or "log")
  if not interpolations[interp] then
    fail(2, fname, "field 'interpolation' must be \"log\", \"linear\" or \"none\" (got \"%s\")", interp)
  end
  local df = f[2] - f[1]
  local found = {}
  for k = o.dc and 1 or 2, m do
    local a, b, c = A[k - 1], A[k], A[k + 1]
    if b > 0 and (a == nil or b > a) and (c == nil or b >= c) then
      local p, v = 0, b
      if a and c and interp == "log" and a > 0 and c > 0 then
        p, v = vertex(math.log(a), math.log(b), math.log(c))
        v = math.exp(v)
      elseif a and c and interp ~= "none" then
        p, v = vertex(a, b, c)
      end
      found[#found + 1] = { freq = f[k] + p * df, amp = v, bin = k }
    end
  end
  table.sort(found, function(x, y)
    if x.amp ~= y.amp then return x.amp > y.amp end
    return x.bin < y.bin
  end)
  for k = #found, math.min(n, #found) + 1, -1 do found[k] = nil end -- n + 1 may wrap
  return found
end

-- ---- Poincare sections ---------------------------------------------------------------------

-- analysis.strobe{ period = T, phase = 0, name = "strobe" } -> an event definition for
-- sys:simulate that fires at every t = phase + k T > 0 (k an integer).
-- g(t) = (-1)^k sin(pi r), u = (t - phase) / T = k + r with k = round(u): the same
-- function as sin(pi u) but with the argument reduced exactly, so the root is located
-- to the event tolerance (1e-12 max(1, t) s) however many periods have passed.
-- The integrator sees a sign change of g per step, so a step longer than T could pass
-- two roots unseen: g raises an error when the step ends more than T after the latest
-- time it was called at (a new run starts at t = 0 and starts afresh).
function analysis.strobe(o)
  local fname = "analysis.strobe"
  if type(o) ~= "table" then fail(2, fname, "expected a table { period = T, phase = 0, name = \"strobe\" }") end
  check_options(fname, o, { period = true, phase = true, name = true })
  local T = number_field(fname, o, "period", nil, 3, positive, "a number of seconds > 0")
  if T == nil then fail(2, fname, "field 'period' is required (the drive period, s)") end
  local phase = number_field(fname, o, "phase", 0)
  local name = string_field(fname, o, "name", "strobe")
  local latest = 0
  return { name = name, direction = 0, fn = function(t)
    if t == 0 then latest = 0 end
    if t - latest >= T then
      error(fmt("%s: an integration step from t = %.9g s to %.9g s is not shorter than the "
        .. "period %.9g s, so strobe points could be missed: limit the step (max_step, or h "
        .. "with rk4)", fname, latest, t, T), 0)
    end
    if t > latest then latest = t end
    local u = (t - phase) / T
    local k = floor(u + 0.5)
    local g = sin(pi * (u - k))
    return k % 2 == 0 and g or -g
  end }
end

-- analysis.crossing{ channel, value = 0, period, direction = 0, name = channel }
-- -> { name, channel, value, period, direction }: the channel passing value (+ k period).
function analysis.crossing(o)
  local fname = "analysis.crossing"
  if type(o) ~= "table" then fail(2, fname, "expected a table { channel = ..., value = ..., period = ..., direction = ... }") end
  check_options(fname, o, { channel = true, value = true, period = true, direction = true, name = true })
  local ch = string_field(fname, o, "channel", nil)
  if ch == nil then fail(2, fname, "field 'channel' is required (a channel name such as \"crank.phi\")") end
  local value = number_field(fname, o, "value", 0)
  local period = number_field(fname, o, "period", nil, 3, positive, "a number > 0")
  local dir = o.direction
  if dir ~= nil and dir ~= -1 and dir ~= 0 and dir ~= 1 then
    fail(2, fname, "field 'direction' must be 1 (rising), -1 (falling) or 0 (both) (got %s)", tostring(dir))
  end
  if period and (dir == nil or dir == 0) then
    fail(2, fname, "field 'direction' must be 1 or -1 with a period")
  end
  return { name = string_field(fname, o, "name", ch), channel = ch, value = value, period = period,
    direction = dir or 0 }
end

local section_known = { event = true, x = true, y = true, transient = true, skip = true }

-- Checks section options; returns event, x, y, transient, skip.
local function section_options(fname, o, lvl)
  if type(o) ~= "table" then
    fail(lvl, fname, "expected a table { event = ..., x = ..., y = ..., transient = ..., skip = ... } (got %s)", typename(o))
  end
  check_options(fname, o, section_known, lvl + 1)
  local event = string_field(fname, o, "event", "strobe", lvl + 1)
  if o.x == nil then fail(lvl, fname, "field 'x' is required (the channel to section)") end
  local x = string_field(fname, o, "x", nil, lvl + 1)
  local y = string_field(fname, o, "y", nil, lvl + 1)
  local transient = number_field(fname, o, "transient", 0, lvl + 1, nonnegative, "a time >= 0 s")
  local skip = o.skip or 0
  if math.type(skip) ~= "integer" or skip < 0 then
    fail(lvl, fname, "field 'skip' must be a whole number of points >= 0 (got %s)", tostring(skip))
  end
  return event, x, y, transient, skip
end

-- The section points of a run: { x, y, t } lists.
local function section(fname, run, event, x, y, transient, skip, lvl)
  column(fname, run, x, "field 'x'", lvl + 1)
  if y then column(fname, run, y, "field 'y'", lvl + 1) end
  local xs, ys, ts, seen, others = {}, {}, {}, 0, {}
  for _, e in ipairs(run.events) do
    if e.name == event then
      seen = seen + 1
      if seen > skip and e.t >= transient then
        local n = #ts + 1
        ts[n] = e.t
        xs[n] = x == "t" and e.t or e.values[x]
        if y then ys[n] = y == "t" and e.t or e.values[y] end
      end
    elseif not others[e.name] then
      others[e.name] = true
      others[#others + 1] = e.name
    end
  end
  if seen == 0 and #others > 0 then
    fail(lvl, fname, "the run has no event '%s' (its events: %s)", event, table.concat(others, ", "))
  end
  return { x = xs, y = y and ys or nil, t = ts }
end

-- analysis.poincare(run, { event = "strobe", x = channel, y = channel, transient = t0,
-- skip = n }) -> { x = {...}, y = {...}, t = {...} }: the channels at the run's events of
-- that name, leaving out those before t0 and the first n.
function analysis.poincare(run, o)
  local fname = "analysis.poincare"
  check_run(fname, run, "argument #1")
  local event, x, y, transient, skip = section_options(fname, o, 3)
  local points = section(fname, run, event, x, y, transient, skip, 3)
  return points -- not a tail call: errors of section() point at the caller
end

-- Whether stderr is a terminal (for progress lines).
local function stderr_is_terminal()
  return mech.isatty(2)
end

-- A fresh folder for a study whose files are not kept: the name os.tmpname made (a file it
-- created, which keeps the name taken) with ".d" appended.  Returns the folder and that file.
local function temporary_folder(fname)
  local ok, name = pcall(os.tmpname)
  local made, err = ok and pcall(mech.mkdir, name .. ".d")
  if not (ok and made) then
    if ok then os.remove(name) end
    fail(3, fname, "cannot make a temporary folder: %s", tostring(ok and err or name))
  end
  return name .. ".d", name
end

-- The case folders of a study, from the keys of its results file (when sweep.run raised,
-- its rows are lost but the file lists every case).
local function study_dirs(folder, res)
  local dirs = {}
  if res then
    for i = 1, #res do dirs[i] = res[i].dir end
    return dirs
  end
  local f = io.open(folder .. "/results.csv", "rb")
  if not f then return dirs end
  local text = f:read("a") or ""
  f:close()
  for key in text:gmatch("\n%d+,(%x+),") do
    if #key == 16 then dirs[#dirs + 1] = folder .. "/cases/" .. key end
  end
  return dirs
end

-- Removes what a bifurcation study wrote into a temporary folder (sweep.run's files: a
-- result file per case, error.txt for a case that raised, results.csv), then the folder.
local function remove_study(folder, tmpname, res)
  for _, dir in ipairs(study_dirs(folder, res)) do
    for _, file in ipairs{ "result", "error.txt" } do os.remove(dir .. "/" .. file) end
    os.remove(dir)
  end
  os.remove(folder .. "/results.csv")
  os.remove(folder .. "/cases")
  os.remove(folder)
  os.remove(tmpname)
end

local bifurcation_known = { values = true, run = true, section = true, progress = true, workers = true,
  folder = true }

-- analysis.bifurcation{ values = {...}, run = function(value) return run end,
--   section = { event, x, y, transient, skip }, progress = false, workers = all cores,
--   folder = a temporary one }
-- -> { { value = v, x = {...}, t = {...}, y = {...} }, ... } in the order of values.
-- A study of the sweep module: each value is a case in a worker process, which calls
-- run(value) and takes the section points of the run.  They come back as a value of the
-- case, the bytes of sweepcore.encode (as sweep.write writes them), decoded here: the same
-- bits as a loop over the values in this process would give.  Values travel between
-- processes, and the ranks of an MPI job, as exactly as files would, with no folder shared;
-- with a folder given, each case also writes its points into its own (sweep.write).  A
-- value may appear more than once: its cases are told apart by the parameter "occurrence"
-- (1 for its first appearance, 2 for the next, ...).
function analysis.bifurcation(o)
  local fname = "analysis.bifurcation"
  if type(o) ~= "table" then fail(2, fname, "expected a table { values = {...}, run = function(v) ... end, section = {...} }") end
  check_options(fname, o, bifurcation_known)
  local values = o.values
  if type(values) ~= "table" or #values == 0 then
    fail(2, fname, "field 'values' must be a non-empty list of parameter values (got %s)", typename(values))
  end
  for i = 1, #values do
    if not finite(values[i]) then fail(2, fname, "values[%d] must be a finite number (got %s)", i, tostring(values[i])) end
  end
  if type(o.run) ~= "function" then
    fail(2, fname, "field 'run' must be a function(value) returning a run (got %s)", typename(o.run))
  end
  if o.section == nil then fail(2, fname, "field 'section' is required { event = ..., x = ..., transient = ... }") end
  local sname = fname .. ": field 'section'"
  local event, x, y, transient, skip = section_options(sname, o.section, 3)
  if o.progress ~= nil and type(o.progress) ~= "boolean" then
    fail(2, fname, "field 'progress' must be true or false (got %s)", typename(o.progress))
  end
  local workers = o.workers
  if workers ~= nil and not (finite(workers) and workers == floor(workers) and workers >= 1 and workers <= 4096) then
    fail(2, fname, "field 'workers' must be a whole number from 1 to 4096 (got %s)", tostring(workers))
  end
  local folder = o.folder
  if folder ~= nil and (type(folder) ~= "string" or folder == "") then
    fail(2, fname, "field 'folder' must be a path (got %s)", typename(folder))
  end
  local sweep = require "sweep"
  local encode, decode = require("sweepcore").encode, require("sweepcore").decode
  -- the cases: each value with its occurrence (as table keys, values equal by == count as
  -- one: 1 and 1.0, 0 and -0.0)
  local cases, seen = {}, {}
  for i, v in ipairs(values) do
    seen[v] = (seen[v] or 0) + 1
    cases[i] = { value = v, occurrence = seen[v] }
  end
  local run, keep = o.run, folder ~= nil
  local function case(c, dir)
    local v = c.value
    local r = run(v)
    if not is_run(r) then
      error(fmt("%s: run(%.17g) must return a run (got %s)", fname, v, typename(r)), 0)
    end
    -- called by pcall, the errors of section() carry no position (level 2 is pcall's)
    local ok, s = pcall(section, sname, r, event, x, y, transient, skip, 2)
    if not ok then
      error(fmt("%s: run(%.17g): %s", fname, v, (tostring(s):gsub("^" .. fname .. ": ", ""))), 0)
    end
    if keep then sweep.write(dir .. "/section", s) end
    return { points = #s.t, section = encode(s) }
  end
  local tmpname
  if not keep then folder, tmpname = temporary_folder(fname) end
  local ok, res = pcall(sweep.run, { sweep.list(cases), case = case, name = "bifurcation", folder = folder,
    workers = workers and math.tointeger(workers), resume = keep and "ok" or false,
    progress = o.progress == true and stderr_is_terminal(),
    csv = not keep and folder .. "/results.csv" }) -- (a temporary folder's for remove_study only)
  -- the points, in the order of the values; the first value that failed, as a loop stops there
  local out, err = {}, nil
  if ok then
    local read_ok, read_err = pcall(function()
      for i = 1, #values do
        local row = res[i]
        if row.status ~= "ok" then
          local msg = tostring(row.message)
          if msg:sub(1, #fname + 2) ~= fname .. ": " then
            msg = fmt("%s: run(%.17g) failed: %s", fname, values[i], msg)
          end
          err = msg
          return
        end
        local s, derr = decode(row.section)
        if not s then error("the points of run(" .. fmt("%.17g", values[i]) .. "): " .. derr, 0) end
        out[i] = { value = values[i], x = s.x, y = s.y, t = s.t }
      end
    end)
    if not read_ok then err = fmt("%s: %s", fname, tostring(read_err)) end
  else
    err = tostring(res):gsub("^sweep%.run: ", "")
    if tmpname then err = err:gsub(", kept in [^)]*%)", ")") end
    err = fname .. ": " .. err
  end
  if tmpname then remove_study(folder, tmpname, ok and res or nil) end
  if err then error(err, 2) end
  return out
end

-- ---- portraits and frames -----------------------------------------------------------------

-- analysis.phase(run, x, y) -> the two columns of a phase portrait (say "b.x", "b.vx").
function analysis.phase(run, x, y)
  local fname = "analysis.phase"
  check_run(fname, run, "argument #1")
  return column(fname, run, x, "argument #2"), column(fname, run, y, "argument #3")
end

-- analysis.in_frame(run, body, px, py) -> u, v: the point (px, py) [m, world frame] in
-- the frame of the body (origin at its centre of mass, u along its x axis), row by row:
--   u = cos(phi) (px - x) + sin(phi) (py - y),  v = -sin(phi) (px - x) + cos(phi) (py - y)
function analysis.in_frame(run, body, px, py)
  local fname = "analysis.in_frame"
  check_run(fname, run, "argument #1")
  local bname = body
  if typename(body) == "mech.entity" then
    if body.kind ~= "body" then fail(2, fname, "argument #2 must be a body (got a %s)", body.kind) end
    bname = body.name
  elseif type(body) ~= "string" then
    fail(2, fname, "argument #2 must be a body or a body name (got %s)", typename(body))
  end
  local what = "body '" .. bname .. "'"
  local x = column(fname, run, bname .. ".x", what):table()
  local y = column(fname, run, bname .. ".y", what):table()
  local phi = column(fname, run, bname .. ".phi", what):table()
  local X = column(fname, run, px, "argument #3"):table()
  local Y = column(fname, run, py, "argument #4"):table()
  local u, v, cos = {}, {}, math.cos
  for i = 1, #x do
    local c, s = cos(phi[i]), sin(phi[i])
    local dx, dy = X[i] - x[i], Y[i] - y[i]
    u[i], v[i] = c * dx + s * dy, -s * dx + c * dy
  end
  return u, v
end

-- ---- comparison with a reference run ------------------------------------------------------

-- Index of the largest |v[i]| over i in sel (a list of indices), first one on ties.
local function argmax_abs(v, sel)
  local best, bi = -1, nil
  for _, i in ipairs(sel) do
    local a = abs(v[i])
    if a > best then best, bi = a, i end
  end
  return bi
end

-- analysis.compare(run, reference, channel, { from = t0, to = t1 }) -> see the man page.
function analysis.compare(run, ref, channel, o)
  local fname = "analysis.compare"
  check_run(fname, run, "argument #1")
  check_run(fname, ref, "argument #2 (the reference)")
  local rc = column(fname, run, channel, "argument #3")
  local fc = column(fname, ref, channel, "argument #3 (in the reference)")
  o = check_options(fname, o, { from = true, to = true })
  local t, x, tr, xr = run.t:table(), rc:table(), ref.t:table(), fc:table()
  local n, nr = #t, #tr
  if n == 0 or nr == 0 then fail(2, fname, "the %s has no rows", n == 0 and "run" or "reference") end
  local lo = number_field(fname, o, "from", math.max(t[1], tr[1]))
  local hi = number_field(fname, o, "to", math.min(t[n], tr[nr]))
  if lo > hi then fail(2, fname, "nothing to compare: from = %.9g s is after to = %.9g s", lo, hi) end
  local slack = 1e-12 * math.max(1, abs(lo), abs(hi))
  if lo < tr[1] - slack or hi > tr[nr] + slack then
    fail(2, fname, "the reference covers t = %.9g .. %.9g s only, not %.9g .. %.9g s", tr[1], tr[nr], lo, hi)
  end
  local out = { t = {}, diff = {} }
  local rows, refv = {}, {}
  local j = 1
  for i = 1, n do
    local ti = t[i]
    if ti >= lo - slack and ti <= hi + slack then
      while j < nr - 1 and tr[j + 1] <= ti do j = j + 1 end
      local r
      if nr == 1 then
        r = xr[1]
      else
        local w = (ti - tr[j]) / (tr[j + 1] - tr[j])
        w = math.min(math.max(w, 0), 1) -- rows within the slack of the ends
        r = w == 1 and xr[j + 1] or xr[j] + w * (xr[j + 1] - xr[j])
      end
      local k = #rows + 1
      rows[k], refv[i] = i, r
      out.t[k], out.diff[k] = ti, x[i] - r
    end
  end
  if #rows == 0 then fail(2, fname, "the run has no rows in t = %.9g .. %.9g s", lo, hi) end
  local sum2, kp = 0, 1
  for k, d in ipairs(out.diff) do
    sum2 = sum2 + d * d
    if abs(d) > abs(out.diff[kp]) then kp = k end
  end
  local ip = rows[kp]
  out.peak, out.t_peak = abs(out.diff[kp]), t[ip]
  out.value, out.ref = x[ip], refv[ip]
  out.ratio = x[ip] / refv[ip]
  out.rms = math.sqrt(sum2 / #rows)
  out.from, out.to, out.rows = lo, hi, #rows
  local im = argmax_abs(x, rows)
  local rsel = {}
  for i = 1, nr do
    if tr[i] >= lo - slack and tr[i] <= hi + slack then rsel[#rsel + 1] = i end
  end
  local ir = argmax_abs(xr, rsel)
  out.max = { value = x[im], t = t[im], ref = refv[im], ratio = x[im] / refv[im],
    ref_max = ir and xr[ir], t_ref_max = ir and tr[ir], ratio_max = ir and abs(x[im]) / abs(xr[ir]) }
  return out
end

-- ---- statistics of a list ------------------------------------------------------------------

-- analysis.stats(values) -> { n, min, max, spread, mean, std, absmax, at }: of a list of
-- numbers or a column.  spread = max - min; std is the sample standard deviation (divided
-- by n - 1; 0 for one value); absmax the largest |v|, at its index (the first on ties).
function analysis.stats(values)
  local fname = "analysis.stats"
  local v = values
  if is_column(v) then
    v = v:table()
  elseif type(v) ~= "table" then
    fail(2, fname, "argument #1 must be a list of numbers or a column (got %s)", typename(v))
  end
  local n = #v
  if n == 0 then fail(2, fname, "argument #1 is empty: no statistics") end
  local lo, hi, sum, top, at = huge, -huge, 0, 0, 1
  for i = 1, n do
    local x = v[i]
    if not finite(x) then fail(2, fname, "value %d must be a finite number (got %s)", i, tostring(x)) end
    lo, hi = math.min(lo, x), math.max(hi, x)
    sum = sum + x
    if abs(x) > top then top, at = abs(x), i end
  end
  local mean = sum / n
  local q = 0
  for i = 1, n do q = q + (v[i] - mean) ^ 2 end
  return { n = n, min = lo, max = hi, spread = hi - lo, mean = mean, std = math.sqrt(q / math.max(n - 1, 1)),
    absmax = top, at = at }
end

-- ---- energy accounts ------------------------------------------------------------------------

-- What to put in `record` for analysis.energy.
analysis.energy_channels = { "system.kinetic", "system.gravity", "system.elastic", "system.energy",
  "system.work", "system.applied", "system.dissipated", "system.balance" }

-- Largest |v| of a column.
local function absmax(col)
  return math.max(abs(col:max()), abs(col:min()))
end

-- analysis.energy(run) -> { kinetic = column, ..., accounts = {names}, residual,
-- relative, scale }: every recorded "system.*" channel in joules, under the name after
-- "system.", and how well the balance closes.  scale and relative are nil when no
-- stored energy (system.energy, or kinetic and potential energies) was recorded.
function analysis.energy(run)
  local fname = "analysis.energy"
  check_run(fname, run, "argument #1")
  local out = { accounts = {} }
  for _, name in ipairs(run.channels) do
    local acc = name:match("^system%.(.+)$")
    if acc then
      local col = run:column(name)
      if col.unit == "J" then
        out[acc] = col
        out.accounts[#out.accounts + 1] = acc
      end
    end
  end
  if out.balance == nil then
    fail(2, fname, "channel 'system.balance' was not recorded (record analysis.energy_channels)")
  end
  out.residual = absmax(out.balance)
  if out.energy then
    out.scale = absmax(out.energy)
  else
    local parts = {}
    for _, acc in ipairs(out.potential and { "kinetic", "potential" } or { "kinetic", "gravity", "elastic" }) do
      if out[acc] then parts[#parts + 1] = out[acc]:table() end
    end
    if #parts > 0 then
      local scale = 0
      for i = 1, #parts[1] do
        local e = 0
        for _, p in ipairs(parts) do e = e + p[i] end
        scale = math.max(scale, abs(e))
      end
      out.scale = scale
    end
  end
  if out.scale then -- nil when no stored energy was recorded
    out.relative = out.scale > 0 and out.residual / out.scale or (out.residual == 0 and 0 or huge)
  end
  return out
end

return analysis
