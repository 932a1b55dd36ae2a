/* SPDX-License-Identifier: MIT */
/*
** The plot module: figures for papers, drawn with PLplot's cairo drivers into PNG, SVG
** and PDF files.
**
** A figure is a grid of panels; a panel (an "axes") holds line, scatter and step series
** and may hold insets: axes drawn inside it that show its series in other limits.  The
** Lua objects only record what was asked for.  fig:save turns them into a plan (data
** pointers, limits, ticks, and the layout in millimetres), raising any Lua error there,
** and only then draws the plan with PLplot into a temporary file in the target folder,
** renamed over the target on success.  PLplot's fatal errors (plexit, which would end
** the program) come back through a plsexit handler that longjmps into render().
**
** Sizes: the figure is in mm, fonts, line widths and marker sizes in pt.  PLplot's
** cairo drivers work in device units at a nominal 72 per inch (pixels for PNG, points
** for SVG and PDF), so a PNG at `dpi` scales every size by dpi / 72.
*/
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>
#include <lua.h>
#include <plplot.h>

#include "lmodule.h"
#include "lplot.h"

#define FIGURE_MT "plot.figure"
#define AXES_MT   "plot.axes"
#define IMAGE_MT  "plot.image"

#define MM_PER_PT (25.4 / 72.0)
#define PI        3.14159265358979323846
#define PANGO_PT  0.75  /* pango sets PLplot's text at 96 dpi, not 72: scale sizes by 72/96 */
#define MAXGRID   10    /* rows and columns of panels */
#define MAXTICKS  24    /* labelled ticks per axis */
#define PEN_CAP   16384 /* points per plline call (longer polylines go in chunks) */
#define LINE_EM   1.2   /* height of a line of text, in font sizes */
#define GAP_EM    0.3   /* gap between tick labels and axis labels */
#define MAXTEXT   300   /* bytes of a text given, characters of one drawn */
#define MAXSUP    16    /* superscripts per text (PLplot's markup buffer holds some 60) */

enum { LINE, SCATTER, STEP };
enum { PNG, SVG, PDF };

static const char *const kinds[] = {"line", "scatter", "step", NULL};
static const char *const aspects[] = {"auto", "equal", NULL};
static const char *const styles[] = {"solid", "dashed", "dotted", "dashdot", NULL};
static const char *const markers[] = {"dot", "circle", "square", "triangle", "plus", "cross", NULL};
static const char *const positions[] = {
    "upper right",  "upper left",   "lower left",  "lower right",
    "upper center", "lower center", "center left", "center right",
    "center",       "best",         NULL};
#define BEST 9 /* the position of positions[] that covers the least data */
static const char *const extensions[] = {".png", ".svg", ".pdf"};
static const char *const devices[] = {"pngcairo", "svgcairo", "pdfcairo"};

/* Okabe-Ito colours with black first: distinct in print, in grey and for colour-blind eyes */
static const long palette[] = {0x000000, 0x0072B2, 0xD55E00, 0x009E73,
                               0xE69F00, 0xCC79A7, 0x56B4E9, 0x7F7F7F};
#define NPALETTE ((int)(sizeof palette / sizeof palette[0]))

static const struct {
    const char *name;
    long rgb;
} colors[] = {{"black", 0x000000},   {"white", 0xFFFFFF},     {"gray", 0x808080},
              {"grey", 0x808080},    {"lightgray", 0xC8C8C8}, {"darkgray", 0x404040},
              {"red", 0xD62728},     {"blue", 0x1F77B4},      {"green", 0x2CA02C},
              {"orange", 0xFF7F0E},  {"purple", 0x9467BD},    {"brown", 0x8C564B},
              {"pink", 0xE377C2},    {"olive", 0xBCBD22},     {"cyan", 0x17BECF},
              {"magenta", 0xFF00FF}, {"yellow", 0xFFD700},    {"navy", 0x000080}};
#define NCOLORS ((int)(sizeof colors / sizeof colors[0]))

/* ---- the Lua objects ------------------------------------------------------------------ */

/* A figure; its user value is a table {[i] = panel i, title = string}. */
typedef struct figure {
    int rows, cols;
    double width, height, dpi, font; /* mm, mm, pixels per inch, pt */
} figure;

/*
** A panel or an inset.  Its user value is a table {series = {...}, insets = {...},
** parent = axes (insets), title = , xlabel = , ylabel = }.
*/
typedef struct axes {
    int panel;        /* number of the panel (of the parent, for an inset) */
    int inset;        /* 1 for an inset */
    double at[4];     /* inset: x0, y0, w, h in fractions of the parent's plot area */
    int haslim[2];    /* x, y limits given */
    double lim[2][2]; /* {lo, hi} for x and y */
    int log[2];       /* 1 log axis, 0 linear, -1 as the parent (insets) */
    int grid, legend; /* legend: index in positions[] (BEST), or -1 hidden */
    int mark;         /* inset: outline the zoomed region on the parent */
    int aspect;       /* 1: one unit on x is as long as one unit on y ("equal") */
} axes;

/* A series; user values: 1 x data (column, buffer or nil for 1..n), 2 y data, 3 label. */
typedef struct series {
    int kind, style, marker;
    long n;
    long rgb;           /* 0xrrggbb, or -1: the palette colour of its position */
    double width, size; /* pt */
} series;

/* ---- the plan: everything fig:save draws, checked and laid out ------------------------ */

typedef struct pseries {
    const double *x, *y; /* x NULL: 1..n */
    long n;
    int kind, style, marker, mono; /* mono: x is monotonic (NaN aside) */
    long rgb;
    double width, size;
    const char *label; /* PLplot text, or NULL */
    double label_em;   /* its estimated width, in font sizes */
} pseries;

typedef struct paxis {
    double lo, hi; /* limits, data units */
    int log;
    double step; /* linear: major tick step */
    int nsub;    /* minor intervals per major one */
    int nticks;
    double tick[MAXTICKS];    /* labelled ticks, data units */
    char text[MAXTICKS][48];  /* their labels, PLplot text */
    double width_em, last_em; /* widest and last label, in font sizes */
    int exp10;                /* labels show value / 10^exp10 ("x10^e" at the axis end) */
} paxis;

typedef struct paxes {
    double box[4];    /* plot area in mm from the page's lower left corner: x0, y0, x1, y1 */
    double margin[4]; /* room its labels need: left, bottom, right, top (mm) */
    double font;      /* pt */
    paxis ax[2];
    double at[4]; /* inset: its place in the parent's plot area (fractions) */
    int inset, parent, grid, legend, mark, zoom; /* zoom: an inset with both limits given */
    int row, col;
    int aspect;        /* equal scales: the limits are widened on one axis to fit the box */
    double base[2][2]; /* the limits before that widening */
    double cell[4];    /* the panel's region on the page (mm): plot area and margins */
    const char *title, *label[2]; /* PLplot text or NULL */
    int s0, ns;                   /* its series: plan series s0 .. s0 + ns - 1 */
} paxes;

typedef struct plan {
    int format, wdev, hdev; /* page in device units */
    double wmm, hmm, font;
    double scale; /* device units per nominal 72-dpi unit */
    double res;   /* decimation grid: cells per mm (pixels for PNG, quarter points else) */
    const char *title;
    int naxes, nseries;
    paxes *axes;
    pseries *series;
    double *bx, *by; /* a polyline chunk, PEN_CAP points */
    unsigned char *bitmap;
    size_t nbitmap;
} plan;

/* ---- text ------------------------------------------------------------------------------ */

/*
** Recognises a superscript after a '^' at p: "{...}", an optional sign and a number, or
** one letter.  Returns the length of its text (0: not a superscript, the '^'
** is printed as is); *text is where it starts and *skip how many bytes follow the '^'.
*/
static size_t superscript(const char *p, const char **text, size_t *skip)
{
    if (*p == '{') {
        const char *e = strchr(p, '}');
        if (e == NULL || e == p + 1) return 0;
        *text = p + 1;
        *skip = (size_t)(e - p) + 1;
        return (size_t)(e - p) - 1;
    }
    size_t n = (*p == '-' || *p == '+') ? 1 : 0;
    size_t d = strspn(p + n, "0123456789");
    if (d && p[n + d] == '.' && strchr("0123456789", p[n + d + 1]) && p[n + d + 1])
        d += 1 + strspn(p + n + d + 1, "0123456789");
    if (d == 0) {
        if (n || !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) return 0;
        d = 1;
    }
    *text = p;
    *skip = n + d;
    return n + d;
}

/*
** Writes s as PLplot text into out (room for 3 * strlen(s) + 1): '#', PLplot's escape
** character, doubled, and the first MAXSUP superscripts "^2", "^-1", "^{...}" between #u
** and #d (PLplot's cairo driver writes each as a pango span into a fixed buffer, and
** drops a text whose markup outgrows it); any further '^' prints as it is.
*/
static void to_pltext(const char *s, char *out)
{
    int nsup = 0;
    for (; *s; s++) {
        const char *t;
        size_t skip, n = *s == '^' && nsup < MAXSUP ? superscript(s + 1, &t, &skip) : 0;
        if (n) {
            nsup++;
            *out++ = '#', *out++ = 'u';
            for (size_t i = 0; i < n; i++) {
                if (t[i] == '#') *out++ = '#';
                *out++ = t[i];
            }
            *out++ = '#', *out++ = 'd';
            s += skip;
        } else {
            if (*s == '#') *out++ = '#';
            *out++ = *s;
        }
    }
    *out = '\0';
}

/*
** Width of s in font sizes, estimated from the advance widths of DejaVu Sans (the sans
** font of Debian's fontconfig), in hundredths of an em for ASCII 32 to 126.
*/
static double text_em(const char *s)
{
    static const unsigned char adv[95] = {
        32, 40, 46, 84, 64, 95, 78, 28, 39, 39, 50, 84, 32, 36,  32, 34, 64, 64, 64,
        64, 64, 64, 64, 64, 64, 64, 34, 34, 84, 84, 84, 53, 100, 68, 69, 70, 77, 63,
        58, 78, 75, 30, 30, 66, 56, 86, 75, 79, 60, 79, 69, 63,  61, 73, 68, 99, 69,
        61, 69, 39, 34, 39, 84, 50, 50, 61, 64, 55, 64, 62, 35,  64, 63, 28, 28, 58,
        28, 97, 63, 61, 64, 64, 41, 52, 39, 63, 59, 82, 59, 59,  53, 64, 34, 64, 84};
    double w = 0;
    int nsup = 0;
    for (; *s; s++) {
        const char *t;
        size_t skip, n = *s == '^' && nsup < MAXSUP ? superscript(s + 1, &t, &skip) : 0;
        nsup += n > 0;
        const char *p = n ? t : s, *end = n ? t + n : s + 1;
        double f = n ? 0.83 : 1.0; /* pango's <sup> is a smaller size */
        for (; p < end; p++) {
            unsigned char c = (unsigned char)*p;
            if (c >= 32 && c < 127)
                w += f * adv[c - 32] / 100.0;
            else if ((c & 0xC0) != 0x80) /* the first byte of a UTF-8 character */
                w += f * 0.75;
        }
        if (n) s += skip;
    }
    return w;
}

/*
** Length of the valid UTF-8 character at s (RFC 3629: no overlong forms, no surrogates,
** nothing above U+10FFFF), or 0.
*/
static size_t utf8_char(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    size_t n = s[0] >= 0xC2 && s[0] <= 0xDF   ? 2
               : s[0] >= 0xE0 && s[0] <= 0xEF ? 3
               : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4
                                              : 0;
    /* the second byte's range excludes overlong forms, surrogates and > U+10FFFF */
    unsigned char lo = s[0] == 0xE0 ? 0xA0 : s[0] == 0xF0 ? 0x90 : 0x80;
    unsigned char hi = s[0] == 0xED ? 0x9F : s[0] == 0xF4 ? 0x8F : 0xBF;
    if (n && !(s[1] >= lo && s[1] <= hi)) return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0;
    return n;
}

/*
** Pushes s as valid UTF-8 of at most max characters: each byte that does not begin a
** valid character becomes U+FFFD (PLplot's cairo driver leaks its markup buffer on an
** invalid text, and pango would not draw it), and a longer text ends in U+2026 at
** character max.  Returns the pushed string.
*/
static const char *push_clean_text(lua_State *L, const char *s, size_t max)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (size_t count = 0; *s; count++) {
        size_t n = utf8_char((const unsigned char *)s);
        if (count + 1 == max && s[n ? n : 1]) {
            luaL_addstring(&b, "\u2026");
            break;
        }
        if (n)
            luaL_addlstring(&b, s, n);
        else
            luaL_addstring(&b, "\ufffd");
        s += n ? n : 1;
    }
    luaL_pushresult(&b);
    return lua_tostring(L, -1);
}

