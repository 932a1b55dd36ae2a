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
#include "kind.h"
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

/* ---- channels ------------------------------------------------------------------------------ */

/* The journal's centre against the bearing's (world, then the bearing's joint frame: across the
** axis and along it), the tilt and turn of the journal in the bearing, the contacts' totals,
** then the resultant of the contacts on the journal with the ideal joint's names and layout
** (react: force and moment about the journal's anchor in world axes, then in a's joint frame;
** scontact.c fills it at every evaluation). */
enum {
    SC_EX,
    SC_EY,
    SC_EZ,
    SC_E,
    SC_EXB,
    SC_EYB,
    SC_AXIAL,
    SC_TILT,
    SC_ANGLE,
    SC_IMPACTS,
    SC_ACTIVE,
    SC_FX,
    SC_FY,
    SC_FZ,
    SC_F,
    SC_MX,
    SC_MY,
    SC_MZ,
    SC_M,
    SC_FXJ /* then fy_j .. mz_j */
};
static const quantity journal_q[] = {
    {"ex", "m"},     {"ey", "m"},    {"ez", "m"},     {"e", "m"},       {"exb", "m"},
    {"eyb", "m"},    {"axial", "m"}, {"tilt", "rad"}, {"angle", "rad"}, {"impacts", "-"},
    {"active", "-"}, {"fx", "N"},    {"fy", "N"},     {"fz", "N"},      {"f", "N"},
    {"mx", "N m"},   {"my", "N m"},  {"mz", "N m"},   {"m", "N m"},     {"fx_j", "N"},
    {"fy_j", "N"},   {"fz_j", "N"},  {"mx_j", "N m"}, {"my_j", "N m"},  {"mz_j", "N m"},
    {NULL, NULL}};

static double journal_value(const mech_system *sys, const joint *j, int qn)
{
    if (qn >= SC_FX) {
        if (qn >= SC_FXJ) return j->react[6 + qn - SC_FXJ];
        int m = qn >= SC_MX, k = qn - (m ? SC_MX : SC_FX);
        const double *r = j->react + 3 * m;
        return k == 3 ? sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]) : r[k];
    }
    if (qn == SC_IMPACTS || qn == SC_ACTIVE) {
        double sum = 0;
        for (int k = j->contact0; k < j->contact0 + j->ncontact; k++) {
            const contact *c = &sys->contacts[k];
            sum += qn == SC_IMPACTS ? (double)c->impacts : c->active;
        }
        return sum;
    }
    sframe f;
    make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, sys->q, sys->v, &f);
    if (qn <= SC_EZ) return f.d[qn - SC_EX];
    if (qn == SC_ANGLE) return frame_angle(&f, angle_track_near(&j->angle, sys->t_eval));
    double za[3], zb[3], x[3], eb[3];
    if (qn == SC_TILT) {
        mat3_col(f.Wa, 2, za);
        mat3_col(f.Wb, 2, zb);
        vec3_cross(za, zb, x);
        return atan2(vec3_norm(x), vec3_dot(za, zb));
    }
    mat3t_vec(f.Wa, f.d, eb);
    switch (qn) {
    case SC_E: return hypot(eb[0], eb[1]);
    case SC_EXB: return eb[0];
    case SC_EYB: return eb[1];
    case SC_AXIAL: return eb[2];
    }
    return NAN;
}

/* Each contact's gap and normal force, as "<contact>.gap" ("radial_a.gap"): the contacts are
** entities of their own, "<joint>.radial_a", with every channel of a contact. */
static void journal_list_more(sbuf *b, const mech_system *sys, const joint *j)
{
    (void)sys;
    (void)j;
    for (int k = 0; k < SCLEARANCE_NCONTACTS; k++) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "%s.", slot_names[k]);
        sb_list_add(b, prefix, contact_quantities[C_GAP].name);
        sb_list_add(b, prefix, contact_quantities[C_FN].name);
    }
}

/* ---- a journal out of its cavity ----------------------------------------------------------- */

int sclearance_fault(const mech_system *sys, double t, const double *y, char *why, size_t size)
{
    for (int i = 0; i < sys->njoints; i++) {
        const joint *j = &sys->joints[i];
        if (j->enforce != MECH_CLEARANCE) continue;
        if (j->type == MECH_PRISMATIC) { /* a box slider in its channel */
            if (sbox_fault(sys, j, t, y, why, size)) return 1;
            continue;
        }
        sclearance_geom sz;
        sclearance_pose p;
        sclearance_result res;
        sclearance_pose_at(sys, j, y, &sz, &p);
        sclearance_detect(&sz, &p, &res);
        /* a contact that sinks here without having begun: the step ends past an onset the
        ** integrator is about to locate, where it will be cut; the state is not the motion's */
        int pending = 0;
        for (int k = 0; k < SCLEARANCE_NCONTACTS; k++)
            pending |= res.c[k].depth > 0 && !sys->contacts[j->contact0 + k].active;
        if (pending) continue;
        for (int end = 0; end < 2; end++) {
            const sclearance_beyond *b = &res.beyond[end];
            if (!b->active) continue;
            double x[3], cosine = vec3_dot(p.ai, p.aj);
            vec3_cross(p.ai, p.aj, x);
            int n = snprintf(why, size,
                             "revolute '%s': the journal's end %c left the bearing through end "
                             "wall %c at t = %.9g s: its rim point at axial position s = %.6g m is "
                             "beyond the half length %.6g m (%.3g m from the axis, the bearing's "
                             "radius %.6g m), where no contact holds it: ",
                             j->name, end ? 'B' : 'A', end ? 'A' : 'B', t, b->s, sz.Li / 2, b->rho,
                             sz.Ri);
            if (n < 0 || (size_t)n >= size) return 1;
            const sclearance_contact *o = &res.c[end ? SCLEARANCE_AXIAL_A : SCLEARANCE_AXIAL_B];
            double half = hypot(sz.Rj, sz.Lj / 2); /* the journal's half diagonal */
            if (cosine < 0)
                snprintf(why + n, size - (size_t)n,
                         "the journal turned over, its axis %.3g rad from the bearing's%s",
                         atan2(vec3_norm(x), cosine),
                         half < sz.Ri ? " (it is short enough to tumble in its cavity: "
                                        "sqrt(Rj^2 + (Lj/2)^2) is less than the bearing's radius)"
                                      : "");
            else
                snprintf(why + n, size - (size_t)n,
                         "the journal's end %c is %.3g m into that wall (the contact law is far "
                         "too soft for the load)",
                         end ? 'A' : 'B', o->depth);
            return 1;
        }
    }
    return 0;
}

const clearance_type sclearance_journal = {
    .part = "journal",
    .misplaced = misplaced,
    .ideal = NULL, /* the spatial revolute joint's equations */
    .centred = centred,
    .speed = speed,
    .describe = describe,
    .quantities = journal_q,
    .force_q = SC_FX,
    .value = journal_value,
    .list_more = journal_list_more,
    .other = NULL, /* its contacts are named "<joint>.radial_a" ... themselves */
};
