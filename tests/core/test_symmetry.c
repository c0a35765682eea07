/* SPDX-License-Identifier: MIT */
/*
 * test_symmetry.c — the dihedral group, canonical constellations and the
 * Burnside route to fundamental counts, each against an independent slow
 * method: the group's numbering against a table written from its
 * definition, constellations moved by the group as the solutions they
 * come from are moved, orbits enumerated by brute force as sets of
 * squares, symmetric solutions found by checking every solution of a
 * textbook search, and the published fundamental counts.
 * Usage: test_symmetry TSV
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "dihedral.h"
#include "eightfold/constellations.h"
#include "known.h"
#include "qcount_solutions.h"

/* ---- the one numbering of the group --------------------------------- */

/* Square (0,1) of a 5-board, on no axis of the square, and its image under
 * each element, written out from the element's definition. */
static void test_numbering(void)
{
    static const struct {
        int g, r, c;
        const char *what;
    } image[QC_SYMMETRIES] = {
        {QC_DIHEDRAL_IDENTITY, 0, 1, "identity"},
        {QC_DIHEDRAL_MIRROR_ROWS, 4, 1, "top <-> bottom"},
        {QC_DIHEDRAL_MIRROR_COLS, 0, 3, "left <-> right"},
        {QC_DIHEDRAL_HALF_TURN, 4, 3, "half turn"},
        {QC_DIHEDRAL_TRANSPOSE, 1, 0, "main diagonal"},
        {QC_DIHEDRAL_TURN_LEFT, 3, 0, "quarter turn counter-clockwise"},
        {QC_DIHEDRAL_TURN_RIGHT, 1, 4, "quarter turn clockwise"},
        {QC_DIHEDRAL_ANTITRANSPOSE, 3, 4, "anti-diagonal"},
    };
    for (int i = 0; i < QC_SYMMETRIES; i++) {
        size_t r = 0, c = 1;
        qc_dihedral_square(image[i].g, 5, &r, &c);
        CHECK(image[i].g == i && r == (size_t)image[i].r && c == (size_t)image[i].c,
              "%s: (0,1) -> (%zu,%zu)", image[i].what, r, c);
    }
    /* the quarter turns: inverse to each other, the half turn twice over,
     * the identity four times over, on every square of a 6-board */
    int ok = 1;
    for (size_t r0 = 0; r0 < 6; r0++)
        for (size_t c0 = 0; c0 < 6; c0++) {
            size_t r = r0, c = c0, hr = r0, hc = c0;
            qc_dihedral_square(QC_DIHEDRAL_HALF_TURN, 6, &hr, &hc);
            qc_dihedral_square(QC_DIHEDRAL_TURN_RIGHT, 6, &r, &c);
            qc_dihedral_square(QC_DIHEDRAL_TURN_RIGHT, 6, &r, &c);
            ok &= r == hr && c == hc;
            qc_dihedral_square(QC_DIHEDRAL_TURN_RIGHT, 6, &r, &c);
            qc_dihedral_square(QC_DIHEDRAL_TURN_LEFT, 6, &r, &c);
            qc_dihedral_square(QC_DIHEDRAL_TURN_RIGHT, 6, &r, &c);
            qc_dihedral_square(QC_DIHEDRAL_TURN_RIGHT, 6, &r, &c);
            ok &= r == r0 && c == c0;
        }
    CHECK(ok, "quarter turns do not compose to the half turn and the identity");
}

/* The constellation of a solution: the queens on its border lines. */
static qce_constellation constellation_of(int n, const uint32_t *cols)
{
    qce_constellation k = {(int8_t)cols[0], (int8_t)cols[n - 1], -1, -1};
    for (int r = 0; r < n; r++) {
        if (cols[r] == 0)
            k.left = (int8_t)r;
        if (cols[r] == (uint32_t)n - 1)
            k.right = (int8_t)r;
    }
    return k;
}

/* What the eightfold engine rests on, and what ties the constellations to
 * the solutions' numbering of the group: for every solution S and element
 * g, the constellation of g(S) is g applied to the constellation of S. */
