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

os.execute("rm -rf '" .. tmp .. "'")
tap.done()
