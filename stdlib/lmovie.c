/* SPDX-License-Identifier: MIT */
/*
** The movie module: images drawn by the plot module (fig:render) written as the frames of
** an animated GIF (giflib) or of an MP4 video (through ffmpeg, where it is installed).
**
** A writer holds a temporary file in the target's folder from the start, so that a folder
** that cannot be written is an error before any frame is drawn; close() completes the file
** and renames it over the target.  A writer that is not closed (an error, Ctrl-C, the
** script's end) removes its temporary file: the target is written whole or not at all.
**
** GIF: each frame gets its own 256-colour map (giflib's median cut over the frame), and a
** delay in hundredths of a second, the format's unit: the delays are rounded so that frame
** k starts at round(100 k / fps), and N frames last round(100 N / fps) hundredths.
** MP4: raw RGB frames piped into ffmpeg (H.264, yuv420p, its dimensions padded to even
** numbers as the format needs); ffmpeg's exit status decides whether the file is complete.
*/
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gif_lib.h>
#include <lauxlib.h>
#include <lua.h>

#include "lmodule.h"
#include "lmovie.h"
#include "lplot.h"

#define WRITER_MT "movie.writer"
#define MAX_FPS   1000.0

extern char **environ;

enum { GIF, MP4 };

/* A colour of a frame and its count of pixels (then its index in the frame's map). */
typedef struct colour_slot {
    uint32_t rgb;
    long count;
} colour_slot;

#define TABLE_BITS 16
#define TABLE_SIZE                                                                                 \
    (1 << TABLE_BITS) /* colours counted; a frame with more than half is quantized                 \
                       */

typedef struct writer {
    int format;
    int open;              /* 1 until closed or aborted */
    double fps;            /* frames per second */
    int loop;              /* GIF: play in a loop */
    int width, height;     /* of the first frame; 0 before it */
    long frames;           /* written */
    char *path, *tmp;      /* the target and the temporary file beside it */
    GifFileType *gif;      /* GIF */
    unsigned char *index;  /* GIF: a frame's colour indices */
    unsigned char *planes; /* GIF: a rectangle's pixels packed, then as planes */
    unsigned char *prev;   /* GIF: the last frame */
    colour_slot *table;    /* GIF: TABLE_SIZE */
    pid_t pid;             /* MP4: ffmpeg */
    int pipefd;            /* MP4: its input */
} writer;

static writer *check_writer(lua_State *L, int i)
{
    return luaL_checkudata(L, i, WRITER_MT);
}

/* ffmpeg's path on PATH into buf, or NULL. */
static const char *find_ffmpeg(char *buf, size_t size)
{
    const char *path = getenv("PATH");
    if (path == NULL || *path == '\0') path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        if (len > 0 && len + 8 < size) {
            snprintf(buf, size, "%.*s/ffmpeg", (int)len, path);
            if (access(buf, X_OK) == 0) return buf;
        }
        path += len;
        if (*path == ':') path++;
    }
    return NULL;
}

