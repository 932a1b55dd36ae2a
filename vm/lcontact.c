/* SPDX-License-Identifier: MIT */
/*
** Contact and friction laws, contact stiffness and materials for Lua:
**   mech.contact.<law>{...}, mech.friction.<law>{...}  -> law tables (validated)
**   mech.stiffness.<shape>{...}                         -> a stiffness
**   mech.materials                                      -> named materials and pairs
** A law is a plain table { law = "hertz", K = ..., ... } with the metatable "mech.law",
** so that it prints and can be inspected; sys:contact reads it back with lcontact_*.
*/
#include <math.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "lcontact.h"
#include "lmech.h"
#include "lutil.h"

#define LAW_MT "mech.law"

/* ---- materials ------------------------------------------------------------------------- */

/* [Wang et al. 2025, Table 4] (E, nu, rho) and Table 5 (friction with an aluminium guide) */
static const struct {
    const char *name;
    double E, nu, rho;
} materials[] = {
    {"steel", 207e9, 0.29, 7801},
    {"nodular_cast_iron", 173e9, 0.30, 7300},
    {"copper", 106e9, 0.324, 8545},
    {"aluminium", 72e9, 0.33, 2750},
};

static const struct {
    const char *a, *b;
    double mu_s, mu;
} pairs[] = {
    {"aluminium", "steel", 0.61, 0.47},
    {"aluminium", "copper", 0.60, 0.46},
    {"aluminium", "nodular_cast_iron", 0.49, 0.31},
    {"aluminium", "aluminium", 0.25, 0.14},
};

/* Pushes mech.materials (the table is the first upvalue of the functions that need it). */
static void push_materials(lua_State *L)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "mech.materials");
}

/* Plausibility (mechlua(3), PLAUSIBILITY WARNINGS): a Young's modulus in GPa or MPa (the
** softest solids of contacts, rubbers, have a few MPa), a density in g/cm^3, a friction
** coefficient in percent. */
static void plausible_E(lua_State *L, const char *fn, double E)
{
    if (E < 1e6)
        lu_warn(
            L,
            "%s: material E = %g Pa is below 1e6 Pa: GPa or MPa? use mech.GPa(%g) or mech.MPa(%g)",
            fn, E, E, E);
}

static void plausible_rho(lua_State *L, const char *fn, double rho)
{
    if (rho != 0 && (rho < 100 || rho > 3e4))
        lu_warn(L,
                "%s: rho = %g kg/m^3 is outside 100 to 3e4 kg/m^3: g/cm^3? (%g g/cm^3 is %g "
                "kg/m^3)",
                fn, rho, rho, rho * 1e3);
}

static void plausible_mu(lua_State *L, const char *fn, const char *field, double mu)
{
    if (mu > 2)
        lu_warn(L, "%s: %s = %g is above 2: a percentage? (%g %% is %g)", fn, field, mu, mu,
                mu / 100);
}

/* E and nu of the material named at index idx (a string) or given as a table {E, nu}. */
static void material_of(lua_State *L, int idx, const char *fn, double *E, double *nu)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) == LUA_TSTRING) {
        push_materials(L);
        if (lua_getfield(L, -1, lua_tostring(L, idx)) != LUA_TTABLE)
            lu_error(L, fn,
                     "unknown material '%s' (see mech.materials; add one with "
                     "mech.materials.add)",
                     lua_tostring(L, idx));
        lua_replace(L, -2);
    } else if (lua_type(L, idx) == LUA_TTABLE) {
        lua_pushvalue(L, idx);
    } else {
        lu_error(L, fn, "a material is a name or a table { E = Pa, nu = ... } (got %s)",
                 luaL_typename(L, idx));
    }
    int t = lua_gettop(L);
    *E = lu_number(L, t, fn, "E", 0, 1);
    *nu = lu_number(L, t, fn, "nu", 0, 1);
    if (!(*E > 0) || !(*nu > -1 && *nu < 0.5))
        lu_error(L, fn, "a material needs E > 0 and -1 < nu < 0.5 (got %g, %g)", *E, *nu);
    lua_pop(L, 1);
    plausible_E(L, fn, *E);
}

