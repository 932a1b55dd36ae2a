-- Issue 14 item 1 (tests/fuzz/FINDINGS.md): a callback that closes its own system while
-- sys:lyapunov (or sys:simulate) integrates it: heap-use-after-free in the right-hand side
-- (freed by mech_system_destroy < sys_gc).  Found by the fuzzer in 8 s (seed 1, case 17).
local sys = mech.planar{ gravity = { 0, -9.81 } }
local b = sys:body{ name = "b", mass = 1, inertia = 0.1, at = { 0.5, 0 } }
sys:revolute{ sys.ground, b, at = { 0, 0 } }
sys:spring{ sys.ground, b, at = { { 0, 0.5 }, { 0.5, 0 } }, law = function(l)
  getmetatable(sys).__close(sys)
  return 10 * (l - 0.5)
end }
print(pcall(sys.lyapunov, sys, { t = 1e-3, every = 1e-4, method = "rk4", h = 1e-4 }))
