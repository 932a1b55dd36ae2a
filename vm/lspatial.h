/* SPDX-License-Identifier: MIT */
/* The constructors of a spatial system's entities (lspatial.c): what the files of the
** constructors every system shares (lsys_build.c) use of them.  Internal to vm/. */
#ifndef MECHLUA_LSPATIAL_H
#define MECHLUA_LSPATIAL_H

#include <lua.h>

#include "lsystem.h"
#include "mech.h"

/// World point `at` in spatial body b's coordinates (its pose as given, before assembly).
void lspatial_to_body(const mech_system *sys, int b, const double at[3], double out[3]);

/// Spatial body b's point p (body coordinates) in the world (its pose as given).
void lspatial_to_world(const mech_system *sys, int b, const double p[3], double out[3]);

/*
** The world axis of a spatial body's driver (sys:drive): field `axis` of table t, else the
** axis of the body's one revolute joint to the ground; raises when it has none or several.
*/
void lspatial_drive_axis(lua_State *L, lsys *ls, int t, const char *fn, int body, double axis[3]);

#endif
