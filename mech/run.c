/* SPDX-License-Identifier: MIT */
/*
** Runs: the recorded results of a simulation, and their CSV form.
*/
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_impl.h"

mech_run *run_create(int nch, long rows_max, int nevdefs, mech_error *err)
{
    mech_run *run = NULL;
    /* nch columns of rows_max values must have a size that a size_t holds */
    size_t width = (size_t)(nch > 0 ? nch : 1);
    if (nch < 0 || (rows_max > 0 && (size_t)rows_max > SIZE_MAX / sizeof(double) / width))
        goto nomem;
    run = mech_calloc(1, sizeof *run);
    if (run == NULL) goto nomem;
    run->nch = nch;
    run->cap = rows_max > 0 ? rows_max : 1;
    run->names = mech_calloc((size_t)(nch ? nch : 1), sizeof *run->names);
    run->units = mech_calloc((size_t)(nch ? nch : 1), sizeof *run->units);
    run->t = mech_calloc((size_t)run->cap, sizeof(double));
    run->data = mech_calloc((size_t)run->cap * (size_t)(nch ? nch : 1), sizeof(double));
    run->nevdefs = nevdefs;
    run->evnames = mech_calloc((size_t)(nevdefs ? nevdefs : 1), sizeof *run->evnames);
    if (!run->names || !run->units || !run->t || !run->data || !run->evnames) goto nomem;
    if (nevdefs > 0 && run_reserve_events(run, 64) != 0) goto nomem;
    return run;
nomem:
    mech_run_free(run);
    mech_error_set(err, MECH_ERR_NOMEM, "simulation: out of memory for the results");
    return NULL;
}

int run_reserve_motion(mech_run *run, long cap, int nstate, double dt)
{
    if (cap <= 0 || nstate <= 0 || (size_t)cap > SIZE_MAX / sizeof(double) / (size_t)nstate)
        return -1;
    run->motion_t = mech_calloc((size_t)cap, sizeof(double));
    run->motion = mech_calloc((size_t)cap * (size_t)nstate, sizeof(double));
    if (!run->motion_t || !run->motion) return -1;
    run->mcap = cap;
    run->nstate = nstate;
    run->motion_dt = dt;
    return 0;
}

int run_reserve_events(mech_run *run, long cap)
{
    if (cap <= run->evcap) return 0;
    size_t nch = (size_t)(run->nch ? run->nch : 1);
    if ((size_t)cap > SIZE_MAX / sizeof(double) / nch) return -1;
    int *def = mech_realloc(run->evdef, (size_t)cap * sizeof(int));
    if (def) run->evdef = def;
    double *t = mech_realloc(run->evt, (size_t)cap * sizeof(double));
    if (t) run->evt = t;
    double *v = mech_realloc(run->evval, (size_t)cap * nch * sizeof(double));
    if (v) run->evval = v;
    if (!def || !t || !v) return -1;
    run->evcap = cap;
    return 0;
}

void mech_run_free(mech_run *run)
{
    if (run == NULL) return;
    mech_free(run->names);
    mech_free(run->units);
    mech_free(run->t);
    mech_free(run->data);
    mech_free(run->evdef);
    mech_free(run->evt);
    mech_free(run->evval);
    mech_free(run->evnames);
    mech_free(run->params);
    mech_free(run->motion_t);
    mech_free(run->motion);
    mech_free(run);
}

mech_run_status mech_run_get_status(const mech_run *run)
{
    return run->status;
}

const char *mech_run_message(const mech_run *run)
{
    return run->message;
}

long mech_run_rows(const mech_run *run)
{
    return run->rows;
}

int mech_run_nchannels(const mech_run *run)
{
    return run->nch;
}

const char *mech_run_channel_name(const mech_run *run, int i)
{
    return i >= 0 && i < run->nch ? run->names[i] : NULL;
}

const char *mech_run_channel_unit(const mech_run *run, int i)
{
    return i >= 0 && i < run->nch ? run->units[i] : NULL;
}

int mech_run_channel_index(const mech_run *run, const char *name)
{
    for (int i = 0; i < run->nch; i++)
        if (strcmp(run->names[i], name) == 0) return i;
    return -1;
}

const double *mech_run_column(const mech_run *run, int i)
{
    return i >= 0 && i < run->nch ? run->data + (size_t)i * (size_t)run->cap : NULL;
}

const double *mech_run_time(const mech_run *run)
{
    return run->t;
}

long mech_run_motion_rows(const mech_run *run)
{
    return run->nmotion;
}

int mech_run_state_size(const mech_run *run)
{
    return run->nstate;
}

double mech_run_motion_step(const mech_run *run)
{
    return run->motion_dt;
}

const double *mech_run_motion(const mech_run *run, long k, double *t)
{
    if (k < 0 || k >= run->nmotion) return NULL;
    if (t) *t = run->motion_t[k];
    return run->motion + (size_t)k * (size_t)run->nstate;
}

unsigned long mech_run_system_revision(const mech_run *run)
{
    return run->revision;
}

long mech_run_nevents(const mech_run *run)
{
    return run->nev;
}

