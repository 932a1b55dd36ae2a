/* SPDX-License-Identifier: MIT */
/*
** MECH_BDF: CVODE (SUNDIALS 6) variable-order BDF with Newton iterations, a direct linear
** solver and our own difference-quotient Jacobian (CVODE's built-in one allocates a vector
** header at every Jacobian evaluation), plugged into the step driver of integ.c.  CVODE
** takes one internal step per mech_integ_step (CV_ONE_STEP with a stop time), its
** interpolating polynomial is the dense output, and the events are found by the shared
** driver on that dense output (not by CVodeRootInit), so that all methods behave alike.
**
** A restart (init, reinit, truncate, or a failure after CVODE had moved on) is lazy: it
** marks the solver for CVodeReInit at (t1, y1) before the next step, so that the dense
** output of the last step stays valid until then.  CVodeReInit zeroes CVODE's counters;
** they are added to `base` just before, so the statistics accumulate.
**
** Second-order systems (opt.second_order = nq > 0): y = (q, u, w), q of size nq, the
** velocities u of size nu (opt.nu), w the N - nq - nu other states, and q' = N(q) u with N
** linear in u (opt.kinematic; without it N = I and nu = nq).  The Jacobian is
**     J = [[K, N, 0], [Fq, Fu, Fw], [Wq, Wu, Ww]],   K = d(N(q) u)/dq:
** its last r = N - nq rows Jr = [F; W] are difference quotients kept by us, N comes from the
** map (column k is the map of the unit vector e_k), and the Newton matrix M = I - gamma J is
** solved by block elimination.  With b = (bq, bu, bw), the first block row, K left out,
** dq - gamma N du = bq gives dq = bq + gamma N du, and the others the system of size r
**     R (du, dw) = (bu, bw) + gamma [Fq; Wq] bq,
**     R = [[I - gamma Fu - gamma^2 Fq N, -gamma Fw], [-gamma Wu - gamma^2 Wq N, I - gamma Ww]],
** i.e. R = I - gamma Jr[:, nq:] - gamma^2 [Jr[:, :nq] N, 0].  CVLS builds M through our
** linear-system function (CVodeSetLinSysFn), which only refreshes Jr, N and Jr[:, :nq] N
** when CVODE asks and notes gamma; the linear solver `so_*` forms and factors R at setup and
** eliminates at each solve.  So the LU costs (r/N)^3 of that of M, its solves (r/N)^2, and
** the N x N copies and scalings of CVLS's own linear-system function are avoided: CVLS is
** given a 1 x 1 matrix A, which it requires and never reads.  With N = I (planar bodies and
** nodes, K = 0) no product with N is formed: R = I - gamma Jr[:, nq:] - gamma^2 [Jr[:, :nq],
** 0] and dq = bq + gamma du, as before the map existed.
**
** K is left out: a modified Newton iteration (CVODE already iterates on an old Jacobian),
** whose contraction gamma |K| is small because |K| is of the size of the rotation rate
** (|omega|/2 for a unit quaternion), which the step must resolve.  Keeping K would need, at
** every setup (gamma changes without a new Jacobian), the nq x nq LU of I - gamma K, the nu
** solves (I - gamma K)^-1 N and their product with Fq, several times the LU of R; leaving it
** out forms Fq N once per Jacobian.  Measured on the bodies and the q' = (1 + q^2) u problem
** of tests/c/test_integ_kinematic.c (spin 5 and 50 rad/s; with transverse dampers of 1e3 and
** 1e5 N m s), 22 tolerances from rtol 1e-3 to 1e-10 each: with K kept the counts are those of
** the dense solver (the same Newton matrix), so the block elimination is exact; with K left
** out the steps, Newton iterations and Jacobians summed over the tolerances are 0.2 to 4%
** fewer than the dense solver's (single runs differ by up to 80% either way: on the spinning
** body the dense solver's own counts jump twofold between neighbouring tolerances), and no
** Newton convergence failure occurs from rtol 5e-4 down.  It costs at loose tolerances on the
** damped spinning bodies: at rtol 1e-3 two and six convergence failures against none, and on
** the stiffer one 81 and 84 rejected steps against 7 at rtol 1e-3 and 5e-4 (a third more
** evaluations).  Should loose tolerances on spinning bodies matter, K per body (a 4 x 4
** block) is the place to add it.
**
** The Jacobian.  Without the option jacobian (a mech_jac_structure) every column is a
** difference quotient of its own: N right-hand sides.  With it (integ_jac.c) the columns that
** no kept row shares are perturbed together, and a linear part L the model knows in closed
** form (a mesh's forces) is added to the quotients of the remainder g, whose pattern loses it:
** for the slider-crank with a flexible slider 16 right-hand sides (and one for L) whatever the
** mesh, against 52 with 4 elements and 340 with 64.  The grouping needs the rows of the
** outputs (energy accounts, driver works: states no rate reads, which depend on every
** velocity) left out of R, their rows then those of I; when the groups would not halve the
** evaluations the outputs stay in and the columns go one by one, the Newton matrices and
** their rounding those of the structure-less path (integ_jac.c).  The
** structure's entries are kept by compressed columns, and the product Jr[:, :nq] bq of the
** solves runs over them.
**
** The sparse Newton solver (newton = sparse, or automatic): R by compressed columns over the
** kept entries and its diagonal, factored by KLU (SuiteSparse) through sparse.h, with KLU's
** row scaling: the ordering computed once at setup, then at every setup a refactorization with
** the pivots of the last fresh factorization while they stay sound (sparse.h: none zero, and
** their smallest-to-largest ratio no worse than a thousandth of its best since), else pivots
** chosen afresh.  The first factorization, at setup, is that of the identity on R's pattern
** (pivots on the diagonal, which suit I plus terms in gamma; its ratio of 1 is not kept as
** the best): so KLU sizes its factors before the first step and stepping allocates nothing
** unless pivots must be chosen again (mech_integ_stats.sparse_factorizations counts the fresh
** factorizations, sparse_refactorizations the others).  KLU is used so rather than through
** SUNDIALS' sunlinsol_klu because that one factors the whole N x N matrix M = I - gamma J that
** CVLS forms from a SUNSparseMatrix J: twice the rows (the positions' block with its identity
** and N), and CVLS's copy and scaling of J at every setup, which the elimination above exists
** to avoid; R keeps the elimination and only its factorization changes.  It needs q' = u (N = I:
*planar bodies and nodes; with a kinematic
** map Fq N is formed dense).
**
** Dense or sparse: measured as time per step (median of 5 runs) on the slider-crank with a
** flexible slider (4, 8, 16, 32, 64 elements: r = 28, 40, 60, 100, 172) and on chains of n
** planar bodies joined by penalty revolutes (r = 3 n + 4, R banded) or by Lagrange ones (one
** component: R more than half full), the sparse solver's time over the dense one's: the
** flexible slider 0.87, 0.77, 0.57, 0.46, 0.34; penalty chains 0.83 to 1.05 from r = 7 to 16
** (noise), 0.89 at r = 22, 0.85 at 28; Lagrange chains 1.00 to 1.03 from r = 16 to 52.  So the
** sparse solver is taken from r = 24 on when at most half of R may be non-zero and the
** Jacobian is grouped; below that the dense one is as fast (and small models keep the
** rounding they had, as do those whose columns go one by one).
*/
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cvode/cvode.h>
#include <cvode/cvode_proj.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "integ_impl.h"
#include "integ_jac.h"
#include "linalg.h"
#include "sparse.h"

