/* SPDX-License-Identifier: MIT */
/* The list of C modules of the stdlib: add one line per module. */
#include "preload.h"

#include "lfft.h"
#include "lplot.h"

const struct preload_module preload_modules[] = {
    {"fft", luaopen_fft},
    {"plot", luaopen_plot},
    {NULL, NULL},
};
