/* SPDX-License-Identifier: MIT */
/*
** A prismatic joint with clearance: a slider (body b, given by its corners) in a guide (two
** surfaces of body a parallel to the joint's axis), every corner against both surfaces; its
** own channels are the totals of its contacts, the slider's tilt and offset, and it lists
** each corner contact's gap and normal force.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "planar_body.h"
#include "registry.h"
#include "clearance.h"
#include "constraints.h"

static mech_status guide_check(const joint *j, const mech_clearance_def *d, mech_error *err)
{
    if (!(isfinite(d->gap) && d->gap > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "prismatic '%s': the clearance on each side must be > 0 (got "
                              "%g m: the slider does not fit in the guide)",
                              j->name, d->gap);
    if (d->ncorners < 1 || d->ncorners > MECH_CLEARANCE_CORNERS)
        return mech_error_set(err, MECH_ERR_ARG,
                              "prismatic '%s': the slider needs 1 to %d corners (got %d)", j->name,
                              MECH_CLEARANCE_CORNERS, d->ncorners);
    for (int k = 0; k < d->ncorners; k++)
        if (!(isfinite(d->corners[k][0]) && isfinite(d->corners[k][1])))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "prismatic '%s': corner %d of the slider is not finite", j->name,
                                  k + 1);
    return MECH_OK;
}

static int guide_ncontacts(const mech_clearance_def *d)
{
    return 2 * d->ncorners;
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
            snprintf(suffix, sizeof suffix, "c%d_%s", k + 1, clearance_surface_names[s]);
            contact *c = clearance_new_contact(sys, jid, d, suffix);
            memcpy(c->pa, d->corners[k], sizeof c->pa);
            c->qb[0] = j->pa[0] + level[s] * nu[0];
            c->qb[1] = j->pa[1] + level[s] * nu[1];
            c->nb[0] = side[s] * nu[0];
            c->nb[1] = side[s] * nu[1];
        }
    }
}

static mech_status guide_misplaced(const mech_system *sys, const joint *j, int i, double g,
                                   const char *when, mech_error *err)
{
    const contact *c = &sys->contacts[j->contact0 + i];
    return mech_error_set(err, MECH_ERR_ARG,
                          "prismatic '%s': corner %d of the slider (%g, %g in its "
                          "coordinates) is %g m beyond the guide's %s surface %s: place the "
                          "slider inside the guide, its x axis along the guide",
                          j->name, i / 2 + 1, c->pa[0], c->pa[1], -g,
                          clearance_surface_names[i % 2], when);
}

/* The slider's angle to the guide axis and the distance of its centre of mass from the axis
** (along the axis turned +90 degrees) at (q, v). */
static void slider_pose(const mech_system *sys, const joint *j, const double *q, const double *v,
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

/* The angle phi_b - phi_a at which the slider is not tilted: the axis's direction, plus the
** whole turns nearest to the relative angle in q. */
static double untilted_angle(const mech_system *sys, const joint *j, const double *q)
{
    double posea[3], poseb[3];
    body_pose(sys, j->a, q, q, posea, NULL);
    body_pose(sys, j->b, q, q, poseb, NULL);
    const double two_pi = 6.283185307179586, base = atan2(j->axis[1], j->axis[0]);
    double turns = nearbyint((poseb[2] - posea[2] - base) / two_pi);
    return base + (isfinite(turns) ? turns * two_pi : 0);
}

/* The ideal joint holds the middle of the slider's corners on the axis, not tilted. */
static void guide_ideal(const mech_system *sys, const joint *j, const double *q, joint *ideal)
{
    ideal->pb[0] = 0;
    ideal->pb[1] = j->mid;
    ideal->angle0 = untilted_angle(sys, j, q);
}

static int guide_centred(const mech_system *sys, const joint *j, const double *q, double tol)
{
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

static double guide_speed(const mech_system *sys, const joint *j, const double *q, const double *v)
{
    double p[2], pv[2];
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

/* The guide's surface normal turns with the guide; the force acts at the corner. */
static void guide_normal(const mech_system *sys, const joint *j, const contact *c, const double *q,
                         const double *v, double n[2], double at[2])
{
    (void)j;
    (void)v;
    (void)at;
    body_rotate(sys, c->b, q, c->nb, n);
}

static void guide_describe(sbuf *b, const mech_system *sys, const joint *j)
{
    const contact *c = &sys->contacts[j->contact0];
    sb_printf(b, ", clearance %.10g m on each side of the slider's corners", j->gap);
    for (int k = 0; k < j->ncontact; k += 2)
        sb_printf(b, " (%.10g, %.10g)", c[k].pa[0], c[k].pa[1]);
}

/* The totals of the contacts, the slider's pose in the guide, then the resultant. */
enum { G_FN, G_FT, G_TILT, G_OFFSET, G_IMPACTS, G_ACTIVE, G_FX, G_FY, G_F, G_M };
static const quantity guide_q[] = {
    {"fn", "N"}, {"ft", "N"}, {"tilt", "rad"}, {"offset", "m"}, {"impacts", "-"}, {"active", "-"},
    {"fx", "N"}, {"fy", "N"}, {"f", "N"},      {"m", "N m"},    {NULL, NULL}};

static double guide_value(const mech_system *sys, const joint *j, int qn)
{
    if (qn == G_TILT || qn == G_OFFSET) {
        double tilt, offset;
        slider_pose(sys, j, sys->q, sys->v, &tilt, &offset);
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

const clearance_type clearance_guide = {
    .part = "slider",
    .check = guide_check,
    .ncontacts = guide_ncontacts,
    .contacts = guide_contacts,
    .misplaced = guide_misplaced,
    .ideal = guide_ideal,
    .centred = guide_centred,
    .speed = guide_speed,
    .contact_normal = guide_normal,
    .describe = guide_describe,
    .quantities = guide_q,
    .force_q = G_FX,
    .value = guide_value,
    .list_more = clearance_list_contacts,
    .other = NULL, /* its corner contacts are named "joint.c<k>_<surface>" themselves */
};
