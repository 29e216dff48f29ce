/* conebench — the nonsmooth model: assembly of each step's CCP and the Moreau–Jean θ-scheme
 * (Acary & Bourrier §6).
 *
 * Assembly. With block-diagonal M = diag(m_k I₃, I_k) and the d×6 blocks G_{α,k} of Hᵀ
 * (contact.h),
 *     W_αβ = Σ_{k dynamic, k ∈ α ∩ β} G_{α,k} M_k⁻¹ G_{β,k}ᵀ,     q_α = Σ_k G_{α,k} v_free,k
 *            (+ e_n u_N⁻ on the normal row when the contact approaches, u_N⁻ < 0)
 * stored block-sparse (BSR, d×d blocks): only contacts sharing a dynamic body are coupled;
 * or kept factored (CB_STORAGE_FACTORED: the G blocks and M_k⁻¹, O(nc) memory whatever the
 * coupling, see problem.h).
 *
 * Moreau–Jean step from t to t + h:
 *     v_free = v⁻ + h M⁻¹ f(t)            (gravity; explicit gyroscopic torque −ω × I ω)
 *     contacts: detected with margin, kept when g + γ h u_N⁻ ≤ 0 (γ = ½ by default)
 *     solve y = W p + q, K* ∋ ŷ ⟂ p ∈ K with the chosen solver, warm start = previous p
 *       (through one solver workspace, solver.h, kept while kind, nc and W's block pattern stay:
 *       q, μ, W updated, the same bits as cb_solve; set up again when the pattern changes)
 *     v⁺ = v_free + M⁻¹ H p;   x⁺ = x⁻ + h (θ v⁺ + (1 − θ) v⁻);
 *     q⁺ = exp(h ω_θ / 2) ⊗ q⁻, ω_θ = θ ω⁺ + (1 − θ) ω⁻.
 * With constant forces, e = 0 and θ = 1 the step never increases the energy:
 * ΔE = pᵀ y⁺ − ½‖v⁺ − v⁻‖²_M ≤ 0 (the CCP dissipates, pᵀy = −(μ‖u_T‖ + μ_r‖ω_R‖ + μ_s|ω_S|) r_N).
 */
#ifndef CONEBENCH_TIMESTEPPER_H
#define CONEBENCH_TIMESTEPPER_H

#include "contact.h"
#include "modes.h"
#include "conebench/problem.h"
#include "scenario.h"
#include "conebench/solver.h"

/* ---- assembly ---- */

typedef struct {
    cb_kind kind;
    const cb_body *bodies;
    int nbodies;
    const cb_contact *contacts;
    int nc;
    const double *v_free; /* 6 per body (v, ω), world; NULL: the bodies' own velocities */
    int restitution;      /* add e_n u_N⁻ (from the bodies' velocities) when u_N⁻ < 0 */
    int factored;         /* 1: W in CB_STORAGE_FACTORED; 0 (default): BSR */
} cb_assembly_input;

/* Assemble W (BSR, or factored when in->factored) and q of the contacts (nc ≥ 1); μ, μ_r, μ_s
 * from each contact (zero where the kind has no such block). Factored: every contact needs a
 * dynamic body; the factors cover only the dynamic bodies that touch a contact, numbered in
 * order of first appearance in the contact list (fixed bodies: slot −1), so W costs at most
 * ~1 KB per rolling3d contact whatever the number of bodies in the system. */
int cb_assemble(const cb_assembly_input *in, cb_problem **out, cb_error *err);
/* dv (6 per body) += M⁻¹ H p, p of nc·d entries (fixed bodies are left alone). */
void cb_apply_impulses(const cb_assembly_input *in, const double *p, double *dv);
/* Bytes held by W of a BSR problem (values + column indices + row pointers), 0 for another
 * storage (cb_problem_W_bytes covers every storage). */
size_t cb_bsr_bytes(const cb_problem *prob);

/* ---- the time-stepper ---- */

typedef struct {
    cb_body *bodies;       /* the state, updated in place (not owned) */
    int nbodies;
    cb_kind kind;
    double gravity[3];
    cb_detect_settings contact;
    double t;
} cb_system;

