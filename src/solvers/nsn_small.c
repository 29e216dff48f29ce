/* conebench — `nsn`'s small path (nsn_internal.h): on a problem of at most NSN_SMALL_NC contacts
 * the whole solve is a few microseconds, so what counts is what surrounds the Newton steps. Plain
 * semismooth Newton on the Alart–Curnier map F (nsn_system.c), each step (H + λ I) Δ = −F by the
 * dense LU held in the work (nsn_dense.c: assembled and factored once per step, no allocation),
 * λ = reg · min(1, e_k) · s_W as in nsn.c, and a monotone Armijo search on ψ = ½‖F‖²; the stop
 * test is the judge's (first_order.h), as everywhere in nsn (its time test reads the run's budget,
 * not a start time of its own: no clock is read unless a trace is asked for). With a trace, the
 * same iterates: the judged error at the start and after every step (contact by contact: at the
 * start and at the end, the start's residual not counted as work). Before the Newton steps,
 * contact by contact (solve_by_sweeps): on block-diagonal W the answer, on coupled W with at most
 * one contact closing at p = 0 a few block Gauss–Seidel sweeps, Newton from the starting point
 * when they do not converge. No phases, drift detector or nsgs safeguard: when a line search
 * fails, the factorisation stays singular, or NSN_SMALL_ITERS steps do not converge, the caller
 * runs the full method from the starting point. First of all, on a coupled 2D Coulomb problem
 * of at most NSN_ENUM_NC contacts, the enumeration of contact statuses (nsn_enum.c). */
#include "first_order.h"
#include "nsn_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "detmath.h"
#include "base.h"

#define NSN_SMALL_ITERS 50       /* Newton steps before the full method takes over */
#define NSN_SMALL_TRIES 6        /* factorisations per step, λ grown tenfold after a singular one */
#define NSN_SMALL_HALVINGS 4     /* step t down to 2^-4 */
#define NSN_SMALL_ARMIJO 1e-4    /* sufficient decrease σ: ψ(p + tΔ) ≤ (1 − 2σt) ψ(p) */
#define NSN_SMALL_FAST 0.1       /* … checked by the judge's residual once ψ fell below this × ψ_prev */
#define NSN_SMALL_SAFETY 0.9     /* contact by contact: each to this fraction of the tolerance */
#define NSN_SMALL_SWEEPS 4       /* coupled W: block Gauss–Seidel sweeps before Newton, at most, */
#define NSN_SMALL_SWEEP_CLOSED 1 /* … tried when at most this many contacts have q_N < 0, */
#define NSN_SMALL_SWEEP_GAIN 0.1 /* … each cutting the judged error at least this much, */
#define NSN_SMALL_SWEEP_NEAR 1e-3 /* … and each ending with the judged error below this */

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

int nsn_small_block_diagonal(const cb_problem *prob)
{
    int d = prob->d;
    size_t n = cb_problem_n(prob), dd = (size_t)d * d;
    if (prob->storage == CB_STORAGE_BSR) {
        for (int a = 0; a < prob->nc; a++)
            for (int k = prob->bsr.row_ptr[a]; k < prob->bsr.row_ptr[a + 1]; k++)
                for (size_t e = 0; prob->bsr.col[k] != a && e < dd; e++)
                    if (prob->bsr.val[(size_t)k * dd + e] != 0.0)
                        return 0;
        return 1;
    }
    for (size_t j = 0; j < n; j++) { /* column j: rows above and below its diagonal block */
        const double *col = prob->W + j * n;
        size_t lo = j / d * d, hi = lo + d;
        for (size_t i = 0; i < lo; i++)
            if (col[i] != 0.0)
                return 0;
        for (size_t i = hi; i < n; i++)
            if (col[i] != 0.0)
                return 0;
    }
    return 1;
}

/* y = W_αα p + q_α (d×d column-major W_αα). */
static void local_y(const double *Waa, int d, const double *p, const double *q, double *y)
{
    for (int i = 0; i < d; i++) {
        double v = q[i];
        for (int j = 0; j < d; j++)
            v += Waa[i + j * d] * p[j];
        y[i] = v;
    }
}

/* One contact's Newton state: p_α, y_α, F_α, its blocks, ψ = ½‖F_α‖². */
typedef struct {
    double p[CB_MAX_DIM], y[CB_MAX_DIM], F[CB_MAX_DIM], IJ[NSN_D2], A[NSN_D2], psi;
} contact_state;

/* Contact a's Newton direction dp = −(I − J + λ I + A W_αα)⁻¹ F (λ grown tenfold while the
 * d×d matrix is singular); 0 when it stays so. */
