/* SPDX-License-Identifier: MIT */
/*
** The contacts of a spatial prismatic joint with clearance (sbox_joint.c): a box slider on
** the joint's body b in the rectangular channel of its body a, the geometry of sbox_geom.h.
** scontact.c hands a joint's contacts here, all of them at once for the forces and one at a
** time for the events.
**
** The guide's frame from a's joint frame Wa = A_a fa (columns x, y, z; z the joint's axis):
**     X = x,  Y = z (the travel),  Z = X x Y = -y,
** its origin a's anchor; the slider's axes from b's joint frame the same way, its centre b's
** anchor.  So the slider is aligned with the channel, and centred, when the joint's frames
** coincide.
**
** The per-corner model (MECH_SBOX_CORNERS): contact 8 k + c of the joint is corner c against
** wall k, gap g_kc (< 0 a penetration d = -g_kc), its rate dd = delta_dot of the corner
** against its foot D_kc on the wall (exactly d' : sbox_geom.h), so that contact.c locates
** each corner's onset on each wall, captures its impact velocity there and restarts the run.
** The force on the slider F = F_N n_k + f acts at the corner, -F on the guide at the foot:
**   F_N  the normal law at (d, dd, the impact speed captured at this contact's onset);
**   f    the friction law (mech_friction_force, dim 2) at the corner's slip v_t, in the wall's
**        basis fixed to the guide, (Y, Z) on the x walls and (Y, X) on the z walls, so that a
**        Dahl or LuGre law's two bristle states per contact keep their directions; the stick
**        law below 2 v_eps marks the contact sticking and pass 2 (sbox_stick_forces, at the
**        end of this file) gives it its share of the force that holds the slider.
** The power on the two bodies is F . vrel = -F_N dd + f . v_t, the accounts' terms.  The
** joint's geometry (both bodies' poses, the eight corners, the 32 gaps) is computed once per
** evaluation; the joint keeps per wall the mode (by the corners in), the deepest corner's
** penetration, the sum of the normal forces and the resultant of the friction forces, and the
** resultant of every force on the slider about its anchor, with the ideal joint's layout.
*/
#include <math.h>
#include <string.h>

#include "clearance.h"
#include "contact.h"
#include "registry.h"
#include "sbox_geom.h"
#include "sbox_law.h"
#include "spatial_body.h"
#include "spatial_frame.h"
#include "vec3.h"

/* Body b's state for the kinematics (v NULL: at rest) and its rotation. */
static void body_state(const mech_system *sys, int b, const double *q, const double *v, double A[9],
                       sbox_body *s)
{
    static const double rest[6] = {0, 0, 0, 0, 0, 0};
    sbody_pose(sys, b, q, s->r, A);
    const double *u = v ? sbody_u(sys, b, v) : rest;
    memcpy(s->v, u, 3 * sizeof(double));
    memcpy(s->w, u + 3, 3 * sizeof(double));
}

/* The axes (X, Y, Z) = (x, z, -y) of the joint frame W = A f, as the columns of out. */
static void box_axes(const double A[9], const double f[9], double out[9])
{
    double W[9];
    mat3_mul(A, f, W);
    for (int i = 0; i < 3; i++) {
        out[3 * i] = W[3 * i];
        out[3 * i + 1] = W[3 * i + 2];
        out[3 * i + 2] = -W[3 * i + 1];
    }
}

void sbox_pose_at(const mech_system *sys, const joint *j, const double *q, const double *v,
                  sbox_geom *g, sbox_pose *p, sbox_body *slider, sbox_body *guide)
{
    double As[9], Ag[9], G[9], w[3];
    body_state(sys, j->b, q, v, As, slider);
    body_state(sys, j->a, q, v, Ag, guide);
    mat3_vec(Ag, j->pa, w);
    vec3_add(guide->r, w, p->O);
    box_axes(Ag, j->fa, G);
    for (int i = 0; i < 3; i++) {
        p->X[i] = G[3 * i];
        p->Y[i] = G[3 * i + 1];
        p->Z[i] = G[3 * i + 2];
    }
    mat3_vec(As, j->pb, w);
    vec3_add(slider->r, w, p->P);
    box_axes(As, j->fb, p->R);
    *g = (sbox_geom){j->box.Wx, j->box.Wz, j->box.hx, j->box.hy, j->box.hz};
}

