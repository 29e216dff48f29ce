/* conebench — the parallel visiting orders of nsgs/psor: colours and domains (nsgs_colour.h). */
#include "nsgs_colour.h"

#include "base.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DOMAIN_LEAF_MIN 2000 /* order=domains: a leaf holds about nc / 2^depth ≥ this many */

/* Counting sort: the items a < n with key[a] ≥ 0 by key (< nkeys), increasing inside a key,
 * into out; start (nkeys + 1) gets each key's first position, pos (nkeys) is scratch. */
static void bucket_sort(const int *key, int n, int nkeys, int *start, int *pos, int *out)
{
    memset(start, 0, ((size_t)nkeys + 1) * sizeof *start);
    for (int a = 0; a < n; a++)
        if (key[a] >= 0)
            start[key[a] + 1]++;
    for (int k = 0; k < nkeys; k++)
        start[k + 1] += start[k];
    memcpy(pos, start, (size_t)nkeys * sizeof *pos);
    for (int a = 0; a < n; a++)
        if (key[a] >= 0)
            out[pos[key[a]]++] = a;
}

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
        c->nphases = greedy(&g, nc, colour, mark);
        if (!(c->start = cb_calloc((size_t)c->nphases + 1, sizeof(int))))
            rc = CB_ERR_NOMEM;
    }
    if (rc == CB_OK)
        bucket_sort(colour, nc, c->nphases, c->start, mark, c->order);
    free(g.ptr);
    free(g.nbr);
    free(colour);
    free(mark);
    return rc;
}

/* ------------------------------------------------------------------ order=domains */

typedef struct {
    const contact_graph *g;
    int nc, depth, tick;
    int moved;      /* contacts moved into a separator by nd_repair */
    int *seg;       /* nc: the contact's part at the current depth, −1 once in a separator */
    int *unit;      /* nc: its unit, numbered phase by phase */
    int *mem, *mptr;/* the members of each part, in contact order */
    int *lvl, *stamp, *queue;
    long long *wl;  /* weight of each level; then its prefix sums */
} nd_work;

/* A contact's weight: 1 + its neighbours (a visit reads and writes about that many blocks). */
static long long nd_weight(const contact_graph *g, int a) { return 1 + g->ptr[a + 1] - g->ptr[a]; }

/* Units are numbered phase by phase: the 2^D leaves, the 2^l separators of each depth
 * l = D−1, …, 1, then the two halves of the root's separator and their separator. The first
 * unit of depth l's separators (l = 0: of the root's halves). */
static int nd_level_base(int depth, int l)
{
    int off = 0;
    for (int j = 0; j < depth - l; j++)
        off += 1 << (depth - j);
    return off;
}

/* Unit of the separator made at depth l in part s (the root's: its halves' separator). */
static int nd_sep_unit(int depth, int l, int s)
{
    return nd_level_base(depth, l) + s + (l == 0 ? 2 : 0);
}

/* Breadth-first level sets of part s (members mem[lo..hi)) from `start`; a member not reached
 * starts a new search dist levels past the last (no edge spans the gap). Level weights into
 * wl; returns the level count, *last the last contact reached. */
static int nd_levels(nd_work *w, int s, int lo, int hi, int start, int *last)
{
    const contact_graph *g = w->g;
    int head = 0, tail = 0, nlev = 0, next = lo, gap = g->dist;
    memset(w->wl, 0, ((size_t)(hi - lo) * (gap + 1) + 1) * sizeof *w->wl);
    w->tick++;
    for (;;) {
        if (head == tail) { /* a new search: `start`, then the first member not reached */
            while (next < hi && w->stamp[w->mem[next]] == w->tick)
                next++;
            if (start < 0 && next == hi)
                break;
            int a = start >= 0 ? start : w->mem[next];
            start = -1;
            w->stamp[a] = w->tick;
            w->lvl[a] = tail ? nlev + gap : 0;
            w->queue[tail++] = a;
        }
        int a = w->queue[head++], la = w->lvl[a];
        *last = a;
        nlev = la + 1 > nlev ? la + 1 : nlev;
        w->wl[la] += nd_weight(g, a);
        for (int i = g->ptr[a]; i < g->ptr[a + 1]; i++) {
            int b = g->nbr[i];
            if (w->seg[b] == s && w->stamp[b] != w->tick) {
                w->stamp[b] = w->tick;
                w->lvl[b] = la + 1;
                w->queue[tail++] = b;
            }
        }
    }
    return nlev;
}

