/* conebench tests — the Markdown table writer (src/bench/markdown.h): whatever the cells hold
 * (pipes, backslashes, line breaks, long text), every row has ncol + 1 unescaped pipes and its
 * cells read back (\| → |, the line break a space) as written; the separator's alignment. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

#include "markdown.h"

#define NCOL 3

/* Split a row into cells at unescaped pipes; returns the count of those pipes. */
static int split_row(const char *row, char cells[][2048], int max)
{
    int pipes = 0, k = -1;
    size_t n = 0;
    for (const char *s = row; *s && *s != '\n'; s++) {
        if (*s == '\\' && s[1] == '|') {
            if (k >= 0 && k < max && n + 1 < 2048)
                cells[k][n++] = '|';
            s++;
        } else if (*s == '|') {
            if (k >= 0 && k < max)
                cells[k][n] = '\0';
            pipes++, k++, n = 0;
        } else if (k >= 0 && k < max && n + 1 < 2048)
            cells[k][n++] = *s;
    }
    return pipes;
}

/* The cell as written: "| text " → "text". */
static void trim(char *c)
{
    size_t n = strlen(c);
    if (n >= 2 && c[0] == ' ' && c[n - 1] == ' ') {
        memmove(c, c + 1, n - 2);
        c[n - 2] = '\0';
    }
}

static void test_round_trip(void **state)
{
    (void)state;
    char longcell[1500];
    memset(longcell, 'x', sizeof longcell - 1);
    longcell[sizeof longcell - 1] = '\0';
    longcell[700] = '|';
    const char *head[NCOL] = {"a|b", "c", "d\\e"};
    const char *rows[][NCOL] = {{"plain", "x | y", "line\nbreak"}, {"", "||", longcell}};
    const char *back[][NCOL] = {{"plain", "x | y", "line break"}, {"", "||", longcell}};
    char *buf = NULL, cells[NCOL + 1][2048];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cb_md_head(f, NCOL, head, "lr");
    for (int r = 0; r < 2; r++) {
        cb_md_cell(f, rows[r][0]);
        cb_md_cellf(f, "%s", rows[r][1]);
        cb_md_cellf(f, "%s", rows[r][2]);
        cb_md_end(f);
    }
    fclose(f);
    char *line = buf;
    for (int r = -2; r < 2; r++) {
        assert_int_equal(split_row(line, cells, NCOL + 1), NCOL + 1);
        for (int c = 0; c < NCOL; c++) {
            trim(cells[c]);
            if (r == -2)
                assert_string_equal(cells[c], head[c]);
            else if (r == -1)
                assert_string_equal(cells[c], c == 1 ? "---:" : "---");
            else
                assert_string_equal(cells[c], back[r][c]);
        }
        line = strchr(line, '\n') + 1;
    }
    assert_int_equal(*line, '\0');
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_round_trip)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
