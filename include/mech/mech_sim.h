/* SPDX-License-Identifier: MIT */
/*
** libmech simulation: integrate a finalized system, record channels at report times,
** locate events, and keep everything in a run (results) object.
**
** Channels are addressed "entity.quantity": "slider.x", "crank.tip.vy", "j1.fx",
** "system.energy".  mech_channel_lookup lists, in its error message, the quantities an
** entity offers.  Values are computed by a full evaluation of the model at the report
** time (accelerations and reactions come from the dynamics solve, on the dense output
** between steps).
*/
#ifndef MECH_SIM_H
#define MECH_SIM_H

#include <signal.h>
#include <stdio.h>

#include "mech_core.h"
#include "mech_integ.h"
#include "mech_system.h"

/// A recorded quantity of an entity, resolved from its name.
typedef struct mech_channel {
    char name[2 * MECH_NAME_MAX + 16]; ///< "entity.quantity"
    const char *unit;                  ///< "m", "rad/s", "N", ...
    int kind;                          ///< mech_kind of the entity
    int id;                            ///< entity id
    int quantity;                      ///< quantity code (private)
} mech_channel;

/// Resolves "entity.quantity"; the error lists what the entity offers.
mech_status mech_channel_lookup(const mech_system *sys, const char *name, mech_channel *out,
                                mech_error *err);

/*
** Value of a channel at the last full evaluation (mech_system_evaluate, or the one that
** finalize makes at the initial state); NaN when there is none to read: before the first
** one, after the system was changed, and after mech_simulate or mech_lyapunov returned
** (their states are gone with their workspaces).
*/
double mech_channel_value(const mech_system *sys, const mech_channel *ch);

/// 1 when a full evaluation can be read by mech_channel_value.
int mech_system_evaluated(const mech_system *sys);

/// Evaluates a finalized system at its assembled initial state (t = 0); its callbacks read
/// (by mech_channel_value) the positions and velocities of that state.
mech_status mech_system_evaluate_initial(mech_system *sys, mech_error *err);

/*
** Writes the quantities an entity offers ("x, y, phi, ...") into buf; returns the length
** it needed.  kind/id as returned by mech_system_find.
*/
size_t mech_channel_list(const mech_system *sys, int kind, int id, char *buf, size_t size);

/// A channel computed by the caller from the evaluated system (slow path: Lua functions).
typedef int (*mech_user_channel_fn)(void *ud, const mech_system *sys, double t, double *value);

typedef struct mech_user_channel {
    const char *name;
    const char *unit; ///< may be NULL or ""
    mech_user_channel_fn fn;
    void *ud;
} mech_user_channel;

/// What happens when an event fires.
typedef enum mech_event_action {
    MECH_EVENT_RECORD = 0, ///< record the channels at the event time, go on
    MECH_EVENT_STOP = 1,   ///< record, then end the run at the event time
    MECH_EVENT_CALL = 2,   ///< call `on_event`; it returns 0 to go on, 1 to stop
} mech_event_action;

/// Event function computed by the caller from the evaluated system.
typedef int (*mech_user_event_fn)(void *ud, const mech_system *sys, double t, double *g);
/// Called after an event was located (never inside a trial step).
typedef int (*mech_event_cb)(void *ud, const mech_system *sys, double t, int *stop);

typedef struct mech_event_def {
    const char *name;
    /* either a channel crossing a level ... */
    const char *channel; ///< channel name; NULL when fn is used
    double level;        ///< the event fires when channel - level changes sign
    double period;       ///< if > 0: at every level + k period (needs a direction), e.g. a
                         ///< crank angle passing 2 pi k
    /* ... or a user function */
    mech_user_event_fn fn;
    void *fn_ud;
    int direction; ///< +1 rising only, -1 falling only, 0 both
    mech_event_action action;
    mech_event_cb on_event;
    void *on_event_ud;
} mech_event_def;

