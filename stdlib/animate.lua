-- SPDX-License-Identifier: MIT
-- animate: run:animate{...}, the mechanism drawn frame by frame from a run's kept states
-- (sys:simulate{ motion = dt }) into an animated GIF or an MP4 (the movie module), with the
-- plot module's figures, fonts and colours.
--
--   local run = sys:simulate{ t = 0.05, motion = 1e-4, record = { "slider.x" } }
--   run:animate{ file = "out/crank.gif", fps = 25, speed = 0.01, channel = "slider.x",
--     trace = "pin", magnify = 50 }
--
-- man mechlua(3), ANIMATIONS, has the details.
local animate = {}

local plot, movie = require "plot", require "movie"
local options = require "options"
local fmt = string.format
local NaN = 0 / 0

local function fail(...) options.fail(2, "run:animate", ...) end

local DEFAULTS = {
  file = false, fps = 25, speed = 1, t = false, frames = false, width = 160, height = false,
  dpi = 100, view = false, magnify = 1, deform = 1, trace = false, channel = false,
  forces = true, force_scale = false, xlim = false, ylim = false, title = false,
}

-- The coordinates a view draws: "xy" (planar, and the default), "xz", "yz" of a spatial run.
local VIEWS = { xy = { 1, 2 }, xz = { 1, 3 }, yz = { 2, 3 } }

-- run:scene(t), its errors as run:animate's.
local function scene_at(run, t)
  local ok, s = pcall(run.scene, run, t)
  if not ok then fail("%s", (tostring(s):gsub("^.-run:scene: ", ""))) end
  return s
end

local function finite(v) return type(v) == "number" and v == v and math.abs(v) ~= math.huge end

-- The frames' times: t0, t0 + speed / fps, ... up to t1.
local function frame_times(t0, t1, fps, speed)
  local dt, times = speed / fps, {}
  local n = math.floor((t1 - t0) / dt * (1 + 1e-12)) + 1
  for k = 0, n - 1 do times[k + 1] = math.min(t0 + k * dt, t1) end
  return times
end

