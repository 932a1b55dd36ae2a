-- F3 (tests/fuzz/FINDINGS.md): fig:save of a figure whose inset has one axis label set
-- crashes (SEGV in lua_rawgeti < plan_figure < fig_save): push_axis_label in
-- stdlib/lplot.c leaves the series list on the stack when it finds no label, so the
-- inset loop of plan_figure indexes the wrong value.  Found by the fuzzer in 3 minutes
-- (seed 1, case 183).
local plot = require "plot"
local fig = plot.figure{}
fig:panel(1):inset{ at = { 0.5, 0.5, 0.4, 0.4 } }:set{ xlabel = "x" }
print(pcall(fig.save, fig, os.tmpname() .. ".png"))
