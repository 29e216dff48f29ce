/* conebench — assembly of W = Hᵀ M⁻¹ H (block-sparse, or kept factored) and q = Hᵀ v_free
 * (Acary & Bourrier §6). */
#include "timestepper.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vec3.h"
#include "base.h"
#include "bsr_half.h"

#define G_SIZE (CB_MAX_DIM * 6)

typedef struct {
    int d, nc, nbodies;
    double *G;        /* nc × 2 blocks (slot 0: body i, slot 1: body j), d×6 row-major */
    double *minv;     /* per body: 1/m and the 3×3 world inverse inertia (10 doubles) */
    int *body_ptr;    /* CSR body → contacts (dynamic bodies only), nbodies + 1 */
    int *body_con;    /* 2·nc */
} asm_work;

static void asm_free(asm_work *a)
{
    free(a->G);
    free(a->minv);
    free(a->body_ptr);
    free(a->body_con);
}

static int dynamic(const cb_assembly_input *in, int k) { return !in->bodies[k].fixed; }

/* T = G M⁻¹ (d×6): columns v scaled by 1/m, columns ω times I_w⁻¹ (symmetric). */
static void times_minv(const double *G, const double *minv, int d, double *T)
{
    for (int r = 0; r < d; r++) {
        const double *g = G + 6 * r;
        double *t = T + 6 * r;
        for (int k = 0; k < 3; k++)
            t[k] = g[k] * minv[0];
        m3_mul(minv + 1, g + 3, t + 3);
    }
}

/* Per-contact blocks, per-body inverse masses and the body → contact lists. */
static int asm_setup(const cb_assembly_input *in, asm_work *a)
{
    a->d = cb_kind_dim(in->kind);
    a->nc = in->nc;
    a->nbodies = in->nbodies;
    a->G = cb_malloc_array((size_t)in->nc * 2, G_SIZE * sizeof(double));
    a->minv = cb_calloc((size_t)in->nbodies, 10 * sizeof(double));
    a->body_ptr = cb_calloc((size_t)in->nbodies + 1, sizeof(int));
    a->body_con = cb_malloc_array((size_t)in->nc * 2, sizeof(int));
    if (!a->G || !a->minv || !a->body_ptr || !a->body_con)
        return CB_ERR_NOMEM;
    for (int k = 0; k < in->nbodies; k++)
        if (dynamic(in, k)) {
            a->minv[10 * k] = 1.0 / in->bodies[k].mass;
            cb_body_inv_inertia_world(&in->bodies[k], a->minv + 10 * k + 1);
        }
    for (int c = 0; c < in->nc; c++) {
        const cb_contact *ct = &in->contacts[c];
        cb_contact_jacobian(in->kind, ct, &in->bodies[ct->i], &in->bodies[ct->j],
                            a->G + (size_t)(2 * c) * G_SIZE, a->G + (size_t)(2 * c + 1) * G_SIZE);
        a->body_ptr[ct->i + 1] += dynamic(in, ct->i);
        a->body_ptr[ct->j + 1] += dynamic(in, ct->j);
    }
    for (int k = 0; k < in->nbodies; k++)
        a->body_ptr[k + 1] += a->body_ptr[k];
    int *fill = cb_malloc_array((size_t)in->nbodies + 1, sizeof(int));
    if (!fill)
        return CB_ERR_NOMEM;
    memcpy(fill, a->body_ptr, ((size_t)in->nbodies + 1) * sizeof(int));
    for (int c = 0; c < in->nc; c++) { /* contacts in increasing order inside each list */
        const cb_contact *ct = &in->contacts[c];
        if (dynamic(in, ct->i))
            a->body_con[fill[ct->i]++] = c;
        if (dynamic(in, ct->j))
            a->body_con[fill[ct->j]++] = c;
    }
    free(fill);
    return CB_OK;
}

/* Merge the sorted contact lists of the dynamic bodies of contact c into cols (unique, sorted);
 * returns the count. cols may be NULL (count only). */
