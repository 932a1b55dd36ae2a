/* SPDX-License-Identifier: MIT */
/*
** Flexible bodies: a mesh of linear elastic elements whose nodes are bodies of the system
** (two coordinates each, their lumped masses on the diagonal of M), with the internal
** forces -K u - C u', C = alpha M + beta K, added to the nodes' generalized forces.
**
** K is built once, in compressed rows over the body's 2 n coordinates; one evaluation
** costs two sparse products (K u and K u'), about 36 multiply-adds per node for a mesh of
** quadrilaterals.  Nothing is allocated after mech_fe_add.
**
** Natural frequencies use LAPACKE, loaded at their first use (dlopen), not at program
** start: when the system BLAS is OpenBLAS, loading it starts a pool of threads in every
** process, which only the eigensolver would use.  It is loaded with one thread
** (OPENBLAS_NUM_THREADS = 1) unless the user asked for more.
*/
#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mech_fe.h"
#include "registry.h"
#include "csr.h"
#include "fe_impl.h"
#include "system_jac.h"

typedef lapack_int (*dsygvd_fn)(int layout, lapack_int itype, char jobz, char uplo, lapack_int n,
                                double *a, lapack_int lda, double *b, lapack_int ldb, double *w);

/* LAPACKE_dsygvd, loaded at the first call; NULL (and a message in err) if it cannot be. */
static dsygvd_fn load_dsygvd(mech_error *err)
{
    static dsygvd_fn fn;
    static const char *const names[] = {"liblapacke.so.3", MECH_LAPACKE_PATH};
    if (fn) return fn;
    /* OpenBLAS reads its thread count when it is loaded; the variable is set for that
       moment only, so that child processes see the user's environment */
    int set = !getenv("OPENBLAS_NUM_THREADS") && !getenv("GOTO_NUM_THREADS") &&
              !getenv("OMP_NUM_THREADS") && setenv("OPENBLAS_NUM_THREADS", "1", 0) == 0;
    void *lib = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !lib; i++)
        lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (set) unsetenv("OPENBLAS_NUM_THREADS");
    void *sym = lib ? dlsym(lib, "LAPACKE_dsygvd") : NULL;
    if (sym == NULL) {
        mech_error_set(err, MECH_ERR_ARG, "frequencies: cannot load LAPACKE (%s)", dlerror());
        return NULL;
    }
    memcpy(&fn, &sym, sizeof fn); /* ISO C has no cast from void * to a function */
    return fn;                    /* the library stays loaded */
}

mech_fe_def mech_fe_default(void)
{
    mech_fe_def d;
    memset(&d, 0, sizeof d);
    d.nu = 0.3;
    d.thickness = 1;
    return d;
}

static void free_fe(fe_body *f)
{
    mech_mesh_free(&f->mesh);
    mech_free(f->rowptr);
    mech_free(f->col);
    mech_free(f->val);
    mech_free(f->mass);
    f->rowptr = f->col = NULL;
    f->val = f->mass = NULL;
}

void fe_free_all(mech_system *sys)
{
    for (int i = 0; i < sys->nfes; i++) free_fe(&sys->fes[i]);
    mech_free(sys->fes);
    sys->fes = NULL;
    sys->nfes = sys->cap_fes = 0;
}

