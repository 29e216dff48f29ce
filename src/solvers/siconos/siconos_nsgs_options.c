/* conebench — the options of the Siconos NSGS adapters (siconos-nsgs, siconos-nsgs-light and
 * the siconos-nsgs-LOCAL rows): Siconos's own integer and real parameters of its NSGS loop and
 * of the local (internal) solver, by name, each written to the iparam/dparam slot
 * Friction_cst.h and SolverOptions.h document for it:
 *   local_tol            internal solver dparam[SICONOS_DPARAM_TOL]: each local solve's
 *                        tolerance (used as given when local_tol_strategy = given)
 *   local_max_iter       internal solver iparam[SICONOS_IPARAM_MAX_ITER]
 *   local_tol_strategy   iparam[SICONOS_FRICTION_3D_IPARAM_INTERNAL_ERROR_STRATEGY]: given,
 *                        adaptive (the local tolerance follows the NSGS error divided by
 *                        local_tol_ratio) or adaptive_n_contact (the same divided by nc too)
 *   local_tol_ratio      dparam[SICONOS_FRICTION_3D_DPARAM_INTERNAL_ERROR_RATIO]
 *   error_evaluation     iparam[SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION]: full (the
 *                        complete residual), light (the incremental variation), light_with_full_
 *                        final, adaptive (full at an adaptive frequency)
 *   error_frequency      iparam[..._ERROR_EVALUATION_FREQUENCY]: the error every k sweeps (0, 1:
 *                        every sweep)
 *   shuffle              iparam[SICONOS_FRICTION_3D_NSGS_SHUFFLE]: no, yes (once), each_loop
 *   shuffle_seed         iparam[SICONOS_FRICTION_3D_NSGS_SHUFFLE_SEED]
 *   omega                dparam[SICONOS_FRICTION_3D_NSGS_RELAXATION_VALUE], with
 *                        iparam[SICONOS_FRICTION_3D_NSGS_RELAXATION] on when omega ≠ 1
 * "siconos" (the local_* defaults) keeps Siconos's value, which depends on the local solver and
 * the kind. coulomb2d's NSGS has no local solver: local_* options are refused there; shuffle is
 * refused on rolling3d (Siconos 4.4's rolling_fc3d NSGS dies of a signal whenever it shuffles:
 * rockfall_14 and random rolling3d problems, shuffle=yes and each_loop). */
#include "siconos_internal.h"

#include <math.h>
#include <string.h>

#include "Friction_cst.h"

#define KEEP "siconos" /* an option's value that keeps Siconos's default */

#define NSGS_OPTION_LINES(EVAL_DEFAULT)                                                        \
    {"local_tol", KEEP, "local solver tolerance, in (0, 1] (Siconos: 1e-14 coulomb3d, 1e-12 "  \
                        "rolling)"},                                                           \
    {"local_max_iter", KEEP, "local solver iterations at most, >= 1 (Siconos: 10 for the "     \
                             "coulomb3d Newton local solvers, 1000 otherwise)"},               \
    {"local_tol_strategy", KEEP, "given | adaptive | adaptive_n_contact (Siconos: given)"},    \
    {"local_tol_ratio", KEEP, "adaptive local tolerance: the NSGS error over this, >= 1 "      \
                              "(Siconos: 10)"},                                                \
    {"error_evaluation", EVAL_DEFAULT, "full | light | light_with_full_final | adaptive"},     \
    {"error_frequency", "0", "the error every k sweeps (0 or 1: every sweep)"},                \
    {"shuffle", "no", "contact order: no | yes (shuffled once) | each_loop"},                  \
    {"shuffle_seed", "0", "seed of the shuffle, >= 0"},                                        \
    {"omega", "1", "relaxation of each local solution, in (0, 2)"},                            \
    {NULL, NULL, NULL}

const cb_option_spec cb_sic_nsgs_full_options[] = {NSGS_OPTION_LINES("full")};
const cb_option_spec cb_sic_nsgs_light_options[] = {NSGS_OPTION_LINES("light_with_full_final")};