enum { FAIL_NONE, FAIL_CALLBACK, FAIL_NONFINITE, FAIL_KINEMATIC };

/* ---- vector operations -------------------------------------------------------------- */

/*
** The serial N_Vector of Debian's SUNDIALS is compiled without optimisation, and for the
** small systems we integrate (tens to a few hundred states) CVODE's vector operations cost
** as much as the right-hand side: a third of the instructions of a [Zheng & Wang] slider-crank
** run.  `fast_ops` points the operations CVODE uses while stepping at these loops, compiled
** with the program; the vectors stay serial vectors (clones copy the table).  Each result
** element is computed in the order of the serial implementation, and the fused operations
** read every operand element before writing it, so aliasing (z the same as an x) is safe.
** The operations CVODE needs only at set-up keep their serial versions.
*/
#define VD(v) NV_DATA_S(v)
#define VN(v) NV_LENGTH_S(v)

static void v_linearsum(double a, N_Vector x, double b, N_Vector y, N_Vector z)
{
    const double *xd = VD(x), *yd = VD(y);
    double *zd = VD(z);
    for (sunindextype i = 0, n = VN(x); i < n; i++) zd[i] = a * xd[i] + b * yd[i];
}

static void v_const(double c, N_Vector z)
{
    double *zd = VD(z);
    for (sunindextype i = 0, n = VN(z); i < n; i++) zd[i] = c;
}

static void v_prod(N_Vector x, N_Vector y, N_Vector z)
{
    const double *xd = VD(x), *yd = VD(y);
    double *zd = VD(z);
    for (sunindextype i = 0, n = VN(x); i < n; i++) zd[i] = xd[i] * yd[i];
}

static void v_scale(double c, N_Vector x, N_Vector z)
{
    const double *xd = VD(x);
    double *zd = VD(z);
    for (sunindextype i = 0, n = VN(x); i < n; i++) zd[i] = c * xd[i];
}

static void v_abs(N_Vector x, N_Vector z)
{
    const double *xd = VD(x);
    double *zd = VD(z);
    for (sunindextype i = 0, n = VN(x); i < n; i++) zd[i] = fabs(xd[i]);
}

static void v_inv(N_Vector x, N_Vector z)
{
    const double *xd = VD(x);
    double *zd = VD(z);
    for (sunindextype i = 0, n = VN(x); i < n; i++) zd[i] = 1.0 / xd[i];
}

static void v_addconst(N_Vector x, double b, N_Vector z)
{
    const double *xd = VD(x);
    double *zd = VD(z);
    for (sunindextype i = 0, n = VN(x); i < n; i++) zd[i] = xd[i] + b;
}

static double v_wsqrsum(N_Vector x, N_Vector w)
{
    const double *xd = VD(x), *wd = VD(w);
    double sum = 0;
    for (sunindextype i = 0, n = VN(x); i < n; i++) {
        double p = xd[i] * wd[i];
        sum += p * p;
    }
    return sum;
}

static double v_wrmsnorm(N_Vector x, N_Vector w)
{
    return sqrt(v_wsqrsum(x, w) / (double)VN(x));
}

static double v_min(N_Vector x)
{
    const double *xd = VD(x);
    double m = xd[0];
    for (sunindextype i = 1, n = VN(x); i < n; i++)
        if (xd[i] < m) m = xd[i];
    return m;
}

static double v_maxnorm(N_Vector x)
{
    const double *xd = VD(x);
    double m = 0;
    for (sunindextype i = 0, n = VN(x); i < n; i++)
        if (fabs(xd[i]) > m) m = fabs(xd[i]);
    return m;
}

static int v_linearcombination(int nv, double *c, N_Vector *X, N_Vector z)
{
    double *zd = VD(z);
    for (sunindextype i = 0, n = VN(z); i < n; i++) {
        double sum = c[0] * VD(X[0])[i];
        for (int k = 1; k < nv; k++) sum += c[k] * VD(X[k])[i];
        zd[i] = sum;
    }
    return 0;
}

static int v_scaleaddmulti(int nv, double *a, N_Vector x, N_Vector *Y, N_Vector *Z)
{
    const double *xd = VD(x);
    for (int k = 0; k < nv; k++) {
        const double *yd = VD(Y[k]);
        double *zd = VD(Z[k]);
        for (sunindextype i = 0, n = VN(x); i < n; i++) zd[i] = a[k] * xd[i] + yd[i];
    }
    return 0;
}

