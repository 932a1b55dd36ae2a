/* SPDX-License-Identifier: MIT */
/*
** libmech integrators: one interface over three methods for y' = f(t, y).
**
**   MECH_RK4     classic fourth-order Runge-Kutta with a fixed step h (what the source
**                papers use); dense output by cubic Hermite interpolation between step
**                ends (the derivative at the new end is the first stage of the next step,
**                so it costs nothing).
**   MECH_DOPRI5  Dormand-Prince 5(4), adaptive (rtol, atol, hmax) with the method's
**                fourth-order continuous extension for dense output; with `fixed` set it
**                takes fixed steps of size h (used to measure its order).
**   MECH_BDF     CVODE (SUNDIALS) variable-order BDF with Newton iterations on the
**                velocities and other states only when the option second_order says
**                q' = N(q) u (q' = u by default); dense output through CVodeGetDky.  For
**                stiff systems.  Its Jacobian is made of difference quotients, column by
**                column, or, given the structure of the Jacobian (the option jacobian: which
**                rates depend on which states, and a part known in closed form), one
**                right-hand side per group of columns that no rate shares; its Newton
**                systems are solved by a dense LU, or by a sparse one (KLU) when they are
**                large and sparse (the option newton).
**
** Life cycle (SUNDIALS style): mech_integ_create, mech_integ_set_events (optional),
** mech_integ_init, then mech_integ_step repeatedly, reading mech_integ_time,
** mech_integ_state and mech_integ_dense; mech_integ_free.  Nothing is allocated after
** mech_integ_init (the BDF method allocates inside CVODE at init only, and its sparse Newton
** solver when it must choose new pivots: see mech_integ_stats.sparse_factorizations).
**
** Events: g_k(t, y), k = 0..nev-1.  After each accepted step the integrator compares the
** signs of g at both ends of the step; for each sign change (in the wanted direction) it
** locates the crossing time by root finding on the dense output (Illinois/Anderson-Bjorck
** or Brent) to within `event_tol` in time.  Located events are reported through
** mech_integ_events, earliest first.  The caller may then call mech_integ_truncate to
** move the solution back to the earliest event (the step is redone exactly to that
** time, so the state has the method's full accuracy there) and optionally
** mech_integ_reinit to change the state and restart (contact onsets, impacts).
*/
#ifndef MECH_INTEG_H
#define MECH_INTEG_H

#include "mech_core.h"

typedef enum mech_method {
    MECH_RK4 = 0,
    MECH_DOPRI5 = 1,
    MECH_BDF = 2,
} mech_method;

/// Name of a method ("rk4", "dopri5", "bdf").
const char *mech_method_name(mech_method m);

/*
** Right-hand side: fill ydot = f(t, y).  Return 0 on success; a positive value asks an
** adaptive method to retry with a smaller step (RK4 treats it as failure); a negative
** value is a fatal failure, after which the integrator returns MECH_ERR_CALLBACK and the
** callback's own error report (kept by the caller) explains it.
*/
typedef int (*mech_rhs_fn)(void *ctx, double t, const double *y, double *ydot);

/*
** Event functions: fill g[0..nev-1] = g_k(t, y).  Same return convention as mech_rhs_fn.
*/
typedef int (*mech_event_fn)(void *ctx, double t, const double *y, double *g);

/*
** Kinematic map of a second-order system y = (q, u, w): fill qdot = N(q) u, N(q) a matrix of
** second_order rows and nu columns, linear in u (for a unit quaternion e and the angular
** velocity omega in body axes, the quaternion product e' = 1/2 e (0, omega)).  The
** right-hand side computes q' = N(q) u too: BDF calls the map only for the columns N(q) e_k
** of its Newton matrices, so a map that disagrees with f slows its Newton iterations down but
** does not change the solution.  Same return convention as mech_rhs_fn.
*/
typedef int (*mech_kinematic_fn)(void *ctx, const double *q, const double *u, double *qdot);

/*
** Projection of a state onto what it must satisfy (unit quaternions, constraints): moves y in
** place by no more than the integrator's error.  Returns 0 when the move changes no force and
** no motion (the spatial system reads every orientation as A(e / |e|), so renormalising e is
** such a move), 1 when it moved the state otherwise (onto the constraints), or < 0 when y
** cannot be projected (then the step fails as a callback failure would).
*/
typedef int (*mech_project_fn)(void *ctx, double t, double *y);

