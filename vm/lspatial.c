/* SPDX-License-Identifier: MIT */
/*
** The constructors of a spatial system's entities (mech.spatial, mech_spatial.h): sys:body with
** its orientation given in one of five ways, the seven ideal joints (sys:revolute,
** sys:spherical, sys:universal, sys:cylindrical, sys:prismatic or sys:translational,
** sys:planar, sys:fixed), sys:spring, sys:rotational_spring, and the loads (sys:force,
** sys:torque).  sys:point, body:point and sys:drive are every system's (lsys_build.c), and so
** are the helpers used here for points, anchors, springs' laws, joints' enforcement and the
** plausibility warnings.
**
** Everything a user gives is in world coordinates at the configuration as given (anchors
** `at`, joint axes, a body's initial velocities), or in body coordinates where the field says
** so (a_at, b_at, body_at); libmech takes joint frames and anchors in body coordinates, so
** the world frame W of a joint (z its axis) is turned into each body's: A0^T W, A0 the body's
** orientation as given.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "lcontact.h"
#include "lmech.h"
#include "lspatial.h"
#include "lsys_build.h"
#include "lsystem.h"
#include "lutil.h"

/* The tolerance a rotation matrix given by rows (sys:body's matrix) must be orthonormal to:
** |A^T A - I| <= 1e-6 lets through a matrix written with six or more digits (its quaternion is
** normalised: the orientation is the nearest rotation's to about that). */
#define MATRIX_TOL 1e-6

/* ---- small 3-D helpers (row-major matrices) ------------------------------------------------ */

/* out = A^T v */
static void mat_t_vec(const double A[9], const double v[3], double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = A[i] * v[0] + A[3 + i] * v[1] + A[6 + i] * v[2];
}

/* out = A^T W */
static void mat_t_mul(const double A[9], const double W[9], double out[9])
{
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++)
            out[3 * i + k] = A[i] * W[k] + A[3 + i] * W[3 + k] + A[6 + i] * W[6 + k];
}

/* |v| without overflow or underflow of the squares (libmech's checks use the same), so that an
** axis of 1e-160 or 1e200 gives the frame libmech accepted. */
static double norm3(const double v[3])
{
    return hypot(hypot(v[0], v[1]), v[2]);
}

/* "{x, y, z}" of the n numbers v, into buf. */
static const char *fmt_vec(char *buf, size_t size, const double *v, int n)
{
    size_t len = 0;
    for (int i = 0; i < n && len < size; i++) {
        int w = snprintf(buf + len, size - len, "%s%g", i ? ", " : "{", v[i]);
        if (w > 0) len += (size_t)w;
    }
    if (len < size) snprintf(buf + len, size - len, "}");
    return buf;
}

/* Body b's position and rotation matrix as given (the ground: origin and identity). */
static void initial_pose(const mech_system *sys, int b, double pos[3], double A[9])
{
    double e[4];
    mech_sbody_initial_pose(sys, b, pos, e);
    mech_quat_matrix(e, A);
}

void lspatial_to_body(const mech_system *sys, int b, const double at[3], double out[3])
{
    double pos[3], A[9], d[3];
    initial_pose(sys, b, pos, A);
    for (int k = 0; k < 3; k++) d[k] = at[k] - pos[k];
    mat_t_vec(A, d, out);
}

void lspatial_to_world(const mech_system *sys, int b, const double p[3], double out[3])
{
    double pos[3], A[9];
    initial_pose(sys, b, pos, A);
    for (int i = 0; i < 3; i++)
        out[i] = pos[i] + A[3 * i] * p[0] + A[3 * i + 1] * p[1] + A[3 * i + 2] * p[2];
}

/* The value at idx: a table of exactly n finite numbers into out, or raises "<what> must be
** <shape>". */
static void numbers_at(lua_State *L, int idx, const char *fn, const char *what, const char *shape,
                       double *out, int n)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx) || (int)lua_rawlen(L, idx) != n)
        lu_error(L, fn, "%s must be %s (got %s)", what, shape,
                 lua_istable(L, idx) ? "a table of another length" : luaL_typename(L, idx));
    for (int i = 0; i < n; i++) {
        if (lua_rawgeti(L, idx, i + 1) != LUA_TNUMBER)
            lu_error(L, fn, "%s must be %s (value %d is a %s)", what, shape, i + 1,
                     luaL_typename(L, -1));
        out[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (!isfinite(out[i]))
            lu_error(L, fn, "%s must be finite (value %d is %g)", what, i + 1, out[i]);
    }
}

/* ---- bodies -------------------------------------------------------------------------------- */

/* Fields inertia (required: 3 principal moments or 6 values) and products of table t. */
static void read_inertia(lua_State *L, int t, const char *fn, mech_sbody_def *d)
{
    static const char *const conventions[] = {"integral", "tensor", NULL};
    static const char *const shape =
        "{Ixx, Iyy, Izz} (principal moments) or {Ixx, Iyy, Izz, Ixy, Iyz, Izx} [kg m^2] about "
        "the centre of mass, body axes";
    int type = lu_getfield(L, t, fn, "inertia");
    if (type == LUA_TNIL) lu_error(L, fn, "field 'inertia' is required: %s", shape);
    int n = type == LUA_TTABLE ? (int)lua_rawlen(L, -1) : 0;
    numbers_at(L, -1, fn, "field 'inertia'", shape, d->inertia, n == 6 ? 6 : 3);
    lua_pop(L, 1);
    int products = lu_option(L, t, fn, "products", conventions, -1);
    if (products >= 0 && n != 6)
        lu_error(L, fn,
                 "'products' says how the products of inertia (values 4 to 6 of 'inertia') are "
                 "read: give six values");
    d->products = products == 1 ? MECH_PRODUCTS_TENSOR : MECH_PRODUCTS_INTEGRAL;
}

