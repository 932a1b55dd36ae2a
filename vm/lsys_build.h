/* SPDX-License-Identifier: MIT */
/* The constructors of a system's entities (lsys_build.c): what the other binding files use of
** them.  Internal to vm/. */
#ifndef MECHLUA_LSYS_BUILD_H
#define MECHLUA_LSYS_BUILD_H

#include <lua.h>

#include "lsystem.h"
#include "mech.h"

/// World point `at` in body b's coordinates (its pose as given, before assembly).
void lsys_to_body(const mech_system *sys, int b, const double at[2], double out[2]);

/// Fields `law` (required) and `friction` (optional) of table t (for system ls).
void lsys_read_laws(lua_State *L, lsys *ls, int t, const char *fn, mech_normal_law *law,
                    mech_friction_law *friction);

/*
** Warns (lu_warn) of what the constructors noted in ls->scale that does not fit the whole
** model: a bearing radius or a gap larger than the model, an outline much larger than it,
** masses that differ too much.  Called before the system is assembled (again after a change).
*/
void lsys_scale_check(lua_State *L, lsys *ls);

#endif