/* Ends ffmpeg: closes its input and waits; its exit status, or -1. */
static int end_ffmpeg(writer *w)
{
    if (w->pipefd >= 0) close(w->pipefd);
    w->pipefd = -1;
    if (w->pid <= 0) return -1;
    int status = 0;
    pid_t r;
    do r = waitpid(w->pid, &status, 0);
    while (r < 0 && errno == EINTR);
    w->pid = 0;
    return r > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Gives up a writer: the temporary file is removed, nothing else is left. */
static void abort_writer(writer *w)
{
    if (!w->open) return;
    w->open = 0;
    if (w->gif) {
        int e;
        EGifCloseFile(w->gif, &e);
        w->gif = NULL;
    }
    if (w->format == MP4) {
        if (w->pid > 0) kill(w->pid, SIGTERM);
        end_ffmpeg(w);
    }
    if (w->tmp) remove(w->tmp);
}

static int writer_gc(lua_State *L)
{
    writer *w = check_writer(L, 1);
    abort_writer(w);
    free(w->index);
    free(w->planes);
    free(w->prev);
    w->prev = NULL;
    free(w->table);
    w->table = NULL;
    free(w->path);
    free(w->tmp);
    w->index = w->planes = NULL;
    w->path = w->tmp = NULL;
    return 0;
}

/* Raises fn's error after giving the writer up. */
static int fail(lua_State *L, writer *w, const char *fn, const char *what)
{
    abort_writer(w);
    return lu_error(L, fn, "cannot write '%s': %s", w->path ? w->path : "?", what);
}

static int start_ffmpeg(lua_State *L, writer *w, const char *fn)
{
    char exe[4096], size[64], rate[64];
    if (find_ffmpeg(exe, sizeof exe) == NULL)
        return fail(L, w, fn,
                    "MP4 is written through ffmpeg, and there is no ffmpeg on PATH (Debian "
                    "package ffmpeg); write a .gif instead");
    snprintf(size, sizeof size, "%dx%d", w->width, w->height);
    snprintf(rate, sizeof rate, "%.17g", w->fps);
    char *argv[] = {exe,
                    "-nostdin",
                    "-loglevel",
                    "error",
                    "-y",
                    "-f",
                    "rawvideo",
                    "-pix_fmt",
                    "rgb24",
                    "-s",
                    size,
                    "-r",
                    rate,
                    "-i",
                    "pipe:0",
                    "-vf",
                    "pad=ceil(iw/2)*2:ceil(ih/2)*2:color=white",
                    "-c:v",
                    "libx264",
                    "-pix_fmt",
                    "yuv420p",
                    "-movflags",
                    "+faststart",
                    "-f",
                    "mp4",
                    w->tmp,
                    NULL};
    int fds[2];
    if (pipe(fds) != 0) return fail(L, w, fn, strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&at, &none);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    int rc = posix_spawn(&pid, exe, &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    close(fds[0]);
    if (rc != 0) {
        close(fds[1]);
        char what[160];
        snprintf(what, sizeof what, "cannot start ffmpeg: %s", strerror(rc));
        return fail(L, w, fn, what);
    }
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    w->pid = pid;
    w->pipefd = fds[1];
    return 0;
}

/* Writes n bytes to ffmpeg; 0, or an errno.  A dead ffmpeg is EPIPE, not a signal. */
static int pipe_write(int fd, const unsigned char *p, size_t n)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int err = 0;
    while (n > 0) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            err = k < 0 ? errno : EIO;
            break;
        }
        p += k;
        n -= (size_t)k;
    }
    if (err == EPIPE) { /* the SIGPIPE it raised is pending: take it */
        struct timespec zero = {0, 0};
        sigtimedwait(&block, NULL, &zero);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return err;
}