/*
** BDF's Jacobian with the model's help.  f(t, y) = the right-hand side; g a function whose
** Jacobian differs from f's, at the point where it is asked for, by a matrix L that the model
** knows in closed form (a linear force element such as a finite-element mesh, held at its value
** at that point in g): df/dy = dg/dy + L there.  BDF calls linearize(ctx, t, y, gdot, lval)
** once per Jacobian at its point (t, y): it writes g(t, y) into gdot (n values) and L's
** values into lval, in the order of L's pattern; then remainder(ctx, t, y', gdot) at the
** perturbed points y' of the difference quotients, where g must be the g of that point.
** Without a linear part (linearize NULL, L's pattern empty) g is f itself and remainder is
** not called.  Both return as a mech_rhs_fn.
**
** The patterns are compressed columns over the n states: column j's rows are
** rowind[colptr[j] .. colptr[j + 1]), ascending; g's pattern holds every (i, j) where
** dg_i/dy_j may be non-zero at any state (a superset is correct, only slower).  Columns of
** the pattern that share no row go into one difference quotient (Curtis, Powell and Reid).
** A state that no rate depends on (its column of the pattern of g and of L is empty: an
** energy account) has its row left out of the Newton matrices, so that the corrector
** iterates it by substitution (nothing else reads it).
*/
typedef int (*mech_linearize_fn)(void *ctx, double t, const double *y, double *gdot, double *lval);

typedef struct mech_jac_structure {
    const int *colptr;                  ///< g's pattern: n + 1 column starts
    const int *rowind;                  ///< ... and the rows of each column
    const int *lin_colptr, *lin_rowind; ///< L's pattern (NULL: no linear part)
    mech_linearize_fn linearize;        ///< g and L at the Jacobian's point (NULL: g = f)
    mech_rhs_fn remainder;              ///< g at the perturbed points
    void *ctx;                          ///< first argument of linearize and remainder
} mech_jac_structure;

/// BDF's Newton solver (mech_integ_options.newton, mech_integ_stats.newton).
typedef enum mech_newton {
    MECH_NEWTON_AUTO = 0,   ///< options: chosen by the size and fill of the Newton matrix
    MECH_NEWTON_DENSE = 1,  ///< dense LU with partial pivoting
    MECH_NEWTON_SPARSE = 2, ///< sparse LU (KLU): analysed once, refactored at each setup
} mech_newton;

/// Name of a Newton solver option: "auto", "dense", "sparse".
const char *mech_newton_name(mech_newton n);

/// Options of an integrator.  Start from mech_integ_default_options().
typedef struct mech_integ_options {
    mech_method method;
    double h;      ///< RK4 and fixed DOPRI5: the step [s]; adaptive: first step (0 = automatic)
    double hmax;   ///< adaptive: largest step [s] (0 = no limit)
    int max_order; ///< BDF only: highest order, 1 to 5 (0 = 5, CVODE's own limit)
    double rtol;   ///< adaptive: relative tolerance (default 1e-6)
    double atol;   ///< adaptive: absolute tolerance (default 1e-9)
    const double *atol_vec; ///< adaptive: per-component absolute tolerances (NULL = atol)
    int fixed;              ///< DOPRI5 only: take fixed steps of size h, no error control
    double event_tol; ///< events are located to within this time [s] (0 = 1e-12*max(1 s, |t|))
    double max_steps; ///< most steps a run may take (0 = MECH_MAX_STEPS; INFINITY: no limit)
    int second_order; ///< number nq of leading position states q whose derivative is the
                      ///< kinematic map of the next nu states u: y = (q, u, w), q' = N(q) u
                      ///< (without a map q' = u exactly: f_i(t, y) = y[nq + i] for i < nq);
                      ///< 0: none.  Lets BDF solve its Newton systems on (u, w) only (size
                      ///< N - nq instead of N; same solution up to rounding).  Ignored by RK4
                      ///< and DOPRI5.  0 <= second_order + nu <= N (the number of equations).
    int nu; ///< number of velocity states u after the positions (0: nu = second_order, the
            ///< only choice without a kinematic map).  Needs second_order > 0.
    mech_kinematic_fn kinematic;    ///< q' = N(q) u for BDF's Newton matrices (NULL: q' = u,
                                    ///< N the identity, which needs nu = second_order)
    void *kinematic_ctx;            ///< first argument of kinematic
    mech_project_fn project;        ///< applied to the state after every accepted step (RK4 and
                                    ///< DOPRI5: to the new step end, their last stage kept but
                                    ///< for the positions' rates when it returns 1, and the
                                    ///< step's dense output formed again to end on it; BDF:
                                    ///< through CVODE's projection, CVodeSetProjFn); NULL: none
    void *project_ctx;              ///< first argument of project and project_output
    mech_project_fn project_output; ///< applied to every value of the dense output and to the
                                    ///< state a truncation gives (in place of project there);
                                    ///< events are located on the values it gives; NULL: the
                                    ///< dense output is the interpolant as it is
    const mech_jac_structure *jacobian; ///< BDF: the structure of the Jacobian (NULL: none,
                                        ///< difference quotients column by column); copied by
                                        ///< mech_integ_create, the arrays and the ctx it points
                                        ///< to must outlive the integrator
    mech_newton newton; ///< BDF: the Newton solver (MECH_NEWTON_AUTO: sparse for large sparse
                        ///< systems; the sparse one needs the jacobian structure and q' = u)
} mech_integ_options;

