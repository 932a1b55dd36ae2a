/* SPDX-License-Identifier: MIT */
/*
** Joints with clearance: a revolute joint as a journal in a bearing ([Flores & Ambrosio
** 2004]; [Sci. Rep. 2023]), a prismatic joint as a slider in a guide ([Flores, Leine &
** Glocker 2010]).  Neither has a constraint equation: each is a force element that
** owns contact elements of contact.c, which give the forces, the events, the impact
** velocity, the friction and the energy accounts; this file only builds them, checks
** where the bodies start, and derives the joint's own channels.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "planar_body.h"
#include "registry.h"
#include "clearance.h"
#include "constraints.h"
#include "contact.h"

static const char *const surface_names[2] = {"bottom", "top"};

/* Appends a contact of joint j with the laws of d (room was reserved): a is the body that
** touches (journal, slider), b the one that carries the surface (bearing, guide). */
static contact *new_contact(mech_system *sys, int jid, const mech_clearance_def *d,
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
    if (j->type == MECH_FIXED)
        return mech_error_set(err, MECH_ERR_ARG, "fixed '%s': a fixed joint has no clearance",
                              j->name);
    if (j->type == MECH_REVOLUTE) {
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
    } else {
        if (!(isfinite(d->gap) && d->gap > 0))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "prismatic '%s': the clearance on each side must be > 0 (got "
                                  "%g m: the slider does not fit in the guide)",
                                  j->name, d->gap);
        if (d->ncorners < 1 || d->ncorners > MECH_CLEARANCE_CORNERS)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "prismatic '%s': the slider needs 1 to %d corners (got %d)",
                                  j->name, MECH_CLEARANCE_CORNERS, d->ncorners);
        for (int k = 0; k < d->ncorners; k++)
            if (!(isfinite(d->corners[k][0]) && isfinite(d->corners[k][1])))
                return mech_error_set(err, MECH_ERR_ARG,
                                      "prismatic '%s': corner %d of the slider is not finite",
                                      j->name, k + 1);
    }
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
        int k = j->contact0 + i;
        double g = contact_gap(sys, k, y);
        if (g >= -tol) continue;
        if (j->type == MECH_REVOLUTE)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "revolute '%s': the journal's centre is %g m from the "
                                  "bearing's %s, more than the radial clearance %g m: place the "
                                  "bodies so that the joint's anchors are at most that far apart",
                                  j->name, j->gap - g, when, j->gap);
        const contact *c = &sys->contacts[k];
        return mech_error_set(err, MECH_ERR_ARG,
                              "prismatic '%s': corner %d of the slider (%g, %g in its "
                              "coordinates) is %g m beyond the guide's %s surface %s: place the "
                              "slider inside the guide, its x axis along the guide",
                              j->name, i / 2 + 1, c->pa[0], c->pa[1], -g, surface_names[i % 2],
                              when);
    }
    return MECH_OK;
}

/* The contacts of a journal in a bearing: one, of the two circles. */
static void journal_contacts(mech_system *sys, int jid, const mech_clearance_def *d)
{
    const joint *j = &sys->joints[jid];
    contact *c = new_contact(sys, jid, d, "journal");
    c->shape = SHAPE_CIRCLE_IN_CIRCLE;
    memcpy(c->pa, j->pb, sizeof c->pa);
    memcpy(c->qb, j->pa, sizeof c->qb);
    c->ra = d->radius - d->gap;
    c->rb = d->radius;
}

/* The contacts of a slider in a guide: every corner against both surfaces. */
static void guide_contacts(mech_system *sys, int jid, const mech_clearance_def *d)
{
    const joint *j = &sys->joints[jid];
    double ymin = INFINITY, ymax = -INFINITY;
    for (int k = 0; k < d->ncorners; k++) {
        ymin = fmin(ymin, d->corners[k][1]);
        ymax = fmax(ymax, d->corners[k][1]);
    }
    /* the surfaces at -+(half the slider's height + gap) from the axis, a's frame */
    const double nu[2] = {-j->axis[1], j->axis[0]}; /* the axis turned +90 degrees */
    const double h = (ymax - ymin) / 2 + d->gap, level[2] = {-h, h}, side[2] = {1, -1};
    sys->joints[jid].mid = (ymin + ymax) / 2;
    for (int k = 0; k < d->ncorners; k++) {
        for (int s = 0; s < 2; s++) {
            char suffix[32];
            snprintf(suffix, sizeof suffix, "c%d_%s", k + 1, surface_names[s]);
            contact *c = new_contact(sys, jid, d, suffix);
            memcpy(c->pa, d->corners[k], sizeof c->pa);
            c->qb[0] = j->pa[0] + level[s] * nu[0];
            c->qb[1] = j->pa[1] + level[s] * nu[1];
            c->nb[0] = side[s] * nu[0];
            c->nb[1] = side[s] * nu[1];
        }
    }
}

