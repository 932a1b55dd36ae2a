-- SPDX-License-Identifier: MIT
-- plot.clearance: the path of a journal's centre inside its clearance circle, with equal
-- scales on both axes (man mechlua-plot(3)).  The plot module (stdlib/lplot.c) loads this
-- file and calls it with its own table, which it completes.
local fmt = string.format

local scales = { m = 1, mm = 1e3, um = 1e6 }
local unit_text = { m = "m", mm = "mm", um = "µm" }
local frames = { bearing = { "exb", "eyb", "bearing frame" }, world = { "ex", "ey", "world frame" } }

local known = { joint = true, clearance = true, frame = true, unit = true, from = true, to = true,
  title = true, label = true, color = true, width = true, height = true, font = true, dpi = true,
  legend = true }

local typename = require("options").typename

local function fail(...)
  error("plot.clearance: " .. fmt(...), 3)
end

local function finite(v) return type(v) == "number" and v == v and math.abs(v) ~= math.huge end

-- The radial clearance of revolute joint `joint` as run.parameters states it, or nil.
local function clearance_of(run, joint)
  local head = "joint " .. joint .. ": "
  for line in run.parameters:gmatch("[^\n]+") do
    if line:sub(1, #head) == head then
      local R, r = line:match("clearance: bearing radius (%S+) m, journal radius (%S+) m")
      return R and tonumber(R) - tonumber(r)
    end
  end
end

return function(plot)
  function plot.clearance(o)
    if type(o) ~= "table" then
      fail("expected a table { run, joint = \"name\", ... } (got %s)", typename(o))
    end
    for k in next, o do
      if k ~= 1 and not known[k] then fail("unknown field '%s'", tostring(k)) end
    end
    local run = rawget(o, 1)
    if typename(run) ~= "mech.run" then
      fail("[1] must be a run (what sys:simulate returns; got %s)", typename(run))
    end
    local joint = rawget(o, "joint")
    if type(joint) ~= "string" then
      fail("field 'joint' must be the name of a revolute joint with clearance (got %s)", typename(joint))
    end
    local frame = rawget(o, "frame") or "bearing"
    if frames[frame] == nil then
      fail("field 'frame' must be \"bearing\" or \"world\" (got %s)", tostring(frame))
    end
    local unit = rawget(o, "unit") or "mm"
    if scales[unit] == nil then fail("field 'unit' must be \"m\", \"mm\" or \"um\" (got %s)", tostring(unit)) end
    local c = rawget(o, "clearance")
    if c ~= nil and not (finite(c) and c > 0) then
      fail("field 'clearance' must be a positive number of metres (got %s)", tostring(c))
    end
    c = c or clearance_of(run, joint)
    if c == nil then
      fail("the run states no clearance for joint '%s' (give clearance = c, in metres)", joint)
    end
    if not (c > 0) then fail("joint '%s' has a clearance of %g m: nothing to draw", joint, c) end
    local from, to = rawget(o, "from") or -math.huge, rawget(o, "to") or math.huge
    if type(from) ~= "number" or type(to) ~= "number" or not (from < to) then
      fail("fields 'from' and 'to' must be times with from < to (got %s, %s)", tostring(from), tostring(to))
    end
    local names = { joint .. "." .. frames[frame][1], joint .. "." .. frames[frame][2] }
    local recorded = {}
    for _, ch in ipairs(run.channels) do recorded[ch] = true end
    for _, ch in ipairs(names) do
      if not recorded[ch] then
        fail("channel '%s' was not recorded: record { \"%s\", \"%s\" } in sys:simulate", ch, names[1],
          names[2])
      end
    end
    local s, t, ex, ey = scales[unit], run.t, run[names[1]], run[names[2]]
    local x, y = {}, {}
    for i = 1, #t do
      if t[i] >= from and t[i] <= to then
        x[#x + 1], y[#y + 1] = ex[i] * s, ey[i] * s
      end
    end
    if #x == 0 then fail("the run has no rows from %g to %g s", from, to) end
    local u = unit_text[unit]
    local fig = plot.figure{ width = rawget(o, "width") or 100, height = rawget(o, "height") or 110,
      font = rawget(o, "font"), dpi = rawget(o, "dpi") }
    local ax = fig:panel(1)
    local title = rawget(o, "title")
    ax:circle{ radius = c * s, label = fmt("clearance circle, c = %g %s", c * s, u), color = "gray",
      width = 0.8, style = "dashed" }
    ax:line{ x = x, y = y, color = rawget(o, "color") or 2,
      label = rawget(o, "label") or fmt("journal centre (%s)", frames[frame][3]) }
    -- the legend goes above the circle (room for its two lines), unless placed elsewhere
    local legend = rawget(o, "legend")
    if legend == nil then legend = "upper center" end
    local top = legend == "upper center" and 1.75 or 1.15
    ax:set{ aspect = "equal", xlim = { -1.15 * c * s, 1.15 * c * s }, ylim = { -1.15 * c * s, top * c * s },
      title = title == nil and fmt("journal centre in joint '%s'", joint) or title,
      xlabel = fmt("eccentricity along x [%s]", u), ylabel = fmt("eccentricity along y [%s]", u),
      legend = legend }
    return fig, ax
  end
end
