/* conebench — the Newton system of `nsn`: the natural map F and the blocks I − J_α and
 * A_α = ρ_α J_α (I + G_α) of its generalised Jacobian (nsn_internal.h), and products with
 * H + λ I through the W kernels. */
#include "nsn_internal.h"

#include <math.h>
#include <string.h>

#include "conebench/common.h"
#include "conebench/cone.h"
#include "base.h"
#include "cone_kernels.h"

#define AT(M, d, i, j) ((M)[(i) + (size_t)(j) * (d)])

/* Row 0 of G_α = ∂g_α/∂y_α: μ_i y_i/‖y_i‖ on the entries of block i (0 where y_i = 0). */
static void desaxce_row(cb_kind kind, const cb_friction *f, const double *y, double *g0)
{
    cb_disk_cone c;
    cb_disk_cone_of(kind, f, &c);
    g0[0] = 0.0;
    for (int i = 0, off = 1; i < c.nblocks; off += c.size[i], i++) {
        double nrm = c.size[i] == 1 ? fabs(y[off]) : hypot(y[off], y[off + 1]);
        for (int k = 0; k < c.size[i]; k++)
            g0[off + k] = nrm > 0 ? c.mu[i] * y[off + k] / nrm : 0.0;
    }
}

/* One contact: z = p − ρ ŷ, F = p − P_K(z), IJ = I − J, A = ρ J (I + G) (column j of I + G is
 * e_j plus g0_j e_0). Returns 0 when z was not finite. */
static int contact_eval(const cb_problem *prob, int a, double rho, const double *p,
                        const double *y, double *F, double *IJ, double *A)
{
    int d = prob->d;
    cb_friction f;
    double yhat[CB_MAX_DIM], z[CB_MAX_DIM], P[CB_MAX_DIM], J[NSN_D2], g0[CB_MAX_DIM];
    cb_problem_friction(prob, a, &f);
    cb_modified_velocity(prob->kind, &f, y, yhat);
    desaxce_row(prob->kind, &f, y, g0);
    for (int k = 0; k < d; k++)
        z[k] = p[k] - rho * yhat[k];
    if (cb_project_jacobian(prob->kind, &f, z, P, J) == CB_PROJ_NONFINITE)
        return 0;
    for (int k = 0; k < d; k++)
        F[k] = p[k] - P[k];
    for (int j = 0; j < d; j++)
        for (int i = 0; i < d; i++) {
            AT(IJ, d, i, j) = (i == j) - AT(J, d, i, j);
            AT(A, d, i, j) = rho * (AT(J, d, i, j) + AT(J, d, i, 0) * g0[j]);
        }
    return 1;
}

/* Disk block of radius R at z (size 1 or 2): P = z inside, R z/‖z‖ outside; Pz = ∂P/∂z
 * (d×d, rows and columns off..off+size−1), dR = ∂P/∂R (0 inside, z/‖z‖ outside). */
static inline __attribute__((always_inline)) void disk_jacobian(const double *z, int size,
                                                                double R, double *P,
                                                                double Pz[2][2], double dR[2])
{
    double nz = size == 1 ? fabs(z[0]) : hypot(z[0], z[1]);
    int inside = !(nz > R);
CB_UNROLL(2)
    for (int i = 0; i < size; i++) {
        double u = inside ? 0.0 : z[i] / nz;
        P[i] = inside ? z[i] : R * u;
        dR[i] = u;
CB_UNROLL(2)
        for (int j = 0; j < size; j++)
            Pz[i][j] = inside ? (i == j) : R / nz * ((i == j) - u * z[j] / nz);
    }
}

/* Smoothed disk projection (Chen–Harker–Kanzow–Smale): P = R z/m with m = ½(R + s + √((R − s)²
 * + 4ε²)) ≈ max(R, s), s = ‖z‖; Pz = ∂P/∂z, dR = ∂P/∂R. C^∞ for ε > 0; → disk_jacobian as ε → 0. */
static void disk_smooth(const double *z, int size, double R, double eps, double *P,
                        double Pz[2][2], double dR[2])
{
    double s = size == 1 ? fabs(z[0]) : hypot(z[0], z[1]);
    double root = sqrt((R - s) * (R - s) + 4.0 * eps * eps), m = 0.5 * (R + s + root);
    double dm_R = 0.5 * (1.0 + (R - s) / root), dm_s = 0.5 * (1.0 - (R - s) / root);
    for (int i = 0; i < size; i++) {
        P[i] = R * z[i] / m;
        dR[i] = z[i] / m - R * z[i] / (m * m) * dm_R;
        for (int j = 0; j < size; j++)
            Pz[i][j] = R * (i == j) / m - (s > 0 ? R * z[i] / (m * m) * dm_s * z[j] / s : 0.0);
    }
}

/* One contact, Alart–Curnier: x = p − ρ y, ν = max(0, x₀), F₀ = p₀ − ν, F_i = p_i −
 * P_{B(μ_i ν)}(x_i) per disk block; D = ∂P/∂x, IJ = I − D, A = ρ D. With eps > 0 the smoothed
 * map F_ε: ν = ½(x₀ + √(x₀² + 4ε²)) and disk_smooth. Returns 0 when x is not finite. */
