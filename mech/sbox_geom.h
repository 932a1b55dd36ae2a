/* SPDX-License-Identifier: MIT */
/*
** The contact geometry of a spatial translational joint with clearance: a box slider inside
** a rectangular channel (the guide), its corners against the channel's four inner faces, and
** the overlap of the slider with each face's wall that the area-dependent stiffness laws of
** [Wang et al. 2025] (Eqs. 19-22: a flat punch, a rectangle, a triangle) are written with.
** A pure module: poses in, gaps, modes and overlap sizes out; no forces, no system.
**
** The channel.  The guide's frame: origin O and right-handed unit axes X, Y, Z in the world;
** Y is the axis of travel, X and Z the lateral directions.  With the inner half-widths Wx and
** Wz the inner faces are the planes x = +Wx, x = -Wx, z = +Wz, z = -Wz of the guide frame,
** infinite along Y (a slider can leave the guide along Y: no end wall is modelled) and along
** the other lateral direction (the corners of the channel are not walls of their own).  Face k
** is the plane n_k . (p - Q_k) = 0, n_k the unit normal from the face into the channel:
**     k = SBOX_XPOS: n = -X, Q = O + Wx X      k = SBOX_XNEG: n = +X, Q = O - Wx X
**     k = SBOX_ZPOS: n = -Z, Q = O + Wz Z      k = SBOX_ZNEG: n = +Z, Q = O - Wz Z
**
** The slider.  A box of half sizes hx, hy, hz along its own axes, centred at P; the rotation R
** (3 x 3, row-major) maps the slider's coordinates to the world, p = P + R u, so the columns of
** R are the slider's axes in the world.  R = [X Y Z] (columns) is the slider aligned with the
** channel.  Its corners are numbered by bits: corner c is u_c = (sx hx, sy hy, sz hz) with
** sx = +1 when bit 0 of c is set (else -1), sy from bit 1, sz from bit 2; p_c = P + R u_c.
** The clearances per side are Wx - hx and Wz - hz.
**
** Detection, per face k and corner c:
**     g_kc = n_k . (p_c - Q_k)     the signed gap: < 0 the corner is past the face, by the
**                                  penetration delta_kc = -g_kc;
**     D_kc = p_c - g_kc n_k        the foot of the corner on the face's plane.
** A corner is in (penetrating) when g_kc < 0 strictly; n_c counts them.  The contact mode:
**     n_c = 0 SBOX_NONE, 1 SBOX_CORNER, 2 SBOX_EDGE, 3 or 4 SBOX_FACE, 5 to 8 SBOX_THROUGH.
** The corners in are those of the slider cut off by a plane, so: one is a corner; two are the
** ends of one slider edge; three are three corners of one slider face; four are either a whole
** slider face or a corner with its three neighbours (a strongly turned slider).  More than four
** are never in while the slider's centre is on the channel's side of the face (g(P) >= 0),
** since opposite corners c and 7 - c have g_c + g_(7-c) = 2 g(P): at most one of each of the
** four pairs is in.  n_c > 4 means the centre itself is past the wall (a penetration deeper
** than the slider's half extent along n_k): SBOX_THROUGH, for the joint to stop on.
**
** The overlap of face k is O_k = the part of the slider with g < 0 (beyond the face), a convex
** polyhedron bounded by the parts of the slider's faces beyond the plane and by the cut C_k,
** the polygon the plane cuts out of the slider (C_k is the closure of O_k in the plane: empty
** when no corner is in, even when a slider face lies on the plane, and when every corner is
** in; else a convex polygon of 3 to 6 vertices, or a point or a segment of no area when all
** the slider but one corner or one edge on the plane is beyond it).  Write m = R^T n_k for the
** face's normal in the slider's axes and c* for the deepest corner (the least g, the lowest
** index on a tie), at depth delta_max = -g_kc*.
** Moving from a corner in along one of its three slider edges, axis i, into the slider, the
** depth falls by |m_i| per unit length; the edge leaves the wall after delta / |m_i|.
** Reported per face, exact in every mode:
**     cut_area    the area of C_k (the projected patch: continuous in the pose, also where
**                 the mode changes, but for a slider face parallel to the wall, whose whole
**                 area comes at the least penetration as a flat punch's does);
**                 cut_centroid its centroid (world; of no area, the mean of its vertices;
**                 empty, the foot of c* on the plane), cut[] its vertices;
**     side[6]     the areas of the slider's faces beyond the plane, in the order -x, +x, -y,
**                 +y, -z, +z of the slider's axes;
**     volume      the volume of O_k.
** And the sizes of the stiffness laws, by mode (axis i and the other two j, l; all zero for
** SBOX_NONE):
**   corner (n_c = 1), the tetrahedron cut off at c*: its three edges along the slider edges
**     from c*, len[i] = min(2 h_i, delta_max / |m_i|) (a = len[0] along the slider's x, b =
**     len[1] along y, c = len[2] along z; the cap never acts in this mode, where each
**     neighbour of c* is out, so delta_max <= 2 h_i |m_i|: it only bounds rounding); area[i],
**     its right triangle on the slider face normal to axis i (bc/2, ca/2, ab/2); the cut, the
**     triangle (1/2) sqrt(a^2 b^2 + b^2 c^2 + c^2 a^2); the volume abc/6.  axis = -1.
**   edge (n_c = 2), the prism along the slider edge of the two corners in, along axis i =
**     axis: len[i] = 2 h_i, the whole edge (2a); len[j] = the mean over the two corners of
**     min(2 h_j, delta_c / |m_j|), the overlap's mean depth along j on the slider face normal
**     to l (2b), and len[l] likewise (2c).  area[j] and area[l] are the overlap's faces on
**     the two slider faces that meet at the edge: when the edge is parallel to the plane the
**     rectangles 2h_i x len[l] and 2h_i x len[j], otherwise trapezoids of exactly these areas
**     (so len[] are the sides of rectangles of the same areas).  area[i] is the end triangle
**     on the face normal to i at c*'s end (the other end's is in side[]).  The volume is
**     2 h_i (d1^2 + d1 d2 + d2^2) / (6 |m_j m_l|) for the corners' depths d1, d2.  As for a
**     corner, the caps never act: the corners' neighbours across j and l are out.
**   face (n_c >= 3), the slider face normal to axis i = axis on c*'s side, i the axis with the
**     largest h_i |m_i| (for three corners in, or four making a whole face, this is the face
**     that holds them; a tie, possible only for a corner with its neighbours, goes to the
**     lowest axis): len[j] = 2 h_j, len[l] = 2 h_l, len[i] = volume / (4 h_j h_l),
**     the overlap's mean depth over that face (for a whole face in, the mean of its four
**     corners' delta_c / |m_i|; parallel, delta); area[i] the face's part beyond the plane
**     (4 h_j h_l for a whole face in), area[j], area[l] the parts of the faces normal to j
**     and l on c*'s side.
** In every mode area[i] = side[2 i + (bit i of c*)].  The cut, side[] and the volume are
** computed in every mode from the same gaps that count n_c, so the mode, the cut and the sizes
** agree at ties.
**
** The kinematics of a slider point ps against a guide point pg on ps's normal line to the face
** (a corner and its foot D, or the overlap's pressure centre taken as a point of both bodies),
** each a material point of its body.  With the bodies' states (a reference point r, its velocity v
** and the angular velocity w, in the world) a point p moves at v + w x (p - r); vrel is the
** velocity of ps on the slider less that of pg on the guide, delta_dot = -vrel . n_k (> 0 when
** the penetration grows: n_k points into the channel) and v_t = vrel - (vrel . n_k) n_k.  For a
** corner and its foot, delta_dot is exactly d(-g_kc)/dt: the face's plane moves with the guide
** and the foot lies on the corner's normal line.  The force convention: the slider receives +F
** at ps, the guide -F at pg, with F = F_N n_k + F_t.
*/
#ifndef MECH_SBOX_GEOM_H
#define MECH_SBOX_GEOM_H

