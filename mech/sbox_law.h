/* SPDX-License-Identifier: MIT */
/*
** The area-dependent normal laws of a box slider against a wall of its channel ([Wang et al.
** 2025], Eqs. 18-22): F_N = k delta, linear in the deepest corner's penetration delta (Eq. 18),
** with a stiffness k from the overlap of the slider with the wall (sbox_geom.h), by model:
**
**   MECH_SBOX_AREA      by the overlap's mode, each piece by Wu et al.'s fits for a contact area
**                       S (mech_stiffness_triangle, mech_stiffness_rectangle), summed with the
**                       weights |n_f . n_k| of the slider face f that holds it (its projection
**                       on the wall):
**                       corner: the tetrahedron's three right triangles, on the slider faces
**                         normal to x (legs b, c: S = bc/2, the ratio b/c), y (a, c: a/c) and
**                         z (a, b: a/b), Eq. 22, weights |m_x|, |m_y|, |m_z|;
**                       edge (along axis i, j and l the others): the prism's two rectangles,
**                         on the face normal to l (sides len_i x len_j: S = area_l, the ratio
**                         len_i/len_j, Eq. 20) and on the face normal to j (len_i x len_l:
**                         area_j, len_i/len_l, Eq. 21), weights |m_l|, |m_j|;
**                       face (three or four corners in, or more): the slider face's part
**                         beyond the wall, S = area_i, the ratio of the face's longer side to
**                         its shorter (Eq. 20), weight |m_i|;
**                       (the paper names the sides of a face a and b without an order; an
**                       edge's a is the edge, b its depth; a corner's a, b, c lie along the
**                       slider's x, y, z);
**   MECH_SBOX_PATCH     one rectangle fit on the projected patch, the cut polygon the wall's
**                       plane makes in the slider: S its area, the ratio of its larger extent
**                       to its smaller, along the travel and across it in the wall
**                       (continuous through the modes, but where a face parallel to the wall
**                       comes in whole);
**   MECH_SBOX_CONSTANT  the flat square punch of Eq. 19 ([Flores et al. 2008]), 2d the slider
**                       face's width across the travel (its height on the x walls, its width on
**                       the z walls): k constant, the comparator.
** m = R^T n_k is the wall's normal in the slider's axes; len, area and the cut are sbox_face's
** and sbox_section's.
**
** The stored energy.  k changes with the overlap's shape, so with the depth and with the
** slider's orientation: F = k delta is then no gradient of k delta^2 / 2.  What is kept is
** V(delta; R) = integral from 0 to delta of k(s; R) s ds, the work of the law on a slider pushed
** straight into the wall at its present orientation R: dV/d delta = k delta = F exactly, so any
** motion at a fixed orientation (an impact of a slider whose turning is held) keeps the energy,
** and what a turning slider's k does to V without the force doing it shows in the energy
** balance (measured in the tests).  k(s; R) is the stiffness of the plane moved to depth s; it
** changes form where a corner comes in (a break of the mode, a kink of the patch), so the
** integral is taken between those depths, each piece after s = s0 + L u^2 (which takes the
** square root of a rectangle's area growing from 0 exactly), cut into pieces that shrink by
** halves towards u = 0 (an edge's side ratio runs to infinity at the piece's start: the fits'
** term c1 / (r + c2) is then rational in s with a pole near it), Gauss-Legendre's 8 points on
** each: about 90 stiffnesses per piece.  Only the full evaluations (the rows reported) store
** the energy, so its cost is per row, not per step.
*/
#ifndef MECH_SBOX_LAW_H
#define MECH_SBOX_LAW_H

#include "sbox_geom.h"

typedef struct sbox_law {
    int model;    /* mech_sbox_stiffness: MECH_SBOX_AREA, _PATCH or _CONSTANT */
    double E[2];  /* Young's modulus: the guide's, the slider's [Pa] */
    double nu[2]; /* Poisson's ratio */
} sbox_law;

/* k [N/m] of a wall (xwall: an x wall, else a z wall) whose section by the slider of half sizes
** h is s (sbox_cut(h, m, off, s)), f its sizes (sbox_face_from_section); e1, e2 the wall's
** tangent axes in the slider's coordinates (the patch's extents).  0 when nothing is in. */
double sbox_law_stiffness(const sbox_law *law, const double h[3], const double m[3],
                          const sbox_section *s, const sbox_face *f, const double e1[3],
                          const double e2[3], int xwall);

/* V(delta; R) [J] of the wall whose plane is (m, off) in the slider's coordinates (delta the
** deepest corner's penetration, -min(off + m . u_c)); 0 when nothing is in. */
double sbox_law_energy(const sbox_law *law, const double h[3], const double m[3], double off,
                       const double e1[3], const double e2[3], int xwall);

#endif
