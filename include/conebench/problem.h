/* conebench — the contact problem: find p ∈ K with y = W p + q, ŷ = y + g(y) ∈ K*, ⟨ŷ, p⟩ = 0.
 *
 * Ownership: a cb_problem owns every array it points to; cb_problem_free releases them all.
 * Storage of W (n = nc·d):
 *   dense: W is n×n column-major (entry (i,j) at W[i + j*n]);
 *   BSR:   block-sparse rows with d×d blocks; block row a has blocks k in
 *          [row_ptr[a], row_ptr[a+1]) at block column col[k], values at val + k*d*d (column-major
 *          inside the block). Columns are strictly increasing inside a row.
 *   factored: W = G M⁻¹ Gᵀ kept as its factors (cb_factored below): per contact two d×6
 *          Jacobian blocks G_α0, G_α1 acting on the (v, ω) of the bodies of its two slots, per
 *          body M_b⁻¹ = diag(1/m_b I₃, I_b⁻¹), so W_αβ = Σ_{s,t: body(α,s) = body(β,t)}
 *          G_αs M_b⁻¹ G_βtᵀ. Memory is O(nc + nbody) whatever the coupling: for rolling3d
 *          (d = 5) about 700 B per contact where BSR needs one 200 B block per coupled pair.
 *          Built by cb_problem_alloc_factored + filling G/minv/body + cb_problem_factored_finish
 *          (or by cb_assemble); cb_problem_to_bsr / to_dense assemble it.
 * W need not be symmetric nor definite. μ, μ_r, μ_s have nc entries each (zeros where the kind
 * has no such block).
 */
#ifndef CONEBENCH_PROBLEM_H
#define CONEBENCH_PROBLEM_H

#include <stdio.h>

#include "conebench/common.h"
#include "conebench/cone.h"

typedef enum { CB_STORAGE_DENSE = 0, CB_STORAGE_BSR = 1, CB_STORAGE_FACTORED = 2 } cb_storage;

typedef struct {
    int nbrows;   /* = nc */
    int nnzb;     /* stored blocks */
    int *row_ptr; /* nbrows + 1 */
    int *col;     /* nnzb */
    double *val;  /* nnzb · d · d */
} cb_bsr;

/* Factored storage. The caller fills minv, body and G; cb_problem_factored_finish derives
 * adj_ptr, adj and diag from them (call it again after changing them). Every array is owned by
 * the problem. Fixed (infinite-mass) bodies are simply absent: their slot has body −1 and its
 * G block is ignored (the others must be finite); a contact needs at least one body. The same
 * body in both slots is allowed (both blocks then act on it). */
typedef struct {
    int nbody;      /* bodies, ≥ 1 */
    double *minv;   /* nbody × 10: 1/m_b (≥ 0), then I_b⁻¹, the 3×3 world inverse inertia,
                     * row-major (symmetric, applied as ω = I_b⁻¹ τ) */
    int *body;      /* nc × 2: body[2α + s] ∈ [−1, nbody), −1 = no (or a fixed) body */
    double *G;      /* nc × 2 blocks of d×6, row-major (G[6r + c]; columns v then ω), block of
                     * slot s of contact α at G + (2α + s)·6d: y_α = Σ_s G_αs (v, ω)_body(α,s) */
    int *adj_ptr;   /* derived, nbody + 1: body b's entries are adj[adj_ptr[b] .. adj_ptr[b+1]) */
    int *adj;       /* derived, capacity 2·nc: entries e = 2α + s with body[e] = b, increasing */
    double *diag;   /* derived, nc × d×d column-major: the cached diagonal blocks W_αα */
} cb_factored;

/* A sparse matrix as triplets (row i, column j, value x), duplicates summed. Owned arrays. */
typedef struct {
    int nrow, ncol, nnz;
    int *i, *j;
    double *x;
} cb_triplets;

/* The global form a problem was condensed from: M v = H p + f, y = Hᵀ v + w (ndof velocities
 * v, M ndof × ndof positive definite, H ndof × nc·d), so W = Hᵀ M⁻¹ H and q = Hᵀ M⁻¹ f + w.
 * The readers of global files attach it to the condensed problem (cb_problem.global) for the
 * solvers that work on it directly (ipm form=global); μ's stay in the problem. Owned arrays. */
typedef struct {
    int ndof;
    cb_triplets M, H;
    double *f, *w; /* ndof, nc·d */
} cb_global_form;

/* Release t's arrays and zero it (t itself is not freed; NULL ok). */
void cb_triplets_free(cb_triplets *t);
/* t is nrow × ncol, its arrays present, every index in range and every value finite; else
 * CB_ERR_INPUT naming `name`, the entry and the reason. */
int cb_triplets_check(const cb_triplets *t, const char *name, int nrow, int ncol, cb_error *err);
/* Release g and everything it owns (NULL ok). */
void cb_global_form_free(cb_global_form *g);
/* Sizes, indices and finiteness of g for a problem of n = nc·d unknowns (CB_ERR_INPUT naming
 * M, H, f or w and the entry). */
int cb_global_form_check(const cb_global_form *g, size_t n, cb_error *err);
/* Deep copy of src (n = nc·d) into a new *out (CB_ERR_NOMEM). */
int cb_global_form_copy(const cb_global_form *src, size_t n, cb_global_form **out,
                        cb_error *err);

