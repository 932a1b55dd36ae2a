-- SPDX-License-Identifier: MIT
-- The plot module against hostile input (issue 14): text that is not valid UTF-8 or is
-- full of PLplot's escape character, axis limits that cannot be drawn, data at the ends
-- of the doubles.  Each gives a figure or a Lua error naming what is wrong, never a hang,
-- a crash or a leak (the sanitizer run of make check reports leaks at exit).  Cases that
-- used to hang run in a child mechlua under a watchdog, so that a hang fails one test.
local tap = require "tap"
local plot = require "plot"

local tmp = os.tmpname()
os.remove(tmp)
mech.mkdir(tmp)

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

-- Runs Lua code in a child mechlua (killed after 120 s: only a hang takes that long);
-- returns its output (stdout and stderr) and exit status.
local function child(code)
  local script = tmp .. "/child.lua"
  local f = assert(io.open(script, "w"))
  f:write('local plot = require "plot"\n', code)
  f:close()
  local p = assert(io.popen(string.format("timeout -k 5 120 '%s' '%s' 2>&1; echo \"status=$?\"",
    os.getenv("MECHLUA") or arg[-1], script)))
  local out = p:read("a")
  p:close()
  local status = tonumber(out:match("status=(%d+)%s*$"))
  return out:gsub("status=%d+%s*$", ""), status
end

local FFFD = "\u{FFFD}"

-- ---- item 4: text that is not valid UTF-8 ----------------------------------------------

do
  local fig = plot.figure{ "caf\xe9 au lait", x = { 1, 2 }, y = { 1, 2 } }
  tap.like(tostring(fig), "caf" .. FFFD .. " au lait", "an invalid byte in a title becomes U+FFFD")
  local ax = fig:panel(1)
  ax:set{ xlabel = "\xc0\x80", ylabel = "\xed\xa0\x80" }
  tap.like(tostring(ax), "x: " .. FFFD:rep(2) .. ", y: " .. FFFD:rep(3),
    "an overlong NUL and a surrogate half: one U+FFFD per byte")
  ax:set{ xlabel = "\xf4\x90\x80\x80|\xe2\x82|\xf0\x9f\x98" }
  tap.like(tostring(ax), "x: " .. FFFD:rep(4) .. "|" .. FFFD:rep(2) .. "|" .. FFFD:rep(3),
    "above U+10FFFF and truncated sequences: one U+FFFD per byte")
  ax:set{ xlabel = "é \u{10FFFF} \u{1F600} m/s^2" }
  tap.like(tostring(ax), "x: é \u{10FFFF} \u{1F600} m/s^2", "valid UTF-8 is kept as it is")
end

do -- every text of a figure, invalid, in every format: saved, and nothing leaks
  local bad = "\xff\xfe caf\xe9 \xe2\x82 \xc0\xaf \xed\xb0\x80 ^{\xe9} ^\xe9"
  local fig = plot.figure{ rows = 1, cols = 2, title = bad }
  local ax = fig:panel(1)
  ax:line{ x = { 1, 2, 3 }, y = { 1, 3, 2 }, label = bad }
    :scatter{ x = { 1, 2, 3 }, y = { 2, 1, 3 }, label = "\x80" }
    :set{ title = bad, xlabel = bad, ylabel = bad, legend = "upper left" }
  ax:inset{ at = { 0.6, 0.6, 0.35, 0.35 }, xlim = { 1, 2 }, ylim = { 1, 3 }, title = bad,
    xlabel = bad, ylabel = bad, legend = true }
  fig:panel(2):step{ x = { 1, 2, 3 }, y = { 1, 3, 2 }, label = bad }
  local saved = 0
  for _, ext in ipairs{ "png", "svg", "pdf" } do
    local ok, err = pcall(fig.save, fig, tmp .. "/utf8." .. ext)
    if ok and exists(tmp .. "/utf8." .. ext) then saved = saved + 1 else tap.diag(err) end
  end
  tap.is(saved, 3, "a figure whose every text is invalid UTF-8 saves as PNG, SVG and PDF")
end

do -- PLplot's escape character '#' and the markup characters print as they are
  local texts = { "#", "##", "a#", "#u#d#+#-#b#g", "#[0x1234]#[", "#(2282)#(", "#<0x12>#<",
    "#fr#fi#fs", "^{#}^#^{#u}", "<b>&amp;</b> & < >", "^{<}^&", "\1\t\n\127" }
  local fig = plot.figure{ rows = 1, cols = 1 }
  local ax = fig:panel(1)
  for i, s in ipairs(texts) do ax:line{ x = { 1, 2 }, y = { i, i + 1 }, label = s } end
  ax:set{ title = table.concat(texts, " "):sub(1, 300), xlabel = "#", ylabel = "#(" }
  local ok, err = pcall(fig.save, fig, tmp .. "/escapes.png")
  tap.ok(ok and exists(tmp .. "/escapes.png"), "texts made of PLplot escapes and markup save")
  if not ok then tap.diag(err) end
