/* SPDX-License-Identifier: MIT */
/*
** sweepmpi: the few MPI calls a parameter study needs, over Open MPI, for the sweep module
** when a study runs under `mpirun -n K mechlua study.lua` (or srun).  Unlike the other C
** modules of the stdlib it is a shared object of its own (lib/mechlua/sweepmpi.so, on
** package.cpath), linked against libmpi: a plain `mechlua script.lua` neither loads nor
** starts MPI.  Lua code reaches it through the Lua module mpi (stdlib/mpi.lua):
** mpi.under_mpi() says, from the launcher's environment alone, whether this process is an
** MPI rank, and mpi.load() requires this module (with a clear error when the build had no
** Open MPI).
**
**   local m = require("mpi").load()
**   local rank, size = m.init()
**   m.send(0, 7, s)                        -- any bytes, zeros included
**   local src, tag, len = m.iprobe()       -- or nil: never waits
**   local s, src, tag = m.recv(src, tag)   -- nil for any source or tag
**
** Messages are strings sent as MPI_BYTE on MPI_COMM_WORLD, with blocking sends; the
** receiver learns a message's length by probing (MPI_Mprobe/MPI_Mrecv: the message probed
** is the one received).  MPI's errors come back as Lua errors naming the function
** (MPI_ERRORS_RETURN on MPI_COMM_WORLD), apart from MPI_Init's own failures, which Open MPI
** reports and ends the process.
**
** The end of MPI follows the end of the program: when the Lua state is closed (the end of
** the script) MPI_Finalize if the program is ending with status 0, else MPI_Abort with that
** status, so that a rank that fails takes the job down instead of leaving the other ranks
** waiting for it (the program keeps the status it will return in the registry, field
** "mechlua.exit_code", see vm/main.c).  os.exit does the same before it exits (init puts a
** wrapper in its place), and an exit() that skips both finalizes.
**
** Fork: a rank may fork children that never call MPI (the sweep's workers fork one per
** case).  The process that called MPI_Init is remembered: in any other process every
** function here refuses to run, and nothing at exit touches MPI.  On one machine Open MPI
** 4.1 uses the pml ob1 with the btls vader (shared memory) and self, where a fork is
** harmless.  Before MPI_Init, init sets three of Open MPI's parameters unless the
** environment sets them (OMPI_MCA_<name>): mpi_warn_on_fork = 0 (the warning is about RDMA
** networks, openib, and the children never use MPI); opal_signal = "" (no handlers of
** Open MPI's for SIGSEGV, SIGBUS, SIGFPE, SIGABRT, which children would inherit: a case
** that dies by a signal would print Open MPI's backtrace); btl_vader_single_copy_mechanism
** = none (CMA between ranks needs ptrace rights that containers often withhold).
*/
#define _GNU_SOURCE /* dladdr */

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <mpi.h>

#include "lmodule.h"

int luaopen_sweepmpi(lua_State *L);

enum { STATE_OFF, STATE_RUNNING, STATE_DONE };

/* MPI belongs to a process, not to a Lua state: one record for the program. */
static struct {
    int state;
    pid_t pid; /* the process that called MPI_Init */
    int rank, size;
    int tag_ub; /* the largest tag MPI allows (at least 32767) */
    int atexit_set;
} mpi;

#define EXIT_CODE_KEY "mechlua.exit_code"
#define SENTINEL_KEY  "sweepmpi.sentinel"

/* ---- the end of MPI ----------------------------------------------------------------------- */

static int in_rank(void)
{
    return mpi.state == STATE_RUNNING && getpid() == mpi.pid;
}

static void finalize_now(void)
{
    mpi.state = STATE_DONE;
    MPI_Finalize();
}

static void abort_now(int code)
{
    fflush(NULL); /* the error message first */
    mpi.state = STATE_DONE;
    MPI_Abort(MPI_COMM_WORLD, code);
    _exit(code); /* MPI_Abort does not return */
}

/* exit() in the rank's own process, when neither the state's end nor os.exit ran first. */
static void at_exit(void)
{
    if (in_rank()) finalize_now();
}

/* __gc of the sentinel: the Lua state is being closed.  It was made after the package
** library's table of C libraries, so it runs before this module is unloaded. */
static int sentinel_gc(lua_State *L)
{
    if (!in_rank()) return 0;
    lua_Integer code = 0;
    if (lua_getfield(L, LUA_REGISTRYINDEX, EXIT_CODE_KEY) == LUA_TNUMBER && lua_isinteger(L, -1))
        code = lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (code == 0)
        finalize_now();
    else
        abort_now(code > 0 && code < 256 ? (int)code : 1);
    return 0;
}