/* The wall k's tangent basis, fixed to the guide: (Y, Z) on the x walls, (Y, X) on the z walls. */
static void wall_basis(const sbox_pose *p, int k, double t1[3], double t2[3])
{
    memcpy(t1, p->Y, 3 * sizeof(double));
    memcpy(t2, k < SBOX_ZPOS ? p->Z : p->X, 3 * sizeof(double));
}

void sbox_contact_rates(const mech_system *sys, const contact *c, const double *q, const double *v,
                        double *gap, double *dd)
{
    const joint *j = &sys->joints[c->owner];
    sbox_geom g;
    sbox_pose p;
    sbox_body slider, guide;
    sbox_pose_at(sys, j, q, v, &g, &p, &slider, &guide);
    int k = c->slot / 8, corner = c->slot % 8;
    double n[3], pc[3], foot[3];
    if (c->shape == SHAPE_BOX_WALL) { /* the deepest corner, the lowest index on a tie */
        double gaps[8];
        k = c->slot;
        corner = 0;
        sbox_face_gaps(&g, &p, k, n, gaps);
        for (int i = 1; i < 8; i++)
            if (gaps[i] < gaps[corner]) corner = i;
    }
    *gap = sbox_corner_gap(&g, &p, k, corner, n);
    sbox_corner(&g, &p, corner, pc);
    for (int i = 0; i < 3; i++) foot[i] = pc[i] - *gap * n[i];
    sbox_rates r;
    sbox_point_kinematics(pc, foot, n, &slider, &guide, &r);
    *dd = r.delta_dot;
}

/* Adds the force f (world) at world offset arm from body b's centre of mass to Q. */
static void add_force(mech_system *sys, int b, const double arm[3], const double f[3])
{
    int at = sys->bodies[b].u_at;
    if (at >= 0) spatial_add_force(sys->Q + at, arm, f);
}

/* The resultant sum (force, moment about the slider's anchor P, world) into the joint's
** reaction: world axes, then a's joint frame. */
static void store_resultant(mech_system *sys, joint *j, const double *q, const double sum[6])
{
    double r[3], A[9], Wa[9];
    sbody_pose(sys, j->a, q, r, A);
    mat3_mul(A, j->fa, Wa);
    memcpy(j->react, sum, 6 * sizeof(double));
    mat3t_vec(Wa, sum, j->react + 6);
    mat3t_vec(Wa, sum + 3, j->react + 9);
}

/* The wall's tangent basis in the slider's coordinates. */
static void slider_basis(const sbox_pose *p, const double t1[3], const double t2[3], double e1[3],
                         double e2[3])
{
    mat3t_vec(p->R, t1, e1);
    mat3t_vec(p->R, t2, e2);
}

/* The friction law of contact ct at the slip vt (wall axes) under fn into f, its bristle rates
** into ydot; the stick law below 2 v_eps marks the contact sticking, its force left to pass 2
** (sbox_stick_forces). */
static void friction(contact *ct, const double *y, double *ydot, const double vt[2], double fn,
                     double f[2], double zdot[2])
{
    f[0] = f[1] = zdot[0] = zdot[1] = 0;
    if (ct->flaw.type == MECH_FRICTION_NONE) return;
    if (ct->flaw.type == MECH_FRICTION_STICK && hypot(vt[0], vt[1]) < 2 * ct->flaw.v_eps) {
        ct->sticking = 1;
        return;
    }
    mech_friction_force(&ct->flaw, 2, vt, fn, ct->bristle >= 0 ? &y[ct->bristle] : NULL, f,
                        ct->bristle >= 0 ? zdot : NULL);
    if (ct->bristle >= 0) {
        ydot[ct->bristle] = zdot[0];
        ydot[ct->bristle + 1] = zdot[1];
    }
}

