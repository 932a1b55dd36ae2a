/* SPDX-License-Identifier: MIT */
/*
** The contact geometry of a spatial revolute joint with radial and axial clearance
** ([Spatial revolute paper]; its detection follows Marques et al. 2017): a solid journal
** cylinder j inside the closed cylindrical cavity of a bearing i.  A pure module: poses in,
** contact points out; the joint that applies the forces is built on top of it.
**
** The bearing cavity has radius Ri, length Li and end walls; it is placed by its mid-point
** Pi and unit axis ai.  The journal (Rj < Ri, Lj < Li) is placed by Pj and aj; its end
** centres are E_A = Pj - (Lj/2) aj and E_B = Pj + (Lj/2) aj.  The clearances are
** cr = Ri - Rj (radial) and ca = (Li - Lj)/2 (axial, per side).
**
** Four checks, each on one rim point of a journal end circle (the deepest one):
**
**   radial at end E   Cj = the rim point of E farthest from the bearing axis, exactly (see
**                     sclearance_rim_farthest); s = (Cj - Pi).ai, rho_vec = (Cj - Pi) - s ai,
**                     rho = |rho_vec|; depth = rho - Ri, n = rho_vec / rho,
**                     Ci = Pi + s ai + Ri n; active when depth > 0 and |s| <= Li/2.
**   axial at end E    against the end wall on E's side, sigma = -1 for A, +1 for B, through
**                     the end face: u = (sigma ai) - ((sigma ai).aj) aj (|u| = sin of the
**                     tilt, pointing to the deepest rim point), S = sqrt(|u|^2 + eps^2),
**                     Cj = E + Rj u / S, s = (Cj - Pi).ai;
**                     depth = sigma (E - Pi).ai - Li/2 + Rj S, n = sigma ai,
**                     Ci = the foot of Cj on the end wall; active when depth > 0.
**
** The face contact: the deepest rim point (eps = 0) jumps across the face when the tilt
** changes sign, and so does the moment of the force: an end face pressed flat against its
** wall then chatters about alignment and an adaptive integrator crawls.  With eps = 1e-6 rad
** the depth is a smooth function of the poses, within Rj eps of the deepest rim point's (Rj
** eps^2 / (2 sin(tilt)) once the tilt is far above eps), and Cj moves from the face centre
** (aligned) to the rim (tilted): the force along n applied at Cj is exactly the gradient of
** the depth, so a law with a potential keeps the energy.  Ci lies on the line of action, where
** the moment and the normal rate are the same as at Cj - depth n.
**
** n points from the bearing surface into the bearing wall and depth > 0 is a penetration
** (delta = depth then).  Every check is evaluated whether active or not, so an inactive
** contact still carries its (negative) depth and candidate points: the depth is a smooth
** function of the poses wherever the deepest rim point of a radial check is unique, and its
** rate is the delta_dot of sclearance_kinematics.
**
** The radial check of the reconstructed scheme takes the direction m = unit(d - (d.aj) aj),
** d the end centre's offset from the bearing axis; that is the exact deepest point only for an
** aligned journal.  Here the maximum of the distance to the bearing axis over the rim is
** exact (a one-angle problem solved through its secular equation); the degenerate cases:
**   - end centre on the bearing axis, journal aligned: every rim point is at Rj < Ri, the
**     first basis direction of the end plane is taken (no contact);
**   - end centre on the bearing axis, journal tilted: the two rim points along
**     +-(aj x ai) are farthest (at Rj), +(aj x ai) is taken;
**
** Reported beside the four checks: the journal edge against the bearing edge, when a rim
** point is outside the bearing radius beyond the bearing length (rho > Ri with |s| > Li/2).
** The radial check's `active` drops such a point; sclearance_detect raises the end's edge
** flag, looking at the two candidate rim points of that end (the radial one first, then the
** axial one), with the amounts rho - Ri and |s| - Li/2 of the first that is out.  On the
** end's own side this is a corner contact, not a journal that left the cavity: the axial
** point is the end's rim point farthest along sigma ai, so no rim point of the end is past
** its end wall by more than the axial contact's depth, and a point past the edge there
** presses into both walls at once (the joint applies both contacts' forces): an aligned
** journal under a thrust and a radial load, its end on the wall and against the end wall at
** the same rim point, sits there.
**
** What no check faces: a rim point of an end beyond the end wall on the OTHER side (end A
** beyond wall B, end B beyond wall A), since each axial check looks at its own end against
** its own wall.  The rim point of end E farthest towards the other wall is E - Rj w, w the
** axial check's direction (the opposite point of the rim), and along -sigma ai it lies
** Lj (ai . aj) behind the other end's axial point: while the axes make an angle below 90
** degrees the other end's axial contact holds it back (it would have to sink into the wall by
** more than Lj (ai . aj) first).  A journal short enough to turn over in its cavity
** (sqrt(Rj^2 + (Lj/2)^2) < Ri, a disc more than a shaft) puts the wrong end in front:
** sclearance_detect gives, per end, that point and how far it is past the other wall (the
** `beyond` flags), and the joint stops the run there (sclearance.c).
*/
#ifndef MECH_SCLEARANCE_GEOM_H
#define MECH_SCLEARANCE_GEOM_H