/* Corner coordinates of element e into xy[8]; returns its number of corners. */
static int element_xy(const mech_mesh *m, int e, double xy[8])
{
    int nn = m->nvert[e];
    for (int k = 0; k < nn; k++) {
        int node = m->conn[4 * e + k];
        xy[2 * k] = m->xy[2 * node];
        xy[2 * k + 1] = m->xy[2 * node + 1];
    }
    return nn;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/*
** The structure of K: node i couples to every node that shares an element with it, and
** each node pair gives a 2 x 2 block.  Built from the sorted list of node pairs.
*/
static mech_status build_structure(fe_body *f, const char *name, mech_error *err)
{
    const mech_mesh *m = &f->mesh;
    size_t npairs = 0;
    for (int e = 0; e < m->nelems; e++) npairs += (size_t)(m->nvert[e] * m->nvert[e]);
    int *pairs = mech_malloc(2 * npairs * sizeof(int));
    int *deg = mech_calloc((size_t)m->nnodes + 1, sizeof(int));
    if (!pairs || !deg) {
        mech_free(pairs);
        mech_free(deg);
        return mech_error_set(err, MECH_ERR_NOMEM, "flexible body '%s': out of memory", name);
    }
    size_t k = 0;
    for (int e = 0; e < m->nelems; e++)
        for (int a = 0; a < m->nvert[e]; a++)
            for (int b = 0; b < m->nvert[e]; b++) {
                pairs[2 * k] = m->conn[4 * e + a];
                pairs[2 * k + 1] = m->conn[4 * e + b];
                k++;
            }
    /* sort the pairs (i, j) by the key i n + j */
    long long *key = mech_malloc(npairs * sizeof(long long));
    if (!key) {
        mech_free(pairs);
        mech_free(deg);
        return mech_error_set(err, MECH_ERR_NOMEM, "flexible body '%s': out of memory", name);
    }
    for (size_t p = 0; p < npairs; p++)
        key[p] = (long long)pairs[2 * p] * m->nnodes + pairs[2 * p + 1];
    mech_free(pairs);
    qsort(key, npairs, sizeof(long long), cmp_ll);
    size_t nu = 0;
    for (size_t p = 0; p < npairs; p++)
        if (p == 0 || key[p] != key[p - 1]) key[nu++] = key[p];
    for (size_t p = 0; p < nu; p++) deg[key[p] / m->nnodes]++;
    int n2 = 2 * m->nnodes;
    f->rowptr = mech_malloc(((size_t)n2 + 1) * sizeof(int));
    f->col = mech_malloc(4 * nu * sizeof(int));
    f->val = mech_calloc(4 * nu, sizeof(double));
    if (!f->rowptr || !f->col || !f->val) {
        mech_free(key);
        mech_free(deg);
        return mech_error_set(err, MECH_ERR_NOMEM, "flexible body '%s': out of memory", name);
    }
    f->rowptr[0] = 0;
    for (int i = 0; i < m->nnodes; i++) {
        f->rowptr[2 * i + 1] = f->rowptr[2 * i] + 2 * deg[i];
        f->rowptr[2 * i + 2] = f->rowptr[2 * i + 1] + 2 * deg[i];
    }
    size_t p = 0;
    for (int i = 0; i < m->nnodes; i++) {
        for (int r = 0; r < 2; r++) {
            int at = f->rowptr[2 * i + r];
            for (size_t q = p; q < p + (size_t)deg[i]; q++) {
                int j = (int)(key[q] % m->nnodes);
                f->col[at++] = 2 * j;
                f->col[at++] = 2 * j + 1;
            }
        }
        p += (size_t)deg[i];
    }
    mech_free(key);
    mech_free(deg);
    return MECH_OK;
}

/* Element stiffness and mass into the body: K scattered into the CSR values, the lumped
** masses added per node. */
static mech_status build_stiffness(fe_body *f, const char *name, mech_error *err)
{
    const mech_mesh *m = &f->mesh;
    double D[9], xy[8], Ke[64], Me[64], ml[4];
    mech_fe_elasticity(f->E, f->nu, f->plane_strain, D);
    for (int e = 0; e < m->nelems; e++) {
        int nn = element_xy(m, e, xy);
        double detmin = 0;
        int bad = mech_fe_stiffness(nn, xy, D, f->thickness, Ke, &detmin);
        if (bad == 0) bad = mech_fe_mass(nn, xy, f->density * f->thickness, Me);
        if (bad != 0)
            return mech_error_set(err, MECH_ERR_ARG,
                                  "flexible body '%s': element %d is inverted or degenerate "
                                  "(Jacobian determinant %g); give its corners counter-clockwise",
                                  name, e + 1, detmin);
        mech_fe_lump(nn, Me, f->lumping, ml);
        for (int a = 0; a < nn; a++) {
            int na = m->conn[4 * e + a];
            f->mass[na] += ml[a];
            for (int ra = 0; ra < 2; ra++) {
                int row = 2 * na + ra;
                for (int b = 0; b < nn; b++) {
                    int nb = m->conn[4 * e + b];
                    /* there by construction (build_structure) */
                    int p = csr_find(f->col, f->rowptr[row], f->rowptr[row + 1], 2 * nb);
                    f->val[p] += Ke[(2 * a + ra) * 2 * nn + 2 * b];
                    f->val[p + 1] += Ke[(2 * a + ra) * 2 * nn + 2 * b + 1];
                }
            }
        }
    }
    f->total = 0;
    for (int i = 0; i < m->nnodes; i++) {
        if (!(f->mass[i] > 0))
            return mech_error_set(err, MECH_ERR_ARG,
                                  "flexible body '%s': node %d has no mass (%g kg)", name, i + 1,
                                  f->mass[i]);
        f->total += f->mass[i];
    }
    return MECH_OK;
}

static int finite2(const double v[2])
{
    return isfinite(v[0]) && isfinite(v[1]);
}

mech_status mech_fe_add(mech_system *sys, const mech_fe_def *d, int *id, mech_error *err)
{
    mech_status dst = system_check_dim(sys, 2, "mech_fe_add", "rigid spatial bodies", err);
    if (dst) return dst;
    char name[MECH_NAME_MAX];
    mech_status st = system_take_name(sys, "flexible body", d->name, "fe", name, err);
    if (st) return st;
    if (d->mesh == NULL)
        return mech_error_set(err, MECH_ERR_ARG, "flexible body '%s': no mesh", name);
    if (!(isfinite(d->E) && d->E > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "flexible body '%s': Young's modulus E must be > 0 (got %g Pa)", name,
                              d->E);
    if (!(isfinite(d->nu) && d->nu > -1 && d->nu < 0.5))
        return mech_error_set(err, MECH_ERR_ARG,
                              "flexible body '%s': Poisson's ratio nu must be in (-1, 0.5) (got "
                              "%g)",
                              name, d->nu);
    if (!(isfinite(d->density) && d->density > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "flexible body '%s': density must be > 0 (got %g kg/m^3)", name,
                              d->density);
    if (!(isfinite(d->thickness) && d->thickness > 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "flexible body '%s': thickness must be > 0 (got %g m)", name,
                              d->thickness);
    if (!(isfinite(d->alpha) && d->alpha >= 0 && isfinite(d->beta) && d->beta >= 0))
        return mech_error_set(err, MECH_ERR_ARG,
                              "flexible body '%s': Rayleigh alpha and beta must be >= 0 (got %g, "
                              "%g)",
                              name, d->alpha, d->beta);
    if (d->lumping != MECH_LUMP_ROW_SUM && d->lumping != MECH_LUMP_HRZ)
        return mech_error_set(err, MECH_ERR_ARG, "flexible body '%s': unknown lumping", name);
    if (!finite2(d->displacement) || !finite2(d->velocity))
        return mech_error_set(err, MECH_ERR_ARG,
                              "flexible body '%s': displacement and velocity must be finite", name);
    mech_error merr;
    if (mech_mesh_check(d->mesh, &merr))
        return mech_error_set(err, merr.code, "flexible body '%s': mesh: %s", name, merr.msg);
    int digits = snprintf(NULL, 0, ".n%d", d->mesh->nnodes);
    if (strlen(name) + (size_t)digits >= MECH_NAME_MAX)
        return mech_error_set(err, MECH_ERR_ARG,
                              "flexible body '%s': name too long for its %d nodes' names", name,
                              d->mesh->nnodes);

    fe_body f;
    memset(&f, 0, sizeof f);
    memcpy(f.name, name, sizeof name);
    f.E = d->E;
    f.nu = d->nu;
    f.density = d->density;
    f.thickness = d->thickness;
    f.alpha = d->alpha;
    f.beta = d->beta;
    f.plane_strain = d->plane_strain != 0;
    f.lumping = d->lumping;
    if ((st = mech_mesh_copy(&f.mesh, d->mesh, err))) return st;
    f.mesh.nnodes = f.mesh.nnodes;
    f.mass = mech_calloc((size_t)f.mesh.nnodes, sizeof(double));
    if (f.mass == NULL)
        st = mech_error_set(err, MECH_ERR_NOMEM, "flexible body '%s': out of memory", name);
    if (!st) st = build_structure(&f, name, err);
    if (!st) st = build_stiffness(&f, name, err);
    /* room for the nodes and the body record before anything is added */
    if (!st && sys->cap_bodies < sys->nbodies + f.mesh.nnodes) {
        body *nb = mech_realloc(sys->bodies, sizeof(body) * (size_t)(sys->nbodies + f.mesh.nnodes));
        if (nb == NULL)
            st = mech_error_set(err, MECH_ERR_NOMEM, "flexible body '%s': out of memory", name);
        else
            sys->bodies = nb, sys->cap_bodies = sys->nbodies + f.mesh.nnodes;
    }
    if (!st && !system_grow((void **)&sys->fes, &sys->cap_fes, sys->nfes, sizeof(fe_body)))
        st = mech_error_set(err, MECH_ERR_NOMEM, "flexible body '%s': out of memory", name);
    if (st) {
        free_fe(&f);
        return st;
    }
    f.body0 = sys->nbodies;
    f.dof0 = sys->nq_given; /* == nu_given: planar */
    for (int k = 0; k < f.mesh.nnodes; k++) {
        body *b = &sys->bodies[sys->nbodies++];
        memset(b, 0, sizeof *b);
        snprintf(b->name, sizeof b->name, "%s.n%d", name, k + 1);
        b->mass = f.mass[k];
        b->q0[0] = f.mesh.xy[2 * k] + d->displacement[0];
        b->q0[1] = f.mesh.xy[2 * k + 1] + d->displacement[1];
        b->u0[0] = d->velocity[0];
        b->u0[1] = d->velocity[1];
        b->nq = b->nu = 2;
        b->q_at = sys->nq_given;
        b->u_at = sys->nu_given;
        sys->nq_given += 2;
        sys->nu_given += 2;
        b->fe = sys->nfes;
        b->node = k;
    }
    sys->fes[sys->nfes] = f;
    if (id) *id = sys->nfes;
    sys->nfes++;
    system_changed(sys);
    return MECH_OK;
}

int mech_fe_count(const mech_system *sys)
{
    return sys->nfes;
}

const char *mech_fe_name(const mech_system *sys, int fe)
{
    return fe >= 0 && fe < sys->nfes ? sys->fes[fe].name : NULL;
}

int mech_fe_find(const mech_system *sys, const char *name)
{
    for (int i = 0; name && i < sys->nfes; i++)
        if (strcmp(sys->fes[i].name, name) == 0) return i;
    return -1;
}

const mech_mesh *mech_fe_mesh(const mech_system *sys, int fe)
{
    return fe >= 0 && fe < sys->nfes ? &sys->fes[fe].mesh : NULL;
}

int mech_fe_node_body(const mech_system *sys, int fe, int k)
{
    if (fe < 0 || fe >= sys->nfes || k < 0 || k >= sys->fes[fe].mesh.nnodes) return -1;
    return sys->fes[fe].body0 + k;
}

int mech_body_is_node(const mech_system *sys, int b, int *fe, int *node)
{
    if (b < 0 || b >= sys->nbodies || sys->bodies[b].fe < 0) return 0;
    if (fe) *fe = sys->bodies[b].fe;
    if (node) *node = sys->bodies[b].node;
    return 1;
}

double mech_fe_node_mass(const mech_system *sys, int fe, int k)
{
    if (fe < 0 || fe >= sys->nfes || k < 0 || k >= sys->fes[fe].mesh.nnodes) return NAN;
    return sys->fes[fe].mass[k];
}

double mech_fe_total_mass(const mech_system *sys, int fe)
{
    return fe >= 0 && fe < sys->nfes ? sys->fes[fe].total : NAN;
}

/* ---- the internal forces ---------------------------------------------------------------- */

/* Row i of the stiffness times the displacements into *ku; returns row i's Rayleigh damping
** force (beta K v + alpha m v). */
static inline double row_forces(const fe_body *f, int i, const double *qf, const double *vf,
                                double *ku)
{
    const double *X = f->mesh.xy, *val = f->val;
    double sk = 0, kv = 0;
    for (int p = f->rowptr[i]; p < f->rowptr[i + 1]; p++) {
        int j = f->col[p];
        sk += val[p] * (qf[j] - X[j]);
        kv += val[p] * vf[j];
    }
    *ku = sk;
    return f->beta * kv + f->alpha * f->mass[i >> 1] * vf[i];
}

/*
** For BDF's Jacobian (system_jac.c) the evaluations other than the live ones (never full) keep
** the internal forces of the linear nodes (JAC_CAPTURE) or use the kept ones instead
** (JAC_FROZEN, their damping power left out: it goes only into an energy account, which BDF's
** Newton matrices leave out).
*/
void fe_forces(mech_system *sys, const double *q, const double *v, double *p_dissip,
               double *v_elastic, int full)
{
    const system_jac *J = sys->jac && sys->jac->mode != JAC_LIVE ? sys->jac : NULL;
    const int frozen = J && J->mode == JAC_FROZEN;
    for (int b = 0; b < sys->nfes; b++) {
        fe_body *f = &sys->fes[b];
        const int n2 = 2 * f->mesh.nnodes;
        const double *X = f->mesh.xy, *qf = q + f->dof0, *vf = v + f->dof0;
        const unsigned char *linear = J ? J->linear + J->node_at[b] : NULL;
        double *q0 = J ? J->q0 + 2 * (size_t)J->node_at[b] : NULL;
        double *Qf = sys->Q + f->dof0;
        double power = 0, energy = 0;
        for (int i = 0; i < n2; i++) {
            if (linear && linear[i >> 1] && frozen) {
                Qf[i] += q0[i];
                continue;
            }
            double ku, damp = row_forces(f, i, qf, vf, &ku);
            if (linear && linear[i >> 1]) q0[i] = -(ku + damp);
            Qf[i] -= ku + damp;
            power += vf[i] * damp;
            energy += (qf[i] - X[i]) * ku;
        }
        *p_dissip += power;
        if (full) {
            f->strain_energy = 0.5 * energy;
            f->p_damping = power;
            *v_elastic += f->strain_energy;
        }
    }
}

/* ---- matrices and natural frequencies ------------------------------------------------------ */

void mech_fe_matrices(const mech_system *sys, int fe, double *K, double *M, double *Ml)
{
    if (fe < 0 || fe >= sys->nfes) return;
    const fe_body *f = &sys->fes[fe];
    const mech_mesh *m = &f->mesh;
    size_t n = (size_t)(2 * f->mesh.nnodes);
    if (K) {
        memset(K, 0, n * n * sizeof(double));
        for (size_t i = 0; i < n; i++)
            for (int p = f->rowptr[i]; p < f->rowptr[i + 1]; p++) K[i * n + f->col[p]] = f->val[p];
    }
    if (M) {
        memset(M, 0, n * n * sizeof(double));
        double xy[8], Me[64];
        for (int e = 0; e < m->nelems; e++) {
            int nn = element_xy(m, e, xy);
            mech_fe_mass(nn, xy, f->density * f->thickness, Me);
            for (int a = 0; a < 2 * nn; a++)
                for (int b = 0; b < 2 * nn; b++) {
                    size_t r = (size_t)(2 * m->conn[4 * e + a / 2] + a % 2);
                    size_t c = (size_t)(2 * m->conn[4 * e + b / 2] + b % 2);
                    M[r * n + c] += Me[a * 2 * nn + b];
                }
        }
    }
    if (Ml) {
        memset(Ml, 0, n * n * sizeof(double));
        for (size_t i = 0; i < n; i++) Ml[i * n + i] = f->mass[i / 2];
    }
}

mech_status mech_fe_frequencies(const mech_system *sys, int fe, int consistent, const int *fixed,
                                int nfixed, int count, double *w, mech_error *err)
{
    if (fe < 0 || fe >= sys->nfes)
        return mech_error_set(err, MECH_ERR_NOTFOUND, "frequencies: no such flexible body");
    const fe_body *f = &sys->fes[fe];
    int n = 2 * f->mesh.nnodes;
    if (n > 20000)
        return mech_error_set(err, MECH_ERR_ARG,
                              "flexible body '%s': frequencies: %d coordinates is too many for "
                              "the dense eigensolver (20000 at most)",
                              f->name, n);
    char *held = mech_calloc((size_t)f->mesh.nnodes, 1);
    if (held == NULL) return mech_error_set(err, MECH_ERR_NOMEM, "frequencies: out of memory");
    for (int k = 0; k < nfixed; k++) {
        if (fixed[k] < 0 || fixed[k] >= f->mesh.nnodes) {
            mech_free(held);
            return mech_error_set(err, MECH_ERR_ARG,
                                  "flexible body '%s': frequencies: node %d does not exist (the "
                                  "mesh has %d nodes)",
                                  f->name, fixed[k] + 1, f->mesh.nnodes);
        }
        held[fixed[k]] = 1;
    }
    int nf = 0;
    for (int i = 0; i < n; i++) nf += !held[i / 2];
    if (count < 1 || count > nf) {
        mech_free(held);
        return mech_error_set(err, MECH_ERR_ARG,
                              "flexible body '%s': frequencies: ask for 1 to %d (got %d)", f->name,
                              nf, count);
    }
    size_t sn = (size_t)n, snf = (size_t)nf;
    double *K = mech_malloc(sn * sn * sizeof(double)), *M = mech_malloc(sn * sn * sizeof(double));
    double *Kr = mech_malloc(snf * snf * sizeof(double)),
           *Mr = mech_malloc(snf * snf * sizeof(double));
    double *ev = mech_malloc(snf * sizeof(double));
    int *keep = mech_malloc(snf * sizeof(int));
    mech_status st = MECH_OK;
    if (!K || !M || !Kr || !Mr || !ev || !keep) {
        st = mech_error_set(err, MECH_ERR_NOMEM, "frequencies: out of memory");
        goto done;
    }
    mech_fe_matrices(sys, fe, K, consistent ? M : NULL, consistent ? NULL : M);
    int r = 0;
    for (int i = 0; i < n; i++)
        if (!held[i / 2]) keep[r++] = i;
    for (int i = 0; i < nf; i++)
        for (int j = 0; j < nf; j++) {
            Kr[(size_t)i * snf + (size_t)j] = K[(size_t)keep[i] * sn + (size_t)keep[j]];
            Mr[(size_t)i * snf + (size_t)j] = M[(size_t)keep[i] * sn + (size_t)keep[j]];
        }
    dsygvd_fn dsygvd = load_dsygvd(err);
    if (dsygvd == NULL) {
        st = MECH_ERR_ARG;
        goto done;
    }
    lapack_int info = dsygvd(LAPACK_ROW_MAJOR, 1, 'N', 'U', nf, Kr, nf, Mr, nf, ev);
    if (info != 0) {
        st = mech_error_set(err, MECH_ERR_CONVERGENCE,
                            "flexible body '%s': frequencies: the eigensolver failed (LAPACK "
                            "dsygvd info %d)",
                            f->name, (int)info);
        goto done;
    }
    for (int i = 0; i < count; i++) w[i] = sqrt(fmax(ev[i], 0.0));
done:
    mech_free(held);
    mech_free(K);
    mech_free(M);
    mech_free(Kr);
    mech_free(Mr);
    mech_free(ev);
    mech_free(keep);
    return st;
}
