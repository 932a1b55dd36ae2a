-- Issue 14 item 4 (tests/fuzz/FINDINGS.md): an axis label that is not UTF-8 leaks about
-- 5 kB in PLplot's cairo driver (LeakSanitizer, allocation in cairo.so).  Found by the
-- fuzzer in 2 minutes (seed 1, case 130).
local plot = require "plot"
local fig = plot.figure{ width = 80, height = 40, dpi = 50 }
fig:panel(1):line{ y = { 1, 2 } }:set{ xlabel = "\195\040" }
fig:save(os.tmpname() .. ".png")
