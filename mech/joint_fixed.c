/* SPDX-License-Identifier: MIT */
/* The fixed joint: the two anchors held together (x, y) and the relative rotation held. */
#include "joint_frame.h"
#include "joint_type.h"

static void fixed_eval(const mech_system *sys, const joint *j, const double *q, const double *v,
                       crow *rows)
{
    frame f;
    joint_frame(sys, j, q, v, &f);
    revolute_rows(&f, rows);
    rotation_row(&f, j->angle0, &rows[2]);
}

const joint_type joint_fixed = {
    .type = MECH_FIXED,
    .name = "fixed",
    .neq = 3,
    .eq_names = {"x", "y", "rotation"},
    .alone = 2,
    .has_angle = 1,
    .eval = fixed_eval,
    /* no normal force */
    .offers = JOINT_OFFERS(J_FX) | JOINT_OFFERS(J_FY) | JOINT_OFFERS(J_F) | JOINT_OFFERS(J_M) |
              JOINT_OFFERS(J_VIOLATION) | JOINT_OFFERS(J_DX) | JOINT_OFFERS(J_DY) |
              JOINT_OFFERS(J_TWIST),
    .violation = anchors_violation,
    .clearance = NULL,
};
