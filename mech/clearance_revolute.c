/* SPDX-License-Identifier: MIT */
/*
** A revolute joint with clearance: a journal (a circle of body b about its anchor) in a
** bearing (a larger circle of body a about its anchor), one contact of the two circles;
** its own channels are the eccentricity, and it offers its contact's quantities too.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "planar_body.h"
#include "registry.h"
#include "clearance.h"

static mech_status journal_check(const joint *j, const mech_clearance_def *d, mech_error *err)
{
    if (!(isfinite(d->gap) && d->gap > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "revolute '%s': radial clearance must be > 0 (got %g m: a "
                              "journal of radius %g m in a bearing of radius %g m)",
                              j->name, d->gap, d->radius - d->gap, d->radius);
    if (!(isfinite(d->radius) && d->radius > d->gap))
        return mech_error_set(err, MECH_ERR_ARG,
                              "revolute '%s': the bearing's radius must be larger than the "
                              "radial clearance (got radius %g m, clearance %g m)",
                              j->name, d->radius, d->gap);
    return MECH_OK;
}

static int journal_ncontacts(const mech_clearance_def *d)
{
    (void)d;
    return 1;
}

/* The contacts of a journal in a bearing: one, of the two circles. */
static void journal_contacts(mech_system *sys, int jid, const mech_clearance_def *d)
{
    const joint *j = &sys->joints[jid];
    contact *c = clearance_new_contact(sys, jid, d, "journal");
    c->shape = SHAPE_CIRCLE_IN_CIRCLE;
    memcpy(c->pa, j->pb, sizeof c->pa);
    memcpy(c->qb, j->pa, sizeof c->qb);
    c->ra = d->radius - d->gap;
    c->rb = d->radius;
}

static mech_status journal_misplaced(const mech_system *sys, const joint *j, int i, double g,
                                     const char *when, mech_error *err)
{
    (void)sys;
    (void)i;
    return mech_error_set(err, MECH_ERR_ARG,
                          "revolute '%s': the journal's centre is %g m from the "
                          "bearing's %s, more than the radial clearance %g m: place the "
                          "bodies so that the joint's anchors are at most that far apart",
                          j->name, j->gap - g, when, j->gap);
}

void clearance_eccentricity(const mech_system *sys, const joint *j, const double *q,
                            const double *v, double world[2], double local[2])
{
    double pj[2], pb[2];
    body_point(sys, j->b, j->pb, q, v, pj, NULL);
    body_point(sys, j->a, j->pa, q, v, pb, NULL);
    world[0] = pj[0] - pb[0];
    world[1] = pj[1] - pb[1];
    body_rotate_back(sys, j->a, q, world, local);
}

static int journal_centred(const mech_system *sys, const joint *j, const double *q, double tol)
{
    double world[2], local[2];
    clearance_eccentricity(sys, j, q, q, world, local);
    return hypot(world[0], world[1]) <= tol;
}

static double journal_speed(const mech_system *sys, const joint *j, const double *q,
                            const double *v)
{
    double p[2], pv[2], pb[2], pbv[2];
    body_point(sys, j->b, j->pb, q, v, p, pv);
    body_point(sys, j->a, j->pa, q, v, pb, pbv);
    return hypot(pv[0] - pbv[0], pv[1] - pbv[1]);
}

/* The bearing's normal points from the journal's centre back to the bearing's; the force acts
** on the journal's rim, along the eccentricity. */
static void journal_normal(const mech_system *sys, const joint *j, const contact *c,
                           const double *q, const double *v, double n[2], double at[2])
{
    double e[2], eb[2];
    clearance_eccentricity(sys, j, q, v, e, eb);
    double len = hypot(e[0], e[1]), u[2] = {1, 0};
    if (len > 0) u[0] = e[0] / len, u[1] = e[1] / len;
    n[0] = -u[0];
    n[1] = -u[1];
    at[0] += c->ra * u[0];
    at[1] += c->ra * u[1];
}

static void journal_describe(sbuf *b, const mech_system *sys, const joint *j)
{
    const contact *c = &sys->contacts[j->contact0];
    sb_printf(b, ", clearance: bearing radius %.10g m, journal radius %.10g m", c->rb, c->ra);
}

/* The eccentricity in the world and in the bearing's frame, then the resultant. */
enum { E_EX, E_EY, E_E, E_EXB, E_EYB, E_FX, E_FY, E_F };
static const quantity journal_q[] = {{"ex", "m"},  {"ey", "m"},  {"e", "m"},
                                     {"exb", "m"}, {"eyb", "m"}, {"fx", "N"},
                                     {"fy", "N"},  {"f", "N"},   {NULL, NULL}};

static double journal_value(const mech_system *sys, const joint *j, int qn)
{
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

/* A journal in a bearing also offers its contact's quantities. */
static void journal_list_more(sbuf *b, const mech_system *sys, const joint *j)
{
    (void)sys;
    (void)j;
    for (int i = 0; contact_quantities[i].name; i++) sb_list_add(b, "", contact_quantities[i].name);
}

static int journal_other(const mech_system *sys, const joint *j, int *kind, int *oid)
{
    (void)sys;
    *kind = MECH_KIND_CONTACT;
    *oid = j->contact0;
    return 1;
}

const clearance_type clearance_journal = {
    .part = "journal",
    .check = journal_check,
    .ncontacts = journal_ncontacts,
    .contacts = journal_contacts,
    .misplaced = journal_misplaced,
    .ideal = NULL, /* the ideal revolute joint: the anchors, the journal's and bearing's centres */
    .centred = journal_centred,
    .speed = journal_speed,
    .contact_normal = journal_normal,
    .describe = journal_describe,
    .quantities = journal_q,
    .force_q = E_FX,
    .value = journal_value,
    .list_more = journal_list_more,
    .other = journal_other,
};