static int v_linearsumvectorarray(int nv, double a, N_Vector *X, double b, N_Vector *Y, N_Vector *Z)
{
    for (int k = 0; k < nv; k++) v_linearsum(a, X[k], b, Y[k], Z[k]);
    return 0;
}

static int v_scalevectorarray(int nv, double *c, N_Vector *X, N_Vector *Z)
{
    for (int k = 0; k < nv; k++) v_scale(c[k], X[k], Z[k]);
    return 0;
}

static int v_constvectorarray(int nv, double c, N_Vector *Z)
{
    for (int k = 0; k < nv; k++) v_const(c, Z[k]);
    return 0;
}

static int v_wrmsnormvectorarray(int nv, N_Vector *X, N_Vector *W, double *nrm)
{
    for (int k = 0; k < nv; k++) nrm[k] = v_wrmsnorm(X[k], W[k]);
    return 0;
}

static void fast_ops(N_Vector v)
{
    N_Vector_Ops o = v->ops;
    o->nvlinearsum = v_linearsum;
    o->nvconst = v_const;
    o->nvprod = v_prod;
    o->nvscale = v_scale;
    o->nvabs = v_abs;
    o->nvinv = v_inv;
    o->nvaddconst = v_addconst;
    o->nvwrmsnorm = v_wrmsnorm;
    o->nvwsqrsumlocal = v_wsqrsum;
    o->nvmin = v_min;
    o->nvminlocal = v_min;
    o->nvmaxnorm = v_maxnorm;
    o->nvmaxnormlocal = v_maxnorm;
    o->nvlinearcombination = v_linearcombination;
    o->nvscaleaddmulti = v_scaleaddmulti;
    o->nvlinearsumvectorarray = v_linearsumvectorarray;
    o->nvscalevectorarray = v_scalevectorarray;
    o->nvconstvectorarray = v_constvectorarray;
    o->nvwrmsnormvectorarray = v_wrmsnormvectorarray;
}

/* CVODE counters that go into mech_integ_stats. */
typedef struct counters {
    long rhs, rejected, jac, nni, nnf;
} counters;

typedef struct bdf {
    int n; /* equations */
    SUNContext sun;
    void *cv;
    N_Vector v;    /* wraps a vector of ours; its data pointer is set before each use */
    N_Vector atol; /* wraps s->atol */
    SUNMatrix A;
    SUNLinearSolver ls;
    int restart;   /* CVodeReInit at (t1, y1) before the next step */
    counters base; /* counts of CVODE runs before the last CVodeReInit */
    long jac_rhs;  /* right-hand sides spent on Jacobians (CVODE does not count ours) */
    int fail;      /* why the right-hand side wrapper failed (FAIL_*) */
    int fail_i;
    double fail_t;
    char msg[256]; /* CVODE's last error or warning message */
    /* the Jacobian from the model's structure (integ_jac.h; all zero without the option) */
    integ_jac jac;
    /* second-order systems (see the top) */
    int so_n;     /* opt.second_order, 0: the dense solver of SUNDIALS */
    int so_nu;    /* opt.nu */
    double gamma; /* gamma of the last linear system */
    double *Jr;   /* rows so_n.. of the Jacobian: N columns of r, column-major (dense Newton) */
    double *R;    /* r x r, row-major, LU-factored by lu_factor */
    int *piv;     /* r pivots */
    /* the sparse Newton solver (NULL: the dense one): R, and the place in its values of each
    ** kept Jacobian entry (jac.colptr[n] of them) and then of its diagonal's r entries */
    sparse_lu *lu;
    int *rslot;
    /* with a kinematic map (NULL without: N = I) */
    mech_kinematic_fn kin;
    void *kin_ctx;
    double *Nq;  /* N(q) at the last Jacobian: so_n x so_nu, column-major */
    double *FqN; /* Fq N: r x so_nu, column-major (without a map: Jr itself) */
    double *e;   /* so_nu: the unit vectors e_k that give the columns of N */
} bdf;

/* Whether BDF has the model's structure (the option jacobian). */
static int structured(const bdf *b)
{
    return b->jac.colptr != NULL;
}

/* Stores CVODE's messages instead of printing them. */
static void on_error(int code, const char *module, const char *function, char *msg, void *data)
{
    (void)code;
    (void)module;
    snprintf(((bdf *)data)->msg, sizeof((bdf *)data)->msg, "%s: %s", function, msg);
}

/*
** CVODE's right-hand side: our f with its return convention (positive: recoverable,
** CVODE retries with a smaller step).  A non-finite derivative is unrecoverable, like in
** the Runge-Kutta methods; the reason is kept for the error report.
*/
/* CVODE's projection after an accepted step (the option project): corr = P(ycur) - ycur.
** The error estimate is left as it is (CVodeSetProjErrEst off). */
static int project(double t, N_Vector ycur, N_Vector corr, double eps, N_Vector err, void *data)
{
    (void)eps, (void)err;
    mech_integ *s = data;
    const double *y = N_VGetArrayPointer(ycur);
    double *c = N_VGetArrayPointer(corr);
    memcpy(c, y, sizeof(double) * (size_t)s->n);
    if (s->opt.project(s->opt.project_ctx, t, c) < 0) return -1;
    for (int i = 0; i < s->n; i++) c[i] -= y[i];
    return 0;
}

static int rhs(double t, N_Vector y, N_Vector ydot, void *data)
{
    mech_integ *s = data;
    bdf *b = s->bdf;
    double *d = N_VGetArrayPointer(ydot);
    int r = s->f(s->ctx, t, N_VGetArrayPointer(y), d);
    if (r > 0) return 1;
    if (r < 0) {
        b->fail = FAIL_CALLBACK, b->fail_t = t;
        return -1;
    }
    int i = integ_nonfinite(s->n, d);
    if (i >= 0) {
        b->fail = FAIL_NONFINITE, b->fail_t = t, b->fail_i = i;
        return -1;
    }
    return 0;
}

