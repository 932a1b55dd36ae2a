-- SPDX-License-Identifier: MIT
-- run:animate{...}: frames at the requested rate over the requested span, a GIF read back with
-- giflib (size, frames, delays), the body where the run says it is in a frame's pixels, PNG
-- frames on request, an MP4, a spatial run in two views, and bad input that is a clear error
-- and leaves no file.
local tap = require "tap"
local plot, movie = require "plot", require "movie"
local benchmarks = require "benchmarks"

package.path = (os.getenv("MECHLUA_SOURCE") or ".") .. "/tests/lib/?.lua;" .. package.path
local scratch = require "scratch"
local dir = scratch.dir()
local function files() return scratch.ls(dir) end

local g = 9.81
local function thrown()
  local sys = mech.planar{ gravity = { 0, -g } }
  sys:body{ name = "ball", mass = 1, inertia = 1, at = { 0, 0 }, velocity = { 1, 2 }, omega = 3,
    rectangle = { 0.1, 0.05 } }
  return sys
end
local sys = thrown()
local run = sys:simulate{ t = 0.4, report = 0.01, motion = 0.01, record = { "ball.y" }, quiet = true }

-- frames: 0.4 s at speed 0.5 and 10 fps: a frame every 0.05 s of the run, 9 of them
local r = run:animate{ file = dir .. "/a.gif", fps = 10, speed = 0.5, channel = "ball.y", trace = "ball",
  frames = dir .. "/a" }
tap.is(r.frames, 9, "0.4 s at half speed and 10 frames a second: 9 frames")
local ok = true
for k, t in ipairs(r.times) do ok = ok and math.abs(t - (k - 1) * 0.05) < 1e-15 end
tap.ok(ok, "a frame every 0.05 s of the run")
tap.is(r.duration, 0.9, "played in 0.9 s")
local info = movie.gif_info(dir .. "/a.gif")
local total = 0
for _, d in ipairs(info.delays) do total = total + d end
tap.ok(info.frames == 9 and total == 90, "the GIF read back: 9 frames, 90 hundredths of a second")
local rep = plot._report() -- of the last frame drawn
tap.is(info.width .. "x" .. info.height, rep.wdev .. "x" .. rep.hdev, "of the frames' size")
local ax = rep.axes[1]
local function pixel(x, y)
  local fx = ax.vpd[1] + (x - ax.vpw[1]) / (ax.vpw[2] - ax.vpw[1]) * (ax.vpd[2] - ax.vpd[1])
  local fy = ax.vpd[3] + (y - ax.vpw[3]) / (ax.vpw[4] - ax.vpw[3]) * (ax.vpd[4] - ax.vpd[3])
  return math.floor(fx * rep.wdev) + 1, math.floor((1 - fy) * rep.hdev) + 1
end
local last = movie.gif_frame(dir .. "/a.gif", 9)
local t = r.times[9]
local x, y = t, 2 * t - g * t * t / 2
local px, py = pixel(x, y)
local cr, cg, cb = last:pixel(px, py)
tap.ok(cr < 60 and cg < 60 and cb < 60, string.format("the last frame: dark at the body's centre (%.3f, %.3f) m, pixel (%d, %d): %d %d %d", x, y, px, py, cr, cg, cb))
-- the rectangle's corner at (0.05, 0.025) in the body's frame, turned by 3 t
local a = 3 * t
local kx, ky = x + 0.05 * math.cos(a) - 0.025 * math.sin(a), y + 0.05 * math.sin(a) + 0.025 * math.cos(a)
px, py = pixel(kx, ky)
cr, cg, cb = last:pixel(px, py)
tap.ok(cr < 100 and cg < 100 and cb < 100, "and at its outline's corner")
px, py = pixel(x + 0.2, y - 0.2)
cr, cg, cb = last:pixel(px, py)
tap.ok(cr == 255 and cg == 255 and cb == 255, "white away from it")
local n = 0
for k = 1, 9 do
  local f = io.open(string.format("%s/a_%05d.png", dir, k), "rb")
  if f then n = n + 1; f:close() end
