-- SPDX-License-Identifier: MIT
-- fft.spectrum and analysis.spectrum / analysis.peaks on signals with known spectra.
local tap = require "tap"
local fft = require "fft"
local analysis = require "analysis"

local N, dt = 1000, 1e-3 -- 1 s at 1 kHz: bins every 1 Hz, Nyquist 500 Hz
local tau = 2 * math.pi

-- Samples of sum_k a_k sin(2 pi f_k t + p_k) + c, t = (i - 1) dt.
local function signal(comps, c, n, step)
  local y = {}
  for i = 1, n or N do
    local t, v = (i - 1) * (step or dt), c or 0
    for _, s in ipairs(comps) do v = v + s[2] * math.sin(tau * s[1] * t + (s[3] or 0)) end
    y[i] = v
  end
  return y
end

-- Largest amplitude outside the listed bins (Lua indices).
local function leak(amp, skip)
  local w = 0
  for k = 1, #amp do
    if not skip[k] then w = math.max(w, amp[k]) end
  end
  return w
end

do -- three sines at bin frequencies, rectangular window: exact amplitudes, nothing else
  local y = signal{ { 50, 2.0, 0.3 }, { 120, 0.7, 1.9 }, { 333, 0.25, -0.8 } }
  local f, a = fft.spectrum(y, { dt = dt, window = "none", detrend = "none" })
  tap.is(#f, N / 2 + 1, "bins 0 .. N/2")
  -- freq[k] = (k - 1) / (N dt): 1 Hz steps; the products are exact to a few ulps
  tap.near(f[51], 50, 1e-12, "bin 51 is 50 Hz")
  tap.near(f[#f], 500, 1e-12, "the last bin is the Nyquist frequency")
  -- an FFT of 1000 points rounds at ~ eps log2(N) |y| ~ 1e-14: 1e-12 is a wide margin
  tap.near(a[51], 2.0, 1e-12, "50 Hz: amplitude 2")
  tap.near(a[121], 0.7, 1e-12, "120 Hz: amplitude 0.7")
  tap.near(a[334], 0.25, 1e-12, "333 Hz: amplitude 0.25 (phase does not matter)")
  tap.ok(leak(a, { [51] = true, [121] = true, [334] = true }) < 1e-12,
    string.format("every other bin is empty (%.1e)", leak(a, { [51] = true, [121] = true, [334] = true })))
  local p = analysis.peaks({ freq = f, amp = a }, 3, { interpolation = "none" })
  tap.ok(#p == 3 and p[1].freq == 50 and p[2].freq == 120 and p[3].freq == 333,
    "peaks: 50, 120, 333 Hz by decreasing amplitude")
  local lp = analysis.peaks({ freq = f, amp = a, window = "none" }, 1)[1]
  -- linear interpolation (the default for window = "none") between neighbours ~1e-16
  tap.ok(math.abs(lp.freq - 50) < 1e-12 and math.abs(lp.amp - 2) < 1e-12,
    string.format("interpolated, still on the bin (%.1e Hz)", lp.freq - 50))
  local gp = analysis.peaks({ freq = f, amp = a }, 1, { interpolation = "log" })[1]
  -- in log scale those rounding-level neighbours tilt the parabola: ~1e-3 bin at most
  tap.ok(math.abs(gp.freq - 50) < 1e-2, string.format("log interpolation is off by %.1e Hz", gp.freq - 50))
end

do -- every window reads the amplitude of a bin-frequency sine: coherent-gain correction
  local y = signal{ { 80, 1.5, 0.4 } }
  for _, w in ipairs{ "none", "hann", "hamming", "blackman" } do
    local _, a = fft.spectrum(y, { dt = dt, window = w })
    -- the periodic windows sum to exactly N/2, 0.54 N, 0.42 N: rounding only
    tap.near(a[81], 1.5, 1e-12, "window " .. w .. ": amplitude 1.5 at 80 Hz")
  end
  local _, a = fft.spectrum(y, { dt = dt }) -- defaults: Hann, mean removed
  -- Hann spreads a bin-frequency sine over 3 bins: half the amplitude on each neighbour
  tap.near(a[80], 0.75, 1e-12, "Hann: A/2 on the bin below")
  tap.near(a[82], 0.75, 1e-12, "and on the bin above")
  tap.ok(leak(a, { [80] = true, [81] = true, [82] = true }) < 1e-12, "and nothing further")
end

do -- two at bins and one between bins, Hann window and log-parabolic interpolation
  local f0 = 333.3 -- 0.3 bin above bin 333
  local y = signal{ { 50, 2.0 }, { 120, 0.7, 1.0 }, { f0, 0.4, 0.3 } }
  local s = analysis.spectrum(y, { dt = dt })
  tap.is(s.n, N, "analysis.spectrum: n samples")
  tap.is(s.window, "hann", "Hann by default")
  local p = analysis.peaks(s, 3)
  tap.is(#p, 3, "three peaks")
  -- the other sines leak into a bin-frequency Hann peak through sidelobes that fall as
  -- 1/d^3: from 70 bins away, ~ 1e-7 of their amplitude
  tap.ok(math.abs(p[1].freq - 50) < 1e-6 and math.abs(p[1].amp - 2) < 1e-6,
    string.format("50 Hz, 2.0 (%.9f Hz, %.9f)", p[1].freq, p[1].amp))
  tap.ok(math.abs(p[2].freq - 120) < 1e-6 and math.abs(p[2].amp - 0.7) < 1e-6,
    string.format("120 Hz, 0.7 (%.9f Hz, %.9f)", p[2].freq, p[2].amp))
  -- log-parabolic interpolation on Hann: bias at most 0.016 bin in frequency and 3.8 %
  -- in amplitude over all offsets (measured on single sines, worst at 1/4 and 1/2 bin)
  tap.ok(math.abs(p[3].freq - f0) < 0.02, string.format("off-bin %.1f Hz within 0.02 Hz (%.4f Hz)",
    f0, p[3].freq))
  tap.ok(math.abs(p[3].amp / 0.4 - 1) < 0.04, string.format("its amplitude within 4 %% (%.4f)", p[3].amp))
  -- without interpolation the bin itself, 0.3 bin off the sine: the Hann response there
  -- is sinc(0.3) / (1 - 0.3^2) = 0.9432 (the scallop loss); the neighbours leak ~1e-4
  local raw = analysis.peaks(s, 3, { interpolation = "none" })[3]
  local d = 0.3
  local W = math.sin(math.pi * d) / (math.pi * d) / (1 - d * d)
  tap.ok(raw.freq == 333 and math.abs(raw.amp - 0.4 * W) < 1e-3,
    string.format("interpolation = none: the bin's own values (%.6f, Hann response %.6f)", raw.amp, 0.4 * W))
  tap.ok(math.abs(p[3].freq - f0) < 0.2 * math.abs(raw.freq - f0),
    "interpolation removes most of the frequency error")
  local lin = analysis.peaks(s, 3, { interpolation = "linear" })[3]
  tap.ok(math.abs(lin.freq - f0) < 0.1, string.format("linear interpolation is within 0.1 bin (%.4f Hz)", lin.freq))
  -- the sidelobes of a Hann peak, sampled at whole bins, fall monotonically: no more peaks
  tap.is(#analysis.peaks(s, 10), 3, "asking for 10 peaks gives the 3 there are")
  tap.is(#analysis.peaks({ freq = { 0, 1, 2 }, amp = { 0, 1, 0 } }, 5), 1,
    "fewer when there are fewer")
end

do -- DC and detrending
  local y = signal({ { 60, 1.0 } }, 3.5)
  local _, raw = fft.spectrum(y, { dt = dt, window = "none", detrend = "none" })
  tap.near(raw[1], 3.5, 1e-12, "detrend = none keeps the mean in bin 0")
  local _, a = fft.spectrum(y, { dt = dt, window = "none" })
  -- the mean of 1000 samples is removed to rounding: ~ 1e-15 of 3.5
  tap.ok(a[1] < 1e-13, string.format("detrend = mean (the default) empties bin 0 (%.1e)", a[1]))
  tap.near(a[61], 1.0, 1e-12, "and leaves the sine alone")
  local s = analysis.spectrum(y, { dt = dt, window = "none", detrend = "none" })
  tap.is(analysis.peaks(s, 1)[1].freq, 60, "peaks skip the DC bin by default")
  tap.is(analysis.peaks(s, 1, { dc = true })[1].freq, 0, "and include it with dc = true")
  local ramp = {}
  for i = 1, N do ramp[i] = 0.2 + 4 * (i - 1) * dt end
  local _, lin = fft.spectrum(ramp, { dt = dt, window = "none", detrend = "linear" })
  -- a line fitted to a line: what is left is rounding of values ~ 4
  tap.ok(leak(lin, {}) < 1e-12, string.format("detrend = linear removes a ramp (%.1e)", leak(lin, {})))
  local _, mean = fft.spectrum(ramp, { dt = dt, window = "none", detrend = "mean" })
  -- a sawtooth of height 4 has harmonics 4 / (pi k): 1.27 at the first bin
  tap.ok(mean[2] > 1, "which the mean alone leaves as a sawtooth")
end

do -- Nyquist bin and odd lengths
  local alt = {}
  for i = 1, 8 do alt[i] = (i % 2 == 1) and 0.5 or -0.5 end
  local f, a = fft.spectrum(alt, { dt = 0.5, window = "none" })
  tap.is(#f, 5, "8 samples: 5 bins")
  tap.near(f[5], 1, 1e-15, "the last one at 1 / (2 dt)")
  tap.near(a[5], 0.5, 1e-15, "the Nyquist bin is not doubled: +-0.5 reads 0.5")
  local y = signal({ { 3, 1.0 } }, 0, 9, 1 / 9)
  local fo, ao = fft.spectrum(y, { dt = 1 / 9, window = "none" })
  tap.is(#fo, 5, "9 samples: 5 bins, the last below Nyquist")
  tap.near(ao[4], 1.0, 1e-14, "and doubled like the others")
end

do -- a results column is read in place and gives the same bits as its copy
  local sys = mech.planar{}
  local b = sys:body{ name = "b", mass = 1, inertia = 1, velocity = { 1, 0 } }
  sys:prismatic{ sys.ground, b, axis = { 1, 0 } }
  sys:spring{ sys.ground, b, at = { { -1, 0 }, { 0, 0 } }, k = 400 * math.pi ^ 2 } -- 10 Hz
  local run = sys:simulate{ t = 1, report = 1e-3, rtol = 1e-10, atol = 1e-12, record = { "b.x" } }
  local f1, a1 = fft.spectrum(run["b.x"], { dt = 1e-3 })
  local f2, a2 = fft.spectrum(run["b.x"]:table(), { dt = 1e-3 })
  local same = #a1 == #a2
  for k = 1, #a1 do same = same and a1[k] == a2[k] and f1[k] == f2[k] end
  tap.ok(same, "column and table give identical spectra")
  local s = analysis.spectrum(run, "b.x")
  tap.near(s.dt, 1e-3, 1e-15, "analysis.spectrum takes dt from the run's time column")
  tap.is(s.n, 1001, "over all rows")
  tap.is(s.channel, "b.x", "and names the channel")
  local sc = analysis.spectrum(run["b.x"])
  tap.ok(sc.dt == s.dt and sc.amp[11] == s.amp[11], "a column alone finds its run's time step")
  -- x = sin(2 pi 10 t) / (20 pi): 1000 samples after t = 0 are whole periods
  local tail = analysis.spectrum(run, "b.x", { from = 0.001 })
  tap.is(tail.n, 1000, "from = 0.001 leaves 1000 rows")
  tap.near(tail.amp[11], 1 / (20 * math.pi), 1e-9,
    "10 Hz at the amplitude v0 / w (integration error ~1e-10)")
  tap.is(analysis.peaks(tail, 1)[1].bin, 11, "the peak is at 10 Hz")
end

-- errors name the function, the field and what was expected
local function bad(fn, text, name, ...)
  tap.raises(fn, text, name, ...)
end
bad(fft.spectrum, "fft.spectrum: the signal needs at least 2 samples (got 0)", "empty signal", {}, { dt = 1 })
bad(fft.spectrum, "at least 2 samples (got 1)", "one sample", { 1 }, { dt = 1 })
bad(fft.spectrum, "fft.spectrum: field 'dt' is required", "dt is required", { 1, 2 }, {})
bad(fft.spectrum, "fft.spectrum: field 'dt' must be > 0 (got 0)", "dt = 0", { 1, 2 }, { dt = 0 })
bad(fft.spectrum, "field 'dt' must be > 0 (got -1)", "dt < 0", { 1, 2 }, { dt = -1 })
bad(fft.spectrum, "field 'dt' must be a number (got string)", "dt not a number", { 1, 2 }, { dt = "1" })
bad(fft.spectrum, "fft.spectrum: field 'window' must be one of \"hann\", \"none\", \"hamming\", \"blackman\" (got \"hanning\")",
  "unknown window", { 1, 2 }, { dt = 1, window = "hanning" })
bad(fft.spectrum, "field 'detrend' must be one of \"mean\", \"none\", \"linear\" (got \"cubic\")",
  "unknown detrend", { 1, 2 }, { dt = 1, detrend = "cubic" })
bad(fft.spectrum, "fft.spectrum: y[2] must be a number (got string)", "a non-number sample", { 1, "x", 3 }, { dt = 1 })
bad(fft.spectrum, "y[3] must be finite (got inf)", "a non-finite sample", { 1, 2, math.huge }, { dt = 1 })
bad(fft.spectrum, "unknown field 'step'", "a misspelled field", { 1, 2 }, { step = 1 })
bad(fft.spectrum, "argument #1 must be a results column or a list of numbers (got nil)", "no signal", nil, { dt = 1 })
bad(fft.spectrum, "fft.spectrum: expected a table of options", "no options", { 1, 2 })
bad(analysis.spectrum, "analysis.spectrum: field 'window' must be one of", "analysis.spectrum names itself",
  { 1, 2 }, { dt = 1, window = "box" })
bad(analysis.spectrum, "analysis.spectrum: field 'dt' is required for a list of samples", "a list needs dt", { 1, 2 })
bad(analysis.spectrum, "analysis.spectrum: field 'dt' must be a number of seconds > 0 (got 0)", "dt = 0", { 1, 2 }, { dt = 0 })
bad(analysis.spectrum, "analysis.spectrum: unknown field 'windw'", "misspelled option", { 1, 2 }, { dt = 1, windw = "hann" })
bad(analysis.spectrum, "argument #1 must be a run, a results column or a list of numbers (got number)",
  "not a signal", 3, { dt = 1 })
bad(analysis.peaks, "analysis.peaks: argument #1 must be a spectrum", "peaks of nothing", nil)
bad(analysis.peaks, "argument #2 must be a number of peaks >= 1 (got 0)", "zero peaks",
  { freq = { 0, 1 }, amp = { 1, 2 } }, 0)
bad(analysis.peaks, "field 'interpolation' must be \"log\", \"linear\" or \"none\" (got \"cubic\")",
  "unknown interpolation", { freq = { 0, 1 }, amp = { 1, 2 } }, 1, { interpolation = "cubic" })
bad(analysis.peaks, "as many frequencies as amplitudes", "mismatched lists", { freq = { 0, 1 }, amp = { 1, 2, 3 } })

tap.done()
