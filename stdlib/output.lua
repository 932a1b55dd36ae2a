-- SPDX-License-Identifier: MIT
-- output: the files a scenario script writes into its output folder, besides run:csv.
--
--   local output = require "output"
--   local figures = {}
--   output.figure(fig, "out", "slider", figures)     -- out/slider.png, out/slider.pdf
--   output.csv("out/table.csv", { "e", "loss [J]" }, { es, losses }, { "what the rows are" })
--
-- man mechlua(3), MODULE output, has the details.
local output = {}

local fmt = string.format

local function fail(lvl, fname, ...)
  error(fname .. ": " .. fmt(...), lvl + 1)
end

local typename = require("options").typename

-- output.figure(fig, folder, name, list) -> png, pdf: saves the figure as folder/name.png
-- and folder/name.pdf (fig:save), appends both paths to list when given, and returns them.
function output.figure(fig, folder, name, list)
  local fname = "output.figure"
  if typename(fig) ~= "plot.figure" then
    fail(2, fname, "bad argument #1 (a figure expected, got %s)", typename(fig))
  end
  if type(folder) ~= "string" then fail(2, fname, "bad argument #2 (a folder expected, got %s)", typename(folder)) end
  if type(name) ~= "string" then fail(2, fname, "bad argument #3 (a file name expected, got %s)", typename(name)) end
  if list ~= nil and type(list) ~= "table" then
    fail(2, fname, "bad argument #4 (a list of paths expected, got %s)", typename(list))
  end
  local paths = {}
  for k, ext in ipairs{ "png", "pdf" } do
    paths[k] = fig:save(fmt("%s/%s.%s", folder, name, ext))
    if list then list[#list + 1] = paths[k] end
  end
  return paths[1], paths[2]
end

-- output.animation(run, folder, name, o, list) -> path: run:animate{ file = folder/name.gif,
-- and the fields of o }, the path appended to list when given.
function output.animation(run, folder, name, o, list)
  local fname = "output.animation"
  if typename(run) ~= "mech.run" then fail(2, fname, "bad argument #1 (a run expected, got %s)", typename(run)) end
  if type(folder) ~= "string" then fail(2, fname, "bad argument #2 (a folder expected, got %s)", typename(folder)) end
  if type(name) ~= "string" then fail(2, fname, "bad argument #3 (a file name expected, got %s)", typename(name)) end
  if o ~= nil and type(o) ~= "table" then fail(2, fname, "bad argument #4 (a table of fields expected, got %s)", typename(o)) end
  if list ~= nil and type(list) ~= "table" then
    fail(2, fname, "bad argument #5 (a list of paths expected, got %s)", typename(list))
  end
  local a = {}
  for k, v in pairs(o or {}) do a[k] = v end
  a.file = fmt("%s/%s.gif", folder, name)
  local r = run:animate(a)
  if list then list[#list + 1] = r.file end
  return r.file
end

-- output.csv(path, names, columns, header) -> path: a table of columns (lists of numbers of
-- one length) written as CSV, a row per index, each number with 17 significant digits as
-- run:csv writes them.  The file starts with the comment lines "# mechlua <version>, script
-- <arg[0]>" and "# <line>" for each line of header, then the column names.  Written under
-- a temporary name, then renamed: whole or absent.
function output.csv(path, names, columns, header)
  local fname = "output.csv"
  if type(path) ~= "string" then fail(2, fname, "bad argument #1 (a path expected, got %s)", typename(path)) end
  if type(names) ~= "table" then fail(2, fname, "bad argument #2 (a list of names expected, got %s)", typename(names)) end
  if type(columns) ~= "table" then
    fail(2, fname, "bad argument #3 (a list of columns expected, got %s)", typename(columns))
  end
  if header ~= nil and type(header) ~= "table" then
    fail(2, fname, "bad argument #4 (a list of lines expected, got %s)", typename(header))
  end
  local ncol = #columns
  if ncol == 0 or #names ~= ncol then
    fail(2, fname, "%d names for %d columns (one name per column, at least one)", #names, ncol)
  end
  local nrow = 0
  for k = 1, ncol do
    local col = columns[k]
    if type(col) ~= "table" then fail(2, fname, "columns[%d] must be a list of numbers (got %s)", k, typename(col)) end
    if type(names[k]) ~= "string" then fail(2, fname, "names[%d] must be a string (got %s)", k, typename(names[k])) end
    if k == 1 then nrow = #col end
    if #col ~= nrow then fail(2, fname, "columns[%d] has %d rows, columns[1] %d", k, #col, nrow) end
    for i = 1, nrow do
      if type(col[i]) ~= "number" then
        fail(2, fname, "columns[%d][%d] must be a number (got %s)", k, i, typename(col[i]))
      end
    end
  end
  local tmp = path .. ".tmp" .. require("sweepcore").pid() -- the ranks of a study may write it at once
  local f, msg = io.open(tmp, "w")
  if not f then fail(2, fname, "cannot write %s", msg) end
  f:write(fmt("# mechlua %s, script %s\n", mech.version, arg and arg[0] or "?"))
  for _, line in ipairs(header or {}) do f:write("# ", tostring(line), "\n") end
  f:write(table.concat(names, ","), "\n")
  local line = ("%.17g,"):rep(ncol - 1) .. "%.17g\n"
  local row = {}
  local ok, err = true, nil
  for i = 1, nrow do
    for k = 1, ncol do row[k] = columns[k][i] end
    ok, err = f:write(line:format(table.unpack(row)))
    if not ok then break end
  end
  local closed, cerr = f:close()
  if ok and not closed then ok, err = false, cerr end
  if ok then ok, err = os.rename(tmp, path) end
  if not ok then
    os.remove(tmp)
    fail(2, fname, "cannot write %s: %s", path, tostring(err))
  end
  return path
end

return output
