/* SPDX-License-Identifier: MIT */
/*
** The element routines of mech_fe.h: elasticity matrix, stiffness, consistent and lumped
** mass and the centre strain of the three-node constant-strain triangle and the four-node
** bilinear quadrilateral.  Pure functions on fixed-size arrays: no allocation, no state.
**
** Both elements are written as isoparametric maps from a reference element:
**   triangle  N1 = 1 - xi - eta, N2 = xi, N3 = eta on 0 <= xi, eta, xi + eta <= 1
**             (the area coordinates of nodes 2 and 3; reference area 1/2);
**   quad      Ni = (1 + xi_i xi)(1 + eta_i eta) / 4 on [-1, 1]^2, with node corners
**             (xi_i, eta_i) = (-1, -1), (1, -1), (1, 1), (-1, 1) (reference area 4).
** The Jacobian J = [dx/dxi dy/dxi; dx/deta dy/deta] has det J = (element area) /
** (reference area) for a triangle or a parallelogram: twice the area for a triangle, a
** quarter of it for a parallelogram.  It is positive when the corners are counter-
** clockwise.  These are the determinants that mech_fe_stiffness reports in *detmin.
**
** Integration points, numbered k = 0, 1, ... in the return codes:
**   triangle  one point (1/3, 1/3), weight 1/2: B is constant, so the stiffness is exact;
**   quad      2 x 2 Gauss points (+-1/sqrt 3) listed like the nodes, point k nearest to
**             node k: (-g, -g), (g, -g), (g, g), (-g, g); every weight 1.
*/
#include <math.h>
#include <stddef.h>

#include "mech_fe.h"

#define NN_MAX   4 /* corners of the largest element */
#define NDOF_MAX 8 /* its degrees of freedom */

static const double corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};

/* 1/sqrt(3), the abscissa of the two-point Gauss rule on [-1, 1]. */
#define GAUSS2 0.57735026918962576451

/* Number of integration points of an element (nn already checked). */
static int npoints(int nn)
{
    return nn == 3 ? 1 : 4;
}

/* Reference coordinates and weight of integration point k. */
static void point(int nn, int k, double *xi, double *eta, double *w)
{
    if (nn == 3) {
        *xi = *eta = 1.0 / 3.0;
        *w = 0.5;
    } else {
        *xi = GAUSS2 * corner[k][0];
        *eta = GAUSS2 * corner[k][1];
        *w = 1.0;
    }
}

/* Shape functions N and their derivatives with respect to xi and eta at (xi, eta). */
static void shape(int nn, double xi, double eta, double N[NN_MAX], double dxi[NN_MAX],
                  double deta[NN_MAX])
{
    if (nn == 3) {
        N[0] = 1 - xi - eta, N[1] = xi, N[2] = eta;
        dxi[0] = -1, dxi[1] = 1, dxi[2] = 0;
        deta[0] = -1, deta[1] = 0, deta[2] = 1;
        return;
    }
    for (int i = 0; i < 4; i++) {
        double a = corner[i][0], b = corner[i][1];
        N[i] = 0.25 * (1 + a * xi) * (1 + b * eta);
        dxi[i] = 0.25 * a * (1 + b * eta);
        deta[i] = 0.25 * b * (1 + a * xi);
    }
}

/*
** Derivatives of the shape functions with respect to x and y at (xi, eta), through the
** inverse Jacobian; returns det J.  dx and dy are left at zero when det J is zero or not
** finite.  A negative determinant (clockwise corners) still gives the right derivatives.
*/
static double derivatives(int nn, const double *xy, double xi, double eta, double N[NN_MAX],
                          double dx[NN_MAX], double dy[NN_MAX])
{
    double dxi[NN_MAX], deta[NN_MAX];
    shape(nn, xi, eta, N, dxi, deta);
    double j11 = 0, j12 = 0, j21 = 0, j22 = 0;
    for (int i = 0; i < nn; i++) {
        j11 += dxi[i] * xy[2 * i], j12 += dxi[i] * xy[2 * i + 1];
        j21 += deta[i] * xy[2 * i], j22 += deta[i] * xy[2 * i + 1];
    }
    double det = j11 * j22 - j12 * j21;
    for (int i = 0; i < nn; i++) dx[i] = dy[i] = 0;
    if (det == 0 || !isfinite(det)) return det;
    /* [d/dx; d/dy] = J^-1 [d/dxi; d/deta], J^-1 = [j22 -j12; -j21 j11] / det. */
    for (int i = 0; i < nn; i++) {
        dx[i] = (j22 * dxi[i] - j12 * deta[i]) / det;
        dy[i] = (-j21 * dxi[i] + j11 * deta[i]) / det;
    }
    return det;
}

