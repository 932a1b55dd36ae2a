/* SPDX-License-Identifier: MIT */
/*
** The joint kind of a spatial system: an ideal joint's reaction on its body b (force and moment
** about b's anchor, in world axes and in the axes of a's joint frame), how far its equations
** are violated (anchors apart, axes misaligned), and the coordinates it leaves free: the angle
** about a revolute or cylindrical joint's axis, the distance along a prismatic or cylindrical
** one.  A joint with clearance gives its own channels through its clearance type.
*/
#include <math.h>
#include <stddef.h>

#include "clearance.h"
#include "joint_type.h"
#include "kind.h"
#include "registry.h"
#include "spatial_frame.h"

enum {
    SJ_FX,
    SJ_FY,
    SJ_FZ,
    SJ_F,
    SJ_MX,
    SJ_MY,
    SJ_MZ,
    SJ_M,
    SJ_FXJ,
    SJ_FYJ,
    SJ_FZJ,
    SJ_MXJ,
    SJ_MYJ,
    SJ_MZJ,
    SJ_VIOLATION,
    SJ_MISALIGN,
    SJ_ANGLE,
    SJ_DISTANCE
};
static const quantity sjoint_q[] = {
    {"fx", "N"},           {"fy", "N"},      {"fz", "N"},       {"f", "N"},      {"mx", "N m"},
    {"my", "N m"},         {"mz", "N m"},    {"m", "N m"},      {"fx_j", "N"},   {"fy_j", "N"},
    {"fz_j", "N"},         {"mx_j", "N m"},  {"my_j", "N m"},   {"mz_j", "N m"}, {"violation", "m"},
    {"misalignment", "-"}, {"angle", "rad"}, {"distance", "m"}, {NULL, NULL}};

static void sjoint_describe(sbuf *b, const mech_system *sys, int id)
{
    const joint *j = &sys->joints[id];
    const double *fa = j->fa, *fb = j->fb;
    sb_printf(b,
              "%s, %s (%.10g, %.10g, %.10g) axes x (%.10g, %.10g, %.10g) z (%.10g, %.10g, %.10g) - "
              "%s (%.10g, %.10g, %.10g) axes x (%.10g, %.10g, %.10g) z (%.10g, %.10g, %.10g)",
              j->jt->name, sys->bodies[j->a].name, j->pa[0], j->pa[1], j->pa[2], fa[0], fa[3],
              fa[6], fa[2], fa[5], fa[8], sys->bodies[j->b].name, j->pb[0], j->pb[1], j->pb[2],
              fb[0], fb[3], fb[6], fb[2], fb[5], fb[8]);
    if (j->enforce == MECH_CLEARANCE) {
        j->jt->clearance->describe(b, sys, j);
        if (!j->jt->clearance->own_laws) contact_describe_laws(b, &sys->contacts[j->contact0]);
    } else if (j->enforce == MECH_PENALTY) {
        sb_printf(b, ", penalty k");
        for (int e = 0; e < j->neq; e++) sb_printf(b, " %.10g", j->k[e]);
        sb_printf(b, ", c");
        for (int e = 0; e < j->neq; e++) sb_printf(b, " %.10g", j->c[e]);
    } else {
        sb_printf(b, ", Lagrange (Baumgarte %.10g, %.10g)",
                  system_baumgarte_or(j->alpha, sys->alpha),
                  system_baumgarte_or(j->beta, sys->beta));
    }
}

/* A joint with clearance has its own channels (sclearance.c): the eccentricity and tilt of the
** journal in the bearing, its angle, its contacts' totals and the resultant of their forces,
** with the reaction's names. */
static const quantity *sjoint_quantities(const mech_system *sys, int id)
{
    const joint *j = &sys->joints[id];
    return j->enforce == MECH_CLEARANCE ? clearance_of(j)->quantities : sjoint_q;
}

static void sjoint_list_more(sbuf *b, const mech_system *sys, int id)
{
    const joint *j = &sys->joints[id];
    if (j->enforce == MECH_CLEARANCE && clearance_of(j)->list_more)
        clearance_of(j)->list_more(b, sys, j);
}

static int sjoint_offers(const mech_system *sys, int id, int qn)
{
    if (sys->joints[id].enforce == MECH_CLEARANCE) return 1;
    mech_joint_type t = sys->joints[id].type;
    if (qn == SJ_ANGLE) return t == MECH_REVOLUTE || t == MECH_CYLINDRICAL;
    if (qn == SJ_DISTANCE) return t == MECH_PRISMATIC || t == MECH_CYLINDRICAL;
    return 1;
}

static double sjoint_value(const mech_system *sys, int id, int qn)
{
    const joint *j = &sys->joints[id];
    if (j->enforce == MECH_CLEARANCE) return clearance_of(j)->value(sys, j, qn);
    if (qn <= SJ_M) {
        int m = qn >= SJ_MX, k = qn - (m ? SJ_MX : SJ_FX);
        const double *r = j->react + 3 * m;
        return k == 3 ? sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]) : r[k];
    }
    if (qn <= SJ_MZJ) return j->react[6 + qn - SJ_FXJ];
    if (qn == SJ_VIOLATION) return j->jt->violation(j);
    if (qn == SJ_MISALIGN) return j->jt->misalignment(j);
    sframe f;
    make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, sys->q, sys->v, &f);
    if (qn == SJ_ANGLE) return frame_angle(&f, angle_track_near(&j->angle, sys->t_eval));
    double za[3];
    mat3_col(f.Wa, 2, za);
    return vec3_dot(za, f.d);
}

const kind_ops kind_sjoint = {
    .kind = MECH_KIND_JOINT,
    .label = "joint",
    .describe = sjoint_describe,
    .quantities = sjoint_quantities,
    .offers = sjoint_offers,
    .list_more = sjoint_list_more,
    .value = sjoint_value,
};