static int contact_eval_ac(const cb_problem *prob, int a, double rho, double eps,
                           const double *p, const double *y, double *F, double *IJ, double *A)
{
    int d = prob->d;
    cb_friction f;
    cb_disk_cone c;
    double x[CB_MAX_DIM], D[NSN_D2] = {0}, Pz[2][2], dR[2], P[2];
    cb_problem_friction(prob, a, &f);
    cb_disk_cone_of(prob->kind, &f, &c);
    for (int k = 0; k < d; k++)
        x[k] = p[k] - rho * y[k];
    if (!cb_all_finite(x, (size_t)d))
        return 0;
    double nu = fmax(0.0, x[0]), dnu = x[0] > 0 ? 1.0 : 0.0;
    if (eps > 0) {
        double root = sqrt(x[0] * x[0] + 4.0 * eps * eps);
        nu = 0.5 * (x[0] + root), dnu = 0.5 * (1.0 + x[0] / root);
    }
    F[0] = p[0] - nu;
    AT(D, d, 0, 0) = dnu;
    for (int i = 0, off = 1; i < c.nblocks; off += c.size[i], i++) {
        if (eps > 0)
            disk_smooth(x + off, c.size[i], c.mu[i] * nu, eps, P, Pz, dR);
        else
            disk_jacobian(x + off, c.size[i], c.mu[i] * nu, P, Pz, dR);
        for (int r = 0; r < c.size[i]; r++) {
            F[off + r] = p[off + r] - P[r];
            AT(D, d, off + r, 0) = c.mu[i] * dnu * dR[r];
            for (int q = 0; q < c.size[i]; q++)
                AT(D, d, off + r, off + q) = Pz[r][q];
        }
    }
    for (int j = 0; j < d; j++)
        for (int i = 0; i < d; i++) {
            AT(IJ, d, i, j) = (i == j) - AT(D, d, i, j);
            AT(A, d, i, j) = rho * AT(D, d, i, j);
        }
    return 1;
}

/* contact_eval_ac for the Coulomb cones (one disk block, of size d − 1, radius μ ν) without
 * smoothing, with d known to the compiler: the same operations, hence the same bits, without
 * the general cone's description. */
static inline __attribute__((always_inline)) int coulomb_eval_ac(int d, double mu, double rho,
                                                                 const double *p, const double *y,
                                                                 double *F, double *IJ, double *A)
{
    double x[3], D[9], Pz[2][2], dR[2], P[2];
CB_UNROLL(3)
    for (int k = 0; k < d; k++)
        x[k] = p[k] - rho * y[k];
CB_UNROLL(3)
    for (int k = 0; k < d; k++)
        if (!isfinite(x[k]))
            return 0;
    double nu = fmax(0.0, x[0]), dnu = x[0] > 0 ? 1.0 : 0.0;
    F[0] = p[0] - nu;
    disk_jacobian(x + 1, d - 1, mu * nu, P, Pz, dR);
    AT(D, d, 0, 0) = dnu;
CB_UNROLL(3)
    for (int r = 0; r < d - 1; r++) {
        F[1 + r] = p[1 + r] - P[r];
        AT(D, d, 0, 1 + r) = 0.0;
        AT(D, d, 1 + r, 0) = mu * dnu * dR[r];
CB_UNROLL(2)
        for (int q = 0; q < d - 1; q++)
            AT(D, d, 1 + r, 1 + q) = Pz[r][q];
    }
CB_UNROLL(3)
    for (int j = 0; j < d; j++) {
CB_UNROLL(3)
        for (int i = 0; i < d; i++) {
            AT(IJ, d, i, j) = (i == j) - AT(D, d, i, j);
            AT(A, d, i, j) = rho * AT(D, d, i, j);
        }
    }
    return 1;
}

int nsn_contact_eval(const nsn_system *sys, int a, const double *p, const double *y, double *F,
                     double *IJ, double *A)
{
    const cb_problem *prob = sys->prob;
    if (sys->ac && sys->eps == 0.0 && prob->kind == CB_KIND_COULOMB3D)
        return coulomb_eval_ac(3, prob->mu[a], sys->rho[a], p, y, F, IJ, A);
    if (sys->ac && sys->eps == 0.0 && prob->kind == CB_KIND_COULOMB2D)
        return coulomb_eval_ac(2, prob->mu[a], sys->rho[a], p, y, F, IJ, A);
    return sys->ac ? contact_eval_ac(prob, a, sys->rho[a], sys->eps, p, y, F, IJ, A)
                   : contact_eval(prob, a, sys->rho[a], p, y, F, IJ, A);
}

int nsn_system_eval(nsn_system *sys, const double *p, const double *y, cb_work *cnt)
{
    int d = sys->d, ok = 1;
    size_t dd = (size_t)d * d;
    for (int a = 0; a < sys->nc; a++) {
        size_t off = (size_t)a * d;
        ok &= nsn_contact_eval(sys, a, p + off, y + off, sys->F + off, sys->IJ + a * dd,
                               sys->A + a * dd);
    }
    cnt->projections += sys->nc;
    return ok;
}

/* out = (H + λ I) v = (I − J) v + A (W v) + λ v, block by block. */
void nsn_system_apply(const nsn_system *sys, double lambda, const double *v, double *out,
                      double *scratch, cb_work *cnt)
{
    int d = sys->d;
    size_t dd = (size_t)d * d;
    cb_problem_Wp(sys->prob, v, scratch);
    cnt->block_products += cb_problem_blocks_per_matvec(sys->prob);
    for (int a = 0; a < sys->nc; a++) {
        const double *IJ = sys->IJ + a * dd, *A = sys->A + a * dd;
        const double *va = v + (size_t)a * d, *wa = scratch + (size_t)a * d;
        double *oa = out + (size_t)a * d;
        for (int i = 0; i < d; i++) {
            double s = lambda * va[i];
            for (int j = 0; j < d; j++)
                s += AT(IJ, d, i, j) * va[j] + AT(A, d, i, j) * wa[j];
            oa[i] = s;
        }
    }
}
