/* SPDX-License-Identifier: MIT */
/*
** The REPL.  Each chunk is first tried as an expression ("return <chunk>") so that
** its values are shown, then as a statement; a chunk whose only error is an
** unexpected end of input continues on the next line.
**
** On a terminal, lines are edited with libedit (emacs keys, ~/.editrc honoured),
** entries go to a persistent history, and Tab completes global names and the fields
** of tables (following __index tables of metatables, so methods complete too).
** On a pipe, lines are read plainly and nothing but results and errors is written.
*/
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include <histedit.h>
#include <lauxlib.h>
#include <lua.h>

#include "host.h"
#include "mech.h"
#include "repl.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#define HISTORY_SIZE 1000
#define EOF_MARK     "<eof>"

enum read_result { READ_LINE, READ_EOF, READ_INTERRUPT };

struct repl {
    lua_State *L;
    EditLine *el;  /* NULL when reading plainly */
    History *hist; /* NULL when reading plainly */
    int prompts;   /* plain reading on a terminal libedit cannot drive: print prompts */
    const char *prompt;
    char prompt_buf[128];
    char histfile[PATH_MAX]; /* empty: history is not kept on disk */
    int histfile_warned;
    char *line;     /* getline buffer of plain reading */
    size_t linecap; /* its capacity */
    int failures;   /* chunks that failed */
};

/*
** {==================================================================
** Reading lines
** ===================================================================
*/

static volatile sig_atomic_t prompt_interrupted;

static void on_prompt_sigint(int sig)
{
    (void)sig;
    prompt_interrupted = 1;
}

/* Protected: copies the global _PROMPT (argument 2 true) or _PROMPT2 into the prompt of
** the struct repl (argument 1) when it is a string.  Read raw: no __index function of _G
** runs there. */
static int read_prompt(lua_State *L)
{
    struct repl *r = lua_touserdata(L, 1);
    int first = lua_toboolean(L, 2);
    lua_pushglobaltable(L);
    lua_pushstring(L, first ? "_PROMPT" : "_PROMPT2"); /* may allocate */
    if (lua_rawget(L, -2) == LUA_TSTRING)
        snprintf(r->prompt_buf, sizeof r->prompt_buf, "%s", lua_tostring(L, -1));
    return 0;
}

/* Sets the prompt: _PROMPT or _PROMPT2, else the default one (also when memory is short:
** the line must still be read, so that the REPL goes on to the end of its input). */
static void set_prompt(struct repl *r, int first)
{
    lua_State *L = r->L;
    snprintf(r->prompt_buf, sizeof r->prompt_buf, "%s", first ? "> " : ">> ");
    if (lua_checkstack(L, 4)) {
        lua_pushcfunction(L, read_prompt);
        lua_pushlightuserdata(L, r);
        lua_pushboolean(L, first);
        if (lua_pcall(L, 2, 0, 0) != LUA_OK) lua_pop(L, 1);
    }
    r->prompt = r->prompt_buf;
}

static char *prompt_fn(EditLine *el)
{
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return (char *)((struct repl *)data)->prompt;
}

/*
** Reads one line (without its newline) and pushes it.  Ctrl-C while reading gives
** READ_INTERRUPT (the partial line is dropped), end of input READ_EOF.
*/
static enum read_result read_line(struct repl *r, int first)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_prompt_sigint; /* no SA_RESTART: read() returns EINTR */
    sigemptyset(&sa.sa_mask);
    prompt_interrupted = 0;
    set_prompt(r, first);
    sigaction(SIGINT, &sa, &old);

    const char *text = NULL;
    size_t len = 0;
    if (r->el) {
        int count = 0;
        text = el_gets(r->el, &count);
        len = text && count > 0 ? (size_t)count : 0;
        if (len == 0) text = NULL;
    } else {
        if (r->prompts) {
            fputs(r->prompt, stdout);
            fflush(stdout);
        }
        errno = 0;
        ssize_t n = getline(&r->line, &r->linecap, stdin);
        if (n > 0) {
            text = r->line;
            len = (size_t)n;
        } else {
            clearerr(stdin);
        }
    }
    sigaction(SIGINT, &old, NULL);

    if (prompt_interrupted) {
        if (r->el || r->prompts) fputs("\n", stdout);
        fflush(stdout);
        return READ_INTERRUPT;
    }
    if (text == NULL) return READ_EOF;
    if (len > 0 && text[len - 1] == '\n') len--;
    lua_pushlstring(r->L, text, len);
    return READ_LINE;
}

