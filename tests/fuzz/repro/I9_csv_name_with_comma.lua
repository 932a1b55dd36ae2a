-- Issue 14 item 9 (tests/fuzz/FINDINGS.md): an entity named "a,b" (or with a quote or a
-- newline) gives a CSV header with one more field than its rows.  Found by the fuzzer's
-- CSV oracle in 7 minutes (seed 1, case 889: a joint named with a comma).
local sys = mech.planar{}
sys:body{ name = "a,b", mass = 1, inertia = 1 }
local path = os.tmpname()
sys:simulate{ t = 1e-3, report = 1e-3, quiet = true, record = { "a,b.x" } }:csv(path)
for line in io.lines(path) do print(line) end --> t [s],a,b.x [m]  then  0,0
os.remove(path)
