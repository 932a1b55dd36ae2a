-- SPDX-License-Identifier: MIT
-- fig:render (a figure drawn into memory, as fig:save draws a PNG) and the movie module:
-- animated GIF frames and delays read back with giflib, MP4 frames counted by ffprobe, a
-- pixel where the figure's data says, and files written whole or not at all.
local tap = require "tap"
local plot, movie = require "plot", require "movie"

package.path = (os.getenv("MECHLUA_SOURCE") or ".") .. "/tests/lib/?.lua;" .. package.path
local scratch = require "scratch"
local dir = scratch.dir()
local exists = scratch.exists
local function leftovers() return scratch.ls(dir) end

-- A frame: a thick red horizontal line at y = 0.25 from x = 0 to x = frac.
local function frame(frac, opts)
  local fig = plot.figure(opts or { width = 80, height = 50, dpi = 100 })
  fig:panel(1):line{ x = { 0, frac }, y = { 0.25, 0.25 }, color = "red", width = 4 }
  fig:panel(1):set{ xlim = { 0, 1 }, ylim = { 0, 1 } }
  return fig
end

-- fig:render: the size and the pixels of the PNG that fig:save writes
local fig = frame(0.75)
local img = fig:render()
local rep = plot._report()
tap.is(img.width .. "x" .. img.height, rep.wdev .. "x" .. rep.hdev, "fig:render: the PNG's size (" .. img.width .. "x" .. img.height .. ")")
tap.is(tostring(img), "plot.image (" .. img.width .. " x " .. img.height .. ")", "an image says its size")
local ax = rep.axes[1]
local function pixel(x, y) -- world to pixel (from 1, rows from the top)
  local fx = ax.vpd[1] + (x - ax.vpw[1]) / (ax.vpw[2] - ax.vpw[1]) * (ax.vpd[2] - ax.vpd[1])
  local fy = ax.vpd[3] + (y - ax.vpw[3]) / (ax.vpw[4] - ax.vpw[3]) * (ax.vpd[4] - ax.vpd[3])
  return math.floor(fx * img.width) + 1, math.floor((1 - fy) * img.height) + 1
end
local r, g, b = img:pixel(pixel(0.5, 0.25))
tap.ok(r > 200 and g < 80 and b < 80, string.format("the line's pixel at (0.5, 0.25) is red (%d, %d, %d)", r, g, b))
r, g, b = img:pixel(pixel(0.9, 0.25))
tap.ok(r == 255 and g == 255 and b == 255, "past its end (0.9, 0.25) the background is white")
r, g, b = img:pixel(pixel(0.5, 0.6))
tap.ok(r == 255 and g == 255 and b == 255, "above it (0.5, 0.6) too")
tap.raises(function() img:pixel(0, 1) end, "img:pixel: pixel (0, 1) is outside the image of", "a pixel outside")

-- GIF: frames, delays at the requested rate, the loop
local path = dir .. "/a.gif"
local w = movie.open(path, { fps = 20 })
tap.ok(not exists(path), "nothing under the target's name before close")
for k = 1, 10 do w:add(frame(k / 10):render()) end
tap.is(w.frames, 10, "10 frames added")
tap.is(w:close(), path, "close returns the path")
local info = movie.gif_info(path)
tap.is(info.frames, 10, "the GIF read back holds 10 frames")
tap.is(info.width .. "x" .. info.height, img.width .. "x" .. img.height, "of the images' size")
local total, even = 0, true
for _, d in ipairs(info.delays) do
  total = total + d
  even = even and d == 5
end
tap.ok(even and total == 50, "20 fps: every frame 5 hundredths, 0.5 s in all")
tap.ok(info.loop, "it plays in a loop")
local fh = io.open(path, "rb")
tap.is(fh:read(6), "GIF89a", "a GIF89a file (delays and loops are its extensions)")
fh:close()
-- each frame read back (drawn over those before it) is the image it was made of
local worst, far, total = 0, 0, 0
for _, k in ipairs{ 1, 2, 7, 10 } do
  local want, got = frame(k / 10):render(), movie.gif_frame(path, k)
  for y = 1, want.height do
    for x = 1, want.width do
      local r1, g1, b1 = want:pixel(x, y)
      local r2, g2, b2 = got:pixel(x, y)
      local d = math.max(math.abs(r1 - r2), math.abs(g1 - g2), math.abs(b1 - b2))
      worst = math.max(worst, d)
      total = total + 1
      if d > 0 then far = far + 1 end
    end
  end
