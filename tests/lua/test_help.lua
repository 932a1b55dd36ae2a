-- SPDX-License-Identifier: MIT
-- help(): every public function and module has a topic, reachable by name and by value.
-- The walk is the test's own: every function and table reachable from mech and from every
-- stdlib module (the Lua files beside tap.lua and the preloaded C modules), and every
-- method of every object type, read from a live object of that type.
local tap = require "tap"

-- The text help(x) prints.
local function help_text(x)
  local out, old = {}, print
  print = function(...)
    local parts = {}
    for i = 1, select("#", ...) do parts[#parts + 1] = tostring((select(i, ...))) end
    out[#out + 1] = table.concat(parts, "\t")
  end
  local ok, err = pcall(help, x)
  print = old
  if not ok then error(err, 0) end
  return table.concat(out, "\n")
end

local function no_help(text) return text == "" or text:find("^no help for") or text:find("^help%(x%) explains") end

-- ---- the modules: mech and the stdlib ---------------------------------------------------
local stdlib_dir = assert(package.searchpath("tap", package.path)):match("^(.*)/")
local modules = { "mech" }
local ls = assert(io.popen("ls '" .. stdlib_dir .. "'"))
for file in ls:lines() do
  local name = file:match("^(.+)%.lua$")
  if name and name ~= "mechhelp" then modules[#modules + 1] = name end
end
ls:close()
for name in pairs(package.preload) do
  if name ~= "faultinject" then modules[#modules + 1] = name end -- faultinject: tests only
end
table.sort(modules)
tap.ok(#modules >= 9, "the stdlib has its modules (" .. table.concat(modules, ", ") .. ")")

-- Functions by path, and the tables holding functions (modules and sub-modules).
local functions, tables, seen = {}, {}, {}
local function walk(path, t, depth)
  if seen[t] or depth > 3 then return end
  seen[t] = true
  local holds = false
  for k, v in pairs(t) do
    if type(k) == "string" then
      if type(v) == "function" then
        functions[#functions + 1] = { path .. "." .. k, v }
        holds = true
      elseif type(v) == "table" then
        walk(path .. "." .. k, v, depth + 1)
      end
    end
  end
  if holds then tables[#tables + 1] = { path, t } end
end
for _, name in ipairs(modules) do
  local m = require(name)
  if type(m) == "table" then walk(name, m, 1) end -- plotclearance is plot.clearance itself
end
table.sort(functions, function(a, b) return a[1] < b[1] end)
table.sort(tables, function(a, b) return a[1] < b[1] end)
tap.ok(#functions >= 60, "the walk finds the public functions (" .. #functions .. ")")

local missing = {}
for _, list in ipairs { tables, functions } do
  for _, entry in ipairs(list) do
    local path, value = entry[1], entry[2]
    local by_name, by_value = help_text(path), help_text(value)
    if no_help(by_name) then
      missing[#missing + 1] = path .. " (by name)"
    elseif by_value ~= by_name then
      missing[#missing + 1] = path .. " (by value)"
    end
  end
end
tap.is(table.concat(missing, ", "), "", "every module and function has a topic by name and by value")

-- ---- the objects and their methods --------------------------------------------------------
local plot = require "plot"
local sys = mech.planar { gravity = { 0, -9.81 } }
local body = sys:body { name = "b", mass = 1, inertia = 0.1, at = { 0, 0 } }
local point = body:point { name = "p", at = { 0.1, 0 } }
local mesh = mech.mesh.rectangle { size = { 1, 0.5 }, origin = { 5, 0 }, nx = 2, ny = 1 }
local fe = sys:flexible { name = "fe", mesh = mesh, E = 2e11, nu = 0.3, density = 7800 }
local run = sys:simulate { t = 0.01, report = 0.005, record = { "b.y" } }
local col = run["b.y"]
local fig = plot.figure { rows = 1, cols = 1 }
local ax = fig:panel(1)
local law = mech.contact.hertz { K = 1e9 }
local sweep = require "sweep"
local design = sweep.grid { x = { 1, 2 } }
local sfolder = os.tmpname()
os.remove(sfolder)
local res = sweep.run { design, case = function(p) return { y = p.x } end, folder = sfolder, csv = false,
  progress = false, workers = 1 }
os.execute("rm -rf '" .. sfolder .. "'")
local objects = { sys, body, point, fe, mesh, run, col, fig, ax, law, design, res, res.y }

local types = {} -- metatable name -> objects of that type
for _, o in ipairs(objects) do
  local name = getmetatable(o).__name
  types[name] = types[name] or {}
  table.insert(types[name], o)
  tap.ok(not no_help(help_text(o)), "help of a " .. name .. " object: " .. help_text(o):match("^[^\n]*"))
end

-- Every function-valued field a metatable offers (methods, Tab completions, __index
-- table), read through a live object of that type.
local registry, methods, method_missing = debug.getregistry(), 0, {}
for tname, objs in pairs(types) do
  local mt, names = registry[tname], {}
  for _, field in ipairs { "__methods", "__complete", "__index" } do
    if type(rawget(mt, field)) == "table" then
      for k, v in pairs(rawget(mt, field)) do
        if type(v) == "function" then names[k] = true end
      end
    end
  end
  -- entities complete by kind: their __complete is a function of the object
  if type(rawget(mt, "__complete")) == "function" then
    for _, o in ipairs(objs) do
      local ok, t = pcall(rawget(mt, "__complete"), o)
      if ok and type(t) == "table" then
        for k, v in pairs(t) do
          if type(v) == "function" then names[k] = true end
        end
      end
    end
  end
  for k in pairs(names) do
    local f
    for _, o in ipairs(objs) do
      local ok, v = pcall(function() return o[k] end)
      if ok and type(v) == "function" then f = v break end
    end
    methods = methods + 1
    local mechhelp = require "mechhelp"
    local topic = f and type(mechhelp) == "table" and mechhelp.topic(f)
    if not f then
      method_missing[#method_missing + 1] = tname .. " " .. k .. " (no object offers it)"
    elseif type(topic) ~= "string" or not topic:find(":" .. k .. "$", 1) or no_help(help_text(topic)) then
      method_missing[#method_missing + 1] = tname .. " " .. k .. " (topic " .. tostring(topic) .. ")"
    elseif help_text(f) ~= help_text(topic) then
      method_missing[#method_missing + 1] = tname .. " " .. k .. " (by value)"
    end
  end
end
table.sort(method_missing)
tap.ok(methods >= 40, "the walk finds the methods (" .. methods .. ")")
tap.is(table.concat(method_missing, ", "), "", "every method has a topic by name and by value")

-- A spatial system's methods: those of its dimension are other functions under the same
-- names (spatial:<name> topics), and a planar system finds stubs under the spatial-only
-- names (and a spatial one under the planar-only ones) whose help is the method's.
local ssys = mech.spatial {}
local complete, smissing, nspatial = getmetatable(ssys).__complete(ssys), {}, 0
for k, v in pairs(complete) do
  if type(v) == "function" then
    nspatial = nspatial + 1
    local f, topic = ssys[k], (require "mechhelp").topic(ssys[k])
    if type(topic) ~= "string" or not topic:find(":" .. k .. "$") or no_help(help_text(topic)) then
      smissing[#smissing + 1] = k .. " (topic " .. tostring(topic) .. ")"
    elseif help_text(f) ~= help_text(topic) then
      smissing[#smissing + 1] = k .. " (by value)"
    end
  end
end
table.sort(smissing)
tap.ok(nspatial >= 20, "a spatial system has its methods (" .. nspatial .. ")")
tap.is(table.concat(smissing, ", "), "", "every method of a spatial system has a topic by name and by value")
tap.like(help_text(ssys), "^spatial system methods", "help(sys) of a spatial system lists its methods")
tap.like(help_text(ssys.body), "^sys:body{ name = \"rod\"", "help(sys.body) of a spatial system is its own")
tap.like(help_text(sys.spherical), "^spatial joints", "a planar system's stub of sys:spherical: its help is the method's")
tap.like(help_text(ssys.contact), "^sys:contact{ body", "a spatial system's stub of sys:contact: its help is the method's")
tap.ok(complete.spherical and not complete.contact and not complete.flexible,
  "Tab completes a spatial system's methods, not the planar ones")
local pcomplete = getmetatable(sys).__complete(sys)
tap.ok(pcomplete.contact and pcomplete.flexible and not pcomplete.spherical and pcomplete.simulate,
  "and a planar system's, not the spatial ones")

-- ---- texts ------------------------------------------------------------------------------------
local text = help_text(mech)
for _, name in ipairs { "mech.contact", "mech.friction", "mech.stiffness", "mech.materials",
  "lankarani_nikravesh", "hu_guo", "ambrosio", "lugre" } do
  tap.like(text, name:gsub("%p", "%%%0"), "help(mech) mentions " .. name)
end
tap.like(help_text(mech.contact), "mech%.contact: normal contact laws", "help(mech.contact)")
tap.like(help_text(sys.contact), "^sys:contact{ body", "help(sys.contact) is sys:contact's topic")
tap.like(help_text(mech.materials.steel), "^mech%.materials:", "a material's help is mech.materials'")
tap.like(help_text(fe), "^fe = sys:flexible", "a flexible body's help is sys:flexible's")
tap.like(help_text(42), "^no help for number; topics:", "help of a value without a topic names its type")
tap.like(help_text("no.such"), "^no help for no%.such; topics:", "an unknown name is named")

-- help() names the man page by a command that opens it: in the build tree, man -l with
-- the absolute path of the page copied there; installed, man 3 mechlua.
local listing = help_text()
local page = listing:match("man %-l (%S+mechlua%.3)")
tap.ok(page and page:sub(1, 1) == "/", "help() gives man -l with the absolute path of mechlua(3): " .. tostring(page))
local f = page and io.open(page)
tap.ok(f ~= nil, "that page exists")
if f then
  tap.like(f:read("a"), "\n%.TH MECHLUA 3 ", "and is mechlua(3)")
  f:close()
end
tap.like(help_text(mech.contact), "man %-l /%S+/man3/mechlua%-contact%.3", "topics name their page the same way")
registry["mechlua.man_installed"] = true
tap.like(help_text(), "mechlua%(3%): man 3 mechlua\n", "installed: man 3 mechlua")
tap.like(help_text(mech.contact), "%(man 3 mechlua%-contact, NORMAL LAWS%)", "installed: man 3 mechlua-contact")
registry["mechlua.man_installed"] = false

tap.done()
