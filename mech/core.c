/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>

#include "mech_core.h"

const char *mech_version(void)
{
    return MECH_VERSION_STRING;
}

int mech_version_number(void)
{
    return MECH_VERSION_NUMBER;
}

const char *mech_status_string(mech_status status)
{
    switch (status) {
#define MECH_STATUS_TEXT_(name, value, text)                                                       \
    case name: return text;
        MECH_STATUS_LIST(MECH_STATUS_TEXT_)
#undef MECH_STATUS_TEXT_
    }
    return "unknown status";
}

const char *mech_status_name(mech_status status)
{
    switch (status) {
#define MECH_STATUS_NAME_(name, value, text)                                                       \
    case name: return #name;
        MECH_STATUS_LIST(MECH_STATUS_NAME_)
#undef MECH_STATUS_NAME_
    }
    return "MECH_STATUS_UNKNOWN";
}

void mech_error_clear(mech_error *err)
{
    if (err) {
        err->code = MECH_OK;
        err->msg[0] = '\0';
    }
}

mech_status mech_error_set(mech_error *err, mech_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        va_start(ap, fmt);
        int n = vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        if (n < 0) snprintf(err->msg, sizeof err->msg, "%s", mech_status_string(code));
    }
    return code;
}