end
tap.is(n, 9, "the frames as PNG files on request")

-- a window of the run, real time
r = run:animate{ file = dir .. "/b.gif", t = { 0.1, 0.3 }, fps = 20 }
tap.is(r.frames, 5, "0.1 to 0.3 s in real time at 20 fps: 5 frames")
tap.is(r.times[1], 0.1, "from 0.1 s")

if movie.ffmpeg() then
  r = run:animate{ file = dir .. "/c.mp4", fps = 25, speed = 0.4 }
  local p = io.popen("ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames "
    .. "-of default=noprint_wrappers=1:nokey=1 '" .. dir .. "/c.mp4'")
  local frames = tonumber(p:read("a"))
  p:close()
  tap.is(frames, r.frames, "an MP4 with as many frames (" .. r.frames .. ")")
else
  tap.skip("no ffmpeg on PATH", 1)
end

-- a prismatic joint with clearance, magnified: its guide surfaces drawn at h/2 + m c
local brun = benchmarks.b{}:simulate{ t = 0.001, motion = 1e-3, quiet = true }
brun:animate{ file = dir .. "/g.gif", fps = 1, speed = 0.001, magnify = 10, xlim = { 0.3, 0.55 },
  ylim = { -0.06, 0.06 } }
rep = plot._report()
ax = rep.axes[1]
local im = movie.gif_frame(dir .. "/g.gif", 2)
local function shade(x, y)
  local qx, qy = pixel(x, y)
  local r1, g1, b1 = im:pixel(qx, qy)
  return (r1 + g1 + b1) / 3
end
local drawn, true_ = shade(0.33, 0.035), shade(0.33, 0.027)
tap.ok(drawn < 200 and true_ > 250, string.format("magnify = 10: benchmark B's upper guide surface drawn at "
  .. "0.025 + 10 x 0.001 m (shade %d), nothing near its true 0.026 m (shade %d at 0.027 m)", drawn, true_))

-- deform: a mesh's deformation magnified about its best-fitting rigid motion
local animate = require "animate"
local ref = { { 0, 0 }, { 1, 0 }, { 1, 0.5 }, { 0, 0.5 } }
local function moved(th, dx, dy, stretch)
  local nodes, disp = {}, {}
  for k, q in ipairs(ref) do
    local x, y = (q[1] - 0.5) * (1 + stretch) + 0.5, q[2]
    local c, s = math.cos(th), math.sin(th)
    nodes[k] = { c * x - s * y + dx, s * x + c * y + dy }
    disp[k] = { nodes[k][1] - q[1], nodes[k][2] - q[2] }
  end
  return { nodes = nodes, displacement = disp }
end
local m = moved(0.7, 2, -1, 0)
local worst = 0
for k, q in ipairs(animate.deformed(m, 100)) do
  worst = math.max(worst, math.abs(q[1] - m.nodes[k][1]), math.abs(q[2] - m.nodes[k][2]))
end
tap.ok(worst < 1e-12, string.format("a rigid motion is drawn as it is, deform = 100 or not (%.1g)", worst))
m = moved(0, 0, 0, 1e-3)
worst = 0
for k, q in ipairs(animate.deformed(m, 100)) do
  local want = (ref[k][1] - 0.5) * (1 + 0.1) + 0.5
  worst = math.max(worst, math.abs(q[1] - want), math.abs(q[2] - ref[k][2]))
end
tap.ok(worst < 1e-12, string.format("a stretch of 1e-3 is drawn as one of 0.1 with deform = 100 (%.1g)", worst))