/*
** The two materials of field `materials` = {a, b} or `material` = a (both bodies), never
** both.  or_k: the message for neither says that K may be given instead (a law).
*/
static void two_materials(lua_State *L, int t, const char *fn, double *E1, double *nu1, double *E2,
                          double *nu2, int or_k)
{
    /* both fields read, so that the stack is the same whatever is given */
    int many = lua_getfield(L, t, "materials") != LUA_TNIL;
    int one = lua_getfield(L, t, "material") != LUA_TNIL;
    lua_pop(L, 2);
    if (many && one)
        lu_error(L, fn, "give 'material' (both bodies) or 'materials' = {a, b}, not both");
    if (lua_getfield(L, t, "materials") != LUA_TNIL) {
        if (!lua_istable(L, -1) || lua_rawlen(L, -1) != 2)
            lu_error(L, fn, "field 'materials' must be {material_a, material_b}");
        lua_rawgeti(L, -1, 1);
        material_of(L, -1, fn, E1, nu1);
        lua_rawgeti(L, -2, 2);
        material_of(L, -1, fn, E2, nu2);
        lua_pop(L, 3);
        return;
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "material") == LUA_TNIL)
        lu_error(L, fn, "give %s'material' (both bodies) or 'materials' = {a, b}",
                 or_k ? "'K', or " : "");
    material_of(L, -1, fn, E1, nu1);
    *E2 = *E1, *nu2 = *nu1;
    lua_pop(L, 1);
}

void lcontact_materials(lua_State *L, int t, const char *fn, double *E1, double *nu1, double *E2,
                        double *nu2)
{
    two_materials(L, lua_absindex(L, t), fn, E1, nu1, E2, nu2, 0);
}

/* One material as the table users see: { name, E, nu, rho }. */
static void push_material(lua_State *L, const char *name, double E, double nu, double rho)
{
    lua_createtable(L, 0, 4);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    lua_pushnumber(L, E);
    lua_setfield(L, -2, "E");
    lua_pushnumber(L, nu);
    lua_setfield(L, -2, "nu");
    lua_pushnumber(L, rho);
    lua_setfield(L, -2, "rho");
}

static int mat_add(lua_State *L)
{
    const char *fn = "mech.materials.add";
    static const char *const known[] = {"name", "E", "nu", "rho", NULL};
    int t = lu_checktable(L, 1, fn, "{ name = ..., E = Pa, nu = ..., rho = kg/m^3 }");
    lu_checkfields(L, t, fn, known, 0);
    const char *name = lu_string(L, t, fn, "name", NULL);
    if (name == NULL || !*name) return lu_error(L, fn, "field 'name' is required (a string)");
    double E = lu_number(L, t, fn, "E", 0, 1), nu = lu_number(L, t, fn, "nu", 0, 1);
    double rho = lu_number(L, t, fn, "rho", 0, 0);
    if (!(E > 0) || !(nu > -1 && nu < 0.5) || rho < 0)
        return lu_error(L, fn, "need E > 0, -1 < nu < 0.5, rho >= 0 (got %g, %g, %g)", E, nu, rho);
    push_materials(L);
    push_material(L, name, E, nu, rho);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, name);
    plausible_E(L, fn, E);
    plausible_rho(L, fn, rho);
    return 1;
}

/* Friction pairs are kept under "a/b" with the names sorted. */
static void push_pair_key(lua_State *L, const char *a, const char *b)
{
    if (strcmp(a, b) > 0) {
        const char *t = a;
        a = b, b = t;
    }
    lua_pushfstring(L, "%s/%s", a, b);
}

static int mat_pair(lua_State *L)
{
    const char *a = luaL_checkstring(L, 1), *b = luaL_checkstring(L, 2);
    if (lua_gettop(L) >= 3) { /* set: pair(a, b, { mu_s, mu }) */
        const char *fn = "mech.materials.pair";
        int t = lu_checktable(L, 3, fn, "{ mu_s = ..., mu = ... }");
        double mu_s = lu_number(L, t, fn, "mu_s", 0, 1), mu = lu_number(L, t, fn, "mu", 0, 1);
        if (mu < 0 || mu_s < mu)
            return lu_error(L, fn, "need 0 <= mu <= mu_s (got %g, %g)", mu, mu_s);
    }
    push_materials(L);
    lua_getfield(L, -1, "pairs");
    push_pair_key(L, a, b);
    if (lua_gettop(L) >= 6 && !lua_isnoneornil(L, 3)) {
        lua_pushvalue(L, 3);
        lua_settable(L, -3);
        lua_pushvalue(L, 3);
        return 1;
    }
    if (lua_gettable(L, -2) == LUA_TNIL)
        return luaL_error(L,
                          "mech.materials.pair: no friction data for %s and %s (give it with "
                          "mech.materials.pair(a, b, { mu_s = ..., mu = ... }))",
                          a, b);
    return 1;
}

