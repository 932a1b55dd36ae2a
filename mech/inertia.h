/* SPDX-License-Identifier: MIT */
/*
** The inertia tensor of a spatial rigid body (private to libmech): built from what a user
** gives, checked that a mass distribution can have it, and turned into the world-axis
** inverse the constrained solve's mass block holds (mass_block.h).
**
** A tensor is 3 x 3 row-major double[9], about the centre of mass in body axes:
**     J = [ Ixx  -Pxy -Pzx ]      Ixx = int (y^2 + z^2) dm, ...
**         [ -Pxy  Iyy -Pyz ]      Pxy = int x y dm, Pyz = int y z dm, Pzx = int z x dm
**         [ -Pzx -Pyz  Izz ]
** Products of inertia as integrals (Pxy = int x y dm, entering the tensor with a minus sign)
** are the convention of Nikravesh (Computer-Aided Analysis of Mechanical Systems, 1988) and
** Shabana (Dynamics of Multibody Systems), of ADAMS and of most CAD mass-property reports;
** some programs print the tensor's own entries (-Pxy) instead.  [Wang et al. 2025, Tab. 2]
** lists positive products without saying which it means, and its tensors are positive
** definite either way, so the convention is the caller's parameter, never guessed.
*/
#ifndef MECH_INERTIA_H
#define MECH_INERTIA_H

#include <stddef.h>

/* What the three products of inertia given by a user are. */
typedef enum inertia_products {
    INERTIA_PRODUCTS_INTEGRAL, /* Pxy = int x y dm; the tensor holds -Pxy (the default) */
    INERTIA_PRODUCTS_TENSOR    /* the tensor's off-diagonal entries themselves */
} inertia_products;

/* The relative tolerance of the triangle inequality: moments printed to 4 significant
** digits are each off by up to 5e-4 relative, so I1 + I2 - I3 of a flat body (where the
** inequality holds with equality) can come out about 1e-3 I3 negative. */
#define INERTIA_TRIANGLE_RTOL 1e-3

/* The tensor of the six components c = (Ixx, Iyy, Izz, Ixy, Iyz, Izx), the products read
** as conv says. */
void inertia_tensor(const double c[6], inertia_products conv, double J[9]);
/* The eigenvalues (ascending) and eigenvectors (the columns of V, a rotation: det +1) of
** the symmetric 3 x 3 matrix S, by cyclic Jacobi sweeps until the off-diagonal part is
** below rounding; S = V diag(lambda) V^T.  V may be NULL. */
void sym3_eigen(const double S[9], double lambda[3], double V[9]);
/* Whether J is the inertia tensor of a mass distribution: finite, symmetric (within 1e-12
** of its largest entry), positive definite (its smallest principal moment above 1e-12 of
** the largest: below that, rounding cannot tell it from zero), and its principal moments
** meet the triangle inequality I1 + I2 >= I3 (1 - rtol) for every ordering.  The reason
** names the values. */
int inertia_check(const double J[9], double rtol, char *why, size_t n);
/* The same for principal moments p = (Ixx, Iyy, Izz) (a diagonal tensor). */
int inertia_check_principal(const double p[3], double rtol, char *why, size_t n);
/* The inverse of the symmetric positive definite J (from its eigen decomposition). */
void inertia_inverse(const double J[9], double Jinv[9]);
/* The world-axis inverse A Jinv A^T of a body turned by A, from its body-axis inverse. */
void inertia_world_inverse(const double A[9], const double Jinv[9], double out[9]);

#endif
