-- SPDX-License-Identifier: MIT
-- tap: Test Anything Protocol output for mechlua scripts, read by prove(1).
--
--   local tap = require "tap"
--   tap.plan(3)
--   tap.ok(1 + 1 == 2, "addition")
--   tap.near(math.pi, 3.14159, 1e-5, "pi")
--   tap.raises(function() error("boom") end, "boom", "errors are caught")
--   tap.done()        -- exits with status 1 if anything failed
local tap = {}

local planned, run, failed = nil, 0, 0

local function out(...)
  io.stdout:write(...)
end

-- Writes each line of msg as a TAP diagnostic ("# ...").
function tap.diag(msg)
  for line in (tostring(msg) .. "\n"):gmatch("(.-)\n") do
    out("# ", line, "\n")
  end
end

function tap.plan(n)
  assert(math.type(n) == "integer" and n >= 0, "tap.plan: count must be a non-negative integer")
  planned = n
  out("1..", n, "\n")
end

function tap.ok(cond, name)
  run = run + 1
  if not cond then failed = failed + 1 end
  out(cond and "" or "not ", "ok ", run, name and (" - " .. name) or "", "\n")
  return cond and true or false
end

-- Passes when got == want (raw equality).
function tap.is(got, want, name)
  local pass = tap.ok(got == want, name)
  if not pass then
    tap.diag(string.format("got:  %s\nwant: %s", tostring(got), tostring(want)))
  end
  return pass
end

-- Passes when |got - want| <= tol, both numbers.
function tap.near(got, want, tol, name)
  local pass = type(got) == "number" and type(want) == "number" and math.abs(got - want) <= tol
  tap.ok(pass, name)
  if not pass then
    tap.diag(string.format("got:  %.17g\nwant: %.17g (tolerance %g)",
      tonumber(got) or 0 / 0, tonumber(want) or 0 / 0, tol))
  end
  return pass
end

-- Passes when the string s matches the Lua pattern.
function tap.like(s, pattern, name)
  local pass = type(s) == "string" and s:find(pattern) ~= nil
  tap.ok(pass, name)
  if not pass then
    tap.diag(string.format("got:     %s\npattern: %s", tostring(s), pattern))
  end
  return pass
end

-- Passes when fn(...) raises an error whose message contains `text` (plain text, not a
-- pattern: error messages are full of pattern characters).  Returns the message.
function tap.raises(fn, text, name, ...)
  local ok, err = pcall(fn, ...)
  local msg = not ok and tostring(err) or nil
  local pass = msg ~= nil and msg:find(text, 1, true) ~= nil
  tap.ok(pass, name)
  if not pass then
    tap.diag(ok and "no error was raised" or string.format("error:    %s\nexpected: %s", msg, text))
  end
  return msg
end

function tap.skip(reason, count)
  count = count or 1
  assert(math.type(count) == "integer" and count >= 0 and count <= 1000000,
    "tap.skip: count must be an integer from 0 to 1000000")
  for _ = 1, count do
    run = run + 1
    out("ok ", run, " # SKIP ", reason or "", "\n")
  end
end

-- Ends the test: prints the plan if none was given and exits with status 0 only when
-- every test passed and the plan was met.
-- The contents of the file at path, or nil when it cannot be read.
function tap.slurp(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("a")
  f:close()
  return text
end

-- Runs the script at path in this process, with arg = { [0] = path, ... } and its printed
-- lines kept instead of written (stdout belongs to TAP): returns whether it ran without error,
-- the lines it printed and its error (nil when none).  arg and print are restored either way.
function tap.script(path, ...)
  local printed = {}
  local print0, arg0 = print, arg
  print = function(...)
    local t = table.pack(...)
    for i = 1, t.n do t[i] = tostring(t[i]) end
    printed[#printed + 1] = table.concat(t, "\t")
  end
  arg = table.pack(...)
  arg.n, arg[0] = nil, path
  local ok, err = pcall(dofile, path)
  print, arg = print0, arg0
  if ok then return true, printed end
  return false, printed, err
end

function tap.done()
  if not planned then out("1..", run, "\n") end
  if planned and planned ~= run then
    tap.diag(string.format("planned %d tests but ran %d", planned, run))
  end
  io.stdout:flush()
  os.exit((failed == 0 and (not planned or planned == run)) and 0 or 1, true)
end

return tap
