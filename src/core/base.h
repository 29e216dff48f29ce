/* conebench — helpers shared by the library's layers (not installed: not part of the API).
 * Clocks, overflow-checked allocation, string and list utilities, "did you mean". */
#ifndef CONEBENCH_BASE_H
#define CONEBENCH_BASE_H

#include "conebench/common.h"
#include "conebench/problem.h"

/* Record "file:line: fmt..." in err. Returns code. */
int cb_fail_at(cb_error *err, int code, const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* CPU time of the calling thread in seconds (not inflated by other processes on the machine). */
double cb_cpu_now(void);
/* CPU time of the whole process in seconds (every thread, user and system: the budget's clock). */
double cb_process_cpu_now(void);
/* For tests: make cb_now, cb_cpu_now and cb_process_cpu_now return now() (e.g. a fake clock that advances a fixed
 * step per call, so time-limit behaviour is deterministic); NULL restores the real clocks. Not
 * thread-safe: set it before starting the code under test. */
void cb_clock_override(double (*now)(void));

/* *out = a * b; returns 0 if it does not overflow SIZE_MAX, -1 otherwise. */
int cb_mul_size(size_t a, size_t b, size_t *out);

/* malloc/calloc of count*size bytes with overflow check; NULL on overflow or failure. */
void *cb_calloc(size_t count, size_t size);
void *cb_malloc_array(size_t count, size_t size);

/* 1 if every entry of x[0..n) is finite. */
int cb_all_finite(const double *x, size_t n);

/* The union of the increasing int lists a[0..na) and b[0..nb), each entry shifted right by
 * `shift` bits first (the lists stay increasing after the shift), without repeats, into out
 * (NULL: count only). Returns the count. */
int cb_sorted_union(const int *a, int na, const int *b, int nb, int shift, int *out);

/* Threads of the current run (cb_settings.threads): the count the calling thread's kernels may
 * use, 1 unless a run set it. cb_threads_set returns the count it replaces. Every kernel that
 * uses them gives the same bits for any count (each output entry is computed by one thread in
 * a fixed order). */
int cb_threads(void);
int cb_threads_set(int n);
/* cb_threads() for a loop over `rows` contacts or bodies, 1 below CB_PAR_MIN_ROWS. */
int cb_threads_for(long long rows);
/* fn(ctx, r0, r1) over [0, rows) in contiguous ranges, one a thread of cb_threads_for(rows);
 * a plain call of fn(ctx, 0, rows) on one thread (no OpenMP region). Each row belongs to one
 * call, so a kernel that computes every row on its own gives the same bits for any count. */
typedef void (*cb_rows_fn)(void *ctx, int r0, int r1);
void cb_parallel_rows(int rows, cb_rows_fn fn, void *ctx);
/* cb_parallel_rows with the ranges split where the work prefix sums (work[r] for rows [0, r),
 * rows + 1 nondecreasing entries, e.g. a BSR row_ptr) plus one per row are equal: rows of uneven
 * cost shared out evenly. The same bits as cb_parallel_rows for a kernel that computes every row
 * on its own. */
void cb_parallel_rows_by(int rows, const int *work, cb_rows_fn fn, void *ctx);
/* Part c of `parts` of [0, rows) by cb_parallel_rows_by's rule: rows [*r0, *r1). */
void cb_parallel_part(int rows, const int *work, int parts, int c, int *r0, int *r1);
/* fn(ctx, r0, r1) over [0, rows) with r0 and r1 multiples of CB_PAR_CHUNK (or rows): a kernel
 * that reduces each chunk of CB_PAR_CHUNK rows in order, then the chunks' results in order, gives
 * the same bits for any thread count. */
void cb_parallel_chunks(int rows, cb_rows_fn fn, void *ctx);
/* cb_parallel_chunks with the chunk-aligned ranges split near cb_parallel_rows_by's points
 * (work: its prefix sums; NULL: cb_parallel_chunks): chunked reductions over rows of
 * uneven cost. */
void cb_parallel_chunks_by(int rows, const int *work, cb_rows_fn fn, void *ctx);
/* Rows [a0, a1) of y = W x + q (contacts), each summed as cb_problem_y sums it (the same bits);
 * 0, nothing done, for factored storage (its rows need every body's velocity first). */
int cb_problem_y_rows(const cb_problem *prob, const double *x, double *y, int a0, int a1);
/* The count of chunks of [0, rows) (cb_parallel_chunks). */
int cb_par_nchunks(int rows);
/* Below this many contacts (or bodies) a product runs on one thread: too little work to share. */
#define CB_PAR_MIN_ROWS 1024
/* Rows in a chunk of a deterministic parallel reduction (cb_parallel_chunks). */
#define CB_PAR_CHUNK 256
/* An OpenMP pragma, nothing when built without OpenMP (make OPENMP=). */
#ifdef _OPENMP
#define CB_OMP(x) _Pragma(#x)
#else
#define CB_OMP(x)
#endif
/* Ask GCC to unroll the next loop n times (the same operations in the same order: no change of
 * bits); nothing for clang, whose -O1 builds (make fuzz) refuse an unroll they cannot do. */
#define CB_PRAGMA(x) _Pragma(#x)
#if defined(__GNUC__) && !defined(__clang__)
#define CB_UNROLL(n) CB_PRAGMA(GCC unroll n)
#else
#define CB_UNROLL(n)
#endif

/* Duplicate a string; NULL on failure or NULL input. */
char *cb_strdup(const char *s);

/* "Did you mean": offer each candidate name in turn; cb_suggest_best gives the nearest one in
 * edit distance (insertions, deletions, substitutions, swaps of neighbours) when it is near
 * enough to be a misspelling (at most 1 + len/4 edits, at most 3), else NULL.
 *   cb_suggest g; cb_suggest_init(&g, name); for (...) cb_suggest_add(&g, candidate_i);
 *   const char *near = cb_suggest_best(&g); */
typedef struct {
    const char *name;
    const char *best;
    int dist;
} cb_suggest;
void cb_suggest_init(cb_suggest *g, const char *name);
void cb_suggest_add(cb_suggest *g, const char *candidate);
const char *cb_suggest_best(const cb_suggest *g);
/* " (did you mean 'X'?)" for cb_suggest_best's X, "" without one, into buf of len bytes. */
const char *cb_suggest_text(const cb_suggest *g, char *buf, size_t len);

#endif
