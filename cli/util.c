/* conebench — helpers shared by every command: exit statuses, error messages, number parsing. */
#include "util.h"

#include "conebench/plugin.h"
#include "fileio.h"
#include "kv.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cb_cli_exit_code(int code)
{
    return code == CB_OK ? CB_EXIT_OK : code == CB_ERR_INPUT ? CB_EXIT_BADINPUT : CB_EXIT_FAIL;
}

int cb_cli_report(int code, const cb_error *err)
{
    const char *t = err && err->text[0] ? err->text : "unknown error";
    for (const char *nl; (nl = strchr(t, '\n')); t = nl + 1) /* one line each (a list) */
        fprintf(stderr, "conebench: %.*s\n", (int)(nl - t), t);
    fprintf(stderr, "conebench: %s\n", t);
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

int cb_cli_outbuf_open(cb_outbuf *o)
{
    cb_error err;
    cb_error_clear(&err);
    int rc = cb_outbuf_open(o, &err);
    return rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
}

int cb_cli_outbuf_commit(cb_outbuf *o, const char *dir, const char *name)
{
    char path[4096];
    if (dir)
        snprintf(path, sizeof path, "%s/%s", dir, name);
    else
        snprintf(path, sizeof path, "%s", name);
    cb_error err;
    cb_error_clear(&err);
    int rc = cb_outbuf_commit(o, path, &err);
    return rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
}

int cb_cli_plugin(const char *path)
{
    cb_error err = {{0}};
    int rc = cb_plugin_load(path, &err);
    return rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
}

int cb_cli_kv_add(cb_kv_list *l, const char *opt, const char *text)
{
    cb_error err;
    cb_error_clear(&err);
    int rc = cb_kv_parse(l, text, &err);
    if (rc == CB_ERR_INPUT)
        return cb_cli_usage_error("%s: '%s' is not of the form key=value", opt, text);
    return rc == CB_OK ? CB_EXIT_OK : cb_cli_report(rc, &err);
}

int cb_cli_parse_time_limit(const char *opt, const char *s, double *out)
{
    int rc = cb_cli_parse_double(opt, s, out);
    if (rc == CB_EXIT_OK && !(*out >= 0 && *out <= CB_TIME_LIMIT_MAX))
        rc = cb_cli_usage_error("%s: must be 0 (no limit) or in (0, %.0f] seconds, got %s", opt,
                                CB_TIME_LIMIT_MAX, s);
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

/* ------------------------------------------------------------------ options and help */

void cb_cli_parser_init(cb_cli_parser *p, const cb_cli_opt *opts)
{
    int n = 0;
    size_t k = 0;
    for (; opts && opts[n].name && n < CB_CLI_MAX_OPTS; n++) {
        int code = opts[n].val & 0xff, has_arg = opts[n].arg ? required_argument : no_argument;
        p->longopts[n] = (struct option){opts[n].name, has_arg, NULL, code};
        if (opts[n].val & CB_CLI_SHORT_BIT) {
            p->shortopts[k++] = (char)code;
            if (opts[n].arg)
                p->shortopts[k++] = ':';
        }
    }
    p->longopts[n] = (struct option){NULL, 0, NULL, 0};
    p->shortopts[k] = '\0';
    optind = 1;
}

int cb_cli_next(cb_cli_parser *p, int argc, char **argv)
{
    return getopt_long(argc, argv, p->shortopts, p->longopts, NULL);
}

#define HELP_INDENT 26 /* column of an option's help */
#define HELP_WIDTH 100 /* wrap an option's help before this column */

/* text from column col on, wrapped at spaces before HELP_WIDTH, later lines at HELP_INDENT. */
static void wrapped(FILE *f, const char *text, int col)
{
    while (*text) {
        int room = HELP_WIDTH - col, len = (int)strlen(text);
        if (len > room) {
            len = room;
            while (len > 0 && text[len] != ' ')
                len--;
            if (len == 0)
                len = (int)strcspn(text, " ");
        }
        fprintf(f, "%.*s\n", len, text);
        text += len;
        text += *text == ' ';
        if (*text)
            fprintf(f, "%*s", HELP_INDENT, "");
        col = HELP_INDENT;
    }
}

/* "  -o, --output DIR      help" */
static void help_option(FILE *f, const char *shortname, const char *name, const char *arg,
                        const char *help)
{
    char left[80];
    snprintf(left, sizeof left, "%s--%s%s%s", shortname, name, arg ? " " : "", arg ? arg : "");
    int n = fprintf(f, "  %-*s ", HELP_INDENT - 3, left);
    if (n > HELP_INDENT) {
        fprintf(f, "\n%*s", HELP_INDENT, "");
        n = HELP_INDENT;
    }
    wrapped(f, help, n);
}

/* Each line of text after a prefix: the first after first, the others after rest. */
static void lines(FILE *f, const char *text, const char *first, const char *rest)
{
    for (const char *s = text, *pre = first; *s; pre = rest) {
        size_t len = strcspn(s, "\n");
        fprintf(f, "%s%.*s\n", pre, (int)len, s);
        s += len + (s[len] == '\n');
    }
}

void cb_cli_help(FILE *f, const cb_cli_command *cmd)
{
    fprintf(f, "conebench %s — %s\n", cmd->name, cmd->summary);
    for (const cb_cli_form *fm = cmd->forms; fm->usage; fm++) {
        fputc('\n', f);
        lines(f, fm->usage, "usage: conebench ", "       conebench ");
        fprintf(f, "options:\n");
        for (const cb_cli_opt *o = fm->opts; o && o->name; o++) {
            char shortname[8] = "";
            if (o->val & CB_CLI_SHORT_BIT)
                snprintf(shortname, sizeof shortname, "-%c, ", o->val & 0xff);
            help_option(f, shortname, o->name, o->arg, o->help);
        }
        help_option(f, "-h, ", "help", NULL, "this help (also: conebench help COMMAND)");
    }
    fputc('\n', f);
    lines(f, cmd->about, "", "");
    fprintf(f, "\nexample:\n");
    lines(f, cmd->example, "  ", "  ");
    fprintf(f, "\nexit status: %s\n", cmd->exits);
    fprintf(f, "Every command, option, JSON key and results column: man conebench "
               "(docs/conebench.1).\n");
}

/* The usage lines of one form on stderr, the first after pre. */
static void usage_lines(const char *usage, const char *pre)
{
    lines(stderr, usage, pre, "                  conebench ");
}

int cb_cli_usage(const cb_cli_command *cmd)
{
    const char *pre = "conebench: usage: conebench ";
    for (const cb_cli_form *fm = cmd->forms; fm->usage; fm++, pre = "                  conebench ")
        usage_lines(fm->usage, pre);
    fprintf(stderr, "(options: conebench %s --help)\n", cmd->name);
    return CB_EXIT_BADINPUT;
}

int cb_cli_usage_of(const char *name, const char *usage)
{
    usage_lines(usage, "conebench: usage: conebench ");
    fprintf(stderr, "(options: conebench %s --help)\n", name);
    return CB_EXIT_BADINPUT;
}
