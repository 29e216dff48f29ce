/* conebench — Markdown tables (markdown.h). */
#include "markdown.h"

#include <stdarg.h>
#include <stdlib.h>

#define MD_CELL_BUF 512 /* a formatted cell that fits here needs no allocation */

/* text to f with | escaped and line breaks as spaces. */
static void md_escaped(FILE *f, const char *text)
{
    for (const char *s = text ? text : ""; *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else
            fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
}

void cb_md_cell(FILE *f, const char *text)
{
    fputs("| ", f);
    md_escaped(f, text);
    fputc(' ', f);
}

void cb_md_cellf(FILE *f, const char *fmt, ...)
{
    char buf[MD_CELL_BUF], *big = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof buf && (big = malloc((size_t)n + 1))) {
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    cb_md_cell(f, big ? big : n < 0 ? "" : buf); /* out of memory: the cell cut short */
    free(big);
}

void cb_md_end(FILE *f)
{
    fputs("|\n", f);
}

void cb_md_head(FILE *f, int n, const char *const *labels, const char *align)
{
    for (int i = 0; i < n; i++)
        cb_md_cell(f, labels[i]);
    cb_md_end(f);
    for (const char *a = align ? align : ""; n-- > 0; a += *a != '\0')
        fputs(*a == 'r' ? "|---:" : "|---", f);
    cb_md_end(f);
}
