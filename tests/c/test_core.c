/* SPDX-License-Identifier: MIT */
/* libmech core: version, status names and error reports. */
#include <string.h>

#include "mech.h"
#include "tap.h"

int main(void)
{
    plan(12);

    is_str(mech_version(), MECH_VERSION_STRING, "library version matches the header");
    ok(mech_version_number() == MECH_VERSION_NUMBER, "version number matches the header");
    ok(mech_version_number() >= 100, "version number is at least 0.1.0");

    is_str(mech_status_name(MECH_OK), "MECH_OK", "name of MECH_OK");
    is_str(mech_status_string(MECH_ERR_NOMEM), "out of memory", "text of MECH_ERR_NOMEM");
    is_str(mech_status_name((mech_status)12345), "MECH_STATUS_UNKNOWN", "unknown status named");

    mech_error err;
    mech_status st =
        mech_error_set(&err, MECH_ERR_ARG, "body '%s': mass must be > 0 (got %g)", "crank", -1.0);
    ok(st == MECH_ERR_ARG && err.code == MECH_ERR_ARG, "mech_error_set returns and stores code");
    is_str(err.msg, "body 'crank': mass must be > 0 (got -1)", "message is formatted");

    char big[2 * MECH_ERROR_MSG_SIZE];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    mech_error_set(&err, MECH_ERR_ARG, "%s", big);
    ok(strlen(err.msg) == MECH_ERROR_MSG_SIZE - 1, "long messages are truncated, not overflowed");

    mech_error_clear(&err);
    ok(err.code == MECH_OK && err.msg[0] == '\0', "mech_error_clear resets the report");
    ok(mech_error_set(NULL, MECH_ERR_IO, "ignored") == MECH_ERR_IO, "a NULL report is allowed");

    /* every listed status has a distinct name and a non-empty text */
    int distinct = 1;
#define CHECK_(name, value, text) distinct &= strcmp(mech_status_name(name), #name) == 0 && *text;
    MECH_STATUS_LIST(CHECK_)
#undef CHECK_
    ok(distinct, "every status of the list has its own name and text");

    return done_testing();
}