static int contact_direction(const contact_state *x, const double *Waa, int d, double lambda,
                             double *dp, cb_work *cnt)
{
    double M[NSN_D2], dinv[CB_MAX_DIM];
    int piv[CB_MAX_DIM];
    for (int t = 0; t < NSN_SMALL_TRIES; t++, lambda *= 10.0) {
        for (int j = 0; j < d; j++)
            for (int i = 0; i < d; i++) {
                double v = x->IJ[i + j * d] + (i == j) * lambda;
                for (int l = 0; l < d; l++)
                    v += x->A[i + l * d] * Waa[l + j * d];
                M[i + j * d] = v;
            }
        cnt->block_products += d;
        if (nsn_lu(M, d, piv, dinv) != 0)
            continue;
        for (int i = 0; i < d; i++)
            dp[i] = -x->F[i];
        cnt->local_iters++;
        nsn_lu_solve(M, d, piv, dinv, dp);
        return cb_all_finite(dp, (size_t)d);
    }
    return 0;
}

/* Contact a (data W_αα, q the contact's q̄) from W_αα's diagonal alone (w_i the mean over disk
 * block i, w > 0): the normal row taken as uncoupled, p_N = max(0, −q_N/w_N) (y_N = 0 in
 * contact), and each block p_i = P_{B(μ_i p_N)}(−q_i/w_i): y_i = w_i (p_i + q_i/w_i) is then 0
 * inside the disk and opposite p_i on its edge (Coulomb's law per block; ŷ_N = Σ μ_i ‖y_i‖
 * makes p ⟂ ŷ ∈ K*). Into p: 1 when that is the exact answer (W_αα diagonal with one value on
 * each disk block), 0 when it is Newton's starting point, −1 (p unchanged) when a diagonal
 * entry is not positive or an entry not finite. */
static int diagonal_form(const cb_problem *prob, int a, const double *Waa, const double *q,
                         double *p)
{
    int d = prob->d, exact = 1;
    double out[CB_MAX_DIM];
    cb_friction f;
    cb_disk_cone c;
    for (int j = 0; j < d; j++)
        for (int i = 0; i < d; i++) {
            if ((i == j && !(Waa[i + j * d] > 0.0)) || !isfinite(Waa[i + j * d]))
                return -1;
            exact = exact && (i == j || Waa[i + j * d] == 0.0);
        }
    cb_problem_friction(prob, a, &f);
    cb_disk_cone_of(prob->kind, &f, &c);
    double pn = fmax(0.0, -q[0] / Waa[0]);
    out[0] = pn;
    for (int i = 0, off = 1; i < c.nblocks; off += c.size[i], i++) {
        int m = c.size[i];
        double w = Waa[off + off * d], z[2] = {0.0, 0.0}, R = c.mu[i] * pn;
        if (m == 2 && Waa[off + 1 + (off + 1) * d] != w) {
            exact = 0;
            w = 0.5 * (w + Waa[off + 1 + (off + 1) * d]);
        }
        for (int k = 0; k < m; k++)
            z[k] = -q[off + k] / w;
        double nz = m == 1 ? fabs(z[0]) : hypot(z[0], z[1]);
        double t = nz > R ? R / nz : 1.0;
        for (int k = 0; k < m; k++)
            out[off + k] = t * z[k];
    }
    memcpy(p, out, (size_t)d * sizeof *p);
    return exact;
}

/* 1 when the d entries of p are all zero (a cold start). */
static int is_zero(const double *p, int d)
{
    for (int i = 0; i < d; i++)
        if (p[i] != 0.0)
            return 0;
    return 1;
}

/* Contact a alone (W_αα, q the contact's q̄) by Newton on its map from x->p until the judge's
 * residual² of the contact is ≤ e2max: the steps taken, or −1 when a search or a factorisation
 * fails. */
