-- SPDX-License-Identifier: MIT
-- User numbers that become counts, indices or options (issue 14, item 6): each is
-- range-checked before it is converted, so that a number out of range is a Lua error
-- naming the field, never a conversion that overflows (undefined behaviour, which the
-- sanitizer build of make check stops at with -fsanitize=float-cast-overflow) or that
-- silently wraps or truncates.
local tap = require "tap"
local plot = require "plot"
local fft = require "fft"
local analysis = require "analysis"

-- Numbers at and beyond the edges of the integer types they could be converted to.
local extremes = { 1e300, -1e300, 2.0 ^ 31, -2.0 ^ 31 - 1, 2.0 ^ 63, -2.0 ^ 64, 2 ^ 32 + 1,
  math.maxinteger, math.mininteger, 0.5, -0.5, 1e-320, -0.0, 4294967297.5 }

local function model()
  local sys = mech.planar{}
  local b = sys:body{ name = "b", mass = 1, inertia = 1, velocity = { 1, 0 } }
  return sys, b
end

do -- the direction of an event is -1, 0 or 1: other numbers were truncated to an int
  local sys = model()
  for _, d in ipairs{ 0.5, -0.5, 2, 1e300, -1e300, 2 ^ 32 + 1 } do
    tap.raises(function()
      sys:simulate{ t = 0.01, events = { { channel = "b.x", value = 0.005, direction = d } } }
    end, string.format("sys:simulate: events[1]: field 'direction' must be -1, 0 or 1 (got %g)", d),
      string.format("events direction = %g is refused", d))
  end
  local run = sys:simulate{ t = 0.01, report = 0.001, record = { "b.x" },
    events = { { name = "half", channel = "b.x", value = 0.005, direction = 1.0 } } }
  tap.is(#run.events, 1, "direction = 1.0 (a float with an integer value) is 1")
end

do -- mech.isatty takes 0, 1, 2: 2^32 + 1 used to wrap to file descriptor 1
  for _, fd in ipairs{ 2 ^ 32, 2 ^ 32 + 1, 2 ^ 32 + 2, -2 ^ 32, math.mininteger } do
    tap.raises(function() mech.isatty(fd) end, "expected 0, 1, 2",
      string.format("mech.isatty(%d) is refused", fd))
  end
end

-- Every numeric field below, given each extreme, returns or raises a Lua error.  A
-- conversion that overflows would stop the sanitizer run of this test.
local function sweep(name, call, values)
  local raised, returned = 0, 0
  values = values or extremes
  for _, v in ipairs(values) do
    local ok = pcall(call, v)
    if ok then returned = returned + 1 else raised = raised + 1 end
  end
  tap.ok(raised + returned == #values, string.format("%s: %d extremes refused, %d taken",
    name, raised, returned))
end

local x, y = { 1, 2, 3 }, { 1, 3, 2 }
local tmp = os.tmpname()
for _, f in ipairs{ "rows", "cols", "width", "height", "dpi", "font" } do
  sweep("plot.figure " .. f, function(v)
    local fig = plot.figure{ [f] = v }
    fig:panel(1):line{ x = x, y = y }
    fig:save(tmp .. ".png")
  end)
end
for _, f in ipairs{ "width", "color" } do
  sweep("ax:line " .. f, function(v) plot.figure{}:panel(1):line{ x = x, y = y, [f] = v } end)
end
sweep("ax:scatter size", function(v) plot.figure{}:panel(1):scatter{ x = x, y = y, size = v } end)
sweep("fig:panel", function(v) plot.figure{ rows = 2 }:panel(v) end)
sweep("fig:panel row, col", function(v) plot.figure{ rows = 2 }:panel(1, v) end)
sweep("ax:inset at", function(v)
  plot.figure{}:panel(1):line{ x = x, y = y }:inset{ at = { v, 0.1, 0.2, 0.2 } }
end)
sweep("ax:set xlim", function(v)
  local fig = plot.figure{}
  fig:panel(1):line{ x = x, y = y }:set{ xlim = { v, 1e300 } }
  fig:save(tmp .. ".svg")
end)
sweep("fft.spectrum dt", function(v) fft.spectrum({ 1, 2, 3, 4 }, { dt = v }) end)
sweep("mech.mesh.rectangle nx", function(v) mech.mesh.rectangle{ size = { 1, 1 }, nx = v, ny = 1 } end)
sweep("mech.mesh.rectangle ny", function(v) mech.mesh.rectangle{ size = { 1, 1 }, nx = 1, ny = v } end)
sweep("fe:frequencies n", function(v)
  local sys = mech.planar{}
  local fe = sys:flexible{ name = "s", mesh = mech.mesh.rectangle{ size = { 1, 1 }, nx = 1, ny = 1 },
    E = 1e3, density = 1 }
  fe:frequencies{ n = v }
end)
for _, f in ipairs{ "t", "report", "rtol", "atol", "max_step" } do
  sweep("sys:simulate " .. f, function(v)
    local sys = model()
    sys:simulate{ t = f == "t" and v or 0.01, [f] = f ~= "t" and v or nil, quiet = true }
  end)
end
sweep("sys:simulate rk4 h", function(v)
  local sys = model()
  sys:simulate{ t = 0.01, method = "rk4", h = v, report = 0.01 }
end)
sweep("sys:simulate bdf max_order", function(v)
  local sys = model()
  sys:simulate{ t = 0.01, method = "bdf", max_order = v }
end)
sweep("sys:simulate events period", function(v)
  local sys = model()
  sys:simulate{ t = 0.01, events = { { channel = "b.x", value = 0, period = v, direction = 1 } } }
end)
for _, f in ipairs{ "t", "every", "transient", "d0" } do
  sweep("sys:lyapunov " .. f, function(v)
    local sys = mech.planar{}
    local b = sys:body{ name = "b", mass = 1, inertia = 1, velocity = { 1, 0 } }
    sys:spring{ sys.ground, b, k = 1 }
    local o = { t = 1, every = 0.5 }
    o[f] = v
    sys:lyapunov(o)
  end)
end
do
  local sys = model()
  local run = sys:simulate{ t = 0.01, report = 0.005, record = { "b.x" } }
  sweep("column index", function(v) return run["b.x"][v] end)
  sweep("col:at", function(v) return run["b.x"]:at(v) end)
  sweep("analysis.peaks n", function(v)
    analysis.peaks({ freq = { 0, 1, 2, 3 }, amp = { 0, 1, 0, 2 } }, v)
  end)
end

do -- as many peaks as can be: n + 1 used to wrap to math.mininteger, a loop of 2^63
  local p = analysis.peaks({ freq = { 0, 1, 2, 3 }, amp = { 0, 1, 0, 2 } }, math.maxinteger)
  tap.is(#p, 2, "analysis.peaks(s, math.maxinteger): every peak")
end
os.remove(tmp .. ".png")
os.remove(tmp .. ".svg")
os.remove(tmp)

tap.done()
