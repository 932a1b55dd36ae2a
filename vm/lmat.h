/* SPDX-License-Identifier: MIT */
/* run:mat, the recorded columns of a run as a MATLAB file (matio). */
#ifndef MECHLUA_LMAT_H
#define MECHLUA_LMAT_H

#include <lua.h>

/// run:mat(path [, { version = "5" | "7.3", columns = {...}, params = {...} }]) -> path
int lmat_run_mat(lua_State *L);

#endif
