/* conebench — contact detection (plane–X, sphere–sphere with a cell grid), contact frames kept
 * continuous between steps, and contact kinematics (the d×6 blocks of Hᵀ). */
#include "contact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vec3.h"
#include "base.h"

void cb_detect_settings_default(cb_detect_settings *s)
{
    s->margin = 0.0;
    s->friction.mu = s->friction.mu_r = s->friction.mu_s = 0.0;
    s->e_n = 0.0;
}

void cb_contact_list_init(cb_contact_list *l) { memset(l, 0, sizeof *l); }

void cb_contact_list_free(cb_contact_list *l)
{
    if (!l)
        return;
    free(l->c);
    free(l->cell_head);
    free(l->cell_next);
    free(l->cell_key);
    memset(l, 0, sizeof *l);
}

/* Append one contact (frame from the default rule); CB_ERR_NOMEM on failure. */
static int push(cb_contact_list *l, const cb_body *b, int i, int j, int feature,
                const double n[3], const double point[3], double gap, const cb_detect_settings *s)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 64;
        cb_contact *c = cap > l->cap ? realloc(l->c, (size_t)cap * sizeof *c) : NULL;
        if (!c)
            return CB_ERR_NOMEM;
        l->c = c;
        l->cap = cap;
    }
    cb_contact *c = &l->c[l->n++];
    c->i = i;
    c->j = j;
    c->feature = feature;
    v3_copy(point, c->point);
    v3_copy(n, c->n);
    c->gap = gap;
    c->friction = s->friction;
    c->e_n = s->e_n;
    cb_contact_default_t1(&b[i], &b[j], c->n, c->t1);
    v3_cross(c->n, c->t1, c->t2);
    return CB_OK;
}

/* t ← t − (t·n) n normalised; returns the norm before normalisation. */
static double tangent_of(const double n[3], double t[3])
{
    v3_axpy(t, -v3_dot(t, n), n, t);
    return v3_normalize(t);
}

void cb_contact_default_t1(const cb_body *bi, const cb_body *bj, const double n[3], double t1[3])
{
    static const double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0};
    if (bj->shape.kind == CB_SHAPE_DISK) { /* t2 = disk axis: t1 = axis × n */
        double a[3];
        cb_quat_rotate(bj->q, ey, a);
        v3_cross(a, n, t1);
        if (tangent_of(n, t1) > 1e-6)
            return;
    }
    if (bi->shape.kind == CB_SHAPE_PLANE) {
        cb_quat_rotate(bi->q, ex, t1);
        if (tangent_of(n, t1) > 1e-6)
            return;
    }
    int k = fabs(n[0]) <= fabs(n[1]) ? (fabs(n[0]) <= fabs(n[2]) ? 0 : 2)
                                     : (fabs(n[1]) <= fabs(n[2]) ? 1 : 2);
    t1[0] = t1[1] = t1[2] = 0.0;
    t1[k] = 1.0;
    tangent_of(n, t1);
}

/* Lowest point of body b in direction −n (support point), world. */
static void support_point(const cb_body *b, const double n[3], int corner, double s[3])
{
    double nb[3], xb[3] = {0, 0, 0};
    const double *h = b->shape.half;
    cb_quat_rotate_inv(b->q, n, nb);
    if (b->shape.kind == CB_SHAPE_SPHERE) {
        v3_axpy(b->x, -b->shape.radius, n, s);
        return;
    }
    if (b->shape.kind == CB_SHAPE_ELLIPSOID) { /* x_b = −A² n_b / √(n_bᵀ A² n_b) */
        double den = sqrt(h[0] * h[0] * nb[0] * nb[0] + h[1] * h[1] * nb[1] * nb[1] +
                          h[2] * h[2] * nb[2] * nb[2]);
        for (int k = 0; k < 3; k++)
            xb[k] = -h[k] * h[k] * nb[k] / den;
    } else if (b->shape.kind == CB_SHAPE_BOX) {
        for (int k = 0; k < 3; k++)
            xb[k] = (corner >> k & 1) ? h[k] : -h[k];
    } else if (b->shape.kind == CB_SHAPE_DISK) { /* rim point: −r (n − (n·a)a)/‖·‖ − L/2 sgn(n·a) a */
        double d[3] = {-nb[0], 0.0, -nb[2]};
        if (v3_normalize(d) == 0)
            d[0] = 1.0;
        for (int k = 0; k < 3; k++)
            xb[k] = b->shape.radius * d[k];
        xb[1] = nb[1] > 0 ? -0.5 * b->shape.length : (nb[1] < 0 ? 0.5 * b->shape.length : 0.0);
    }
    cb_quat_rotate(b->q, xb, s);
    v3_axpy(s, 1.0, b->x, s);
}

