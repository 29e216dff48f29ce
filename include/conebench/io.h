/* conebench — problem and solution files (man conebench, FILES).
 *
 * Readers validate everything before allocating; errors are "FILE:LINE: what" (line 0 when the
 * position is not a text line), "FILE: what" for HDF5 files (read in a child process: a crash of
 * the HDF5 library is "FILE: the HDF5 library failed on this file (damaged?)"). Writers are
 * atomic (temp file + rename): a failed write leaves no partial file. Output problems own their
 * arrays (cb_problem_free).
 *
 * Formats:
 *  - Siconos text (rollingFrictionContact_printInFile / frictionContact_printInFile): d, nc,
 *    NumericsMatrix (storage 0 dense, 1 sparse-block, 2 CSparse dump — read only), q, μ,
 *    then μ_r for rolling kinds and μ_s for rollspin3d. d = 5 ⇒ rolling3d, d = 6 ⇒ rollspin3d,
 *    d = 2 ⇒ coulomb2d, d = 3 ⇒ coulomb3d unless the caller asks for rolling2d.
 *  - Siconos global text (GFC3D: M, H, q, b, μ; GRFC3D: + μ_r) condensed to local form; a file is
 *    global when an H matrix header follows its first matrix, whatever the sizes.
 *  - FCLIB HDF5: fclib_local, fclib_global (condensed), fclib_global_rolling (condensed);
 *    written by cb_write_fclib (below).
 */
#ifndef CONEBENCH_IO_H
#define CONEBENCH_IO_H

#include <stdio.h>


#include "conebench/problem.h"

typedef struct {
    int force_kind;  /* 0: infer the kind from d; 1: use `kind` (must have the file's d) */
    cb_kind kind;
} cb_read_settings;

void cb_read_settings_default(cb_read_settings *s);

/* Read any supported problem file (format detected from content). Fills prov.source/sha256. */
int cb_read_problem(const char *path, const cb_read_settings *s, cb_problem **out, cb_error *err);

/* Write Siconos text (storage 0 for dense, 1 for BSR; factored W is written as its assembled
 * BSR), %.17g, atomically. A problem with a global form (read from a global file) is written as
 * the global file it came from: d, nc, M and H as CSparse triplet dumps (storage 2), f, w, μ's.
 * Reading it back gives the same bits (the assembled ones). */
int cb_write_problem(const char *path, const cb_problem *prob, cb_error *err);
/* The same to an open stream (not atomic). */
int cb_write_problem_stream(FILE *f, const cb_problem *prob, cb_error *err);

/* FCLIB HDF5 out. A problem with a global form is written as /fclib_global (coulomb2d/3d,
 * libfclib's fclib_write_global) or /fclib_global_rolling (rolling2d/3d: spacedim 3/5 and mu_r,
 * written with HDF5 in Siconos's layout; libfclib 3.1 cannot read it); a local coulomb2d/3d
 * problem as /fclib_local (fclib_write_local; dense W as compressed columns of all n² entries,
 * BSR or factored W as the triplets of its stored blocks); a local rolling3d or rollspin3d
 * problem as /fclib_local with spacedim d (5, 6) that libfclib's fclib_read_local reads (W, q,
 * mu), plus conebench's extension: vectors/mu_r, vectors/mu_s (rollspin3d), the string
 * /fclib_local/conebench_kind, and info/math_info describing them. Refused with CB_ERR_INPUT
 * ("PATH: what", nothing written): local rolling2d (spacedim 3 would read as Coulomb 3D in
 * readers that ignore the extension), global rollspin3d, sizes beyond FCLIB's ints. Written in
 * a child process to a temporary file renamed over path: a failure leaves no file.
 * cb_read_problem of the file gives the same bits (the assembled ones for factored W); the name
 * becomes the file's /info/title. prob stays the caller's. */
