/* conebench — `nsn`'s small path, enumeration of contact statuses (nsn_internal.h): a 2D
 * Coulomb problem of at most NSN_ENUM_NC contacts with dense W is solved by trying the contact
 * statuses one combination after the other, each a linear system of order n = 2 nc solved by
 * the dense LU (nsn_lu): take-off p_α = 0; stick y_α = 0; slide y_N = 0, p_T = −σ μ p_N with
 * σ = ±1 the sign of y_T. A combination is accepted when its p ∈ K and y ∈ K* with the status's
 * signs (within a slack of the tolerance) and the judge's test (first_order.h) finds it solved;
 * singular systems are skipped. The order: each contact's most likely status first (from q:
 * take-off when q_N ≥ 0, else sliding along q_T), the first contact's status varying fastest. */
#include "first_order.h"
#include "nsn_internal.h"

#include <math.h>
#include <string.h>

#include "base.h"
#include "detmath.h"

#define NSN_ENUM_STATUSES 4 /* take-off, stick, slide σ = +1, slide σ = −1 */
#define NSN_ENUM_N (2 * NSN_ENUM_NC)
#define NSN_ENUM_SLACK 1e-12 /* sign slack on p, relative to ‖p‖ (on y: tol · ‖q‖) */

enum { ENUM_TAKEOFF, ENUM_STICK, ENUM_SLIDE_POS, ENUM_SLIDE_NEG };

int nsn_enum_fits(const cb_problem *prob)
{
    return prob->kind == CB_KIND_COULOMB2D && prob->d == 2 && prob->nc >= 1 &&
           prob->nc <= NSN_ENUM_NC && prob->storage == CB_STORAGE_DENSE;
}

/* Contact a's statuses, the most likely first: from q alone (y = q at p = 0), take-off when
 * q_N ≥ 0, else sliding along q_T (σ = sign q_T), sticking, sliding the other way, take-off. */
static void status_order(const cb_problem *prob, int a, int order[NSN_ENUM_STATUSES])
{
    const double *q = prob->q + 2 * (size_t)a;
    int along = q[1] >= 0.0 ? ENUM_SLIDE_POS : ENUM_SLIDE_NEG;
    int other = along == ENUM_SLIDE_POS ? ENUM_SLIDE_NEG : ENUM_SLIDE_POS;
    int closed[NSN_ENUM_STATUSES] = {along, ENUM_STICK, other, ENUM_TAKEOFF};
    int open[NSN_ENUM_STATUSES] = {ENUM_TAKEOFF, along, ENUM_STICK, other};
    memcpy(order, q[0] < 0.0 ? closed : open, sizeof closed);
}

/* The rows of M p = b for the statuses st (column-major M of order n = 2 nc): take-off
 * p_N = p_T = 0; stick (W p)_N = −q_N, (W p)_T = −q_T; slide (W p)_N = −q_N,
 * p_T + σ μ p_N = 0. */
static void status_system(const cb_problem *prob, const int *st, double *M, double *b)
{
    size_t n = 2 * (size_t)prob->nc;
    memset(M, 0, n * n * sizeof *M);
    for (int a = 0; a < prob->nc; a++) {
        size_t r = 2 * (size_t)a;
        cb_friction f;
        cb_problem_friction(prob, a, &f);
        for (size_t k = 0; k < 2; k++) {
            int w_row = st[a] == ENUM_STICK || (st[a] != ENUM_TAKEOFF && k == 0);
            for (size_t j = 0; j < n; j++)
                M[r + k + j * n] = w_row ? prob->W[r + k + j * n] : 0.0;
            b[r + k] = w_row ? -prob->q[r + k] : 0.0;
        }
        if (st[a] == ENUM_TAKEOFF)
            M[r + r * n] = M[r + 1 + (r + 1) * n] = 1.0;
        else if (st[a] != ENUM_STICK) {
            M[r + 1 + (r + 1) * n] = 1.0;
            M[r + 1 + r * n] = (st[a] == ENUM_SLIDE_POS ? 1.0 : -1.0) * f.mu;
        }
    }
}

/* 1 when p and y = W p + q show the signs of the statuses st within the slack sp on p and sy
 * on y: p_N ≥ 0; stick |p_T| ≤ μ p_N; take-off y_N ≥ 0; slide σ y_T ≥ 0. */
