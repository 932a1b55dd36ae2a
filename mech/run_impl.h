/* SPDX-License-Identifier: MIT */
/* Private layout of mech_run, shared by run.c and sim.c. */
#ifndef MECH_RUN_IMPL_H
#define MECH_RUN_IMPL_H

#include "mech_sim.h"

#define RUN_NAME_MAX (2 * MECH_NAME_MAX + 16)
#define RUN_UNIT_MAX 16

struct mech_run {
    mech_run_status status;
    char message[MECH_ERROR_MSG_SIZE];
    int nch;
    char (*names)[RUN_NAME_MAX];
    char (*units)[RUN_UNIT_MAX];
    long rows, cap; /* rows recorded; rows allocated (the whole report grid) */
    double *t;      /* cap */
    double *data;   /* column-major: channel i at data + i * cap */
    int nevdefs;
    char (*evnames)[MECH_NAME_MAX];
    long nev, evcap;
    int *evdef;
    double *evt;
    double *evval; /* nch values per event */
    mech_run_stats stats;
    char *params;
    int nstate;         /* the kept states' length */
    long nmotion, mcap; /* states kept; room for them (the whole motion grid) */
    double motion_dt;
    unsigned long revision; /* of the system run (mech_system_revision) */
    double *motion_t; /* mcap */
    double *motion;   /* mcap states of nstate, one after the other */
};

mech_run *run_create(int nch, long rows_max, int nevdefs, mech_error *err);
/* Room for the whole motion grid (cap states of nstate values, every dt); -1 on allocation
** failure. */
int run_reserve_motion(mech_run *run, long cap, int nstate, double dt);
/* Makes room for cap events; -1 on allocation failure. */
int run_reserve_events(mech_run *run, long cap);

#endif