#include "mech_core.h"

/* The sizes of the bearing cavity (i) and the journal (j). */
typedef struct sclearance_geom {
    double Ri, Li; /* bearing: radius, length between the end walls */
    double Rj, Lj; /* journal: radius, length */
} sclearance_geom;

/* The poses: mid-points and unit axes in the world frame. */
typedef struct sclearance_pose {
    double Pi[3], ai[3]; /* bearing */
    double Pj[3], aj[3]; /* journal */
} sclearance_pose;

/* The four contacts, in this order in sclearance_result.c. */
enum {
    SCLEARANCE_RADIAL_A,
    SCLEARANCE_RADIAL_B,
    SCLEARANCE_AXIAL_A,
    SCLEARANCE_AXIAL_B,
    SCLEARANCE_NCONTACTS
};

/* One contact pair; see the head of this file. */
typedef struct sclearance_contact {
    int active;    /* whether the contact is closed */
    double depth;  /* signed: > 0 is a penetration, < 0 a gap */
    double delta;  /* the penetration: depth when active, else 0 */
    double n[3];   /* unit normal, from the bearing surface into the bearing wall */
    double cj[3];  /* the journal's point: the deepest rim point (radial), the face point (axial) */
    double ci[3];  /* the point of the bearing surface: cj - depth n (radial), cj's foot (axial) */
    double s, rho; /* cj's coordinate along ai from Pi and its distance from the bearing axis */
} sclearance_contact;

/* The journal edge against the bearing edge at one end (0: A, 1: B). */
typedef struct sclearance_edge {
    int active;    /* a rim point of the end is beyond both the radius and the length */
    double radial; /* rho - Ri > 0 of that point (0 when not active) */
    double axial;  /* |s| - Li/2 > 0 of that point (0 when not active) */
    double p[3];   /* the point (zeros when not active) */
} sclearance_edge;

/* The rim point of one end (0: A, 1: B) farthest towards the end wall on the other side. */
typedef struct sclearance_beyond {
    int active;    /* the point is past that wall: past > 0 */
    double past;   /* how far: -sigma s - Li/2 (sigma -1 for A, +1 for B); < 0 inside */
    double s, rho; /* the point's coordinate along ai from Pi and its distance from the axis */
    double p[3];   /* the point */
} sclearance_beyond;

typedef struct sclearance_result {
    sclearance_contact c[SCLEARANCE_NCONTACTS];
    sclearance_edge edge[2];
    sclearance_beyond beyond[2];
    int nactive; /* how many of c are active */
} sclearance_result;

/* The state of a rigid body in the world frame: its centre (any body-fixed reference point),
** the velocity of that point and the angular velocity. */
typedef struct sclearance_body {
    double r[3], v[3], w[3];
} sclearance_body;

/* The kinematics of one contact pair, Eqs. (5), (6) of [Spatial revolute paper]. */
typedef struct sclearance_rates {
    double vrel[3];   /* vCj - vCi, the points taken fixed to their bodies */
    double delta_dot; /* vrel . n: > 0 when the penetration grows */
    double vt[3];     /* vrel - (vrel . n) n, the slip velocity in the tangent plane */
    double arm_j[3];  /* cj - r of the journal: a force F at cj has moment arm_j x F */
    double arm_i[3];  /* ci - r of the bearing */
} sclearance_rates;

/* Checks sizes and poses: all finite, sizes > 0, Rj < Ri, Lj < Li, axes of unit length
** (within 1e-9).  Returns MECH_OK, or MECH_ERR_ARG with a message naming the values in err
** (err may be NULL).  pose may be NULL to check the sizes alone. */
mech_status sclearance_check(const sclearance_geom *g, const sclearance_pose *pose,
                             mech_error *err);

/* The four contacts, the two edge flags and the two beyond flags at pose (which
** sclearance_check accepts).  Returns the number of active contacts (also out->nactive). */
int sclearance_detect(const sclearance_geom *g, const sclearance_pose *pose,
                      sclearance_result *out);

/* Contact `slot` (SCLEARANCE_RADIAL_A ...) alone: the same values, from the same operations, as
** sclearance_detect's out->c[slot], for a quarter of its work. */
void sclearance_detect_one(const sclearance_geom *g, const sclearance_pose *pose, int slot,
                           sclearance_contact *out);

/* The rim point of the circle of centre c, unit normal a and radius R farthest from the line
** through p with unit direction ax: writes the unit m (m . a = 0) with c + R m that point.
** Ties (a line through c) are broken as in the head of this file. */
void sclearance_rim_farthest(const double c[3], const double a[3], double R, const double p[3],
                             const double ax[3], double m[3]);

/* The rates of contact k for the journal and bearing states: vC = v + w x (C - r) at cj on
** the journal and at ci on the bearing.  The force convention of the joint: the journal
** receives -F at cj and the bearing +F at ci, with F = F_N n + F_F. */
void sclearance_kinematics(const sclearance_contact *k, const sclearance_body *journal,
                           const sclearance_body *bearing, sclearance_rates *out);

#endif
