/* conebench — `nsn`'s small path (nsn_internal.h): on a problem of at most NSN_SMALL_NC contacts
 * the whole solve is a few microseconds, so what counts is what surrounds the Newton steps. Plain
 * semismooth Newton on the Alart–Curnier map F (nsn_system.c), each step (H + λ I) Δ = −F by the
 * dense LU held in the work (nsn_dense.c: assembled and factored once per step, no allocation),
 * λ = reg · min(1, e_k) · s_W as in nsn.c, and a monotone Armijo search on ψ = ½‖F‖²; the stop
 * test is the judge's (first_order.h), as everywhere in nsn. No trace, phases, drift detector or
 * nsgs safeguard: when a line search fails, the factorisation stays singular, or NSN_SMALL_ITERS
 * steps do not converge, the caller runs the full method from the starting point. */
#include "first_order.h"
#include "nsn_internal.h"

#include <math.h>
#include <string.h>

#include "detmath.h"
#include "base.h"

#define NSN_SMALL_ITERS 50       /* Newton steps before the full method takes over */
#define NSN_SMALL_TRIES 6        /* factorisations per step, λ grown tenfold after a singular one */
#define NSN_SMALL_HALVINGS 4     /* step t down to 2^-4 */
#define NSN_SMALL_ARMIJO 1e-4    /* sufficient decrease σ: ψ(p + tΔ) ≤ (1 − 2σt) ψ(p) */

/* ψ = ½‖F‖². */
static double half_sq(const double *F, size_t n)
{
    double s = cb_nrm2(F, n);
    return 0.5 * s * s;
}

/* dp = −(H + λ I)⁻¹ F with λ grown tenfold while the matrix is singular; 0 when it stays so. */
static int direction(const nsn_small *c, double lambda, cb_work *cnt)
{
    size_t n = c->sys->n;
    for (int t = 0; t < NSN_SMALL_TRIES; t++, lambda *= 10.0) {
        if (nsn_dense_factor(c->dense, c->sys, lambda, cnt) != 0)
            continue;
        for (size_t i = 0; i < n; i++)
            c->dp[i] = -c->sys->F[i];
        cnt->local_iters++;
        return nsn_dense_solve(c->dense, c->dp) == CB_OK && cb_all_finite(c->dp, n);
    }
    return 0;
}

/* Backtracking from p along dp: 1 when some t ≥ 2^-NSN_SMALL_HALVINGS decreases ψ enough (p, y,
 * F (swapped with *Ft) and *psi updated), else 0. */
static int search(const nsn_small *c, double *p, double *psi, cb_work *cnt)
{
    const cb_problem *prob = c->sys->prob;
    size_t n = c->sys->n;
    nsn_system trial = *c->sys;
    trial.F = *c->Ft;
    double t = 1.0;
    for (int h = 0; h <= NSN_SMALL_HALVINGS; h++, t *= 0.5) {
        for (size_t i = 0; i < n; i++)
            c->pt[i] = p[i] + t * c->dp[i];
        cb_problem_y(prob, c->pt, c->yt);
        cnt->block_products += cb_problem_blocks_per_matvec(prob);
        if (!nsn_system_eval(&trial, c->pt, c->yt, cnt))
            continue;
        double pt = half_sq(trial.F, n);
        if (isfinite(pt) && pt <= (1.0 - 2.0 * NSN_SMALL_ARMIJO * t) * *psi) {
            memcpy(p, c->pt, n * sizeof *p);
            memcpy(c->y, c->yt, n * sizeof *p);
            *c->Ft = c->sys->F, c->sys->F = trial.F, *psi = pt;
            return 1;
        }
    }
    return 0;
}

int nsn_small_solve(const nsn_small *c, const cb_settings *s, cb_solution *sol, cb_info *info)
{
    const cb_problem *prob = c->sys->prob;
    size_t n = c->sys->n;
    double t0 = cb_now(), *p = sol->p;
    cb_work *cnt = &info->work;
    cb_fo_residual res;
    cb_problem_y(prob, p, c->y);
    cnt->block_products += cb_problem_blocks_per_matvec(prob);
    cb_fo_residual_eval(prob, p, c->y, c->scale, &res, cnt);
    c->sys->eps = 0.0;
    if (!nsn_system_eval(c->sys, p, c->y, cnt))
        return 0;
    double psi = half_sq(c->sys->F, n);
    for (int k = 1; k <= s->max_iter && k <= NSN_SMALL_ITERS; k++) {
        double lambda = c->reg * fmin(1.0, res.err) * c->w_scale;
        if (!direction(c, lambda, cnt) || !search(c, p, &psi, cnt))
            return 0;
        cb_fo_residual_eval(prob, p, c->y, c->scale, &res, cnt);
        /* step 0: the step-length rule guards fixed-point iterations against stagnation; a
         * Newton step landing within the judge's tolerance solved (as in the full method's
         * loop, whose step is measured after its search has moved pt to p) */
        int status = cb_fo_stop_status(&res, 0.0, c->scale->norm_q, s, k, t0);
        if (status == CB_STATUS_CONVERGED) {
            memcpy(sol->y, c->y, n * sizeof *sol->y);
            info->iterations = k;
            info->solver_error = res.err;
            info->status = CB_STATUS_CONVERGED;
            return 1;
        }
        if (status >= 0)
            return 0;
    }
    return 0;
}