static int row_columns(const cb_assembly_input *in, const asm_work *a, int c, int *cols)
{
    const cb_contact *ct = &in->contacts[c];
    int lo1 = 0, hi1 = 0, lo2 = 0, hi2 = 0;
    if (dynamic(in, ct->i)) {
        lo1 = a->body_ptr[ct->i];
        hi1 = a->body_ptr[ct->i + 1];
    }
    if (dynamic(in, ct->j)) {
        lo2 = a->body_ptr[ct->j];
        hi2 = a->body_ptr[ct->j + 1];
    }
    return cb_sorted_union(a->body_con + lo1, hi1 - lo1, a->body_con + lo2, hi2 - lo2, 0, cols);
}

/* W_ab += T_{a,k} G_{b,k}ᵀ for each dynamic body k shared by contacts a and b (column-major). */
static void fill_block(const cb_assembly_input *in, const asm_work *w, int a, int b,
                       const double *T /* 2 × d×6 */, double *blk)
{
    int d = w->d;
    const cb_contact *ca = &in->contacts[a], *cbb = &in->contacts[b];
    int ka[2] = {ca->i, ca->j}, kb[2] = {cbb->i, cbb->j};
    memset(blk, 0, (size_t)(d * d) * sizeof *blk);
    for (int sa = 0; sa < 2; sa++)
        for (int sb = 0; sb < 2; sb++) {
            if (ka[sa] != kb[sb] || !dynamic(in, ka[sa]))
                continue;
            const double *Ta = T + sa * G_SIZE, *Gb = w->G + (size_t)(2 * b + sb) * G_SIZE;
            for (int col = 0; col < d; col++)
                for (int r = 0; r < d; r++) {
                    double s = 0;
                    for (int k = 0; k < 6; k++)
                        s += Ta[6 * r + k] * Gb[6 * col + k];
                    blk[r + col * d] += s;
                }
        }
}

/* q_a = Σ_k G_{a,k} v_k (+ e_n u_N⁻ when approaching); G0, G1: the d×6 blocks of i and j. */
static void fill_q(const cb_assembly_input *in, int d, int a, const double *G0, const double *G1,
                   double *q)
{
    const cb_contact *ct = &in->contacts[a];
    int ks[2] = {ct->i, ct->j};
    double un = 0.0;
    for (int r = 0; r < d; r++)
        q[r] = 0.0;
    for (int s = 0; s < 2; s++) {
        const cb_body *b = &in->bodies[ks[s]];
        const double *G = s ? G1 : G0;
        const double *vf = in->v_free && !b->fixed ? in->v_free + 6 * ks[s] : NULL;
        for (int r = 0; r < d; r++) {
            const double *g = G + 6 * r;
            double vm = v3_dot(g, b->v) + v3_dot(g + 3, b->w);
            q[r] += vf ? v3_dot(g, vf) + v3_dot(g + 3, vf + 3) : vm;
            un += r == 0 ? vm : 0.0;
        }
    }
    if (in->restitution && un < 0)
        q[0] += ct->e_n * un;
}

static void fill_friction(const cb_assembly_input *in, int a, cb_problem *p)
{
    const cb_friction *f = &in->contacts[a].friction;
    p->mu[a] = f->mu;
    p->mu_r[a] = in->kind >= CB_KIND_ROLLING2D ? f->mu_r : 0.0;
    p->mu_s[a] = in->kind == CB_KIND_ROLLSPIN3D ? f->mu_s : 0.0;
}

