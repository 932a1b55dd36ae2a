/* SPDX-License-Identifier: MIT */
/*
** The constructors of a planar system's entities: sys:body, the joints (sys:revolute,
** sys:prismatic or sys:translational, sys:fixed, with clearance), the springs, the loads
** (sys:force, sys:torque) and sys:contact; those of every system: sys:point and body:point,
** sys:drive; the helpers the spatial constructors (lspatial.c) share with them (points and
** anchors given in the world or in body coordinates, a spring's law), and the plausibility
** warnings on the values they are given.  Each adds its entity through lsystem.c's handles:
** the entity is pushed first (id -1) and given its id once libmech added it, so that a call
** that fails adds nothing.
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

void lsys_baumgarte(lua_State *L, int t, const char *fn, double *a, double *b)
{
    double v[2] = {NAN, NAN};
    lu_vec2(L, t, fn, "baumgarte", v);
    *a = v[0];
    *b = v[1];
}

int lsys_vec(lua_State *L, const lsys *ls, int t, const char *fn, const char *key, double *out)
{
    return ls->dim == 3 ? lu_vec3(L, t, fn, key, out) : lu_vec2(L, t, fn, key, out);
}

/* ---- plausibility: values that are legal but probably a slip of unit -------------------
** Warnings, never errors (lu_warn); each names the entity, the value and the likely slip.
** The thresholds are explained in mechlua(3), section PLAUSIBILITY WARNINGS. */

#define PLAUS_TURN    (2 * 3.14159265358979323846) /* an angle given at creation, rad */
#define PLAUS_OMEGA   1000.0 /* rad/s (9549 rpm): a speed in rpm taken as rad/s */
#define PLAUS_SPEED   100.0  /* m/s: a speed in mm/s taken as m/s */
#define PLAUS_MASSES  1e4    /* ratio of the largest to the smallest body mass */
#define PLAUS_OUTLINE 100.0  /* a body's outline against the model's extent */

const char *lsys_plaus_name(lsys *ls, int kind, int id)
{
    const char *name = ls->sys ? mech_system_name(ls->sys, kind, id) : NULL;
    return name ? name : "?";
}

void lsys_plaus_angle(lua_State *L, const char *what, const char *name, const char *field, double v)
{
    if (fabs(v) > PLAUS_TURN)
        lu_warn(L, "%s '%s': %s = %g rad is more than 2 pi: degrees? use mech.deg(%g)", what, name,
                field, v, v);
}

void lsys_plaus_omega(lua_State *L, const char *what, const char *name, const char *field, double v)
{
    if (fabs(v) > PLAUS_OMEGA)
        lu_warn(L, "%s '%s': %s = %g rad/s (%.0f rpm) is above %g rad/s: rpm? use mech.rpm(%g)",
                what, name, field, v, v * 60 / PLAUS_TURN, PLAUS_OMEGA, v);
}

void lsys_plaus_speed(lua_State *L, const char *what, const char *name, const char *field, double v)
{
    if (fabs(v) > PLAUS_SPEED)
        lu_warn(L, "%s '%s': %s = %g m/s is above %g m/s: mm/s? use mech.mm(%g)", what, name, field,
                v, PLAUS_SPEED, v);
}

/* Adds world point p (dim coordinates; z = 0 for a planar one) to the model's extent. */
static void scale_point(lsys_scale *sc, const double *p, int dim)
{
    double w[3] = {p[0], p[1], dim == 3 ? p[2] : 0};
    if (!(isfinite(w[0]) && isfinite(w[1]) && isfinite(w[2]))) return;
    for (int k = 0; k < 3; k++) {
        if (sc->npoints == 0) {
            sc->box[k] = sc->box[3 + k] = w[k];
            continue;
        }
        sc->box[k] = fmin(sc->box[k], w[k]);
        sc->box[3 + k] = fmax(sc->box[3 + k], w[k]);
    }
    sc->npoints++;
}

/* The model's extent: the diagonal of the box of the bodies' centres and the ideal joints'
** anchors (0 when there is no length yet). */
static double scale_extent(const lsys_scale *sc)
{
    const double *b = sc->box;
    return sc->npoints < 2 ? 0
                           : sqrt(pow(b[3] - b[0], 2) + pow(b[4] - b[1], 2) + pow(b[5] - b[2], 2));
}

void lsys_scale_anchor(lsys *ls, int b, const double *pa)
{
    double w[3];
    lsys_to_world(ls->sys, b, pa, w);
    scale_point(&ls->scale, w, ls->dim);
}

void lsys_scale_body(lsys *ls, int id, const double *pos, double mass, double outline)
{
    lsys_scale *sc = &ls->scale;
    scale_point(sc, pos, ls->dim);
    if (mass > 0 && isfinite(mass)) {
        if (sc->mass[0] == 0 || mass < sc->mass[0]) sc->mass[0] = mass, sc->mass_id[0] = id;
        if (mass > sc->mass[1]) sc->mass[1] = mass, sc->mass_id[1] = id;
    }
    if (outline > sc->outline) sc->outline = outline, sc->outline_id = id;
}

