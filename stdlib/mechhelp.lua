-- SPDX-License-Identifier: MIT
-- mechhelp: the text behind help(x) in mechlua.  help(sys), help(run), help(sys.body),
-- help(mech.planar), help("sys:simulate") or help() for the list of topics.
-- The full reference is the man page mechlua(3); texts write {man:page.N} for the command
-- that opens a page (man -l path in a build tree).

local topics = {}
local _, this_file = ... -- require passes the file it loaded this module from

topics["mech"] = [[
mech: the mechanics library (also the global `mech`)
  mech.planar{ gravity = {gx, gy} }  a planar system              help(mech.planar)
  mech.spatial{ gravity = {gx, gy, gz} }  a spatial system        help(mech.spatial)
  mech.rpm(n), mech.deg(d), mech.mm(x), mech.um, mech.GPa, mech.g, ...
                                     unit helpers to SI, and back  help(mech.units)
  mech.contact.<law>{...}            normal laws: kelvin_voigt, hertz, hunt_crossley,
                                     lankarani_nikravesh, flores, gonthier, hu_guo (modified)
  mech.friction.<law>{...}           friction laws: coulomb, stick, ambrosio, adams,
                                     threlfall, stribeck, dahl, lugre   help(mech.contact) ...
  mech.stiffness.<shape>{...}        contact stiffness K from materials and geometry
  mech.materials                     materials (E, nu, rho) and friction pairs
  mech.mesh.rectangle{...}, mech.mesh.read(path)  meshes for flexible bodies  help(mech.mesh)
  mech.mkdir(path)                   create a folder and its parents
  mech.version                       "major.minor.patch"
  mech.quiet = true                  no progress line during long simulations
  mech.warnings = false              no warnings about implausible models
  mech.isatty(fd), mech.version_number, mech.program_digest()
Objects: help(sys), help(body), help(run), help(run.t) once you have them.]]

topics["mech.planar"] = [[
mech.planar{ gravity = {gx, gy}, baumgarte = {alpha, beta}, assemble = true }
  A planar system with a ground body (sys.ground).  gravity in m/s^2 (default none);
  baumgarte: default stabilisation of Lagrange joints, 1/s (default {5, 5});
  assemble = false keeps the positions as given (no Newton assembly).
  Then add bodies, joints, drivers and forces, and call sys:simulate.  help(sys)]]

