/* SPDX-License-Identifier: MIT */
/*
** libmech spatial systems: rigid bodies in space, ideal joints, drivers and force elements,
** on the same system, simulator, runs and channels as the planar ones (mech_system.h,
** mech_sim.h).  A system's dimension is fixed when it is created: mech_system_create makes a
** planar one, mech_system_create_spatial a spatial one; the constructors of this header take
** spatial systems only, those of mech_system.h that say "planar" planar ones only.
**
** Coordinates (Nikravesh, Computer-Aided Analysis of Mechanical Systems, 1988):
**   positions  q = (x, y, z, e0, e1, e2, e3) per body: the centre of mass in world axes and
**              the Euler parameters (a unit quaternion, scalar first) of its orientation A,
**              world = A body (the columns of A are the body axes in world coordinates);
**   velocities u = (vx, vy, vz, wx, wy, wz): the centre of mass's velocity and the angular
**              velocity omega, BOTH IN WORLD AXES;
**   q' = N(q) u:  r' = v,  e' = 1/2 G(e)^T omega,  G(e) = [-ev, tilde(ev) + e0 I].
** Equations of motion (Newton-Euler, gyroscopic term included), J_w = A J A^T:
**     m a = F - (G^T lambda)_v,     J_w alpha = T - omega x J_w omega - (G^T lambda)_omega
** with G the constraint Jacobian on u.  The quaternion norm is kept at 1 by projection
** after every accepted step of the integrator (mech_integ.h, option project), and the
** orientation is always read as A(e / |e|), so no body ever stretches.
**
** Everything is SI; angles in radians; points and anchors of a body are given in its body
** coordinates (origin at the centre of mass, its principal or chosen axes).
*/
#ifndef MECH_SPATIAL_H
#define MECH_SPATIAL_H

#include <stddef.h>

#include "mech_core.h"
#include "mech_system.h"

/// Creates a spatial system with gravity (3 values, NULL: none) [m/s^2].
mech_status mech_system_create_spatial(mech_system **out, const double gravity[3], mech_error *err);

/// 2 for a planar system, 3 for a spatial one.
int mech_system_dim(const mech_system *sys);

/* ---- rotations (Euler parameters, scalar first; world = A body) ------------------------- */
/*
** The functions that can fail return 0 and fill e, or -1 with a short reason in why (at most
** n bytes, why may be NULL).  Euler sequences name INTRINSIC rotations about the moving axes
** in the order written: "zyx" with (a, b, c) is A = Rz(a) Ry(b) Rx(c).  The twelve sequences
** are "xyz", "xzy", "yxz", "yzx", "zxy", "zyx" (Tait-Bryan) and "xyx", "xzx", "yxy", "yzy",
** "zxz", "zyz" (proper Euler).
*/

/// The quaternion of the rotation matrix A (row-major), which must be a rotation to tol.
int mech_quat_from_matrix(const double A[9], double tol, double e[4], char *why, size_t n);
/// The rotation by angle [rad] about axis (non-zero, any length).
int mech_quat_from_axis_angle(const double axis[3], double angle, double e[4], char *why, size_t n);
/// The orientation whose body axis i (0 x, 1 y, 2 z) points along u and whose body axis j lies
/// in the plane of u and v, on v's side (world coordinates).
int mech_quat_from_axes(int i, const double u[3], int j, const double v[3], double e[4], char *why,
                        size_t n);
/// The orientation of the Euler angles ang [rad] in sequence seq; fails at a singular
/// configuration (gimbal lock), where the angles could not be read back.
int mech_quat_from_euler(const char *seq, const double ang[3], double e[4], char *why, size_t n);
/// The Euler angles of e in sequence seq; -1 at a singular configuration (ang still holds one
/// decomposition: the third angle 0).
int mech_quat_to_euler(const char *seq, const double e[4], double ang[3], char *why, size_t n);
/// The rotation matrix A(e / |e|), row-major.
void mech_quat_matrix(const double e[4], double A[9]);

