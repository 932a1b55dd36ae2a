-- SPDX-License-Identifier: MIT
-- Figures for clearance studies: equal scales on both axes (aspect = "equal"), labels that
-- stay inside their panel however long, ax:circle and plot.clearance.
--
-- What PLplot drew is read back two ways: plot._report() gives each axes' viewport and
-- window as PLplot reports them (plgvpd, plgvpw) and the panel regions of the layout; and
-- an SVG file gives where cairo put every glyph of every text.
local tap = require "tap"
local plot = require "plot"
local benchmarks = require "benchmarks"

local tmp = os.tmpname()
os.remove(tmp)
mech.mkdir(tmp)

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

-- pixels (device units) across / pixels up of axes k's plot area, and data x / data y
local function ratios(rep, k)
  local a = rep.axes[k]
  local px = (a.vpd[2] - a.vpd[1]) * rep.wdev / ((a.vpd[4] - a.vpd[3]) * rep.hdev)
  return px, (a.vpw[2] - a.vpw[1]) / (a.vpw[4] - a.vpw[3])
end

local function close(a, b) return math.abs(a - b) <= 1e-12 * math.abs(b) end

-- ---- equal aspect ------------------------------------------------------------------------

do
  local fig = plot.figure{ rows = 1, cols = 3, width = 180, height = 70 }
  fig:panel(1):line{ x = { 0, 10 }, y = { 0, 1 } }:set{ aspect = "equal" }           -- wide data
  fig:panel(2):line{ x = { 0, 1 }, y = { -5, 5 } }:set{ aspect = "equal", xlim = { 0, 1 } } -- tall
  local ax3 = fig:panel(3):line{ x = { 0, 1 }, y = { 0, 1 } }
  ax3:inset{ at = { 0.5, 0.1, 0.45, 0.3 }, xlim = { 0, 0.2 }, ylim = { 0, 0.2 }, aspect = "equal" }
  for _, ext in ipairs{ "png", "svg", "pdf" } do
    fig:save(tmp .. "/aspect." .. ext)
    local rep = plot._report()
    for _, k in ipairs{ 1, 2, 4 } do
      local px, data = ratios(rep, k)
      tap.ok(close(px, data), string.format("%s, axes %d: the plot area is %.9g times as wide as high in "
        .. "device units, the data %.9g times", ext, k, px, data))
    end
    local px, data = ratios(rep, 3)
    tap.ok(not close(px, data), ext .. ": a panel without it keeps its own scales")
  end
  local rep = plot._report()
  local w1, w2 = rep.axes[1].vpw, rep.axes[2].vpw
  tap.ok(w1[1] <= 0 and w1[2] >= 10 and w1[3] < -0.5 and w1[4] > 1.5,
    "wide data: x keeps its limits, y is widened around them")
  tap.ok(w2[1] < -0.5 and w2[2] > 1.5 and w2[3] <= -5 and w2[4] >= 5,
    "tall data: y keeps its limits, x (given) is widened around them")
  tap.ok(close((w2[1] + w2[2]) / 2, 0.5), "around their middle")
  tap.like(tostring(fig), "^figure 1x3", "the figure prints")
  tap.raises(function() plot.figure{}:panel(1):set{ aspect = "square" } end,
    "ax:set: field 'aspect' must be", "an unknown aspect")
  tap.raises(function() plot.figure{}:panel(1):set{ xlog = true, aspect = "equal" } end,
    "ax:set: aspect = \"equal\" needs linear axes (xlog and ylog false)", "equal scales need linear axes")
  tap.raises(function()
    local f = plot.figure{}
    f:panel(1):set{ ylog = true }:inset{ at = { 0.1, 0.1, 0.3, 0.3 }, aspect = "equal" }
    f:panel(1):line{ y = { 1, 2 } }
    f:save(tmp .. "/x.png")
  end, "fig:save: panel 1 (inset), aspect = \"equal\" needs linear axes", "an inset on a log panel too")
  local short = plot.figure{ "orbit", x = { -1, 1 }, y = { -2, 2 }, aspect = "equal", width = 100, height = 60 }
  short:save(tmp .. "/short.png")
  local px, data = ratios(plot._report(), 1)
  tap.ok(close(px, data), "the shorthand takes aspect too")
end

-- ---- labels inside their panel -----------------------------------------------------------

