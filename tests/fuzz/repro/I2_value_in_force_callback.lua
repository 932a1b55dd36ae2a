-- Issue 14 item 2 (tests/fuzz/FINDINGS.md): sys:value from a force callback while the
-- system evaluates its forces (from the first right-hand side on) reads a state that is
-- not set: SEGV (NULL read) in system_value < mech_channel_value < sys_value.  Found by the
-- fuzzer in 82 s (seed 1, case 74).
local sys = mech.planar{ gravity = { 0, -9.81 } }
local b = sys:body{ name = "b", mass = 0.5, inertia = 0.05, at = { 1, 0 } }
sys:force{ b, body_at = { 0.1, 0 }, fn = function(t, x, y)
  return -x, -sys:value("system.balance"), 0
end }
print(pcall(sys.simulate, sys, { t = 0.005, quiet = true }))