/*
** The area models: contact k is the slider against wall k.  Its gap is the deepest corner's and
** its rate that corner's (so the onset and the impact speed are the deepest corner's); the
** force F = F_N n + f acts at the pressure centre c of the overlap (sbox_section.pcentre: the
** centre of a pressure that grows as the local depth, a point of both bodies), F_N = k delta,
** f the friction law at c's slip.  The centre, not the patch's centroid: on an edge or a face
** the centroid's moment jumps from nothing (the whole edge in) to F times half the edge (one
** corner in) as the slider rocks through less than delta / length, a stiff non-smooth rocking
** that explicit methods step through at 1e-7 s; the pressure centre moves with the tilt, like
** a row of springs.  The power on the bodies is F . vrel at c, -F_N dc + f . v_t with dc the
** normal rate of c.  Damped, F_N = k delta (1 + 3 (1 - e^2)/4 dc / v0), clamped >= 0: at c's
** rate, which is continuous (the deepest corner changes as a slider rocks on a face, and its
** rate with it), and so that the law dissipates (F_N - k delta) dc >= 0; at the onset the
** overlap is the deepest corner and dc its rate.  The law stores V (sbox_law.h), in a full
** evaluation.
*/
static void wall_forces(mech_system *sys, joint *j, const double *y, double *ydot,
                        const sbox_geom *g, const sbox_pose *p, const sbox_body *slider,
                        const sbox_body *guide, double sum[6])
{
    joint_box *box = &j->box;
    const double h[3] = {g->hx, g->hy, g->hz};
    const sbox_law law = {box->model, {box->E[0], box->E[1]}, {box->nu[0], box->nu[1]}};
    for (int k = 0; k < SBOX_NFACES; k++) {
        contact *ct = &sys->contacts[j->contact0 + k];
        double n[3], m[3], off, t1[3], t2[3], e1[3], e2[3];
        sbox_face_terms(g, p, k, n, m, &off);
        wall_basis(p, k, t1, t2);
        slider_basis(p, t1, t2, e1, e2);
        sbox_section sec;
        sbox_face f;
        sbox_cut(h, m, off, &sec);
        sbox_face_from_section(h, m, &sec, &f);
        int xwall = k < SBOX_ZPOS;
        double stiff = sbox_law_stiffness(&law, h, m, &sec, &f, e1, e2, xwall);
        /* the deepest corner's rate, and the pressure centre's kinematics */
        double pc[3], foot[3], cw[3];
        sbox_corner(g, p, sec.deepest, pc);
        for (int i = 0; i < 3; i++) foot[i] = pc[i] - sec.gap[sec.deepest] * n[i];
        mat3_vec(p->R, sec.pcentre, cw);
        vec3_add(p->P, cw, cw);
        sbox_rates rc, rn;
        sbox_point_kinematics(pc, foot, n, slider, guide, &rc);
        sbox_point_kinematics(cw, cw, n, slider, guide, &rn);
        double d = f.delta_max, dd = rc.delta_dot;
        double vt[2] = {vec3_dot(t1, rn.vt), vec3_dot(t2, rn.vt)};
        box->mode[k] = f.mode;
        box->pen[k] = d;
        box->area[k] = f.cut_area;
        box->k[k] = stiff;
        box->fn[k] = box->ft[k] = 0;
        memset(box->ftv[k], 0, sizeof box->ftv[k]);
        ct->gap = -d;
        ct->dd = dd;
        ct->vt = hypot(vt[0], vt[1]);
        ct->fn = ct->ft = ct->elastic = ct->zdot = 0;
        memset(ct->ft_vec, 0, sizeof ct->ft_vec);
        ct->sticking = 0;
        if (ct->bristle >= 0) ydot[ct->bristle] = ydot[ct->bristle + 1] = 0; /* frozen */
        if (!ct->active || d <= 0) continue;
        double elastic = stiff * d, fn = elastic;
        if (box->damped) {
            double v0 = fmax(ct->impact_speed, box->v_min);
            fn = fmax(0.0, elastic * (1 + 0.75 * (1 - box->e * box->e) * rn.delta_dot / v0));
        }
        double fr[2], zdot[2];
        friction(ct, y, ydot, vt, fn, fr, zdot);
        double fs[3], fg[3], arm[3], mom[3];
        for (int i = 0; i < 3; i++) {
            fs[i] = fn * n[i] + fr[0] * t1[i] + fr[1] * t2[i];
            fg[i] = -fs[i];
        }
        add_force(sys, ct->a, rn.arm_s, fs);
        add_force(sys, ct->b, rn.arm_g, fg);
        vec3_sub(cw, p->P, arm);
        vec3_cross(arm, fs, mom);
        for (int i = 0; i < 3; i++) sum[i] += fs[i], sum[3 + i] += mom[i];
        ct->fn = fn;
        ct->ft = hypot(fr[0], fr[1]);
        ct->zdot = hypot(zdot[0], zdot[1]);
        ct->elastic = elastic;
        box->fn[k] = fn;
        box->ft[k] = ct->ft;
        for (int i = 0; i < 3; i++) box->ftv[k][i] = fr[0] * t1[i] + fr[1] * t2[i];
        memcpy(ct->ft_vec, box->ftv[k], sizeof ct->ft_vec);
        sys->p_contact += (fn - elastic) * rn.delta_dot; /* the power the law dissipates */
        sys->p_friction -= fr[0] * vt[0] + fr[1] * vt[1];
        if (sys->full_eval && !sys->skip_costly_energy)
            sys->contact_energy += sbox_law_energy(&law, h, m, off, e1, e2, xwall);
    }
}