/*
** Pins PLplot text for s (user syntax) in the table at index pin and returns it (valid
** while pinned), NULL for no text; *em (if not NULL) receives its estimated width.
*/
static const char *pin_text(lua_State *L, int pin, const char *s, double *em)
{
    if (em) *em = 0;
    if (s == NULL || *s == '\0') return NULL;
    s = push_clean_text(L, s, MAXTEXT);
    if (em) *em = text_em(s);
    char *buf = lua_newuserdatauv(L, 3 * strlen(s) + 1, 0);
    to_pltext(s, buf);
    lua_pushstring(L, buf);
    lua_replace(L, -3);
    lua_pop(L, 1);
    const char *r = lua_tostring(L, -1);
    lua_rawseti(L, pin, (lua_Integer)lua_rawlen(L, pin) + 1);
    return r;
}

/* ---- reading arguments ---------------------------------------------------------------- */

static double get_range(lua_State *L, int t, const char *fn, const char *key, double def, double lo,
                        double hi, const char *unit)
{
    double v = lu_number(L, t, fn, key, def, 0);
    if (!(v >= lo && v <= hi))
        lu_error(L, fn, "field '%s' must be from %g to %g%s (got %g)", key, lo, hi, unit, v);
    return v;
}

static int get_int(lua_State *L, int t, const char *fn, const char *key, int def, int hi)
{
    double v = lu_number(L, t, fn, key, def, 0);
    if (v != floor(v) || v < 1 || v > hi)
        lu_error(L, fn, "field '%s' must be an integer from 1 to %d (got %g)", key, hi, v);
    return (int)v;
}

/*
** Pushes string field key, of at most MAXTEXT bytes (what PLplot's cairo driver prints
** whole), as valid UTF-8 (see push_clean_text), or nil when absent; returns it.
*/
static const char *get_text(lua_State *L, int t, const char *fn, const char *key)
{
    const char *s = lu_string(L, t, fn, key, NULL);
    if (s && strlen(s) > MAXTEXT)
        lu_error(L, fn, "field '%s' is too long (at most %d bytes)", key, MAXTEXT);
    if (s == NULL) {
        lua_pushnil(L);
        return NULL;
    }
    return push_clean_text(L, s, MAXTEXT);
}

/* Field color: a name, "#rrggbb" or a palette index; -1 when absent. */
static long get_color(lua_State *L, int t, const char *fn)
{
    int ty = lua_getfield(L, t, "color");
    long rgb = -1;
    if (ty == LUA_TNUMBER && lua_isinteger(L, -1)) {
        lua_Integer k = lua_tointeger(L, -1);
        if (k >= 1 && k <= NPALETTE) rgb = palette[k - 1];
    } else if (ty == LUA_TSTRING) {
        const char *s = lua_tostring(L, -1);
        if (s[0] == '#' && strlen(s) == 7 && strspn(s + 1, "0123456789abcdefABCDEF") == 6)
            rgb = strtol(s + 1, NULL, 16);
        for (int i = 0; i < NCOLORS && rgb < 0; i++)
            if (strcmp(s, colors[i].name) == 0) rgb = colors[i].rgb;
    }
    if (ty != LUA_TNIL && rgb < 0) {
        const char *got = luaL_tolstring(L, -1, NULL);
        luaL_Buffer b;
        luaL_buffinit(L, &b);
        for (int i = 0; i < NCOLORS; i++) {
            if (i) luaL_addstring(&b, ", ");
            luaL_addstring(&b, colors[i].name);
        }
        luaL_pushresult(&b);
        lu_error(L, fn,
                 "field 'color' must be a colour name (%s), \"#rrggbb\" or a palette index 1 to "
                 "%d (got %s)",
                 lua_tostring(L, -1), NPALETTE, got);
    }
    lua_pop(L, 1);
    return rgb;
}

/*
** Axis limits that PLplot can draw, in data units.  Linear axes lie within +-MAXLIN and
** span at least MINREL of their larger limit in size (so that ticks are apart by more
** than the rounding of their values: PLplot's axis routine steps from tick to tick and
** never returns when a step is lost in rounding) and MINLIN (so that scales stay finite);
** log axes span a ratio of at least MINRATIO between the smallest and the largest
** positive doubles.
*/
#define MAXLIN   1e300
#define MINLIN   1e-300
#define MINREL   1e-9
#define MINRATIO 1.00001

/* NULL when {lo, hi} can be drawn on a (log) axis, else what is wrong with it. */
static const char *limits_problem(double lo, double hi, int log)
{
    if (!(isfinite(lo) && isfinite(hi) && lo < hi)) return "must be finite, with lo < hi";
    if (log) {
        if (!(lo > 0)) return "must be positive on a log axis";
        if (!(hi / lo >= MINRATIO))
            return "is too narrow to draw on a log axis (hi / lo must be at least 1.00001)";
        return NULL;
    }
    if (!(lo >= -MAXLIN && hi <= MAXLIN))
        return "is beyond what can be drawn (limits must lie within -1e300 to 1e300)";
    if (!(hi - lo >= MINREL * fmax(fabs(lo), fabs(hi)) && hi - lo >= MINLIN))
        return "is too narrow to draw (hi - lo must be at least 1e-9 of the larger limit in "
               "size, and 1e-300)";
    return NULL;
}

/* Index of the first value of d that is infinite (pos = 0) or not positive (pos = 1). */
static long find_bad(const double *d, long n, int pos)
{
    for (long i = 0; d && i < n; i++)
        if (pos ? d[i] <= 0 : isinf(d[i])) return i;
    return -1;
}

