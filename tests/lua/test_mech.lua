-- SPDX-License-Identifier: MIT
-- The mech module as scripts see it.
local tap = require "tap"

tap.ok(type(mech) == "table", "mech is a global")
tap.ok(require("mech") == mech, "require 'mech' returns the global")
tap.like(mech.version, "^%d+%.%d+%.%d+$", "mech.version is major.minor.patch")
local major, minor, patch = mech.version:match("^(%d+)%.(%d+)%.(%d+)$")
tap.is(mech.version_number, major * 10000 + minor * 100 + patch,
  "version_number encodes the version string")

-- mech.program_digest: FNV-1a of the program's file, the same however often it is asked
do
  local d = mech.program_digest()
  tap.like(d, "^%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x%x$", "program_digest is 16 hex digits")
  tap.is(mech.program_digest(), d, "and the same on every call")
  local f = io.open("/proc/self/exe", "rb")
  local bytes = f and f:read("a")
  if f then f:close() end
  local h = -3750763034362895579 -- 14695981039346656037
  for i = 1, #(bytes or "") do h = (h ~ bytes:byte(i)) * 1099511628211 end
  tap.is(d, bytes and string.format("%016x", h), "the digest of the program's file")
end

-- mech.mkdir
local base = os.tmpname()
os.remove(base)
local deep = base .. "/a/b/c"
tap.is(mech.mkdir(deep), deep, "mkdir creates missing parents and returns the path")
local f = io.open(deep .. "/probe", "w")
tap.ok(f ~= nil, "the folder is usable")
if f then f:close() end
tap.is(mech.mkdir(deep), deep, "mkdir of an existing folder succeeds")
tap.raises(function() mech.mkdir(deep .. "/probe") end, "cannot create '" .. deep .. "/probe'",
  "mkdir over a file names the path")
tap.raises(function() mech.mkdir("") end, "bad argument #1 to 'mkdir' (path is empty)",
  "empty path is rejected")
tap.raises(function() mech.mkdir() end, "bad argument #1 to 'mkdir' (string expected, got no value)",
  "missing path is rejected")
tap.raises(function() mech.mkdir("a\0b") end, "path contains a zero byte",
  "embedded zero byte is rejected")
os.remove(deep .. "/probe")
for _, d in ipairs{ deep, base .. "/a/b", base .. "/a", base } do os.remove(d) end

tap.done()
