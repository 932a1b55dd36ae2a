/* SPDX-License-Identifier: MIT */
/*
** run:scene(t): what the run's mechanism looks like at time t, as Lua tables (mech_scene.h),
** from the states the run kept (sys:simulate{ motion = dt }).  Between two kept states the
** positions are interpolated by cubic Hermite polynomials on their rates (q' from the model:
** N(q) u), everything else linearly; at a kept state's time it is that state.  The animation
** and ParaView writers (stdlib/animate.lua, paraview.lua) read it.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "lmech.h"
#include "lmodule.h"
#include "lutil.h"
#include "lsystem.h"
#include "mech_scene.h"
#include "mech_sim.h"

static const char *const roles[] = {"outline", "link",  "joint",  "bearing",
                                    "journal", "guide", "slider", "surface"};
static const char *const shapes[] = {"points", "segment", "polygon", "circle", "cylinder", "box"};

static const char *kind_name(mech_kind k)
{
    switch (k) {
    case MECH_KIND_BODY: return "body";
    case MECH_KIND_JOINT: return "joint";
    case MECH_KIND_CONTACT: return "contact";
    case MECH_KIND_FE: return "flexible";
    default: return "?";
    }
}

static void push_vec(lua_State *L, const double *v, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushnumber(L, v[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

static void set_vec(lua_State *L, const char *key, const double *v, int n)
{
    push_vec(L, v, n);
    lua_setfield(L, -2, key);
}

static void set_num(lua_State *L, const char *key, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, key);
}

static void set_str(lua_State *L, const char *key, const char *v)
{
    lua_pushstring(L, v);
    lua_setfield(L, -2, key);
}

/* A list of n points of dim coordinates (stride 3 in p, or 2 for a mesh's flat arrays). */
static void set_points(lua_State *L, const char *key, const double *p, int n, int stride, int dim)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        push_vec(L, p + (size_t)i * (size_t)stride, dim);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, key);
}

/* The scene's tables (protected: runs under lua_pcall, the scene freed by the caller). */
static int push_scene(lua_State *L)
{
    const mech_scene *sc = lua_touserdata(L, 1);
    const mech_system *sys = lua_touserdata(L, 2);
    const int d = sc->dim;
    lua_createtable(L, 0, 6);
    set_num(L, "t", sc->t);
    lua_pushinteger(L, d);
    lua_setfield(L, -2, "dim");

    lua_createtable(L, sc->nbodies, 0);
    for (int i = 0; i < sc->nbodies; i++) {
        const mech_scene_body *b = &sc->bodies[i];
        lua_createtable(L, 0, 4);
        set_str(L, "name", mech_system_name(sys, MECH_KIND_BODY, b->id));
        set_vec(L, "pos", b->pos, d);
        if (d == 2) set_num(L, "angle", b->angle);
        set_vec(L, "R", b->R, 9);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "bodies");

    lua_createtable(L, sc->nitems, 0);
    for (int i = 0; i < sc->nitems; i++) {
        const mech_scene_item *it = &sc->items[i];
        lua_createtable(L, 0, 10);
        set_str(L, "owner", mech_system_name(sys, it->kind, it->id));
        set_str(L, "kind", kind_name(it->kind));
        set_str(L, "body", mech_system_name(sys, MECH_KIND_BODY, it->body));
        set_str(L, "role", roles[it->role]);
        set_str(L, "shape", shapes[it->shape]);
        set_points(L, "points", &it->p[0][0], it->npoints, 3, d);
        switch (it->shape) {
        case MECH_SCENE_CIRCLE: set_num(L, "radius", it->radius); break;
        case MECH_SCENE_CYLINDER:
            set_num(L, "radius", it->radius);
            set_num(L, "length", it->length);
            set_vec(L, "axis", it->axis, 3);
            break;
        case MECH_SCENE_BOX:
            set_vec(L, "R", it->R, 9);
            set_vec(L, "half", it->half, 3);
            break;
        default:
            if (it->role == MECH_SCENE_JOINT) set_vec(L, "axis", it->axis, d);
            break;
        }
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "items");

    lua_createtable(L, sc->ncontacts, 0);
    for (int i = 0; i < sc->ncontacts; i++) {
        const mech_scene_contact *c = &sc->contacts[i];
        lua_createtable(L, 0, 9);
        set_str(L, "name", mech_system_name(sys, MECH_KIND_CONTACT, c->id));
        set_str(L, "owner", mech_system_name(sys, c->kind, c->owner));
        lua_pushboolean(L, c->touching);
        lua_setfield(L, -2, "touching");
        if (c->has_point) {
            set_vec(L, "point", c->point, d);
            set_vec(L, "normal", c->normal, d);
            set_vec(L, "fn", c->fn, d);
            set_vec(L, "ft", c->ft, d);
        }
        set_num(L, "fn_mag", c->fn_mag);
        set_num(L, "ft_mag", c->ft_mag);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "contacts");

    lua_createtable(L, sc->nmeshes, 0);
    for (int i = 0; i < sc->nmeshes; i++) {
        const mech_scene_mesh *m = &sc->meshes[i];
        lua_createtable(L, 0, 6);
        set_str(L, "name", mech_system_name(sys, MECH_KIND_FE, m->fe));
        set_points(L, "nodes", m->xy, m->nnodes, 2, 2);
        set_points(L, "displacement", m->disp, m->nnodes, 2, 2);
        set_points(L, "velocity", m->vel, m->nnodes, 2, 2);
        lua_createtable(L, m->nelems, 0);
        for (int e = 0; e < m->nelems; e++) {
            lua_createtable(L, m->nvert[e], 0);
            for (int k = 0; k < m->nvert[e]; k++) {
                lua_pushinteger(L, m->conn[4 * e + k] + 1);
                lua_rawseti(L, -2, k + 1);
            }
            lua_rawseti(L, -2, e + 1);
        }
        lua_setfield(L, -2, "elements");
        set_vec(L, "von_mises", m->von_mises, m->nelems);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "meshes");
    return 1;
}