-- a spatial run in two views
local s = mech.spatial{ gravity = { 0, -g, 0 } }
local b = s:body{ name = "box", mass = 1, inertia = { 1, 1, 1 }, at = { 0, 1, 0 } }
s:spherical{ s.ground, b, at = { 0, 1.5, 0 } }
local srun = s:simulate{ t = 0.2, motion = 0.01, quiet = true }
r = srun:animate{ file = dir .. "/d.gif", fps = 10, view = { "xy", "xz" } }
tap.is(r.frames, 3, "a spatial run drawn in two views side by side")
tap.is(#plot._report().axes, 2, "two panels")

-- bad input: clear errors, no file left
local before = files()
local function bad(o, text, name)
  tap.raises(function() run:animate(o) end, text, name)
end
bad({ file = dir .. "/e.gif", channel = "ball.vx" }, "run:animate: field 'channel': channel 'ball.vx' was not recorded", "a channel not recorded")
bad({ file = dir .. "/e.gif", fps = 0 }, "run:animate: field 'fps' must be a number > 0 (got 0)", "zero fps")
bad({ file = dir .. "/e.gif", speed = -1 }, "run:animate: field 'speed' must be a number > 0 (got -1)", "a negative speed")
bad({ file = dir .. "/no/such/e.gif" }, "the folder '" .. dir .. "/no/such' does not exist", "a folder that does not exist")
bad({ file = dir .. "/e.png" }, "run:animate: field 'file': '" .. dir .. "/e.png' has an unknown extension (expected .gif or .mp4)", "not an animation's extension")
bad({ fps = 10 }, "run:animate: field 'file' must be the animation's path, .gif or .mp4 (got nil)", "no file")
bad({ file = dir .. "/e.gif", t = { 0.3, 0.1 } }, "run:animate: field 't' must be {t0, t1} with t0 < t1", "a window backwards")
bad({ file = dir .. "/e.gif", t = { 0, 1 } }, "run:animate: field 't' = {0, 1} is outside the kept states' times [0, 0.4] s", "a window past the run")
bad({ file = dir .. "/e.gif", view = "xz" }, "run:animate: field 'view': a planar run is drawn in \"xy\" (got \"xz\")", "a view a planar run has not")
bad({ file = dir .. "/e.gif", trace = "nothing" }, "run:animate: field 'trace': no body, joint with clearance or contact is named 'nothing'", "an unknown trace")
bad({ file = dir .. "/e.gif", colour = "red" }, "run:animate: unknown field 'colour'", "an unknown field")
bad({ file = dir .. "/e.gif", frames = dir .. "/no/such/f" }, "cannot write '" .. dir .. "/no/such/f_00001.png'", "PNG frames into a folder that does not exist")
tap.raises(function() thrown():simulate{ t = 0.1, quiet = true }:animate{ file = dir .. "/e.gif" } end,
  "run:animate: the run kept no states: give sys:simulate a 'motion' step", "a run that kept no states")
local crun = benchmarks.a{ clearance = benchmarks.a_clearance() }:simulate{ t = 0.002, motion = 1e-4, quiet = true }
tap.raises(function() crun:animate{ file = dir .. "/e.gif", magnify = 40 } end,
  "run:animate: field 'magnify' = 40 draws the clearance of joint 'pin' (0.5 mm) as 20 mm, more than 3/4 of its bearing's radius (10 mm): at most 15",
  "a magnification that would hide the journal")
local spec001 = require "spec001"
local srun1 = spec001.model{ clearance = { friction = "none" } }:simulate{ t = 0.002, motion = 1e-3, quiet = true }
tap.raises(function() srun1:animate{ file = dir .. "/e.gif", magnify = 1000, view = { "xy", "xz" } } end,
  "run:animate: field 'magnify' = 1000 draws the clearance of joint 'crank_pin0' (0.5 mm) as 500 mm",
  "a spatial journal's magnification is checked the same way")
r = srun1:animate{ file = dir .. "/h.gif", magnify = 10, view = { "xy", "xz" }, fps = 1, speed = 0.001, trace = "crank_pin0" }
tap.is(r.frames, 3, "and drawn: the journal's cylinder with its clearance 10 times as large")
os.remove(dir .. "/h.gif")
tap.is(files(), before, "none of them leaves a file or a temporary file")

scratch.remove(dir)
tap.done()
