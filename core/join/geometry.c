/* SPDX-License-Identifier: MIT */
/*
 * geometry.c — the join engine's board geometry (geometry.h): border and
 * inner signatures of every square.
 */
#include <string.h>

#include "config.h"
#include "geometry.h"

/* Border diagonal slot s (W per direction): s < W is the anti-diagonal
 * r+c = h+s, the rest the diagonal r-c+n-1 = h+(s-W).  The number of
 * cells of rows [r0,r1) on slot s. */
static int slot_cells(const qcj_geometry *g, int slots, int s, int r0, int r1)
{
    const int n = g->n, w = slots / 2;
    int cells = 0;
    for (int r = r0; r < r1; r++) {
        int c = s < w ? g->h + s - r : r + n - 1 - (g->h + s - w);
        cells += c >= 0 && c < n;
    }
    return cells;
}

void qcj_geometry_init(qcj_geometry *g, int n, int unit_cols, int key_bits, int force_wide)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    g->h = n / 2;
    g->b0 = n - g->h;
    g->unit_lo = (n - unit_cols) / 2;
    g->unit_hi = g->unit_lo + unit_cols;
    const int w = n - 1 + n % 2;               /* border diagonals per direction */
    const int slots = w > 0 ? 2 * w : 0;
    if (key_bits > slots)
        key_bits = slots;
    g->key_bits = key_bits;
    g->sort_coarse_from = QCJ_SORT_COARSE_FROM_BITS;
    g->and_bits = slots - key_bits;
    g->wide = force_wide || slots - key_bits > 32;
    g->key_shift = g->wide ? (key_bits ? 64 - key_bits : 63) : 32;   /* k=0: shift < 64 */

    /* Key slots: the k slots with the most (top cells) x (bottom cells),
     * the ones a random pair of halves most likely both use; ties go to
     * the lower slot.  The others take signature bits 0, 1, ... in order. */
    int pos[64], taken[64] = {0};
    for (int j = 0; j < key_bits; j++) {
        int best = -1, best_score = -1;
        for (int s = 0; s < slots; s++) {
            int score = slot_cells(g, slots, s, 0, g->h) * slot_cells(g, slots, s, g->b0, n);
            if (!taken[s] && score > best_score) {
                best = s;
                best_score = score;
            }
        }
        taken[best] = 1;
        pos[best] = g->key_shift + j;
    }
    for (int s = 0, next = 0; s < slots; s++)
        if (!taken[s])
            pos[s] = next++;

    /* The bands of each half (geometry.h): the outer band has h/2 rows. */
    g->band_rows = g->h / 2;
    const qcj_profile *profile = qcj_profile_of(n);   /* [plan profiles] n's own */
    g->bands_in_place = g->bands_pruned = profile->large;
    g->own_lists = profile->own;
    g->halves_transposed_fit = g->h - g->band_rows >= QCJ_HALVES_TRANSPOSED_FROM_ROWS;
    g->halves_transposed = profile->transposed && g->halves_transposed_fit;
    g->split[0] = g->band_rows;
    g->split[1] = g->b0 + g->h - g->band_rows;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            const int rs = r < g->h ? g->split[0] : g->split[1];
            const int v = r + c - rs, d = r - c + n - 1 - rs;
            uint64_t inner = 0;
            if (r < g->h || r >= g->b0) {           /* not odd N's middle row */
                if (v >= 0 && v <= n - 2)
                    inner |= 1ull << v;
                if (d >= 0 && d <= n - 2)
                    inner |= 1ull << (n - 1 + d);
            }
            g->inner_sig[r][c] = inner;
        }
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            uint64_t sig = 0;
            int a = r + c - g->h;               /* anti-diagonal slot       */
            int d = r - c + n - 1 - g->h;       /* diagonal slot, less w    */
            if (a >= 0 && a < w)
                sig |= 1ull << pos[a];
            if (d >= 0 && d < w)
                sig |= 1ull << pos[w + d];
            g->cell_sig[r][c] = sig;
        }
}
