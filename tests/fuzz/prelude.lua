-- The helpers every fuzz case starts with (tests/fuzz/gen.lua copies this file into each
-- case, so that a case stays a reproducer whatever later changes the generator sees).
-- A case is a list of steps S(function() ... end): each runs under pcall, because Lua
-- errors are the expected answer to bad input.  What counts as a finding is decided by
-- tests/fuzz/run from outside (a signal, a sanitizer report, a hang, an exit status
-- other than 0) and, inside, by the oracles below, which end the case with an uncaught
-- error ("fuzz oracle: ...", exit status 1) when the program answered wrongly without
-- crashing.
local V = {}                       -- the objects the steps make and share
local NAN, INF = 0 / 0, math.huge
local FI = package.preload.faultinject and require "faultinject" -- the sanitizer build
local CALLS, ERRORS = 0, 0
local INT_K = nil         -- the allocation at which this step raises SIGINT (H.interrupt)
local INT_PENDING = false -- a SIGINT was raised and its "interrupted" error not seen yet

-- The driver creates the file WATCHDOG before it sends SIGINT: the case then ends quietly.
local function watchdog()
  local f = io.open("WATCHDOG")
  if f then f:close() end
  return f ~= nil
end

local function text(e)
  local ok, s = pcall(tostring, e)
  return ok and type(s) == "string" and s or "(error object with a broken __tostring)"
end

-- A step.  The outer pcall catches the interrupt error that a SIGINT raised late in the
-- step delivers when the inner pcall returns (Lua raises it at the next hook event).
local function S(f)
  if watchdog() then os.exit(3, true) end
  CALLS = CALLS + 1
  io.stderr:write("fuzz-step ", CALLS, "\n") -- the last one names a step that hangs
  local ok0, ok, err = pcall(pcall, f)
  if not ok0 then ok, err = false, ok end
  if FI then
    local n = FI.disarm()
    if INT_K and n >= INT_K then INT_PENDING = true end
  end
  INT_K = nil
  if not ok then
    ERRORS = ERRORS + 1
    local msg = text(err)
    if msg:sub(1, 12) == "fuzz oracle:" then error(msg, 0) end
    if msg:find("interrupted", 1, true) then
      if INT_PENDING then
        INT_PENDING = false
      elseif watchdog() then
        os.exit(3, true)
      else
        error("fuzz oracle: an error says 'interrupted' but no interrupt was sent: " .. msg, 0)
      end
    end
  end
  return ok
end

local H = {}

-- Fault injection (no-ops without the faultinject module): the k-th allocation of the
-- rest of this step fails (mode "fail" or "once") or raises SIGINT as Ctrl-C would.
function H.oom(k, mode)
  if FI then FI.arm(k, mode) end
end

function H.interrupt(k)
  if FI then
    INT_K = k
    FI.arm(k, "interrupt")
  end
end

-- Closes or collects an object through its own metamethods, as a script may.
function H.close(x)
  local mt = debug.getmetatable(x)
  if mt and mt.__close then mt.__close(x) end
end

function H.gc(x)
  local mt = debug.getmetatable(x)
  if mt and mt.__gc then mt.__gc(x) end
end

-- Hostile tables.
function H.rec()
  local t = { 1, 2 }
  t[3], t.x, t.y, t.at = t, t, t, t
  return t
end

function H.deep(n, leaf)
  local t = leaf == nil and {} or leaf
  for _ = 1, n do t = { t, t } end
  return t
end

function H.big(n, v)
  local t = {}
  for i = 1, n do t[i] = v == nil and i * 1e-3 or v end
  return t
end

-- A table whose metamethod `which` raises (a string, or a table error object).
function H.meta(which, t, table_error)
  local err = table_error and setmetatable({}, { __tostring = function() error("nested") end })
    or "fuzz: metamethod " .. which
  return setmetatable(t or {}, { [which] = function() error(err) end })
end