/* movie.open(path, { fps = 25, loop = true }) -> writer */
static int movie_open(lua_State *L)
{
    const char *fn = "movie.open";
    static const char *const known[] = {"fps", "loop", NULL};
    if (lua_type(L, 1) != LUA_TSTRING)
        return lu_error(L, fn, "expected a file name (.gif or .mp4)");
    const char *path = lua_tostring(L, 1), *dot = strrchr(path, '.');
    if (strlen(path) != lua_rawlen(L, 1))
        return lu_error(L, fn, "the file name contains a zero byte");
    int format = dot && strcmp(dot, ".gif") == 0 ? GIF : dot && strcmp(dot, ".mp4") == 0 ? MP4 : -1;
    if (format < 0)
        return lu_error(L, fn, "'%s' has an unknown extension (expected .gif or .mp4)", path);
    double fps = 25;
    int loop = 1;
    if (!lua_isnoneornil(L, 2)) {
        int t = lu_checktable(L, 2, fn, "of options { fps = , loop = }");
        lu_checkfields(L, t, fn, known, 0);
        fps = lu_number(L, t, fn, "fps", 25, 0);
        loop = lu_bool(L, t, fn, "loop", 1);
    }
    if (!(fps > 0 && fps <= MAX_FPS))
        return lu_error(L, fn, "field 'fps' must be > 0 and at most %g frames per second (got %g)",
                        MAX_FPS, fps);
    writer *w = lua_newuserdatauv(L, sizeof *w, 0);
    memset(w, 0, sizeof *w);
    w->pipefd = -1;
    luaL_setmetatable(L, WRITER_MT);
    w->format = format;
    w->fps = fps;
    w->loop = loop;
    w->path = strdup(path);
    w->tmp = malloc(strlen(path) + 8);
    if (!w->path || !w->tmp) return lu_error(L, fn, "out of memory");
    snprintf(w->tmp, strlen(path) + 8, "%s.XXXXXX", path);
    int fd = mkstemp(w->tmp);
    if (fd < 0) {
        free(w->tmp);
        w->tmp = NULL;
        char hint[600];
        const char *why = strerror(errno);
        return lu_error(L, fn, "cannot write '%s': %s%s", path, why,
                        lu_folder_hint(path, hint, sizeof hint));
    }
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0) {
        close(fd);
        w->open = 1;
        return fail(L, w, fn, strerror(errno));
    }
    w->open = 1;
    if (format == GIF) {
        int e = 0;
        w->gif = EGifOpenFileHandle(fd, &e);
        if (w->gif == NULL) {
            close(fd);
            return fail(L, w, fn, GifErrorString(e));
        }
    } else {
        close(fd); /* ffmpeg writes it, when the first frame gives the size */
    }
    return 1;
}

/* The hundredths of a second frame k lasts: frame k starts at round(100 k / fps). */
static int gif_delay(double fps, long k)
{
    return (int)(lround(100.0 * (double)(k + 1) / fps) - lround(100.0 * (double)k / fps));
}

/*
** The frame's colours: its 256 most frequent ones exactly (a figure's lines, text and
** background), every other (the edges' anti-aliasing) as the nearest of those.  The table
** counts colours, then holds each one's index in the map.
*/
static int colour_map(writer *w, const unsigned char *rgb, size_t n, GifColorType colors[256])
{
    colour_slot *tab = w->table;
    memset(tab, 0, sizeof *tab * TABLE_SIZE);
    int distinct = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t c = (uint32_t)rgb[3 * i] << 16 | (uint32_t)rgb[3 * i + 1] << 8 | rgb[3 * i + 2];
        uint32_t h = (c * 2654435761u) >> (32 - TABLE_BITS);
        while (tab[h].count && tab[h].rgb != c) h = (h + 1) & (TABLE_SIZE - 1);
        if (tab[h].count == 0) {
            if (++distinct > TABLE_SIZE / 2) return -1;
            tab[h].rgb = c;
        }
        tab[h].count++;
    }
    /* the most frequent first: a partial selection of at most 256 */
    int m = 0;
    uint32_t top[256];
    long topn[256];
    for (int h = 0; h < TABLE_SIZE; h++) {
        if (!tab[h].count) continue;
        long cnt = tab[h].count;
        if (m == 256 && cnt <= topn[255]) continue;
        int j = m < 256 ? m++ : 255;
        while (j > 0 && topn[j - 1] < cnt) {
            top[j] = top[j - 1], topn[j] = topn[j - 1];
            j--;
        }
        top[j] = tab[h].rgb, topn[j] = cnt;
    }
    for (int k = 0; k < 256; k++) {
        uint32_t c = top[k < m ? k : 0];
        colors[k].Red = (GifByteType)(c >> 16);
        colors[k].Green = (GifByteType)(c >> 8);
        colors[k].Blue = (GifByteType)c;
    }
    for (int h = 0; h < TABLE_SIZE; h++) {
        if (!tab[h].count) continue;
        int r = (int)(tab[h].rgb >> 16), g = (int)(tab[h].rgb >> 8 & 255),
            b = (int)(tab[h].rgb & 255);
        int best = 0;
        long bd = -1;
        for (int k = 0; k < m; k++) {
            long dr = r - colors[k].Red, dg = g - colors[k].Green, db = b - colors[k].Blue;
            long d = 2 * dr * dr + 4 * dg * dg + 3 * db * db; /* the eye's weights, roughly */
            if (bd < 0 || d < bd) bd = d, best = k;
            if (d == 0) break;
        }
        tab[h].count = best; /* from here: the index */
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t c = (uint32_t)rgb[3 * i] << 16 | (uint32_t)rgb[3 * i + 1] << 8 | rgb[3 * i + 2];
        uint32_t h = (c * 2654435761u) >> (32 - TABLE_BITS);
        while (tab[h].rgb != c) h = (h + 1) & (TABLE_SIZE - 1);
        w->index[i] = (unsigned char)tab[h].count;
    }
    return 0;
}

