/* SPDX-License-Identifier: MIT */
/* Internals of the system bindings (lsystem.c) shared with the bindings that add methods
** and entity kinds to systems (lfe.c). */
#ifndef MECHLUA_LSYSTEM_H
#define MECHLUA_LSYSTEM_H

#include <lauxlib.h>
#include <lua.h>

#include "mech.h"

/* How many joints with clearance the plausibility checks of a system look at. */
#define LSYS_SCALE_CLEARANCES 32

/*
** What the plausibility warnings know of a model as it was given (lsystem.c): its extent
** and its masses, read as bodies and joints are added, checked against the clearances
** when the system is assembled.
*/
typedef struct lsys_scale {
    double box[4]; /* xmin, ymin, xmax, ymax of the bodies' centres and the ideal joints' anchors */
    int npoints;   /* points in box */
    double mass[2]; /* smallest and largest mass of a body */
    int mass_id[2]; /* and their bodies */
    double outline; /* largest dimension of a body's outline (rectangle, segment) */
    int outline_id; /* and its body */
    int nclear;     /* clearance joints below (beyond LSYS_SCALE_CLEARANCES: not checked) */
    struct {
        int joint;
        double size; /* the bearing's radius (revolute), the gap (prismatic) */
        const char *what;
    } clear[LSYS_SCALE_CLEARANCES];
} lsys_scale;

typedef struct lsys {
    mech_system *sys;
    lua_State *L;     /* the state running the current call into libmech */
    const char *busy; /* what libmech is doing with it ("simulated", "assembled", ...) while it
                      ** may call back into Lua; NULL when idle.  Busy, it neither changes nor
                      ** closes */
    int ncallbacks;   /* integer keys used in the user value table */
    char cb_error[1024];
    lsys_scale scale;
} lsys;

typedef struct lentity {
    int kind;
    int id;
} lentity;

/// Entity kinds as Lua shows them ("body", "flexible body", ...), indexed by mech_kind.
extern const char *const lsys_kind_names[];

/// The system at arg, which must not be simulating (fname names the caller in errors).
lsys *lsys_check_mutable(lua_State *L, int arg, const char *fname);

/*
** Pushes the entity (kind, id) of the system at sysidx and returns it.  The functions that
** add an entity push it first (with id -1) and set its id once libmech added it: nothing
** that can raise (a memory error) comes after the addition, so that a call that fails adds
** nothing.
*/
lentity *lsys_push_entity(lua_State *L, int sysidx, int kind, int id);

/// The entity at arg; *ls gets its system.
lentity *lsys_check_entity(lua_State *L, int arg, lsys **ls);

/// Positional value pos of table t: an entity of `kind` of system ls; returns its id.
int lsys_table_entity(lua_State *L, int t, int pos, lsys *ls, int kind, const char *fname,
                      const char *role);

/// World point `at` in body b's coordinates (its pose as given, before assembly).
void lsys_to_body(const mech_system *sys, int b, const double at[2], double out[2]);

/// The system of ls, which Lua code run since it was checked may have closed (raises then).
mech_system *lsys_live(lua_State *L, lsys *ls, const char *fname);

/// Fields `law` (required) and `friction` (optional) of table t (for system ls).
void lsys_read_laws(lua_State *L, lsys *ls, int t, const char *fn, mech_normal_law *law,
                    mech_friction_law *friction);

/*
** Registration: the binding files add their methods to the system type and their entity
** kinds' methods and fields, each from its own open function (lfe.c: sys:flexible,
** sys:guide and the flexible body's methods), after lmech_open_system made the types.
*/

/// Adds methods to the system type (sys:<name>), each with the mech table at index `mech` as
/// its upvalue; lists them under the metatable's __methods and __complete (for help and Tab).
void lsys_add_methods(lua_State *L, int mech, const luaL_Reg methods[]);

/// What the entities of one kind answer besides the fields every entity has.
typedef struct lsys_kind_binding {
    int kind;                  /* a mech_kind */
    const luaL_Reg *methods;   /* NULL-terminated, or NULL: the kind's methods */
    const char *const *fields; /* NULL-terminated, or NULL: the fields that index answers */
    /* pushes the value of field `key` of entity e and returns 1; 0 if it has none (NULL:
    ** no fields) */
    int (*index)(lua_State *L, lsys *ls, lentity *e, const char *key);
} lsys_kind_binding;

/// Registers b (kept by pointer: static storage) as the binding of entities of b->kind and
/// lists its methods under the entity metatable's __methods (help() finds them by value).
void lsys_add_kind(lua_State *L, const lsys_kind_binding *b);

#endif