/*
** Difference-quotient Jacobian with CVODE's increment sqrt(eps) max(|y_j|, |h f_j|, 1/w_j)
** (w: the error weights), into the dense J, or with J NULL the rows so_n.. into b->Jr (the
** sparse Newton solver reads them from b->jac.val).  With the model's structure by groups of
** columns (integ_jac.c), else column by column.  Uses only CVODE's work vectors and the
** structure's: nothing is allocated.
*/
static int dq_jacobian(mech_integ *s, double t, N_Vector y, N_Vector fy, SUNMatrix J, N_Vector tmp1,
                       N_Vector tmp2)
{
    bdf *b = s->bdf;
    double *yd = N_VGetArrayPointer(y), *fd = N_VGetArrayPointer(fy);
    double *w = N_VGetArrayPointer(tmp1), *ft = N_VGetArrayPointer(tmp2);
    double h = 0;
    CVodeGetErrWeights(b->cv, tmp1);
    CVodeGetCurrentStep(b->cv, &h);
    if (structured(b)) {
        const integ_jac *jc = &b->jac;
        int r = integ_jac_eval(&b->jac, s->f, s->ctx, t, yd, fd, w, h, &b->jac_rhs);
        if (r > 0) return 1;
        if (r < 0) {
            b->fail = FAIL_CALLBACK, b->fail_t = t;
            return -1;
        }
        if (J) { /* the rows of the outputs stay 0 */
            for (int j = 0; j < s->n; j++) {
                double *col = SUNDenseMatrix_Column(J, j);
                memset(col, 0, sizeof(double) * (size_t)s->n);
                for (int p = jc->colptr[j]; p < jc->colptr[j + 1]; p++)
                    col[jc->rowind[p]] = jc->val[p];
            }
        } else if (!b->lu) { /* Jr's other entries were never written: 0 */
            for (int j = 0; j < s->n; j++) {
                double *col = b->Jr + (size_t)j * (size_t)(s->n - b->so_n);
                for (int p = jc->colptr[j]; p < jc->colptr[j + 1]; p++)
                    col[jc->rowind[p]] = jc->val[p];
            }
        }
        return 0;
    }
    const double srur = sqrt(DBL_EPSILON);
    const int i0 = J ? 0 : b->so_n; /* first row kept */
    for (int j = 0; j < s->n; j++) {
        double yj = yd[j];
        double inc = srur * fmax(fabs(yj), fmax(fabs(h * fd[j]), w[j] > 0 ? 1.0 / w[j] : 0.0));
        if (!(inc > 0)) inc = srur;
        yd[j] = yj + inc;
        int r = s->f(s->ctx, t, yd, ft);
        yd[j] = yj;
        b->jac_rhs++;
        if (r > 0) return 1;
        if (r < 0) {
            b->fail = FAIL_CALLBACK, b->fail_t = t;
            return -1;
        }
        double *col = J ? SUNDenseMatrix_Column(J, j) : b->Jr + (size_t)j * (size_t)(s->n - i0);
        for (int i = i0; i < s->n; i++) col[i - i0] = (ft[i] - fd[i]) / inc;
    }
    return 0;
}

/* CVODE's Jacobian function (dense Newton systems). */
static int jacobian(double t, N_Vector y, N_Vector fy, SUNMatrix J, void *data, N_Vector tmp1,
                    N_Vector tmp2, N_Vector tmp3)
{
    (void)tmp3;
    return dq_jacobian(data, t, y, fy, J, tmp1, tmp2);
}

/* ---- the Newton systems of second-order systems ------------------------------------ */

/*
** With a kinematic map: Nq = N(q), column k the map of e_k, and FqN = Fq Nq (Fq = Jr[:, :nq];
** the zeros of Nq are skipped: a body's N touches only its own coordinates).
*/
static int kinematic_columns(mech_integ *s, double t, const double *q)
{
    bdf *b = s->bdf;
    const int nq = b->so_n, nu = b->so_nu, r = b->n - nq;
    for (int k = 0; k < nu; k++) {
        double *nk = b->Nq + (size_t)k * (size_t)nq;
        b->e[k] = 1;
        int rc = b->kin(b->kin_ctx, q, b->e, nk);
        b->e[k] = 0;
        if (rc > 0) return 1;
        if (rc < 0 || integ_nonfinite(nq, nk) >= 0) {
            b->fail = FAIL_KINEMATIC, b->fail_t = t;
            return -1;
        }
        double *c = b->FqN + (size_t)k * (size_t)r;
        for (int i = 0; i < r; i++) c[i] = 0;
        for (int j = 0; j < nq; j++) {
            const double *fj = b->Jr + (size_t)j * (size_t)r, njk = nk[j];
            if (njk != 0)
                for (int i = 0; i < r; i++) c[i] += njk * fj[i];
        }
    }
    return 0;
}

/*
** CVODE's linear-system function: M = I - gamma J is represented by Jr (with a map also N
** and Fq N) and gamma, A is not used.  They are refreshed when CVODE does not accept the
** saved ones (jok false).
*/
static int so_linsys(double t, N_Vector y, N_Vector fy, SUNMatrix A, booleantype jok,
                     booleantype *jcur, double gamma, void *data, N_Vector tmp1, N_Vector tmp2,
                     N_Vector tmp3)
{
    (void)A, (void)tmp3;
    mech_integ *s = data;
    bdf *b = s->bdf;
    *jcur = !jok;
    if (!jok) {
        int r = dq_jacobian(s, t, y, fy, NULL, tmp1, tmp2);
        if (!r && b->kin) r = kinematic_columns(s, t, N_VGetArrayPointer(y));
        if (r) return r;
    }
    b->gamma = gamma;
    return 0;
}

