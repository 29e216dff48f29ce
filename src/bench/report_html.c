/* conebench — `report --html`: DIR/report.html from DIR/report.md, one self-contained page:
 * the verdict on top, a contents list, the tables, every figure inside the page (its SVG, or
 * its PNG as a data: URI when the SVG is large; no external file, no URL: it opens from disk
 * with no network). The Markdown read is the subset report.md
 * is written in: headings, pipe tables, "- " lists, ``` blocks, <details>, figure links. */
#include "report_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base.h"
#include "fileio.h"

#define HTML_FILE_MAX ((size_t)256 << 20) /* largest report.md or SVG figure read */
#define HTML_SVG_MAX ((size_t)256 << 10)  /* larger SVG figures go in as their PNG */
#define HTML_STYLE                                                                             \
    "body{font-family:sans-serif;max-width:1200px;margin:1em auto;padding:0 1em}"              \
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:2px 6px}" \
    ".verdict{background:#eef5ff;border:1px solid #9bc;padding:.2em 1em}"                      \
    "svg{max-width:100%;height:auto}pre{background:#f4f4f4;padding:.5em}"

/* s[0..n) with & < > escaped; "\|" (a Markdown cell's bar) as |. */
static void esc(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n && s[i + 1] == '|')
            continue;
        if (s[i] == '&')
            fputs("&amp;", f);
        else if (s[i] == '<')
            fputs("&lt;", f);
        else if (s[i] == '>')
            fputs("&gt;", f);
        else
            fputc(s[i], f);
    }
}

/* A line of text: `code`, **bold** and *emphasis* as HTML, the rest escaped. */
static void inline_text(FILE *f, const char *s)
{
    int code = 0, bold = 0, em = 0;
    for (const char *p = s; *p;) {
        size_t n = strcspn(p, "`*");
        esc(f, p, n);
        p += n;
        if (*p == '`')
            fputs((code = !code) ? "<code>" : "</code>", f), p++;
        else if (*p == '*' && !code && p[1] == '*')
            fputs((bold = !bold) ? "<b>" : "</b>", f), p += 2;
        else if (*p == '*' && !code)
            fputs((em = !em) ? "<em>" : "</em>", f), p++;
        else if (*p)
            fputc(*p++, f);
    }
    fputs(code ? "</code>" : "", f);
    fputs(bold ? "</b>" : "", f);
    fputs(em ? "</em>" : "", f);
}

/* The figure's PNG (figures/NAME.png) inside the page, as a data: URI; 0 when it cannot be. */
static int png_inline(FILE *f, const char *dir, const char *link, size_t n)
{
    char path[4400], *png = NULL, *b64 = NULL;
    size_t len = 0;
    snprintf(path, sizeof path, "%s/%.*s", dir, (int)n, link);
    int ok = cb_read_file(path, HTML_FILE_MAX, &png, &len, NULL) == CB_OK &&
             cb_base64(png, len, &b64) == CB_OK;
    if (ok)
        fprintf(f, "<div class=\"figure\"><img alt=\"%.*s\" src=\"data:image/png;base64,%s\">"
                   "</div>\n", (int)n, link, b64);
    free(png);
    free(b64);
    return ok;
}

/* The figure figures/NAME.png as its SVG (figures/NAME.svg) inlined: the XML prolog, doctype
 * and namespace URLs left out (an inline <svg> needs none); an SVG above HTML_SVG_MAX (a
 * convergence figure with many traced points) is given as its PNG instead, inside the page. */
static void figure(FILE *f, const char *dir, const char *link, size_t n)
{
    char path[4400], *svg = NULL;
    size_t len = 0;
    struct stat st;
    snprintf(path, sizeof path, "%s/%.*s.svg", dir, (int)(n > 4 ? n - 4 : n), link);
    if (stat(path, &st) == 0 && (size_t)st.st_size > HTML_SVG_MAX && png_inline(f, dir, link, n))
        return;
    if (cb_read_file(path, HTML_FILE_MAX, &svg, &len, NULL) != CB_OK || !strstr(svg, "<svg")) {
        fprintf(f, "<p>(figure not drawn: ");
        esc(f, link, n);
        fprintf(f, ")</p>\n");
        free(svg);
        return;
    }
    char *s = strstr(svg, "<svg");
    for (char *u; (u = strstr(s, "=\"http")) != NULL;) { /* xmlns="http://…": dropped */
        char *a = u, *e = strchr(u + 2, '"');
        while (a > s && a[-1] != ' ')
            a--;
        if (!e || a == s)
            break;
        memmove(a, e + 1, strlen(e + 1) + 1);
    }
    fprintf(f, "<div class=\"figure\">%s</div>\n", s);
    free(svg);
}