end

do -- superscripts beyond what PLplot's markup buffer holds print as plain text
  local out, status = child([[
plot.figure{ ("^a"):rep(150), x = { 1, 2 }, y = { 1, 2 }, xlabel = ("x^{2}"):rep(60) }
  :save(arg[1] or "]] .. tmp .. [[/sup.png")
print("saved")
]])
  tap.ok(status == 0 and out:find("saved", 1, true) and not out:find("WARNING", 1, true),
    "150 superscripts in a title: saved, with no pango markup error")
  if status ~= 0 or out:find("WARNING", 1, true) then tap.diag(out:sub(1, 600)) end
end

-- ---- item 5: axis limits that cannot be drawn ------------------------------------------

local function save_case(name, code)
  local out, status = child(code .. string.format(':save("%s/%s.png")\nprint("saved")\n', tmp, name))
  return out, status
end

do -- a log axis whose margin would go below the smallest double (used to loop forever)
  local out, status = save_case("logpad", "plot.figure{ x = { 1, 2 }, y = { 1e-320, 1 }, ylog = true }")
  tap.ok(status == 0 and out:find("saved", 1, true),
    "log axis over 1e-320 .. 1: its margin stops at the smallest double, and it saves")
  if status ~= 0 then tap.diag(out:sub(1, 400)) end
  out, status = save_case("lognear", "plot.figure{ x = { 1, 2 }, y = { 4.9e-324, 1.7e308 }, ylog = true }")
  tap.ok(status == 0 and out:find("saved", 1, true),
    "log axis over the smallest to nearly the largest double saves")
end

