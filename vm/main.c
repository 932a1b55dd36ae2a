/* SPDX-License-Identifier: MIT */
/*
** mechlua: runs a scenario script, code given with -e, standard input, or the REPL.
** Exit status: 0 success, 1 a Lua error (script, -e, -l, LUA_INIT), 2 a usage error.
*/
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "host.h"
#include "mech.h"
#include "mech_fault.h"
#include "repl.h"

#define EXIT_USAGE 2

static const char usage_text[] =
    "usage: " HOST_PROGNAME " [options] [script [args...]]\n"
    "Runs a mechlua scenario script; with no script, opens the REPL.\n"
    "Options:\n"
    "  -e code        run the Lua code 'code'\n"
    "  -i             enter the REPL after running the script\n"
    "  -l name        require library 'name' into global 'name' (-l g=name: into 'g')\n"
    "  -v, --version  print version information\n"
    "  -h, --help     print this help and exit\n"
    "  -E             ignore the environment variables LUA_INIT, LUA_PATH and LUA_CPATH\n"
    "  -W             turn warnings on\n"
    "  --             stop handling options\n"
    "  -              run the script read from standard input\n"
    "See mechlua(1).\n";

/* What the command line asks for. */
struct options {
    int interactive; /* -i */
    int version;     /* -v */
    int help;        /* -h */
    int has_code;    /* at least one -e */
    int ignore_env;  /* -E */
    int warnings;    /* -W */
    int script;      /* index of the script in argv, 0 if none */
};

static void print_version(void)
{
    printf("%s %s (libmech %s, %s)\n", HOST_PROGNAME, MECH_VERSION_STRING, mech_version(),
           LUA_RELEASE);
    fflush(stdout);
}

/* Reports a usage error on stderr ("mechlua: <problem> '<option>'"); returns 0. */
static int usage_error(const char *problem, const char *option)
{
    fprintf(stderr, "%s: %s '%s'\nTry '%s --help' for more information.\n", HOST_PROGNAME, problem,
            option, HOST_PROGNAME);
    return 0;
}

/*
** Scans the options before the script.  Returns 1 when the command line is valid;
** otherwise reports the problem and returns 0.  -e and -l are only checked here and
** run later, in order, by run_options.
*/
static int parse_options(int argc, char **argv, struct options *o)
{
    memset(o, 0, sizeof *o);
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-') { /* the script */
            o->script = i;
            return 1;
        }
        if (strcmp(a, "-") == 0) {
            o->script = i;
            return 1;
        }
        if (strcmp(a, "--") == 0) {
            if (i + 1 < argc) o->script = i + 1;
            return 1;
        }
        if (strcmp(a, "--version") == 0) {
            o->version = 1;
            continue;
        }
        if (strcmp(a, "--help") == 0) {
            o->help = 1;
            continue;
        }
        if (a[1] == '-') return usage_error("unrecognized option", a);
        switch (a[1]) {
        case 'i':
        case 'v':
        case 'h':
        case 'E':
        case 'W':
            if (a[2] != '\0') return usage_error("unrecognized option", a);
            if (a[1] == 'i') o->interactive = 1;
            if (a[1] == 'v') o->version = 1;
            if (a[1] == 'h') o->help = 1;
            if (a[1] == 'E') o->ignore_env = 1;
            if (a[1] == 'W') o->warnings = 1;
            break;
        case 'e':
        case 'l':
            if (a[2] == '\0') { /* argument in the next word */
                if (i + 1 >= argc || argv[i + 1] == NULL)
                    return usage_error("missing argument to option", a);
                i++;
            }
            if (a[1] == 'e') o->has_code = 1;
            break;
        default: return usage_error("unrecognized option", a);
        }
    }
    return 1;
}

/*
** Builds the global table `arg` as the standalone lua does: the script at index 0,
** its arguments at 1..n, the interpreter and its options at negative indices.
*/
static void create_arg_table(lua_State *L, int argc, char **argv, int script)
{
    int zero = script ? script : argc; /* no script: everything is an option */
    lua_createtable(L, argc - zero, zero + 1);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i - zero);
    }
    lua_setglobal(L, "arg");
}

static int run_chunk(lua_State *L, int status)
{
    if (status == LUA_OK) status = host_docall(L, 0, 0);
    return host_report(L, status);
}

static int run_string(lua_State *L, const char *code, const char *name)
{
    return run_chunk(L, luaL_loadbuffer(L, code, strlen(code), name));
}

/* -l name or -l g=name: require(name) and store the result in global g. */
static int run_require(lua_State *L, const char *spec)
{
    const char *eq = strchr(spec, '=');
    const char *mod = eq ? eq + 1 : spec;
    lua_getglobal(L, "require");
    lua_pushstring(L, mod);
    int status = host_docall(L, 1, 1);
    if (status == LUA_OK) {
        if (eq)
            lua_pushlstring(L, spec, (size_t)(eq - spec));
        else
            lua_pushstring(L, mod);
        lua_insert(L, -2);
        lua_setglobal(L, lua_tostring(L, -2));
        lua_pop(L, 1);
    }
    return host_report(L, status);
}