/// Statistics since mech_integ_init.
typedef struct mech_integ_stats {
    long steps;        ///< accepted steps
    long rejected;     ///< rejected steps (error test or convergence failures)
    long rhs_evals;    ///< right-hand-side evaluations (including Jacobian approximation)
    long jac_evals;    ///< Jacobian evaluations (BDF only)
    long newton_iters; ///< Newton iterations of the corrector (BDF only)
    long newton_fails; ///< corrector convergence failures (BDF only): those that a fresh
                       ///< Jacobian does not cure also reject the step (in rejected)
    long events;       ///< events located (each crossing once: see mech_integ_truncate)
    double h_last;     ///< size of the last accepted step [s]
    int newton;        ///< BDF: the Newton solver used (MECH_NEWTON_DENSE or _SPARSE); 0 else
    int jac_groups;    ///< BDF: groups of columns of a Jacobian, one right-hand side each
                       ///< (the states when column by column; a linear part costs one more)
    int jac_linear;    ///< BDF: Jacobian entries given in closed form (L's, in the Newton rows)
    long sparse_factorizations;   ///< BDF, sparse Newton: factorizations that chose pivots (one
                                  ///< at setup; more only when refactoring with those pivots
                                  ///< lost accuracy, each allocating inside KLU)
    long sparse_refactorizations; ///< BDF, sparse Newton: factorizations that kept the pivots
                                  ///< of the last one (allocating nothing)
} mech_integ_stats;

/// One located event.
typedef struct mech_integ_event {
    int index;     ///< which event function, 0..nev-1
    int direction; ///< +1 rising (g went from < 0 to >= 0), -1 falling
    double t;      ///< located time, just after the crossing (g already has its new sign)
} mech_integ_event;

typedef struct mech_integ mech_integ;

mech_integ_options mech_integ_default_options(void);

/*
** Creates an integrator for n equations.  Checks the options (a positive finite h for
** RK4 and fixed DOPRI5, positive tolerances, n > 0) and fills err naming the option at
** fault.  *out is NULL on failure.
*/
mech_status mech_integ_create(mech_integ **out, int n, const mech_integ_options *opt, mech_rhs_fn f,
                              void *ctx, mech_error *err);

void mech_integ_free(mech_integ *integ);

/*
** Declares nev event functions evaluated by g.  direction (may be NULL: both ways) gives
** per event +1 (only rising crossings), -1 (only falling) or 0 (both).  Must be called
** before mech_integ_init.
*/
mech_status mech_integ_set_events(mech_integ *integ, int nev, mech_event_fn g, const int *direction,
                                  mech_error *err);

/// Sets the initial time and state (copied); evaluates f and g there.
mech_status mech_integ_init(mech_integ *integ, double t0, const double *y0, mech_error *err);

/*
** Takes one accepted step, never past t_stop (the last step is shortened to land on it
** exactly).  Returns MECH_OK, or a failure with err naming the time and the cause:
** MECH_ERR_STEPSIZE (adaptive step size underflow; or DOPRI5's step has collapsed: 15
** accepted steps in a row shorter than 1e4 rounding units of t, and the message says when
** the stiffness test explains it), MECH_ERR_NUMERIC (non-finite state or derivative, or a
** derivative too large for the tolerances), MECH_ERR_CALLBACK (f or g returned a negative
** value), MECH_ERR_CONVERGENCE (repeated BDF corrector or error-test failures).  After a
** failure the state is the last accepted one and mech_integ_fault names a component.
** Events found in the step are available afterwards through mech_integ_events.
*/
mech_status mech_integ_step(mech_integ *integ, double t_stop, mech_error *err);

/// Current time (end of the last accepted step).
double mech_integ_time(const mech_integ *integ);

/// Current state (n values, owned by the integrator, valid until the next call).
const double *mech_integ_state(const mech_integ *integ);

/// Start time of the last accepted step (equals the current time before any step).
double mech_integ_prev_time(const mech_integ *integ);

/*
** Dense output: y(t) for t in [mech_integ_prev_time, mech_integ_time], written to y
** (n values).  At the ends it returns the step values exactly, and everywhere the option
** project_output (if set) is applied to the value: MECH_ERR_CALLBACK when that fails (the
** callback's owner keeps the reason).  MECH_ERR_ARG if t is outside the last step (by more
** than a rounding tolerance).
*/
mech_status mech_integ_dense(mech_integ *integ, double t, double *y);

