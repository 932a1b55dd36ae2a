/* SPDX-License-Identifier: MIT */
/*
** libmech core: version, status codes and error reports shared by every module.
** Every fallible entry point of libmech returns a mech_status and, when given a
** non-NULL mech_error, fills it with a message naming the entity and argument at fault.
*/
#ifndef MECH_CORE_H
#define MECH_CORE_H

#include <stddef.h>

#include "mech_version.h"

/* Status codes: 0 is success, negative values are failures.  One list, so the enum
** and the names cannot drift apart. */
#define MECH_STATUS_LIST(X)                                                                        \
    X(MECH_OK, 0, "success")                                                                       \
    X(MECH_ERR_ARG, -1, "invalid argument")                                                        \
    X(MECH_ERR_NOMEM, -2, "out of memory")                                                         \
    X(MECH_ERR_STATE, -3, "operation not allowed in this state")                                   \
    X(MECH_ERR_LOCKED, -4, "system is locked while it steps")                                      \
    X(MECH_ERR_NOTFOUND, -5, "no such entity")                                                     \
    X(MECH_ERR_CONVERGENCE, -6, "iteration did not converge")                                      \
    X(MECH_ERR_SINGULAR, -7, "singular or redundant system")                                       \
    X(MECH_ERR_NUMERIC, -8, "non-finite value in the solution")                                    \
    X(MECH_ERR_STEPSIZE, -9, "step size underflow")                                                \
    X(MECH_ERR_INTERRUPTED, -10, "interrupted")                                                    \
    X(MECH_ERR_CALLBACK, -11, "user callback failed")                                              \
    X(MECH_ERR_IO, -12, "input/output error")

typedef enum mech_status {
#define MECH_STATUS_ENUM_(name, value, text) name = value,
    MECH_STATUS_LIST(MECH_STATUS_ENUM_)
#undef MECH_STATUS_ENUM_
} mech_status;

/// Size of the message buffer in mech_error, terminating NUL included.
#define MECH_ERROR_MSG_SIZE 512

/// Error report filled by a failing call: the status and a one-line message.
typedef struct mech_error {
    mech_status code;
    char msg[MECH_ERROR_MSG_SIZE];
} mech_error;

/// Version of the library this program runs against, e.g. "0.1.0".
const char *mech_version(void);

/// MECH_VERSION_NUMBER of the library this program runs against.
int mech_version_number(void);

/// Short English description of a status ("out of memory"); never NULL.
const char *mech_status_string(mech_status status);

/// Identifier of a status ("MECH_ERR_NOMEM"); never NULL.
const char *mech_status_name(mech_status status);

/// Clears an error report (code MECH_OK, empty message).  err may be NULL.
void mech_error_clear(mech_error *err);

/*
** Memory.  Every allocation of libmech goes through these, so that tests can check
** that nothing is allocated while a simulation steps (the count does not grow with
** the number of steps).  mech_malloc and mech_calloc return NULL on failure.
*/
void *mech_malloc(size_t size);
void *mech_calloc(size_t count, size_t size);
void *mech_realloc(void *ptr, size_t size);
void mech_free(void *ptr);

/// Number of successful mech_malloc/mech_calloc/mech_realloc calls since start.
long mech_alloc_count(void);

/*
** Fills err (if not NULL) with code and a printf-style message, truncated to fit
** the buffer, and returns code so that callers can write `return mech_error_set(...)`.
*/
mech_status mech_error_set(mech_error *err, mech_status code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
