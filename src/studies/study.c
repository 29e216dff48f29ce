/* conebench — the report a study returns: blocks, tables, failures; its markdown (study.h). */
#include "study.h"
#include "markdown.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

/* vprintf into a new string (NULL: out of memory or a bad format). */
static char *vformat(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

/* a + b into a new string replacing a (b NULL: a failure); NULL when out of memory. */
static char *append(char *a, char *b)
{
    size_t la = a ? strlen(a) : 0, lb = b ? strlen(b) : 0;
    char *s = b ? realloc(a, la + lb + 1) : NULL;
    if (s)
        memcpy(s + la, b, lb + 1);
    else
        free(a);
    free(b);
    return s;
}

/* A new block at the end of the report (NULL after an error). */
static cb_study_block *push(cb_study_report *r, cb_study_kind kind)
{
    if (r->rc != CB_OK)
        return NULL;
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 16;
        cb_study_block **b = realloc(r->block, (size_t)cap * sizeof *b);
        if (!b) {
            r->rc = CB_ERR_NOMEM;
            return NULL;
        }
        r->block = b;
        r->cap = cap;
    }
    cb_study_block *b = cb_calloc(1, sizeof *b);
    if (!b) {
        r->rc = CB_ERR_NOMEM;
        return NULL;
    }
    b->kind = kind;
    r->block[r->n++] = b;
    return b;
}

void cb_study_text(cb_study_report *r, const char *fmt, ...)
{
    if (r->rc != CB_OK)
        return;
    cb_study_block *b = r->n && r->block[r->n - 1]->kind == CB_STUDY_TEXT ? r->block[r->n - 1]
                                                                          : push(r, CB_STUDY_TEXT);
    if (!b)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    b->text = append(b->text, s);
    if (!b->text)
        r->rc = CB_ERR_NOMEM;
}

cb_study_table *cb_study_table_new(cb_study_report *r, const char *source, int ncol,
                                   const char *const *head)
{
    cb_study_block *b = ncol > 0 ? push(r, CB_STUDY_TABLE) : NULL;
    if (!b)
        return NULL;
    cb_study_table *t = &b->table;
    t->ncol = ncol;
    t->source = cb_strdup(source ? source : "");
    t->head = cb_calloc((size_t)ncol, sizeof *t->head);
    int ok = t->source && t->head;
    for (int k = 0; ok && k < ncol; k++)
        ok = (t->head[k] = cb_strdup(head[k])) != NULL;
    if (!ok)
        r->rc = CB_ERR_NOMEM;
    return ok ? t : NULL;
}

void cb_study_cell_add(cb_study_report *r, cb_study_table *t, double num, const char *fmt, ...)
{
    if (r->rc != CB_OK || !t)
        return;
    if (t->ncell == t->cap) {
        int cap = t->cap ? 2 * t->cap : 4 * t->ncol;
        cb_study_cell *c = realloc(t->cell, (size_t)cap * sizeof *c);
        if (!c) {
            r->rc = CB_ERR_NOMEM;
            return;
        }
        t->cell = c;
        t->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    if (!s) {
        r->rc = CB_ERR_NOMEM;
        return;
    }
    t->cell[t->ncell++] = (cb_study_cell){num, s};
}

int cb_study_rows(const cb_study_table *t) { return t && t->ncol ? t->ncell / t->ncol : 0; }

const cb_study_cell *cb_study_cell_at(const cb_study_table *t, int i, int j)
{
    if (!t || i < 0 || j < 0 || j >= t->ncol || i >= cb_study_rows(t))
        return NULL;
    return &t->cell[i * t->ncol + j];
}

void cb_study_figure(cb_study_report *r, const char *name, const char *title, const char *script,
                     char *vars)
{
    cb_study_block *b = vars ? push(r, CB_STUDY_FIGURE) : NULL;
    if (!b) {
        free(vars);
        if (r->rc == CB_OK)
            r->rc = CB_ERR_NOMEM; /* the definitions could not be built */
        return;
    }
    b->vars = vars;
    b->name = cb_strdup(name);
    b->text = cb_strdup(title);
    b->script = cb_strdup(script);
    if (!b->name || !b->text || !b->script)
        r->rc = CB_ERR_NOMEM;
    r->nfig++;
}

static void vfail(cb_study_report *r, int n, const char *fmt, va_list ap)
{
    r->failures += n;
    if (r->rc != CB_OK)
        return;
    char *s = vformat(fmt, ap);
    r->failed = append(r->failed, s ? append(s, cb_strdup("\n")) : NULL);
    if (!r->failed)
        r->rc = CB_ERR_NOMEM;
}

void cb_study_fail(cb_study_report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, 1, fmt, ap);
    va_end(ap);
}

void cb_study_fail_n(cb_study_report *r, int n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(r, n, fmt, ap);
    va_end(ap);
}

static void table_free(cb_study_table *t)
{
    for (int k = 0; t->head && k < t->ncol; k++)
        free(t->head[k]);
    for (int k = 0; k < t->ncell; k++)
        free(t->cell[k].text);
    free(t->head);
    free(t->cell);
    free(t->source);
}

void cb_study_report_free(cb_study_report *r)
{
    if (!r)
        return;
    for (int k = 0; k < r->n; k++) {
        cb_study_block *b = r->block[k];
        table_free(&b->table);
        free(b->text);
        free(b->name);
        free(b->script);
        free(b->vars);
        free(b);
    }
    free(r->block);
    free(r->failed);
    memset(r, 0, sizeof *r);
}

int cb_study_write_md(FILE *f, const cb_study_report *r)
{
    for (int k = 0; k < r->n; k++) {
        const cb_study_block *b = r->block[k];
        if (b->kind == CB_STUDY_TEXT)
            fputs(b->text, f);
        else if (b->kind == CB_STUDY_FIGURE)
            fprintf(f, "\n![%s](figures/%s.png)\n", b->text, b->name);
        else {
            const cb_study_table *t = &b->table;
            fputc('\n', f);
            cb_md_head(f, t->ncol, (const char *const *)t->head, NULL);
            for (int i = 0; i < cb_study_rows(t); i++) {
                for (int j = 0; j < t->ncol; j++)
                    cb_md_cell(f, t->cell[i * t->ncol + j].text);
                cb_md_end(f);
            }
        }
    }
    return ferror(f) ? CB_ERR_IO : CB_OK;
}