static void test_constellations_follow_solutions(void)
{
    for (int n = 5; n <= 9; n++) {
        qc_enum *it;
        CHECK(qc_enum_create(&it, n) == QC_OK, "n=%d", n);
        uint32_t cols[32], image[32];
        long solutions = 0, wrong = 0;
        while (qc_enum_next(it, cols)) {
            qce_constellation k = constellation_of(n, cols);
            for (int g = 0; g < QC_SYMMETRIES; g++) {
                qc_solution_transform((size_t)n, cols, g, image);
                wrong += qce_key(constellation_of(n, image)) != qce_key(qce_image(n, k, g));
            }
            solutions++;
        }
        qc_enum_free(it);
        CHECK(solutions > 0 && wrong == 0, "n=%d: %ld of %ld images misplaced", n, wrong,
              8 * solutions);
    }
}


/* ---- brute orbits: a constellation as a sorted set of squares ------- */

typedef struct square_set {
    int count;
    int sq[4];          /* r*n + c, ascending */
} square_set;

static square_set squares_of(int n, const int *rows, const int *cols, int count)
{
    square_set s = {0, {0}};
    for (int i = 0; i < count; i++) {
        int v = rows[i] * n + cols[i], j = s.count;
        int dup = 0;
        for (int k = 0; k < s.count; k++)
            dup |= s.sq[k] == v;
        if (dup)
            continue;
        while (j > 0 && s.sq[j - 1] > v) {
            s.sq[j] = s.sq[j - 1];
            j--;
        }
        s.sq[j] = v;
        s.count++;
    }
    return s;
}

/* The border queens of k, written out by hand from its definition. */
static square_set constellation_squares(int n, qce_constellation k)
{
    int rows[4] = {0, n - 1, k.left, k.right};
    int cols[4] = {k.top, k.bottom, 0, n - 1};
    return squares_of(n, rows, cols, 4);
}

/* The orbit of k, as distinct square sets: its size, by brute force.  The
 * symmetries are rebuilt here from rotation matrices, not dihedral.h. */
static int brute_orbit_size(int n, qce_constellation k)
{
    square_set base = constellation_squares(n, k), seen[8];
    int distinct = 0;
    for (int mirror = 0; mirror < 2; mirror++)
        for (int turns = 0; turns < 4; turns++) {
            int rows[4], cols[4];
            for (int i = 0; i < base.count; i++) {
                int r = base.sq[i] / n, c = base.sq[i] % n;
                if (mirror)
                    c = n - 1 - c;
                for (int t = 0; t < turns; t++) {   /* (r,c) -> (c, n-1-r) */
                    int r2 = c, c2 = n - 1 - r;
                    r = r2;
                    c = c2;
                }
                rows[i] = r;
                cols[i] = c;
            }
            square_set img = squares_of(n, rows, cols, base.count);
            int dup = 0;
            for (int j = 0; j < distinct; j++)
                dup |= memcmp(&seen[j], &img, sizeof img) == 0;
            if (!dup)
                seen[distinct++] = img;
        }
    return distinct;
}

static qce_constellation make(int top, int bottom, int left, int right)
{
    qce_constellation k = {(int8_t)top, (int8_t)bottom, (int8_t)left, (int8_t)right};
    return k;
}

/* The canonical member of k's orbit, and its class size. */
static qce_constellation canonical_of(int n, qce_constellation k, int *size)
{
    *size = 0;
    for (int g = 0; g < QC_SYMMETRIES; g++) {
        qce_constellation img = qce_image(n, k, g);
        if (qce_canonical(n, img, size))
            return img;
    }
    return make(-1, -1, -1, -1);
}

