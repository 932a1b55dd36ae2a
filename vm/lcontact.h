/* SPDX-License-Identifier: MIT */
/* Contact and friction laws, stiffness and materials for Lua (vm/lcontact.c). */
#ifndef MECHLUA_LCONTACT_H
#define MECHLUA_LCONTACT_H

#include <lua.h>

#include "mech.h"

/// Adds mech.contact, mech.friction, mech.stiffness and mech.materials to the table on top.
void lmech_open_contact(lua_State *L);

/// Reads and checks the normal law of the given type from the fields of table t.
void lcontact_normal(lua_State *L, int t, const char *fn, mech_normal_type type,
                     mech_normal_law *out);

/// Reads and checks the friction law of the given type from the fields of table t.
void lcontact_friction(lua_State *L, int t, const char *fn, mech_friction_type type,
                       mech_friction_law *out);

/*
** Reads the law table at idx (made by mech.contact.* when nl is given, by mech.friction.*
** when fl is given) into the struct; raises an error naming fn and field otherwise.
*/
int lcontact_read(lua_State *L, int idx, const char *fn, const char *field, mech_normal_law *nl,
                  mech_friction_law *fl);

/*
** The two materials of table t: `materials` = {a, b} or `material` = a (both bodies), each a
** name of mech.materials or a table { E = Pa, nu = ... }; raises an error naming fn otherwise.
*/
void lcontact_materials(lua_State *L, int t, const char *fn, double *E1, double *nu1, double *E2,
                        double *nu2);

#endif