/* }================================================================== */

/*
** {==================================================================
** History
** ===================================================================
*/

static void history_open(struct repl *r)
{
    HistEvent ev;
    r->hist = history_init();
    if (r->hist == NULL) return;
    history(r->hist, &ev, H_SETSIZE, HISTORY_SIZE);
    history(r->hist, &ev, H_SETUNIQUE, 1);

    const char *file = getenv("MECHLUA_HISTORY");
    const char *home = getenv("HOME");
    r->histfile[0] = '\0';
    if (file != NULL)
        snprintf(r->histfile, sizeof r->histfile, "%s", file);
    else if (home != NULL && *home)
        snprintf(r->histfile, sizeof r->histfile, "%s/.mechlua_history", home);
    if (r->histfile[0]) history(r->hist, &ev, H_LOAD, r->histfile);
    el_set(r->el, EL_HIST, history, r->hist);
}

/* Adds a chunk to the history and saves the file, so that nothing is lost even
** when the session ends with os.exit or a kill. */
static void history_add(struct repl *r, const char *chunk)
{
    HistEvent ev;
    if (r->hist == NULL || chunk[strspn(chunk, " \t\n")] == '\0') return;
    history(r->hist, &ev, H_ENTER, chunk);
    if (r->histfile[0] && history(r->hist, &ev, H_SAVE, r->histfile) < 0 && !r->histfile_warned) {
        fprintf(stderr, "%s: cannot save the history to %s\n", HOST_PROGNAME, r->histfile);
        r->histfile_warned = 1;
    }
}

/* }================================================================== */

/*
** {==================================================================
** Tab completion
** ===================================================================
*/

#define MAX_INDEX_CHAIN 8 /* __index tables followed when resolving or listing */

static int is_word_char(int c)
{
    return isalnum(c) || c == '_';
}

/* Whether the metatable at idx is one that mechlua's C code registered (under its __name in
** the registry): only those may hold a __complete function (a C function), which
** completion calls with the object to list the names that depend on it (an entity's
** kind).  Tables of scripts never have Tab run a function of theirs. */
static int own_metatable(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    int own = 0;
    if (lua_getfield(L, idx, "__name") == LUA_TSTRING) {
        luaL_getmetatable(L, lua_tostring(L, -1));
        own = lua_rawequal(L, -1, idx);
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return own;
}

/* Looks up field `name` of the value on top (tables raw, then __index tables),
** replacing it with the result (nil if not found). Never calls a metamethod. */
static void lookup_field(lua_State *L, const char *name, size_t len)
{
    for (int depth = 0; depth < MAX_INDEX_CHAIN; depth++) {
        if (lua_istable(L, -1)) {
            lua_pushlstring(L, name, len);
            if (lua_rawget(L, -2) != LUA_TNIL) {
                lua_remove(L, -2);
                return;
            }
            lua_pop(L, 1);
        }
        if (!lua_getmetatable(L, -1)) break;
        /* mechlua's own objects (their metatable has __complete) may be indexed for real:
        ** their __index functions have no side effects */
        int ct = lua_getfield(L, -1, "__complete");
        if (ct == LUA_TTABLE || (lua_iscfunction(L, -1) && own_metatable(L, -2))) {
            lua_pop(L, 2);
            lua_pushlstring(L, name, len);
            lua_gettable(L, -2);
            lua_remove(L, -2);
            return;
        }
        lua_pop(L, 1);
        lua_pushliteral(L, "__index");
        lua_rawget(L, -2);
        lua_remove(L, -2); /* metatable */
        lua_remove(L, -2); /* previous value */
        if (!lua_istable(L, -1)) break;
    }
    lua_pop(L, 1);
    lua_pushnil(L);
}

/* Adds to set the identifier keys of the table on top that start with prefix (only those
** whose value is a function when methods is set). */
static void add_keys(lua_State *L, int set, const char *prefix, size_t plen, int methods)
{
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        size_t klen;
        const char *k;
        if (lua_type(L, -2) == LUA_TSTRING && (!methods || lua_isfunction(L, -1)) &&
            (k = lua_tolstring(L, -2, &klen)) != NULL && klen >= plen &&
            memcmp(k, prefix, plen) == 0 && repl_is_identifier(k, klen)) {
            lua_pushvalue(L, -2);
            lua_pushboolean(L, 1);
            lua_rawset(L, set);
        }
        lua_pop(L, 1);
    }
}

