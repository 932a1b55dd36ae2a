/* SPDX-License-Identifier: MIT */
/*
** The contacts of a spatial system: the spatial entries of the dimension table (dim.h) that
** contact.c's history, events and accounts call.  Every spatial contact belongs to a joint with
** clearance: those of a prismatic one (a box slider in a channel) are sbox_contact.c's, handed
** over by their shape; the others are the four of a revolute joint (sclearance.c): a journal
** cylinder on body a (the joint's body b) in the cavity of a bearing on body b (the joint's
** body a), [Spatial revolute paper], Eqs. (3)-(6).  sclearance_geom.c gives the contact (depth,
** normal n from the bearing surface into its wall, the points cj on the journal and ci on the
** bearing) and its kinematics (delta_dot = vrel . n, the slip vt in the tangent plane, the lever
** arms).
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
** accounts' terms.  A joint's four contacts are evaluated together: its bodies' poses and
** sclearance_detect once for the four, and the sum of the forces on the journal with their
** moment about its anchor kept as the joint's resultant (its channels, sclearance.c).  An event
** reads one contact's gap alone, through sclearance_detect_one (the same values).  Sticking
** friction: pass 1 marks the contacts slow enough to stick, pass 2 (stick_forces) gives them
** the force that holds them (a box slider's: sbox_stick_forces).
*/
#include <math.h>
#include <string.h>

#include "clearance.h"
#include "contact.h"
#include "dim.h"
#include "registry.h"
#include "sclearance_geom.h"
#include "spatial_body.h"
#include "spatial_frame.h"
#include "vec3.h"

/* A joint's two bodies at (q, v), the poses of its bearing and journal and their sizes: what
** its four contacts share, computed once per joint. */
typedef struct sjstate {
    sclearance_body journal, bearing;
    double Ai[9]; /* the bearing body's rotation */
    sclearance_pose p;
    sclearance_geom sz;
} sjstate;

/* One contact evaluated: the pair, its rates and the tangent basis. */
typedef struct sgeom {
    sclearance_contact k;
    sclearance_rates r;
    double t1[3], t2[3];
} sgeom;

/* Body b's state for sclearance_kinematics (v NULL: at rest) and its pose. */
static void body_state(const mech_system *sys, int b, const double *q, const double *v, double A[9],
                       sclearance_body *s)
{
    static const double rest[6] = {0, 0, 0, 0, 0, 0};
    sbody_pose(sys, b, q, s->r, A);
    const double *u = v ? sbody_u(sys, b, v) : rest;
    memcpy(s->v, u, 3 * sizeof(double));
    memcpy(s->w, u + 3, 3 * sizeof(double));
}

/* The journal (body b of joint j) and the bearing (its body a) at (q, v); v NULL: poses only. */
static void joint_state(const mech_system *sys, const joint *j, const double *q, const double *v,
                        sjstate *s)
{
    const contact *c = &sys->contacts[j->contact0];
    double Aj[9], w[3];
    body_state(sys, j->b, q, v, Aj, &s->journal);
    body_state(sys, j->a, q, v, s->Ai, &s->bearing);
    const double zi[3] = {j->fa[2], j->fa[5], j->fa[8]}, zj[3] = {j->fb[2], j->fb[5], j->fb[8]};
    mat3_vec(s->Ai, j->pa, w);
    vec3_add(s->bearing.r, w, s->p.Pi);
    mat3_vec(s->Ai, zi, s->p.ai);
    mat3_vec(Aj, j->pb, w);
    vec3_add(s->journal.r, w, s->p.Pj);
    mat3_vec(Aj, zj, s->p.aj);
    s->sz = (sclearance_geom){c->rb, c->lb, c->ra, c->la};
}

/* Contact k of joint j evaluated: its rates and tangent basis. */
static void contact_geometry(const joint *j, const sjstate *s, const sclearance_contact *k,
                             sgeom *g)
{
    double w[3];
    g->k = *k;
    sclearance_kinematics(&g->k, &s->journal, &s->bearing, &g->r);
    /* the tangent basis: the bearing's axis, or its frame's x axis, in the tangent plane */
    const double *n = g->k.n;
    double an = vec3_dot(s->p.ai, n);
    for (int i = 0; i < 3; i++) w[i] = s->p.ai[i] - an * n[i];
    if (vec3_norm(w) < 0.5) {
        const double xi[3] = {j->fa[0], j->fa[3], j->fa[6]};
        double x[3];
        mat3_vec(s->Ai, xi, x);
        double xn = vec3_dot(x, n);
        for (int i = 0; i < 3; i++) w[i] = x[i] - xn * n[i];
    }
    vec3_unit(w, g->t1);
    vec3_cross(n, g->t1, g->t2);
}