/* ---- bodies -------------------------------------------------------------------------------- */

/// What the three products of inertia of mech_sbody_def are.
typedef enum mech_products {
    MECH_PRODUCTS_INTEGRAL = 0, ///< Pxy = int x y dm; the tensor holds -Pxy (Nikravesh, ADAMS)
    MECH_PRODUCTS_TENSOR = 1,   ///< the tensor's off-diagonal entries themselves
} mech_products;

typedef struct mech_sbody_def {
    const char *name;
    double mass;            ///< [kg], > 0
    double inertia[6];      ///< Ixx, Iyy, Izz, Ixy, Iyz, Izx about the centre of mass, body axes
                            ///< [kg m^2]: positive definite, principal moments meeting the
                            ///< triangle inequality
    mech_products products; ///< how inertia[3..5] are read
    double pos[3];          ///< initial centre of mass [m]
    double quat[4];         ///< initial orientation (normalised by libmech; not zero)
    double vel[3];          ///< initial velocity of the centre of mass, world [m/s]
    double omega[3];        ///< initial angular velocity, world [rad/s]
} mech_sbody_def;

/// Identity orientation, everything else zero.
mech_sbody_def mech_sbody_default(void);

mech_status mech_sbody_add(mech_system *sys, const mech_sbody_def *def, int *id, mech_error *err);

/// The pose body b was given (before assembly): centre pos and unit quaternion quat (the
/// ground: origin and identity).
void mech_sbody_initial_pose(const mech_system *sys, int b, double pos[3], double quat[4]);

/// A named point of a body, in body coordinates; its full name is "body.point".
mech_status mech_spoint_add(mech_system *sys, int body, const char *name, const double local[3],
                            int *id, mech_error *err);

/* ---- joints -------------------------------------------------------------------------------- */
/*
** Every spatial joint holds a frame on body a (its origin the anchor pa, its axes the columns
** of frame_a, both in a's body coordinates) against a frame on body b (pb, frame_b).  The
** frames coincide in the joint's reference configuration; the joint types keep:
**   MECH_SPHERICAL   the origins together                                          3 equations
**   MECH_REVOLUTE    the origins together, the z axes together                     5
**   MECH_UNIVERSAL   the origins together, a's x axis normal to b's y axis (the
**                    cross: a turns about its x axis, b about its y axis)           4
**   MECH_CYLINDRICAL the z axes on one line: b's origin on a's z axis, z axes
**                    parallel                                                        4
**   MECH_PRISMATIC   cylindrical and no turning about z: b slides along a's z axis  5
**   MECH_PLANAR      b's origin in a's xy plane, z axes parallel                    3
**   MECH_FIXED       the frames together                                            6
** The rotation about a revolute or cylindrical joint's axis is the angle from a's x axis to
** b's x axis about z; the distance along a prismatic or cylindrical joint is b's origin's
** coordinate along a's z axis.
*/

/*
** The clearance of a spatial revolute joint enforced by MECH_CLEARANCE ([Spatial revolute
** paper]): no constraint equation; a journal cylinder of body b (its axis b's frame z axis,
** its mid-point b's anchor) moves inside the closed cylindrical cavity of a bearing of body a
** (a's frame z axis and anchor), and four contacts push them apart: the two journal ends
** against the bearing's wall (radial) and against its end walls (axial).  The journal's
** radius is radius - radial, its length length - 2 axial.  Each contact takes the normal law
** (the impact velocity captured at its own onset) and the friction law (a vector law in the
** contact's tangent plane, its bristle states per contact; sticking friction is planar only).
** The bodies must start with the journal inside the cavity.
*/
typedef struct mech_sclearance_def {
    double radial; ///< radial clearance: bearing radius - journal radius [m]
    double axial;  ///< axial clearance on each side: (bearing length - journal length) / 2 [m]
    double radius; ///< the bearing's radius [m]
    double length; ///< the bearing's length between its end walls [m]
    mech_normal_law normal_law;
    mech_friction_law friction;
} mech_sclearance_def;