/* Two passes over block rows: count the coupled contacts, then fill columns and values. */
static int asm_fill(const cb_assembly_input *in, const asm_work *w, cb_problem **out,
                    cb_error *err)
{
    long long nnzb = 0;
    for (int a = 0; a < in->nc; a++)
        nnzb += row_columns(in, w, a, NULL);
    if (nnzb > 0x7fffffffLL)
        return cb_fail(err, CB_ERR_INPUT, "assembly: %lld blocks exceed the BSR index range",
                       nnzb);
    int rc = cb_problem_alloc(in->kind, in->nc, CB_STORAGE_BSR, (int)nnzb, out, err);
    if (rc != CB_OK)
        return rc;
    cb_problem *p = *out;
    int d = w->d, pos = 0;
    double T[2 * G_SIZE];
    for (int a = 0; a < in->nc; a++) {
        const cb_contact *ct = &in->contacts[a];
        times_minv(w->G + (size_t)(2 * a) * G_SIZE, w->minv + 10 * ct->i, d, T);
        times_minv(w->G + (size_t)(2 * a + 1) * G_SIZE, w->minv + 10 * ct->j, d, T + G_SIZE);
        p->bsr.row_ptr[a] = pos;
        int n = row_columns(in, w, a, p->bsr.col + pos);
        for (int k = 0; k < n; k++) /* the upper blocks; the lower ones mirror them below */
            if (p->bsr.col[pos + k] >= a)
                fill_block(in, w, a, p->bsr.col[pos + k], T,
                           p->bsr.val + (size_t)(pos + k) * (size_t)(d * d));
        pos += n;
        fill_q(in, d, a, w->G + (size_t)(2 * a) * G_SIZE, w->G + (size_t)(2 * a + 1) * G_SIZE,
               p->q + (size_t)a * d);
        fill_friction(in, a, p);
    }
    p->bsr.row_ptr[in->nc] = pos;
    if (cb_bsr_symmetrize(&p->bsr, d) != CB_OK) /* W exactly symmetric, as W = G M⁻¹ Gᵀ is */
        return cb_fail(err, CB_ERR_INTERNAL, "assembly: W's pattern is not symmetric");
    return CB_OK;
}

static int check_input(const cb_assembly_input *in, cb_error *err)
{
    if (!in || !in->bodies || !in->contacts)
        return cb_fail(err, CB_ERR_INPUT, "assembly: NULL input");
    if (cb_kind_dim(in->kind) == 0)
        return cb_fail(err, CB_ERR_INPUT, "kind: invalid (%d)", (int)in->kind);
    if (in->nc < 1 || in->nbodies < 1)
        return cb_fail(err, CB_ERR_INPUT, "assembly: nc = %d, nbodies = %d (need ≥ 1)", in->nc,
                       in->nbodies);
    for (int a = 0; a < in->nc; a++) {
        const cb_contact *c = &in->contacts[a];
        if (c->i < 0 || c->i >= in->nbodies || c->j < 0 || c->j >= in->nbodies || c->i == c->j)
            return cb_fail(err, CB_ERR_INPUT, "contact %d: bodies (%d, %d) out of range", a, c->i,
                           c->j);
    }
    return CB_OK;
}

/* Number the dynamic bodies that touch a contact 0, 1, … in order of first appearance (map[k];
 * −1 for the others); returns their count. */
static int active_bodies(const cb_assembly_input *in, int *map)
{
    int n = 0;
    for (int k = 0; k < in->nbodies; k++)
        map[k] = -1;
    for (int a = 0; a < in->nc; a++)
        for (int s = 0; s < 2; s++) {
            int k = s ? in->contacts[a].j : in->contacts[a].i;
            if (dynamic(in, k) && map[k] < 0)
                map[k] = n++;
        }
    return n;
}

/* Fill a factored problem: M⁻¹ of the active bodies, G blocks and body slots of every contact
 * (−1 for fixed bodies), q and μ's; then the adjacency and diagonal blocks. */