typedef struct {
    double h;              /* time step (default 1e-3) */
    double theta;          /* θ ∈ [0, 1] (default ½) */
    double gamma;          /* activation look-ahead γ ∈ [0, 1] (default ½) */
    const cb_solver *solver; /* default: nsgs */
    cb_settings solve;     /* tolerance, iterations, time limit, options of each solve */
    int warm_start;        /* warm start from the previous step's p (default 1) */
    double mode_tau;       /* relative tolerance of cb_contact_mode (default 1e-6) */
    cb_storage storage;    /* W of each step: CB_STORAGE_BSR (default) or CB_STORAGE_FACTORED */
} cb_mj_settings;

void cb_mj_settings_default(cb_mj_settings *s);

enum {
    CB_MODE_SLOT_TAKEOFF = 0,
    CB_MODE_SLOT_STICK,
    CB_MODE_SLOT_SLIDE,
    CB_MODE_SLOT_ROLL,
    CB_MODE_SLOT_SLIDE_ROLL,
    CB_MODE_SLOT_SPIN,      /* any combination with spin */
    CB_MODE_SLOT_UNDEFINED,
    CB_MODE_SLOTS
};

typedef struct {
    long step;             /* 1, 2, ... */
    double t;              /* time at the end of the step */
    int nc;                /* contacts in the CCP */
    long long nnzb;        /* stored blocks of W: BSR d×d blocks; factored: d×6 G blocks of the
                            * (contact, slot) pairs with a dynamic body */
    size_t w_bytes;        /* memory of W (cb_problem_W_bytes) */
    cb_status status;      /* the solve's stop reason (converged when nc = 0) */
    int solved;            /* the judge's verdict on the step's solve (1 when nc = 0) */
    int iterations;
    double error, error_q; /* as judged */
    double energy_before, energy_after; /* over the bodies alive at the start of the step */
    int modes[CB_MODE_SLOTS];
    double time_detect, time_assemble, time_solve; /* seconds */
} cb_step_record;

typedef struct cb_mj_work cb_mj_work;

int cb_mj_create(const cb_system *sys, const cb_mj_settings *s, cb_mj_work **out, cb_error *err);
void cb_mj_free(cb_mj_work *w);
/* Advance sys by one step. CB_OK even when the solver did not reach its tolerance (see
 * rec->status); an error when the solver diverged or the input is invalid. */
int cb_mj_step(cb_system *sys, const cb_mj_settings *s, cb_mj_work *w, cb_step_record *rec,
               cb_error *err);

/* The last step: its contacts, reactions p and velocities y (nc·d), modes (nc), and the CCP
 * as assembled before the solve (NULL when it had no contact). */
int cb_mj_ncontacts(const cb_mj_work *w);
const cb_contact *cb_mj_contacts(const cb_mj_work *w);
const double *cb_mj_reactions(const cb_mj_work *w);
const double *cb_mj_velocities(const cb_mj_work *w);
const int *cb_mj_modes(const cb_mj_work *w);
const cb_problem *cb_mj_problem(const cb_mj_work *w);
/* Index of the contact between bodies i and j in the last step (first feature), or −1. */
int cb_mj_find_contact(const cb_mj_work *w, int i, int j);

/* ---- running a scenario ---- */

/* Called after every step; return nonzero to stop the run. */
typedef int (*cb_step_hook)(void *ctx, const cb_system *sys, const cb_mj_work *w,
                            const cb_step_record *rec);

typedef struct {
    long steps;
    double t;              /* final time */
    long unsolved;         /* steps whose CCP was not solved to tolerance */
    long time_limited;     /* of those, steps whose solve stopped at the time limit */
    double max_error;      /* largest judged error over the steps */
    long long iterations;  /* total solver iterations */
    int max_nc;
    double time_s;         /* wall time of the run */
    double max_energy_increase; /* max over steps of energy_after − energy_before */
    cb_scenario_summary summary;
} cb_run_result;

/* Run scen with the Moreau–Jean scheme. s->h and s->theta are taken from the scenario unless
 * use_settings_grid; hook may be NULL. */
typedef struct {
    cb_mj_settings mj;
    int use_settings_grid; /* 0: h, θ, tol from the scenario */
    double t_end;          /* > 0: overrides the scenario's t_end */
    long max_steps;        /* > 0: stop after this many steps */
} cb_run_settings;

void cb_run_settings_default(cb_run_settings *s);
int cb_nonsmooth_run(const cb_scenario *scen, const cb_run_settings *rs, cb_step_hook hook,
                     void *ctx, cb_run_result *res, cb_error *err);

#endif
