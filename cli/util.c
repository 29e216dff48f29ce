/* conebench — helpers shared by every command: exit statuses, error messages, number parsing. */
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

int cb_cli_exit_code(int code)
{
    return code == CB_OK ? CB_EXIT_OK : code == CB_ERR_INPUT ? CB_EXIT_BADINPUT : CB_EXIT_FAIL;
}

int cb_cli_report(int code, const cb_error *err)
{
    fprintf(stderr, "conebench: %s\n", err && err->text[0] ? err->text : "unknown error");
    return cb_cli_exit_code(code);
}

/* "conebench: fmt..." and a newline on stderr; returns status. */
static int say(int status, const char *fmt, va_list ap)
{
    fputs("conebench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    return status;
}

int cb_cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = say(CB_EXIT_BADINPUT, fmt, ap);
    va_end(ap);
    return rc;
}

int cb_cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = say(CB_EXIT_FAIL, fmt, ap);
    va_end(ap);
    return rc;
}

int cb_cli_parse_double(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(x))
        return cb_cli_usage_error("%s: '%s' is not a finite number", opt, s);
    *out = x;
    return CB_EXIT_OK;
}

int cb_cli_parse_long(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE)
        return cb_cli_usage_error("%s: '%s' is not an integer", opt, s);
    if (x < lo || x > hi)
        return cb_cli_usage_error("%s: %ld is outside [%ld, %ld]", opt, x, lo, hi);
    *out = x;
    return CB_EXIT_OK;
}
