/* conebench — the second-order cones of `ipm` (ipm_internal.h): the map G from a reaction to
 * its cone vectors, and the Jordan algebra of one cone L^k = {(t, x) : ‖x‖ ≤ t}, k ≤ 3: the
 * Nesterov–Todd scaling, Jordan products and their inverse, the step to the boundary. */
#include "ipm_internal.h"
#include "base.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define AT(M, k, i, j) ((M)[(i) + (j) * (k)])

/* Cones of one contact into c (when c->contact is allocated) and their count. */
static int contact_cones(const cb_problem *prob, int a, ipm_cones *c, int j)
{
    cb_friction f;
    cb_disk_cone dc;
    cb_problem_friction(prob, a, &f);
    cb_disk_cone_of(prob->kind, &f, &dc);
    int base = a * prob->d, first = j;
    for (int b = 0, off = 1; b < dc.nblocks; off += dc.size[b], b++) {
        if (!(dc.mu[b] > 0)) {
            for (int i = 0; c->contact && i < dc.size[b]; i++)
                c->fixed[base + off + i] = 1;
            continue;
        }
        if (c->contact) {
            c->contact[j] = a, c->dim[j] = 1 + dc.size[b], c->mu[j] = dc.mu[b];
            c->comp[j][0] = base, c->comp[j][1] = base + off, c->comp[j][2] = base + off + 1;
        }
        j++;
    }
    if (j == first) { /* no friction block: r_N ≥ 0 */
        if (c->contact)
            c->contact[j] = a, c->dim[j] = 1, c->mu[j] = 1.0, c->comp[j][0] = base;
        j++;
    }
    return j - first;
}

int ipm_cones_build(const cb_problem *prob, ipm_cones *c)
{
    memset(c, 0, sizeof *c);
    int m = 0;
    for (int a = 0; a < prob->nc; a++)
        m += contact_cones(prob, a, c, 0);
    c->ncones = m;
    c->contact = cb_calloc((size_t)m, sizeof *c->contact);
    c->dim = cb_calloc((size_t)m, sizeof *c->dim);
    c->comp = cb_calloc((size_t)m, sizeof *c->comp);
    c->mu = cb_calloc((size_t)m, sizeof *c->mu);
    c->fixed = cb_calloc(cb_problem_n(prob), 1);
    if (!c->contact || !c->dim || !c->comp || !c->mu || !c->fixed) {
        ipm_cones_free(c);
        return CB_ERR_NOMEM;
    }
    for (int a = 0, j = 0; a < prob->nc; a++)
        j += contact_cones(prob, a, c, j);
    return CB_OK;
}

void ipm_cones_free(ipm_cones *c)
{
    if (!c)
        return;
    free(c->contact), free(c->dim), free(c->comp), free(c->mu), free(c->fixed);
    memset(c, 0, sizeof *c);
}

/* s_j = (μ_j p_N, p_x) per cone. */
void ipm_cones_apply(const ipm_cones *c, const double *p, double *out)
{
    for (int j = 0; j < c->ncones; j++) {
        double *o = out + (size_t)j * IPM_STRIDE;
        o[0] = c->mu[j] * p[c->comp[j][0]];
        for (int i = 1; i < c->dim[j]; i++)
            o[i] = p[c->comp[j][i]];
    }
}

/* (Gᵀ v)_N = Σ_j μ_j v_j0, (Gᵀ v)_x = v_jx. */
void ipm_cones_apply_t(const ipm_cones *c, size_t n, const double *v, double *out)
{
    memset(out, 0, n * sizeof *out);
    for (int j = 0; j < c->ncones; j++) {
        const double *vj = v + (size_t)j * IPM_STRIDE;
        out[c->comp[j][0]] += c->mu[j] * vj[0];
        for (int i = 1; i < c->dim[j]; i++)
            out[c->comp[j][i]] += vj[i];
    }
}

/* √det x = √((x₀ − ‖x̄‖)(x₀ + ‖x̄‖)), or 0 when x is not interior. */
static double sqrt_det(int k, const double *x)
{
    double nx = k == 1 ? 0.0 : k == 2 ? fabs(x[1]) : hypot(x[1], x[2]);
    return x[0] > nx ? sqrt((x[0] - nx) * (x[0] + nx)) : 0.0;
}

/* s̄ = s/√det s, z̄ = z/√det z, γ = √((1 + s̄ᵀz̄)/2), w̄ = (s̄ + J z̄)/(2γ) (the normalised NT
 * point, det w̄ = 1), v = w̄^½ = (w̄ + e)/√(2(w̄₀ + 1)), β = (det s/det z)^¼; then
 * W = β(2vvᵀ − J) and W⁻¹ = β⁻¹(2 Jv (Jv)ᵀ − J) satisfy W² z = s. */
