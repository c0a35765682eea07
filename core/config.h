/*
 * config.h — every tuning knob of core/, one section per engine, each knob
 * with the measurement that chose it.  Knobs change speed and memory, never
 * a count; a knob that shapes the work split (units, key bits) also changes
 * the plan's fingerprint, so that ledgers of another split are refused.
 */
#ifndef QC_CONFIG_H
#define QC_CONFIG_H

/* ---- plan: the default engine --------------------------------------- */

/* ---- kernel: the backtracking step ---------------------------------- */

/* ---- halving -------------------------------------------------------- */

/* ---- eightfold ------------------------------------------------------ */

/* ---- join ----------------------------------------------------------- */

#endif
