/* SPDX-License-Identifier: MIT */
/*
** The joint kind: its line of text and its channels.  What differs between joint types
** comes from their entries (joint_type.h), and a joint with clearance gives its own
** channels through its clearance type (clearance.h).
*/
#include <math.h>
#include <stddef.h>

#include "clearance.h"
#include "joint_type.h"
#include "kind.h"
#include "registry.h"

/* The channels of an ideal joint (Lagrange or penalty): each type offers some of them. */
static const quantity ideal_q[] = {{"fx", "N"},      {"fy", "N"},        {"f", "N"},  {"m", "N m"},
                                   {"fn", "N"},      {"violation", "m"}, {"dx", "m"}, {"dy", "m"},
                                   {"twist", "rad"}, {NULL, NULL}};

static void joint_describe(sbuf *b, const mech_system *sys, int id)
{
    const joint *j = &sys->joints[id];
    const joint_type *jt = j->jt;
    sb_printf(b, "%s, %s (%.10g, %.10g) - %s (%.10g, %.10g)", jt->name, sys->bodies[j->a].name,
              j->pa[0], j->pa[1], sys->bodies[j->b].name, j->pb[0], j->pb[1]);
    if (jt->has_axis) sb_printf(b, ", axis (%.10g, %.10g)", j->axis[0], j->axis[1]);
    if (jt->has_angle && j->enforce != MECH_CLEARANCE) sb_printf(b, ", angle %.10g rad", j->angle0);
    if (j->enforce == MECH_CLEARANCE) {
        jt->clearance->describe(b, sys, j);
        contact_describe_laws(b, &sys->contacts[j->contact0]);
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

static const quantity *joint_quantities(const mech_system *sys, int id)
{
    const joint *j = &sys->joints[id];
    return j->enforce == MECH_CLEARANCE ? clearance_of(j)->quantities : ideal_q;
}

static int joint_offers(const mech_system *sys, int id, int qn)
{
    const joint *j = &sys->joints[id];
    if (j->enforce == MECH_CLEARANCE) return 1;
    return (j->jt->offers & JOINT_OFFERS(qn)) != 0;
}

static void joint_list_more(sbuf *b, const mech_system *sys, int id)
{
    const joint *j = &sys->joints[id];
    if (j->enforce != MECH_CLEARANCE) return;
    const clearance_type *ct = clearance_of(j);
    if (ct->list_more) ct->list_more(b, sys, j);
}

static int joint_other(const mech_system *sys, int id, int *kind, int *oid)
{
    const joint *j = &sys->joints[id];
    if (j->enforce != MECH_CLEARANCE) return 0;
    const clearance_type *ct = clearance_of(j);
    return ct->other ? ct->other(sys, j, kind, oid) : 0;
}

static double joint_value(const mech_system *sys, int id, int qn)
{
    const joint *j = &sys->joints[id];
    if (j->enforce == MECH_CLEARANCE) return clearance_value(sys, j, qn);
    const joint_type *jt = j->jt;
    switch (qn) {
    case J_FX: return j->react[0];
    case J_FY: return j->react[1];
    case J_F: return hypot(j->react[0], j->react[1]);
    case J_M: return j->react[2];
    case J_FN: return j->react[3];
    case J_VIOLATION: return jt->violation(j);
    case J_DX: return j->phi[0]; /* anchor a - anchor b */
    case J_DY: return j->phi[1];
    case J_TWIST: /* the equation on the relative rotation (a revolute joint offers none) */
        return jt->alone >= 0 ? j->phi[jt->alone] : 0;
    }
    return NAN;
}

const kind_ops kind_joint = {
    .kind = MECH_KIND_JOINT,
    .label = "joint",
    .describe = joint_describe,
    .quantities = joint_quantities,
    .offers = joint_offers,
    .list_more = joint_list_more,
    .other = joint_other,
    .value = joint_value,
};
