-- SPDX-License-Identifier: MIT
-- Each contact and friction law takes its own fields only (issue 14, item 15): a field of
-- another law is an error that lists the fields of this law, never silently ignored; every
-- field a law lists is accepted; a law table changed afterwards is checked again when a
-- contact element reads it.
local tap = require "tap"

local mat = { "material", "materials", "radius", "bearing", "journal" }
local function join(...)
  local t = {}
  for _, list in ipairs{ ... } do
    for _, v in ipairs(list) do t[#t + 1] = v end
  end
  return t
end

-- Each law: its constructor, the fields its error lists (in that order), a valid
-- argument table with every field it can take together, a minimal one, and the field
-- that selects the other form of hunt_crossley (refused with its own message, below).
local laws = {
  { "contact", "kelvin_voigt", { "K", "c" }, { K = 1e6, c = 10 }, { K = 1e6 } },
  { "contact", "hertz", join({ "K", "n" }, mat), { K = 1e9, n = 1.4 }, { K = 1e9 } },
  { "contact", "hunt_crossley", join({ "K", "n", "b", "p", "q" }, mat),
    { K = 1e9, n = 1.5, b = 1e3, p = 1.5, q = 1 }, { K = 1e9, b = 1e3 }, "restitution" },
  { "contact", "hunt_crossley", join({ "K", "n", "restitution", "v_min" }, mat),
    { K = 1e9, n = 1.5, restitution = 0.8, v_min = 1e-3 }, { K = 1e9, restitution = 0.8 }, "b" },
}
for _, name in ipairs{ "lankarani_nikravesh", "flores", "gonthier", "hu_guo", "modified" } do
  laws[#laws + 1] = { "contact", name, join({ "K", "n", "restitution", "v_min" }, mat),
    { K = 1e9, n = 1.5, restitution = 0.8, v_min = 1e-3 }, { K = 1e9, restitution = 0.8 } }
end
local friction = {
  { "coulomb", { "mu", "regularization", "v_reg" },
    { mu = 0.1, regularization = "tanh", v_reg = 1e-3 }, { mu = 0.1 } },
  { "coulomb", { "mu", "regularization", "v_reg" },
    { mu = 0.1, regularization = "sqrt", v_reg = 1e-3 }, { mu = 0.1 } },
  { "stick", { "mu", "mu_s", "v_eps" }, { mu = 0.1, mu_s = 0.2, v_eps = 1e-4 }, { mu = 0.1 } },
  { "ambrosio", { "mu", "v0", "v1" }, { mu = 0.1, v0 = 1e-3, v1 = 1e-2 }, { mu = 0.1 } },
  { "adams", { "mu", "mu_s", "v0", "v1" }, { mu = 0.1, mu_s = 0.2, v0 = 1e-4, v1 = 2e-4 }, { mu = 0.1 } },
  { "threlfall", { "mu", "v0" }, { mu = 0.1, v0 = 1e-3 }, { mu = 0.1 } },
  { "stribeck", { "mu", "mu_s", "vs", "delta", "sigma2", "regularization", "v_reg" },
    { mu = 0.1, mu_s = 0.2, vs = 1e-2, delta = 1, sigma2 = 1, regularization = "sqrt",
      v_reg = 1e-3 }, { mu = 0.1 } },
  { "dahl", { "mu", "sigma0", "bounded", "reset" },
    { mu = 0.1, sigma0 = 1e4, bounded = true, reset = "never" }, { mu = 0.1 } },
  { "lugre", { "mu", "mu_s", "vs", "delta", "sigma0", "sigma1", "sigma2", "normalized", "bounded",
    "reset" }, { mu = 0.1, mu_s = 0.2, vs = 1e-2, delta = 2, sigma0 = 1e4, sigma1 = 1, sigma2 = 1,
      normalized = false, bounded = true, reset = "never" }, { mu = 0.1 } },
  { "lugre", { "mu", "mu_s", "vs", "delta", "sigma0", "sigma1", "sigma2", "normalized", "bounded",
    "reset" }, { mu = 0.1, mu_s = 0.2, vs = 1e-2, delta = 2, sigma0 = 1e4, sigma1 = 1, sigma2 = 1,
      normalized = true, bounded = false, reset = "onset" }, { mu = 0.1 } },
}
for _, f in ipairs(friction) do
  laws[#laws + 1] = { "friction", f[1], f[2], f[3], f[4] }
end

-- Every field name any law or geometry takes, with a value of the right type.
local every = { K = 1e9, n = 1.5, c = 1, b = 1, p = 1.5, q = 1, restitution = 0.5, v_min = 1e-4,
  material = "steel", materials = { "steel", "steel" }, radius = 0.01, bearing = 0.01,
  journal = 0.009, mu = 0.1, mu_s = 0.3, v_reg = 1e-4, v_eps = 1e-5, v0 = 1, v1 = 2, vs = 1e-3,
  delta = 2, sigma0 = 1e5, sigma1 = 1, sigma2 = 1, regularization = "tanh", normalized = true,
  bounded = true, reset = "never" }

local function copy(t, k, v)
  local c = {}
  for key, val in pairs(t) do c[key] = val end
  if k then c[k] = v end
  return c
end

for _, l in ipairs(laws) do
  local family, name, fields, full, minimal, other = l[1], l[2], l[3], l[4], l[5], l[6]
  local ctor = mech[family][name]
  local own = {}
  for _, f in ipairs(fields) do own[f] = true end
  local ok, law = pcall(ctor, full)
  tap.ok(ok and law.law ~= nil, string.format("mech.%s.%s takes all of its fields together",
    family, name))
  if not ok then tap.diag(law) end
  local listed = string.format("(known fields of mech.%s.%s: %s)", family,
    name == "modified" and "hu_guo" or name, table.concat(fields, ", "))
  local refused, wrong = 0, {}
  for field, value in pairs(every) do
    if not own[field] and field ~= other then
      local ok2, err = pcall(ctor, copy(minimal, field, value))
      local want = string.format("unknown field '%s' %s", field, listed)
      if not ok2 and tostring(err):find(want, 1, true) then
        refused = refused + 1
      else
        wrong[#wrong + 1] = field .. ": " .. (ok2 and "accepted" or tostring(err))
      end
    end
  end
  tap.ok(#wrong == 0, string.format("mech.%s.%s refuses the %d fields of other laws, listing its own",
    family, name, refused))
  for _, w in ipairs(wrong) do tap.diag(w) end
end

-- the three cases of the issue
tap.raises(function() mech.contact.hertz{ K = 1e8, restitution = 0.5 } end,
  "mech.contact.hertz: unknown field 'restitution' (known fields of mech.contact.hertz: K, n, "
    .. "material, materials, radius, bearing, journal)",
  "hertz has no restitution: an error, not an elastic bounce")
tap.raises(function() mech.friction.ambrosio{ mu = 0.1, mu_s = 0.3 } end,
  "mech.friction.ambrosio: unknown field 'mu_s' (known fields of mech.friction.ambrosio: mu, v0, v1)",
  "ambrosio has no static coefficient")
tap.raises(function() mech.friction.coulomb{ mu = 0.1, v0 = 1 } end,
  "mech.friction.coulomb: unknown field 'v0' (known fields of mech.friction.coulomb: mu, "
    .. "regularization, v_reg)", "coulomb has no v0")

-- fields that only make sense together
tap.raises(function() mech.friction.coulomb{ mu = 0.1, v_reg = 1e-3 } end,
  "mech.friction.coulomb: field 'v_reg' is for regularization = \"linear\", \"tanh\" or "
    .. "\"sqrt\" (plain Coulomb friction has none)", "v_reg without a regularization is refused")
tap.raises(function() mech.friction.stribeck{ mu = 0.1, v_reg = 1e-3 } end,
  "mech.friction.stribeck: field 'v_reg' is for regularization = \"linear\", \"tanh\" or "
    .. "\"sqrt\" (plain Stribeck friction has none)", "the same for stribeck")
tap.raises(function() mech.friction.lugre{ mu = 0.1, normalized = true, bounded = true } end,
  "mech.friction.lugre: field 'bounded' is for the force form of lugre (not with normalized = true)",
  "the bounded form is for the force form of lugre")

-- bad values of the options name the function and the field
for _, ctor in ipairs{ "coulomb", "stribeck" } do
  local fn = "mech.friction." .. ctor
  tap.raises(function() mech.friction[ctor]{ mu = 0.1, regularization = "cube" } end,
    fn .. ": field 'regularization' must be one of \"none\", \"linear\", \"tanh\", \"sqrt\" "
      .. "(got \"cube\")", ctor .. ": an unknown regularization lists the allowed ones")
  tap.raises(function() mech.friction[ctor]{ mu = 0.1, regularization = 3 } end,
    fn .. ": field 'regularization' must be a string (got number)", ctor .. ": regularization is a name")
  for _, reg in ipairs{ "linear", "tanh", "sqrt" } do
    for _, v in ipairs{ 0, -1e-4 } do
      tap.raises(function() mech.friction[ctor]{ mu = 0.1, regularization = reg, v_reg = v } end,
        fn .. ": v_reg must be > 0 (got " .. string.format("%g", v) .. ")",
        string.format("%s, %s: v_reg = %g is refused", ctor, reg, v))
    end
  end
end
for _, ctor in ipairs{ "dahl", "lugre" } do
  local fn = "mech.friction." .. ctor
  tap.raises(function() mech.friction[ctor]{ mu = 0.1, bounded = 1 } end,
    fn .. ": field 'bounded' must be true or false (got number)", ctor .. ": bounded is a boolean")
  tap.raises(function() mech.friction[ctor]{ mu = 0.1, bounded = "yes" } end,
    fn .. ": field 'bounded' must be true or false (got string)", ctor .. ": not a string either")
  tap.raises(function() mech.friction[ctor]{ mu = 0.1, reset = "sometimes" } end,
    fn .. ": field 'reset' must be one of \"onset\", \"never\" (got \"sometimes\")",
    ctor .. ": an unknown reset lists the allowed ones")
end
tap.raises(function() mech.friction.lugre{ mu = 0.1, normalized = true, reset = "always" } end,
  "field 'reset' must be one of", "normalised lugre checks reset too")

-- the options are shown with the law and in the contact's description
tap.is(tostring(mech.friction.coulomb{ mu = 0.1, regularization = "sqrt", v_reg = 2e-4 }),
  "friction law coulomb: mu = 0.1 v_reg = 0.0002 regularization = \"sqrt\"",
  "a law table prints its regularization")
tap.is(tostring(mech.friction.dahl{ mu = 0.1, bounded = true, reset = "never" }),
  "friction law dahl: mu = 0.1 bounded = true reset = \"never\"", "and its bristle options")
do
  local sys = mech.planar{}
  local b = sys:body{ name = "b", mass = 1, inertia = 1 }
  local function described(friction)
    sys:contact{ b, law = mech.contact.hertz{ K = 1e8 }, friction = friction,
      surface = { at = { 0, -1 }, normal = { 0, 1 } } }
    local last
    for line in sys:describe():gmatch("[^\n]+") do last = line end
    return last
  end
  tap.like(described(mech.friction.coulomb{ mu = 0.1, regularization = "sqrt", v_reg = 2e-4 }),
    "; friction coulomb mu 0%.1 %(sqrt%) v_reg 0%.0002$", "describe: coulomb (sqrt) v_reg")
  tap.like(described(mech.friction.stribeck{ mu = 0.1, regularization = "tanh" }),
    "sigma2 0 %(tanh%) v_reg 0%.0001$", "describe: stribeck (tanh) v_reg, the default 1e-4")
  tap.like(described(mech.friction.lugre{ mu = 0.1, bounded = true, reset = "never" }),
    "sigma2 0 %(bounded%) reset never %(bristles kept between contacts%)$",
    "describe: lugre (bounded) reset never")
  tap.like(described(mech.friction.dahl{ mu = 0.1 }), "; friction dahl mu 0%.1 sigma0 100000$",
    "describe: a default law's text is as before")
  tap.like(described(mech.friction.coulomb{ mu = 0.1, regularization = "linear" }),
    "; friction coulomb mu 0%.1 %(linear%) v_reg 0%.0001$", "and linear Coulomb's")
end
tap.raises(function() mech.contact.hunt_crossley{ K = 1e9, b = 10, restitution = 0.5 } end,
  "mech.contact.hunt_crossley: give 'b' (the general form) or 'restitution' (the restitution "
    .. "form), not both", "hunt_crossley takes one of its two forms")
tap.raises(function() mech.contact.hunt_crossley{ K = 1e9 } end,
  "mech.contact.hunt_crossley: give 'b' (the general form", "hunt_crossley needs b or restitution")
tap.raises(function() mech.contact.hu_guo{ K = 1e9, material = "steel", radius = 0.01,
  restitution = 0.5 } end, "mech.contact.hu_guo: give 'K', or a material and a geometry, not both",
  "K and materials together are refused")
tap.raises(function() mech.contact.hertz{ material = "steel", radius = 0.01, bearing = 0.01,
  journal = 0.009 } end, "give 'radius' (a sphere on a plane) or 'bearing' and 'journal', not both",
  "two geometries are refused")
tap.raises(function() mech.contact.hertz{ material = "steel", materials = { "steel", "copper" },
  radius = 0.01 } end, "give 'material' (both bodies) or 'materials' = {a, b}, not both",
  "material and materials together are refused")
tap.raises(function() mech.stiffness.sphere{ material = "steel", materials = { "steel", "copper" },
  R1 = 0.01 } end, "mech.stiffness.sphere: give 'material' (both bodies) or 'materials' = {a, b}, "
    .. "not both", "mech.stiffness refuses material and materials together")
tap.raises(function() mech.contact.hertz{ material = "steel", radius = 0.01, n = 1 } end,
  "field 'n' must be 1.5 with a stiffness from materials", "a Hertz stiffness is for n = 1.5")
local hm = mech.contact.hertz{ material = "steel", radius = 0.01, n = 1.5 }
tap.near(hm.K, mech.stiffness.sphere{ material = "steel", R1 = 0.01 }, 1, "with n = 1.5 it is taken")

-- the general Hunt-Crossley form: p defaults to n (mechlua-contact(3)), read from the
-- force at the first row: K d^n + b d^p dd with d = 1e-3, dd = 1 m/s
local function first_force(law)
  local sys = mech.planar{}
  local body = sys:body{ name = "b", mass = 1, inertia = 1, at = { 0, -1e-3 }, velocity = { 0, -1 } }
  sys:contact{ body, name = "c", law = law, surface = { at = { 0, 0 }, normal = { 0, 1 } } }
  return sys:simulate{ t = 1e-6, report = 1e-6, record = { "c.fn" } }["c.fn"][1]
end
local f_default = first_force(mech.contact.hunt_crossley{ K = 1e9, n = 1, b = 1e3 })
tap.is(f_default, first_force(mech.contact.hunt_crossley{ K = 1e9, n = 1, b = 1e3, p = 1 }),
  "hunt_crossley: p defaults to n")
tap.near(f_default, 1e6 + 1, 1e-6, "F = K d + b d dd = 1e6 + 1 N")

-- a law table changed after it was made is checked again by the contact element
local h = mech.contact.hertz{ K = 1e8 }
h.restitution = 0.5
local s2 = mech.planar{}
local b2 = s2:body{ name = "b", mass = 1, inertia = 1 }
tap.raises(function() s2:contact{ b2, law = h, surface = { at = { 0, -1 }, normal = { 0, 1 } } } end,
  "sys:contact: field 'law': unknown field 'restitution' (known fields of mech.contact.hertz: K, n",
  "a field added to a law table afterwards is refused where the law is used")
local fr = mech.friction.coulomb{ mu = 0.1 }
fr.normalized = true
tap.raises(function() s2:contact{ b2, law = mech.contact.hertz{ K = 1e8 }, friction = fr,
  surface = { at = { 0, -1 }, normal = { 0, 1 } } } end,
  "sys:contact: field 'friction': unknown field 'normalized' (known fields of "
    .. "mech.friction.coulomb: mu, regularization, v_reg)", "the same for friction laws")
-- a value made bad afterwards: the error names the field that holds the law, as for an unknown
-- field (the fuzzer saw "sys:revolute (clearance of 'bear'): field 'bounded' is for the force
-- form of lugre", a field of the friction law read as one of the joint)
local function contact_with(law, friction)
  return function()
    s2:contact{ b2, law = law, friction = friction, surface = { at = { 0, -1 }, normal = { 0, 1 } } }
  end
end
local co = mech.friction.coulomb{ mu = 0.1, regularization = "sqrt" }
co.v_reg = 0
tap.raises(contact_with(mech.contact.hertz{ K = 1e8 }, co), "sys:contact: field 'friction': v_reg must be > 0 (got 0)",
  "a friction law's value made bad afterwards: the error names field 'friction'")
local lu = mech.friction.lugre{ mu = 0.1 }
lu.bounded, lu.normalized = true, true
tap.raises(contact_with(mech.contact.hertz{ K = 1e8 }, lu),
  "sys:contact: field 'friction': field 'bounded' is for the force form of lugre", "and its options")
local hz = mech.contact.hertz{ K = 1e8 }
hz.K = -1
tap.raises(contact_with(hz), "sys:contact: field 'law': K must be > 0 (got -1)", "the same for contact laws")
do -- and in a spatial revolute joint with clearance
  local sp = mech.spatial{}
  local j = sp:body{ name = "j", mass = 1, inertia = { 1e-4, 1e-4, 1e-4 } }
  local da = mech.friction.dahl{ mu = 0.1 }
  da.reset = "always"
  tap.raises(function()
    sp:revolute{ sp.ground, j, name = "bear", at = { 0, 0, 0 }, axis = { 0, 0, 1 }, clearance = { radial = 5e-4,
      axial = 5e-4 }, bearing = { radius = 0.01, length = 0.04 }, contact = mech.contact.hertz{ K = 1e9 }, friction = da }
  end, "sys:revolute (clearance of 'bear'): field 'friction': field 'reset' must be one of \"onset\", \"never\" "
    .. "(got \"always\")", "a spatial clearance joint's friction law")
end
local kv = mech.contact.kelvin_voigt{ K = 1e6, c = 10 }
tap.ok(pcall(s2.contact, s2, { b2, law = kv, surface = { at = { 0, -1 }, normal = { 0, 1 } } }),
  "an unchanged law table is read back as it was made")

-- A law whose field 'kind' was changed after its constructor (fuzz: a law kept, then edited):
-- "must be a contact law (got a  law)" named nothing; now the field and its value (F15).
do
  local s = mech.spatial {}
  local b = s:body { name = "b", mass = 1, inertia = { 1, 1, 1 } }
  local law = mech.contact.hertz { K = 1e9 }
  law.kind = ""
  tap.raises(function()
    s:revolute { s.ground, b, at = { 0, 0, 0 }, axis = { 0, 0, 1 }, name = "bear", clearance = { radial = 5e-4, axial = 5e-4 },
      bearing = { radius = 0.01, length = 0.04 }, contact = law }
  end, "sys:revolute (clearance of 'bear'): field 'contact' must be a contact law (its field 'kind' is \"\", not "
    .. "\"contact\": changed after its constructor?)", "a contact law whose kind was emptied")
  local fr = mech.friction.coulomb { mu = 0.1 }
  fr.kind = "lubricant"
  tap.raises(function()
    s:prismatic { s.ground, b, axis = { 0, 1, 0 }, ref = { 1, 0, 0 }, name = "guide", clearance = { x = 1e-4, z = 1e-4 },
      slider = { length = 0.03, width = 0.015, height = 0.015 }, contact = mech.contact.hertz { K = 1e9 }, friction = fr }
  end, "sys:prismatic (clearance of 'guide'): field 'friction' must be a friction law (its field 'kind' is "
    .. "\"lubricant\", not \"friction\": changed after its constructor?)", "a friction law whose kind was changed")
  tap.raises(function()
    s:prismatic { s.ground, b, axis = { 0, 1, 0 }, ref = { 1, 0, 0 }, name = "guide2", clearance = { x = 1e-4, z = 1e-4 },
      slider = { length = 0.03, width = 0.015, height = 0.015 }, contact = mech.friction.coulomb { mu = 0.1 } }
  end, "field 'contact' must be a contact law (got a friction law)", "a friction law as the contact law: as before")
end

tap.done()