/* The smallest rectangle holding every pixel of rgb that differs from the last frame's (the
** whole frame first; one pixel when nothing changed): x, y, width, height. */
static void changed_rect(const writer *w, const unsigned char *rgb, int r[4])
{
    const int W = w->width, H = w->height;
    if (w->frames == 0) {
        r[0] = r[1] = 0, r[2] = W, r[3] = H;
        return;
    }
    int x0 = W, x1 = -1, y0 = H, y1 = -1;
    for (int y = 0; y < H; y++) {
        const unsigned char *a = rgb + (size_t)y * (size_t)W * 3,
                            *b = w->prev + (size_t)y * (size_t)W * 3;
        if (memcmp(a, b, (size_t)W * 3) == 0) continue;
        y0 = y < y0 ? y : y0, y1 = y;
        int lo = 0, hi = W - 1;
        while (memcmp(a + 3 * lo, b + 3 * lo, 3) == 0) lo++;
        while (memcmp(a + 3 * hi, b + 3 * hi, 3) == 0) hi--;
        x0 = lo < x0 ? lo : x0, x1 = hi > x1 ? hi : x1;
    }
    if (y1 < 0) x0 = y0 = x1 = y1 = 0;
    r[0] = x0, r[1] = y0, r[2] = x1 - x0 + 1, r[3] = y1 - y0 + 1;
}