/* The orientation given as axes = { x = u, y = v, exact = "x" } (two of x, y, z). */
static void orientation_axes(lua_State *L, int t, const char *fn, double e[4])
{
    static const char *const known[] = {"x", "y", "z", "exact", NULL};
    static const char *const names[] = {"x", "y", "z", NULL};
    const char *afn = "sys:body (axes)";
    lu_getfield(L, t, fn, "axes");
    int ax = lu_checktable(L, -1, fn, "for field 'axes'");
    lu_checkfields(L, ax, afn, known, 0);
    double v[3][3];
    int given[2], n = 0;
    for (int i = 0; i < 3; i++)
        if (lu_vec3(L, ax, afn, names[i], v[i]) && n++ < 2) given[n - 1] = i;
    if (n != 2)
        lu_error(L, fn,
                 "field 'axes' must give two of the body's axes x, y, z in world coordinates, "
                 "e.g. axes = { x = {1, 0, 0}, y = {0, 1, 0} } (got %d)",
                 n);
    int exact = lu_option(L, ax, afn, "exact", names, given[0]);
    if (exact != given[0] && exact != given[1])
        lu_error(L, afn, "field 'exact' names the axis kept exactly: \"%s\" or \"%s\" (got \"%s\")",
                 names[given[0]], names[given[1]], names[exact]);
    int other = exact == given[0] ? given[1] : given[0];
    char why[160], b1[80], b2[80];
    if (mech_quat_from_axes(exact, v[exact], other, v[other], e, why, sizeof why))
        lu_error(L, fn, "field 'axes' (%s = %s, %s = %s): %s", names[given[0]],
                 fmt_vec(b1, sizeof b1, v[given[0]], 3), names[given[1]],
                 fmt_vec(b2, sizeof b2, v[given[1]], 3), why);
    lua_pop(L, 1);
}

