/* SPDX-License-Identifier: MIT */
/*
** libmech planar finite elements: linear elasticity on three-node triangles (constant
** strain) and four-node bilinear quadrilaterals (2 x 2 Gauss points), in plane stress
** with a thickness or in plane strain (per unit thickness times `thickness`).
**
** Element routines work on one element of nn = 3 or 4 nodes with coordinates
** xy[2 nn] (counter-clockwise) and degrees of freedom ordered (u1, v1, u2, v2, ...).
** Matrices are row-major, 2 nn by 2 nn.
**
** A flexible body (mech_fe_add) turns a mesh into nodes of a system: each node is a body
** without rotation (two coordinates, x and y, its lumped mass) named "<fe>.n<k>" (k from
** 1), so joints, springs, loads and contacts attach to nodes as to any body.  The mesh
** adds the internal forces -K u - C u' with u the nodal displacements from the mesh's
** coordinates (the reference, undeformed configuration), K assembled once in compressed
** rows and C = alpha M + beta K (Rayleigh, [Zheng & Wang, Eq. 6]).  The model is linear: valid
** for small strains and small rotations of the mesh (a slider on a guide).
*/
#ifndef MECH_FE_H
#define MECH_FE_H

#include "mech_core.h"
#include "mech_mesh.h"

/* ---- elements ---------------------------------------------------------------------- */

/// Elasticity matrix D (3 x 3, row-major, Voigt order xx, yy, xy with engineering shear).
void mech_fe_elasticity(double E, double nu, int plane_strain, double D[9]);

/*
** Element stiffness Ke = t int B^T D B dA.  Returns 0, or k + 1 if the Jacobian
** determinant is not positive at integration point k (the element is inverted or
** degenerate); *detmin (if not NULL) gets the smallest determinant found.
*/
int mech_fe_stiffness(int nn, const double *xy, const double D[9], double t, double *Ke,
                      double *detmin);

/// Consistent mass Me = rho t int N^T N dA (exact for both element types).
int mech_fe_mass(int nn, const double *xy, double rho_t, double *Me);

/// How a consistent mass matrix is made diagonal.
typedef enum mech_lumping {
    MECH_LUMP_ROW_SUM = 0, ///< each diagonal entry is the sum of its row
    MECH_LUMP_HRZ = 1,     ///< the diagonal scaled to keep the element's mass (Hinton, Rock
                           ///< and Zienkiewicz 1976)
} mech_lumping;

/// Lumped masses of one element: m[nn] per node (the same in x and y).
void mech_fe_lump(int nn, const double *Me, mech_lumping how, double *m);

/// Strain (exx, eyy, gxy) at the element's centre for nodal displacements u[2 nn].
void mech_fe_strain(int nn, const double *xy, const double *u, double eps[3]);

/* ---- flexible bodies ---------------------------------------------------------------- */

typedef struct mech_fe_def {
    const char *name;
    const mech_mesh *mesh; ///< copied; node coordinates are the reference configuration
    double E;              ///< Young's modulus [Pa], > 0
    double nu;             ///< Poisson's ratio, in (-1, 0.5)
    double density;        ///< [kg/m^3], > 0 ([Zheng & Wang] give kg/m^2 with thickness 1 m)
    double thickness;      ///< [m], > 0
    int plane_strain;      ///< 0: plane stress (default); 1: plane strain
    mech_lumping lumping;
    double alpha;           ///< Rayleigh mass coefficient [1/s], >= 0
    double beta;            ///< Rayleigh stiffness coefficient [s], >= 0
    double displacement[2]; ///< initial displacement of every node [m]
    double velocity[2];     ///< initial velocity of every node [m/s]
} mech_fe_def;

mech_fe_def mech_fe_default(void);

typedef struct mech_system mech_system;

/*
** Adds a flexible body: checks the mesh (mech_mesh_check) and the material, builds the
** element matrices, assembles K, lumps M and adds one body per node.  Errors name the
** element or node (from 1) at fault.
*/
mech_status mech_fe_add(mech_system *sys, const mech_fe_def *def, int *id, mech_error *err);

/// Number of flexible bodies; the name of one.
int mech_fe_count(const mech_system *sys);
const char *mech_fe_name(const mech_system *sys, int fe);
/// Finds a flexible body by name; -1 if none.
int mech_fe_find(const mech_system *sys, const char *name);

/// The mesh of flexible body fe (read only).
const mech_mesh *mech_fe_mesh(const mech_system *sys, int fe);

/// Body id of node k (from 0) of flexible body fe, or -1 if k is out of range.
int mech_fe_node_body(const mech_system *sys, int fe, int k);

/// If body b is a node of a flexible body: 1, with its body and node index; else 0.
int mech_body_is_node(const mech_system *sys, int b, int *fe, int *node);

/// Lumped mass of node k [kg]; total mass of the body [kg].
double mech_fe_node_mass(const mech_system *sys, int fe, int k);
double mech_fe_total_mass(const mech_system *sys, int fe);

/*
** Global matrices of the free body, dense and row-major (2 nnodes square; for tests and
** small meshes): stiffness, consistent mass, lumped mass (diagonal).  Any output may be
** NULL.  The caller allocates n * n doubles per matrix.
*/
void mech_fe_matrices(const mech_system *sys, int fe, double *K, double *M, double *Mlumped);

/*
** Natural frequencies [rad/s] of the free body, or with the nodes in fixed[nfixed] held:
** K x = w^2 M x with M consistent (consistent = 1) or lumped, the n lowest into w (a
** dense generalized eigenproblem through LAPACK: meshes of a few thousand nodes at most).
*/
mech_status mech_fe_frequencies(const mech_system *sys, int fe, int consistent, const int *fixed,
                                int nfixed, int n, double *w, mech_error *err);

#endif