/* One contact alone (the events read each one's gap): its own check, not all four. */
void spatial_contact_rates(const mech_system *sys, const contact *c, const double *q,
                           const double *v, double *gap, double *dd)
{
    if (c->shape == SHAPE_BOX_CORNER || c->shape == SHAPE_BOX_WALL) { /* sbox_contact.c */
        sbox_contact_rates(sys, c, q, v, gap, dd);
        return;
    }
    sjstate s;
    joint_state(sys, &sys->joints[c->owner], q, v, &s);
    sclearance_contact k;
    sclearance_rates r;
    sclearance_detect_one(&s.sz, &s.p, c->slot, &k);
    sclearance_kinematics(&k, &s.journal, &s.bearing, &r);
    *gap = -k.depth;
    *dd = r.delta_dot;
}

/* A journal's contact: its journal point and the normal into the clearance (the force on the
** journal pushes along it); the friction's direction is not kept (t zeros).  A box slider's
** contacts have no single point. */
int spatial_contact_frame(const mech_system *sys, const contact *c, const double *q,
                          const double *v, double p[3], double n[3], double t[3])
{
    for (int i = 0; i < 3; i++) p[i] = n[i] = t[i] = 0;
    if (c->shape == SHAPE_BOX_CORNER || c->shape == SHAPE_BOX_WALL)
        return sbox_contact_frame(sys, c, q, v, p, n, t);
    sjstate s;
    sclearance_contact k;
    joint_state(sys, &sys->joints[c->owner], q, NULL, &s);
    sclearance_detect_one(&s.sz, &s.p, c->slot, &k);
    for (int i = 0; i < 3; i++) p[i] = k.cj[i], n[i] = -k.n[i];
    /* the friction's direction at the last evaluation (the scene's: its state's) */
    double len = vec3_norm(c->ft_vec);
    if (len > 0)
        for (int i = 0; i < 3; i++) t[i] = c->ft_vec[i] / len;
    return 1;
}

/* Adds the force f (world) at world offset arm from body b's centre of mass to Q. */
static void add_force(mech_system *sys, int b, const double arm[3], const double f[3])
{
    int at = sys->bodies[b].u_at;
    if (at >= 0) spatial_add_force(sys->Q + at, arm, f);
}

/* The resultant f (force, moment about the journal's anchor, world) of joint j's contacts on
** its journal, as an ideal joint's reaction (kind_sjoint.c): world axes, then a's joint frame. */
static void store_resultant(joint *j, const sjstate *s, const double f[6])
{
    double Wa[9];
    mat3_mul(s->Ai, j->fa, Wa);
    memcpy(j->react, f, 6 * sizeof(double));
    mat3t_vec(Wa, f, j->react + 6);
    mat3t_vec(Wa, f + 3, j->react + 9);
}

/* Adds f (world) at the journal's point cj, moment about Pj, to the joint's stored resultant. */
static void add_resultant(joint *j, const sjstate *s, const double cj[3], const double f[3])
{
    double arm[3], m[3], w[6], Wa[9], loc[3];
    vec3_sub(cj, s->p.Pj, arm);
    vec3_cross(arm, f, m);
    for (int i = 0; i < 3; i++) w[i] = f[i], w[3 + i] = m[i];
    mat3_mul(s->Ai, j->fa, Wa);
    for (int i = 0; i < 6; i++) j->react[i] += w[i];
    mat3t_vec(Wa, w, loc);
    for (int i = 0; i < 3; i++) j->react[6 + i] += loc[i];
    mat3t_vec(Wa, w + 3, loc);
    for (int i = 0; i < 3; i++) j->react[9 + i] += loc[i];
}