-- The glyphs of an SVG file, grouped by the text (cairo's <g>) they belong to: the
-- bounding box of each group's glyph outlines, in mm from the page's lower left corner.
local function svg_texts(path, height_mm)
  local s = read(path)
  local boxes = {}
  for id, body in s:gmatch('<symbol overflow="visible" id="([^"]+)">(.-)</symbol>') do
    local b = { math.huge, math.huge, -math.huge, -math.huge }
    local nums = {}
    for v in (body:match(' d="([^"]*)"') or ""):gmatch("%-?[%d.]+") do nums[#nums + 1] = tonumber(v) end
    for i = 1, #nums - 1, 2 do
      b[1], b[3] = math.min(b[1], nums[i]), math.max(b[3], nums[i])
      b[2], b[4] = math.min(b[2], nums[i + 1]), math.max(b[4], nums[i + 1])
    end
    boxes[id] = b
  end
  local mm = 25.4 / 72
  local texts = {}
  for body in s:gmatch('<g style="fill:[^"]*">(.-)</g>') do
    local t = { math.huge, math.huge, -math.huge, -math.huge }
    for id, x, y in body:gmatch('<use xlink:href="#([^"]+)" x="([^"]+)" y="([^"]+)"/>') do
      local b = boxes[id]
      if b and b[1] <= b[3] then
        x, y = tonumber(x), tonumber(y)
        t[1], t[3] = math.min(t[1], (x + b[1]) * mm), math.max(t[3], (x + b[3]) * mm)
        -- SVG y grows downwards
        t[2], t[4] = math.min(t[2], height_mm - (y + b[4]) * mm), math.max(t[4], height_mm - (y + b[2]) * mm)
      end
    end
    if t[1] <= t[3] then texts[#texts + 1] = t end
  end
  return texts
end

local function inside(t, r, tol)
  return t[1] >= r[1] - tol and t[2] >= r[2] - tol and t[3] <= r[3] + tol and t[4] <= r[4] + tol
end

local function check_fit(fig, name, what)
  local path = tmp .. "/" .. name .. ".svg"
  fig:save(path)
  local rep = plot._report()
  local texts = svg_texts(path, rep.height)
  local out, worst = 0, 0
  for _, t in ipairs(texts) do
    local ok = false
    for _, a in ipairs(rep.axes) do ok = ok or inside(t, a.cell, 0.3) end
    -- the figure's title: above the panels, within the page
    ok = ok or (inside(t, { 0, rep.axes[1].cell[4], rep.width, rep.height }, 0.3))
    if not ok then
      out = out + 1
      worst = math.max(worst, t[3] - rep.width, -t[1])
    end
  end
  tap.ok(#texts > 10, string.format("%s: the SVG holds %d texts", what, #texts))
  tap.is(out, 0, string.format("%s: every text lies within one panel (or the title's row)", what))
  fig:save(tmp .. "/" .. name .. ".png") -- to look at
  return rep
end

do
  local long = string.rep("a long label that goes on and on ", 6)
  local fig = plot.figure{ rows = 2, cols = 2, width = 160, height = 110, title = "Figure: " .. long }
  for i = 1, 4 do
    local ax = fig:panel(i)
    ax:line{ x = { 1, 2, 3 }, y = { 1, 4, 9 }, label = "legend " .. i .. ": " .. long }
    ax:line{ x = { 1, 2, 3 }, y = { 2, 3, 4 }, label = "short" }
    ax:set{ title = "Panel " .. i .. " " .. long, xlabel = "x^2 " .. long, ylabel = "y [m/s^2] " .. long }
  end
  fig:panel(4):inset{ at = { 0.55, 0.1, 0.4, 0.35 }, title = "inset " .. long, xlabel = long, ylabel = long }
  local rep = check_fit(fig, "long", "absurdly long labels")
  local cut, shrunk, legends = 0, 0, 0
  for _, t in ipairs(rep.texts) do
    if t.cut then cut = cut + 1 end
    if t.kind == "title" and t.axes == 1 and t.pt < 10 then shrunk = shrunk + 1 end
    if t.kind == "legend" and t.cut then legends = legends + 1 end
    if t.kind ~= "tick" and t.axes > 0 then -- along its direction
      local c, v = rep.axes[t.axes].cell, t.kind == "ylabel"
      local lo, hi = v and t.y0 or t.x0, v and t.y1 or t.x1
      tap.ok(lo >= (v and c[2] or c[1]) - 1e-9 and hi <= (v and c[4] or c[3]) + 1e-9,
        string.format("panel text %s of axes %d is planned within its panel", t.kind, t.axes))
    end
    tap.ok(t.pt >= 0.7 * 8 - 1e-9, "no text shrinks below 70 % of its font (" .. t.pt .. " pt)")
  end
  tap.ok(cut >= 17, "long texts are cut with an ellipsis (" .. cut .. ")")
  tap.ok(shrunk == 1, "after shrinking their font")
  tap.is(legends, 4, "each long legend entry is cut")
  for _, t in ipairs(rep.texts) do
    if t.kind == "legend" then
      local b = rep.axes[t.axes].box
      tap.ok(t.x1 <= b[3] + 1e-9, "legend entries stay inside the plot area")
      break
    end
  end

  -- labels that fit are left alone
  local plain = plot.figure{ rows = 1, cols = 2, width = 160, height = 70, title = "Slider" }
  plain:panel(1):line{ x = { 0, 1 }, y = { 0, 1 }, label = "ideal" }:set{ title = "a", xlabel = "t [s]", ylabel = "x [m]" }
  plain:panel(2):line{ x = { 0, 1 }, y = { 0, 1 } }:set{ title = "b", xlabel = "t [s]", ylabel = "v [m/s]" }
  local r2 = check_fit(plain, "plain", "short labels")
  local changed = 0
  for _, t in ipairs(r2.texts) do
    if t.cut or (t.kind ~= "title" or t.axes > 0) and t.pt ~= 10 then changed = changed + 1 end
  end
  tap.is(changed, 0, "short labels keep their font and their text")
end

-- ---- ax:circle and plot.clearance ---------------------------------------------------------

do
  local ax = plot.figure{}:panel(1)
  tap.is(ax:circle{ radius = 2, center = { 1, -1 }, label = "bearing", style = "dashed" }, ax,
    "ax:circle returns the axes")
  tap.like(tostring(ax), "1 series", "a circle is a line series")
  tap.raises(function() ax:circle{ radius = -1 } end,
    "ax:circle: field 'radius' must be a positive number up to 1e300 (got -1)", "a negative radius")
  tap.raises(function() ax:circle{} end, "ax:circle: field 'radius'", "a radius is required")
  tap.raises(function() ax:circle{ radius = 1, center = { 0, 1e308 } } end,
    "ax:circle: field 'center' must be within -1e300 to 1e300", "a centre too far")
  tap.raises(function() ax:circle{ radius = 1, marker = "dot" } end, "marker", "a misspelled field")
end

do
  local sys = benchmarks.a{ speed = mech.rpm(5000), clearance = benchmarks.a_clearance() }
  local run = sys:simulate{ t = 0.003, report = 1e-5, record = { "pin.exb", "pin.eyb", "pin.ex" } }
  local fig, ax = plot.clearance{ run, joint = "pin", title = "Journal centre" }
  tap.like(tostring(ax), "^panel 1 'Journal centre': 2 series %(x: eccentricity along x %[mm%], "
    .. "y: eccentricity along y %[mm%]%)", "plot.clearance: a panel with the circle and the path")
  check_fit(fig, "clearance", "plot.clearance")
  local rep = plot._report()
  local px, data = ratios(rep, 1)
  tap.ok(close(px, data), "at equal scales")
  local w = rep.axes[1].vpw
  tap.ok(w[1] <= -0.575 and w[2] >= 0.575 and w[3] <= -0.575 and w[4] >= 0.575 + 0.3,
    "showing 1.15 c around the centre, and room above for the legend")
  local f2 = plot.clearance{ run, joint = "pin", clearance = 1e-3, unit = "um", legend = false }
  f2:save(tmp .. "/clearance_um.png")
  local w2 = plot._report().axes[1].vpw
  tap.ok(close(w2[3], -w2[4]) and w2[4] >= 1150, "clearance and unit given; no legend, no room for it")
  tap.raises(function() plot.clearance{ run, joint = "pin", frame = "world" } end,
    "plot.clearance: channel 'pin.ey' was not recorded: record { \"pin.ex\", \"pin.ey\" } in sys:simulate",
    "a channel not recorded")
  tap.raises(function() plot.clearance{ run, joint = "guide" } end,
    "plot.clearance: the run states no clearance for joint 'guide' (give clearance = c, in metres)",
    "a joint without clearance")
  tap.raises(function() plot.clearance{ run } end, "plot.clearance: field 'joint' must be", "no joint")
  tap.raises(function() plot.clearance{ joint = "pin" } end, "plot.clearance: [1] must be a run", "no run")
  tap.raises(function() plot.clearance(run) end, "plot.clearance: expected a table", "not a table")
  tap.raises(function() plot.clearance{ run, joint = "pin", jiont = 1 } end,
    "plot.clearance: unknown field 'jiont'", "a misspelled field")
  tap.raises(function() plot.clearance{ run, joint = "pin", unit = "in" } end,
    "plot.clearance: field 'unit' must be", "an unknown unit")
  tap.raises(function() plot.clearance{ run, joint = "pin", clearance = -1 } end,
    "plot.clearance: field 'clearance' must be a positive number", "a negative clearance")
  tap.raises(function() plot.clearance{ run, joint = "pin", from = 1, to = 2 } end,
    "plot.clearance: the run has no rows from 1 to 2 s", "a time window with no rows")
end

if os.getenv("KEEP") then print("# kept " .. tmp) else os.execute(string.format("rm -rf %q", tmp)) end
tap.done()
