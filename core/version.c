/* SPDX-License-Identifier: MIT */
/* version.c — the library's version and the words for its error codes. */
#include "qcount.h"

unsigned qc_version(void) { return QC_VERSION_NUMBER; }

const char *qc_version_string(void) { return QC_VERSION; }

const char *qc_strerror(int code)
{
    switch (code) {
    case QC_OK: return "success";
    case QC_EINVAL: return "invalid argument";
    case QC_ENOMEM: return "out of memory";
    case QC_ESTOP: return "stopped before the end";
    case QC_EHOOK: return "a run's hook failed";
    case QC_ENOTSUP: return "not supported here";
    default: return "unknown error";
    }
}
