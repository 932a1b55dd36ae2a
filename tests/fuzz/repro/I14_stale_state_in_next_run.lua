-- Issue 14 item 14, second face (tests/fuzz/FINDINGS.md): the system keeps pointing at the
-- state of its last run (y_eval, freed with the integrator).  With a gravity of 1e308
-- (issue item 3) the next run records its first row before any evaluation and reads the
-- freed state: heap-use-after-free in system_value < mech_channel_value < channel_values <
-- record_row, freed by mech_integ_free < mech_simulate (or by free_workspace <
-- mech_system_finalize).  Found by the fuzzer in 9 minutes (seed 3, case 562).
local s = mech.planar{ gravity = { 1e308, 1e308 } }
print(pcall(s.simulate, s, { t = 0.01, quiet = true, record = { "system.kinetic" } }))
s:body{ name = "late", mass = 1, inertia = 1 }
print(pcall(s.simulate, s, { t = 0.01, quiet = true, record = { "system.balance" } }))