static int contact_newton(const nsn_small *c, int a, const double *Waa, const double *q,
                          double e2max, contact_state *x, cb_work *cnt)
{
    const cb_problem *prob = c->sys->prob;
    int d = prob->d;
    cb_friction f;
    cb_problem_friction(prob, a, &f);
    contact_state t;
    double dp[CB_MAX_DIM], scale = c->sys->rho[a] * cb_nrm2(q, (size_t)d), psi_prev = 0.0;
    local_y(Waa, d, x->p, q, x->y);
    if (!nsn_contact_eval(c->sys, a, x->p, x->y, x->F, x->IJ, x->A))
        return -1;
    x->psi = half_sq(x->F, (size_t)d);
    for (int k = 0;; k++) { /* the contact's residual once F has fallen (Newton's fast phase) */
        int check = x->psi == 0.0 || (k > 0 && x->psi <= NSN_SMALL_FAST * psi_prev);
        cnt->projections++;
        if (check && (cnt->projections++, cb_contact_residual2(prob->kind, &f, x->p, x->y) <= e2max))
            return k;
        psi_prev = x->psi;
        double lambda = c->reg * fmin(1.0, sqrt(2.0 * x->psi) / fmax(scale, DBL_MIN)) * c->w_scale;
        if (k == NSN_SMALL_ITERS || !contact_direction(x, Waa, d, lambda, dp, cnt))
            return -1;
        double step = 1.0;
        for (int h = 0;; h++, step *= 0.5) {
            if (h > NSN_SMALL_HALVINGS) /* no decrease: at rounding level, or Newton lost */
                return !check && (cnt->projections++, cb_contact_residual2(prob->kind, &f, x->p,
                                                                           x->y) <= e2max) ? k : -1;
            for (int i = 0; i < d; i++)
                t.p[i] = x->p[i] + step * dp[i];
            local_y(Waa, d, t.p, q, t.y);
            cnt->block_products++;
            if (!nsn_contact_eval(c->sys, a, t.p, t.y, t.F, t.IJ, t.A))
                continue;
            t.psi = half_sq(t.F, (size_t)d);
            if (t.psi <= (1.0 - 2.0 * NSN_SMALL_ARMIJO * step) * x->psi)
                break;
        }
        *x = t;
    }
}

/* q̄_α = q_α + Σ_{β≠α} W_αβ p_β: contact a's data with the others' p fixed (block row a of W p
 * less W_αα p_α, Waa NULL when p_α = 0; q_α itself when W is block diagonal or p = 0). */
static void local_data(const nsn_small *c, int a, const double *Waa, const double *p,
                       double *qbar, cb_work *cnt)
{
    const cb_problem *prob = c->sys->prob;
    int d = prob->d;
    const double *q = prob->q + (size_t)a * d, *pa = p + (size_t)a * d;
    if (c->diag || is_zero(p, (int)c->sys->n)) { /* no coupling, or nothing to couple yet */
        memcpy(qbar, q, (size_t)d * sizeof *q);
        return;
    }
    double r[CB_MAX_DIM];
    cb_problem_row_Wp(prob, a, p, r);
    cnt->block_products += cb_problem_blocks_per_matvec(prob) / prob->nc + (Waa != NULL);
    for (int i = 0; i < d; i++) {
        double v = r[i];
        for (int j = 0; Waa && j < d; j++)
            v -= Waa[i + j * d] * pa[j];
        qbar[i] = q[i] + v;
    }
}

/* Contact a of p solved with the others fixed (q̄_α): in closed form when W_αα is diagonal per
 * disk block, p_α = 0 when q̄_N ≥ 0 (take-off), else by contact_newton from p_α (from the
 * diagonal's answer when p_α = 0) to a residual² ≤ e2max. The steps taken (p_α updated), or
 * −1 when Newton failed (p unchanged). */
static int sweep_contact(const nsn_small *c, int a, double e2max, double *p, cb_work *cnt)
{
    const cb_problem *prob = c->sys->prob;
    int d = prob->d, k = 1;
    double Waa[NSN_D2], qbar[CB_MAX_DIM], *pa = p + (size_t)a * d;
    contact_state x;
    int cold = is_zero(pa, d); /* W_αα read after the take-off test */
    if (!cold)
        cb_problem_diag_block(prob, a, Waa);
    local_data(c, a, cold ? NULL : Waa, p, qbar, cnt);
    if (qbar[0] >= 0.0) { /* take-off: p_α = 0 zeroes F_α (every disk radius 0), y_α = q̄ ∈ K* */
        memset(pa, 0, (size_t)d * sizeof *pa);
        return 0;
    }
    if (cold)
        cb_problem_diag_block(prob, a, Waa);
    double start[CB_MAX_DIM];
    int form = diagonal_form(prob, a, Waa, qbar, start);
    memcpy(x.p, form == 1 || (form == 0 && cold) ? start : pa, (size_t)d * sizeof *pa);
    if (form != 1)
        k = contact_newton(c, a, Waa, qbar, e2max, &x, cnt);
    if (k >= 0)
        memcpy(pa, x.p, (size_t)d * sizeof *pa);
    return k;
}

/* The contacts with q_N < 0: those p = 0 leaves closing (y_N < 0). */
static int closed_at_zero(const cb_problem *prob)
{
    int m = 0;
    for (int a = 0; a < prob->nc; a++)
        m += prob->q[(size_t)a * prob->d] < 0.0;
    return m;
}