void sbox_contact_forces(mech_system *sys, joint *j, const double *y, double *ydot)
{
    const double *q = y, *v = y + sys->nq;
    sbox_geom g;
    sbox_pose p;
    sbox_body slider, guide;
    sbox_pose_at(sys, j, q, v, &g, &p, &slider, &guide);
    if (j->box.model != MECH_SBOX_CORNERS) {
        double sum[6] = {0, 0, 0, 0, 0, 0};
        wall_forces(sys, j, y, ydot, &g, &p, &slider, &guide, sum);
        store_resultant(sys, j, q, sum);
        return;
    }
    double corner[8][3], sum[6] = {0, 0, 0, 0, 0, 0};
    for (int c = 0; c < 8; c++) sbox_corner(&g, &p, c, corner[c]);
    joint_box *box = &j->box;
    for (int k = 0; k < SBOX_NFACES; k++) {
        double n[3], gap[8], t1[3], t2[3], ft[3] = {0, 0, 0};
        sbox_face_gaps(&g, &p, k, n, gap);
        wall_basis(&p, k, t1, t2);
        int nin = 0;
        double dmax = -INFINITY;
        box->fn[k] = 0;
        for (int c = 0; c < 8; c++) {
            contact *ct = &sys->contacts[j->contact0 + 8 * k + c];
            nin += gap[c] < 0;
            dmax = fmax(dmax, -gap[c]);
            double foot[3];
            for (int i = 0; i < 3; i++) foot[i] = corner[c][i] - gap[c] * n[i];
            sbox_rates r;
            sbox_point_kinematics(corner[c], foot, n, &slider, &guide, &r);
            double d = -gap[c], dd = r.delta_dot;
            double vt[2] = {vec3_dot(t1, r.vt), vec3_dot(t2, r.vt)};
            ct->gap = gap[c];
            ct->dd = dd;
            ct->vt = hypot(vt[0], vt[1]);
            ct->fn = ct->ft = ct->elastic = ct->zdot = 0;
            memset(ct->ft_vec, 0, sizeof ct->ft_vec);
            ct->sticking = 0;
            if (ct->bristle >= 0) ydot[ct->bristle] = ydot[ct->bristle + 1] = 0; /* frozen */
            if (!ct->active || d <= 0) continue;
            double elastic;
            double fn = mech_normal_force(&ct->nlaw, d, dd, ct->impact_speed, &elastic);
            double f[2], zdot[2];
            friction(ct, y, ydot, vt, fn, f, zdot);
            /* on the slider at the corner: F = F_N n + f; on the guide at the foot: -F */
            double fs[3], fg[3], arm[3], m[3];
            for (int i = 0; i < 3; i++) {
                double fr = f[0] * t1[i] + f[1] * t2[i];
                fs[i] = fn * n[i] + fr;
                fg[i] = -fs[i];
                ft[i] += fr;
                ct->ft_vec[i] = fr;
            }
            add_force(sys, ct->a, r.arm_s, fs);
            add_force(sys, ct->b, r.arm_g, fg);
            vec3_sub(corner[c], p.P, arm);
            vec3_cross(arm, fs, m);
            for (int i = 0; i < 3; i++) sum[i] += fs[i], sum[3 + i] += m[i];
            ct->fn = fn;
            ct->ft = hypot(f[0], f[1]);
            ct->zdot = hypot(zdot[0], zdot[1]);
            ct->elastic = elastic;
            box->fn[k] += fn;
            sys->p_contact += (fn - elastic) * dd; /* the power the law dissipates */
            sys->p_friction -= f[0] * vt[0] + f[1] * vt[1];
            if (sys->full_eval) /* read then only, as the planar contacts' */
                sys->contact_energy += mech_normal_energy(&ct->nlaw, d);
        }
        box->mode[k] = nin == 0   ? SBOX_NONE
                       : nin == 1 ? SBOX_CORNER
                       : nin == 2 ? SBOX_EDGE
                       : nin <= 4 ? SBOX_FACE
                                  : SBOX_THROUGH;
        box->pen[k] = dmax;
        box->ft[k] = vec3_norm(ft);
        memcpy(box->ftv[k], ft, sizeof ft);
        box->area[k] = box->k[k] = 0;
    }
    store_resultant(sys, j, q, sum);
}

