/* SPDX-License-Identifier: MIT */
/* The list of C modules of the stdlib: add one line per module. */
#include "preload.h"

#include "../stdlib/lfft.h"

const struct preload_module preload_modules[] = {
    {"fft", luaopen_fft},
    {NULL, NULL},
};
