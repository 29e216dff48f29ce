/* conebench — step sequences on disk: the problems a simulator solved one time step after
 * another, with a stable identity for every contact so that a solution can be carried from one
 * step to the next when contacts appear and vanish (not installed; the harness and the CLI use it).
 *
 * A sequence is a directory. Its steps are the problem files NAME-stepN.dat (Siconos text) or
 * NAME-stepN.hdf5 / .h5 (FCLIB), N ≥ 0 the step number, taken in increasing N; every step file
 * of the directory must carry the same NAME (other files are ignored). Beside each step file,
 * all optional:
 *   NAME-stepN.ids   contact identities: line 1 "conebench-ids NC", then NC lines "A B F", three
 *                    integers ≥ −1: the two bodies (−1 may stand for the ground or a fixed body) and a
 *                    feature that tells apart two contacts of one pair (a box corner, a Siconos
 *                    interaction number); line k + 2 is the contact of the rows k·d .. k·d + d − 1
 *                    of the problem. Two contacts of one step may not share an identity.
 *   NAME-stepN.meta  "key=value" lines: step, t (the step's time, s), h, nc, scenario, params,
 *                    solver, ... (`conebench generate --steps`); a Siconos-made step adds
 *                    source=siconos, siconos_solver, siconos_tol, siconos_iterations,
 *                    siconos_error (Siconos' own run on that step).
 *   NAME-stepN.sol   a solution of the step (cb_write_solution's format): Siconos' own answer
 *                    for a Siconos-made step.
 * An FCLIB step may hold its identities and time in the file instead, in the datasets
 * /conebench/ids (NC × 3 integers, as above) and /conebench/t (one double); a .ids file beside
 * it wins.
 *
 * Ownership: cb_sequence owns its strings and arrays (cb_sequence_free releases them, NULL ok);
 * cb_contact_ids owns its array (cb_contact_ids_free, NULL ok).
 */
#ifndef CONEBENCH_SEQUENCE_H
#define CONEBENCH_SEQUENCE_H

#include "conebench/io.h"

#define CB_SEQUENCE_MAX_STEPS 1000000 /* steps of one sequence */

/* The identity of one contact: bodies a, b (−1: fixed) and a feature. */
typedef struct {
    long a, b, f;
} cb_contact_id;

typedef struct {
    cb_contact_id *id; /* n of them, or NULL when the step has none */
    int n;
} cb_contact_ids;

/* One step of a sequence, as listed (nothing read but the directory and the .meta). */
typedef struct {
    long step;          /* N of NAME-stepN */
    char *path;         /* the problem file */
    char *ids;          /* its .ids file, or NULL */
    char *sol;          /* its .sol file, or NULL */
    double t;           /* time from the .meta (or the FCLIB dataset), NaN when not known */
    int siconos_iterations; /* from the .meta, −1 when absent */
    double siconos_error;   /* from the .meta, NaN when absent */
} cb_sequence_step;

typedef struct {
    char *dir;
    char *name;         /* NAME of the step files */
    cb_sequence_step *steps;
    int nsteps;
} cb_sequence;

/* List the sequence in dir. CB_ERR_INPUT "DIR: why" when dir is not a directory, holds no step
 * file, holds step files of two names or one step number twice, or a .meta line is malformed
 * ("DIR/NAME-stepN.meta:LINE: why"). */
int cb_sequence_open(const char *dir, cb_sequence **out, cb_error *err);
void cb_sequence_free(cb_sequence *s);
/* 1 when path is a directory holding at least one step file (NAME-stepN.dat/.hdf5/.h5). */
int cb_sequence_is_dir(const char *path);

/* Read step k's problem (rs as cb_read_problem) and its contact identities (ids->id NULL when it
 * has none). CB_ERR_INPUT "FILE:LINE: why" for a malformed .ids, or one whose count is not the
 * problem's nc, or a repeated identity. */
int cb_sequence_read_step(const cb_sequence *s, int k, const cb_read_settings *rs,
                          cb_problem **prob, cb_contact_ids *ids, cb_error *err);
void cb_contact_ids_free(cb_contact_ids *ids);
/* Read a .ids file of a step with nc contacts (the count must match, no identity twice). */
int cb_contact_ids_read(const char *path, int nc, cb_contact_ids *ids, cb_error *err);
/* Contacts of x whose identity is not in y; −1 when out of memory. */
long cb_contact_ids_missing(const cb_contact_ids *x, const cb_contact_ids *y);
/* ids has nc identities, none twice; else CB_ERR_INPUT "PATH:LINE: why" (line k + 2 = contact k,
 * as in a .ids file). */
int cb_contact_ids_check(const char *path, int nc, const cb_contact_ids *ids, cb_error *err);
/* Write ids as a .ids file (atomically). */
int cb_contact_ids_write(const char *path, const cb_contact_ids *ids, cb_error *err);

/* FCLIB steps: the datasets /conebench/ids and /conebench/t (sequence_fclib.c, HDF5 C API).
 * _ids: ids->id NULL when the file has no /conebench/ids; CB_ERR_INPUT "FILE: why" when it has
 * one that is not nc × 3 integers from −1 up, or repeats an identity. _time: *t NaN when absent.
 * _annotate: add both to an existing FCLIB file (written by cb_write_fclib), in place. */
int cb_sequence_fclib_ids(const char *path, int nc, cb_contact_ids *ids, cb_error *err);
int cb_sequence_fclib_time(const char *path, double *t, cb_error *err);
int cb_sequence_fclib_annotate(const char *path, const cb_contact_ids *ids, double t,
                               cb_error *err);

/* Carry a solution from one step to the next by contact identity: for every contact of `to`
 * found in `from`, its d values of p_from are copied into p_to; the others are set to 0.
 * Returns how many contacts were carried. Either side without ids: nothing is carried. */
int cb_contact_ids_map(const cb_contact_ids *from, const double *p_from,
                       const cb_contact_ids *to, double *p_to, int d);

/* How contacts came and went over a sequence (`conebench info DIR`). */
typedef struct {
    int nsteps;
    int nc_min, nc_max;
    double nc_mean;
    long appeared;      /* contacts of a step not in the step before (steps with ids only) */
    long vanished;      /* contacts of a step not in the step after */
    double turnover;    /* (appeared + vanished) / Σ (nc_k−1 + nc_k) over the compared pairs of
                           consecutive steps: 0 when no contact changes, 1 when all do */
    int with_ids;       /* steps that have contact identities */
    int with_sol;       /* steps that have a solution file */
    double t_first, t_last; /* NaN when not known */
} cb_sequence_stats;

/* Read every step (their problems and identities) and describe the sequence. */
int cb_sequence_describe(const cb_sequence *s, const cb_read_settings *rs, cb_sequence_stats *st,
                         cb_error *err);

#endif