/* ---- sticking friction ------------------------------------------------------------------------
 */

/* Contact ct's point on the slider ps, the guide's point pg and the wall's normal n, as pass 1
** takes them: a corner and its foot on the wall, or the overlap's pressure centre (a point of
** both bodies). */
static void contact_point(const sbox_geom *g, const sbox_pose *p, const contact *ct, double ps[3],
                          double pg[3], double n[3])
{
    if (ct->shape == SHAPE_BOX_CORNER) {
        int corner = ct->slot % 8;
        double gap = sbox_corner_gap(g, p, ct->slot / 8, corner, n);
        sbox_corner(g, p, corner, ps);
        for (int i = 0; i < 3; i++) pg[i] = ps[i] - gap * n[i];
        return;
    }
    const double h[3] = {g->hx, g->hy, g->hz};
    double m[3], off;
    sbox_section sec;
    sbox_face_terms(g, p, ct->slot, n, m, &off);
    sbox_cut(h, m, off, &sec);
    mat3_vec(p->R, sec.pcentre, ps);
    vec3_add(p->P, ps, ps);
    memcpy(pg, ps, 3 * sizeof(double));
}

int sbox_contact_frame(const mech_system *sys, const contact *c, const double *q, const double *v,
                       double p[3], double n[3], double t[3])
{
    sbox_geom g;
    sbox_pose pose;
    sbox_body slider, guide;
    double pg[3];
    sbox_pose_at(sys, &sys->joints[c->owner], q, v, &g, &pose, &slider, &guide);
    contact_point(&g, &pose, c, p, pg, n);
    double len = vec3_norm(c->ft_vec);
    for (int i = 0; i < 3; i++) t[i] = len > 0 ? c->ft_vec[i] / len : 0;
    return 1;
}

/* Adds sum (force, moment about the slider's anchor, world) to the joint's stored resultant. */
static void add_resultant(mech_system *sys, joint *j, const double *q, const double sum[6])
{
    double r[3], A[9], Wa[9], loc[6];
    sbody_pose(sys, j->a, q, r, A);
    mat3_mul(A, j->fa, Wa);
    mat3t_vec(Wa, sum, loc);
    mat3t_vec(Wa, sum + 3, loc + 3);
    for (int i = 0; i < 6; i++) j->react[i] += sum[i], j->react[6 + i] += loc[i];
}

