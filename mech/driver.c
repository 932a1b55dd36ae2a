/* SPDX-License-Identifier: MIT */
/*
** What drivers of both dimensions share: the bodies a driver's equation involves and its
** prescribed motion.  Their equations are the dimension's (planar_dim.c, spatial_driver.c).
*/
#include <math.h>

#include "constraints.h"
#include "registry.h"

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
