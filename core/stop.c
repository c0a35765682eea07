/* SPDX-License-Identifier: MIT */
/*
 * stop.c — the calling thread's stop flag (stop.h).
 */
#include "stop.h"

_Thread_local const int *qci_stop_flag;