/* Contacts between plane p and body k (one for smooth shapes, one per close corner for a box). */
static int detect_plane(const cb_body *b, int p, int k, const cb_detect_settings *s,
                        cb_contact_list *out)
{
    static const double ez[3] = {0, 0, 1};
    double n[3], sp[3], c[3];
    cb_quat_rotate(b[p].q, ez, n);
    int nfeat = b[k].shape.kind == CB_SHAPE_BOX ? 8 : 1;
    int bounded = b[p].shape.half[0] > 0 && b[p].shape.half[1] > 0;
    for (int f = 0; f < nfeat; f++) {
        support_point(&b[k], n, f, sp);
        double d[3], loc[3];
        v3_axpy(sp, -1.0, b[p].x, d);
        double gap = v3_dot(d, n);
        if (gap > s->margin)
            continue;
        cb_quat_rotate_inv(b[p].q, d, loc);
        if (bounded && (fabs(loc[0]) > b[p].shape.half[0] || fabs(loc[1]) > b[p].shape.half[1]))
            continue; /* beyond the edge of a bounded plane */
        v3_axpy(sp, -0.5 * gap, n, c);
        if (push(out, b, p, k, f, n, c, gap, s) != CB_OK)
            return CB_ERR_NOMEM;
    }
    return CB_OK;
}

/* Sphere–sphere contact test (i < j). */
static int sphere_pair(const cb_body *b, int i, int j, const cb_detect_settings *s,
                       cb_contact_list *out)
{
    double d[3], c[3];
    v3_axpy(b[j].x, -1.0, b[i].x, d);
    double dist = v3_norm(d), ri = b[i].shape.radius, rj = b[j].shape.radius;
    double gap = dist - ri - rj;
    if (gap > s->margin || !(dist > 0))
        return CB_OK;
    v3_scale(d, 1.0 / dist, d);
    v3_axpy(b[i].x, ri + 0.5 * gap, d, c);
    return push(out, b, i, j, 0, d, c, gap, s);
}

static int is_alive(const unsigned char *alive, int k) { return !alive || alive[k]; }

/* Packed cell key of position x (cell size h, origin o): 21 bits per axis. */
static long long cell_of(const double x[3], const double o[3], double h, const int off[3])
{
    long long key = 0;
    for (int k = 0; k < 3; k++) {
        long long c = (long long)floor((x[k] - o[k]) / h) + off[k];
        key = key << 21 | (c & 0x1fffff);
    }
    return key;
}

static size_t hash_key(long long key, size_t mask)
{
    unsigned long long z = (unsigned long long)key * 0x9E3779B97F4A7C15ull;
    return (size_t)((z ^ (z >> 29)) & mask);
}

/* Bucket the alive spheres (hash of cell key → singly linked lists). */
static int grid_build(const cb_body *b, int nb, const unsigned char *alive, double h,
                      const double o[3], cb_contact_list *l, size_t *mask)
{
    size_t need = 64;
    while (need < 2 * (size_t)nb)
        need *= 2;
    if (need > l->grid_cap) {
        free(l->cell_head);
        free(l->cell_next);
        free(l->cell_key);
        l->cell_head = cb_malloc_array(need, sizeof(int));
        l->cell_next = cb_malloc_array(need, sizeof(int));
        l->cell_key = cb_malloc_array(need, sizeof(long long));
        l->grid_cap = l->cell_head && l->cell_next && l->cell_key ? need : 0;
        if (!l->grid_cap)
            return CB_ERR_NOMEM;
    }
    *mask = need - 1;
    static const int zero[3] = {0, 0, 0};
    for (size_t t = 0; t < need; t++)
        l->cell_head[t] = -1;
    for (int k = nb - 1; k >= 0; k--) {
        if (!is_alive(alive, k) || b[k].shape.kind != CB_SHAPE_SPHERE)
            continue;
        l->cell_key[k] = cell_of(b[k].x, o, h, zero);
        size_t t = hash_key(l->cell_key[k], *mask);
        l->cell_next[k] = l->cell_head[t];
        l->cell_head[t] = k;
    }
    return CB_OK;
}

