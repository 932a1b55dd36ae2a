/* SPDX-License-Identifier: MIT */
/*
** The model interface: what the simulator (sim.c, lyapunov.c) knows of a system, as
** integ_ops is what the simulator knows of an integrator.  A model is a table of operations
** and a context, with its sizes.  Its state is
**
**     y = (q[nq], u[nu], w[nstate - nq - nu])
**
** positions q, velocities u with q' = N(q) u (the identity for the planar system, where
** nq = nu = 3 per body; a quaternion per body will make nq = 7, nu = 6 for the spatial one),
** and the rest w: first-order states that follow (driver works, energy accounts, bristle
** states).  The model also owns event functions of its own (nevents of them: contact
** onsets and ends), whose crossings the simulator locates and hands back to it.
**
** Every operation takes the model's ctx.  The user's callbacks of a run (channels, events)
** still get the public mech_system handle, which the simulator passes through unopened.
** system_model.c implements the interface for the planar mech_system.
*/
#ifndef MECH_MODEL_H
#define MECH_MODEL_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "mech_integ.h"
#include "mech_sim.h"

/* Runs stop when a position goes farther than this many times the model's scale (by
** default), or when its energy balance is off by this many times what it was given. */
#define MODEL_RUNAWAY_FACTOR 1e6

/* The bounds a run checks its states against (model_limits). */
typedef struct model_limits {
    double bound; /* the largest |position| an accepted step may reach [m] (inf: none) */
    double scale; /* the model's length scale, 0 when the user's max_distance set bound */
    double elen;  /* the length of the energy check (inf: no check) */
} model_limits;

/* Flags of model_ops.constrain: the model's last evaluation (rhs) was of this very state y at
** t, so what it computed of the constraints is current; y is a value of the dense output (an
** output: its violation is taken down to rounding, not to tol). */
enum { MODEL_PROJECT_EVALUATED = 1, MODEL_PROJECT_OUTPUT = 2 };

/* What the accepted-step hook says (model_ops.step_accepted). */
enum { MODEL_STEP_FAILED = -1, MODEL_STEP_KEPT = 0, MODEL_STEP_CHANGED = 1 };

typedef struct mech_model mech_model;