/*
** Pushes the data of field key: a column as it is, or an array of numbers copied into a
** buffer userdata.  Returns the number of values, or -1 (nothing pushed) when absent.
*/
static long push_data(lua_State *L, int t, const char *fn, const char *key)
{
    int ty = lua_getfield(L, t, key);
    long n;
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        return -1;
    }
    if (luaL_testudata(L, -1, LMECH_COLUMN)) {
        if (lmech_to_column(L, -1, &n, NULL, NULL) == NULL)
            lu_error(L, fn, "field '%s': the run of this column was freed", key);
        return n;
    }
    if (ty != LUA_TTABLE)
        lu_error(L, fn, "field '%s' must be a column or an array of numbers (got %s)", key,
                 luaL_typename(L, -1));
    n = (long)lua_rawlen(L, -1);
    double *d = lua_newuserdatauv(L, sizeof(double) * (size_t)(n ? n : 1), 0);
    for (long i = 0; i < n; i++) {
        if (lua_rawgeti(L, -2, i + 1) != LUA_TNUMBER)
            lu_error(L, fn, "field '%s' must be an array of numbers (%s[%ld] is %s)", key, key,
                     i + 1, luaL_typename(L, -1));
        d[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    lua_remove(L, -2);
    return n;
}

/* The data of the series at sidx (x NULL for 1..n); raises if a column's run was freed. */
static long series_data(lua_State *L, int sidx, const char *fn, const double **x, const double **y)
{
    const double **out[2] = {x, y};
    for (int k = 0; k < 2; k++) {
        lua_getiuservalue(L, sidx, k + 1);
        *out[k] = luaL_testudata(L, -1, LMECH_COLUMN) ? lmech_to_column(L, -1, NULL, NULL, NULL)
                                                      : lua_touserdata(L, -1);
        if (*out[k] == NULL && !lua_isnil(L, -1))
            lu_error(L, fn, "the run of a plotted column was freed");
        lua_pop(L, 1);
    }
    return ((series *)lua_touserdata(L, sidx))->n;
}

/* Pushes "series 'label'" or "series #k" for messages. */
static const char *push_series_name(lua_State *L, int sidx, int k)
{
    if (lua_getiuservalue(L, sidx, 3) == LUA_TSTRING)
        lua_pushfstring(L, "series '%s'", lua_tostring(L, -1));
    else
        lua_pushfstring(L, "series #%d", k);
    lua_remove(L, -2);
    return lua_tostring(L, -1);
}

/*
** Raises unless the values of the series at sidx (number k of its axes) are positive on
** each log axis of log[]: names the series and the first bad value.
*/
static void check_log(lua_State *L, const char *fn, const char *where, int sidx, int k,
                      const int log[2])
{
    const double *d[2];
    long n = series_data(L, sidx, fn, &d[0], &d[1]);
    for (int i = 0; i < 2; i++) {
        long bad = log[i] == 1 ? find_bad(d[i], n, 1) : -1;
        if (bad >= 0)
            lu_error(L, fn, "%s%s: %slog needs positive values (%s[%ld] = %g)", where,
                     push_series_name(L, sidx, k), i ? "y" : "x", i ? "y" : "x", bad + 1,
                     d[i][bad]);
    }
}

/* ---- building figures ----------------------------------------------------------------- */

static axes *check_axes(lua_State *L)
{
    return luaL_checkudata(L, 1, AXES_MT);
}

/* Pushes field key of the user value table of the object at idx; returns its type. */
static int uv_field(lua_State *L, int idx, const char *key)
{
    lua_getiuservalue(L, idx, 1);
    int t = lua_getfield(L, -1, key);
    lua_remove(L, -2);
    return t;
}

/*
** Pushes the label of axis i (0 x, 1 y) of the axes at ai: the one set, else for a panel
** "name [unit]" of the first column plotted along that axis; nil if none.
*/
static void push_axis_label(lua_State *L, int ai, int i)
{
    if (uv_field(L, ai, i ? "ylabel" : "xlabel") != LUA_TNIL) return;
    lua_pop(L, 1);
    uv_field(L, ai, "series");
    for (int j = 1; lua_rawgeti(L, -1, j) != LUA_TNIL; j++) {
        const char *name, *unit;
        lua_getiuservalue(L, -1, i + 1);
        if (!((axes *)lua_touserdata(L, ai))->inset && lmech_to_column(L, -1, NULL, &name, &unit)) {
            lua_pushfstring(L, *unit ? "%s [%s]" : "%s", name, unit);
            lua_replace(L, -4);
            lua_pop(L, 2);
            return;
        }
        lua_pop(L, 2);
    }
    lua_pop(L, 2); /* the nil that ended the list, and the list */
    lua_pushnil(L);
}

/* Pushes a new panel (inset = 0) or inset of the axes at parent. */
static axes *new_axes(lua_State *L, int panel, int parent)
{
    axes *a = lua_newuserdatauv(L, sizeof *a, 1);
    memset(a, 0, sizeof *a);
    a->panel = panel;
    a->inset = parent != 0;
    a->log[0] = a->log[1] = a->inset ? -1 : 0;
    a->legend = a->inset ? -1 : BEST;
    a->mark = 1;
    luaL_setmetatable(L, AXES_MT);
    lua_createtable(L, 0, 4);
    lua_newtable(L);
    lua_setfield(L, -2, "series");
    lua_newtable(L);
    lua_setfield(L, -2, "insets");
    if (parent) {
        lua_pushvalue(L, parent);
        lua_setfield(L, -2, "parent");
    }
    lua_setiuservalue(L, -2, 1);
    return a;
}

/*
** Applies the panel settings of the table at t to the axes at ai: title (when
** with_title), xlabel, ylabel, xlim, ylim, xlog, ylog, legend, grid.
*/
static void apply_settings(lua_State *L, int ai, int t, const char *fn, int with_title)
{
    static const char *const texts[] = {"title", "xlabel", "ylabel"};
    static const char *const lims[] = {"xlim", "ylim"}, *const logs[] = {"xlog", "ylog"};
    axes *a = lua_touserdata(L, ai);
    lua_getiuservalue(L, ai, 1);
    int uv = lua_gettop(L);
    for (int k = with_title ? 0 : 1; k < 3; k++) {
        if (get_text(L, t, fn, texts[k]))
            lua_setfield(L, uv, texts[k]);
        else
            lua_pop(L, 1);
    }
    for (int i = 0; i < 2; i++) {
        double v[2];
        if (lu_vec2(L, t, fn, lims[i], v)) {
            if (!(v[0] < v[1]))
                lu_error(L, fn, "field '%s' must be {lo, hi} with lo < hi (got {%g, %g})", lims[i],
                         v[0], v[1]);
            a->haslim[i] = 1;
            a->lim[i][0] = v[0], a->lim[i][1] = v[1];
        }
        if (lua_getfield(L, t, logs[i]) != LUA_TNIL) a->log[i] = lu_bool(L, t, fn, logs[i], 0);
        lua_pop(L, 1);
        if (a->log[i] == 1 && a->haslim[i] && a->lim[i][0] <= 0)
            lu_error(L, fn, "field '%s' must be positive on a log axis (got {%g, %g})", lims[i],
                     a->lim[i][0], a->lim[i][1]);
        const char *why =
            a->haslim[i] ? limits_problem(a->lim[i][0], a->lim[i][1], a->log[i] == 1) : NULL;
        if (why)
            lu_error(L, fn, "field '%s' = {%.15g, %.15g} %s", lims[i], a->lim[i][0], a->lim[i][1],
                     why);
    }
    a->grid = lu_bool(L, t, fn, "grid", a->grid);
    a->aspect = lu_option(L, t, fn, "aspect", aspects, a->aspect);
    if (a->aspect && (a->log[0] == 1 || a->log[1] == 1))
        lu_error(L, fn, "aspect = \"equal\" needs linear axes (xlog and ylog false)");
    int ty = lua_getfield(L, t, "legend");
    lua_pop(L, 1);
    if (ty == LUA_TBOOLEAN)
        a->legend = lu_bool(L, t, fn, "legend", 0) ? BEST : -1;
    else if (ty != LUA_TNIL)
        a->legend = lu_option(L, t, fn, "legend", positions, 0);
    lua_getfield(L, uv, "series");
    for (int k = 1; lua_rawgeti(L, -1, k) != LUA_TNIL; k++) {
        check_log(L, fn, "", lua_gettop(L), k, a->log);
        lua_pop(L, 1);
    }
    lua_settop(L, uv - 1);
}

/*
** Adds a series of the given kind, described by the table at t, to the axes at ai.
** with_width: read the line width (the shorthand uses `width` for the figure's).
*/
static void add_series(lua_State *L, int ai, int t, int kind, const char *fn, int with_width)
{
    axes *a = lua_touserdata(L, ai);
    uv_field(L, ai, "series");
    int list = lua_gettop(L), k = (int)lua_rawlen(L, list) + 1;
    series *s = lua_newuserdatauv(L, sizeof *s, 3);
    int si = lua_gettop(L);
    s->kind = kind;
    s->rgb = get_color(L, t, fn);
    s->width = with_width ? get_range(L, t, fn, "width", 0.6, 0.05, 20, " pt") : 0.6;
    s->style = lu_option(L, t, fn, "style", styles, 0);
    s->marker = lu_option(L, t, fn, "marker", markers, 0);
    s->size = get_range(L, t, fn, "size", 2, 0.1, 50, " pt");
    if (kind != SCATTER &&
        (lua_getfield(L, t, "marker") != LUA_TNIL || lua_getfield(L, t, "size") != LUA_TNIL))
        lu_error(L, fn, "fields 'marker' and 'size' are for scatter series (kind = \"scatter\")");
    if (kind == SCATTER && lua_getfield(L, t, "style") != LUA_TNIL)
        lu_error(L, fn, "field 'style' is for line and step series");
    lua_settop(L, si);
    get_text(L, t, fn, "label");
    lua_setiuservalue(L, si, 3);
    long n = push_data(L, t, fn, "y");
    if (n < 0) lu_error(L, fn, "field 'y' is required (a column or an array of numbers)");
    lua_setiuservalue(L, si, 2);
    long nx = push_data(L, t, fn, "x");
    if (nx >= 0) {
        if (nx != n) lu_error(L, fn, "x has %ld values but y has %ld", nx, n);
        lua_setiuservalue(L, si, 1);
    }
    if (n == 0) lu_error(L, fn, "y is empty (a series needs at least one point)");
    s->n = n;
    const double *d[2];
    series_data(L, si, fn, &d[0], &d[1]);
    for (int i = 0; i < 2; i++) {
        long bad = find_bad(d[i], n, 0);
        if (bad >= 0)
            lu_error(L, fn, "%s[%ld] is infinite (%s)", i ? "y" : "x", bad + 1,
                     push_series_name(L, si, k));
    }
    check_log(L, fn, "", si, k, a->log);
    lua_rawseti(L, list, k);
    lua_settop(L, list - 1);
}

static int kind_method(lua_State *L, int kind, const char *fn, const char *const known[])
{
    check_axes(L);
    int t = lu_checktable(L, 2, fn, "of series fields { x = , y = , ... }");
    lu_checkfields(L, t, fn, known, 0);
    add_series(L, 1, t, kind, fn, 1);
    lua_settop(L, 1);
    return 1;
}

static const char *const line_fields[] = {"x", "y", "label", "color", "width", "style", NULL};

static int ax_line(lua_State *L)
{
    return kind_method(L, LINE, "ax:line", line_fields);
}

static int ax_step(lua_State *L)
{
    return kind_method(L, STEP, "ax:step", line_fields);
}

static int ax_scatter(lua_State *L)
{
    static const char *const known[] = {"x", "y", "label", "color", "marker", "size", NULL};
    return kind_method(L, SCATTER, "ax:scatter", known);
}

/*
** ax:circle{ radius, center, label, color, width, style }: a circle as a line series of
** 361 points (a clearance circle, a bearing's outline); its first point is its last.
*/
static int ax_circle(lua_State *L)
{
    const char *fn = "ax:circle";
    static const char *const known[] = {"radius", "center", "label", "color",
                                        "width",  "style",  NULL};
    static const char *const copied[] = {"label", "color", "width", "style", NULL};
    check_axes(L);
    int t = lu_checktable(L, 2, fn, "{ radius = , center = {x, y}, label = , ... }");
    lu_checkfields(L, t, fn, known, 0);
    double r = lu_number(L, t, fn, "radius", 0, 1), c[2] = {0, 0};
    if (!(r > 0 && r <= MAXLIN))
        return lu_error(L, fn, "field 'radius' must be a positive number up to 1e300 (got %g)", r);
    lu_vec2(L, t, fn, "center", c);
    if (!(fabs(c[0]) <= MAXLIN && fabs(c[1]) <= MAXLIN))
        return lu_error(L, fn, "field 'center' must be within -1e300 to 1e300 (got {%g, %g})", c[0],
                        c[1]);
    lua_settop(L, 2);
    lua_createtable(L, 0, 6);
    for (int i = 0; copied[i]; i++) {
        lu_getfield(L, t, fn, copied[i]);
        lua_setfield(L, 3, copied[i]);
    }
    for (int i = 0; i < 2; i++) {
        lua_createtable(L, 361, 0);
        for (int k = 0; k <= 360; k++) {
            double a = 2 * PI * (k % 360) / 360;
            lua_pushnumber(L, c[i] + r * (i ? sin(a) : cos(a)));
            lua_rawseti(L, -2, k + 1);
        }
        lua_setfield(L, 3, i ? "y" : "x");
    }
    add_series(L, 1, 3, LINE, fn, 1);
    lua_settop(L, 1);
    return 1;
}

static const char *const set_fields[] = {"title", "xlabel", "ylabel", "xlim",   "ylim", "xlog",
                                         "ylog",  "legend", "grid",   "aspect", NULL};

static int ax_set(lua_State *L)
{
    const char *fn = "ax:set";
    check_axes(L);
    int t = lu_checktable(L, 2, fn, "of settings { title = , xlim = , ... }");
    lu_checkfields(L, t, fn, set_fields, 0);
    apply_settings(L, 1, t, fn, 1);
    lua_settop(L, 1);
    return 1;
}

static int ax_inset(lua_State *L)
{
    const char *fn = "ax:inset";
    static const char *const known[] = {"at",   "mark",   "title", "xlabel", "ylabel",
                                        "xlim", "ylim",   "xlog",  "ylog",   "legend",
                                        "grid", "aspect", NULL};
    axes *p = check_axes(L);
    int t = lu_checktable(L, 2, fn, "{ at = {x0, y0, w, h}, xlim = , ylim = , ... }");
    lu_checkfields(L, t, fn, known, 0);
    if (p->inset) return lu_error(L, fn, "an inset cannot have insets");
    double at[4];
    int ok = lua_getfield(L, t, "at") == LUA_TTABLE && lua_rawlen(L, -1) == 4;
    for (int i = 0; ok && i < 4; i++) {
        ok = lua_rawgeti(L, -1, i + 1) == LUA_TNUMBER;
        at[i] = lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    if (!ok || !(at[0] >= 0 && at[1] >= 0 && at[2] > 0 && at[3] > 0 && at[0] + at[2] <= 1 &&
                 at[1] + at[3] <= 1))
        return lu_error(L, fn,
                        "field 'at' must be {x0, y0, w, h}: fractions of the panel's plot area, "
                        "with w, h > 0 and the box inside it");
    lua_settop(L, 2);
    axes *a = new_axes(L, p->panel, 1);
    memcpy(a->at, at, sizeof at);
    a->mark = lu_bool(L, t, fn, "mark", 1);
    apply_settings(L, 3, t, fn, 1);
    uv_field(L, 1, "insets");
    lua_pushvalue(L, 3);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    lua_settop(L, 3);
    return 1;
}

/* Pushes "panel 1 'title': 2 series, 1 inset" for the axes at ai. */
static void push_summary(lua_State *L, int ai)
{
    axes *a = lua_touserdata(L, ai);
    uv_field(L, ai, "series");
    int ns = (int)lua_rawlen(L, -1);
    uv_field(L, ai, "insets");
    int ni = (int)lua_rawlen(L, -1);
    uv_field(L, ai, "title");
    const char *title = lua_tostring(L, -1);
    lua_pushfstring(L, "%s %d%s%s%s: %d series", a->inset ? "inset of panel" : "panel", a->panel,
                    title ? " '" : "", title ? title : "", title ? "'" : "", ns);
    if (ni) {
        lua_pushfstring(L, "%s, %d inset%s", lua_tostring(L, -1), ni, ni > 1 ? "s" : "");
        lua_remove(L, -2);
    }
    lua_replace(L, -4);
    lua_pop(L, 2);
}

/* The summary and the axis labels as they will be drawn (set, or from the columns). */
static int ax_tostring(lua_State *L)
{
    check_axes(L);
    lua_settop(L, 1);
    push_summary(L, 1);
    push_axis_label(L, 1, 0);
    push_axis_label(L, 1, 1);
    const char *x = lua_tostring(L, 3), *y = lua_tostring(L, 4);
    x = x && *x ? x : NULL, y = y && *y ? y : NULL;
    if (x || y)
        lua_pushfstring(L, "%s (%s%s%s%s%s)", lua_tostring(L, 2), x ? "x: " : "", x ? x : "",
                        x && y ? ", " : "", y ? "y: " : "", y ? y : "");
    else
        lua_pushvalue(L, 2);
    return 1;
}

static figure *check_figure(lua_State *L)
{
    return luaL_checkudata(L, 1, FIGURE_MT);
}

static int fig_panel(lua_State *L)
{
    const char *fn = "fig:panel";
    figure *f = check_figure(L);
    if (!lua_isinteger(L, 2) || !(lua_isnoneornil(L, 3) || lua_isinteger(L, 3)))
        return lu_error(L, fn, "expected a panel number or a row and a column (integers)");
    lua_Integer i = lua_tointeger(L, 2);
    if (!lua_isnoneornil(L, 3)) {
        lua_Integer c = lua_tointeger(L, 3);
        if (i < 1 || i > f->rows)
            return lu_error(L, fn, "row %lld is out of range 1 to %d", (long long)i, f->rows);
        if (c < 1 || c > f->cols)
            return lu_error(L, fn, "column %lld is out of range 1 to %d", (long long)c, f->cols);
        i = (i - 1) * f->cols + c;
    }
    if (i < 1 || i > f->rows * f->cols)
        return lu_error(L, fn, "panel %lld is out of range 1 to %d (the figure has %d x %d)",
                        (long long)i, f->rows * f->cols, f->rows, f->cols);
    lua_getiuservalue(L, 1, 1);
    lua_rawgeti(L, -1, i);
    return 1;
}

static int fig_tostring(lua_State *L)
{
    figure *f = check_figure(L);
    luaL_Buffer b;
    lua_getiuservalue(L, 1, 1);
    int uv = lua_gettop(L);
    luaL_buffinit(L, &b);
    lua_pushfstring(L, "figure %dx%d, %d x %d mm:", f->rows, f->cols, (int)lround(f->width),
                    (int)lround(f->height));
    luaL_addvalue(&b);
    for (int i = 1; i <= f->rows * f->cols; i++) {
        lua_rawgeti(L, uv, i);
        push_summary(L, lua_gettop(L));
        lua_remove(L, -2);
        luaL_addstring(&b, i > 1 ? "; " : " ");
        luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    return 1;
}

static int fig_save(lua_State *L);

static int plot_figure(lua_State *L)
{
    const char *fn = "plot.figure";
    static const char *const fig_fields[] = {"rows", "cols", "width", "height",
                                             "dpi",  "font", "title", NULL};
    static const char *const short_fields[] = {
        "x",      "y",      "label", "kind", "color", "style",  "marker", "size",
        "xlabel", "ylabel", "xlim",  "ylim", "xlog",  "ylog",   "legend", "grid",
        "width",  "height", "dpi",   "font", "title", "aspect", NULL};
    int t = lu_checktable(L, 1, fn, "{ rows = , cols = , width = , ... } or { title, x = , y = }");
    int shorthand = lua_getfield(L, t, "y") != LUA_TNIL || lua_getfield(L, t, "x") != LUA_TNIL;
    lua_settop(L, 1);
    lu_checkfields(L, t, fn, shorthand ? short_fields : fig_fields, shorthand);
    figure *f = lua_newuserdatauv(L, sizeof *f, 1);
    int fi = lua_gettop(L);
    f->rows = get_int(L, t, fn, "rows", 1, MAXGRID);
    f->cols = get_int(L, t, fn, "cols", 1, MAXGRID);
    f->width = get_range(L, t, fn, "width", 160, 20, 1000, " mm");
    f->height = get_range(L, t, fn, "height", 100 + 50 * (f->rows - 1), 20, 1000, " mm");
    f->dpi = get_range(L, t, fn, "dpi", 300, 30, 2400, "");
    f->font = get_range(L, t, fn, "font", 10, 4, 36, " pt");
    luaL_setmetatable(L, FIGURE_MT);
    lua_createtable(L, f->rows * f->cols, 1);
    get_text(L, t, fn, "title");
    lua_setfield(L, -2, "title");
    for (int i = 1; i <= f->rows * f->cols; i++) {
        new_axes(L, i, 0);
        lua_rawseti(L, -2, i);
    }
    lua_setiuservalue(L, fi, 1);
    if (shorthand) {
        lua_getiuservalue(L, fi, 1);
        lua_rawgeti(L, -1, 1);
        int ai = lua_gettop(L);
        int ty = lua_rawgeti(L, t, 1);
        if (ty != LUA_TNIL && ty != LUA_TSTRING)
            return lu_error(L, fn, "the panel title ([1]) must be a string (got %s)",
                            luaL_typename(L, -1));
        if (ty == LUA_TSTRING && lua_rawlen(L, -1) > MAXTEXT)
            return lu_error(L, fn, "the panel title ([1]) is too long (at most %d bytes)", MAXTEXT);
        if (ty == LUA_TSTRING) {
            push_clean_text(L, lua_tostring(L, -1), MAXTEXT);
            lua_replace(L, -2);
        }
        lua_getiuservalue(L, ai, 1);
        lua_insert(L, -2);
        lua_setfield(L, -2, "title");
        lua_settop(L, ai);
        apply_settings(L, ai, t, fn, 0);
        add_series(L, ai, t, lu_option(L, t, fn, "kind", kinds, LINE), fn, 0);
    }
    lua_settop(L, fi);
    return 1;
}

/* ---- the plan ----------------------------------------------------------------------------- */

static double world(double v, int log)
{
    return log ? log10(v) : v;
}

static int monotonic(const double *x, long n)
{
    int dir = 0;
    double prev = NAN;
    for (long i = 0; x && i < n; i++) {
        if (isnan(x[i])) continue;
        int d = x[i] > prev ? 1 : x[i] < prev ? -1 : 0;
        if (d && dir && d != dir) return 0;
        if (d) dir = d;
        prev = x[i];
    }
    return 1;
}

/*
** Limits of axis i of A from its series, counting only the points inside the limits of
** the other axis when those are given (olim): x is tight for lines over time.
*/
static void auto_limits(lua_State *L, const plan *P, paxes *A, int i, const double *olim,
                        const char *fn, const char *where)
{
    paxis *a = &A->ax[i];
    double lo = INFINITY, hi = -INFINITY;
    int tight = i == 0;
    for (int k = 0; k < A->ns; k++) {
        const pseries *s = &P->series[A->s0 + k];
        const double *d = i ? s->y : s->x, *o = i ? s->x : s->y;
        tight = tight && s->kind != SCATTER && s->mono;
        for (long j = 0; j < s->n; j++) {
            double v = d ? d[j] : (double)(j + 1), ov = o ? o[j] : (double)(j + 1);
            if (olim && !(ov >= olim[0] && ov <= olim[1])) continue;
            if (v == v && (!a->log || v > 0)) lo = fmin(lo, v), hi = fmax(hi, v);
        }
    }
    if (lo > hi) lo = 1, hi = 10;
    if (!a->log && !(lo >= -MAXLIN && hi <= MAXLIN))
        lu_error(L, fn,
                 "%sthe %c values reach %g, beyond what can be drawn (-1e300 to 1e300): give %clim",
                 where, i ? 'y' : 'x', fabs(lo) > fabs(hi) ? lo : hi, i ? 'y' : 'x');
    /* in world units, within what the axis can show; the margin stays within it too */
    double wmin = a->log ? log10(DBL_TRUE_MIN) : -MAXLIN, wmax = a->log ? log10(DBL_MAX) : MAXLIN;
    lo = world(lo, a->log), hi = world(hi, a->log);
    double big = fmax(fabs(lo), fabs(hi)), pad = tight ? 0 : 0.05 * (hi - lo);
    if (a->log ? hi - lo < 2 * log10(MINRATIO) : hi - lo < 2 * fmax(MINREL * big, MINLIN)) {
        double mid = lo / 2 + hi / 2; /* (nearly) one value: a margin around it */
        pad = a->log ? 0.3 : big != 0 ? fmax(0.1 * big, MINLIN) : 1;
        lo = hi = mid;
    }
    lo = fmax(lo - pad, wmin), hi = fmin(hi + pad, wmax);
    a->lo = a->log ? fmax(pow(10, lo), DBL_TRUE_MIN) : lo;
    a->hi = a->log ? fmin(pow(10, hi), DBL_MAX) : hi;
}

/* Writes the label of tick value v (user text syntax) into buf. */
static void format_tick(const paxis *a, double v, int decimals, char *buf, size_t size)
{
    if (a->log) {
        double e = log10(v);
        if (fabs(e - round(e)) < 1e-9 || v == pow(10, round(e))) /* subnormal decades too */
            snprintf(buf, size, "10^{%s%d}", e < 0 ? "\u2212" : "", (int)fabs(round(e)));
        else
            snprintf(buf, size, "%g", v);
        return;
    }
    double w = v / pow(10, a->exp10);
    if (fabs(w) < 1e-9 * a->step / pow(10, a->exp10)) w = 0;
    snprintf(buf, size, "%s%.*f", w < 0 ? "\u2212" : "", decimals, fabs(w));
}

/* Labelled ticks of a log axis: decades (every m-th of many), else 1, 2, 5 x 10^k. */
static void log_ticks(paxis *a)
{
    double e0 = ceil(log10(a->lo) - 1e-9), e1 = floor(log10(a->hi) + 1e-9);
    int nd = (int)(e1 - e0) + 1, m = nd > 8 ? (nd + 7) / 8 : 1;
    a->nticks = 0;
    if (nd >= 2) {
        for (double e = e0; e <= e1 && a->nticks < MAXTICKS; e += m)
            a->tick[a->nticks++] = pow(10, e);
        return;
    }
    for (double e = floor(log10(a->lo)); e <= e1 + 1; e++)
        for (int k = 0; k < 3; k++) {
            double v = (k == 0 ? 1 : k == 1 ? 2 : 5) * pow(10, e);
            if (v >= a->lo * (1 - 1e-9) && v <= a->hi * (1 + 1e-9) && a->nticks < MAXTICKS)
                a->tick[a->nticks++] = v;
        }
}

/*
** Chooses the ticks of an axis len_mm long: a step of 1, 2, 2.5 or 5 x 10^k leaving room
** for the labels (their widths along x, their height along y), and writes the labels.
*/
static void make_ticks(paxis *a, double len_mm, double em_mm, int vertical)
{
    static const double mant[] = {1, 2, 2.5, 5};
    char buf[48];
    int decimals = 0;
    if (a->log) {
        log_ticks(a);
    } else {
        double range = a->hi - a->lo;
        int e = (int)floor(log10(range / (MAXTICKS - 2)));
        for (int tries = 0; tries < 16; tries++) {
            a->step = mant[tries % 4] * pow(10, e + tries / 4);
            a->nsub = tries % 4 == 1 ? 4 : 5;
            double k0 = ceil(a->lo / a->step - 1e-9), k1 = floor(a->hi / a->step + 1e-9);
            if (k1 - k0 + 1 > MAXTICKS) continue;
            double big = 0;
            a->nticks = (int)fmax(0, k1 - k0 + 1);
            for (int j = 0; j < a->nticks; j++) {
                a->tick[j] = (k0 + j) * a->step;
                big = fmax(big, fabs(a->tick[j]));
            }
            a->exp10 = big >= 1e5 || (big > 0 && big < 1e-3) ? (int)floor(log10(big)) : 0;
            double s = a->step / pow(10, a->exp10);
            for (decimals = 0; decimals < 12; decimals++) {
                double r = s * pow(10, decimals);
                if (fabs(r - round(r)) < 1e-6 * r) break;
            }
            double need = 2.6;
            for (int i = 0; !vertical && i < a->nticks; i++) {
                format_tick(a, a->tick[i], decimals, buf, sizeof buf);
                need = fmax(need, text_em(buf) + 1.5);
            }
            if (a->step / range * len_mm >= need * em_mm) break;
        }
    }
    a->width_em = a->last_em = 0;
    for (int i = 0; i < a->nticks; i++) {
        format_tick(a, a->tick[i], decimals, buf, sizeof buf);
        a->last_em = text_em(buf);
        a->width_em = fmax(a->width_em, a->last_em);
        to_pltext(buf, a->text[i]);
    }
}

/* Room the labels of A need around its plot area (mm). */
static void margins(paxes *A)
{
    double em = A->font * MM_PER_PT;
    A->margin[0] = em * (0.4 + A->ax[1].width_em + (A->label[1] ? GAP_EM + LINE_EM : 0) + 0.2);
    A->margin[1] =
        em * (GAP_EM + LINE_EM + (A->label[0] || A->ax[0].exp10 ? GAP_EM + LINE_EM : 0) + 0.2);
    A->margin[2] = em * fmax(0.6, A->ax[0].last_em / 2 + 0.2);
    A->margin[3] = em * (0.7 + (A->ax[1].exp10 ? LINE_EM : 0) + (A->title ? LINE_EM : 0));
}

/*
** Places the panels on the page: columns share their left and right margins and rows
** their top and bottom ones, so that axes line up; every plot area has the same size.
** Insets go inside their parents.
*/
static void layout(lua_State *L, plan *P, int rows, int cols, const char *fn)
{
    double m[4][MAXGRID] = {{0}}; /* left, bottom, right, top per column or row */
    for (int k = 0; k < P->naxes; k++) {
        paxes *A = &P->axes[k];
        margins(A);
        if (A->inset) continue;
        for (int j = 0; j < 4; j++) {
            int rc = j % 2 ? A->row : A->col;
            m[j][rc] = fmax(m[j][rc], A->margin[j]);
        }
    }
    double top = P->title ? 1.15 * P->font * MM_PER_PT * (LINE_EM + 0.3) : 0;
    double aw = P->wmm, ah = P->hmm - top;
    for (int c = 0; c < cols; c++) aw -= m[0][c] + m[2][c];
    for (int r = 0; r < rows; r++) ah -= m[1][r] + m[3][r];
    aw /= cols, ah /= rows;
    if (aw < 10 || ah < 10)
        lu_error(L, fn,
                 "the plot areas would be %.0f x %.0f mm: make the figure larger, the font "
                 "smaller or the panels fewer",
                 aw, ah);
    for (int k = 0; k < P->naxes; k++) {
        paxes *A = &P->axes[k];
        if (A->inset) continue;
        double x = 0, y = P->hmm - top;
        for (int c = 0; c < A->col; c++) x += m[0][c] + aw + m[2][c];
        for (int r = 0; r < A->row; r++) y -= m[3][r] + ah + m[1][r];
        A->box[0] = x + m[0][A->col];
        A->box[3] = y - m[3][A->row];
        A->box[2] = A->box[0] + aw;
        A->box[1] = A->box[3] - ah;
        A->cell[0] = x, A->cell[2] = A->box[2] + m[2][A->col];
        A->cell[3] = y, A->cell[1] = A->box[1] - m[1][A->row];
    }
}

/* Places an inset inside its parent's plot area. */
static void place_inset(plan *P, paxes *A)
{
    const double *at = A->at;
    const double *pb = P->axes[A->parent].box;
    double w = pb[2] - pb[0], h = pb[3] - pb[1];
    A->box[0] = pb[0] + at[0] * w;
    A->box[1] = pb[1] + at[1] * h;
    A->box[2] = A->box[0] + at[2] * w;
    A->box[3] = A->box[1] + at[3] * h;
    /* its labels stay within the parent's plot area */
    A->cell[0] = fmax(A->box[0] - A->margin[0], pb[0]);
    A->cell[1] = fmax(A->box[1] - A->margin[1], pb[1]);
    A->cell[2] = fmin(A->box[2] + A->margin[2], pb[2]);
    A->cell[3] = fmin(A->box[3] + A->margin[3], pb[3]);
}

/*
** Plans the axes at ai (a panel, or an inset of plan axes `parent`) as plan axes k and
** its series from *ns on: settings, texts, series data (checked), limits.
*/
static void plan_axes(lua_State *L, plan *P, int k, int ai, int parent, int *ns, int pin,
                      const char *fn)
{
    axes *a = lua_touserdata(L, ai);
    paxes *A = &P->axes[k];
    A->inset = a->inset;
    A->parent = parent;
    A->grid = a->grid;
    A->legend = a->legend;
    A->mark = a->mark;
    A->zoom = a->inset && a->haslim[0] && a->haslim[1];
    A->aspect = a->aspect;
    A->font = a->inset ? 0.8 * P->font : P->font;
    uv_field(L, ai, "title");
    A->title = pin_text(L, pin, lua_tostring(L, -1), NULL);
    lua_pop(L, 1);
    for (int i = 0; i < 2; i++) {
        A->ax[i].log = a->log[i] >= 0 ? a->log[i] : P->axes[parent].ax[i].log;
        push_axis_label(L, ai, i);
        A->label[i] = pin_text(L, pin, lua_tostring(L, -1), NULL);
        lua_pop(L, 1);
    }
    char where[40];
    snprintf(where, sizeof where, "panel %d%s, ", a->panel, a->inset ? " (inset)" : "");
    A->s0 = *ns;
    for (int pass = a->inset ? 0 : 1; pass < 2; pass++) { /* insets draw the parent's first */
        if (pass == 0) uv_field(L, ai, "parent");
        uv_field(L, pass == 0 ? -1 : ai, "series");
        int list = lua_gettop(L);
        for (int j = 1; lua_rawgeti(L, list, j) != LUA_TNIL; j++) {
            int si = lua_gettop(L);
            series *s = lua_touserdata(L, si);
            pseries *S = &P->series[(*ns)++];
            int log[2] = {A->ax[0].log, A->ax[1].log};
            check_log(L, fn, where, si, j, log);
            S->n = series_data(L, si, fn, &S->x, &S->y);
            S->kind = s->kind, S->style = s->style, S->marker = s->marker;
            S->rgb = s->rgb >= 0 ? s->rgb : palette[(*ns - 1 - A->s0) % NPALETTE];
            S->width = s->width, S->size = s->size;
            S->mono = monotonic(S->x, S->n);
            lua_getiuservalue(L, si, 3);
            const char *label = lua_tostring(L, -1);
            S->label = pin_text(L, pin, label, &S->label_em);
            lua_settop(L, list);
        }
        lua_settop(L, list - 1 - (pass == 0));
    }
    A->ns = *ns - A->s0;
    memcpy(A->at, a->at, sizeof A->at);
    for (int i = 0; i < 2; i++) {
        if (!a->haslim[i]) {
            auto_limits(L, P, A, i, a->haslim[1 - i] ? a->lim[1 - i] : NULL, fn, where);
        } else if (A->ax[i].log && a->lim[i][0] <= 0) {
            lu_error(L, fn, "%s%clim must be positive on a log axis (got {%g, %g})", where,
                     i ? 'y' : 'x', a->lim[i][0], a->lim[i][1]);
        } else {
            A->ax[i].lo = a->lim[i][0], A->ax[i].hi = a->lim[i][1];
        }
        const char *why = limits_problem(A->ax[i].lo, A->ax[i].hi, A->ax[i].log);
        if (why)
            lu_error(L, fn, "%sthe %c limits {%.15g, %.15g} %s", where, i ? 'y' : 'x', A->ax[i].lo,
                     A->ax[i].hi, why);
        A->base[i][0] = A->ax[i].lo, A->base[i][1] = A->ax[i].hi;
    }
    if (A->aspect && (A->ax[0].log || A->ax[1].log))
        lu_error(L, fn, "%saspect = \"equal\" needs linear axes (xlog and ylog false)", where);
}

/*
** Equal scales: widens the limits of one axis of A around their middle (from those
** planned, A->base) so that a unit along x is as long on the page as a unit along y in
** its plot area, as it is now: as long in device units (pixels), since the page's size
** in them is rounded.
*/
static void apply_aspect(const plan *P, paxes *A)
{
    if (!A->aspect) return;
    double w = (A->box[2] - A->box[0]) * P->wdev / P->wmm;
    double h = (A->box[3] - A->box[1]) * P->hdev / P->hmm;
    double ux = (A->base[0][1] - A->base[0][0]) / w, uy = (A->base[1][1] - A->base[1][0]) / h;
    int i = ux > uy ? 1 : 0; /* the axis to widen */
    double u = fmax(ux, uy), mid = A->base[i][0] / 2 + A->base[i][1] / 2;
    double half = u * (i ? h : w) / 2;
    for (int j = 0; j < 2; j++) A->ax[j].lo = A->base[j][0], A->ax[j].hi = A->base[j][1];
    A->ax[i].lo = fmax(mid - half, -MAXLIN), A->ax[i].hi = fmin(mid + half, MAXLIN);
}

/*
** Plans the figure at index 1 into P: its axes (panels in order, each followed by its
** insets) and their series, limits, ticks and layout.  Allocations stay on the stack.
*/
static void plan_figure(lua_State *L, plan *P, const char *fn)
{
    figure *f = lua_touserdata(L, 1);
    lua_getiuservalue(L, 1, 1);
    int fig = lua_gettop(L), np = f->rows * f->cols;
    lua_newtable(L);
    int pin = lua_gettop(L);
    P->wmm = f->width, P->hmm = f->height, P->font = f->font;
    P->scale = P->format == PNG ? f->dpi / 72 : 1;
    P->res = (P->format == PNG ? f->dpi : 288) / 25.4;
    P->wdev = (int)lround(f->width / 25.4 * (P->format == PNG ? f->dpi : 72));
    P->hdev = (int)lround(f->height / 25.4 * (P->format == PNG ? f->dpi : 72));
    if (P->format == PNG && (P->wdev > 20000 || P->hdev > 20000))
        lu_error(L, fn, "the PNG would be %d x %d pixels (at most 20000 a side): lower the dpi",
                 P->wdev, P->hdev);
    lua_getfield(L, fig, "title");
    P->title = pin_text(L, pin, lua_tostring(L, -1), NULL);
    lua_pop(L, 1);
    /* count, then fill */
    for (int pass = 0; pass < 2; pass++) {
        int na = 0, ns = 0;
        for (int i = 1; i <= np; i++) {
            lua_rawgeti(L, fig, i);
            int ai = lua_gettop(L), parent = na;
            uv_field(L, ai, "series");
            int own = (int)lua_rawlen(L, -1);
            if (pass) {
                P->axes[na].row = (i - 1) / f->cols, P->axes[na].col = (i - 1) % f->cols;
                plan_axes(L, P, na, ai, 0, &ns, pin, fn);
            } else {
                ns += own;
            }
            na++;
            uv_field(L, ai, "insets");
            for (int j = 1; lua_rawgeti(L, -1, j) != LUA_TNIL; j++) {
                if (pass) {
                    plan_axes(L, P, na, lua_gettop(L), parent, &ns, pin, fn);
                } else {
                    uv_field(L, -1, "series");
                    ns += own + (int)lua_rawlen(L, -1);
                    lua_pop(L, 1);
                }
                na++;
                lua_pop(L, 1);
            }
            lua_settop(L, ai - 1);
        }
        if (pass == 0) {
            P->naxes = na, P->nseries = ns;
            P->axes = lua_newuserdatauv(L, sizeof(paxes) * (size_t)na, 0);
            P->series = lua_newuserdatauv(L, sizeof(pseries) * (size_t)(ns ? ns : 1), 0);
            memset(P->axes, 0, sizeof(paxes) * (size_t)na);
        }
    }
    /* ticks and layout, twice: the ticks depend on the sizes of the plot areas */
    for (int k = 0; k < P->naxes; k++) {
        double em = P->font * MM_PER_PT;
        P->axes[k].box[2] = fmax(P->wmm / f->cols - 9 * em, 10);
        P->axes[k].box[3] = fmax(P->hmm / f->rows - 4.5 * em, 10);
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < P->naxes; k++) {
            paxes *A = &P->axes[k];
            double em = A->font * MM_PER_PT;
            if (A->inset) place_inset(P, A);
            apply_aspect(P, A);
            make_ticks(&A->ax[0], A->box[2] - A->box[0], em, 0);
            make_ticks(&A->ax[1], A->box[3] - A->box[1], em, 1);
        }
        layout(L, P, f->rows, f->cols, fn);
    }
    for (int k = 0; k < P->naxes; k++) {
        paxes *A = &P->axes[k];
        if (A->inset) place_inset(P, A);
        if (A->aspect) { /* the limits for the final box, and their ticks */
            double em = A->font * MM_PER_PT;
            apply_aspect(P, A);
            make_ticks(&A->ax[0], A->box[2] - A->box[0], em, 0);
            make_ticks(&A->ax[1], A->box[3] - A->box[1], em, 1);
        }
    }
}

/* ---- drawing (no Lua from here to render()) --------------------------------------------- */

static void poll_interrupt(void);

static void set_color(long rgb)
{
    plscol0(1, (PLINT)(rgb >> 16 & 255), (PLINT)(rgb >> 8 & 255), (PLINT)(rgb & 255));
    plcol0(1);
}

static void set_width(const plan *P, double pt)
{
    plwidth(pt * P->scale);
}

static double cur_pt; /* the font size set last */

static void set_font(const plan *P, double pt)
{
    cur_pt = pt;
    plschr(pt * MM_PER_PT * PANGO_PT * P->scale, 1.0);
}

/* Line style: dash lengths in pt, converted to PLplot's micrometres. */
static void set_style(const plan *P, int style)
{
    static const double dash[4][4] = {{0}, {4, 2}, {1, 1.5}, {4, 1.5, 1, 1.5}};
    PLINT mark[2], space[2], n = style == 3 ? 2 : 1;
    if (style == 0) {
        pllsty(1);
        return;
    }
    for (int i = 0; i < n; i++) {
        mark[i] = (PLINT)lround(dash[style][2 * i] * MM_PER_PT * 1000 * P->scale);
        space[i] = (PLINT)lround(dash[style][2 * i + 1] * MM_PER_PT * 1000 * P->scale);
    }
    plstyl(n, mark, space);
}

/* World coordinates: the page in mm. */
static void page_coords(const plan *P)
{
    plvpor(0, 1, 0, 1);
    plwind(0, P->wmm, 0, P->hmm);
}

/* World coordinates: the data of A (log10 of the values on log axes). */
static void data_coords(const plan *P, const paxes *A)
{
    plvpor(A->box[0] / P->wmm, A->box[2] / P->wmm, A->box[1] / P->hmm, A->box[3] / P->hmm);
    plwind(world(A->ax[0].lo, A->ax[0].log), world(A->ax[0].hi, A->ax[0].log),
           world(A->ax[1].lo, A->ax[1].log), world(A->ax[1].hi, A->ax[1].log));
}

static void text(double x, double y, int vertical, double just, const char *s)
{
    if (s) plptex(x, y, vertical ? 0 : 1, vertical ? 1 : 0, just, s);
}

static void rect(double x0, double y0, double x1, double y1, int fill)
{
    PLFLT x[5] = {x0, x1, x1, x0, x0}, y[5] = {y0, y0, y1, y1, y0};
    if (fill)
        plfill(4, x, y);
    else
        plline(5, x, y);
}

/* A marker at (x, y) with radii rx, ry in world units. */
static void marker(int kind, double x, double y, double rx, double ry)
{
    PLFLT px[17], py[17];
    int n = kind == 0 ? 12 : kind == 1 ? 17 : 0;
    for (int i = 0; i < n; i++) {
        double a = 2 * PI * i / (kind == 0 ? 12 : 16);
        px[i] = x + rx * cos(a), py[i] = y + ry * sin(a);
    }
    switch (kind) {
    case 0: plfill(n, px, py); break;
    case 1: plline(n, px, py); break;
    case 2: rect(x - 0.85 * rx, y - 0.85 * ry, x + 0.85 * rx, y + 0.85 * ry, 0); break;
    case 3:
        for (int i = 0; i < 4; i++) {
            double a = PI / 2 + 2 * PI * i / 3;
            px[i] = x + rx * cos(a), py[i] = y + ry * sin(a);
        }
        plline(4, px, py);
        break;
    case 4:
        pljoin(x - rx, y, x + rx, y);
        pljoin(x, y - ry, x, y + ry);
        break;
    default:
        pljoin(x - 0.75 * rx, y - 0.75 * ry, x + 0.75 * rx, y + 0.75 * ry);
        pljoin(x - 0.75 * rx, y + 0.75 * ry, x + 0.75 * rx, y - 0.75 * ry);
    }
}

/*
** A pen draws polylines in world coordinates, clipped to a box around the window (one
** window size on every side: PLplot clips exactly at the window, and never sees the
** huge coordinates that overflow its integer device units), in chunks of PEN_CAP points.
*/
typedef struct pen {
    double *x, *y;
    long n;
    double lo[2], hi[2];
    int have; /* (px, py) holds the previous point */
    double px, py;
} pen;

static void pen_flush(pen *p)
{
    if (p->n >= 2) plline((PLINT)p->n, p->x, p->y);
    p->n = 0;
}

static void pen_add(pen *p, double x, double y)
{
    if (p->n == PEN_CAP) { /* go on from the last point */
        pen_flush(p);
        p->x[0] = p->x[PEN_CAP - 1], p->y[0] = p->y[PEN_CAP - 1];
        p->n = 1;
    }
    p->x[p->n] = x, p->y[p->n] = y;
    p->n++;
}

/* Liang-Barsky: the part t0..t1 of the segment from (x, y) by (dx, dy) inside the box. */
static int clip(const pen *p, double x, double y, double dx, double dy, double *t0, double *t1)
{
    double s[2] = {x, y}, d[2] = {dx, dy};
    *t0 = 0, *t1 = 1;
    for (int i = 0; i < 4; i++) {
        double q = i % 2 ? p->hi[i / 2] - s[i / 2] : s[i / 2] - p->lo[i / 2];
        double r = i % 2 ? d[i / 2] : -d[i / 2];
        if (r == 0) {
            if (q < 0) return 0;
        } else if (r < 0) {
            *t0 = fmax(*t0, q / r);
        } else {
            *t1 = fmin(*t1, q / r);
        }
    }
    return *t0 <= *t1;
}

static void pen_to(pen *p, double x, double y)
{
    double x0 = p->px, y0 = p->py, t0, t1;
    int had = p->have;
    if (had && !(isfinite(x - x0) && isfinite(y - y0))) {
        /* ends of opposite signs near the largest double: through the midpoint, whose
           differences from both are finite */
        pen_to(p, x0 / 2 + x / 2, y0 / 2 + y / 2);
        x0 = p->px, y0 = p->py;
    }
    p->have = 1, p->px = x, p->py = y;
    if (!had) return;
    if (!clip(p, x0, y0, x - x0, y - y0, &t0, &t1)) {
        pen_flush(p);
        return;
    }
    if (p->n == 0 || t0 > 0) {
        pen_flush(p);
        pen_add(p, x0 + t0 * (x - x0), y0 + t0 * (y - y0));
    }
    pen_add(p, x0 + t1 * (x - x0), y0 + t1 * (y - y0));
    if (t1 < 1) pen_flush(p);
}

static void pen_break(pen *p)
{
    pen_flush(p);
    p->have = 0;
}

/*
** Decimation before drawing.  With monotonic x, the points of each quarter column of
** the grid (pixels for PNG) are reduced to the first, lowest, highest and last, in their
** order: the line looks the same and keeps every spike.  Otherwise a point closer than
** half a cell to the last one kept is dropped (the last of a run is always kept).
*/
typedef struct dec {
    pen *pen;
    int mono;
    double x0, y0, ux, uy; /* grid cells per world unit from (x0, y0) */
    long bucket, seq;
    int count;
    double pt[4][2]; /* first, lowest, highest, last point of the bucket */
    long at[4];      /* their sequence numbers */
    int pending;     /* non-monotonic: a dropped point to keep if the run ends */
    double kx, ky, dx, dy;
} dec;

static void dec_flush(dec *d)
{
    long last = -1;
    for (int k = 0; k < 4 && d->count; k++) { /* emit the four in order, once each */
        int m = -1;
        for (int i = 0; i < 4; i++)
            if (d->at[i] > last && (m < 0 || d->at[i] < d->at[m])) m = i;
        if (m < 0) break;
        last = d->at[m];
        pen_to(d->pen, d->pt[m][0], d->pt[m][1]);
    }
    d->count = 0;
}

static void dec_point(dec *d, double x, double y)
{
    d->seq++;
    if (d->mono) {
        long b = (long)floor(fmax(-1, fmin(1e9, (x - d->x0) * d->ux * 4)));
        if (d->count && b != d->bucket) dec_flush(d);
        int set[4] = {d->count == 0, d->count == 0 || y < d->pt[1][1],
                      d->count == 0 || y > d->pt[2][1], 1};
        for (int i = 0; i < 4; i++)
            if (set[i]) d->pt[i][0] = x, d->pt[i][1] = y, d->at[i] = d->seq;
        d->bucket = b;
        d->count++;
    } else if (!d->pen->have || fabs(x - d->kx) * d->ux >= 0.5 || fabs(y - d->ky) * d->uy >= 0.5) {
        pen_to(d->pen, x, y);
        d->kx = x, d->ky = y, d->pending = 0;
    } else {
        d->dx = x, d->dy = y, d->pending = 1;
    }
}

static void dec_break(dec *d)
{
    if (d->mono) dec_flush(d);
    if (d->pending) pen_to(d->pen, d->dx, d->dy);
    d->pending = 0;
    pen_break(d->pen);
}

/* Line and step series: NaN breaks the line; steps hold each value until the next x. */
static void draw_path(const plan *P, const paxes *A, const pseries *S)
{
    int lx = A->ax[0].log, ly = A->ax[1].log;
    pen p = {P->bx, P->by, 0, {0}, {0}, 0, 0, 0};
    dec d;
    memset(&d, 0, sizeof d);
    d.pen = &p, d.mono = S->mono;
    for (int i = 0; i < 2; i++) {
        double lo = world(A->ax[i].lo, A->ax[i].log), hi = world(A->ax[i].hi, A->ax[i].log);
        p.lo[i] = lo - (hi - lo), p.hi[i] = hi + (hi - lo);
        double u = (A->box[i + 2] - A->box[i]) * P->res / (hi - lo);
        if (i == 0)
            d.x0 = lo, d.ux = u;
        else
            d.y0 = lo, d.uy = u;
    }
    double yprev = NAN;
    for (long i = 0; i < S->n; i++) {
        if ((i & 0xFFFF) == 0xFFFF) poll_interrupt();
        double x = S->x ? S->x[i] : (double)(i + 1), y = S->y[i];
        int ok = x == x && y == y;
        if (S->kind == STEP && yprev == yprev && x == x)
            dec_point(&d, world(x, lx), world(yprev, ly));
        if (!ok) {
            dec_break(&d);
            yprev = NAN;
            continue;
        }
        dec_point(&d, world(x, lx), world(y, ly));
        yprev = y;
    }
    dec_break(&d);
}

/* Scatter series: every point, but one marker per grid cell (the others would cover it). */
static void draw_scatter(const plan *P, const paxes *A, const pseries *S)
{
    double lo[2], hi[2], r[2], u[2];
    long cells[2];
    for (int i = 0; i < 2; i++) {
        double mm = A->box[i + 2] - A->box[i];
        lo[i] = world(A->ax[i].lo, A->ax[i].log), hi[i] = world(A->ax[i].hi, A->ax[i].log);
        r[i] = S->size / 2 * MM_PER_PT * (hi[i] - lo[i]) / mm;
        u[i] = mm * P->res / (hi[i] - lo[i]);
        cells[i] = (long)ceil(mm * P->res) + 1;
    }
    memset(P->bitmap, 0, P->nbitmap);
    set_width(P, fmax(0.4, S->size / 6));
    for (long i = 0; i < S->n; i++) {
        if ((i & 0xFFFF) == 0xFFFF) poll_interrupt();
        double x = S->x ? S->x[i] : (double)(i + 1), y = S->y[i];
        if (!(x == x && y == y)) continue;
        x = world(x, A->ax[0].log), y = world(y, A->ax[1].log);
        if (x < lo[0] - r[0] || x > hi[0] + r[0] || y < lo[1] - r[1] || y > hi[1] + r[1]) continue;
        long cx = (long)floor((x - lo[0]) * u[0]), cy = (long)floor((y - lo[1]) * u[1]);
        if (cx >= 0 && cy >= 0 && cx < cells[0] && cy < cells[1]) {
            size_t bit = (size_t)cy * (size_t)cells[0] + (size_t)cx;
            if (P->bitmap[bit / 8] & (1u << bit % 8)) continue;
            P->bitmap[bit / 8] |= (unsigned char)(1u << bit % 8);
        }
        marker(S->marker, x, y, r[0], r[1]);
    }
}

/* ---- text that fits its panel: measured by PLplot, shrunk, then cut ---------------------- */

#define FIT_FLOOR 0.7 /* a text may shrink to this fraction of its font size */
#define MAXREPORT 512 /* axes and texts the report of the last save keeps */

/*
** What the last fig:save drew (plot._report(), for the tests): the page, each axes'
** viewport (plgvpd) and window (plgvpw) as PLplot reports them, its plot area and the
** region of its panel, and where each text went (its estimated extent and font size).
*/
static struct {
    double wmm, hmm;
    int wdev, hdev;
    int naxes, ntext;
    struct {
        double vpd[4], vpw[4], box[4], cell[4];
    } axes[MAXREPORT];
    struct {
        int axes, cut;
        const char *kind;
        double ext[4], pt; /* x0, y0, x1, y1 in page mm; the font size used */
    } text[MAXREPORT];
} last;

/*
** Length of PLplot text s in page mm in the current font, from the advance widths of
** DejaVu Sans (text_em): "##" is one '#', "#u" ... "#d" a superscript.  PLplot 5.15 does
** not export plstrl, its own measure.
*/
static double measure(const char *s)
{
    char one[2] = {0, 0}, utf[5];
    double w = 0, f = 1;
    for (const char *p = s; *p;) {
        if (p[0] == '#' && (p[1] == 'u' || p[1] == 'd')) {
            f = p[1] == 'u' ? 0.83 : 1;
            p += 2;
            continue;
        }
        if (p[0] == '#' && p[1] == '#') p++;
        size_t n = 1;
        while (n < 4 && ((unsigned char)p[n] & 0xC0) == 0x80) n++;
        memcpy(utf, p, n);
        utf[n] = '\0';
        one[0] = *p; /* alone, a '^' is no superscript mark for text_em */
        w += f * text_em(n > 1 ? utf : one);
        p += n;
    }
    return w * cur_pt * MM_PER_PT;
}

static void record(int k, const char *kind, double x, double y, int vertical, double just,
                   double len, double pt, int cut)
{
    if (last.ntext >= MAXREPORT) return;
    double h = pt * MM_PER_PT / 2, a = (vertical ? y : x) - just * len;
    double ext[4] = {a, y - h, a + len, y + h};
    if (vertical) ext[0] = x - h, ext[1] = a, ext[2] = x + h, ext[3] = a + len;
    last.text[last.ntext].axes = k;
    last.text[last.ntext].kind = kind;
    last.text[last.ntext].cut = cut;
    last.text[last.ntext].pt = pt;
    memcpy(last.text[last.ntext].ext, ext, sizeof ext);
    last.ntext++;
}

/*
** Writes into buf the longest beginning of PLplot text s, cut before a character (never
** inside an escape), followed by an ellipsis, that is at most avail mm long (the ellipsis
** alone if none is); a superscript cut open is closed.  Returns its length in mm.
*/
static double ellipsize(const char *s, double avail, char *buf)
{
    static size_t cuts[4096];
    static unsigned char sup[4096];
    size_t n = 0;
    int in = 0;
    for (size_t i = 0; s[i] && n < 4096;) {
        cuts[n] = i, sup[n] = (unsigned char)in, n++;
        if (s[i] == '#' && s[i + 1]) {
            in = s[i + 1] == 'u' ? 1 : s[i + 1] == 'd' ? 0 : in;
            i += 2;
            continue;
        }
        for (i++; ((unsigned char)s[i] & 0xC0) == 0x80; i++) continue;
    }
    size_t lo = 0, hi = n ? n - 1 : 0;
    for (int pass = 0; pass < 2; pass++) {
        while (pass == 0 && lo < hi) {
            size_t mid = (lo + hi + 1) / 2;
            memcpy(buf, s, cuts[mid]);
            strcpy(buf + cuts[mid], sup[mid] ? "\u2026#d" : "\u2026");
            if (measure(buf) <= avail)
                lo = mid;
            else
                hi = mid - 1;
        }
        size_t c = n ? cuts[lo] : 0;
        while (pass == 1 && c > 0 && s[c - 1] == ' ') c--; /* no space before the ellipsis */
        memcpy(buf, s, c);
        strcpy(buf + c, n && sup[lo] ? "\u2026#d" : "\u2026");
    }
    return measure(buf);
}

/*
** Draws PLplot text s at (x, y) (page mm; vertical: upwards; just: 0 left, 0.5 centred,
** 1 right) so that it is at most avail mm long: in a font of pt, else smaller down to
** floor_pt, else cut with an ellipsis.  kind and k (the axes, -1 the figure) go into the
** report.
*/
static void fit_text(const plan *P, int k, const char *kind, double pt, double floor_pt,
                     double avail, double x, double y, int vertical, double just, const char *s)
{
    char buf[4096 + 16];
    if (s == NULL) return;
    double f = pt;
    set_font(P, f);
    double len = measure(s);
    for (int i = 0; i < 4 && len > avail && f > floor_pt; i++) {
        f = fmax(floor_pt, f * avail / len * 0.995);
        set_font(P, f);
        len = measure(s);
    }
    int cut = len > avail && strlen(s) < 4096;
    if (cut) {
        len = ellipsize(s, avail, buf);
        s = buf;
    }
    text(x, y, vertical, just, s);
    record(k, kind, x, y, vertical, just, len, f, cut);
    set_font(P, pt);
}

/* Draws and records a text that is not fitted (tick labels). */
static void plain_text(int k, const char *kind, double pt, double x, double y, int vertical,
                       double just, const char *s)
{
    text(x, y, vertical, just, s);
    record(k, kind, x, y, vertical, just, measure(s), pt, 0);
}

/* The rectangle (page mm: x0, y0, x1, y1) of a w x h legend at position pos of A. */
static void legend_rect(const paxes *A, int pos, double w, double h, double r[4])
{
    double m = 0.5 * A->font * MM_PER_PT; /* from the axes box */
    int hx = pos == 0 || pos == 3 || pos == 7 ? 1 : pos == 1 || pos == 2 || pos == 6 ? -1 : 0;
    int vy = pos <= 1 || pos == 4 ? 1 : pos == 2 || pos == 3 || pos == 5 ? -1 : 0;
    r[0] = hx > 0 ? A->box[2] - m - w : hx < 0 ? A->box[0] + m : (A->box[0] + A->box[2] - w) / 2;
    r[1] = vy > 0 ? A->box[3] - m - h : vy < 0 ? A->box[1] + m : (A->box[1] + A->box[3] - h) / 2;
    r[2] = r[0] + w, r[3] = r[1] + h;
}

/*
** How much of axes k the rectangle r covers: its points inside, its line segments
** across (counted over at most 20000 points of each series, a sample of longer ones),
** and its insets, which count as all the data there is.
*/
static long covered(const plan *P, int k, const double r[4])
{
    const paxes *A = &P->axes[k];
    pen box = {NULL, NULL, 0, {r[0], r[1]}, {r[2], r[3]}, 0, 0, 0};
    long count = 0;
    for (int j = k + 1; j < P->naxes && P->axes[j].inset; j++) {
        const double *b = P->axes[j].box, *m = P->axes[j].margin;
        if (r[0] < b[2] && r[2] > b[0] - m[0] && r[1] < b[3] + m[3] && r[3] > b[1] - m[1])
            count += LONG_MAX / 4;
    }
    for (int s = 0; s < A->ns; s++) {
        const pseries *S = &P->series[A->s0 + s];
        double pu = NAN, pv = NAN, t0, t1, uv[2];
        for (long i = 0; i < S->n; i += S->n / 20000 + 1) {
            double v[2] = {S->x ? S->x[i] : (double)(i + 1), S->y[i]};
            for (int j = 0; j < 2; j++) {
                double lo = world(A->ax[j].lo, A->ax[j].log), hi = world(A->ax[j].hi, A->ax[j].log);
                uv[j] = A->box[j] +
                        (world(v[j], A->ax[j].log) - lo) / (hi - lo) * (A->box[j + 2] - A->box[j]);
            }
            if (uv[0] >= r[0] && uv[0] <= r[2] && uv[1] >= r[1] && uv[1] <= r[3])
                count++;
            else if (S->kind != SCATTER && pu == pu && pv == pv && uv[0] == uv[0] &&
                     uv[1] == uv[1] && clip(&box, pu, pv, uv[0] - pu, uv[1] - pv, &t0, &t1))
                count++;
            pu = uv[0], pv = uv[1];
        }
    }
    return count;
}

/* The legend of axes k, in page coordinates: a sample of each labelled series, its label. */
static void draw_legend(const plan *P, int k)
{
    const paxes *A = &P->axes[k];
    double em = A->font * MM_PER_PT, row = 1.25 * em, pad = 0.4 * em, sample = 2 * em;
    double wtext = 0, r[4];
    int n = 0;
    for (int s = 0; s < A->ns; s++) {
        const pseries *S = &P->series[A->s0 + s];
        if (S->label) n++, wtext = fmax(wtext, measure(S->label));
    }
    if (n == 0 || A->legend < 0) return;
    /* the legend fits in the plot area: its texts shrink together, then long ones are cut */
    double fixed = 2 * pad + sample + 0.5 * em;
    double avail = fmax(em, A->box[2] - A->box[0] - em - fixed), f = A->font;
    if (wtext > avail) {
        f = fmax(FIT_FLOOR * A->font, A->font * avail / wtext * 0.995);
        set_font(P, f);
        wtext = 0;
        for (int s = 0; s < A->ns; s++) {
            const pseries *S = &P->series[A->s0 + s];
            if (S->label) wtext = fmax(wtext, measure(S->label));
        }
        wtext = fmin(wtext, avail);
    }
    double w = fixed + wtext, h = 2 * pad + n * row;
    if (A->legend == BEST) {
        long least = -1;
        for (int pos = 0; pos < BEST && least != 0; pos++) {
            double c[4];
            legend_rect(A, pos, w, h, c);
            long cover = covered(P, k, c);
            if (least < 0 || cover < least) least = cover, memcpy(r, c, sizeof r);
        }
    } else {
        legend_rect(A, A->legend, w, h, r);
    }
    double x0 = r[0], y1 = r[3];
    set_color(0xFFFFFF);
    rect(x0, y1 - h, x0 + w, y1, 1);
    set_color(0x000000);
    set_width(P, 0.4);
    pllsty(1);
    rect(x0, y1 - h, x0 + w, y1, 0);
    double y = y1 - pad - row / 2;
    for (int s = 0; s < A->ns; s++) {
        const pseries *S = &P->series[A->s0 + s];
        if (!S->label) continue;
        set_color(S->rgb);
        if (S->kind == SCATTER) {
            set_width(P, fmax(0.4, S->size / 6));
            double radius = S->size / 2 * MM_PER_PT;
            marker(S->marker, x0 + pad + sample / 2, y, radius, radius);
        } else {
            set_width(P, S->width);
            set_style(P, S->style);
            pljoin(x0 + pad, y, x0 + pad + sample, y);
            pllsty(1);
        }
        set_color(0x000000);
        fit_text(P, k, "legend", f, f, avail, x0 + pad + sample + 0.5 * em, y, 0, 0, S->label);
        y -= row;
    }
}

/*
** Tick labels, axis labels and title of axes k, in page coordinates; the axis labels and
** the title fit in the panel (fit_text).
*/
static void draw_labels(const plan *P, int k)
{
    const paxes *A = &P->axes[k];
    double em = A->font * MM_PER_PT;
    const double *b = A->box;
    set_color(0x000000);
    set_font(P, A->font);
    for (int i = 0; i < 2; i++) {
        const paxis *a = &A->ax[i];
        double lo = world(a->lo, a->log), hi = world(a->hi, a->log);
        for (int j = 0; j < a->nticks; j++) {
            double f = (world(a->tick[j], a->log) - lo) / (hi - lo);
            if (i == 0)
                plain_text(k, "tick", A->font, b[0] + f * (b[2] - b[0]),
                           b[1] - em * (GAP_EM + LINE_EM / 2), 0, 0.5, a->text[j]);
            else
                plain_text(k, "tick", A->font, b[0] - 0.4 * em, b[1] + f * (b[3] - b[1]), 0, 1,
                           a->text[j]);
        }
        if (a->exp10) {
            char buf[48];
            snprintf(buf, sizeof buf, "\u00d710#u%s%d#d", a->exp10 < 0 ? "\u2212" : "",
                     abs(a->exp10));
            if (i == 0)
                plain_text(k, "tick", A->font, b[2], b[1] - em * (2 * GAP_EM + 1.5 * LINE_EM), 0, 1,
                           buf);
            else
                plain_text(k, "tick", A->font, b[0], b[3] + em * (0.2 + LINE_EM / 2), 0, 0, buf);
        }
    }
    /* centred on the plot area: across as much of the panel as both sides leave room for,
       the y label along the plot area's height */
    const double *c = A->cell;
    double cx = (b[0] + b[2]) / 2, cy = (b[1] + b[3]) / 2, lo = FIT_FLOOR * A->font;
    double wide = 2 * fmin(cx - c[0], c[2] - cx), high = fmin(b[3] - b[1] + em, c[3] - c[1]);
    fit_text(P, k, "xlabel", A->font, lo, wide, cx, b[1] - em * (2 * GAP_EM + 1.5 * LINE_EM), 0,
             0.5, A->label[0]);
    fit_text(P, k, "ylabel", A->font, lo, high,
             b[0] - em * (0.4 + A->ax[1].width_em + GAP_EM + LINE_EM / 2), cy, 1, 0.5, A->label[1]);
    fit_text(P, k, "title", A->font, lo, wide, cx,
             b[3] + em * (0.3 + (A->ax[1].exp10 ? LINE_EM : 0) + LINE_EM / 2), 0, 0.5, A->title);
}

/* The axes box with ticks inside on all four sides (and the grid, first). */
static void draw_box(const plan *P, const paxes *A, int grid)
{
    const paxis *x = &A->ax[0], *y = &A->ax[1];
    double major = A->inset ? 2.5 : 3.5, minor = A->inset ? 1.5 : 2;
    plsmaj(major * MM_PER_PT * P->scale, 1);
    plsmin(minor * MM_PER_PT * P->scale, 1);
    pllsty(1);
    set_color(grid ? 0xD0D0D0 : 0x000000);
    set_width(P, grid ? 0.4 : 0.5);
    plbox(grid ? (x->log ? "gl" : "g") : (x->log ? "bcstl" : "bcst"), x->log ? 0 : x->step,
          x->log ? 0 : x->nsub, grid ? (y->log ? "gl" : "g") : (y->log ? "bcstl" : "bcst"),
          y->log ? 0 : y->step, y->log ? 0 : y->nsub);
}

/*
** The region an inset shows, in the world coordinates of its parent A, clipped to one
** window size around A's window (PLplot sees no coordinate that overflows its device
** units); 0 when there is nothing to mark (an inset of linear limits <= 0 on a log axis).
*/
static int mark_rect(const paxes *A, const paxes *I, double r[4])
{
    for (int i = 0; i < 2; i++) {
        double plo = world(A->ax[i].lo, A->ax[i].log), phi = world(A->ax[i].hi, A->ax[i].log);
        double lo = world(I->ax[i].lo, A->ax[i].log), hi = world(I->ax[i].hi, A->ax[i].log);
        if (!(hi == hi)) return 0;
        if (!(lo == lo)) lo = -INFINITY;
        r[i] = fmax(lo, plo - (phi - plo)), r[i + 2] = fmin(hi, phi + (phi - plo));
        if (!(r[i] < r[i + 2])) return 0;
    }
    return 1;
}

/* Axes k: background (insets), grid, series, zoom marks of its insets, box, labels. */
static void draw_axes(const plan *P, int k)
{
    const paxes *A = &P->axes[k];
    if (A->inset) { /* a white background for it and its labels, within the parent's box */
        const double *b = A->box, *m = A->margin, *pb = P->axes[A->parent].box, in = 0.2;
        page_coords(P);
        set_color(0xFFFFFF);
        rect(fmax(b[0] - m[0], pb[0] + in), fmax(b[1] - m[1], pb[1] + in),
             fmin(b[2] + 0.3 * m[2], pb[2] - in), fmin(b[3] + m[3], pb[3] - in), 1);
    }
    data_coords(P, A);
    if (A->grid) draw_box(P, A, 1);
    for (int j = 0; j < A->ns; j++) {
        const pseries *S = &P->series[A->s0 + j];
        set_color(S->rgb);
        if (S->kind == SCATTER) {
            draw_scatter(P, A, S);
        } else {
            set_width(P, S->width);
            set_style(P, S->style);
            draw_path(P, A, S);
        }
    }
    pllsty(1);
    set_color(0x555555);
    set_width(P, 0.4);
    for (int j = k + 1; j < P->naxes && P->axes[j].inset; j++) {
        const paxes *I = &P->axes[j];
        double r[4];
        if (I->zoom && I->mark && mark_rect(A, I, r)) rect(r[0], r[1], r[2], r[3], 0);
    }
    draw_box(P, A, 0);
    if (k < MAXREPORT) {
        double *v = last.axes[k].vpd, *w = last.axes[k].vpw;
        plgvpd(&v[0], &v[1], &v[2], &v[3]);
        plgvpw(&w[0], &w[1], &w[2], &w[3]);
        memcpy(last.axes[k].box, A->box, sizeof A->box);
        memcpy(last.axes[k].cell, A->cell, sizeof A->cell);
        last.naxes = k + 1;
    }
    page_coords(P);
    draw_labels(P, k);
    draw_legend(P, k);
}

/* ---- rendering and saving --------------------------------------------------------------- */

static jmp_buf *pl_jump; /* where on_plexit goes while render() runs */
static char pl_message[256];

/* 1 when a SIGINT is pending: fig:save blocks it while it draws (see there). */
static int sigint_pending(void)
{
    sigset_t set;
    return sigpending(&set) == 0 && sigismember(&set, SIGINT) == 1;
}

/* Leaves render() as PLplot's errors do when Ctrl-C was pressed (polled while drawing
   long series, so that a large figure stops at once). */
static void poll_interrupt(void)
{
    if (pl_jump == NULL || !sigint_pending()) return;
    snprintf(pl_message, sizeof pl_message, "interrupted");
    jmp_buf *j = pl_jump;
    pl_jump = NULL;
    longjmp(*j, 1);
}

/* PLplot's exit handler: return to render() instead of ending the program. */
static int on_plexit(const char *msg)
{
    if (pl_jump == NULL) return 1; /* not ours: PLplot prints the message and exits */
    snprintf(pl_message, sizeof pl_message, "%s", msg);
    jmp_buf *j = pl_jump;
    pl_jump = NULL;
    longjmp(*j, 1);
}

/*
** Draws the plan into file with a PLplot stream of its own, and makes the stream that
** was current before current again.  Returns NULL, or a message when PLplot failed
** (plexit, caught by on_plexit, or plabort, recorded by plsError).
*/
static const char *render(const plan *P, const char *file, unsigned char *mem)
{
    static char err[300], abort_msg[1024];
    static PLINT abort_code;
    jmp_buf jb;
    volatile PLINT strm = -1;
    PLINT prev, s;
    plgstrm(&prev);
    plsexit(on_plexit);
    if (setjmp(jb)) {
        snprintf(err, sizeof err, "PLplot: %s", pl_message);
        s = strm;
        strm = -1;
        if (s >= 0) { /* end the stream, unless that fails too */
            pl_jump = &jb;
            if (setjmp(jb) == 0) {
                plsstrm(s);
                plend1();
            }
        }
        pl_jump = NULL;
        plsstrm(prev);
        return err;
    }
    pl_jump = &jb;
    plmkstrm(&s);
    strm = s;
    abort_code = 0;
    abort_msg[0] = '\0';
    plsError(&abort_code, abort_msg);
    if (mem) { /* RGB rows of a white image (lplot_new_image), drawn over */
        plsdev("memcairo");
        plsmem(P->wdev, P->hdev, mem);
    } else {
        plsdev(devices[P->format]);
        /* PLplot takes the first "%n" of a file name for the member number of a family of
           files, and drops it: a leading one keeps any "%n" of the path as it is */
        char name[4096];
        snprintf(name, sizeof name, "%%n%s", file);
        plsfnam(name);
    }
    plspage(0, 0, P->wdev, P->hdev, 0, 0);
    plscolbg(255, 255, 255);
    plinit();
    pladv(0);
    last.wmm = P->wmm, last.hmm = P->hmm, last.wdev = P->wdev, last.hdev = P->hdev;
    last.naxes = last.ntext = 0;
    for (int k = 0; k < P->naxes; k++) draw_axes(P, k);
    if (P->title) {
        double pt = 1.15 * P->font;
        page_coords(P);
        set_color(0x000000);
        fit_text(P, -1, "title", pt, FIT_FLOOR * pt, P->wmm - P->font * MM_PER_PT, P->wmm / 2,
                 P->hmm - pt * MM_PER_PT * (0.3 + LINE_EM / 2), 0, 0.5, P->title);
    }
    strm = -1;
    plend1();
    pl_jump = NULL;
    plsstrm(prev);
    if (abort_code) {
        abort_msg[strcspn(abort_msg, "\n")] = '\0';
        snprintf(err, sizeof err, "PLplot: %s", abort_msg);
        return err;
    }
    return NULL;
}

/* Checks that the file ends as a complete file of its format does; NULL or a message. */
static const char *check_output(const char *file, int format)
{
    static const char *const tails[] = {"IEND\xae\x42\x60\x82", "</svg>", "%%EOF"};
    char buf[32] = {0};
    FILE *f = fopen(file, "rb");
    size_t n = 0;
    if (f && fseek(f, -(long)(sizeof buf - 1), SEEK_END) != 0) rewind(f);
    if (f) n = fread(buf, 1, sizeof buf - 1, f);
    if (f) fclose(f);
    for (size_t i = 0; i < n; i++)
        if (buf[i] == '\0') buf[i] = ' ';
    return n && strstr(buf, tails[format]) ? NULL : "the drawing is incomplete (disk full?)";
}

/* 1 if PLplot has the cairo driver of the format. */
static int have_device(const char *device)
{
    const char *menu[64], *names[64];
    const char **m = menu, **d = names;
    int n = 64;
    plgDevs(&m, &d, &n);
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], device) == 0) return 1;
    return 0;
}

