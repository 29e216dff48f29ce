/* conebench — campaign files (man conebench, FILES): which problems, solvers, tolerances and
 * limits to run.
 *
 * Plain text, one directive a line, '#' starts a comment:
 *   name NAME                     description TEXT...
 *   problem GLOB... [kind=K]      files or globs, relative to the working directory; kind=K
 *                                 reads them as cone kind K (e.g. rolling2d for d = 3 files);
 *                                 a `**` path component stands for any number of folders
 *   skip-unreadable               problem files that do not read are skipped, listed in the
 *                                 run's skipped.txt and its report (without it: an error
 *                                 naming every such file)
 *   data GLOB...                  globs relative to the Siconos data folder ($CONEBENCH_DATA or
 *                                 ../shared/data); skipped, with a note, when it is absent
 *   generate random kind=K nc=N seeds=A..B [matrix=multibody|spd] [cond=C] [density=D]
 *                   [storage=bsr|dense] [semidefinite=0|1] [mu=M: one μ in [0, 10] for every
 *                   contact, else each drawn from [0.1, 1]]
 *   scenario NAME [key=value]... steps=LIST [read_kind=K]   the CCPs of chosen time steps of a
 *                                 mechanical scenario (`conebench generate NAME ... --steps
 *                                 LIST`), dumped under the output's problems/ before running;
 *                                 read_kind=rolling2d for 2D scenarios (d = 3 files)
 *   loop NAME [key=value]...      solvers inside the time loop (src/bench/loop.h): each solver ×
 *                                 tol × repetition drives its own trajectory of scenario NAME
 *                                 (its parameters as `simulate --param`, e.g. t_end=1), plus one
 *                                 reference trajectory at tol 1e-12; loops.csv, loops/<id>.csv
 *   sequence DIR [read_kind=K]    a step sequence (src/io/sequence.h: NAME-stepN files, with
 *                                 .ids contact identities), relative to the working directory;
 *                                 skipped, with a note, when the folder is absent (scenes/...
 *                                 made by `make scenes`); a folder that is not a sequence is an
 *                                 error naming the line
 *   sequence scenario NAME [key=value]... steps=LIST [read_kind=K]   the chosen steps of a
 *                                 scenario as one sequence (written, with their .ids, under the
 *                                 output's problems/ before running, like `scenario` lines)
 *   warm-start MODE...            how a sequence run starts each step, each run done for each
 *                                 mode: cold (p = 0), previous (the previous step's p when its
 *                                 size is the step's, else 0), mapped (carried contact by contact
 *                                 by identity, cb_contact_ids_map; new contacts at 0: every step
 *                                 needs its .ids). Default: cold
 *   solver NAME [key=value]... [label=LABEL]   one solver with one option set
 *   tol T...                      tolerances (each run is done for each)
 *   max-iter N    time-limit S    repetitions R    trace on|off
 *   solutions on|off              keep every judged run's final iterate, DIR/solutions/ (as
 *                                 `run --solutions`; default off)
 *   threads N                     threads of each run (cb_settings.threads, 1..64; default 1);
 *                                 the runner warns when --jobs × N exceeds the online cores
 *   references DIR                folder of reference files (`conebench reference`), relative to
 *                                 the campaign file unless absolute; a problem's reference is
 *                                 FILE.ref beside it or the DIR/\*.ref with its sha256
 *   plugin SO                     load a solver plugin (conebench/plugin.h), relative to the
 *                                 campaign file unless absolute, before the solvers naming it
 * A word may be "double-quoted" to hold spaces or '#' (the quotes are dropped).
 * A sequence run (one per sequence × solver × tolerance × warm-start mode × repetition) solves
 * every step in order through one workspace (set up again only when the kind, nc or W's pattern
 * changes), each step judged and limited by time-limit of CPU time (runner.h, results.h).
 * Errors are "FILE:LINE: what". Refused: a NUL byte; a second name, description, tol, max-iter,
 * time-limit, repetitions, threads, trace, references or warm-start line; a warm-start mode or a
 * tolerance given twice; a key given twice on a generate line; two problems (or sequences) with
 * one name or two solver lines with one label (their runs would share run ids); warm-start
 * mapped with a sequence whose steps lack contact identities (the step named); two loop lines
 * with one scenario and parameter set; more than CB_CAMPAIGN_MAX_PROBLEMS problems or
 * CB_CAMPAIGN_MAX_RUNS runs (checked before the problems are allocated); more than
 * CB_CAMPAIGN_MAX_LOOP_RUNS trajectories.
 *
 * Ownership: cb_campaign owns all its strings and arrays; cb_campaign_free releases them.
 */
#ifndef CONEBENCH_CAMPAIGN_H
#define CONEBENCH_CAMPAIGN_H