typedef struct model_ops {
    /*
    ** Makes the model ready to run and fills m's sizes and y0 (the planar system:
    ** mech_system_finalize).  Nothing else but refuse_lyapunov may be called before it.
    */
    mech_status (*prepare)(mech_model *m, mech_error *err);

    /* ---- equations -------------------------------------------------------------------- */
    /*
    ** y' = f(t, y) over the whole state, a mech_rhs_fn (ctx = the model's ctx, so the
    ** integrator may call it directly): 0 done, > 0 retry with a smaller step, < 0 failed;
    ** on failure the reason is kept for last_error.  Keeps nothing for the channels.
    */
    mech_rhs_fn rhs;
    /*
    ** Full evaluation at (t, y): what rhs computes and all that the channels read (forces,
    ** reactions, energies), kept until the next full evaluation or forget.  y must stay
    ** valid as long as channels are read.  MECH_OK, or the reason in err (and last_error).
    */
    mech_status (*evaluate)(void *ctx, double t, const double *y, mech_error *err);
    /* The states evaluated are about to be freed: nothing is left for the channels to read
    ** (they read NaN until the next full evaluation). */
    void (*forget)(void *ctx);
    /* Whether the full evaluations that follow compute the stored energies that cost more
    ** than the forces (the box joint's area laws integrate theirs); on at the start.  A run
    ** turns them off for the evaluations of its events when no event reads an energy.  NULL:
    ** none costs. */
    void (*costly_energy)(void *ctx, int on);
    /*
    ** The kinematic map q' = N(q) u: writes the nq position rates of positions q and
    ** velocities u into qdot; 0 done, > 0 retry with a smaller step, < 0 failed (as rhs).
    ** A mech_kinematic_fn (ctx = the model's ctx), handed to the integrators for BDF's
    ** second-order structure.  NULL: the identity (nq == nu, q' = u).
    */
    mech_kinematic_fn kinematics;
    /*
    ** Projects a state onto what its positions must satisfy by themselves (unit quaternions),
    ** in place: a mech_project_fn (ctx = the model's ctx) the integrators apply after every
    ** accepted step.  NULL: nothing to project.
    */
    mech_project_fn normalize;
    /*
    ** The structure of the Jacobian of rhs for BDF (mech_jac_structure: the pattern of its
    ** rates' dependences and a part in closed form), into js, valid until the model changes;
    ** its functions take the model's ctx.  NULL: none (difference quotients column by column).
    */
    mech_status (*jacobian)(void *ctx, mech_jac_structure *js, mech_error *err);

    /* ---- projection onto the constraints (mech_sim_options.project) ------------------- */
    /*
    ** Whether the model has anything to project after steps (constraints), and
    ** its characteristic period [s] (INFINITY: none), from the start y0: a run longer than
    ** MECH_PROJECT_PERIODS of them is projected by MECH_PROJECT_AUTO.  NULL: never projected.
    */
    int (*projectable)(const void *ctx);
    double (*period)(void *ctx);
    /*
    ** Starts the projections of a run from t0 (their counts from zero) at the positions'
    ** tolerances atol and rtol (strict: every step end is taken onto the constraints as an
    ** output is, for BDF, whose history takes in each correction); constrain then projects a
    ** state y at t in place of normalize (a mech_project_fn's returns: 1 moved, 0 not, < 0
    ** failed, the reason in last_error), with the flags MODEL_PROJECT_*; project_stats says what
    ** it did since (the fields but on and period).
    */
    void (*project_start)(void *ctx, double atol, double rtol, int strict, double t0);
    int (*constrain)(void *ctx, double t, double *y, int flags);
    void (*project_stats)(const void *ctx, mech_project_stats *out);

    /* ---- the model's own events ------------------------------------------------------- */
    /* The nevents event functions at state y into g (contact gaps: a crossing of 0 is an
    ** onset or an end).  No full evaluation is needed, none is made. */
    void (*event_values)(void *ctx, double t, const double *y, double *g);
    /* Sets the events' history from the state y a run starts from (which contacts touch). */
    void (*events_start)(void *ctx, double t, const double *y);
    /*
    ** Event k was located at (t, y): updates its history, and may change y in place (a
    ** contact's bristle state starts again at an onset).  Returns 1 when the right-hand
    ** side changed from t on, so that the integrator must restart from (t, y); else 0.
    */
    int (*event_crossed)(void *ctx, int k, double t, double *y);
    /*
    ** MECH_OK when mech_lyapunov can run the model (which locates no event), else its
    ** refusal in err.  May be called before prepare.
    */
    mech_status (*refuse_lyapunov)(void *ctx, mech_error *err);

    /* ---- checks of a run -------------------------------------------------------------- */
    /*
    ** Called with every accepted step's end state y at t (read only), with the run's
    ** limits.  MODEL_STEP_KEPT: go on.  MODEL_STEP_FAILED: the state cannot go on (the
    ** planar system: a position beyond lim->bound), the reason in why.
    ** MODEL_STEP_CHANGED: the hook wrote the whole changed state into ynew (nstate values,
    ** say quaternions renormalised), and the simulator restarts the integrator from it.
    */
    int (*step_accepted)(void *ctx, const model_limits *lim, double t, const double *y,
                         double *ynew, char *why, size_t size);
    /*
    ** At a recorded row, right after the full evaluation of state y: 1 with the reason in
    ** why when its energy balance is off by more than MODEL_RUNAWAY_FACTOR times what the
    ** model was given (initial energy, gravity over the length L, works of inputs), else 0.
    */
    int (*energy_runaway)(void *ctx, const double *y, double L, char *why, size_t size);
    /*
    ** The length scale of a run to t_end [m]: the model's lengths and how far its start
    ** could carry it in t_end.  Reads the evaluation of y0 (called right after the start).
    */
    double (*scale)(void *ctx, double t_end);
    /*
    ** Absolute tolerances per state component into out (nstate values): `given` if not
    ** NULL, else atol for q and u and what the model finds right for the rest.
    */
    void (*atol)(void *ctx, double atol, const double *given, double *out);

    /* ---- words ------------------------------------------------------------------------ */
    /* One-line description of state component i ("body 'rod' omega") into buf. */
    void (*describe_state)(const void *ctx, int i, char *buf, size_t size);
    /* Appends to buf (a failure that state component i was behind) what the model knows to
    ** do about it (a bristle state: its law's remedy); nothing when it knows nothing.  NULL:
    ** nothing. */
    void (*state_notes)(const void *ctx, int i, char *buf, size_t size);
    /* The model's parameters, one line per entity each starting with prefix, into buf;
    ** returns the length needed (as snprintf). */
    size_t (*describe)(const void *ctx, const char *prefix, char *buf, size_t size);
    /* The reason of the last failure of rhs or evaluate, and its reset. */
    const mech_error *(*last_error)(const void *ctx);
    void (*clear_error)(void *ctx);

    /* ---- constraints and channels ----------------------------------------------------- */
    /*
    ** Moves the positions and velocities of y the least so that the model's constraints
    ** hold at t (the neighbouring trajectory of mech_lyapunov starts on them).
    */
    mech_status (*project)(void *ctx, double t, double *y, mech_error *err);
    /* Resolves a channel "entity.quantity"; the error lists what the entity offers. */
    mech_status (*channel_lookup)(const void *ctx, const char *name, mech_channel *out,
                                  mech_error *err);
    /* A channel's value at the last full evaluation (NaN when there is none to read). */
    double (*channel_value)(const void *ctx, const mech_channel *ch);
} model_ops;

