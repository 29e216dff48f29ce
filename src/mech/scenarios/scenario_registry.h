/* conebench — the registry of mechanical scenarios (src/mech/scenarios/).
 *
 * Each scenario is built from "key=value" parameters (unknown keys are rejected, values are
 * range-checked, the error names the key) into a cb_scenario description (scenario.h) that any
 * model can run. `conebench list scenarios` prints name, summary and parameter help.
 *
 *   sphere-plane    Acary & Bourrier §6.1 (config=a|b|c or U0, W0, mu, mu_r, R one by one)
 *   sphere-incline  Fang & Negrut §4.3 (alpha, v0, mu, eta_r or mu_r): regime S/PR/PS/RwS
 *   disk-rolling    Fang & Negrut §4.2, 2D disk (rolling2d)
 *   sphere-spin     Fang & Negrut §4.4, spinning resistance (rollspin3d, mu_s)
 *   three-spheres   Fang & Negrut §4.6, stack of three spheres (m_top, eta_r)
 *   sphere-pile     Acary & Bourrier §6.2, spheres poured on a plane (n, mu, mu_r, seed)
 */
#ifndef CONEBENCH_SCENARIO_REGISTRY_H
#define CONEBENCH_SCENARIO_REGISTRY_H

#include "compliant.h"
#include "kv.h"
#include "conebench/io.h"
#include "scenario.h"
#include "conebench/solver.h"
#include "timestepper.h"

/* The parameters of one build: the pairs as given, read against the scenario's spec (its
 * defaults), every message naming the key as "param KEY: ...". Points into the caller's data. */
typedef struct {
    cb_kv_view kv;
} cb_scenario_params;

typedef struct {
    const char *name;
    const char *summary;      /* one line */
    const cb_kv_spec *params; /* key, default, help; terminated by {NULL, NULL, NULL} */
    /* Build the description from checked parameters (every key is one of params). */
    int (*build)(const cb_scenario_params *ps, cb_scenario *out, cb_error *err);
} cb_scenario_def;

int cb_scenario_count(void);
const cb_scenario_def *cb_scenario_at(int i);
const cb_scenario_def *cb_scenario_find(const char *name);

/* Check every key against def->params, build, record name and the full parameter string
 * (defaults included) in out, and validate the result. On failure out is freed. */
int cb_scenario_build(const cb_scenario_def *def, const cb_kv *params, int nparams,
                      cb_scenario *out, cb_error *err);

/* Parameter reads for builders (scenarios/params.c): the value given last, else the default. */
const char *cb_param_get(const cb_scenario_params *ps, const char *key);
int cb_param_given(const cb_scenario_params *ps, const char *key); /* 1: given, not defaulted */
/* A number in [lo, hi]; CB_ERR_INPUT "param KEY: ..." otherwise. */
int cb_param_double(const cb_scenario_params *ps, const char *key, double lo, double hi,
                    double *out, cb_error *err);
int cb_param_long(const cb_scenario_params *ps, const char *key, long lo, long hi, long *out,
                  cb_error *err);

/* A run of scenario `scenario` with a compliant model (scenarios/presets.c): model "compliant",
 * "compliant-legacy" or "compliant-edem"; the parameters (k=v, any order, the last one given
 * wins) go to the scenario, to the model (cb_compliant_settings fields: mu_s, mu_k, K_E, K_D,
 * kd_factor, eta_r, dr_factor, eta_psi, K_spin, dpsi_factor, k_n, c_n, E, nu, E_ground, e_rest,
 * mu_r_legacy, c_safety, gamma_n, dt, t_end, creep_tol; mu_k, eta_r, eta_psi and t_end go to
 * the scenario too when it has them) or are words (normal=given|hooke|hertz,
 * spin=heuristic|hertz, roll=plane|identical, material=steel1|steel2|glass: a sphere of Fang &
 * Negrut's Table 5). Before them come the presets of each scenario from Fang & Negrut's tables
 * (Table 2 K_D of the brick, Table 3 roll model of the disk, §4.4 8 s for the spinning sphere,
 * Table 6 and §4.5 for the ellipsoid, Table 7 K_E, §4.6 Hertz E = 2 MPa; presets.c names each
 * source). Builds *scen (free with cb_scenario_free) and *s; errors "param KEY: ...". */
int cb_compliant_prepare(const char *scenario, const char *model, const cb_kv *params,
                         int nparams, cb_scenario *scen, cb_compliant_settings *s, cb_error *err);

/* The step dumper (scenarios/dump.c): run a scenario with the nonsmooth model and write the CCP
 * of each chosen step as outdir/NAME-stepN.dat with outdir/NAME-stepN.ids (its contacts' body
 * pair and feature) and outdir/NAME-stepN.meta: a step sequence (src/io/sequence.h). With
 * format CB_FORMAT_FCLIB the step is NAME-stepN.hdf5 holding its ids and time in /conebench. */
typedef struct {
    const char *outdir;     /* created when missing (one level); removed again on failure when
                             * this call created it and nothing is in it */
    const long *steps;      /* sorted, unique, >= 1 (cb_steps_parse); not owned */
    int nsteps;
    cb_run_settings run;    /* solver, solve settings and options, storage */
    cb_format format;       /* CB_FORMAT_SICONOS (default, also for AUTO) or CB_FORMAT_FCLIB */
    /* Called for each chosen step: path of the written problem, or NULL (no contact). */
    void (*on_step)(void *ctx, long step, double t, const char *path);
    void *ctx;
} cb_dump_settings;

typedef struct {
    int written, empty;     /* steps written; chosen steps without contact */
} cb_dump_result;

void cb_dump_settings_default(cb_dump_settings *s);
/* CB_ERR_INPUT when a step lies beyond the scenario's horizon (t_end / h steps). */
int cb_scenario_steps_check(const cb_scenario *s, const long *steps, int n, cb_error *err);
/* Run s (end_on_stop cleared) up to the last chosen step and dump each chosen step. */
int cb_scenario_dump_steps(cb_scenario *s, const cb_dump_settings *ds, cb_dump_result *res,
                           cb_error *err);

#endif