/* Adds to set (at index `set`) the identifier keys of the value on top, of its __index
** tables, and of the __complete table mechlua's objects keep in their metatables (or the
** table that their __complete function returns for this object). */
static void collect_fields(lua_State *L, int set, const char *prefix, size_t plen, int methods)
{
    lua_pushvalue(L, -1);
    for (int depth = 0; depth < MAX_INDEX_CHAIN; depth++) {
        if (lua_istable(L, -1)) add_keys(L, set, prefix, plen, methods);
        if (!lua_getmetatable(L, -1)) break;
        int ct = lua_getfield(L, -1, "__complete");
        if (lua_iscfunction(L, -1) && own_metatable(L, -2)) { /* names that depend on it */
            lua_pushvalue(L, -3);
            lua_call(L, 1, 1); /* protected by the caller; mechlua's own code */
            ct = lua_type(L, -1);
        }
        if (ct == LUA_TTABLE) add_keys(L, set, prefix, plen, methods);
        lua_pop(L, 1);
        lua_pushliteral(L, "__index");
        lua_rawget(L, -2);
        lua_remove(L, -2);
        lua_remove(L, -2);
        if (!lua_istable(L, -1)) break;
    }
    lua_pop(L, 1);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
** Protected part of completion (everything that allocates).  Arguments: the word before
** the cursor (a pointer to its text, and its length), made of names, dots and colons.
** Returns a sorted array of candidate names for its last component, and what their
** longest common prefix adds to it (or nil).
*/
static int completion_candidates(lua_State *L)
{
    const char *word = lua_touserdata(L, 1);
    size_t wlen = (size_t)lua_tointeger(L, 2);
    const char *last = word + wlen;
    while (last > word && last[-1] != '.' && last[-1] != ':') last--;
    const char *prefix = last;
    size_t plen = (size_t)(word + wlen - last);
    int methods = last > word && last[-1] == ':';

    lua_newtable(L); /* the set of candidates */
    int set = lua_gettop(L);
    lua_pushglobaltable(L);
    if (last > word) { /* walk the path before the last separator */
        const char *p = word, *end = last - 1;
        while (p < end) {
            const char *q = p;
            while (q < end && *q != '.' && *q != ':') q++;
            if (*q == ':' && q < end) { /* a colon may only come last */
                lua_pushnil(L);
                break;
            }
            lookup_field(L, p, (size_t)(q - p));
            p = q + 1;
        }
        if (p == end && end > word && (end[-1] == '.' || end[-1] == ':')) {
            lua_pop(L, 1); /* empty component ("a..b") */
            lua_pushnil(L);
        }
    } else {
        for (const char *const *k = repl_keywords; *k; k++) {
            if (strncmp(*k, prefix, plen) == 0) {
                lua_pushboolean(L, 1);
                lua_setfield(L, set, *k);
            }
        }
    }
    if (!lua_isnil(L, -1)) collect_fields(L, set, prefix, plen, methods);
    lua_pop(L, 1);

    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, set)) {
        lua_pop(L, 1);
        n++;
    }
    const char **names = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *names, 0);
    lua_Integer i = 0;
    lua_pushnil(L);
    while (lua_next(L, set)) {
        lua_pop(L, 1);
        names[i++] = lua_tostring(L, -1); /* anchored as keys of set */
    }
    qsort(names, (size_t)n, sizeof *names, compare_strings);
    lua_createtable(L, (int)n, 0);
    for (i = 0; i < n; i++) {
        lua_pushstring(L, names[i]);
        lua_rawseti(L, -2, i + 1);
    }
    /* what all the candidates add to the word: their longest common prefix past it */
    size_t common = n ? strlen(names[0]) : 0;
    for (i = 1; i < n; i++) {
        size_t k = 0;
        while (k < common && names[i][k] == names[0][k]) k++;
        common = k;
    }
    if (common > plen)
        lua_pushlstring(L, names[0] + plen, common - plen);
    else
        lua_pushnil(L);
    return 2;
}