static SUNLinearSolver_Type so_gettype(SUNLinearSolver S)
{
    (void)S;
    return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID so_getid(SUNLinearSolver S)
{
    (void)S;
    return SUNLINEARSOLVER_CUSTOM;
}

/* The sparse Newton solver from this many equations of R on, when at most this fraction of
** its entries may be non-zero (measured: see the top). */
#define SPARSE_MIN_SIZE 24
#define SPARSE_MAX_FILL 0.5

/* The sparse R = I - gamma Jr[:, nq:] - gamma^2 [Jr[:, :nq], 0] (N = I), factored with the
** pivots of its last fresh factorization while they stay sound, else new ones (sparse.h). */
static int so_setup_sparse(bdf *b)
{
    const integ_jac *jc = &b->jac;
    const int nq = b->so_n, r = b->n - nq, *pos = b->rslot, *diag = b->rslot + jc->colptr[b->n];
    const double g = b->gamma, g2 = g * g;
    double *x = sparse_values(b->lu);
    memset(x, 0, sizeof(double) * (size_t)sparse_nnz(b->lu));
    for (int c = 0; c < r; c++) x[diag[c]] = 1;
    for (int j = 0; j < b->n; j++) {
        const double coef = j < nq ? -g2 : -g;
        for (int p = jc->colptr[j]; p < jc->colptr[j + 1]; p++) x[pos[p]] += coef * jc->val[p];
    }
    switch (sparse_factor(b->lu, 0.0)) {
    case SPARSE_OK: return SUNLS_SUCCESS;
    case SPARSE_SMALL: return SUNLS_LUFACT_FAIL; /* singular: recoverable */
    default: return SUNLS_MEM_FAIL;
    }
}

/*
** Forms R = I - gamma Jr[:, nq:] - gamma^2 [Fq N, 0] and factors it.  A singular R is a
** recoverable failure (positive return): CVODE retries with a new Jacobian or a smaller
** step.
*/
static int so_setup(SUNLinearSolver S, SUNMatrix A)
{
    (void)A;
    bdf *b = S->content;
    if (b->lu) return so_setup_sparse(b);
    const int n = b->so_n, nu = b->so_nu, r = b->n - n;
    const double g = b->gamma, g2 = g * g;
    for (int j = 0; j < r; j++) {
        const double *jv = b->Jr + (size_t)(n + j) * (size_t)r;
        double *R = b->R + j; /* column j, stride r */
        if (j < nu) {
            const double *jq = b->FqN + (size_t)j * (size_t)r;
            for (int i = 0; i < r; i++) R[(size_t)i * (size_t)r] = -g * jv[i] - g2 * jq[i];
        } else {
            for (int i = 0; i < r; i++) R[(size_t)i * (size_t)r] = -g * jv[i];
        }
        R[(size_t)j * (size_t)r] += 1;
    }
    return lu_factor(b->R, r, b->piv, 0.0) < 0 ? SUNLS_SUCCESS : SUNLS_LUFACT_FAIL;
}

/* x = M^-1 b for the M of the last setup (x and b may be the same vector). */
static int so_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector bv, double tol)
{
    (void)A, (void)tol;
    bdf *b = S->content;
    const int n = b->so_n, nu = b->so_nu, r = b->n - n;
    const double *bd = N_VGetArrayPointer(bv);
    double *xd = N_VGetArrayPointer(x), *xr = xd + n;
    for (int i = 0; i < r; i++) xr[i] = bd[n + i];
    if (structured(b)) { /* + gamma Jr[:, :n] bq over the kept entries */
        const integ_jac *jc = &b->jac;
        for (int k = 0; k < n; k++) {
            const double c = b->gamma * bd[k];
            if (c != 0)
                for (int p = jc->colptr[k]; p < jc->colptr[k + 1]; p++)
                    xr[jc->rowind[p]] += c * jc->val[p];
        }
    } else {
        for (int k = 0; k < n; k++) {
            const double *jq = b->Jr + (size_t)k * (size_t)r, c = b->gamma * bd[k];
            if (c != 0)
                for (int i = 0; i < r; i++) xr[i] += c * jq[i];
        }
    }
    if (b->lu)
        sparse_solve(b->lu, xr);
    else
        lu_solve(b->R, r, b->piv, xr);
    if (!b->kin) {
        for (int i = 0; i < n; i++) xd[i] = bd[i] + b->gamma * xr[i];
    } else { /* dq = bq + gamma N du */
        for (int i = 0; i < n; i++) {
            double sum = 0;
            for (int k = 0; k < nu; k++) sum += b->Nq[i + (size_t)k * (size_t)n] * xr[k];
            xd[i] = bd[i] + b->gamma * sum;
        }
    }
    return SUNLS_SUCCESS;
}

/* The workspace belongs to the bdf structure (bdf_release). */
static int so_free(SUNLinearSolver S)
{
    S->content = NULL;
    SUNLinSolFreeEmpty(S);
    return SUNLS_SUCCESS;
}

/*
** The sparse Newton matrix R from the kept Jacobian entries: column c of R holds those of the
** Jacobian's columns nq + c and (c < nq) c, and its diagonal; b->rslot their places in R's
** values.
*/
static int so_sparse_create(bdf *b)
{
    const integ_jac *jc = &b->jac;
    const int nq = b->so_n, r = b->n - nq, nnz = jc->colptr[b->n], m = nnz + r;
    int *row = mech_malloc(sizeof(int) * (size_t)m), *col = mech_malloc(sizeof(int) * (size_t)m);
    b->rslot = mech_malloc(sizeof(int) * (size_t)m);
    if (row && col && b->rslot) {
        for (int j = 0; j < b->n; j++)
            for (int p = jc->colptr[j]; p < jc->colptr[j + 1]; p++)
                row[p] = jc->rowind[p], col[p] = j < nq ? j : j - nq;
        for (int c = 0; c < r; c++) row[nnz + c] = col[nnz + c] = c;
        b->lu = sparse_create(r, m, row, col, b->rslot);
    }
    mech_free(row);
    mech_free(col);
    return b->lu != NULL;
}