do -- values equal to within rounding (used to loop forever in PLplot's axis routine)
  local out, status = save_case("noise", "plot.figure{ x = { 1, 2, 3 }, y = { 1, 1 + 2e-16, 1 - 1e-16 } }")
  tap.ok(status == 0 and out:find("saved", 1, true),
    "y = 1, 1 + 2e-16, 1 - 1e-16: drawn as one value with a margin around it")
  if status ~= 0 then tap.diag(out:sub(1, 400)) end
  out, status = save_case("subnormal", "plot.figure{ x = { 1, 2 }, y = { 1e-310, 2e-310 } }")
  tap.ok(status == 0 and out:find("saved", 1, true), "subnormal values: saved")
end

do -- limits given that cannot be drawn: an error at once, naming the field
  tap.raises(function() plot.figure{ x = { 1, 2 }, y = { 1, 2 }, xlim = { 1, 1 + 2e-16 } } end,
    "plot.figure: field 'xlim' = {1, 1} is too narrow to draw (hi - lo must be at least 1e-9 of "
      .. "the larger limit in size, and 1e-300)", "xlim one rounding step wide is refused")
  tap.raises(function() plot.figure{ x = { 1, 2 }, y = { 1, 2 }, xlim = { -1e308, 1e308 }, grid = true } end,
    "plot.figure: field 'xlim' = {-1e+308, 1e+308} is beyond what can be drawn (limits must lie "
      .. "within -1e300 to 1e300)", "xlim spanning 1e308 is refused")
  tap.raises(function() plot.figure{ x = { 1, 2 }, y = { 1, 2 } }:panel(1):set{ ylim = { 0, 5e-301 } } end,
    "ax:set: field 'ylim' = {0, 5e-301} is too narrow to draw", "ylim narrower than 1e-300 is refused")
  tap.raises(function() plot.figure{ x = { 1, 2 }, y = { 1, 2 }, ylog = true, ylim = { 1, 1.000001 } } end,
    "plot.figure: field 'ylim' = {1, 1.000001} is too narrow to draw on a log axis (hi / lo must "
      .. "be at least 1.00001)", "a log axis narrower than a ratio of 1.00001 is refused")
  local ok = pcall(function() plot.figure{ x = { 1, 2 }, y = { 1, 2 }, xlim = { -1e300, 1e300 } } end)
  tap.ok(ok, "xlim = {-1e300, 1e300} is accepted")
end

do -- an inset's log axis is its parent's: its limits are checked when the figure is saved
  local fig = plot.figure{ x = { 1, 2 }, y = { 1, 2 }, ylog = true }
  fig:panel(1):inset{ at = { 0.5, 0.5, 0.4, 0.4 }, ylim = { 1, 1.000001 } }
  tap.raises(function() fig:save(tmp .. "/inset.png") end,
    "fig:save: panel 1 (inset), the y limits {1, 1.000001} is too narrow to draw on a log axis",
    "an inset's limits on its parent's log axis are checked at save")
end

do -- data beyond +-1e300 without limits: an error naming the axis and the value
  tap.raises(function() plot.figure{ x = { -1e308, 1e308 }, y = { 1, 2 }, grid = true }:save(tmp .. "/w.png") end,
    "fig:save: panel 1, the x values reach 1e+308, beyond what can be drawn (-1e300 to 1e300): give xlim",
    "x data spanning 1e308: give xlim")
  -- with limits given, such points are simply off the axes, lines to them clipped
  local fig = plot.figure{ x = { 1, 2, 3, 4 }, y = { -1.7e308, 1.7e308, 0.5, -1.7e308 }, ylim = { -1, 1 } }
  local ok, err = pcall(fig.save, fig, tmp .. "/clip.png")
  tap.ok(ok and exists(tmp .. "/clip.png"), "lines between +-1.7e308 clipped to ylim = {-1, 1}: saved")
  if not ok then tap.diag(err) end
  fig = plot.figure{ x = { 1, 2, 3 }, y = { 0.5, 1e300, 0.6 }, kind = "scatter", ylim = { 0, 1 } }
  tap.ok(pcall(fig.save, fig, tmp .. "/clip_scatter.svg"), "a scatter point at 1e300 off the axes: saved")
end

do -- degenerate data: NaN only, one point, the other axis's limits leaving nothing
  local cases = {
    { "NaN only", { x = { 1, 2 }, y = { 0 / 0, 0 / 0 } } },
    { "one point", { x = { 5 }, y = { 7 } } },
    { "one point on log axes", { x = { 5 }, y = { 7 }, xlog = true, ylog = true } },
    { "zero", { x = { 0, 0 }, y = { 0, 0 } } },
    { "no point within xlim", { x = { 1, 2 }, y = { 1, 2 }, xlim = { 10, 20 } } },
    { "no positive point for a log axis within xlim", { x = { 1, 2 }, y = { 0 / 0, 3 }, ylog = true, xlim = { 0, 1.5 } } },
  }
  for _, c in ipairs(cases) do
    local ok, err = pcall(function() plot.figure(c[2]):save(tmp .. "/degenerate.png") end)
    tap.ok(ok, c[1] .. ": saved")
    if not ok then tap.diag(err) end
  end
end

-- ---- panels and insets without axis labels --------------------------------------------

do -- an axis with no label left a value on the stack: the second inset of a panel was
   -- never planned nor drawn, and the last axes of the figure kept limits {0, 0}
  local ax = plot.figure{}:panel(1):line{ x = { 1, 2 }, y = { 1, 2 } }:set{ ylabel = "Y" }
  tap.is(tostring(ax), "panel 1: 1 series (y: Y)", "tostring(ax) shows a y label with no x label")
  local fig = plot.figure{ rows = 2 }
  local p1 = fig:panel(1):line{ x = { 1, 2, 3 }, y = { 1, 2, 3 } }:set{ ylog = true }
  p1:inset{ at = { 0.1, 0.5, 0.3, 0.3 }, xlim = { 1, 2 } }
  p1:inset{ at = { 0.6, 0.5, 0.3, 0.3 }, ylim = { 1, 1.000001 } }
  fig:panel(2):line{ x = { 1, 2 }, y = { 3, 4 } }
  tap.raises(function() fig:save(tmp .. "/insets.png") end,
    "fig:save: panel 1 (inset), the y limits {1, 1.000001} is too narrow",
    "the second inset of a panel is planned (its limits are checked)")
  fig = plot.figure{ rows = 2 }
  p1 = fig:panel(1):line{ x = { 1, 2, 3 }, y = { 1, 2, 3 } }
  for i = 1, 3 do p1:inset{ at = { 0.3 * i - 0.25, 0.5, 0.2, 0.3 }, xlim = { 1, 1 + i / 3 } } end
  fig:panel(2):step{ x = { 1, 2 }, y = { 3, 4 } }
  local ok, err = pcall(fig.save, fig, tmp .. "/insets.svg")
  tap.ok(ok, "a panel with three insets, and a panel after it, save")
  if not ok then tap.diag(err) end
end

-- ---- file names ------------------------------------------------------------------------

local function listing()
  local p = assert(io.popen("ls -A '" .. tmp .. "/names' 2>/dev/null"))
  local s = p:read("a")
  p:close()
  return s
end

do
  mech.mkdir(tmp .. "/names")
  local fig = plot.figure{ x = { 1, 2 }, y = { 1, 2 } }
  tap.raises(function() fig:save(tmp .. "/names/a.png\0.svg") end,
    "fig:save: the file name contains a zero byte", "a name with a zero byte is refused (it used to "
      .. "write to the name before the zero)")
  local name = tmp .. "/names/100%n%d%s%%.png"
  local ok, err = pcall(fig.save, fig, name)
  tap.ok(ok and exists(name), "a name with %n (PLplot's family member) is written as given")
  if not ok then tap.diag(err) end
  tap.is(listing(), "100%n%d%s%%.png\n", "and nothing else is left in the folder")
  tap.raises(function() fig:save(tmp .. "/names/" .. ("d/"):rep(2100) .. "a.png") end,
    "fig:save: the file name is too long", "a name of 4000 bytes is refused")
end

os.execute("rm -rf '" .. tmp .. "'")
tap.done()
