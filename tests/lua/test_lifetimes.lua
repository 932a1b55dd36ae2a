-- SPDX-License-Identifier: MIT
-- Object lifetimes and re-entrancy (issue 14): Ctrl-C delivered to callbacks and to
-- run:csv; names and parameters in the CSV header.
local tap = require "tap"

-- A body at (0.5, 0) moving at 1 m/s, under gravity.
local function body_system()
  local s = mech.planar{ gravity = { 0, -9.81 } }
  local b = s:body{ name = "b", mass = 1, inertia = 1, at = { 0.5, 0 }, velocity = { 1, 0 } }
  return s, b
end

-- ---- 7. a Ctrl-C caught by a pcall in a callback is delivered, then cleared ----------------

do
  local s, b = body_system()
  s:assemble()
  local caught
  s:force{ b, fn = function()
    if caught == nil then
      caught = false
      local ok, err = pcall(function()
        local k = io.popen("kill -INT $PPID") -- Ctrl-C, as the terminal sends it
        k:close()
        for _ = 1, 10 do end
      end)
      caught = not ok and tostring(err)
    end
    return 0
  end }
  local ok1, r1 = pcall(s.simulate, s, { t = 0.01 })
  tap.like(caught, "interrupted", "the Ctrl-C reached the pcall in the callback")
  tap.ok(ok1 and r1.status == "complete", "the run goes on: the callback handled it")
  local ok2, r2 = pcall(s.simulate, s, { t = 0.01 })
  tap.ok(ok2 and r2.status == "complete", "and the next run is not interrupted at t = 0")
end

-- ---- 8. Ctrl-C while run:csv writes: no file, no temporary, an error ----------------------

do
  local pid = io.open("/proc/self/stat"):read("l"):match("^(%d+)")
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir '" .. dir .. "'"))
  local path = dir .. "/big.csv"
  local tmp = path .. ".tmp" .. pid
  -- the writer's temporary file is a pipe: a reader takes 100 bytes and presses Ctrl-C;
  -- if 1 MB more still flows, it presses Ctrl-C again (the old writer went on, and the
  -- second Ctrl-C killed the program, leaving the temporary file)
  assert(os.execute("mkfifo '" .. tmp .. "'"))
  local reader = string.format([[
exec 3<'%s'
head -c 100 <&3 >/dev/null
kill -INT %s
if [ "$(head -c 1000000 <&3 | wc -c)" -ge 1000000 ]; then kill -INT %s; fi
cat <&3 >/dev/null
]], tmp, pid, pid)
  local sh = assert(io.open(dir .. "/reader.sh", "w"))
  sh:write(reader)
  sh:close()
  local s = body_system()
  local r = s:simulate{ t = 0.5, report = 1e-5, record = { "b.x", "b.y", "b.vx", "b.vy" } }
  assert(os.execute("sh '" .. dir .. "/reader.sh' &"))
  local ok, err = pcall(r.csv, r, path)
  tap.ok(not ok and err:find("run:csv: csv: interrupted; '" .. path .. "' was not written", 1, true),
    "Ctrl-C while writing: an error that says the file was not written")
  tap.is(io.open(path), nil, "no file")
  tap.is(io.open(tmp), nil, "no temporary file")
  local again = r:csv(path)
  tap.is(again, path, "the next run:csv writes the file")
  os.remove(path)
  os.remove(dir .. "/reader.sh")
  os.remove(dir)
end

-- ---- 9. names and parameters in the CSV header --------------------------------------------

do
  local s = mech.planar{}
  s:body{ name = 'a,"b', mass = 1, inertia = 1 }
  tap.raises(function() s:body{ name = "x\ny", mass = 1 } end,
    "sys:body: body: name must not contain control characters (byte 0x0a at position 2)",
    "a newline in a name is refused")
  tap.raises(function() s:body{ name = "x\0y", mass = 1 } end,
    "sys:body: field 'name' must not contain a zero byte", "a zero byte in a name is refused")
  local b = s:body{ name = "c", mass = 1, inertia = 1 }
  tap.raises(function() b:point{ name = "p\tq" } end, "without '.' and control characters",
    "a tab in a point's name is refused")
  local r = s:simulate{ t = 0.01, record = { 'a,"b.x', ["q,r"] = function() return 1 end },
    params = { note = "two\nlines", ["k\r"] = 1 } }
  local path = os.tmpname()
  r:csv(path)
  local lines = {}
  for line in io.lines(path) do lines[#lines + 1] = line end
  os.remove(path)
  local header
  for _, line in ipairs(lines) do
    if line:sub(1, 1) ~= "#" then header = header or line end
  end
  tap.is(header, 't [s],"a,""b.x [m]","q,r []"', "names with a comma or a quote are quoted (RFC 4180)")
  tap.is(lines[2], "# parameter k\\r = 1", "a control character in a parameter's key is escaped")
  tap.is(lines[3], "# parameter note = two\\nlines", "a newline in a parameter stays on its line")
end

tap.done()