static int fill_factored(const cb_assembly_input *in, const int *map, cb_problem *p,
                         cb_error *err)
{
    cb_factored *f = &p->fac;
    size_t g = 6 * (size_t)p->d;
    for (int k = 0; k < in->nbodies; k++)
        if (map[k] >= 0) {
            f->minv[10 * (size_t)map[k]] = 1.0 / in->bodies[k].mass;
            cb_body_inv_inertia_world(&in->bodies[k], f->minv + 10 * (size_t)map[k] + 1);
        }
    for (int a = 0; a < in->nc; a++) {
        const cb_contact *ct = &in->contacts[a];
        double *G0 = f->G + (size_t)(2 * a) * g, *G1 = G0 + g, Gi[G_SIZE], Gj[G_SIZE];
        cb_contact_jacobian(in->kind, ct, &in->bodies[ct->i], &in->bodies[ct->j], Gi, Gj);
        memcpy(G0, Gi, g * sizeof(double));
        memcpy(G1, Gj, g * sizeof(double));
        f->body[2 * a] = map[ct->i];
        f->body[2 * a + 1] = map[ct->j];
        fill_q(in, p->d, a, G0, G1, p->q + (size_t)a * p->d);
        fill_friction(in, a, p);
    }
    return cb_problem_factored_finish(p, err);
}

/* Factored W over the dynamic bodies that touch a contact (renumbered, so W costs O(nc) memory
 * however many bodies the system holds). */
static int asm_factored(const cb_assembly_input *in, cb_problem **out, cb_error *err)
{
    int *map = cb_malloc_array((size_t)in->nbodies, sizeof(int));
    if (!map)
        return cb_fail(err, CB_ERR_NOMEM, "assembly: out of memory (%d bodies)", in->nbodies);
    int nact = active_bodies(in, map);
    /* no dynamic body at all: one idle body, and finish names the contact without a body */
    int rc = cb_problem_alloc_factored(in->kind, in->nc, nact > 0 ? nact : 1, out, err);
    if (rc == CB_OK)
        rc = fill_factored(in, map, *out, err);
    free(map);
    return rc;
}

/* BSR W: per-contact blocks and body lists, then the coupled blocks row by row. */
static int asm_bsr(const cb_assembly_input *in, cb_problem **out, cb_error *err)
{
    asm_work w;
    memset(&w, 0, sizeof w);
    int rc = asm_setup(in, &w);
    if (rc != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "assembly: out of memory (%d contacts)", in->nc);
    if (rc == CB_OK)
        rc = asm_fill(in, &w, out, err);
    asm_free(&w);
    return rc;
}

int cb_assemble(const cb_assembly_input *in, cb_problem **out, cb_error *err)
{
    *out = NULL;
    int rc = check_input(in, err);
    if (rc == CB_OK)
        rc = in->factored ? asm_factored(in, out, err) : asm_bsr(in, out, err);
    if (rc != CB_OK) {
        cb_problem_free(*out);
        *out = NULL;
    }
    return rc;
}

/* dv_k += M_k⁻¹ G_{α,k}ᵀ p_α for both bodies of every contact. */
void cb_apply_impulses(const cb_assembly_input *in, const double *p, double *dv)
{
    int d = cb_kind_dim(in->kind);
    double Gi[G_SIZE], Gj[G_SIZE];
    for (int a = 0; a < in->nc; a++) {
        const cb_contact *ct = &in->contacts[a];
        const cb_body *b[2] = {&in->bodies[ct->i], &in->bodies[ct->j]};
        cb_contact_jacobian(in->kind, ct, b[0], b[1], Gi, Gj);
        const double *G[2] = {Gi, Gj};
        int ks[2] = {ct->i, ct->j};
        for (int s = 0; s < 2; s++) {
            if (b[s]->fixed)
                continue;
            double imp[6] = {0, 0, 0, 0, 0, 0}, Iinv[9], dw[3];
            for (int r = 0; r < d; r++)
                for (int k = 0; k < 6; k++)
                    imp[k] += G[s][6 * r + k] * p[(size_t)a * d + r];
            cb_body_inv_inertia_world(b[s], Iinv);
            m3_mul(Iinv, imp + 3, dw);
            for (int k = 0; k < 3; k++) {
                dv[6 * ks[s] + k] += imp[k] / b[s]->mass;
                dv[6 * ks[s] + 3 + k] += dw[k];
            }
        }
    }
}

size_t cb_bsr_bytes(const cb_problem *prob)
{
    return prob && prob->storage == CB_STORAGE_BSR ? cb_problem_W_bytes(prob) : 0;
}
