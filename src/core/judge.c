/* conebench — the judge: natural-map residual of a reaction p, recomputing y = W p + q. */
#include "conebench/judge.h"

#include "detmath.h"
#include "base.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>

/* ‖p − P_K(p − ŷ)‖² for one contact, ŷ = y + g(y). */
double cb_contact_residual2(cb_kind kind, const cb_friction *f, const double *p, const double *y)
{
    int d = cb_kind_dim(kind);
    double yhat[CB_MAX_DIM], z[CB_MAX_DIM];
    cb_modified_velocity(kind, f, y, yhat);
    for (int i = 0; i < d; i++)
        z[i] = p[i] - yhat[i];
    if (cb_project(kind, f, z, z) == CB_PROJ_NONFINITE)
        return NAN;
    double s = 0;
    for (int i = 0; i < d; i++)
        s += (p[i] - z[i]) * (p[i] - z[i]);
    return s;
}

/* w̄ = mean_α ‖W_αα‖∞ (largest absolute row sum of each diagonal block); force = ‖q‖ / w̄. */
void cb_judge_scale_of(const cb_problem *prob, cb_judge_scale *out)
{
    double mean = 0.0;
    for (int a = 0; a < prob->nc; a++)
        mean += cb_problem_diag_norm(prob, a) / prob->nc;
    out->norm_q = cb_nrm2(prob->q, cb_problem_n(prob));
    out->diag_mean = mean;
    out->force = mean > 0 && isfinite(mean) ? out->norm_q / mean : 0.0;
}

/* max(error, ‖e‖ / max(‖q‖, min(max(‖p‖, ‖y‖), κ max(‖q‖, force)))) (‖e‖ when that ≤ ε). */
double cb_judge_error_data(const cb_judge_scale *sc, double error, double abs_error,
                           double norm_p, double norm_y)
{
    double cap = CB_JUDGE_KAPPA * fmax(sc->norm_q, sc->force);
    double norm = fmax(sc->norm_q, fmin(fmax(norm_p, norm_y), cap));
    double e = norm > DBL_EPSILON ? abs_error / norm : abs_error;
    return isnan(error) ? error : fmax(error, e);
}

/* error = ‖e‖ / max(‖q‖, ‖p‖, ‖y‖) (if > DBL_EPSILON), error_q = ‖e‖ / max(‖q‖, DBL_MIN),
 * error_data as cb_judge_error_data. */
static void normalise(cb_judgement *j, const cb_judge_scale *sc, double abs_error)
{
    double norm = fmax(j->norm_q, fmax(j->norm_p, j->norm_y));
    j->abs_error = abs_error;
    j->error = fabs(norm) > DBL_EPSILON ? abs_error / norm : abs_error;
    j->error_q = abs_error / fmax(j->norm_q, DBL_MIN);
    j->error_data = cb_judge_error_data(sc, j->error, abs_error, j->norm_p, j->norm_y);
}

/* ‖e‖ with (p, y) scaled by 2^-k, k the exponent of their largest entry: e is positively
 * homogeneous of degree 1 in (p, y) (P_K and ŷ = y + g(y) are), so ‖e(p, y)‖ = 2^k ‖e(2^-k p,
 * 2^-k y)‖ exactly, without the overflow of squares above 1e154. */
static double scaled_residual(const cb_problem *prob, const double *p, const double *y)
{
    size_t n = cb_problem_n(prob);
    int d = prob->d, k = 0;
    double m = 0, e2 = 0, ps[CB_MAX_DIM], ys[CB_MAX_DIM];
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fmax(fabs(p[i]), fabs(y[i])));
    frexp(m, &k);
    for (int a = 0; a < prob->nc; a++) {
        cb_friction f;
        cb_problem_friction(prob, a, &f);
        size_t off = (size_t)a * d;
        for (int i = 0; i < d; i++)
            ps[i] = ldexp(p[off + i], -k), ys[i] = ldexp(y[off + i], -k);
        e2 += cb_contact_residual2(prob->kind, &f, ps, ys);
    }
    return ldexp(sqrt(e2), k);
}

int cb_judge(const cb_problem *prob, const double *p, double tol, double *y_out,
             cb_judgement *out, cb_error *err)
{
    if (!prob || !p || !out)
        return cb_fail(err, CB_ERR_INPUT, "judge: NULL argument");
    if (!(tol >= 0))
        return cb_fail(err, CB_ERR_INPUT, "tol: must be ≥ 0, got %g", tol);
    size_t n = cb_problem_n(prob);
    double *y = y_out ? y_out : cb_calloc(n, sizeof(double));
    if (!y)
        return cb_fail(err, CB_ERR_NOMEM, "judge: out of memory");
    cb_judgement j = {0};
    j.finite = cb_all_finite(p, n);
    double e2 = NAN;
    if (j.finite) {
        cb_problem_y(prob, p, y);
        j.finite = cb_all_finite(y, n);
    }
    if (j.finite) {
        e2 = 0;
        for (int a = 0; a < prob->nc; a++) {
            cb_friction f;
            cb_problem_friction(prob, a, &f);
            size_t off = (size_t)a * prob->d;
            e2 += cb_contact_residual2(prob->kind, &f, p + off, y + off);
        }
        j.norm_p = cb_nrm2(p, n);
        j.norm_y = cb_nrm2(y, n);
        j.finite = isfinite(j.norm_p) && isfinite(j.norm_y);
    }
    cb_judge_scale sc;
    cb_judge_scale_of(prob, &sc);
    j.norm_q = sc.norm_q;
    double abs_e = !j.finite ? INFINITY : isfinite(e2) ? sqrt(e2) : scaled_residual(prob, p, y);
    normalise(&j, &sc, abs_e); /* scaled_residual: a square overflowed (entries ≳ 1e154) */
    j.finite = j.finite && isfinite(j.abs_error);
    j.resolvable = j.finite && DBL_EPSILON * fmax(j.norm_p, j.norm_y) <= j.norm_q;
    j.solved = j.finite && j.resolvable && j.error_data <= tol;
    *out = j;
    if (!y_out)
        free(y);
    return CB_OK;
}
