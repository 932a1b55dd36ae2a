/* SPDX-License-Identifier: MIT */
/*
** sweepcore: the process primitives under the sweep module (stdlib/sweep.lua), which keeps
** the orchestration in Lua.
**
**   local core = require "sweepcore"
**   local hold <close> = core.hold()          -- Ctrl-C reaches the program only in wait()
**   local h = core.spawn(function(i, dir) return { peak = 1.5 } end, 1, "out/cases/1")
**   local done, interrupted = core.wait({ h }, 250)   -- { { i = 1, status = "ok", ... } }
**   core.kill(h)                                -- SIGTERM (or core.kill(h, "KILL"))
**   local s = core.encode{ x = 0.1, files = { "a.csv" } }  -- exact, and back: core.decode(s)
**
** A worker is a fork of the program: no start-up beyond the fork.  The child calls fn(i,
** dir) under pcall, writes what came of it (the values encoded, or the error message and
** traceback) to a pipe and leaves with _exit: the parent's atexit handlers do not run in it
** and the parent's stdio buffers, flushed before the fork, are not written twice.  Whatever
** the case does (an error, an allocation that fails, os.exit, a loop, a signal) ends as a
** record that wait() returns; nothing of it reaches the parent but that record.
**
** Ctrl-C: a sweep holds SIGINT blocked (hold()) except while wait() sleeps in ppoll, so the
** program's interrupt arrives there, never in the middle of the Lua bookkeeping; wait()
** consumes it and returns interrupted = true, and the sweep ends its workers itself.
*/
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>

#include "lmodule.h"
#include "lsweep.h"

#define WORKER_MT  "sweepcore.worker"
#define HOLD_MT    "sweepcore.hold"
#define MAGIC      "mechlua-sweep 1\n"
#define RESULT_MAX ((size_t)64 << 20) /* bytes a worker may send back */
#define TB_KEY     "sweepcore.traceback"

/* ---- signals by name ------------------------------------------------------------------ */

