/* SPDX-License-Identifier: MIT */
/*
** Contact elements: body a touches a surface of body b, with any normal law and any
** friction law of contact_laws.c.  Two geometries (contact_shape) share everything but
** the computation of the gap, the normal and the contact points:
**
** Point against plane: P a point of a, Q and n the surface point and unit normal of b
** (world), gap g = n.(P - Q); both bodies touch at P.
**
** Circle in circle (a journal of radius R_j on a inside a bearing of radius R_b on b, the
** revolute clearance joint of [Flores & Ambrosio 2004]): e = P_j - P_b the
** eccentricity of the centres, u = e/|e|, gap g = (R_b - R_j) - |e|; the contact points
** are P_j + R_j u on the journal and P_b + R_b u on the bearing; the bearing's normal at
** the contact, pointing to the free side, is n = -u.  At |e| = 0 (the journal centred)
** u is undefined and the contact is as far from active as it can be (g = R_b - R_j):
** u = (1, 0) is taken.
**
** Then for both: t = (n_y, -n_x) (the normal turned -90 degrees; for the journal t =
** R90 u, counter-clockwise about the bearing); the materials at the
** contact points move with v_a and v_b (plus `speed` t on b: a belt); v_rel = v_a - v_b;
** penetration d = -g, its rate dd = -n.v_rel (exactly d/dt of d: the turning of n and the
** radii drop out), slip v_t = t.v_rel.  The normal force fn n and the friction force
** ft t act on a at its contact point, their opposites on b at its own, so that their
** power is exactly -fn dd + ft v_t and the energy accounts close.
**
** History: a contact acts only while `active`.  Its onset (the gap turning negative) and
** its end are events located by the integrator; at the onset the impact velocity v0 = dd
** is captured and the bristle state reset to 0 (unless the friction law keeps its bristles,
** keep_bristles: then the contact starts from the state the last one ended with), and the
** run restarts there, so the force law never sees a penetration without its impact
** velocity.  While the contact is open the bristle state is frozen either way.
**
** Sticking friction (MECH_FRICTION_STICK, [Zheng & Wang, Eq. 13]): below v_eps the friction force
** is the one that keeps the point from sliding, computed from every other force on body a
** along t (so it needs a's tangential motion free of Lagrange constraints and b fixed:
** free bodies, bodies on a guide parallel to the surface, lumped FE nodes; for a journal
** it ignores the bearing's motion and both rotations; when a is the ground, b's forces
** are used), clamped to mu_s F_n.  Eq. 13 then jumps to the kinetic force at |v_t| = v_eps;
** here the force moves linearly from the one to the other over v_eps <= |v_t| <= 2 v_eps.
** With the jump, a point whose kinetic friction exceeds its load creeps along the band's
** edge (pushed back from outside, held inside), where an implicit step equation has no
** solution and Newton's iterates hop across; the ramp makes the force continuous in v_t
** and leaves Eq. 13 untouched inside the band and beyond 2 v_eps.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "planar_body.h"
#include "registry.h"
#include "contact.h"
#include "dim.h"

mech_contact_def mech_contact_default(void)
{
    mech_contact_def d;
    memset(&d, 0, sizeof d);
    d.normal[1] = 1;
    d.normal_law = mech_normal_default(MECH_NORMAL_HERTZ);
    d.friction = mech_friction_default(MECH_FRICTION_NONE);
    return d;
}

mech_status mech_contact_add(mech_system *sys, const mech_contact_def *d, int *id, mech_error *err)
{
    mech_status dst = system_check_dim(sys, 2, "mech_contact_add", "a planar system", err);
    if (dst) return dst;
    char name[MECH_NAME_MAX];
    mech_status st = system_take_name(sys, "contact", d->name, "contact", name, err);
    if (st || (st = system_check_body(sys, "contact", name, "body_a", d->body_a, err)) ||
        (st = system_check_body(sys, "contact", name, "body_b", d->body_b, err)))
        return st;
    if (d->body_a == MECH_GROUND)
        return mech_error_set(err, MECH_ERR_ARG,
                              "contact '%s': the touching point must be on a moving body", name);
    if (d->body_a == d->body_b)
        return mech_error_set(err, MECH_ERR_ARG, "contact '%s': body '%s' against itself", name,
                              sys->bodies[d->body_a].name);
    if (sys->bodies[d->body_b].fe >= 0)
        return mech_error_set(err, MECH_ERR_ARG,
                              "contact '%s': the surface must be on a rigid body or the ground, "
                              "not on node '%s'",
                              name, sys->bodies[d->body_b].name);
    double at[2] = {d->point[0], d->point[1]};
    if (isfinite(at[0]) && isfinite(at[1]) &&
        (st = system_node_point(sys, "contact", name, d->body_a, at, err)))
        return st;
    double len = hypot(d->normal[0], d->normal[1]);
    if (!(isfinite(d->point[0]) && isfinite(d->point[1]) && isfinite(d->surface_point[0]) &&
          isfinite(d->surface_point[1]) && isfinite(len) && len > 0 && isfinite(d->surface_speed)))
        return mech_error_set(err, MECH_ERR_ARG,
                              "contact '%s': points, normal and speed must be finite, the normal "
                              "not zero",
                              name);
    mech_error lerr;
    if (mech_normal_check(&d->normal_law, &lerr))
        return mech_error_set(err, MECH_ERR_ARG, "contact '%s': %s law: %s", name,
                              mech_normal_name(d->normal_law.type), lerr.msg);
    if (mech_friction_check(&d->friction, &lerr))
        return mech_error_set(err, MECH_ERR_ARG, "contact '%s': %s friction: %s", name,
                              mech_friction_name(d->friction.type), lerr.msg);
    if (!system_grow((void **)&sys->contacts, &sys->cap_contacts, sys->ncontacts, sizeof(contact)))
        return mech_error_set(err, MECH_ERR_NOMEM, "contact '%s': out of memory", name);
    contact *c = &sys->contacts[sys->ncontacts];
    memset(c, 0, sizeof *c);
    memcpy(c->name, name, sizeof name);
    c->a = d->body_a;
    c->b = d->body_b;
    memcpy(c->pa, at, sizeof c->pa);
    memcpy(c->qb, d->surface_point, sizeof c->qb);
    c->nb[0] = d->normal[0] / len;
    c->nb[1] = d->normal[1] / len;
    c->speed = d->surface_speed;
    c->flip = d->flip_tangent != 0;
    c->nlaw = d->normal_law;
    c->flaw = d->friction;
    c->bristle = -1;
    c->owner = -1;
    if (id) *id = sys->ncontacts;
    sys->ncontacts++;
    system_changed(sys);
    return MECH_OK;
}

/* Geometry of a contact at (q, v): the normal and tangent, the offsets of the contact
** points from the centres of a and b, the relative velocity of the materials there, the
** gap. */
typedef struct cgeom {
    double n[2], t[2], sa[2], sb[2], vrel[2], gap;
} cgeom;

