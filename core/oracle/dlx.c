/* SPDX-License-Identifier: MIT */
/*
 * dlx.c — Algorithm X on dancing links, after Knuth's paper, with arrays
 * for the links (node indices instead of pointers: one allocation per
 * field, easy to grow and free).
 *
 * Node 0 is the root; nodes 1..items are the item headers; option nodes
 * follow, each option a circular left-right list of its nodes, each item a
 * circular up-down list of its header and the nodes of the options that
 * hold it.  Primary headers are in the root's left-right list; secondary
 * headers point left and right to themselves, so the search never picks
 * them, but covering an option still removes every option that clashes on
 * them (Knuth's way to say "at most once").
 */
#include <stdlib.h>
#include <string.h>

#include "dlx.h"

struct qco_dlx_problem {
    int items;            /* primary + secondary                        */
    int primary;
    int nodes, capacity;  /* nodes used / allocated                     */
    int *left, *right, *up, *down;
    int *item;            /* node -> its item's header                  */
    int *option;          /* node -> its option's number (-1: header)   */
    int *size;            /* header -> options left in the item         */
    int *first;           /* option -> its first node                   */
    int options, options_cap;
    unsigned char *covered;   /* header -> covered by a selection        */
    int *chosen;          /* the partial solution: selected, then search */
    int selected;         /* how many were chosen by qco_dlx_select          */
};

static int grow_nodes(qco_dlx_problem *d, int need)
{
    if (need <= d->capacity)
        return 0;
    int cap = d->capacity ? d->capacity : 64;
    while (cap < need)
        cap *= 2;
    int **fields[] = {&d->left, &d->right, &d->up, &d->down, &d->item, &d->option};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        int *p = realloc(*fields[f], (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        *fields[f] = p;
    }
    d->capacity = cap;
    return 0;
}

qco_dlx_problem *qco_dlx_create(int primary, int secondary)
{
    if (primary < 0 || secondary < 0)
        return NULL;
    qco_dlx_problem *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->primary = primary;
    d->items = primary + secondary;
    d->size = calloc((size_t)d->items + 1, sizeof *d->size);
    d->covered = calloc((size_t)d->items + 1, 1);
    d->chosen = malloc(((size_t)d->items + 1) * sizeof *d->chosen);
    if (!d->size || !d->covered || !d->chosen || grow_nodes(d, d->items + 1) != 0) {
        qco_dlx_free(d);
        return NULL;
    }
    for (int h = 0; h <= d->items; h++) {
        d->up[h] = d->down[h] = h;
        d->item[h] = h;
        d->option[h] = -1;
        if (h == 0 || h <= primary) {          /* root and primary: in the ring */
            d->left[h] = h == 0 ? primary : h - 1;
            d->right[h] = h == primary ? 0 : h + 1;
        } else {                               /* secondary: out of the ring */
            d->left[h] = d->right[h] = h;
        }
    }
    d->nodes = d->items + 1;
    return d;
}

void qco_dlx_free(qco_dlx_problem *d)
{
    if (!d)
        return;
    free(d->left);
    free(d->right);
    free(d->up);
    free(d->down);
    free(d->item);
    free(d->option);
    free(d->size);
    free(d->first);
    free(d->covered);
    free(d->chosen);
    free(d);
}

int qco_dlx_add_option(qco_dlx_problem *d, const int *items, int count)
{
    if (count <= 0)
        return -1;
    for (int i = 0; i < count; i++) {
        if (items[i] < 0 || items[i] >= d->items)
            return -1;
        for (int k = 0; k < i; k++)
            if (items[k] == items[i])
                return -1;
    }
    if (grow_nodes(d, d->nodes + count) != 0)
        return -1;
    if (d->options == d->options_cap) {
        int cap = d->options_cap ? 2 * d->options_cap : 64;
        int *p = realloc(d->first, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        d->first = p;
        d->options_cap = cap;
    }
    const int id = d->options++;
    const int first = d->nodes;
    d->first[id] = first;
    for (int i = 0; i < count; i++) {
        int x = d->nodes++;
        int h = items[i] + 1;                  /* header of the item */
        d->item[x] = h;
        d->option[x] = id;
        d->left[x] = i == 0 ? first + count - 1 : x - 1;
        d->right[x] = i == count - 1 ? first : x + 1;
        d->up[x] = d->up[h];                   /* at the bottom of the item */
        d->down[x] = h;
        d->down[d->up[h]] = x;
        d->up[h] = x;
        d->size[h]++;
    }
    return id;
}

/* Removes item header c and every option that holds c from the other
 * items' lists. */
static void cover(qco_dlx_problem *d, int c)
{
    d->right[d->left[c]] = d->right[c];
    d->left[d->right[c]] = d->left[c];
    for (int i = d->down[c]; i != c; i = d->down[i]) {
        for (int j = d->right[i]; j != i; j = d->right[j]) {
            d->up[d->down[j]] = d->up[j];
            d->down[d->up[j]] = d->down[j];
            d->size[d->item[j]]--;
        }
    }
}

/* Exactly undoes cover(d, c): the dance, in reverse order. */
static void uncover(qco_dlx_problem *d, int c)
{
    for (int i = d->up[c]; i != c; i = d->up[i]) {
        for (int j = d->left[i]; j != i; j = d->left[j]) {
            d->size[d->item[j]]++;
            d->up[d->down[j]] = j;
            d->down[d->up[j]] = j;
        }
    }
    d->right[d->left[c]] = c;
    d->left[d->right[c]] = c;
}

int qco_dlx_select(qco_dlx_problem *d, int option)
{
    if (option < 0 || option >= d->options)
        return -1;
    const int r = d->first[option];
    int j = r;
    do {
        if (d->covered[d->item[j]])
            return -1;
        j = d->right[j];
    } while (j != r);
    j = r;
    do {
        d->covered[d->item[j]] = 1;
        cover(d, d->item[j]);
        j = d->right[j];
    } while (j != r);
    d->chosen[d->selected++] = option;
    return 0;
}

typedef struct search_state {
    qco_dlx_problem *d;
    qco_dlx_solution_fn on_solution;
    void *ctx;
    uint64_t solutions, choices;
    int stop;
} search_state;

/* Algorithm X at depth k (k options chosen so far, past the selected). */
static void search(search_state *s, int k)
{
    qco_dlx_problem *d = s->d;
    if (d->right[0] == 0) {                    /* every primary item covered */
        s->solutions++;
        if (s->on_solution && s->on_solution(d->chosen, d->selected + k, s->ctx))
            s->stop = 1;
        return;
    }
    int c = d->right[0], best = d->size[c];    /* fewest options left (MRV) */
    for (int h = d->right[c]; h != 0 && best > 0; h = d->right[h])
        if (d->size[h] < best) {
            c = h;
            best = d->size[h];
        }
    if (best == 0)
        return;
    cover(d, c);
    for (int r = d->down[c]; r != c && !s->stop; r = d->down[r]) {
        s->choices++;
        d->chosen[d->selected + k] = d->option[r];
        for (int j = d->right[r]; j != r; j = d->right[j])
            cover(d, d->item[j]);
        search(s, k + 1);
        for (int j = d->left[r]; j != r; j = d->left[j])
            uncover(d, d->item[j]);
    }
    uncover(d, c);
}

uint64_t qco_dlx_search(qco_dlx_problem *d, qco_dlx_solution_fn on_solution, void *ctx, uint64_t *choices)
{
    search_state s = {.d = d, .on_solution = on_solution, .ctx = ctx};
    search(&s, 0);
    if (choices)
        *choices = s.choices;
    return s.solutions;
}
