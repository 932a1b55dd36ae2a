-- Issue 14 item 3 (tests/fuzz/FINDINGS.md): a gravity of 1e308 looks finite, but the
-- energy sums overflow: recording "system.applied" reads through a NULL pointer (SEGV in
-- system_value < mech_channel_value < channel_values < record_row).  Found by the fuzzer
-- in 12 s (seed 1, case 219).
local sys = mech.planar{ gravity = { 0, -1e308 } }
local bob = sys:body{ name = "bob", mass = 0.66, inertia = 0.09, at = { 0.87, 0 } }
sys:revolute{ sys.ground, bob, at = { 0, 0 } }
print(pcall(sys.simulate, sys, { t = 0.01, quiet = true, record = { "system.applied" } }))
