/* SPDX-License-Identifier: MIT */
/* The list of C modules of the stdlib: add one line per module. */
#include "preload.h"
#include "../stdlib/lplot.h"

const struct preload_module preload_modules[] = {
    {"plot", luaopen_plot},
    {NULL, NULL},
};
