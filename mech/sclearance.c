/* SPDX-License-Identifier: MIT */
/*
** A spatial revolute joint with radial and axial clearance ([Spatial revolute paper]): no
** constraint equation; a journal cylinder of body b in the cavity of a bearing of body a,
** held by four contacts (scontact.c: the journal's ends against the bearing's wall and end
** walls).  This file checks the definition, adds the contacts and gives the clearance type
** entries a spatial joint needs (where the journal must be, whether it is centred, how fast it
** crosses the clearance).  The ideal joint for an ideal start is the spatial revolute joint
** itself: the anchors (the journal's and the cavity's mid-points) together, the axes aligned.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clearance.h"
#include "contact.h"
#include "registry.h"
#include "sclearance_geom.h"
#include "spatial_frame.h"
#include "vec3.h"

static const char *const slot_names[SCLEARANCE_NCONTACTS] = {"radial_a", "radial_b", "axial_a",
                                                             "axial_b"};

static mech_status check(const joint *j, const mech_sclearance_def *d, mech_error *err)
{
    if (!(isfinite(d->radial) && d->radial > 0 && isfinite(d->axial) && d->axial > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "revolute '%s': the radial and axial clearances must be > 0 (got "
                              "radial %g m, axial %g m)",
                              j->name, d->radial, d->axial);
    if (!(isfinite(d->radius) && d->radius > d->radial))
        return mech_error_set(err, MECH_ERR_ARG,
                              "revolute '%s': the bearing's radius must be larger than the radial "
                              "clearance (got radius %g m, radial clearance %g m)",
                              j->name, d->radius, d->radial);
    if (!(isfinite(d->length) && d->length > 2 * d->axial))
        return mech_error_set(err, MECH_ERR_ARG,
                              "revolute '%s': the bearing's length must be larger than twice the "
                              "axial clearance (got length %g m, axial clearance %g m)",
                              j->name, d->length, d->axial);
    mech_error lerr;
    if (mech_normal_check(&d->normal_law, &lerr))
        return mech_error_set(err, MECH_ERR_ARG, "revolute '%s': %s law: %s", j->name,
                              mech_normal_name(d->normal_law.type), lerr.msg);
    if (d->friction.type == MECH_FRICTION_STICK)
        return mech_error_set(err, MECH_ERR_ARG,
                              "revolute '%s': %s friction is planar only; a spatial joint takes "
                              "a law without sticking",
                              j->name, mech_friction_name(d->friction.type));
    if (mech_friction_check(&d->friction, &lerr))
        return mech_error_set(err, MECH_ERR_ARG, "revolute '%s': %s friction: %s", j->name,
                              mech_friction_name(d->friction.type), lerr.msg);
    return MECH_OK;
}

mech_status sclearance_attach(mech_system *sys, int jid, const mech_sclearance_def *d,
                              mech_error *err)
{
    joint *j = &sys->joints[jid];
    mech_status st = check(j, d, err);
    if (st) return st;
    int first = sys->ncontacts;
    for (int i = 0; i < SCLEARANCE_NCONTACTS; i++)
        if (!system_grow((void **)&sys->contacts, &sys->cap_contacts, first + i, sizeof(contact)))
            return mech_error_set(err, MECH_ERR_NOMEM, "revolute '%s': out of memory", j->name);
    double *y = system_initial_state(sys);
    if (y == NULL)
        return mech_error_set(err, MECH_ERR_NOMEM, "revolute '%s': out of memory", j->name);
    j->gap = d->radial;
    j->radius = d->radius;
    j->contact0 = first;
    j->ncontact = SCLEARANCE_NCONTACTS;
    mech_clearance_def laws;
    memset(&laws, 0, sizeof laws);
    laws.normal_law = d->normal_law;
    laws.friction = d->friction;
    for (int i = 0; i < SCLEARANCE_NCONTACTS; i++) {
        contact *c = clearance_new_contact(sys, jid, &laws, slot_names[i]);
        c->shape = SHAPE_JOURNAL_IN_BEARING;
        c->slot = i;
        c->rb = d->radius;
        c->lb = d->length;
        c->ra = d->radius - d->radial;
        c->la = d->length - 2 * d->axial;
    }
    st = clearance_check_state(sys, y, "at the start", err);
    mech_free(y);
    if (st) sys->ncontacts = first;
    return st;
}

static mech_status misplaced(const mech_system *sys, const joint *j, int i, double g,
                             const char *when, mech_error *err)
{
    const contact *c = &sys->contacts[j->contact0 + i];
    int radial = c->slot <= SCLEARANCE_RADIAL_B;
    return mech_error_set(err, MECH_ERR_ARG,
                          "revolute '%s': the journal's end %c is %g m into the bearing's %s %s "
                          "(radius %g m, length %g m; journal radius %g m, length %g m): place "
                          "the bodies so that the journal is inside the bearing",
                          j->name, c->slot % 2 ? 'B' : 'A', -g, radial ? "wall" : "end wall", when,
                          c->rb, c->lb, c->ra, c->la);
}

/* The journal's mid-point and axis against the bearing's, and their rates. */
typedef struct spair {
    double d[3], dd[3]; /* Pj - Pi and its rate */
    double ai[3], aj[3], wi[3], wj[3];
} spair;