static int status_signs(const cb_problem *prob, const int *st, const double *p, const double *y,
                        double sp, double sy)
{
    for (int a = 0; a < prob->nc; a++) {
        const double *pa = p + 2 * (size_t)a, *ya = y + 2 * (size_t)a;
        cb_friction f;
        cb_problem_friction(prob, a, &f);
        int ok = st[a] == ENUM_TAKEOFF ? ya[0] >= -sy
                 : pa[0] < -sp         ? 0
                 : st[a] == ENUM_STICK ? fabs(pa[1]) <= f.mu * pa[0] + sp
                                       : (st[a] == ENUM_SLIDE_POS ? ya[1] : -ya[1]) >= -sy;
        if (!ok)
            return 0;
    }
    return 1;
}

/* Advance the odometer idx (base NSN_ENUM_STATUSES, digit 0 fastest) and st from it: 0 when
 * every combination was tried. */
static int next_combination(int nc, int *idx, const int (*order)[NSN_ENUM_STATUSES], int *st)
{
    int a = 0;
    while (a < nc && ++idx[a] == NSN_ENUM_STATUSES)
        idx[a++] = 0;
    for (int b = 0; b < nc; b++)
        st[b] = order[b][idx[b]];
    return a < nc;
}

/* Solve the statuses st: p from M p = b, y = W p + q and the sign test; 1 when they pass, 0 when
 * the system is singular or a sign is wrong. */
static int try_statuses(const cb_problem *prob, const int *st, double slack_y, double *p,
                        double *y, cb_work *cnt)
{
    double M[NSN_ENUM_N * NSN_ENUM_N], dinv[NSN_ENUM_N];
    int piv[NSN_ENUM_N], n = 2 * prob->nc;
    status_system(prob, st, M, p);
    cnt->local_iters++;
    if (nsn_lu(M, n, piv, dinv) != 0)
        return 0;
    nsn_lu_solve(M, n, piv, dinv, p);
    if (!cb_all_finite(p, (size_t)n))
        return 0;
    cb_problem_y(prob, p, y);
    cnt->block_products += cb_problem_blocks_per_matvec(prob);
    double sp = NSN_ENUM_SLACK * cb_nrm2(p, (size_t)n);
    return status_signs(prob, st, p, y, sp, slack_y);
}

int nsn_enum_solve(const nsn_small *c, const cb_settings *s, cb_solution *sol, cb_info *info)
{
    const cb_problem *prob = c->sys->prob;
    int nc = prob->nc, idx[NSN_ENUM_NC] = {0}, st[NSN_ENUM_NC];
    int order[NSN_ENUM_NC][NSN_ENUM_STATUSES];
    size_t n = 2 * (size_t)nc;
    double slack_y = s->tol * c->scale->norm_q, t0 = s->trace ? cb_now() : 0.0;
    cb_work *cnt = &info->work, uncounted = {0};
    cb_fo_residual res;
    if (s->trace) { /* the start's error, for the trace only */
        cb_problem_y(prob, sol->p, c->y);
        cb_fo_residual_eval(prob, sol->p, c->y, c->scale, &res, &uncounted);
        if (cb_info_trace(info, s, 0, t0, res.err) != CB_OK)
            return -1;
    }
    for (int a = 0; a < nc; a++)
        status_order(prob, a, order[a]), st[a] = order[a][0];
    do {
        if (!try_statuses(prob, st, slack_y, c->pt, c->y, cnt))
            continue;
        cb_fo_residual_eval(prob, c->pt, c->y, c->scale, &res, cnt);
        if (cb_fo_stop_status(&res, 0.0, c->scale->norm_q, s, 1, 0.0) != CB_STATUS_CONVERGED)
            continue;
        if (cb_info_trace(info, s, 1, t0, res.err) != CB_OK)
            return -1;
        memcpy(sol->p, c->pt, n * sizeof *sol->p);
        memcpy(sol->y, c->y, n * sizeof *sol->y);
        info->iterations = 1;
        info->solver_error = res.err;
        info->status = CB_STATUS_CONVERGED;
        return 1;
    } while (next_combination(nc, idx, (const int (*)[NSN_ENUM_STATUSES])order, st));
    info->ntrace = 0;
    return 0;
}
