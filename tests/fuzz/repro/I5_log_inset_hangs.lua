-- Issue 14 item 5 (tests/fuzz/FINDINGS.md): an inset on a log axis over data down to the
-- smallest subnormal: fig:save loops for ever in log_ticks (stdlib/lplot.c) and ignores
-- Ctrl-C (the fuzzer's watchdog: SIGINT, then SIGKILL 10 s later).  Found by the fuzzer in
-- 5.5 minutes (seed 3, case 364).
local plot = require "plot"
local fig = plot.figure{ width = 160, height = 40, dpi = 72 }
local inset = fig:panel(1):inset{ at = { 0.5, 0.5, 0.4, 0.4 }, xlim = { 0, 0.001 } }
inset:line{ y = { 5e-324, 1 } }
inset:set{ xlim = { -0.28, 6.69 }, ylog = true }
fig:save(os.tmpname() .. ".png") -- never returns
