-- SPDX-License-Identifier: MIT
-- Module output: a figure saved as PNG and PDF in a folder, a table of columns written as
-- CSV (whole or absent), and their argument checks; options.typename, which they and
-- analysis share.
local tap = require "tap"
local output = require "output"
local options = require "options"
local plot = require "plot"

local dir = os.tmpname()
os.remove(dir)
mech.mkdir(dir)

local function slurp(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("a")
  f:close()
  return s
end

do -- output.figure
  local fig = plot.figure{ "a line", x = { 0, 1, 2 }, y = { 0, 1, 4 } }
  local list = { "before" }
  local png, pdf = output.figure(fig, dir, "fig", list)
  tap.is(png, dir .. "/fig.png", "figure: the PNG's path")
  tap.is(pdf, dir .. "/fig.pdf", "figure: the PDF's path")
  tap.ok(#list == 3 and list[1] == "before" and list[2] == png and list[3] == pdf, "figure: both appended to the list")
  tap.is((slurp(png) or ""):sub(1, 8), "\137PNG\r\n\26\n", "figure: a PNG file")
  tap.like(slurp(pdf) or "", "^%%PDF%-", "figure: a PDF file")
  local p2 = output.figure(fig, dir, "again")
  tap.is(p2, dir .. "/again.png", "figure: the list is optional")
  tap.raises(output.figure, "output.figure: bad argument #1 (a figure expected, got table)", "figure needs a figure",
    {}, dir, "x")
  tap.raises(output.figure, "output.figure: bad argument #3 (a file name expected, got nil)", "and a name", fig, dir)
  tap.raises(output.figure, "output.figure: bad argument #4 (a list of paths expected, got string)",
    "the list must be a table", fig, dir, "x", "list")
  local msg = tap.raises(function() output.figure(fig, dir .. "/missing/folder", "x") end, "fig:save",
    "a missing folder is fig:save's error")
  tap.ok(msg and not io.open(dir .. "/missing/folder/x.png"), "and nothing is written")
end

do -- output.csv
  local path = dir .. "/t.csv"
  tap.is(output.csv(path, { "a [m]", "b" }, { { 1, 0.1, -2.5e-300 }, { 1 / 3, 2, 3 } }, { "first line", "second" }),
    path, "csv: returns the path")
  local want = string.format("# mechlua %s, script %s\n# first line\n# second\na [m],b\n", mech.version,
    arg and arg[0] or "?") .. string.format("%.17g,%.17g\n%.17g,%.17g\n%.17g,%.17g\n", 1, 1 / 3, 0.1, 2, -2.5e-300, 3)
  tap.is(slurp(path), want, "csv: header, names and rows with 17 digits")
  local rows = {}
  for line in slurp(path):gmatch("[^\n]+") do
    if not line:match("^#") then rows[#rows + 1] = line end
  end
  tap.is(tonumber(rows[4]:match("^([^,]+)")), -2.5e-300, "csv: the numbers read back exactly")
  tap.is(slurp(path .. ".tmp"), nil, "csv: no temporary file is left")
  output.csv(dir .. "/n.csv", { "x" }, { { 5 } })
  tap.like(slurp(dir .. "/n.csv"), "^# mechlua [^\n]*\nx\n5\n$", "csv: the header lines are optional")
  tap.raises(output.csv, "output.csv: 1 names for 2 columns", "csv: a name per column", path, { "a" }, { { 1 }, { 2 } })
  tap.raises(output.csv, "output.csv: columns[2] has 1 rows, columns[1] 2", "csv: columns of one length", path,
    { "a", "b" }, { { 1, 2 }, { 3 } })
  tap.raises(output.csv, "output.csv: columns[1][2] must be a number (got string)", "csv: numbers only", path,
    { "a" }, { { 1, "2" } })
  tap.is(slurp(path), want, "csv: a refused table leaves the file as it was")
  local msg = tap.raises(output.csv, "output.csv: cannot write", "csv: a missing folder is an error",
    dir .. "/missing/t.csv", { "a" }, { { 1 } })
  tap.like(msg or "", "No such file or directory", "csv: that says why")
  tap.is(slurp(dir .. "/missing/t.csv.tmp"), nil, "csv: and writes nothing")
end

do -- options.typename
  local sys = mech.planar{}
  local run = sys:simulate{ t = 0.1, report = 0.1 }
  tap.is(options.typename(run), "mech.run", "typename of a run")
  tap.is(options.typename(plot.figure{}), "plot.figure", "of a figure")
  tap.is(options.typename({}), "table", "of a table")
  tap.is(options.typename(io.stdout), "FILE*", "of a userdata with a __name")
  tap.is(options.typename(nil), "nil", "of nil")
end

for _, f in ipairs{ "fig.png", "fig.pdf", "again.png", "again.pdf", "t.csv", "n.csv" } do os.remove(dir .. "/" .. f) end
os.remove(dir)
tap.done()