static void geometry(const mech_system *sys, const contact *c, const double *q, const double *v,
                     cgeom *g)
{
    double P[2], Q[2], Pa[2], Pb[2], posea[3], vela[3], poseb[3], velb[3];
    body_point(sys, c->a, c->pa, q, v, P, NULL);
    body_point(sys, c->b, c->qb, q, v, Q, NULL);
    body_pose(sys, c->a, q, v, posea, vela);
    body_pose(sys, c->b, q, v, poseb, velb);
    if (c->shape == SHAPE_CIRCLE_IN_CIRCLE) {
        double e[2] = {P[0] - Q[0], P[1] - Q[1]}, len = hypot(e[0], e[1]);
        double u[2] = {1, 0};
        if (len > 0) u[0] = e[0] / len, u[1] = e[1] / len;
        g->n[0] = -u[0];
        g->n[1] = -u[1];
        g->gap = c->rb - c->ra - len;
        for (int k = 0; k < 2; k++) {
            Pa[k] = P[k] + c->ra * u[k];
            Pb[k] = Q[k] + c->rb * u[k];
        }
    } else {
        body_rotate(sys, c->b, q, c->nb, g->n);
        g->gap = g->n[0] * (P[0] - Q[0]) + g->n[1] * (P[1] - Q[1]);
        memcpy(Pa, P, sizeof Pa);
        memcpy(Pb, P, sizeof Pb);
    }
    g->t[0] = c->flip ? -g->n[1] : g->n[1];
    g->t[1] = c->flip ? g->n[0] : -g->n[0];
    for (int k = 0; k < 2; k++) {
        g->sa[k] = Pa[k] - posea[k];
        g->sb[k] = Pb[k] - poseb[k];
    }
    /* the materials at the contact points; the surface's may slide along t (a belt) */
    double va[2], vb[2];
    pose_point_velocity(vela, g->sa, va);
    pose_point_velocity(velb, g->sb, vb);
    g->vrel[0] = va[0] - (vb[0] + c->speed * g->t[0]);
    g->vrel[1] = va[1] - (vb[1] + c->speed * g->t[1]);
}