static void pair(const mech_system *sys, const joint *j, const double *q, const double *v, spair *p)
{
    sframe f;
    make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, q, v, &f);
    memcpy(p->d, f.d, sizeof p->d);
    memcpy(p->dd, f.dd, sizeof p->dd);
    const double zi[3] = {j->fa[2], j->fa[5], j->fa[8]}, zj[3] = {j->fb[2], j->fb[5], j->fb[8]};
    mat3_vec(f.Aa, zi, p->ai);
    mat3_vec(f.Ab, zj, p->aj);
    vec3_cross(f.ua + 3, p->ai, p->wi);
    vec3_cross(f.ub + 3, p->aj, p->wj);
}

/* Centred: the mid-points within tol and the journal's ends within tol of the bearing's axis
** through the tilt. */
static int centred(const mech_system *sys, const joint *j, const double *q, double tol)
{
    spair p;
    pair(sys, j, q, q, &p);
    double x[3];
    vec3_cross(p.ai, p.aj, x);
    const contact *c = &sys->contacts[j->contact0];
    return vec3_norm(p.d) <= tol && 0.5 * c->la * vec3_norm(x) <= tol;
}

/* The speed across the clearance: the mid-points' relative speed plus how fast the tilt moves
** the journal's ends. */
static double speed(const mech_system *sys, const joint *j, const double *q, const double *v)
{
    spair p;
    pair(sys, j, q, v, &p);
    double w[3];
    vec3_sub(p.wj, p.wi, w);
    const contact *c = &sys->contacts[j->contact0];
    return vec3_norm(p.dd) + 0.5 * c->la * vec3_norm(w);
}

static void describe(sbuf *b, const mech_system *sys, const joint *j)
{
    const contact *c = &sys->contacts[j->contact0];
    sb_printf(b,
              ", clearance: bearing radius %.10g m, length %.10g m, journal radius %.10g m, "
              "length %.10g m",
              c->rb, c->lb, c->ra, c->la);
}

static const quantity no_quantities[] = {{NULL, NULL}};

static double no_value(const mech_system *sys, const joint *j, int qn)
{
    (void)sys;
    (void)j;
    (void)qn;
    return NAN;
}

const clearance_type sclearance_journal = {
    .part = "journal",
    .misplaced = misplaced,
    .ideal = NULL, /* the spatial revolute joint's equations */
    .centred = centred,
    .speed = speed,
    .describe = describe,
    .quantities = no_quantities,
    .force_q = 0,
    .value = no_value,
};