static const cb_sic_choice eval_choices[] = {
    {"full", SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_FULL},
    {"light", SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_LIGHT},
    {"light_with_full_final", SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_LIGHT_WITH_FULL_FINAL},
    {"adaptive", SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_ADAPTIVE},
    {NULL, 0}};
static const cb_sic_choice shuffle_choices[] = {
    {"no", SICONOS_FRICTION_3D_NSGS_SHUFFLE_FALSE},
    {"yes", SICONOS_FRICTION_3D_NSGS_SHUFFLE_TRUE},
    {"each_loop", SICONOS_FRICTION_3D_NSGS_SHUFFLE_TRUE_EACH_LOOP},
    {NULL, 0}};
static const cb_sic_choice strategy_choices[] = {
    {KEEP, -1},
    {"given", SICONOS_FRICTION_3D_INTERNAL_ERROR_STRATEGY_GIVEN_VALUE},
    {"adaptive", SICONOS_FRICTION_3D_INTERNAL_ERROR_STRATEGY_ADAPTIVE},
    {"adaptive_n_contact", SICONOS_FRICTION_3D_INTERNAL_ERROR_STRATEGY_ADAPTIVE_N_CONTACT},
    {NULL, 0}};

int cb_sic_choice_of(const cb_settings *s, const cb_option_spec *spec, const char *key,
                     const cb_sic_choice *choices, int *out, cb_error *err)
{
    const char *v = cb_option_get(s, spec, key);
    for (const cb_sic_choice *c = choices; c->name; c++)
        if (v && strcmp(v, c->name) == 0) {
            *out = c->value;
            return CB_OK;
        }
    return cb_fail(err, CB_ERR_INPUT, "option %s: '%s' is not one of the accepted values", key,
                   v ? v : "");
}

/* The parsed options; NaN / -1: keep Siconos's value. */
typedef struct {
    double local_tol, local_ratio, omega;
    long local_max_iter, frequency, seed;
    int strategy, eval, shuffle;
} nsgs_opts;

/* A real option that may be "siconos" (→ NaN), else within [lo, hi]. */
static int keep_or_double(const cb_settings *s, const cb_option_spec *spec, const char *key,
                          double lo, double hi, double *out, cb_error *err)
{
    const char *v = cb_option_get(s, spec, key);
    *out = NAN;
    return v && !strcmp(v, KEEP) ? CB_OK : cb_option_double(s, spec, key, lo, hi, out, err);
}

/* Every option of spec from s, checked (CB_ERR_INPUT naming the option). */
static int parse_nsgs(const cb_settings *s, const cb_option_spec *spec, cb_kind kind,
                      nsgs_opts *o, cb_error *err)
{
    double iters = NAN;
    int rc = keep_or_double(s, spec, "local_tol", 1e-300, 1, &o->local_tol, err);
    if (rc == CB_OK)
        rc = keep_or_double(s, spec, "local_max_iter", 1, 1e9, &iters, err);
    if (rc == CB_OK && !isnan(iters) && iters != (double)(long)iters)
        rc = cb_fail(err, CB_ERR_INPUT, "option local_max_iter: an integer, not %g", iters);
    o->local_max_iter = isnan(iters) ? -1 : (long)iters;
    if (rc == CB_OK)
        rc = keep_or_double(s, spec, "local_tol_ratio", 1, 1e300, &o->local_ratio, err);
    if (rc == CB_OK)
        rc = cb_sic_choice_of(s, spec, "local_tol_strategy", strategy_choices, &o->strategy, err);
    if (rc == CB_OK)
        rc = cb_sic_choice_of(s, spec, "error_evaluation", eval_choices, &o->eval, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, spec, "error_frequency", 0, 1000000000L, &o->frequency, err);
    if (rc == CB_OK)
        rc = cb_sic_choice_of(s, spec, "shuffle", shuffle_choices, &o->shuffle, err);
    if (rc == CB_OK)
        rc = cb_option_int(s, spec, "shuffle_seed", 0, 2147483647L, &o->seed, err);
    if (rc == CB_OK)
        rc = cb_option_double(s, spec, "omega", 1e-6, 2 - 1e-6, &o->omega, err);
    const char *local = !isnan(o->local_tol)        ? "local_tol"
                        : o->local_max_iter >= 0    ? "local_max_iter"
                        : !isnan(o->local_ratio)    ? "local_tol_ratio"
                        : o->strategy >= 0          ? "local_tol_strategy"
                                                    : NULL;
    if (rc == CB_OK && o->shuffle != SICONOS_FRICTION_3D_NSGS_SHUFFLE_FALSE &&
        kind == CB_KIND_ROLLING3D)
        rc = cb_fail(err, CB_ERR_INPUT, "option shuffle: Siconos 4.4's rolling3d NSGS crashes "
                                        "when it shuffles (every problem tried): not taken");
    if (rc == CB_OK && local && kind == CB_KIND_COULOMB2D)
        rc = cb_fail(err, CB_ERR_INPUT, "option %s: coulomb2d's NSGS (fc2d) has no local solver",
                     local);
    return rc;
}