static void open_materials(lua_State *L)
{
    lua_newtable(L);
    for (size_t i = 0; i < sizeof materials / sizeof materials[0]; i++) {
        push_material(L, materials[i].name, materials[i].E, materials[i].nu, materials[i].rho);
        lua_setfield(L, -2, materials[i].name);
    }
    lua_newtable(L);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        push_pair_key(L, pairs[i].a, pairs[i].b);
        lua_createtable(L, 0, 2);
        lua_pushnumber(L, pairs[i].mu_s);
        lua_setfield(L, -2, "mu_s");
        lua_pushnumber(L, pairs[i].mu);
        lua_setfield(L, -2, "mu");
        lua_settable(L, -3);
    }
    lua_setfield(L, -2, "pairs");
    lua_pushcfunction(L, mat_add);
    lua_setfield(L, -2, "add");
    lua_pushcfunction(L, mat_pair);
    lua_setfield(L, -2, "pair");
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, "mech.materials");
}

/* ---- stiffness --------------------------------------------------------------------------- */

static int stiffness_result(lua_State *L, const char *fn, double k)
{
    if (!(isfinite(k) && k > 0))
        return lu_error(L, fn, "the geometry gives no stiffness (check the dimensions)");
    lua_pushnumber(L, k);
    return 1;
}

static int st_sphere(lua_State *L)
{
    const char *fn = "mech.stiffness.sphere";
    static const char *const known[] = {"material", "materials", "R1", "R2", "concave", NULL};
    int t = lu_checktable(L, 1, fn, "{ materials = {a, b}, R1 = m, R2 = m, concave = false }");
    lu_checkfields(L, t, fn, known, 0);
    double E1, nu1, E2, nu2;
    two_materials(L, t, fn, &E1, &nu1, &E2, &nu2, 0);
    double R1 = lu_number(L, t, fn, "R1", 0, 1), R2 = lu_number(L, t, fn, "R2", INFINITY, 0);
    if (!(R1 > 0) || !(R2 > 0)) return lu_error(L, fn, "radii must be > 0");
    int concave = lu_bool(L, t, fn, "concave", 0);
    return stiffness_result(L, fn, mech_stiffness_sphere(E1, nu1, E2, nu2, R1, R2, concave));
}

static int st_journal(lua_State *L)
{
    const char *fn = "mech.stiffness.journal";
    static const char *const known[] = {"material", "materials", "bearing", "journal", NULL};
    int t = lu_checktable(L, 1, fn, "{ materials = {a, b}, bearing = Rb, journal = Rj }");
    lu_checkfields(L, t, fn, known, 0);
    double E1, nu1, E2, nu2;
    two_materials(L, t, fn, &E1, &nu1, &E2, &nu2, 0);
    double Rb = lu_number(L, t, fn, "bearing", 0, 1), Rj = lu_number(L, t, fn, "journal", 0, 1);
    if (!(Rj > 0 && Rb > Rj))
        return lu_error(L, fn, "need bearing > journal > 0 (got %g, %g)", Rb, Rj);
    return stiffness_result(L, fn, mech_stiffness_journal(E1, nu1, E2, nu2, Rb, Rj));
}

static int st_punch(lua_State *L)
{
    const char *fn = "mech.stiffness.punch";
    static const char *const known[] = {"material", "materials", "a", NULL};
    int t = lu_checktable(L, 1, fn, "{ materials = {a, b}, a = half side }");
    lu_checkfields(L, t, fn, known, 0);
    double E1, nu1, E2, nu2;
    two_materials(L, t, fn, &E1, &nu1, &E2, &nu2, 0);
    double a = lu_number(L, t, fn, "a", 0, 1);
    if (!(a > 0)) return lu_error(L, fn, "the half side 'a' must be > 0");
    return stiffness_result(L, fn, mech_stiffness_punch(E1, nu1, E2, nu2, a));
}

static int st_area(lua_State *L, int triangle)
{
    const char *fn = triangle ? "mech.stiffness.triangle" : "mech.stiffness.rectangle";
    static const char *const known[] = {"material", "materials", "area", "a", "b", NULL};
    int t = lu_checktable(L, 1, fn, "{ materials = {a, b}, area = m^2, a = ..., b = ... }");
    lu_checkfields(L, t, fn, known, 0);
    double E1, nu1, E2, nu2;
    two_materials(L, t, fn, &E1, &nu1, &E2, &nu2, 0);
    double S = lu_number(L, t, fn, "area", 0, 1), a = lu_number(L, t, fn, "a", 0, 1),
           b = lu_number(L, t, fn, "b", 0, 1);
    if (!(S > 0 && a > 0 && b > 0)) return lu_error(L, fn, "area, a and b must be > 0");
    double k = triangle ? mech_stiffness_triangle(E1, nu1, E2, nu2, S, a, b)
                        : mech_stiffness_rectangle(E1, nu1, E2, nu2, S, a, b);
    return stiffness_result(L, fn, k);
}

