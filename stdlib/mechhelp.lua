-- SPDX-License-Identifier: MIT
-- mechhelp: the text behind help(x) in mechlua.  help(sys), help(run), help(sys.body),
-- help(mech.planar), help("sys:simulate") or help() for the list of topics.
-- The full reference is the man page mechlua(3).

local topics = {}

topics["mech"] = [[
mech: the mechanics library (also the global `mech`)
  mech.planar{ gravity = {gx, gy} }  a planar system              help(mech.planar)
  mech.rpm(n), mech.deg(d), mech.mm(x)  unit helpers: rad/s, rad, m
  mech.mesh.rectangle{...}, mech.mesh.read(path)  meshes for flexible bodies  help(mech.mesh)
  mech.mkdir(path)                   create a folder and its parents
  mech.version                       "major.minor.patch"
  mech.quiet = true                  no progress line during long simulations
Objects: help(sys), help(body), help(run), help(run.t) once you have them.]]

topics["mech.planar"] = [[
mech.planar{ gravity = {gx, gy}, baumgarte = {alpha, beta}, assemble = true }
  A planar system with a ground body (sys.ground).  gravity in m/s^2 (default none);
  baumgarte: default stabilisation of Lagrange joints, 1/s (default {5, 5});
  assemble = false keeps the positions as given (no Newton assembly).
  Then add bodies, joints, drivers and forces, and call sys:simulate.  help(sys)]]

topics["mech.system"] = [[
system methods (all take one table of named fields):
  sys:body{ name, mass, inertia, at = {x, y}, angle, velocity = {vx, vy}, omega,
            rectangle = {length, height}, segment = {{x1, y1}, {x2, y2}} }
  sys:point{ body, name, at | body_at }           body:point{ name, at | body_at }
  sys:revolute{ a, b, at = {x, y} | a_at, b_at, method = "lagrange"|"penalty", k, c, baumgarte,
                clearance = {...} }                help("clearance")
  sys:prismatic{ a, b, axis = {ux, uy}, at | a_at, b_at, angle, method, k, c, clearance = {...} }
  sys:fixed{ a, b, at | a_at, b_at, angle, method, k, c }
  sys:drive{ body | joint, speed = w | motion = function(t) return value, speed, accel end, start }
  sys:spring{ a, b, at = {{x1, y1}, {x2, y2}} | a_at, b_at, k, c, length | law = function(l, ldot, t) }
  sys:rotational_spring{ a, b, k, c, angle }
  sys:force{ body, at | body_at, value = {fx, fy}, amplitude = {ax, ay}, omega, phase, frame, fn }
  sys:torque{ body, value, amplitude, omega, phase, fn }
  sys:simulate{ t, report, method, h, rtol, atol, max_step, max_order, max_steps, record,
                events, max_distance, quiet, on_error, params }
  sys:lyapunov{ t, every, transient, d0, method, rtol, ... }   largest Lyapunov exponent
  sys:flexible{ name, mesh, E, nu, density, ... }  a finite-element body  help("sys:flexible")
  sys:guide{ fe, clearance | lower, upper, law, friction, ... }  nodes between two surfaces
  sys:assemble()  sys:entity(name)  sys:value("entity.quantity")  sys:describe()
fields: sys.ground, sys.dof, sys.last_run
`at` is a world point in the configuration as given; a_at, b_at, body_at are body
coordinates.  help("sys:simulate") for the simulation options.]]

topics["sys:body"] = [[
sys:body{ name = "crank", mass = kg, inertia = kg m^2, at = {x, y} m, angle = rad,
          velocity = {vx, vy} m/s, omega = rad/s, rectangle = {length, height} m,
          segment = {{x1, y1}, {x2, y2}} }
  mass > 0; inertia >= 0 (0 only when a Lagrange prismatic or fixed joint stops the body
  from turning).  Returns the body; body:point{ name, at } adds a named point.]]

topics["sys:revolute"] = [[
sys:revolute{ a, b, at = {x, y} | a_at = {x, y}, b_at = {x, y}, name,
              method = "lagrange" | "penalty", k = N/m or {kx, ky}, c = N s/m,
              baumgarte = {alpha, beta} }
  A pin between bodies a and b (sys.ground for the ground).  Penalty joints are the
  spring-dampers of spec 000 Eq. 4: F = k (P_a - P_b) + c (P_a' - P_b').
  Channels: fx, fy, f (force on b), violation.
  clearance = { radial = m | journal = m, radius = m, law, friction }: a journal on b in a
  bearing on a instead (help("clearance")).]]