/* The plan of figure 1 for format, with the buffers that drawing it needs (on the stack). */
static plan *plan_with_buffers(lua_State *L, int format, const char *fn)
{
    luaL_checkstack(L, 40, fn); /* planning goes some 20 values deep */
    plan *P = lua_newuserdatauv(L, sizeof *P, 0);
    memset(P, 0, sizeof *P);
    P->format = format;
    plan_figure(L, P, fn);
    P->bx = lua_newuserdatauv(L, 2 * PEN_CAP * sizeof(double), 0);
    P->by = P->bx + PEN_CAP;
    for (int k = 0; k < P->naxes; k++) {
        const paxes *A = &P->axes[k];
        size_t cells = (size_t)(ceil((A->box[2] - A->box[0]) * P->res) + 1) *
                       (size_t)(ceil((A->box[3] - A->box[1]) * P->res) + 1);
        for (int j = 0; j < A->ns; j++)
            if (P->series[A->s0 + j].kind == SCATTER && cells / 8 + 1 > P->nbitmap)
                P->nbitmap = cells / 8 + 1;
    }
    P->bitmap = lua_newuserdatauv(L, P->nbitmap ? P->nbitmap : 1, 0);
    return P;
}

/* An image drawn in memory (fig:render): RGB rows from the top, 3 bytes a pixel. */
typedef struct image {
    int width, height;
    unsigned char rgb[];
} image;

