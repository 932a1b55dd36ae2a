/* SPDX-License-Identifier: MIT */
/*
** run:mat: a run's recorded columns, its parameters and its provenance as a MATLAB file,
** written with matio (MAT 5, which MATLAB, Octave and scipy.io.loadmat read, or MAT 7.3,
** an HDF5 file).  Layout (man mechlua(3), run:mat):
**
**   t           N x 1 double, the report times
**   slider_x    N x 1 double per channel, named by a valid MATLAB identifier
**   mechlua     struct: version, header, parameters, status, message (char);
**               channels, variables, units (cell columns: the original names, the
**               variables holding them, their units); params (struct of the "parameter"
**               lines of the header: numbers as doubles, other values as text);
**               events (struct: t, a column of times, and name, a cell column)
**
** Everything Lua is done first (arguments, names, the header); the file is then written
** by plain C that frees every matio object on every path, under a temporary name in the
** same folder that is renamed over the path only when the whole file reads back.
*/
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <matio.h>

#include "lmat.h"
#include "lmech.h"
#include "lutil.h"
#include "mech_version.h"

#define NAMEMAX 63 /* MATLAB's namelengthmax */

typedef char matname[NAMEMAX + 1];

/* Everything the writer needs, gathered while Lua may still raise. */
typedef struct matjob {
    const mech_run *run;
    enum mat_ft version;
    int nsel;
    const int *sel; /* channel indices */
    matname *vars;  /* their variable names */
    const char *header, *parameters, *status, *message;
    int nparams;
    const char **pvalue; /* parameter values as written in the header */
    matname *pname;      /* their field names */
    long nevents;
    const double *event_t;
    const char **event_name;
} matjob;

/* ---- names ------------------------------------------------------------------------------- */

static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_alnum(int c)
{
    return is_alpha(c) || (c >= '0' && c <= '9') || c == '_';
}

static int taken(const char *name, matname *used, int nused)
{
    for (int i = 0; i < nused; i++)
        if (strcmp(name, used[i]) == 0) return 1;
    return 0;
}

/*
** Writes into out a valid MATLAB identifier for s that is none of used[0 .. nused): as
** MATLAB's matlab.lang.makeValidName does, every other character becomes '_' (one per
** UTF-8 character), a name that
** does not begin with a letter gets an 'x' in front, a keyword becomes "x" and itself
** capitalised ("end" -> "xEnd"); at most 63 characters; a name already taken gets "_2",
** "_3", ... ("slider.x" and "slider_x" -> slider_x and slider_x_2).
*/
static void make_name(const char *s, matname *used, int nused, char *out)
{
    static const char *const keywords[] = {
        "break",      "case",   "catch",    "classdef", "continue", "else",      "elseif",
        "end",        "for",    "function", "global",   "if",       "otherwise", "parfor",
        "persistent", "return", "spmd",     "switch",   "try",      "while",     NULL};
    char base[NAMEMAX + 1];
    size_t n = 0;
    if (!is_alpha((unsigned char)*s)) base[n++] = 'x';
    for (; *s && n < NAMEMAX; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) /* one '_' for a UTF-8 character */
            base[n++] = is_alnum((unsigned char)*s) ? *s : '_';
    base[n] = '\0';
    for (int k = 0; keywords[k]; k++)
        if (strcmp(base, keywords[k]) == 0)
            snprintf(base, sizeof base, "x%c%s", keywords[k][0] - 'a' + 'A', keywords[k] + 1);
    strcpy(out, base);
    for (int k = 2; taken(out, used, nused); k++) {
        char suffix[16];
        size_t ls = (size_t)snprintf(suffix, sizeof suffix, "_%d", k);
        size_t keep = strlen(base) > NAMEMAX - ls ? NAMEMAX - ls : strlen(base);
        memcpy(out, base, keep);
        strcpy(out + keep, suffix);
    }
}

/* ---- matio variables ------------------------------------------------------------------- */

/* Decodes UTF-8 (s, n bytes) into UTF-16 code units (room for n); each byte that does not
   begin a valid character becomes U+FFFD.  Returns the number of units. */
