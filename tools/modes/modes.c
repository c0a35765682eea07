/* SPDX-License-Identifier: MIT */
/*
 * modes.c — the entry of the modes beyond counting (see modes.h): each
 * mode is a file of its own, list.c, solve.c and verify.c (mode.h).
 */
#include "mode.h"
#include "modes.h"

int qcm_main(const qca_options *opts)
{
    switch (opts->action) {
    case QC_ACTION_LIST:
        return qcm_list(opts);
    case QC_ACTION_SOLVE:
        return qcm_solve(opts);
    case QC_ACTION_VERIFY:
        return qcm_verify(opts);
    default:
        return qcm_fail("%s", "internal error: not a mode");
    }
}
