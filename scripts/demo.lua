-- SPDX-License-Identifier: MIT
-- mechlua demo: the ideal slider-crank of benchmark A (shared/spec/benchmarks.md),
-- crank 0.05 m, rod 0.12 m, driven at 5000 rpm, over two crank revolutions.
-- Writes the slider's position, velocity and acceleration (closed form, the reference
-- later clearance runs are compared with) to a CSV file.
--
--   mechlua scripts/demo.lua [output-folder]      (default: out)
--
-- This scenario grows into the flagship simulation as the mechanics core lands.
local slidercrank = require "slidercrank"

local outdir = arg and arg[1] or "out"
local params = {
  crank = 0.05,          -- m
  rod = 0.12,            -- m
  speed_rpm = 5000,      -- crank speed
  revolutions = 2,
  report = 1e-5,         -- s between rows
}
local omega = params.speed_rpm * 2 * math.pi / 60
local t_end = params.revolutions * 2 * math.pi / omega
local k = slidercrank.kinematics{ crank = params.crank, rod = params.rod }

-- Rows first, in memory; the file is then written whole under a temporary name and
-- renamed, so a failure never leaves a partial CSV behind.
local rows, amin, amax, xmin, xmax = {}, math.huge, -math.huge, math.huge, -math.huge
local n = math.floor(t_end / params.report + 0.5)
for i = 0, n do
  local t = i * params.report
  local theta = omega * t
  local x, v, a = k(theta, omega, 0)
  rows[#rows + 1] = string.format("%.6e,%.9f,%.9e,%.9e,%.9e", t, theta, x, v, a)
  amin, amax = math.min(amin, a), math.max(amax, a)
  xmin, xmax = math.min(xmin, x), math.max(xmax, x)
end

local function write_whole(path, lines)
  local tmp = path .. ".tmp"
  local f, err = io.open(tmp, "w")
  if not f then error("cannot write " .. err, 0) end
  local ok, werr = f:write(table.concat(lines, "\n"), "\n")
  local closed, cerr = f:close()
  if not (ok and closed) then
    os.remove(tmp)
    error("cannot write " .. path .. ": " .. tostring(werr or cerr), 0)
  end
  assert(os.rename(tmp, path))
end

mech.mkdir(outdir)
local path = outdir .. "/demo_slider_crank.csv"
local header = {
  "# mechlua " .. mech.version .. ", scripts/demo.lua",
  "# ideal slider-crank, closed-form kinematics (benchmark A geometry)",
  string.format("# crank=%g m, rod=%g m, speed=%g rpm, revolutions=%d, report=%g s",
    params.crank, params.rod, params.speed_rpm, params.revolutions, params.report),
  "t [s],theta [rad],slider.x [m],slider.vx [m/s],slider.ax [m/s^2]",
}
table.move(rows, 1, #rows, #header + 1, header)
write_whole(path, header)

print(string.format("mechlua %s: ideal slider-crank, %g m crank, %g m rod, %g rpm",
  mech.version, params.crank, params.rod, params.speed_rpm))
print(string.format("  slider stroke %.4f m (%.4f to %.4f m)", xmax - xmin, xmin, xmax))
print(string.format("  slider acceleration %.1f to %.1f m/s^2", amin, amax))
print(string.format("  %d rows written to %s", #rows, path))
