/* SPDX-License-Identifier: MIT */
/*
** The joint kind: its line of text and its channels.  What differs between joint types
** comes from their entries (joint_type.h).
*/
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "clearance.h"
#include "joint_type.h"
#include "kind.h"
#include "registry.h"

/* The channels of an ideal joint (Lagrange or penalty): each type offers some of them. */
static const quantity ideal_q[] = {{"fx", "N"},      {"fy", "N"},        {"f", "N"},  {"m", "N m"},
                                   {"fn", "N"},      {"violation", "m"}, {"dx", "m"}, {"dy", "m"},
                                   {"twist", "rad"}, {NULL, NULL}};

/* Joints with clearance: a journal in a bearing also offers its contact's quantities, a
** slider in a guide each corner contact's as "c<k>_<surface>.<quantity>". */
/* Both also give the resultant of their contacts' forces on the second body (the journal,
** the slider) under the ideal joint's names: fx, fy, f, and for the slider m. */
enum { E_EX, E_EY, E_E, E_EXB, E_EYB, E_FX, E_FY, E_F };
static const quantity journal_q[] = {{"ex", "m"},  {"ey", "m"},  {"e", "m"},
                                     {"exb", "m"}, {"eyb", "m"}, {"fx", "N"},
                                     {"fy", "N"},  {"f", "N"},   {NULL, NULL}};

enum { G_FN, G_FT, G_TILT, G_OFFSET, G_IMPACTS, G_ACTIVE, G_FX, G_FY, G_F, G_M };
static const quantity guide_q[] = {
    {"fn", "N"}, {"ft", "N"}, {"tilt", "rad"}, {"offset", "m"}, {"impacts", "-"}, {"active", "-"},
    {"fx", "N"}, {"fy", "N"}, {"f", "N"},      {"m", "N m"},    {NULL, NULL}};

static void joint_describe(sbuf *b, const mech_system *sys, int id)
{
    const joint *j = &sys->joints[id];
    const joint_type *jt = joint_types[j->type];
    sb_printf(b, "%s, %s (%.10g, %.10g) - %s (%.10g, %.10g)", jt->name, sys->bodies[j->a].name,
              j->pa[0], j->pa[1], sys->bodies[j->b].name, j->pb[0], j->pb[1]);
    if (jt->has_axis) sb_printf(b, ", axis (%.10g, %.10g)", j->axis[0], j->axis[1]);
    if (jt->has_angle && j->enforce != MECH_CLEARANCE) sb_printf(b, ", angle %.10g rad", j->angle0);
    if (j->enforce == MECH_CLEARANCE) {
        const contact *c = &sys->contacts[j->contact0];
        if (j->type == MECH_REVOLUTE) {
            sb_printf(b, ", clearance: bearing radius %.10g m, journal radius %.10g m", c->rb,
                      c->ra);
        } else {
            sb_printf(b, ", clearance %.10g m on each side of the slider's corners", j->gap);
            for (int k = 0; k < j->ncontact; k += 2)
                sb_printf(b, " (%.10g, %.10g)", c[k].pa[0], c[k].pa[1]);
        }
        contact_describe_laws(b, c);
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
    return j->enforce != MECH_CLEARANCE ? ideal_q : j->type == MECH_REVOLUTE ? journal_q : guide_q;
}

static int joint_offers(const mech_system *sys, int id, int qn)
{
    const joint *j = &sys->joints[id];
    if (j->enforce == MECH_CLEARANCE) return 1;
    return (joint_types[j->type]->offers & JOINT_OFFERS(qn)) != 0;
}

/* A journal in a bearing also offers its contact's quantities; a slider in a guide each corner
** contact's gap and normal force, as "c<k>_<surface>.<quantity>". */
static void joint_list_more(sbuf *b, const mech_system *sys, int id)
{
    const joint *j = &sys->joints[id];
    if (j->enforce != MECH_CLEARANCE) return;
    if (j->type == MECH_REVOLUTE) {
        for (int i = 0; contact_quantities[i].name; i++)
            sb_list_add(b, "", contact_quantities[i].name);
        return;
    }
    size_t skip = strlen(j->name) + 1; /* "guide." */
    for (int k = j->contact0; k < j->contact0 + j->ncontact; k++) {
        char prefix[2 * MECH_NAME_MAX + 2];
        snprintf(prefix, sizeof prefix, "%s.", sys->contacts[k].name + skip);
        sb_list_add(b, prefix, contact_quantities[C_GAP].name);
        sb_list_add(b, prefix, contact_quantities[C_FN].name);
    }
}

/* A journal's other quantities are its contact's. */
static int joint_other(const mech_system *sys, int id, int *kind, int *oid)
{
    const joint *j = &sys->joints[id];
    if (j->enforce != MECH_CLEARANCE || j->type != MECH_REVOLUTE) return 0;
    *kind = MECH_KIND_CONTACT;
    *oid = j->contact0;
    return 1;
}

/* The channels of a joint with clearance: eccentricity, or the guide's totals. */
static double clearance_channel(const mech_system *sys, const joint *j, int qn)
{
    if ((j->type == MECH_REVOLUTE && qn >= E_FX) || (j->type != MECH_REVOLUTE && qn >= G_FX)) {
        double f[3];
        clearance_force(sys, j, sys->q, sys->v, f);
        int which = qn - (j->type == MECH_REVOLUTE ? E_FX : G_FX); /* fx, fy, f, m */
        return which == 2 ? hypot(f[0], f[1]) : f[which == 3 ? 2 : which];
    }
    if (j->type == MECH_REVOLUTE) {
        double e[2], eb[2];
        clearance_eccentricity(sys, j, sys->q, sys->v, e, eb);
        switch (qn) {
        case E_EX: return e[0];
        case E_EY: return e[1];
        case E_E: return hypot(e[0], e[1]);
        case E_EXB: return eb[0];
        case E_EYB: return eb[1];
        }
        return NAN;
    }
    if (qn == G_TILT || qn == G_OFFSET) {
        double tilt, offset;
        clearance_slider(sys, j, sys->q, sys->v, &tilt, &offset);
        return qn == G_TILT ? tilt : offset;
    }
    double sum = 0;
    for (int k = j->contact0; k < j->contact0 + j->ncontact; k++) {
        const contact *c = &sys->contacts[k];
        switch (qn) {
        case G_FN: sum += c->fn; break;
        case G_FT: sum += c->ft * (c->nb[1] * j->axis[0] - c->nb[0] * j->axis[1]); break;
        case G_IMPACTS: sum += (double)c->impacts; break;
        case G_ACTIVE: sum += c->active; break;
        }
    }
    return sum;
}

static double joint_value(const mech_system *sys, int id, int qn)
{
    const joint *j = &sys->joints[id];
    if (j->enforce == MECH_CLEARANCE) return clearance_channel(sys, j, qn);
    const joint_type *jt = joint_types[j->type];
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