static void apply(mech_system *sys, const contact *c, const cgeom *g, double fn, double ft)
{
    double fx = fn * g->n[0] + ft * g->t[0], fy = fn * g->n[1] + ft * g->t[1];
    body_add_force(sys, sys->Q, c->a, g->sa, fx, fy);
    body_add_force(sys, sys->Q, c->b, g->sb, -fx, -fy);
}

int contact_forces(mech_system *sys, double t, const double *y, double *ydot, int pass)
{
    return sys->dops->contact_forces(sys, t, y, ydot, pass);
}

void planar_contact_rates(const mech_system *sys, const contact *c, const double *q,
                          const double *v, double *gap, double *dd)
{
    cgeom g;
    geometry(sys, c, q, v, &g);
    *gap = g.gap;
    *dd = -(g.n[0] * g.vrel[0] + g.n[1] * g.vrel[1]);
}

int planar_contact_frame(const mech_system *sys, const contact *c, const double *q, const double *v,
                         double p[3], double n[3], double t[3])
{
    cgeom g;
    double pose[3];
    geometry(sys, c, q, v, &g);
    body_pose(sys, c->a, q, NULL, pose, NULL);
    for (int k = 0; k < 2; k++) {
        p[k] = pose[k] + g.sa[k];
        n[k] = g.n[k];
        t[k] = g.t[k];
    }
    p[2] = n[2] = t[2] = 0;
    return 1;
}