/*
** Pass 2, sticking friction (MECH_FRICTION_STICK) below 2 v_eps, as the planar contacts do it
** (contact.c's head), in the tangent plane: the tangential force that keeps the contact from
** sliding is minus every other force on the journal along t1 and t2 (on the bearing, with the
** opposite sign, when the journal is the ground), shared among the joint's sticking contacts by
** their normal forces (a journal held at both ends), its magnitude clamped to mu_s F_N; from v_eps
** to 2 v_eps it moves linearly to the kinetic force -mu F_N v_t/|v_t|.  The other forces are read
** once per joint, before any of its sticking contacts adds its own (each takes its share of the
** same load).  Exact when the journal's (or the bearing's) translation is free of Lagrange
** constraints and the other body fixed; rotations are ignored, as in the plane.
*/
int stick_share(const mech_system *sys, const joint *j, double *total, double other[3])
{
    int first = j->contact0, end = j->contact0 + j->ncontact;
    *total = 0;
    for (int i = first; i < end; i++)
        if (sys->contacts[i].sticking) *total += sys->contacts[i].fn;
    other[0] = other[1] = other[2] = 0;
    if (!(*total > 0)) return 0;
    const contact *c0 = &sys->contacts[first];
    int da = sys->bodies[c0->a].u_at, db = sys->bodies[c0->b].u_at;
    if (da >= 0 || db >= 0) {
        const double *Q = sys->Q + (da >= 0 ? da : db);
        for (int i = 0; i < 3; i++) other[i] = da >= 0 ? Q[i] : -Q[i];
    }
    return 1;
}

static void journal_stick_forces(mech_system *sys, joint *j, const double *y)
{
    const double *q = y, *v = y + sys->nq;
    int first = j->contact0, end = j->contact0 + j->ncontact;
    /* the joint's sticking contacts share the holding force by their normal forces: each
    ** alone would hold the journal against all of it */
    double total, other[3]; /* every other force on the journal, world */
    if (!stick_share(sys, j, &total, other)) return;
    sjstate s;
    joint_state(sys, j, q, v, &s);
    for (int k = first; k < end; k++) {
        contact *c = &sys->contacts[k];
        if (!c->sticking) continue;
        double share = c->fn / total;
        sclearance_contact one;
        sgeom g;
        sclearance_detect_one(&s.sz, &s.p, c->slot, &one);
        contact_geometry(j, &s, &one, &g);
        double vt[2] = {vec3_dot(g.t1, g.r.vt), vec3_dot(g.t2, g.r.vt)};
        double limit = c->flaw.mu_s * c->fn;
        double f[2] = {-share * vec3_dot(g.t1, other), -share * vec3_dot(g.t2, other)};
        double mag = hypot(f[0], f[1]);
        if (mag > limit) f[0] *= limit / mag, f[1] *= limit / mag;
        double speed = hypot(vt[0], vt[1]), r = speed / c->flaw.v_eps - 1; /* > 0: on the ramp */
        if (r > 0)
            for (int i = 0; i < 2; i++)
                f[i] = (1 - r) * f[i] - r * c->flaw.mu * c->fn * vt[i] / speed;
        double fj[3], fi[3];
        for (int i = 0; i < 3; i++) {
            fj[i] = f[0] * g.t1[i] + f[1] * g.t2[i];
            fi[i] = -fj[i];
        }
        add_force(sys, c->a, g.r.arm_j, fj);
        add_force(sys, c->b, g.r.arm_i, fi);
        add_resultant(j, &s, g.k.cj, fj);
        c->ft = hypot(f[0], f[1]);
        memcpy(c->ft_vec, fj, sizeof c->ft_vec);
        sys->p_friction -= f[0] * vt[0] + f[1] * vt[1];
    }
}

/* Pass 2: each joint's sticking contacts together (a joint's contacts share its laws), the box
** slider's by sbox_contact.c. */
static void stick_forces(mech_system *sys, const double *y)
{
    for (int k = 0; k < sys->ncontacts;) {
        const contact *c = &sys->contacts[k];
        joint *j = &sys->joints[c->owner];
        k = j->contact0 + j->ncontact;
        if (c->flaw.type != MECH_FRICTION_STICK) continue;
        if (c->shape == SHAPE_BOX_CORNER || c->shape == SHAPE_BOX_WALL)
            sbox_stick_forces(sys, j, y);
        else
            journal_stick_forces(sys, j, y);
    }
}