mech_status clearance_attach(mech_system *sys, int jid, const mech_clearance_def *d,
                             mech_error *err)
{
    joint *j = &sys->joints[jid];
    mech_status st = check_def(j, d, err);
    if (st) return st;
    int n = j->type == MECH_REVOLUTE ? 1 : 2 * d->ncorners, first = sys->ncontacts;
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
    if (j->type == MECH_REVOLUTE)
        journal_contacts(sys, jid, d);
    else
        guide_contacts(sys, jid, d);
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

void clearance_slider(const mech_system *sys, const joint *j, const double *q, const double *v,
                      double *tilt, double *offset)
{
    double pa[2], posea[3], poseb[3], u[2];
    body_point(sys, j->a, j->pa, q, v, pa, NULL);
    body_pose(sys, j->a, q, v, posea, NULL);
    body_pose(sys, j->b, q, v, poseb, NULL);
    body_rotate(sys, j->a, q, j->axis, u);
    *offset = -u[1] * (poseb[0] - pa[0]) + u[0] * (poseb[1] - pa[1]);
    double rel = poseb[2] - posea[2] - atan2(j->axis[1], j->axis[0]);
    *tilt = atan2(sin(rel), cos(rel)); /* in (-pi, pi] */
}

void clearance_force(const mech_system *sys, const joint *j, const double *q, const double *v,
                     double f[3])
{
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
        if (c->shape == SHAPE_CIRCLE_IN_CIRCLE) {
            double e[2], eb[2];
            clearance_eccentricity(sys, j, q, v, e, eb);
            double len = hypot(e[0], e[1]), u[2] = {1, 0};
            if (len > 0) u[0] = e[0] / len, u[1] = e[1] / len;
            n[0] = -u[0];
            n[1] = -u[1];
            at[0] += c->ra * u[0];
            at[1] += c->ra * u[1];
        } else {
            body_rotate(sys, c->b, q, c->nb, n);
        }
        double t[2] = {c->flip ? -n[1] : n[1], c->flip ? n[0] : -n[0]};
        double fx = c->fn * n[0] + c->ft * t[0], fy = c->fn * n[1] + c->ft * t[1];
        f[0] += fx;
        f[1] += fy;
        f[2] += (at[0] - anchor[0]) * fy - (at[1] - anchor[1]) * fx;
    }
}

/* The angle phi_b - phi_a at which prismatic joint j's slider is not tilted: the axis's
** direction, plus the whole turns nearest to the relative angle in q. */
static double untilted_angle(const mech_system *sys, const joint *j, const double *q)
{
    double posea[3], poseb[3];
    body_pose(sys, j->a, q, q, posea, NULL);
    body_pose(sys, j->b, q, q, poseb, NULL);
    const double two_pi = 6.283185307179586, base = atan2(j->axis[1], j->axis[0]);
    double turns = nearbyint((poseb[2] - posea[2] - base) / two_pi);
    return base + (isfinite(turns) ? turns * two_pi : 0);
}

void clearance_ideal(const mech_system *sys, const joint *j, const double *q, joint *ideal)
{
    *ideal = *j;
    if (j->enforce != MECH_CLEARANCE) return;
    ideal->enforce = MECH_LAGRANGE;
    ideal->neq = joint_equations(j->type);
    if (j->type == MECH_PRISMATIC) {
        ideal->pb[0] = 0;
        ideal->pb[1] = j->mid;
        ideal->angle0 = untilted_angle(sys, j, q);
    }
}

int clearance_centred(const mech_system *sys, const joint *j, const double *q, double tol)
{
    if (j->type == MECH_REVOLUTE) {
        double world[2], local[2];
        clearance_eccentricity(sys, j, q, q, world, local);
        return hypot(world[0], world[1]) <= tol;
    }
    /* the ideal joint's equations: the middle's distance from the axis, and the tilt times the
    ** farthest corner's distance from the middle */
    joint ideal;
    crow rows[3];
    clearance_ideal(sys, j, q, &ideal);
    joint_eval(sys, &ideal, q, q, rows);
    double reach = 0;
    for (int k = 0; k < j->ncontact; k += 2) {
        const contact *c = &sys->contacts[j->contact0 + k];
        reach = fmax(reach, hypot(c->pa[0], c->pa[1] - j->mid));
    }
    return fabs(rows[0].phi) <= tol && fabs(rows[1].phi) * reach <= tol;
}

double clearance_speed(const mech_system *sys, const joint *j, const double *q, const double *v)
{
    double p[2], pv[2];
    if (j->type == MECH_REVOLUTE) {
        double pb[2], pbv[2];
        body_point(sys, j->b, j->pb, q, v, p, pv);
        body_point(sys, j->a, j->pa, q, v, pb, pbv);
        return hypot(pv[0] - pbv[0], pv[1] - pbv[1]);
    }
    /* each corner (on b) against the guide's material point (on a) where it is */
    double posea[3], vela[3], u[2];
    body_pose(sys, j->a, q, v, posea, vela);
    body_rotate(sys, j->a, q, j->axis, u);
    const double nu[2] = {-u[1], u[0]};
    double fastest = 0;
    for (int k = 0; k < j->ncontact; k += 2) {
        const contact *ct = &sys->contacts[j->contact0 + k];
        body_point(sys, j->b, ct->pa, q, v, p, pv);
        double off[2] = {p[0] - posea[0], p[1] - posea[1]}, ga[2];
        pose_point_velocity(vela, off, ga);
        fastest = fmax(fastest, fabs(nu[0] * (pv[0] - ga[0]) + nu[1] * (pv[1] - ga[1])));
    }
    return fastest;
}