static void so_sparse_free(bdf *b)
{
    sparse_free(b->lu);
    mech_free(b->rslot);
    b->lu = NULL;
    b->rslot = NULL;
}

/*
** KLU's ordering of R's pattern, and a first factorization of the identity on it: it sizes
** KLU's factors for pivots on the diagonal, which the Newton matrices (I plus terms in gamma)
** are then refactored with, so that stepping allocates nothing.  The identity's pivot ratio
** says nothing of theirs: forgotten.
*/
static int so_sparse_prime(bdf *b)
{
    if (sparse_analyze(b->lu)) return 0;
    double *x = sparse_values(b->lu);
    const int *diag = b->rslot + b->jac.colptr[b->n];
    for (int c = 0; c < b->n - b->so_n; c++) x[diag[c]] = 1;
    if (sparse_factor(b->lu, 0.0) != SPARSE_OK) return 0;
    sparse_forget_ratio(b->lu);
    return 1;
}

/*
** Whether the sparse Newton solver is faster than the dense one for r equations and nnz
** entries of R (see the top).
*/
static int sparse_pays(int r, int nnz)
{
    return r >= SPARSE_MIN_SIZE && (double)nnz <= SPARSE_MAX_FILL * (double)r * (double)r;
}

/* The linear solver and its workspace, all allocated here. */
static SUNLinearSolver so_create(bdf *b)
{
    size_t r = (size_t)(b->n - b->so_n), nq = (size_t)b->so_n, nu = (size_t)b->so_nu;
    int ok = 1;
    if (b->lu) {
        ok = so_sparse_prime(b);
    } else {
        b->Jr = mech_calloc(r * (size_t)b->n, sizeof(double));
        b->R = mech_calloc(r * r, sizeof(double));
        b->piv = mech_calloc(r, sizeof(int));
        ok = b->Jr && b->R && b->piv;
        if (b->kin) {
            b->Nq = mech_calloc(nq * nu, sizeof(double));
            b->FqN = mech_calloc(r * nu, sizeof(double));
            b->e = mech_calloc(nu, sizeof(double));
            ok = ok && b->Nq && b->FqN && b->e;
        } else {
            b->FqN = b->Jr; /* Fq N = Fq, in place */
        }
    }
    SUNLinearSolver S = ok ? SUNLinSolNewEmpty(b->sun) : NULL;
    if (!S) return NULL;
    S->content = b;
    S->ops->gettype = so_gettype;
    S->ops->getid = so_getid;
    S->ops->setup = so_setup;
    S->ops->solve = so_solve;
    S->ops->free = so_free;
    return S;
}

static counters cvode_counters(const bdf *b)
{
    long nfe = 0, nfels = 0, netf = 0, ncfn = 0, nje = 0;
    CVodeGetNumRhsEvals(b->cv, &nfe);
    CVodeGetNumLinRhsEvals(b->cv, &nfels);
    CVodeGetNumErrTestFails(b->cv, &netf);
    CVodeGetNumStepSolveFails(b->cv, &ncfn);
    CVodeGetNumJacEvals(b->cv, &nje);
    long nni = 0, nnf = 0;
    CVodeGetNonlinSolvStats(b->cv, &nni, &nnf);
    return (counters){
        .rhs = nfe + nfels, .rejected = netf + ncfn, .jac = nje, .nni = nni, .nnf = nnf};
}

/* Marks a lazy restart, first saving the counts of the run that ends. */
static void mark_restart(bdf *b)
{
    if (b->restart) return;
    counters c = cvode_counters(b);
    b->base.rhs += c.rhs;
    b->base.rejected += c.rejected;
    b->base.jac += c.jac;
    b->base.nni += c.nni;
    b->base.nnf += c.nnf;
    b->restart = 1;
}

/* Error report for a failed CVODE call: the flag, its name and CVODE's message. */
static mech_status cvode_error(mech_integ *s, mech_status code, const char *what, int flag,
                               double t, mech_error *err)
{
    bdf *b = s->bdf;
    char *name = CVodeGetReturnFlagName(flag); /* malloc'ed by SUNDIALS */
    mech_error_set(err, code, "bdf: %s failed at t = %.9g: %s (%d)%s%s", what, t, name ? name : "?",
                   flag, b->msg[0] ? ": " : "", b->msg);
    free(name);
    return code;
}