-- Points on a circle of radius r about c in the plane of unit vectors a and b (3-D), or the
-- xy plane (2-D).
local function circle_points(c, r, a, b, n)
  local pts = {}
  for k = 0, n do
    local th = 2 * math.pi * k / n
    local co, si = math.cos(th), math.sin(th)
    if a then
      pts[#pts + 1] = { c[1] + r * (co * a[1] + si * b[1]), c[2] + r * (co * a[2] + si * b[2]),
        c[3] + r * (co * a[3] + si * b[3]) }
    else
      pts[#pts + 1] = { c[1] + r * co, c[2] + r * si }
    end
  end
  return pts
end

-- Two unit vectors normal to the unit vector n.
local function normals(n)
  local t = math.abs(n[1]) < 0.9 and { 1, 0, 0 } or { 0, 1, 0 }
  local a = { n[2] * t[3] - n[3] * t[2], n[3] * t[1] - n[1] * t[3], n[1] * t[2] - n[2] * t[1] }
  local l = math.sqrt(a[1] ^ 2 + a[2] ^ 2 + a[3] ^ 2)
  a = { a[1] / l, a[2] / l, a[3] / l }
  local b = { n[2] * a[3] - n[3] * a[2], n[3] * a[1] - n[1] * a[3], n[1] * a[2] - n[2] * a[1] }
  return a, b
end

-- A polyline accumulator: points of several polylines in one series, NaN between them.
local function polylines()
  return { x = {}, y = {} }
end
local function add_line(pl, pts, view, closed)
  local x, y = pl.x, pl.y
  if #x > 0 then
    x[#x + 1], y[#y + 1] = NaN, NaN
  end
  for _, p in ipairs(pts) do
    x[#x + 1], y[#y + 1] = p[view[1]] or 0, p[view[2]] or 0
  end
  if closed and pts[1] then
    x[#x + 1], y[#y + 1] = pts[1][view[1]] or 0, pts[1][view[2]] or 0
  end
end

-- The journal of each revolute joint with clearance drawn with the clearance (and the
-- penetration) magnified m times about its bearing: centre cb + m (cj - cb), radius
-- rb - m (rb - rj).  Returns the drawn journal circle per owner: { c, r }.
local function magnified_journals(scene, m)
  local bearing, out = {}, {}
  for _, it in ipairs(scene.items) do
    if it.role == "bearing" and (it.shape == "circle" or it.shape == "cylinder") then bearing[it.owner] = it end
  end
  for _, it in ipairs(scene.items) do
    local b = bearing[it.owner]
    if it.role == "journal" and b and b.shape == it.shape then
      local cb, cj, c = b.points[1], it.points[1], {}
      for i = 1, #cb do c[i] = cb[i] + m * (cj[i] - cb[i]) end
      out[it.owner] = { c = c, r = b.radius - m * (b.radius - it.radius) }
    end
  end
  return out
end

-- A planar prismatic joint with clearance drawn with its clearance magnified m times: the guide
-- surfaces at h/2 + m c from their centre line (h the slider's height, c the clearance), the
-- slider's offset from that line and its tilt m times theirs.  Returns per owner the drawn
-- { guides = { {p, q}, {p, q} }, slider = { corners } }.
local function magnified_sliders(scene, m)
  local guides, out = {}, {}
  for _, it in ipairs(scene.items) do
    if it.role == "guide" and it.shape == "segment" and #it.points[1] == 2 then
      guides[it.owner] = guides[it.owner] or {}
      table.insert(guides[it.owner], it.points)
    end
  end
  for _, it in ipairs(scene.items) do
    local g = guides[it.owner]
    if it.role == "slider" and it.shape == "polygon" and #it.points == 4 and g and #g == 2 then
      local P = it.points
      local a = { g[1][2][1] - g[1][1][1], g[1][2][2] - g[1][1][2] } -- the guide's axis
      local la = math.sqrt(a[1] ^ 2 + a[2] ^ 2)
      a = { a[1] / la, a[2] / la }
      local n = { -a[2], a[1] }
      local o = { (g[1][1][1] + g[2][1][1]) / 2, (g[1][1][2] + g[2][1][2]) / 2 } -- on the centre line
      local D = math.abs((g[2][1][1] - g[1][1][1]) * n[1] + (g[2][1][2] - g[1][1][2]) * n[2])
      local e1 = { P[2][1] - P[1][1], P[2][2] - P[1][2] }
      local e2 = { P[3][1] - P[2][1], P[3][2] - P[2][2] }
      local l1, l2 = math.sqrt(e1[1] ^ 2 + e1[2] ^ 2), math.sqrt(e2[1] ^ 2 + e2[2] ^ 2)
      local axis, h = e1, l2
      if l2 > l1 then axis, h = e2, l1 end
      local c = (D - h) / 2
      local cs = { (P[1][1] + P[3][1]) / 2, (P[1][2] + P[3][2]) / 2 }
      local d = (cs[1] - o[1]) * n[1] + (cs[2] - o[2]) * n[2]
      local th = math.atan(axis[1] * n[1] + axis[2] * n[2], axis[1] * a[1] + axis[2] * a[2])
      if math.abs(th) > math.pi / 2 then th = th - (th > 0 and math.pi or -math.pi) end
      local rot = (m - 1) * th
      local co, si = math.cos(rot), math.sin(rot)
      local cd = { cs[1] + (m - 1) * d * n[1], cs[2] + (m - 1) * d * n[2] }
      local corners = {}
      for k, q in ipairs(P) do
        local rx, ry = q[1] - cs[1], q[2] - cs[2]
        corners[k] = { cd[1] + co * rx - si * ry, cd[2] + si * rx + co * ry }
      end
      local w = h / 2 + m * c
      local drawn = {}
      for k, seg in ipairs(g) do
        local side = ((seg[1][1] - o[1]) * n[1] + (seg[1][2] - o[2]) * n[2]) >= 0 and 1 or -1
        drawn[k] = {}
        for j, q in ipairs(seg) do
          local along = (q[1] - o[1]) * a[1] + (q[2] - o[2]) * a[2]
          drawn[k][j] = { o[1] + along * a[1] + side * w * n[1], o[2] + along * a[2] + side * w * n[2] }
        end
      end
      out[it.owner] = { guides = drawn, slider = corners }
    end
  end
  return out
end

-- The point a trace follows in a scene: a body's centre, a clearance joint's (drawn) journal
-- centre, a contact's point.  nil when the name is none of them.
local function trace_point(scene, name, journals)
  if journals[name] then return journals[name].c end
  for _, b in ipairs(scene.bodies) do
    if b.name == name then return b.pos end
  end
  for _, c in ipairs(scene.contacts) do
    if c.name == name then return c.point end
  end
  return nil
end

-- animate.deformed(mesh, m) -> nodes: a mesh's nodes (run:scene's) with its deformation magnified m times: the rigid motion that fits the
-- nodes best (least squares: the centroid's move and a rotation about it) is kept, what is
-- left of each node's displacement is drawn m times.
function animate.deformed(mesh, m)
  local cur, ref, n = mesh.nodes, {}, #mesh.nodes
  local c, c0 = { 0, 0 }, { 0, 0 }
  for k, xy in ipairs(cur) do
    local d = mesh.displacement[k]
    ref[k] = { xy[1] - d[1], xy[2] - d[2] }
    c[1], c[2] = c[1] + xy[1] / n, c[2] + xy[2] / n
    c0[1], c0[2] = c0[1] + ref[k][1] / n, c0[2] + ref[k][2] / n
  end
  local sdot, scross = 0, 0
  for k = 1, n do
    local ax, ay = ref[k][1] - c0[1], ref[k][2] - c0[2]
    local bx, by = cur[k][1] - c[1], cur[k][2] - c[2]
    sdot, scross = sdot + ax * bx + ay * by, scross + ax * by - ay * bx
  end
  local th = math.atan(scross, sdot)
  local co, si = math.cos(th), math.sin(th)
  local out = {}
  for k = 1, n do
    local ax, ay = ref[k][1] - c0[1], ref[k][2] - c0[2]
    local rx, ry = c[1] + co * ax - si * ay, c[2] + si * ax + co * ay
    out[k] = { rx + m * (cur[k][1] - rx), ry + m * (cur[k][2] - ry) }
  end
  return out
end

-- The polylines an item of this role goes into: the bodies' (outlines, links), the joints with
-- clearance' (bearings, journals, sliders, 3-D guides), the guide surfaces'.
local function target(f, role)
  if role == "bearing" or role == "journal" or role == "slider" then return f.clear end
  if role == "surface" or role == "guide" then return f.guides end
  return f.bodies
end

-- Everything a frame draws of a scene, as polylines in world coordinates (by kind), the
-- joints' points and the contacts' force arrows (unscaled: point and force).
local function figures(scene, p)
  local journals = magnified_journals(scene, p.magnify)
  local sliders = p.magnify ~= 1 and magnified_sliders(scene, p.magnify) or {}
  local guide_seen = {}
  local f = { bodies = polylines(), clear = polylines(), guides = polylines(), joints = {},
    centres = {}, meshes = polylines(), arrows = {} }
  for _, it in ipairs(scene.items) do
    local pts, closed = it.points, false
    if it.role == "joint" then
      -- b's anchor; a prismatic joint's two anchors apart: the guide line between them
      local a, b = pts[1], pts[#pts]
      f.joints[#f.joints + 1] = b
      local d = 0
      for i = 1, #a do d = d + (a[i] - b[i]) ^ 2 end
      if d > 0 and #pts == 2 then add_line(f.guides, { a, b }, p.view, false) end
      pts = nil
    elseif it.shape == "circle" then
      if it.role == "journal" and journals[it.owner] then
        local j = journals[it.owner]
        pts = circle_points(j.c, j.r, nil, nil, 90)
      else
        pts = circle_points(it.points[1], it.radius, nil, nil, 90)
      end
    elseif it.shape == "cylinder" then
      local a, b = normals(it.axis)
      local c, h, radius = it.points[1], it.length / 2, it.radius
      if it.role == "journal" and journals[it.owner] then c, radius = journals[it.owner].c, journals[it.owner].r end
      local c0 = { c[1] - h * it.axis[1], c[2] - h * it.axis[2], c[3] - h * it.axis[3] }
      local c1 = { c[1] + h * it.axis[1], c[2] + h * it.axis[2], c[3] + h * it.axis[3] }
      local e0, e1 = circle_points(c0, radius, a, b, 48), circle_points(c1, radius, a, b, 48)
      local tgt = target(f, it.role)
      add_line(tgt, e1, p.view, false)
      for _, k in ipairs{ 1, 13, 25, 37 } do add_line(tgt, { e0[k], e1[k] }, p.view, false) end
      pts = e0
    elseif it.shape == "box" then
      local R, h, c = it.R, it.half, it.points[1]
      local corners = {}
      for i = 0, 7 do
        local s = { (i & 1) == 0 and -1 or 1, (i & 2) == 0 and -1 or 1, (i & 4) == 0 and -1 or 1 }
        local v = {}
        for r = 1, 3 do
          v[r] = c[r] + R[3 * r - 2] * s[1] * h[1] + R[3 * r - 1] * s[2] * h[2] + R[3 * r] * s[3] * h[3]
        end
        corners[i] = v
      end
      local tgt = target(f, it.role)
      for _, e in ipairs{ { 0, 1 }, { 1, 3 }, { 3, 2 }, { 2, 0 }, { 4, 5 }, { 5, 7 }, { 7, 6 }, { 6, 4 },
        { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 } } do
        add_line(tgt, { corners[e[1]], corners[e[2]] }, p.view, false)
      end
      pts = nil
    elseif it.shape == "polygon" then
      closed = true
      if it.role == "slider" and sliders[it.owner] then pts = sliders[it.owner].slider end
    elseif it.role == "guide" and it.shape == "segment" and sliders[it.owner] then
      guide_seen[it.owner] = (guide_seen[it.owner] or 0) + 1
      pts = sliders[it.owner].guides[guide_seen[it.owner]]
    end
    if pts then add_line(target(f, it.role), pts, p.view, closed) end
  end
  for _, b in ipairs(scene.bodies) do f.centres[#f.centres + 1] = b.pos end
  for _, m in ipairs(scene.meshes) do
    local nodes = m.nodes
    if p.deform ~= 1 then nodes = animate.deformed(m, p.deform) end
    for _, e in ipairs(m.elements) do
      local pts = {}
      for k, n in ipairs(e) do pts[k] = nodes[n] end
      add_line(f.meshes, pts, p.view, true)
    end
  end
  for _, c in ipairs(scene.contacts) do
    if c.touching and c.point then
      local F = {}
      for i = 1, #c.fn do F[i] = c.fn[i] + c.ft[i] end
      f.arrows[#f.arrows + 1] = { at = c.point, F = F }
    end
  end
  f.journals = journals
  return f
end

local function extent(box, x, y)
  for i = 1, #x do
    if x[i] == x[i] then
      box[1], box[2] = math.min(box[1], x[i]), math.max(box[2], x[i])
      box[3], box[4] = math.min(box[3], y[i]), math.max(box[4], y[i])
    end
  end
end

-- The arrows as one polyline series: a shaft along s F from the point, and a head.
local function arrow_lines(arrows, scale, view, head)
  local pl = polylines()
  for _, a in ipairs(arrows) do
    local x0, y0 = a.at[view[1]] or 0, a.at[view[2]] or 0
    local dx, dy = scale * (a.F[view[1]] or 0), scale * (a.F[view[2]] or 0)
    local l = math.sqrt(dx * dx + dy * dy)
    if l > 0 then
      local x1, y1 = x0 + dx, y0 + dy
      local ux, uy = dx / l, dy / l
      local hl = math.min(head, 0.4 * l)
      add_line(pl, { { x0, y0 }, { x1, y1 } }, { 1, 2 }, false)
      add_line(pl, { { x1 - hl * (ux - 0.5 * uy), y1 - hl * (uy + 0.5 * ux) }, { x1, y1 },
        { x1 - hl * (ux + 0.5 * uy), y1 - hl * (uy - 0.5 * ux) } }, { 1, 2 }, false)
    end
  end
  return pl
end

-- run:animate{ file, fps, speed, t, frames, width, height, dpi, view, magnify, deform, trace,
-- channel, forces, force_scale, xlim, ylim, title } -> { file, frames, fps, duration, times }
function animate.animate(run, o)
  if options.typename(run) ~= "mech.run" then fail("bad self (a run expected, got %s)", options.typename(run)) end
  local p = options.read("run:animate", o, DEFAULTS)
  if type(p.file) ~= "string" then fail("field 'file' must be the animation's path, .gif or .mp4 (got %s)", options.typename(p.file)) end
  if not (p.file:match("%.gif$") or p.file:match("%.mp4$")) then
    fail("field 'file': '%s' has an unknown extension (expected .gif or .mp4)", p.file)
  end
  for _, k in ipairs{ "fps", "speed", "magnify", "deform", "width", "dpi" } do
    if not finite(p[k]) or p[k] <= 0 then fail("field '%s' must be a number > 0 (got %s)", k, tostring(p[k])) end
  end
  if p.fps > 1000 then fail("field 'fps' must be at most 1000 frames per second (got %g)", p.fps) end
  if p.magnify < 1 then fail("field 'magnify' must be >= 1 (got %g)", p.magnify) end
  if run.motion == 0 then
    fail("the run kept no states: give sys:simulate a 'motion' step (the time between kept states), "
      .. "e.g. sys:simulate{ ..., motion = 1e-3 }")
  end
  local tlast = run:state(run.motion)
  local t0, t1 = 0, tlast
  if p.t then
    if type(p.t) ~= "table" or not finite(p.t[1]) or not finite(p.t[2]) or not (p.t[1] < p.t[2]) then
      fail("field 't' must be {t0, t1} with t0 < t1 (got %s)", options.typename(p.t))
    end
    t0, t1 = p.t[1], p.t[2]
    if t0 < 0 or t1 > tlast * (1 + 1e-12) then
      fail("field 't' = {%g, %g} is outside the kept states' times [0, %g] s", t0, t1, tlast)
    end
    t1 = math.min(t1, tlast)
  end
  if p.trace and type(p.trace) ~= "string" then fail("field 'trace' must be a name (got %s)", options.typename(p.trace)) end
  local col
  if p.channel then
    if type(p.channel) ~= "string" then fail("field 'channel' must be a recorded channel's name (got %s)", options.typename(p.channel)) end
    local ok, c = pcall(run.column, run, p.channel)
    if not ok then fail("field 'channel': %s", (tostring(c):gsub("^run:column: ", ""))) end
    col = c
  end
  if p.force_scale and (not finite(p.force_scale) or p.force_scale <= 0) then
    fail("field 'force_scale' must be a number > 0 [m/N] (got %s)", tostring(p.force_scale))
  end
  local first = scene_at(run, t0)
  local views = {}
  local vspec = p.view or "xy"
  if type(vspec) == "string" then vspec = { vspec } end
  if type(vspec) ~= "table" or #vspec < 1 or #vspec > 2 then
    fail("field 'view' must be \"xy\", \"xz\", \"yz\" or a list of two of them")
  end
  for i, v in ipairs(vspec) do
    views[i] = VIEWS[v]
    if not views[i] then fail("field 'view': unknown view '%s' (expected \"xy\", \"xz\" or \"yz\")", tostring(v)) end
    if first.dim == 2 and v ~= "xy" then fail("field 'view': a planar run is drawn in \"xy\" (got \"%s\")", v) end
  end
  for _, it in ipairs(first.items) do
    if it.role == "journal" and (it.shape == "circle" or it.shape == "cylinder") then
      for _, b in ipairs(first.items) do
        if b.role == "bearing" and b.owner == it.owner and b.shape == it.shape then
          local c = b.radius - it.radius
          if p.magnify * c > 0.75 * b.radius then
            fail("field 'magnify' = %g draws the clearance of joint '%s' (%.3g mm) as %.3g mm, more than "
              .. "3/4 of its bearing's radius (%.3g mm): at most %.3g", p.magnify, it.owner, c * 1e3,
              p.magnify * c * 1e3, b.radius * 1e3, 0.75 * b.radius / c)
          end
        end
      end
    end
  end
  if p.trace and not trace_point(first, p.trace, magnified_journals(first, 1)) then
    fail("field 'trace': no body, joint with clearance or contact is named '%s'", p.trace)
  end

  -- the frames' scenes and figures, and the extents they take
  local times = frame_times(t0, t1, p.fps, p.speed)
  local figs, fmax = {}, 0
  local boxes = {}
  for v = 1, #views do boxes[v] = { math.huge, -math.huge, math.huge, -math.huge } end
  local trace = {}
  for k, t in ipairs(times) do
    local scene = scene_at(run, t)
    local pv = { magnify = p.magnify, deform = p.deform, view = views[1] }
    local f = {}
    for v = 1, #views do
      pv.view = views[v]
      f[v] = figures(scene, pv)
      for _, key in ipairs{ "bodies", "clear", "guides", "meshes" } do
        extent(boxes[v], f[v][key].x, f[v][key].y)
      end
      local jx, jy = {}, {}
      for i, q in ipairs(f[v].joints) do jx[i], jy[i] = q[views[v][1]] or 0, q[views[v][2]] or 0 end
      extent(boxes[v], jx, jy)
    end
    for _, a in ipairs(f[1].arrows) do
      local m = 0
      for i = 1, #a.F do m = m + a.F[i] ^ 2 end
      fmax = math.max(fmax, math.sqrt(m))
    end
    if p.trace then trace[k] = trace_point(scene, p.trace, f[1].journals) end
    figs[k] = f
  end
  -- limits: the extents with a margin, the same in every frame
  local lims = {}
  for v = 1, #views do
    local b = boxes[v]
    if b[1] > b[2] then b = { -1, 1, -1, 1 } end
    local w, h = b[2] - b[1], b[4] - b[3]
    local m = 0.08 * math.max(w, h, 1e-9)
    lims[v] = { xlim = p.xlim or { b[1] - m, b[2] + m }, ylim = p.ylim or { b[3] - m, b[4] + m } }
  end
  local size = math.max(lims[1].xlim[2] - lims[1].xlim[1], lims[1].ylim[2] - lims[1].ylim[1])
  local scale = p.force_scale or (fmax > 0 and 0.15 * size / fmax or 0)
  local ncols = #views + (col and 1 or 0)
  -- the height that gives the first view's extents their shape (within 55 to 120 mm)
  local ratio = (lims[1].ylim[2] - lims[1].ylim[1]) / (lims[1].xlim[2] - lims[1].xlim[1])
  local height = p.height or math.max(55, math.min(120, (p.width / ncols - 22) * ratio + 28))
  if not finite(height) or height <= 0 then fail("field 'height' must be a number > 0 (got %s)", tostring(p.height)) end
  local ctimes, cvals, clim
  if col then
    local ct = run.t
    ctimes, cvals = {}, {}
    local lo, hi = math.huge, -math.huge
    for i = 1, #col do
      if ct[i] >= t0 - 1e-12 and ct[i] <= t1 + 1e-12 then
        ctimes[#ctimes + 1], cvals[#cvals + 1] = ct[i], col[i]
        if col[i] == col[i] then lo, hi = math.min(lo, col[i]), math.max(hi, col[i]) end
      end
    end
    if lo > hi then lo, hi = -1, 1 end
    if lo == hi then lo, hi = lo - 0.5 * math.max(math.abs(lo), 1), hi + 0.5 * math.max(math.abs(hi), 1) end
    local m = 0.05 * (hi - lo)
    clim = { lo - m, hi + m }
  end
  local notes = {}
  if p.magnify ~= 1 then notes[#notes + 1] = fmt("clearance x %g", p.magnify) end
  if p.deform ~= 1 then notes[#notes + 1] = fmt("deformation x %g", p.deform) end
  if math.abs(p.speed - 1) > 1e-12 then notes[#notes + 1] = fmt("%g x real time", p.speed) end
  local note = #notes > 0 and ("  (" .. table.concat(notes, ", ") .. ")") or ""
  local forcelabel
  if scale > 0 then -- an arrow of a round length near a tenth of the view, and its force
    local l = 0.1 * size
    local e = 10 ^ math.floor(math.log(l, 10))
    l = (l / e >= 5 and 5 or l / e >= 2 and 2 or 1) * e
    forcelabel = fmt("contact force (%s: %.3g N)", l >= 1 and fmt("%g m", l) or fmt("%g mm", l * 1e3), l / scale)
  end

  local writer = movie.open(p.file, { fps = p.fps })
  local written = {}
  local ok, err = pcall(function()
    for k, t in ipairs(times) do
      local fig = plot.figure{ width = p.width, height = height, dpi = p.dpi, cols = ncols,
        title = fmt("%st = %.5f s%s", p.title and (p.title .. ": ") or "", t, note) }
      for v = 1, #views do
        local f, view = figs[k][v], views[v]
        local ax = fig:panel(v)
        if p.trace then
          local tx, ty = {}, {}
          for i = 1, k do
            local q = trace[i]
            if q then tx[#tx + 1], ty[#ty + 1] = q[view[1]] or 0, q[view[2]] or 0 end
          end
          if #tx > 1 then ax:line{ x = tx, y = ty, color = "#E69F00", width = 1, label = "trace of " .. p.trace } end
        end
        if #f.guides.x > 0 then ax:line{ x = f.guides.x, y = f.guides.y, color = "gray", width = 1 } end
        if #f.meshes.x > 0 then ax:line{ x = f.meshes.x, y = f.meshes.y, color = "#0072B2", width = 0.8 } end
        if #f.bodies.x > 0 then ax:line{ x = f.bodies.x, y = f.bodies.y, color = "black", width = 2 } end
        if #f.clear.x > 0 then ax:line{ x = f.clear.x, y = f.clear.y, color = "#009E73", width = 1.2 } end
        if #f.centres > 0 then
          local cx, cy = {}, {}
          for i, q in ipairs(f.centres) do cx[i], cy[i] = q[view[1]] or 0, q[view[2]] or 0 end
          ax:scatter{ x = cx, y = cy, marker = "dot", size = 4, color = "black" }
        end
        if #f.joints > 0 then
          local jx, jy = {}, {}
          for i, q in ipairs(f.joints) do jx[i], jy[i] = q[view[1]] or 0, q[view[2]] or 0 end
          ax:scatter{ x = jx, y = jy, marker = "circle", size = 4, color = "black" }
        end
        if p.forces and scale > 0 and #f.arrows > 0 then
          local pl = arrow_lines(f.arrows, scale, view, 0.02 * size)
          if #pl.x > 0 then ax:line{ x = pl.x, y = pl.y, color = "#D55E00", width = 1.5, label = v == 1 and forcelabel or nil } end
        end
        local names = { "x", "y", "z" }
        ax:set{ aspect = "equal", xlim = lims[v].xlim, ylim = lims[v].ylim,
          xlabel = names[view[1]] .. " [m]", ylabel = names[view[2]] .. " [m]",
          legend = "best" }
      end
      if col then
        local ax = fig:panel(ncols)
        local n = 0
        while n < #ctimes and ctimes[n + 1] <= t + 1e-12 do n = n + 1 end
        local xs, ys = table.move(ctimes, 1, n, 1, {}), table.move(cvals, 1, n, 1, {})
        xs[#xs + 1], ys[#ys + 1] = t, col:at(t)
        ax:line{ x = xs, y = ys, color = "#0072B2", width = 1.2 }
        ax:scatter{ x = { t }, y = { col:at(t) }, marker = "circle", size = 5, color = "#D55E00" }
        ax:set{ xlim = { t0, t1 > t0 and t1 or t0 + 1 }, ylim = clim, xlabel = "t [s]",
          ylabel = p.channel .. (col.unit ~= "" and (" [" .. col.unit .. "]") or "") }
      end
      writer:add(fig:render())
      if p.frames then written[#written + 1] = fig:save(fmt("%s_%05d.png", p.frames, k)) end
    end
  end)
  if not ok then
    for _, f in ipairs(written) do os.remove(f) end
    local w <close> = writer -- the unfinished file goes
    error(tostring(err):gsub("^[^:]*:%d+: ", ""), 0)
  end
  writer:close()
  return { file = p.file, frames = #times, fps = p.fps, duration = #times / p.fps, times = times,
    pngs = p.frames and written or nil }
end

return animate