static const struct {
    int sig;
    const char *name;
} signal_names[] = {
    {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
    {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
    {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
    {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGXCPU, "SIGXCPU"},
    {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"},
};
#define NSIGNALS (sizeof signal_names / sizeof signal_names[0])

static const char *signal_name(int sig)
{
    for (size_t k = 0; k < NSIGNALS; k++)
        if (signal_names[k].sig == sig) return signal_names[k].name;
    return NULL;
}

/* The signal at arg: a number, or a name with or without "SIG" ("TERM", "SIGSEGV"). */
static int check_signal(lua_State *L, int arg, const char *fn, int def)
{
    if (lua_isnoneornil(L, arg)) return def;
    if (lua_type(L, arg) == LUA_TNUMBER) {
        lua_Integer s = luaL_checkinteger(L, arg);
        if (s < 1 || s > 64) lu_error(L, fn, "signal %lld is not a signal number", (long long)s);
        return (int)s;
    }
    const char *name = luaL_checkstring(L, arg);
    for (size_t k = 0; k < NSIGNALS; k++)
        if (strcmp(name, signal_names[k].name) == 0 || strcmp(name, signal_names[k].name + 3) == 0)
            return signal_names[k].sig;
    return lu_error(L, fn, "unknown signal '%s' (SIGTERM, SIGKILL, SIGSEGV, ...)", name);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/*
** {==================================================================
** Records: a flat table encoded exactly
** ===================================================================
**
** "mechlua-sweep 1\n", then one line per field in the byte order of the keys:
**   <tag><key length>:<key>=<payload>\n
** tag i: an integer in decimal; f: a float as a hex float from its bits (0x1.<13 hex>p<e>,
** 0x0.<13 hex>p-1022, 0x0p+0, inf, nan:<16 hex of the bits>: every bit kept, no locale);
** b: 0 or 1; s: <length>:<bytes>; l: a list, <count>, then count lines <tag>=<payload>\n.
*/

/* The kind of value a record may hold at idx: 1 scalar, 2 list of scalars, 0 neither. */
static int is_scalar(lua_State *L, int idx)
{
    int t = lua_type(L, idx);
    return t == LUA_TNUMBER || t == LUA_TSTRING || t == LUA_TBOOLEAN;
}

/* 1 when the table at idx is a list (keys 1..n only) of scalars. */
static int is_list(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    lua_Unsigned n = lua_rawlen(L, idx), count = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        int ok = lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 &&
                 (lua_Unsigned)lua_tointeger(L, -2) <= n && is_scalar(L, -1);
        lua_pop(L, 1);
        if (!ok) {
            lua_pop(L, 1);
            return 0;
        }
        count++;
    }
    return count == n;
}

/*
** Checks that the table at idx can be encoded: string keys, values scalars or lists of
** scalars.  Returns 1, or 0 with the reason in why ("field 'x': a function ...").
*/
static int check_record(lua_State *L, int idx, char *why, size_t size)
{
    idx = lua_absindex(L, idx);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (lua_type(L, -2) != LUA_TSTRING) {
            if (lua_isinteger(L, -2))
                snprintf(why, size, "key " LUA_INTEGER_FMT ": the names of values must be strings",
                         (LUAI_UACINT)lua_tointeger(L, -2));
            else
                snprintf(why, size, "a key that is a %s: the names of values must be strings",
                         luaL_typename(L, -2));
            lua_pop(L, 2);
            return 0;
        }
        int ok = is_scalar(L, -1) || (lua_type(L, -1) == LUA_TTABLE && is_list(L, -1));
        if (!ok) {
            if (lua_type(L, -1) == LUA_TTABLE)
                snprintf(why, size,
                         "field '%s' is a table that is not a list of numbers, strings or booleans",
                         lua_tostring(L, -2));
            else
                snprintf(why, size, "field '%s' is a %s", lua_tostring(L, -2),
                         luaL_typename(L, -1));
            lua_pop(L, 2);
            return 0;
        }
        lua_pop(L, 1);
    }
    return 1;
}

static void add_double(luaL_Buffer *b, double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    const char *sign = (u >> 63) ? "-" : "";
    unsigned e = (unsigned)(u >> 52) & 0x7ffu;
    unsigned long long m = (unsigned long long)(u & 0xfffffffffffffULL);
    char s[48];
    if (e == 0x7ff && m)
        snprintf(s, sizeof s, "nan:%016llx", (unsigned long long)u);
    else if (e == 0x7ff)
        snprintf(s, sizeof s, "%sinf", sign);
    else if (e == 0 && m == 0)
        snprintf(s, sizeof s, "%s0x0p+0", sign);
    else if (e == 0)
        snprintf(s, sizeof s, "%s0x0.%013llxp-1022", sign, m);
    else
        snprintf(s, sizeof s, "%s0x1.%013llxp%+d", sign, m, (int)e - 1023);
    luaL_addstring(b, s);
}

/* A scalar read off the stack, to be added to a buffer after it was popped (the rule of
** luaL_Buffer: the stack must be as the buffer left it).  Strings stay alive in their
** table. */
typedef struct scalar {
    int type, isint;
    lua_Integer i;
    double d;
    const char *s;
    size_t len;
} scalar;

static scalar read_scalar(lua_State *L, int idx)
{
    scalar v = {lua_type(L, idx), 0, 0, 0, NULL, 0};
    if (v.type == LUA_TNUMBER) {
        v.isint = lua_isinteger(L, idx);
        if (v.isint)
            v.i = lua_tointeger(L, idx);
        else
            v.d = lua_tonumber(L, idx);
    } else if (v.type == LUA_TBOOLEAN) {
        v.i = lua_toboolean(L, idx);
    } else {
        v.s = lua_tolstring(L, idx, &v.len);
    }
    return v;
}

static char scalar_tag(const scalar *v)
{
    if (v->type == LUA_TNUMBER) return v->isint ? 'i' : 'f';
    return v->type == LUA_TBOOLEAN ? 'b' : 's';
}

/* "=<payload>\n" of a scalar. */
static void add_payload(luaL_Buffer *b, const scalar *v)
{
    char s[48];
    if (v->type == LUA_TNUMBER && v->isint) {
        snprintf(s, sizeof s, "=" LUA_INTEGER_FMT, (LUAI_UACINT)v->i);
        luaL_addstring(b, s);
    } else if (v->type == LUA_TNUMBER) {
        luaL_addchar(b, '=');
        add_double(b, v->d);
    } else if (v->type == LUA_TBOOLEAN) {
        luaL_addstring(b, v->i ? "=1" : "=0");
    } else {
        snprintf(s, sizeof s, "=%zu:", v->len);
        luaL_addstring(b, s);
        luaL_addlstring(b, v->s, v->len);
    }
    luaL_addchar(b, '\n');
}

typedef struct key {
    const char *s;
    size_t len;
} key;

static int key_cmp(const void *a, const void *b)
{
    const key *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, n);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Pushes the field of the table at idx named by k. */
static int push_field(lua_State *L, int idx, const key *k)
{
    lua_pushlstring(L, k->s, k->len);
    return lua_rawget(L, idx);
}

/* Pushes the encoding of the table at idx, which check_record accepted. */
static void push_record(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    size_t n = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) lua_pop(L, 1), n++;
    key *keys = lua_newuserdatauv(L, sizeof(key) * (n ? n : 1), 0);
    size_t k = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        keys[k].s = lua_tolstring(L, -1, &keys[k].len); /* anchored in the table */
        k++;
    }
    qsort(keys, n, sizeof(key), key_cmp);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, MAGIC);
    char head[48];
    for (k = 0; k < n; k++) {
        int islist = push_field(L, idx, &keys[k]) == LUA_TTABLE;
        lua_Integer count = islist ? (lua_Integer)lua_rawlen(L, -1) : 0;
        scalar v = islist ? (scalar){0, 0, 0, 0, NULL, 0} : read_scalar(L, -1);
        lua_pop(L, 1);
        snprintf(head, sizeof head, "%c%zu:", islist ? 'l' : scalar_tag(&v), keys[k].len);
        luaL_addstring(&b, head);
        luaL_addlstring(&b, keys[k].s, keys[k].len);
        if (!islist) {
            add_payload(&b, &v);
            continue;
        }
        snprintf(head, sizeof head, "=" LUA_INTEGER_FMT "\n", (LUAI_UACINT)count);
        luaL_addstring(&b, head);
        for (lua_Integer j = 1; j <= count; j++) {
            push_field(L, idx, &keys[k]);
            lua_rawgeti(L, -1, j);
            scalar item = read_scalar(L, -1);
            lua_pop(L, 2);
            luaL_addchar(&b, scalar_tag(&item));
            add_payload(&b, &item);
        }
    }
    luaL_pushresult(&b);
    lua_remove(L, -2); /* the keys */
}

