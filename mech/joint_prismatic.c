/* SPDX-License-Identifier: MIT */
/* The prismatic joint: body b's anchor held on the axis through body a's (the normal
** distance), and the relative rotation held. */
#include <math.h>

#include "clearance.h"
#include "joint_frame.h"
#include "joint_type.h"

static void prismatic_eval(const mech_system *sys, const joint *j, const double *q, const double *v,
                           crow *rows)
{
    frame f;
    joint_frame(sys, j, q, v, &f);
    double minus_u[2] = {-f.u[0], -f.u[1]};
    along_row(&f, f.n, minus_u, &rows[0]);
    rotation_row(&f, j->angle0, &rows[1]);
}

/* The distance from the axis. */
static double axis_violation(const joint *j)
{
    return fabs(j->phi[0]);
}

const joint_type joint_prismatic = {
    .type = MECH_PRISMATIC,
    .name = "prismatic",
    .neq = 2,
    .eq_names = {"normal", "rotation", ""},
    .alone = 1,
    .has_axis = 1,
    .has_angle = 1,
    .eval = prismatic_eval,
    /* no anchor components along x and y */
    .offers = JOINT_OFFERS(J_FX) | JOINT_OFFERS(J_FY) | JOINT_OFFERS(J_F) | JOINT_OFFERS(J_M) |
              JOINT_OFFERS(J_FN) | JOINT_OFFERS(J_VIOLATION) | JOINT_OFFERS(J_TWIST),
    .violation = axis_violation,
    .clearance = &clearance_guide,
};