int ipm_soc_scaling(int k, const double *s, const double *z, double *Winv, double *W,
                    double *Q, double *lambda, double *det_lambda)
{
    double ds = sqrt_det(k, s), dz = sqrt_det(k, z), v[IPM_STRIDE] = {0}, jv[IPM_STRIDE];
    if (!(ds > 0) || !(dz > 0))
        return 0;
    double sz = 0.0;
    for (int i = 0; i < k; i++)
        sz += (s[i] / ds) * (z[i] / dz);
    double gamma = sqrt(0.5 * (1.0 + sz)), beta = sqrt(ds / dz);
    *det_lambda = ds * dz;
    for (int i = 0; i < k; i++)
        v[i] = (s[i] / ds + (i ? -1.0 : 1.0) * z[i] / dz) / (2.0 * gamma);
    double root = sqrt(2.0 * (v[0] + 1.0));
    v[0] += 1.0;
    for (int i = 0; i < k; i++) {
        v[i] /= root;
        jv[i] = i ? -v[i] : v[i];
    }
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++) {
            double J = i != j ? 0.0 : i ? -1.0 : 1.0;
            AT(W, k, i, j) = beta * (2.0 * v[i] * v[j] - J);
            AT(Winv, k, i, j) = (2.0 * jv[i] * jv[j] - J) / beta;
        }
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++) {
            double q = 0.0;
            for (int l = 0; l < k; l++)
                q += AT(Winv, k, i, l) * AT(Winv, k, l, j);
            AT(Q, k, i, j) = q;
        }
    for (int i = 0; i < k; i++) {
        lambda[i] = 0.0;
        for (int l = 0; l < k; l++)
            lambda[i] += AT(W, k, i, l) * z[l];
    }
    return 1;
}

/* x ∘ y = (xᵀy, x₀ȳ + y₀x̄). */
void ipm_soc_jordan(int k, const double *x, const double *y, double *out)
{
    double t = 0.0;
    for (int i = 0; i < k; i++)
        t += x[i] * y[i];
    for (int i = 1; i < k; i++)
        out[i] = x[0] * y[i] + y[0] * x[i];
    out[0] = t;
}

/* u₀ = (λ₀ r₀ − λ̄ᵀ r̄)/det λ, ū = (r̄ − u₀ λ̄)/λ₀. */
void ipm_soc_jordan_solve(int k, const double *lambda, double det, const double *r, double *u)
{
    double lr = 0.0;
    for (int i = 1; i < k; i++)
        lr += lambda[i] * r[i];
    double u0 = (lambda[0] * r[0] - lr) / det;
    for (int i = 1; i < k; i++)
        u[i] = (r[i] - u0 * lambda[i]) / lambda[0];
    u[0] = u0;
}

/* Smallest positive root of a α² + b α + c (c > 0), +inf without one. */
static double first_root(double a, double b, double c)
{
    if (a == 0.0)
        return b < 0 ? -c / b : INFINITY;
    double disc = b * b - 4.0 * a * c;
    if (disc < 0)
        return INFINITY;
    double qd = -0.5 * (b + copysign(sqrt(disc), b)); /* stable roots qd/a and c/qd */
    double r1 = qd / a, r2 = qd != 0.0 ? c / qd : INFINITY, best = INFINITY;
    if (r1 > 0)
        best = r1;
    if (r2 > 0 && r2 < best)
        best = r2;
    return best;
}

/* x + αd ∈ L ⇔ x₀ + αd₀ ≥ 0 and det(x + αd) = (d₀² − ‖d̄‖²)α² + 2(x₀d₀ − x̄ᵀd̄)α + det x ≥ 0. */
double ipm_soc_max_step(int k, const double *x, const double *dx)
{
    double alpha = dx[0] < 0 ? -x[0] / dx[0] : INFINITY;
    if (k == 1)
        return alpha;
    double a = dx[0] * dx[0], b = x[0] * dx[0], nx = 0.0;
    for (int i = 1; i < k; i++)
        a -= dx[i] * dx[i], b -= x[i] * dx[i], nx += x[i] * x[i];
    nx = sqrt(nx);
    double c = (x[0] - nx) * (x[0] + nx);
    if (!(c > 0))
        return 0.0;
    return fmin(alpha, first_root(a, 2.0 * b, c));
}