/* The first level m of the separator [m, m + dist): the parts' weights as even as can be. */
static int nd_split(nd_work *w, int nlev)
{
    long long *P = w->wl, best = -1;
    for (int k = 1; k < nlev; k++) /* prefix sums: P[k] = weight of levels < k + 1 */
        P[k] += P[k - 1];
    int m = nlev, dist = w->g->dist;
    for (int k = 1; k < nlev; k++) {
        long long a = P[k - 1], b = P[nlev - 1] - (k + dist <= nlev ? P[k + dist - 1] : P[nlev - 1]);
        long long diff = a > b ? a - b : b - a;
        if (best < 0 || diff < best)
            best = diff, m = k;
    }
    return m;
}

/* Level sets of part s (members mem[mptr[s] .. mptr[s+1]), those with seg = s) from a
 * pseudo-peripheral contact (the last one reached from its first member), into w->lvl; returns
 * the first level m of the cut [m, m + dist) (nd_split). */
static int nd_cut(nd_work *w, int s)
{
    int lo = w->mptr[s], hi = w->mptr[s + 1], last = -1;
    if (lo == hi)
        return 0;
    nd_levels(w, s, lo, hi, w->mem[lo], &last);
    return nd_split(w, nd_levels(w, s, lo, hi, last, &last));
}

/* Cut part s (depth l) into parts 2s, 2s+1 and its separator. */
static void nd_bisect(nd_work *w, int l, int s)
{
    int m = nd_cut(w, s), dist = w->g->dist;
    for (int i = w->mptr[s]; i < w->mptr[s + 1]; i++) {
        int a = w->mem[i], la = w->lvl[a];
        if (la < m || la >= m + dist)
            w->seg[a] = 2 * s + (la >= m);
        else
            w->seg[a] = -1, w->unit[a] = nd_sep_unit(w->depth, l, s);
    }
}

/* The root's separator (its members have seg = 0) cut within itself: the contacts below the
 * cut into its first half, those above into its second; the cut's own stay where they are. */
static void nd_halve(nd_work *w)
{
    int m = nd_cut(w, 0), dist = w->g->dist, half = nd_level_base(w->depth, 0);
    for (int i = w->mptr[0]; i < w->mptr[1]; i++) {
        int a = w->mem[i], la = w->lvl[a];
        if (la < m || la >= m + dist)
            w->unit[a] = half + (la >= m);
    }
}

/* Depth l's cuts checked on the whole graph: a contact of part 2s+1 within dist steps of one of
 * part 2s (a path through contacts outside the part) joins the separator of part s. */
static void nd_repair(nd_work *w, int l)
{
    const contact_graph *g = w->g;
    for (int a = 0; a < w->nc; a++) {
        int sa = w->seg[a];
        if (sa < 0 || sa % 2)
            continue;
        for (int i = g->ptr[a]; i < g->ptr[a + 1]; i++)
            for (int j = -1, b = g->nbr[i]; j < (g->dist > 1 ? g->ptr[b + 1] - g->ptr[b] : 0); j++) {
                int x = j < 0 ? b : g->nbr[g->ptr[b] + j];
                if (w->seg[x] == sa + 1)
                    w->seg[x] = -1, w->unit[x] = nd_sep_unit(w->depth, l, sa / 2), w->moved++;
            }
    }
}

/* The members of each of the nparts parts (seg ≥ 0), in contact order, into mem/mptr. */
static void nd_members(nd_work *w, int nparts)
{
    bucket_sort(w->seg, w->nc, nparts, w->mptr, w->queue, w->mem); /* queue: scratch */
}

/* The root's separator halved (nd_halve) by a search over its own contacts; then, as for the
 * parts, a contact of its second half within dist steps of its first (a path through any
 * contact) joins the halves' separator. So only that separator is visited by one thread alone.
 * (The deeper separators are not halved: there are two or more of them a phase already, and a
 * halving costs a barrier a sweep.) */
static void nd_root_separator(nd_work *w)
{
    int root = nd_sep_unit(w->depth, 0, 0), half = nd_level_base(w->depth, 0);
    for (int a = 0; a < w->nc; a++)
        w->seg[a] = w->unit[a] == root ? 0 : 1;
    nd_members(w, 2);
    nd_halve(w);
    for (int a = 0; a < w->nc; a++) { /* the halves as parts 0 and 1, as nd_repair reads */
        int u = w->unit[a] - half;
        w->seg[a] = u == 0 || u == 1 ? u : -1;
    }
    nd_repair(w, 0);
}

