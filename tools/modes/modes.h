/* SPDX-License-Identifier: MIT */
/*
 * modes.h — the modes beyond counting: --list (and --svg), --solve and
 * --verify.  The searching and checking is in core/; modes/ reads,
 * formats and writes.
 */
#ifndef QC_MODES_H
#define QC_MODES_H

#include "options.h"

/* Runs the mode opts->action names (QC_ACTION_LIST, _SOLVE or _VERIFY);
 * returns the exit status. */
int qcm_main(const qca_options *opts);

#endif