/*
** Projection of the state onto the constraints (mech_sim_options.project).  A state is moved
** onto Phi(q, t) = 0 of the Lagrange joints and drivers (positions, by Newton iterations) and
** onto Phi_q u + Phi_t = 0 (velocities), each time by the least change in the metric of the
** mass matrix, dq = -M^-1 G^T (G M^-1 G^T)^-1 Phi over the velocities (q' = N(q) u), and its
** quaternions are renormalised; Baumgarte stabilisation stays on between steps.  Penalty joints
** and joints with clearance are force elements: they are not projected.
**
**   step ends   RK4 and DOPRI5: an accepted step's end whose violations exceed the positions'
**               tolerance atol + rtol L (L the model's size; a velocity's violation counts by
**               how far it carries a position over the last step) is projected; a smaller
**               violation is within the error the integrator accepts of a step.  The step's
**               dense output is formed again to end on the projected state.  BDF: every step,
**               inside CVODE (CVodeSetProjFn), which folds the correction into its history.
**   outputs     every value of the dense output (the recorded rows, the events' rows, the
**               states events are located on) and a step truncated at an event are projected
**               to 1e-4 atol (rounding permitting): the joints hold at every row.
**
** MECH_PROJECT_AUTO projects runs of RK4 and DOPRI5 longer than MECH_PROJECT_PERIODS
** characteristic periods of a model with something to project (Lagrange equations, or
** quaternions).  The characteristic period is 2 pi / omega, omega the fastest rate the model is
** given at its start: the drivers' speeds (a distance driver's over the model's size L), the
** bodies' angular speeds and their speeds over L, and sqrt(g / L), the swing of a pendulum of
** the model's size; a model with none of them has no period, and AUTO does not project it.
** BDF runs are not projected by AUTO: a projection every step costs about as much as the step.
*/
typedef enum mech_project_mode {
    MECH_PROJECT_AUTO = 0, ///< project long runs of models with constraints (the default)
    MECH_PROJECT_OFF = 1,  ///< never (quaternions are still renormalised after every step)
    MECH_PROJECT_ON = 2,   ///< always, when the model has anything to project
} mech_project_mode;

/// AUTO projects runs longer than this many characteristic periods.
#define MECH_PROJECT_PERIODS 5.0

/// Progress report, called about every quarter of a second of wall time, and once at the
/// end with elapsed < 0 (so that a progress line can be cleared).
typedef void (*mech_progress_fn)(void *ud, double t, double t0, double t_end, double elapsed);

typedef struct mech_sim_options {
    mech_integ_options integ;
    double t_end;                ///< end time [s]; runs start at t = 0 from the assembled state
    double report;               ///< time between recorded rows [s] (> 0)
    const char *const *channels; ///< channel names to record
    int nchannels;
    const mech_user_channel *user_channels;
    int nuser_channels;
    const mech_event_def *events;
    int nevents;
    mech_progress_fn progress;
    void *progress_ud;
    const volatile sig_atomic_t *interrupt; ///< when it becomes non-zero the run stops
    double max_distance; ///< the run fails when a body or node is farther than this from the
                         ///< origin along x or y (or z) [m] (a motion that has run away); 0: 1e6
                         ///< times the model's scale (see mech_simulate), inf: no limit
    size_t max_memory;   ///< most bytes the rows and events may take (0: mech_physical_memory)
    mech_project_mode project; ///< projection onto the constraints (default AUTO); a projection
                               ///< of the caller's in integ.project replaces it
    int jac_columns; ///< BDF: 1 = the run does not give the integrator the model's Jacobian
                     ///< structure (integ.jacobian): difference quotients column by column
    double motion;   ///< > 0: the run also keeps the model's whole state every motion seconds
                     ///< (t = 0, motion, 2 motion, ...), from the dense output like the rows,
                     ///< for drawing and exporting the motion (mech_run_motion); 0: none
} mech_sim_options;

/*
** The most rows a run may record (t_end / report + 1) and the most events it may list; the
** most renormalisations of mech_lyapunov ((t_end - transient) / every).  Their memory must
** also fit in max_memory.
*/
#define MECH_MAX_ROWS             1e9
#define MECH_MAX_RENORMALISATIONS 1e8

/// The machine's physical memory [bytes] (SIZE_MAX when the system does not say).
size_t mech_physical_memory(void);

mech_sim_options mech_sim_default_options(void);