/* os.exit([code [, close]]) once MPI runs: finalize (status 0) or abort the job (any other
** status), then the original os.exit (upvalue 1) with the same arguments. */
static int os_exit_mpi(lua_State *L)
{
    int status;
    if (lua_isboolean(L, 1))
        status = lua_toboolean(L, 1) ? EXIT_SUCCESS : EXIT_FAILURE;
    else
        status = (int)luaL_optinteger(L, 1, EXIT_SUCCESS);
    if (in_rank()) {
        if (status == 0)
            finalize_now();
        else
            abort_now(status > 0 && status < 256 ? status : 1);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 0);
    return 0;
}

/* ---- helpers ------------------------------------------------------------------------------ */

/* Raises "fn: <MPI's message for rc>". */
static int mpi_fail(lua_State *L, const char *fn, int rc)
{
    char text[MPI_MAX_ERROR_STRING + 1];
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS || len <= 0)
        snprintf(text, sizeof text, "MPI error %d", rc);
    else
        text[len < MPI_MAX_ERROR_STRING ? len : MPI_MAX_ERROR_STRING] = '\0';
    return lu_error(L, fn, "%s", text);
}

/* Refuses to go on unless MPI runs in this very process. */
static void check_running(lua_State *L, const char *fn)
{
    if (mpi.state == STATE_OFF) lu_error(L, fn, "MPI is not started: call init() first");
    if (mpi.state == STATE_DONE) lu_error(L, fn, "MPI was finalized");
    if (getpid() != mpi.pid)
        lu_error(L, fn,
                 "this process was forked from an MPI rank: only the rank itself may use MPI");
}

/* Integer argument arg in lo..hi; def when it is nil or absent and nil_ok (any, for a
** source or a tag to receive). */
static int int_arg(lua_State *L, int arg, const char *fn, const char *what, int lo, int hi,
                   int nil_ok, int def)
{
    if (nil_ok && lua_isnoneornil(L, arg)) return def;
    if (!lua_isinteger(L, arg))
        lu_error(L, fn, "argument #%d (%s) must be an integer (got %s)", arg, what,
                 lua_type(L, arg) == LUA_TNUMBER ? "a number with a fraction"
                                                 : luaL_typename(L, arg));
    lua_Integer v = lua_tointeger(L, arg);
    if (v < lo || v > hi)
        lu_error(L, fn, "argument #%d (%s) must be in %d..%d (got %lld)", arg, what, lo, hi,
                 (long long)v);
    return (int)v;
}

/* Open MPI's plugins (mca_pml_ob1.so and the like) take libmpi's symbols from the global
** scope, but require loads this module, and so libmpi, with RTLD_LOCAL.  Open MPI 4.1 (Debian
** 12) copes with that by itself; older releases and other builds fail in MPI_Init with
** undefined symbols (mpi4py does the same for them).  Reopening the library that holds
** MPI_Init with RTLD_GLOBAL (RTLD_NOLOAD: it is loaded already) makes it and its
** dependencies global; the handle is kept, so libmpi stays loaded after the state closes. */
static void promote_libmpi(void)
{
    int (*f)(int *, char ***) = MPI_Init;
    void *addr;
    memcpy(&addr, &f, sizeof addr); /* a function's address as data, without a cast */
    Dl_info info;
    if (dladdr(addr, &info) && info.dli_fname)
        (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

/* ---- functions ---------------------------------------------------------------------------- */

/* init() -> rank, size.  Starts MPI once; later calls return the same. */
static int l_init(lua_State *L)
{
    const char *fn = "sweepmpi.init";
    lua_settop(L, 0);
    if (mpi.state == STATE_RUNNING) {
        check_running(L, fn);
        lua_pushinteger(L, mpi.rank);
        lua_pushinteger(L, mpi.size);
        return 2;
    }
    if (mpi.state == STATE_DONE) lu_error(L, fn, "MPI was finalized; it cannot be started again");
    int flag = 0;
    MPI_Initialized(&flag);
    if (flag) lu_error(L, fn, "MPI was started by another part of the program");

    /* everything that can raise a Lua error comes before MPI_Init */
    lua_newuserdatauv(L, 1, 0);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, sentinel_gc);
    lua_setfield(L, -2, "__gc");
    lua_getglobal(L, "os");
    int have_os = lua_istable(L, -1) && lua_getfield(L, -1, "exit") == LUA_TFUNCTION;
    if (have_os) lua_pushcclosure(L, os_exit_mpi, 1); /* stack: ud mt os wrapper */
    if (!mpi.atexit_set && atexit(at_exit) != 0)
        lu_error(L, fn, "cannot register the end of MPI at exit");
    mpi.atexit_set = 1;
    lua_pushboolean(L, 0); /* the registry's field exists: setting it later allocates nothing */
    lua_setfield(L, LUA_REGISTRYINDEX, SENTINEL_KEY);

    /* Open MPI's parameters, unless the environment sets them (see the top).  Without its
    ** signal handlers mpirun still reports a rank that dies by a signal; without CMA the
    ** ranks on one machine copy through shared memory (the messages of a study are small). */
    setenv("OMPI_MCA_mpi_warn_on_fork", "0", 0);
    setenv("OMPI_MCA_opal_signal", "", 0);
    setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 0);
    promote_libmpi();
    int rc = MPI_Init(NULL, NULL);
    if (rc != MPI_SUCCESS) lu_error(L, fn, "MPI_Init failed (error %d)", rc);
    mpi.state = STATE_RUNNING;
    mpi.pid = getpid();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi.size);
    int *ub = NULL;
    flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag);
    mpi.tag_ub = flag && ub && *ub >= 32767 ? *ub : 32767;

    /* A program started from this rank (os.execute("mechlua ...")) is not a rank itself:
    ** mpi.under_mpi() says so there, though it inherits the launcher's variables. */
    char buf[32];
    snprintf(buf, sizeof buf, "%d", mpi.rank);
    setenv("MECHLUA_MPI_RANK", buf, 1);

    if (have_os) lua_setfield(L, -2, "exit");
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, SENTINEL_KEY);
    lua_pushinteger(L, mpi.rank);
    lua_pushinteger(L, mpi.size);
    return 2;
}