/* A cursor over an encoded record. */
typedef struct reader {
    const char *p, *end;
} reader;

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Exactly n hex digits of s into *out. */
static int read_hex(const char *s, int n, uint64_t *out)
{
    uint64_t v = 0;
    for (int k = 0; k < n; k++) {
        int h = hexval((unsigned char)s[k]);
        if (h < 0) return 0;
        v = v << 4 | (uint64_t)h;
    }
    *out = v;
    return 1;
}

/* A float as add_double writes it, s[0..n). */
static int parse_double(const char *s, size_t n, double *out)
{
    char t[48];
    if (n == 0 || n >= sizeof t) return 0;
    memcpy(t, s, n);
    t[n] = '\0';
    uint64_t u, m;
    if (n == 20 && memcmp(t, "nan:", 4) == 0) {
        if (!read_hex(t + 4, 16, &u)) return 0;
        if (((u >> 52) & 0x7ff) != 0x7ff || (u & 0xfffffffffffffULL) == 0) return 0;
        memcpy(out, &u, sizeof u);
        return 1;
    }
    const char *p = t;
    uint64_t sign = 0;
    if (*p == '-') sign = 1, p++;
    uint64_t e;
    if (strcmp(p, "inf") == 0) {
        e = 0x7ff, m = 0;
    } else if (strcmp(p, "0x0p+0") == 0) {
        e = 0, m = 0;
    } else if (strncmp(p, "0x0.", 4) == 0 && strlen(p) == 4 + 13 + 6 &&
               strcmp(p + 17, "p-1022") == 0) {
        if (!read_hex(p + 4, 13, &m) || m == 0) return 0;
        e = 0;
    } else if (strncmp(p, "0x1.", 4) == 0 && strlen(p) > 19 && p[17] == 'p' &&
               (p[18] == '+' || p[18] == '-')) {
        if (!read_hex(p + 4, 13, &m)) return 0;
        char *q;
        errno = 0;
        long x = strtol(p + 18, &q, 10);
        if (*q || errno || x < -1022 || x > 1023) return 0;
        e = (uint64_t)(x + 1023);
    } else {
        return 0;
    }
    u = sign << 63 | e << 52 | m;
    memcpy(out, &u, sizeof u);
    return 1;
}

/* A decimal size up to the delimiter c. */
static int read_size(reader *r, char c, size_t *out)
{
    size_t v = 0;
    const char *p = r->p;
    if (p >= r->end || *p < '0' || *p > '9') return 0;
    while (p < r->end && *p >= '0' && *p <= '9') {
        if (v > (SIZE_MAX - 9) / 10) return 0;
        v = v * 10 + (size_t)(*p++ - '0');
    }
    if (p >= r->end || *p != c) return 0;
    r->p = p + 1;
    *out = v;
    return 1;
}

/* Pushes the value of tag after '=' up to the end of the line (consumed).  0 if malformed. */
static int read_value(lua_State *L, reader *r, char tag)
{
    if (tag == 's') {
        size_t len;
        if (!read_size(r, ':', &len) || (size_t)(r->end - r->p) < len + 1 || r->p[len] != '\n')
            return 0;
        lua_pushlstring(L, r->p, len);
        r->p += len + 1;
        return 1;
    }
    const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    if (nl == NULL) return 0;
    size_t n = (size_t)(nl - r->p);
    if (tag == 'b') {
        if (n != 1 || (*r->p != '0' && *r->p != '1')) return 0;
        lua_pushboolean(L, *r->p == '1');
    } else if (tag == 'f') {
        double d;
        if (!parse_double(r->p, n, &d)) return 0;
        lua_pushnumber(L, d);
    } else if (tag == 'i') {
        char t[32];
        if (n == 0 || n >= sizeof t) return 0;
        memcpy(t, r->p, n);
        t[n] = '\0';
        char *q;
        errno = 0;
        long long v = strtoll(t, &q, 10);
        if (*q || errno) return 0;
        lua_pushinteger(L, (lua_Integer)v);
    } else {
        return 0;
    }
    r->p = nl + 1;
    return 1;
}

