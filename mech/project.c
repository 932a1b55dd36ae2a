/* SPDX-License-Identifier: MIT */
/*
** Projection onto the constraints after accepted steps (mech_sim_options.project).
**
** Baumgarte stabilisation holds the Lagrange equations Phi(q, t) = 0 only where it balances the
** integrator's drift: tens of micrometres for a slider-crank at rtol 1e-6.  After a step the
** state is moved back onto them, each time by the least change in the metric of the mass
** matrix M (the kinetic energy of the change), over the velocity space u (q' = N(q) u):
**
**     positions   du = -M^-1 G^T (G M^-1 G^T)^-1 Phi,  q <- q (+) du   (Newton, G = Phi_q N)
**     velocities  du = -M^-1 G^T (G M^-1 G^T)^-1 (G u + Phi_t),  u <- u + du
**
** where (+) is the dimension's displacement (dim.h: q + du planar, a rotation of the quaternion
** by the rotation part spatial).  The rows G and Phi are those of the dynamics (joint_eval and
** driver_eval, constraints.h), and G M^-1 G^T is the reduced matrix of the constrained solve
** with the velocities without inertia left free (dynamics_least_change).  Newton is simplified:
** its iterations and the velocity step solve with the factors of the first (the Jacobian moved
** by |dq| / L, some 1e-9, between them: the velocity residual shrinks by that factor, not to
** rounding), which are the evaluation's own when the state is the one just evaluated.
** Quaternions are renormalised first, as without projection; a model with quaternions but no
** Lagrange equations has nothing more to project (project_wanted).
**
** The velocity projection can only take kinetic energy out (by |du|_M^2 / 2, second order in
** the violation); the position projection changes the potential by -Q . dq, first order in
** the violation, whose sign follows the drift's.  Both are of the size of the integration
** error they remove.  Between projections the joint forces do work on the drift that builds the
** violation up again, which Baumgarte stabilisation, holding a steady violation, gives back:
** projecting step ends only when their violation exceeds what the integrator accepts of a step
** (project_start) keeps that work, and the cost, small (mech_sim.h).
**
** A state whose equations hold within the tolerance (project_start) in the positions, and in
** the velocities to within it over the last step's length, is left as it is: after a step of an
** explicit method the check costs nothing (the rows of the step's last stage, at that very
** state: MODEL_PROJECT_EVALUATED), else one evaluation of the rows.  Everything here works in
** the system's workspaces and this module's (project_alloc): nothing is allocated while a run
** steps.
*/
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "constraints.h"
#include "dim.h"
#include "dynamics.h"
#include "project.h"
#include "registry.h"

/* Newton iterations on the positions at most, and the decrease below which it stops: a Newton
** step takes a violation of 1e-8 to 1e-16, where rounding takes over. */
#define MAX_ITER 8
#define STAGNANT 0.25
/* What an output may keep, and what Newton takes a violation down to (until rounding stops it):
** this fraction of the positions' absolute tolerance, 1e-13 m at atol 1e-9 m. */
#define CONVERGED 1e-4

struct project_work {
    double *b;      /* nrows: the rows' residuals */
    double *du;     /* nu: a least change */
    double tol;     /* a step end with violations above this is projected */
    double tol_out; /* an output with violations above this, and Newton's target */
    double tol_max; /* the positions' tolerance: Newton must end within it */
    double t_last;  /* the time of the last step end checked */
    double h;       /* the time since the one before: velocities' violations times h count */
    double *q_prev; /* nq: Newton's iterate before the last */
    mech_project_stats st;
};

int project_alloc(mech_system *sys)
{
    project_free(sys);
    struct project_work *w = mech_calloc(1, sizeof *w);
    if (w == NULL) return -1;
    w->b = mech_calloc((size_t)(sys->nrows > 0 ? sys->nrows : 1), sizeof(double));
    w->du = mech_calloc((size_t)(sys->nu > 0 ? sys->nu : 1), sizeof(double));
    w->q_prev = mech_calloc((size_t)(sys->nq > 0 ? sys->nq : 1), sizeof(double));
    sys->proj = w;
    if (w->b == NULL || w->du == NULL || w->q_prev == NULL) {
        project_free(sys);
        return -1;
    }
    return 0;
}