static int st_rectangle(lua_State *L)
{
    return st_area(L, 0);
}

static int st_triangle(lua_State *L)
{
    return st_area(L, 1);
}

/* ---- laws ------------------------------------------------------------------------------- */

/*
** The fields each law takes, as mechlua-contact(3) lists them: a law refuses the fields of
** the others (a restitution given to hertz would be silently elastic).  A normal law may
** take its K from materials and a geometry instead (all but kelvin_voigt, a linear spring
** whose K is not Hertz's).
*/
#define MATERIAL_FIELDS "material", "materials", "radius", "bearing", "journal"
static const char *const kelvin_voigt_fields[] = {"K", "c", NULL};
static const char *const hertz_fields[] = {"K", "n", MATERIAL_FIELDS, NULL};
static const char *const hunt_crossley_fields[] = {"K", "n", "b", "p", "q", MATERIAL_FIELDS, NULL};
static const char *const restitution_fields[] = {"K", "n", "restitution", "v_min", MATERIAL_FIELDS,
                                                 NULL};
static const char *const material_fields[] = {MATERIAL_FIELDS, NULL};

static const char *const coulomb_fields[] = {"mu", "regularization", "v_reg", NULL};
static const char *const stick_fields[] = {"mu", "mu_s", "v_eps", NULL};
static const char *const ambrosio_fields[] = {"mu", "v0", "v1", NULL};
static const char *const adams_fields[] = {"mu", "mu_s", "v0", "v1", NULL};
static const char *const threlfall_fields[] = {"mu", "v0", NULL};
static const char *const stribeck_fields[] = {"mu",     "mu_s",           "vs",    "delta",
                                              "sigma2", "regularization", "v_reg", NULL};
static const char *const dahl_fields[] = {"mu", "sigma0", "bounded", "reset", NULL};
static const char *const lugre_fields[] = {"mu",      "mu_s",   "vs",     "delta",
                                           "sigma0",  "sigma1", "sigma2", "normalized",
                                           "bounded", "reset",  NULL};

/* The values of 'regularization' in the order of mech_friction_reg, and of 'reset'. */
static const char *const reg_options[] = {"none", "linear", "tanh", "sqrt", NULL};
static const char *const reset_options[] = {"onset", "never", NULL};

static const char *const *normal_fields(mech_normal_type type)
{
    switch (type) {
    case MECH_NORMAL_KELVIN_VOIGT: return kelvin_voigt_fields;
    case MECH_NORMAL_HERTZ: return hertz_fields;
    case MECH_NORMAL_HUNT_CROSSLEY: return hunt_crossley_fields;
    default: return restitution_fields;
    }
}

static const char *const *friction_fields(mech_friction_type type)
{
    switch (type) {
    case MECH_FRICTION_COULOMB:
    case MECH_FRICTION_COULOMB_LINEAR:
    case MECH_FRICTION_COULOMB_TANH: return coulomb_fields;
    case MECH_FRICTION_STICK: return stick_fields;
    case MECH_FRICTION_AMBROSIO: return ambrosio_fields;
    case MECH_FRICTION_ADAMS: return adams_fields;
    case MECH_FRICTION_THRELFALL: return threlfall_fields;
    case MECH_FRICTION_STRIBECK: return stribeck_fields;
    case MECH_FRICTION_DAHL: return dahl_fields;
    case MECH_FRICTION_LUGRE:
    case MECH_FRICTION_LUGRE_NORMALIZED: return lugre_fields;
    default: return NULL;
    }
}

static int in_list(const char *const list[], const char *s)
{
    for (int i = 0; list && list[i]; i++)
        if (strcmp(list[i], s) == 0) return 1;
    return 0;
}

/*
** Raises unless every key of the law table t is one of the law's fields (or, with tags,
** the "kind" and "law" a law table carries): "unknown field 'restitution' (known fields
** of mech.contact.hertz: K, n, ...)".  where prefixes the message (a contact element's
** field holding the law), name is the law's Lua name.
*/
static void check_law_fields(lua_State *L, int t, const char *fn, const char *where,
                             const char *family, const char *name, const char *const fields[],
                             int tags)
{
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING)
            lu_error(L, fn, "%sunexpected %s key in the law's table (only named fields)", where,
                     luaL_typename(L, -1));
        const char *k = lua_tostring(L, -1);
        if (in_list(fields, k) || (tags && (strcmp(k, "kind") == 0 || strcmp(k, "law") == 0)))
            continue;
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        for (int i = 0; fields[i]; i++) {
            if (i) luaL_addstring(&b, ", ");
            luaL_addstring(&b, fields[i]);
        }
        luaL_pushresult(&b);
        lu_error(L, fn, "%sunknown field '%s' (known fields of mech.%s.%s: %s)", where, k, family,
                 name, lua_tostring(L, -1));
    }
}

