-- SPDX-License-Identifier: MIT
-- run:mat: MATLAB files read back by matio itself (the helper build/tests/matread prints
-- what matio reads, doubles in hexadecimal) and compared with the run bit for bit: every
-- column, the names, units, parameters, provenance and events, in MAT 5 and MAT 7.3; and
-- the errors of a file that cannot be written, which leave no file behind.
local tap = require "tap"

local reader = assert(os.getenv("MECHLUA_BUILD"), "run under tests/run") .. "/tests/matread"

local tmp = os.tmpname()
os.remove(tmp)
mech.mkdir(tmp)

-- what matio reads from path: { version = , [path] = { kind, rows, cols, values or text } }
local function matread(path)
  local p = assert(io.popen(string.format("%q %q", reader, path)))
  local out = { vars = {} }
  for line in p:lines() do
    local v = line:match("^version (%S+)$")
    if v then
      out.version = v
    else
      local name, kind, rows, cols, rest = line:match("^(%S+) (%a+) (%d+)x(%d+) ?(.*)$")
      assert(name, "matread printed: " .. line)
      local e = { kind = kind, rows = tonumber(rows), cols = tonumber(cols) }
      if kind == "double" then
        e.values = {}
        for h in rest:gmatch("%S+") do e.values[#e.values + 1] = h end
      elseif kind == "char" then
        e.text = rest:gsub("\\(.)", { n = "\n", ["\\"] = "\\" })
      else
        e.fields = rest
      end
      out[name] = e
      if not name:find("[.{]") then out.vars[#out.vars + 1] = name end
    end
  end
  assert(p:close(), "matread failed on " .. path)
  return out
end

local function hex(x) return string.format("%a", x) end

-- 1 when the double array e holds the values of col (a column or a list) bit for bit
local function same(e, col, n)
  if not e or e.kind ~= "double" or e.rows ~= n or e.cols ~= 1 or #e.values ~= n then return false end
  for i = 1, n do
    if e.values[i] ~= hex(col[i]) then return false end
  end
  return true
end

local function model()
  local sys = mech.planar{ gravity = { 0, -9.81 } }
  local crank = sys:body{ name = "crank", mass = 0.5, inertia = 0.004, at = { 0.1, 0 } }
  crank:point{ name = "tip", at = { 0.2, 0 } }
  sys:revolute{ sys.ground, crank, at = { 0, 0 }, name = "pin" }
  sys:drive{ crank, speed = 2 * math.pi, name = "motor" }
  return sys
end

local sys = model()
local run = sys:simulate{ t = 1, report = 0.01, method = "dopri5", rtol = 1e-10, atol = 1e-12,
  record = { "crank.tip.x", "crank.tip.y", "motor.torque", "pin.fx",
    -- user channels whose names MATLAB cannot take as they are
    crank_tip_x = function(t) return t / 3 end,
    ["end"] = function(t) return -t end,
    ["2nd/σ"] = function(t) return math.sin(t) end },
  events = { { name = "half", channel = "crank.phi", value = math.pi, direction = 1 } },
  params = { speed_rpm = 60, note = "crank, 1 s", tiny = 1 / 3 } }

for _, version in ipairs{ "5", "7.3" } do
  local path = string.format("%s/run%s.mat", tmp, version)
  local opts = version == "5" and { params = { extra = 2.5 } } or { version = version }
  tap.is(run:mat(path, opts), path, "run:mat returns the path (MAT " .. version .. ")")
  local m = matread(path)
  tap.is(m.version, version, "matio reads a MAT " .. version .. " file")
  local n = #run
  tap.ok(same(m.t, run.t, n), "t is a column of every report time, bit for bit")
  local want = { "crank_tip_x", "crank_tip_y", "motor_torque", "pin_fx" }
  local ok = true
  for i, ch in ipairs{ "crank.tip.x", "crank.tip.y", "motor.torque", "pin.fx" } do
    ok = ok and same(m[want[i]], run[ch], n)
  end
  tap.ok(ok, "every built-in channel is a column named with '_' for '.', bit for bit")
  -- user channels come after the built-in ones, in the order of their names
  local channels, vars = {}, {}
  for i = 1, #run.channels do
    channels[i] = m["mechlua.channels{" .. i .. "}"].text
    vars[i] = m["mechlua.variables{" .. i .. "}"].text
    ok = ok and same(m[vars[i]], run[run.channels[i]], n)
  end
  tap.is(table.concat(channels, " "), table.concat(run.channels, " "),
    "mechlua.channels holds the original names, in the run's order")
  tap.is(table.concat(vars, " "),
    "crank_tip_x crank_tip_y motor_torque pin_fx x2nd__ crank_tip_x_2 xEnd",
    "mechlua.variables: valid MATLAB names, unique ('_2'), keywords and digits prefixed")
  tap.ok(ok, "every channel's variable holds its column bit for bit")
  tap.is(#m.vars, #run.channels + 2, "the file holds t, a variable per channel and mechlua")
  tap.is(m["mechlua.units{3}"].text, "N m", "mechlua.units")
  tap.is(m["mechlua.version"].text, mech.version, "mechlua.version")
  tap.like(m["mechlua.header"].text, "^mechlua " .. mech.version:gsub("%.", "%%.") .. ", script .*test_mat%.lua\n",
    "mechlua.header: the provenance lines of the CSV header")
  tap.is(m["mechlua.parameters"].text, run.parameters:gsub("\n$", ""), "mechlua.parameters: the model")
  tap.is(m["mechlua.status"].text, "complete", "mechlua.status")
  tap.is(m["mechlua.params.speed_rpm"].values[1], hex(60), "params: numbers are doubles")
  tap.is(m["mechlua.params.tiny"].values[1], hex(tonumber(tostring(1 / 3))),
    "as printed in the header (14 significant digits)")
  tap.is(m["mechlua.params.note"].text, "crank, 1 s", "other values are text")
  if version == "5" then
    tap.is(m["mechlua.params.extra"].values[1], hex(2.5), "run:mat's own params are added")
  else
    tap.is(m["mechlua.params.extra"], nil, "(only where given)")
  end
  tap.is(#run.events, 1, "the run has an event")
  tap.ok(same(m["mechlua.events.t"], { run.events[1].t }, 1), "mechlua.events.t, bit for bit")
  tap.is(m["mechlua.events.name{1}"].text, "half", "mechlua.events.name")
  os.remove(path)
end

-- column selection and UTF-8 text
do
  local path = tmp .. "/two.mat"
  run:mat(path, { columns = { "pin.fx", "2nd/σ" } })
  local m = matread(path)
  tap.is(#m.vars, 4, "columns selects the channels written")
  tap.is(m["mechlua.channels{2}"].text, "2nd/σ", "non-ASCII names read back as written (UTF-16)")
  tap.ok(same(m.x2nd__, run["2nd/σ"], #run), "and the column")
  os.remove(path)
end

-- a run with no rows, a failed run
do
  local s = mech.planar{ gravity = { 0, -9.81 } }
  local p = s:body{ name = "p", mass = 1, inertia = 1 }
  s:force{ p, name = "push", fn = function(t)
    if t > 0.05 then error("the actuator broke") end
    return 1, 0, 0
  end }
  local r = s:simulate{ t = 1, report = 0.01, max_step = 0.01, record = { "p.x" }, on_error = "return" }
  local path = tmp .. "/failed.mat"
  r:mat(path)
  local m = matread(path)
  tap.is(m["mechlua.status"].text, "failed", "a failed run says so")
  tap.like(m["mechlua.message"].text, "^simulation failed at t = .*load 'push'", "with its message")
  tap.ok(same(m.p_x, r["p.x"], #r), "and keeps the rows recorded")
  os.remove(path)
end

-- errors: a clean Lua error, no file left behind
do
  tap.raises(function() run:mat(tmp .. "/no/such/run.mat") end,
    "run:mat: cannot write '" .. tmp .. "/no/such/run.mat': No such file or directory; the folder '" .. tmp ..
      "/no/such' does not exist: create it first with mech.mkdir(\"" .. tmp .. "/no/such\")",
    "a missing folder names the path and mech.mkdir")
  local ro = tmp .. "/ro"
  mech.mkdir(ro)
  os.execute(string.format("chmod 555 %q", ro))
  local writable = io.open(ro .. "/probe", "w") -- root writes anywhere
  if writable then
    writable:close()
    os.remove(ro .. "/probe")
    tap.skip("running as root: a read-only folder is writable", 1)
  else
    tap.raises(function() run:mat(ro .. "/run.mat") end,
      "run:mat: cannot write '" .. ro .. "/run.mat': Permission denied", "an unwritable folder")
  end
  os.execute(string.format("chmod 755 %q", ro))
  -- sysfs refuses new files to root as well
  tap.raises(function() run:mat("/sys/run.mat") end,
    "run:mat: cannot write '/sys/run.mat': Permission denied", "a folder where no file can be created")
  tap.raises(function() run:mat(tmp .. "/x.mat", { version = "7" }) end,
    "run:mat: field 'version' must be", "an unknown version")
  tap.raises(function() run:mat(tmp .. "/x.mat", { verison = "7.3" }) end, "verison",
    "a misspelled option")
  tap.raises(function() run:mat(tmp .. "/x.mat", { columns = { "nope" } }) end,
    "run:mat: columns[1]: channel 'nope' was not recorded in this run", "an unknown channel")
  tap.raises(function() run:mat(tmp .. "/x.mat", { columns = "pin.fx" }) end,
    "run:mat: field 'columns' must be a list of channel names", "columns not a list")
  tap.raises(function() run:mat(42) end, "run:mat: expected a file name (a string), got number",
    "a path that is not a string")
  tap.raises(function() run:mat(tmp .. "/x\0.mat") end, "run:mat: the file name contains a zero byte",
    "a zero byte")
  tap.raises(function() run:mat(tmp .. "/x.mat", { params = 3 }) end,
    "run:mat: field 'params' must be a table", "params not a table")
  -- a path that is a folder: the temporary file is written, the rename fails
  mech.mkdir(tmp .. "/dir.mat")
  tap.raises(function() run:mat(tmp .. "/dir.mat") end, "run:mat: cannot write '" .. tmp .. "/dir.mat': Is a directory",
    "a path that is a folder")
  local left = io.popen(string.format("ls -A %q %q", tmp, ro)):read("a")
  tap.ok(not left:find("%.mat%."), "no temporary file is left behind")
  os.remove(tmp .. "/dir.mat")
  os.remove(ro)
end

-- a file that outgrows what the system lets it be (as on a full disk): an error, no file,
-- and a program that ends cleanly (HDF5 crashed at exit after a failed MAT 7.3 write)
do
  local script = tmp .. "/big.lua"
  local f = assert(io.open(script, "w"))
  f:write([[
local sys = mech.planar{}
local b = sys:body{ name = "b", mass = 1, inertia = 1, velocity = { 1, 0 } }
local run = sys:simulate{ t = 1, report = 1e-4, record = { "b.x", "b.y", "b.vx", "b.vy" } }
for _, v in ipairs{ "5", "7.3" } do
  local ok, err = pcall(run.mat, run, arg[1] .. "/big" .. v .. ".mat", { version = v })
  print(v, ok, err)
end
]])
  f:close()
  local mechlua = assert(os.getenv("MECHLUA"), "run under tests/run")
  local p = assert(io.popen(string.format("trap '' XFSZ; ulimit -f 64; %q %q %q 2>&1", mechlua, script, tmp)))
  local out = p:read("a")
  local ok, how, code = p:close()
  tap.ok(ok and how == "exit" and code == 0, "the program ends cleanly (" .. tostring(how) .. " " .. tostring(code) .. ")")
  tap.like(out, "\n?5\tfalse\trun:mat: cannot write '[^']*/big5%.mat': File too large\n",
    "MAT 5: the error says why")
  tap.like(out, "7%.3\tfalse\trun:mat: cannot write '[^']*/big7%.3%.mat': File too large\n",
    "MAT 7.3: the error says why")
  local left = io.popen(string.format("ls -A %q", tmp)):read("a")
  tap.is(left, "big.lua\n", "and no file is left, whole or partial")
  os.remove(script)
end

os.remove(tmp)
tap.done()
