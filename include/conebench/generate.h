/* conebench — random problems with a known solution (the "random" generator).
 *
 * The solution is built by Moreau decomposition: choose p* ∈ K and ŷ* ∈ K* with ⟨ŷ*, p*⟩ = 0
 * contact by contact (mixing take-off, stick, slide, roll, slide+roll, spin), recover y* from ŷ*
 * (y*_N = ŷ*_N − Σ μ_i ‖y*_i‖), and set q = y* − W p*. Deterministic from the seed.
 */
#ifndef CONEBENCH_GENERATE_H
#define CONEBENCH_GENERATE_H

#include "conebench/problem.h"

typedef enum {
    CB_GEN_MULTIBODY = 0, /* W = Hᵀ M⁻¹ H from random rigid bodies and contacts */
    CB_GEN_SPD = 1        /* random symmetric W with chosen condition number */
} cb_gen_matrix;

#define CB_GEN_BODIES_PER_CONTACT 2 /* CB_GEN_MULTIBODY: at most this many bodies a contact */

typedef struct {
    cb_kind kind;
    int nc;              /* ≥ 1 */
    uint64_t seed;
    cb_gen_matrix matrix;
    double cond;         /* CB_GEN_SPD: condition number ≥ 1 (default 1e3). CB_GEN_MULTIBODY
                          * refuses a cond or density other than the default, and semidefinite */
    int semidefinite;    /* CB_GEN_SPD: make W singular (a few zero eigenvalues) */
    double density;      /* CB_GEN_SPD: fraction of coupled off-diagonal block pairs, (0, 1] */
    int bodies;          /* CB_GEN_MULTIBODY: number of bodies, ≤ CB_GEN_BODIES_PER_CONTACT·nc
                          * (0: ⌈2nc/3⌉); W is singular when some set of contacts has more rows
                          * than the degrees of freedom of the bodies it touches (6 a body, 3 in
                          * 2D: nc·d > 6·bodies, or e.g. three coulomb3d contacts between one
                          * body and the ground); refused (> 0) with CB_GEN_SPD */
    double mu_min, mu_max;     /* ranges of the coefficients drawn per contact */
    double mur_min, mur_max;
    double mus_min, mus_max;
    cb_storage storage;  /* storage of the output W */
} cb_random_settings;

void cb_random_settings_default(cb_random_settings *s);

/* Generate. *p_star and *y_star (n entries each, caller frees) receive the known solution;
 * either may be NULL if not wanted. */
int cb_generate_random(const cb_random_settings *s, cb_problem **out, double **p_star,
                       double **y_star, cb_error *err);

#endif