static size_t to_utf16(const unsigned char *s, size_t n, uint16_t *out)
{
    size_t m = 0;
    for (size_t i = 0; i < n;) {
        unsigned c = s[i], len = c < 0x80                 ? 1
                                 : c >= 0xC2 && c <= 0xDF ? 2
                                 : c >= 0xE0 && c <= 0xEF ? 3
                                 : c >= 0xF0 && c <= 0xF4 ? 4
                                                          : 0;
        unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
        unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
        if (len > 1 && (i + len > n || s[i + 1] < lo || s[i + 1] > hi)) len = 0;
        for (unsigned k = 2; len && k < len; k++)
            if ((s[i + k] & 0xC0) != 0x80) len = 0;
        if (len == 0) {
            out[m++] = 0xFFFD;
            i++;
            continue;
        }
        uint32_t cp = len == 1 ? c : c & (0x7F >> len);
        for (unsigned k = 1; k < len; k++) cp = cp << 6 | (s[i + k] & 0x3F);
        if (cp >= 0x10000) {
            out[m++] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
            out[m++] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
        } else {
            out[m++] = (uint16_t)cp;
        }
        i += len;
    }
    return m;
}

/* A 1 x n char array (UTF-16, as MATLAB stores text), 0 x 0 for "". */
static matvar_t *char_var(const char *name, const char *s)
{
    size_t n = strlen(s);
    uint16_t *u = malloc((n ? n : 1) * sizeof *u);
    if (u == NULL) return NULL;
    size_t m = to_utf16((const unsigned char *)s, n, u);
    size_t dims[2] = {m ? 1 : 0, m};
    matvar_t *v = Mat_VarCreate(name, MAT_C_CHAR, MAT_T_UINT16, 2, dims, u, 0);
    free(u);
    return v;
}

/* An n x 1 double column of the run's own memory (not copied, not freed by matio). */
static matvar_t *column_var(const char *name, const double *d, long n)
{
    size_t dims[2] = {(size_t)n, 1};
    return Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, (void *)d,
                         MAT_F_DONT_COPY_DATA);
}

static matvar_t *scalar_var(const char *name, double v)
{
    size_t dims[2] = {1, 1};
    return Mat_VarCreate(name, MAT_C_DOUBLE, MAT_T_DOUBLE, 2, dims, &v, 0);
}

/* An n x 1 cell array of texts: s[i], or the names of `names` when s is NULL. */
static matvar_t *cell_var(const char *name, const char *const *s, matname *names, long n)
{
    size_t dims[2] = {(size_t)n, 1};
    matvar_t *c = Mat_VarCreate(name, MAT_C_CELL, MAT_T_CELL, 2, dims, NULL, 0);
    for (long i = 0; c && i < n; i++) {
        matvar_t *e = char_var(NULL, s ? s[i] : names[i]);
        if (e == NULL) {
            Mat_VarFree(c);
            return NULL;
        }
        Mat_VarSetCell(c, (int)i, e);
    }
    return c;
}

/* Sets field `field` of the 1 x 1 struct st to v (which st then owns); -1 if v is NULL. */
static int set_field(matvar_t *st, const char *field, matvar_t *v)
{
    if (v == NULL) return -1;
    Mat_VarFree(Mat_VarSetStructFieldByName(st, field, 0, v)); /* the previous value: none */
    return 0;
}

static matvar_t *new_struct(const char *name, const char *const *fields)
{
    size_t dims[2] = {1, 1};
    return Mat_VarCreateStruct2(name, 2, dims, fields);
}

