/* conebench — product-disk friction cones (Acary & Bourrier §3).
 *
 * A contact reaction p = (r_N, x_1, ..., x_m) lives in
 *     K = { p : ‖x_i‖ ≤ μ_i r_N  for every block i }   (hence r_N ≥ 0),
 * each block x_i having 1 or 2 components. The dual cone is
 *     K* = { y : y_N ≥ Σ μ_i ‖y_i‖ },   and the polar cone is K° = −K*.
 *
 * The five kinds and their layouts (d = dimension of one contact):
 *   coulomb2d   d=2  (r_N, r_T)                      μ
 *   coulomb3d   d=3  (r_N, r_T1, r_T2)               μ
 *   rolling2d   d=3  (r_N, r_T, m_R)                 μ, μ_r
 *   rolling3d   d=5  (r_N, r_T1, r_T2, m_R1, m_R2)   μ, μ_r        (Acary & Bourrier K_r, eq. 20)
 *   rollspin3d  d=6  (r_N, r_T1, r_T2, m_R1, m_R2, m_S)  μ, μ_r, μ_s
 * The same layout is used for velocities y = (u_N, u_T..., ω_R..., ω_S).
 */
#ifndef CONEBENCH_CONE_H
#define CONEBENCH_CONE_H

#include "conebench/common.h"

typedef enum {
    CB_KIND_COULOMB2D = 0,
    CB_KIND_COULOMB3D = 1,
    CB_KIND_ROLLING2D = 2,
    CB_KIND_ROLLING3D = 3,
    CB_KIND_ROLLSPIN3D = 4
} cb_kind;

#define CB_KIND_COUNT 5
#define CB_MAX_DIM 6     /* largest d among the kinds */
#define CB_MAX_BLOCKS 8  /* largest number of disk blocks of a general cone */

/* Friction coefficients of one contact; unused ones are ignored (keep them 0). */
typedef struct {
    double mu;   /* sliding (Coulomb) */
    double mu_r; /* rolling resistance */
    double mu_s; /* spinning (pivoting) resistance */
} cb_friction;

/* A general product-disk cone: dimension 1 + Σ size[i]. */
typedef struct {
    int nblocks;
    int size[CB_MAX_BLOCKS]; /* 1 or 2 */
    double mu[CB_MAX_BLOCKS];
} cb_disk_cone;

/* Outcome of a projection. */
typedef enum {
    CB_PROJ_NONFINITE = -1, /* input or coefficient not finite: out is filled with NaN */
    CB_PROJ_INSIDE = 0,     /* x ∈ K: returned unchanged */
    CB_PROJ_ZERO = 1,       /* −x ∈ K*: the projection is 0 */
    CB_PROJ_BOUNDARY = 2    /* some blocks scaled onto their disks, r_N > 0 */
} cb_proj_case;

int cb_kind_dim(cb_kind kind);                /* d, or 0 for an invalid kind */
int cb_kind_nblocks(cb_kind kind);            /* number of disk blocks m */
const char *cb_kind_name(cb_kind kind);       /* "rolling3d", ...; "invalid" otherwise */
int cb_kind_parse(const char *name, cb_kind *out); /* CB_OK or CB_ERR_INPUT */

/* The disk-cone description of a kind with coefficients f. */
void cb_disk_cone_of(cb_kind kind, const cb_friction *f, cb_disk_cone *out);
int cb_disk_cone_dim(const cb_disk_cone *c);

/* out = P_K(x), Euclidean projection onto the cone of `kind` (straight-line fast path per kind).
 * out may alias x. Coefficients must be ≥ 0 (a negative one is treated as non-finite input). */
cb_proj_case cb_project(cb_kind kind, const cb_friction *f, const double *x, double *out);

/* out = P_K(x) for a general product-disk cone (closed form, breakpoints t_i = ‖x_i‖/μ_i sorted,
 * O(m log m)). out may alias x. */
cb_proj_case cb_project_disk_cone(const cb_disk_cone *c, const double *x, double *out);

/* ŷ = y + [Σ μ_i ‖y_i‖, 0, ..., 0]  (Acary & Bourrier Prop. 3.1, eq. 32). yhat may alias y. */
void cb_modified_velocity(cb_kind kind, const cb_friction *f, const double *y, double *yhat);

/* Membership with absolute slack tol ≥ 0: ‖x_i‖ ≤ μ_i r_N + tol. */
int cb_in_cone(cb_kind kind, const cb_friction *f, const double *x, double tol);
/* y_N + tol ≥ Σ μ_i ‖y_i‖. */
int cb_in_dual_cone(cb_kind kind, const cb_friction *f, const double *y, double tol);

#endif