topics["sys:prismatic"] = [[
sys:prismatic{ a, b, axis = {ux, uy}, at | a_at, b_at, angle, name, method, k = {kn, ktheta}, c }
  b slides along the axis (world direction at the start, fixed to a) and keeps its angle
  relative to a.  Channels: fx, fy, f, fn (normal force), m (moment), violation, twist.
  clearance = { gap = m | width = m, length, height | corners, law, friction }: a slider
  on b that tilts in a guide on a instead (help("clearance")).]]

topics["clearance"] = [[
Joints with clearance: the field clearance of sys:revolute and sys:prismatic.
  sys:revolute{ a, b, at = {x, y}, clearance = { radial = 0.5e-3 | journal = 9.5e-3,
      radius = 10e-3, law = mech.contact.hu_guo{ K = ..., restitution = ... },
      friction = mech.friction.ambrosio{ mu = ... } } }
    a bearing of that radius on a, a journal of radius - radial on b, centred at `at`.
    Channels: ex, ey, e (eccentricity journal - bearing), exb, eyb (in a's frame), and
    gap, penetration, rate, fn, ft, vt, mu, active, impacts, v0, z, stick (its contact,
    also the entity "<joint>.journal").
  sys:prismatic{ a, b, axis = {1, 0}, clearance = { gap = 1e-3 | width = m, length = m,
      height = m | corners = {{x, y}, ...}, law = ..., friction = ... } }
    a guide on a, at -+(height/2 + gap) from the axis, and a slider on b (its x axis along
    the guide); every corner against both surfaces.  Channels: fn, ft (along the axis),
    tilt, offset, impacts, active, and per corner k (counter-clockwise from the lower
    left) c<k>_bottom.gap, c<k>_bottom.fn, c<k>_top.gap, c<k>_top.fn.
  No constraint equation: the joint is contact forces (any law of mechlua-contact(3)) and
  the mechanism gains 2 degrees of freedom.  The bodies must start within the clearance;
  a slider guided only with clearance needs its inertia.]]

topics["sys:fixed"] = [[
sys:fixed{ a, b, at | a_at, b_at, angle, name, method, k = {kx, ky, ktheta}, c }
  Welds b to a.  Channels: fx, fy, f, m, violation, twist.]]

topics["sys:drive"] = [[
sys:drive{ body | joint, speed = rad/s (or m/s), start = value at t = 0, name,
           motion = function(t) return value, speed, acceleration end, baumgarte }
  Prescribes the angle of a body, the angle of a revolute joint or the distance along a
  prismatic joint.  A motion function may return only the value: its derivatives are
  then taken by five-point central differences.  Channels: torque (force), angle (distance),
  target, power, work.]]

topics["sys:spring"] = [[
sys:spring{ a, b, at = {{x1, y1}, {x2, y2}} | a_at, b_at, k = N/m, c = N s/m,
            length = rest length (default: the initial distance), name,
            law = function(length, rate, t) return tension end }
  Channels: f (tension), length, rate, energy.]]

topics["sys:rotational_spring"] = [[
sys:rotational_spring{ a, b, k = N m/rad, c = N m s/rad, angle = rest value of phi_b - phi_a }
  Channels: torque (on b), angle, rate, energy.]]

topics["sys:force"] = [[
sys:force{ body, at | body_at, value = {fx, fy}, amplitude = {ax, ay}, omega = rad/s,
           phase = rad, frame = "global" | "body", name,
           fn = function(t, x, y, phi, vx, vy, omega) return fx, fy, torque end }
  F = value + amplitude sin(omega t + phase), or computed by fn (the slow path: one Lua
  call per right-hand side).  Channels: fx, fy, torque, power.]]

topics["sys:torque"] = [[
sys:torque{ body, value = N m, amplitude, omega, phase, name,
            fn = function(t, x, y, phi, vx, vy, omega) return torque end }]]

topics["sys:simulate"] = [[
run = sys:simulate{ t = end time [s], report = s between rows,
    method = "dopri5" (default) | "rk4" (needs h) | "bdf" (stiff),
    h = step [s], rtol = 1e-6, atol = 1e-9, max_step = s, max_order = 1..5 (bdf),
    max_steps = n (default 1e9; math.huge: no limit),
    record = { "slider.x", "j1.fx", ..., name = function(t, sys) return value end },
    events = { { channel = "crank.phi", value = 0, period = 2 * math.pi, direction = 1,
                 action = "record" | "stop" | function(t, sys) return "stop" end },
               { fn = function(t, sys) return g end, name = "..." } },
    max_distance = m (default 1e6 times the model's scale; math.huge: no limit),
    quiet = true, on_error = "error" | "return", params = { clearance = 0.5e-3 } }
  Runs from t = 0 (the assembled initial state).  On a failure (non-finite values, a body
  farther than max_distance from the origin, step size underflow, a stiff model under
  "dopri5", more than max_steps steps or a pace that would need more, a callback error,
  Ctrl-C) it raises an error naming the time, the step and the entity; the rows so far are
  in sys.last_run (on_error = "return" returns the run and the message instead).
  help(run) for the results.]]

topics["sys:lyapunov"] = [[
lambda, history = sys:lyapunov{ t = end time, every = renormalisation interval [s],
    transient = 0, d0 = 1e-8, method, h, rtol, atol, max_step, max_order, max_distance }
  The largest Lyapunov exponent [1/s] by two nearby trajectories with renormalisation
  (Benettin): > 0 chaotic, < 0 stable.  history = { t = {...}, estimate = {...} } shows
  how the estimate converged.]]

topics["mech.mesh"] = [[
mech.mesh: planar meshes for flexible bodies (man -l man/mechlua-fe.3)
  mech.mesh.rectangle{ size = {w, h} | width, height, origin = {x, y} | center = {x, y},
                       nx, ny, triangles = false, numbering = "top" | "bottom" }
      nx by ny quadrilaterals (or 2 triangles each); nodes numbered row by row from the
      top-left ("top", spec 000 Figs. 6 and 12) or the bottom-left; node sets top, bottom,
      left, right, corners, all
  mech.mesh.read(path)     gmsh .msh, ASCII 2.2 or 4.1; physical groups become node and
                           element sets; errors name the file line
  mech.mesh.check(t)       a mesh written as { nodes = {{x, y}, ...}, elements = {{...}, ...} }
  m.nodes, m.elements, m.groups;  m:find_nodes{ box = {x0, y0, x1, y1} | group = name |
      where = function(x, y) | near = {x, y} } -> node numbers;  m:node_at{x, y}]]

topics["sys:flexible"] = [[
fe = sys:flexible{ name, mesh, E = Pa, nu, density = kg/m^3, thickness = m (1),
                   plane = "stress" | "strain", lumping = "row_sum" | "hrz",
                   alpha = 1/s, beta = s, displacement = {ux, uy}, velocity = {vx, vy} }
  A finite-element body: quadrilaterals (2x2 Gauss) and triangles, lumped mass, Rayleigh
  damping alpha M + beta K.  Each node is a body "name.n<k>" with x and y only: joints
  (revolute, Lagrange or penalty), springs, forces and contacts attach to fe:node(k).
  fe:node(k), fe:find_nodes{...}, fe:node_mass(k), fe:frequencies{ n, mass, fixed },
  fe.mesh, fe.mass, fe.nnodes.  Channels: x y vx vy strain kinetic damping fn ft contacts;
  per node: x y vx vy ax ay ux uy fn ft kinetic.
sys:guide{ fe, name, on, at, axis, lower_nodes, upper_nodes, clearance | lower, upper, law,
           friction }   one contact per node and surface, "name_n<k>_lower" / "_upper"
man -l man/mechlua-fe.3]]
topics["sys:guide"] = topics["sys:flexible"]

topics["mech.entity"] = [[
an entity (body, point, force, joint or driver):
  e.name, e.kind, e.system, e.channels (the quantities it can record)
  body:point{ name, at | body_at }
Record its channels as "name.quantity", e.g. "crank.omega", "pin.fx".]]

topics["mech.run"] = [[
a run (results of sys:simulate):
  run.t, run["slider.x"], run:column(name)   columns (help(run.t))
  #run, run.channels, run.status ("complete", "stopped", "failed", "interrupted"),
  run.ok, run.message, run.stats (steps, rejected, rhs_evals, events, wall_time, ...),
  run.events (list of { name, t, values = { [channel] = value } }), run.parameters
  run:csv(path, { columns = {...}, params = {...} })   written whole or not at all]]

topics["mech.column"] = [[
a column of a run: col[i] (i from 1), #col, col.name, col.unit,
  col:min(), col:max(), col:mean(), col:at(t) (linear interpolation), col:table()]]

topics["plot"] = [[
plot = require "plot": figures for papers (man -l man/mechlua-plot.3)
  plot.figure{ rows, cols, width = mm, height = mm, dpi, font = pt, title }
  plot.figure{ "title", x = run.t, y = run["slider.ax"], xlabel, ylabel }   one panel, one line
  fig:panel(i) or fig:panel(row, col) -> ax;  fig:save("out/fig.png" | ".svg" | ".pdf")
  ax:line{ x, y, label, color, width, style }   ax:scatter{ x, y, label, marker, size }
  ax:step{ ... }   ax:set{ title, xlabel, ylabel, xlim, ylim, xlog, ylog, legend, grid }
  ax:inset{ at = {x0, y0, w, h}, xlim, ylim }   a zoomed view inside the panel]]
topics["plot.figure"] = topics["plot"]
topics["plot.axes"] = topics["plot"]

topics["analysis"] = [[
analysis = require "analysis" (man -l man/mechlua-analysis.3)
  analysis.spectrum(run, channel, { window, detrend, from, to }) -> { freq, amp }
  analysis.peaks(spectrum, n)                dominant frequencies (interpolated)
  analysis.strobe{ period, phase }, analysis.crossing{ channel, value, period, direction }
                                             event definitions for sys:simulate{ events }
  analysis.poincare(run, { event, x, y, transient })   section points
  analysis.phase(run, x, y), analysis.in_frame(run, body, px, py)
  analysis.compare(run, reference, channel)  difference, its peak, ratio to the reference
  analysis.energy(run)                       energy accounts and their balance
  analysis.bifurcation{ values, run = function(v) ... end, section = {...} }
  sys:lyapunov{ t, every, ... }              largest Lyapunov exponent]]

-- issue 15, units: the unit helpers and the plausibility warnings
topics["mech.units"] = [[
unit helpers: mech.<unit>(x) is x <unit> in SI units, mech.to_<unit>(x) an SI value in <unit>
  mech.um(x), mech.mm(x), mech.cm(x)   -> m          mech.deg(d)          -> rad
  mech.rpm(n)                          -> rad/s      mech.Hz(f)           -> rad/s (2 pi f)
  mech.ms(t)                           -> s          mech.kN(f)           -> N
  mech.MPa(p), mech.GPa(p)             -> Pa         mech.g = 9.80665 m/s^2 (standard gravity)
  mech.to_um(m), mech.to_mm(m), mech.to_deg(rad), mech.to_rpm(rad/s), mech.to_ms(s), mech.to_kN(N)
  x: a number, a list of numbers (at = mech.mm{50, 0}) or a column (mech.to_deg(run["crank.phi"])):
  a list in, a list out.  Values that look like a unit slip are warned about: help("mech.warnings")]]
for _, u in ipairs { "um", "mm", "cm", "deg", "rpm", "Hz", "ms", "kN", "MPa", "GPa", "g",
  "to_um", "to_mm", "to_deg", "to_rpm", "to_ms", "to_kN" } do
  topics["mech." .. u] = topics["mech.units"]
end

topics["mech.warnings"] = [[
mech.warnings = true (default) | false
  A value that is legal but probably a slip of unit prints, once per message, on stderr:
    mechlua: warning: body 'crank': angle = 78 rad is more than 2 pi: degrees? use mech.deg(78)
  Checked: angles beyond 2 pi at creation (body, joint, driver start, rotational spring,
  load phase); angular speeds above 1000 rad/s (rpm?), a prismatic driver's above 100 m/s;
  a bearing radius or gap larger than the model, a radial clearance over half the radius, a
  gap over the slider's height; an outline 100 times the model; masses 1e4 apart; E below
  1e6 Pa (materials; flexible bodies of density >= 100); a material's rho out of 100..3e4
  kg/m^3; friction mu or mu_s above 2.
  mech.warnings = false silences them.  man -l man/mechlua.3, PLAUSIBILITY WARNINGS]]

local order = { "mech", "mech.planar", "mech.system", "sys:body", "sys:revolute", "sys:prismatic",
  "clearance", "sys:fixed", "sys:drive", "sys:spring", "sys:rotational_spring", "sys:force", "sys:torque",
  "sys:simulate", "sys:lyapunov", "sys:flexible", "sys:guide", "mech.mesh", "mech.entity", "mech.run",
  "mech.column", "plot", "analysis" }

-- The topic of a value: a name, a function of the mech module or a system method, or
-- the type of an object.
local function topic_of(x)
  if x == nil then return nil end
  if type(x) == "string" then return x end
  if x == mech then return "mech" end
  if x == mech.mesh then return "mech.mesh" end
  if x == package.loaded.plot then return "plot" end
  if x == package.loaded.analysis then return "analysis" end
  if type(x) == "function" then
    for k, v in pairs(mech) do
      if v == x then return "mech." .. k end
    end
    for _, v in pairs(mech.mesh) do
      if v == x then return "mech.mesh" end
    end
    local mt = debug.getregistry()["mech.system"]
    for k, v in pairs(mt and mt.__methods or {}) do
      if v == x then return "sys:" .. k end
    end
    return nil
  end
  local mt = getmetatable(x)
  return type(mt) == "table" and mt.__name or type(x)
end

return function(x)
  local topic = topic_of(x)
  local text = topic and topics[topic]
  if not text then
    local lines = { x == nil and "help(x) explains x; topics:"
      or string.format("no help for %s; topics:", tostring(topic)) }
    for _, t in ipairs(order) do lines[#lines + 1] = "  " .. t end
    lines[#lines + 1] = "The reference is the man page: man mechlua (3)."
    text = table.concat(lines, "\n")
  end
  print(text)
end