-- A table that serves every field through __index (the argument checks read them).
function H.proxy(t)
  return setmetatable({}, { __index = t, __len = function() return #t end })
end

-- Writes a file (a mesh file, say) into the case's folder and returns its name.
local files = 0
function H.file(content, ext)
  files = files + 1
  local name = "f" .. files .. (ext or ".msh")
  local f = assert(io.open(name, "wb"))
  f:write(content)
  f:close()
  return name
end

-- A callback that runs `action` on its n-th call (once), and returns what ret gives.
function H.cb(n, action, ret)
  local calls = 0
  return function(...)
    calls = calls + 1
    if calls == n and action then action(...) end
    if ret then return ret(...) end
  end
end

-- Oracle: a CSV file that run:csv wrote has as many fields in its header as in every
-- row (quoted fields as RFC 4180 says); a call that failed left no file (`fresh`: the
-- file did not exist before the call).
local function fields(line)
  local n, quoted, i = 1, false, 1
  while i <= #line do
    local c = line:sub(i, i)
    if c == '"' then quoted = not quoted
    elseif c == "," and not quoted then n = n + 1 end
    i = i + 1
  end
  return n, quoted
end

-- Oracle: a file written whole or not at all: present only when the call returned (or was
-- there before), and no temporary file of it left beside it.
function H.check_whole(path, ok, fresh)
  if type(path) ~= "string" or path == "" or path:find("\0", 1, true) then return end
  local f = io.open(path, "rb")
  if f then f:close() end
  if f and not ok and fresh then
    error("fuzz oracle: a call raised an error but wrote '" .. path .. "'", 0)
  end
  if ok and not f then error("fuzz oracle: a call returned but '" .. path .. "' does not exist", 0) end
  local dir, base = path:match("^(.*)/([^/]*)$")
  dir, base = dir or ".", base or path
  local p = io.popen("ls -A '" .. dir:gsub("'", "'\\''") .. "' 2>/dev/null")
  if p then
    for name in p:lines() do
      if name:sub(1, #base + 1) == base .. "." and name:match("^" .. base:gsub("%p", "%%%0") .. "%.%w%w%w%w%w%w$") then
        p:close()
        error("fuzz oracle: a temporary file of '" .. path .. "' was left: " .. name, 0)
      end
    end
    p:close()
  end
end

function H.check_csv(path, ok, fresh)
  local f = io.open(path, "rb")
  if not f then
    if ok then error("fuzz oracle: run:csv returned but '" .. tostring(path) .. "' does not exist", 0) end
    return
  end
  if not ok and fresh then
    f:close()
    error("fuzz oracle: run:csv raised an error but wrote '" .. tostring(path) .. "'", 0)
  end
  local header, rows, nh = nil, 0, nil
  local data = f:read("a")
  f:close()
  local pending = nil -- a header line whose quoted field goes on over a newline
  for line in data:gmatch("([^\n]*)\n") do
    if pending then line = pending .. "\n" .. line; pending = nil end
    if line:sub(1, 1) ~= "#" then
      local n, open = fields(line)
      if open then pending = line
      elseif header == nil then header, nh = line, n
      else
        rows = rows + 1
        if n ~= nh then
          error(string.format("fuzz oracle: %s: row %d has %d fields, the header %d: %s", path,
            rows, n, nh, header:sub(1, 200)), 0)
        end
      end
    end
  end
end

-- Oracle: a run that says it is complete holds finite values of the model's channels
-- ("entity.quantity": Lua channels record what their function returns), and in a sane
-- model (only integrator options and contact laws changed) no position went beyond
-- `bound`.
function H.check_run(run, bound)
  local ok, status = pcall(function() return run.status end)
  if not ok or status ~= "complete" then return end
  for _, ch in ipairs(run.channels) do
    local col = ch:find(".", 1, true) and run[ch] or {}
    for i = 1, #col do
      local v = col[i]
      if v ~= v or v == INF or v == -INF then
        error(string.format("fuzz oracle: run complete but %s[%d] = %s", ch, i, tostring(v)), 0)
      end
      if bound and (ch:match("%.x$") or ch:match("%.y$")) and math.abs(v) > bound then
        error(string.format("fuzz oracle: run complete but %s[%d] = %g runs away (bound %g)",
          ch, i, v, bound), 0)
      end
    end
  end
end

-- Runs f in a coroutine (so that callbacks may try to yield), resuming it while it yields.
function H.co(f)
  local co = coroutine.create(f)
  local ok, err = coroutine.resume(co)
  local n = 0
  while ok and coroutine.status(co) == "suspended" and n < 3 do
    n = n + 1
    ok, err = coroutine.resume(co)
  end
  if coroutine.status(co) == "suspended" then coroutine.close(co) end
  if not ok then error(err, 0) end
end

-- The channels of `list` whose entity the system has (or "system."), so that a record list
-- outlives the entities the case failed to make; other values are kept as they are.
function H.known(sys, list)
  local out = {}
  for k, ch in pairs(list) do
    local name = type(ch) == "string" and ch:match("^(.*)%.[^.]*$")
    if name == nil or name == "system" or name == "ground" then
      out[k] = ch
    else
      local ok, e = pcall(sys.entity, sys, name)
      if ok and e ~= nil then out[k] = ch end
    end
  end
  local n = 0
  for i = 1, #list do
    if out[i] ~= nil then n = n + 1; out[n] = out[i] end
  end
  for i = n + 1, #list do out[i] = nil end
  return out
end

-- ---- the steps of this case --------------------------------------------------------------
