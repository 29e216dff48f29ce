/* conebench — the Siconos 4.4 adapters' shared machinery (internal to src/solvers/siconos).
 *
 * Every siconos-* solver is one cb_sic_row: the Siconos solver id it runs for each cone kind,
 * an optional NSGS local solver, flags for the matrix form it needs, and a hook that checks its
 * options and sets its iparam/dparam. The generic supports/setup/solve/cleanup below serve every
 * row (siconos_adapter.c); the problem conversion is siconos_matrix.c. A row's cb_solver is made
 * by CB_SIC_SOLVER (two one-line wrappers: the cb_solver table has no context pointer).
 *
 * Ownership: the work owns the NumericsMatrix (and W's copy inside it), q, μ, μ_r, a global
 * row's M, H, f, w and v, and the SolverOptions tree; cb_sic_cleanup frees them all (NULL ok).
 */
#ifndef CONEBENCH_SICONOS_INTERNAL_H
#define CONEBENCH_SICONOS_INTERNAL_H

#include "solvers_internal.h"

#include "FrictionContactProblem.h"
#include "GlobalFrictionContactProblem.h"
#include "GlobalRollingFrictionContactProblem.h"
#include "NumericsMatrix.h"
#include "RollingFrictionContactProblem.h"
#include "SolverOptions.h"

/* Row flags. */
#define CB_SIC_DENSE 1u        /* the solver reads W as a dense matrix: BSR W is converted */
#define CB_SIC_ROLLING_SBM 2u  /* rolling3d BSR W stays sparse-block (else compressed columns) */
#define CB_SIC_SPARSE 4u       /* the solver reads W as sparse-block: dense W is converted */
#define CB_SIC_SAME_MU 8u      /* the solver is right only when every contact has the same μ */
#define CB_SIC_GLOBAL 16u      /* a global solver: takes the problem's global form (M, H, f, w) */
#define CB_SIC_MUTE 32u        /* the solver prints on stdout whatever the verbosity: muted */

/* Check the options (o == NULL: before anything is allocated) or set them into o. */
typedef int (*cb_sic_configure_fn)(SolverOptions *o, const cb_settings *s, cb_kind kind,
                                   cb_error *err);

typedef struct {
    const cb_solver *solver;      /* its cb_solver (name, summary, options) */
    int id[CB_KIND_COUNT];        /* Siconos solverId per cb_kind, 0: kind not taken */
    int local_id[CB_KIND_COUNT];  /* NSGS local solver (internal solver 0) per kind, 0: the
                                   * default Siconos gives it */
    unsigned flags;               /* CB_SIC_* */
    int max_nc;                   /* largest nc taken (0: any): ENUM is exponential in nc */
    cb_sic_configure_fn configure; /* NULL: Siconos's defaults, tol and max_iter only */
} cb_sic_row;

/* State shared with Siconos's per-iteration callback. */
typedef struct {
    cb_info *info;
    const cb_settings *settings;
    double t0;
    int iteration;
    int rc;
} cb_sic_trace_env;

typedef struct {
    const cb_sic_row *row;
    cb_kind kind;
    int nc, d, n;
    long long blocks_per_matvec;
    int q_finite;      /* 0: q has a NaN or inf (the solve is then diverged at once) */
    NumericsMatrix *M; /* owns its copy of W */
    double *q, *mu, *mu_r;
    RollingFrictionContactProblem rfc;
    FrictionContactProblem fc;
    NumericsMatrix *gM, *gH;  /* CB_SIC_GLOBAL rows: M and H (triplets, duplicates summed) */
    double *gf, *gw, *gv;     /* f, w and the global velocity v (ndof) */
    GlobalFrictionContactProblem gfc;
    GlobalRollingFrictionContactProblem grfc;
    SolverOptions *opt;
    Callback callback; /* attached to opt only during a traced solve */
    cb_sic_trace_env env;
} cb_sic_work;

/* No options (siconos_adapter.c). */
extern const cb_option_spec cb_sic_no_options[];

/* siconos_matrix.c: the Siconos problem of prob in w (w->row, kind, nc, d, n set); for a
 * CB_SIC_GLOBAL row, the global problem of prob->global. */
int cb_sic_build_problem(cb_sic_work *w, const cb_problem *prob);

/* siconos_adapter.c: the generic cb_solver functions of a row. */
int cb_sic_supports(const cb_sic_row *row, const cb_problem *prob, cb_error *err);
int cb_sic_setup(const cb_sic_row *row, const cb_problem *prob, const cb_settings *s,
                 void **work, cb_error *err);
int cb_sic_solve(void *work, const cb_settings *s, cb_solution *sol, cb_info *info,
                 cb_error *err);
void cb_sic_cleanup(void *work);

/* An option whose value is one of named Siconos constants. */
typedef struct {
    const char *name;
    int value;
} cb_sic_choice;
/* The constant named by option key of s (spec's default when absent); CB_ERR_INPUT otherwise. */
int cb_sic_choice_of(const cb_settings *s, const cb_option_spec *spec, const char *key,
                     const cb_sic_choice *choices, int *out, cb_error *err);

/* siconos_nsgs_options.c: the NSGS adapters' options (Siconos's NSGS and local-solver
 * parameters by name), error evaluation full (siconos-nsgs and the siconos-nsgs-LOCAL rows) or
 * light_with_full_final (siconos-nsgs-light) unless the options say otherwise. */
extern const cb_option_spec cb_sic_nsgs_full_options[];
extern const cb_option_spec cb_sic_nsgs_light_options[];
int cb_sic_configure_nsgs_full(SolverOptions *o, const cb_settings *s, cb_kind kind,
                               cb_error *err);
int cb_sic_configure_nsgs_light(SolverOptions *o, const cb_settings *s, cb_kind kind,
                                cb_error *err);

/* The cb_solver cb_solver_IDENT (declared in solvers_internal.h), named NAME, of the cb_sic_row
 * ROW (which points back at it). */
#define CB_SIC_SOLVER(IDENT, NAME, ROW, SUMMARY, OPTIONS)                                        \
    static int supports_##IDENT(const cb_problem *p, cb_error *e)                            \
    {                                                                                        \
        return cb_sic_supports(&(ROW), p, e);                                                \
    }                                                                                        \
    static int setup_##IDENT(const cb_problem *p, const cb_settings *s, void **w, cb_error *e) \
    {                                                                                        \
        return cb_sic_setup(&(ROW), p, s, w, e);                                             \
    }                                                                                        \
    const cb_solver cb_solver_##IDENT = {NAME,          SUMMARY,      OPTIONS,                \
                                         supports_##IDENT, setup_##IDENT, cb_sic_solve,       \
                                         cb_sic_cleanup, NULL}

/* Row and cb_solver in one: the row's fields after its solver pointer follow NAME's summary
 * and options. */
#define CB_SIC_ADAPTER(IDENT, NAME, SUMMARY, OPTIONS, ...)                                    \
    static const cb_sic_row row_##IDENT = {&cb_solver_##IDENT, __VA_ARGS__};                  \
    CB_SIC_SOLVER(IDENT, NAME, row_##IDENT, SUMMARY, OPTIONS)

#endif