/*
** The checks against the whole model, before it is assembled (again after a change: lu_warn
** gives each message once): a bearing radius or a gap larger than the model, an outline
** much larger than the model, masses that differ too much.  Names are read before each
** warning (which may run Lua code).
*/
void lsys_scale_check(lua_State *L, lsys *ls)
{
    lsys_scale *sc = &ls->scale;
    if (ls->sys == NULL) return;
    double ext = scale_extent(sc);
    for (int i = 0; i < sc->nclear && i < LSYS_SCALE_CLEARANCES && ext > 0; i++) {
        if (!(sc->clear[i].size > ext) || ls->sys == NULL) continue;
        lu_warn(L,
                "joint '%s': %s = %g m is larger than the whole model (%g m across its bodies "
                "and joints): millimetres? use mech.mm(%g)",
                lsys_plaus_name(ls, MECH_KIND_JOINT, sc->clear[i].joint), sc->clear[i].what,
                sc->clear[i].size, ext, sc->clear[i].size);
    }
    if (ext > 0 && sc->outline > PLAUS_OUTLINE * ext && ls->sys)
        lu_warn(L,
                "body '%s': its outline is %g m long, more than %g times the whole model (%g m "
                "across its bodies and joints): millimetres? use mech.mm{...}",
                lsys_plaus_name(ls, MECH_KIND_BODY, sc->outline_id), sc->outline, PLAUS_OUTLINE,
                ext);
    if (sc->mass[0] > 0 && sc->mass[1] > PLAUS_MASSES * sc->mass[0] && ls->sys)
        lu_warn(L,
                "body '%s': mass = %g kg is more than %g times the mass of body '%s' (%g kg): "
                "grams and kilograms mixed?",
                lsys_plaus_name(ls, MECH_KIND_BODY, sc->mass_id[1]), sc->mass[1], PLAUS_MASSES,
                lsys_plaus_name(ls, MECH_KIND_BODY, sc->mass_id[0]), sc->mass[0]);
}