/* Pushes the table a record encodes; on failure pushes nothing and returns the offset of
** the first byte not understood plus one (0 means success). */
static size_t decode_record(lua_State *L, const char *s, size_t len)
{
    reader r = {s, s + len};
    size_t ml = sizeof MAGIC - 1;
    if (len < ml || memcmp(s, MAGIC, ml) != 0) return 1;
    r.p += ml;
    lua_newtable(L);
    int t = lua_gettop(L);
    while (r.p < r.end) {
        const char *at = r.p;
        char tag = *r.p++;
        size_t klen;
        if (!read_size(&r, ':', &klen) || (size_t)(r.end - r.p) < klen + 1 || r.p[klen] != '=') {
            lua_settop(L, t - 1);
            return (size_t)(at - s) + 1;
        }
        lua_pushlstring(L, r.p, klen);
        r.p += klen + 1;
        if (tag == 'l') {
            size_t count;
            if (!read_size(&r, '\n', &count) || count > (size_t)(r.end - r.p) / 4) {
                lua_settop(L, t - 1);
                return (size_t)(at - s) + 1;
            }
            lua_createtable(L, (int)count, 0);
            for (size_t j = 1; j <= count; j++) {
                const char *iat = r.p;
                if (r.end - r.p < 2 || r.p[1] != '=') {
                    lua_settop(L, t - 1);
                    return (size_t)(iat - s) + 1;
                }
                char itag = *r.p;
                r.p += 2;
                if (!read_value(L, &r, itag)) {
                    lua_settop(L, t - 1);
                    return (size_t)(iat - s) + 1;
                }
                lua_rawseti(L, -2, (lua_Integer)j);
            }
        } else if (!read_value(L, &r, tag)) {
            lua_settop(L, t - 1);
            return (size_t)(at - s) + 1;
        }
        lua_rawset(L, t);
    }
    return 0;
}

/* sweepcore.encode(t) -> string */
static int core_encode(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    char why[200];
    if (!check_record(L, 1, why, sizeof why))
        return lu_error(L, "sweepcore.encode",
                        "%s (values are numbers, strings, booleans or lists of them)", why);
    push_record(L, 1);
    return 1;
}

/* sweepcore.decode(s) -> table | nil, message */
static int core_decode(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    size_t bad = decode_record(L, s, len);
    if (bad == 0) return 1;
    luaL_pushfail(L);
    lua_pushfstring(L, "not a sweep record (malformed at byte %d)", (int)bad);
    return 2;
}

/* }================================================================== */

/*
** {==================================================================
** The worker side (in the child, after the fork)
** ===================================================================
*/

static int child_fd = -1; /* in a worker: the write end of its pipe; -1 in the program */

static void write_all(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(child_fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return;
        }
        p += w, n -= (size_t)w;
    }
}

/* Frame: kind, then each part as <length>:<bytes>. */
static void child_send(char kind, const char *a, size_t na, const char *b, size_t nb)
{
    char head[40];
    int h = snprintf(head, sizeof head, "%c%zu:", kind, na);
    write_all(head, (size_t)h);
    write_all(a, na);
    if (b) {
        h = snprintf(head, sizeof head, "%zu:", nb);
        write_all(head, (size_t)h);
        write_all(b, nb);
    }
}

/* The end of a worker: its own output flushed, nothing of the parent's run again. */
static void child_end(void)
{
    fflush(NULL);
    _exit(0);
}

/* os.exit in a worker: the case ends, recorded as having called it. */
static int child_os_exit(lua_State *L)
{
    int code;
    if (lua_isboolean(L, 1))
        code = lua_toboolean(L, 1) ? EXIT_SUCCESS : EXIT_FAILURE;
    else
        code = (int)luaL_optinteger(L, 1, EXIT_SUCCESS);
    char s[24];
    int n = snprintf(s, sizeof s, "%d", code);
    child_send('X', s, (size_t)n, NULL, 0);
    child_end();
    return 0;
}

/* Message handler of the case: keeps the traceback in the registry, returns the message. */
static int child_msgh(lua_State *L)
{
    const char *msg = host_error_message(L, 1);
    luaL_traceback(L, L, msg, 1);
    /* the frames below the case are the program's, in the parent: not the case's story */
    size_t n;
    const char *tb = lua_tolstring(L, -1, &n);
    const char *cut = strstr(tb, "\n\t[C]: in function 'sweepcore.spawn'");
    if (cut) lua_pushlstring(L, tb, (size_t)(cut - tb)), lua_remove(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, TB_KEY);
    lua_pushstring(L, msg);
    return 1;
}

/* child_encode(v) -> "R", record | "I", why: what the case returned, checked. */
static int child_encode(lua_State *L)
{
    char why[240];
    if (lua_isnoneornil(L, 1)) {
        lua_newtable(L);
        lua_replace(L, 1);
    }
    if (!lua_istable(L, 1)) {
        lua_pushliteral(L, "I");
        lua_pushfstring(L, "returned a %s, not a table of named values", luaL_typename(L, 1));
        return 2;
    }
    if (!check_record(L, 1, why, sizeof why)) {
        lua_pushliteral(L, "I");
        lua_pushstring(L, why);
        return 2;
    }
    lua_pushliteral(L, "R");
    push_record(L, 1);
    return 2;
}

