/* conebench tests — the reproduce study (src/studies/reproduce*.c).
 *
 * The paper's numbers: every value the study compares with is printed, as the data says, in
 * the text of Fang & Negrut (../shared/papers; skipped, saying so, when absent). The fast
 * sections (brick, disk, incline, spin, ellipsoid) reproduce each of them within its printed
 * precision (one unit of the last printed digit, plus the stated allowance: g = 9.81 here,
 * 9.8 in the paper); the rows the study documents as not reproduced are still reported.
 * Failed cells: a regime-map cell whose child crashes, and the cells after it, come back as
 * CB_RP_CELL_FAILED and are counted and named, never a silent 0; a run that cannot start
 * (an unknown model) is a failed cell too, and with two children at a time (the pool) only the
 * crashed child's cells fail. The report: tables print as pipe tables; a figure is handed
 * over as gnuplot definitions with its output path. */
#include "test_support.h"

#include "fileio.h"
#include "reproduce.h"
#include "scenario.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAPER "../shared/papers/fang-negrut-friction-history-model.txt"

/* One unit of the last digit of a printed number ("0.525" → 0.001, "1600" → 1). */
static double last_digit(const char *printed)
{
    const char *dot = strchr(printed, '.');
    return dot ? pow(10.0, -(double)strlen(dot + 1)) : 1.0;
}

static void test_paper_values_are_printed_in_the_paper(void **state)
{
    (void)state;
    char *text = cbt_slurp(PAPER);
    if (!text) {
        print_message("skipped: %s absent (the papers folder beside the tree)\n", PAPER);
        skip();
    }
    int n = 0;
    for (const cb_paper_value *p = cb_reproduce_papers; p->id; p++, n++) {
        if (!strstr(text, p->printed))
            fail_msg("%s: \"%s\" is not in the paper", p->id, p->printed);
        assert_true(p->source && strstr(p->source, "Fang & Negrut"));
        assert_true(p->scale > 0 && isfinite(cb_paper_value_of(p)));
        if (isnan(p->rel_extra))
            assert_true(p->why && *p->why); /* a documented disagreement says why */
        assert_ptr_equal(cb_reproduce_paper(p->id), p);
    }
    assert_int_equal(n, 26);
    assert_null(cb_reproduce_paper("no-such-value"));
    free(text);
}

/* The row labelled `label` in any table of r: its "ours" number (column 2); NAN if absent. */
static double ours_of(const cb_study_report *r, const char *label)
{
    for (int k = 0; k < r->n; k++) {
        const cb_study_table *t = &r->block[k]->table;
        if (r->block[k]->kind != CB_STUDY_TABLE || t->ncol != 4)
            continue;
        for (int i = 0; i < cb_study_rows(t); i++)
            if (strcmp(cb_study_cell_at(t, i, 0)->text, label) == 0)
                return cb_study_cell_at(t, i, 2)->num;
    }
    return NAN;
}