int spatial_contact_forces(mech_system *sys, double t, const double *y, double *ydot, int pass)
{
    (void)t;
    if (pass == 2) {
        stick_forces(sys, y);
        return 0;
    }
    const double *q = y, *v = y + sys->nq;
    sjstate s;
    sclearance_result res;
    double sum[6] = {0, 0, 0, 0, 0, 0}; /* the resultant on the journal */
    for (int k = 0; k < sys->ncontacts; k++) {
        contact *c = &sys->contacts[k];
        joint *j = &sys->joints[c->owner];
        if (c->shape == SHAPE_BOX_CORNER || c->shape == SHAPE_BOX_WALL) { /* all at once */
            sbox_contact_forces(sys, j, y, ydot);
            k = j->contact0 + j->ncontact - 1;
            continue;
        }
        if (k == j->contact0) { /* a joint's four contacts come together: its geometry once */
            joint_state(sys, j, q, v, &s);
            sclearance_detect(&s.sz, &s.p, &res);
            for (int i = 0; i < 6; i++) sum[i] = 0;
        }
        sgeom g;
        contact_geometry(j, &s, &res.c[c->slot], &g);
        double d = g.k.depth, dd = g.r.delta_dot;
        double vt[2] = {vec3_dot(g.t1, g.r.vt), vec3_dot(g.t2, g.r.vt)};
        c->gap = -d;
        c->dd = dd;
        c->vt = hypot(vt[0], vt[1]);
        c->fn = c->ft = c->elastic = c->zdot = 0;
        c->ft_vec[0] = c->ft_vec[1] = c->ft_vec[2] = 0;
        c->sticking = 0;
        if (c->bristle >= 0) ydot[c->bristle] = ydot[c->bristle + 1] = 0; /* frozen */
        if (c->active && d > 0) {
            double elastic;
            double fn = mech_normal_force(&c->nlaw, d, dd, c->impact_speed, &elastic);
            double f[2] = {0, 0}, zdot[2] = {0, 0};
            if (c->flaw.type == MECH_FRICTION_STICK && hypot(vt[0], vt[1]) < 2 * c->flaw.v_eps) {
                c->sticking = 1; /* pass 2 sets its force */
            } else if (c->flaw.type != MECH_FRICTION_NONE) {
                mech_friction_force(&c->flaw, 2, vt, fn, c->bristle >= 0 ? &y[c->bristle] : NULL, f,
                                    c->bristle >= 0 ? zdot : NULL);
                if (c->bristle >= 0) {
                    ydot[c->bristle] = zdot[0];
                    ydot[c->bristle + 1] = zdot[1];
                }
            }
            /* on the journal: -F = -F_N n + f; on the bearing: +F */
            double fj[3], fi[3], arm[3], m[3];
            for (int i = 0; i < 3; i++) {
                fj[i] = -fn * g.k.n[i] + f[0] * g.t1[i] + f[1] * g.t2[i];
                fi[i] = -fj[i];
            }
            add_force(sys, c->a, g.r.arm_j, fj);
            add_force(sys, c->b, g.r.arm_i, fi);
            vec3_sub(g.k.cj, s.p.Pj, arm);
            vec3_cross(arm, fj, m);
            for (int i = 0; i < 3; i++) sum[i] += fj[i], sum[3 + i] += m[i];
            c->fn = fn;
            c->ft = hypot(f[0], f[1]);
            for (int i = 0; i < 3; i++) c->ft_vec[i] = f[0] * g.t1[i] + f[1] * g.t2[i];
            c->zdot = hypot(zdot[0], zdot[1]);
            c->elastic = elastic;
            sys->p_contact += (fn - elastic) * dd; /* the power the law dissipates */
            sys->p_friction -= f[0] * vt[0] + f[1] * vt[1];
            if (sys->full_eval) /* read then only, as the planar contacts' */
                sys->contact_energy += mech_normal_energy(&c->nlaw, d);
        }
        if (k == j->contact0 + j->ncontact - 1) store_resultant(j, &s, sum);
    }
    return 0;
}

void sclearance_pose_at(const mech_system *sys, const joint *j, const double *q,
                        sclearance_geom *sz, sclearance_pose *p)
{
    sjstate s;
    joint_state(sys, j, q, NULL, &s);
    *sz = s.sz;
    *p = s.p;
}