/* Table row line l (from "|"): cells as td (th for the header). */
static void table_row(FILE *f, char *l, int head)
{
    fputs("<tr>", f);
    for (char *c = l + 1; *c;) {
        char *e = c;
        while (*e && !(*e == '|' && e[-1] != '\\'))
            e++;
        if (!*e)
            break;
        *e = '\0';
        fputs(head ? "<th>" : "<td>", f);
        inline_text(f, c + (*c == ' '));
        fputs(head ? "</th>" : "</td>", f);
        c = e + 1;
    }
    fputs("</tr>\n", f);
}

/* The line's heading level (1, 2, 4 for "#", "##", "####"), 0 when it is none. */
static int heading(const char *l)
{
    int n = (int)strspn(l, "#");
    return n > 0 && n <= 6 && l[n] == ' ' ? n : 0;
}

/* The contents list: every heading of lines[first..n), a link to its anchor (h<line>). */
static void contents(FILE *f, char **lines, int first, int n)
{
    fputs("<nav><h2>Contents</h2><ul>\n", f);
    for (int i = first; i < n; i++) {
        int h = heading(lines[i]);
        if (h == 0)
            continue;
        fprintf(f, "<li style=\"margin-left:%dem\"><a href=\"#h%d\">", 2 * (h - 1), i);
        esc(f, lines[i] + h + 1, strlen(lines[i] + h + 1));
        fputs("</a></li>\n", f);
    }
    fputs("</ul></nav>\n", f);
}

/* Line i of the body (a table, list or code block spans lines: *i advances past them). */
static void body_line(FILE *f, const char *dir, char **lines, int n, int *i)
{
    char *l = lines[*i];
    int h = heading(l);
    const char *img = strncmp(l, "![", 2) ? NULL : strstr(l, "](");
    if (h) {
        fprintf(f, "<h%d id=\"h%d\">", h, *i);
        inline_text(f, l + h + 1);
        fprintf(f, "</h%d>\n", h);
    } else if (img) {
        figure(f, dir, img + 2, strcspn(img + 2, ")"));
    } else if (!strncmp(l, "```", 3)) {
        fputs("<pre>", f);
        for (++*i; *i < n && strncmp(lines[*i], "```", 3); ++*i)
            esc(f, lines[*i], strlen(lines[*i])), fputc('\n', f);
        fputs("</pre>\n", f);
    } else if (l[0] == '|') {
        fputs("<table>\n", f);
        for (int r = 0; *i < n && lines[*i][0] == '|'; ++*i, r++)
            if (r != 1) /* row 1: the alignment row */
                table_row(f, lines[*i], r == 0);
        --*i;
        fputs("</table>\n", f);
    } else if (!strncmp(l, "- ", 2)) {
        fputs("<ul>\n", f);
        for (; *i < n && !strncmp(lines[*i], "- ", 2); ++*i)
            fputs("<li>", f), inline_text(f, lines[*i] + 2), fputs("</li>\n", f);
        --*i;
        fputs("</ul>\n", f);
    } else if (!strncmp(l, "<details>", 9) || !strncmp(l, "</details>", 10)) {
        fprintf(f, "%s\n", l); /* report.md's own tags */
    } else if (l[0]) {
        fputs("<p>", f), inline_text(f, l), fputs("</p>\n", f);
    }
}

/* The page: head, the verdict (the lines before the first heading), contents, the rest. */
static void page(FILE *f, const char *dir, char **lines, int n)
{
    int first = 0;
    while (first < n && !heading(lines[first]))
        first++;
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
               "<title>conebench report</title><style>%s</style></head><body>\n"
               "<div class=\"verdict\" id=\"verdict\">\n", HTML_STYLE);
    for (int i = 0; i < first; i++)
        body_line(f, dir, lines, first, &i);
    fputs("</div>\n", f);
    contents(f, lines, first, n);
    for (int i = first; i < n; i++)
        body_line(f, dir, lines, n, &i);
    fputs("</body></html>\n", f);
}

int cb_report_html(const char *dir, cb_error *err)
{
    char path[4200], *text = NULL, **lines = NULL;
    size_t len = 0;
    int n = 0;
    cb_outbuf out = {0};
    snprintf(path, sizeof path, "%s/report.md", dir);
    int rc = cb_read_file(path, HTML_FILE_MAX, &text, &len, err);
    if (rc == CB_OK && !(lines = malloc((len + 2) * sizeof *lines)))
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    for (char *l = text, *nl; rc == CB_OK && l && *l; l = nl ? nl + 1 : NULL) {
        if ((nl = strchr(l, '\n')))
            *nl = '\0';
        lines[n++] = l;
    }
    if (rc == CB_OK)
        rc = cb_outbuf_open(&out, err);
    if (rc == CB_OK)
        page(out.f, dir, lines, n);
    snprintf(path, sizeof path, "%s/report.html", dir);
    if (rc == CB_OK)
        rc = cb_outbuf_commit(&out, path, err);
    cb_outbuf_discard(&out);
    free(lines);
    free(text);
    return rc;
}