static void test_fast_sections_reproduce_the_paper(void **state)
{
    (void)state;
    static const char *const fast[] = {"brick", "disk", "incline", "spin", "ellipsoid"};
    char dir[256], sub[300];
    snprintf(dir, sizeof dir, "%s", cbt_tmpdir());
    snprintf(sub, sizeof sub, "%s/data", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(sub, sizeof sub, "%s/figures", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    cb_reproduce_opts o = {dir, "plots", 0, 1};
    cb_study_report r = {0};
    for (size_t k = 0; k < sizeof fast / sizeof *fast; k++)
        assert_int_equal(cb_reproduce_section(fast[k], &o, &r, NULL), CB_OK);
    if (r.failures)
        fail_msg("%d failed runs:\n%s", r.failures, r.failed);
    int checked = 0;
    for (const cb_paper_value *p = cb_reproduce_papers; p->id; p++) {
        double ours = ours_of(&r, p->label), paper = cb_paper_value_of(p);
        if (!isfinite(ours))
            fail_msg("%s (%s): not in the report", p->id, p->label);
        if (isnan(p->rel_extra))
            continue; /* reported, documented as not reproduced */
        double tol = last_digit(p->printed) * p->scale + fabs(paper) * p->rel_extra;
        if (fabs(ours - paper) > tol)
            fail_msg("%s: ours %.6g, paper %s × %g (tolerance %.3g)", p->id, ours, p->printed,
                     p->scale, tol);
        checked++;
    }
    assert_int_equal(checked, 25);
    char out[400];
    snprintf(out, sizeof out, "out = '%s/figures/brick_velocity'\n", dir);
    int figures = 0;
    for (int k = 0; k < r.n; k++)
        if (r.block[k]->kind == CB_STUDY_FIGURE && !strcmp(r.block[k]->name, "brick_velocity")) {
            assert_string_equal(r.block[k]->script, "compliant_series.gp");
            assert_true(strncmp(r.block[k]->vars, out, strlen(out)) == 0);
            figures++;
        }
    assert_int_equal(figures, 1);
    assert_int_equal(r.nfig, 8);
    cb_study_report_free(&r);
    cb_remove_tree(dir, 0);
}

/* A cell that crashes its process at α = 3 (the third cell); the others are pure rolling. */
static int crash_at_3(const char *model, double alpha, double eta)
{
    (void)model;
    (void)eta;
    if (fabs(alpha - 3.0) < 1e-9)
        raise(SIGSEGV);
    return CB_REGIME_PR;
}

static void test_crashed_cell_is_failed_not_zero(void **state)
{
    (void)state;
    cb_rp_grid g = {1.0, 1.0, 0.2, 0.1, 4, 2}; /* α = 1..4, η_r = 0.2, 0.3: one child */
    int codes[8];
    cb_study_report r = {0};
    assert_int_equal(cb_reproduce_map_cells("compliant", &g, crash_at_3, 1, codes, &r), CB_OK);
    assert_int_equal(codes[0], CB_REGIME_PR); /* answered before the crash */
    assert_int_equal(codes[1], CB_REGIME_PR);
    for (int k = 2; k < 8; k++)
        assert_int_equal(codes[k], CB_RP_CELL_FAILED);
    assert_int_equal(r.failures, 6);
    assert_non_null(r.failed);
    assert_non_null(strstr(r.failed, "signal 11"));
    cb_study_report_free(&r);
}

static int nonsense_model(const char *model, double alpha, double eta)
{
    (void)model;
    return cb_reproduce_regime_cell("no-such-model", alpha, eta);
}

static void test_impossible_cell_is_failed(void **state)
{
    (void)state;
    cb_rp_grid g = {5.0, 1.0, 0.3, 0.1, 2, 1};
    int codes[2];
    cb_study_report r = {0};
    assert_int_equal(cb_reproduce_map_cells("no-such-model", &g, nonsense_model, 1, codes, &r),
                     CB_OK);
    assert_int_equal(codes[0], CB_RP_CELL_FAILED);
    assert_int_equal(codes[1], CB_RP_CELL_FAILED);
    assert_int_equal(r.failures, 2);
    assert_non_null(strstr(r.failed, "2 runs failed"));
    cb_study_report_free(&r);
}

/* The cell's code from its coordinates: S, PR, PS or RwS by i + j (i = α − 1, j = 10 η_r). */
static int code_of(double alpha, double eta)
{
    return 1 + ((int)lround(alpha - 1.0) + (int)lround(10 * eta)) % 4;
}

/* Crashes at α = 20, η_r = 0 (cell 19 of the second child of 16 cells); else code_of. */
static int crash_at_20(const char *model, double alpha, double eta)
{
    (void)model;
    if (fabs(alpha - 20.0) < 1e-9 && fabs(eta) < 1e-9)
        abort();
    return code_of(alpha, eta);
}

static void test_cells_two_at_a_time(void **state)
{
    (void)state;
    cb_rp_grid g = {1.0, 1.0, 0.0, 0.1, 20, 2}; /* 40 cells: children of 16, 16 and 8 */
    int codes[40];
    cb_study_report r = {0};
    assert_int_equal(cb_reproduce_map_cells("compliant", &g, crash_at_20, 2, codes, &r), CB_OK);
    for (int k = 0; k < 40; k++) {
        int want = k >= 19 && k < 32 ? CB_RP_CELL_FAILED : code_of(1.0 + k % 20, 0.1 * (k / 20));
        if (codes[k] != want)
            fail_msg("cell %d: %d, expected %d", k, codes[k], want);
    }
    assert_int_equal(r.failures, 13);
    assert_non_null(strstr(r.failed, "cells 16..31"));
    assert_non_null(strstr(r.failed, "signal 6"));
    cb_study_report_free(&r);
}

static void test_report_markdown(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    cb_study_report r = {0};
    static const char *const head[] = {"a", "b"};
    cb_study_text(&r, "x = %d\n", 3);
    cb_study_table *t = cb_study_table_new(&r, "src", 2, head);
    cb_study_cell_add(&r, t, NAN, "%s", "row");
    cb_study_cell_add(&r, t, 2.5, "%.2f", 2.5);
    assert_int_equal(cb_study_rows(t), 1);
    assert_true(cb_study_cell_at(t, 0, 1)->num == 2.5);
    assert_null(cb_study_cell_at(t, 1, 0));
    f = open_memstream(&buf, &len);
    assert_int_equal(cb_study_write_md(f, &r), CB_OK);
    fclose(f);
    assert_string_equal(buf, "x = 3\n\n| a | b |\n|---|---|\n| row | 2.50 |\n");
    free(buf);
    cb_study_report_free(&r);
    cb_study_report_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paper_values_are_printed_in_the_paper),
        cmocka_unit_test(test_fast_sections_reproduce_the_paper),
        cmocka_unit_test(test_crashed_cell_is_failed_not_zero),
        cmocka_unit_test(test_impossible_cell_is_failed),
        cmocka_unit_test(test_cells_two_at_a_time),
        cmocka_unit_test(test_report_markdown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