/* Contact by contact (block Gauss–Seidel with an exact local solve): each contact by
 * sweep_contact to a residual² ≤ (SAFETY tol ‖q‖)²/nc (with W block diagonal one sweep is the
 * answer: the whole is within the tolerance), then y = W p + q and the judge's test on the
 * whole after every sweep. Coupled W: tried only when at most NSN_SMALL_SWEEP_CLOSED contacts
 * have q_N < 0 (one contact pushing, the others to open or not; where contacts push on each
 * other Gauss–Seidel takes many sweeps, Newton a few steps); at most NSN_SMALL_SWEEPS sweeps,
 * stopped (Newton's turn) when one ends above NSN_SMALL_SWEEP_NEAR or does not cut the judged
 * error to NSN_SMALL_SWEEP_GAIN × the previous sweep's. 1 when converged, 0 when not, −1 out of
 * memory for the trace (as nsn_small_solve). */
static int solve_by_sweeps(const nsn_small *c, const cb_settings *s, cb_solution *sol,
                           cb_info *info)
{
    const cb_problem *prob = c->sys->prob;
    int steps = 0, sweeps = c->diag ? 1 : NSN_SMALL_SWEEPS, k = 1;
    double e = NSN_SMALL_SAFETY * s->tol * c->scale->norm_q, e2max = e * e / prob->nc;
    double prev = INFINITY;
    cb_work *cnt = &info->work, uncounted = {0};
    cb_fo_residual res;
    if (!c->diag && closed_at_zero(prob) > NSN_SMALL_SWEEP_CLOSED)
        return 0;
    double t0 = s->trace ? cb_now() : 0.0;
    if (s->trace) { /* the start's error, for the trace only */
        cb_problem_y(prob, sol->p, c->y);
        cb_fo_residual_eval(prob, sol->p, c->y, c->scale, &res, &uncounted);
        if (cb_info_trace(info, s, 0, t0, res.err) != CB_OK)
            return -1;
    }
    c->sys->eps = 0.0;
    for (;; k++, prev = res.err) {
        for (int a = 0; a < prob->nc; a++) {
            int ka = sweep_contact(c, a, e2max, sol->p, cnt);
            if (ka < 0)
                return 0;
            steps = ka > steps ? ka : steps;
        }
        cb_problem_y(prob, sol->p, c->y);
        cnt->block_products += cb_problem_blocks_per_matvec(prob);
        cb_fo_residual_eval(prob, sol->p, c->y, c->scale, &res, cnt);
        int its = c->diag ? steps : k;
        if (cb_fo_stop_status(&res, 0.0, c->scale->norm_q, s, its, 0.0) == CB_STATUS_CONVERGED)
            break;
        if (k >= sweeps || !(res.err <= NSN_SMALL_SWEEP_GAIN * prev) ||
            !(res.err <= NSN_SMALL_SWEEP_NEAR))
            return 0;
    }
    info->iterations = c->diag ? steps : k;
    if (cb_info_trace(info, s, info->iterations, t0, res.err) != CB_OK)
        return -1;
    memcpy(sol->y, c->y, cb_problem_n(prob) * sizeof *sol->y);
    info->solver_error = res.err;
    info->status = CB_STATUS_CONVERGED;
    return 1;
}

int nsn_small_solve(const nsn_small *c, const cb_settings *s, cb_solution *sol, cb_info *info)
{
    int enumerate = !c->diag && s->max_iter >= 1 && nsn_enum_fits(c->sys->prob);
    int done = enumerate ? nsn_enum_solve(c, s, sol, info) : 0;
    if (done != 0)
        return done;
    memcpy(c->dp, sol->p, c->sys->n * sizeof *c->dp); /* the start, kept in scratch */
    done = solve_by_sweeps(c, s, sol, info);
    if (done != 0)
        return done;
    memcpy(sol->p, c->dp, c->sys->n * sizeof *sol->p); /* Newton from the start */
    info->ntrace = 0;
    const cb_problem *prob = c->sys->prob;
    size_t n = c->sys->n;
    double *p = sol->p;
    cb_work *cnt = &info->work;
    cb_fo_residual res;
    cb_problem_y(prob, p, c->y);
    cnt->block_products += cb_problem_blocks_per_matvec(prob);
    cb_fo_residual_eval(prob, p, c->y, c->scale, &res, cnt);
    double t0 = s->trace ? cb_now() : 0.0;
    c->sys->eps = 0.0;
    if (cb_info_trace(info, s, 0, t0, res.err) != CB_OK)
        return -1;
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
        int status = cb_fo_stop_status(&res, 0.0, c->scale->norm_q, s, k, 0.0);
        if (cb_info_trace(info, s, k, t0, res.err) != CB_OK)
            return -1;
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