/* 1 when field key of table t is present (not nil). */
static int has_field(lua_State *L, int t, const char *key)
{
    int present = lua_getfield(L, t, key) != LUA_TNIL;
    lua_pop(L, 1);
    return present;
}

/*
** hunt_crossley has two forms, told apart by their fields: 'b' (the general form) or
** 'restitution' (Hunt and Crossley's 1975 law).  Exactly one must be given.
*/
static mech_normal_type normal_variant(lua_State *L, int t, const char *fn, mech_normal_type type)
{
    if (type != MECH_NORMAL_HUNT_CROSSLEY && type != MECH_NORMAL_HC_RESTITUTION) return type;
    int has_b = has_field(L, t, "b"), has_e = has_field(L, t, "restitution");
    if (has_b && has_e)
        lu_error(L, fn,
                 "give 'b' (the general form) or 'restitution' (the restitution form), not both");
    if (!has_b && !has_e)
        lu_error(L, fn,
                 "give 'b' (the general form K d^n + b d^p sgn(dd) |dd|^q) or "
                 "'restitution' (the restitution form)");
    return has_e ? MECH_NORMAL_HC_RESTITUTION : MECH_NORMAL_HUNT_CROSSLEY;
}

/*
** The type a friction law table selects: coulomb's regularization "linear" and "tanh" are
** types of their own (MECH_FRICTION_COULOMB_LINEAR, _TANH), "sqrt" is plain Coulomb with
** reg (read by lcontact_friction, as stribeck's); lugre's normalized form is a type.
*/
static mech_friction_type friction_variant(lua_State *L, int t, const char *fn,
                                           mech_friction_type type)
{
    int coulomb = type == MECH_FRICTION_COULOMB || type == MECH_FRICTION_COULOMB_LINEAR ||
                  type == MECH_FRICTION_COULOMB_TANH;
    if (coulomb || type == MECH_FRICTION_STRIBECK) {
        int reg = lu_option(L, t, fn, "regularization", reg_options, MECH_FRICTION_REG_NONE);
        if (reg == MECH_FRICTION_REG_NONE && has_field(L, t, "v_reg"))
            lu_error(L, fn,
                     "field 'v_reg' is for regularization = \"linear\", \"tanh\" or \"sqrt\" "
                     "(plain %s friction has none)",
                     coulomb ? "Coulomb" : "Stribeck");
        if (!coulomb) return type;
        return reg == MECH_FRICTION_REG_LINEAR ? MECH_FRICTION_COULOMB_LINEAR
               : reg == MECH_FRICTION_REG_TANH ? MECH_FRICTION_COULOMB_TANH
                                               : MECH_FRICTION_COULOMB;
    }
    if (type == MECH_FRICTION_LUGRE || type == MECH_FRICTION_LUGRE_NORMALIZED) {
        int normalized = lu_bool(L, t, fn, "normalized", 0);
        if (normalized && lu_bool(L, t, fn, "bounded", 0))
            lu_error(L, fn,
                     "field 'bounded' is for the force form of lugre (not with normalized = "
                     "true)");
        return normalized ? MECH_FRICTION_LUGRE_NORMALIZED : MECH_FRICTION_LUGRE;
    }
    return type;
}

/* Makes the law table: the argument's fields, checked, with `law` and `kind` set. */
static void finish_law(lua_State *L, int t, const char *kind, const char *name)
{
    lua_pushstring(L, kind);
    lua_setfield(L, t, "kind");
    lua_pushstring(L, name);
    lua_setfield(L, t, "law");
    lua_pushvalue(L, t);
    luaL_setmetatable(L, LAW_MT);
}

/* Pushes a shallow copy of the table at t (a law's checked arguments); returns its index. */
static int copy_arguments(lua_State *L, int t)
{
    lua_newtable(L);
    int copy = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, copy);
    }
    return copy;
}

