/* conebench — a generalised Jacobian of the product-disk projection (for semismooth Newton).
 *
 * P = P_K(x̄), x̄ = (r̄, x̄_1..x̄_m), K = { ‖x_i‖ ≤ μ_i r }. With n_i = ‖x̄_i‖, u_i = x̄_i/n_i:
 *   inside (x̄ ∈ K):     J = I;
 *   zero (−x̄ ∈ K*):     J = 0;
 *   boundary, saturated set S (μ_i r < n_i), D = 1 + Σ_S μ_i²,
 *     r = (r̄ + Σ_S μ_i n_i)/D,  x_i = μ_i r u_i (i ∈ S),  x_i = x̄_i (i ∉ S):
 *     ∂r/∂r̄ = 1/D,   ∂r/∂x̄_j = (μ_j/D) u_jᵀ (j ∈ S),
 *     ∂x_i/∂· = μ_i u_i ∂r/∂· + δ_ij μ_i r (I − u_i u_iᵀ)/n_i (i ∈ S; the second term is 0
 *     for one-component blocks), ∂x_i/∂x̄_i = I (i ∉ S).
 * Where the case or S is unique this is THE Jacobian; on a kink (a breakpoint t_i = r, or the
 * border between two cases) it is the element of the B-subdifferential of the case and set the
 * projection chose (a block with μ_i r = n_i counts as not saturated). */
#include "conebench/cone.h"
#include "cone_kernels.h"

#include <math.h>
#include <string.h>

/* Column-major d×d: J[i + j d]. */
#define AT(J, d, i, j) ((J)[(i) + (size_t)(j) * (d)])

/* The boundary-case Jacobian for the blocks of c, given x̄ and the projected r. */
static void boundary_jacobian(const cb_disk_cone *c, const double *x, double r, int d, double *J)
{
    double D = 1.0, u[CB_MAX_DIM] = {0}, nrm[CB_MAX_BLOCKS] = {0};
    int sat[CB_MAX_BLOCKS] = {0};
    for (int i = 0, off = 1; i < c->nblocks; off += c->size[i], i++) {
        nrm[i] = c->size[i] == 1 ? fabs(x[off]) : hypot(x[off], x[off + 1]);
        sat[i] = c->mu[i] * r < nrm[i] || c->mu[i] == 0;
        for (int k = 0; sat[i] && nrm[i] > 0 && k < c->size[i]; k++)
            u[off + k] = x[off + k] / nrm[i];
        D += sat[i] ? c->mu[i] * c->mu[i] : 0.0;
    }
    double dr[CB_MAX_DIM] = {1.0 / D}; /* ∂r/∂x̄ as a row */
    for (int i = 0, off = 1; i < c->nblocks; off += c->size[i], i++)
        for (int k = 0; sat[i] && k < c->size[i]; k++)
            dr[off + k] = c->mu[i] / D * u[off + k];
    memset(J, 0, (size_t)d * d * sizeof *J);
    for (int j = 0; j < d; j++)
        AT(J, d, 0, j) = dr[j];
    for (int i = 0, off = 1; i < c->nblocks; off += c->size[i], i++)
        for (int a = off; a < off + c->size[i]; a++) {
            if (!sat[i]) {
                AT(J, d, a, a) = 1.0;
                continue;
            }
            for (int j = 0; j < d; j++)
                AT(J, d, a, j) = c->mu[i] * u[a] * dr[j];
            if (c->size[i] == 2 && nrm[i] > 0) /* μ_i r (I − u uᵀ)/n_i on the block */
                for (int b = off; b < off + 2; b++)
                    AT(J, d, a, b) += c->mu[i] * r / nrm[i] * ((a == b) - u[a] * u[b]);
        }
}

cb_proj_case cb_project_jacobian(cb_kind kind, const cb_friction *f, const double *xin,
                                 double *P, double *J)
{
    int d = cb_kind_dim(kind);
    double x[CB_MAX_DIM];
    if (d > 0)
        memcpy(x, xin, (size_t)d * sizeof *x); /* P may alias xin */
    cb_proj_case pc = d > 0 ? cb_project(kind, f, x, P) : CB_PROJ_NONFINITE;
    if (d == 0)
        return pc;
    if (pc == CB_PROJ_NONFINITE) {
        for (int k = 0; k < d * d; k++)
            J[k] = NAN;
        return pc;
    }
    memset(J, 0, (size_t)d * d * sizeof *J);
    if (pc == CB_PROJ_INSIDE) {
        for (int k = 0; k < d; k++)
            AT(J, d, k, k) = 1.0;
    } else if (pc == CB_PROJ_BOUNDARY) {
        cb_disk_cone c;
        cb_disk_cone_of(kind, f, &c);
        boundary_jacobian(&c, x, P[0], d, J);
    }
    return pc;
}
