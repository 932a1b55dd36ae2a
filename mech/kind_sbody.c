/* SPDX-License-Identifier: MIT */
/*
** The body kind of a spatial system: a rigid body's position, velocity and acceleration (world
** axes, with magnitudes), its orientation as Euler parameters, as the entries of its rotation
** matrix and as Euler angles in any of the twelve sequences (intrinsic, as rotation.h defines
** them: "zyx1" is the first angle of the sequence z, y, x), its angular velocity and
** acceleration in world and in body axes, its angular momentum about its centre of mass
** (world) and its kinetic energy.
*/
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "kind.h"
#include "registry.h"
#include "rotation.h"
#include "spatial_body.h"
#include "vec3.h"

enum {
    S_X,
    S_Y,
    S_Z,
    S_R,
    S_VX,
    S_VY,
    S_VZ,
    S_V,
    S_AX,
    S_AY,
    S_AZ,
    S_A,
    S_E0,
    S_E1,
    S_E2,
    S_E3,
    S_R11,
    S_R12,
    S_R13,
    S_R21,
    S_R22,
    S_R23,
    S_R31,
    S_R32,
    S_R33,
    S_WX,
    S_WY,
    S_WZ,
    S_OMEGA,
    S_WBX,
    S_WBY,
    S_WBZ,
    S_ALX,
    S_ALY,
    S_ALZ,
    S_ALPHA,
    S_ALBX,
    S_ALBY,
    S_ALBZ,
    S_HX,
    S_HY,
    S_HZ,
    S_KINETIC,
    S_EULER /* 36 Euler angles: sequence k (rot_euler_names), angle i at S_EULER + 3 k + i */
};

#define EULER3(s)                                                                                  \
    {s "1", "rad"}, {s "2", "rad"},                                                                \
    {                                                                                              \
        s "3", "rad"                                                                               \
    }
static const quantity sbody_q[] = {{"x", "m"},
                                   {"y", "m"},
                                   {"z", "m"},
                                   {"r", "m"},
                                   {"vx", "m/s"},
                                   {"vy", "m/s"},
                                   {"vz", "m/s"},
                                   {"v", "m/s"},
                                   {"ax", "m/s^2"},
                                   {"ay", "m/s^2"},
                                   {"az", "m/s^2"},
                                   {"a", "m/s^2"},
                                   {"e0", "-"},
                                   {"e1", "-"},
                                   {"e2", "-"},
                                   {"e3", "-"},
                                   {"r11", "-"},
                                   {"r12", "-"},
                                   {"r13", "-"},
                                   {"r21", "-"},
                                   {"r22", "-"},
                                   {"r23", "-"},
                                   {"r31", "-"},
                                   {"r32", "-"},
                                   {"r33", "-"},
                                   {"wx", "rad/s"},
                                   {"wy", "rad/s"},
                                   {"wz", "rad/s"},
                                   {"omega", "rad/s"},
                                   {"wbx", "rad/s"},
                                   {"wby", "rad/s"},
                                   {"wbz", "rad/s"},
                                   {"alphax", "rad/s^2"},
                                   {"alphay", "rad/s^2"},
                                   {"alphaz", "rad/s^2"},
                                   {"alpha", "rad/s^2"},
                                   {"alphabx", "rad/s^2"},
                                   {"alphaby", "rad/s^2"},
                                   {"alphabz", "rad/s^2"},
                                   {"hx", "kg m^2/s"},
                                   {"hy", "kg m^2/s"},
                                   {"hz", "kg m^2/s"},
                                   {"kinetic", "J"},
                                   EULER3("xyz"),
                                   EULER3("xzy"),
                                   EULER3("yxz"),
                                   EULER3("yzx"),
                                   EULER3("zxy"),
                                   EULER3("zyx"),
                                   EULER3("xyx"),
                                   EULER3("xzx"),
                                   EULER3("yxy"),
                                   EULER3("yzy"),
                                   EULER3("zxz"),
                                   EULER3("zyz"),
                                   {NULL, NULL}};