/* All sphere–sphere contacts through the cell grid: each pair (a < k) is tested once, from a,
 * in the one neighbour cell that is k's own cell. */
static int detect_spheres(const cb_body *b, int nb, const unsigned char *alive,
                          const cb_detect_settings *s, cb_contact_list *out)
{
    double rmax = 0, lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY,
                                                                        -INFINITY};
    int ns = 0;
    for (int k = 0; k < nb; k++)
        if (is_alive(alive, k) && b[k].shape.kind == CB_SHAPE_SPHERE) {
            ns++;
            rmax = fmax(rmax, b[k].shape.radius);
            for (int a = 0; a < 3; a++) {
                lo[a] = fmin(lo[a], b[k].x[a]);
                hi[a] = fmax(hi[a], b[k].x[a]);
            }
        }
    if (ns < 2)
        return CB_OK;
    double h = 2 * rmax + s->margin;
    for (int a = 0; a < 3; a++) /* at most 2^20 cells per axis */
        h = fmax(h, (hi[a] - lo[a]) / 1048000.0);
    size_t mask;
    if (grid_build(b, nb, alive, h, lo, out, &mask) != CB_OK)
        return CB_ERR_NOMEM;
    for (int a = 0; a < nb; a++) {
        if (!is_alive(alive, a) || b[a].shape.kind != CB_SHAPE_SPHERE)
            continue;
        for (int nbr = 0; nbr < 27; nbr++) {
            int off[3] = {nbr % 3 - 1, nbr / 3 % 3 - 1, nbr / 9 - 1};
            long long key = cell_of(b[a].x, lo, h, off);
            for (int k = out->cell_head[hash_key(key, mask)]; k >= 0; k = out->cell_next[k])
                if (k > a && out->cell_key[k] == key && sphere_pair(b, a, k, s, out) != CB_OK)
                    return CB_ERR_NOMEM;
        }
    }
    return CB_OK;
}

static int key_cmp(const void *pa, const void *pb)
{
    const cb_contact *a = pa, *b = pb;
    if (a->i != b->i)
        return a->i < b->i ? -1 : 1;
    if (a->j != b->j)
        return a->j < b->j ? -1 : 1;
    return (a->feature > b->feature) - (a->feature < b->feature);
}

int cb_detect(const cb_body *bodies, int nbodies, const unsigned char *alive,
              const cb_detect_settings *s, cb_contact_list *out, cb_error *err)
{
    if (!bodies || nbodies < 0 || !s || !out)
        return cb_fail(err, CB_ERR_INPUT, "detect: bad arguments");
    if (!(s->margin >= 0) || !isfinite(s->margin))
        return cb_fail(err, CB_ERR_INPUT, "margin: must be finite and ≥ 0, got %g", s->margin);
    out->n = 0;
    int rc = CB_OK;
    for (int p = 0; p < nbodies && rc == CB_OK; p++) {
        if (!is_alive(alive, p) || bodies[p].shape.kind != CB_SHAPE_PLANE)
            continue;
        for (int k = 0; k < nbodies && rc == CB_OK; k++)
            if (k != p && is_alive(alive, k) && !bodies[k].fixed &&
                bodies[k].shape.kind != CB_SHAPE_PLANE)
                rc = detect_plane(bodies, p, k, s, out);
    }
    if (rc == CB_OK)
        rc = detect_spheres(bodies, nbodies, alive, s, out);
    if (rc != CB_OK)
        return cb_fail(err, CB_ERR_NOMEM, "detect: out of memory (%d contacts)", out->n);
    if (out->n > 1)
        qsort(out->c, (size_t)out->n, sizeof *out->c, key_cmp);
    return CB_OK;
}