/* The struct `mechlua`: provenance, names, parameters and events. */
static matvar_t *meta_var(const matjob *J)
{
    static const char *const fields[] = {"version", "header",   "parameters", "status",
                                         "message", "channels", "variables",  "units",
                                         "params",  "events",   NULL};
    static const char *const event_fields[] = {"t", "name", NULL};
    const mech_run *run = J->run;
    matvar_t *m = new_struct("mechlua", fields);
    if (m == NULL) return NULL;
    const char **names = malloc(sizeof *names * (size_t)(2 * J->nsel + 1));
    const char **pfields = malloc(sizeof *pfields * (size_t)(J->nparams + 1));
    int bad = names == NULL || pfields == NULL;
    if (!bad) {
        for (int i = 0; i < J->nsel; i++) {
            names[i] = mech_run_channel_name(run, J->sel[i]);
            names[J->nsel + i] = mech_run_channel_unit(run, J->sel[i]);
        }
        for (int i = 0; i < J->nparams; i++) pfields[i] = J->pname[i];
        pfields[J->nparams] = NULL;
    }
    bad = bad || set_field(m, "version", char_var(NULL, MECH_VERSION_STRING));
    bad = bad || set_field(m, "header", char_var(NULL, J->header));
    bad = bad || set_field(m, "parameters", char_var(NULL, J->parameters));
    bad = bad || set_field(m, "status", char_var(NULL, J->status));
    bad = bad || set_field(m, "message", char_var(NULL, J->message));
    bad = bad || set_field(m, "channels", cell_var(NULL, names, NULL, J->nsel));
    bad = bad || set_field(m, "variables", cell_var(NULL, NULL, J->vars, J->nsel));
    bad =
        bad || set_field(m, "units", cell_var(NULL, names ? names + J->nsel : NULL, NULL, J->nsel));
    matvar_t *p = bad ? NULL : new_struct(NULL, pfields);
    bad = bad || set_field(m, "params", p);
    for (int i = 0; !bad && i < J->nparams; i++) {
        const char *v = J->pvalue[i];
        char *end;
        errno = 0;
        double d = strtod(v, &end);
        int number = *v && *end == '\0' && !(*v == ' ' || *v == '\t');
        bad = set_field(p, J->pname[i], number ? scalar_var(NULL, d) : char_var(NULL, v));
    }
    matvar_t *e = bad ? NULL : new_struct(NULL, event_fields);
    bad = bad || set_field(m, "events", e);
    bad = bad || set_field(e, "t", column_var(NULL, J->event_t, J->nevents));
    bad = bad || set_field(e, "name", cell_var(NULL, J->event_name, NULL, J->nevents));
    free(names);
    free(pfields);
    if (bad) {
        Mat_VarFree(m);
        return NULL;
    }
    return m;
}

/* ---- writing ------------------------------------------------------------------------------ */

static char mat_log[256]; /* matio's last message */

/* Keeps the first line of matio's message (HDF5's error stacks take many). */
static void log_to_buffer(int level, char *message)
{
    (void)level;
    snprintf(mat_log, sizeof mat_log, "%s", message ? message : "");
    mat_log[strcspn(mat_log, "\n")] = '\0';
}

/* What went wrong: the system's word for a write that failed, else matio's, else what. */
static const char *failure(int e, const char *what)
{
    if (e == ENOSPC || e == EFBIG || e == EDQUOT || e == EIO) return strerror(e);
    return *mat_log ? mat_log : what;
}

/* Writes v (NULL: it could not be made) and frees it; 0 or -1. */
static int write_var(mat_t *mat, matvar_t *v)
{
    if (v == NULL) return -1;
    int r = Mat_VarWrite(mat, v, MAT_COMPRESSION_ZLIB);
    Mat_VarFree(v);
    return r ? -1 : 0;
}

/* 1 when the file opens and holds nvars variables, one of them named `first`. */
static int reads_back(const char *file, int nvars, const char *first)
{
    mat_t *mat = Mat_Open(file, MAT_ACC_RDONLY);
    if (mat == NULL) return 0;
    int n = 0, found = 0;
    matvar_t *v;
    while ((v = Mat_VarReadNextInfo(mat)) != NULL) {
        found = found || (v->name && strcmp(v->name, first) == 0);
        n++;
        Mat_VarFree(v);
    }
    Mat_Close(mat);
    return found && n == nvars;
}

/* Writes the job into file; NULL or what went wrong. */
static const char *write_job(const matjob *J, const char *file)
{
    static char header[116];
    snprintf(header, sizeof header, "MATLAB 5.0 MAT-file, written by mechlua %s with matio %s",
             MECH_VERSION_STRING, MATIO_VERSION_STR);
    mat_log[0] = '\0';
    errno = 0;
    mat_t *mat = Mat_CreateVer(file, header, J->version);
    if (mat == NULL)
        return errno ? strerror(errno) : *mat_log ? mat_log : "matio could not create the file";
    const mech_run *run = J->run;
    long rows = mech_run_rows(run);
    int bad = write_var(mat, column_var("t", mech_run_time(run), rows));
    for (int i = 0; !bad && i < J->nsel; i++)
        bad = write_var(mat, column_var(J->vars[i], mech_run_column(run, J->sel[i]), rows));
    if (!bad) bad = write_var(mat, meta_var(J));
    if (Mat_Close(mat) != 0) bad = 1;
    int e = errno;
    if (bad) return failure(e, "matio could not write a variable");
    if (!reads_back(file, J->nsel + 2, "t")) return failure(e, "the file does not read back");
    return NULL;
}

