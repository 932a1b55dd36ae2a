/* SPDX-License-Identifier: MIT */
/* The list of C modules of the stdlib: add one line per module. */
#include "preload.h"

#include "lfault.h"
#include "lfft.h"
#include "lmovie.h"
#include "lplot.h"
#include "lsweep.h"

const struct preload_module preload_modules[] = {
    {"fft", luaopen_fft},
    {"movie", luaopen_movie},
    {"plot", luaopen_plot},
    {"sweepcore", luaopen_sweepcore},
#ifdef MECH_FAULT_INJECTION
    {"faultinject", luaopen_faultinject}, /* tests only: see vm/lfault.c */
#endif
    {NULL, NULL},
};
