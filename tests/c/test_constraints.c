/* SPDX-License-Identifier: MIT */
/*
** Constraint equations against finite differences: for every joint type and driver type,
** at random poses and velocities,
**   - the Jacobian rows equal central differences of Phi in each coordinate,
**   - Phi_t equals the central difference of Phi in time,
**   - Phi'' along q(t) = q + v t + a t^2 / 2 (a second difference) equals Phi_q a - gamma.
** Step sizes: h = 1e-6 for first differences (truncation ~ h^2 |Phi'''| ~ 1e-12, rounding
** ~ eps |Phi| / h ~ 1e-10) and h = 1e-4 for the second difference (truncation ~ h^2 ~
** 1e-8, rounding ~ eps / h^2 ~ 1e-8): tolerances 1e-7 and 1e-5 (relative to O(1) values)
** leave margin without hiding a wrong term, which would be O(1).
** And each joint type's entry of the table (joint_type.h) against its equations.
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mech.h"
#include "constraints.h"
#include "planar_body.h"
#include "registry.h"
#include "tap.h"

static double motion_c[4] = {0.3, 1.7, -0.8, 0.25};

/* value = c0 + c1 t + c2 t^2 + c3 sin(3 t) */
static int motion(void *ud, double t, double out[3])
{
    (void)ud;
    const double *c = motion_c;
    out[0] = c[0] + c[1] * t + c[2] * t * t + c[3] * sin(3 * t);
    out[1] = c[1] + 2 * c[2] * t + 3 * c[3] * cos(3 * t);
    out[2] = 2 * c[2] - 9 * c[3] * sin(3 * t);
    return 0;
}