void mech_run_event(const mech_run *run, long k, int *def, double *t, const double **values)
{
    if (def) *def = run->evdef[k];
    if (t) *t = run->evt[k];
    if (values) *values = run->evval + (size_t)k * (size_t)(run->nch ? run->nch : 1);
}

const char *mech_run_event_name(const mech_run *run, int i)
{
    return i >= 0 && i < run->nevdefs ? run->evnames[i] : NULL;
}

mech_run_stats mech_run_get_stats(const mech_run *run)
{
    return run->stats;
}

const char *mech_run_parameters(const mech_run *run)
{
    return run->params ? run->params : "";
}

/* Writes one line of comment text: a control character other than a tab would end the
** line for some CSV readers (a lone CR) or hide bytes, so each is written as an escape. */
static void comment_text(FILE *f, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\r')
            fputs("\\r", f);
        else if ((c < 0x20 && c != '\t') || c == 0x7f)
            fprintf(f, "\\x%02x", c);
        else
            fputc(c, f);
    }
}

/* Writes lines of text, each prefixed with "# ". */
static void comment_lines(FILE *f, const char *text)
{
    while (text && *text) {
        const char *nl = strchr(text, '\n');
        size_t len = nl ? (size_t)(nl - text) : strlen(text);
        fputs("# ", f);
        comment_text(f, text, len);
        fputc('\n', f);
        text = nl ? nl + 1 : text + len;
    }
}

/* Writes a header field, in double quotes (quotes doubled) when it holds a comma, a quote
** or a line break, as RFC 4180 says. */
static void csv_field(FILE *f, const char *text)
{
    if (strpbrk(text, ",\"\r\n") == NULL) {
        fputs(text, f);
        return;
    }
    fputc('"', f);
    for (const char *p = text; *p; p++) {
        if (*p == '"') fputc('"', f);
        fputc(*p, f);
    }
    fputc('"', f);
}

/* Rows written between two looks at the interrupt flag. */
#define CSV_POLL_ROWS 256

mech_status mech_run_write_csv(const mech_run *run, const char *path, const char *header,
                               const char *const *columns, int ncolumns,
                               const volatile sig_atomic_t *interrupt, mech_error *err)
{
    int nsel = columns ? ncolumns : run->nch;
    int *sel = mech_calloc((size_t)(nsel ? nsel : 1), sizeof(int));
    if (sel == NULL) return mech_error_set(err, MECH_ERR_NOMEM, "csv: out of memory");
    for (int i = 0; i < nsel; i++) {
        sel[i] = columns ? mech_run_channel_index(run, columns[i]) : i;
        if (sel[i] < 0) {
            mech_error_set(err, MECH_ERR_NOTFOUND, "csv: channel '%s' was not recorded in this run",
                           columns[i]);
            mech_free(sel);
            return MECH_ERR_NOTFOUND;
        }
    }
    size_t plen = strlen(path);
    char *tmp = mech_malloc(plen + 32);
    if (tmp == NULL) {
        mech_free(sel);
        return mech_error_set(err, MECH_ERR_NOMEM, "csv: out of memory");
    }
    snprintf(tmp, plen + 32, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (f == NULL) {
        int e = errno;
        mech_free(sel);
        mech_free(tmp);
        return mech_error_set(err, MECH_ERR_IO, "csv: cannot write '%s': %s", path, strerror(e));
    }
    comment_lines(f, header);
    comment_lines(f, run->params);
    if (run->status != MECH_RUN_COMPLETE) {
        fputs("# run ended early: ", f);
        comment_text(f, run->message, strlen(run->message));
        fputc('\n', f);
    }
    fputs("t [s]", f);
    for (int i = 0; i < nsel; i++) {
        char label[RUN_NAME_MAX + RUN_UNIT_MAX + 4];
        snprintf(label, sizeof label, "%s [%s]", run->names[sel[i]], run->units[sel[i]]);
        fputc(',', f);
        csv_field(f, label);
    }
    fputc('\n', f);
    int stopped = 0;
    for (long r = 0; r < run->rows && !stopped; r++) {
        fprintf(f, "%.17g", run->t[r]);
        for (int i = 0; i < nsel; i++)
            fprintf(f, ",%.17g", run->data[(size_t)sel[i] * (size_t)run->cap + (size_t)r]);
        fputc('\n', f);
        stopped = interrupt && r % CSV_POLL_ROWS == 0 && *interrupt;
    }
    int bad = ferror(f);
    int e = errno;
    if (fclose(f) != 0 && !bad) bad = 1, e = errno;
    /* the last look before the file takes its name: after it, the file is whole */
    stopped = stopped || (interrupt && *interrupt);
    mech_status st = MECH_OK;
    if (stopped) {
        remove(tmp);
        st = mech_error_set(err, MECH_ERR_INTERRUPTED, "csv: interrupted; '%s' was not written",
                            path);
    } else if (bad) {
        remove(tmp);
        st = mech_error_set(err, MECH_ERR_IO, "csv: writing '%s' failed: %s", path, strerror(e));
    } else if (rename(tmp, path) != 0) {
        e = errno;
        remove(tmp);
        st = mech_error_set(err, MECH_ERR_IO, "csv: cannot write '%s': %s", path, strerror(e));
    }
    mech_free(sel);
    mech_free(tmp);
    return st;
}
