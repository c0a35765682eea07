/* SPDX-License-Identifier: MIT */
/*
 * root.h — rank 0's side of an MPI count: the books of the units (the
 * to-do list, which came back, their sums), handing units out, taking the
 * tallies in, and the hooks (unit_known, unit_done, progress, stop).
 *
 * Resume and stops use qc_run's hooks, on rank 0 only: unit_known leaves
 * units out of the to-do list (their tallies join the sum), unit_done and
 * progress are called by rank 0's messenger for every tally that arrives
 * (one thread: serialised by construction), and *stop makes rank 0 return
 * QC_ESTOP at once, without waiting for the workers; the caller then ends
 * the job (MPI_Abort), as the other ranks may be deep inside long units.
 *
 * [silence] Rank 0 notes which worker holds each unit handed out.  A
 * worker unheard for the silence timeout (count.h) is taken for silent:
 * the units it holds go back to the front of rank 0's list, for the other
 * ranks (rank 0's own counters included, which wait for the workers
 * rather than leave when the list runs dry).  A silent worker that speaks
 * again is heard like any other.  A tally for a unit already counted is
 * taken once: for a unit handed out again, the same tally is dropped and
 * a different one is a conflict that fails the count (qcr_root_sum); any
 * other repeat is a stray, as is a unit the plan does not have.
 */
#ifndef QCR_MPI_ROOT_H
#define QCR_MPI_ROOT_H

#include <stddef.h>
#include <stdint.h>

#include "qcount.h"
#include "rank.h"
#include "unit_step.h"

/* A unit handed out again and its first tally, once one arrived. */
typedef struct qcr_again {
    qcr_wire_result first;
    int counted;              /* first holds a tally                     */
    int rank;                 /* the rank that sent it                   */
} qcr_again;

/* The units handed to one worker, in the order granted; some may have
 * come back since (QCR_SEEN), and are dropped when the list grows. */
typedef struct qcr_held {
    size_t *unit;
    size_t len, cap;
} qcr_held;

typedef struct qcr_root {
    qct_reporter rep;         /* the hooks and where the run stands      */
    int failed_rank;          /* the first rank out of memory, or -1     */
    size_t units;             /* the plan's */
    qct_todo list;            /* the units to count when it started      */
    uint64_t *seen;           /* [seen bits] QCR_SEEN, QCR_AGAIN: two bits
                                 a unit, unit u's at bit 2 (u % 32) of
                                 word u / 32 (N=28: 10 MB; a byte a unit
                                 would take 40)                          */
    qcr_held *held;           /* [ranks]: what each worker was handed    */
    size_t arrived, bad;      /* results taken; unknown or repeated ones */
    /* [silence] */
    int ranks;
    double silence;           /* seconds: a worker unheard is silent     */
    double *heard;            /* [ranks]: when each last spoke           */
    unsigned char *state;     /* [ranks]: QCR_WORKING, QCR_DONE, QCR_SILENT */
    int silent;               /* workers silent now                      */
    int ever_silent;          /* workers ever taken for silent           */
    int first_silent;         /* the first one, or -1                    */
    size_t handed_again;      /* units handed out again                  */
    qcr_again *again;         /* [n_again]: their first tallies          */
    size_t n_again, cap_again;
    size_t repeats;           /* equal tallies of such units, dropped    */
    size_t conflicts;         /* different ones                          */
    size_t conflict_unit;     /* the first conflict's unit and ranks     */
    int conflict_rank, conflict_first_rank;
    qc_u128 total, steps;
    qc_tally known;           /* from unit_known                         */
    size_t resumed;           /* units known                             */
    size_t todo;              /* units left to count when it started     */
} qcr_root;

enum { QCR_SEEN = 1, QCR_AGAIN = 2 };
enum { QCR_WORKING = 0, QCR_DONE = 1, QCR_SILENT = 2 };

#define QCR_ROOT_NONE ((qcr_root){.failed_rank = -1, .first_silent = -1})

/* Rank 0: the books and its rank's to-do list (every unit unit_known does
 * not hold, waiting in plan order, big ones first, one bit a unit; more
 * may come back from a silent worker, to the front of the queue, until
 * every worker is done or silent); calls progress once.  silence: seconds
 * (qcr_mpi_silence).  Ends the job when out of memory. */
void qcr_root_open(qcr_root *b, qcr_rank *s, const qc_run_options *opts, int ranks,
                   double silence, double start);
void qcr_root_close(qcr_root *b);

/* Rank 0's messenger.  Returns 0 when every worker has sent LAST or is
 * silent (b->silent: then the count is whole, but the silent ranks may
 * never reach the job's collective end) and its own counters are
 * through; -1 at once when asked to stop, when a hook failed, or when a
 * unit failed here or on a worker (FAIL) (its counters then stop within a
 * unit, or a kernel stop check). */
int qcr_root_messenger(qcr_rank *s, qcr_root *b, int ranks, int counters, qct_thread_sum *mine);

/* Why the messenger quit: QC_EHOOK, QC_ENOMEM or QC_ESTOP. */
int qcr_root_quit_code(const qcr_root *b);

/* The sums so far (total and units) into *total, rank 0 having quit alone
 * with rc. */
void qcr_root_alone(const qcr_root *b, int rc, qc_result *total, char *err, size_t errlen);

/* The whole count into *total, all but its threads (the caller sums the
 * ranks' reports); returns rc, or QC_EINVAL when units went missing, came
 * back twice (strays), or came back with conflicting tallies. */
int qcr_root_sum(const qcr_root *b, int rc, qc_result *total, char *err, size_t errlen);

#endif