/* The visiting order from the units: phase by phase, unit by unit, contact order inside. */
static int nd_order(const nd_work *w, cb_nsgs_colouring *c)
{
    int D = w->depth, nc = w->nc, nunits = D ? nd_sep_unit(D, 0, 0) + 1 : 1;
    int *ustart = cb_calloc((size_t)nunits + 1, sizeof(int));
    int *pos = cb_malloc_array((size_t)nunits, sizeof(int));
    c->nphases = D ? D + 2 : 1;
    c->start = cb_calloc((size_t)c->nphases + 1, sizeof(int));
    c->uend = cb_malloc_array((size_t)nc + 1, sizeof(int));
    c->ubeg = cb_malloc_array((size_t)nc + 1, sizeof(int));
    int rc = ustart && pos && c->start && c->uend && c->ubeg ? CB_OK : CB_ERR_NOMEM;
    if (rc == CB_OK) {
        bucket_sort(w->unit, nc, nunits, ustart, pos, c->order);
        for (int k = 1; k <= D; k++) /* phases start where their units do */
            c->start[k] = ustart[nd_level_base(D, D - k)];
        if (D)
            c->start[D + 1] = ustart[nd_sep_unit(D, 0, 0)];
        c->start[c->nphases] = nc;
    }
    for (int u = 0; rc == CB_OK && u < nunits; u++)
        for (int i = ustart[u]; i < ustart[u + 1]; i++)
            c->ubeg[i] = ustart[u], c->uend[i] = ustart[u + 1];
    free(ustart);
    free(pos);
    return rc;
}

/* Cuts depth = ⌊log2(nc / DOMAIN_LEAF_MIN)⌋ ≤ CB_DOMAIN_MAX_DEPTH levels deep, then the order. */
int cb_nsgs_domains(const cb_problem *prob, cb_nsgs_colouring *c)
{
    memset(c, 0, sizeof *c);
    contact_graph g = {NULL, NULL, 1};
    nd_work w = {.g = &g, .nc = prob->nc};
    while (w.depth < CB_DOMAIN_MAX_DEPTH && (prob->nc >> (w.depth + 1)) >= DOMAIN_LEAF_MIN)
        w.depth++;
    size_t n1 = (size_t)prob->nc + 1;
    w.seg = cb_calloc(n1, sizeof(int));
    w.unit = cb_calloc(n1, sizeof(int));
    w.mem = cb_malloc_array(n1, sizeof(int));
    w.mptr = cb_calloc(((size_t)1 << CB_DOMAIN_MAX_DEPTH) + 1, sizeof(int));
    w.lvl = cb_calloc(n1, sizeof(int));
    w.stamp = cb_calloc(n1, sizeof(int));
    w.queue = cb_malloc_array(n1 + ((size_t)1 << CB_DOMAIN_MAX_DEPTH), sizeof(int));
    w.wl = cb_malloc_array(3 * n1, sizeof(long long));
    c->order = cb_malloc_array(n1, sizeof(int));
    int rc = w.seg && w.unit && w.mem && w.mptr && w.lvl && w.stamp && w.queue && w.wl && c->order
                 ? CB_OK : CB_ERR_NOMEM;
    if (rc == CB_OK && w.depth > 0) /* depth 0: one leaf, the natural order, no graph */
        rc = build_graph(prob, &g);
    for (int l = 0; rc == CB_OK && l < w.depth; l++) {
        nd_members(&w, 1 << l);
        for (int s = 0; s < 1 << l; s++)
            nd_bisect(&w, l, s);
        nd_repair(&w, l);
    }
    for (int a = 0; rc == CB_OK && a < prob->nc; a++)
        if (w.seg[a] >= 0)
            w.unit[a] = w.seg[a]; /* a leaf: phase 0 */
    if (rc == CB_OK && w.depth > 0)
        nd_root_separator(&w);
    if (rc == CB_OK)
        rc = nd_order(&w, c);
    c->repaired = w.moved;
    free(g.ptr);
    free(g.nbr);
    free(w.seg);
    free(w.unit);
    free(w.mem);
    free(w.mptr);
    free(w.lvl);
    free(w.stamp);
    free(w.queue);
    free(w.wl);
    return rc;
}

void cb_nsgs_colouring_free(cb_nsgs_colouring *c)
{
    if (!c)
        return;
    free(c->start);
    free(c->order);
    free(c->uend);
    free(c->ubeg);
    memset(c, 0, sizeof *c);
}