struct mech_model {
    const model_ops *ops;
    void *ctx;
    int nq, nu;       /* positions and velocities */
    int nstate;       /* the whole state: nq + nu + the first-order rest */
    int nevents;      /* the model's own event functions */
    const double *y0; /* nstate: the state a run starts from (the model keeps it) */
};

/* ---- short forms ------------------------------------------------------------------------ */

static inline int model_rhs(const mech_model *m, double t, const double *y, double *ydot)
{
    return m->ops->rhs(m->ctx, t, y, ydot);
}

static inline mech_status model_evaluate(const mech_model *m, double t, const double *y,
                                         mech_error *err)
{
    return m->ops->evaluate(m->ctx, t, y, err);
}

/* q' = N(q) u; with no kinematics of its own, q' = u.  Returns what the map returns. */
static inline int model_kinematics(const mech_model *m, const double *q, const double *u,
                                   double *qdot)
{
    if (m->ops->kinematics) return m->ops->kinematics(m->ctx, q, u, qdot);
    memcpy(qdot, u, sizeof(double) * (size_t)m->nq);
    return 0;
}

/*
** Tells the integrator options io the second-order structure of the model's state
** y = (q, u, w): the positions, the velocities and the kinematic map between them, for
** BDF's Newton matrices, unless the caller set second_order itself; and the model's
** projection after accepted steps, unless the caller set one.
*/
static inline void model_integ_structure(const mech_model *m, mech_integ_options *io)
{
    if (!io->project) {
        io->project = m->ops->normalize;
        io->project_ctx = m->ctx;
    }
    if (io->second_order != 0) return;
    io->second_order = m->nq;
    io->nu = m->nu;
    io->kinematic = m->nq ? m->ops->kinematics : NULL; /* no positions: nothing to map */
    io->kinematic_ctx = m->ctx;
}

/*
** For BDF: the model's Jacobian structure into *js and io->jacobian, unless the caller set
** one or asked for difference quotients column by column (columns).  js must outlive the
** integrator.  MECH_OK, or MECH_ERR_NOMEM.
*/
static inline mech_status model_integ_jacobian(const mech_model *m, mech_integ_options *io,
                                               int columns, mech_jac_structure *js, mech_error *err)
{
    if (io->method != MECH_BDF || io->jacobian || columns || !m->ops->jacobian) return MECH_OK;
    mech_status st = m->ops->jacobian(m->ctx, js, err);
    if (st == MECH_OK) io->jacobian = js;
    return st;
}

static inline double model_channel_value(const mech_model *m, const mech_channel *ch)
{
    return m->ops->channel_value(m->ctx, ch);
}

static inline const mech_error *model_last_error(const mech_model *m)
{
    return m->ops->last_error(m->ctx);
}

static inline void model_clear_error(const mech_model *m)
{
    m->ops->clear_error(m->ctx);
}

/*
** The limits of a run to t_end: a position may reach max_distance, or (max_distance = 0,
** the default) MODEL_RUNAWAY_FACTOR times the model's scale; the energy check takes the
** model's scale, or what max_distance allows; max_distance = inf turns both off.  Reads the
** evaluation of y0 (call it right after the start).
*/
static inline model_limits model_run_limits(const mech_model *m, double t_end, double max_distance)
{
    model_limits lim = {max_distance, 0, 0};
    if (lim.bound == 0) {
        lim.scale = m->ops->scale(m->ctx, t_end);
        lim.bound = lim.scale > 0 ? MODEL_RUNAWAY_FACTOR * lim.scale : INFINITY;
    }
    lim.elen = isfinite(lim.bound) ? fmax(lim.scale, lim.bound / MODEL_RUNAWAY_FACTOR) : INFINITY;
    return lim;
}

/* ---- a system (system_model.c): planar or spatial ---------------------------------------- */

/* Binds m to sys (its operations and context) without preparing it: only refuse_lyapunov
** and prepare may be called then. */
void system_model_bind(mech_system *sys, mech_model *m);

/* Binds m to sys and prepares it (finalizes sys and fills m's sizes and y0). */
mech_status system_model(mech_system *sys, mech_model *m, mech_error *err);

#endif
