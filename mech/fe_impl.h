/* SPDX-License-Identifier: MIT */
/* The forces of the flexible bodies (fe.c). */
#ifndef MECH_FE_IMPL_PRIVATE_H
#define MECH_FE_IMPL_PRIVATE_H

#include "registry.h"

/* Internal forces -K u - C u' of every flexible body added to Q; adds the damping power to
** *p_dissip and, when full, keeps each body's strain energy and adds it to *v_elastic. */
void fe_forces(mech_system *sys, const double *q, const double *v, double *p_dissip,
               double *v_elastic, int full);
/* Frees what the flexible bodies hold. */
void fe_free_all(mech_system *sys);

#endif
