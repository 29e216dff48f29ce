/* conebench — nsgs's active-set polish on coulomb2d (nsgs_internal.h; in the spirit of OSQP's
 * solution polishing).
 *
 * Each contact's status is read off the natural map at the iterate, z = p_α − ρ_α ŷ(y_α) and
 * P_K(z): z ∈ K sticks, P_K(z) = 0 takes off, else it slides along the edge of K that P_K(z)
 * lies on (r_T = σ μ r_N, σ = sign z_T). Each status is two linear equations in p:
 *     take-off  r_N = 0, r_T = 0;
 *     stick     (W p + q)_N = 0, (W p + q)_T = 0;
 *     slide σ   (W p + q)_N = 0, r_T − σ μ r_N = 0;
 * so one step solves a sparse n×n system M p = b (rows of W where a status reads y, rows of the
 * identity or of the cone's edge elsewhere), factored by KLU (no BLAS: the bits do not depend on
 * the CPU). Gauss–Seidel cannot settle a sticking block on which W is indefinite (a W stored to
 * a few digits); a direct solve does not care, but from Gauss–Seidel's statuses it overshoots
 * along the near-null mode and the plain active-set iteration cycles. So each W row carries a
 * proximal term, (W + εI) p_{k+1} = −q + ε p_k (ε ~ 1e-6 ‖W‖, the digits the data lacks): a
 * proximal-point step on the statuses of p_k, which moves along the soft mode only as far as its
 * residual over ε and lets the statuses change on the way (a primal–dual active-set method with
 * a proximal term). The caller judges every step and keeps the best.
 *
 * M's rows are the compressed columns of Mᵀ: KLU factors Mᵀ and klu_tsolve solves M p = b. */
#include "nsgs_internal.h"

#include <klu.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "solvers_internal.h"

enum { MODE_OPEN = 0, MODE_STICK = 1, MODE_SLIDE_POS = 2, MODE_SLIDE_NEG = 3 };

struct cb_nsgs_polish {
    cb_problem *copy;      /* the BSR copy of a dense or factored W (owned), else NULL */
    const cb_problem *P;   /* W in BSR: the copy or the problem */
    int nc, n;
    int *Ap, *Ai;          /* compressed rows of M */
    double *Ax, *b;
    unsigned char *mode;   /* nc: each contact's status in the current step */
    klu_common common;
};

void cb_nsgs_polish_free(cb_nsgs_polish *pl)
{
    if (!pl)
        return;
    cb_problem_free(pl->copy);
    free(pl->Ap);
    free(pl->Ai);
    free(pl->Ax);
    free(pl->b);
    free(pl->mode);
    free(pl);
}

int cb_nsgs_polish_new(const cb_problem *prob, cb_nsgs_polish **out, cb_error *err)
{
    *out = NULL;
    if (prob->kind != CB_KIND_COULOMB2D)
        return cb_fail(err, CB_ERR_INPUT, "nsgs polish: kind %s is not coulomb2d",
                       cb_kind_name(prob->kind));
    cb_nsgs_polish *pl = cb_calloc(1, sizeof *pl);
    int rc = pl ? CB_OK : CB_ERR_NOMEM;
    if (rc == CB_OK && prob->storage != CB_STORAGE_BSR)
        rc = cb_problem_to_bsr(prob, &pl->copy, err);
    if (rc == CB_OK) {
        pl->P = pl->copy ? pl->copy : prob;
        pl->nc = prob->nc, pl->n = 2 * prob->nc;
        size_t nnz = 4 * (size_t)pl->P->bsr.nnzb + 3 * (size_t)pl->n; /* W rows, edge rows */
        pl->Ap = cb_calloc((size_t)pl->n + 1, sizeof *pl->Ap);
        pl->Ai = cb_calloc(nnz, sizeof *pl->Ai);
        pl->Ax = cb_calloc(nnz, sizeof *pl->Ax);
        pl->b = cb_calloc((size_t)pl->n, sizeof *pl->b);
        pl->mode = cb_calloc((size_t)pl->nc, 1);
        if (!pl->Ap || !pl->Ai || !pl->Ax || !pl->b || !pl->mode)
            rc = CB_ERR_NOMEM;
    }
    if (rc != CB_OK) {
        cb_nsgs_polish_free(pl);
        return rc == CB_ERR_NOMEM ? cb_fail(err, rc, "nsgs polish: out of memory (n = %zu)",
                                            cb_problem_n(prob)) : rc;
    }
    klu_defaults(&pl->common);
    *out = pl;
    return CB_OK;
}