#include "conebench/generate.h"
#include "conebench/io.h"
#include "kv.h"
#include "conebench/solver.h"

#define CB_CAMPAIGN_MAX_OPTIONS 16
#define CB_CAMPAIGN_MAX_TOLS 8
#define CB_CAMPAIGN_MAX_PROBLEMS 100000L /* problems of a campaign (seeds and steps included) */
#define CB_CAMPAIGN_MAX_RUNS 1000000L    /* cb_campaign_nruns (sequence runs included) */
#define CB_CAMPAIGN_MAX_LOOP_RUNS 10000L /* loop lines × (solvers × tolerances × repetitions + 1) */

/* One problem of a campaign: a file, or a generator recipe written to a file before running. */
typedef struct {
    char *path;          /* file to read (for generated ones: where it is written) */
    char *name;          /* display name */
    int generated;       /* 1: produce `path` with cb_generate_random(&gen) first */
    cb_random_settings gen;
    cb_read_settings read; /* how to read `path` (kind forced for generated rolling2d, ...) */
    int scenario;        /* scenario problems: index of their line in cb_campaign.scenarios
                            (one run writes every step of the line); -1 otherwise */
    long line;           /* the campaign line that made it (for FILE:LINE messages) */
} cb_campaign_problem;

/* One `scenario` line: the chosen steps of one nonsmooth run of a scenario. */
typedef struct {
    char *name;          /* scenario name */
    cb_kv_list params;   /* its k=v parameters as given */
    long *steps;         /* sorted, unique (cb_steps_parse) */
    int nsteps;
    char *dir;           /* output folder of its step files */
} cb_campaign_scenario;

/* One `loop` line: a scenario run whole, once per solver × tol × repetition (loop.h). */
typedef struct {
    char *name;          /* scenario name */
    char *tag;           /* NAME-k_v-...: its display name, unique in the campaign */
    cb_kv_list params;   /* its k=v parameters as given */
    long line;
} cb_campaign_loop;

/* How a sequence run starts each step (`warm-start` lines). */
typedef enum { CB_WARM_COLD = 0, CB_WARM_PREVIOUS = 1, CB_WARM_MAPPED = 2 } cb_warm_mode;
#define CB_WARM_COUNT 3
/* "cold", "previous", "mapped". */
const char *cb_warm_name(cb_warm_mode m);

/* One `sequence` line: a step folder (its runs: campaign.h, sequence runs). */
typedef struct {
    char *dir;           /* the folder of the step files (scenario ones: under gen_dir) */
    char *name;          /* display name: the folder's last component (the problem column) */
    cb_read_settings read; /* how to read each step */
    int scenario;        /* `sequence scenario` lines: index in cb_campaign.scenarios, else -1 */
    int nsteps;          /* steps (a scenario's: those asked; a step without contact is absent) */
    long line;
} cb_campaign_sequence;

/* One solver with one option set. */
typedef struct {
    char *solver;
    char *label;         /* solver name plus options unless label= was given */
    cb_kv_list options;  /* its k=v options as given (at most CB_CAMPAIGN_MAX_OPTIONS) */
    long line;           /* its campaign line */
} cb_campaign_solver;

typedef struct {
    char *name;
    char *description;
    char *path;          /* the campaign file */
    char *text;          /* its content as read (for the results directory's record and hash) */
    cb_campaign_problem *problems;
    int nproblems;
    cb_campaign_solver *solvers;
    int nsolvers;
    cb_campaign_scenario *scenarios;
    int nscenarios;
    cb_campaign_loop *loops;
    int nloops;
    double tols[CB_CAMPAIGN_MAX_TOLS];
    int ntols;
    int max_iter;        /* default 10000 */
    double time_limit;   /* seconds per run, default 10 */
    int repetitions;     /* default 1 */
    int threads;         /* threads of each run (cb_settings.threads), default 1 */
    int trace;           /* default 1 */
    int data_missing;    /* a `data` line was skipped because the data folder is absent */
    cb_campaign_sequence *sequences;
    int nsequences;
    int sequences_missing; /* `sequence` lines skipped: their folder is absent */
    char *missing_sequence; /* the first of them ("DIR (FILE:LINE)"), for the note */
    cb_warm_mode warm[CB_WARM_COUNT]; /* the `warm-start` modes (default: cold alone) */
    int nwarm;
    int skip_unreadable; /* `skip-unreadable`: problem files that do not read are skipped */
    int solutions;       /* `solutions on`: every judged run's final iterate is kept (runner.h) */
    char *skipped;       /* those skipped: "PATH<TAB>REASON" lines (NULL: none) */
    int nskipped;
    char *references;    /* `references DIR` (resolved against the campaign file's folder), or
                            NULL: reference files (io.h) for the runs.csv column dist_ref */
} cb_campaign;

