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
void cb_error_clear(cb_error *err);

/* Monotonic wall clock in seconds. */
double cb_now(void);
/* One "key=value" pair (strings not owned): a solver option. */
typedef struct {
    const char *key;
    const char *value;
} cb_kv;

/* A key a list accepts: its default ("" when derived from other keys, NULL when none) and a
 * one-line help. Spec arrays end with {NULL, NULL, NULL}. */
typedef struct {
    const char *key;
    const char *default_value;
    const char *help;
} cb_kv_spec;

#endif