int cb_write_fclib(const char *path, const cb_problem *prob, cb_error *err);
/* The problem as cb_write_fclib, then its solution with fclib_write_solution: /solution/r = p,
 * /solution/u = y (nc·d each, finite, borrowed). Local problems only: FCLIB's
 * global solution holds the velocities v, which conebench does not compute (CB_ERR_INPUT). */
int cb_write_fclib_solution(const char *path, const cb_problem *prob, const double *p,
                            const double *y, cb_error *err);

/* Problem file formats for writing. */
typedef enum { CB_FORMAT_AUTO = 0, CB_FORMAT_SICONOS = 1, CB_FORMAT_FCLIB = 2 } cb_format;
/* CB_FORMAT_FCLIB when path ends in .hdf5 or .h5 (any case), else CB_FORMAT_SICONOS. */
cb_format cb_format_of_path(const char *path);
/* cb_write_problem (Siconos) or cb_write_fclib (FCLIB); AUTO: cb_format_of_path(path). */
int cb_write_problem_as(const char *path, const cb_problem *prob, cb_format fmt, cb_error *err);

/* Solution file: line 1 "nc d", then nc·d lines "p_i y_i" (%.17g). y may be NULL (zeros). */
int cb_write_solution(const char *path, int nc, int d, const double *p, const double *y,
                      cb_error *err);
/* Reads and validates; *p and *y are allocated (nc·d each), caller frees. */
int cb_read_solution(const char *path, int *nc, int *d, double **p, double **y, cb_error *err);

/* Reference solution file (`conebench reference`): line 1 is the header
 *   conebench-reference sha256=HEX error=E error_q=E solver=NAME unique=yes|no|unknown
 * (sha256 of the problem file's bytes, the judged errors of p*, the solver run that produced
 * it, whether p* is the only solution), then a solution file: "nc d", nc·d lines "p_i y_i". The reader validates
 * everything ("FILE:LINE: what"); p and y are owned by the struct (cb_reference_free). */
typedef enum { CB_UNIQUE_NO = 0, CB_UNIQUE_YES = 1, CB_UNIQUE_UNKNOWN = 2 } cb_uniqueness;

typedef struct {
    char sha256[65];
    double error, error_q;
    char solver[64];      /* no blank, at least one character */
    cb_uniqueness unique;
    int nc, d;
    double *p, *y;        /* nc·d each */
} cb_reference;

const char *cb_uniqueness_name(cb_uniqueness u); /* "yes" / "no" / "unknown" */
/* Write r atomically (refused, nothing written, for a bad sha256, solver or size). */
int cb_write_reference(const char *path, const cb_reference *r, cb_error *err);
/* Read and validate path into *out (zeroed first; on failure nothing stays allocated). */
int cb_read_reference(const char *path, cb_reference *out, cb_error *err);
void cb_reference_free(cb_reference *r); /* frees p and y; NULL ok */
/* ‖p − p*‖₂ / max(1, ‖p*‖₂) with p* = r->p (p has r->nc·r->d entries). */
double cb_reference_distance(const cb_reference *r, const double *p);

/* A global problem before condensation: M v = H p + f, y = Hᵀ v + w, with n dofs, nc contacts.
 * M and H are triplets (cb_triplets, conebench/problem.h), duplicates summed. */

typedef struct {
    cb_kind kind;
    int ndof;       /* n */
    int nc;
    cb_triplets M;  /* n × n, symmetric positive definite */
    cb_triplets H;  /* n × nc·d */
    double *f;      /* n */
    double *w;      /* nc·d */
    double *mu, *mu_r, *mu_s; /* nc each */
} cb_global_problem;

void cb_global_problem_free(cb_global_problem *g);
/* W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w (Cholesky of M, fixed-order kernels). Output is dense and
 * carries a copy of (M, H, f, w) as its global form (cb_problem.global). */
int cb_condense_global(const cb_global_problem *g, cb_problem **out, cb_error *err);

#endif