static image *check_image(lua_State *L, int i)
{
    return luaL_checkudata(L, i, IMAGE_MT);
}

/* fig:render() -> image: the figure drawn as fig:save draws a PNG, into memory. */
static int fig_render(lua_State *L)
{
    const char *fn = "fig:render";
    check_figure(L);
    if (!have_device("memcairo"))
        return lu_error(L, fn,
                        "PLplot has no memcairo driver (Debian package plplot-driver-cairo)");
    plan *P = plan_with_buffers(L, PNG, fn);
    const char *err = render(P, NULL, lplot_new_image(L, P->wdev, P->hdev));
    if (err) return lu_error(L, fn, "%s", err);
    return 1;
}

/* img:pixel(x, y) -> r, g, b (0 to 255; x from the left, y from the top, both from 1). */
static int img_pixel(lua_State *L)
{
    const char *fn = "img:pixel";
    image *im = check_image(L, 1);
    lua_Integer x = luaL_checkinteger(L, 2), y = luaL_checkinteger(L, 3);
    if (x < 1 || x > im->width || y < 1 || y > im->height)
        return lu_error(L, fn, "pixel (%d, %d) is outside the image of %d x %d", (int)x, (int)y,
                        im->width, im->height);
    const unsigned char *p = im->rgb + 3 * ((size_t)(y - 1) * (size_t)im->width + (size_t)(x - 1));
    lua_pushinteger(L, p[0]);
    lua_pushinteger(L, p[1]);
    lua_pushinteger(L, p[2]);
    return 3;
}

