/* SPDX-License-Identifier: MIT */
/* The revolute joint: the two anchors held together (x, y); no relative rotation held. */
#include "clearance.h"
#include "joint_frame.h"
#include "joint_type.h"

static void revolute_eval(const mech_system *sys, const joint *j, const double *q, const double *v,
                          crow *rows)
{
    frame f;
    joint_frame(sys, j, q, v, &f);
    revolute_rows(&f, rows);
}

const joint_type joint_revolute = {
    .type = MECH_REVOLUTE,
    .name = "revolute",
    .neq = 2,
    .eq_names = {"x", "y", ""},
    .alone = -1,
    .takes_node = 1,
    .eval = revolute_eval,
    /* no moment, normal force or twist */
    .offers = JOINT_OFFERS(J_FX) | JOINT_OFFERS(J_FY) | JOINT_OFFERS(J_F) |
              JOINT_OFFERS(J_VIOLATION) | JOINT_OFFERS(J_DX) | JOINT_OFFERS(J_DY),
    .violation = anchors_violation,
    .clearance = &clearance_journal,
};
