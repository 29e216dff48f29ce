/* conebench — common definitions: error codes, error messages, clocks, safe sizes.
 *
 * Conventions used by every module:
 *  - functions return a cb_code (CB_OK on success); a solver's outcome is in info->status;
 *  - a cb_error receives a human-readable message "FILE:LINE: what" (input files) or
 *    "field: what" (arguments); callers may pass NULL when they do not want it;
 *  - every *_free function accepts NULL.
 */
#ifndef CONEBENCH_COMMON_H
#define CONEBENCH_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define CB_VERSION "0.1.0"

/* π (glibc's M_PI, which C11 lacks: the same double) and one degree in radians. 2π and π/2 are
 * written 2 * CB_PI and CB_PI / 2 (scaling by a power of two is exact). */
#define CB_PI 3.14159265358979323846
#define CB_DEG (CB_PI / 180.0)

/* The text of a macro's value: CB_XSTR(CB_GRAVITY) is "9.81" (for spec defaults). */
#define CB_STR_(x) #x
#define CB_XSTR(x) CB_STR_(x)

typedef enum {
    CB_OK = 0,
    CB_ERR_INPUT = 2,    /* invalid input data or arguments (CLI exit status 2) */
    CB_ERR_NOMEM = 3,    /* allocation failed */
    CB_ERR_IO = 4,       /* file system or library failure */
    CB_ERR_INTERNAL = 5  /* a broken invariant inside conebench */
} cb_code;

#define CB_ERROR_LEN 1024

typedef struct {
    char text[CB_ERROR_LEN]; /* empty when no error was recorded */
} cb_error;

/* Record "fmt..." in err (no-op if err is NULL). Returns code, for `return cb_fail(...)`. */
int cb_fail(cb_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Record "file:line: fmt..." in err. Returns code. */
int cb_fail_at(cb_error *err, int code, const char *file, long line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void cb_error_clear(cb_error *err);

/* Monotonic wall clock in seconds. */
double cb_now(void);
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