/*
** The clearance of a spatial prismatic joint enforced by MECH_CLEARANCE: no constraint
** equation; a box slider of body b in a rectangular channel of body a ([Wang et al. 2025]).
** The guide's frame: origin a's anchor (the channel's centre line passes through it), travel
** axis Y = the joint's axis (a's frame z axis), lateral X = a's frame x axis (the `ref` of the
** Lua API) and Z = X x Y (= -y of a's frame), so that X, Y, Z is right-handed.  The channel's
** four inner walls are the planes x = +-(width/2 + cx) and z = +-(height/2 + cz) of that frame,
** endless along Y; the slider is the box of the given sizes centred at b's anchor, its sides
** along b's frame taken the same way (its length along b's frame z axis, its width along x).
** The bodies must start with every corner of the slider inside the channel.
**
** MECH_SBOX_CORNERS (the per-corner model): 32 contacts, every slider corner against every
** wall, each with the normal law at its own depth and impact velocity and the friction law in
** the wall's plane.  The area-dependent models ([Wang et al. 2025], Eqs. 18-22) take one contact
** per wall: F_N = k delta along the wall's normal, delta the deepest corner's penetration,
** applied at the centroid of the slider's section by the wall (the projected patch), k from the
** overlap of the slider with the wall and the materials of both bodies; with `damped` times the
** Lankarani-Nikravesh factor 1 + 3 (1 - e^2)/4 delta'/v0 (clamped >= 0, v0 the impact speed at
** the wall's onset, at least v_min).  normal_law is then unused.
*/
typedef enum mech_sbox_stiffness {
    MECH_SBOX_CORNERS = 0, ///< one contact per wall and corner, the normal law at each corner
    MECH_SBOX_AREA,        ///< one per wall: k by the overlap's mode, Wu's fits projected on the
                           ///< wall (a corner's triangles, an edge's rectangles, a face)
    MECH_SBOX_PATCH,       ///< one per wall: Wu's rectangle fit on the projected patch
    MECH_SBOX_CONSTANT,    ///< one per wall: the flat punch of Eq. 19, 2d = the slider face's
                           ///< width across the travel
} mech_sbox_stiffness;

typedef struct mech_sbox_def {
    double cx, cz; ///< the clearance on each side along the guide's X and Z [m], > 0
    double length; ///< the slider's size along the travel axis [m]
    double width;  ///< its size along X [m]
    double height; ///< its size along Z [m]
    mech_sbox_stiffness stiffness;
    mech_normal_law normal_law; ///< MECH_SBOX_CORNERS: the law at each corner
    mech_friction_law friction; ///< per contact, in the wall's plane (MECH_FRICTION_STICK: the
                                ///< sticking contacts share the holding force by F_N)
    double E_guide, nu_guide;   ///< the area models: the guide's (a's) material [Pa, -]
    double E_slider, nu_slider; ///< and the slider's
    int damped;                 ///< the area models: 1 with the Lankarani-Nikravesh factor
    double restitution;         ///< with damped: e, 0 < e <= 1
    double v_min;               ///< with damped: the least impact speed used [m/s] (default 1e-4)
} mech_sbox_def;

typedef struct mech_sjoint_def {
    const char *name;
    mech_joint_type type;
    int body_a, body_b;
    double pa[3], pb[3];           ///< the frames' origins, body coordinates [m]
    double frame_a[9], frame_b[9]; ///< their axes as the columns of a rotation, body coordinates
    mech_enforce enforce;          ///< MECH_LAGRANGE, MECH_PENALTY or (revolute, prismatic)
                                   ///< MECH_CLEARANCE
    double k[6];                   ///< penalty stiffness per equation [N/m or N m]
    double c[6];                   ///< penalty damping per equation
    double alpha, beta;            ///< Baumgarte coefficients [1/s]; NaN: the system's
    mech_sclearance_def clearance; ///< enforce = MECH_CLEARANCE, revolute: the geometry, laws
    mech_sbox_def box;             ///< enforce = MECH_CLEARANCE, prismatic: the box slider
} mech_sjoint_def;