/*
** Determinants, shape functions and their x, y derivatives at every integration point of
** the element.  Returns 0, or k + 1 for the first point k where det J <= 0 (or is not
** finite); *detmin gets the smallest determinant (NaN if one is NaN).
*/
static int jacobians(int nn, const double *xy, double det[NN_MAX], double N[NN_MAX][NN_MAX],
                     double dx[NN_MAX][NN_MAX], double dy[NN_MAX][NN_MAX], double *detmin)
{
    int bad = 0;
    double dmin = INFINITY;
    for (int k = 0; k < npoints(nn); k++) {
        double xi, eta, w;
        point(nn, k, &xi, &eta, &w);
        det[k] = derivatives(nn, xy, xi, eta, N[k], dx[k], dy[k]);
        if (!(det[k] > 0) && !bad) bad = k + 1;
        if (isnan(det[k]) || (!isnan(dmin) && det[k] < dmin)) dmin = det[k];
    }
    if (detmin) *detmin = dmin;
    return bad;
}

void mech_fe_elasticity(double E, double nu, int plane_strain, double D[9])
{
    double c, d11, d12, d33;
    if (plane_strain) {
        c = E / ((1 + nu) * (1 - 2 * nu));
        d11 = c * (1 - nu), d12 = c * nu, d33 = c * (1 - 2 * nu) / 2;
    } else {
        c = E / (1 - nu * nu);
        d11 = c, d12 = c * nu, d33 = c * (1 - nu) / 2;
    }
    D[0] = d11, D[1] = d12, D[2] = 0;
    D[3] = d12, D[4] = d11, D[5] = 0;
    D[6] = 0, D[7] = 0, D[8] = d33;
}

/*
** Ke = t sum_k w_k det J_k B_k^T D B_k with B = [dNi/dx 0; 0 dNi/dy; dNi/dy dNi/dx] per
** node.  On a bad Jacobian Ke is zero (all of it) and the point is reported; with nn not
** 3 or 4 nothing is written but *detmin = NaN.  The upper triangle is computed and
** mirrored, so Ke is exactly symmetric when D is.
*/
int mech_fe_stiffness(int nn, const double *xy, const double D[9], double t, double *Ke,
                      double *detmin)
{
    if (nn != 3 && nn != 4) {
        if (detmin) *detmin = NAN;
        return -1;
    }
    int n = 2 * nn;
    double det[NN_MAX], N[NN_MAX][NN_MAX], dx[NN_MAX][NN_MAX], dy[NN_MAX][NN_MAX];
    int bad = jacobians(nn, xy, det, N, dx, dy, detmin);
    for (int a = 0; a < n * n; a++) Ke[a] = 0;
    if (bad) return bad;

    for (int k = 0; k < npoints(nn); k++) {
        double xi, eta, w;
        point(nn, k, &xi, &eta, &w);
        double B[3][NDOF_MAX] = {{0}}, DB[3][NDOF_MAX];
        for (int i = 0; i < nn; i++) {
            B[0][2 * i] = dx[k][i];
            B[1][2 * i + 1] = dy[k][i];
            B[2][2 * i] = dy[k][i];
            B[2][2 * i + 1] = dx[k][i];
        }
        for (int r = 0; r < 3; r++)
            for (int b = 0; b < n; b++)
                DB[r][b] = D[3 * r] * B[0][b] + D[3 * r + 1] * B[1][b] + D[3 * r + 2] * B[2][b];
        double c = t * w * det[k];
        for (int a = 0; a < n; a++)
            for (int b = a; b < n; b++)
                Ke[a * n + b] += c * (B[0][a] * DB[0][b] + B[1][a] * DB[1][b] + B[2][a] * DB[2][b]);
    }
    for (int a = 0; a < n; a++)
        for (int b = 0; b < a; b++) Ke[a * n + b] = Ke[b * n + a];
    return 0;
}