void project_free(mech_system *sys)
{
    struct project_work *w = sys->proj;
    if (w == NULL) return;
    mech_free(w->b);
    mech_free(w->du);
    mech_free(w->q_prev);
    mech_free(w);
    sys->proj = NULL;
}

int project_wanted(const mech_system *sys)
{
    return sys->nrows > 0;
}

/* omega [1/s] of a rate: *w grows to it (a NaN leaves it). */
static void faster(double *w, double rate)
{
    *w = fmax(*w, fabs(rate));
}

double project_period(mech_system *sys, double L)
{
    double w = 0;
    const double *v = sys->y0 + sys->nq;
    for (int i = 0; i < sys->ndrivers; i++) {
        driver *d = &sys->drivers[i];
        /* a motion function's speed at the start (one that fails there fails the run's start) */
        if (driver_motion(sys, d, 0.0) != 0) continue;
        double speed = d->motion[1];
        if (d->type != MECH_DRIVE_JOINT_DISTANCE)
            faster(&w, speed);
        else if (L > 0)
            faster(&w, speed / L);
    }
    for (int b = 1; b < sys->nbodies; b++) {
        const body *bd = &sys->bodies[b];
        const double *u = v + bd->u_at;
        double speed = hypot(u[0], u[1]);
        if (bd->nu == 3) faster(&w, u[2]); /* a planar body's omega */
        if (bd->nu == 6) {                 /* a spatial body's vz and omega */
            speed = hypot(speed, u[2]);
            faster(&w, hypot(hypot(u[3], u[4]), u[5]));
        }
        if (L > 0) faster(&w, speed / L);
    }
    double g = hypot(hypot(sys->gravity[0], sys->gravity[1]), sys->gravity[2]);
    if (L > 0) faster(&w, sqrt(g / L));
    return w > 0 && isfinite(w) ? 2 * 3.14159265358979323846 / w : INFINITY;
}

void project_start(mech_system *sys, double atol, double rtol, double L, int strict, double t0)
{
    struct project_work *w = sys->proj;
    memset(&w->st, 0, sizeof w->st);
    w->tol_out = CONVERGED * atol;
    w->tol_max = atol + rtol * L;
    w->tol = strict ? w->tol_out : w->tol_max;
    w->t_last = t0;
    w->h = 0;
}