/// Why a run ended.
typedef enum mech_run_status {
    MECH_RUN_COMPLETE = 0,    ///< reached t_end
    MECH_RUN_STOPPED = 1,     ///< an event stopped it
    MECH_RUN_FAILED = 2,      ///< integration failed (see the message)
    MECH_RUN_INTERRUPTED = 3, ///< the interrupt flag was raised
} mech_run_status;

typedef struct mech_run mech_run;

/*
** Runs a simulation of a finalized (or finalizable) system.  On success returns MECH_OK.
** When the integration fails or is interrupted it returns the failure with err naming the
** time, the step and the entity at fault, and *run still holds everything recorded up to
** then.  *run is NULL only when the run could not start (bad options, unknown channel).
**
** A run that cannot end does not start: more than MECH_MAX_STEPS steps of a fixed step h, or
** at the largest step hmax (mech_integ_check_span), more than MECH_MAX_ROWS rows, or rows that
** take more than max_memory bytes, are MECH_ERR_ARG naming the option and the count.  An
** adaptive run fails (MECH_ERR_STEPSIZE) when at the pace of its steps so far it would take
** more than MECH_MAX_STEPS steps (mech_integ_check_pace), and any run (MECH_ERR_NOMEM) when
** it would list more than MECH_MAX_ROWS events or more than fit in max_memory with its rows.
**
** Besides the integrator's own failures, a run fails (MECH_ERR_NUMERIC) when after a step
** a body or node is farther than max_distance from the origin along x, y (or z).  By default
** that is 1e6 times the model's scale: the largest of the positions at the assembled start,
** the lengths of the model (anchors, attachment and contact points, spring rest lengths,
** outlines, bearing radii), and the distances the start could carry a body by t_end (its
** speed times t_end, its acceleration and gravity times t_end^2 / 2).  A model with no
** length at all has no limit.
*/
mech_status mech_simulate(mech_system *sys, const mech_sim_options *opt, mech_run **run,
                          mech_error *err);

void mech_run_free(mech_run *run);

mech_run_status mech_run_get_status(const mech_run *run);
/// The message of a failed, interrupted or stopped run ("" when complete).
const char *mech_run_message(const mech_run *run);

/// Recorded rows.
long mech_run_rows(const mech_run *run);
/// Recorded channels (not counting time).
int mech_run_nchannels(const mech_run *run);
const char *mech_run_channel_name(const mech_run *run, int i);
const char *mech_run_channel_unit(const mech_run *run, int i);
/// Index of a channel by name, -1 if not recorded ("t" is -1 too: use mech_run_time).
int mech_run_channel_index(const mech_run *run, const char *name);
/// Column of values of channel i (mech_run_rows values), owned by the run.
const double *mech_run_column(const mech_run *run, int i);
/// Column of times.
const double *mech_run_time(const mech_run *run);

/// States kept on the motion grid (mech_sim_options.motion; 0 without one).
long mech_run_motion_rows(const mech_run *run);
/// Length of a kept state (the model's state vector, as mech_system_evaluate takes it).
int mech_run_state_size(const mech_run *run);
/// The grid's spacing [s] (0 without one).
double mech_run_motion_step(const mech_run *run);
/// Kept state k (0 <= k < mech_run_motion_rows), its time in *t; NULL when k is out of range.
const double *mech_run_motion(const mech_run *run, long k, double *t);
/// The run's system's revision (mech_system_revision) at its end: its states are the
/// system's while that is the same.
unsigned long mech_run_system_revision(const mech_run *run);

/// Recorded events.
long mech_run_nevents(const mech_run *run);
/// Event k: its definition index, time, and the channel values at that time.
void mech_run_event(const mech_run *run, long k, int *def, double *t, const double **values);
/// Name of event definition i.
const char *mech_run_event_name(const mech_run *run, int i);

/// What the projection onto the constraints did in a run.
typedef struct mech_project_stats {
    int on;           ///< the run projected (ON, or AUTO decided so)
    double period;    ///< the characteristic period AUTO compares the run with [s] (inf: none)
    long checks;      ///< step ends checked (BDF: every corrected attempt CVODE projects,
                      ///< those its error test then rejects too)
    long projections; ///< of them, those moved onto the constraints
    long outputs;     ///< outputs (dense output's values, truncated steps) moved onto them
    long iterations;  ///< Newton iterations on the positions, in all
    double time;      ///< wall time spent checking and projecting [s]
    double violation; ///< the largest violation found at a step end [m or rad]
    double velocity;  ///< the largest velocity violation found there [m/s or rad/s]
} mech_project_stats;