static int sys_body(lua_State *L)
{
    const char *fn = "sys:body";
    static const char *const known[] = {"name",     "mass",  "inertia",   "at",      "angle",
                                        "velocity", "omega", "rectangle", "segment", NULL};
    int t;
    lsys *ls = lsys_method_args(L, fn, "{ name = ..., mass = ..., ... }", known, 0, &t);
    mech_body_def d = mech_body_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.mass = lu_number(L, t, fn, "mass", 0, 1);
    d.inertia = lu_number(L, t, fn, "inertia", 0, 0);
    lu_vec2(L, t, fn, "at", d.pos);
    d.angle = lu_number(L, t, fn, "angle", 0, 0);
    lu_vec2(L, t, fn, "velocity", d.vel);
    d.omega = lu_number(L, t, fn, "omega", 0, 0);
    double rect[2], seg[2][2];
    /* outlines are checked before the body is added, so that a call that fails adds nothing */
    int has_rect = lu_vec2(L, t, fn, "rectangle", rect);
    if (has_rect && !(rect[0] > 0 && rect[1] > 0))
        return lu_error(L, fn, "field 'rectangle' must be {width, height}, both > 0 (got {%g, %g})",
                        rect[0], rect[1]);
    int has_seg = lu_points(L, t, fn, "segment", seg, 2, 2);
    if (has_seg && seg[0][0] == seg[1][0] && seg[0][1] == seg[1][1])
        return lu_error(L, fn, "field 'segment' must be two distinct points");
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_BODY, -1);
    mech_error err;
    int id;
    if (mech_body_add(LSYS_LIVE(ls), &d, &id, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    e->id = id;
    if (has_rect && mech_body_set_rectangle(ls->sys, id, rect[0] / 2, rect[1] / 2, &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    if (has_seg && mech_body_set_segment(ls->sys, id, seg[0], seg[1], &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    double outline = has_rect ? fmax(rect[0], rect[1]) : 0;
    if (has_seg) outline = fmax(outline, hypot(seg[1][0] - seg[0][0], seg[1][1] - seg[0][1]));
    lsys_scale_body(ls, id, d.pos, d.mass, outline);
    lsys_plaus_angle(L, "body", lsys_plaus_name(ls, MECH_KIND_BODY, id), "angle", d.angle);
    lsys_plaus_omega(L, "body", lsys_plaus_name(ls, MECH_KIND_BODY, id), "omega", d.omega);
    return 1;
}

void lsys_point(lua_State *L, lsys *ls, int t, const char *fn, int b, double *out)
{
    double at[3];
    int has_at = lsys_vec(L, ls, t, fn, "at", at),
        has_local = lsys_vec(L, ls, t, fn, "body_at", out);
    if (has_at && has_local) lu_error(L, fn, "give either 'at' or 'body_at', not both");
    if (has_at) lsys_to_body(LSYS_LIVE(ls), b, at, out);
    if (!has_at && !has_local)
        for (int k = 0; k < ls->dim; k++) out[k] = 0;
}

void lsys_to_body(const mech_system *sys, int b, const double *at, double *out)
{
    if (mech_system_dim(sys) == 3)
        lspatial_to_body(sys, b, at, out);
    else
        lsys_to_body2(sys, b, at, out);
}

void lsys_to_body2(const mech_system *sys, int b, const double at[2], double out[2])
{
    double pose[3]; /* the body's pose as given (before assembly) */
    mech_body_initial_pose(sys, b, pose);
    double dx = at[0] - pose[0], dy = at[1] - pose[1];
    double c = cos(pose[2]), s = sin(pose[2]);
    out[0] = c * dx + s * dy;
    out[1] = -s * dx + c * dy;
}

void lsys_to_world(const mech_system *sys, int b, const double *p, double *out)
{
    if (mech_system_dim(sys) == 3) {
        lspatial_to_world(sys, b, p, out);
        return;
    }
    double pose[3];
    mech_body_initial_pose(sys, b, pose);
    double c = cos(pose[2]), s = sin(pose[2]);
    out[0] = pose[0] + c * p[0] - s * p[1];
    out[1] = pose[1] + s * p[0] + c * p[1];
}

/* sys:point and body:point: the point of body b, the system at sysidx. */
static int point_common(lua_State *L, lsys *ls, int sysidx, int t, int b, const char *fn)
{
    const char *name = lu_string(L, t, fn, "name", NULL);
    if (name == NULL) return lu_error(L, fn, "field 'name' is required (a string)");
    double s[3];
    lsys_point(L, ls, t, fn, b, s);
    lentity *e = lsys_push_entity(L, sysidx, MECH_KIND_POINT, -1);
    mech_error err;
    mech_system *sys = LSYS_LIVE(ls);
    mech_status st = ls->dim == 3 ? mech_spoint_add(sys, b, name, s, &e->id, &err)
                                  : mech_point_add(sys, b, name, s, &e->id, &err);
    if (st != MECH_OK) return lu_mech_error(L, fn, &err);
    return 1;
}

static int sys_point(lua_State *L)
{
    const char *fn = "sys:point";
    static const char *const known[] = {"name", "at", "body_at", NULL};
    int t;
    lsys *ls = lsys_check(L, 1);
    ls = lsys_method_args(L, fn,
                          ls->dim == 3 ? "{ body, name = ..., at = {x, y, z} }"
                                       : "{ body, name = ..., at = {x, y} }",
                          known, 1, &t);
    int b = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the body");
    return point_common(L, ls, 1, t, b, fn);
}

void lsys_anchors(lua_State *L, lsys *ls, int t, const char *fn, int a, int b, int two_ends,
                  double *pa, double *pb)
{
    const int n = ls->dim;
    const char *xyz = n == 3 ? "{x, y, z}" : "{x, y}";
    int has_a = lsys_vec(L, ls, t, fn, "a_at", pa), has_b = lsys_vec(L, ls, t, fn, "b_at", pb);
    int type = lu_getfield(L, t, fn, "at");
    lua_pop(L, 1);
    if (type == LUA_TNIL) {
        for (int k = 0; k < n; k++) {
            if (!has_a) pa[k] = 0;
            if (!has_b) pb[k] = 0;
        }
        if (!has_a && !has_b && !two_ends)
            lu_error(L, fn,
                     "give the anchor: 'at' = %s (world), or 'a_at' and 'b_at' (body "
                     "coordinates)",
                     xyz);
        return;
    }
    if (has_a || has_b) lu_error(L, fn, "give either 'at' or 'a_at'/'b_at', not both");
    double w[2][3];
    if (two_ends) {
        lu_getfield(L, t, fn, "at");
        if (!lua_istable(L, -1) || lua_rawlen(L, -1) != 2 || lua_rawgeti(L, -1, 1) != LUA_TTABLE)
            lu_error(L, fn, "field 'at' must be %s: the two ends (world)",
                     n == 3 ? "{{x1, y1, z1}, {x2, y2, z2}}" : "{{x1, y1}, {x2, y2}}");
        lua_pop(L, 1);
        for (int i = 0; i < 2; i++) {
            lua_rawgeti(L, -1, i + 1);
            lu_tovec(L, -1, fn, "field 'at'", w[i], n);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    } else {
        lsys_vec(L, ls, t, fn, "at", w[0]);
        memcpy(w[1], w[0], sizeof w[0]);
    }
    lsys_to_body(LSYS_LIVE(ls), a, w[0], pa);
    lsys_to_body(LSYS_LIVE(ls), b, w[1], pb);
}

void lsys_enforcement(lua_State *L, int t, const char *fn, int neq, mech_enforce *enforce,
                      double *k, double *c, double *alpha, double *beta)
{
    static const char *const methods[] = {"lagrange", "penalty", NULL};
    *enforce = (mech_enforce)lu_option(L, t, fn, "method", methods, MECH_LAGRANGE);
    int has_k = lu_numbers(L, t, fn, "k", k, neq);
    lu_numbers(L, t, fn, "c", c, neq);
    if (*enforce == MECH_PENALTY && !has_k)
        lu_error(L, fn, "a penalty joint needs 'k', its stiffness (one number or %d)", neq);
    if (*enforce == MECH_LAGRANGE && has_k)
        lu_error(L, fn, "'k' is for penalty joints: add method = \"penalty\"");
    lsys_baumgarte(L, t, fn, alpha, beta);
}

lcb *lsys_spring_law(lua_State *L, lsys *ls, int t, const char *fn, double *k, double *c)
{
    if (!lu_function(L, t, fn, "law")) {
        *k = lu_number(L, t, fn, "k", 0, 1);
        *c = lu_number(L, t, fn, "c", 0, 0);
        return NULL;
    }
    if (lu_getfield(L, t, fn, "k") != LUA_TNIL || lu_getfield(L, t, fn, "c") != LUA_TNIL)
        lu_error(L, fn, "give either 'k'/'c' or 'law', not both");
    lua_pop(L, 2);
    return lsys_new_callback(L, ls, "spring law");
}

/* Reads the required field `law` (a contact law) and the optional `friction` of table t. */
void lsys_read_laws(lua_State *L, lsys *ls, int t, const char *fn, mech_normal_law *law,
                    mech_friction_law *friction)
{
    if (lu_getfield(L, t, fn, "law") == LUA_TNIL)
        lu_error(L, fn,
                 "field 'law' is required: a contact law, e.g. mech.contact.hertz{ K = ... }");
    lcontact_read(L, -1, fn, "law", law, NULL);
    lua_pop(L, 1);
    if (lu_getfield(L, t, fn, "friction") != LUA_TNIL)
        lcontact_read(L, -1, fn, "friction", NULL, friction);
    lua_pop(L, 1);
    lsys_live(L, ls, fn); /* a law's metamethods are Lua code */
}

/*
** Reads field `clearance` of the joint table t into d (making it a joint with clearance);
** returns 0 when there is none (an ideal joint).
**   revolute:  { radial = c | journal = R_j, radius = R_b, law, friction }
**   prismatic: { gap = c | width = W, length, height | corners = {{x, y}, ...}, law, friction }
*/
static int read_clearance(lua_State *L, lsys *ls, int t, const char *fn, mech_joint_def *d)
{
    static const char *const rknown[] = {"radial", "journal", "radius", "law", "friction", NULL};
    static const char *const pknown[] = {"gap",     "width", "length",   "height",
                                         "corners", "law",   "friction", NULL};
    static const char *const ideal_only[] = {"method", "k", "c", "baumgarte", "angle", NULL};
    if (lu_getfield(L, t, fn, "clearance") == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    int c = lua_gettop(L);
    for (const char *const *k = ideal_only; *k; k++) {
        if (lu_getfield(L, t, fn, *k) != LUA_TNIL)
            lu_error(L, fn,
                     "'%s' is for ideal joints: a joint with clearance has no constraint "
                     "equation",
                     *k);
        lua_pop(L, 1);
    }
    char cfn[MECH_NAME_MAX + 48];
    if (d->name)
        snprintf(cfn, sizeof cfn, "%s (clearance of '%.*s')", fn, MECH_NAME_MAX, d->name);
    else
        snprintf(cfn, sizeof cfn, "%s (clearance)", fn);
    lu_checktable(L, c, cfn,
                  d->type == MECH_REVOLUTE
                      ? "{ radial = ..., radius = ..., law = ... }"
                      : "{ gap = ..., length = ..., height = ..., law = ... }");
    lu_checkfields(L, c, cfn, d->type == MECH_REVOLUTE ? rknown : pknown, 0);
    mech_clearance_def *cl = &d->clearance;
    d->enforce = MECH_CLEARANCE;
    double other;
    const char *size = d->type == MECH_REVOLUTE ? "radial" : "gap";
    const char *alt = d->type == MECH_REVOLUTE ? "journal" : "width";
    int has_size = lu_optnumber(L, c, cfn, size, &cl->gap);
    int has_alt = lu_optnumber(L, c, cfn, alt, &other);
    if (has_size == has_alt)
        lu_error(L, cfn, "give either '%s' (the clearance) or '%s' (%s)", size, alt,
                 d->type == MECH_REVOLUTE ? "the journal's radius" : "the guide's width");
    if (d->type == MECH_REVOLUTE) {
        cl->radius = lu_number(L, c, cfn, "radius", 0, 1);
        if (has_alt) cl->gap = cl->radius - other;
    } else {
        cl->ncorners = lu_points(L, c, cfn, "corners", cl->corners, 1, MECH_CLEARANCE_CORNERS);
        double len, height;
        int has_len = lu_optnumber(L, c, cfn, "length", &len);
        int has_height = lu_optnumber(L, c, cfn, "height", &height);
        if (cl->ncorners && (has_len || has_height))
            lu_error(L, cfn, "give either 'length' and 'height' or 'corners', not both");
        if (!cl->ncorners) {
            if (!has_len || !has_height || !(len > 0) || !(height > 0))
                lu_error(L, cfn,
                         "the slider's outline: 'length' and 'height' > 0 (a rectangle centred "
                         "on its centre of mass) or 'corners' = {{x, y}, ...}");
            /* counter-clockwise from the lower left corner, in the slider's frame */
            const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
            cl->ncorners = 4;
            for (int k = 0; k < 4; k++) {
                cl->corners[k][0] = sx[k] * len / 2;
                cl->corners[k][1] = sy[k] * height / 2;
            }
        }
        if (has_alt) { /* the guide's width: what the slider's height leaves, on each side */
            double ymin = INFINITY, ymax = -INFINITY;
            for (int k = 0; k < cl->ncorners; k++) {
                ymin = fmin(ymin, cl->corners[k][1]);
                ymax = fmax(ymax, cl->corners[k][1]);
            }
            if (!(other > ymax - ymin))
                lu_error(L, cfn, "the slider (%g m high) does not fit in the guide (width %g m)",
                         ymax - ymin, other);
            cl->gap = (other - (ymax - ymin)) / 2;
        }
    }
    lsys_read_laws(L, ls, c, cfn, &cl->normal_law, &cl->friction);
    lua_settop(L, c - 1);
    return 1;
}

/* A joint just added: its anchors, its clearance (checked against the model at assembly,
** and against itself now) and the angle of an ideal one. */
static void scale_joint(lua_State *L, lsys *ls, int id, const mech_joint_def *d)
{
    lsys_scale *sc = &ls->scale;
    if (d->enforce != MECH_CLEARANCE) { /* a clearance joint's anchors are its bearing's
                                        ** centre and its journal's, its own size */
        lsys_scale_anchor(ls, d->body_a, d->pa);
        lsys_scale_anchor(ls, d->body_b, d->pb);
        lsys_plaus_angle(L, "joint", lsys_plaus_name(ls, MECH_KIND_JOINT, id), "angle", d->angle0);
        return;
    }
    const mech_clearance_def *cl = &d->clearance;
    int revolute = d->type == MECH_REVOLUTE;
    if (sc->nclear < LSYS_SCALE_CLEARANCES) {
        sc->clear[sc->nclear].joint = id;
        sc->clear[sc->nclear].size = revolute ? cl->radius : cl->gap;
        sc->clear[sc->nclear].what = revolute ? "bearing radius" : "gap";
    }
    sc->nclear++;
    if (revolute) {
        if (cl->gap > cl->radius / 2)
            lu_warn(L,
                    "joint '%s': radial clearance = %g m is more than half the bearing radius "
                    "(%g m), which leaves a journal of %g m: journal's radius and clearance "
                    "mixed up? (clearance = { journal = %g, radius = %g } gives the journal)",
                    lsys_plaus_name(ls, MECH_KIND_JOINT, id), cl->gap, cl->radius,
                    cl->radius - cl->gap, cl->gap, cl->radius);
        return;
    }
    double ymin = INFINITY, ymax = -INFINITY;
    for (int k = 0; k < cl->ncorners; k++) {
        ymin = fmin(ymin, cl->corners[k][1]);
        ymax = fmax(ymax, cl->corners[k][1]);
    }
    if (cl->ncorners && cl->gap > ymax - ymin)
        lu_warn(L,
                "joint '%s': gap = %g m is more than the slider's height (%g m): the guide's "
                "width? (clearance = { width = %g, ... } gives the gap)",
                lsys_plaus_name(ls, MECH_KIND_JOINT, id), cl->gap, ymax - ymin, cl->gap);
}

static int add_joint(lua_State *L, mech_joint_type type, const char *fn)
{
    static const char *const known[] = {"name",   "at", "a_at", "b_at",      "axis", "angle",
                                        "method", "k",  "c",    "baumgarte", NULL};
    static const char *const known_clearance[] = {"name", "at",        "a_at",      "b_at",
                                                  "axis", "angle",     "method",    "k",
                                                  "c",    "baumgarte", "clearance", NULL};
    int t;
    lsys *ls = lsys_method_args(L, fn, "{ body_a, body_b, at = {x, y}, ... }",
                                type == MECH_FIXED ? known : known_clearance, 2, &t);
    mech_joint_def d = mech_joint_default();
    d.type = type;
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body_a = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the first body");
    d.body_b = lsys_table_entity(L, t, 2, ls, MECH_KIND_BODY, fn, "the second body");
    if (type == MECH_PRISMATIC) {
        /* default anchor: body b's centre */
        int has =
            lu_getfield(L, t, fn, "at") != LUA_TNIL || lu_getfield(L, t, fn, "a_at") != LUA_TNIL;
        lua_settop(L, t);
        if (!has) {
            double pose[3];
            mech_body_initial_pose(LSYS_LIVE(ls), d.body_b, pose);
            double at[2] = {pose[0], pose[1]};
            lsys_to_body2(LSYS_LIVE(ls), d.body_a, at, d.pa);
            d.pb[0] = d.pb[1] = 0;
        } else {
            lsys_anchors(L, ls, t, fn, d.body_a, d.body_b, 0, d.pa, d.pb);
        }
        if (!lu_vec2(L, t, fn, "axis", d.axis)) d.axis[0] = 1, d.axis[1] = 0;
        /* the axis is given in the world frame at the start: turn it into body a's frame */
        double pose[3];
        mech_body_initial_pose(LSYS_LIVE(ls), d.body_a, pose);
        double c = cos(pose[2]), s = sin(pose[2]), ax = d.axis[0], ay = d.axis[1];
        d.axis[0] = c * ax + s * ay;
        d.axis[1] = -s * ax + c * ay;
    } else {
        lsys_anchors(L, ls, t, fn, d.body_a, d.body_b, 0, d.pa, d.pb);
    }
    if (!read_clearance(L, ls, t, fn, &d)) {
        double angle;
        if (lu_optnumber(L, t, fn, "angle", &angle)) d.angle0 = angle;
        lsys_enforcement(L, t, fn, mech_joint_type_equations(type), &d.enforce, d.k, d.c, &d.alpha,
                         &d.beta);
    }
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_JOINT, -1);
    mech_error err;
    if (mech_joint_add(LSYS_LIVE(ls), &d, &e->id, &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    scale_joint(L, ls, e->id, &d);
    return 1;
}

static int sys_revolute(lua_State *L)
{
    return add_joint(L, MECH_REVOLUTE, "sys:revolute");
}

static int sys_prismatic(lua_State *L)
{
    return add_joint(L, MECH_PRISMATIC, "sys:prismatic");
}

/* The name mechanical engineering also uses for a prismatic joint. */
static int sys_translational(lua_State *L)
{
    return add_joint(L, MECH_PRISMATIC, "sys:translational");
}

static int sys_fixed(lua_State *L)
{
    return add_joint(L, MECH_FIXED, "sys:fixed");
}

/*
** sys:drive{ body | joint, speed | motion, start, baumgarte, name } of every system; a spatial
** one also takes axis (a body's: the world axis of its rotation) and what ("angle" or
** "distance": which coordinate of a cylindrical joint).
*/
static int sys_drive(lua_State *L)
{
    const char *fn = "sys:drive";
    static const char *const known2[] = {"name", "speed", "start", "motion", "baumgarte", NULL};
    static const char *const known3[] = {"name",      "speed", "start", "motion",
                                         "baumgarte", "axis",  "what",  NULL};
    static const char *const whats[] = {"angle", "distance", NULL};
    int t;
    lsys *ls = lsys_check(L, 1);
    int spatial = ls->dim == 3;
    ls =
        lsys_method_args(L, fn, "{ body or joint, speed = ... }", spatial ? known3 : known2, 1, &t);
    mech_driver_def d = mech_driver_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    lua_rawgeti(L, t, 1);
    lentity *e = luaL_testudata(L, -1, LMECH_ENTITY);
    lua_pop(L, 1);
    if (e == NULL || (e->kind != MECH_KIND_BODY && e->kind != MECH_KIND_JOINT))
        return lu_error(L, fn, "value #1 must be the body or joint to drive");
    int kind = e->kind;
    d.target = lsys_table_entity(L, t, 1, ls, kind, fn, "the driven body or joint");
    int what = spatial ? lu_option(L, t, fn, "what", whats, -1) : -1;
    if (kind == MECH_KIND_BODY) {
        d.type = MECH_DRIVE_BODY_ANGLE;
        if (what == 1)
            return lu_error(L, fn, "a body's driver drives its angle (what = \"angle\")");
        if (spatial) lspatial_drive_axis(L, ls, t, fn, d.target, d.axis);
    } else {
        mech_joint_type jt = mech_joint_type_of(LSYS_LIVE(ls), d.target);
        const char *jname = mech_system_name(ls->sys, MECH_KIND_JOINT, d.target);
        int has_axis = spatial && lu_getfield(L, t, fn, "axis") != LUA_TNIL;
        lua_settop(L, t);
        if (has_axis)
            return lu_error(L, fn, "'axis' is for a body's driver: a joint's is the joint's axis");
        if (jt == MECH_FIXED) return lu_error(L, fn, "a fixed joint cannot be driven");
        if (!spatial) {
            d.type = jt == MECH_REVOLUTE ? MECH_DRIVE_JOINT_ANGLE : MECH_DRIVE_JOINT_DISTANCE;
        } else if (jt == MECH_CYLINDRICAL) {
            if (what < 0)
                return lu_error(L, fn,
                                "joint '%s' is cylindrical: say which of its coordinates is "
                                "driven, what = \"angle\" or \"distance\"",
                                jname);
            d.type = what == 0 ? MECH_DRIVE_JOINT_ANGLE : MECH_DRIVE_JOINT_DISTANCE;
        } else if (jt == MECH_REVOLUTE || jt == MECH_PRISMATIC) {
            d.type = jt == MECH_REVOLUTE ? MECH_DRIVE_JOINT_ANGLE : MECH_DRIVE_JOINT_DISTANCE;
            if (what >= 0 && what != (jt == MECH_PRISMATIC))
                return lu_error(L, fn, "joint '%s' is %s: its driver drives its %s", jname,
                                mech_joint_type_name(jt),
                                jt == MECH_REVOLUTE ? "angle" : "distance");
        } else {
            return lu_error(L, fn,
                            "joint '%s' is %s: only a revolute, prismatic or cylindrical joint "
                            "can be driven",
                            jname, mech_joint_type_name(jt));
        }
    }
    double start;
    if (lu_optnumber(L, t, fn, "start", &start)) d.value0 = start;
    int has_speed = lu_optnumber(L, t, fn, "speed", &d.speed);
    lsys_baumgarte(L, t, fn, &d.alpha, &d.beta);
    if (lu_function(L, t, fn, "motion")) {
        if (has_speed) lu_error(L, fn, "give either 'speed' or 'motion', not both");
        char what_fn[96];
        snprintf(what_fn, sizeof what_fn, "driver '%s' motion function", d.name ? d.name : "?");
        lcb *cb = lsys_new_callback(L, ls, what_fn);
        d.fn = lsys_motion_trampoline;
        d.ud = cb;
    } else if (!has_speed) {
        return lu_error(L, fn, "give 'speed' (constant) or 'motion' (a function of time)");
    }
    lentity *driver = lsys_push_entity(L, 1, MECH_KIND_DRIVER, -1);
    mech_error err;
    int id;
    ls->L = L;
    if (mech_driver_add(LSYS_LIVE(ls), &d, &id, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    driver->id = id;
    if (d.fn) { /* name the callback now that the driver has its final name */
        lcb *cb = d.ud;
        snprintf(cb->what, sizeof cb->what, "driver '%s' motion function",
                 mech_system_name(ls->sys, MECH_KIND_DRIVER, id));
    }
    if (d.type == MECH_DRIVE_JOINT_DISTANCE) {
        if (has_speed)
            lsys_plaus_speed(L, "driver", lsys_plaus_name(ls, MECH_KIND_DRIVER, id), "speed",
                             d.speed);
    } else {
        lsys_plaus_angle(L, "driver", lsys_plaus_name(ls, MECH_KIND_DRIVER, id), "start", d.value0);
        if (has_speed)
            lsys_plaus_omega(L, "driver", lsys_plaus_name(ls, MECH_KIND_DRIVER, id), "speed",
                             d.speed);
    }
    return 1;
}

static int sys_spring(lua_State *L)
{
    const char *fn = "sys:spring";
    static const char *const known[] = {"name", "at",     "a_at", "b_at", "k",
                                        "c",    "length", "law",  "axis", NULL};
    int t;
    lsys *ls = lsys_method_args(L, fn, "{ body_a, body_b, k = ..., ... }", known, 2, &t);
    mech_spring_def d = mech_spring_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body_a = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the first body");
    d.body_b = lsys_table_entity(L, t, 2, ls, MECH_KIND_BODY, fn, "the second body");
    lsys_anchors(L, ls, t, fn, d.body_a, d.body_b, 1, d.pa, d.pb);
    lu_optnumber(L, t, fn, "length", &d.length0);
    lu_vec2(L, t, fn, "axis", d.axis);
    lcb *cb = lsys_spring_law(L, ls, t, fn, &d.k, &d.c);
    if (cb) {
        d.law = lsys_law_trampoline;
        d.ud = cb;
    }
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_FORCE, -1);
    mech_error err;
    int id;
    if (mech_spring_add(LSYS_LIVE(ls), &d, &id, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    e->id = id;
    if (cb)
        snprintf(cb->what, sizeof cb->what, "spring '%s' law",
                 mech_system_name(ls->sys, MECH_KIND_FORCE, id));
    return 1;
}

static int sys_rotational_spring(lua_State *L)
{
    const char *fn = "sys:rotational_spring";
    static const char *const known[] = {"name", "k", "c", "angle", NULL};
    int t;
    lsys *ls = lsys_method_args(L, fn, "{ body_a, body_b, k = ..., ... }", known, 2, &t);
    mech_rot_spring_def d = mech_rot_spring_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body_a = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the first body");
    d.body_b = lsys_table_entity(L, t, 2, ls, MECH_KIND_BODY, fn, "the second body");
    d.k = lu_number(L, t, fn, "k", 0, 1);
    d.c = lu_number(L, t, fn, "c", 0, 0);
    lu_optnumber(L, t, fn, "angle", &d.angle0);
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_FORCE, -1);
    mech_error err;
    if (mech_rot_spring_add(LSYS_LIVE(ls), &d, &e->id, &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    lsys_plaus_angle(L, "rotational spring", lsys_plaus_name(ls, MECH_KIND_FORCE, e->id), "angle",
                     d.angle0);
    return 1;
}

static int add_load(lua_State *L, int torque)
{
    const char *fn = torque ? "sys:torque" : "sys:force";
    static const char *const known_f[] = {"name",  "at",    "body_at", "value", "amplitude",
                                          "omega", "phase", "frame",   "fn",    NULL};
    static const char *const known_t[] = {"name",  "value", "amplitude", "omega",
                                          "phase", "fn",    NULL};
    static const char *const frames[] = {"global", "body", NULL};
    int t;
    lsys *ls =
        lsys_method_args(L, fn, "{ body, value = ..., ... }", torque ? known_t : known_f, 1, &t);
    mech_load_def d = mech_load_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the body");
    d.torque = torque;
    if (!torque) {
        lsys_point(L, ls, t, fn, d.body, d.point);
        d.body_frame = lu_option(L, t, fn, "frame", frames, 0);
        lu_vec2(L, t, fn, "value", d.value);
        lu_vec2(L, t, fn, "amplitude", d.amplitude);
    } else {
        d.value[0] = lu_number(L, t, fn, "value", 0, 0);
        d.amplitude[0] = lu_number(L, t, fn, "amplitude", 0, 0);
    }
    int has_omega = lu_optnumber(L, t, fn, "omega", &d.freq);
    d.phase = lu_number(L, t, fn, "phase", 0, 0);
    lcb *cb = NULL;
    if (lu_function(L, t, fn, "fn")) {
        cb = lsys_new_callback(L, ls, torque ? "torque function" : "force function");
        d.profile = MECH_CALLBACK;
        d.fn = torque ? lsys_torque_trampoline : lsys_load_trampoline;
        d.ud = cb;
    } else {
        int has_amp = d.amplitude[0] != 0 || d.amplitude[1] != 0;
        if (has_amp && !has_omega)
            lu_error(L, fn, "a harmonic load needs 'omega', its angular frequency [rad/s]");
        d.profile = has_amp ? MECH_HARMONIC : MECH_CONSTANT;
    }
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_FORCE, -1);
    mech_error err;
    int id;
    if (mech_load_add(LSYS_LIVE(ls), &d, &id, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
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

/*
** sys:contact{ body, at | body_at, surface = { body, at | body_at, normal, speed },
**              law = mech.contact.<law>{...}, friction = mech.friction.<law>{...}, name }
*/
static int sys_contact(lua_State *L)
{
    const char *fn = "sys:contact";
    static const char *const known[] = {"name", "at",       "body_at", "surface",
                                        "law",  "friction", NULL};
    static const char *const sknown[] = {"body", "at", "body_at", "normal", "speed", NULL};
    int t;
    lsys *ls =
        lsys_method_args(L, fn, "{ body, at = {x, y}, surface = {...}, law = ... }", known, 1, &t);
    mech_contact_def d = mech_contact_default();
    d.name = lu_string(L, t, fn, "name", NULL);
    d.body_a = lsys_table_entity(L, t, 1, ls, MECH_KIND_BODY, fn, "the body");
    lsys_point(L, ls, t, fn, d.body_a, d.point);
    if (lu_getfield(L, t, fn, "surface") != LUA_TTABLE)
        return lu_error(L, fn,
                        "field 'surface' is required: { body = ..., at = {x, y}, normal = "
                        "{nx, ny}, speed = ... }");
    int s = lua_gettop(L);
    const char *sfn = "sys:contact (surface)";
    lu_checkfields(L, s, sfn, sknown, 0);
    d.body_b = MECH_GROUND;
    if (lu_getfield(L, s, fn, "body") != LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
        lu_getfield(L, s, fn, "body");
        lua_rawseti(L, -2, 1);
        d.body_b =
            lsys_table_entity(L, lua_gettop(L), 1, ls, MECH_KIND_BODY, sfn, "the surface's body");
    }
    lua_settop(L, s);
    lsys_point(L, ls, s, sfn, d.body_b, d.surface_point);
    double n[2] = {0, 1};
    lu_vec2(L, s, sfn, "normal", n);
    double pose[3];
    mech_body_initial_pose(LSYS_LIVE(ls), d.body_b, pose); /* the normal is given in the world */
    double c = cos(pose[2]), sn = sin(pose[2]);
    d.normal[0] = c * n[0] + sn * n[1];
    d.normal[1] = -sn * n[0] + c * n[1];
    d.surface_speed = lu_number(L, s, sfn, "speed", 0, 0);
    lua_settop(L, t);
    lsys_read_laws(L, ls, t, fn, &d.normal_law, &d.friction);
    lentity *e = lsys_push_entity(L, 1, MECH_KIND_CONTACT, -1);
    mech_error err;
    if (mech_contact_add(LSYS_LIVE(ls), &d, &e->id, &err) != MECH_OK)
        return lu_mech_error(L, fn, &err);
    return 1;
}

static int ent_point(lua_State *L)
{
    const char *fn = "body:point";
    static const char *const known[] = {"name", "at", "body_at", NULL};
    lsys *ls;
    lentity *e = lsys_check_entity(L, 1, &ls);
    if (e->kind != MECH_KIND_BODY) return lu_error(L, fn, "only bodies have points");
    if (ls->busy) return lu_error(L, fn, "the system cannot change while it is %s", ls->busy);
    int t = lu_checktable(
        L, 2, fn, ls->dim == 3 ? "{ name = ..., at = {x, y, z} }" : "{ name = ..., at = {x, y} }");
    lu_checkfields(L, t, fn, known, 0);
    lua_getiuservalue(L, 1, 1);
    int sysidx = lua_gettop(L);
    return point_common(L, ls, sysidx, t, e->id, fn);
}

void lmech_open_sys_build(lua_State *L)
{
    static const luaL_Reg planar_methods[] = {{"body", sys_body},
                                              {"revolute", sys_revolute},
                                              {"prismatic", sys_prismatic},
                                              {"translational", sys_translational},
                                              {"fixed", sys_fixed},
                                              {"spring", sys_spring},
                                              {"rotational_spring", sys_rotational_spring},
                                              {"force", sys_force},
                                              {"torque", sys_torque},
                                              {"contact", sys_contact},
                                              {NULL, NULL}};
    static const luaL_Reg sys_methods[] = {
        {"point", sys_point}, {"drive", sys_drive}, {NULL, NULL}};
    /* bodies take points: the ground and the nodes of flexible bodies (which are bodies) too */
    static const luaL_Reg body_methods[] = {{"point", ent_point}, {NULL, NULL}};
    static const lsys_kind_binding body_kind = {MECH_KIND_BODY, body_methods, NULL, NULL};
    lsys_add_methods(L, lua_gettop(L), 0, sys_methods);
    lsys_add_methods(L, lua_gettop(L), 2, planar_methods);
    lsys_add_kind(L, &body_kind);
}
