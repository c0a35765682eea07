/* SPDX-License-Identifier: MIT */
/*
 * sampling.h — a random sample of a plan's units, stratified by their
 * estimated cost, and the estimates it gives of the whole board (totals
 * and ratios of totals, each with a 95% confidence interval).  The
 * statistics of bench/sample.c, apart so that a test can check them.
 *
 * [strata] The units, sorted by estimated cost, are cut into H strata of
 * about equal estimated cost; each stratum gives k units drawn at random
 * without replacement (all of it when it has no more).  [ratio to the
 * estimate] A stratum's total of a measure y (solutions, CPU seconds) is
 * its units' estimated cost times the sample's y per estimated cost, so
 * that the plan's estimate, which tracks y closely, leaves only the
 * scatter around it to sample; its variance is the usual one of a ratio
 * estimator with the finite-population correction, and the interval uses
 * Student's t on the sample's degrees of freedom.
 */
#ifndef QCB_SAMPLING_H
#define QCB_SAMPLING_H

#include <stddef.h>
#include <stdint.h>

typedef struct qcb_sample {
    size_t count;          /* units drawn                                  */
    size_t *unit;          /* [count] their indices, stratum by stratum    */
    int *stratum;          /* [count] each one's stratum                   */
    int strata;
    size_t *units_in;      /* [strata] N_h: the units of each stratum      */
    double *cost_in;       /* [strata] X_h: their estimated cost           */
    double *cost;          /* [count] each drawn unit's estimated cost     */
} qcb_sample;

/* Draws k units from each of `strata` strata of the `units` units with
 * estimated costs cost[] (all positive), with the random stream of
 * `seed`.  Returns 0, or -1 when out of memory or the arguments are off. */
int qcb_draw(const double *cost, size_t units, int strata, size_t k, uint64_t seed,
             qcb_sample *out);
void qcb_sample_free(qcb_sample *s);

typedef struct qcb_estimate {
    double value;
    double half_width;     /* of the 95% interval: value +- half_width    */
    int df;                /* its degrees of freedom                       */
} qcb_estimate;

/* The board's total of a measure, y[i] for the drawn unit i. */
qcb_estimate qcb_total(const qcb_sample *s, const double *y);

/* The ratio of two totals, sum y / sum z (a linearised interval). */
qcb_estimate qcb_ratio(const qcb_sample *s, const double *y, const double *z);

/* The mean of y over the drawn units, as an estimate of the mean over all
 * units (each drawn unit weighted by the units its stratum stands for). */
qcb_estimate qcb_mean(const qcb_sample *s, const double *y);

/* The next number of the stream (splitmix64): the sampler's one source of
 * chance, seeded and printed, so that a sample can be drawn again. */
uint64_t qcb_next(uint64_t *state);

#endif