/*
** One frame: the rectangle that changed since the last (the rest of the picture stays), with
** a colour map of its own.
*/
static const char *gif_frame(writer *w, const unsigned char *rgb)
{
    int rect[4];
    changed_rect(w, rgb, rect);
    const size_t n = (size_t)rect[2] * (size_t)rect[3];
    unsigned char *sub = w->planes; /* the rectangle's pixels, packed */
    for (int y = 0; y < rect[3]; y++)
        memcpy(sub + (size_t)y * (size_t)rect[2] * 3,
               rgb + ((size_t)(rect[1] + y) * (size_t)w->width + (size_t)rect[0]) * 3,
               (size_t)rect[2] * 3);
    memcpy(w->prev, rgb, (size_t)w->width * (size_t)w->height * 3);
    GifColorType colors[256];
    if (colour_map(w, sub, n, colors) != 0) { /* a photograph: giflib's median cut */
        unsigned char *r = w->planes + 3 * n, *g = r + n, *b = g + n;
        for (size_t i = 0; i < n; i++) {
            r[i] = sub[3 * i];
            g[i] = sub[3 * i + 1];
            b[i] = sub[3 * i + 2];
        }
        int count = 256;
        if (GifQuantizeBuffer((unsigned)rect[2], (unsigned)rect[3], &count, r, g, b, w->index,
                              colors) != GIF_OK)
            return "giflib cannot quantize the frame's colours";
    }
    ColorMapObject *map = GifMakeMapObject(256, colors);
    if (map == NULL) return "out of memory";
    GifFileType *gf = w->gif;
    int ok = 1;
    if (w->frames == 0) {
        EGifSetGifVersion(gf, true); /* 89a: frame delays and the loop are extensions of it */
        ok = EGifPutScreenDesc(gf, w->width, w->height, 8, 0, NULL) == GIF_OK;
        if (ok && w->loop) { /* NETSCAPE2.0: play in a loop, forever */
            static const unsigned char app[] = "NETSCAPE2.0";
            static const unsigned char count0[] = {1, 0, 0};
            ok = EGifPutExtensionLeader(gf, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
                 EGifPutExtensionBlock(gf, 11, app) == GIF_OK &&
                 EGifPutExtensionBlock(gf, 3, count0) == GIF_OK &&
                 EGifPutExtensionTrailer(gf) == GIF_OK;
        }
    }
    GraphicsControlBlock gcb = {.DisposalMode = DISPOSE_DO_NOT,
                                .UserInputFlag = 0,
                                .DelayTime = gif_delay(w->fps, w->frames),
                                .TransparentColor = NO_TRANSPARENT_COLOR};
    GifByteType ext[4];
    size_t len = EGifGCBToExtension(&gcb, ext);
    ok = ok && EGifPutExtension(gf, GRAPHICS_EXT_FUNC_CODE, (int)len, ext) == GIF_OK;
    ok = ok && EGifPutImageDesc(gf, rect[0], rect[1], rect[2], rect[3], 0, map) == GIF_OK;
    for (int y = 0; ok && y < rect[3]; y++)
        ok = EGifPutLine(gf, w->index + (size_t)y * (size_t)rect[2], rect[2]) == GIF_OK;
    GifFreeMapObject(map);
    return ok ? NULL : GifErrorString(gf->Error);
}

/* writer:add(image): one more frame (an image of fig:render; all of the same size). */
static int writer_add(lua_State *L)
{
    const char *fn = "writer:add";
    writer *w = check_writer(L, 1);
    int width, height;
    const unsigned char *rgb = lplot_image(L, 2, &width, &height);
    if (rgb == NULL)
        return lu_error(L, fn, "argument #1 must be an image of fig:render (got %s)",
                        luaL_typename(L, 2));
    if (!w->open) return lu_error(L, fn, "the writer of '%s' is closed", w->path ? w->path : "?");
    if (w->frames == 0) {
        w->width = width, w->height = height;
        if (w->format == GIF) {
            size_t n = (size_t)width * (size_t)height;
            w->index = malloc(n);
            w->planes = malloc(6 * n);
            w->prev = malloc(3 * n);
            w->table = malloc(sizeof *w->table * TABLE_SIZE);
            if (!w->index || !w->planes || !w->prev || !w->table)
                return fail(L, w, fn, "out of memory");
        } else {
            start_ffmpeg(L, w, fn);
        }
    } else if (width != w->width || height != w->height) {
        char what[120];
        snprintf(what, sizeof what, "frame %ld is %d x %d pixels, the first %d x %d", w->frames + 1,
                 width, height, w->width, w->height);
        return fail(L, w, fn, what);
    }
    if (w->format == GIF) {
        const char *err = gif_frame(w, rgb);
        if (err) return fail(L, w, fn, err);
    } else {
        int err = pipe_write(w->pipefd, rgb, (size_t)width * (size_t)height * 3);
        if (err) {
            int status = end_ffmpeg(w);
            char what[120];
            snprintf(what, sizeof what, "ffmpeg %s (%s)",
                     status >= 0 ? "ended early" : "was killed", strerror(err));
            return fail(L, w, fn, what);
        }
    }
    w->frames++;
    lua_settop(L, 1);
    return 1;
}

/* writer:close() -> path: the file complete under its name. */
static int writer_close(lua_State *L)
{
    const char *fn = "writer:close";
    writer *w = check_writer(L, 1);
    if (!w->open) return lu_error(L, fn, "the writer of '%s' is closed", w->path ? w->path : "?");
    if (w->frames == 0) return fail(L, w, fn, "no frame was added");
    if (w->format == GIF) {
        int e = 0, ok = EGifCloseFile(w->gif, &e) == GIF_OK;
        w->gif = NULL;
        if (!ok) return fail(L, w, fn, GifErrorString(e));
    } else {
        int status = end_ffmpeg(w);
        if (status != 0) {
            char what[80];
            snprintf(what, sizeof what, "ffmpeg failed (exit status %d)", status);
            return fail(L, w, fn, what);
        }
    }
    if (rename(w->tmp, w->path) != 0) return fail(L, w, fn, strerror(errno));
    w->open = 0;
    lua_pushstring(L, w->path);
    return 1;
}

static int writer_index(lua_State *L)
{
    static const luaL_Reg methods[] = {{"add", writer_add}, {"close", writer_close}, {NULL, NULL}};
    writer *w = check_writer(L, 1);
    const char *k = luaL_checkstring(L, 2);
    for (const luaL_Reg *m = methods; m->name; m++)
        if (strcmp(k, m->name) == 0) {
            lua_pushcfunction(L, m->func);
            return 1;
        }
    if (strcmp(k, "frames") == 0)
        lua_pushinteger(L, w->frames);
    else if (strcmp(k, "fps") == 0)
        lua_pushnumber(L, w->fps);
    else if (strcmp(k, "path") == 0)
        lua_pushstring(L, w->path ? w->path : "");
    else
        lua_pushnil(L);
    return 1;
}

static int writer_tostring(lua_State *L)
{
    writer *w = check_writer(L, 1);
    lua_pushfstring(L, "movie.writer ('%s', %d frames%s)", w->path ? w->path : "?", (int)w->frames,
                    w->open ? "" : ", closed");
    return 1;
}

/* Closes the GIF in *box, once (a guard's release: lu_newguard). */
static void close_gif(void *box)
{
    GifFileType **gf = box;
    int e;
    if (*gf) DGifCloseFile(*gf, &e);
    *gf = NULL;
}

/* The whole GIF file at path, read with giflib, owned by a guard pushed on the stack (its box
** for close_gif); raises fn's error when it cannot be read. */
static GifFileType *read_gif(lua_State *L, const char *fn, const char *path, void **box)
{
    GifFileType **gf = lu_newguard(L, sizeof *gf, close_gif);
    *box = gf;
    int e = 0;
    *gf = DGifOpenFileName(path, &e);
    if (*gf == NULL) {
        lu_error(L, fn, "cannot read '%s': giflib: %s", path, GifErrorString(e));
        return NULL;
    }
    if (DGifSlurp(*gf) != GIF_OK)
        lu_error(L, fn, "cannot read '%s': giflib: %s", path, GifErrorString((*gf)->Error));
    return *gf;
}

/*
** movie.gif_info(path) -> { width, height, frames, delays = {...} (hundredths of a second),
** loop }: what a GIF file holds, read back with giflib.
*/
static int movie_gif_info(lua_State *L)
{
    const char *fn = "movie.gif_info";
    const char *path = luaL_checkstring(L, 1);
    void *box;
    GifFileType *gf = read_gif(L, fn, path, &box);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, gf->SWidth);
    lua_setfield(L, -2, "width");
    lua_pushinteger(L, gf->SHeight);
    lua_setfield(L, -2, "height");
    lua_pushinteger(L, gf->ImageCount);
    lua_setfield(L, -2, "frames");
    lua_createtable(L, gf->ImageCount, 0);
    for (int i = 0; i < gf->ImageCount; i++) {
        GraphicsControlBlock gcb;
        lua_pushinteger(L, DGifSavedExtensionToGCB(gf, i, &gcb) == GIF_OK ? gcb.DelayTime : -1);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "delays");
    int loop = 0; /* giflib keeps the extensions before an image with the image */
    for (int k = -1; k < gf->ImageCount; k++) {
        int n = k < 0 ? gf->ExtensionBlockCount : gf->SavedImages[k].ExtensionBlockCount;
        const ExtensionBlock *b = k < 0 ? gf->ExtensionBlocks : gf->SavedImages[k].ExtensionBlocks;
        for (int i = 0; i < n; i++)
            if (b[i].Function == APPLICATION_EXT_FUNC_CODE && b[i].ByteCount == 11 &&
                memcmp(b[i].Bytes, "NETSCAPE2.0", 11) == 0)
                loop = 1;
    }
    lua_pushboolean(L, loop);
    lua_setfield(L, -2, "loop");
    close_gif(box);
    return 1;
}