/* Prints the candidates in columns under the line being edited. */
static void list_candidates(EditLine *el, lua_State *L, int list, lua_Integer n)
{
    size_t width = 0;
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        size_t len = lua_rawlen(L, -1);
        if (len > width) width = len;
        lua_pop(L, 1);
    }
    int cols = 80;
    if (el_get(el, EL_GETTC, "co", &cols, (void *)NULL) != 0 || cols <= 0) cols = 80;
    size_t colw = width + 2;
    size_t per_row = (size_t)cols / colw;
    if (per_row == 0) per_row = 1;
    size_t rows = ((size_t)n + per_row - 1) / per_row;
    fputc('\n', stdout);
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < per_row; c++) {
            size_t k = c * rows + r;
            if (k >= (size_t)n) break;
            lua_rawgeti(L, list, (lua_Integer)k + 1);
            const char *s = lua_tostring(L, -1);
            int last = (c + 1) * rows + r >= (size_t)n;
            if (last)
                fputs(s, stdout);
            else
                fprintf(stdout, "%-*s", (int)colw, s);
            lua_pop(L, 1);
        }
        fputc('\n', stdout);
    }
    fflush(stdout);
}

static unsigned char complete(EditLine *el, int ch)
{
    (void)ch;
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    struct repl *r = data;
    lua_State *L = r->L;
    const LineInfo *li = el_line(el);
    const char *start = li->cursor;
    while (start > li->buffer &&
           (is_word_char((unsigned char)start[-1]) || start[-1] == '.' || start[-1] == ':'))
        start--;

    int top = lua_gettop(L);
    if (!lua_checkstack(L, 8)) return CC_ERROR;
    lua_pushcfunction(L, completion_candidates);
    lua_pushlightuserdata(L, (void *)start); /* the word is made a string in there */
    lua_pushinteger(L, (lua_Integer)(li->cursor - start));
    if (lua_pcall(L, 2, 2, 0) != LUA_OK) {
        lua_settop(L, top);
        return CC_ERROR;
    }
    /* nothing below allocates: a Lua error here would unwind through libedit */
    int list = top + 1;
    const char *add = lua_tostring(L, top + 2);
    lua_Integer n = (lua_Integer)lua_rawlen(L, list);
    unsigned char result = CC_ERROR;
    if (n > 0) {
        if (add) {
            el_insertstr(el, add);
            result = CC_REFRESH;
        } else if (n > 1) {
            list_candidates(el, L, list, n);
            result = CC_REDISPLAY;
        } else {
            result = CC_NORM; /* already complete */
        }
    }
    lua_settop(L, top);
    return result;
}

/* }================================================================== */

/*
** {==================================================================
** Evaluation
** ===================================================================
*/

static int incomplete(lua_State *L, int status)
{
    if (status != LUA_ERRSYNTAX) return 0;
    size_t len;
    const char *msg = lua_tolstring(L, -1, &len);
    size_t mlen = sizeof(EOF_MARK) - 1;
    return msg && len >= mlen && strcmp(msg + len - mlen, EOF_MARK) == 0;
}

/*
** Reads a chunk (one or more lines) and compiles it.  Returns LUA_OK with the
** function on the stack, a syntax error status with the message on the stack,
** -1 at end of input, -2 when Ctrl-C dropped the input.
*/
static int read_chunk(struct repl *r)
{
    lua_State *L = r->L;
    enum read_result rr = read_line(r, 1);
    if (rr == READ_EOF) return -1;
    if (rr == READ_INTERRUPT) return -2;
    int buf = lua_gettop(L); /* the chunk text so far */
    for (;;) {
        size_t len;
        const char *text = lua_tolstring(L, buf, &len);
        const char *expr = lua_pushfstring(L, "return %s", text);
        int status = luaL_loadbuffer(L, expr, strlen(expr), "=stdin");
        if (status == LUA_OK) {
            lua_remove(L, -2); /* the "return" text */
            break;
        }
        int open_expr = incomplete(L, status);
        lua_pop(L, 2);
        status = luaL_loadbuffer(L, text, len, "=stdin");
        if (status == LUA_OK) break;
        if (!open_expr && !incomplete(L, status)) break; /* a real syntax error */
        rr = read_line(r, 0);                            /* stack: text, error, next line */
        if (rr == READ_INTERRUPT) {
            lua_settop(L, buf - 1);
            return -2;
        }
        if (rr == READ_EOF) break; /* report the error about the unfinished chunk */
        lua_pushfstring(L, "%s\n%s", lua_tostring(L, buf), lua_tostring(L, -1));
        lua_replace(L, buf);
        lua_pop(L, 2);
    }
    history_add(r, lua_tostring(L, buf));
    lua_remove(L, buf);
    return lua_isfunction(L, -1) ? LUA_OK : LUA_ERRSYNTAX;
}

