/* SPDX-License-Identifier: MIT */
/*
** The equations of drivers: a body's angle, a revolute joint's angle or a prismatic joint's
** distance follows a prescribed motion (the rows as joint_frame.h writes them).
*/
#include <math.h>

#include "constraints.h"
#include "joint_frame.h"
#include "registry.h"
#include "vec2.h"

void driver_bodies(const mech_system *sys, const driver *d, int *a, int *b)
{
    if (d->type == MECH_DRIVE_BODY_ANGLE) {
        *a = MECH_GROUND;
        *b = d->target;
    } else {
        *a = sys->joints[d->target].a;
        *b = sys->joints[d->target].b;
    }
}

double driver_coordinate(const mech_system *sys, const driver *d, const double *q)
{
    int a, b;
    driver_bodies(sys, d, &a, &b);
    const joint *j = d->type == MECH_DRIVE_BODY_ANGLE ? NULL : &sys->joints[d->target];
    static const double zero[2] = {0, 0}, xaxis[2] = {1, 0};
    frame f;
    make_frame(sys, a, b, j ? j->pa : zero, j ? j->pb : zero, j ? j->axis : xaxis, q, q, &f);
    if (d->type == MECH_DRIVE_JOINT_DISTANCE) return vec2_dot(f.u, f.d);
    return f.phb - f.pha;
}

int driver_motion(mech_system *sys, driver *d, double t)
{
    if (d->fn) {
        int rc = d->fn(d->ud, t, d->motion);
        if (rc) return rc;
        if (!isfinite(d->motion[0]) || !isfinite(d->motion[1]) || !isfinite(d->motion[2])) {
            mech_error_set(&sys->last_err, MECH_ERR_NUMERIC,
                           "driver '%s': its function gave a non-finite value at t = %.9g", d->name,
                           t);
            return -1;
        }
        return 0;
    }
    d->motion[0] = d->value0 + d->speed * t;
    d->motion[1] = d->speed;
    d->motion[2] = 0;
    return 0;
}

void driver_eval(const mech_system *sys, const driver *d, const double *q, const double *v, crow *r)
{
    int a, b;
    driver_bodies(sys, d, &a, &b);
    if (d->type == MECH_DRIVE_JOINT_DISTANCE) {
        const joint *j = &sys->joints[d->target];
        frame f;
        make_frame(sys, a, b, j->pa, j->pb, j->axis, q, v, &f);
        along_row(&f, f.u, f.n, r);
    } else {
        double posea[3], poseb[3];
        body_pose(sys, a, q, v, posea, NULL);
        body_pose(sys, b, q, v, poseb, NULL);
        zero_row(r);
        r->phi = poseb[2] - posea[2];
        r->ja[2] = -1;
        r->jb[2] = 1;
    }
    r->phi -= d->motion[0];
    r->phit = -d->motion[1];
    r->gamma += d->motion[2];
}
