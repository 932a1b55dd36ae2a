/* SPDX-License-Identifier: MIT */
/*
** The ideal joints of a spatial system, one entry each (joint_type.h), from the three kinds of
** equation of spatial_frame.h.  A joint holds a frame on body a (origin pa, axes fa) against
** a frame on body b (pb, fb), both in body coordinates, which coincide at the joint's
** reference configuration (mech_spatial.h lists what each type keeps).  x_a, y_a, z_a and
** x_b, y_b, z_b are the frames' axes in world coordinates.
*/
#include <math.h>

#include "clearance.h"
#include "joint_type.h"
#include "spatial_frame.h"

/* The frame of joint j at (q, v). */
static void joint_sframe(const mech_system *sys, const joint *j, const double *q, const double *v,
                         sframe *f)
{
    make_sframe(sys, j->a, j->b, j->pa, j->pb, j->fa, j->fb, q, v, f);
}

/* The axes of both frames in the world: w[0..2] = x_a, y_a, z_a, w[3..5] = x_b, y_b, z_b. */
static void frame_axes(const sframe *f, double w[6][3])
{
    for (int c = 0; c < 3; c++) {
        mat3_col(f->Wa, c, w[c]);
        mat3_col(f->Wb, c, w[3 + c]);
    }
}
enum { XA, YA, ZA, XB, YB, ZB };

/* The violation channels read the last evaluation's phi: the anchors' distance over the
** equations on positions (`first` .. `first + n`), the largest misalignment over the rest. */
static double norm_of(const joint *j, int first, int n)
{
    double s = 0;
    for (int e = first; e < first + n; e++) s += j->phi[e] * j->phi[e];
    return sqrt(s);
}

static double max_of(const joint *j, int first, int n)
{
    double m = 0;
    for (int e = first; e < first + n; e++) m = fmax(m, fabs(j->phi[e]));
    return m;
}

/* ---- spherical: the anchors together ------------------------------------------------------ */

static void spherical_eval(const mech_system *sys, const joint *j, const double *q, const double *v,
                           crow *rows)
{
    sframe f;
    joint_sframe(sys, j, q, v, &f);
    sphere_rows(&f, rows);
}

static double spherical_violation(const joint *j)
{
    return norm_of(j, 0, 3);
}

static double none_misaligned(const joint *j)
{
    (void)j;
    return 0;
}

const joint_type sjoint_spherical = {
    .type = MECH_SPHERICAL,
    .name = "spherical",
    .neq = 3,
    .eq_names = {"x", "y", "z"},
    .alone = -1,
    .eval = spherical_eval,
    .violation = spherical_violation,
    .misalignment = none_misaligned,
};

/* ---- revolute: the anchors together, z_a along z_b ---------------------------------------- */

static void revolute3_eval(const mech_system *sys, const joint *j, const double *q, const double *v,
                           crow *rows)
{
    sframe f;
    double w[6][3];
    joint_sframe(sys, j, q, v, &f);
    frame_axes(&f, w);
    sphere_rows(&f, rows);
    dot1_row(&f, w[ZA], w[XB], 0, &rows[3]);
    dot1_row(&f, w[ZA], w[YB], 0, &rows[4]);
}

static double after_sphere_misaligned(const joint *j)
{
    return max_of(j, 3, j->jt->neq - 3);
}

const joint_type sjoint_revolute = {
    .type = MECH_REVOLUTE,
    .name = "revolute",
    .neq = 5,
    .eq_names = {"x", "y", "z", "axis (x)", "axis (y)"},
    .alone = -1,
    .has_axis = 1,
    .has_angle = 1,
    .eval = revolute3_eval,
    .violation = spherical_violation,
    .misalignment = after_sphere_misaligned,
    .clearance = &sclearance_journal,
};

/* ---- universal: the anchors together, the cross x_a normal to y_b ------------------------- */

static void universal_eval(const mech_system *sys, const joint *j, const double *q, const double *v,
                           crow *rows)
{
    sframe f;
    double w[6][3];
    joint_sframe(sys, j, q, v, &f);
    frame_axes(&f, w);
    sphere_rows(&f, rows);
    dot1_row(&f, w[XA], w[YB], 0, &rows[3]);
}

const joint_type sjoint_universal = {
    .type = MECH_UNIVERSAL,
    .name = "universal",
    .neq = 4,
    .eq_names = {"x", "y", "z", "cross"},
    .alone = -1,
    .has_axis = 1,
    .eval = universal_eval,
    .violation = spherical_violation,
    .misalignment = after_sphere_misaligned,
};