/*
** child_main(fn, i, dir): runs fn(i, dir) in the worker, sends what came of it and ends the
** process; never returns.  It runs under child_run's pcall, so that no error, not even an
** allocation that fails here, unwinds into the program's frames copied by the fork (where
** a pcall of the script would go on running the script in the worker).
*/
static int child_main(lua_State *L)
{
    if (lua_getglobal(L, "os") == LUA_TTABLE) {
        lua_pushcfunction(L, child_os_exit);
        lua_setfield(L, -2, "exit");
    }
    lua_pop(L, 1);
    lua_pushcfunction(L, child_msgh);
    lua_insert(L, 1); /* 1: handler, 2: fn, 3: i, 4: dir */
    int st = lua_pcall(L, 2, 1, 1);
    if (st == LUA_ERRMEM) {
        static const char oom[] = "not enough memory";
        child_send('E', oom, sizeof oom - 1, "", 0);
        child_end();
    }
    if (st != LUA_OK) {
        size_t n = 0, ntb = 0;
        const char *msg = lua_tolstring(L, -1, &n);
        if (msg == NULL) msg = "(error object is not a string)", n = strlen(msg);
        const char *tb = NULL;
        if (st == LUA_ERRRUN && lua_getfield(L, LUA_REGISTRYINDEX, TB_KEY) == LUA_TSTRING)
            tb = lua_tolstring(L, -1, &ntb);
        child_send('E', msg, n, tb ? tb : "", tb ? ntb : 0);
        child_end();
    }
    lua_pushcfunction(L, child_encode);
    lua_insert(L, -2);
    lua_call(L, 1, 2); /* an error here is child_run's */
    size_t n;
    const char *payload = lua_tolstring(L, -1, &n);
    child_send(lua_tostring(L, -2)[0], payload, n, NULL, 0);
    child_end();
    return 0;
}

/* Runs fn(i, dir) in the worker and never returns. */
static void child_run(lua_State *L, int fn, lua_Integer i, int dir)
{
    lua_pushcfunction(L, child_main); /* nothing here allocates: the slots are there */
    lua_pushvalue(L, fn);
    lua_pushinteger(L, i);
    lua_pushvalue(L, dir);
    int st = lua_pcall(L, 3, 0, 0);
    static const char oom[] = "not enough memory in the worker";
    const char *msg = st == LUA_ERRMEM ? oom : lua_tostring(L, -1);
    if (msg == NULL) msg = oom;
    child_send('E', msg, strlen(msg), "", 0);
    child_end();
}

/* The address space of this process in bytes (0 if unknown). */
static size_t vm_size(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1) pages = 0;
        fclose(f);
    }
    long ps = sysconf(_SC_PAGESIZE);
    return (size_t)pages * (size_t)(ps > 0 ? ps : 4096);
}

/* The worker's signals, input and limits, set before the case runs. */
static void child_setup(pid_t parent, int wfd, size_t memory)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = SIG_IGN; /* Ctrl-C is the program's: it ends its workers itself */
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGPIPE, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
#ifdef PR_SET_PDEATHSIG
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* a program killed outright takes its workers along */
    if (getppid() != parent) _exit(1);
#else
    (void)parent;
#endif
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        if (null != STDIN_FILENO) close(null);
    }
    if (child_fd >= 0) close(child_fd); /* a worker's worker: not its parent's pipe */
    child_fd = wfd;
    if (memory > 0) {
        size_t cur = vm_size();
        struct rlimit rl;
        rl.rlim_cur = rl.rlim_max = (rlim_t)(cur + memory);
        setrlimit(RLIMIT_AS, &rl);
    }
}

/* }================================================================== */

/*
** {==================================================================
** The program's side: workers, waiting, ending them
** ===================================================================
*/

typedef struct worker {
    pid_t pid;     /* 0 before the fork */
    pid_t owner;   /* the process that forked it: only it may end and reap it */
    int fd;        /* read end of the pipe, -1 when closed */
    int reaped;    /* waitpid has its status */
    int reported;  /* wait() returned its record */
    int wstatus;   /* from waitpid */
    int killed;    /* the last signal sent by kill(), 0 if none */
    int overflow;  /* it sent more than RESULT_MAX */
    lua_Integer i; /* the case */
    double t0, t1; /* started, reaped (monotonic s) */
    char *buf;     /* what it sent */
    size_t len, cap;
} worker;

static worker *check_worker(lua_State *L, int idx)
{
    return luaL_checkudata(L, idx, WORKER_MT);
}

