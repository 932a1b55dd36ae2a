/* SPDX-License-Identifier: MIT */
/* The constructors of a system's entities (lsys_build.c): what the other binding files use of
** them, the spatial constructors (lspatial.c) first.  Internal to vm/. */
#ifndef MECHLUA_LSYS_BUILD_H
#define MECHLUA_LSYS_BUILD_H

#include <lua.h>

#include "lsystem.h"
#include "mech.h"

/* ---- points, anchors and vectors, in the system's dimension (2 or 3 numbers) ------------- */

/// World point `at` in body b's coordinates (its pose as given, before assembly).
void lsys_to_body(const mech_system *sys, int b, const double *at, double *out);
/// The planar case only (planar joints and FE bodies): two coordinates each way.
void lsys_to_body2(const mech_system *sys, int b, const double at[2], double out[2]);

/// Body b's point p (body coordinates) in the world (its pose as given, before assembly).
void lsys_to_world(const mech_system *sys, int b, const double *p, double *out);

/// Vector field key of table t: {x, y} in a planar system, {x, y, z} in a spatial one.
int lsys_vec(lua_State *L, const lsys *ls, int t, const char *fn, const char *key, double *out);

/// A point of body b given by field `at` (world) or `body_at` (body coordinates), into out in
/// body coordinates (the body's origin when neither is given).
void lsys_point(lua_State *L, lsys *ls, int t, const char *fn, int b, double *out);

/*
** The anchors of a two-body element on bodies a and b, in their body coordinates: `at` (one
** world point; two, {{...}, {...}}, for the two ends of a spring: two_ends) or `a_at` and
** `b_at` (body coordinates; a missing one is the body's origin).  Without any, raises unless
** two_ends (both origins).
*/
void lsys_anchors(lua_State *L, lsys *ls, int t, const char *fn, int a, int b, int two_ends,
                  double *pa, double *pb);

/// Field baumgarte = {alpha, beta} into a, b (NaN when absent: the system's).
void lsys_baumgarte(lua_State *L, int t, const char *fn, double *a, double *b);

/// An ideal joint's fields method ("lagrange" or "penalty"), k and c (penalty: one number or
/// neq, k required) and baumgarte.
void lsys_enforcement(lua_State *L, int t, const char *fn, int neq, mech_enforce *enforce,
                      double *k, double *c, double *alpha, double *beta);

/// A spring's fields `law` (a function(length, rate, t): returns its callback, named "spring
/// law" until the spring is named) or `k` (required) and `c` (returns NULL).
lcb *lsys_spring_law(lua_State *L, lsys *ls, int t, const char *fn, double *k, double *c);

/// Fields `law` (required) and `friction` (optional) of table t (for system ls).
void lsys_read_laws(lua_State *L, lsys *ls, int t, const char *fn, mech_normal_law *law,
                    mech_friction_law *friction);

/* ---- plausibility ------------------------------------------------------------------------ */
/* Warnings (lu_warn), never errors, on values that are legal but probably a slip of unit; each
** names the entity (`what` 'name'), the field and the likely slip.  Thresholds: mechlua(3),
** PLAUSIBILITY WARNINGS. */

/// The name of entity (kind, id) ("?" if the system was closed): read it before a warning.
const char *lsys_plaus_name(lsys *ls, int kind, int id);
/// An angle given at creation beyond one turn: degrees?
void lsys_plaus_angle(lua_State *L, const char *what, const char *name, const char *field,
                      double v);
/// An angular speed above 1000 rad/s: rpm?
void lsys_plaus_omega(lua_State *L, const char *what, const char *name, const char *field,
                      double v);
/// A linear speed above 100 m/s: mm/s?
void lsys_plaus_speed(lua_State *L, const char *what, const char *name, const char *field,
                      double v);

/// A body just added: its centre pos (the system's dimension), mass and outline's largest size.
void lsys_scale_body(lsys *ls, int id, const double *pos, double mass, double outline);
/// The anchor pa (body coordinates) of an ideal joint on body b, for the model's extent.
void lsys_scale_anchor(lsys *ls, int b, const double *pa);

/*
** Warns (lu_warn) of what the constructors noted in ls->scale that does not fit the whole
** model: a bearing radius or a gap larger than the model, an outline much larger than it,
** masses that differ too much.  Called before the system is assembled (again after a change).
*/
void lsys_scale_check(lua_State *L, lsys *ls);

#endif