/* ---- cylindrical: z_b along z_a, b's anchor on a's z axis --------------------------------- */

/* The cylindrical joint's four rows from its frame f and axes w. */
static void cylindrical_rows(const sframe *f, double w[6][3], crow *rows)
{
    dot2_row(f, w[XA], 0, &rows[0]);
    dot2_row(f, w[YA], 0, &rows[1]);
    dot1_row(f, w[ZA], w[XB], 0, &rows[2]);
    dot1_row(f, w[ZA], w[YB], 0, &rows[3]);
}

static void cylindrical_eval(const mech_system *sys, const joint *j, const double *q,
                             const double *v, crow *rows)
{
    sframe f;
    double w[6][3];
    joint_sframe(sys, j, q, v, &f);
    frame_axes(&f, w);
    cylindrical_rows(&f, w, rows);
}

static double offset_violation(const joint *j)
{
    return norm_of(j, 0, 2);
}

static double after_offset_misaligned(const joint *j)
{
    return max_of(j, 2, j->jt->neq - 2);
}

const joint_type sjoint_cylindrical = {
    .type = MECH_CYLINDRICAL,
    .name = "cylindrical",
    .neq = 4,
    .eq_names = {"offset (x)", "offset (y)", "axis (x)", "axis (y)"},
    .alone = -1,
    .has_axis = 1,
    .has_angle = 1,
    .eval = cylindrical_eval,
    .violation = offset_violation,
    .misalignment = after_offset_misaligned,
};

/* ---- prismatic: cylindrical without turning about z (x_a normal to y_b) ------------------- */

static void prismatic3_eval(const mech_system *sys, const joint *j, const double *q,
                            const double *v, crow *rows)
{
    sframe f;
    double w[6][3];
    joint_sframe(sys, j, q, v, &f);
    frame_axes(&f, w);
    cylindrical_rows(&f, w, rows);
    dot1_row(&f, w[XA], w[YB], 0, &rows[4]);
}

const joint_type sjoint_prismatic = {
    .type = MECH_PRISMATIC,
    .name = "prismatic",
    .neq = 5,
    .eq_names = {"offset (x)", "offset (y)", "axis (x)", "axis (y)", "rotation"},
    .alone = -1,
    .has_axis = 1,
    .eval = prismatic3_eval,
    .violation = offset_violation,
    .misalignment = after_offset_misaligned,
    .clearance = &sbox_slider,
};

/* ---- planar: z_b along z_a, b's anchor in a's xy plane ------------------------------------ */

static void planar3_eval(const mech_system *sys, const joint *j, const double *q, const double *v,
                         crow *rows)
{
    sframe f;
    double w[6][3];
    joint_sframe(sys, j, q, v, &f);
    frame_axes(&f, w);
    dot2_row(&f, w[ZA], 0, &rows[0]);
    dot1_row(&f, w[ZA], w[XB], 0, &rows[1]);
    dot1_row(&f, w[ZA], w[YB], 0, &rows[2]);
}

static double plane_violation(const joint *j)
{
    return fabs(j->phi[0]);
}

static double after_plane_misaligned(const joint *j)
{
    return max_of(j, 1, 2);
}

const joint_type sjoint_planar = {
    .type = MECH_PLANAR,
    .name = "planar",
    .neq = 3,
    .eq_names = {"plane", "normal (x)", "normal (y)"},
    .alone = -1,
    .has_axis = 1,
    .eval = planar3_eval,
    .violation = plane_violation,
    .misalignment = after_plane_misaligned,
};

/* ---- fixed: the frames together ----------------------------------------------------------- */

static void fixed3_eval(const mech_system *sys, const joint *j, const double *q, const double *v,
                        crow *rows)
{
    sframe f;
    double w[6][3];
    joint_sframe(sys, j, q, v, &f);
    frame_axes(&f, w);
    sphere_rows(&f, rows);
    dot1_row(&f, w[YA], w[ZB], 0, &rows[3]); /* small turns about x */
    dot1_row(&f, w[ZA], w[XB], 0, &rows[4]); /* about y */
    dot1_row(&f, w[XA], w[YB], 0, &rows[5]); /* about z */
}

const joint_type sjoint_fixed = {
    .type = MECH_FIXED,
    .name = "fixed",
    .neq = 6,
    .eq_names = {"x", "y", "z", "rotation (x)", "rotation (y)", "rotation (z)"},
    .alone = -1,
    .eval = fixed3_eval,
    .violation = spherical_violation,
    .misalignment = after_sphere_misaligned,
};