#include "mech_core.h"

/* The sizes: the channel's inner half-widths and the slider's half sizes. */
typedef struct sbox_geom {
    double Wx, Wz;     /* channel: the inner faces at x = +-Wx, z = +-Wz of the guide frame */
    double hx, hy, hz; /* slider: half sizes along its own x, y, z */
} sbox_geom;

/* The poses, in the world frame. */
typedef struct sbox_pose {
    double O[3], X[3], Y[3], Z[3]; /* guide: origin and unit axes (Y along the travel) */
    double P[3], R[9];             /* slider: centre and rotation (columns: its axes) */
} sbox_pose;

/* The channel's faces, in this order in sbox_result.face. */
enum { SBOX_XPOS, SBOX_XNEG, SBOX_ZPOS, SBOX_ZNEG, SBOX_NFACES };

/* The contact modes of a face. */
enum { SBOX_NONE, SBOX_CORNER, SBOX_EDGE, SBOX_FACE, SBOX_THROUGH };

/* The section of a box by a plane and the box's part beyond it (see sbox_cut). */
typedef struct sbox_section {
    int nin;        /* the corners beyond (g < 0) */
    int deepest;    /* the corner of least g (lowest index on a tie) */
    double gap[8];  /* g of each corner, as sbox_cut computes it */
    int n;          /* the cut polygon's vertices: 0 to 6 (fewer than 3: no area) */
    double v[6][3]; /* its vertices in the box's coordinates, in order around it */
    double area;    /* its area */
    double centroid[3];
    double pcentre[3]; /* the overlap's centroid projected along m onto the plane: the centre of
                       ** a pressure that grows as the depth (of no overlap: the centroid) */
    double side[6];    /* the area of each box face beyond: -x, +x, -y, +y, -z, +z */
    double volume;     /* the volume of the box beyond */
} sbox_section;