#undef EULER3

static int sbody_listed(const mech_system *sys, int id)
{
    (void)sys;
    return id != MECH_GROUND;
}

static void sbody_describe(sbuf *b, const mech_system *sys, int id)
{
    const body *bd = &sys->bodies[id];
    if (id == MECH_GROUND) {
        sb_printf(b, "fixed frame");
        return;
    }
    const double *J = bd->J, *q = bd->q0, *u = bd->u0;
    sb_printf(b,
              "mass %.10g kg, inertia (%.10g, %.10g, %.10g; %.10g, %.10g, %.10g) kg m^2 (Jxx, Jyy, "
              "Jzz; Jxy, Jyz, Jzx of the tensor, body axes), at (%.10g, %.10g, %.10g) m, "
              "orientation (%.10g, %.10g, %.10g, %.10g), velocity (%.10g, %.10g, %.10g) m/s, "
              "omega (%.10g, %.10g, %.10g) rad/s",
              bd->mass, J[0], J[4], J[8], J[1] + 0.0, J[5] + 0.0, J[2] + 0.0, q[0], q[1], q[2],
              q[3], q[4], q[5], q[6], u[0], u[1], u[2], u[3], u[4], u[5]);
}

/* The ground's values: at rest at the origin, not turned. */
static double ground_value(int qn)
{
    switch (qn) {
    case S_E0:
    case S_R11:
    case S_R22:
    case S_R33: return 1;
    }
    return 0;
}

static double sbody_value(const mech_system *sys, int id, int qn)
{
    const body *bd = &sys->bodies[id];
    if (bd->q_at < 0) return ground_value(qn);
    const double *q = sys->q + bd->q_at, *u = sys->v + bd->u_at, *acc = sys->udot + bd->u_at;
    double A[9];
    spatial_rotation(q, A);
    if (qn >= S_EULER) {
        int k = (qn - S_EULER) / 3, i = (qn - S_EULER) % 3;
        double e[4] = {q[3], q[4], q[5], q[6]}, ang[3] = {NAN, NAN, NAN};
        rot_to_euler(rot_euler_names[k], e, ang, NULL, 0); /* at a singular one: one of them */
        return ang[i];
    }
    double w[3];
    switch (qn) {
    case S_X:
    case S_Y:
    case S_Z: return q[qn - S_X];
    case S_R: return vec3_norm(q);
    case S_VX:
    case S_VY:
    case S_VZ: return u[qn - S_VX];
    case S_V: return vec3_norm(u);
    case S_AX:
    case S_AY:
    case S_AZ: return acc[qn - S_AX];
    case S_A: return vec3_norm(acc);
    case S_E0:
    case S_E1:
    case S_E2:
    case S_E3: {
        double n = sqrt(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6]);
        return q[3 + qn - S_E0] / n;
    }
    case S_WX:
    case S_WY:
    case S_WZ: return u[3 + qn - S_WX];
    case S_OMEGA: return vec3_norm(u + 3);
    case S_WBX:
    case S_WBY:
    case S_WBZ: mat3t_vec(A, u + 3, w); return w[qn - S_WBX];
    case S_ALX:
    case S_ALY:
    case S_ALZ: return acc[3 + qn - S_ALX];
    case S_ALPHA: return vec3_norm(acc + 3);
    case S_ALBX:
    case S_ALBY:
    case S_ALBZ: mat3t_vec(A, acc + 3, w); return w[qn - S_ALBX];
    case S_HX:
    case S_HY:
    case S_HZ: spatial_angular_momentum(q, u, bd->J, w); return w[qn - S_HX];
    case S_KINETIC: return spatial_kinetic_energy(q, u, bd->mass, bd->J);
    }
    if (qn >= S_R11 && qn <= S_R33) return A[qn - S_R11];
    return NAN;
}

const kind_ops kind_sbody = {
    .kind = MECH_KIND_BODY,
    .label = "body",
    .listed = sbody_listed,
    .describe = sbody_describe,
    .table = sbody_q,
    .value = sbody_value,
};