/// Number of equations of a spatial joint of type t (0 for an unknown type).
int mech_sjoint_type_equations(mech_joint_type t);

/// Frames the identity, Lagrange, the system's Baumgarte coefficients; both clearances with the
/// default Hertz law and no friction (the box: MECH_SBOX_CORNERS, v_min 1e-4).
mech_sjoint_def mech_sjoint_default(void);

mech_status mech_sjoint_add(mech_system *sys, const mech_sjoint_def *def, int *id, mech_error *err);

/*
** Drivers of a spatial system use mech_driver_def (mech_system.h):
**   MECH_DRIVE_JOINT_ANGLE     the rotation of a revolute or cylindrical joint;
**   MECH_DRIVE_JOINT_DISTANCE  the distance along a prismatic or cylindrical joint;
**   MECH_DRIVE_BODY_ANGLE      a body's rotation about the world axis `axis` (from its
**                              orientation as given); the other joints must keep the body
**                              turning about that axis.
*/

/* ---- force elements ----------------------------------------------------------------------- */

/// State of one spatial body as load callbacks see it (world axes).
typedef struct mech_sbody_state {
    double pos[3], quat[4];  ///< centre of mass [m], unit quaternion
    double vel[3], omega[3]; ///< [m/s], [rad/s]
} mech_sbody_state;

/// A load computed by a callback: out = force (3) [N] and torque about the centre of mass (3)
/// [N m], world axes; the force acts at the load's point.
typedef int (*mech_sload_fn)(void *ud, double t, const mech_sbody_state *body, double out[6]);

typedef struct mech_sload_def {
    const char *name;
    int body;
    int torque;      ///< 1: a torque; 0: a force applied at `point`
    int body_frame;  ///< value and amplitude in the body's axes (they turn with it)
    double point[3]; ///< application point, body coordinates [m]
    mech_profile profile;
    double value[3];     ///< constant part: the force [N] or the torque [N m]
    double amplitude[3]; ///< harmonic amplitude
    double freq;         ///< harmonic angular frequency [rad/s]
    double phase;        ///< harmonic phase [rad]
    mech_sload_fn fn;    ///< MECH_CALLBACK: force and torque, world axes
    void *ud;
} mech_sload_def;

mech_sload_def mech_sload_default(void);
mech_status mech_sload_add(mech_system *sys, const mech_sload_def *def, int *id, mech_error *err);

/* A translational spring-damper between points of two bodies, along the line through them. */
typedef struct mech_sspring_def {
    const char *name;
    int body_a, body_b;
    double pa[3], pb[3]; ///< attachment points, body coordinates [m]
    double k;            ///< [N/m], >= 0
    double c;            ///< [N s/m], >= 0
    double length0;      ///< rest length [m]; NaN: the initial distance
    mech_law_fn law;     ///< if set, tension = law(length, length rate) instead of k, c
    void *ud;
} mech_sspring_def;

mech_sspring_def mech_sspring_default(void);
mech_status mech_sspring_add(mech_system *sys, const mech_sspring_def *def, int *id,
                             mech_error *err);

/*
** A rotational spring-damper about the axis of a revolute or cylindrical joint: the torque
** -k (angle - angle0) - c rate acts on b about the joint's axis, and its opposite on a.
*/
typedef struct mech_srot_spring_def {
    const char *name;
    int joint;     ///< a revolute or cylindrical joint of the system
    double k;      ///< [N m/rad], >= 0
    double c;      ///< [N m s/rad], >= 0
    double angle0; ///< rest angle [rad]; NaN: the joint's initial angle
} mech_srot_spring_def;

mech_srot_spring_def mech_srot_spring_default(void);
mech_status mech_srot_spring_add(mech_system *sys, const mech_srot_spring_def *def, int *id,
                                 mech_error *err);

#endif