/* initialized() -> true while MPI runs in this process (false in a forked child) */
static int l_initialized(lua_State *L)
{
    lua_pushboolean(L, in_rank());
    return 1;
}

static int l_rank(lua_State *L)
{
    check_running(L, "sweepmpi.rank");
    lua_pushinteger(L, mpi.rank);
    return 1;
}

static int l_size(lua_State *L)
{
    check_running(L, "sweepmpi.size");
    lua_pushinteger(L, mpi.size);
    return 1;
}

/* send(dest, tag, s): blocking; s is a string of any bytes */
static int l_send(lua_State *L)
{
    const char *fn = "sweepmpi.send";
    check_running(L, fn);
    int dest = int_arg(L, 1, fn, "dest", 0, mpi.size - 1, 0, 0);
    int tag = int_arg(L, 2, fn, "tag", 0, mpi.tag_ub, 0, 0);
    if (lua_type(L, 3) != LUA_TSTRING)
        lu_error(L, fn, "argument #3 (message) must be a string (got %s)", luaL_typename(L, 3));
    size_t n;
    const char *s = lua_tolstring(L, 3, &n);
    if (n > INT_MAX) lu_error(L, fn, "the message is too long (%zu bytes, at most %d)", n, INT_MAX);
    int rc = MPI_Send(s, (int)n, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) mpi_fail(L, fn, rc);
    return 0;
}

/* iprobe([source [, tag]]) -> source, tag, length of a message that has arrived, or nil;
** never waits.  nil for any source or tag. */
static int l_iprobe(lua_State *L)
{
    const char *fn = "sweepmpi.iprobe";
    check_running(L, fn);
    int src = int_arg(L, 1, fn, "source", 0, mpi.size - 1, 1, MPI_ANY_SOURCE);
    int tag = int_arg(L, 2, fn, "tag", 0, mpi.tag_ub, 1, MPI_ANY_TAG);
    int flag = 0, count = 0;
    MPI_Status st;
    int rc = MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, &st);
    if (rc != MPI_SUCCESS) mpi_fail(L, fn, rc);
    if (!flag) {
        lua_pushnil(L);
        return 1;
    }
    rc = MPI_Get_count(&st, MPI_BYTE, &count);
    if (rc != MPI_SUCCESS) mpi_fail(L, fn, rc);
    lua_pushinteger(L, st.MPI_SOURCE);
    lua_pushinteger(L, st.MPI_TAG);
    lua_pushinteger(L, count);
    return 3;
}

/* recv([source [, tag]]) -> s, source, tag: waits for a message (nil for any source or
** tag) and returns its bytes */
static int l_recv(lua_State *L)
{
    const char *fn = "sweepmpi.recv";
    check_running(L, fn);
    int src = int_arg(L, 1, fn, "source", 0, mpi.size - 1, 1, MPI_ANY_SOURCE);
    int tag = int_arg(L, 2, fn, "tag", 0, mpi.tag_ub, 1, MPI_ANY_TAG);
    lua_settop(L, 0);
    MPI_Message msg;
    MPI_Status st;
    int count = 0;
    int rc = MPI_Mprobe(src, tag, MPI_COMM_WORLD, &msg, &st);
    if (rc == MPI_SUCCESS) rc = MPI_Get_count(&st, MPI_BYTE, &count);
    if (rc != MPI_SUCCESS) mpi_fail(L, fn, rc);
    luaL_Buffer b;
    char *p = luaL_buffinitsize(L, &b, (size_t)count);
    rc = MPI_Mrecv(p, count, MPI_BYTE, &msg, &st);
    if (rc != MPI_SUCCESS) mpi_fail(L, fn, rc);
    luaL_pushresultsize(&b, (size_t)count);
    lua_pushinteger(L, st.MPI_SOURCE);
    lua_pushinteger(L, st.MPI_TAG);
    return 3;
}

