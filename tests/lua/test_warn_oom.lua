-- SPDX-License-Identifier: MIT
-- A plausibility warning (lu_warn) when memory runs out: the allocations of the warning
-- (its text, the set of warnings given) fail inside a protected call, so the warning is
-- lost but the function that gave it succeeds, and nothing crashes or leaks.
--
-- One child mechlua per k: allocation k after faultinject.arm and every later one fail
-- (mode "fail") while sys:body adds a body whose angle is a slip (78 rad) inside pcall;
-- then the fault is disarmed and the child reports whether the body was added.  Needs a
-- build with MECH_FAULT_INJECTION (the sanitizer build).
package.path = (os.getenv("MECHLUA_SOURCE") or ".") .. "/tests/lib/?.lua;" .. package.path
local oomtest = require "oomtest"
oomtest.skip_unless_available()
local sh, slurp, sanitizer_reports = oomtest.sh, oomtest.slurp, oomtest.sanitizer_reports
local tap = require "tap"

local child = os.tmpname()
local f = assert(io.open(child, "w"))
f:write([[
local fi = require "faultinject"
local sys = mech.planar()
local def, body, k = { name = "crank", mass = 1, inertia = 1, angle = 78 }, sys.body, tonumber(os.getenv("K"))
fi.arm(k)
local ok = pcall(body, sys, def)
local n = fi.disarm()
print(ok and "added" or "failed", n, sys:entity("crank") ~= nil)
]])
f:close()

local warning = "mechlua: warning: body 'crank': angle = 78 rad is more than 2 pi: degrees? use "
  .. "mech.deg(78)"
local function run(k)
  local errfile = os.tmpname()
  local p = io.popen("K=" .. k .. " " .. sh(arg[-1]) .. " " .. sh(child) .. " 2>" .. sh(errfile))
  local out = p:read("a")
  local _, _, code = p:close()
  local err = slurp(errfile)
  os.remove(errfile)
  return code, out, err
end

-- the allocations of the call, counted by a run with k out of reach
local code, out, err = run(1000000)
local total = tonumber(out:match("^added\t(%d+)\ttrue"))
tap.ok(code == 0 and total and total > 2, "the call allocates " .. tostring(total) .. " times")
tap.ok(err:find(warning, 1, true) ~= nil, "and warns with memory to spare")
total = total or 0

local bad, lost, failed = {}, 0, 0
for k = 1, total do
  code, out, err = run(k)
  local verdict, _, present = out:match("^(%a+)\t(%d+)\t(%a+)")
  local reports = sanitizer_reports(err)
  if code ~= 0 or not verdict or #reports > 0 then
    bad[#bad + 1] = string.format("k = %d: status %s, %s%s", k, tostring(code), out:sub(1, 80),
      reports[1] or err:sub(1, 300))
  elseif verdict == "added" then
    if present ~= "true" then bad[#bad + 1] = "k = " .. k .. ": added but not in the system" end
    if not err:find(warning, 1, true) then lost = lost + 1 end
  else
    failed = failed + 1
    if present ~= "false" then bad[#bad + 1] = "k = " .. k .. ": failed but in the system" end
    if err:find("warning", 1, true) then bad[#bad + 1] = "k = " .. k .. ": failed but warned" end
  end
end
tap.is(#bad, 0, "every k: the child ends well, no sanitizer report, a failed call adds nothing")
for i = 1, math.min(#bad, 10) do tap.diag(bad[i]) end
tap.ok(failed > 0, "the memory error fails the call at " .. failed .. " of the " .. total .. " k")
tap.ok(lost > 0, "at " .. lost .. " k it comes in the warning: the body is added, the warning lost")
os.remove(child)
tap.done()
