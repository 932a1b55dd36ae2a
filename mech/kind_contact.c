/* SPDX-License-Identifier: MIT */
/* The contact kind: a contact pair, its laws and its channels. */
#include <math.h>
#include <stddef.h>

#include "kind.h"
#include "registry.h"
#include "sclearance_geom.h"

const quantity contact_quantities[] = {
    {"gap", "m"},  {"penetration", "m"}, {"rate", "m/s"}, {"fn", "N"},      {"ft", "N"},
    {"vt", "m/s"}, {"mu", "-"},          {"active", "-"}, {"impacts", "-"}, {"v0", "m/s"},
    {"z", "m"},    {"stick", "-"},       {NULL, NULL}};

void contact_describe_laws(sbuf *b, const contact *c)
{
    const mech_normal_law *nl = &c->nlaw;
    sb_printf(b, "; %s K %.10g n %.10g", mech_normal_name(nl->type), nl->K, nl->n);
    if (nl->type == MECH_NORMAL_KELVIN_VOIGT) sb_printf(b, " c %.10g", nl->c);
    if (nl->type == MECH_NORMAL_HUNT_CROSSLEY)
        sb_printf(b, " b %.10g p %.10g q %.10g", nl->c, nl->p, nl->q);
    if (mech_normal_uses_impact(nl))
        sb_printf(b, " restitution %.10g v_min %.10g", nl->e, nl->v_min);
    contact_describe_friction(b, c);
}

void contact_describe_friction(sbuf *b, const contact *c)
{
    const mech_friction_law *fl = &c->flaw;
    if (fl->type == MECH_FRICTION_NONE) return;
    sb_printf(b, "; friction %s mu %.10g", mech_friction_name(fl->type), fl->mu);
    switch (fl->type) { /* only the parameters the law uses */
    case MECH_FRICTION_COULOMB_LINEAR: sb_printf(b, " (linear) v_reg %.10g", fl->v_reg); break;
    case MECH_FRICTION_COULOMB_TANH: sb_printf(b, " (tanh) v_reg %.10g", fl->v_reg); break;
    case MECH_FRICTION_STICK: sb_printf(b, " mu_s %.10g v_eps %.10g", fl->mu_s, fl->v_eps); break;
    case MECH_FRICTION_AMBROSIO: sb_printf(b, " v0 %.10g v1 %.10g", fl->v0, fl->v1); break;
    case MECH_FRICTION_ADAMS:
        sb_printf(b, " mu_s %.10g v0 %.10g v1 %.10g", fl->mu_s, fl->v0, fl->v1);
        break;
    case MECH_FRICTION_THRELFALL: sb_printf(b, " v0 %.10g", fl->v0); break;
    case MECH_FRICTION_STRIBECK:
        sb_printf(b, " mu_s %.10g vs %.10g delta %.10g sigma2 %.10g", fl->mu_s, fl->vs, fl->delta,
                  fl->sigma2);
        break;
    case MECH_FRICTION_DAHL: sb_printf(b, " sigma0 %.10g", fl->sigma0); break;
    case MECH_FRICTION_LUGRE:
    case MECH_FRICTION_LUGRE_NORMALIZED:
        sb_printf(b, "%s mu_s %.10g vs %.10g sigma0 %.10g sigma1 %.10g sigma2 %.10g",
                  fl->type == MECH_FRICTION_LUGRE_NORMALIZED ? " (normalized)" : "", fl->mu_s,
                  fl->vs, fl->sigma0, fl->sigma1, fl->sigma2);
        break;
    default: break;
    }
    /* the options, only when not at their defaults (the text of a default law is unchanged) */
    if ((fl->type == MECH_FRICTION_COULOMB || fl->type == MECH_FRICTION_STRIBECK) &&
        fl->reg != MECH_FRICTION_REG_NONE)
        sb_printf(b, " (%s) v_reg %.10g", mech_friction_reg_name(fl->reg), fl->v_reg);
    if (mech_friction_states(fl)) {
        if (fl->bounded && fl->type != MECH_FRICTION_LUGRE_NORMALIZED) sb_printf(b, " (bounded)");
        if (fl->keep_bristles) sb_printf(b, " reset never (bristles kept between contacts)");
    }
}

double contact_sum(const mech_system *sys, int b0, int b1, int what)
{
    double sum = 0;
    for (int k = 0; k < sys->ncontacts; k++) {
        const contact *c = &sys->contacts[k];
        if (c->a < b0 || c->a >= b1) continue;
        sum += what == 0 ? c->fn : what == 1 ? c->ft : (double)(c->fn > 0);
    }
    return sum;
}

/* A contact of a joint with clearance is described with its joint. */
static int contact_listed(const mech_system *sys, int id)
{
    return sys->contacts[id].owner < 0;
}

static void contact_describe(sbuf *b, const mech_system *sys, int id)
{
    const contact *c = &sys->contacts[id];
    if (c->shape == SHAPE_CIRCLE_IN_CIRCLE)
        sb_printf(b,
                  "circle of %s centred (%.10g, %.10g) radius %.10g m inside the circle of %s "
                  "centred (%.10g, %.10g) radius %.10g m",
                  sys->bodies[c->a].name, c->pa[0], c->pa[1], c->ra, sys->bodies[c->b].name,
                  c->qb[0], c->qb[1], c->rb);
    else if (c->shape == SHAPE_JOURNAL_IN_BEARING) /* one of a spatial journal's four */
        sb_printf(b,
                  "end %c of the journal of %s (radius %.10g m, length %.10g m) against the "
                  "bearing's %s of %s (radius %.10g m, length %.10g m), in revolute '%s'",
                  c->slot % 2 ? 'B' : 'A', sys->bodies[c->a].name, c->ra, c->la,
                  c->slot <= SCLEARANCE_RADIAL_B ? "wall"
                  : c->slot % 2                  ? "end wall B"
                                                 : "end wall A",
                  sys->bodies[c->b].name, c->rb, c->lb, sys->joints[c->owner].name);
    else
        sb_printf(b,
                  "%s (%.10g, %.10g) on the surface of %s through (%.10g, %.10g) normal "
                  "(%.10g, %.10g)",
                  sys->bodies[c->a].name, c->pa[0], c->pa[1], sys->bodies[c->b].name, c->qb[0],
                  c->qb[1], c->nb[0], c->nb[1]);
    if (c->speed != 0) sb_printf(b, " moving at %.10g m/s", c->speed);
    contact_describe_laws(b, c);
}

static double contact_value(const mech_system *sys, int id, int qn)
{
    const contact *c = &sys->contacts[id];
    switch (qn) {
    case C_GAP: return c->gap;
    case C_PEN: return c->gap < 0 ? -c->gap : 0;
    case C_RATE: return c->dd;
    case C_FN: return c->fn;
    case C_FT: return c->ft;
    case C_VT: return c->vt;
    case C_MU: return c->fn > 0 ? fabs(c->ft) / c->fn : 0;
    case C_ACTIVE: return c->active;
    case C_IMPACTS: return (double)c->impacts;
    case C_V0: return c->impact_speed;
    case C_Z: return c->bristle >= 0 ? sys->y_eval[c->bristle] : 0;
    case C_STICK: return c->sticking && fabs(c->vt) < c->flaw.v_eps; /* not on the ramp */
    }
    return NAN;
}

const kind_ops kind_contact = {
    .kind = MECH_KIND_CONTACT,
    .label = "contact",
    .listed = contact_listed,
    .describe = contact_describe,
    .table = contact_quantities,
    .value = contact_value,
};