/*
** K of the law table at law from its materials and geometry: 'radius' (a sphere on a
** plane) or 'bearing' and 'journal', never both, and never beside K.  The stiffness is
** Hertz's, for n = 1.5.
*/
static double stiffness_from_materials(lua_State *L, int law, const char *fn)
{
    double E1, nu1, E2, nu2, n;
    two_materials(L, law, fn, &E1, &nu1, &E2, &nu2, 1);
    int has_r = has_field(L, law, "radius");
    int has_bj = has_field(L, law, "bearing") || has_field(L, law, "journal");
    if (!has_r && !has_bj)
        lu_error(L, fn,
                 "give 'K', or a material and a geometry: 'radius' (a sphere on a plane) "
                 "or 'bearing' and 'journal'");
    if (has_r && has_bj)
        lu_error(L, fn, "give 'radius' (a sphere on a plane) or 'bearing' and 'journal', not both");
    if (lu_optnumber(L, law, fn, "n", &n) && n != 1.5)
        lu_error(L, fn,
                 "field 'n' must be 1.5 with a stiffness from materials (Hertz's; got %g): give "
                 "'K' for another exponent",
                 n);
    if (has_r) {
        double R = lu_number(L, law, fn, "radius", 0, 1);
        if (!(R > 0)) lu_error(L, fn, "field 'radius' must be > 0 (got %g)", R);
        return mech_stiffness_sphere(E1, nu1, E2, nu2, R, INFINITY, 0);
    }
    double Rb = lu_number(L, law, fn, "bearing", 0, 1), Rj = lu_number(L, law, fn, "journal", 0, 1);
    if (!(Rj > 0 && Rb > Rj)) lu_error(L, fn, "need bearing > journal > 0 (got %g, %g)", Rb, Rj);
    return mech_stiffness_journal(E1, nu1, E2, nu2, Rb, Rj);
}

/* mech.contact.<law>{...}: the upvalue is the law's type. */
static int contact_law(lua_State *L)
{
    mech_normal_type type = (mech_normal_type)lua_tointeger(L, lua_upvalueindex(1));
    char fn[64];
    const char *name = mech_normal_name(type);
    snprintf(fn, sizeof fn, "mech.contact.%s", name);
    int t = lu_checktable(L, 1, fn, "of named parameters");
    type = normal_variant(L, t, fn, type);
    check_law_fields(L, t, fn, "", "contact", name, normal_fields(type), 0);
    lua_settop(L, 1);
    int law = copy_arguments(L, t);
    /* K from materials and geometry when it is not given */
    int from_materials = 0;
    for (int i = 0; material_fields[i]; i++)
        from_materials |= has_field(L, law, material_fields[i]);
    if (from_materials && has_field(L, law, "K"))
        lu_error(L, fn, "give 'K', or a material and a geometry, not both");
    if (!has_field(L, law, "K")) {
        if (type == MECH_NORMAL_KELVIN_VOIGT) lu_error(L, fn, "field 'K' is required (a number)");
        lua_pushnumber(L, stiffness_from_materials(L, law, fn));
        lua_setfield(L, law, "K");
    }
    mech_normal_law nl;
    lcontact_normal(L, law, fn, type, &nl);
    /* store the defaults back, so the table shows what is used */
    if (type != MECH_NORMAL_KELVIN_VOIGT) {
        lua_pushnumber(L, nl.n);
        lua_setfield(L, law, "n");
    }
    if (mech_normal_uses_impact(&nl)) {
        lua_pushnumber(L, nl.v_min);
        lua_setfield(L, law, "v_min");
    }
    finish_law(L, law, "contact", name);
    return 1;
}

/*
** Reads the fields of the law of the given type from table t, each law its own (the
** others keep their defaults, which the law does not use).
*/
void lcontact_normal(lua_State *L, int t, const char *fn, mech_normal_type type,
                     mech_normal_law *out)
{
    mech_normal_law nl = mech_normal_default(type);
    nl.K = lu_number(L, t, fn, "K", 0, 1);
    if (type != MECH_NORMAL_KELVIN_VOIGT) nl.n = lu_number(L, t, fn, "n", nl.n, 0);
    if (type == MECH_NORMAL_KELVIN_VOIGT) nl.c = lu_number(L, t, fn, "c", nl.c, 0);
    if (type == MECH_NORMAL_HUNT_CROSSLEY) {
        nl.c = lu_number(L, t, fn, "b", 0, 1);
        nl.p = lu_number(L, t, fn, "p", nl.n, 0); /* default: n, as documented */
        nl.q = lu_number(L, t, fn, "q", nl.q, 0);
    }
    if (mech_normal_uses_impact(&nl)) {
        nl.e = lu_number(L, t, fn, "restitution", 0, 1);
        nl.v_min = lu_number(L, t, fn, "v_min", nl.v_min, 0);
    }
    mech_error err;
    if (mech_normal_check(&nl, &err) != MECH_OK) lu_mech_error(L, fn, &err);
    *out = nl;
}