/*
** movie.gif_frame(path, k) -> image: frame k (from 1) of a GIF as it shows, each frame drawn
** over the ones before (the frames of movie.open cover only what changed), read back with
** giflib; an image as fig:render makes.
*/
static int movie_gif_frame(lua_State *L)
{
    const char *fn = "movie.gif_frame";
    const char *path = luaL_checkstring(L, 1);
    lua_Integer k = luaL_checkinteger(L, 2);
    void *box;
    GifFileType *gf = read_gif(L, fn, path, &box);
    if (k < 1 || k > gf->ImageCount) {
        int n = gf->ImageCount;
        close_gif(box);
        return lu_error(L, fn, "'%s': frame %lld is not one of its %d frames", path, (long long)k,
                        n);
    }
    unsigned char *rgb = lplot_new_image(L, gf->SWidth, gf->SHeight); /* white */
    for (lua_Integer j = 0; j < k; j++) {
        const SavedImage *im = &gf->SavedImages[j];
        const GifImageDesc *d = &im->ImageDesc;
        const ColorMapObject *map = d->ColorMap ? d->ColorMap : gf->SColorMap;
        if (map == NULL) continue;
        for (int y = 0; y < d->Height; y++) {
            int py = d->Top + y;
            if (py < 0 || py >= gf->SHeight) continue;
            for (int x = 0; x < d->Width; x++) {
                int px = d->Left + x;
                if (px < 0 || px >= gf->SWidth) continue;
                int c = im->RasterBits[(size_t)y * (size_t)d->Width + (size_t)x];
                if (c >= map->ColorCount) continue;
                unsigned char *p = rgb + ((size_t)py * (size_t)gf->SWidth + (size_t)px) * 3;
                p[0] = map->Colors[c].Red, p[1] = map->Colors[c].Green, p[2] = map->Colors[c].Blue;
            }
        }
    }
    close_gif(box);
    return 1;
}

/* movie.ffmpeg() -> path or nil: the ffmpeg MP4 files are written with. */
static int movie_ffmpeg(lua_State *L)
{
    char exe[4096];
    if (find_ffmpeg(exe, sizeof exe))
        lua_pushstring(L, exe);
    else
        lua_pushnil(L);
    return 1;
}

int luaopen_movie(lua_State *L)
{
    static const luaL_Reg funcs[] = {{"open", movie_open},
                                     {"gif_info", movie_gif_info},
                                     {"gif_frame", movie_gif_frame},
                                     {"ffmpeg", movie_ffmpeg},
                                     {NULL, NULL}};
    static const luaL_Reg meta[] = {{"__index", writer_index},
                                    {"__gc", writer_gc},
                                    {"__close", writer_gc},
                                    {"__tostring", writer_tostring},
                                    {NULL, NULL}};
    luaL_newmetatable(L, WRITER_MT);
    luaL_setfuncs(L, meta, 0);
    lua_pop(L, 1);
    luaL_newlib(L, funcs);
    return 1;
}
