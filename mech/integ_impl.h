/* SPDX-License-Identifier: MIT */
/*
** Private declarations shared by the integrators: integ.c holds the life cycle, the step
** driver with the event logic and the explicit Runge-Kutta methods; integ_bdf.c plugs
** CVODE into the same driver through an integ_ops table.
**
** The driver keeps three copies of each per-step vector and rotates pointers on
** acceptance: (t0, y0, f0, g0) is the start of the last accepted step, (t1, y1, f1, g1)
** its end (the current state), and (tn, yn, fn, gn) the step being attempted.  A method's
** step function reads the current state and writes the attempt; nothing is committed
** until the driver has checked it, so a failure leaves the last accepted step intact.
*/
#ifndef MECH_INTEG_IMPL_H
#define MECH_INTEG_IMPL_H

#include "mech_integ.h"

/*
** Per-method operations.  step: one accepted step from (t1, y1, f1) towards t_stop,
** writing tn, yn (and fn, rcn for the Runge-Kutta methods).  dense: y(t) for t strictly
** inside (t0, t1).  truncate: the state at t in [t0, t1] into yn (and fn, rcn), with no
** other effect: event location uses it too.  restart: the state (t1, y1, f1) was set from
** outside (init when fresh, else reinit); forget the history.  resync: the current state
** was moved back (truncation) or a failed step left a solver that keeps its own state
** (CVODE) ahead of it; start again from (t1, y1).  stats: adds the method's own counters.
** reproject: the option project moved the end yn of a step of length h from (ya, fa): form
** again what the method derives from it (DOPRI5's dense output).  own_projection: the method
** applies the option project inside its own solver (BDF: CVODE's projection), not the driver.
** NULL entries do nothing.
*/
typedef struct integ_ops {
    mech_status (*setup)(mech_integ *s, mech_error *err);
    void (*release)(mech_integ *s);
    mech_status (*restart)(mech_integ *s, int fresh, mech_error *err);
    mech_status (*step)(mech_integ *s, double t_stop, mech_error *err);
    mech_status (*dense)(mech_integ *s, double t, double *y);
    mech_status (*truncate)(mech_integ *s, double t, mech_error *err);
    void (*resync)(mech_integ *s);
    void (*stats)(const mech_integ *s, mech_integ_stats *st);
    void (*locate)(mech_integ *s); /* sets fault to the largest error of the last step */
    void (*reproject)(mech_integ *s, const double *ya, const double *fa, double h);
    int own_projection;
} integ_ops;

struct mech_integ {
    int n, nev;
    mech_integ_options opt; /* validated copy; opt.atol_vec is not kept (see atol), opt.nu is
                            ** set (0 became second_order) */
    const integ_ops *ops;
    mech_rhs_fn f;
    void *ctx;
    mech_event_fn g;
    int *dir;  /* nev wanted directions (0 = both) */
    int ready; /* mech_integ_init succeeded */

    double t0, t1, tn;
    double *y0, *y1, *yn, *f0, *f1, *fn;
    double *g0, *g1, *gn, *gw; /* event values; gw: work for root finding */
    double *gmem;              /* the block the g vectors live in */
    double *yw;                /* work: dense state during root finding */
    double *atol;              /* n absolute tolerances */
    double *ys, *k;            /* Runge-Kutta stage input and stages (k2.. of the method) */
    double *rc, *rcn;          /* DOPRI5 dense-output coefficients, 5n each */
    double *mem;               /* the block all other vectors above live in */

    double h;      /* adaptive: next step size to try (0 = estimate it) */
    double errold; /* DOPRI5: error norm of the last accepted step (PI control) */
    int rejected;  /* DOPRI5: the last attempt was rejected (no growth) */
    double tgrid;  /* fixed steps: the grid is tgrid + k*h */

    /* stiffness test of the explicit methods (integ.c): stiff counts the steps whose
    ** estimate of h |lambda| was beyond the method's stability limit since the last run of
    ** steps within it; nonstiff is the length of the current such run */
    int stiff, nonstiff;
    double hlamb;  /* the largest estimate of those steps (0 when there are none) */
    int collapsed; /* DOPRI5: accepted steps in a row shorter than COLLAPSE_ULPS units of t */

    int fault; /* component behind the last failure or largest error, -1 if none */

    mech_integ_event *events;
    int nevents;
    mech_integ_stats stats;
    void *bdf; /* integ_bdf.c private state */
};

extern const integ_ops integ_bdf_ops;

/// Index of the first non-finite of v[0..n-1], or -1.
int integ_nonfinite(int n, const double *v);

#endif
