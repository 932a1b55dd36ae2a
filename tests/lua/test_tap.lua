-- SPDX-License-Identifier: MIT
-- stdlib tap: its checks must be able to fail.  Each failing case runs in a child
-- mechlua so that its "not ok" lines do not count here.
local tap = require "tap"

local function child(code)
  local prog = arg[-1]
  local tmp = os.tmpname()
  local f = assert(io.open(tmp, "w"))
  f:write('local tap = require "tap"\n', code, "\ntap.done()\n")
  f:close()
  local p = assert(io.popen(string.format("'%s' '%s' 2>&1", prog, tmp)))
  local out = p:read("a")
  local _, _, status = p:close()
  os.remove(tmp)
  return out, status
end

local out, status = child('tap.ok(true, "fine") tap.ok(false, "broken")')
tap.like(out, "ok 1 %- fine\nnot ok 2 %- broken\n1%.%.2\n", "ok and not ok lines, plan at the end")
tap.is(status, 1, "a failure makes the exit status 1")

out, status = child('tap.near(1.0, 1.1, 0.01, "close")')
tap.like(out, "not ok 1 %- close\n# got:  1\n# want: 1%.1", "near fails outside the tolerance")
tap.is(status, 1, "and the status says so")

out, status = child('tap.plan(2) tap.ok(true)')
tap.like(out, "# planned 2 tests but ran 1", "an unmet plan is reported")
tap.is(status, 1, "an unmet plan fails")

out = child('tap.raises(function() end, "x", "no error")')
tap.like(out, "not ok 1 %- no error\n# no error was raised", "raises fails when nothing is raised")
out = child('tap.raises(function() error("other") end, "no such text", "wrong error")')
tap.like(out, "not ok 1 %- wrong error\n# error:", "raises fails on another message")

out, status = child('tap.ok(true) tap.is(2, 2) tap.like("abc", "b") tap.skip("later")')
tap.is(status, 0, "passing checks exit 0")
tap.like(out, "ok 4 # SKIP later", "skip is reported as such")

tap.raises(function() tap.skip("why", 2 ^ 63) end, "tap.skip: count must be an integer from 0 to 1000000",
  "skip refuses a count it would print for ever (2^63 lines)")
tap.raises(function() tap.skip("why", 1.5) end, "count must be an integer", "and a fraction")

tap.done()
