/* SPDX-License-Identifier: MIT */
/*
** The contacts of a spatial system: the spatial entries of the dimension table (dim.h) that
** contact.c's history, events and accounts call.  Every spatial contact is one of the four of
** a revolute joint with clearance (sclearance.c): a journal cylinder on body a (the joint's
** body b) in the cavity of a bearing on body b (the joint's body a), [Spatial revolute paper],
** Eqs. (3)-(6).  sclearance_geom.c gives the contact (depth, normal n from the bearing surface
** into its wall, the points cj on the journal and ci on the bearing) and its kinematics
** (delta_dot = vrel . n, the slip vt in the tangent plane, the lever arms).
**
** The gap is -depth and the penetration rate dd = delta_dot, so that contact.c locates the
** onset (gap turning negative), captures the impact velocity there and restarts the run,
** exactly as for a planar contact.  The force F = F_N n + F_F acts as -F on the journal at cj
** and +F on the bearing at ci, with its moments about the centres of mass:
**   F_N   any normal law of contact_laws.c at the penetration d = depth, its rate dd and the
**         impact velocity captured at this contact's onset;
**   F_F   -(the friction force on the journal) from mech_friction_force with dim = 2, in the
**         tangent basis (t1, t2) = (unit(ai - (ai.n) n), n x t1), ai the bearing's axis (for
**         an axial contact n = +-ai, and the bearing frame's x axis takes ai's place), so that
**         the basis turns with the bearing and the two bristle states of a Dahl or LuGre law
**         (kept per contact) stay meaningful through a contact.
** The power on the two bodies is -F_N dd + f.vt (f the friction on the journal), exactly the
** accounts' terms.  Sticking friction (it needs the trial-and-error pass 2) is planar only:
** the constructor refuses it, and pass 2 does nothing here.
*/
#include <math.h>
#include <string.h>

#include "contact.h"
#include "dim.h"
#include "registry.h"
#include "sclearance_geom.h"
#include "spatial_body.h"
#include "spatial_frame.h"
#include "vec3.h"

/* One contact evaluated: the pair, its rates and the tangent basis. */
typedef struct sgeom {
    sclearance_contact k;
    sclearance_rates r;
    double t1[3], t2[3];
} sgeom;

/* Body b's state for sclearance_kinematics and its pose. */
static void body_state(const mech_system *sys, int b, const double *q, const double *v, double A[9],
                       sclearance_body *s)
{
    sbody_pose(sys, b, q, s->r, A);
    const double *u = sbody_u(sys, b, v);
    memcpy(s->v, u, 3 * sizeof(double));
    memcpy(s->w, u + 3, 3 * sizeof(double));
}

static void sgeometry(const mech_system *sys, const contact *c, const double *q, const double *v,
                      sgeom *g)
{
    const joint *j = &sys->joints[c->owner];
    double Aj[9], Ai[9], w[3];
    sclearance_body journal, bearing;
    body_state(sys, c->a, q, v, Aj, &journal);
    body_state(sys, c->b, q, v, Ai, &bearing);
    sclearance_pose p;
    const double zi[3] = {j->fa[2], j->fa[5], j->fa[8]}, zj[3] = {j->fb[2], j->fb[5], j->fb[8]};
    mat3_vec(Ai, j->pa, w);
    vec3_add(bearing.r, w, p.Pi);
    mat3_vec(Ai, zi, p.ai);
    mat3_vec(Aj, j->pb, w);
    vec3_add(journal.r, w, p.Pj);
    mat3_vec(Aj, zj, p.aj);
    const sclearance_geom sz = {c->rb, c->lb, c->ra, c->la};
    sclearance_result res;
    sclearance_detect(&sz, &p, &res);
    g->k = res.c[c->slot];
    sclearance_kinematics(&g->k, &journal, &bearing, &g->r);
    /* the tangent basis: the bearing's axis, or its frame's x axis, in the tangent plane */
    const double *n = g->k.n;
    double an = vec3_dot(p.ai, n);
    for (int i = 0; i < 3; i++) w[i] = p.ai[i] - an * n[i];
    if (vec3_norm(w) < 0.5) {
        const double xi[3] = {j->fa[0], j->fa[3], j->fa[6]};
        double x[3];
        mat3_vec(Ai, xi, x);
        double xn = vec3_dot(x, n);
        for (int i = 0; i < 3; i++) w[i] = x[i] - xn * n[i];
    }
    vec3_unit(w, g->t1);
    vec3_cross(n, g->t1, g->t2);
}

void spatial_contact_rates(const mech_system *sys, const contact *c, const double *q,
                           const double *v, double *gap, double *dd)
{
    sgeom g;
    sgeometry(sys, c, q, v, &g);
    *gap = -g.k.depth;
    *dd = g.r.delta_dot;
}

/* Adds the force f (world) at world offset arm from body b's centre of mass to Q. */
static void add_force(mech_system *sys, int b, const double arm[3], const double f[3])
{
    int at = sys->bodies[b].u_at;
    if (at >= 0) spatial_add_force(sys->Q + at, arm, f);
}

int spatial_contact_forces(mech_system *sys, double t, const double *y, double *ydot, int pass)
{
    (void)t;
    if (pass == 2) return 0; /* no sticking friction in space */
    const double *q = y, *v = y + sys->nq;
    for (int k = 0; k < sys->ncontacts; k++) {
        contact *c = &sys->contacts[k];
        sgeom g;
        sgeometry(sys, c, q, v, &g);
        double d = g.k.depth, dd = g.r.delta_dot;
        double vt[2] = {vec3_dot(g.t1, g.r.vt), vec3_dot(g.t2, g.r.vt)};
        c->gap = -d;
        c->dd = dd;
        c->vt = hypot(vt[0], vt[1]);
        c->fn = c->ft = c->elastic = c->zdot = 0;
        c->sticking = 0;
        if (c->bristle >= 0) ydot[c->bristle] = ydot[c->bristle + 1] = 0; /* frozen */
        if (!c->active || d <= 0) continue;
        double elastic;
        double fn = mech_normal_force(&c->nlaw, d, dd, c->impact_speed, &elastic);
        double f[2] = {0, 0}, zdot[2] = {0, 0};
        if (c->flaw.type != MECH_FRICTION_NONE) {
            mech_friction_force(&c->flaw, 2, vt, fn, c->bristle >= 0 ? &y[c->bristle] : NULL, f,
                                c->bristle >= 0 ? zdot : NULL);
            if (c->bristle >= 0) {
                ydot[c->bristle] = zdot[0];
                ydot[c->bristle + 1] = zdot[1];
            }
        }
        /* on the journal: -F = -F_N n + f; on the bearing: +F */
        double fj[3], fi[3];
        for (int i = 0; i < 3; i++) {
            fj[i] = -fn * g.k.n[i] + f[0] * g.t1[i] + f[1] * g.t2[i];
            fi[i] = -fj[i];
        }
        add_force(sys, c->a, g.r.arm_j, fj);
        add_force(sys, c->b, g.r.arm_i, fi);
        c->fn = fn;
        c->ft = hypot(f[0], f[1]);
        c->zdot = hypot(zdot[0], zdot[1]);
        c->elastic = elastic;
        sys->p_contact += (fn - elastic) * dd; /* the power the law dissipates */
        sys->p_friction -= f[0] * vt[0] + f[1] * vt[1];
        sys->contact_energy += mech_normal_energy(&c->nlaw, d);
    }
    return 0;
}
