/* conebench — the measures that explain a judged error (core, internal): how far a point p is
 * outside the exact cone, block by block, and how its friction stands to the sliding velocity.
 * Computed by the judge's side for every solver's final point (runs.csv, solve --json).
 *
 * With r_N⁺ = max(r_N, 0), the rounding slack δ = ε ‖p‖∞ and the floor ρ = τ ‖p‖∞ of the
 * normal (τ = CB_GAP_SLIDING), block i (x_i, μ_i) of contact α:
 *   v_αi = 0 when ‖x_i‖ ≤ μ_i r_N⁺ + δ, else (‖x_i‖ − μ_i r_N⁺) / (μ'_i max(r_N, ρ)),
 *   μ'_i = μ_i when > 0, else 1. That is ‖x_i‖ / (μ_i r_N) − 1 on a contact that carries a
 *   normal force (r_N ≥ ρ); friction with no normal force is finite but large (‖x‖/(μ ρ)),
 *   and rounding-level friction at r_N = 0 stays small;
 *   cone_violation = max_α v_α0 (sliding), rolling_violation = max_α v_α1 (m_R),
 *   spin_violation = max_α v_α2 (m_S); NaN for a block the kind does not have.
 * A contact slides when μ > 0, r_N > τ ‖p‖∞ and ‖u_T‖ > τ ‖q‖∞ (τ = CB_GAP_SLIDING; ‖q‖∞: the
 * data's velocity scale). Over the sliding contacts: the angle θ_α between r_T and −u_T
 * (degrees; 90 when r_T = 0), its max and mean (NaN when none slides), and positive_work =
 * #{α sliding : r_T·u_T > 0} (friction doing positive work: θ_α > 90). A negative r_N is the
 * judge's business (its error), not these measures'. */
#ifndef CONEBENCH_JUDGE_GAP_H
#define CONEBENCH_JUDGE_GAP_H

#include <math.h>

#include "conebench/problem.h"

/* τ: a contact slides when r_N and ‖u_T‖ exceed τ times their scales (‖p‖∞, ‖q‖∞). */
#define CB_GAP_SLIDING 1e-6

typedef struct {
    double cone_violation;    /* max_α max(‖r_T‖/(μ r_N) − 1, 0) */
    double rolling_violation; /* the same for m_R and μ_r; NaN without a rolling block */
    double spin_violation;    /* the same for m_S and μ_s; NaN without a spin block */
    double angle_max;         /* max over sliding contacts of ∠(r_T, −u_T), degrees; NaN: none */
    double angle_mean;        /* their mean, degrees; NaN: none */
    int sliding;              /* contacts counted as sliding */
    int positive_work;        /* sliding contacts with r_T·u_T > 0 */
} cb_gap;

/* Not known: every measure NaN, every count −1. */
#define CB_GAP_UNKNOWN ((cb_gap){NAN, NAN, NAN, NAN, NAN, -1, -1})

/* The measures of p with y = W p + q (the judged y). CB_GAP_UNKNOWN when p or y has a
 * non-finite entry; CB_ERR_INPUT for a NULL argument. */
int cb_judge_gap(const cb_problem *prob, const double *p, const double *y, cb_gap *out,
                 cb_error *err);

#endif