void project_get_stats(const mech_system *sys, mech_project_stats *out)
{
    *out = ((const struct project_work *)sys->proj)->st;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The largest |Phi| of the rows in sys->cr. */
static double largest_phi(const mech_system *sys)
{
    double worst = 0;
    for (int r = 0; r < sys->nrows; r++) worst = fmax(worst, fabs(sys->cr[r].phi));
    return worst;
}

/* The row with the largest |Phi|. */
static int worst_row(const mech_system *sys)
{
    int worst = 0;
    for (int r = 1; r < sys->nrows; r++)
        if (fabs(sys->cr[r].phi) > fabs(sys->cr[worst].phi)) worst = r;
    return worst;
}

/*
** project_state once the quaternions are unit.  With MODEL_PROJECT_EVALUATED the rows in
** sys->cr, the drivers' motions, the mass blocks and the constrained solve's factors
** (sys->factored) are those of the last evaluation, of this state: the check costs nothing, and
** the first least change solves with those factors.  Newton is simplified: every iteration
** solves with the factors of the first (the Jacobian moves by |dq| / L, some 1e-9, between
** them).  *clock is when the work began (0: not yet; a check of an evaluated state is free).
*/
static int project_rows(mech_system *sys, struct project_work *w, double t, double *q, double *u,
                        int flags, double *clock)
{
    const dim_ops *dops = sys->dops;
    const int nr = sys->nrows, output = flags & MODEL_PROJECT_OUTPUT;
    const double tol = output ? w->tol_out : w->tol;
    if (!output) {
        w->h = fabs(t - w->t_last);
        w->t_last = t;
    }
    int begun = 0, factor = 1, fast = 0;
    if (!(flags & MODEL_PROJECT_EVALUATED)) {
        dops->begin(sys, q);
        begun = 1;
        if (dynamics_rows(sys, t, q, u, 1) != 0) {
            dops->end(sys);
            return -1;
        }
    } else if (sys->factored >= 0) {
        factor = 0;
        fast = sys->factored;
    }
    double viol = largest_phi(sys), rate = 0;
    for (int r = 0; r < nr; r++) rate = fmax(rate, fabs(dynamics_row_rate(sys, r, u)));
    if (!output) {
        w->st.violation = fmax(w->st.violation, viol);
        w->st.velocity = fmax(w->st.velocity, rate);
    }
    if (!isfinite(viol + rate)) {
        if (begun) dops->end(sys);
        mech_error_set(&sys->last_err, MECH_ERR_NUMERIC,
                       "projection: the constraint equations are not finite at t = %.9g", t);
        return -1;
    }
    if (!(viol > tol) && !(rate * w->h > tol)) {
        if (begun) dops->end(sys);
        return 0;
    }
    if (*clock == 0) *clock = now();
    int it = 0;
    double before = INFINITY;
    /* Newton to tol_out, or until it stops gaining (rounding: the rows of a crank that has
    ** turned 5000 rad round to 1e-12 rad) */
    while (viol > w->tol_out && viol < STAGNANT * before && it < MAX_ITER) {
        for (int r = 0; r < nr; r++) w->b[r] = sys->cr[r].phi;
        if (dynamics_least_change(sys, t, factor, &fast, w->b, w->du) != 0) {
            if (begun) dops->end(sys);
            return -1;
        }
        factor = 0;
        if (begun) dops->end(sys);
        memcpy(w->q_prev, q, sizeof(double) * (size_t)sys->nq);
        dops->displace(sys, q, w->du);
        it++;
        dops->begin(sys, q);
        begun = 1;
        dynamics_rows(sys, t, q, u, 0);
        before = viol;
        viol = largest_phi(sys);
    }
    if (viol > before) { /* the last iterate is the worse (rounding): the one before it */
        dops->end(sys);
        memcpy(q, w->q_prev, sizeof(double) * (size_t)sys->nq);
        dops->begin(sys, q);
        dynamics_rows(sys, t, q, u, 0);
        viol = before;
    }
    w->st.iterations += it;
    if (!(viol <= w->tol_max)) { /* not even within the positions' tolerance */
        char what[160];
        dynamics_describe_column(sys, worst_row(sys), what, sizeof what);
        if (begun) dops->end(sys);
        mech_error_set(&sys->last_err, MECH_ERR_CONVERGENCE,
                       "projection onto the constraints: no convergence at t = %.9g after %d "
                       "iterations (%s violated by %.3g)",
                       t, it, what, viol);
        return -1;
    }
    for (int r = 0; r < nr; r++) w->b[r] = dynamics_row_rate(sys, r, u);
    int rc = dynamics_least_change(sys, t, factor, &fast, w->b, w->du);
    if (begun) dops->end(sys);
    if (rc != 0) return -1;
    for (int c = 0; c < sys->nu; c++) u[c] += w->du[c];
    if (output)
        w->st.outputs++;
    else
        w->st.projections++;
    return 1;
}

int project_state(void *ctx, double t, double *y, int flags)
{
    mech_system *sys = ctx;
    struct project_work *w = sys->proj;
    /* the clock runs from the start unless the check is free (an evaluated state) */
    double clock = flags & MODEL_PROJECT_EVALUATED ? 0 : now();
    if (!(flags & MODEL_PROJECT_OUTPUT)) w->st.checks++;
    double *q = y, *u = y + sys->nq;
    int rc = 0;
    if (sys->dops->normalize && sys->dops->normalize(sys, q) < 0) {
        mech_error_set(&sys->last_err, MECH_ERR_NUMERIC,
                       "projection: an orientation is not finite or zero at t = %.9g", t);
        rc = -1;
    }
    if (rc == 0 && sys->nrows > 0) rc = project_rows(sys, w, t, q, u, flags, &clock);
    if (clock != 0) w->st.time += now() - clock;
    return rc;
}