static void reap(worker *w, int block)
{
    if (w->pid <= 0 || w->reaped) return;
    int st;
    pid_t r;
    do r = waitpid(w->pid, &st, block ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    if (r == w->pid || (r < 0 && errno == ECHILD)) {
        w->reaped = 1;
        w->wstatus = r == w->pid ? st : 0;
        w->t1 = now();
    }
}

/* Reads what the worker sent so far; closes the pipe at its end. */
static void drain(worker *w)
{
    char chunk[65536];
    while (w->fd >= 0) {
        ssize_t n = read(w->fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        if (n <= 0) {
            close(w->fd);
            w->fd = -1;
            return;
        }
        if (w->overflow || w->len + (size_t)n > RESULT_MAX) {
            w->overflow = 1;
            continue;
        }
        if (w->len + (size_t)n > w->cap) {
            size_t cap = w->cap ? w->cap : 4096;
            while (cap < w->len + (size_t)n) cap *= 2;
            char *b = realloc(w->buf, cap);
            if (b == NULL) {
                w->overflow = 1;
                continue;
            }
            w->buf = b, w->cap = cap;
        }
        memcpy(w->buf + w->len, chunk, (size_t)n);
        w->len += (size_t)n;
    }
}

static void worker_release(worker *w)
{
    if (w->pid > 0 && !w->reaped && w->owner == getpid()) { /* not a sibling's, in a worker */
        kill(w->pid, SIGKILL);
        reap(w, 1);
    }
    if (w->fd >= 0) close(w->fd), w->fd = -1;
    free(w->buf);
    w->buf = NULL, w->len = w->cap = 0;
}

static int worker_gc(lua_State *L)
{
    worker_release(check_worker(L, 1));
    return 0;
}

static int worker_index(lua_State *L)
{
    worker *w = check_worker(L, 1);
    const char *k = luaL_checkstring(L, 2);
    if (strcmp(k, "pid") == 0)
        lua_pushinteger(L, w->pid);
    else if (strcmp(k, "i") == 0)
        lua_pushinteger(L, w->i);
    else if (strcmp(k, "running") == 0)
        lua_pushboolean(L, w->pid > 0 && !w->reaped);
    else
        lua_pushnil(L);
    return 1;
}

static int worker_tostring(lua_State *L)
{
    worker *w = check_worker(L, 1);
    lua_pushfstring(L, "sweepcore.worker: case %I, pid %d, %s", (LUAI_UACINT)w->i, (int)w->pid,
                    w->reaped ? "ended" : "running");
    return 1;
}

/* sweepcore.spawn(fn, i, dir [, { memory = bytes }]) -> worker */
static int core_spawn(lua_State *L)
{
    const char *fn = "sweepcore.spawn";
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_Integer i = luaL_checkinteger(L, 2);
    luaL_checkstring(L, 3);
    size_t memory = 0;
    if (!lua_isnoneornil(L, 4)) {
        int o = lu_checktable(L, 4, fn, "of options { memory = bytes }");
        static const char *const known[] = {"memory", NULL};
        lu_checkfields(L, o, fn, known, 0);
        double m = lu_number(L, o, fn, "memory", 0, 0);
        if (m < 0 || m > 1e18) lu_error(L, fn, "field 'memory' must be a number of bytes >= 0");
        memory = (size_t)m;
    }
    lua_settop(L, 3);
    /* the handle first, closed: a failure below leaves nothing running */
    worker *w = lua_newuserdatauv(L, sizeof *w, 0);
    memset(w, 0, sizeof *w);
    w->fd = -1;
    w->i = i;
    luaL_setmetatable(L, WORKER_MT);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return lu_error(L, fn, "cannot make a pipe: %s", strerror(errno));
    fflush(NULL); /* the child must not write the program's buffered output again */
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        return lu_error(L, fn, "cannot start a worker: %s", strerror(e));
    }
    if (pid == 0) {
        close(fds[0]);
        child_setup(parent, fds[1], memory);
        child_run(L, 1, i, 3);
    }
    close(fds[1]);
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    w->pid = pid;
    w->owner = parent;
    w->fd = fds[0];
    w->t0 = now();
    return 1;
}

/* A part "<length>:<bytes>" of a frame at *p; 0 if malformed. */
static int frame_part(const char **p, const char *end, const char **s, size_t *n)
{
    reader r = {*p, end};
    size_t len;
    if (!read_size(&r, ':', &len) || (size_t)(end - r.p) < len) return 0;
    *s = r.p, *n = len;
    *p = r.p + len;
    return 1;
}

static void set_string(lua_State *L, const char *k, const char *s, size_t n)
{
    lua_pushlstring(L, s, n);
    lua_setfield(L, -2, k);
}

/* Pushes the record of a reaped worker whose handle is at hidx. */
static void push_outcome(lua_State *L, worker *w, int hidx)
{
    lua_createtable(L, 0, 10);
    lua_pushinteger(L, w->i);
    lua_setfield(L, -2, "i");
    lua_pushvalue(L, hidx);
    lua_setfield(L, -2, "handle");
    lua_pushinteger(L, w->pid);
    lua_setfield(L, -2, "pid");
    lua_pushnumber(L, w->t1 - w->t0);
    lua_setfield(L, -2, "wall");
    if (w->killed) {
        const char *name = signal_name(w->killed);
        if (name)
            lua_pushstring(L, name);
        else
            lua_pushinteger(L, w->killed);
        lua_setfield(L, -2, "killed");
    }
    /* a whole result counts, even from a worker that died after sending it (a signal
    ** while it flushed its output) */
    const char *p = w->buf, *end = w->buf + w->len, *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    char kind = w->len > 0 ? *p++ : 0;
    int whole = kind && strchr("REIX", kind) && frame_part(&p, end, &a, &na);
    if (whole && kind == 'E') whole = frame_part(&p, end, &b, &nb);
    whole = whole && p == end;
    if (!whole && WIFSIGNALED(w->wstatus)) {
        int sig = WTERMSIG(w->wstatus);
        const char *name = signal_name(sig);
        char buf[32];
        if (name == NULL) snprintf(buf, sizeof buf, "signal %d", sig), name = buf;
        lua_pushliteral(L, "signal");
        lua_setfield(L, -2, "status");
        lua_pushstring(L, name);
        lua_setfield(L, -2, "signal");
        lua_pushinteger(L, sig);
        lua_setfield(L, -2, "signo");
        lua_pushfstring(L, "killed by %s (signal %d)", name, sig);
        lua_setfield(L, -2, "message");
        return;
    }
    if (!whole) {
        lua_pushliteral(L, "error");
        lua_setfield(L, -2, "status");
        int code = WIFEXITED(w->wstatus) ? WEXITSTATUS(w->wstatus) : -1;
        if (w->overflow)
            lua_pushfstring(L, "the worker sent a result larger than %d MiB",
                            (int)(RESULT_MAX >> 20));
        else if (code != 0)
            lua_pushfstring(L, "the worker exited with status %d without a result", code);
        else
            lua_pushliteral(L, "the worker ended without a result");
        lua_setfield(L, -2, "message");
        return;
    }
    if (kind == 'R') {
        if (decode_record(L, a, na) == 0) {
            lua_setfield(L, -2, "values");
            lua_pushliteral(L, "ok");
        } else {
            lua_pushliteral(L, "the worker's result could not be read");
            lua_setfield(L, -2, "message");
            lua_pushliteral(L, "error");
        }
        lua_setfield(L, -2, "status");
    } else if (kind == 'E') {
        set_string(L, "message", a, na);
        set_string(L, "traceback", b, nb);
        lua_pushliteral(L, "error");
        lua_setfield(L, -2, "status");
    } else if (kind == 'I') {
        set_string(L, "message", a, na);
        lua_pushliteral(L, "invalid");
        lua_setfield(L, -2, "status");
    } else { /* 'X' */
        char code[24];
        snprintf(code, sizeof code, "%.*s", (int)(na < 20 ? na : 20), a);
        lua_pushfstring(L, "the case called os.exit(%s)", code);
        lua_setfield(L, -2, "message");
        lua_pushinteger(L, atoi(code));
        lua_setfield(L, -2, "exit");
        lua_pushliteral(L, "error");
        lua_setfield(L, -2, "status");
    }
}

/*
** sweepcore.wait(handles, timeout_ms) -> finished, interrupted
** Sleeps until a worker of the list ends, Ctrl-C or the timeout (-1 or nil: none), then
** returns the records of the workers that ended (each once), in the order of the list.
** With no worker left to wait for it returns at once, or sleeps timeout ms if one is given
** (a pause that Ctrl-C cuts short).
*/
static int core_wait(lua_State *L)
{
    const char *fn = "sweepcore.wait";
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_Integer timeout = luaL_optinteger(L, 2, -1);
    lua_settop(L, 2);
    int n = (int)lua_rawlen(L, 1);
    worker **ws = lua_newuserdatauv(L, sizeof(worker *) * (size_t)(n ? n : 1), 0);
    struct pollfd *fds = lua_newuserdatauv(L, sizeof(struct pollfd) * (size_t)(n ? n : 1), 0);
    int nfd = 0, ready = 0;
    for (int k = 0; k < n; k++) {
        lua_rawgeti(L, 1, k + 1);
        ws[k] = luaL_testudata(L, -1, WORKER_MT);
        if (ws[k] == NULL)
            lu_error(L, fn, "handles[%d] is not a worker (got %s)", k + 1, luaL_typename(L, -1));
        lua_pop(L, 1);
        worker *w = ws[k];
        if (w->reported || w->pid <= 0) continue;
        if (w->fd >= 0) {
            fds[nfd].fd = w->fd;
            fds[nfd].events = POLLIN;
            fds[nfd].revents = 0;
            nfd++;
        } else {
            ready = 1;
        }
    }
    if (nfd > 0 || (!ready && timeout > 0)) { /* nothing alive: sleeps for timeout ms */
        struct timespec ts, *tsp = NULL;
        if (ready) timeout = 0;
        if (timeout >= 0) {
            ts.tv_sec = (time_t)(timeout / 1000);
            ts.tv_nsec = (long)(timeout % 1000) * 1000000L;
            tsp = &ts;
        }
        sigset_t mask; /* Ctrl-C may arrive while this sleeps, and only then */
        sigprocmask(SIG_SETMASK, NULL, &mask);
        sigdelset(&mask, SIGINT);
        ppoll(fds, (nfds_t)nfd, tsp, &mask);
    }
    lua_createtable(L, 0, 0);
    int out = lua_gettop(L), count = 0;
    for (int k = 0; k < n; k++) {
        worker *w = ws[k];
        if (w->reported || w->pid <= 0) continue;
        drain(w);
        if (w->fd < 0) {
            reap(w, 1); /* the pipe closed: the worker is ending */
        } else {
            reap(w, 0);
            if (w->reaped) { /* ended, and something of its own holds the pipe open */
                drain(w);
                if (w->fd >= 0) close(w->fd), w->fd = -1;
            }
        }
        if (!w->reaped) continue;
        w->reported = 1;
        lua_rawgeti(L, 1, k + 1);
        push_outcome(L, w, lua_gettop(L));
        lua_rawseti(L, out, ++count);
        lua_pop(L, 1);
        free(w->buf);
        w->buf = NULL, w->len = w->cap = 0;
    }
    int interrupted = host_interrupt_requested();
    if (interrupted) host_interrupt_consume(L);
    lua_pushboolean(L, interrupted);
    return 2;
}

/* sweepcore.kill(worker [, signal = "SIGTERM"]) -> true if sent */
static int core_kill(lua_State *L)
{
    worker *w = check_worker(L, 1);
    int sig = check_signal(L, 2, "sweepcore.kill", SIGTERM);
    int sent = w->pid > 0 && !w->reaped && kill(w->pid, sig) == 0;
    if (sent) w->killed = sig;
    lua_pushboolean(L, sent);
    return 1;
}

/* sweepcore.interrupted() -> true once after Ctrl-C (while a hold is on: a pending one) */
static int core_interrupted(lua_State *L)
{
    sigset_t pending, one, old;
    if (sigpending(&pending) == 0 && sigismember(&pending, SIGINT) == 1) {
        sigemptyset(&one);
        sigaddset(&one, SIGINT);
        sigprocmask(SIG_UNBLOCK, &one, &old); /* delivered here, to the program's handler */
        sigprocmask(SIG_SETMASK, &old, NULL);
    }
    int interrupted = host_interrupt_requested();
    if (interrupted) host_interrupt_consume(L);
    lua_pushboolean(L, interrupted);
    return 1;
}

/* ---- hold: Ctrl-C blocked outside wait() ------------------------------------------------ */

typedef struct hold {
    sigset_t old;
    int active;
} hold;

static int hold_release(lua_State *L)
{
    hold *h = luaL_checkudata(L, 1, HOLD_MT);
    if (h->active) {
        h->active = 0;
        sigprocmask(SIG_SETMASK, &h->old, NULL);
    }
    return 0;
}

/* sweepcore.hold() -> a value to close (local h <close> = ...) */
static int core_hold(lua_State *L)
{
    hold *h = lua_newuserdatauv(L, sizeof *h, 0);
    memset(h, 0, sizeof *h);
    luaL_setmetatable(L, HOLD_MT);
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    if (sigprocmask(SIG_BLOCK, &block, &h->old) == 0) h->active = 1;
    return 1;
}

/* ---- the rest ----------------------------------------------------------------------------- */

/* sweepcore.ncores([all]) -> the CPUs this process may run on (all: the CPUs of the machine
** that are online, whatever this process's affinity) */
static int core_ncores(lua_State *L)
{
    long n = 0;
    if (lua_toboolean(L, 1)) {
        n = sysconf(_SC_NPROCESSORS_ONLN);
        lua_pushinteger(L, n < 1 ? 1 : n);
        return 1;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
    if (n < 1) n = sysconf(_SC_NPROCESSORS_ONLN);
    lua_pushinteger(L, n < 1 ? 1 : n);
    return 1;
}

/* sweepcore.now() -> seconds of a monotonic clock */
static int core_now(lua_State *L)
{
    lua_pushnumber(L, now());
    return 1;
}

/* sweepcore._raise(signal): the worker dies by that signal (a test hook; workers only). */
static int core_raise(lua_State *L)
{
    int sig = check_signal(L, 1, "sweepcore._raise", SIGSEGV);
    if (child_fd < 0) return lu_error(L, "sweepcore._raise", "only in a worker (a test hook)");
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none); /* no core file */
    signal(sig, SIG_DFL);          /* not a sanitizer's handler */
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    sigprocmask(SIG_UNBLOCK, &one, NULL);
    raise(sig);
    return 0;
}

/* sweepcore.pid() -> this process's id (unique names for files several processes write) */
static int core_pid(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)getpid());
    return 1;
}

