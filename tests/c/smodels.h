/* SPDX-License-Identifier: MIT */
/*
** Spatial models shared by the C tests and the benchmarks (header only).
*/
#ifndef MECH_TEST_SMODELS_H
#define MECH_TEST_SMODELS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech.h"

/* The slider-crank of [Spatial revolute paper]: its lengths; the layout is Haug's spatial
** slider-crank (Computer-Aided Kinematics and Dynamics of Mechanical Systems, 1989) turned so
** that the crank's axis is the world y axis, as the paper says (its figure was lost). */
#define SMODEL_CRANK   0.10 /* crank length [m] */
#define SMODEL_ROD     0.29 /* rod length [m] */
#define SMODEL_PIVOT_X (-0.10)
#define SMODEL_PIVOT_Z 0.12

/* out = A^T b for 3 x 3 row-major A, B (out may not alias). */
static inline void smodel_mat_tmul(const double A[9], const double B[9], double out[9])
{
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            double s = 0;
            for (int m = 0; m < 3; m++) s += A[m * 3 + i] * B[m * 3 + k];
            out[i * 3 + k] = s;
        }
}

/*
** The spatial slider-crank of [Spatial revolute paper] with ideal joints (its Tab. 1 data):
** the crank turns about the world y axis through (-0.10, 0, 0.12) on a revolute joint
** "crank_pin0", starts pointing along +z; a spherical joint "crank_rod" joins it to the rod
** (0.29 m, its body y axis along it), a universal joint "rod_slider" (cross axis 1 fixed in the
** slider along world x, axis 2 fixed in the rod normal to it and to axis 1) joins the rod to the
** slider, which slides along the world y axis on x = z = 0 in a prismatic joint "guide".
** Gravity -z.  With `driven`, the driver "motor" turns the crank at omega about the joint's
** axis (+y; omega < 0 turns it about -y, as the spec's start); without, the bodies start with
** the velocities of that motion (consistent, so the assembly keeps them) and move freely.
** Not finalized.  NULL on failure, with err filled.
*/
static inline mech_system *smodel_slider_crank(double omega, int driven, mech_error *err)
{
    const double L = SMODEL_ROD, r = SMODEL_CRANK, px = SMODEL_PIVOT_X, pz = SMODEL_PIVOT_Z;
    const double P[3] = {px, 0, pz + r}; /* the crank pin */
    const double yc = sqrt(L * L - px * px - (pz + r) * (pz + r));
    const double S[3] = {0, yc, 0}; /* the slider */
    /* the pin moves at omega x (0, 0, r) = (omega r, 0, 0) for omega along +y; the slider's
    ** speed from |S - P| = L: (S - P) . (vS - vP) = 0 */
    const double vP[3] = {omega * r, 0, 0};
    const double d[3] = {S[0] - P[0], S[1] - P[1], S[2] - P[2]};
    const double vy = d[0] * vP[0] / d[1];
    mech_system *sys;
    double g[3] = {0, 0, -9.81};
    if (mech_system_create_spatial(&sys, g, err)) return NULL;
    char why[120];
    int crank, rod, slider;
    mech_sbody_def b = mech_sbody_default();
    b.name = "crank", b.mass = 0.12;
    b.inertia[0] = 1e-4, b.inertia[1] = 1e-4, b.inertia[2] = 1e-5; /* zeta along the crank */
    b.pos[0] = px, b.pos[2] = pz + r / 2;
    if (!driven) b.omega[1] = omega, b.vel[0] = omega * r / 2;
    mech_status st = mech_sbody_add(sys, &b, &crank, err);
    b = mech_sbody_default();
    b.name = "rod", b.mass = 0.5;
    b.inertia[0] = 4e-3, b.inertia[1] = 4e-4, b.inertia[2] = 4e-3; /* eta along the rod */
    for (int k = 0; k < 3; k++) b.pos[k] = (P[k] + S[k]) / 2;
    const double xdir[3] = {1, 0, 0};
    double e[4], Arod[9];
    if (mech_quat_from_axes(1, d, 0, xdir, e, why, sizeof why)) {
        mech_system_destroy(sys);
        return NULL;
    }
    memcpy(b.quat, e, sizeof e);
    mech_quat_matrix(e, Arod);
    /* the rod's cross axis: normal to the rod and to world x */
    const double ay[3] = {Arod[1], Arod[4], Arod[7]};
    const double n2[3] = {0, ay[2], -ay[1]}; /* ay x (1, 0, 0) */
    if (!driven) {
        /* the rod's centre moves at (vP + vS) / 2; its angular velocity w = a n2 + b x (the
        ** universal joint: no turn about the rod's axis relative to the cross) solves
        ** w x d = vS - vP, two equations normal to d */
        b.vel[0] = vP[0] / 2, b.vel[1] = vy / 2;
        const double dv[3] = {-vP[0], vy, 0};
        double c1[3] = {n2[1] * d[2] - n2[2] * d[1], n2[2] * d[0] - n2[0] * d[2],
                        n2[0] * d[1] - n2[1] * d[0]};
        double c2[3] = {0, -d[2], d[1]}; /* (1, 0, 0) x d */
        double m11 = 0, m12 = 0, m22 = 0, r1 = 0, r2 = 0;
        for (int k = 0; k < 3; k++) {
            m11 += c1[k] * c1[k], m12 += c1[k] * c2[k], m22 += c2[k] * c2[k];
            r1 += c1[k] * dv[k], r2 += c2[k] * dv[k];
        }
        double det = m11 * m22 - m12 * m12, a = (r1 * m22 - r2 * m12) / det;
        double bx = (m11 * r2 - m12 * r1) / det;
        for (int k = 0; k < 3; k++) b.omega[k] = a * n2[k] + bx * xdir[k];
    }
    if (!st) st = mech_sbody_add(sys, &b, &rod, err);
    b = mech_sbody_default();
    b.name = "slider", b.mass = 0.5;
    b.inertia[0] = b.inertia[1] = b.inertia[2] = 1e-4;
    b.pos[1] = yc;
    if (!driven) b.vel[1] = vy;
    if (!st) st = mech_sbody_add(sys, &b, &slider, err);
    /* frames with z along world y: x = world x, y = -world z */
    static const double Wy[9] = {1, 0, 0, 0, 0, 1, 0, -1, 0};
    mech_sjoint_def j = mech_sjoint_default();
    j.name = "crank_pin0", j.type = MECH_REVOLUTE, j.body_a = MECH_GROUND, j.body_b = crank;
    j.pa[0] = px, j.pa[2] = pz, j.pb[2] = -r / 2;
    memcpy(j.frame_a, Wy, sizeof Wy);
    memcpy(j.frame_b, Wy, sizeof Wy); /* the crank's axes are the world's at the start */
    if (!st) st = mech_sjoint_add(sys, &j, NULL, err);
    j = mech_sjoint_default();
    j.name = "crank_rod", j.type = MECH_SPHERICAL, j.body_a = crank, j.body_b = rod;
    j.pa[2] = r / 2, j.pb[1] = -L / 2;
    if (!st) st = mech_sjoint_add(sys, &j, NULL, err);
    /* the universal joint's frame: x = world x (fixed in the slider), y = n2 (fixed in the rod) */
    double eu[4], Wu[9];
    if (mech_quat_from_axes(0, xdir, 1, n2, eu, why, sizeof why)) {
        mech_system_destroy(sys);
        return NULL;
    }
    mech_quat_matrix(eu, Wu);
    j = mech_sjoint_default();
    j.name = "rod_slider", j.type = MECH_UNIVERSAL, j.body_a = slider, j.body_b = rod;
    j.pb[1] = L / 2;
    memcpy(j.frame_a, Wu, sizeof Wu);
    smodel_mat_tmul(Arod, Wu, j.frame_b);
    if (!st) st = mech_sjoint_add(sys, &j, NULL, err);
    j = mech_sjoint_default();
    j.name = "guide", j.type = MECH_PRISMATIC, j.body_a = MECH_GROUND, j.body_b = slider;
    j.pa[1] = yc;
    memcpy(j.frame_a, Wy, sizeof Wy);
    memcpy(j.frame_b, Wy, sizeof Wy);
    if (!st) st = mech_sjoint_add(sys, &j, NULL, err);
    if (driven) {
        mech_driver_def dd = mech_driver_default();
        dd.name = "motor", dd.type = MECH_DRIVE_JOINT_ANGLE, dd.target = 0, dd.speed = omega;
        if (!st) st = mech_driver_add(sys, &dd, NULL, err);
    }
    if (st) {
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

/*
** A spatial chain of n links hanging from the ground: rods "link1" .. "linkN" of 0.1 m along
** their body x axes, 0.1 kg, joined end to end by revolute joints "j1" .. "jN" (j1 to the
** ground at the origin) whose axes alternate between the world z and y axes, so that it swings
** out of every plane; at rest along +x, gravity -z: 5 n Lagrange equations, n degrees of
** freedom.  With spherical, the joints are spherical instead (3 n equations, 3 n degrees of
** freedom).  Not finalized.  NULL on failure, with err filled.
*/
static inline mech_system *smodel_chain(int n, int spherical, mech_error *err)
{
    static const double Wy[9] = {1, 0, 0, 0, 0, 1, 0, -1, 0}; /* z along world y */
    mech_system *sys;
    double g[3] = {0, 0, -9.81}, L = 0.1, m = 0.1;
    if (mech_system_create_spatial(&sys, g, err)) return NULL;
    mech_status st = MECH_OK;
    for (int i = 1; i <= n && !st; i++) {
        char bname[24], jname[24];
        snprintf(bname, sizeof bname, "link%d", i);
        snprintf(jname, sizeof jname, "j%d", i);
        mech_sbody_def b = mech_sbody_default();
        b.name = bname, b.mass = m;
        b.inertia[0] = 1e-6, b.inertia[1] = b.inertia[2] = m * L * L / 12;
        b.pos[0] = (i - 0.5) * L;
        int id;
        st = mech_sbody_add(sys, &b, &id, err);
        mech_sjoint_def j = mech_sjoint_default();
        j.name = jname, j.type = spherical ? MECH_SPHERICAL : MECH_REVOLUTE;
        j.body_a = id - 1, j.body_b = id, j.pb[0] = -L / 2;
        if (i > 1) j.pa[0] = L / 2;
        if (i % 2 == 0) {
            memcpy(j.frame_a, Wy, sizeof Wy);
            memcpy(j.frame_b, Wy, sizeof Wy);
        }
        if (!st) st = mech_sjoint_add(sys, &j, NULL, err);
    }
    if (st) {
        mech_system_destroy(sys);
        return NULL;
    }
    return sys;
}

#endif
