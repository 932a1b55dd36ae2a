-- Issue 14 item 7 (tests/fuzz/FINDINGS.md): a Ctrl-C whose "interrupted" error a pcall
-- caught stays pending: the next sys:simulate fails "interrupted at t = 0", and a second
-- Ctrl-C would kill the program.  Needs the sanitizer build: faultinject raises the SIGINT
-- (as a Ctrl-C would) at the 1st allocation after arm.  Found by the fuzzer in 6 s.
local fi = require "faultinject"
local sys = mech.planar{}
sys:body{ name = "b", mass = 1, inertia = 1 }
print(pcall(function() fi.arm(1, "interrupt"); local t = {} end)) --> false ...: interrupted
fi.disarm()
print(pcall(sys.simulate, sys, { t = 1e-3, quiet = true }))      --> false ... interrupted at t = 0
