/* SPDX-License-Identifier: MIT */
/* The simulator (sim.c) on a model, and what it adds to the message of a failed run. */
#ifndef MECH_SIM_IMPL_PRIVATE_H
#define MECH_SIM_IMPL_PRIVATE_H

#include "model.h"

/*
** mech_simulate on a prepared model: the run of options o, into *out (NULL when it could not
** start).  handle is what the user's callbacks get (the system the model is of).
*/
mech_status sim_run_model(const mech_model *m, mech_system *handle, const mech_sim_options *o,
                          mech_run **out, mech_error *err);

/*
** Appends to buf (the reason of a failed step, or of a run that ran away) what the run knows
** beyond it: for the integrator's own failures (own: the model did not report it itself)
** the state component behind it, as the model m describes it; when the stiffness test
** flagged a fixed-step method (io), that the step is too long; then what the model knows
** of that component (a bristle state: its law's remedy).
*/
void sim_failure_notes(const mech_model *m, const mech_integ *integ, const mech_integ_options *io,
                       mech_status st, int own, char *buf, size_t size);

/*
** Appends to buf, the reason of a run stopped for its pace (mech_integ_check_pace), what held
** it: stiffness under "dopri5" (the stiffness test), steps rejected again and again (a stiff
** law or a force that jumps), or else a run that is simply long.
*/
void sim_pace_notes(const mech_integ *integ, const mech_integ_options *io, char *buf, size_t size);

#endif