/*
** Events located in the last step, earliest first: returns their count and sets *events
** (owned by the integrator, valid until the next step).
*/
int mech_integ_events(const mech_integ *integ, const mech_integ_event **events);

/*
** Moves the solution back to time t inside the last step (normally the earliest event
** time) by redoing the step from its start to t (RK4, DOPRI5) or by interpolation and
** restart (BDF).  Afterwards mech_integ_time() == t and the event signs are those at t.
** The caller has delivered the events of the step located at or before t.  Of those
** located after t, the ones whose functions have already crossed at t (a tie within the
** location tolerance, such as two functions with the same root) stay listed by
** mech_integ_events, at time t, for the caller to deliver; the others are dropped and no
** longer counted in the statistics (the next steps find them again if they still happen).
** So every crossing is reported once.
*/
mech_status mech_integ_truncate(mech_integ *integ, double t, mech_error *err);

/*
** Restarts at time t from state y (copied): forgets the step history (adaptive step
** size is kept as a first guess) and re-evaluates f and g.  For discontinuities.
*/
mech_status mech_integ_reinit(mech_integ *integ, double t, const double *y, mech_error *err);

/*
** After a failure: the state component at fault (the non-finite one, or for the other
** failures the one with the largest error estimate in the last attempt), -1 when unknown.
*/
int mech_integ_fault(const mech_integ *integ);

/*
** The stiffness test of the explicit methods (Hairer and Wanner's, as in their DOPRI5): two
** stages at the same time estimate h |lambda| at every accepted step.  Sets *steps (may be
** NULL) to how many recent steps had it beyond the method's stability limit (DOPRI5 3.25,
** RK4 2.75; 6 steps in a row within it reset the count) and returns the largest estimate of
** those steps (0 when there are none).  15 such steps say that the problem is stiff for the
** method: DOPRI5's steps are then held by stability, RK4's step is too long for it.  0 and
** 0 for BDF.
*/
double mech_integ_stiffness(const mech_integ *integ, int *steps);

/// The stability limits of the stiffness test: h |lambda| beyond them counts as stiff.
#define MECH_STIFF_LIMIT_DOPRI5 3.25
#define MECH_STIFF_LIMIT_RK4    2.75

/*
** The most steps a run may take unless its options' max_steps says otherwise: a fixed step h
** or a largest step hmax that needs more to cover the run is refused before it starts
** (mech_integ_check_span), and an adaptive run fails when it takes more or, from
** MECH_PACE_STEPS steps on, would need more at the pace of its steps so far
** (mech_integ_check_pace).  At a microsecond a step that is twenty minutes of work, and
** seven right-hand sides a step make it hours.
*/
#define MECH_MAX_STEPS  1e9
#define MECH_PACE_STEPS 100000

/*
** Checks that integrating from t0 to t_end with these options can end: RK4 and fixed DOPRI5
** take (t_end - t0) / h steps (and h must not be longer than t_end - t0), DOPRI5 and BDF at
** least (t_end - t0) / hmax; more than opt->max_steps is MECH_ERR_ARG with err naming the
** option (as mechlua names it: h, max_step), the count and what to do.  The caller checks
** that t0 < t_end are finite.
*/
mech_status mech_integ_check_span(const mech_integ_options *opt, double t0, double t_end,
                                  mech_error *err);

/*
** After `steps` accepted steps of a run from t0 have reached t (t0 < t < t_end): fails
** (MECH_ERR_STEPSIZE, err saying so) when steps exceed opt->max_steps or, from
** MECH_PACE_STEPS steps on, when going on to t_end at the average pace so far,
** (t - t0) / steps per step, would take more than opt->max_steps steps in all.  For adaptive
** methods, whose number of steps no option sets (a huge t_end, a step held tiny by a stiff
** law or a discontinuity).
*/
mech_status mech_integ_check_pace(const mech_integ_options *opt, long steps, double t0, double t,
                                  double t_end, mech_error *err);

/// The step limit of these options: max_steps, or MECH_MAX_STEPS when it is 0.
double mech_integ_max_steps(const mech_integ_options *opt);

/*
** After a run is stopped for its pace: points mech_integ_fault at the component with the
** largest weighted error of the last step (the one that holds the step down), or -1.
*/
void mech_integ_locate_limiting(mech_integ *integ);

/// Statistics since mech_integ_init (accumulated across reinit).
mech_integ_stats mech_integ_get_stats(const mech_integ *integ);

/// Number of equations.
int mech_integ_size(const mech_integ *integ);

#endif