/* Contact α's status from z = p_α − ρ ŷ(y_α) and P_K(z). */
static void set_mode(cb_nsgs_polish *pl, int a, double rho, const double *p, const double *y)
{
    cb_friction f;
    cb_problem_friction(pl->P, a, &f);
    double yh[2], z[2], pz[2];
    cb_modified_velocity(CB_KIND_COULOMB2D, &f, y + 2 * a, yh);
    z[0] = p[2 * a] - rho * yh[0], z[1] = p[2 * a + 1] - rho * yh[1];
    cb_proj_case c = cb_project(CB_KIND_COULOMB2D, &f, z, pz);
    unsigned char m = c == CB_PROJ_INSIDE ? MODE_STICK
                      : c == CB_PROJ_ZERO ? MODE_OPEN
                      : pz[1] > 0        ? MODE_SLIDE_POS
                                         : MODE_SLIDE_NEG;
    pl->mode[a] = m;
}

/* Append scalar row i = 2α + r of W + εI to M (its entries in block-column order),
 * b_i = −q_i + ε p_i. */
static int put_w_row(cb_nsgs_polish *pl, int a, int r, int e, double eps, const double *p)
{
    const cb_bsr *B = &pl->P->bsr;
    int i = 2 * a + r, diag = 0;
    for (int k = B->row_ptr[a]; k < B->row_ptr[a + 1]; k++)
        for (int c = 0; c < 2; c++) {
            int j = 2 * B->col[k] + c;
            pl->Ai[e] = j;
            pl->Ax[e++] = B->val[(size_t)k * 4 + r + 2 * c] + (j == i ? eps : 0.0);
            diag |= j == i;
        }
    if (!diag)
        pl->Ai[e] = i, pl->Ax[e++] = eps;
    pl->b[i] = -pl->P->q[i] + eps * p[i];
    return e;
}

/* M's rows and b of the current statuses, proximal term ε around p. */
static void assemble(cb_nsgs_polish *pl, double eps, const double *p)
{
    int e = 0;
    for (int a = 0; a < pl->nc; a++) {
        int m = pl->mode[a], i = 2 * a;
        pl->Ap[i] = e;
        if (m == MODE_OPEN) {
            pl->Ai[e] = i, pl->Ax[e++] = 1.0, pl->b[i] = 0.0;
        } else {
            e = put_w_row(pl, a, 0, e, eps, p);
        }
        pl->Ap[i + 1] = e;
        if (m == MODE_STICK) {
            e = put_w_row(pl, a, 1, e, eps, p);
        } else if (m == MODE_OPEN) {
            pl->Ai[e] = i + 1, pl->Ax[e++] = 1.0, pl->b[i + 1] = 0.0;
        } else { /* r_T − σ μ r_N = 0 */
            double mu = pl->P->mu[a];
            pl->Ai[e] = i, pl->Ax[e++] = m == MODE_SLIDE_POS ? -mu : mu;
            pl->Ai[e] = i + 1, pl->Ax[e++] = 1.0, pl->b[i + 1] = 0.0;
        }
    }
    pl->Ap[pl->n] = e;
}

/* One proximal active-set step: statuses from (p, y) with ρ_α = rho[α], then p_next solves
 * their equations with (W + εI) p_next = −q + ε p in the rows of W (KLU: analysis, factors,
 * solve; the pattern follows the statuses). 0 with p_next set, -1 when M is singular. */
int cb_nsgs_polish_step(cb_nsgs_polish *pl, const double *rho, double eps, const double *p,
                        const double *y, double *p_next, cb_work *wk)
{
    for (int a = 0; a < pl->nc; a++)
        set_mode(pl, a, rho[a], p, y);
    wk->projections += pl->nc;
    assemble(pl, eps, p);
    wk->block_products += pl->P->bsr.nnzb;
    klu_symbolic *sym = klu_analyze(pl->n, pl->Ap, pl->Ai, &pl->common);
    cb_analysis_count();
    klu_numeric *num = sym ? klu_factor(pl->Ap, pl->Ai, pl->Ax, sym, &pl->common) : NULL;
    int ok = num != NULL;
    if (ok) {
        memcpy(p_next, pl->b, (size_t)pl->n * sizeof *p_next);
        ok = klu_tsolve(sym, num, pl->n, 1, p_next, &pl->common);
    }
    klu_free_numeric(&num, &pl->common);
    klu_free_symbolic(&sym, &pl->common);
    return ok ? 0 : -1;
}