/* Hand-made constellations with a known symmetry and class size. */
static void test_hand_made(void)
{
    static const struct {
        int n, top, bottom, left, right, class_size;
        const char *what;
    } cases[] = {
        /* quarter turn: (0,a) -> (a,n-1) -> (n-1,n-1-a) -> (n-1-a,0) */
        {8, 1, 6, 6, 1, 2, "n=8 fixed by the quarter turn"},
        {9, 2, 6, 6, 2, 2, "n=9 fixed by the quarter turn"},
        {12, 4, 7, 7, 4, 2, "n=12 fixed by the quarter turn"},
        {13, 1, 11, 11, 1, 2, "n=13 fixed by the quarter turn"},
        /* half turn only: bottom = n-1-top, right = n-1-left */
        {8, 1, 6, 2, 5, 4, "n=8 fixed by the half turn"},
        {9, 1, 7, 3, 5, 4, "n=9 fixed by the half turn"},
        {10, 2, 7, 6, 3, 4, "n=10 fixed by the half turn"},
        {11, 3, 7, 1, 9, 4, "n=11 fixed by the half turn"},
        /* no symmetry */
        {8, 1, 4, 2, 5, 8, "n=8 asymmetric"},
        {9, 2, 5, 4, 1, 8, "n=9 asymmetric"},
        /* a corner queen: one queen on two lines */
        {8, 0, 3, 0, 5, 8, "n=8 corner (0,0)"},
        {9, 8, 2, 4, 0, 8, "n=9 corner (0,8)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const int n = cases[i].n;
        qce_constellation k = make(cases[i].top, cases[i].bottom, cases[i].left, cases[i].right);
        CHECK(qce_legal(n, k), "%s: not legal", cases[i].what);
        int size = 0;
        qce_constellation canon = canonical_of(n, k, &size);
        CHECK(size == cases[i].class_size, "%s: class size %d, want %d", cases[i].what, size,
              cases[i].class_size);
        CHECK(brute_orbit_size(n, k) == cases[i].class_size, "%s: brute orbit %d, want %d",
              cases[i].what, brute_orbit_size(n, k), cases[i].class_size);
        /* the symmetries it claims: the quarter turn, the half turn */
        int by90 = qce_key(qce_image(n, k, QC_DIHEDRAL_TURN_RIGHT)) == qce_key(k);
        int by180 = qce_key(qce_image(n, k, QC_DIHEDRAL_HALF_TURN)) == qce_key(k);
        CHECK(by90 == (cases[i].class_size == 2), "%s: quarter-turn fixed %d", cases[i].what, by90);
        CHECK(by180 == (cases[i].class_size <= 4), "%s: half-turn fixed %d", cases[i].what, by180);
        /* the canonical member is in the orbit and is its smallest key */
        int in_orbit = 0;
        for (int g = 0; g < QC_SYMMETRIES; g++) {
            uint32_t img = qce_key(qce_image(n, k, g));
            in_orbit |= img == qce_key(canon);
            CHECK(img >= qce_key(canon), "%s: image %d below the canonical", cases[i].what, g);
        }
        CHECK(in_orbit, "%s: canonical member not in the orbit", cases[i].what);
    }
    /* attacking or inconsistent pre-placements are not legal */
    CHECK(!qce_legal(8, make(3, 3, 1, 6)), "top and bottom in one column");
    CHECK(!qce_legal(8, make(0, 3, 5, 2)), "corner (0,0) and left queen (5,0) in one column");
    CHECK(!qce_legal(8, make(0, 7, 0, 7)), "opposite corners on one diagonal");
    CHECK(!qce_legal(8, make(1, 4, 1, 5)), "(0,1) and (1,0) on one anti-diagonal");
}

/* Every legal constellation of small boards: exactly one canonical member
 * per brute orbit, with the brute orbit's size, and the class sizes of the
 * canonical ones add up to all legal constellations. */
static void test_all_orbits(void)
{
    for (int n = 1; n <= 11; n++) {
        long legal = 0, weighted = 0;
        int seen_size[9] = {0};
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++)
                for (int c = 0; c < n; c++)
                    for (int d = 0; d < n; d++) {
                        qce_constellation k = make(a, b, c, d);
                        if (!qce_legal(n, k))
                            continue;
                        legal++;
                        int size = 0, brute = brute_orbit_size(n, k);
                        if (qce_canonical(n, k, &size)) {
                            weighted += size;
                            seen_size[size]++;
                            CHECK(size == brute, "n=%d (%d,%d,%d,%d): class %d, brute orbit %d",
                                  n, a, b, c, d, size, brute);
                        }
                        int canonical_members = 0;
                        for (int g = 0; g < QC_SYMMETRIES; g++) {
                            int s;
                            qce_constellation img = qce_image(n, k, g);
                            CHECK(qce_legal(n, img), "n=%d image %d not legal", n, g);
                            /* count each distinct image once */
                            int first = 1;
                            for (int h = 0; h < g; h++)
                                first &= qce_key(qce_image(n, k, h)) != qce_key(img);
                            if (first && qce_canonical(n, img, &s))
                                canonical_members++;
                        }
                        CHECK(canonical_members == 1, "n=%d (%d,%d,%d,%d): %d canonical members",
                              n, a, b, c, d, canonical_members);
                    }
        CHECK(weighted == legal, "n=%d: class sizes add to %ld, %ld legal", n, weighted, legal);
        if (n >= 8)   /* all three class sizes occur on the boards that matter */
            CHECK(seen_size[8] > 0 && seen_size[4] > 0 && seen_size[2] > 0,
                  "n=%d: class sizes 8/4/2 seen %d/%d/%d", n, seen_size[8], seen_size[4], seen_size[2]);
        if (n == 1)
            CHECK(legal == 1 && seen_size[1] == 1, "n=1: the lone queen, class size 1");
    }
}

