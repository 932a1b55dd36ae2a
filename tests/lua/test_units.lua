-- SPDX-License-Identifier: MIT
-- The unit helpers of the mech module: each gives SI units (mech.to_* the reverse), for a
-- number, a list of numbers or a recorded column; anything else is an error naming the
-- helper.
local tap = require "tap"
local pi = math.pi

-- each helper and what 1 unit is in SI units (the same products the helpers compute)
local to_si = { um = 1e-6, mm = 1e-3, cm = 1e-2, deg = pi / 180, rpm = 2 * pi / 60, Hz = 2 * pi,
  ms = 1e-3, kN = 1e3, MPa = 1e6, GPa = 1e9 }
local from_si = { to_um = 1e6, to_mm = 1e3, to_deg = 180 / pi, to_rpm = 60 / (2 * pi),
  to_ms = 1e3, to_kN = 1e-3 }
for _, set in ipairs { to_si, from_si } do
  for name, f in pairs(set) do
    tap.is(type(mech[name]), "function", "mech." .. name .. " exists")
    if type(mech[name]) == "function" then
      tap.is(mech[name](3), 3 * f, "mech." .. name .. "(3) = 3 * " .. f)
    end
  end
end

-- values a user checks by hand
tap.is(mech.rpm(5000), 5000 * (2 * pi / 60), "mech.rpm(5000) is the benchmarks' speed")
tap.is(mech.mm(10), 0.01, "mech.mm(10) = 0.01 m")
tap.is(mech.um(500), 0.0005, "mech.um(500) = 0.0005 m")
tap.is(mech.cm(12), 0.12, "mech.cm(12) = 0.12 m")
tap.is(mech.GPa(207), 2.07e11, "mech.GPa(207) = 2.07e11 Pa")
tap.is(mech.MPa(3), 3e6, "mech.MPa(3) = 3e6 Pa")
tap.is(mech.kN(3.6), 3600, "mech.kN(3.6) = 3600 N")
tap.is(mech.ms(20), 0.02, "mech.ms(20) = 0.02 s")
tap.is(mech.Hz(50), 100 * pi, "mech.Hz(50) = 100 pi rad/s")
tap.is(mech.g, 9.80665, "mech.g is standard gravity")
tap.is(mech.to_mm(0.0005), 0.5, "mech.to_mm(0.0005) = 0.5")
tap.is(mech.to_um(0.0005), 500, "mech.to_um(0.0005) = 500")
tap.is(mech.to_deg(pi), 180, "mech.to_deg(pi) = 180")
tap.is(mech.to_rpm(mech.rpm(5000)), 5000, "mech.to_rpm undoes mech.rpm at 5000 rpm")
tap.is(mech.to_deg(mech.deg(78)), 78, "mech.to_deg undoes mech.deg at 78 degrees")
tap.is(mech.to_kN(3600), 3.6, "mech.to_kN(3600) = 3.6")
tap.is(mech.deg("90"), pi / 2, "a string holding a number is a number")

-- lists: a new list, the argument untouched
local at = { 50, -20 }
local m = mech.mm(at)
tap.ok(m ~= at and #m == 2 and m[1] == 0.05 and m[2] == -0.02, "mech.mm{50, -20} = {0.05, -0.02}")
tap.ok(at[1] == 50 and at[2] == -20, "the list given is not changed")
tap.is(#mech.deg {}, 0, "an empty list gives an empty list")
tap.is(mech.mm { 1, 2, x = "ignored" }[2], 0.002, "only the list part is converted")
tap.is(mech.mm(setmetatable({ 1 }, { __index = function() error("no Lua code") end }))[1], 0.001,
  "a list is read raw: its metatable is not consulted")

-- columns: a list of the recorded values
local sys = mech.planar()
local b = sys:body { name = "b", mass = 1, inertia = 1, omega = 2 }
local run = sys:simulate { t = 1, report = 0.25, record = { "b.phi" } }
local deg = mech.to_deg(run["b.phi"])
tap.is(#deg, #run, "a column gives a list of its rows")
tap.is(deg[#deg], run["b.phi"][#run] * (180 / pi), "each value converted")
tap.is(mech.to_ms(run.t)[2], 250, "the time column too")
local col
do
  local closed <close> = sys:simulate { t = 1, report = 0.5, record = { "b.phi" } }
  col = closed["b.phi"]
end
tap.raises(function() mech.to_deg(col) end,
  "mech.to_deg: argument #1 must be a number, a list of numbers or a column (got userdata)",
  "a column of a closed run is refused")
local _ = b

-- wrong arguments
tap.raises(function() mech.deg(true) end,
  "mech.deg: argument #1 must be a number, a list of numbers or a column (got boolean)",
  "a boolean is refused, naming the helper")
tap.raises(function() mech.mm() end, "mech.mm: argument #1 must be a number, a list of numbers "
  .. "or a column (got no value)", "no argument is refused")
tap.raises(function() mech.rpm("fast") end,
  "mech.rpm: argument #1 must be a number, a list of numbers or a column (got a string that is "
  .. "not a number)", "a string that is not a number is refused")
tap.raises(function() mech.mm { 1, "2" } end,
  "mech.mm: element 2 of the list must be a number (got string)",
  "a list element that is not a number is refused, by position")
tap.raises(function() mech.mm { 1, { 2 } } end,
  "mech.mm: element 2 of the list must be a number (got table)", "nested lists are refused")
tap.raises(function() mech.GPa(sys) end, "(got userdata)", "another userdata is refused")

tap.done()