topics["mech.spatial"] = [[
mech.spatial{ gravity = {gx, gy, gz}, baumgarte = {alpha, beta}, assemble = true }
  A spatial system (rigid bodies in space: centre of mass and Euler parameters) with a
  ground body (sys.ground), the same fields as mech.planar's; sys.dim is 3.  Its bodies,
  joints and force elements are its own (help("mech.spatial.system")); sys:simulate,
  sys:assemble and the rest are every system's.  {man:mechlua.3}, SPATIAL SYSTEMS]]

topics["mech.system"] = [[
system methods (all take one table of named fields):
  sys:body{ name, mass, inertia, at = {x, y}, angle, velocity = {vx, vy}, omega,
            rectangle = {length, height}, segment = {{x1, y1}, {x2, y2}} }
  sys:point{ body, name, at | body_at }           body:point{ name, at | body_at }
  sys:revolute{ a, b, at = {x, y} | a_at, b_at, method = "lagrange"|"penalty", k, c, baumgarte,
                clearance = {...} }                help("clearance")
  sys:prismatic{ a, b, axis = {ux, uy}, at | a_at, b_at, angle, method, k, c, clearance = {...} }
                                                   (also sys:translational)
  sys:fixed{ a, b, at | a_at, b_at, angle, method, k, c }
  sys:drive{ body | joint, speed = w | motion = function(t) return value, speed, accel end, start }
  sys:spring{ a, b, at = {{x1, y1}, {x2, y2}} | a_at, b_at, k, c, length | law = function(l, ldot, t) }
  sys:rotational_spring{ a, b, k, c, angle }
  sys:force{ body, at | body_at, value = {fx, fy}, amplitude = {ax, ay}, omega, phase, frame, fn }
  sys:torque{ body, value, amplitude, omega, phase, fn }
  sys:simulate{ t, report, method, h, rtol, atol, max_step, max_order, max_steps, newton,
                jacobian, record, events, max_distance, project, motion, quiet, on_error,
                params }
  sys:lyapunov{ t, every, transient, d0, method, rtol, ... }   largest Lyapunov exponent
  sys:flexible{ name, mesh, E, nu, density, ... }  a finite-element body  help("sys:flexible")
  sys:guide{ fe, clearance | lower, upper, law, friction, ... }  nodes between two surfaces
  sys:contact{ body, at | body_at, surface = { body, at, normal, speed }, law, friction }
  sys:assemble()  sys:entity(name)  sys:value("entity.quantity")  sys:describe()
fields: sys.ground, sys.dof, sys.dim (2), sys.last_run
These are a planar system's (mech.planar); a spatial one's: help("mech.spatial.system").
`at` is a world point in the configuration as given; a_at, b_at, body_at are body
coordinates.  help("sys:simulate") for the simulation options.]]

topics["sys:body"] = [[
sys:body{ name = "crank", mass = kg, inertia = kg m^2, at = {x, y} m, angle = rad,
          velocity = {vx, vy} m/s, omega = rad/s, rectangle = {length, height} m,
          segment = {{x1, y1}, {x2, y2}} }
  mass > 0; inertia >= 0 (0 only when a Lagrange prismatic or fixed joint stops the body
  from turning).  Returns the body; body:point{ name, at } adds a named point.
  A spatial system's: help("spatial:body").]]

topics["sys:revolute"] = [[
sys:revolute{ a, b, at = {x, y} | a_at = {x, y}, b_at = {x, y}, name,
              method = "lagrange" | "penalty", k = N/m or {kx, ky}, c = N s/m,
              baumgarte = {alpha, beta} }
  A pin between bodies a and b (sys.ground for the ground).  Penalty joints are the
  spring-dampers of [Zheng & Wang, Eq. 4]: F = k (P_a - P_b) + c (P_a' - P_b').
  Channels: fx, fy, f (force on b), violation.
  clearance = { radial = m | journal = m, radius = m, law, friction }: a journal on b in a
  bearing on a instead (help("clearance")).  A spatial system's: help("spatial:revolute").]]

topics["sys:prismatic"] = [[
sys:prismatic{ a, b, axis = {ux, uy}, at | a_at, b_at, angle, name, method, k = {kn, ktheta}, c }
  b slides along the axis (world direction at the start, fixed to a) and keeps its angle
  relative to a.  Channels: fx, fy, f, fn (normal force), m (moment), violation, twist.
  clearance = { gap = m | width = m, length, height | corners, law, friction }: a slider
  on b that tilts in a guide on a instead (help("clearance")).  Also sys:translational.]]
topics["sys:translational"] = topics["sys:prismatic"]

topics["clearance"] = [[
Joints with clearance: the field clearance of sys:revolute and sys:prismatic.
  sys:revolute{ a, b, at = {x, y}, clearance = { radial = 0.5e-3 | journal = 9.5e-3,
      radius = 10e-3, law = mech.contact.hu_guo{ K = ..., restitution = ... },
      friction = mech.friction.ambrosio{ mu = ... } } }
    a bearing of that radius on a, a journal of radius - radial on b, centred at `at`.
    Channels: ex, ey, e (eccentricity journal - bearing), exb, eyb (in a's frame), fx, fy,
    f (force on b, as the ideal joint's), and gap, penetration, rate, fn, ft, vt, mu,
    active, impacts, v0, z, stick (its contact, also the entity "<joint>.journal").
  sys:prismatic{ a, b, axis = {1, 0}, clearance = { gap = 1e-3 | width = m, length = m,
      height = m | corners = {{x, y}, ...}, law = ..., friction = ... } }
    a guide on a, at -+(height/2 + gap) from the axis, and a slider on b (its x axis along
    the guide); every corner against both surfaces.  Channels: fn, ft (along the axis),
    tilt, offset, impacts, active, fx, fy, f, m (force on b and its moment about b's
    anchor, as the ideal joint's), and per corner k (counter-clockwise from the lower
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
  target, power, work.
  Spatial systems: a body's angle is its rotation about the world axis `axis` = {ax, ay, az}
  (default: the axis of its one revolute joint to the ground), from its orientation as
  given; a cylindrical joint needs what = "angle" or "distance".]]

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


-- spatial systems: mech.spatial's methods are "spatial:<name>" topics (the variable the
-- manual uses is still sys); those only spatial systems have are also "sys:<name>"
topics["mech.spatial.system"] = [[
spatial system methods (all take one table of named fields; world coordinates at the start
unless the field says body coordinates):
  sys:body{ name, mass, inertia = {Ixx, Iyy, Izz} | {Ixx, Iyy, Izz, Ixy, Iyz, Izx}, products,
            at = {x, y, z}, quaternion | matrix | axis, angle | axes | euler,
            velocity = {vx, vy, vz}, omega = {wx, wy, wz} }      help("spatial:body")
  sys:point{ body, name, at | body_at }           body:point{ name, at | body_at }
  sys:revolute{ a, b, at, axis, ref }   sys:spherical{ a, b, at }
  sys:universal{ a, b, at, axis_a, axis_b }   sys:cylindrical{ a, b, at, axis, ref }
  sys:prismatic{ a, b, axis, at, ref } (sys:translational)   sys:planar{ a, b, normal, at, ref }
  sys:fixed{ a, b, at, axis, ref }        all: a_at, b_at, name, method, k, c, baumgarte
                        help("spatial:revolute"); with clearance help("spatial:prismatic")
  sys:drive{ body | joint, speed | motion, start, axis, what, baumgarte }
  sys:spring{ a, b, at = {{x1, y1, z1}, {x2, y2, z2}} | a_at, b_at, k, c, length | law }
  sys:rotational_spring{ joint, k, c, angle }
  sys:force{ body, at | body_at, value = {fx, fy, fz}, amplitude, omega, phase, frame, fn }
  sys:torque{ body, value = {tx, ty, tz}, amplitude, omega, phase, frame, fn }
  sys:simulate{...}  sys:lyapunov{...}  sys:assemble()  sys:entity(name)  sys:value(name)
  sys:describe()
fields: sys.ground, sys.dof, sys.dim (3), sys.last_run
The planar methods sys:contact, sys:flexible and sys:guide are not a spatial system's.]]

topics["spatial:body"] = [[
sys:body{ name = "rod", mass = kg, inertia = {Ixx, Iyy, Izz} kg m^2 (principal moments) |
          {Ixx, Iyy, Izz, Ixy, Iyz, Izx}, products = "integral" (default) | "tensor",
          at = {x, y, z} m, velocity = {vx, vy, vz} m/s, omega = {wx, wy, wz} rad/s (world),
          and at most one orientation (world = A body; default: the world's axes):
          quaternion = {e0, e1, e2, e3}           Euler parameters, scalar first
          matrix = {{r11, r12, r13}, {r21, ...}, {...}}   rows of A: its columns are the
                                                  body axes in the world (orthonormal to 1e-6)
          axis = {ax, ay, az}, angle = rad        a rotation about a world axis
          axes = { x = {...}, y = {...}, exact = "x" }   two body axes (x, y or z) in the
                                                  world; `exact` (default the first of x, y,
                                                  z) is kept, the other made normal to it
          euler = { "zyx", a, b, c }              intrinsic angles, A = Rz(a) Ry(b) Rx(c); any
                                                  of the twelve sequences, not at gimbal lock }
  Inertia about the centre of mass in body axes: positive definite, the principal moments
  meeting the triangle inequality; products "integral": Ixy = int x y dm (the tensor holds
  -Ixy), "tensor": the tensor's entries.  Channels: x, y, z, vx.., ax.., e0..e3, r11..r33,
  wx, wy, wz (world), wbx.. (body axes), alphax.., hx.., kinetic, zyx1..zyx3 (each sequence).]]

topics["spatial:revolute"] = [[
spatial joints: sys:<type>{ a, b, at = {x, y, z} | a_at = {...}, b_at = {...}, name,
                            method = "lagrange" | "penalty", k, c, baumgarte = {alpha, beta} }
  revolute{ at, axis, ref }     turns about axis                                  5 equations
  spherical{ at }               a ball joint                                      3
  universal{ at, axis_a, axis_b }   a cardan: a turns about axis_a, b about axis_b (the
                                cross's axes at the start; axis_b is made normal)  4
  cylindrical{ at, axis, ref }  turns about and slides along axis                 4
  prismatic{ axis, at, ref }    slides along axis, no turning (also translational) 5
  planar{ normal (or axis), at, ref }   b's anchor moves in a's plane, turning about
                                the normal only                                   3
  fixed{ at, axis, ref }        welds b to a                                      6
  at, axis, normal, ref, axis_a, axis_b: world points and directions at the configuration
  as given; a_at, b_at: body coordinates.  prismatic, planar and fixed are anchored at b's
  centre by default.  ref: the direction of the joint frame's x axis (its angle 0), made
  normal to axis (default: a world axis across it).  Penalty k and c: one number or one
  per equation.  Channels: fx, fy, fz, f, mx, my, mz, m (reaction on b, world), fx_j ..
  mz_j (in a's joint frame), violation, misalignment, angle (revolute, cylindrical),
  distance (prismatic, cylindrical).
  revolute{ at, axis, clearance = { radial, axial }, bearing = { radius, length },
            journal = { radius, length }, contact = law, friction = law }  (two of the
                                three sizes) a journal on b in a bearing cavity on a: no
                                equation, four contacts <name>.radial_a, .radial_b,
                                .axial_a, .axial_b.  Channels: ex, ey, ez (journal centre -
                                bearing centre, world), e, exb, eyb (across the axis, a's
                                joint frame), axial, tilt, angle, impacts, active, and the
                                contacts' resultant on b as fx .. mz_j above.
  prismatic{ axis, ref, clearance = { x, z }, slider = { length, width, height },
            channel = { width, height }, contact = law, friction = law }  a box slider on b
                                in a channel on a: help("spatial:prismatic").]]
for _, j in ipairs { "spherical", "universal", "cylindrical", "planar", "fixed" } do
  topics["spatial:" .. j] = topics["spatial:revolute"]
end

topics["spatial:prismatic"] = [[
sys:prismatic{ a, b, axis = {ax, ay, az}, ref = {rx, ry, rz}, at | a_at, b_at, name,
               method, k, c, baumgarte }          (also sys:translational)
  b slides along axis without turning (5 equations); channels as help("spatial:revolute").
With clearance ([Wang et al. 2025]), no equation: a box slider on b in a rectangular channel on a
  sys:prismatic{ a, b, axis, ref, clearance = { x = m, z = m },
                 slider = { length = m, width = m, height = m }, channel = { width, height },
                 contact = law, friction = law, stiffness = "corners" }
               | { ..., stiffness = "area" | "patch" | "constant", materials = {guide, slider}
                 | material, damping = true, restitution = e, v_min, friction = law }
  The guide's frame: Y = axis (the travel), X = ref, Z = X x Y; the channel's centre line
  through a's anchor, the slider's centre b's anchor (b's centre by default).  Two of
  channel, slider and clearance for the width (x) and the height (z); the slider's length.
  Walls xpos, xneg (x = +-(width/2 + x)), zpos, zneg; corners c0 .. c7 (bit 0: +X, bit 1:
  +Y, bit 2: +Z).  "corners": 32 contacts <name>.xpos.c0 .. <name>.zneg.c7, each corner
  against each wall with the law at its own depth and impact velocity, friction in the
  wall's plane (axes fixed to the guide).  A planar guide's K is K/2 per spatial corner.
  The slider must start inside; through a wall the run stops.  It starts aligned, or turned
  with slider = { ..., axis = {...}, ref = {...} } (its long edge and width direction in the
  world).
  The area laws ([Wang et al. 2025], Eqs. 18-22): a contact <name>.xpos .. .zneg per wall,
  F = k delta (the deepest corner's delta) at the overlap's pressure centre (its centroid
  moved onto the wall); k from the materials:
  "area" by the overlap's mode (a corner's triangles, an edge's rectangles, a face: Wu's
  fits weighted by the projection on the wall), "patch" the rectangle fit on the section,
  "constant" the flat punch (2d the face's width across the travel); damping = true: the
  Lankarani-Nikravesh factor at that point's rate.  Stored energy: int k(s) s ds at the
  present orientation (with a turning slider the law is not conservative: mechlua-spatial(3)).
  Friction (any law, per contact): the paper's Eqs. 25-26 are mech.friction.ambrosio{ mu,
  v0 = 1e-4, v1 = 2e-4 }; mech.friction.adams{ mu_s, mu, v0, v1 } static and dynamic;
  mech.materials.pair("aluminium", "steel") gives Tab. 5's mu_s and mu.
  mech.friction.stick{ mu_s, mu, v_eps } in either layout: the contacts slower than v_eps
  hold the slider, sharing the force that cancels every other force on it by their normal
  forces, each share at most mu_s F_N ([Zheng & Wang, Eq. 13], as the revolute joint's).
  Exact for a free slider in a fixed guide with the load in the sticking walls' planes;
  rotations are ignored (a push above the floor rocks the slider: its corners may creep).
  Channels: x, y, z (slider centre - channel centre, guide frame), roll (about Y), pitch
  (about X), yaw (about Z) (Rz(yaw) Rx(pitch) Ry(roll)), per wall <w>_mode (0 none,
  1 corner, 2 edge, 3 face, 4 through), <w>_penetration, <w>_fn, <w>_ft, <w>_area,
  <w>_stiffness, impacts, active, and the contacts' resultant on b as fx .. mz_j.]]
topics["spatial:translational"] = topics["spatial:prismatic"]

topics["spatial:spring"] = [[
sys:spring{ a, b, at = {{x1, y1, z1}, {x2, y2, z2}} | a_at, b_at, k = N/m, c = N s/m,
            length = rest length (default: the initial distance), name,
            law = function(length, rate, t) return tension end }
  Along the line between the points.  Channels: f (tension), length, rate, energy.]]

topics["spatial:rotational_spring"] = [[
sys:rotational_spring{ joint, k = N m/rad, c = N m s/rad, angle = rest angle, name }
  About the axis of a revolute or cylindrical joint: the torque -k (angle - rest) - c rate
  on b, its opposite on a; the rest angle defaults to the joint's initial angle.
  Channels: torque, angle, rate, energy.]]

topics["spatial:force"] = [[
sys:force{ body, at | body_at, value = {fx, fy, fz}, amplitude = {ax, ay, az}, omega = rad/s,
           phase = rad, frame = "global" | "body", name,
           fn = function(t, s) return fx, fy, fz[, tx, ty, tz] end }
sys:torque{ body, value = {tx, ty, tz}, amplitude, omega, phase, frame, name,
            fn = function(t, s) return tx, ty, tz end }
  F = value + amplitude sin(omega t + phase) (frame "body": components in the body's axes,
  turning with it), or computed by fn in world axes.  s is one table per load, refilled
  before each call: s.x, s.y, s.z, s.e0 .. s.e3, s.vx, s.vy, s.vz, s.wx, s.wy, s.wz (world;
  keep no reference to it).  Channels: fx, fy, fz, tx, ty, tz, power.]]
topics["spatial:torque"] = topics["spatial:force"]

-- the methods only spatial systems have, by their usual names too
for _, m in ipairs { "spherical", "universal", "cylindrical", "planar" } do
  topics["sys:" .. m] = topics["spatial:" .. m]
end

topics["sys:simulate"] = [[
run = sys:simulate{ t = end time [s], report = s between rows,
    method = "dopri5" (default) | "rk4" (needs h) | "bdf" (stiff),
    h = step [s], rtol = 1e-6, atol = 1e-9, max_step = s, max_order = 1..5 (bdf),
    max_steps = n (default 1e9; math.huge: no limit),
    newton = "auto" | "dense" | "sparse" (bdf: its Newton solver; auto: sparse for large meshes),
    jacobian = "auto" | "columns" (bdf: grouped with the model's help, or one state at a time),
    record = { "slider.x", "j1.fx", ..., name = function(t, sys) return value end },
    events = { { channel = "crank.phi", value = 0, period = 2 * math.pi, direction = 1,
                 action = "record" | "stop" | function(t, sys) return "stop" end },
               { fn = function(t, sys) return g end, name = "..." } },
    max_distance = m (default 1e6 times the model's scale; math.huge: no limit),
    project = "auto" (default) | true | false,
    motion = s between kept states (the whole state, for drawing the motion: run:state),
    quiet = true, on_error = "error" | "return", params = { clearance = 0.5e-3 } }
  Runs from t = 0 (the assembled initial state).  project: the state moved back onto the
  Lagrange joints and drivers (positions and velocities, least change in the mass metric):
  step ends whose violation exceeds the tolerance (atol + rtol times the model's size), and
  every row and event (to rounding); "auto" does it for runs of rk4 and dopri5 longer than
  5 characteristic periods (a turn of the fastest driver, body or pendulum of the model's
  size); run.stats.project says what was done, run.parameters why.  On a failure (non-finite values, a body
  farther than max_distance from the origin, step size underflow, a stiff model under
  "dopri5", more than max_steps steps or a pace that would need more, a callback error,
  Ctrl-C) it raises an error naming the time, the step and the entity; the rows so far are
  in sys.last_run (on_error = "return" returns the run and the message instead).
  help(run) for the results.]]

topics["sys:lyapunov"] = [[
lambda, history = sys:lyapunov{ t = end time, every = renormalisation interval [s],
    transient = 0, d0 = 1e-8, method, h, rtol, atol, max_step, max_order, max_steps, newton,
    jacobian, max_distance }
  The largest Lyapunov exponent [1/s] by two nearby trajectories with renormalisation
  (Benettin): > 0 chaotic, < 0 stable.  history = { t = {...}, estimate = {...} } shows
  how the estimate converged.]]

topics["mech.mesh"] = [[
mech.mesh: planar meshes for flexible bodies ({man:mechlua-fe.3})
  mech.mesh.rectangle{ size = {w, h} | width, height, origin = {x, y} | center = {x, y},
                       nx, ny, triangles = false, numbering = "top" | "bottom" }
      nx by ny quadrilaterals (or 2 triangles each); nodes numbered row by row from the
      top-left ("top", as [Zheng & Wang, Figs. 6 and 12]) or the bottom-left; node sets top, bottom,
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
{man:mechlua-fe.3}]]
topics["sys:guide"] = topics["sys:flexible"]

topics["mech.entity"] = [[
an entity (body, point, force, joint or driver):
  e.name, e.kind, e.system, e.channels (a list of the quantities it can record)
  body:point{ name, at | body_at }
Record its channels as "name.quantity", e.g. "crank.omega", "pin.fx".]]

topics["mech.run"] = [[
a run (results of sys:simulate):
  run.t, run["slider.x"], run:column(name)   columns (help(run.t))
  #run, run.channels, run.status ("complete", "stopped", "failed", "interrupted"),
  run.ok, run.message, run.stats (steps, rejected, rhs_evals, events, wall_time, solver, ...,
    project = { on, period, checks, projections, outputs, iterations, time, ... }),
  run.events (list of { name, t, values = { [channel] = value } }), run.parameters
  run.motion, run:state(k) -> t, {state}   the states kept by sys:simulate{ motion = dt }
  run:scene(t) -> { bodies, items, contacts, meshes }   the mechanism at t (help "run:scene")
  run:animate{ file = "out/crank.gif", fps, speed, ... }   the motion as a GIF or MP4
  run:paraview(prefix, { fps, t, every, channels, thickness, segments })   ParaView files of
    the motion: prefix.pvd and the folder prefix/ (help "run:paraview")
  run:csv(path, { columns = {...}, params = {...} })   written whole or not at all
  run:mat(path, { version = "5" | "7.3", ... })       a MATLAB file (help "run:mat")]]

topics["mech.column"] = [[
a column of a run: col[i] (i from 1), #col, col.name, col.unit,
  col:min(), col:max(), col:mean(), col:at(t) (linear interpolation), col:table()]]

topics["plot"] = [[
plot = require "plot": figures for papers ({man:mechlua-plot.3})
  plot.figure{ rows, cols, width = mm, height = mm, dpi, font = pt, title }
  plot.figure{ "title", x = run.t, y = run["slider.ax"], xlabel, ylabel }   one panel, one line
  fig:panel(i) or fig:panel(row, col) -> ax;  fig:save("out/fig.png" | ".svg" | ".pdf")
  ax:line{ x, y, label, color, width, style }   ax:scatter{ x, y, label, marker, size }
  ax:step{ ... }   ax:set{ title, xlabel, ylabel, xlim, ylim, xlog, ylog, legend, grid }
  ax:inset{ at = {x0, y0, w, h}, xlim, ylim }   a zoomed view inside the panel
  ax:set{ aspect = "equal" }   ax:circle{ radius, center }   plot.clearance{ run, joint }]]

topics["analysis"] = [[
analysis = require "analysis" ({man:mechlua-analysis.3})
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

-- {== Help part (issue 15): contact laws, stdlib modules, methods of every object ==

topics["sys:contact"] = [[
sys:contact{ body, at | body_at, surface = { body = b (ground), at | body_at,
             normal = {nx, ny}, speed = m/s }, law, friction, name }
  A contact between a point of body and a straight surface (its normal points to the free
  side; speed: the surface material moving along t = (n_y, -n_x), a belt).  law: a normal
  law (help(mech.contact)); friction: a friction law (help(mech.friction)).  Onset and end
  are located events; the impact velocity is the penetration rate at the onset.
  Channels: gap, penetration, rate, fn, ft, vt, mu, active, impacts, v0, z, stick.]]

topics["mech.contact"] = [[
mech.contact: normal contact laws ({man:mechlua-contact.3}, NORMAL LAWS)
  Each takes one table of fields and returns a law for sys:contact, sys:guide or a
  clearance joint; d = penetration [m], dd its rate, v0 the impact velocity.
  kelvin_voigt{ K, c }                   F = K d + c dd
  hertz{ K, n }                          F = K d^n (elastic)
  hunt_crossley{ K, n, b, p, q } | { K, n, restitution, v_min }
  lankarani_nikravesh{ K, n, restitution, v_min }   h = 3 (1 - e^2) / 4
  flores{ ... }                          h = 8 (1 - e) / (5 e)
  gonthier{ ... }                        h = (1 - e^2) / e
  hu_guo{ ... } = modified{ ... }        h = 3 (1 - e) / (2 e)
  Restitution laws: F = K d^n (1 + h dd / v0).  Instead of K: material | materials =
  {"steel", "aluminium"} with radius = R or bearing = Rb, journal = Rj.
  help(mech.contact.hu_guo) for one law; mech.friction, mech.stiffness, mech.materials.]]

local function law_topic(name, text)
  topics["mech.contact." .. name] = "mech.contact." .. text
    .. "\n  K may be replaced by material(s) and geometry (help(mech.contact)); the law is"
    .. "\n  used as law = ... of sys:contact, sys:guide or clearance = {...}."
end
law_topic("kelvin_voigt", [[kelvin_voigt{ K = N/m, c = N s/m (0) }
  F = max(K d + c dd, 0): the linear spring-damper of [Zheng & Wang, Eq. 1] (nodes of a
  flexible slider against its guide).  Starts with a force step c v0.]])
law_topic("hertz", [[hertz{ K = N/m^n, n = 1.5 }
  F = K d^n: elastic (Hertz 1882); an impact rebounds with its incoming velocity.]])
law_topic("hunt_crossley", [[hunt_crossley{ K, n = 1.5, b, p = n, q = 1 }
                         | hunt_crossley{ K, n = 1.5, restitution = e, v_min = 1e-4 }
  General form F = max(K d^n + b d^p sgn(dd) |dd|^q, 0) ([Wang et al. 2025, Eq. 14]);
  restitution form F = K d^n (1 + h dd / v0), h = 3 (1 - e) / 2 (Hunt and Crossley
  1975), good near e = 1 only.  Give b or restitution, not both.]])
law_topic("lankarani_nikravesh", [[lankarani_nikravesh{ K = N/m^n, n = 1.5, restitution = e, v_min = 1e-4 }
  F = max(K d^n (1 + h dd / v0), 0), h = 3 (1 - e^2) / 4 (Lankarani and Nikravesh 1990).
  Under-dissipates at low e (a target e = 0.2 rebounds with 0.67).]])
law_topic("flores", [[flores{ K = N/m^n, n = 1.5, restitution = e, v_min = 1e-4 }
  F = max(K d^n (1 + h dd / v0), 0), h = 8 (1 - e) / (5 e) (Flores et al. 2011): for every
  e, soft materials included.]])
law_topic("gonthier", [[gonthier{ K = N/m^n, n = 1.5, restitution = e, v_min = 1e-4 }
  F = max(K d^n (1 + h dd / v0), 0), h = (1 - e^2) / e (Gonthier et al. 2004).]])
law_topic("hu_guo", [[hu_guo{ K = N/m^n, n = 1.5, restitution = e, v_min = 1e-4 }
  F = max(K d^n (1 + h dd / v0), 0), h = 3 (1 - e) / (2 e) (Hu and Guo 2015): the most
  accurate restitution law for e >= 0.6.  mech.contact.modified is the same law (the
  "modified" model of [Sci. Rep. 2023]).]])
topics["mech.contact.modified"] = topics["mech.contact.hu_guo"]

topics["mech.friction"] = [[
mech.friction: friction laws ({man:mechlua-contact.3}, FRICTION LAWS)
  Each returns a law for friction = ... of sys:contact, sys:guide or a clearance joint;
  v = sliding velocity, fn = normal force; mu_s >= mu.
  coulomb{ mu, regularization = "linear" | "tanh" | "sqrt", v_reg }   f = -mu fn sgn(v)
  stick{ mu_s, mu, v_eps }          static and kinetic friction (trial and error)
  ambrosio{ mu, v0, v1 }            Coulomb, vanishing below v0, full above v1
  adams{ mu_s, mu, v0, v1 }         static mu_s at v0, dynamic mu above v1, smooth steps
  threlfall{ mu, v0 }               f = -mu fn (1 - exp(-3 |v| / v0)) sgn(v)
  stribeck{ mu_s, mu, vs, delta, sigma2, regularization, v_reg }   the Stribeck curve
                                    plus viscous friction
  dahl{ mu, sigma0, bounded, reset }   a bristle model (state z)
  lugre{ mu_s, mu, vs, delta, sigma0, sigma1, sigma2, normalized, bounded, reset }
                                    bristles + Stribeck
  help(mech.friction.lugre) for one law.]]

local function friction_topic(name, text)
  topics["mech.friction." .. name] = "mech.friction." .. text
    .. "\n  Used as friction = ... of sys:contact, sys:guide or clearance = {...}."
end
friction_topic("coulomb", [[coulomb{ mu, regularization = "linear" | "tanh" | "sqrt", v_reg = 1e-4 }
  f = -mu fn sgn(v) (Coulomb 1785); "linear": -mu fn v / v_reg below v_reg; "tanh":
  -mu fn tanh(|v| / v_reg) sgn(v); "sqrt": -mu fn v / sqrt(|v|^2 + v_reg^2).  Without
  regularization a sticking contact is stiff.]])
friction_topic("stick", [[stick{ mu_s, mu, v_eps = 1e-5 }
  Above v_eps: f = -mu fn sgn(v); below it the force that keeps the point from
  accelerating, clamped to mu_s fn: the trial-and-error algorithm of
  [Zheng & Wang, Eqs. 2, 3 and 13], after Karnopp 1985.  Channel stick = 1 inside the band.]])
friction_topic("ambrosio", [[ambrosio{ mu, v0 = 1e-4, v1 = 1e-3 }
  f = -mu(|v|) fn sgn(v), mu(s) = 0 below v0, mu (s - v0) / (v1 - v0) between, mu above v1
  (Ambrosio 2003; [Wang et al. 2025, Eqs. 25-26]).]])
friction_topic("adams", [[adams{ mu_s, mu, v0 = 1e-4, v1 = 1e-3 }
  f = -mu(|v|) fn sgn(v), mu(s) rising from 0 at s = 0 to mu_s at v0 (the stiction speed),
  then from mu_s to mu at v1 (the transition speed), by cubic steps (MSC ADAMS's static and
  dynamic friction): static and kinetic coefficients, e.g. mech.materials.pair's.]])
friction_topic("threlfall", [[threlfall{ mu, v0 = 1e-4 }
  f = -mu fn (1 - exp(-3 |v| / v0)) sgn(v) (Threlfall 1978): 95% of mu fn at v0.]])
friction_topic("stribeck", [[stribeck{ mu_s, mu, vs = 1e-3, delta = 2, sigma2 = 0,
                 regularization = "none" | "linear" | "tanh" | "sqrt", v_reg = 1e-4 }
  f = -[mu + (mu_s - mu) exp(-(|v| / vs)^delta)] fn sgn(v) - sigma2 v (Bo and Pavelescu
  1982; [Spatial revolute paper, Eqs. 12-13]); sgn(0) = 0.  With a regularization the
  whole magnitude is multiplied by r(|v|) = min(|v| / v_reg, 1), tanh(|v| / v_reg) or
  |v| / sqrt(|v|^2 + v_reg^2), as for coulomb: the force is continuous through v = 0.]])

-- The options of the bristle laws, shared by the topics of dahl and lugre.
local bristle_options = [[
  bounded = true: the bounded form.  fn, and with it g, goes to 0 at each onset and end
  of a contact, where the plain law's rate sigma0 |v| z / g has no bound and LuGre's
  sigma1 z' gives newtons from micronewtons of fn.  The deflection used is held within
  g / sigma0 (zc), z' = v - sigma0 |v| zc / g (|z'| <= 2 |v|), and the bristle force
  sigma0 zc + sigma1 z' is limited to the static force (mu_s fn; mu fn for Dahl): the
  plain law in steady sliding and pre-sliding, never above mu_s fn + sigma2 |v|.
  reset = "onset" (default): z = 0 at each contact's onset; "never": a contact starts
  from the z the last one ended with.  z is frozen while the contact is open.]]
friction_topic("dahl", [[dahl{ mu, sigma0 = 1e5, bounded = false, reset = "onset" }
  z' = v - sigma0 |v| z / (mu fn), f = -sigma0 z (Dahl 1968; [Spatial revolute paper,
  Eq. 14]): a spring for small displacements, Coulomb in steady sliding.  Stiff state.
]] .. bristle_options)
friction_topic("lugre", [[lugre{ mu_s, mu, vs = 1e-3, delta = 2, sigma0 = 1e5, sigma1, sigma2 = 0,
              normalized = false, bounded = false, reset = "onset" }
  z' = v - sigma0 |v| z / g(v), f = -(sigma0 z + sigma1 z' + sigma2 v),
  g(v) = [mu + (mu_s - mu) exp(-(|v| / vs)^delta)] fn (Canudas de Wit et al. 1995;
  [Spatial revolute paper, Eqs. 15-16]).  normalized = true: g without fn and f times fn,
  the form of [Sci. Rep. 2023] (not with bounded).  Stiff state: see
  {man:mechlua-contact.3}, The bristle state.
]] .. bristle_options)

topics["mech.stiffness"] = [[
mech.stiffness: the contact stiffness K from materials and geometry ({man:mechlua-contact.3},
CONTACT STIFFNESS).  materials = {"steel", "aluminium"} (names in mech.materials,
or tables { E = Pa, nu }) or material = "steel" for both; h = (1 - nu^2) / E.
  mech.stiffness.sphere{ materials, R1, R2, concave }   Hertz's two spheres [N/m^1.5]
  mech.stiffness.journal{ materials, bearing, journal }  a journal in a bearing [N/m^1.5]
  mech.stiffness.punch{ materials, a }           a flat square punch of side 2a [N/m]
  mech.stiffness.rectangle{ materials, area, a, b }      a rectangular area [N/m]
  mech.stiffness.triangle{ materials, area, a, b }       a triangular area [N/m]
]]
topics["mech.stiffness.sphere"] = [[
mech.stiffness.sphere{ materials | material, R1 = m, R2 = m (plane), concave = false }
  K = 4 / (3 (h1 + h2)) sqrt(R) [N/m^1.5], R = R1 R2 / (R1 + R2), or R1 R2 / (R1 - R2) for
  concave = true (R1 the hollow one), h = (1 - nu^2) / E ([Wang et al. 2025, Eqs. 15-17]).]]
topics["mech.stiffness.journal"] = [[
mech.stiffness.journal{ materials | material, bearing = Rb, journal = Rj }
  K of a journal in a bearing (Rb > Rj): the concave-sphere formula with
  R = Rb Rj / (Rb - Rj) (Flores and Ambrosio 2004).  Steel, 10 and 9.5 mm: 6.706e10 N/m^1.5.]]
topics["mech.stiffness.punch"] = [[
mech.stiffness.punch{ materials | material, a = m }
  A flat square punch of side 2a: K = a / (0.475 (sigma1 + sigma2)) [N/m],
  sigma = (1 - nu^2) / (pi E) ([Wang et al. 2025, Eq. 19], after Flores et al. 2008).]]
topics["mech.stiffness.rectangle"] = [[
mech.stiffness.rectangle{ materials | material, area = m^2, a, b }
  A rectangular contact area with sides 2a and 2b: K = sqrt(S) / (sigma1 + sigma2) /
  (11.15 / (a/b + 15.72) + 0.2854) [N/m] ([Wang et al. 2025, Eqs. 20-21]).]]
topics["mech.stiffness.triangle"] = [[
mech.stiffness.triangle{ materials | material, area = m^2, a, b }
  A triangular contact area with edges in the ratio a/b: K = sqrt(S) / (sigma1 + sigma2) /
  (9.924 / (a/b + 14.70) + 0.2731) [N/m] ([Wang et al. 2025, Eq. 22]).]]

topics["mech.materials"] = [[
mech.materials: materials for the contact stiffness, mech.materials.<name> = { name, E = Pa,
  nu, rho = kg/m^3 }: steel, aluminium, copper, nodular_cast_iron.
  mech.materials.add{ name, E, nu, rho }   adds or replaces a material
  mech.materials.pair(a, b)               the friction coefficients { mu_s, mu } of a pair
  mech.materials.pairs["aluminium/steel"]  the pairs known ([Wang et al. 2025, Table 5])]]
topics["mech.materials.add"] = [[
mech.materials.add{ name, E = Pa (> 0), nu (-1 < nu < 0.5), rho = kg/m^3 (> 0) }
  Adds (or replaces) a material, usable as materials = { name, ... } of the contact laws.]]
topics["mech.materials.pair"] = [[
mech.materials.pair(a, b) -> { mu_s, mu }
  The dry friction coefficients of two materials, in either order ([Wang et al. 2025,
  Table 5], against an aluminium guide); a pair without data is an error naming it.
  mech.friction.stick{ mu_s = p.mu_s, mu = p.mu }]]

topics["mech.mkdir"] = [[
mech.mkdir(path) -> path
  Creates the folder and its missing parents (mkdir -p); an existing folder is not an
  error, a path blocked by a file is.  run:csv(mech.mkdir("out") .. "/run.csv")]]
topics["mech.program_digest"] = [[
mech.program_digest() -> "16 hex digits"
  A digest (FNV-1a, 64 bits) of the running program's file: it changes when the program is
  rebuilt differently (mech.version names only the release).  For the keys of results kept
  for a rerun.]]
topics["mech.isatty"] = [[
mech.isatty(fd) -> boolean
  Whether file descriptor fd (0, 1, 2, or "stdin", "stdout", "stderr") is a terminal.]]

topics["mech.mesh.rectangle"] = topics["mech.mesh"]
topics["mech.mesh.read"] = topics["mech.mesh"]
topics["mech.mesh.check"] = topics["mech.mesh"]
topics["mesh:find_nodes"] = [[
mesh:find_nodes{ box = {x0, y0, x1, y1} | group = name | where = function(x, y, node) |
                 near = {x, y} } -> list of node numbers
  Also fe:find_nodes{...} on a flexible body.  help(mech.mesh)]]
topics["mesh:node_at"] = [[
mesh:node_at{x, y} -> the number of the node at that point (or an error).  help(mech.mesh)]]

topics["sys:point"] = [[
sys:point{ body, name, at = {x, y} | body_at = {x, y} }    body:point{ name, at | body_at }
  A named point of a body ("crank.tip"), to attach joints and forces and record x, y,
  vx, vy, ax, ay.  at is a world point, body_at body coordinates.  In a spatial system
  {x, y, z}, and z, vz, az too.]]
topics["body:point"] = topics["sys:point"]
topics["sys:assemble"] = [[
sys:assemble()
  Checks the model and makes every joint and driver equation hold at t = 0 (Newton, the
  smallest correction), then makes the velocities consistent.  Redundant or conflicting
  joints are reported by name.  sys:simulate does it itself.]]
topics["sys:entity"] = [[
sys:entity(name) -> the entity of that name ("crank", "crank.tip", "pin") or nil.]]
topics["sys:value"] = [[
sys:value("entity.quantity") -> number
  The value of a channel at the assembled initial state (or after a run; inside callbacks:
  at the last full evaluation).]]
topics["sys:describe"] = [[
sys:describe() -> text: the model, one line per entity with its parameters (as in CSV headers).]]

topics["fe:node"] = [[
fe:node(k) -> the body of node k (from 1) of a flexible body, for joints, springs, forces,
contacts.  help(sys.flexible)]]
topics["fe:find_nodes"] = [[
fe:find_nodes{ box = {x0, y0, x1, y1} | group = name | where = function(x, y, node) |
               near = {x, y} } -> node numbers of the flexible body's mesh.  help(sys.flexible)]]
topics["fe:node_mass"] = [[
fe:node_mass(k) -> the lumped mass of node k [kg].  help(sys.flexible)]]
topics["fe:frequencies"] = [[
fe:frequencies{ n = 6, mass = "lumped" | "consistent", fixed = { nodes } } -> rad/s
  The n lowest natural frequencies of the flexible body alone (K x = w^2 M x, LAPACK):
  three zeros for a free body.  help(sys.flexible)]]

topics["run:csv"] = [[
run:csv(path, { columns = { "t", "slider.x", ... }, params = { name = value } })
  Writes the recorded columns (or those listed) as CSV with a header naming the model,
  the version and the parameters; written whole or not at all.]]
topics["run:column"] = [[
run:column(name) -> the column of a recorded channel (run["slider.x"] does the same).
  help(run.t) for columns.]]
topics["run:state"] = [[
run:state(k) -> t, { state values }: the k-th state (k from 1) kept on the grid of
  sys:simulate{ motion = dt } (run.motion of them, every dt seconds from t = 0): positions,
  velocities, then the model's own accounts; the whole state, for drawing the motion.]]
topics["run:scene"] = [[
run:scene(t) -> what the mechanism looks like at time t (from the states kept by
  sys:simulate{ motion = dt }; between two, positions by cubic Hermite on their rates):
  { t, dim, bodies = { { name, pos, angle (planar), R (9, row-major) } },
    items = { { owner, kind, body, role = "outline" | "link" | "joint" | "bearing" | "journal"
                | "guide" | "slider" | "surface", shape = "points" | "segment" | "polygon" |
                "circle" | "cylinder" | "box", points, radius, length, axis, R, half } },
    contacts = { { name, owner, touching, point, normal, fn, ft (vectors, N), fn_mag, ft_mag } },
    meshes = { { name, nodes, displacement, velocity, elements, von_mises (Pa) } } }
  World coordinates, SI.  The run's system must still be there, as it was run.]]
topics["run:animate"] = [[
run:animate{ file = "out/crank.gif" | ".mp4", fps = 25, speed = 1 (0.01: 100 times slower),
    t = { t0, t1 }, frames = "out/crank" (also out/crank_00001.png ...), width = 160 (mm),
    height (mm, default from the mechanism's shape), dpi = 100, view = "xy" | "xz" | "yz" |
    { "xy", "xz" } (spatial runs), magnify = 1 (clearances and penetrations), deform = 1
    (flexible bodies' displacements), trace = "pin" (a body, joint with clearance or contact),
    channel = "slider.x" (a recorded channel as a running curve beside), forces = true,
    force_scale = m/N, xlim, ylim, title }
  -> { file, frames, fps, duration, times, pngs }
  The mechanism drawn frame by frame from the states the run kept (sys:simulate{ motion =
  dt }): a frame every speed / fps seconds of the run, its scene between kept states
  interpolated (run:scene).  Bodies by their outlines or links, joints, bearings and journals,
  guides, meshes, contact forces as arrows with their scale in the legend.]]
topics["animate"] = [[
animate = require "animate": the module behind run:animate (help "run:animate");
  animate.animate(run, { ... }) is run:animate{ ... };
  animate.deformed(mesh, m) -> nodes   a mesh's deformation magnified (help "animate.deformed")]]
topics["animate.animate"] = topics["run:animate"]
topics["animate.deformed"] = [[
animate.deformed(mesh, m) -> nodes: the nodes of a mesh of run:scene with its deformation drawn
  m times: the rigid motion that fits the nodes best (the centroid's move and a rotation about
  it) kept, the rest of each node's displacement times m (run:animate{ deform = m }).]]
topics["run:paraview"] = [[
run:paraview(prefix, opts) -> path of the .pvd, number of frames: the run's motion for
  ParaView, from run:scene at each frame's time (the run kept its states:
  sys:simulate{ ..., motion = dt }).  Writes prefix.pvd (a collection: one time step per
  frame) and the folder prefix/ with, per frame k from 0, ASCII VTK XML files:
    bodies_<k>.vtp    outlines (planar: prisms of the thickness), links and guide surfaces
                      (lines), bearings and journals (rings; bands in the plane), cylinders,
                      boxes, joints' anchors (vertices); cell data entity, body, role (ids;
                      names in the field data entity_names, role_names); the recorded
                      channels at the frame's time as field data (linear between rows)
    meshes_<k>.vtu    flexible bodies: quads, triangles; displacement, velocity (points),
                      von_mises [Pa] (cells)
    contacts_<k>.vtp  contact points: normal, fn, ft, force = fn + ft [N], fn_mag, ft_mag,
                      touching
  opts: fps = frames per second of the run's time (default: every kept state),
    t = { t0, t1 } the window (default: all), every = k (every k-th kept state, not with
    fps), channels = true | false | { names } (default: all recorded), thickness = m (the
    planar outlines' extrusion; default 5 % of the model's size), segments = 32 (a circle's
    sides).  The folder of prefix must exist (mech.mkdir); a previous export there is
    replaced.  Every file names the program's version, the script and the run's parameters.
  Written whole or not at all: under temporary names, renamed at the end.]]
topics["col:min"] = [[
col:min(), col:max(), col:mean() -> number: the smallest, largest, mean value of a column.]]
topics["col:max"] = topics["col:min"]
topics["col:mean"] = topics["col:min"]
topics["col:at"] = [[
col:at(t) -> the column's value at time t, linear interpolation on the run's times.]]
topics["col:table"] = [[
col:table() -> a Lua list of the column's values (a copy).]]

topics["mech.law"] = [[
a contact or friction law: a table { law = name, parameters ... } made by
mech.contact.<law>{...} or mech.friction.<law>{...}.  help(mech.contact),
help(mech.friction).  Pass it as law = or friction = of sys:contact, sys:guide or a
clearance joint.]]

topics["plot.figure"] = [[
plot.figure{ rows, cols, width = mm, height = mm, dpi, font = pt, title } -> fig
plot.figure{ "title", x = run.t, y = run["slider.ax"], xlabel, ylabel }   one panel, one line
  fig:panel(i) or fig:panel(row, col) -> ax;  fig:save("out/fig.png" | ".svg" | ".pdf")
  help(plot) for the axes methods; {man:mechlua-plot.3}]]
topics["fig:panel"] = [[
fig:panel(i) or fig:panel(row, col) -> ax: a panel of the figure (from 1, row by row).]]
topics["fig:save"] = [[
fig:save(path): writes the figure; the format from the extension: .png, .svg or .pdf.]]
topics["fig:render"] = [[
fig:render() -> image: the figure drawn into memory as fig:save draws a PNG (the frames of
  an animation: require "movie").  image.width, image.height (pixels),
  image:pixel(x, y) -> r, g, b (from 1, rows from the top).]]
topics["plot.axes"] = [[
ax (a panel of a figure): ax:line{...}, ax:scatter{...}, ax:step{...}, ax:set{...},
ax:inset{...}.  help(plot)]]
topics["ax:line"] = [[
ax:line{ x = column | list, y = column | list, label, color, width, style }   a line.]]
topics["ax:scatter"] = [[
ax:scatter{ x, y, label, color, marker, size }   points (a Poincare section, say).]]
topics["ax:step"] = [[
ax:step{ x, y, label, color, width, style }   a staircase line.]]
topics["ax:set"] = [[
ax:set{ title, xlabel, ylabel, xlim = {x0, x1}, ylim = {y0, y1}, xlog, ylog, legend, grid }]]
topics["ax:inset"] = [[
ax:inset{ at = {x0, y0, w, h} (fractions of the panel), xlim, ylim } -> ax: a zoomed view.]]

topics["analysis.spectrum"] = [[
analysis.spectrum(run, channel, opts) | (column, opts) | (list, opts)
  -> { freq = {...} Hz, amp = {...}, dt, n, window, detrend, channel }
  opts: dt (required for a list), window = "hann" | "hamming" | "blackman" | "none",
  detrend = "mean" | "linear" | "none", from = s, to = s.  Uses fft.spectrum.]]
topics["analysis.peaks"] = [[
analysis.peaks(spectrum, n = 1, { dc = false, interpolation = "log" | "linear" | "none" })
  -> list of { freq, amp, bin }: the n largest peaks, interpolated by a parabola.]]
topics["analysis.strobe"] = [[
analysis.strobe{ period = T, phase = 0, name = "strobe" }
  An event definition for sys:simulate{ events = {...} }: fires at t = phase + k T, the
  stroboscopic section of a drive of period T.]]
topics["analysis.crossing"] = [[
analysis.crossing{ channel, value = 0, period, direction = 0, name = channel }
  An event definition: the channel crossing value (each value + k period).]]
topics["analysis.poincare"] = [[
analysis.poincare(run, { event = "strobe", x = channel, y = channel, transient = t0, skip = n })
  -> { x = {...}, y = {...}, t = {...} }: the section points of a run (its events).
  plot: ax:scatter{ x = p.x, y = p.y }]]
topics["analysis.bifurcation"] = [[
analysis.bifurcation{ values, run = function(v) return run end, section = { event, x, y,
                      transient, skip }, workers = all cores, folder, progress = false }
  -> { { value = v, x = {...}, y = {...}, t = {...} }, ... }: the section points for each
  parameter value, in the order of the values.  Each value runs in a worker process of its
  own, and the points come back exactly: a study of the sweep module.  folder keeps the
  cases (a second call resumes); default: a temporary folder, removed.  An error names the
  first value that failed: "run(1500) failed: <its message>".  ({man:mechlua-sweep.3})]]
topics["analysis.phase"] = [[
analysis.phase(run, x, y) -> two columns for a phase portrait ("slider.x", "slider.vx").]]
topics["analysis.in_frame"] = [[
analysis.in_frame(run, body, px, py) -> u, v: the point (px, py channels) in the frame of
  body (its x, y, phi recorded): the journal-centre orbit inside a bearing.]]
topics["analysis.compare"] = [[
analysis.compare(run, reference, channel, { from, to })
  -> { t, diff, peak, t_peak, value, ref, ratio, rms, from, to, rows, max = {...} }
  The difference from a reference run (the ideal mechanism), interpolated on the run's times.]]
topics["analysis.energy"] = [[
analysis.energy(run) -> { accounts, residual, scale, relative, <account> = column }
  The energy accounts of a run (record analysis.energy_channels) and how well the
  balance closes.]]
topics["analysis.energy_channels"] = [[
analysis.energy_channels: the channels to record for analysis.energy (system.kinetic,
system.gravity, system.elastic, system.energy, system.work, ..., system.balance).]]

topics["movie"] = [[
movie = require "movie": images of fig:render as the frames of an animation ({man:mechlua-plot.3})
  w = movie.open(path, { fps = 25, loop = true })   .gif (giflib) or .mp4 (through ffmpeg)
  w:add(image) ...; w:close() -> path   the file appears whole at close, or not at all
  movie.gif_info(path) -> { width, height, frames, delays (1/100 s), loop }
  movie.gif_frame(path, k) -> image   frame k as it shows (image:pixel(x, y))
  movie.ffmpeg() -> the ffmpeg MP4 files go through, or nil]]
topics["movie.open"] = [[
movie.open(path, { fps = 25 (frames per second, at most 1000), loop = true (GIF) }) -> writer
  The format from the extension: .gif (256 colours a frame: the 256 most frequent exactly,
  the rest as the nearest; delays in hundredths of a second, rounded so that frame k starts
  at round(100 k / fps)) or .mp4 (H.264 through ffmpeg, its size made even).
  w:add(image) adds a frame (images of fig:render, all of one size); w:close() -> path
  completes the file under its name.  A writer not closed leaves nothing.  w.frames, w.fps]]
topics["movie.gif_info"] = [[
movie.gif_info(path) -> { width, height, frames, delays = { hundredths of a second }, loop }
  What a GIF file holds, read back with giflib.]]
topics["movie.gif_frame"] = [[
movie.gif_frame(path, k) -> image: frame k (from 1) of a GIF as it shows (each frame drawn over
  those before), read back with giflib: image.width, image.height, image:pixel(x, y).]]
topics["movie.ffmpeg"] = [[
movie.ffmpeg() -> path | nil: the ffmpeg on PATH that MP4 files are written through.]]
topics["fft"] = [[
fft = require "fft": the FFTW amplitude spectrum under analysis.spectrum
  fft.spectrum(y, { dt = s, window = "hann", detrend = "mean" }) -> freq, amp
  ({man:mechlua-analysis.3}, MODULE fft)]]
topics["fft.spectrum"] = [[
fft.spectrum(y, { dt = s, window = "hann" | "hamming" | "blackman" | "none",
                  detrend = "mean" | "linear" | "none" }) -> freq, amp
  The single-sided amplitude spectrum of a column or a list sampled every dt: a sine of
  amplitude A at a bin frequency reads A.]]

topics["slidercrank"] = [[
slidercrank = require "slidercrank": closed-form kinematics of the ideal slider-crank
  slidercrank.kinematics{ crank = r, rod = l, offset = e } -> k
  x, v, a = k(theta, omega, alpha): slider position, velocity, acceleration.]]
topics["slidercrank.kinematics"] = topics["slidercrank"]

topics["benchmarks"] = [[
benchmarks = require "benchmarks": the two slider-cranks with clearance of the benchmark set
  benchmarks.a{ clearance, speed, driven, crank, rod, m_crank, m_rod, m_slider, J_crank,
                J_rod, gravity, baumgarte } -> sys     (Flores and Ambrosio 2004 style)
  benchmarks.a_clearance{ radial, radius, K, restitution, mu, v0, v1 } -> clearance field
  benchmarks.b{ law, friction, gap, length, height, omega_crank, omega_rod, ... } -> sys
                                             (Flores, Leine and Glocker 2010)
  {man:mechlua.3}, MODULE benchmarks]]
topics["benchmarks.a"] = topics["benchmarks"]
topics["benchmarks.a_clearance"] = topics["benchmarks"]
topics["benchmarks.b"] = topics["benchmarks"]

topics["spec000"] = [[
spec000 = require "spec000": the two examples of [Zheng & Wang] (a flexible slider in a
guide with clearance), the paper's Tables 1 and 2 as defaults ({man:mechlua-fe.3})
  spec000.oscillator{ fields of spec000.OSCILLATOR } -> sys, slider   (Sec. 4.1)
  spec000.slider_crank{ fields of spec000.SLIDER_CRANK } -> sys, slider, node  (Sec. 4.2)
  spec000.OSCILLATOR, spec000.SLIDER_CRANK   the default parameters]]
topics["spec000.oscillator"] = topics["spec000"]
topics["spec000.slider_crank"] = topics["spec000"]
topics["spec000.OSCILLATOR"] = topics["spec000"]
topics["spec000.SLIDER_CRANK"] = topics["spec000"]

topics["options"] = [[
options = require "options": argument checks for stdlib builders and scenario scripts
  options.read(fname, o, known [, depth]) -> p   fields of o checked against known
                                        (name -> default); depth 1 from a helper
  options.numbers(fname, p, names)      those fields must be finite numbers
  options.fail(level, fname, fmt, ...)  raises "fname: message" at the caller
  options.script_args(arg) -> folder, quick   `mechlua script.lua [folder] [quick]`]]
topics["options.read"] = topics["options"]
topics["options.numbers"] = topics["options"]
topics["options.fail"] = topics["options"]
topics["options.script_args"] = topics["options"]

topics["tap"] = [[
tap = require "tap": Test Anything Protocol for test scripts (prove(1))
  tap.plan(n)  tap.ok(cond, name)  tap.is(got, want, name)  tap.near(got, want, tol, name)
  tap.like(s, pattern, name)  tap.raises(fn, text, name, ...)  tap.diag(msg)
  tap.skip(reason, count)  tap.done()
  tap.script(path, ...) -> ok, printed lines, error   a script run here, its output kept
  tap.slurp(path) -> contents of a file, or nil]]
for _, f in ipairs { "plan", "ok", "is", "near", "like", "raises", "diag", "skip", "done", "script", "slurp" } do
  topics["tap." .. f] = topics["tap"]
end

topics["help"] = [[
help(x): help on x, a value (help(mech.friction.ambrosio), help(sys), help(run.t)) or a
topic name (help("sys:simulate")); help() lists the topics.]]

-- ==] end of the help part's block

-- ---- issue 15, consistent starts (h15-start) ----
topics["start"] = [[
mech.planar{ start = "auto" | "ideal" | "as_given" }   how a model with clearance starts
  "ideal": the assembly holds every joint with clearance as the ideal joint (journal
    centred in its bearing; slider centred in its guide, not tilted) and takes every
    velocity from the ideal mechanism; the joints are released for the run.
  "as_given": the joints with clearance are free in the assembly: their bodies keep the
    relative place and velocity given.
  "auto" (default): "ideal" when no body is given a velocity (velocity and omega absent or
    0) and every joint with clearance is placed centred (within 1/1000 of its clearance);
    else "as_given".  sys:describe() and the CSV header say which ("start: ...").
  A warning names a joint with clearance that starts fast across its clearance (faster
  than V sqrt(2 c / L): V the fastest point, c the clearance, L the model's size).]]
topics["mech.planar"] = topics["mech.planar"] .. [[

  start = "auto" | "ideal" | "as_given": how joints with clearance start.  help("start")]]

-- ---- the constrained solve: dense or sparse ----
topics["solver"] = [[
mech.planar{ solver = "auto" | "dense" | "sparse" }   (also mech.spatial)   ({man:mechlua.3})
  how each evaluation solves the Lagrange equations: the matrix S = G M^-1 G^T, one row
  per equation, is mostly zeros when each body carries a few joints (a chain).
  "dense": Cholesky or LU of the whole matrix, fastest for small mechanisms; its cost
    grows as the cube of the number of equations.
  "sparse": sparse LU (SuiteSparse's KLU) of the entries that can be non-zero; its cost
    grows about linearly along a chain (100 links: some 40 times faster than "dense").
  "auto" (default): "sparse" from 24 equations with at most half of S's entries possibly
    non-zero, else "dense".  Both give the same results up to rounding and the same
    errors; run.stats.solver says which a run used.]]
topics["mech.planar"] = topics["mech.planar"] .. [[

  solver = "auto" | "dense" | "sparse": how the Lagrange equations are solved.  help("solver")]]
topics["mech.spatial"] = topics["mech.spatial"] .. [[

  solver = "auto" | "dense" | "sparse": how the Lagrange equations are solved.  help("solver")]]


-- ---- issue 15, figures and MATLAB files (run:mat, plot aspect, labels, clearance) ----
topics["run:mat"] = [[
run:mat(path, { version = "5" | "7.3", columns = {...}, params = {...} })   ({man:mechlua.3})
  a MATLAB file, written whole or not at all: t and one N x 1 column per channel
  ("slider.x" -> slider_x), and a struct mechlua: version, header, parameters, status,
  message, channels (the original names), variables, units, params, events (t, name).
  "5" (default): MATLAB, Octave, scipy.io.loadmat; "7.3": HDF5 (h5py)]]

topics["plot.clearance"] = [[
plot.clearance{ run, joint = "pin", clearance, frame, unit, from, to, title, ... } -> fig, ax
  the journal centre's path (pin.exb, pin.eyb recorded; frame = "world": ex, ey) inside
  its clearance circle (from run.parameters, or clearance = c in m), at equal scales,
  in mm (unit = "um" or "m"); {man:mechlua-plot.3}]]

topics["ax:circle"] = [[
ax:circle{ radius, center = {x, y}, label, color, width, style }
  a circle as a line series (a clearance circle); with ax:set{ aspect = "equal" }]]

topics["plot._report"] = [[
plot._report(): for the tests, what the last fig:save drew: the page, each axes' viewport
  and window as PLplot reports them, each panel's region, each text's place and font size]]

topics["aspect"] = [[
ax:set{ aspect = "equal" }: one unit along x as long as one along y (orbits, sketches);
  one axis's limits are widened around their middle to fill the plot area.
  Long titles, labels and legend entries shrink (to 70 %), then end in an ellipsis.]]

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
  mech.warnings = false silences them.  {man:mechlua.3}, PLAUSIBILITY WARNINGS]]

-- issue 16, scripts: the type-name helper, statistics, the files of a script, spec004's model
topics["options.typename"] = [[
options.typename(v) -> "mech.run", "plot.figure", ... or type(v): the type of a value for an
  error message (the __name of a userdata's metatable)]]

topics["analysis.stats"] = [[
analysis.stats(values) -> { n, min, max, spread, mean, std, absmax, at }
  Of a list of finite numbers or a column: spread = max - min, std the sample standard
  deviation (n - 1; 0 for one value), absmax the largest |v| and at its index (the first).
  ({man:mechlua-analysis.3})]]
topics["analysis"] = topics["analysis"] .. "\n  analysis.stats(values)                     min, max, spread, mean, std, absmax"

topics["output"] = [[
output = require "output": the files a scenario script writes besides run:csv
  ({man:mechlua.3}, MODULE output)
  output.figure(fig, folder, name, list) -> png, pdf   folder/name.png and .pdf (fig:save),
                                          both paths appended to list when given
  output.csv(path, names, columns, header) -> path     columns (lists of numbers) with their
                                          names and header lines; whole or absent
  output.animation(run, folder, name, o, list) -> path   folder/name.gif: run:animate with the
                                          fields of o, the path appended to list when given]]
topics["output.figure"] = topics["output"]
topics["output.animation"] = topics["output"]
topics["output.csv"] = topics["output"]

topics["paraview"] = [[
paraview = require "paraview": the ParaView files of run:paraview (help "run:paraview");
  paraview.write(run, prefix, opts) is what run:paraview(prefix, opts) calls.]]
topics["paraview.write"] = topics["paraview"]

topics["spec004"] = [[
spec004 = require "spec004": the slider-crank of [Sci. Rep. 2023] with two revolute and one
  translational clearance joint, built from a parameter table ({man:mechlua-contact.3},
  MODULE spec004)
  spec004.model{ fields of spec004.PARAMS, joints = { crank_pin = c, piston_pin = c, guide = c } }
    -> sys   a new system per call, nothing else touched: map it over parameter tables
  spec004.channels(joints), spec004.events(joints)   what a study records, its events
  spec004.journal_stiffness{...}, spec004.corner_stiffness{...}   Hertz K [N/m^1.5]
  spec004.law(K, {...}), spec004.friction{...}   the modified (Hu-Guo) law, normalised LuGre
  spec004.PARAMS   the parameters and their defaults;  spec004.JOURNALS, spec004.JOINTS]]
for _, f in ipairs { "model", "channels", "events", "journal_stiffness", "corner_stiffness", "law",
  "friction" } do
  topics["spec004." .. f] = topics["spec004"]
end

topics["spec001"] = [[
spec001 = require "spec001": the spatial slider-crank of [Spatial revolute paper] with ideal
  joints (revolute "crank_pin0", spherical "crank_rod", universal "rod_slider", prismatic
  "guide"), built from a parameter table ({man:mechlua-spatial.3}, MODULE spec001)
  spec001.model{ fields of spec001.PARAMS, driven = false }   -> sys   free under gravity from
    the paper's start (the crank at 2 pi rad/s about -y), or driven at that speed ("motor")
  spec001.model{ clearance = {} }   "crank_pin0" with the paper's clearance joint (bearing on
    the crank, journal on the ground), the fields of spec001.CLEARANCE replacing defaults
  spec001.slider(t, params) -> y, vy, ay   the driven slider in closed form
  spec001.friction(name, v_reg) -> law   the paper's friction laws: a name of spec001.FRICTION
    ("none" gives nil, "coulomb", "stribeck" with sgn(v) as v/sqrt(v^2 + v_reg^2), v_reg
    default 1e-4 m/s; "dahl", "lugre" bounded)
  spec001.PARAMS, spec001.CLEARANCE   the parameters and their defaults
  scripts/spec001.lua runs the paper's six cases (Fig. 4, claims C001-1..6)]]
for _, f in ipairs { "model", "slider", "friction" } do
  topics["spec001." .. f] = topics["spec001"]
end

topics["spec003"] = [[
spec003 = require "spec003": the crank-slider of [Wang et al. 2025], its slider a box in a
  rectangular channel with clearance ({man:mechlua-spatial.3}, MODULE spec003): revolute
  "crank_pin" driven by "motor", spherical "crank_rod", revolute "rod_pin", channel "guide"
  spec003.model{ rpm = 20, clearance = 0.1e-3, guide = "aluminium", slider = "aluminium",
    stiffness = "area" | "patch" | "constant" | "corners", friction = "ambrosio" | "adams" |
    "none" | law, fields of spec003.PARAMS }   -> sys   (clearance = false: the ideal mechanism)
  spec003.impact{ roll = deg, yaw = deg, speed = 1, stiffness = "area" }   -> sys   a single
    impact on a side wall, the slider's turning held (the paper's Fig. 9)
  spec003.slider(t, { rpm }) -> y, vy, ay   the ideal slider in closed form
  spec003.hull_area(x, y, sx, sy)   the convex hull's area of (x/sx, y/sy): a Poincare map's scatter
  spec003.spread(x, y, sx, sy)   their RMS distance from the mean (0: a periodic motion)
  scripts/spec003.lua runs the paper's studies S1-S3, P1-P3 and F9 (claims C003-0 to C003-11)]]
for _, f in ipairs { "model", "impact", "slider", "hull_area", "spread" } do
  topics["spec003." .. f] = topics["spec003"]
end

topics["mpi"] = [[
mpi = require "mpi": whether this process is a rank of an MPI job, and the MPI module then.
  Requiring it loads nothing of MPI; the sweep module uses it under mpirun or srun.
  mpi.under_mpi() -> true, launcher | false, why   from the launcher's variables only:
    "openmpi" (mpirun), "pmix" (srun --mpi=pmix), "pmi" (srun --mpi=pmi2), or "running"
    once MPI runs here; false in a plain run, in a program a rank started, under srun
    without an MPI plugin
  mpi.available()   true when mechlua was built with Open MPI (lib/mechlua/sweepmpi.so)
  mpi.load() -> m   that module (its functions: stdlib/sweepmpi.c), or an error saying
    MPI support was not built
  m.init() -> rank, size   m.send(dest, tag, s)   m.iprobe() -> source, tag, length | nil
  m.recv(source, tag) -> s, source, tag   m.barrier()   m.abort(code)   m.finalize()]]
for _, f in ipairs { "under_mpi", "available", "load" } do
  topics["mpi." .. f] = topics["mpi"]
end

-- issue 18, parameter studies: the sweep module and its process primitives
topics["sweep"] = [[
sweep = require "sweep": parameter studies, each case in its own worker process
  ({man:mechlua-sweep.3})
  sweep.grid{ name = {values...}, ... }       every combination, the last name fastest
  sweep.list{ {name = value, ...}, ... }       the cases as given
  sweep.random{ n, seed, ranges = { name = {lo, hi} } }   seeded uniform sample
  sweep.lhs{ n, seed, ranges }                 seeded Latin hypercube
  sweep.run{ design, case = function(params, dir) return { name = value, ...,
             files = {...} } end, folder, workers, resume, progress, name, csv,
             timeout, memory, params } -> res   help("sweep.run")
  res[i] a row, res.peak a column (col[i], #col, col:min(), :max(), :mean()),
  res.ok, res.failed, res:csv(path);  sweep.write(path, t), sweep.read(path)
  Under `mpirun -n K mechlua study.lua` (or srun) the cases spread over the ranks;
  sweep.leader() is true on the rank that should write figures.  help("sweep.leader")]]
topics["sweep.leader"] = [[
sweep.leader() -> true in a plain run and on rank 0 of an MPI job, false on the others.
  Under mpirun every rank runs the script and sweep.run returns the same results on
  every rank (rank 0 hands the cases out and alone writes the result files and the CSV);
  put what one copy should do (figures, a summary) under `if sweep.leader() then`.
  The other ranks' standard output goes to /dev/null.  {man:mechlua-sweep.3}, MPI]]
topics["sweep.grid"] = [[
sweep.grid{ name = {values...}, ... } [, order] -> design
  Every combination of the values (numbers, strings, booleans), the last name varying
  fastest; names in byte order unless order = { "first", ..., "last" } lists them.
  #design cases, design[i] = { name = value, ... }, design.names.  {man:mechlua-sweep.3}]]
topics["sweep.list"] = [[
sweep.list{ {name = value, ...}, ... } -> design: the cases as given (a plain list of
  cases is accepted wherever a design is).  {man:mechlua-sweep.3}]]
topics["sweep.random"] = [[
sweep.random{ n, seed = 1, ranges = { name = {lo, hi}, ... } } -> design
  n cases drawn uniformly in the ranges, from splitmix64 in integer arithmetic: the same
  seed gives the same bits on every machine.  {man:mechlua-sweep.3}]]
topics["sweep.lhs"] = [[
sweep.lhs{ n, seed = 1, ranges = { name = {lo, hi}, ... } } -> design
  A Latin hypercube: each range cut into n strata, each stratum of each name used once;
  seeded as sweep.random.  {man:mechlua-sweep.3}]]
topics["sweep.run"] = [[
sweep.run{ design, case = function(params, dir) ... end, folder = "out/<name>",
           workers = ncores, resume = true | "ok" | false, progress, name, csv = path | false,
           timeout = s, memory = bytes, params = {...} } -> res
  Runs each case in its own worker process (a fork) and in its own folder
  folder/cases/<key>; case returns { name = number | string | boolean, ...,
  files = { paths } }.  A case that errors, blows up, exits, runs out of memory or time,
  or dies by a signal is recorded (status error, signal, timeout) and the others go on.
  Finished cases are kept (folder/cases/<key>/result): the same script run again skips
  them.  Ctrl-C ends the workers, keeps the finished cases and raises "interrupted".
  Results: a row per case in case order, written to folder/results.csv.
  Under MPI each rank runs `workers` cases at once (default: its share of its machine's
  CPUs) and every rank gets the whole results.  help("sweep.leader")
  help("sweep.results"); {man:mechlua-sweep.3}]]
topics["sweep.write"] = [[
sweep.write(path, t) -> path: a table of named numbers, strings, booleans and lists of
  them, exactly (sweepcore.encode), whole or absent; sweep.read(path) gives it back.
  For what a case hands back beyond scalars: return { files = { sweep.write(...) } }.]]
topics["sweep.read"] = topics["sweep.write"]
topics["sweep.design"] = [[
a design (sweep.grid, sweep.list, sweep.random, sweep.lhs): #design cases,
  design[i] = { name = value, ... }, design.names, design.kind, design.text]]
topics["sweep.results"] = [[
the results of sweep.run: a row per case in case order
  res[i] = { case, key, dir, <parameters>, <values>, status = "ok" | "error" | "signal" |
             "timeout" | "interrupted" | "pending", message, wall, worker, files, resumed }
  #res, res.names (the columns), res.params, res.values, res.ok, res.failed, res.ran,
  res.resumed, res.folder, res.path (the CSV file), res.name
  res.peak or res:column("peak") -> a column; res:csv(path) writes the CSV again]]
topics["sweep.column"] = [[
a column of sweep results: a list of the rows' values (plot.figure's x and y take it):
  col[i], #col, col.name, col:min(), col:max(), col:mean() (NaN rows left out: the cases
  without the value), col:table()]]
topics["res:column"] = [[
res:column(name) -> the column of a parameter, a value, status, message, wall or worker
  (res[name] does the same unless a field of the results has that name).]]
topics["res:csv"] = [[
res:csv(path) -> path: the results as CSV with the provenance header (version, script,
  study, design, params), a row per case in case order, numbers exactly (%.17g).]]

topics["sweepcore"] = [[
sweepcore = require "sweepcore": the process primitives under sweep
  ({man:mechlua-sweep.3}, MODULE sweepcore)
  sweepcore.ncores([all])                   CPUs this process may use (all: online)
  sweepcore.spawn(fn, i, dir, {memory}) -> h   fork: the child runs fn(i, dir), sends the result
  sweepcore.wait(handles, timeout_ms) -> records, interrupted
  sweepcore.kill(h, signal = "SIGTERM")     sweepcore.hold() (Ctrl-C only in wait)
  sweepcore.interrupted()                   sweepcore.encode(t), sweepcore.decode(s)
  sweepcore.now(), sweepcore.in_worker(), sweepcore.pid(), sweepcore.stdout_null()
  sweepcore._raise(signal) (tests)]]
for _, f in ipairs { "ncores", "spawn", "wait", "kill", "hold", "interrupted", "encode", "decode", "now",
  "in_worker", "_raise", "pid", "stdout_null" } do
  topics["sweepcore." .. f] = topics["sweepcore"]
end
topics["sweepcore.spawn"] = [[
sweepcore.spawn(fn, i, dir [, { memory = bytes }]) -> worker
  Flushes the output buffers and forks; the child runs fn(i, dir) under pcall, sends the
  table it returned (encoded) or its error through a pipe, and leaves with _exit.  The
  child ignores SIGINT, reads /dev/null and dies with the program.  h.pid, h.i, h.running.]]
topics["sweepcore.wait"] = [[
sweepcore.wait(handles, timeout_ms = -1) -> records, interrupted
  Sleeps until a worker of the list ends, Ctrl-C or the timeout; returns the records of
  those that ended: { i, handle, pid, wall, status = "ok" | "error" | "signal" | "invalid",
  values, message, traceback, signal, signo, exit, killed }.]]
topics["sweepcore.encode"] = [[
sweepcore.encode(t) -> string, sweepcore.decode(s) -> t | nil, message
  A flat table (string keys; numbers, strings, booleans, lists of them) as exact,
  locale-free text: integers in decimal, floats as hex floats of their bits.]]
topics["sweepcore.decode"] = topics["sweepcore.encode"]
topics["sweepcore.worker"] = topics["sweepcore.spawn"]

-- ---- finding the topic of a value ------------------------------------------------------
-- Topic names: a module ("mech.contact", "analysis"), a function by its path
-- ("mech.friction.ambrosio", "analysis.poincare"), a method as var:name with the variable
-- the manuals use for the object ("sys:simulate", "body:point", "fe:frequencies",
-- "run:csv", "col:min", "mesh:find_nodes", "fig:save", "ax:line"), an object type by its
-- metatable's name ("mech.run").  Other parts add topics in blocks above this line.

local order = { "mech", "mech.planar", "mech.spatial", "mech.system", "mech.spatial.system",
  "spatial:body", "spatial:revolute", "sys:body", "sys:revolute", "sys:prismatic",
  "clearance", "sys:fixed", "sys:drive", "sys:spring", "sys:rotational_spring", "sys:force", "sys:torque",
  "sys:contact", "sys:simulate", "sys:lyapunov", "sys:flexible", "sys:guide", "mech.contact",
  "mech.friction", "mech.stiffness", "mech.materials", "mech.mesh", "mech.entity", "mech.run",
  "mech.column", "plot", "analysis", "fft", "slidercrank", "benchmarks", "spec000", "spec001", "spec003", "options",
  "sweep", "sweepcore", "tap", "movie" }

-- The variable names of an object type's methods, in the order tried.
local method_vars = {
  ["mech.system"] = { "sys" }, ["mech.entity"] = { "body", "fe" }, ["mech.run"] = { "run" },
  ["mech.column"] = { "col" }, ["mech.mesh"] = { "mesh" }, ["plot.figure"] = { "fig" },
  ["plot.axes"] = { "ax" }, ["mech.law"] = { "law" }, ["sweep.results"] = { "res" },
  ["sweep.column"] = { "col" },
}

-- The metatable fields that hold methods; a system's per dimension (lsystem.c: a spatial
-- system's methods, and the stubs a planar system finds under their names, are spatial:...).
local method_fields = { "__methods", "__complete", "__index", "__planar_methods",
  "__spatial_methods", "__planar_stubs", "__spatial_stubs" }
local dim_vars = { __planar_methods = { "sys" }, __planar_stubs = { "sys" },
  __spatial_methods = { "spatial" }, __spatial_stubs = { "spatial" } }

-- Modules walked for functions: mech and the stdlib (the Lua modules beside this one and
-- the preloaded C modules), when loaded.
local stdlib_dir = type(this_file) == "string" and this_file:match("^(.*)/") or nil
local function is_stdlib(name)
  if name == "mech" or package.preload[name] then return true end
  if stdlib_dir == nil or not name:match("^[%w_]+$") then return false end
  local f = io.open(stdlib_dir .. "/" .. name .. ".lua", "r")
  if f then f:close() end
  return f ~= nil
end

local function sorted_keys(t)
  local keys = {}
  for k in next, t do -- raw: no __pairs of a module replaced by the user
    if type(k) == "string" then keys[#keys + 1] = k end
  end
  table.sort(keys)
  return keys
end

-- value -> name, for every function and table reachable from the loaded modules and
-- every method of the object types; built at each help() call (cheap, and it sees
-- modules loaded since).
local function reverse_map()
  local names, seen = {}, {}
  local function walk(prefix, t, depth)
    if seen[t] or depth > 3 then return end
    seen[t] = true
    for _, k in ipairs(sorted_keys(t)) do
      local v, name = rawget(t, k), prefix .. "." .. k
      if type(v) == "function" and names[v] == nil then
        names[v] = name
      elseif type(v) == "table" then
        if names[v] == nil then names[v] = name end
        walk(name, v, depth + 1)
      end
    end
  end
  for _, mod in ipairs(sorted_keys(package.loaded)) do
    local t = package.loaded[mod]
    if type(t) == "table" and is_stdlib(mod) and mod ~= "mechhelp" then
      names[t] = mod
      walk(mod, t, 1)
    end
  end
  -- object types: the metatables of mech and the stdlib (a type not in method_vars names
  -- its methods after the last part of its name: "mech.fe" -> fe:name)
  local reg = debug.getregistry()
  for _, tname in ipairs(sorted_keys(reg)) do
    local mt, prefix = reg[tname], tname:match("^([%w_]+)%.")
    local vars = method_vars[tname] or { tname:match("([%w_]+)$") }
    if type(mt) == "table" and rawget(mt, "__name") == tname and prefix and is_stdlib(prefix) then
      for _, field in ipairs(method_fields) do
        local methods = rawget(mt, field)
        if type(methods) == "table" then
          for _, k in ipairs(sorted_keys(methods)) do
            local f = rawget(methods, k)
            if type(f) == "function" and names[f] == nil then
              local fvars = dim_vars[field] or vars
              local name = fvars[1] .. ":" .. k
              for _, var in ipairs(fvars) do
                if topics[var .. ":" .. k] then
                  name = var .. ":" .. k
                  break
                end
              end
              names[f] = name
            end
          end
        end
      end
    end
  end
  return names
end

-- The topic name of x: a name given as a string, or the name of a value.
local function topic_of(x)
  if type(x) == "string" then return x end
  if x == nil then return nil end
  local name = reverse_map()[x]
  if name then
    -- a table without its own topic (mech.materials.steel): its module's
    while type(x) == "table" and topics[name] == nil and name:find("%.") do
      name = name:match("^(.*)%.")
    end
    return name
  end
  local mt = getmetatable(x)
  local tname = type(mt) == "table" and rawget(mt, "__name") or nil
  if tname == "mech.entity" and type(x) == "userdata" and tostring(x.kind):find("flexible") then
    return "sys:flexible"
  end
  if tname == "mech.system" and select(2, pcall(function() return x.dim end)) == 3 then
    return "mech.spatial.system"
  end
  if type(tname) == "string" then return tname end
  return nil
end

-- The command that shows a man page: `man -l path` when the page is not installed
-- (a build tree), `man <section> <name>` when it is.
local function man_command(page)
  local name, section = page:match("^(.*)%.(%d)$")
  local reg = debug.getregistry()
  local dir = reg["mechlua.mandir"]
  if not reg["mechlua.man_installed"] and type(dir) == "string" then
    local path = dir .. "/man" .. section .. "/" .. page
    local f = io.open(path, "r")
    if f then
      f:close()
      return "man -l " .. path
    end
  end
  return "man " .. section .. " " .. name
end

local function text_of(x)
  local topic = topic_of(x)
  local text = topic and topics[topic]
  if not text then
    local what = topic or (x ~= nil and type(x)) or nil
    local lines = { what == nil and "help(x) explains x, a value or a topic name; topics:"
      or string.format("no help for %s; topics:", what) }
    local line = " "
    for _, t in ipairs(order) do
      if #line + #t > 86 then
        lines[#lines + 1] = line
        line = " "
      end
      line = line .. " " .. t
    end
    lines[#lines + 1] = line
    lines[#lines + 1] = "and every function and method: help(mech.friction.lugre), help(analysis.poincare),"
    lines[#lines + 1] = "help(\"run:csv\"), help(\"ax:line\") ..."
    lines[#lines + 1] = "The reference is the man page mechlua(3): {man:mechlua.3}"
    lines[#lines + 1] = "(also mechlua(1), mechlua-contact(3), mechlua-fe(3), mechlua-plot(3),"
    lines[#lines + 1] = "mechlua-analysis(3), mechlua-sweep(3), and mechlua-references(7) for the papers cited)."
    text = table.concat(lines, "\n")
  end
  return (text:gsub("{man:([%w%-]+%.%d)}", man_command))
end

-- require "mechhelp" is callable: mechhelp(x) prints the help on x (the global help);
-- mechhelp.topic(x) and mechhelp.text(x) give the topic name and the text.
return setmetatable({ topics = topics, topic = topic_of, text = text_of, man = man_command },
  { __call = function(_, x) print(text_of(x)) end })
