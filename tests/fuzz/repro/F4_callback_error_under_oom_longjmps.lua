-- F4 (tests/fuzz/FINDINGS.md): a Lua channel returns a value that is not a number while
-- memory runs out: the callback trampoline in vm/lsystem.c formats its message with
-- lua_pushfstring outside any protected call, so the memory error longjmps through
-- mech_simulate.  Everything mech_simulate allocated leaks (LeakSanitizer: mech_simulate
-- < sys_simulate), and the system stays marked as running: every later sys:simulate fails
-- "the system cannot change while it is simulated".  Needs the sanitizer build
-- (faultinject).  Found by the fuzzer in 6 minutes (seed 1, case 746).
local fi = require "faultinject"
local sys = mech.planar{ gravity = { 0, -9.81 } }
sys:body{ name = "b", mass = 1, inertia = 1 }
local function go()
  return sys:simulate{ t = 1e-3, quiet = true, record = { u = function() return true end } }
end
pcall(go) -- fails as it should: "result #1 must be a number (got boolean)"
for n = 1, 100 do
  collectgarbage()
  fi.arm(n)
  local ok, err = pcall(go)
  local count = fi.disarm()
  if count < n then print(n, err) break end --> 46 ... the system cannot change while it is simulated
end