/* LUA_INIT_5_4 or LUA_INIT: "@file" runs a file, anything else is code. */
static int run_init(lua_State *L)
{
    const char *name = "=LUA_INIT_" LUA_VERSION_MAJOR "_" LUA_VERSION_MINOR;
    const char *init = getenv(name + 1);
    if (init == NULL) {
        name = "=LUA_INIT";
        init = getenv(name + 1);
    }
    if (init == NULL) return LUA_OK;
    if (init[0] == '@') return run_chunk(L, luaL_loadfile(L, init + 1));
    return run_string(L, init, name);
}

/* Runs the -e and -l options in command-line order. */
static int run_options(lua_State *L, char **argv, int last)
{
    for (int i = 1; i < last; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || (a[1] != 'e' && a[1] != 'l')) continue;
        const char *value = a[2] ? a + 2 : argv[++i];
        int status = a[1] == 'e' ? run_string(L, value, "=(command line)") : run_require(L, value);
        if (status != LUA_OK) return status;
    }
    return LUA_OK;
}

/* Runs the script (a file, or standard input for "-") with its arguments as `...`. */
static int run_script(lua_State *L, char **argv, int script, int argc)
{
    const char *fname = argv[script];
    if (strcmp(fname, "-") == 0 && strcmp(argv[script - 1], "--") != 0) fname = NULL;
    int status = luaL_loadfile(L, fname);
    if (status != LUA_OK) return host_report(L, status);
    int n = argc - script - 1;
    luaL_checkstack(L, n + 1, "too many arguments to script");
    for (int i = script + 1; i < argc; i++) lua_pushstring(L, argv[i]);
    return host_report(L, host_docall(L, n, 0));
}

#ifdef MECH_FAULT_INJECTION
/* The Lua state's allocator, behind a fault point (include/mech/mech_fault.h).  Lua needs
** freeing and shrinking to succeed, so only new and growing blocks may fail; for a new
** block (ptr NULL) osize is the kind of object, not a size. */
static lua_Alloc lua_alloc_f;
static void *lua_alloc_ud;

static void *fault_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    (void)ud;
    if (nsize > 0 && (ptr == NULL || nsize > osize) && mech_fault_point()) return NULL;
    return lua_alloc_f(lua_alloc_ud, ptr, osize, nsize);
}
#endif

struct job {
    int argc;
    char **argv;
    struct options *opt;
    int exit_code;
};

/* Everything that touches Lua, run in protected mode so that even a memory error in
** the set-up is reported rather than aborting. */
static int pmain(lua_State *L)
{
    struct job *job = lua_touserdata(L, 1);
    struct options *o = job->opt;
    int argc = job->argc;
    char **argv = job->argv;

    luaL_checkversion(L);
    host_openlibs(L, o->ignore_env);
    if (o->warnings) lua_warning(L, "@on", 0);
    create_arg_table(L, argc, argv, o->script);
    lua_gc(L, LUA_GCRESTART);
    lua_gc(L, LUA_GCGEN, 0, 0);

    /* The status the program will return, in the registry for the C modules that end
    ** differently after a failure (lib/mechlua/sweepmpi.so aborts the MPI job instead of
    ** finalizing when the state closes): a failure until the end is reached.  The field
    ** exists from here on, so setting it at the end allocates nothing. */
    job->exit_code = EXIT_FAILURE;
    lua_pushinteger(L, EXIT_FAILURE);
    lua_setfield(L, LUA_REGISTRYINDEX, "mechlua.exit_code");
    if (o->version) print_version();
    if (!o->ignore_env && run_init(L) != LUA_OK) return 0;
    if (run_options(L, argv, o->script ? o->script : argc) != LUA_OK) return 0;
    if (o->script && run_script(L, argv, o->script, argc) != LUA_OK) return 0;

    int status = EXIT_SUCCESS;
    if (o->interactive)
        status = repl_run(L);
    else if (o->script == 0 && !o->has_code && !o->version)
        status = repl_run(L);
    job->exit_code = status;
    lua_pushinteger(L, status);
    lua_setfield(L, LUA_REGISTRYINDEX, "mechlua.exit_code");
    return 0;
}

int main(int argc, char **argv)
{
    struct options opt;
    if (argv[0] == NULL || argc < 1) return EXIT_USAGE;
    if (!parse_options(argc, argv, &opt)) return EXIT_USAGE;
    if (opt.help) {
        fputs(usage_text, stdout);
        return EXIT_SUCCESS;
    }

    lua_State *L = luaL_newstate();
    if (L == NULL) {
        host_message("cannot create the Lua state: not enough memory");
        return EXIT_FAILURE;
    }
#ifdef MECH_FAULT_INJECTION
    lua_alloc_f = lua_getallocf(L, &lua_alloc_ud);
    lua_setallocf(L, fault_alloc, NULL);
#endif
    lua_gc(L, LUA_GCSTOP); /* no collections while the libraries are being built */
    struct job job = {argc, argv, &opt, EXIT_FAILURE};
    lua_pushcfunction(L, pmain);
    lua_pushlightuserdata(L, &job);
    int status = lua_pcall(L, 1, 0, 0);
    if (status != LUA_OK) {
        const char *msg = lua_tostring(L, -1);
        host_message(msg ? msg : "(error object is not a string)");
        job.exit_code = EXIT_FAILURE;
    }
    lua_close(L);
    fflush(stdout);
    return job.exit_code;
}