/* Solver lookup by name (cb_solver_find, or a test's own that adds test-only solvers). */
typedef const cb_solver *(*cb_solver_lookup)(const char *name);

/* Parse a campaign file and check it strictly (cb_campaign_check with cb_solver_find, except
 * that names beginning with "test-" are left to the runner's own lookup: tests inject those).
 * Generated problems get paths under gen_dir (e.g. OUT/problems). Nothing is written. */
int cb_campaign_parse(const char *path, const char *gen_dir, cb_campaign **out, cb_error *err);
/* The same with the solver lookup given (NULL: cb_solver_find, every name checked). */
int cb_campaign_parse_with(const char *path, const char *gen_dir, cb_solver_lookup find,
                           cb_campaign **out, cb_error *err);

/* Strict check of a parsed campaign, before anything runs; every mistake is CB_ERR_INPUT with
 * "FILE:LINE: what" naming the campaign line:
 *  - every solver name is known to find, and its options (keys and values) pass the solver's
 *    own setup on a tiny generated problem of each cone kind of the campaign it supports;
 *  - every problem file reads (exists, readable, parses as its line says), the file's own
 *    error following the line;
 *  - every `generate random` line generates a tiny problem with its parameters (the generator's
 *    own validation; limits that depend on nc are checked when the problem is generated, by
 *    cb_campaign_prepare_problem, still before the first run and naming the line);
 *  - every `scenario` line names a scenario whose parameters build (the scenario registry's
 *    validation, without simulating) and whose steps lie within its horizon;
 *  - every `loop` line names a scenario whose parameters build (nothing simulated).
 * find NULL: cb_solver_find. skip_test_solvers: names beginning with "test-" are not checked. */
int cb_campaign_check(const cb_campaign *c, cb_solver_lookup find, int skip_test_solvers,
                      cb_error *err);

/* A step list "A,B,C" where an item may be a range "FIRST:LAST:STRIDE" (every STRIDE-th step
 * from FIRST to at most LAST) → *steps (malloc'd, caller frees; sorted, unique, each in
 * [1, 1e9]; at most 100000 steps). NULL on error, with the item and the reason in err. */
int cb_steps_parse(const char *list, long **steps, int *n, cb_error *err);
void cb_campaign_free(cb_campaign *c);

/* The conebench share folder (plots/ and campaigns/): $CONEBENCH_HOME when set; else the
 * working directory when it holds plots/ and campaigns/ (a source tree); else the parent of
 * the running executable's folder when that holds them (bin/conebench, build-X/conebench in a
 * source tree); else PREFIX/share/conebench beside an installed PREFIX/bin/conebench; else the
 * share folder `make install` compiled in; else ".". Computed once; the string is static. */
const char *cb_home_dir(void);

/* Resolve NAME to campaigns/NAME.conf under cb_home_dir(); a NAME containing '/' or
 * ending in .conf is a path. Writes into buf. */
int cb_campaign_locate(const char *name, char *buf, size_t len, cb_error *err);

/* The Siconos data folder ($CONEBENCH_DATA, else ../shared/data, else cb_home_dir()/../shared/
 * data) or NULL when absent. */
const char *cb_data_dir(void);

/* Write problem i's file if it is generated (random or scenario) and missing; scenario lines
 * write all their steps at once. Prints what it generates to stderr when verbose. Errors name
 * the campaign line ("FILE:LINE: what"). */
int cb_campaign_prepare_problem(const cb_campaign *c, int i, int verbose, cb_error *err);

/* Solver settings of solver line si at tolerance index ti: the campaign's limits and trace flag
 * plus the line's options (pointing into c: keep c alive). */
void cb_campaign_settings(const cb_campaign *c, int si, int ti, cb_settings *s);

/* Write sequence k's step files if it is a scenario's and they are missing, then (for a mapped
 * warm start) check that every step has its contact identities; errors name the campaign line. */
int cb_campaign_prepare_sequence(const cb_campaign *c, int k, int verbose, cb_error *err);

/* Number of runs: problems × solvers × tols × repetitions, then sequences × solvers × tols ×
 * warm-start modes × repetitions. */
long cb_campaign_nruns(const cb_campaign *c);

/* The run with index i in the canonical order (problem, solver, tol, repetition), then the
 * sequence runs (sequence, solver, tol, warm-start mode, repetition). */
typedef struct {
    long index;
    int problem, solver, tol, rep; /* problem -1 for a sequence run */
    int sequence, warm;  /* a sequence run's sequence (-1: a problem's run) and cb_warm_mode */
    char id[17];         /* stable id: 16 hex digits of sha256(problem name|label|tol|rep), for a
                            sequence sha256(sequence|name|label|tol|mode|rep) */
} cb_run_ref;

void cb_campaign_run(const cb_campaign *c, long i, cb_run_ref *out);

#endif
