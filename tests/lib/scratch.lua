-- SPDX-License-Identifier: MIT
-- A scratch folder for the tests that write files (animations, ParaView files), and what is
-- in it: the tests check that a failed call leaves nothing behind.
--
--   package.path = (os.getenv("MECHLUA_SOURCE") or ".") .. "/tests/lib/?.lua;" .. package.path
--   local scratch = require "scratch"
--   local dir = scratch.dir()         -- a new empty folder
--   local before = scratch.ls(dir)    -- its listing ("a.gif\nb\n"), as ls -A prints it
--   ...
--   scratch.remove(dir)
local scratch = {}

function scratch.dir()
  local dir = os.tmpname()
  os.remove(dir)
  mech.mkdir(dir)
  return dir
end

function scratch.ls(dir)
  local p = io.popen("ls -A '" .. dir .. "' 2>/dev/null")
  local s = p:read("a")
  p:close()
  return s
end

function scratch.exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

function scratch.remove(dir)
  os.execute("rm -rf '" .. dir .. "'")
end

return scratch
