/* SPDX-License-Identifier: MIT */
/*
** How the REPL shows values.  A table is listed one level deep: its sequence part
** 1..#t in order, then the other keys sorted (numbers, strings, booleans, the rest),
** followed by its length as a Lua comment, e.g.
**     { 10, 20, name = "crank", pos = {...} }  -- #2
** Nested tables appear as {...} (or {} when empty); strings in tables are quoted.
** Anything else, and tables with __tostring, go through luaL_tolstring.
*/
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "repl.h"

#define SHOW_MAX_ITEMS  40  /* entries listed before "... (+n more)" */
#define SHOW_MAX_STRING 120 /* bytes of a string shown inside a table */

const char *const repl_keywords[] = {"and",   "break", "do",       "else",  "elseif", "end",
                                     "false", "for",   "function", "goto",  "if",     "in",
                                     "local", "nil",   "not",      "or",    "repeat", "return",
                                     "then",  "true",  "until",    "while", NULL};

static int is_alpha(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int repl_is_identifier(const char *s, size_t len)
{
    if (len == 0 || !is_alpha(s[0])) return 0;
    for (size_t i = 1; i < len; i++)
        if (!is_alpha(s[i]) && !(s[i] >= '0' && s[i] <= '9')) return 0;
    for (const char *const *k = repl_keywords; *k; k++)
        if (strlen(*k) == len && memcmp(*k, s, len) == 0) return 0;
    return 1;
}

static void show_quoted(const char *s, size_t len, FILE *out)
{
    size_t shown = len > SHOW_MAX_STRING ? SHOW_MAX_STRING : len;
    fputc('"', out);
    for (size_t i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (c < 32 || c == 127)
                fprintf(out, "\\%03d", c); /* 3 digits: never merges with the next */
            else
                fputc(c, out);
        }
    }
    fputc('"', out);
    if (shown < len) fprintf(out, "...(%zu bytes)", len);
}

static int has_tostring(lua_State *L, int idx)
{
    int found = luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL;
    if (found) lua_pop(L, 1);
    return found;
}

/* Whether the value at idx is shown as a table: a table without __tostring, or a list of
** names (entity.channels, run.channels), whose tostring is for print but which the REPL
** shows as the list it is. */
static int shown_as_table(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE) return 0;
    if (!has_tostring(L, idx)) return 1;
    int names = 0;
    if (luaL_getmetafield(L, idx, "__name") != LUA_TNIL) {
        names = lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "mech.names") == 0;
        lua_pop(L, 1);
    }
    return names;
}

/* A value inside a table: quoted strings, {...} for nested tables. */
static void show_item(lua_State *L, int idx, FILE *out)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) == LUA_TSTRING) {
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        show_quoted(s, len, out);
        return;
    }
    if (shown_as_table(L, idx)) {
        lua_pushnil(L);
        if (lua_next(L, idx)) {
            lua_pop(L, 2);
            fputs("{...}", out);
        } else {
            fputs("{}", out);
        }
        return;
    }
    size_t len;
    const char *s = luaL_tolstring(L, idx, &len);
    fwrite(s, 1, len, out);
    lua_pop(L, 1);
}

static void show_key(lua_State *L, int idx, FILE *out)
{
    size_t len;
    if (lua_type(L, idx) == LUA_TSTRING) {
        const char *s = lua_tolstring(L, idx, &len);
        if (repl_is_identifier(s, len)) {
            fwrite(s, 1, len, out);
            fputs(" = ", out);
            return;
        }
    }
    fputc('[', out);
    show_item(L, idx, out);
    fputs("] = ", out);
}

/* Sort record of a key that is not in the sequence part. */
struct sortkey {
    int kind;         /* 0 number, 1 string, 2 boolean, 3 other */
    lua_Number num;   /* numbers and booleans */
    const char *text; /* strings, and tostring of the rest (anchored in a Lua table) */
    size_t len;
    lua_Integer slot; /* index of the key in the anchor table */
};

static int compare_keys(const void *pa, const void *pb)
{
    const struct sortkey *a = pa, *b = pb;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->kind == 0 || a->kind == 2) return (a->num > b->num) - (a->num < b->num);
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->text, b->text, n);
    if (c != 0) return c;
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    return (a->slot > b->slot) - (a->slot < b->slot);
}

static void show_table(lua_State *L, int t, FILE *out)
{
    lua_Integer n = (lua_Integer)lua_rawlen(L, t);
    long shown = 0, total = 0;

    fputc('{', out);
    for (lua_Integer i = 1; i <= n; i++, total++) {
        if (shown >= SHOW_MAX_ITEMS) continue;
        fputs(shown++ ? ", " : " ", out);
        lua_rawgeti(L, t, i);
        show_item(L, -1, out);
        lua_pop(L, 1);
    }

    /* The other keys, anchored in a table, then sorted in C. */
    lua_newtable(L);
    int anchor = lua_gettop(L);
    lua_Integer m = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        if (lua_isinteger(L, -1)) {
            lua_Integer k = lua_tointeger(L, -1);
            if (k >= 1 && k <= n) continue;
        }
        lua_pushvalue(L, -1);
        lua_rawseti(L, anchor, ++m);
    }
    total += (long)m;
    struct sortkey *keys = lua_newuserdatauv(L, (size_t)(m ? m : 1) * sizeof *keys, 0);
    for (lua_Integer i = 1; i <= m; i++) {
        struct sortkey *k = &keys[i - 1];
        memset(k, 0, sizeof *k);
        k->slot = i;
        int type = lua_rawgeti(L, anchor, i);
        if (type == LUA_TNUMBER) {
            k->kind = 0;
            k->num = lua_tonumber(L, -1);
        } else if (type == LUA_TBOOLEAN) {
            k->kind = 2;
            k->num = lua_toboolean(L, -1);
        } else {
            k->kind = type == LUA_TSTRING ? 1 : 3;
            if (type != LUA_TSTRING) { /* anchor its text at slot m + i */
                luaL_tolstring(L, -1, NULL);
                lua_rawseti(L, anchor, m + i);
                lua_rawgeti(L, anchor, m + i);
            }
            k->text = lua_tolstring(L, -1, &k->len);
        }
        lua_pop(L, 1);
    }
    qsort(keys, (size_t)m, sizeof *keys, compare_keys);
    for (lua_Integer i = 0; i < m && shown < SHOW_MAX_ITEMS; i++) {
        fputs(shown++ ? ", " : " ", out);
        lua_rawgeti(L, anchor, keys[i].slot);
        show_key(L, -1, out);
        lua_rawget(L, t);
        show_item(L, -1, out);
        lua_pop(L, 1);
    }
    lua_pop(L, 2); /* keys, anchor */

    if (total > shown) fprintf(out, ", ... (+%ld more)", total - shown);
    fputs(total ? " }" : "}", out);
    fprintf(out, "  -- #%lld", (long long)n);
}

void repl_show(lua_State *L, int idx, FILE *out)
{
    idx = lua_absindex(L, idx);
    luaL_checkstack(L, 8, "showing a value");
    if (shown_as_table(L, idx)) {
        show_table(L, idx, out);
        return;
    }
    size_t len;
    const char *s = luaL_tolstring(L, idx, &len);
    fwrite(s, 1, len, out);
    lua_pop(L, 1);
}
