-- SPDX-License-Identifier: MIT
-- fft.spectrum against hostile input (issue 14): a step that gives no finite frequency
-- and samples so large that their sums overflow are errors or exact results, never a
-- spectrum of inf and NaN returned as if it were one.
local tap = require "tap"
local fft = require "fft"
local analysis = require "analysis"

tap.raises(function() fft.spectrum({ 1, 2, 3, 4 }, { dt = 1e-320 }) end,
  "fft.spectrum: field 'dt' = 9.99989e-321 gives no finite frequencies for 4 samples",
  "a subnormal dt: 1 / (n dt) would be infinite")
tap.raises(function() fft.spectrum({ 1, 2, 3, 4 }, { dt = 1e308 }) end,
  "fft.spectrum: field 'dt' = 1e+308 gives no finite frequencies for 4 samples",
  "a dt of 1e308: n dt would be infinite")

local function all_finite(list)
  for _, v in ipairs(list) do
    if v ~= v or math.abs(v) == math.huge then return false end
  end
  return true
end

-- a sine of amplitude 1e308 at bin 2 of 8 samples: sums of the samples overflow
local y = {}
for i = 0, 7 do y[i + 1] = 1e308 * math.sin(2 * math.pi * 2 * i / 8) end
local f, a = fft.spectrum(y, { dt = 1, window = "none" })
tap.ok(all_finite(a), "samples of 1e308: finite amplitudes (they used to be NaN)")
tap.near(a[3] / 1e308, 1, 1e-12, "and the sine's amplitude, 1e308, at its bin")
tap.near(f[3], 0.25, 0, "at 2 / (8 dt) = 0.25 Hz")
local square = {}
for i = 1, 8 do square[i] = i <= 4 and 1.7e308 or -1.7e308 end
tap.raises(function() fft.spectrum(square, { dt = 1, window = "none" }) end,
  "fft.spectrum: the amplitude at bin 2 overflows (samples up to 1.7e+308)",
  "a square wave of 1.7e308: its fundamental, 1.31 times that, is an error")
local a2 = select(2, fft.spectrum({ 1, 2, 3, 4, 5, 6, 7, 9 }, { dt = 0.1 }))
local a3 = select(2, fft.spectrum({ 1, 2, 3, 4, 5, 6, 7, 9 }, { dt = 0.1 }))
tap.ok(a2[2] == a3[2] and all_finite(a2), "ordinary samples are transformed as before")

local s = analysis.spectrum(y, { dt = 1, window = "none" })
tap.ok(all_finite(s.amp), "analysis.spectrum: the same")

tap.done()