int planar_contact_forces(mech_system *sys, double t, const double *y, double *ydot, int pass)
{
    (void)t;
    const double *q = y, *v = y + sys->nq;
    for (int k = 0; k < sys->ncontacts; k++) {
        contact *c = &sys->contacts[k];
        int stick = c->flaw.type == MECH_FRICTION_STICK;
        if (pass == 2 && !(stick && c->sticking)) continue;
        cgeom g;
        geometry(sys, c, q, v, &g);
        if (pass == 2) {
            /* the force that keeps the point from sliding: everything else on a along t
            ** (on b, with the opposite sign, when a is the ground: a fixed journal) */
            int da = sys->bodies[c->a].u_at, db = sys->bodies[c->b].u_at;
            double other = da >= 0   ? g.t[0] * sys->Q[da] + g.t[1] * sys->Q[da + 1]
                           : db >= 0 ? -(g.t[0] * sys->Q[db] + g.t[1] * sys->Q[db + 1])
                                     : 0.0;
            double limit = c->flaw.mu_s * c->fn;
            double ft = fmax(-limit, fmin(limit, -other));
            double s = fabs(c->vt) / c->flaw.v_eps - 1;   /* > 0: on the ramp */
            c->dft_dother = fabs(other) < limit ? -1 : 0; /* for BDF's Jacobian */
            if (s > 0) ft = (1 - s) * ft - s * c->flaw.mu * c->fn * (c->vt > 0 ? 1 : -1);
            if (s > 0) c->dft_dother *= 1 - s;
            c->t_stick[0] = g.t[0];
            c->t_stick[1] = g.t[1];
            c->ft = ft;
            apply(sys, c, &g, 0.0, ft);
            sys->p_friction -= ft * c->vt;
            continue;
        }
        double d = -g.gap, dd = -(g.n[0] * g.vrel[0] + g.n[1] * g.vrel[1]);
        double vt = g.t[0] * g.vrel[0] + g.t[1] * g.vrel[1];
        c->gap = g.gap;
        c->dd = dd;
        c->vt = vt;
        c->fn = c->ft = c->elastic = c->zdot = c->dft_dother = 0;
        c->sticking = 0;
        if (c->bristle >= 0) ydot[c->bristle] = 0; /* frozen out of contact */
        if (!c->active || d <= 0) continue;
        double elastic;
        double fn = mech_normal_force(&c->nlaw, d, dd, c->impact_speed, &elastic);
        double ft = 0;
        if (stick && fabs(vt) < 2 * c->flaw.v_eps) {
            c->sticking = 1; /* pass 2 sets its force */
        } else if (c->flaw.type != MECH_FRICTION_NONE) {
            double zdot = 0;
            mech_friction_force(&c->flaw, 1, &vt, fn, c->bristle >= 0 ? &y[c->bristle] : NULL, &ft,
                                c->bristle >= 0 ? &zdot : NULL);
            if (c->bristle >= 0) ydot[c->bristle] = c->zdot = zdot;
        }
        c->fn = fn;
        c->ft = ft;
        c->elastic = elastic;
        apply(sys, c, &g, fn, ft);
        sys->p_contact += (fn - elastic) * dd; /* the power the law dissipates */
        sys->p_friction -= ft * vt;
        if (sys->full_eval)
            sys->contact_energy += mech_normal_energy(&c->nlaw, d); /* read then only */
    }
    return 0;
}

double contact_gap(const mech_system *sys, int k, const double *y)
{
    double gap, dd;
    sys->dops->contact_rates(sys, &sys->contacts[k], y, y + sys->nq, &gap, &dd);
    return gap;
}

void contact_gaps(const mech_system *sys, const double *y, double *gaps)
{
    for (int k = 0; k < sys->ncontacts; k++) gaps[k] = contact_gap(sys, k, y);
}

int contact_event(mech_system *sys, int k, double t, double *y)
{
    (void)t;
    contact *c = &sys->contacts[k];
    double gap, dd;
    sys->dops->contact_rates(sys, c, y, y + sys->nq, &gap, &dd);
    if (!c->active && gap <= 0) {
        c->active = 1;
        c->impact_speed = fmax(dd, 0.0); /* the laws use max(v0, v_min) */
        c->impacts++;
        for (int i = 0;
             c->bristle >= 0 && !c->flaw.keep_bristles && i < sys->dops->contact_tangents; i++)
            y[c->bristle + i] = 0; /* fresh bristles for a new contact */
        return 1;
    }
    /* an end is located where the gap has its new sign, >= 0: exactly 0 ends it too (the
    ** next step starts from g = 0, which no crossing counts, so the contact could not end) */
    if (c->active && gap >= 0) {
        c->active = 0;
        return 1;
    }
    return 0;
}

void contact_start(mech_system *sys, double t, const double *y)
{
    (void)t;
    for (int k = 0; k < sys->ncontacts; k++) {
        contact *c = &sys->contacts[k];
        double gap, dd;
        sys->dops->contact_rates(sys, c, y, y + sys->nq, &gap, &dd);
        c->active = gap <= 0; /* touching counts: an event needs a sign change */
        c->impact_speed = c->active ? fmax(dd, 0.0) : 0.0;
        c->impacts = 0;
    }
}
