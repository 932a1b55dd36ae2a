-- SPDX-License-Identifier: MIT
-- Allocation failure on BDF's Jacobian structure and Newton solvers: the slider-crank with a
-- flexible slider of 16 elements (the model's pattern and linear part, grouped columns, the
-- sparse solver; then the dense one) built and run for a few steps once per k with the k-th
-- allocation failing.  Every run must succeed or fail with "not enough memory" (libmech's
-- "out of memory"); nothing may crash or leak, and the run past the last allocation gives the
-- reference's values.  Needs a build with MECH_FAULT_INJECTION (the sanitizer build).
package.path = (os.getenv("MECHLUA_SOURCE") or ".") .. "/tests/lib/?.lua;" .. package.path
local oomtest = require "oomtest"
oomtest.skip_unless_available()

oomtest.parent_checks_child()

local fi = require "faultinject"
local tap = oomtest.child_tap()
local spec000 = require "spec000"

-- Returns the crank's last angle, or raises.
local function scenario(newton)
  local sys = spec000.slider_crank{ nx = 4, ny = 4 }
  local run = sys:simulate{ t = 0.02, report = 1e-2, method = "bdf", rtol = 1e-5, atol = 1e-8,
    max_order = 3, record = { "crank.phi" }, quiet = true, newton = newton }
  assert(run.stats.newton == newton and run.stats.jacobian_linear > 0)
  return run["crank.phi"][#run]
end

for _, newton in ipairs{ "sparse", "dense" } do
  local reference = scenario(newton)
  for _, mode in ipairs{ "fail", "once" } do
    local clean, bad, k, same = 0, {}, 0, false
    while true do
      k = k + 1
      collectgarbage()
      fi.arm(k, mode)
      local ok, v = pcall(scenario, newton)
      local counted = fi.disarm()
      collectgarbage()
      if ok then
        if counted < k then
          same = v == reference
          break
        end
      elseif oomtest.out_of_memory(v) then
        clean = clean + 1
      else
        bad[#bad + 1] = string.format("k = %d: %s", k, tostring(v))
      end
    end
    tap.ok(clean > 0, string.format("%s, mode %s: %d of %d runs ran out of memory", newton, mode, clean, k))
    tap.is(#bad, 0, newton .. ", mode " .. mode .. ": every failing run failed with 'not enough memory'")
    for i = 1, math.min(#bad, 10) do tap.diag(bad[i]) end
    tap.ok(same, newton .. ", mode " .. mode .. ": the run past the last allocation gives the reference's angle")
  end
end
