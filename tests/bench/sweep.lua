-- SPDX-License-Identifier: MIT
-- Benchmark (make bench): a parameter study with module sweep.  200 cases of benchmark A
-- (ideal joints, benchmarks.a), each half a crank revolution at its own speed from 4000 to
-- 5990 rpm (t = pi / omega, 0.006 s at 5000 rpm), with RK4 at the papers' step of 1e-6 s,
-- summarised as the slider's peak acceleration: wall time with 1 and 2 workers (each case
-- a fork), the same 200 cases in a plain loop in the program, the parallel efficiency
-- T1 / (2 T2) (target: at least 90 % on 2 cores) and the cost of a case beyond its own work
-- (target: under 5 ms), measured twice: (T1 - T_loop) / 200, and 200 cases that do nothing.
-- Best of three runs each.  Beside them, what the machine itself gives two processes: the
-- same loop split in two programs run at once (no sweep), T_loop / (2 T_pair): a machine
-- whose two "cores" share one (hyperthreads, a quota) bounds the sweep's efficiency by it.
local sweep = require "sweep"
local core = require "sweepcore"
local benchmarks = require "benchmarks"

local fmt = string.format
local folder = os.tmpname()
os.remove(folder)

local speeds = {}
for i = 1, 200 do speeds[i] = 4000 + 10 * (i - 1) end
local design = sweep.grid{ rpm = speeds }

local function case(p)
  local w = mech.rpm(p.rpm)
  local run = benchmarks.a{ speed = w }:simulate{ t = math.pi / w, method = "rk4", h = 1e-6, report = 1e-5,
    record = { "slider.ax" }, quiet = true }
  return { peak = run["slider.ax"]:max() }
end

-- The wall time of f.
local function time(f)
  local t0 = core.now()
  f()
  return core.now() - t0
end

-- Run by itself under mpirun (mechlua sweep.lua --mpi FOLDER): the study with one worker
-- per rank; rank 0 prints its wall time, the MPI start-up aside (a first study of one case).
if arg and arg[1] == "--mpi" then
  sweep.run{ sweep.grid{ warm = { 1 } }, case = function() return {} end, folder = arg[2] .. "/warm", resume = false,
    progress = false, csv = false }
  local t = time(function()
    local res = sweep.run{ design, case = case, folder = arg[2], workers = 1, resume = false, progress = false }
    assert(res.ok == #design, "a case failed")
  end)
  print(fmt("T %.17g", t))
  return
end

local function study(workers, fn)
  return function()
    local res = sweep.run{ design, case = fn, folder = folder, workers = workers, resume = false, progress = false }
    assert(res.ok == #design, "a case failed")
  end
end

print(fmt("sweep: 200 cases of benchmark A, half a revolution each (rk4, h = 1e-6 s), %d cores here",
  core.ncores()))
-- the machine: two programs, each with half the cases, at once
local prog = arg and arg[-1] or "mechlua"
local half = [[local b = require "benchmarks" for i = %d, %d do local w = mech.rpm(4000 + 10 * (i - 1))
  b.a{ speed = w }:simulate{ t = math.pi / w, method = "rk4", h = 1e-6, report = 1e-5, record = { "slider.ax" },
  quiet = true } end]]
local pair = fmt("'%s' -e '%s' & '%s' -e '%s' & wait", prog, fmt(half, 1, 100), prog, fmt(half, 101, 200))
-- best of three, the four measures taken in turn (this machine's speed drifts)
local measures = {
  loop = function() for i = 1, #design do case(design[i]) end end,
  one = study(1, case), two = study(2, case), pair = function() assert(os.execute(pair)) end,
  nothing = study(1, function() return {} end),
}
local best = {}
-- under mpirun -n 2, one worker per rank, when Open MPI is here: its time is rank 0's
-- (MPI's start-up aside), the whole mpirun's printed beside it
local mpirun = io.popen("command -v mpirun 2>/dev/null"):read("l")
local mpi_ok = mpirun and require("mpi").available()
local order = { "loop", "one", "two", "pair", "nothing" }
if mpi_ok then
  local script = debug.getinfo(1, "S").source:match("^@(.*)$")
  local cmd = fmt("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 '%s' -n 2 '%s' '%s' --mpi '%s' 2>&1",
    mpirun, prog, script, folder .. "/mpi")
  order[#order + 1] = "mpi"
  measures.mpi = function()
    local t0 = core.now()
    local out = io.popen(cmd):read("a")
    local inner = tonumber(out:match("T (%S+)"))
    assert(inner, "the MPI study failed: " .. out)
    best.mpi_whole = math.min(best.mpi_whole or math.huge, core.now() - t0)
    return inner
  end
end
for _ = 1, 3 do
  for _, k in ipairs(order) do
    local t = k == "mpi" and measures.mpi() or time(measures[k])
    best[k] = best[k] and math.min(best[k], t) or t
  end
end
local t_loop, t1, t2, t_pair, t0 = best.loop, best.one, best.two, best.pair, best.nothing
local eff, eff_m = t1 / (2 * t2), t_loop / (2 * t_pair)
print(fmt("  plain loop in the program   %7.3f s  (%.2f ms per case)", t_loop, 1e3 * t_loop / 200))
print(fmt("  1 worker                    %7.3f s", t1))
print(fmt("  2 workers                   %7.3f s  speed-up %.2f", t2, t1 / t2))
print(fmt("  parallel efficiency         %7.1f %%  target: at least 90 %% on 2 cores  [%s]", 100 * eff,
  core.ncores() < 2 and "one core here: not measured" or eff >= 0.9 and "met" or "NOT met"))
print(fmt("  the machine, 2 programs     %7.3f s  efficiency %.1f %% (the bound here); the sweep's is %.0f %% of it",
  t_pair, 100 * eff_m, 100 * eff / eff_m))
if mpi_ok then
  local eff_mpi = t1 / (2 * best.mpi)
  print(fmt("  mpirun -n 2, 1 worker a rank %7.3f s  (%.3f s for the whole mpirun, start-up included)", best.mpi,
    best.mpi_whole))
  print(fmt("  MPI parallel efficiency     %7.1f %%  target: at least 85 %% under mpirun -n 2  [%s]; %.0f %% of the bound",
    100 * eff_mpi, core.ncores() < 2 and "one core here: not measured" or eff_mpi >= 0.85 and "met" or "NOT met",
    100 * eff_mpi / eff_m))
else
  print("  mpirun -n 2                 not measured: Open MPI's mpirun or the module sweepmpi is not here")
end
local over = (t1 - t_loop) / 200
print(fmt("  overhead per case           %7.2f ms (1 worker against the loop)  target: under 5 ms  [%s]",
  1e3 * over, over < 5e-3 and "met" or "NOT met"))
print(fmt("  a case that does nothing    %7.2f ms (200 of them, 1 worker)      target: under 5 ms  [%s]",
  1e3 * t0 / 200, t0 / 200 < 5e-3 and "met" or "NOT met"))
os.execute("rm -rf '" .. folder .. "'")
