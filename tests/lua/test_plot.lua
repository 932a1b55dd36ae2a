-- SPDX-License-Identifier: MIT
-- The plot module: each format gives a valid file of the size asked for, a failed save
-- leaves nothing behind, every validation error names the function, the field and what
-- was expected, a million points plot, and every kind of figure saves.
local tap = require "tap"
local plot = require "plot"

local tmp = os.tmpname()
os.remove(tmp)
mech.mkdir(tmp)

local function slurp(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

-- The names in a folder, sorted, as one string (to see that nothing was left behind).
local function listing(dir)
  local p = assert(io.popen("ls -A '" .. dir .. "' 2>/dev/null"))
  local s = p:read("a")
  p:close()
  return s
end

local function round(x) return math.floor(x + 0.5) end

-- Width and height from a PNG's IHDR chunk, or nil if it does not start as a PNG.
local function png_size(s)
  if not s or s:sub(1, 8) ~= "\137PNG\r\n\26\n" or s:sub(13, 16) ~= "IHDR" then return nil end
  return string.unpack(">I4I4", s, 17)
end

-- A PNG is complete when it ends with the IEND chunk.
local function png_ok(path)
  local s = slurp(path)
  return png_size(s) ~= nil and s:sub(-8, -5) == "IEND"
end

local function series(n, f)
  local x, y = {}, {}
  for i = 1, n do x[i], y[i] = i, f(i) end
  return x, y
end

local x, y = series(200, function(i) return math.sin(i / 10) end)

do -- formats and sizes
  local fig = plot.figure{ "size", x = x, y = y, xlabel = "t [s]", ylabel = "a [m/s^2]" }
  local path = tmp .. "/size.png"
  tap.is(fig:save(path), path, "fig:save returns the path")
  local w, h = png_size(slurp(path))
  -- defaults 160 x 100 mm at 300 dpi: 160 / 25.4 * 300 = 1889.8, 100 / 25.4 * 300 = 1181.1
  tap.is(w, round(160 / 25.4 * 300), "PNG width: 160 mm at 300 dpi, to the pixel")
  tap.is(h, round(100 / 25.4 * 300), "PNG height: 100 mm at 300 dpi, to the pixel")
  tap.ok(png_ok(path), "the PNG ends with its IEND chunk")

  local small = plot.figure{ "small", x = x, y = y, width = 90, height = 60, dpi = 150 }
  small:save(tmp .. "/small.png")
  w, h = png_size(slurp(tmp .. "/small.png"))
  tap.ok(w == round(90 / 25.4 * 150) and h == round(60 / 25.4 * 150),
    "width, height and dpi set the pixels: 90 x 60 mm at 150 dpi is 531 x 354")

  -- PDF: PLplot takes the page in whole points, so the box is the size to within 1 pt
  fig:save(tmp .. "/size.pdf")
  local pdf = slurp(tmp .. "/size.pdf")
  tap.is(pdf:sub(1, 5), "%PDF-", "the PDF starts with %PDF-")
  tap.like(pdf, "%%%%EOF\n?$", "and ends with %%EOF")
  local pw, ph = pdf:match("/MediaBox %[ *0 +0 +([%d.]+) +([%d.]+) *%]")
  tap.near(tonumber(pw), 160 / 25.4 * 72, 1, "MediaBox width: 160 mm = 453.5 pt")
  tap.near(tonumber(ph), 100 / 25.4 * 72, 1, "MediaBox height: 100 mm = 283.5 pt")

  -- SVG: cairo states the size in points ("454pt"), rounded like the PDF's
  fig:save(tmp .. "/size.svg")
  local svg = slurp(tmp .. "/size.svg")
  local tag = svg:match("<svg[^>]*>")
  tap.ok(tag ~= nil, "the SVG has an <svg> element")
  tap.like(svg, "</svg>%s*$", "and ends with its closing tag")
  local sw, sh = (tag or ""):match('width="([%d.]+)pt" height="([%d.]+)pt"')
  tap.near(tonumber(sw), 160 / 25.4 * 72, 1, "SVG width in pt")
  tap.near(tonumber(sh), 100 / 25.4 * 72, 1, "SVG height in pt")

  fig:save(tmp .. "/size.png")
  fig:save(tmp .. "/size.png")
  tap.ok(png_ok(tmp .. "/size.png"), "a figure saves again and again (one PLplot stream per save)")
end

do -- failed writes leave nothing behind
  local fig = plot.figure{ "fail", x = x, y = y }
  local before = listing(tmp)
  tap.raises(function() fig:save(tmp .. "/no/such/folder/f.png") end,
    "fig:save: cannot write '" .. tmp .. "/no/such/folder/f.png': No such file or directory; "
    .. "the folder '" .. tmp .. "/no/such/folder' does not exist: create it first with mech.mkdir(\""
    .. tmp .. "/no/such/folder\")",
    "a folder that does not exist: the error names the path and the reason, and how to make it")
  local msg = select(2, pcall(fig.save, fig, "/proc/mechlua_plot_test.png"))
  tap.ok(not msg:find("mkdir", 1, true), "a folder that exists gets no such advice")
  tap.raises(function() fig:save("/proc/mechlua_plot_test.png") end,
    "fig:save: cannot write '/proc/mechlua_plot_test.png': ", "a folder that cannot be written")
  tap.is(listing("/proc"):find("mechlua_plot_test", 1, true), nil, "nothing appears in /proc")
  -- drawn completely, then the rename fails: the target is a folder
  mech.mkdir(tmp .. "/taken.png")
  tap.raises(function() fig:save(tmp .. "/taken.png") end,
    "fig:save: cannot write '" .. tmp .. "/taken.png': ", "a target that cannot be replaced")
  os.remove(tmp .. "/taken.png")
  tap.is(listing(tmp), before, "no file and no temporary file is left in the folder")
end

do -- validation errors
  local fig = plot.figure{ rows = 2, cols = 2 }
  local ax = fig:panel(1)
  local function raises(f, text, name) return tap.raises(f, text, name) end
  raises(function() plot.figure{ rows = 1, colums = 2 } end,
    "plot.figure: unknown field 'colums' (known fields: rows, cols, width, height, dpi, font, title)",
    "unknown figure field")
  raises(function() ax:line{ y = y, colour = "red" } end, "ax:line: unknown field 'colour'",
    "unknown series field")
  raises(function() ax:set{ xlimits = { 0, 1 } } end, "ax:set: unknown field 'xlimits'",
    "unknown setting")
  raises(function() plot.figure{ "t", y = y, rows = 2 } end, "plot.figure: unknown field 'rows'",
    "the shorthand makes one panel")
  raises(function() plot.figure{ rows = 1.5 } end,
    "plot.figure: field 'rows' must be an integer from 1 to 10 (got 1.5)", "rows are whole")
  raises(function() plot.figure{ dpi = 10 } end,
    "plot.figure: field 'dpi' must be from 30 to 2400 (got 10)", "dpi range")
  raises(function() plot.figure{ width = "wide" } end,
    "plot.figure: field 'width' must be a number (got string)", "width is a number")
  raises(function() ax:line{ y = y, color = "rdd" } end,
    "ax:line: field 'color' must be a colour name (black, white, gray,", "unknown colour name")
  raises(function() ax:line{ y = y, color = "#12345g" } end, "(got #12345g)", "bad #rrggbb")
  raises(function() ax:line{ y = y, color = 9 } end, "or a palette index 1 to 8 (got 9)",
    "palette index out of range")
  raises(function() ax:line{ x = { 1, 2, 3 }, y = { 1, 2 } } end,
    "ax:line: x has 3 values but y has 2", "length mismatch names both lengths")
  raises(function() ax:line{ y = {} } end,
    "ax:line: y is empty (a series needs at least one point)", "empty series")
  raises(function() ax:line{ x = { 1, 2 } } end,
    "ax:line: field 'y' is required (a column or an array of numbers)", "y is required")
  raises(function() ax:line{ y = { 1, "2" } } end,
    "ax:line: field 'y' must be an array of numbers (y[2] is string)", "numbers only")
  raises(function() ax:line{ y = "data" } end,
    "ax:line: field 'y' must be a column or an array of numbers (got string)", "y is data")
  raises(function() ax:line{ y = { 1, math.huge, 3 }, label = "a" } end,
    "ax:line: y[2] is infinite (series 'a')", "an infinite value names the series and index")
  raises(function() ax:scatter{ x = { -math.huge, 1 }, y = { 1, 2 } } end,
    "ax:scatter: x[1] is infinite (series #1)", "an unlabelled series is named by its number")
  raises(function() ax:line{ y = y, style = "wavy" } end,
    'ax:line: field \'style\' must be one of "solid", "dashed", "dotted", "dashdot" (got "wavy")',
    "line styles")
  raises(function() ax:scatter{ y = y, marker = "star" } end,
    "ax:scatter: field 'marker' must be one of", "markers")
  raises(function() ax:line{ y = y, width = 0 } end,
    "ax:line: field 'width' must be from 0.05 to 20 pt (got 0)", "line width range")
  raises(function() plot.figure{ "t", y = y, marker = "dot" } end,
    "plot.figure: fields 'marker' and 'size' are for scatter series", "markers are for scatter")
  raises(function() plot.figure{ "t", y = y, kind = "bar" } end,
    "plot.figure: field 'kind' must be one of \"line\", \"scatter\", \"step\" (got \"bar\")",
    "kinds of series")
  raises(function() ax:set{ xlim = { 2, 1 } } end,
    "ax:set: field 'xlim' must be {lo, hi} with lo < hi (got {2, 1})", "increasing limits")
  raises(function() ax:set{ legend = "top" } end,
    "ax:set: field 'legend' must be one of \"upper right\"", "legend positions")
  raises(function() ax:set{ ylog = true, ylim = { 0, 1 } } end,
    "ax:set: field 'ylim' must be positive on a log axis (got {0, 1})", "log limits")

  -- log axes with values that are not positive: the first one is named
  local lg = fig:panel(2):line{ y = { 1, 0, -2 } }
  raises(function() lg:set{ ylog = true } end,
    "ax:set: series #1: ylog needs positive values (y[2] = 0)", "setting a log axis checks")
  local lx = fig:panel(3):set{ xlog = true }
  raises(function() lx:line{ x = { 1, 2, -3 }, y = { 1, 2, 3 }, label = "neg" } end,
    "ax:line: series 'neg': xlog needs positive values (x[3] = -3)", "adding to one checks")
  local lz = plot.figure{ "z", y = { 1, 2 }, ylog = true }
  lz:panel(1):inset{ at = { 0.5, 0.5, 0.4, 0.4 } }:line{ y = { 1, -1 } }
  raises(function() lz:save(tmp .. "/z.png") end,
    "fig:save: panel 1 (inset), series #1: ylog needs positive values (y[2] = -1)",
    "an inset with its panel's log axis is checked when saved")

  raises(function() fig:save(tmp .. "/x.jpg") end,
    "fig:save: '" .. tmp .. "/x.jpg' has an unknown extension (expected .png, .svg or .pdf)",
    "unknown extension")
  raises(function() fig:panel(5) end,
    "fig:panel: panel 5 is out of range 1 to 4 (the figure has 2 x 2)", "panel out of range")
  raises(function() fig:panel(0) end, "fig:panel: panel 0 is out of range", "panels from 1")
  raises(function() fig:panel(3, 1) end, "fig:panel: row 3 is out of range 1 to 2", "row")
  raises(function() fig:panel(1, 3) end, "fig:panel: column 3 is out of range 1 to 2", "column")
  raises(function() fig:panel("a") end,
    "fig:panel: expected a panel number or a row and a column", "panel numbers")
  raises(function() ax:inset{ at = { 0.8, 0, 0.4, 0.4 } } end,
    "ax:inset: field 'at' must be {x0, y0, w, h}", "an inset inside its panel")
  raises(function() ax:inset{ at = { 0, 0, 0.5, 0.5 } }:inset{ at = { 0, 0, 0.5, 0.5 } } end,
    "ax:inset: an inset cannot have insets", "no nested insets")
  raises(function() plot.figure{ width = 20, height = 20, font = 36 }:save(tmp .. "/tiny.png") end,
    "fig:save: the plot areas would be", "a figure too small for its labels")
end

do -- columns: read in place, labelled with their name and unit
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  local bob = sys:body{ name = "bob", mass = 1, inertia = 0.01, at = { 0.5, 0 } }
  sys:revolute{ sys.ground, bob, at = { 0, 0 }, name = "pivot" }
  local run = sys:simulate{ t = 2, report = 1e-3, record = { "bob.x", "bob.vx" } }
  local fig = plot.figure{ "pendulum", x = run.t, y = run["bob.x"] }
  tap.is(tostring(fig:panel(1)), "panel 1 'pendulum': 1 series (x: t [s], y: bob.x [m])",
    "axis labels default to the columns' names and units")
  tap.is(tostring(fig:panel(1):set{ ylabel = "" }), "panel 1 'pendulum': 1 series (x: t [s])",
    "an empty label hides it")
  tap.ok(fig:save(tmp .. "/pendulum.png") and png_ok(tmp .. "/pendulum.png"), "a column plots")
  local closed
  do
    local r <close> = sys:simulate{ t = 0.1, report = 1e-3, record = { "bob.x" } }
    closed = plot.figure{ "closed", x = r.t, y = r["bob.x"] }
  end
  tap.raises(function() closed:save(tmp .. "/closed.png") end,
    "fig:save: the run of a plotted column was freed", "a column of a closed run is an error")
end

do -- a million points: a column of a real run (0.3 s to simulate), then plain arrays
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  local bob = sys:body{ name = "bob", mass = 1, inertia = 0.01, at = { 0.5, 0 } }
  sys:revolute{ sys.ground, bob, at = { 0, 0 } }
  local run = sys:simulate{ t = 1, report = 1e-6, record = { "bob.x", "bob.y" }, quiet = true }
  tap.is(#run, 1000001, "a run of a million rows")
  local fig = plot.figure{ "a million points", x = run.t, y = run["bob.x"] }
  fig:panel(1):inset{ at = { 0.6, 0.6, 0.35, 0.35 }, xlim = { 0.2, 0.3 } }
  fig:save(tmp .. "/million.png")
  tap.ok(png_ok(tmp .. "/million.png"), "1e6 points of a column (with an inset) give a valid PNG")
  plot.figure{ "phase", x = run["bob.x"], y = run["bob.y"] }:save(tmp .. "/phase.pdf")
  tap.like(slurp(tmp .. "/phase.pdf"), "%%%%EOF\n?$", "and along a curve that turns back, in a PDF")
  local n = 1000000
  local u, v = {}, {}
  for i = 1, n do u[i], v[i] = math.cos(i * 1e-3), math.sin(i * 1e-4) end
  local sc = plot.figure{}
  sc:panel(1):scatter{ x = u, y = v, size = 1 }
  sc:save(tmp .. "/scatter.png")
  tap.ok(png_ok(tmp .. "/scatter.png"), "1e6 scattered points from Lua arrays")
  run, u, v = nil, nil, nil
  collectgarbage()
end

do -- every kind of figure
  local fig = plot.figure{ rows = 2, cols = 2, title = "kinds #1: x^2 & <tags>", dpi = 100 }
  local nan = { 1, 2, 0 / 0, 4, 5 }
  local ax = fig:panel(1, 1)
  ax:line{ x = x, y = y, label = "sin", color = "black", width = 0.6, style = "solid" }
    :line{ x = { 10, 40, 70, 100, 130 }, y = nan, label = "with a gap", color = "#d62728",
      style = "dashed" }
  local zoom = ax:inset{ at = { 0.55, 0.08, 0.4, 0.35 }, xlim = { 20, 40 }, ylim = { 0.5, 1.1 } }
  tap.is(getmetatable(zoom), getmetatable(ax), "an inset is an axes")
  zoom:line{ x = { 25, 35 }, y = { 0.6, 1 }, color = 3 }:set{ grid = true }
  fig:panel(1, 2):scatter{ x = y, y = x, label = "Poincaré", color = "red", marker = "dot", size = 1.5 }
    :scatter{ x = x, y = y, label = "circles", marker = "circle", size = 3 }
  local lx, ly = series(60, function(i) return (i / 3) ^ 2.5 end)
  fig:panel(2, 1):line{ x = lx, y = ly, label = "t^{2.5}" }
    :set{ xlog = true, ylog = true, grid = true, legend = "lower right", xlabel = "f [Hz]" }
  local sx, sy = series(12, function(i) return i % 4 end)
  fig:panel(2, 2):step{ x = sx, y = sy, label = "steps", style = "dotted", width = 1 }
    :scatter{ x = sx, y = sy, marker = "square" }
    :set{ legend = false, title = "steps", xlim = { 0, 13 }, ylim = { -1, 4 } }
  tap.like(tostring(fig), "^figure 2x2, 160 x 150 mm: panel 1: 2 series, 1 inset; panel 2: 2 series; "
    .. "panel 3: 1 series; panel 4 'steps': 2 series$", "a figure prints a summary")
  for _, ext in ipairs{ "png", "svg", "pdf" } do
    local path = tmp .. "/kinds." .. ext
    fig:save(path)
    local s = slurp(path) or ""
    tap.ok(#s > 1000 and (ext ~= "png" or png_ok(path)) and (ext ~= "pdf" or s:find("%%EOF", 1, true))
      and (ext ~= "svg" or s:find("</svg>", 1, true)),
      "panels, an inset, log axes, steps and scatter give a valid ." .. ext)
  end
  local w, h = png_size(slurp(tmp .. "/kinds.png"))
  tap.ok(w == round(160 / 25.4 * 100) and h == round(150 / 25.4 * 100),
    "a 2-row figure is 150 mm high by default")
end

os.execute("rm -rf '" .. tmp .. "'")
tap.done()
