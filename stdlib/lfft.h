/* SPDX-License-Identifier: MIT */
/* fft: amplitude spectra of sampled signals, over FFTW3 (stdlib/lfft.c). */
#ifndef MECHLUA_LFFT_H
#define MECHLUA_LFFT_H

#include <lua.h>

/// Opens the `fft` module and leaves its table on the stack.
int luaopen_fft(lua_State *L);

#endif