typedef struct mech_run_stats {
    mech_integ_stats integ; ///< integ.events: the events the run lists (mech_run_nevents),
                            ///< each crossing once; a contact's onsets and ends are not listed
                            ///< (its impacts channel counts them)
    mech_method method;
    double wall_time;   ///< [s]
    double t_end;       ///< time reached [s]
    mech_solver solver; ///< the constrained solve's: MECH_SOLVER_DENSE or MECH_SOLVER_SPARSE
    mech_project_stats project; ///< the projection onto the constraints (zeros when off)
} mech_run_stats;

mech_run_stats mech_run_get_stats(const mech_run *run);

/// The model description and settings the run was made with (comment-ready lines).
const char *mech_run_parameters(const mech_run *run);

/*
** Writes the run as CSV: comment lines ("# ...") with each line of `header` (the caller
** adds program version, script and its own parameters), then the run's parameters, the
** status if it did not complete, then a line of column names with units, "t [s],slider.x
** [m],...", then one row per report time (%.17g: values read back exactly).  Control
** characters inside a comment line are written as escapes ("\r", "\x1b"); a column name
** holding a comma or a quote is quoted as RFC 4180 says.  columns (NULL: all) selects
** channels by name.  The file is written under a temporary name and renamed: it is
** complete or absent.  When *interrupt (if not NULL) becomes non-zero while writing, the
** temporary file is removed and MECH_ERR_INTERRUPTED returned: no file is written.
*/
mech_status mech_run_write_csv(const mech_run *run, const char *path, const char *header,
                               const char *const *columns, int ncolumns,
                               const volatile sig_atomic_t *interrupt, mech_error *err);

/*
** Largest Lyapunov exponent (Benettin's method): a reference trajectory and one started
** d0 away from it, both from the assembled initial state after a transient, are
** integrated side by side; every `every` seconds the separation d (Euclidean norm of the
** position and velocity differences) is measured, log(d / d0) accumulated, and the
** neighbour moved back to distance d0 along the same direction.  The estimate is the sum
** divided by the measured time; its history shows the convergence.
*/
typedef struct mech_lyapunov_options {
    mech_integ_options integ;
    double t_end;     ///< end time [s] (transient included)
    double transient; ///< time before measuring [s]
    double every;     ///< renormalisation interval [s]
    double d0;        ///< separation after each renormalisation (default 1e-8)
    const volatile sig_atomic_t *interrupt;
    double max_distance; ///< as for mech_simulate (0: 1e6 times the model's scale)
    size_t max_memory;   ///< most bytes the result may take (0: mech_physical_memory)
    int jac_columns;     ///< as for mech_simulate
} mech_lyapunov_options;

typedef struct mech_lyapunov_result {
    double lambda;    ///< the estimate at the end [1/s]
    long n;           ///< renormalisations
    double *t;        ///< their times (n values, owned: mech_lyapunov_free)
    double *estimate; ///< the running estimate at each (n values)
} mech_lyapunov_result;

mech_lyapunov_options mech_lyapunov_default_options(void);

/*
** Computes the largest Lyapunov exponent of a finalized (or finalizable) system.  The first
** separation is along a fixed direction projected onto the joints' constraints; a system
** with no degree of freedom has none (MECH_ERR_ARG).  On failure res->n holds the
** renormalisations done so far.  As for mech_simulate, it does not start when it would take
** more than MECH_MAX_STEPS fixed steps or MECH_MAX_RENORMALISATIONS renormalisations, or a
** result larger than max_memory, and an adaptive trajectory fails at a pace that would take
** more than MECH_MAX_STEPS steps.
*/
mech_status mech_lyapunov(mech_system *sys, const mech_lyapunov_options *opt,
                          mech_lyapunov_result *res, mech_error *err);

void mech_lyapunov_free(mech_lyapunov_result *res);

#endif
