/* SPDX-License-Identifier: MIT */
/*
** Joints with clearance: a revolute joint as a journal in a bearing ([Flores & Ambrosio
** 2004]; [Sci. Rep. 2023]), a prismatic joint as a slider in a guide ([Flores, Leine &
** Glocker 2010]).  Neither has a constraint equation: each is a force element that
** owns contact elements of contact.c, which give the forces, the events, the impact
** velocity, the friction and the energy accounts.  This file holds what both share (the
** contacts' creation, the checks of where the bodies start, the resultant of the contacts'
** forces); each type's own geometry is in clearance_revolute.c and clearance_prismatic.c,
** reached through clearance_of.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "planar_body.h"
#include "registry.h"
#include "clearance.h"
#include "constraints.h"
#include "contact.h"
#include "joint_type.h"

const char *const clearance_surface_names[2] = {"bottom", "top"};

const clearance_type *clearance_of(const joint *j)
{
    return j->jt ? j->jt->clearance : NULL;
}

contact *clearance_new_contact(mech_system *sys, int jid, const mech_clearance_def *d,
                               const char *suffix)
{
    const joint *j = &sys->joints[jid];
    contact *c = &sys->contacts[sys->ncontacts++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s.%s", j->name, suffix);
    c->a = j->b;
    c->b = j->a;
    c->nlaw = d->normal_law;
    c->flaw = d->friction;
    c->bristle = -1;
    c->owner = jid;
    return c;
}

/* Checks the clearance's numbers and laws; the message names the joint. */
static mech_status check_def(const joint *j, const mech_clearance_def *d, mech_error *err)
{
    const char *tname = mech_joint_type_name(j->type);
    const clearance_type *ct = clearance_of(j);
    if (ct == NULL)
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': a %s joint has no clearance", tname,
                              j->name, tname);
    mech_status st = ct->check(j, d, err);
    if (st) return st;
    mech_error lerr;
    if (mech_normal_check(&d->normal_law, &lerr))
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': %s law: %s", tname, j->name,
                              mech_normal_name(d->normal_law.type), lerr.msg);
    if (mech_friction_check(&d->friction, &lerr))
        return mech_error_set(err, MECH_ERR_ARG, "%s '%s': %s friction: %s", tname, j->name,
                              mech_friction_name(d->friction.type), lerr.msg);
    return MECH_OK;
}

/* Whether joint j holds its bodies within the clearance in state y. */
static mech_status placement(const mech_system *sys, const joint *j, const double *y,
                             const char *when, mech_error *err)
{
    const double tol = 1e-9 * j->gap; /* rounding of the positions, not a penetration */
    for (int i = 0; i < j->ncontact; i++) {
        double g = contact_gap(sys, j->contact0 + i, y);
        if (g >= -tol) continue;
        return clearance_of(j)->misplaced(sys, j, i, g, when, err);
    }
    return MECH_OK;
}

mech_status clearance_attach(mech_system *sys, int jid, const mech_clearance_def *d,
                             mech_error *err)
{
    joint *j = &sys->joints[jid];
    mech_status st = check_def(j, d, err);
    if (st) return st;
    const clearance_type *ct = clearance_of(j);
    int n = ct->ncontacts(d), first = sys->ncontacts;
    for (int i = 0; i < n; i++)
        if (!system_grow((void **)&sys->contacts, &sys->cap_contacts, first + i, sizeof(contact)))
            return mech_error_set(err, MECH_ERR_NOMEM, "%s '%s': out of memory",
                                  mech_joint_type_name(j->type), j->name);
    double *y = system_initial_state(sys);
    if (y == NULL)
        return mech_error_set(err, MECH_ERR_NOMEM, "%s '%s': out of memory",
                              mech_joint_type_name(j->type), j->name);
    j->gap = d->gap;
    j->radius = d->radius;
    j->contact0 = first;
    j->ncontact = n;
    ct->contacts(sys, jid, d);
    st = placement(sys, j, y, "at the start", err);
    mech_free(y);
    if (st) sys->ncontacts = first;
    return st;
}

mech_status clearance_check_state(const mech_system *sys, const double *y, const char *when,
                                  mech_error *err)
{
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        if (j->enforce != MECH_CLEARANCE) continue;
        mech_status st = placement(sys, j, y, when, err);
        if (st) return st;
    }
    return MECH_OK;
}

void clearance_force(const mech_system *sys, const joint *j, const double *q, const double *v,
                     double f[3])
{
    const clearance_type *ct = clearance_of(j);
    double anchor[2];
    body_point(sys, j->b, j->pb, q, v, anchor, NULL);
    f[0] = f[1] = f[2] = 0;
    for (int k = j->contact0; k < j->contact0 + j->ncontact; k++) {
        const contact *c = &sys->contacts[k];
        if (c->fn == 0 && c->ft == 0) continue;
        /* the normal n of the surface (on the bearing, the guide) and the point of b where
        ** the force acts, as contact.c computes them; the tangent is n turned -90 degrees */
        double n[2], at[2];
        body_point(sys, c->a, c->pa, q, v, at, NULL);
        ct->contact_normal(sys, j, c, q, v, n, at);
        double t[2] = {c->flip ? -n[1] : n[1], c->flip ? n[0] : -n[0]};
        double fx = c->fn * n[0] + c->ft * t[0], fy = c->fn * n[1] + c->ft * t[1];
        f[0] += fx;
        f[1] += fy;
        f[2] += (at[0] - anchor[0]) * fy - (at[1] - anchor[1]) * fx;
    }
}

void clearance_ideal(const mech_system *sys, const joint *j, const double *q, joint *ideal)
{
    *ideal = *j;
    if (j->enforce != MECH_CLEARANCE) return;
    ideal->enforce = MECH_LAGRANGE;
    ideal->neq = j->jt->neq;
    const clearance_type *ct = clearance_of(j);
    if (ct->ideal) ct->ideal(sys, j, q, ideal);
}

int clearance_centred(const mech_system *sys, const joint *j, const double *q, double tol)
{
    return clearance_of(j)->centred(sys, j, q, tol);
}

double clearance_speed(const mech_system *sys, const joint *j, const double *q, const double *v)
{
    return clearance_of(j)->speed(sys, j, q, v);
}

double clearance_value(const mech_system *sys, const joint *j, int qn)
{
    const clearance_type *ct = clearance_of(j);
    if (qn >= ct->force_q) {
        double f[3];
        clearance_force(sys, j, sys->q, sys->v, f);
        int which = qn - ct->force_q; /* fx, fy, f, m */
        return which == 2 ? hypot(f[0], f[1]) : f[which == 3 ? 2 : which];
    }
    return ct->value(sys, j, qn);
}

void clearance_list_contacts(sbuf *b, const mech_system *sys, const joint *j)
{
    size_t skip = strlen(j->name) + 1; /* "guide." */
    for (int k = j->contact0; k < j->contact0 + j->ncontact; k++) {
        char prefix[2 * MECH_NAME_MAX + 2];
        snprintf(prefix, sizeof prefix, "%s.", sys->contacts[k].name + skip);
        sb_list_add(b, prefix, contact_quantities[C_GAP].name);
        sb_list_add(b, prefix, contact_quantities[C_FN].name);
    }
}
