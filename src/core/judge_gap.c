/* conebench — the gap measures of a point (judge_gap.h): cone violation per block, the angle
 * between friction and sliding, the sign of the friction's work. */
#include "judge_gap.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "base.h"

#define RAD_TO_DEG (180.0 / 3.14159265358979323846)

/* Scales of the point and the data: ‖p‖∞ and ‖q‖∞. */
static void scales(const cb_problem *prob, const double *p, double *pmax, double *qmax)
{
    size_t n = (size_t)prob->nc * (size_t)prob->d;
    *pmax = *qmax = 0.0;
    for (size_t i = 0; i < n; i++) {
        *pmax = fmax(*pmax, fabs(p[i]));
        *qmax = fmax(*qmax, fabs(prob->q[i]));
    }
}

/* v = (‖x‖ − μ r_N⁺) / (μ' max(r_N, ρ)) (μ' = μ, or 1 when μ = 0), 0 when ‖x‖ ≤ μ r_N⁺ + δ. */
static double block_violation(const double *x, int size, double mu, double rn, double slack,
                              double floor)
{
    double nx = size == 2 ? hypot(x[0], x[1]) : fabs(x[0]);
    double bound = mu * fmax(rn, 0.0);
    if (nx <= bound + slack)
        return 0.0;
    return (nx - bound) / ((mu > 0 ? mu : 1.0) * fmax(rn, floor));
}

/* θ = ∠(r_T, −u_T) in degrees (90 when r_T = 0) of a sliding contact; *positive: r_T·u_T > 0. */
static double slip_angle(const double *r, const double *u, int m, int *positive)
{
    double dot = 0, nr2 = 0, nu2 = 0;
    for (int k = 0; k < m; k++) {
        dot += r[k] * u[k];
        nr2 += r[k] * r[k];
        nu2 += u[k] * u[k];
    }
    *positive = dot > 0;
    if (nr2 == 0)
        return 90.0;
    double c = fmin(fmax(-dot / sqrt(nr2 * nu2), -1.0), 1.0);
    return acos(c) * RAD_TO_DEG;
}

/* The violations and slip measures of contact a, folded into out (angle_mean: the sum). */
static void contact_gap(const cb_problem *prob, int a, const double *p, const double *y,
                        double slack, double pmax, double qmax, cb_gap *out)
{
    cb_friction f;
    cb_disk_cone c;
    cb_problem_friction(prob, a, &f);
    cb_disk_cone_of(prob->kind, &f, &c);
    double *v[3] = {&out->cone_violation, &out->rolling_violation, &out->spin_violation};
    for (int i = 0, off = 1; i < c.nblocks && i < 3; off += c.size[i], i++)
        *v[i] = fmax(*v[i], block_violation(p + off, c.size[i], c.mu[i], p[0], slack,
                                            CB_GAP_SLIDING * pmax));
    int m = c.size[0];
    double ut = m == 2 ? hypot(y[1], y[2]) : fabs(y[1]);
    if (!(f.mu > 0 && p[0] > CB_GAP_SLIDING * pmax && ut > CB_GAP_SLIDING * qmax))
        return;
    int positive = 0;
    double theta = slip_angle(p + 1, y + 1, m, &positive);
    out->sliding++;
    out->positive_work += positive;
    out->angle_max = out->sliding == 1 ? theta : fmax(out->angle_max, theta);
    out->angle_mean = out->sliding == 1 ? theta : out->angle_mean + theta;
}

/* Per block i: max_α v_αi (judge_gap.h); over sliding α: max and mean of θ_α, #{r_T·u_T > 0}. */
int cb_judge_gap(const cb_problem *prob, const double *p, const double *y, cb_gap *out,
                 cb_error *err)
{
    if (!prob || !p || !y || !out)
        return cb_fail(err, CB_ERR_INPUT, "judge gap: NULL argument");
    size_t n = (size_t)prob->nc * (size_t)prob->d;
    int nb = cb_kind_nblocks(prob->kind);
    cb_gap g = {0.0, nb > 1 ? 0.0 : NAN, nb > 2 ? 0.0 : NAN, NAN, NAN, 0, 0};
    if (!cb_all_finite(p, n) || !cb_all_finite(y, n)) {
        *out = CB_GAP_UNKNOWN;
        return CB_OK;
    }
    double pmax, qmax;
    scales(prob, p, &pmax, &qmax);
    for (int a = 0; a < prob->nc; a++) {
        size_t off = (size_t)a * (size_t)prob->d;
        contact_gap(prob, a, p + off, y + off, DBL_EPSILON * pmax, pmax, qmax, &g);
    }
    if (g.sliding > 0)
        g.angle_mean /= g.sliding;
    *out = g;
    return CB_OK;
}
