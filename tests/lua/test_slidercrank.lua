-- SPDX-License-Identifier: MIT
-- stdlib slidercrank: closed-form kinematics of the ideal slider-crank.
local tap = require "tap"
local sc = require "slidercrank"

local r, l = 0.05, 0.12
local k = sc.kinematics{ crank = r, rod = l }

-- Positions at the dead centres and at 90 degrees.
local x0 = k(0)
tap.near(x0, r + l, 1e-15, "x = r + l at the outer dead centre")
tap.near((k(math.pi)), l - r, 1e-15, "x = l - r at the inner dead centre")
tap.near((k(math.pi / 2)), math.sqrt(l * l - r * r), 1e-15, "x = sqrt(l^2 - r^2) at 90 degrees")

-- Velocity and acceleration against finite differences of x(theta(t)) with
-- theta = omega t + alpha t^2 / 2.  Central differences with h = 1e-6 s have a
-- truncation error ~ h^2 |x'''| / 6 and a rounding error ~ eps |x| / h; both are
-- below 1e-6 of the values here, so 1e-6 relative is the bound.
local omega, alpha = 300.0, 50.0
local h = 1e-6
local worst_v, worst_a = 0, 0
for i = 0, 40 do
  local t = i * 0.0031
  local function x_at(tt) return (k(omega * tt + 0.5 * alpha * tt * tt)) end
  local w = omega + alpha * t
  local _, v, a = k(omega * t + 0.5 * alpha * t * t, w, alpha)
  local vfd = (x_at(t + h) - x_at(t - h)) / (2 * h)
  local afd = (x_at(t + h) - 2 * x_at(t) + x_at(t - h)) / (h * h)
  worst_v = math.max(worst_v, math.abs(v - vfd) / (r * w))
  worst_a = math.max(worst_a, math.abs(a - afd) / (r * w * w))
end
tap.ok(worst_v < 1e-6, string.format("v matches the derivative of x (worst %.1e)", worst_v))
-- the second difference loses more to rounding: eps |x| / h^2 ~ 4e-4 m/s^2 against
-- r w^2 ~ 4.5e3: 1e-6 relative still holds with margin.
tap.ok(worst_a < 1e-5, string.format("a matches the second derivative of x (worst %.1e)", worst_a))

-- Offset slider: y of the pin is e, so (x - r cos)^2 + (e - r sin)^2 = l^2 everywhere.
local e = 0.02
local ko = sc.kinematics{ crank = r, rod = l, offset = e }
local worst = 0
for i = 0, 72 do
  local th = i * math.pi / 36
  local x = ko(th)
  local d = math.sqrt((x - r * math.cos(th)) ^ 2 + (e - r * math.sin(th)) ^ 2)
  worst = math.max(worst, math.abs(d - l))
end
tap.ok(worst < 1e-15, "with an offset the rod length is kept")

-- Bad input: errors name the function and the field.
tap.raises(function() sc.kinematics{ crank = 0.05 } end,
  "slidercrank.kinematics: field 'rod' must be a positive number", "missing rod")
tap.raises(function() sc.kinematics{ crank = -1, rod = 1 } end,
  "field 'crank' must be a positive number of metres (got -1)", "negative crank")
tap.raises(function() sc.kinematics{ crank = 0 / 0, rod = 1 } end,
  "field 'crank' must be a positive number", "NaN crank")
tap.raises(function() sc.kinematics{ crank = 0.1, rod = 0.1 } end,
  "rod (0.1 m) must be longer than crank + |offset| (0.1 m)", "rod too short")
tap.raises(function() sc.kinematics{ crank = 0.05, rod = 0.12, offset = "x" } end,
  "field 'offset' must be a finite number", "bad offset")
tap.raises(function() sc.kinematics(5) end, "expected a table", "not a table")

tap.done()