static mech_status bdf_setup(mech_integ *s, mech_error *err)
{
    bdf *b = mech_calloc(1, sizeof *b);
    if (!b) return mech_error_set(err, MECH_ERR_NOMEM, "bdf: out of memory");
    s->bdf = b;
    b->n = s->n;
    b->so_n = s->opt.second_order;
    b->so_nu = s->opt.nu;
    b->kin = s->opt.kinematic;
    b->kin_ctx = s->opt.kinematic_ctx;
    if (s->opt.jacobian) {
        mech_status st = integ_jac_setup(&b->jac, s->n, b->so_n, s->opt.jacobian, err);
        if (st) return st;
    }
    const int can_sparse = structured(b) && b->so_n > 0 && !b->kin;
    if (s->opt.newton == MECH_NEWTON_SPARSE && !can_sparse)
        return mech_error_set(err, MECH_ERR_ARG,
                              "bdf: the sparse Newton solver needs the model's Jacobian structure "
                              "and velocities that are the positions' rates (q' = u)");
    /* automatic: when the Jacobian is grouped (else BDF runs as without the structure) */
    if (can_sparse && (s->opt.newton == MECH_NEWTON_SPARSE ||
                       (s->opt.newton == MECH_NEWTON_AUTO && b->jac.grouped))) {
        if (!so_sparse_create(b)) return mech_error_set(err, MECH_ERR_NOMEM, "bdf: out of memory");
        if (s->opt.newton == MECH_NEWTON_SPARSE || sparse_pays(s->n - b->so_n, sparse_nnz(b->lu)))
            sparse_scale_rows(b->lu);
        else
            so_sparse_free(b);
    }
    if (SUNContext_Create(NULL, &b->sun)) b->sun = NULL;
    if (b->sun) {
        b->v = N_VMake_Serial(s->n, s->y1, b->sun);
        b->atol = N_VMake_Serial(s->n, s->atol, b->sun);
        if (b->v) fast_ops(b->v);
        if (b->atol) fast_ops(b->atol);
        b->A = b->so_n ? SUNDenseMatrix(1, 1, b->sun) : SUNDenseMatrix(s->n, s->n, b->sun);
        b->cv = CVodeCreate(CV_BDF, b->sun);
    }
    if (b->v && b->A) b->ls = b->so_n ? so_create(b) : SUNLinSol_Dense(b->v, b->A, b->sun);
    if (!b->sun || !b->v || !b->atol || !b->A || !b->ls || !b->cv)
        return mech_error_set(err, MECH_ERR_NOMEM, "bdf: out of memory creating the CVODE solver");

    const char *what = NULL;
    int flag;
    if ((flag = CVodeSetErrHandlerFn(b->cv, on_error, b)))
        what = "CVodeSetErrHandlerFn";
    else if ((flag = CVodeInit(b->cv, rhs, 0.0, b->v))) /* t0 and y0 come at init */
        what = "CVodeInit";
    else if ((flag = CVodeSetUserData(b->cv, s)))
        what = "CVodeSetUserData";
    else if ((flag = CVodeSVtolerances(b->cv, s->opt.rtol, b->atol)))
        what = "CVodeSVtolerances";
    else if ((flag = CVodeSetLinearSolver(b->cv, b->ls, b->A)))
        what = "CVodeSetLinearSolver";
    else if (!b->so_n && (flag = CVodeSetJacFn(b->cv, jacobian)))
        what = "CVodeSetJacFn";
    else if (b->so_n && (flag = CVodeSetLinSysFn(b->cv, so_linsys)))
        what = "CVodeSetLinSysFn";
    else if (s->opt.max_order > 0 && (flag = CVodeSetMaxOrd(b->cv, s->opt.max_order)))
        what = "CVodeSetMaxOrd";
    else if ((flag = CVodeSetMaxNumSteps(b->cv, 100000000L)))
        what = "CVodeSetMaxNumSteps";
    else if (s->opt.hmax > 0 && (flag = CVodeSetMaxStep(b->cv, s->opt.hmax)))
        what = "CVodeSetMaxStep";
    else if (s->opt.h > 0 && (flag = CVodeSetInitStep(b->cv, s->opt.h)))
        what = "CVodeSetInitStep";
    else if (s->opt.project && (flag = CVodeSetProjFn(b->cv, project)))
        what = "CVodeSetProjFn";
    else if (s->opt.project && (flag = CVodeSetProjErrEst(b->cv, SUNFALSE)))
        what = "CVodeSetProjErrEst";
    if (what)
        return cvode_error(s, flag == CV_MEM_FAIL ? MECH_ERR_NOMEM : MECH_ERR_ARG, what, flag,
                           s->t1, err);
    return MECH_OK;
}

static void bdf_release(mech_integ *s)
{
    bdf *b = s->bdf;
    if (!b) return;
    if (b->cv) CVodeFree(&b->cv);
    if (b->ls) SUNLinSolFree(b->ls);
    if (b->A) SUNMatDestroy(b->A);
    if (b->atol) N_VDestroy(b->atol);
    if (b->v) N_VDestroy(b->v);
    if (b->sun) SUNContext_Free(&b->sun);
    integ_jac_free(&b->jac);
    so_sparse_free(b);
    if (b->FqN != b->Jr) mech_free(b->FqN);
    mech_free(b->Jr);
    mech_free(b->R);
    mech_free(b->piv);
    mech_free(b->Nq);
    mech_free(b->e);
    mech_free(b);
    s->bdf = NULL;
}

static mech_status bdf_restart(mech_integ *s, int fresh, mech_error *err)
{
    (void)err;
    bdf *b = s->bdf;
    if (fresh) {
        b->base = (counters){0};
        b->restart = 1; /* CVODE's counts of an earlier run are not ours */
    }
    mark_restart(b);
    return MECH_OK;
}

static void bdf_resync(mech_integ *s)
{
    mark_restart(s->bdf);
}

/* After a failed step, or a run stopped for its pace: s->fault = the component with the
** largest weighted local error estimate (for a corrector failure, the last Newton
** correction), or -1.  Runs once, at the end of a run: the two work vectors are made here
** (outside mech_malloc's count). */
static void worst_component(mech_integ *s)
{
    bdf *b = s->bdf;
    N_Vector ele = N_VClone(b->v), w = N_VClone(b->v);
    s->fault = -1;
    if (ele && w && !CVodeGetEstLocalErrors(b->cv, ele) && !CVodeGetErrWeights(b->cv, w)) {
        const double *e = N_VGetArrayPointer(ele), *wt = N_VGetArrayPointer(w);
        double worst = 0;
        for (int i = 0; i < b->n; i++)
            if (fabs(e[i] * wt[i]) > worst) worst = fabs(e[i] * wt[i]), s->fault = i;
    }
    if (ele) N_VDestroy(ele);
    if (w) N_VDestroy(w);
}

