/* conebench — the Krylov solver of `ipm` (ipm_internal.h): restarted GMRES with left
 * preconditioning, modified Gram–Schmidt and Givens rotations, for the Newton system of the
 * exact (non-symmetric) problem preconditioned by the Cholesky factor of the symmetric one. */
#include "ipm_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "detmath.h"

#define HX(H, m, i, j) ((H)[(i) + (size_t)(j) * ((m) + 1)])

/* r = M⁻¹(b − A x); returns ‖r‖. */
static double precond_residual(const ipm_krylov *k, const double *b, const double *x, double *r)
{
    k->apply(k->ctx, x, r);
    for (size_t i = 0; i < k->n; i++)
        r[i] = b[i] - r[i];
    k->precond(k->ctx, r);
    return cb_nrm2(r, k->n);
}

/* Apply the rotations 0..j−1 to column j of H, then make and apply rotation j. */
static void givens(double *H, int m, int j, double *cs, double *sn, double *g)
{
    for (int i = 0; i < j; i++) {
        double t = cs[i] * HX(H, m, i, j) + sn[i] * HX(H, m, i + 1, j);
        HX(H, m, i + 1, j) = -sn[i] * HX(H, m, i, j) + cs[i] * HX(H, m, i + 1, j);
        HX(H, m, i, j) = t;
    }
    double a = HX(H, m, j, j), b = HX(H, m, j + 1, j), r = hypot(a, b);
    cs[j] = r > 0 ? a / r : 1.0, sn[j] = r > 0 ? b / r : 0.0;
    HX(H, m, j, j) = r, HX(H, m, j + 1, j) = 0.0;
    g[j + 1] = -sn[j] * g[j], g[j] = cs[j] * g[j];
}

/* x += V y with H y = g solved by back substitution (j columns). */
static void update_solution(const ipm_krylov *k, int j, double *x)
{
    int m = k->restart;
    double *y = k->y;
    for (int i = j - 1; i >= 0; i--) {
        double t = k->g[i];
        for (int l = i + 1; l < j; l++)
            t -= HX(k->H, m, i, l) * y[l];
        y[i] = HX(k->H, m, i, i) != 0.0 ? t / HX(k->H, m, i, i) : 0.0;
    }
    for (int i = 0; i < j; i++)
        for (size_t l = 0; l < k->n; l++)
            x[l] += y[i] * k->V[(size_t)i * k->n + l];
}

/* GMRES(m) on M⁻¹ A x = M⁻¹ b from x: stops at ‖M⁻¹(b − A x)‖ ≤ rtol ‖M⁻¹ b‖ or max_iter. */
long ipm_gmres(const ipm_krylov *k, const double *b, double *x, double rtol, long max_iter)
{
    size_t n = k->n;
    int m = k->restart;
    double *v0 = k->V;
    memcpy(v0, b, n * sizeof *v0);
    k->precond(k->ctx, v0);
    double target = rtol * cb_nrm2(v0, n);
    long it = 0;
    while (it < max_iter) {
        double beta = precond_residual(k, b, x, v0);
        if (!(beta > target) || !isfinite(beta))
            break;
        for (size_t l = 0; l < n; l++)
            v0[l] /= beta;
        memset(k->g, 0, (size_t)(m + 1) * sizeof *k->g);
        k->g[0] = beta;
        int j = 0;
        for (; j < m && it < max_iter; j++, it++) {
            double *vj = k->V + (size_t)j * n, *vn = vj + n;
            k->apply(k->ctx, vj, vn);
            k->precond(k->ctx, vn);
            for (int i = 0; i <= j; i++) { /* modified Gram–Schmidt */
                double h = cb_dot(vn, k->V + (size_t)i * n, n);
                HX(k->H, m, i, j) = h;
                for (size_t l = 0; l < n; l++)
                    vn[l] -= h * k->V[(size_t)i * n + l];
            }
            double h = cb_nrm2(vn, n);
            HX(k->H, m, j + 1, j) = h;
            for (size_t l = 0; h > 0 && l < n; l++)
                vn[l] /= h;
            givens(k->H, m, j, k->cs, k->sn, k->g);
            if (!(fabs(k->g[j + 1]) > target) || !(h > DBL_MIN)) {
                j++, it++;
                break;
            }
        }
        update_solution(k, j, x);
    }
    return it;
}