/* The options into Siconos's slots (the NSGS loop's, then its local solver's). */
static void set_nsgs(SolverOptions *so, const nsgs_opts *o)
{
    so->iparam[SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION] = o->eval;
    so->iparam[SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION_FREQUENCY] = (int)o->frequency;
    so->iparam[SICONOS_FRICTION_3D_NSGS_SHUFFLE] = o->shuffle;
    so->iparam[SICONOS_FRICTION_3D_NSGS_SHUFFLE_SEED] = (int)o->seed;
    so->iparam[SICONOS_FRICTION_3D_NSGS_FREEZING_CONTACT] = 0;
    so->iparam[SICONOS_FRICTION_3D_NSGS_RELAXATION] =
        o->omega != 1 ? SICONOS_FRICTION_3D_NSGS_RELAXATION_TRUE
                      : SICONOS_FRICTION_3D_NSGS_RELAXATION_FALSE;
    if (o->omega != 1)
        so->dparam[SICONOS_FRICTION_3D_NSGS_RELAXATION_VALUE] = o->omega;
    if (o->strategy >= 0)
        so->iparam[SICONOS_FRICTION_3D_IPARAM_INTERNAL_ERROR_STRATEGY] = o->strategy;
    if (!isnan(o->local_ratio))
        so->dparam[SICONOS_FRICTION_3D_DPARAM_INTERNAL_ERROR_RATIO] = o->local_ratio;
    SolverOptions *in = so->numberOfInternalSolvers > 0 ? so->internalSolvers[0] : NULL;
    if (in && !isnan(o->local_tol))
        in->dparam[SICONOS_DPARAM_TOL] = o->local_tol;
    if (in && o->local_max_iter >= 0)
        in->iparam[SICONOS_IPARAM_MAX_ITER] = (int)o->local_max_iter;
}

/* Check (so == NULL) or set the options of spec; coulomb2d's loop tests convergence only in the
 * light modes, so `full` is light_with_full_final there. */
static int configure(SolverOptions *so, const cb_settings *s, cb_kind kind,
                     const cb_option_spec *spec, cb_error *err)
{
    nsgs_opts o;
    int rc = parse_nsgs(s, spec, kind, &o, err);
    if (rc == CB_OK && kind == CB_KIND_COULOMB2D &&
        o.eval == SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_FULL)
        o.eval = SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_LIGHT_WITH_FULL_FINAL;
    if (rc == CB_OK && so)
        set_nsgs(so, &o);
    return rc;
}

int cb_sic_configure_nsgs_full(SolverOptions *so, const cb_settings *s, cb_kind kind,
                               cb_error *err)
{
    return configure(so, s, kind, cb_sic_nsgs_full_options, err);
}

int cb_sic_configure_nsgs_light(SolverOptions *so, const cb_settings *s, cb_kind kind,
                                cb_error *err)
{
    return configure(so, s, kind, cb_sic_nsgs_light_options, err);
}
