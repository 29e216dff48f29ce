/* conebench — solvers inside the time loop: the `loop` lines of a campaign (campaign.h).
 *
 * Each loop line names a mechanical scenario with its parameters. Each solver line × tolerance
 * × repetition of the campaign drives its own whole trajectory of that scenario with the
 * nonsmooth model (the Moreau–Jean stepper of `conebench simulate`: warm start from the
 * previous step, the scenario's h and θ, the campaign's tolerance for every step's CCP), and
 * one REFERENCE trajectory per loop line runs the same scenario with CB_LOOP_REF_SOLVER at
 * CB_LOOP_REF_TOL (at least CB_LOOP_REF_MAX_ITER iterations a step). nsn+nsgs is the reference
 * because it reaches 1e-12 where nsgs alone stalls: on a small sphere pile, steps that nsgs
 * leaves near 1e-6 after 100000 sweeps are solved by the Newton phase; on sphere-plane both
 * are exact at every step.
 *
 * Each trajectory is one child of a pool of `run --jobs` children. Limits: every step's solve
 * has the campaign's time-limit as its CPU budget (as in simulate --time-limit; the
 * reference's steps have none); the whole
 * trajectory is killed (status time_limit) after CB_LOOP_BUDGET_FACTOR × time-limit + kill_after
 * seconds of its CPU time (the reference's: at least CB_LOOP_REF_BUDGET_S, whatever the
 * time-limit), or CB_WALL_GUARD_FACTOR times that of wall time.
 *
 * Outputs, next to runs.csv (whose layout is not touched):
 *   loops.csv         one row per trajectory (CB_LOOP_HEADER), written at once when every
 *                     trajectory has ended; drift columns compare a trajectory's end with its
 *                     line's reference (NaN on the reference's row and when it failed);
 *   loops/<id>.csv    its steps: step,t,nc,iterations,cpu_s,solve_s,error,solved,x,y (cpu_s: the
 *                     process CPU time of the step, detection and assembly included; solve_s:
 *                     wall time in the solver, the only time of a solver run in a server child,
 *                     as the Siconos adapters are; error: the judged error, 0 without contact;
 *                     x, y: the subject's displacement from its start along the launch direction
 *                     (travel) and across it (unit travel × gravity), in the ground's plane,
 *                     nan without a subject; series written before x, y lack those columns).
 * --resume runs the loop lines again (loops.csv is rewritten whole); a sharded campaign runs
 * them in shard 0.
 *
 * Indistinguishable from the reference (the report's verdict): the trajectory ran to its end
 * (status ok), its final positions lie within CB_LOOP_DRIFT_POS × the smallest dynamic body's
 * bounding radius of the reference's (max over bodies of ‖x − x_ref‖), and its final energy
 * within CB_LOOP_DRIFT_ENERGY × the energy the reference dissipated (|E − E_ref| / |E₀ − E_ref|).
 * A pile's final positions are chaotic (a grain that rolls left instead of right), so the report
 * adds, for piles, the cheapest trajectory whose pile height and angle lie within
 * CB_LOOP_PILE_SHAPE (relative) of the reference's: its macroscopic shape.
 */
#ifndef CONEBENCH_LOOP_H
#define CONEBENCH_LOOP_H

#include <stdio.h>

#include "campaign.h"
#include "runner.h"

#define CB_LOOP_REF_SOLVER "nsn+nsgs"
#define CB_LOOP_REF_TOL 1e-12
#define CB_LOOP_REF_MAX_ITER 100000
#define CB_LOOP_BUDGET_FACTOR 100.0 /* a trajectory's CPU budget in units of the time-limit */
#define CB_LOOP_REF_BUDGET_S 600.0  /* the reference trajectory's CPU budget at least (s) */
#define CB_LOOP_DRIFT_POS 1e-6      /* position drift, in units of the smallest body radius */
#define CB_LOOP_DRIFT_ENERGY 1e-6   /* energy drift, in units of the reference's dissipation */
#define CB_LOOP_PILE_SHAPE 0.01     /* the report's pile-shape line: height and angle within 1 % */
#define CB_LOOP_FILE "loops.csv"
#define CB_LOOP_DIR "loops"

/* One row of loops.csv. Numbers a trajectory does not have are NaN (x_stop, d_stop and
 * heading_deg without a stop summary or when the subject did not stop, x_stop_closed and
 * d_stop_closed without a closed form, pile measures without a pile, drifts on the reference's
 * row). Rows of the older 31-column layout (without d_stop, d_stop_closed, heading_deg) are
 * read with those NaN. */
typedef struct {
    char id[17];              /* 16 hex digits of sha256("loop|TAG|LABEL|TOL|REP") */
    char loop[256];           /* the line's tag: scenario and parameters */
    char scenario[64];
    char solver[64], label[256];
    double tol;
    int rep, reference;       /* reference: 1 on the line's reference trajectory */
    char status[16];          /* ok, time_limit, crashed, error (why: errors.log) */
    long steps, unsolved, time_limited;
    long long iterations;
    int max_nc;
    double t_end;             /* simulated time reached */
    double cpu_s, solve_s;    /* CPU time of the whole trajectory; wall time in the solver */
    double max_error;         /* worst judged error over the steps */
    double energy0, energy_end;
    double x_stop, t_stop, x_stop_closed, x_stop_err; /* err: |x_stop − closed| / closed */
    double height_over_phi, mean_radius_over_phi, pile_angle_deg; /* atan(height / radius) */
    double drift_pos, drift_pos_rel, drift_energy;    /* against the reference */
    int indistinguishable;    /* by the rule above (0 on the reference's row) */
    double d_stop;            /* ‖x − x₀‖ of the subject at its stop (m) */
    double d_stop_closed;     /* the closed form's: |x_stop_closed| (it moves along travel) */
    double heading_deg;       /* angle between x − x₀ and the launch direction (°) */
} cb_loop_row;

/* The header line of loops.csv (with its newline); one row as its line. */
const char *cb_loop_header(void);
void cb_loop_row_format(const cb_loop_row *r, FILE *f);

/* Run every loop line of c (the trajectories, their series, loops.csv) into s->outdir, which
 * the runner has prepared and locked. Nothing when c has no loop line. CB_ERR_IO when a file
 * cannot be written; a trajectory that fails is a row with its status, not an error. */
int cb_run_loops(const cb_campaign *c, const cb_runner_settings *s, cb_error *err);

/* Read DIR/loops.csv: *rows (malloc'd, caller frees), *n. *n = 0 and CB_OK when it is absent;
 * CB_ERR_INPUT "FILE:LINE: ..." for a malformed row. */
int cb_loop_rows_read(const char *dir, cb_loop_row **rows, int *n, cb_error *err);

/* 1 when DIR/loops.csv exists. */
int cb_loop_present(const char *dir);

#endif