/* Maps a failure of CVode() to our status codes. */
static mech_status step_error(mech_integ *s, int flag, mech_error *err)
{
    bdf *b = s->bdf;
    if (b->fail == FAIL_NONFINITE) {
        s->fault = b->fail_i;
        return mech_error_set(err, MECH_ERR_NUMERIC,
                              "non-finite derivative at t = %.9g (component %d)", b->fail_t,
                              b->fail_i);
    }
    if (b->fail == FAIL_CALLBACK) /* the model's report names the entity */
        return mech_error_set(err, MECH_ERR_CALLBACK, "right-hand side failed at t = %.9g",
                              b->fail_t);
    if (b->fail == FAIL_KINEMATIC)
        return mech_error_set(err, MECH_ERR_CALLBACK,
                              "kinematic map failed at t = %.9g (or gave a non-finite N(q))",
                              b->fail_t);
    mech_status code;
    switch (flag) {
    case CV_TOO_MUCH_WORK:
    case CV_TOO_MUCH_ACC: code = MECH_ERR_STEPSIZE; break;
    case CV_RHSFUNC_FAIL:
    case CV_FIRST_RHSFUNC_ERR:
    case CV_REPTD_RHSFUNC_ERR:
    case CV_UNREC_RHSFUNC_ERR: code = MECH_ERR_CALLBACK; break;
    case CV_MEM_FAIL: code = MECH_ERR_NOMEM; break;
    case CV_ILL_INPUT:
    case CV_TOO_CLOSE:
    case CV_BAD_T: code = MECH_ERR_ARG; break;
    default: code = MECH_ERR_CONVERGENCE; /* error test, corrector, linear solver */
    }
    worst_component(s); /* every failure names a component, as far as CVODE knows one */
    double t = s->t1;
    CVodeGetCurrentTime(b->cv, &t);
    return cvode_error(s, code, "step", flag, t, err);
}

static mech_status bdf_step(mech_integ *s, double t_stop, mech_error *err)
{
    bdf *b = s->bdf;
    int flag;
    b->msg[0] = '\0';
    b->fail = FAIL_NONE;
    if (b->restart) {
        N_VSetArrayPointer(s->y1, b->v);
        if ((flag = CVodeReInit(b->cv, s->t1, b->v)))
            return cvode_error(s, MECH_ERR_ARG, "CVodeReInit", flag, s->t1, err);
        b->restart = 0;
    }
    if ((flag = CVodeSetStopTime(b->cv, t_stop)))
        return cvode_error(s, MECH_ERR_ARG, "CVodeSetStopTime", flag, s->t1, err);
    N_VSetArrayPointer(s->yn, b->v);
    double t = s->t1;
    flag = CVode(b->cv, t_stop, b->v, &t, CV_ONE_STEP);
    if (flag < 0) return step_error(s, flag, err);
    /* CVODE goes on with steps that no longer move t (it only warns about t + h == t); we
    ** stop there like DOPRI5 does, unless the step was cut short to reach t_stop */
    double hu = 0;
    CVodeGetLastStep(b->cv, &hu);
    if (t != t_stop && !(hu >= 16 * DBL_EPSILON * fmax(fabs(t), DBL_MIN))) {
        worst_component(s);
        return mech_error_set(err, MECH_ERR_STEPSIZE,
                              "bdf: step size underflow at t = %.17g (h = %.3g)", t, hu);
    }
    s->tn = t;
    int i = integ_nonfinite(s->n, s->yn);
    if (i >= 0) {
        s->fault = i;
        return mech_error_set(err, MECH_ERR_NUMERIC, "non-finite state at t = %.9g (component %d)",
                              t, i);
    }
    return MECH_OK;
}

static mech_status bdf_dense(mech_integ *s, double t, double *y)
{
    bdf *b = s->bdf;
    N_VSetArrayPointer(y, b->v);
    return CVodeGetDky(b->cv, t, 0, b->v) ? MECH_ERR_ARG : MECH_OK;
}

static mech_status bdf_truncate(mech_integ *s, double t, mech_error *err)
{
    bdf *b = s->bdf;
    N_VSetArrayPointer(s->yn, b->v);
    int flag = CVodeGetDky(b->cv, t, 0, b->v);
    if (flag) return cvode_error(s, MECH_ERR_ARG, "CVodeGetDky", flag, t, err);
    int i = integ_nonfinite(s->n, s->yn);
    if (i >= 0) {
        s->fault = i;
        return mech_error_set(err, MECH_ERR_NUMERIC, "non-finite state at t = %.9g (component %d)",
                              t, i);
    }
    return MECH_OK; /* the driver calls bdf_resync once it has moved to t */
}

static void bdf_stats(const mech_integ *s, mech_integ_stats *st)
{
    const bdf *b = s->bdf;
    counters c = b->base;
    if (!b->restart) {
        counters now = cvode_counters(b);
        c.rhs += now.rhs, c.rejected += now.rejected, c.jac += now.jac;
        c.nni += now.nni, c.nnf += now.nnf;
    }
    st->rhs_evals += c.rhs + b->jac_rhs; /* init and reinit evaluations are in st already */
    st->rejected += c.rejected;
    st->jac_evals += c.jac;
    st->newton_iters += c.nni;
    st->newton_fails += c.nnf;
    st->newton = b->lu ? MECH_NEWTON_SPARSE : MECH_NEWTON_DENSE;
    st->jac_groups = structured(b) ? b->jac.ngroups : b->n;
    st->jac_linear = structured(b) ? b->jac.nlin_kept : 0;
    st->sparse_factorizations = st->sparse_refactorizations = 0;
    if (b->lu) sparse_counts(b->lu, &st->sparse_factorizations, &st->sparse_refactorizations);
}

const integ_ops integ_bdf_ops = {
    .setup = bdf_setup,
    .release = bdf_release,
    .restart = bdf_restart,
    .step = bdf_step,
    .dense = bdf_dense,
    .truncate = bdf_truncate,
    .resync = bdf_resync,
    .stats = bdf_stats,
    .locate = worst_component,
    .own_projection = 1,
};
