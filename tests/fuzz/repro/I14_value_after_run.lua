-- Issue 14 item 14 (tests/fuzz/FINDINGS.md): sys:value after a run reads the integrator
-- state mech_simulate freed (ASan: heap-use-after-free in body_value, freed by
-- mech_integ_free < mech_simulate).  Found by the fuzzer in 1 s (seed 1, case 3).
local s = mech.planar{}
s:body{ name = "b", mass = 1, inertia = 1 }
s:simulate{ t = 0.01, quiet = true }
print(s:value("b.x"))
