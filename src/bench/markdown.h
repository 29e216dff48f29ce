/* conebench — the one Markdown table writer (report, studies): a header with its separator
 * row, then rows of cells. A cell's text is escaped so that it stays one cell: each | written
 * \|, a newline written as a space. A row is cells then cb_md_end:
 *   cb_md_head(f, 3, labels, "lrr");
 *   cb_md_cell(f, name); cb_md_cellf(f, "%d", n); cb_md_cellf(f, "%.2f", x); cb_md_end(f);
 * gives "| a | b | c |\n|---|---:|---:|\n| name | 3 | 0.50 |\n". */
#ifndef CONEBENCH_MARKDOWN_H
#define CONEBENCH_MARKDOWN_H

#include <stdio.h>

/* The header row of n labels, then the separator: align[i] 'r' right-aligns column i ("---:"),
 * anything else (or align NULL) leaves it as "---". */
void cb_md_head(FILE *f, int n, const char *const *labels, const char *align);
/* One cell of the current row: "| text " with text escaped. */
void cb_md_cell(FILE *f, const char *text);
/* One cell from a printf format (escaped as cb_md_cell). */
void cb_md_cellf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* End the row: "|\n". */
void cb_md_end(FILE *f);

#endif
