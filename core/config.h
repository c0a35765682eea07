/*
 * config.h — every tuning knob of core/, one section per engine, each knob
 * with the measurement that chose it.  Knobs change speed and memory, never
 * a count; a knob that shapes the work split (units, key bits) also changes
 * the plan's fingerprint, so that ledgers of another split are refused.
 */
#ifndef QC_CONFIG_H
#define QC_CONFIG_H

/* ---- plan: the default engine --------------------------------------- */

/* qc_engine_default: join from this N on, eightfold below.  Measured (dev
 * machine, one thread, best of 5 runs, --json seconds): join is the
 * fastest engine at every N >= 14 (N=14: join 5.0 ms, eightfold 21.5 ms,
 * halving 78 ms) and by far from there on; below 14 all engines take under
 * 5 ms and eightfold is as fast or faster (N=13: 4.1 ms against join's
 * 4.6 ms; N=11: 0.30 against 0.53 ms). */
#define QC_JOIN_FROM_N 14

/* ---- kernel: the backtracking step ---------------------------------- */

/* [stop check] Rows of the subtrees between two readings of the stop
 * flag: at N=27 a subtree of 10 rows is some 10^5 placements, well under a
 * millisecond. */
#define QCK_STOP_ROWS 10

/* ---- halving -------------------------------------------------------- */

/* Units wanted (shapes the split: part of the fingerprint): about
 * QCH_UNITS at N <= QCH_GROW_FROM_N for load balance over many threads
 * (each thread then gets hundreds of units, so the last one to finish waits
 * for at most a unit), twice as many per step of N above that so that one
 * unit stays short (N=20: 32k units of a few ms each), doubled at most
 * QCH_MAX_DOUBLINGS times to bound the plan's memory (2^20 units, 16 MiB). */
#define QCH_UNITS 2000
#define QCH_GROW_FROM_N 16
#define QCH_MAX_DOUBLINGS 9

/* ---- eightfold ------------------------------------------------------ */

/* [lanes] Independent searches stepped in turn.  Measured (N=15, one
 * thread, CPU time, same run): 4 is best by 5-15% against 2, 6 and 8. */
#define QCE_LANES 4

/* [deep seeds] With a stop flag, the lanes' subtrees span the last
 * QCE_STOP_ROWS rows searched.  Those rows have about as many free columns
 * as rows whatever N is, so a subtree of 14 rows is some 10^5 placements
 * at any N (sampled at N=21, 23, 25, 27 by random descents: means
 * 0.4-2.5 x 10^5, largest 1.3 x 10^6), a fraction of a millisecond,
 * against some 100 ns per seed for the walk and the reading (12 rows: a
 * few 10^3, too close; 16 rows: 10^6-10^7, milliseconds).  At least 2. */
#define QCE_STOP_ROWS 14

/* ---- join ----------------------------------------------------------- */

#endif