/* sweepcore.stdout_null(): the standard output goes to /dev/null from here on (the ranks of
** an MPI study other than rank 0 run the script without printing it all again). */
static int core_stdout_null(lua_State *L)
{
    fflush(stdout);
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
        return lu_error(L, "sweepcore.stdout_null", "cannot open /dev/null: %s", strerror(errno));
    close(fd);
    return 0;
}

/* sweepcore.worker() -> true in a worker process */
static int core_in_worker(lua_State *L)
{
    lua_pushboolean(L, child_fd >= 0);
    return 1;
}

int luaopen_sweepcore(lua_State *L)
{
    static const luaL_Reg worker_meta[] = {{"__gc", worker_gc},
                                           {"__close", worker_gc},
                                           {"__index", worker_index},
                                           {"__tostring", worker_tostring},
                                           {NULL, NULL}};
    static const luaL_Reg hold_meta[] = {
        {"__gc", hold_release}, {"__close", hold_release}, {NULL, NULL}};
    static const luaL_Reg funcs[] = {{"ncores", core_ncores},
                                     {"spawn", core_spawn},
                                     {"wait", core_wait},
                                     {"kill", core_kill},
                                     {"hold", core_hold},
                                     {"interrupted", core_interrupted},
                                     {"encode", core_encode},
                                     {"decode", core_decode},
                                     {"now", core_now},
                                     {"in_worker", core_in_worker},
                                     {"_raise", core_raise},
                                     {"pid", core_pid},
                                     {"stdout_null", core_stdout_null},
                                     {NULL, NULL}};
    luaL_newmetatable(L, WORKER_MT);
    luaL_setfuncs(L, worker_meta, 0);
    lua_pop(L, 1);
    luaL_newmetatable(L, HOLD_MT);
    luaL_setfuncs(L, hold_meta, 0);
    lua_pop(L, 1);
    luaL_newlib(L, funcs);
    return 1;
}