static unsigned long rng = 12345;
static double urand(double lo, double hi)
{
    rng = rng * 6364136223846793005UL + 1442695040888963407UL;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

/* Equations of entity (joint j or driver d) at (q, v, t) into rows; returns the count. */
static int eval(mech_system *sys, int is_driver, int id, const double *q, const double *v, double t,
                crow *rows)
{
    if (is_driver) {
        driver_motion(sys, &sys->drivers[id], t);
        driver_eval(sys, &sys->drivers[id], q, v, rows);
        return 1;
    }
    joint_eval(sys, &sys->joints[id], q, v, rows);
    return sys->joints[id].neq;
}

static void check(mech_system *sys, int is_driver, int id, const char *what)
{
    int n = mech_system_ncoord(sys);
    double q[6], v[6], a[6], qp[6], qm[6];
    double worst_j = 0, worst_t = 0, worst_g = 0;
    for (int trial = 0; trial < 20; trial++) {
        for (int i = 0; i < n; i++) {
            q[i] = urand(-1, 1);
            v[i] = urand(-2, 2);
            a[i] = urand(-3, 3);
        }
        double t = urand(0, 2);
        crow r0[3], rp[3], rm[3];
        int neq = eval(sys, is_driver, id, q, v, t, r0);
        int da, db;
        if (is_driver) {
            int ba, bb;
            driver_bodies(sys, &sys->drivers[id], &ba, &bb);
            da = sys->bodies[ba].q_at, db = sys->bodies[bb].q_at;
        } else {
            da = sys->bodies[sys->joints[id].a].q_at, db = sys->bodies[sys->joints[id].b].q_at;
        }
        /* Jacobian */
        const double h = 1e-6;
        for (int c = 0; c < n; c++) {
            memcpy(qp, q, sizeof q);
            memcpy(qm, q, sizeof q);
            qp[c] += h;
            qm[c] -= h;
            eval(sys, is_driver, id, qp, v, t, rp);
            eval(sys, is_driver, id, qm, v, t, rm);
            for (int e = 0; e < neq; e++) {
                double fd = (rp[e].phi - rm[e].phi) / (2 * h), an = 0;
                if (da >= 0 && c >= da && c < da + 3) an += r0[e].ja[c - da];
                if (db >= 0 && c >= db && c < db + 3) an += r0[e].jb[c - db];
                worst_j = fmax(worst_j, fabs(fd - an));
            }
        }
        /* Phi_t */
        eval(sys, is_driver, id, q, v, t + h, rp);
        eval(sys, is_driver, id, q, v, t - h, rm);
        for (int e = 0; e < neq; e++)
            worst_t = fmax(worst_t, fabs((rp[e].phi - rm[e].phi) / (2 * h) - r0[e].phit));
        /* Phi'' along the trajectory */
        const double h2 = 1e-4;
        for (int i = 0; i < n; i++) {
            qp[i] = q[i] + v[i] * h2 + 0.5 * a[i] * h2 * h2;
            qm[i] = q[i] - v[i] * h2 + 0.5 * a[i] * h2 * h2;
        }
        eval(sys, is_driver, id, qp, v, t + h2, rp);
        eval(sys, is_driver, id, qm, v, t - h2, rm);
        eval(sys, is_driver, id, q, v, t, r0); /* refresh motion at t */
        for (int e = 0; e < neq; e++) {
            double fd = (rp[e].phi - 2 * r0[e].phi + rm[e].phi) / (h2 * h2);
            double an = -r0[e].gamma;
            for (int k = 0; k < 3; k++) {
                if (da >= 0) an += r0[e].ja[k] * a[da + k];
                if (db >= 0) an += r0[e].jb[k] * a[db + k];
            }
            worst_g = fmax(worst_g, fabs(fd - an));
        }
    }
    char name[200];
    snprintf(name, sizeof name, "%s: Jacobian matches finite differences", what);
    if (!ok(worst_j < 1e-7, name)) diag("worst difference %g", worst_j);
    snprintf(name, sizeof name, "%s: Phi_t matches finite differences", what);
    if (!ok(worst_t < 1e-7, name)) diag("worst difference %g", worst_t);
    snprintf(name, sizeof name, "%s: Phi'' = Phi_q a - gamma", what);
    if (!ok(worst_g < 1e-5, name)) diag("worst difference %g", worst_g);
}

/* Whether row r is the relative rotation alone: Phi_q = (0, 0, -1) on a, (0, 0, 1) on b. */
static int rotation_alone(const crow *r)
{
    return r->ja[0] == 0 && r->ja[1] == 0 && r->ja[2] == -1 && r->jb[0] == 0 && r->jb[1] == 0 &&
           r->jb[2] == 1;
}

/* The entry of joint id's type against its equations: the type it is filed under, a name for
** each equation, and the equation it names as the rotation alone (the fast solve holds a body
** without inertia through it) is that one and no other is. */
static void check_entry(mech_system *sys, int id, const char *what)
{
    const joint *j = &sys->joints[id];
    const joint_type *jt = planar_joint_type(j->type);
    char name[160];
    snprintf(name, sizeof name, "%s: its entry is filed under its type", what);
    ok(jt != NULL && jt->type == j->type && jt->neq == j->neq, name);
    if (jt == NULL) return;
    int named = 1, alone_ok = 1;
    double q[6], v[6];
    for (int i = 0; i < 6; i++) /* a pose of its own: the checks above keep their samples */
        q[i] = 0.7 * sin(1.3 * i + 0.4), v[i] = 1.1 * cos(0.9 * i + 0.2);
    crow rows[3];
    joint_eval(sys, j, q, v, rows);
    for (int e = 0; e < jt->neq; e++) {
        named &= jt->eq_names[e] != NULL && jt->eq_names[e][0] != '\0';
        alone_ok &= rotation_alone(&rows[e]) == (e == jt->alone);
    }
    snprintf(name, sizeof name, "%s: every equation has a name", what);
    ok(named, name);
    snprintf(name, sizeof name, "%s: the equation named the rotation alone is, and only it", what);
    ok(alone_ok, name);
}

int main(void)
{
    mech_error err;
    static const char *const ground_or_body[] = {"to ground", "between bodies"};
    for (int pair = 0; pair < 2; pair++) {
        mech_system *sys;
        mech_system_create(&sys, NULL, &err);
        mech_body_def bd = mech_body_default();
        bd.mass = 1;
        bd.inertia = 1;
        bd.name = "a";
        int a, b;
        mech_body_add(sys, &bd, &a, &err);
        bd.name = "b";
        mech_body_add(sys, &bd, &b, &err);
        int ja = pair == 0 ? MECH_GROUND : a;

        mech_joint_def jd = mech_joint_default();
        jd.body_a = ja;
        jd.body_b = b;
        jd.pa[0] = 0.3, jd.pa[1] = -0.2;
        jd.pb[0] = -0.4, jd.pb[1] = 0.15;
        jd.axis[0] = 0.6, jd.axis[1] = 0.8;
        jd.angle0 = 0.4;
        int jrev, jpri, jfix;
        jd.type = MECH_REVOLUTE;
        jd.name = "rev";
        mech_joint_add(sys, &jd, &jrev, &err);
        jd.type = MECH_PRISMATIC;
        jd.name = "pri";
        mech_joint_add(sys, &jd, &jpri, &err);
        jd.type = MECH_FIXED;
        jd.name = "fix";
        mech_joint_add(sys, &jd, &jfix, &err);

        mech_driver_def dd = mech_driver_default();
        dd.fn = motion;
        int dbody, dang, ddist;
        dd.type = MECH_DRIVE_BODY_ANGLE;
        dd.target = b;
        dd.name = "dbody";
        mech_driver_add(sys, &dd, &dbody, &err);
        dd.type = MECH_DRIVE_JOINT_ANGLE;
        dd.target = jrev;
        dd.name = "dang";
        mech_driver_add(sys, &dd, &dang, &err);
        dd.type = MECH_DRIVE_JOINT_DISTANCE;
        dd.target = jpri;
        dd.name = "ddist";
        mech_driver_add(sys, &dd, &ddist, &err);

        char what[100];
        snprintf(what, sizeof what, "revolute %s", ground_or_body[pair]);
        check(sys, 0, jrev, what);
        snprintf(what, sizeof what, "prismatic %s", ground_or_body[pair]);
        check(sys, 0, jpri, what);
        snprintf(what, sizeof what, "fixed %s", ground_or_body[pair]);
        check(sys, 0, jfix, what);
        snprintf(what, sizeof what, "revolute %s", ground_or_body[pair]);
        check_entry(sys, jrev, what);
        snprintf(what, sizeof what, "prismatic %s", ground_or_body[pair]);
        check_entry(sys, jpri, what);
        snprintf(what, sizeof what, "fixed %s", ground_or_body[pair]);
        check_entry(sys, jfix, what);
        snprintf(what, sizeof what, "body-angle driver (%s)", ground_or_body[pair]);
        check(sys, 1, dbody, what);
        snprintf(what, sizeof what, "joint-angle driver %s", ground_or_body[pair]);
        check(sys, 1, dang, what);
        snprintf(what, sizeof what, "joint-distance driver %s", ground_or_body[pair]);
        check(sys, 1, ddist, what);
        mech_system_destroy(sys);
    }
    /* the public count of a type's equations is its table entry's */
    ok(mech_joint_type_equations(MECH_REVOLUTE) == 2 &&
           mech_joint_type_equations(MECH_PRISMATIC) == 2 &&
           mech_joint_type_equations(MECH_FIXED) == 3 &&
           mech_joint_type_equations((mech_joint_type)99) == 0,
       "mech_joint_type_equations: 2, 2, 3 and 0 for an unknown type");
    return done_testing();
}