/*
** The orientation of sys:body's table t into e (the identity when none is given): at most one
** of quaternion, matrix, axis and angle, axes, euler.  *turn gets the largest angle given
** [rad] (0 for none) and *turn_field its field, for the plausibility warning.
*/
static void read_orientation(lua_State *L, int t, const char *fn, double e[4], double *turn,
                             const char **turn_field)
{
    static const char *const forms[] = {"quaternion", "matrix", "axis", "axes", "euler", NULL};
    char why[200], buf[200];
    int form = -1;
    *turn = 0;
    *turn_field = "angle";
    for (int i = 0; forms[i]; i++) {
        int present = lu_getfield(L, t, fn, forms[i]) != LUA_TNIL;
        lua_pop(L, 1);
        if (!present) continue;
        if (form >= 0)
            lu_error(L, fn,
                     "give one orientation: quaternion, matrix, axis and angle, axes or euler "
                     "(got '%s' and '%s')",
                     forms[form], forms[i]);
        form = i;
    }
    int has_angle = lu_getfield(L, t, fn, "angle") != LUA_TNIL;
    lua_pop(L, 1);
    if (has_angle && form != 2)
        lu_error(L, fn, "'angle' goes with 'axis' (a rotation by angle about axis, world)");
    e[0] = 1, e[1] = e[2] = e[3] = 0;
    if (form == 0) { /* quaternion */
        lu_getfield(L, t, fn, "quaternion");
        numbers_at(L, -1, fn, "field 'quaternion'", "{e0, e1, e2, e3} (scalar first)", e, 4);
        lua_pop(L, 1);
        if (!(fabs(e[0]) + fabs(e[1]) + fabs(e[2]) + fabs(e[3]) > 0))
            lu_error(L, fn, "field 'quaternion' = %s: the quaternion is zero",
                     fmt_vec(buf, sizeof buf, e, 4));
    } else if (form == 1) { /* matrix */
        static const char *const shape =
            "{{r11, r12, r13}, {r21, r22, r23}, {r31, r32, r33}} (rows)";
        double A[9];
        lu_getfield(L, t, fn, "matrix");
        int m = lua_gettop(L);
        if (!lua_istable(L, m) || lua_rawlen(L, m) != 3)
            lu_error(L, fn, "field 'matrix' must be %s", shape);
        for (int r = 0; r < 3; r++) {
            lua_rawgeti(L, m, r + 1);
            numbers_at(L, -1, fn, "field 'matrix'", shape, A + 3 * r, 3);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (mech_quat_from_matrix(A, MATRIX_TOL, e, why, sizeof why)) {
            char rows[3][80];
            for (int r = 0; r < 3; r++) fmt_vec(rows[r], sizeof rows[r], A + 3 * r, 3);
            lu_error(L, fn, "field 'matrix' = {%s, %s, %s}: %s", rows[0], rows[1], rows[2], why);
        }
    } else if (form == 2) { /* axis and angle */
        double axis[3], angle = lu_number(L, t, fn, "angle", 0, 0);
        lu_vec3(L, t, fn, "axis", axis);
        if (!has_angle)
            lu_error(L, fn,
                     "'axis' goes with 'angle' [rad] (a rotation by angle about axis, world)");
        if (mech_quat_from_axis_angle(axis, angle, e, why, sizeof why))
            lu_error(L, fn, "fields 'axis' = %s and 'angle' = %g: %s",
                     fmt_vec(buf, sizeof buf, axis, 3), angle, why);
        *turn = angle;
    } else if (form == 3) {
        orientation_axes(L, t, fn, e);
    } else if (form == 4) { /* euler = { "zyx", a, b, c } */
        static const char *const shape =
            "{\"zyx\", a, b, c}: a sequence of three axes (intrinsic rotations) and its three "
            "angles [rad]";
        lu_getfield(L, t, fn, "euler");
        int u = lua_gettop(L);
        if (!lua_istable(L, u) || lua_rawlen(L, u) != 4 || lua_rawgeti(L, u, 1) != LUA_TSTRING)
            lu_error(L, fn, "field 'euler' must be %s", shape);
        const char *seq = lua_tostring(L, -1); /* alive in the table */
        lua_pop(L, 1);
        double ang[3];
        for (int i = 0; i < 3; i++) {
            if (lua_rawgeti(L, u, i + 2) != LUA_TNUMBER)
                lu_error(L, fn, "field 'euler' must be %s", shape);
            ang[i] = lua_tonumber(L, -1);
            lua_pop(L, 1);
            if (!isfinite(ang[i])) lu_error(L, fn, "field 'euler' must be finite");
            if (fabs(ang[i]) > fabs(*turn)) *turn = ang[i];
        }
        if (mech_quat_from_euler(seq, ang, e, why, sizeof why))
            lu_error(L, fn, "field 'euler' = {\"%s\", %g, %g, %g}: %s", seq, ang[0], ang[1], ang[2],
                     why);
        lua_pop(L, 1);
        *turn_field = "euler";
    }
}

/*
** sys:body{ name, mass, inertia, products, at, quaternion | matrix | axis, angle | axes | euler,
**           velocity, omega }
*/
static int sys_body(lua_State *L)
{
    const char *fn = "sys:body";
    static const char *const known[] = {"name",       "mass",     "inertia", "products", "at",
                                        "quaternion", "matrix",   "axis",    "angle",    "axes",
                                        "euler",      "velocity", "omega",   NULL};
    int t;
    lsys *ls = lsys_method_args(
        L, fn, "{ name = ..., mass = ..., inertia = {Ixx, Iyy, Izz}, at = {x, y, z}, ... }", known,
        0, &t);
    mech_sbody_def d = mech_sbody_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.mass = lu_number(L, t, fn, "mass", 0, 1);
    read_inertia(L, t, fn, &d);
    lu_vec3(L, t, fn, "at", d.pos);
    double turn;
    const char *turn_field;
    read_orientation(L, t, fn, d.quat, &turn, &turn_field);
    lu_vec3(L, t, fn, "velocity", d.vel);
    lu_vec3(L, t, fn, "omega", d.omega);
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_BODY, -1);
    mech_error err;
    int id;
    if (mech_sbody_add(LSYS_LIVE(ls), &d, &id, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    e->id = id;
    lsys_scale_body(ls, id, d.pos, d.mass, 0);
    lsys_plaus_angle(L, "body", lsys_plaus_name(ls, MECH_KIND_BODY, id), turn_field, turn);
    lsys_plaus_omega(L, "body", lsys_plaus_name(ls, MECH_KIND_BODY, id), "|omega|", norm3(d.omega));
    return 1;
}

/* ---- joints -------------------------------------------------------------------------------- */

/* A direction field that must not be zero: 1 and out set when present. */
static int direction(lua_State *L, int t, const char *fn, const char *key, double out[3])
{
    if (!lu_vec3(L, t, fn, key, out)) return 0;
    char buf[100];
    if (!(norm3(out) > 0))
        lu_error(L, fn, "field '%s' must not be zero (got %s)", key,
                 fmt_vec(buf, sizeof buf, out, 3));
    return 1;
}

/*
** W, a right-handed frame (its axes the columns) whose axis i is along u and axis j in the plane
** of u and v, on v's side (u and v checked by mech_quat_from_axes: not zero, not parallel).
** Built by Gram-Schmidt rather than from the quaternion, so that a frame along world axes has
** exact zeros (as joints' descriptions show them).
*/
static void frame_from_axes(int i, const double u[3], int j, const double v[3], double W[9])
{
    double a[3], b[3], c[3], nu = norm3(u);
    for (int k = 0; k < 3; k++) a[k] = u[k] / nu;
    double dot = a[0] * v[0] + a[1] * v[1] + a[2] * v[2];
    for (int k = 0; k < 3; k++) b[k] = v[k] - dot * a[k];
    double nb = norm3(b);
    for (int k = 0; k < 3; k++) b[k] /= nb;
    c[0] = a[1] * b[2] - a[2] * b[1]; /* a x b: the third axis when (i, j) is in cyclic order */
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
    int l = 3 - i - j, sign = j == (i + 1) % 3 ? 1 : -1;
    for (int k = 0; k < 3; k++) {
        W[3 * k + i] = a[k];
        W[3 * k + j] = b[k];
        W[3 * k + l] = sign * c[k];
    }
}

/*
** The joint's frame in the world, W (its columns the frame's x, y, z axes), from table t:
** universal: x = axis_a, y = axis_b made normal to it; otherwise z = axis (planar: also
** `normal`) and x = ref made normal to it, or a world axis across z when ref is not given.
** Spherical joints, and fixed ones without an axis: the world axes.
*/
static void joint_frame(lua_State *L, int t, const char *fn, mech_joint_type type, double W[9])
{
    char why[200], b1[100], b2[100];
    double e[4], u[3], v[3];
    const char *names[2] = {"axis_a", "axis_b"};
    int i = 0, j = 1;
    if (type == MECH_UNIVERSAL) {
        int has_u = direction(L, t, fn, "axis_a", u), has_v = direction(L, t, fn, "axis_b", v);
        if (!has_u || !has_v)
            lu_error(L, fn,
                     "give the cross's axes: 'axis_a' (turning with body a) and 'axis_b' (with "
                     "body b), world directions at the start");
    } else if (type != MECH_SPHERICAL) {
        int has_ref = direction(L, t, fn, "ref", v);
        names[0] = NULL;
        names[1] = "ref";
        if (direction(L, t, fn, "axis", u)) names[0] = "axis";
        if (type == MECH_PLANAR && direction(L, t, fn, "normal", u)) {
            if (names[0]) lu_error(L, fn, "give either 'axis' or 'normal' (the same), not both");
            names[0] = "normal";
        }
        if (names[0] == NULL && type != MECH_FIXED)
            lu_error(L, fn, "field '%s' is required: {ax, ay, az}, %s (world)",
                     type == MECH_PLANAR ? "normal" : "axis",
                     type == MECH_PLANAR      ? "the normal of the plane"
                     : type == MECH_PRISMATIC ? "the direction of sliding"
                                              : "the joint's axis");
        if (names[0] == NULL && has_ref) lu_error(L, fn, "'ref' goes with 'axis'");
        if (names[0] && !has_ref) { /* the world axis most across the joint's */
            int k = 0;
            for (int m = 1; m < 3; m++)
                if (fabs(u[m]) < fabs(u[k])) k = m;
            v[0] = v[1] = v[2] = 0;
            v[k] = 1;
        }
        i = 2, j = 0;
    }
    if (type == MECH_SPHERICAL || names[0] == NULL) { /* the world's axes */
        memset(W, 0, 9 * sizeof *W);
        W[0] = W[4] = W[8] = 1;
        return;
    }
    if (mech_quat_from_axes(i, u, j, v, e, why, sizeof why))
        lu_error(L, fn, "fields '%s' = %s and '%s' = %s: %s", names[0],
                 fmt_vec(b1, sizeof b1, u, 3), names[1], fmt_vec(b2, sizeof b2, v, 3), why);
    frame_from_axes(i, u, j, v, W);
}

/*
** Records, in the system's user value table (ground_axes[body]), the world axis of a revolute
** joint between the ground and `body`, for sys:drive's default axis: a table {x, y, z} for
** the first, false once there are several.  Done before the joint is added (it allocates);
** leaves the ground_axes table and the previous value on the stack, for undo_ground_axis.
*/
static void note_ground_axis(lua_State *L, lsys *ls, int body, const double z[3])
{
    lsys_push_uv(L, ls);
    if (lua_getfield(L, -1, "ground_axes") != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, "ground_axes");
    }
    lua_remove(L, -2);
    int had = lua_rawgeti(L, -1, body) != LUA_TNIL; /* the previous value, kept for an undo */
    if (had) {
        lua_pushboolean(L, 0);
    } else {
        lua_createtable(L, 3, 0);
        for (int k = 0; k < 3; k++) {
            lua_pushnumber(L, z[k]);
            lua_rawseti(L, -2, k + 1);
        }
    }
    lua_rawseti(L, -3, body);
}

/* Restores what note_ground_axis changed (its table and the previous value on top): nothing
** allocates, the key is there. */
static void undo_ground_axis(lua_State *L, int body)
{
    lua_rawseti(L, -2, body);
}

void lspatial_drive_axis(lua_State *L, lsys *ls, int t, const char *fn, int body, double axis[3])
{
    if (lu_vec3(L, t, fn, "axis", axis)) return; /* libmech checks it */
    const char *name = mech_system_name(LSYS_LIVE(ls), MECH_KIND_BODY, body);
    char nm[MECH_NAME_MAX];
    snprintf(nm, sizeof nm, "%s", name ? name : "?");
    int top = lua_gettop(L);
    lsys_push_uv(L, ls);
    int type = LUA_TNIL;
    if (lua_getfield(L, -1, "ground_axes") == LUA_TTABLE) type = lua_rawgeti(L, -1, body);
    if (type == LUA_TTABLE) {
        for (int k = 0; k < 3; k++) {
            lua_rawgeti(L, -1, k + 1);
            axis[k] = lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
        lua_settop(L, top);
        return;
    }
    if (type == LUA_TBOOLEAN)
        lu_error(L, fn,
                 "body '%s' has several revolute joints to the ground: give 'axis' = {ax, ay, az}, "
                 "the world axis of the rotation driven",
                 nm);
    lu_error(L, fn,
             "give 'axis' = {ax, ay, az}, the world axis body '%s' turns about (it has no "
             "revolute joint to the ground to take it from)",
             nm);
}

/* Two of a size of the outer part (b: the bearing, the channel), the inner one (j: the journal,
** the slider) and the clearance between them, which makes b - j = mult c: the third from the
** two, or a check that the three agree.  outer and inner name the parts (their tables' names),
** size the size ("radius", "width") and cname the clearance's field ("radial", "x"). */
static void clearance_size(lua_State *L, const char *fn, const char *outer, const char *inner,
                           const char *size, const char *cname, int mult, double *b, double *j,
                           double *c)
{
    int nb = !isnan(*b), nj = !isnan(*j), nc = !isnan(*c);
    if (nb + nj + nc < 2)
        lu_error(L, fn,
                 "give two of the %s's %s (%s = { %s = ... }), the %s's (%s = { %s = ... }) and "
                 "the %s clearance (clearance = { %s = ... })",
                 outer, size, outer, size, inner, inner, size, cname, cname);
    if (nb && nj && !(*j < *b))
        lu_error(L, fn,
                 "the %s's %s %g m is not less than the %s's %g m: the %s must fit in the %s "
                 "(the %s clearance, %sthe %s's %s less the %s's, must be > 0)",
                 inner, size, *j, outer, *b, inner, outer, cname, mult == 1 ? "" : "half ", outer,
                 size, inner);
    if (!nb) *b = *j + mult * *c;
    if (!nj) *j = *b - mult * *c;
    if (!nc) *c = (*b - *j) / mult;
    if (!(fabs(*b - *j - mult * *c) <= 1e-12 * fmax(fabs(*b), fabs(*j))))
        lu_error(L, fn,
                 "the %s's %s %g m, the %s's %g m and the %s clearance %g m do not agree (the "
                 "%s's less the %s's %s the clearance)",
                 outer, size, *b, inner, *j, cname, *c, outer, inner,
                 mult == 1 ? "is" : "is twice");
}

/* Refuses the fields of an ideal joint in the table t of a joint with clearance. */
static void refuse_ideal(lua_State *L, int t, const char *fn, const char *cfn)
{
    static const char *const ideal_only[] = {"method", "k", "c", "baumgarte", NULL};
    for (const char *const *k = ideal_only; *k; k++) {
        if (lu_getfield(L, t, fn, *k) != LUA_TNIL)
            lu_error(L, cfn,
                     "'%s' is for ideal joints: a joint with clearance has no constraint "
                     "equation",
                     *k);
        lua_pop(L, 1);
    }
}

/* Whether any of the fields is in table t. */
static int any_field(lua_State *L, int t, const char *fn, const char *const *fields)
{
    int any = 0;
    for (const char *const *k = fields; *k; k++) {
        any |= lu_getfield(L, t, fn, *k) != LUA_TNIL;
        lua_pop(L, 1);
    }
    return any;
}

/* "sys:revolute (clearance of 'bear')" into cfn. */
static void clearance_fn(char *cfn, size_t size, const char *fn, const char *name)
{
    if (name)
        snprintf(cfn, size, "%s (clearance of '%.*s')", fn, MECH_NAME_MAX, name);
    else
        snprintf(cfn, size, "%s (clearance)", fn);
}

/* The laws of a joint with clearance at t: contact (required) and friction. */
static void read_laws(lua_State *L, lsys *ls, int t, const char *fn, const char *cfn,
                      mech_normal_law *law, mech_friction_law *friction)
{
    if (lu_getfield(L, t, fn, "contact") == LUA_TNIL)
        lu_error(L, cfn,
                 "field 'contact' is required: a contact law, e.g. mech.contact.hertz{ K = ... }");
    lcontact_read(L, -1, cfn, "contact", law, NULL);
    lua_pop(L, 1);
    if (lu_getfield(L, t, fn, "friction") != LUA_TNIL)
        lcontact_read(L, -1, cfn, "friction", NULL, friction);
    lua_pop(L, 1);
    lsys_live(L, ls, fn); /* a law's metamethods are Lua code */
}

/* Fields clearance, bearing, journal, contact and friction of sys:revolute{...} at t into d
** (a joint with clearance); returns 0 when none of them is given (an ideal joint). */
static int read_sclearance(lua_State *L, lsys *ls, int t, const char *fn, mech_sjoint_def *d)
{
    static const char *const fields[] = {"clearance", "bearing",  "journal",
                                         "contact",   "friction", NULL};
    if (!any_field(L, t, fn, fields)) return 0;
    char cfn[MECH_NAME_MAX + 48];
    clearance_fn(cfn, sizeof cfn, fn, d->name);
    refuse_ideal(L, t, fn, cfn);
    double R[3] = {NAN, NAN, NAN}, Ln[3] = {NAN, NAN, NAN}; /* bearing, journal, clearance */
    static const char *const parts[] = {"bearing", "journal", "clearance"};
    static const char *const sizes[] = {"radius", "length", NULL};
    static const char *const gaps[] = {"radial", "axial", NULL};
    for (int p = 0; p < 3; p++) {
        if (lu_getfield(L, t, fn, parts[p]) == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        int x = lua_gettop(L);
        lu_checktable(L, x, cfn,
                      p == 2 ? "clearance = { radial = ..., axial = ... }"
                             : "{ radius = ..., length = ... }");
        lu_checkfields(L, x, cfn, p == 2 ? gaps : sizes, 0);
        const char *const *k = p == 2 ? gaps : sizes;
        lu_optnumber(L, x, cfn, k[0], &R[p]);
        lu_optnumber(L, x, cfn, k[1], &Ln[p]);
        lua_pop(L, 1);
    }
    clearance_size(L, cfn, "bearing", "journal", "radius", "radial", 1, &R[0], &R[1], &R[2]);
    clearance_size(L, cfn, "bearing", "journal", "length", "axial", 2, &Ln[0], &Ln[1], &Ln[2]);
    mech_sclearance_def *cl = &d->clearance;
    d->enforce = MECH_CLEARANCE;
    cl->radius = R[0];
    cl->radial = R[2];
    cl->length = Ln[0];
    cl->axial = Ln[2];
    read_laws(L, ls, t, fn, cfn, &cl->normal_law, &cl->friction);
    return 1;
}

/*
** Fields clearance, slider, channel, contact, friction and stiffness of sys:prismatic{...} at t
** into d (a box slider in a channel); returns 0 when none of them is given (an ideal joint).
** The lateral sizes: any two of the channel's, the slider's and the clearance on each side, for
** the width (x) and the height (z); the slider's length along the travel.  stiffness =
** "corners" (default) takes the law of `contact`; the area models take material(s), damping,
** restitution and v_min instead.
*/
static int read_sbox(lua_State *L, lsys *ls, int t, const char *fn, mech_sjoint_def *d, int *turned,
                     double Wb[9])
{
    static const char *const fields[] = {"clearance", "slider",      "channel",  "contact",
                                         "friction",  "stiffness",   "material", "materials",
                                         "damping",   "restitution", "v_min",    NULL};
    if (!any_field(L, t, fn, fields)) return 0;
    char cfn[MECH_NAME_MAX + 48];
    clearance_fn(cfn, sizeof cfn, fn, d->name);
    refuse_ideal(L, t, fn, cfn);
    /* channel, slider, clearance: [0] the width (x), [1] the height (z); the slider's length */
    double W[3] = {NAN, NAN, NAN}, H[3] = {NAN, NAN, NAN}, length = NAN;
    static const char *const parts[] = {"channel", "slider", "clearance"};
    static const char *const k_channel[] = {"width", "height", NULL};
    static const char *const k_slider[] = {"length", "width", "height", "axis", "ref", NULL};
    static const char *const k_gaps[] = {"x", "z", NULL};
    static const char *const *const keys[] = {k_channel, k_slider, k_gaps};
    static const char *const usage[] = {"{ width = ..., height = ... }",
                                        "{ length = ..., width = ..., height = ... }",
                                        "clearance = { x = ..., z = ... }"};
    for (int p = 0; p < 3; p++) {
        if (lu_getfield(L, t, fn, parts[p]) == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        int x = lua_gettop(L);
        lu_checktable(L, x, cfn, usage[p]);
        lu_checkfields(L, x, cfn, keys[p], 0);
        const char *wk = p == 2 ? "x" : "width", *hk = p == 2 ? "z" : "height";
        lu_optnumber(L, x, cfn, wk, &W[p]);
        lu_optnumber(L, x, cfn, hk, &H[p]);
        if (p == 1) {
            lu_optnumber(L, x, cfn, "length", &length);
            /* the slider turned in its channel at the start: its own long axis and width
            ** direction (world), as a prismatic joint's axis and ref */
            int has = 0;
            for (const char *const *k = (const char *const[]){"axis", "ref", NULL}; *k; k++) {
                has |= lu_getfield(L, x, cfn, *k) != LUA_TNIL;
                lua_pop(L, 1);
            }
            if (has) {
                char sfn[sizeof cfn + 16];
                snprintf(sfn, sizeof sfn, "%s: slider", cfn);
                joint_frame(L, x, sfn, MECH_PRISMATIC, Wb);
                *turned = 1;
            }
        }
        lua_pop(L, 1);
    }
    if (isnan(length))
        lu_error(L, cfn,
                 "the slider's length along the travel is required: slider = { length = ..., "
                 "width = ..., height = ... }");
    clearance_size(L, cfn, "channel", "slider", "width", "x", 2, &W[0], &W[1], &W[2]);
    clearance_size(L, cfn, "channel", "slider", "height", "z", 2, &H[0], &H[1], &H[2]);
    mech_sbox_def *b = &d->box;
    d->enforce = MECH_CLEARANCE;
    b->length = length;
    b->width = W[1];
    b->height = H[1];
    b->cx = W[2];
    b->cz = H[2];
    static const char *const models[] = {"corners", "area", "patch", "constant", NULL};
    b->stiffness =
        (mech_sbox_stiffness)lu_option(L, t, cfn, "stiffness", models, MECH_SBOX_CORNERS);
    if (b->stiffness == MECH_SBOX_CORNERS) {
        static const char *const area_only[] = {"material",    "materials", "damping",
                                                "restitution", "v_min",     NULL};
        for (const char *const *k = area_only; *k; k++) {
            if (lu_getfield(L, t, fn, *k) != LUA_TNIL)
                lu_error(L, cfn,
                         "'%s' is for the area models (stiffness = \"area\", \"patch\" or "
                         "\"constant\"); the corners take the law of 'contact'",
                         *k);
            lua_pop(L, 1);
        }
        read_laws(L, ls, t, fn, cfn, &b->normal_law, &b->friction);
        return 1;
    }
    /* the area models: the materials (the guide's, the slider's), damping, no contact law */
    if (lu_getfield(L, t, fn, "contact") != LUA_TNIL)
        lu_error(L, cfn,
                 "'contact' is for stiffness = \"corners\": the %s model's law is k delta with k "
                 "from the materials ('materials' = {guide, slider}), and 'damping' = true for "
                 "the Lankarani-Nikravesh factor",
                 models[b->stiffness]);
    lua_pop(L, 1);
    lcontact_materials(L, t, cfn, &b->E_guide, &b->nu_guide, &b->E_slider, &b->nu_slider);
    b->damped = lu_bool(L, t, cfn, "damping", 0);
    double e = NAN;
    int has_e = lu_optnumber(L, t, cfn, "restitution", &e);
    if (b->damped && !has_e)
        lu_error(L, cfn, "damping = true needs 'restitution' (the coefficient e, 0 < e <= 1)");
    if (!b->damped && has_e)
        lu_error(L, cfn, "'restitution' goes with damping = true (the law is elastic without it)");
    b->restitution = e;
    lu_optnumber(L, t, cfn, "v_min", &b->v_min);
    if (lu_getfield(L, t, fn, "friction") != LUA_TNIL)
        lcontact_read(L, -1, cfn, "friction", NULL, &b->friction);
    lua_pop(L, 1);
    lsys_live(L, ls, fn); /* a law's metamethods are Lua code */
    return 1;
}

/*
** sys:<joint>{ body_a, body_b, at | a_at, b_at, axis, ref (normal for planar; axis_a, axis_b
** for universal), method, k, c, baumgarte, name }; a revolute joint with clearance takes
** clearance = { radial, axial }, bearing = { radius, length }, journal = { radius, length }
** (two of the three for each size), contact (a law) and friction instead of method, k, c,
** baumgarte; a prismatic joint with clearance (a box slider in a channel) takes clearance =
** { x, z }, slider = { length, width, height }, channel = { width, height } (two of the three
** for each lateral size), contact, friction and stiffness.
*/
static int add_joint(lua_State *L, mech_joint_type type, const char *fn)
{
#define COMMON "name", "at", "a_at", "b_at", "method", "k", "c", "baumgarte"
    static const char *const k_axis[] = {COMMON, "axis", "ref", NULL};
    static const char *const k_revolute[] = {
        COMMON, "axis", "ref", "clearance", "bearing", "journal", "contact", "friction", NULL};
    static const char *const k_prismatic[] = {COMMON,      "axis",     "ref",       "clearance",
                                              "slider",    "channel",  "contact",   "friction",
                                              "stiffness", "material", "materials", "restitution",
                                              "damping",   "v_min",    NULL};
    static const char *const k_planar[] = {COMMON, "axis", "normal", "ref", NULL};
    static const char *const k_spherical[] = {COMMON, NULL};
    static const char *const k_universal[] = {COMMON, "axis_a", "axis_b", NULL};
#undef COMMON
    const char *const *known = type == MECH_SPHERICAL   ? k_spherical
                               : type == MECH_UNIVERSAL ? k_universal
                               : type == MECH_PLANAR    ? k_planar
                               : type == MECH_REVOLUTE  ? k_revolute
                               : type == MECH_PRISMATIC ? k_prismatic
                                                        : k_axis;
    const char *usage =
        type == MECH_SPHERICAL ? "{ body_a, body_b, at = {x, y, z}, ... }"
        : type == MECH_UNIVERSAL
            ? "{ body_a, body_b, at = {x, y, z}, axis_a = {...}, axis_b = {...}, ... }"
            : "{ body_a, body_b, at = {x, y, z}, axis = {ax, ay, az}, ... }";
    int t;
    lsys *ls = lsys_method_args(L, fn, usage, known, 2, &t);
    mech_sjoint_def d = mech_sjoint_default();
    d.type = type;
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body_a = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the first body");
    d.body_b = lsys_table_entity(L, t, 2, ls, MECH_KIND_BODY, fn, "the second body");
    /* a joint that leaves b no point fixed in a: anchored by default at b's centre */
    int centre = type == MECH_PRISMATIC || type == MECH_PLANAR || type == MECH_FIXED;
    int given = 0;
    for (const char *const *k = (const char *const[]){"at", "a_at", "b_at", NULL}; *k; k++) {
        given |= lu_getfield(L, t, fn, *k) != LUA_TNIL;
        lua_pop(L, 1);
    }
    if (centre && !given) {
        double pos[3], A[9];
        initial_pose(LSYS_LIVE(ls), d.body_b, pos, A);
        lspatial_to_body(ls->sys, d.body_a, pos, d.pa);
    } else {
        lsys_anchors(L, ls, t, fn, d.body_a, d.body_b, 0, d.pa, d.pb);
    }
    double W[9], pos[3], A[9];
    joint_frame(L, t, fn, type, W);
    const double z[3] = {W[2], W[5], W[8]};
    initial_pose(LSYS_LIVE(ls), d.body_a, pos, A);
    mat_t_mul(A, W, d.frame_a);
    initial_pose(ls->sys, d.body_b, pos, A);
    mat_t_mul(A, W, d.frame_b);
    int turned = 0;
    double Wb[9];
    int clear = (type == MECH_REVOLUTE && read_sclearance(L, ls, t, fn, &d)) ||
                (type == MECH_PRISMATIC && read_sbox(L, ls, t, fn, &d, &turned, Wb));
    if (turned) mat_t_mul(A, Wb, d.frame_b); /* A: b's orientation at the start */
    if (!clear)
        lsys_enforcement(L, t, fn, mech_sjoint_type_equations(type), &d.enforce, d.k, d.c, &d.alpha,
                         &d.beta);
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_JOINT, -1);
    int joint = lua_gettop(L);
    int turning = type != MECH_REVOLUTE || clear ? 0
                  : d.body_a == MECH_GROUND      ? d.body_b
                  : d.body_b == MECH_GROUND      ? d.body_a
                                                 : 0;
    if (turning) note_ground_axis(L, ls, turning, z);
    mech_error err;
    if (mech_sjoint_add(LSYS_LIVE(ls), &d, &e->id, &err) != MECH_OK) {
        if (turning) undo_ground_axis(L, turning);
        return lu_mech_error(L, fn, &err);
    }
    lsys_scale_anchor(ls, d.body_a, d.pa);
    lsys_scale_anchor(ls, d.body_b, d.pb);
    lua_settop(L, joint);
    return 1;
}

static int sys_revolute(lua_State *L)
{
    return add_joint(L, MECH_REVOLUTE, "sys:revolute");
}

static int sys_spherical(lua_State *L)
{
    return add_joint(L, MECH_SPHERICAL, "sys:spherical");
}

static int sys_universal(lua_State *L)
{
    return add_joint(L, MECH_UNIVERSAL, "sys:universal");
}

static int sys_cylindrical(lua_State *L)
{
    return add_joint(L, MECH_CYLINDRICAL, "sys:cylindrical");
}

static int sys_prismatic(lua_State *L)
{
    return add_joint(L, MECH_PRISMATIC, "sys:prismatic");
}

static int sys_translational(lua_State *L)
{
    return add_joint(L, MECH_PRISMATIC, "sys:translational");
}

static int sys_planar(lua_State *L)
{
    return add_joint(L, MECH_PLANAR, "sys:planar");
}

static int sys_fixed(lua_State *L)
{
    return add_joint(L, MECH_FIXED, "sys:fixed");
}

/* ---- force elements ------------------------------------------------------------------------ */

/* sys:spring{ body_a, body_b, at = {{x1, y1, z1}, {x2, y2, z2}} | a_at, b_at, k, c, length,
** law, name } */
static int sys_spring(lua_State *L)
{
    const char *fn = "sys:spring";
    static const char *const known[] = {"name", "at",     "a_at", "b_at", "k",
                                        "c",    "length", "law",  NULL};
    int t;
    lsys *ls = lsys_method_args(L, fn, "{ body_a, body_b, k = ..., ... }", known, 2, &t);
    mech_sspring_def d = mech_sspring_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body_a = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the first body");
    d.body_b = lsys_table_entity(L, t, 2, ls, MECH_KIND_BODY, fn, "the second body");
    lsys_anchors(L, ls, t, fn, d.body_a, d.body_b, 1, d.pa, d.pb);
    lu_optnumber(L, t, fn, "length", &d.length0);
    lcb *cb = lsys_spring_law(L, ls, t, fn, &d.k, &d.c);
    if (cb) {
        d.law = lsys_law_trampoline;
        d.ud = cb;
    }
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_FORCE, -1);
    mech_error err;
    int id;
    if (mech_sspring_add(LSYS_LIVE(ls), &d, &id, &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    e->id = id;
    if (cb)
        snprintf(cb->what, sizeof cb->what, "spring '%s' law",
                 mech_system_name(ls->sys, MECH_KIND_FORCE, id));
    return 1;
}

/* sys:rotational_spring{ joint, k, c, angle, name }: about a revolute or cylindrical joint's
** axis. */
static int sys_rotational_spring(lua_State *L)
{
    const char *fn = "sys:rotational_spring";
    static const char *const known[] = {"name", "k", "c", "angle", NULL};
    int t;
    lsys *ls = lsys_method_args(L, fn, "{ joint, k = ..., ... }", known, 1, &t);
    mech_srot_spring_def d = mech_srot_spring_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.joint = lsys_table_entity(L, t, 1, ls, MECH_KIND_JOINT, fn, "the joint");
    d.k = lu_number(L, t, fn, "k", 0, 1);
    d.c = lu_number(L, t, fn, "c", 0, 0);
    lu_optnumber(L, t, fn, "angle", &d.angle0);
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_FORCE, -1);
    mech_error err;
    if (mech_srot_spring_add(LSYS_LIVE(ls), &d, &e->id, &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    if (!isnan(d.angle0))
        lsys_plaus_angle(L, "rotational spring", lsys_plaus_name(ls, MECH_KIND_FORCE, e->id),
                         "angle", d.angle0);
    return 1;
}

/*
** sys:force{ body, at | body_at, value, amplitude, omega, phase, frame, fn, name } and
** sys:torque{ body, value, amplitude, omega, phase, frame, fn, name }.
*/
static int add_load(lua_State *L, int torque)
{
    const char *fn = torque ? "sys:torque" : "sys:force";
    static const char *const known_f[] = {"name",  "at",    "body_at", "value", "amplitude",
                                          "omega", "phase", "frame",   "fn",    NULL};
    static const char *const known_t[] = {"name",  "value", "amplitude", "omega",
                                          "phase", "frame", "fn",        NULL};
    static const char *const frames[] = {"global", "body", NULL};
    int t;
    lsys *ls = lsys_method_args(L, fn,
                                torque ? "{ body, value = {tx, ty, tz}, ... }"
                                       : "{ body, value = {fx, fy, fz}, at = {x, y, z}, ... }",
                                torque ? known_t : known_f, 1, &t);
    mech_sload_def d = mech_sload_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the body");
    d.torque = torque;
    if (!torque) lsys_point(L, ls, t, fn, d.body, d.point);
    d.body_frame = lu_option(L, t, fn, "frame", frames, 0);
    lu_vec3(L, t, fn, "value", d.value);
    lu_vec3(L, t, fn, "amplitude", d.amplitude);
    int has_omega = lu_optnumber(L, t, fn, "omega", &d.freq);
    d.phase = lu_number(L, t, fn, "phase", 0, 0);
    lcb *cb = NULL;
    if (lu_function(L, t, fn, "fn")) {
        cb = lsys_new_callback(L, ls, torque ? "torque function" : "force function");
        lsys_callback_state(L, ls, cb);
        d.profile = MECH_CALLBACK;
        d.fn = torque ? lsys_storque_trampoline : lsys_sload_trampoline;
        d.ud = cb;
    } else {
        int has_amp = d.amplitude[0] != 0 || d.amplitude[1] != 0 || d.amplitude[2] != 0;
        if (has_amp && !has_omega)
            lu_error(L, fn, "a harmonic load needs 'omega', its angular frequency [rad/s]");
        d.profile = has_amp ? MECH_HARMONIC : MECH_CONSTANT;
    }
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_FORCE, -1);
    mech_error err;
    int id;
    if (mech_sload_add(LSYS_LIVE(ls), &d, &id, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    e->id = id;
    if (cb)
        snprintf(cb->what, sizeof cb->what, "%s '%s' function", torque ? "torque" : "force",
                 mech_system_name(ls->sys, MECH_KIND_FORCE, id));
    lsys_plaus_angle(L, torque ? "torque" : "force", lsys_plaus_name(ls, MECH_KIND_FORCE, id),
                     "phase", d.phase);
    return 1;
}

static int sys_force(lua_State *L)
{
    return add_load(L, 0);
}

static int sys_torque(lua_State *L)
{
    return add_load(L, 1);
}

void lmech_open_spatial(lua_State *L)
{
    static const luaL_Reg methods[] = {{"body", sys_body},
                                       {"revolute", sys_revolute},
                                       {"spherical", sys_spherical},
                                       {"universal", sys_universal},
                                       {"cylindrical", sys_cylindrical},
                                       {"prismatic", sys_prismatic},
                                       {"translational", sys_translational},
                                       {"planar", sys_planar},
                                       {"fixed", sys_fixed},
                                       {"spring", sys_spring},
                                       {"rotational_spring", sys_rotational_spring},
                                       {"force", sys_force},
                                       {"torque", sys_torque},
                                       {NULL, NULL}};
    lsys_add_methods(L, lua_gettop(L), 3, methods);
}