/*
** Pass 2, sticking friction (MECH_FRICTION_STICK, [Zheng & Wang, Eq. 13]) below 2 v_eps, as the
** revolute joint's (scontact.c) and the planar contacts' (contact.c's head): the friction force
** that keeps a sticking contact from sliding is minus every other force on the slider (on the
** guide, with the opposite sign, when the slider is the ground), read once before any sticking
** contact adds its own, along the wall's axes t1, t2 (fixed to the guide, as pass 1's);
** shared among the joint's sticking contacts by their normal forces (a slider on its four
** corners, or on two walls), its magnitude clamped to mu_s F_N; from v_eps to 2 v_eps it moves
** linearly to the kinetic force -mu F_N v_t/|v_t|.  It acts at the contact's point, the corner
** or the overlap's pressure centre, and adds to the wall's friction resultant and the joint's.
** Exact when the slider's translation is free of Lagrange constraints and the guide fixed, and the
** load to hold lies in every sticking contact's wall plane (the travel Y is in all of them; a
** lateral load along X is held by the z walls' contacts alone, and so only in part when an x
** wall's contacts stick too); rotations are ignored, as in the plane.
*/
void sbox_stick_forces(mech_system *sys, joint *j, const double *y)
{
    const double *q = y, *v = y + sys->nq;
    int first = j->contact0, end = j->contact0 + j->ncontact;
    double total, other[3]; /* every other force on the slider, world */
    if (!stick_share(sys, j, &total, other)) return;
    sbox_geom g;
    sbox_pose p;
    sbox_body slider, guide;
    sbox_pose_at(sys, j, q, v, &g, &p, &slider, &guide);
    joint_box *box = &j->box;
    double sum[6] = {0, 0, 0, 0, 0, 0};
    int walls = 0; /* bit k: wall k's friction resultant changed */
    for (int k = first; k < end; k++) {
        contact *ct = &sys->contacts[k];
        if (!ct->sticking) continue;
        int wall = ct->shape == SHAPE_BOX_WALL ? ct->slot : ct->slot / 8;
        double ps[3], pg[3], n[3], t1[3], t2[3];
        contact_point(&g, &p, ct, ps, pg, n);
        wall_basis(&p, wall, t1, t2);
        sbox_rates r;
        sbox_point_kinematics(ps, pg, n, &slider, &guide, &r);
        double vt[2] = {vec3_dot(t1, r.vt), vec3_dot(t2, r.vt)}, share = ct->fn / total;
        double limit = ct->flaw.mu_s * ct->fn;
        double f[2] = {-share * vec3_dot(t1, other), -share * vec3_dot(t2, other)};
        double mag = hypot(f[0], f[1]);
        if (mag > limit) f[0] *= limit / mag, f[1] *= limit / mag;
        double speed = hypot(vt[0], vt[1]), s = speed / ct->flaw.v_eps - 1; /* > 0: the ramp */
        if (s > 0)
            for (int i = 0; i < 2; i++)
                f[i] = (1 - s) * f[i] - s * ct->flaw.mu * ct->fn * vt[i] / speed;
        double fs[3], fg[3], arm[3], m[3];
        for (int i = 0; i < 3; i++) {
            fs[i] = f[0] * t1[i] + f[1] * t2[i];
            fg[i] = -fs[i];
        }
        add_force(sys, ct->a, r.arm_s, fs);
        add_force(sys, ct->b, r.arm_g, fg);
        vec3_sub(ps, p.P, arm);
        vec3_cross(arm, fs, m);
        for (int i = 0; i < 3; i++) {
            sum[i] += fs[i], sum[3 + i] += m[i];
            box->ftv[wall][i] += fs[i];
        }
        walls |= 1 << wall;
        ct->ft = hypot(f[0], f[1]);
        memcpy(ct->ft_vec, fs, sizeof ct->ft_vec);
        sys->p_friction -= f[0] * vt[0] + f[1] * vt[1];
    }
    for (int k = 0; k < SBOX_NFACES; k++)
        if (walls & 1 << k) box->ft[k] = vec3_norm(box->ftv[k]);
    add_resultant(sys, j, q, sum);
}