static int img_index(lua_State *L)
{
    image *im = check_image(L, 1);
    const char *k = luaL_checkstring(L, 2);
    if (strcmp(k, "width") == 0)
        lua_pushinteger(L, im->width);
    else if (strcmp(k, "height") == 0)
        lua_pushinteger(L, im->height);
    else if (strcmp(k, "pixel") == 0)
        lua_pushcfunction(L, img_pixel);
    else
        lua_pushnil(L);
    return 1;
}

static int img_tostring(lua_State *L)
{
    image *im = check_image(L, 1);
    lua_pushfstring(L, "plot.image (%d x %d)", im->width, im->height);
    return 1;
}

unsigned char *lplot_new_image(lua_State *L, int width, int height)
{
    size_t bytes = (size_t)width * (size_t)height * 3;
    image *im = lua_newuserdatauv(L, sizeof *im + bytes, 0);
    im->width = width;
    im->height = height;
    memset(im->rgb, 255, bytes);
    luaL_setmetatable(L, IMAGE_MT);
    return im->rgb;
}

const unsigned char *lplot_image(lua_State *L, int i, int *width, int *height)
{
    image *im = luaL_testudata(L, i, IMAGE_MT);
    if (im == NULL) return NULL;
    *width = im->width;
    *height = im->height;
    return im->rgb;
}

