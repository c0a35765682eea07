/* SPDX-License-Identifier: MIT */
/*
 * solve.c — --solve: one solution of a board of any size up to 10^9, by
 * construction, or with --random by local search from a seed (a new one
 * each run, said on stderr, unless --seed gives it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "mode.h"

int qcm_solve(const qca_options *opts)
{
    const qca_mode_options *m = &opts->mode;
    const size_t n = m->solve_n;
    char word[32];
    snprintf(word, sizeof word, "%zu", n);
    if (n == 2 || n == 3) {     /* a fact, not bad input: status 1 */
        fprintf(stderr, "qcount: no solution exists for N=%zu\n", n);
        return 1;
    }
    uint32_t *cols = malloc(n * sizeof *cols);
    if (!cols)
        return qcm_fail("out of memory for a board of N=%s", word);
    int rc;
    if (m->random) {
        uint64_t seed = m->seed;
        if (!m->seed_given) {   /* a new board each run */
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            seed = (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 40;
            fprintf(stderr, "qcount: seed %llu (--seed=%llu repeats this run)\n",
                    (unsigned long long)seed, (unsigned long long)seed);
        }
        rc = qc_minconflicts(n, seed, cols, NULL);
    } else {
        rc = qc_construct(n, cols);
    }
    if (rc != QC_OK) {
        free(cols);
        return qcm_fail(rc == QC_ENOMEM ? "out of memory for a board of N=%s" : "cannot solve N=%s", word);
    }
    qcm_out out;
    if (qcm_out_open(&out, STDOUT_FILENO, 1 << 20) != 0) {
        free(cols);
        return qcm_fail("%s", "out of memory");
    }
    qcm_put_cols(&out, n, cols);
    qcm_out_putc(&out, '\n');
    free(cols);
    return qcm_end_stdout(&out, 0);
}

