/* conebench — the coloured visiting order of nsgs/psor (nsgs_colour.h). */
#include "nsgs_colour.h"

#include "base.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The contact graph as adjacency lists (duplicates allowed): nbr[ptr[a] .. ptr[a+1]). */
typedef struct {
    int *ptr, *nbr;
    int dist; /* conflicts reach this many steps: 1 (factored) or 2 (dense, BSR) */
} contact_graph;

/* 1 when dense block (a, b) has a nonzero entry. */
static int dense_nonzero(const cb_problem *p, int a, int b)
{
    size_t n = cb_problem_n(p);
    for (int j = 0; j < p->d; j++)
        for (int i = 0; i < p->d; i++)
            if (p->W[(size_t)a * p->d + i + ((size_t)b * p->d + j) * n] != 0.0)
                return 1;
    return 0;
}

/* The neighbours of contact a into out (NULL: only counted); returns their count. */
static int neighbours(const cb_problem *p, int a, const int *tptr, const int *trow, int *out)
{
    int k = 0;
    if (p->storage == CB_STORAGE_FACTORED) {
        const cb_factored *f = &p->fac;
        for (int s = 0; s < 2; s++) {
            int b = f->body[2 * a + s];
            for (int i = b < 0 ? 0 : f->adj_ptr[b]; b >= 0 && i < f->adj_ptr[b + 1]; i++, k++)
                if (out)
                    out[k] = f->adj[i] / 2;
        }
    } else if (p->storage == CB_STORAGE_BSR) {
        const cb_bsr *B = &p->bsr;
        for (int i = B->row_ptr[a]; i < B->row_ptr[a + 1]; i++, k++)
            if (out)
                out[k] = B->col[i];
        for (int i = tptr[a]; i < tptr[a + 1]; i++, k++)
            if (out)
                out[k] = trow[i];
    } else {
        for (int b = 0; b < p->nc; b++)
            if (b != a && (dense_nonzero(p, a, b) || dense_nonzero(p, b, a))) {
                if (out)
                    out[k] = b;
                k++;
            }
    }
    return k;
}

/* BSR: the rows of each block column (transposed pattern) into *tptr, *trow. */
static int transpose_pattern(const cb_problem *p, int **tptr, int **trow)
{
    const cb_bsr *B = &p->bsr;
    *tptr = cb_calloc((size_t)p->nc + 1, sizeof(int));
    *trow = cb_malloc_array((size_t)B->nnzb + 1, sizeof(int));
    int *fill = cb_malloc_array((size_t)p->nc + 1, sizeof(int));
    int rc = *tptr && *trow && fill ? CB_OK : CB_ERR_NOMEM;
    if (rc == CB_OK) {
        for (int k = 0; k < B->nnzb; k++)
            (*tptr)[B->col[k] + 1]++;
        for (int c = 0; c < p->nc; c++)
            (*tptr)[c + 1] += (*tptr)[c];
        memcpy(fill, *tptr, (size_t)p->nc * sizeof(int));
        for (int a = 0; a < p->nc; a++)
            for (int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++)
                (*trow)[fill[B->col[k]]++] = a;
    }
    free(fill);
    return rc;
}

/* The contact graph of p (adjacency lists of its pattern). */
static int build_graph(const cb_problem *p, contact_graph *g)
{
    int *tptr = NULL, *trow = NULL, nc = p->nc;
    int rc = p->storage == CB_STORAGE_BSR ? transpose_pattern(p, &tptr, &trow) : CB_OK;
    g->dist = p->storage == CB_STORAGE_FACTORED ? 1 : 2;
    g->ptr = rc == CB_OK ? cb_calloc((size_t)nc + 1, sizeof(int)) : NULL;
    if (!g->ptr)
        rc = CB_ERR_NOMEM;
    long long total = 0;
    for (int a = 0; rc == CB_OK && a < nc; a++) {
        total += neighbours(p, a, tptr, trow, NULL);
        if (total > INT32_MAX)
            rc = CB_ERR_NOMEM; /* beyond int offsets */
        else
            g->ptr[a + 1] = (int)total;
    }
    if (rc == CB_OK && !(g->nbr = cb_malloc_array((size_t)total + 1, sizeof(int))))
        rc = CB_ERR_NOMEM;
    for (int a = 0; rc == CB_OK && a < nc; a++)
        neighbours(p, a, tptr, trow, g->nbr + g->ptr[a]);
    free(tptr);
    free(trow);
    return rc;
}

/* Greedy colours in contact order: each contact takes the smallest colour no contact within
 * g->dist steps has yet (mark[c] = a: colour c is taken near a). Returns the colour count. */
static int greedy(const contact_graph *g, int nc, int *colour, int *mark)
{
    int ncol = 0;
    for (int a = 0; a < nc; a++) {
        colour[a] = -1;
        mark[a] = -1;
    }
    for (int a = 0; a < nc; a++) {
        for (int i = g->ptr[a]; i < g->ptr[a + 1]; i++) {
            int b = g->nbr[i];
            if (colour[b] >= 0)
                mark[colour[b]] = a;
            for (int j = g->dist > 1 ? g->ptr[b] : 0; g->dist > 1 && j < g->ptr[b + 1]; j++)
                if (colour[g->nbr[j]] >= 0)
                    mark[colour[g->nbr[j]]] = a;
        }
        int c = 0;
        while (mark[c] == a)
            c++;
        colour[a] = c;
        ncol = c + 1 > ncol ? c + 1 : ncol;
    }
    return ncol;
}

/* Colours by greedy(), then the contacts sorted by colour (counting sort: increasing inside). */
int cb_nsgs_colour(const cb_problem *prob, cb_nsgs_colouring *c)
{
    memset(c, 0, sizeof *c);
    int nc = prob->nc;
    contact_graph g = {NULL, NULL, 1};
    int *colour = cb_malloc_array((size_t)nc + 1, sizeof(int));
    int *mark = cb_malloc_array((size_t)nc + 1, sizeof(int));
    c->order = cb_malloc_array((size_t)nc + 1, sizeof(int));
    int rc = colour && mark && c->order ? build_graph(prob, &g) : CB_ERR_NOMEM;
    if (rc == CB_OK) {
        c->ncolours = greedy(&g, nc, colour, mark);
        if (!(c->start = cb_calloc((size_t)c->ncolours + 1, sizeof(int))))
            rc = CB_ERR_NOMEM;
    }
    if (rc == CB_OK) {
        for (int a = 0; a < nc; a++)
            c->start[colour[a] + 1]++;
        for (int k = 0; k < c->ncolours; k++)
            c->start[k + 1] += c->start[k];
        memcpy(mark, c->start, (size_t)c->ncolours * sizeof(int));
        for (int a = 0; a < nc; a++)
            c->order[mark[colour[a]]++] = a;
    }
    free(g.ptr);
    free(g.nbr);
    free(colour);
    free(mark);
    return rc;
}

void cb_nsgs_colouring_free(cb_nsgs_colouring *c)
{
    if (!c)
        return;
    free(c->start);
    free(c->order);
    memset(c, 0, sizeof *c);
}