static int friction_law(lua_State *L)
{
    mech_friction_type type = (mech_friction_type)lua_tointeger(L, lua_upvalueindex(1));
    char fn[64];
    const char *name = mech_friction_name(type);
    snprintf(fn, sizeof fn, "mech.friction.%s", name);
    int t = lu_checktable(L, 1, fn, "of named parameters");
    check_law_fields(L, t, fn, "", "friction", name, friction_fields(type), 0);
    lua_settop(L, 1);
    int law = copy_arguments(L, t);
    type = friction_variant(L, law, fn, type);
    mech_friction_law fl;
    lcontact_friction(L, law, fn, type, &fl);
    finish_law(L, law, "friction", name);
    if (type != MECH_FRICTION_NONE) {
        plausible_mu(L, fn, "mu", fl.mu);
        if (fl.mu_s != fl.mu) plausible_mu(L, fn, "mu_s", fl.mu_s);
    }
    return 1;
}

void lcontact_friction(lua_State *L, int t, const char *fn, mech_friction_type type,
                       mech_friction_law *out)
{
    mech_friction_law fl = mech_friction_default(type);
    const char *const *fields = friction_fields(type);
    double *const slots[] = {&fl.mu_s, &fl.v_reg, &fl.v_eps,  &fl.v0,     &fl.v1,
                             &fl.vs,   &fl.delta, &fl.sigma0, &fl.sigma1, &fl.sigma2};
    static const char *const keys[] = {"mu_s", "v_reg", "v_eps",  "v0",     "v1",
                                       "vs",   "delta", "sigma0", "sigma1", "sigma2"};
    fl.mu = lu_number(L, t, fn, "mu", fl.mu, type != MECH_FRICTION_NONE);
    fl.mu_s = fl.mu; /* default: mu, as documented */
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (in_list(fields, keys[i])) *slots[i] = lu_number(L, t, fn, keys[i], *slots[i], 0);
    /* coulomb's "linear" and "tanh" are in its type (friction_variant); "sqrt" and
    ** stribeck's regularisations in reg */
    if (type == MECH_FRICTION_COULOMB || type == MECH_FRICTION_STRIBECK)
        fl.reg = (mech_friction_reg)lu_option(L, t, fn, "regularization", reg_options,
                                              MECH_FRICTION_REG_NONE);
    if (in_list(fields, "bounded")) fl.bounded = lu_bool(L, t, fn, "bounded", 0);
    if (in_list(fields, "reset")) fl.keep_bristles = lu_option(L, t, fn, "reset", reset_options, 0);
    mech_error err;
    if (mech_friction_check(&fl, &err) != MECH_OK) lu_mech_error(L, fn, &err);
    *out = fl;
}

/* A law of the other kind given as field `field`, or one whose field 'kind' was changed after
** its constructor (neither kind). */
static int wrong_kind(lua_State *L, const char *fn, const char *field, const char *want,
                      const char *kind)
{
    if (strcmp(kind, "contact") == 0 || strcmp(kind, "friction") == 0)
        return lu_error(L, fn, "field '%s' must be a %s law (got a %s law)", field, want, kind);
    return lu_error(L, fn,
                    "field '%s' must be a %s law (its field 'kind' is \"%s\", not \"%s\": "
                    "changed after its constructor?)",
                    field, want, kind, want);
}