/*
** The state at t into y (n values) from the kept states: one of them at its time, else
** between the two around t (rates of the positions from the model's right-hand side, into
** work: 2 n).  0, or -1 when the model's right-hand side fails there.
*/
static int state_at(const mech_run *run, mech_system *sys, double t, double *y, double *work)
{
    const int n = mech_run_state_size(run), nq = mech_system_ncoord(sys);
    const long m = mech_run_motion_rows(run);
    const double dt = mech_run_motion_step(run);
    long k = (long)floor(t / dt);
    if (k >= m - 1) k = m - 1;
    if (k < 0) k = 0;
    double t0, t1;
    const double *y0 = mech_run_motion(run, k, &t0);
    if (k + 1 < m && t < t0) { /* rounding of t / dt */
        k--;
        y0 = mech_run_motion(run, k, &t0);
    }
    const double *y1 = k + 1 < m ? mech_run_motion(run, k + 1, &t1) : NULL;
    if (y1 && t >= t1) y0 = y1, t0 = t1, y1 = NULL;
    if (t == t0 || y1 == NULL) {
        memcpy(y, y0, sizeof(double) * (size_t)n);
        return 0;
    }
    double *f0 = work, *f1 = work + n;
    if (mech_system_rhs(sys, t0, y0, f0) != 0 || mech_system_rhs(sys, t1, y1, f1) != 0) return -1;
    const double h = t1 - t0, s = (t - t0) / h, s2 = s * s, s3 = s2 * s;
    const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2,
                 h11 = s3 - s2;
    for (int i = 0; i < nq; i++)
        y[i] = h00 * y0[i] + h10 * h * f0[i] + h01 * y1[i] + h11 * h * f1[i];
    for (int i = nq; i < n; i++) y[i] = (1 - s) * y0[i] + s * y1[i];
    return 0;
}

/* run:scene(t) -> the scene's tables at time t (from the kept states). */
int lmech_run_scene(lua_State *L)
{
    const char *fn = "run:scene";
    mech_run *run = lmech_check_run(L, 1);
    long m = mech_run_motion_rows(run);
    if (m == 0)
        return lu_error(L, fn, "the run kept no states (give sys:simulate a 'motion' step)");
    double tlast;
    mech_run_motion(run, m - 1, &tlast);
    if (!lua_isnumber(L, 2))
        return lu_error(L, fn, "argument #1 must be a time in [0, %.9g] s (got %s)", tlast,
                        luaL_typename(L, 2));
    double t = lua_tonumber(L, 2);
    if (!(t >= 0 && t <= tlast))
        return lu_error(L, fn,
                        "argument #1 must be a time in [0, %.9g] s, the kept states' (got %g)",
                        tlast, t);
    lsys *ls = NULL;
    if (lua_getiuservalue(L, 1, 2) == LUA_TTABLE) {
        lua_rawgeti(L, -1, 1);
        ls = luaL_testudata(L, -1, LMECH_SYSTEM);
    }
    if (ls == NULL || ls->sys == NULL)
        return lu_error(L, fn,
                        "the run's system is gone (closed or collected): keep it to draw "
                        "the run");
    if (ls->busy)
        return lu_error(L, fn, "the run's system is being %s: draw the run after that", ls->busy);
    mech_system *sys = ls->sys;
    if (mech_system_revision(sys) != mech_run_system_revision(run) ||
        mech_system_nstate(sys) != mech_run_state_size(run))
        return lu_error(L, fn,
                        "the run's system was changed since the run: its states are not "
                        "the system's now (simulate it again)");
    int n = mech_run_state_size(run);
    double *y = lua_newuserdatauv(L, sizeof(double) * 3 * (size_t)n, 0);
    if (state_at(run, sys, t, y, y + n) != 0)
        return lu_error(L, fn, "at t = %.9g s: %s", t, mech_system_last_error(sys)->msg);
    mech_scene *sc;
    mech_error err;
    if (mech_scene_create(sys, &sc, &err) != MECH_OK) return lu_mech_error(L, fn, &err);
    if (mech_scene_update(sc, t, y, &err) != MECH_OK) {
        mech_scene_free(sc);
        return lu_mech_error(L, fn, &err);
    }
    lua_pushcfunction(L, push_scene);
    lua_pushlightuserdata(L, sc);
    lua_pushlightuserdata(L, sys);
    int rc = lua_pcall(L, 2, 1, 0);
    mech_scene_free(sc);
    if (rc != LUA_OK) return lua_error(L);
    return 1;
}