/* One face of the channel against the slider; see the head of this file. */
typedef struct sbox_face {
    double n[3], q[3]; /* unit normal into the channel, and Q, a point of the face */
    double gap[8];     /* g_kc of each corner */
    double foot[8][3]; /* D_kc, each corner's foot on the face's plane */
    int inside;        /* bit c set when corner c is in (g_kc < 0) */
    int ncorners;      /* n_c */
    int mode;          /* SBOX_NONE ... SBOX_THROUGH */
    int deepest;       /* c*, the corner of least gap (also when none is in) */
    double delta_max;  /* -g_kc*: > 0 the deepest penetration, <= 0 the least clearance */
    int axis;          /* edge: the axis along the edge; face: normal to the face; else -1 */
    double len[3];     /* the overlap's sizes along the slider's x, y, z, by mode */
    double area[3];    /* the overlap's faces on the slider faces normal to x, y, z */
    double side[6];    /* the overlap's part of every slider face: -x, +x, -y, +y, -z, +z */
    double volume;     /* of the overlap */
    double cut_area;   /* of the cut polygon */
    double cut_centroid[3];
    int cut_n;        /* the cut polygon's vertices (0 to 6) ... */
    double cut[6][3]; /* ... in the world, in order around it */
} sbox_face;

typedef struct sbox_result {
    double corner[8][3]; /* p_c, the slider's corners in the world */
    sbox_face face[SBOX_NFACES];
    int ncontact; /* the faces whose mode is not SBOX_NONE */
} sbox_result;

/* The state of a rigid body in the world frame: a body-fixed reference point r, its velocity
** and the angular velocity. */
typedef struct sbox_body {
    double r[3], v[3], w[3];
} sbox_body;

/* The kinematics of a contact point pair. */
typedef struct sbox_rates {
    double vrel[3];   /* the slider's point's velocity less the guide's point's */
    double delta_dot; /* -vrel . n: > 0 when the penetration grows */
    double vt[3];     /* vrel - (vrel . n) n, the slip velocity in the face's plane */
    double arm_s[3];  /* ps - r of the slider: a force F at ps has the moment arm_s x F */
    double arm_g[3];  /* pg - r of the guide */
} sbox_rates;

/* Checks sizes and poses: all finite; sizes > 0; hx < Wx and hz < Wz; X, Y, Z of unit length,
** orthogonal and right-handed (X x Y = Z), and R orthonormal with det R = +1, all within
** 1e-9.  Returns MECH_OK, or MECH_ERR_ARG with a message naming the values in err (err may
** be NULL).  pose may be NULL to check the sizes alone. */
mech_status sbox_check(const sbox_geom *g, const sbox_pose *pose, mech_error *err);

/* The four faces against the slider at pose (which sbox_check accepts).  Returns the number
** of faces in contact (also out->ncontact). */
int sbox_detect(const sbox_geom *g, const sbox_pose *pose, sbox_result *out);

/* Face k's plane in the slider's coordinates: its normal n (world), m = R^T n and off =
** n . (P - Q_k), so that the corners' gaps are g_c = off + m . u_c (sbox_cut's plane). */
void sbox_face_terms(const sbox_geom *g, const sbox_pose *pose, int k, double n[3], double m[3],
                     double *off);

/* The sizes sbox_detect gives a face from its section s (sbox_cut(h, m, off, s)): ncorners,
** mode, deepest, delta_max, axis, len, area, side, volume, cut_area and cut_n; the world
** positions (n, q, gap, foot, cut, cut_centroid) and `inside` are left as they are. */
void sbox_face_from_section(const double h[3], const double m[3], const sbox_section *s,
                            sbox_face *f);

/* One corner, one face: what a contact of a single corner reads, the same values to the bit as
** sbox_detect's (corner[c], face[k].gap[c], face[k].n).  sbox_face_gaps gives the eight
** corners' gaps against face k and its normal n (NULL: not wanted); sbox_corner_gap one of
** them; sbox_corner the world position p_c. */
void sbox_face_gaps(const sbox_geom *g, const sbox_pose *pose, int k, double n[3], double gap[8]);
double sbox_corner_gap(const sbox_geom *g, const sbox_pose *pose, int k, int c, double n[3]);
void sbox_corner(const sbox_geom *g, const sbox_pose *pose, int c, double p[3]);

/* The section of the box |u_i| <= h_i (i = x, y, z) by the plane m . u + off = 0 (m a unit
** vector), in the box's coordinates: the corners' gaps g = off + m . u_c, the polygon of the
** box's points with g = 0 that bound its part with g < 0 (empty when no corner has g < 0),
** the areas of the box's faces with g < 0 and that part's volume.  The ordering of the
** vertices: counter-clockwise seen from the side m points to. */
void sbox_cut(const double h[3], const double m[3], double off, sbox_section *out);

/* The rates of slider point ps against the guide's point pg (see the head of this file). */
void sbox_point_kinematics(const double ps[3], const double pg[3], const double n[3],
                           const sbox_body *slider, const sbox_body *guide, sbox_rates *out);

/* The rates of corner c against face k of r: sbox_point_kinematics at p_c and D_kc. */
void sbox_kinematics(const sbox_result *r, int k, int c, const sbox_body *slider,
                     const sbox_body *guide, sbox_rates *out);

#endif
