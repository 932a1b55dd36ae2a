-- F1 (tests/fuzz/FINDINGS.md): when memory runs out in mech_simulate after it described
-- the run (here while it sets up the event), it returns the failed run, and pushing that
-- to Lua (lmech_push_run in sys_simulate) then fails too: the run is never freed.  Needs the sanitizer build (module faultinject); LeakSanitizer
-- reports at exit: Direct leak ... run_create < mech_simulate < sys_simulate.
local fi = require "faultinject"
local sys = mech.planar{ gravity = { 0, -9.81 } }
sys:body{ name = "b", mass = 1, inertia = 1 }
local function go()
  return sys:simulate{ t = 1e-3, quiet = true, record = { "b.x" },
    events = { { channel = "b.y", value = -1e-6 } } }
end
for k = 1, 100 do
  fi.arm(k)
  pcall(go)
  fi.disarm()
end