int lcontact_read(lua_State *L, int idx, const char *fn, const char *field, mech_normal_law *nl,
                  mech_friction_law *fl)
{
    idx = lua_absindex(L, idx);
    int is_law = 0;
    if (lua_istable(L, idx) && lua_getmetatable(L, idx)) {
        luaL_getmetatable(L, LAW_MT);
        is_law = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
    }
    if (!is_law)
        return lu_error(L, fn, "field '%s' must be a law made by mech.%s.<name>{...} (got %s)",
                        field, nl ? "contact" : "friction", luaL_typename(L, idx));
    const char *kind = lu_string(L, idx, fn, "kind", "");
    const char *name = lu_string(L, idx, fn, "law", "");
    char where[64];
    snprintf(where, sizeof where, "field '%s': ", field);
    /* the law's own errors (its values, its options) name the field that holds it */
    char sub[256];
    snprintf(sub, sizeof sub, "%s: field '%s'", fn, field);
    if (nl) {
        if (strcmp(kind, "contact") != 0) return wrong_kind(L, fn, field, "contact", kind);
        for (int k = 0; k < MECH_NORMAL_COUNT; k++)
            if (strcmp(mech_normal_name((mech_normal_type)k), name) == 0) {
                mech_normal_type type = normal_variant(L, idx, sub, (mech_normal_type)k);
                check_law_fields(L, idx, fn, where, "contact", name, normal_fields(type), 1);
                lcontact_normal(L, idx, sub, type, nl);
                return 0;
            }
    } else {
        if (strcmp(kind, "friction") != 0) return wrong_kind(L, fn, field, "friction", kind);
        for (int k = 0; k < MECH_FRICTION_COUNT; k++)
            if (k != MECH_FRICTION_NONE &&
                strcmp(mech_friction_name((mech_friction_type)k), name) == 0) {
                mech_friction_type type = (mech_friction_type)k;
                check_law_fields(L, idx, fn, where, "friction", name, friction_fields(type), 1);
                lcontact_friction(L, idx, sub, friction_variant(L, idx, sub, type), fl);
                return 0;
            }
    }
    return lu_error(L, fn, "field '%s': unknown law '%s'", field, name);
}

static int law_tostring(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_getfield(L, 1, "kind");
    lua_getfield(L, 1, "law");
    lua_pushfstring(L, "%s law %s:", lua_tostring(L, -2), lua_tostring(L, -1));
    luaL_Buffer b;
    luaL_buffinit(L,
                  &b); /* the buffer may hold a stack slot: the title goes on through the stack */
    lua_pushvalue(L, -2);
    luaL_addvalue(&b);
    static const char *const order[] = {
        "K", "n", "c", "b", "p", "q", "restitution", "v_min", "mu", "mu_s", "v_reg", "v_eps", "v0",
        "v1", "vs", "delta", "sigma0", "sigma1", "sigma2",
        /* the options of the friction laws (strings and booleans) */
        "regularization", "normalized", "bounded", "reset", NULL};
    for (int i = 0; order[i]; i++) {
        int t = lua_getfield(L, 1, order[i]);
        if (t == LUA_TNUMBER || t == LUA_TBOOLEAN || t == LUA_TSTRING) {
            const char *q = t == LUA_TSTRING ? "\"" : "";
            lua_pushfstring(L, " %s = %s%s%s", order[i], q, luaL_tolstring(L, -1, NULL), q);
            lua_remove(L, -2);
            lua_remove(L, -2);
            luaL_addvalue(&b);
        } else {
            lua_pop(L, 1);
        }
    }
    luaL_pushresult(&b);
    return 1;
}

void lmech_open_contact(lua_State *L)
{
    int mech = lua_gettop(L);
    luaL_newmetatable(L, LAW_MT);
    lua_pushcfunction(L, law_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);

    lua_newtable(L);
    for (int k = 0; k < MECH_NORMAL_COUNT; k++) {
        if (k == MECH_NORMAL_HC_RESTITUTION) continue; /* hunt_crossley{ restitution = } */
        lua_pushinteger(L, k);
        lua_pushcclosure(L, contact_law, 1);
        lua_setfield(L, -2, mech_normal_name((mech_normal_type)k));
    }
    lua_getfield(L, -1, "hu_guo");
    lua_setfield(L, -2, "modified"); /* [Sci. Rep. 2023]'s "modified" model is Hu and Guo's */
    lua_setfield(L, mech, "contact");

    lua_newtable(L);
    static const mech_friction_type exposed[] = {MECH_FRICTION_COULOMB,  MECH_FRICTION_STICK,
                                                 MECH_FRICTION_AMBROSIO, MECH_FRICTION_THRELFALL,
                                                 MECH_FRICTION_STRIBECK, MECH_FRICTION_DAHL,
                                                 MECH_FRICTION_LUGRE,    MECH_FRICTION_ADAMS};
    for (size_t i = 0; i < sizeof exposed / sizeof exposed[0]; i++) {
        lua_pushinteger(L, exposed[i]);
        lua_pushcclosure(L, friction_law, 1);
        lua_setfield(L, -2, mech_friction_name(exposed[i]));
    }
    lua_setfield(L, mech, "friction");

    static const luaL_Reg stiffness[] = {{"sphere", st_sphere},     {"journal", st_journal},
                                         {"punch", st_punch},       {"rectangle", st_rectangle},
                                         {"triangle", st_triangle}, {NULL, NULL}};
    luaL_newlib(L, stiffness);
    lua_setfield(L, mech, "stiffness");

    open_materials(L);
    lua_setfield(L, mech, "materials");
}