/* Where a problem comes from: a file (path + sha256) or a generator (name + params + seed). */
typedef struct {
    char *source;      /* file path, or NULL */
    char sha256[65];   /* of the file, or of the written problem for generated ones; "" if unknown */
    char *generator;   /* generator or scenario name, or NULL */
    char *params;      /* "k=v k=v", or NULL */
    uint64_t seed;
} cb_provenance;

typedef struct {
    char *name;        /* short name (file basename without extension, or generator tag) */
    cb_kind kind;
    int nc;            /* number of contacts */
    int d;             /* cb_kind_dim(kind) */
    cb_storage storage;
    double *W;         /* dense storage, else NULL */
    cb_bsr bsr;        /* BSR storage, else zeroed */
    cb_factored fac;   /* factored storage, else zeroed */
    double *q;         /* nc·d */
    double *mu, *mu_r, *mu_s; /* nc each */
    cb_global_form *global;   /* the global form W and q were condensed from, or NULL */
    cb_provenance prov;
} cb_problem;

/* Allocate a zero-filled problem. nnzb is used for BSR only (row_ptr/col/val allocated, zeroed).
 * Dense or BSR only (factored: cb_problem_alloc_factored). */
int cb_problem_alloc(cb_kind kind, int nc, cb_storage storage, int nnzb, cb_problem **out,
                     cb_error *err);
/* Allocate a factored problem for nc contacts and nbody ≥ 1 bodies: q, μ's, minv and G zeroed,
 * every body slot −1, the derived arrays allocated (filled by cb_problem_factored_finish). */
int cb_problem_alloc_factored(cb_kind kind, int nc, int nbody, cb_problem **out, cb_error *err);
/* Validate fac.body, fac.minv and fac.G (names the field and the entry), then build the
 * body → (contact, slot) adjacency and the diagonal blocks W_αα. Allocates nothing. */
int cb_problem_factored_finish(cb_problem *prob, cb_error *err);
void cb_problem_free(cb_problem *prob);

/* Validate sizes, BSR structure / factored indices, adjacency and inverse masses, finiteness of
 * W (or its factors) and q, μ ≥ 0 and finite. Names the field. */
int cb_problem_check(const cb_problem *prob, cb_error *err);

/* Bytes of the arrays that represent W in its storage: dense n²·8; BSR values + column indices
 * + row pointers; factored every array of cb_factored (minv, body, G, adjacency, diag). */
size_t cb_problem_W_bytes(const cb_problem *prob);

/* n = nc · d */
size_t cb_problem_n(const cb_problem *prob);

/* y = W p. Every entry is summed in column order in dense and BSR storage, so the dense and BSR
 * copies of one problem give bit-identical products (and solvers identical iterations).
 * Factored: f_b = Σ G_αsᵀ p_α, v_b = M_b⁻¹ f_b, y_α = Σ_s G_αs v_b in O(nc + nbody) (rounds
 * differently from the assembled copies, ~1e-16 relative).
 * The dense kernel is an SSE2 column sweep, not OpenBLAS dgemv, which cannot promise that
 * order (its speed against dgemv: BENCHMARKS.md). */
void cb_problem_Wp(const cb_problem *prob, const double *p, double *y);
/* y = W p + q */
void cb_problem_y(const cb_problem *prob, const double *p, double *y);
/* out (d) = Σ_β W_αβ p_β  — one block row times p (same summation order as cb_problem_Wp;
 * factored: through the bodies of α, O(their contacts)). */
void cb_problem_row_Wp(const cb_problem *prob, int alpha, const double *p, double *out);
/* out (d×d column-major) = W_αα (zero if BSR row has no diagonal block; factored: the cache). */
void cb_problem_diag_block(const cb_problem *prob, int alpha, double *out);
/* ‖W_αα‖∞: the largest absolute row sum of contact α's diagonal block. */
double cb_problem_diag_norm(const cb_problem *prob, int alpha);
/* Work of one full W p in block products: nc² for dense, nnzb for BSR (d×d block × vector);
 * factored: 2 per (contact, slot) with a body — one d×6 G block × vector for Gᵀ p and one for
 * G v (the per-body M⁻¹, 12 multiplications, is not counted). */
long long cb_problem_blocks_per_matvec(const cb_problem *prob);
/* Factored only: v (6·nbody, (v, ω) per body) = M⁻¹ Gᵀ p, the body velocities p produces. */
void cb_problem_factored_velocities(const cb_problem *prob, const double *p, double *v);

/* Friction coefficients of contact alpha. */
void cb_problem_friction(const cb_problem *prob, int alpha, cb_friction *f);

/* Deep copy (the global form too); convert storage (BSR drops all-zero off-diagonal blocks, keeps diagonal blocks;
 * from factored, BSR holds a block for every pair of contacts sharing a body, computed as
 * Σ G_αs M⁻¹ G_βtᵀ, and dense goes through BSR). Nothing converts to factored. */
int cb_problem_copy(const cb_problem *src, cb_problem **out, cb_error *err);
int cb_problem_to_bsr(const cb_problem *src, cb_problem **out, cb_error *err);
int cb_problem_to_dense(const cb_problem *src, cb_problem **out, cb_error *err);

/* Set provenance/name strings (copied). */
int cb_problem_set_name(cb_problem *prob, const char *name);
int cb_problem_set_provenance(cb_problem *prob, const char *source, const char *generator,
                              const char *params, uint64_t seed);

const char *cb_storage_name(cb_storage s); /* "dense" / "bsr" / "factored" */

#endif
