-- SPDX-License-Identifier: MIT
-- options: checking the table of named fields a stdlib builder takes (benchmarks,
-- spec000), with messages that name the function and the field, raised at the caller of
-- the builder.
--
--   local options = require "options"
--   local p = options.read("spec000.oscillator", o, DEFAULTS)   -- unknown fields refused
--   options.numbers("spec000.oscillator", p, { "width", "height" })
--   local outdir, quick = options.script_args(arg)   -- a scenario's [output-folder] [quick]
--   options.typename(run)                             -- "mech.run": for error messages
local options = {}

local fmt = string.format

-- The name of v's type for an error message: the __name of a userdata's metatable
-- ("mech.run", "plot.figure"), else type(v).
function options.typename(v)
  local mt = getmetatable(v)
  if type(v) == "userdata" and type(mt) == "table" and type(mt.__name) == "string" then
    return mt.__name
  end
  return type(v)
end

-- Raises "fname: message" at the caller of the public function, lvl levels up from the
-- function calling fail (2 from a helper of the public function, 1 from itself).
function options.fail(lvl, fname, ...)
  error(fname .. ": " .. fmt(...), lvl + 2)
end

-- Checks the fields of o against known (name -> default, or false for "no default") and
-- returns a table of the values, defaults filled in.  Call it from the public function, or
-- from a helper of it with depth = 1 (the levels between the public function and the call).
function options.read(fname, o, known, depth)
  local lvl = 2 + (depth or 0)
  if o == nil then o = {} end
  if type(o) ~= "table" then options.fail(lvl, fname, "expected a table of fields (got %s)", type(o)) end
  for k in pairs(o) do
    if type(k) ~= "string" or known[k] == nil then
      local names = {}
      for name in pairs(known) do names[#names + 1] = name end
      table.sort(names)
      options.fail(lvl, fname, "unknown field '%s' (known fields: %s)", tostring(k), table.concat(names, ", "))
    end
  end
  local p = {}
  for k, def in pairs(known) do
    local v = o[k]
    if v == nil and def ~= false then v = def end
    p[k] = v
  end
  return p
end

-- The fields of p that must be finite numbers.  Call it from the public function.
function options.numbers(fname, p, names)
  for _, k in ipairs(names) do
    local v = p[k]
    if type(v) ~= "number" or v ~= v or math.abs(v) == math.huge then
      options.fail(2, fname, "field '%s' must be a finite number (got %s)", k,
        (type(v) == "number" or type(v) == "string") and tostring(v) or options.typename(v))
    end
  end
end

-- The command line of a scenario script, `mechlua script.lua [output-folder] [quick]`: returns
-- the folder ("out" by default) and whether "quick" was given.  Anything else in place of
-- "quick" prints the usage to stderr and exits with status 2.  Without a command line (arg
-- nil: the script loaded from Lua), "out" and false.
function options.script_args(arg)
  if arg == nil then return "out", false end
  local quick = arg[2] == "quick"
  if arg[2] ~= nil and not quick then
    io.stderr:write(fmt("usage: mechlua %s [output-folder] [quick] (got '%s')\n", tostring(arg[0]),
      tostring(arg[2])))
    os.exit(2)
  end
  return arg[1] or "out", quick
end

return options