/*
** write_job in a child process, for MAT 7.3: HDF5 keeps a file that it failed to write
** open, and then crashes when the program ends (in H5F__close_cb, on a disk that filled).
** The child ends with _exit, which runs no exit handler; its message comes through a pipe.
*/
static const char *write_job_apart(const matjob *J, const char *file)
{
    static char msg[256];
    int fds[2], status = 0;
    if (pipe(fds) != 0) return strerror(errno);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        return strerror(e);
    }
    if (pid == 0) {
        close(fds[0]);
        const char *err = write_job(J, file);
        size_t n = err ? strlen(err) : 0;
        for (size_t done = 0; done < n;) {
            ssize_t w = write(fds[1], err + done, n - done);
            if (w <= 0 && errno != EINTR) break;
            if (w > 0) done += (size_t)w;
        }
        _exit(err ? 1 : 0);
    }
    close(fds[1]);
    size_t n = 0;
    while (n < sizeof msg - 1) {
        ssize_t r = read(fds[0], msg + n, sizeof msg - 1 - n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        n += (size_t)r;
    }
    msg[n] = '\0';
    close(fds[0]);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return NULL;
    return n ? msg : "the writer ended abnormally";
}

/* ---- run:mat ------------------------------------------------------------------------------ */

int lmat_run_mat(lua_State *L)
{
    const char *fn = "run:mat";
    static const char *const known[] = {"version", "columns", "params", NULL};
    static const char *const versions[] = {"5", "7.3", NULL};
    lmech_check_run(L, 1);
    if (lua_type(L, 2) != LUA_TSTRING)
        return lu_error(L, fn, "expected a file name (a string), got %s", luaL_typename(L, 2));
    const char *path = lua_tostring(L, 2);
    if (strlen(path) != lua_rawlen(L, 2))
        return lu_error(L, fn, "the file name contains a zero byte");
    if (strlen(path) + 16 > 4096) return lu_error(L, fn, "the file name is too long");
    int opts = 0;
    if (!lua_isnoneornil(L, 3)) {
        opts = lu_checktable(L, 3, fn,
                             "of options { version = \"5\" or \"7.3\", columns = {...}, "
                             "params = {...} }");
        lu_checkfields(L, opts, fn, known, 0);
    }
    lua_settop(L, 3);
    matjob J;
    memset(&J, 0, sizeof J);
    J.version =
        opts && lu_option(L, opts, fn, "version", versions, 0) == 1 ? MAT_FT_MAT73 : MAT_FT_MAT5;
    lua_getiuservalue(L, 1, 1); /* 4: the header made by simulate */
    if (lua_type(L, 4) != LUA_TSTRING) {
        lua_pushliteral(L, "");
        lua_replace(L, 4);
    }
    if (opts && lu_getfield(L, opts, fn, "params") != LUA_TNIL) {
        if (!lua_istable(L, -1)) return lu_error(L, fn, "field 'params' must be a table");
        lu_push_params(L, lua_gettop(L));
        lua_remove(L, -2);
        lua_concat(L, 2);
    } else {
        lua_settop(L, 4);
    }
    lua_newtable(L); /* 5: anchors the strings below */
    int columns = opts && lu_getfield(L, opts, fn, "columns") != LUA_TNIL;
    if (columns && !lua_istable(L, -1))
        return lu_error(L, fn, "field 'columns' must be a list of channel names");
    if (!columns) lua_pushnil(L);
    lua_replace(L, 3); /* 3: the columns, or nil */
    lua_settop(L, 5);
    /* the parameters' tostring is Lua code, which may have freed the run */
    mech_run *run = lmech_check_run(L, 1);
    int nch = mech_run_nchannels(run);
    J.nsel = columns ? (int)lua_rawlen(L, 3) : nch;
    if (J.nsel < 0 || J.nsel > 1000000) return lu_error(L, fn, "too many columns");
    int *sel = lua_newuserdatauv(L, sizeof *sel * (size_t)(J.nsel + 1), 0);
    matname *vars = lua_newuserdatauv(L, sizeof *vars * (size_t)(J.nsel + 2), 0);
    strcpy(vars[0], "t");
    strcpy(vars[1], "mechlua");
    for (int i = 0; i < J.nsel; i++) {
        if (columns) {
            if (lua_rawgeti(L, 3, i + 1) != LUA_TSTRING)
                return lu_error(L, fn, "columns[%d] must be a channel name (got %s)", i + 1,
                                luaL_typename(L, -1));
            sel[i] = mech_run_channel_index(run, lua_tostring(L, -1));
            if (sel[i] < 0)
                return lu_error(L, fn, "columns[%d]: channel '%s' was not recorded in this run",
                                i + 1, lua_tostring(L, -1));
            lua_pop(L, 1);
        } else {
            sel[i] = i;
        }
        make_name(mech_run_channel_name(run, sel[i]), vars, i + 2, vars[i + 2]);
    }
    J.sel = sel;
    J.vars = vars + 2;
    /* the "parameter key = value" lines of the header */
    const char *header = lua_tostring(L, 4);
    int lines = 1;
    for (const char *p = header; *p; p++) lines += *p == '\n';
    J.pvalue = lua_newuserdatauv(L, sizeof *J.pvalue * (size_t)lines, 0);
    matname *pname = lua_newuserdatauv(L, sizeof *pname * (size_t)lines, 0);
    for (const char *p = header; *p;) {
        const char *end = strchr(p, '\n'), *eq;
        if (end == NULL) end = p + strlen(p);
        if (strncmp(p, "parameter ", 10) == 0 && (eq = strstr(p + 10, " = ")) != NULL && eq < end) {
            lua_pushlstring(L, p + 10, (size_t)(eq - p - 10));
            make_name(lua_tostring(L, -1), pname, J.nparams, pname[J.nparams]);
            lua_pop(L, 1);
            lua_pushlstring(L, eq + 3, (size_t)(end - eq - 3));
            J.pvalue[J.nparams++] = lua_tostring(L, -1);
            lua_rawseti(L, 5, (lua_Integer)lua_rawlen(L, 5) + 1);
        }
        p = *end ? end + 1 : end;
    }
    J.pname = pname;
    /* the header without its last newline, as one text */
    size_t hl = strlen(header);
    lua_pushlstring(L, header, hl && header[hl - 1] == '\n' ? hl - 1 : hl);
    J.header = lua_tostring(L, -1);
    lua_rawseti(L, 5, (lua_Integer)lua_rawlen(L, 5) + 1);
    const char *params = mech_run_parameters(run);
    size_t pl = strlen(params);
    lua_pushlstring(L, params, pl && params[pl - 1] == '\n' ? pl - 1 : pl);
    J.parameters = lua_tostring(L, -1);
    lua_rawseti(L, 5, (lua_Integer)lua_rawlen(L, 5) + 1);
    static const char *const status_names[] = {"complete", "stopped", "failed", "interrupted"};
    J.status = status_names[mech_run_get_status(run)];
    J.message = mech_run_message(run) ? mech_run_message(run) : "";
    J.nevents = mech_run_nevents(run);
    double *et = lua_newuserdatauv(L, sizeof *et * (size_t)(J.nevents + 1), 0);
    J.event_name = lua_newuserdatauv(L, sizeof *J.event_name * (size_t)(J.nevents + 1), 0);
    for (long k = 0; k < J.nevents; k++) {
        int def;
        const double *v;
        mech_run_event(run, k, &def, &et[k], &v);
        J.event_name[k] = mech_run_event_name(run, def);
    }
    J.event_t = et;
    J.run = run;
    /* a temporary file in the same folder, renamed over path when complete */
    char *tmp = lua_newuserdatauv(L, strlen(path) + 8, 0);
    snprintf(tmp, strlen(path) + 8, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        char hint[600];
        lu_folder_hint(path, hint, sizeof hint);
        return lu_error(L, fn, "cannot write '%s': %s%s", path, strerror(e), hint);
    }
    mode_t mask = umask(0);
    umask(mask);
    const char *err = fchmod(fd, 0666 & ~mask) != 0 ? strerror(errno) : NULL;
    close(fd);
    Mat_LogInitFunc("mechlua", log_to_buffer);
    if (err == NULL)
        err = J.version == MAT_FT_MAT73 ? write_job_apart(&J, tmp) : write_job(&J, tmp);
    if (err == NULL && rename(tmp, path) != 0) err = strerror(errno);
    if (err) {
        remove(tmp);
        return lu_error(L, fn, "cannot write '%s': %s", path, err);
    }
    lua_pushvalue(L, 2);
    return 1;
}