static int fig_save(lua_State *L)
{
    const char *fn = "fig:save";
    check_figure(L);
    if (lua_type(L, 2) != LUA_TSTRING) return lu_error(L, fn, "expected a file name");
    const char *path = lua_tostring(L, 2), *dot = strrchr(path, '.');
    if (strlen(path) != lua_rawlen(L, 2))
        return lu_error(L, fn, "the file name contains a zero byte");
    if (strlen(path) + 16 > 4096) return lu_error(L, fn, "the file name is too long");
    int format = -1;
    for (int i = 0; i < 3 && dot; i++)
        if (strcmp(dot, extensions[i]) == 0) format = i;
    if (format < 0)
        return lu_error(L, fn, "'%s' has an unknown extension (expected .png, .svg or .pdf)", path);
    if (!have_device(devices[format]))
        return lu_error(L, fn, "PLplot has no %s driver (Debian package plplot-driver-cairo)",
                        devices[format]);
    plan *P = plan_with_buffers(L, format, fn);
    /* a temporary file in the same folder, renamed over path when complete */
    char *tmp = lua_newuserdatauv(L, strlen(path) + 8, 0);
    snprintf(tmp, strlen(path) + 8, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        const char *why = strerror(errno);
        char hint[600];
        return lu_error(L, fn, "cannot write '%s': %s%s", path, why,
                        lu_folder_hint(path, hint, sizeof hint));
    }
    mode_t mask = umask(0);
    umask(mask);
    const char *err = fchmod(fd, 0666 & ~mask) != 0 ? strerror(errno) : NULL;
    close(fd);
    /*
    ** Ctrl-C is held from here to the rename: a first one would otherwise raise its error
    ** after a complete save, and a second one (the default action) would end the program
    ** with the temporary file left behind.  A Ctrl-C pressed meanwhile stops the drawing
    ** of long series, and the save fails with no file.
    */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigprocmask(SIG_BLOCK, &block, &old);
    if (err == NULL) err = render(P, tmp, NULL);
    if (err == NULL) err = check_output(tmp, P->format);
    int stop = sigint_pending();
    if (err == NULL && !stop && rename(tmp, path) != 0) err = strerror(errno);
    if (err || stop) remove(tmp);
    sigprocmask(SIG_SETMASK, &old, NULL); /* a pending Ctrl-C is delivered here */
    if (stop) {
        host_interrupt_consume(L); /* this error instead of the one the hook would raise */
        return lu_error(L, fn, "interrupted: '%s' was not written", path);
    }
    if (err) return lu_error(L, fn, "cannot write '%s': %s", path, err);
    lua_pushvalue(L, 2);
    return 1;
}