void cb_contact_frames_continue(cb_contact *cur, int ncur, const cb_contact *prev, int nprev,
                                int *match)
{
    for (int a = 0; a < ncur; a++) {
        const cb_contact *p =
            nprev > 0 ? bsearch(&cur[a], prev, (size_t)nprev, sizeof *prev, key_cmp) : NULL;
        if (match)
            match[a] = p ? (int)(p - prev) : -1;
        if (!p)
            continue;
        double t[3];
        v3_copy(p->t1, t);
        if (tangent_of(cur[a].n, t) < 1e-3)
            continue; /* the normal turned by ~90°: keep the default frame */
        v3_copy(t, cur[a].t1);
        v3_cross(cur[a].n, cur[a].t1, cur[a].t2);
    }
}

/* Row directions of a kind: 0..2 translational along n, t1, t2; 3..5 rotational along t1, t2, n. */
static int kind_rows(cb_kind kind, int rows[CB_MAX_DIM])
{
    static const int r2[] = {0, 1}, r3[] = {0, 1, 2}, rr2[] = {0, 1, 4}, rr3[] = {0, 1, 2, 3, 4},
                     rs3[] = {0, 1, 2, 3, 4, 5};
    static const int *tab[CB_KIND_COUNT] = {r2, r3, rr2, rr3, rs3};
    int d = cb_kind_dim(kind);
    for (int r = 0; r < d; r++)
        rows[r] = tab[kind][r];
    return d;
}

static const double *row_dir(const cb_contact *c, int type)
{
    const double *dirs[6] = {c->n, c->t1, c->t2, c->t1, c->t2, c->n};
    return dirs[type];
}

/* Translational row along e: G_j = [eᵀ, (r_j × e)ᵀ], G_i = −[eᵀ, (r_i × e)ᵀ];
 * rotational row along e: G_j = [0, eᵀ], G_i = [0, −eᵀ]. */
void cb_contact_jacobian(cb_kind kind, const cb_contact *c, const cb_body *bi, const cb_body *bj,
                         double Gi[CB_MAX_DIM * 6], double Gj[CB_MAX_DIM * 6])
{
    int rows[CB_MAX_DIM], d = kind_rows(kind, rows);
    double ri[3], rj[3], ci[3], cj[3];
    v3_axpy(c->point, -1.0, bi->x, ri);
    v3_axpy(c->point, -1.0, bj->x, rj);
    for (int r = 0; r < d; r++) {
        const double *e = row_dir(c, rows[r]);
        double *gi = Gi + 6 * r, *gj = Gj + 6 * r;
        if (rows[r] < 3) {
            v3_cross(ri, e, ci);
            v3_cross(rj, e, cj);
            for (int k = 0; k < 3; k++) {
                gi[k] = -e[k];
                gi[3 + k] = -ci[k];
                gj[k] = e[k];
                gj[3 + k] = cj[k];
            }
        } else {
            for (int k = 0; k < 3; k++) {
                gi[k] = gj[k] = 0.0;
                gi[3 + k] = -e[k];
                gj[3 + k] = e[k];
            }
        }
    }
}

void cb_contact_velocity(cb_kind kind, const cb_contact *c, const cb_body *bi, const cb_body *bj,
                         double *y)
{
    int rows[CB_MAX_DIM], d = kind_rows(kind, rows);
    double ri[3], rj[3], wi[3], wj[3], u[3], w[3];
    v3_axpy(c->point, -1.0, bi->x, ri);
    v3_axpy(c->point, -1.0, bj->x, rj);
    v3_cross(bi->w, ri, wi);
    v3_cross(bj->w, rj, wj);
    for (int k = 0; k < 3; k++) {
        u[k] = bj->v[k] + wj[k] - bi->v[k] - wi[k];
        w[k] = bj->w[k] - bi->w[k];
    }
    for (int r = 0; r < d; r++)
        y[r] = v3_dot(rows[r] < 3 ? u : w, row_dir(c, rows[r]));
}