/*
** Me = rho t int N^T N dA, the same entry for the x and the y degrees of freedom.
**
** Triangle: the closed form rho t A / 12 (1 + delta_ij) (int L1^2 dA = A/6, int L1 L2 dA
** = A/12).  Quad: the 2 x 2 Gauss rule of the stiffness, which is exact here for any
** straight-sided quad, not only for parallelograms: Ni Nj is of degree 2 in xi (and in
** eta) and det J = a0 + a1 xi + a2 eta is linear (its xi eta terms cancel), so the
** integrand is of degree 3 in each direction, which the two-point rule integrates
** exactly.  Using the same points as the stiffness, a bad Jacobian is reported with the
** same index k + 1 by both routines (Me is then zero).
*/
int mech_fe_mass(int nn, const double *xy, double rho_t, double *Me)
{
    if (nn != 3 && nn != 4) return -1;
    int n = 2 * nn;
    double det[NN_MAX], N[NN_MAX][NN_MAX], dx[NN_MAX][NN_MAX], dy[NN_MAX][NN_MAX];
    int bad = jacobians(nn, xy, det, N, dx, dy, NULL);
    for (int a = 0; a < n * n; a++) Me[a] = 0;
    if (bad) return bad;

    double m[NN_MAX][NN_MAX] = {{0}};
    if (nn == 3) {
        double c = rho_t * (0.5 * det[0]) / 12; /* det J = 2 A */
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) m[i][j] = c * (i == j ? 2 : 1);
    } else {
        for (int k = 0; k < 4; k++) {
            double xi, eta, w;
            point(nn, k, &xi, &eta, &w);
            double c = rho_t * w * det[k];
            for (int i = 0; i < 4; i++)
                for (int j = i; j < 4; j++) m[i][j] += c * N[k][i] * N[k][j];
        }
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < i; j++) m[i][j] = m[j][i];
    }
    for (int i = 0; i < nn; i++)
        for (int j = 0; j < nn; j++) {
            Me[(2 * i) * n + 2 * j] = m[i][j];
            Me[(2 * i + 1) * n + 2 * j + 1] = m[i][j];
        }
    return 0;
}

/*
** Row sum: m_i = sum_j Me[2i][j] (the y columns of an x row are zero).  HRZ: m_i =
** Me[2i][2i] M / sum_k Me[2k][2k] with M = the sum of the whole x-x block (the element's
** mass).  Both keep M; HRZ also keeps every m_i positive, row sums can turn negative for
** higher-order elements.  For the bilinear rectangle both give rho t A / 4 per node
** (Me = rho t A / 36 [4 2 1 2; ...]: equal diagonal, rows summing to 9/36), and for the
** linear triangle both give rho t A / 3.  With nn not 3 or 4 nothing is written; with an
** unknown `how`, m is NaN.
*/
void mech_fe_lump(int nn, const double *Me, mech_lumping how, double *m)
{
    if (nn != 3 && nn != 4) return;
    int n = 2 * nn;
    if (how == MECH_LUMP_ROW_SUM) {
        for (int i = 0; i < nn; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) s += Me[(2 * i) * n + j];
            m[i] = s;
        }
    } else if (how == MECH_LUMP_HRZ) {
        double total = 0, diag = 0;
        for (int i = 0; i < nn; i++) {
            diag += Me[(2 * i) * n + 2 * i];
            for (int j = 0; j < nn; j++) total += Me[(2 * i) * n + 2 * j];
        }
        for (int i = 0; i < nn; i++) m[i] = Me[(2 * i) * n + 2 * i] * (total / diag);
    } else {
        for (int i = 0; i < nn; i++) m[i] = NAN;
    }
}

/*
** eps = B u at the centre: (1/3, 1/3) for the triangle (B is constant there anyway), (0, 0)
** for the quad.  The orientation is not checked (clockwise corners give the same strain);
** a zero determinant at the centre, or nn not 3 or 4, gives NaN.
*/
void mech_fe_strain(int nn, const double *xy, const double *u, double eps[3])
{
    eps[0] = eps[1] = eps[2] = NAN;
    if (nn != 3 && nn != 4) return;
    double N[NN_MAX], dx[NN_MAX], dy[NN_MAX];
    double c = nn == 3 ? 1.0 / 3.0 : 0.0;
    double det = derivatives(nn, xy, c, c, N, dx, dy);
    if (det == 0 || !isfinite(det)) return;
    eps[0] = eps[1] = eps[2] = 0;
    for (int i = 0; i < nn; i++) {
        eps[0] += dx[i] * u[2 * i];
        eps[1] += dy[i] * u[2 * i + 1];
        eps[2] += dy[i] * u[2 * i] + dx[i] * u[2 * i + 1];
    }
}