/* plot._report(): what the last fig:save drew, as PLplot reports it (for the tests). */
static int plot_report(lua_State *L)
{
    static const char *const side[] = {"x0", "y0", "x1", "y1"};
    lua_createtable(L, 0, 6);
    lua_pushnumber(L, last.wmm);
    lua_setfield(L, -2, "width");
    lua_pushnumber(L, last.hmm);
    lua_setfield(L, -2, "height");
    lua_pushinteger(L, last.wdev);
    lua_setfield(L, -2, "wdev");
    lua_pushinteger(L, last.hdev);
    lua_setfield(L, -2, "hdev");
    lua_createtable(L, last.naxes, 0);
    for (int k = 0; k < last.naxes; k++) {
        lua_createtable(L, 0, 4);
        const double *v[4] = {last.axes[k].vpd, last.axes[k].vpw, last.axes[k].box,
                              last.axes[k].cell};
        const char *names[4] = {"vpd", "vpw", "box", "cell"};
        for (int j = 0; j < 4; j++) {
            lua_createtable(L, 4, 0);
            for (int i = 0; i < 4; i++) {
                lua_pushnumber(L, v[j][i]);
                lua_rawseti(L, -2, i + 1);
            }
            lua_setfield(L, -2, names[j]);
        }
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "axes");
    lua_createtable(L, last.ntext, 0);
    for (int k = 0; k < last.ntext; k++) {
        lua_createtable(L, 0, 8);
        lua_pushinteger(L, last.text[k].axes + 1);
        lua_setfield(L, -2, "axes");
        lua_pushstring(L, last.text[k].kind);
        lua_setfield(L, -2, "kind");
        lua_pushboolean(L, last.text[k].cut);
        lua_setfield(L, -2, "cut");
        lua_pushnumber(L, last.text[k].pt);
        lua_setfield(L, -2, "pt");
        for (int i = 0; i < 4; i++) {
            lua_pushnumber(L, last.text[k].ext[i]);
            lua_setfield(L, -2, side[i]);
        }
        lua_rawseti(L, -2, k + 1);
    }
    lua_setfield(L, -2, "texts");
    return 1;
}

/* ---- the module ---------------------------------------------------------------------------- */

int luaopen_plot(lua_State *L)
{
    static const luaL_Reg fig_methods[] = {
        {"panel", fig_panel}, {"save", fig_save}, {"render", fig_render}, {NULL, NULL}};
    static const luaL_Reg ax_methods[] = {
        {"line", ax_line},   {"scatter", ax_scatter}, {"step", ax_step}, {"set", ax_set},
        {"inset", ax_inset}, {"circle", ax_circle},   {NULL, NULL}};
    static const luaL_Reg funcs[] = {
        {"figure", plot_figure}, {"_report", plot_report}, {NULL, NULL}};
    luaL_newmetatable(L, FIGURE_MT);
    luaL_newlib(L, fig_methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, fig_tostring);
    lua_setfield(L, -2, "__tostring");
    luaL_newmetatable(L, AXES_MT);
    luaL_newlib(L, ax_methods);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, ax_tostring);
    lua_setfield(L, -2, "__tostring");
    luaL_newmetatable(L, IMAGE_MT);
    lua_pushcfunction(L, img_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, img_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 3);
    luaL_newlib(L, funcs);
    /* plot.clearance is written in Lua (stdlib/plotclearance.lua): it installs itself */
    lua_getglobal(L, "require");
    lua_pushliteral(L, "plotclearance");
    lua_call(L, 1, 1);
    lua_pushvalue(L, -2);
    lua_call(L, 1, 0);
    return 1;
}