end
-- a figure has a few hundred colours: the rare ones (anti-aliasing) become the nearest kept one
tap.ok(far <= 1e-3 * total and worst <= 64, string.format("frames 1, 2, 7 and 10 read back are their "
  .. "images: %d of %d pixels differ, by up to %d levels", far, total, worst))
w = movie.open(dir .. "/b.gif", { fps = 30, loop = false })
for k = 1, 30 do w:add(frame(k / 30):render()) end
w:close()
info = movie.gif_info(dir .. "/b.gif")
total = 0
for k, d in ipairs(info.delays) do
  total = total + d
  -- frame k starts at round(100 (k - 1) / 30) hundredths
end
tap.ok(total == 100 and info.delays[1] == 3 and info.delays[2] == 4, "30 fps: delays of 3 and 4 hundredths, 30 frames in 1 s exactly")
tap.ok(not info.loop, "loop = false: played once")

-- MP4 through ffmpeg
if movie.ffmpeg() then
  path = dir .. "/c.mp4"
  w = movie.open(path, { fps = 25 })
  for k = 1, 50 do w:add(frame(k / 50):render()) end
  w:close()
  local p = io.popen("ffprobe -v error -count_frames -select_streams v:0 -show_entries "
    .. "stream=nb_read_frames,r_frame_rate,width,height -of default=noprint_wrappers=1 '" .. path .. "'")
  local out = p:read("a")
  p:close()
  tap.like(out, "nb_read_frames=50", "the MP4 holds 50 frames")
  tap.like(out, "r_frame_rate=25/1", "at 25 per second")
  tap.like(out, "width=" .. (img.width + img.width % 2), "its width made even")
else
  tap.skip("no ffmpeg on PATH", 3)
end

tap.raises(function() movie.gif_info(dir .. "/none.gif") end, "movie.gif_info: cannot read '" .. dir .. "/none.gif': giflib:", "a GIF that is not there")
local junk = io.open(dir .. "/junk.gif", "wb")
junk:write("GIF89a not really")
junk:close()
tap.raises(function() movie.gif_frame(dir .. "/junk.gif", 1) end, "movie.gif_frame: cannot read '" .. dir .. "/junk.gif': giflib:", "a file that is not a GIF")
os.remove(dir .. "/junk.gif")
tap.raises(function() movie.gif_frame(dir .. "/a.gif", 11) end, "movie.gif_frame: '" .. dir .. "/a.gif': frame 11 is not one of its 10 frames", "a frame past the last")

-- errors: no partial file, no temporary file left
local before = leftovers()
for _, bad in ipairs{ 0, -1, 1001 } do
  tap.raises(function() movie.open(dir .. "/d.gif", { fps = bad }) end,
    "movie.open: field 'fps' must be > 0 and at most 1000 frames per second (got " .. bad .. ")",
    "fps = " .. tostring(bad))
end
tap.raises(function() movie.open(dir .. "/d.gif", { fps = 0 / 0 }) end, "movie.open: field 'fps' must be finite", "fps = nan")
tap.raises(function() movie.open(dir .. "/d.avi") end, "movie.open: '" .. dir .. "/d.avi' has an unknown extension (expected .gif or .mp4)", "an unknown extension")
tap.raises(function() movie.open(dir .. "/no/such/d.gif") end, "the folder '" .. dir .. "/no/such' does not exist", "a folder that does not exist")
w = movie.open(dir .. "/e.gif")
w:add(frame(0.5):render())
tap.raises(function() w:add(frame(0.5, { width = 60, height = 50, dpi = 100 }):render()) end,
  "writer:add: cannot write '" .. dir .. "/e.gif': frame 2 is", "a frame of another size")
tap.raises(function() w:add(frame(0.5):render()) end, "writer:add: the writer of '" .. dir .. "/e.gif' is closed", "a writer that failed is closed")
w = movie.open(dir .. "/f.gif")
tap.raises(function() w:add("frame") end, "writer:add: argument #1 must be an image of fig:render (got string)", "not an image")
tap.raises(function() w:close() end, "writer:close: cannot write '" .. dir .. "/f.gif': no frame was added", "closing without frames")
do
  local w2 <close> = movie.open(dir .. "/g.gif")
  w2:add(frame(0.5):render())
end
w = movie.open(dir .. "/h.mp4")
w = nil
collectgarbage()
collectgarbage()
tap.is(leftovers(), before, "no file and no temporary file is left by any of them")

scratch.remove(dir)
tap.done()
