/* conebench — is W positive definite? (include/conebench/solver.h): then the problem is strongly
 * monotone and its solution p* unique; a W of lower rank than nc·d has a set of solutions. The
 * test factors S = (W + Wᵀ)/2 with the sparse LDLᵀ of `ipm` (CHOLMOD, simplicial). */
#include "conebench/solver.h"

#include <math.h>
#include <stdlib.h>

#include "ipm_internal.h"
#include "base.h"
#include "solve_limited.h"

/* A pivot below this share of the largest diagonal entry of W counts as zero. */
#define CB_PD_PIVOT_RTOL 1e-12

/* max_i W_ii */
static double max_diag(const cb_problem *prob)
{
    double blk[CB_MAX_DIM * CB_MAX_DIM], m = 0.0;
    for (int a = 0; a < prob->nc; a++) {
        cb_problem_diag_block(prob, a, blk);
        for (int c = 0; c < prob->d; c++)
            m = fmax(m, blk[c + c * prob->d]);
    }
    return m;
}

/* *definite = 1 when S = L D Lᵀ with every D_jj ≥ 1e-12 · max_i W_ii (> 0), else 0. */
static int factor_test(const cb_problem *prob, int *definite, cb_error *err)
{
    size_t n = cb_problem_n(prob);
    unsigned char *fixed = cb_calloc(n, 1);
    double *D = cb_calloc(n * (size_t)prob->d, sizeof *D);
    ipm_normal *nm = NULL;
    int rc = fixed && D ? ipm_normal_new(prob, fixed, 0, IPM_ORDER_AMD, &nm, err)
                        : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK) {
        int f = ipm_normal_factor(nm, D, 0.0, &(cb_work){0});
        if (f == CB_ERR_NOMEM)
            rc = cb_fail(err, CB_ERR_NOMEM, "out of memory factoring W (n = %zu)", n);
        double dmax = max_diag(prob);
        *definite = f == 0 && dmax > 0 && ipm_normal_min_pivot(nm) >= CB_PD_PIVOT_RTOL * dmax;
    }
    ipm_normal_free(nm);
    free(fixed);
    free(D);
    return rc;
}

int cb_problem_W_definite(const cb_problem *prob, int *definite, cb_error *err)
{
    cb_problem *bsr = NULL;
    *definite = 0;
    if (prob->storage != CB_STORAGE_FACTORED)
        return factor_test(prob, definite, err);
    if ((long long)prob->nc * prob->d > 6LL * prob->fac.nbody) /* rank W ≤ 6·bodies */
        return CB_OK;
    int rc = cb_problem_to_bsr(prob, &bsr, err);
    if (rc == CB_OK)
        rc = factor_test(bsr, definite, err);
    cb_problem_free(bsr);
    return rc;
}
