/* conebench tests — the gnuplot driver (src/bench/gnuplot.h), against gnuplot itself: a string
 * quoted by cb_gp_str and printed by gnuplot comes back as it was (single quotes anywhere,
 * double quotes, backslashes, a backquoted command not run, $ and @, UTF-8); a newline or a
 * string too long for the buffer is refused; a failing script is CB_ERR_IO naming the figure
 * and removes its PNG and SVG; gnuplot missing from PATH is CB_ERR_IO "not found in PATH", found by cb_gnuplot_check before any work. Without gnuplot
 * the tests that need it are skipped, saying so. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "gnuplot.h"

/* A folder with an empty script noop.gp and a failing one bad.gp. */
static const char *scripts(void)
{
    static char dir[512];
    char p[600];
    snprintf(dir, sizeof dir, "%s/plots", cbt_tmpdir());
    mkdir(dir, 0777);
    snprintf(p, sizeof p, "%s/noop.gp", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(p, sizeof p, "%s/bad.gp", dir);
    f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f, "plot 'no such file.dat'\n");
    fclose(f);
    return dir;
}

static int have_gnuplot(void)
{
    cb_error err = {{0}};
    if (cb_gnuplot_check(&err) == CB_OK)
        return 1;
    print_message("skipped: gnuplot missing (apt-get install gnuplot-nox)\n");
    return 0;
}

static void test_round_trip(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    const char *plots = scripts(), *tmp = cbt_tmpdir();
    const char *words[] = {"plain", "it's", "''", "'x", "x''", "a \"b\" c", "back\\slash\\",
                           "$HOME `echo no` ; @x", "ω → ∞", "'\"'\"", ""};
    char log[600], q[CB_GP_QUOTED(64)], vars[sizeof q + 16], *text = NULL;
    for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
        cb_error err = {{0}};
        snprintf(log, sizeof log, "%s/rt%zu.log", tmp, k);
        assert_int_equal(cb_gp_str(q, sizeof q, words[k], "word", &err), CB_OK);
        snprintf(vars, sizeof vars, "print %s", q);
        cb_gnuplot_job job = {plots, "noop.gp", vars, log, NULL, NULL};
        if (cb_gnuplot(&job, &err) != CB_OK)
            fail_msg("%s: %s", words[k], err.text);
        size_t len = 0;
        assert_int_equal(cb_read_file(log, 1 << 16, &text, &len, &err), CB_OK);
        if (len == 0 || text[len - 1] != '\n' || strncmp(text, words[k], len - 1) != 0 ||
            strlen(words[k]) != len - 1)
            fail_msg("gnuplot printed '%s' for '%s' (quoted %s)", text, words[k], q);
        free(text);
    }
}

static void test_refused(void **state)
{
    (void)state;
    char q[8]; /* 'abcde' and its NUL */
    cb_error err = {{0}};
    assert_int_equal(cb_gp_str(q, sizeof q, "a\nb", "title", &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "title: a newline"));
    assert_int_equal(cb_gp_str(q, sizeof q, "abcde", "p", &err), CB_OK); /* 'abcde' + NUL */
    assert_string_equal(q, "'abcde'");
    assert_int_equal(cb_gp_str(q, sizeof q, "abcdef", "p", &err), CB_ERR_INPUT);
    assert_int_equal(cb_gp_str(q, sizeof q, "a'b", "p", &err), CB_ERR_INPUT); /* 13 bytes */
    assert_non_null(strstr(err.text, "p: too long"));
    char big[CB_GP_QUOTED(4)];
    assert_int_equal(cb_gp_str(big, sizeof big, "''''", "p", &err), CB_OK); /* the worst case */
    assert_string_equal(big, "\"'\" . \"'\" . \"'\" . \"'\"");
    assert_int_equal(cb_gp_str(big, sizeof big, "it's", "p", &err), CB_OK);
    assert_string_equal(big, "'it' . \"'\" . 's'");
    assert_int_equal(cb_gp_str(big, sizeof big, "", "p", &err), CB_OK);
    assert_string_equal(big, "''");
}

static void test_failure_removes_figure(void **state)
{
    (void)state;
    if (!have_gnuplot())
        skip();
    const char *plots = scripts(), *tmp = cbt_tmpdir();
    char log[600], out[600], png[620], svg[620];
    snprintf(log, sizeof log, "%s/bad.log", tmp);
    snprintf(out, sizeof out, "%s/fig", tmp);
    snprintf(png, sizeof png, "%s.png", out);
    snprintf(svg, sizeof svg, "%s.svg", out);
    fclose(fopen(png, "w"));
    fclose(fopen(svg, "w"));
    cb_error err = {{0}};
    cb_gnuplot_job job = {plots, "bad.gp", NULL, log, out, NULL};
    assert_int_equal(cb_gnuplot(&job, &err), CB_ERR_IO);
    assert_non_null(strstr(err.text, "gnuplot failed on"));
    assert_non_null(strstr(err.text, out));
    assert_non_null(strstr(err.text, "all of it in"));
    struct stat st;
    assert_int_not_equal(stat(png, &st), 0);
    assert_int_not_equal(stat(svg, &st), 0);
}

static void test_missing(void **state)
{
    (void)state;
    const char *plots = scripts();
    char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL, log[600];
    snprintf(log, sizeof log, "%s/missing.log", cbt_tmpdir());
    setenv("PATH", "/nonexistent", 1);
    cb_error e1 = {{0}}, e2 = {{0}};
    cb_gnuplot_job job = {plots, "noop.gp", NULL, log, NULL, NULL};
    int check = cb_gnuplot_check(&e1), run = cb_gnuplot(&job, &e2);
    if (path)
        setenv("PATH", path, 1);
    free(path);
    assert_int_equal(check, CB_ERR_IO);
    assert_int_equal(run, CB_ERR_IO);
    assert_string_equal(e1.text, "cannot run gnuplot: not found in PATH (" CB_GNUPLOT_INSTALL ")");
    assert_string_equal(e2.text, e1.text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_failure_removes_figure),
        cmocka_unit_test(test_missing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