/* Protected: reads and compiles a chunk for the struct repl (argument 1).  Returns what
** read_chunk left (the function, the syntax error message, or nil) and its status. */
static int pread_chunk(lua_State *L)
{
    struct repl *r = lua_touserdata(L, 1);
    lua_settop(L, 0);
    int status = read_chunk(r);
    if (lua_gettop(L) == 0) lua_pushnil(L);
    lua_pushinteger(L, status);
    return 2;
}

/* Protected: shows the values above index 1 (the first argument is a FILE*). */
static int show_results(lua_State *L)
{
    FILE *out = lua_touserdata(L, 1);
    int n = lua_gettop(L);
    for (int i = 2; i <= n; i++) {
        if (i > 2) fputc('\t', out);
        repl_show(L, i, out);
    }
    fputc('\n', out);
    return 0;
}

/* }================================================================== */

static void setup_editline(struct repl *r)
{
    r->el = el_init(HOST_PROGNAME, stdin, stdout, stderr);
    if (r->el == NULL) return;
    el_set(r->el, EL_CLIENTDATA, r);
    el_set(r->el, EL_EDITOR, "emacs");
    el_set(r->el, EL_SIGNAL, 0);
    el_set(r->el, EL_PROMPT, prompt_fn);
    /* the wide variant keeps our static names; the narrow one copies and leaks them */
    el_wset(r->el, EL_ADDFN, L"mechlua-complete", L"complete a Lua name", complete);
    el_set(r->el, EL_BIND, "^I", "mechlua-complete", (const char *)NULL);
    el_set(r->el, EL_BIND, "^R", "em-inc-search-prev", (const char *)NULL); /* as readline */
    history_open(r);
    el_source(r->el, NULL); /* ~/.editrc may rebind keys */
}

int repl_run(lua_State *L)
{
    struct repl r;
    memset(&r, 0, sizeof r);
    r.L = L;
    int terminal = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
    if (terminal) {
        setup_editline(&r);
        r.prompts = r.el == NULL; /* no usable terminal description: plain prompts */
        printf("%s %s (%s)  Ctrl-D quits, Tab completes\n", HOST_PROGNAME, mech_version(),
               LUA_RELEASE);
        fflush(stdout);
    }

    for (;;) {
        int base = lua_gettop(L);
        /* reading runs protected: a memory error there is reported like any failed chunk,
        ** and the REPL reads on (its line is consumed) instead of ending with its editor,
        ** history and line buffer left behind */
        lua_pushcfunction(L, pread_chunk);
        lua_pushlightuserdata(L, &r);
        int status = lua_pcall(L, 1, 2, 0);
        if (status == LUA_OK) {
            status = (int)lua_tointeger(L, -1);
            lua_pop(L, 1); /* leaves the function, the error message or nil */
            if (status < 0) lua_settop(L, base);
            if (status == -1) break;
            if (status == -2) continue;
        }
        if (status == LUA_OK) status = host_docall(L, 0, LUA_MULTRET);
        if (status == LUA_OK && lua_gettop(L) > base) {
            lua_pushcfunction(L, show_results);
            lua_insert(L, base + 1);
            lua_pushlightuserdata(L, stdout);
            lua_insert(L, base + 2);
            status = host_docall(L, lua_gettop(L) - base - 1, 0);
        }
        if (status != LUA_OK) r.failures++;
        host_report(L, status);
        fflush(stdout);
        lua_settop(L, base);
    }
    if (r.el || r.prompts) fputc('\n', stdout);
    fflush(stdout);

    if (r.el) el_end(r.el);
    if (r.hist) history_end(r.hist);
    free(r.line);
    return (!terminal && r.failures > 0) ? EXIT_FAILURE : EXIT_SUCCESS;
}
