-- SPDX-License-Identifier: MIT
-- slidercrank: closed-form kinematics of the ideal (rigid, no clearance) slider-crank,
-- the reference every clearance study compares against.
--
--   local sc = require "slidercrank"
--   local k = sc.kinematics{ crank = 0.05, rod = 0.12 }          -- metres
--   local x, v, a = k(theta, omega, alpha)   -- slider position, velocity, acceleration
--
-- Geometry: crank pivot at the origin, crank angle theta from the +x axis, the slider
-- moves along the line y = offset (the slider pin is on that line).  Then
--   u = r sin(theta) - e,  s = sqrt(l^2 - u^2),  x = r cos(theta) + s
--   x'  = -r sin(theta) - u u'/s                       (u' = r cos(theta))
--   x'' = -r cos(theta) - (u'^2 + u u'')/s - u^2 u'^2/s^3   (u'' = -r sin(theta))
--   v = x' omega,  a = x'' omega^2 + x' alpha.
local slidercrank = {}

local function positive(fname, t, key)
  local v = t[key]
  if type(v) ~= "number" or v ~= v or v <= 0 or v == math.huge then
    error(string.format("%s: field '%s' must be a positive number of metres (got %s)",
      fname, key, tostring(v)), 3)
  end
  return v
end

-- Returns k(theta, omega, alpha) -> x, v, a for the given geometry
-- { crank = r, rod = l, offset = e (default 0) }.
function slidercrank.kinematics(p)
  local fname = "slidercrank.kinematics"
  if type(p) ~= "table" then
    error(fname .. ": expected a table { crank = r, rod = l, offset = e }", 2)
  end
  local r, l = positive(fname, p, "crank"), positive(fname, p, "rod")
  local e = p.offset or 0
  if type(e) ~= "number" or e ~= e or math.abs(e) == math.huge then
    error(fname .. ": field 'offset' must be a finite number of metres", 2)
  end
  if l <= r + math.abs(e) then
    error(string.format("%s: rod (%g m) must be longer than crank + |offset| (%g m) "
      .. "for the crank to turn fully", fname, l, r + math.abs(e)), 2)
  end
  local sin, cos, sqrt = math.sin, math.cos, math.sqrt
  return function(theta, omega, alpha)
    omega, alpha = omega or 0, alpha or 0
    local st, ct = sin(theta), cos(theta)
    local u, du, ddu = r * st - e, r * ct, -r * st
    local s = sqrt(l * l - u * u)
    local dx = -r * st - u * du / s
    local ddx = -r * ct - (du * du + u * ddu) / s - u * u * du * du / (s * s * s)
    -- "+ 0.0" turns a negative zero (at the dead centres) into 0 for printing
    return r * ct + s, dx * omega + 0.0, ddx * omega * omega + dx * alpha + 0.0
  end
end

return slidercrank
