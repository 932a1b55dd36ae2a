-- SPDX-License-Identifier: MIT
-- What the allocation-failure tests (tests/lua/test_alloc_fail.lua, test_oom.lua) share:
-- they skip on builds without fault injection, run their sweeps in a child mechlua (the
-- same script with the argument "child") whose stdout carries "RESULT ok|not <name>" and
-- "DIAG <text>" lines, and read the child's stderr for sanitizer reports, LeakSanitizer's
-- at exit included.
--
--   package.path = os.getenv("MECHLUA_SOURCE") .. "/tests/lib/?.lua;" .. package.path
--   local oomtest = require "oomtest"
--   oomtest.skip_unless_available()
--   if arg[1] ~= "child" then
--     local code, reports, stderr = oomtest.run_child(tap)   -- RESULT lines become tests
--   else
--     local tap = oomtest.child_tap()                         -- prints RESULT lines
--   end
local oomtest = {}

-- Ends the test with a TAP skip when the build has no module faultinject.
function oomtest.skip_unless_available()
  if not package.preload.faultinject then
    print("1..0 # SKIP this build has no allocation fault injection (MECH_FAULT_INJECTION)")
    os.exit(0)
  end
end

-- s quoted for sh.
function oomtest.sh(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- The contents of a file, "" when it cannot be read.
function oomtest.slurp(path)
  local f = io.open(path)
  if not f then return "" end
  local s = f:read("a")
  f:close()
  return s
end

-- The sanitizer reports in text: a list of "kind: f < g < h < i" (the top of each stack,
-- without the interceptors and allocator wrappers).
function oomtest.sanitizer_reports(text)
  local found = {}
  for para in (text .. "\n\n"):gmatch("(.-)\n%s*\n") do
    local kind = para:match("^%s*Direct leak") and "leak"
      or para:match("ERROR: AddressSanitizer: ([%w-]+)") or para:match("runtime error") and "ubsan"
    if kind then
      local names = {}
      for fn in para:gmatch("#%d+ 0x%x+ in ([%w_]+)") do
        if not fn:match("^__") and not fn:match("^mech_[mcr]e?alloc$") and not fn:match("^[mcr]e?alloc$")
          and #names < 4 then
          names[#names + 1] = fn
        end
      end
      found[#found + 1] = kind .. ": " .. table.concat(names, " < ")
    end
  end
  return found
end

-- Runs this script with the argument "child", turning its RESULT lines into tests of tap
-- and its DIAG lines into diagnostics; returns its exit status, its sanitizer reports
-- and its stderr.
function oomtest.run_child(tap)
  local sh = oomtest.sh
  local errfile = os.tmpname()
  local child = io.popen(sh(arg[-1]) .. " " .. sh(arg[0]) .. " child 2>" .. sh(errfile))
  for line in child:lines() do
    local verdict, name = line:match("^RESULT (%a+) (.*)$")
    if verdict then tap.ok(verdict == "ok", name)
    elseif line:match("^DIAG ") then tap.diag(line:sub(6)) end
  end
  local _, _, code = child:close()
  local stderr = oomtest.slurp(errfile)
  os.remove(errfile)
  return code, oomtest.sanitizer_reports(stderr), stderr
end

-- run_child, then the child's verdict as tests of tap: no sanitizer report, a clean exit
-- (what, when given, names the child in the tests' names).
function oomtest.check_child(tap, what)
  local code, reports, stderr = oomtest.run_child(tap)
  local prefix = what and what .. ": " or ""
  tap.is(#reports, 0, prefix .. "no sanitizer report (crash, leak, undefined behaviour)")
  for i = 1, math.min(#reports, 10) do tap.diag(reports[i]) end
  tap.is(code, 0, what and what .. "'s child ended well" or "the child ended well")
  if code ~= 0 and #reports == 0 then tap.diag(stderr:sub(1, 2000)) end
end

-- The whole of a test whose only work is its child's: in the parent (no argument "child"),
-- runs the child, checks it and exits (tap.done); in the child, returns.
function oomtest.parent_checks_child()
  if arg[1] == "child" then return end
  local tap = require "tap"
  oomtest.check_child(tap)
  tap.done()
end

-- The child's tap: ok, is and diag print the lines run_child reads.
function oomtest.child_tap()
  local tap = {}
  function tap.ok(c, name)
    print((c and "RESULT ok " or "RESULT not ") .. name)
    return c
  end
  function tap.diag(s) print("DIAG " .. tostring(s)) end
  function tap.is(a, b, name)
    if not tap.ok(a == b, name) then tap.diag("got " .. tostring(a) .. ", want " .. tostring(b)) end
  end
  return tap
end

-- A clean failure: Lua's memory error, or libmech's status text for it.
function oomtest.out_of_memory(msg)
  return type(msg) == "string" and (msg:find("not enough memory", 1, true)
    or msg:find("out of memory", 1, true)) ~= nil
end

return oomtest