/* ---- symmetric solutions against a textbook search ------------------ */

static int col_of[32];
static long sol_total, sol_r90, sol_r180;

static void textbook(int n, int row)
{
    if (row == n) {
        int q = 1, h = 1;
        for (int r = 0; r < n; r++) {
            /* quarter turn (r,c) -> (c, n-1-r): fixed when col_of[c] = n-1-r */
            q &= col_of[col_of[r]] == n - 1 - r;
            h &= col_of[n - 1 - r] == n - 1 - col_of[r];
        }
        sol_total++;
        sol_r90 += q;
        sol_r180 += h;
        return;
    }
    for (int c = 0; c < n; c++) {
        int ok = 1;
        for (int r = 0; r < row; r++)
            ok &= col_of[r] != c && col_of[r] - c != r - row && col_of[r] - c != row - r;
        if (ok) {
            col_of[row] = c;
            textbook(n, row + 1);
        }
    }
}

static void test_symmetric_counts(const known_count *known)
{
    for (int n = 1; n <= 11; n++) {
        sol_total = sol_r90 = sol_r180 = 0;
        textbook(n, 0);
        qc_u128 r90 = 99, r180 = 99;
        uint64_t placed = 0;
        CHECK(qc_symmetric_counts(n, &r90, &r180, &placed) == QC_OK, "n=%d: error", n);
        CHECK(r90 == (qc_u128)sol_r90 && r180 == (qc_u128)sol_r180,
              "n=%d: r90 %llu r180 %llu, textbook %ld %ld", n, (unsigned long long)r90,
              (unsigned long long)r180, sol_r90, sol_r180);
        CHECK(qc_fundamental_count(n, (qc_u128)sol_total, r90, r180) == known[n].unique,
              "n=%d: fundamental from textbook total", n);
    }
    /* Burnside against the published fundamental counts (A002562) */
    for (int n = 1; n <= 20; n++) {
        qc_u128 r90, r180;
        CHECK(qc_symmetric_counts(n, &r90, &r180, NULL) == QC_OK, "n=%d: error", n);
        qc_u128 got = qc_fundamental_count(n, known[n].total, r90, r180);
        char g[48], w[48];
        CHECK(got == known[n].unique, "n=%d: unique %s, want %s", n, qc_u128_format(got, g),
              qc_u128_format(known[n].unique, w));
        CHECK((known[n].total + 2 * r90 + r180) % 8 == 0 || n == 1, "n=%d: not divisible by 8", n);
    }
    qc_u128 a, b;
    CHECK(qc_symmetric_counts(0, &a, &b, NULL) == QC_EINVAL, "n=0 accepted");
    CHECK(qc_symmetric_counts(33, &a, &b, NULL) == QC_EINVAL, "n=33 accepted");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s TSV\n", argv[0]);
        return 2;
    }
    known_count known[QC_N_MAX + 1] = {{0, 0}};
    known_load(argv[1], known);
    test_numbering();
    test_constellations_follow_solutions();
    test_hand_made();
    test_all_orbits();
    test_symmetric_counts(known);
    return check_report("symmetry");
}