static int l_barrier(lua_State *L)
{
    const char *fn = "sweepmpi.barrier";
    check_running(L, fn);
    int rc = MPI_Barrier(MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) mpi_fail(L, fn, rc);
    return 0;
}

/* abort([code]): ends every rank of the job with status code (default 1) */
static int l_abort(lua_State *L)
{
    const char *fn = "sweepmpi.abort";
    check_running(L, fn);
    int code = int_arg(L, 1, fn, "code", 0, 255, 1, 1);
    abort_now(code);
    return 0;
}

/* finalize(): ends MPI in this rank (every rank must call it); nothing if it is not
** running.  The end of the program does it otherwise. */
static int l_finalize(lua_State *L)
{
    if (mpi.state == STATE_RUNNING) check_running(L, "sweepmpi.finalize");
    if (mpi.state == STATE_RUNNING) finalize_now();
    return 0;
}

/* hostname() -> the name of this machine (MPI's processor name while MPI runs) */
static int l_hostname(lua_State *L)
{
    char name[MPI_MAX_PROCESSOR_NAME + 1] = "";
    int len = 0;
    if (in_rank() && MPI_Get_processor_name(name, &len) == MPI_SUCCESS && len > 0) {
        lua_pushlstring(L, name, (size_t)len);
        return 1;
    }
    if (gethostname(name, sizeof name - 1) != 0)
        lu_error(L, "sweepmpi.hostname", "gethostname failed");
    name[sizeof name - 1] = '\0';
    lua_pushstring(L, name);
    return 1;
}

/* version() -> the MPI library's version string (callable before init) */
static int l_version(lua_State *L)
{
    char text[MPI_MAX_LIBRARY_VERSION_STRING + 1] = "";
    int len = 0;
    if (MPI_Get_library_version(text, &len) != MPI_SUCCESS || len <= 0) len = 0;
    if (len > 0 && text[len - 1] == '\0') len--;
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' ')) len--;
    lua_pushlstring(L, text, (size_t)len);
    return 1;
}

/*
** _forkcall(f [, "exit"]) -> status of a child process that runs f() and ends, as a rank's
** worker does: with _exit (default), or with exit() (runs the atexit handlers: nothing of
** MPI's may happen there in a child).  Returns the child's exit status, or nil and the
** signal that killed it.  For the tests of fork under MPI.
*/
static int l_forkcall(lua_State *L)
{
    const char *fn = "sweepmpi._forkcall";
    luaL_checktype(L, 1, LUA_TFUNCTION);
    int use_exit = 0;
    if (!lua_isnoneornil(L, 2)) {
        const char *how = luaL_checkstring(L, 2);
        if (strcmp(how, "exit") != 0) lu_error(L, fn, "argument #2 must be \"exit\" or nil");
        use_exit = 1;
    }
    lua_settop(L, 1);
    fflush(NULL); /* no buffered output printed twice */
    pid_t pid = fork();
    if (pid < 0) lu_error(L, fn, "fork failed");
    if (pid == 0) {
        int ok = lua_pcall(L, 0, 0, 0) == LUA_OK;
        if (!ok) fprintf(stderr, "%s\n", lua_isstring(L, -1) ? lua_tostring(L, -1) : "(error)");
        fflush(NULL);
        if (use_exit) exit(ok ? 0 : 1);
        _exit(ok ? 0 : 1);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) lu_error(L, fn, "waitpid failed: %s", strerror(errno));
    if (WIFEXITED(st)) {
        lua_pushinteger(L, WEXITSTATUS(st));
        return 1;
    }
    lua_pushnil(L);
    lua_pushinteger(L, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return 2;
}

int luaopen_sweepmpi(lua_State *L)
{
    static const luaL_Reg funcs[] = {
        {"init", l_init},          {"initialized", l_initialized},
        {"rank", l_rank},          {"size", l_size},
        {"send", l_send},          {"iprobe", l_iprobe},
        {"recv", l_recv},          {"barrier", l_barrier},
        {"abort", l_abort},        {"finalize", l_finalize},
        {"hostname", l_hostname},  {"version", l_version},
        {"_forkcall", l_forkcall}, {NULL, NULL},
    };
    luaL_newlib(L, funcs);
    return 1;
}
