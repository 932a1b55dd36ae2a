/* SPDX-License-Identifier: MIT */
/*
** The system and entity handles of the bindings (lsystem.c): what the files that add methods
** and entity kinds to systems share (constructors: lsys_build.c, lspatial.c; assembly,
** simulate and lyapunov: lsys_run.c; flexible bodies: lfe.c).  Internal to vm/.
*/
#ifndef MECHLUA_LSYSTEM_H
#define MECHLUA_LSYSTEM_H

#include <lauxlib.h>
#include <lua.h>

#include "mech.h"

/* How many joints with clearance the plausibility checks of a system look at. */
#define LSYS_SCALE_CLEARANCES 32

/*
** What the plausibility warnings know of a model as it was given (lsys_build.c): its extent
** and its masses, read as bodies and joints are added, checked against the clearances
** when the system is assembled.
*/
typedef struct lsys_scale {
    double box[6];  /* xmin, ymin, zmin, xmax, ymax, zmax of the bodies' centres and the ideal
                    ** joints' anchors (z = 0 in a planar system) */
    int npoints;    /* points in box */
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
    int dim;          /* 2: made by mech.planar, 3: by mech.spatial (mech_system_dim) */
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

/* ---- handles ---------------------------------------------------------------------------- */

/// Entity kinds as Lua shows them ("body", "flexible body", ...), indexed by mech_kind.
extern const char *const lsys_kind_names[];

/// The system at arg, which must not be closed.
lsys *lsys_check(lua_State *L, int arg);

/// The system at arg, which must not be simulating (fname names the caller in errors).
lsys *lsys_check_mutable(lua_State *L, int arg, const char *fname);

/*
** What every method that takes a definition table starts with: the system at 1 (not
** simulating), the table at 2 (usage shows its shape in the error), only the fields in
** known besides npos positional entries.  Returns the system; *t is the table's index.
*/
lsys *lsys_method_args(lua_State *L, const char *fname, const char *usage, const char *const *known,
                       int npos, int *t);

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

/// The system of ls, which Lua code run since it was checked may have closed (raises then).
mech_system *lsys_live(lua_State *L, lsys *ls, const char *fname);

/* ls->sys for a call into libmech, in a function with `fn`: Lua code that ran since the
** system was checked (a metamethod, or a finalizer that an allocation ran) may have
** closed it. */
#define LSYS_LIVE(ls) lsys_live(L, (ls), fn)

/// Pushes the user value table of system ls (the callbacks' functions, last_run, ...).
void lsys_push_uv(lua_State *L, lsys *ls);

/* ---- the busy lock ------------------------------------------------------------------------ */

/* Runs a libmech call that may call back into Lua with the system marked busy (`what` it
** is being: "simulated", "assembled", ...): callbacks can read it but neither change nor
** close it.  No Lua error can escape in between: callbacks run in protected calls.  Set
** ls->L first (the state the callbacks run in); ls->cb_error then holds the error of a
** callback that failed. */
#define LSYS_BUSY(ls, what, call)                                                                  \
    ((ls)->busy = (what), (ls)->cb_error[0] = '\0', lsys_busy_end((ls), (call)))

static inline mech_status lsys_busy_end(lsys *ls, mech_status st)
{
    ls->busy = NULL;
    return st;
}

/* ---- callbacks ------------------------------------------------------------------------------ */

/// Context of one Lua callback: the function is uservalue[2 ref], the context [2 ref + 1] (a
/// userdata whose own user value is the callback's state table, if it has one).
typedef struct lcb {
    lsys *owner;
    int ref;
    char what[96]; /* "spring 's1' law", for messages; may be renamed once the entity is named */
} lcb;

/// Stores the function on top of the stack (popped) in the user value table of ls; returns
/// the context to give libmech with one of the trampolines below.
lcb *lsys_new_callback(lua_State *L, lsys *ls, const char *what);

/*
** Trampolines: libmech's callback types calling the Lua function of an lcb (ud) in a
** protected call.  A Lua error, or a result of the wrong type, is kept in the system's
** cb_error ("<what>: <message>") and the trampoline returns -1.
*/
/// A force law: function(x, xdot, t) -> f.
int lsys_law_trampoline(void *ud, double t, double x, double xdot, double *f);
/// A driver's motion: function(t) -> value[, speed[, acceleration]] (missing ones by
/// differences).
int lsys_motion_trampoline(void *ud, double t, double out[3]);
/// A load: function(t, x, y, phi, vx, vy, omega) -> fx[, fy[, torque]].
int lsys_load_trampoline(void *ud, double t, const mech_body_state *b, double out[3]);
/// A torque load: the same function, returning the torque only.
int lsys_torque_trampoline(void *ud, double t, const mech_body_state *b, double out[3]);
/*
** A spatial load: function(t, s) -> fx, fy, fz[, tx, ty, tz] (world axes; the torque about the
** centre of mass), s the callback's state table (lsys_callback_state), refilled before each
** call with the body's x, y, z, e0, e1, e2, e3, vx, vy, vz, wx, wy, wz.
*/
int lsys_sload_trampoline(void *ud, double t, const mech_sbody_state *b, double out[6]);
/// A spatial torque load: the same function, returning tx, ty, tz.
int lsys_storque_trampoline(void *ud, double t, const mech_sbody_state *b, double out[6]);

/// Gives callback cb a new state table for lsys_sload_trampoline to fill (kept with the
/// callback; nothing is left on the stack).
void lsys_callback_state(lua_State *L, lsys *ls, lcb *cb);
/// A channel or event function: function(t, sys) -> number.
int lsys_system_fn_trampoline(void *ud, const mech_system *sys, double t, double *value);
/// An event action: function(t, sys) -> "stop" (or true) to end the run.
int lsys_event_action_trampoline(void *ud, const mech_system *sys, double t, int *stop);

/* ---- registration ------------------------------------------------------------------------- */

/*
** Registration: the binding files add their methods to the system type and their entity
** kinds' methods and fields, each from its own open function, after lmech_open_system made
** the types (lsys_build.c: the planar constructors, sys:point, sys:drive and body:point;
** lspatial.c: the spatial constructors; lsys_run.c: sys:simulate, ...; lfe.c: sys:flexible,
** sys:guide and the flexible body's methods and fields).
*/

/*
** Adds methods to the system type (sys:<name>), each with the mech table at index `mech` as
** its upvalue.  dim 0: methods of every system, listed under the metatable's __methods; dim 2
** or 3: methods of planar or spatial systems only, under __planar_methods or
** __spatial_methods, found first by systems of that dimension (the same name may mean a
** different function in the other).  Called on a system of the other dimension that has no
** method of the name, such a method raises "sys:<name>: a spatial system's method; this
** system is planar ..." (the stubs are under __spatial_stubs and __planar_stubs).  The
** metatable's __complete function lists, for Tab, what a system of its dimension has.
*/
void lsys_add_methods(lua_State *L, int mech, int dim, const luaL_Reg methods[]);

/// What the entities of one kind answer besides the fields every entity has.
typedef struct lsys_kind_binding {
    int kind;                  /* a mech_kind */
    const luaL_Reg *methods;   /* NULL-terminated, or NULL: the kind's methods */
    const char *const *fields; /* NULL-terminated, or NULL: the fields that index answers */
    /* pushes the value of field `key` of entity e and returns 1; 0 if it has none (NULL:
    ** no fields) */
    int (*index)(lua_State *L, lsys *ls, lentity *e, const char *key);
} lsys_kind_binding;

/// Registers b (kept by pointer: static storage) as the binding of entities of b->kind (one
/// per kind: a later one replaces it) and lists its methods under the entity metatable's
/// __methods (help() finds them by value).
void lsys_add_kind(lua_State *L, const lsys_kind_binding *b);

#endif
