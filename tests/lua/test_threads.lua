-- SPDX-License-Identifier: MIT
-- mechlua starts no thread it does not use (issue 14, item 12).  With OpenBLAS as the BLAS
-- (Debian's libopenblas0-pthread, in tools/packages; the child processes below point
-- LD_LIBRARY_PATH at it, whichever BLAS the system has chosen), loading it used to start
-- its pool of threads in every process, two even for print(1).  LAPACKE, and with it the
-- BLAS, is now loaded when a flexible body's frequencies are first asked for, with one
-- BLAS thread unless the user asks for more.
local tap = require "tap"

local openblas = "/usr/lib/x86_64-linux-gnu/openblas-pthread"
local program = os.getenv("MECHLUA") or arg[-1]

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

-- Runs code in a child mechlua with OpenBLAS as its BLAS and env (a shell prefix) set;
-- returns what it printed.
local function child(code, env)
  local script = os.tmpname()
  local f = assert(io.open(script, "w"))
  f:write([[
local function threads()
  for l in io.lines("/proc/self/status") do
    local n = l:match("^Threads:%s*(%d+)")
    if n then return tonumber(n) end
  end
end
local function blas()
  for l in io.lines("/proc/self/maps") do
    local lib = l:match("(lib[%w_]*blas[%w_.-]*%.so[%d.]*)%s*$")
    if lib then return lib end
  end
  return "none"
end
]], code)
  f:close()
  local p = assert(io.popen(string.format("env -u OPENBLAS_NUM_THREADS -u GOTO_NUM_THREADS "
    .. "-u OMP_NUM_THREADS LD_LIBRARY_PATH='%s' %s '%s' '%s' 2>&1", openblas, env or "",
    program, script)))
  local out = p:read("a")
  p:close()
  os.remove(script)
  return out
end

if not exists(openblas .. "/libblas.so.3") then
  tap.skip("OpenBLAS is not installed (Debian package libopenblas0-pthread, tools/packages)", 6)
  tap.done()
end

local start = child('print("threads", threads(), blas())')
tap.is(start:match("threads\t(%d+)"), "1", "a script that uses no BLAS runs on one thread")
tap.is(start:match("threads\t%d+\t(%S+)"), "none", "and loads no BLAS at all")
if start:match("threads\t(%d+)") ~= "1" then tap.diag(start) end

local fe = child([[
local sys = mech.planar{}
local b = sys:flexible{ name = "s", mesh = mech.mesh.rectangle{ size = { 1, 1 }, nx = 3, ny = 3 },
  E = 1e3, density = 1 }
local w = b:frequencies{ n = 4, mass = "consistent" }
print("threads", threads(), blas(), os.getenv("OPENBLAS_NUM_THREADS"), string.format("%.6g", w[4]))
]])
local n, lib, var, w4 = fe:match("threads\t(%d+)\t(%S+)\t(%S+)\t(%S+)")
tap.like(lib, "openblas", "fe:frequencies loads the BLAS, here OpenBLAS")
tap.is(n, "1", "with one thread: OPENBLAS_NUM_THREADS = 1 while it is loaded")
tap.is(var, "nil", "and the variable is gone after (child processes see the user's environment)")
if n ~= "1" then tap.diag(fe) end
tap.ok(tonumber(w4) and tonumber(w4) > 0, "the frequencies come out (4th: " .. tostring(w4) .. " rad/s)")

tap.done()
