/* conebench tests — step sequences on disk (src/io/sequence.h): listing in step order, contact
 * identities (.ids files and FCLIB datasets), carrying a solution by identity, the turnover
 * count, and the refusals, each naming the file and line. Expected values are built by hand
 * from the files the test writes. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conebench/generate.h"
#include "conebench/io.h"
#include "sequence.h"

static char dir[4096];

/* A fresh folder under the test's temporary directory. */
static const char *fresh_dir(const char *name)
{
    snprintf(dir, sizeof dir, "%s/%s", cbt_tmpdir(), name);
    mkdir(dir, 0777);
    return dir;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* A random coulomb3d problem of nc contacts written as DIR/NAME-stepN.EXT. */
static void write_step(const char *d, const char *name, long step, int nc, const char *ext)
{
    cb_random_settings rs;
    cb_random_settings_default(&rs);
    rs.kind = CB_KIND_COULOMB3D, rs.nc = nc, rs.seed = (unsigned long)step + 1;
    cb_problem *p = NULL;
    char path[4200];
    assert_int_equal(cb_generate_random(&rs, &p, NULL, NULL, NULL), CB_OK);
    snprintf(path, sizeof path, "%s/%s-step%ld%s", d, name, step, ext);
    assert_int_equal(cb_write_problem_as(path, p, CB_FORMAT_AUTO, NULL), CB_OK);
    cb_problem_free(p);
}

static void write_ids(const char *d, const char *name, long step, const char *text)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s-step%ld.ids", d, name, step);
    write_text(path, text);
}

/* Steps 9, 10, 100 are listed in that order (not the alphabetical 10, 100, 9); the .meta time
 * and Siconos iterations are read; other files are ignored. */
static void test_open_order(void **state)
{
    (void)state;
    const char *d = fresh_dir("seq-order");
    write_step(d, "box", 100, 2, ".dat");
    write_step(d, "box", 9, 2, ".dat");
    write_step(d, "box", 10, 3, ".dat");
    char path[4200];
    snprintf(path, sizeof path, "%s/box-step10.meta", d);
    write_text(path, "step=10\nt=0.01\nsiconos_iterations=7\nsiconos_error=3e-9\n");
    snprintf(path, sizeof path, "%s/README", d);
    write_text(path, "not a step\n");
    cb_sequence *s = NULL;
    assert_int_equal(cb_sequence_open(d, &s, NULL), CB_OK);
    assert_string_equal(s->name, "box");
    assert_int_equal(s->nsteps, 3);
    assert_int_equal(s->steps[0].step, 9);
    assert_int_equal(s->steps[1].step, 10);
    assert_int_equal(s->steps[2].step, 100);
    assert_true(isnan(s->steps[0].t));
    assert_true(s->steps[1].t == 0.01);
    assert_int_equal(s->steps[1].siconos_iterations, 7);
    assert_true(s->steps[1].siconos_error == 3e-9);
    assert_int_equal(s->steps[0].siconos_iterations, -1);
    assert_true(cb_sequence_is_dir(d));
    cb_sequence_free(s);
    cb_sequence_free(NULL);
}

/* Contacts 1 0 0, 1 2 5, 2 -1 0 then 2 -1 0, 1 0 0, 3 -1 1: one vanished, one appeared per
 * pair; the solution of the first step lands on the same identities in the second. */
static void test_ids_map_and_turnover(void **state)
{
    (void)state;
    const char *d = fresh_dir("seq-ids");
    write_step(d, "s", 1, 3, ".dat");
    write_step(d, "s", 2, 3, ".dat");
    write_ids(d, "s", 1, "conebench-ids 3\n1 0 0\n1 2 5\n2 -1 0\n");
    write_ids(d, "s", 2, "conebench-ids 3\n2 -1 0\n1 0 0\n3 -1 1\n");
    cb_sequence *s = NULL;
    cb_problem *p1 = NULL, *p2 = NULL;
    cb_contact_ids a = {0}, b = {0};
    assert_int_equal(cb_sequence_open(d, &s, NULL), CB_OK);
    assert_int_equal(cb_sequence_read_step(s, 0, NULL, &p1, &a, NULL), CB_OK);
    assert_int_equal(cb_sequence_read_step(s, 1, NULL, &p2, &b, NULL), CB_OK);
    assert_int_equal(a.n, 3);
    assert_true(a.id[1].a == 1 && a.id[1].b == 2 && a.id[1].f == 5);
    double from[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, to[9];
    assert_int_equal(cb_contact_ids_map(&a, from, &b, to, 3), 2);
    const double want[9] = {7, 8, 9, 1, 2, 3, 0, 0, 0};
    for (int k = 0; k < 9; k++)
        assert_true(to[k] == want[k]);
    cb_sequence_stats st;
    assert_int_equal(cb_sequence_describe(s, NULL, &st, NULL), CB_OK);
    assert_int_equal(st.nsteps, 2);
    assert_int_equal(st.appeared, 1);
    assert_int_equal(st.vanished, 1);
    assert_true(fabs(st.turnover - 2.0 / 6.0) < 1e-15);
    assert_int_equal(st.with_ids, 2);
    cb_problem_free(p1);
    cb_problem_free(p2);
    cb_contact_ids_free(&a);
    cb_contact_ids_free(&b);
    cb_sequence_free(s);
}

/* Read a one-step sequence whose .ids holds text; the error must contain want. */
static void expect_ids_refused(const char *text, const char *want)
{
    const char *d = fresh_dir("seq-bad");
    char path[4200];
    snprintf(path, sizeof path, "%s/b-step1.ids", d);
    unlink(path);
    write_step(d, "b", 1, 2, ".dat");
    write_ids(d, "b", 1, text);
    cb_sequence *s = NULL;
    cb_problem *p = NULL;
    cb_contact_ids ids = {0};
    cb_error err = {{0}};
    assert_int_equal(cb_sequence_open(d, &s, NULL), CB_OK);
    assert_int_equal(cb_sequence_read_step(s, 0, NULL, &p, &ids, &err), CB_ERR_INPUT);
    print_message("refused: %s\n", err.text);
    assert_non_null(strstr(err.text, want));
    assert_null(p);
    assert_null(ids.id);
    cb_sequence_free(s);
}

static void test_ids_refused(void **state)
{
    (void)state;
    expect_ids_refused("conebench-ids 3\n1 0 0\n1 2 5\n2 -1 0\n", "b-step1.ids:1: 3 contact ids, "
                                                                  "the problem has nc = 2");
    expect_ids_refused("conebench-ids 2\n1 0 0\n1 0 0\n", "b-step1.ids:3: contact id 1 0 0 is "
                                                          "already on line 2");
    expect_ids_refused("conebench-ids 2\n1 0 0\n1 x 0\n", "b-step1.ids:3: not 'A B F'");
    expect_ids_refused("conebench-ids 2\n1 0 0\n1 -2 0\n", "b-step1.ids:3: not 'A B F'");
    expect_ids_refused("conebench-ids 2\n1 0 0\n", "b-step1.ids:3: the file ends after 1 of 2");
    expect_ids_refused("ids 2\n1 0 0\n1 2 0\n", "b-step1.ids:1: not a contact-id file");
    expect_ids_refused("conebench-ids 2\n1 0 0\n1 2 0\n7 7 7\n", "b-step1.ids:4: more lines");
    /* a count the file cannot hold is refused before anything is allocated for it */
    expect_ids_refused("conebench-ids 100000000\n1 0 0\n", "b-step1.ids:1: 100000000 contacts "
                       "declared, the file's 30 bytes hold at most 5 lines");
}

/* Listing refusals: two names, one step twice, a bad .meta line, no step file. */
static void test_open_refused(void **state)
{
    (void)state;
    cb_sequence *s = NULL;
    cb_error err = {{0}};
    const char *d = fresh_dir("seq-two");
    write_step(d, "a", 1, 1, ".dat");
    write_step(d, "b", 2, 1, ".dat");
    assert_int_equal(cb_sequence_open(d, &s, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "step files of two sequences"));
    d = fresh_dir("seq-twice");
    write_step(d, "a", 1, 1, ".dat");
    write_step(d, "a", 1, 1, ".hdf5");
    assert_int_equal(cb_sequence_open(d, &s, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "step 1 twice"));
    d = fresh_dir("seq-meta");
    write_step(d, "a", 1, 1, ".dat");
    char path[4200];
    snprintf(path, sizeof path, "%s/a-step1.meta", d);
    write_text(path, "step=1\nt=abc\n");
    assert_int_equal(cb_sequence_open(d, &s, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "a-step1.meta:2: t: 'abc' is not a finite number"));
    d = fresh_dir("seq-empty");
    assert_int_equal(cb_sequence_open(d, &s, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "a directory without step files"));
    assert_false(cb_sequence_is_dir(d));
    assert_null(s);
}

/* FCLIB steps: ids and time written into /conebench read back the same; a .ids beside the file
 * wins over the dataset. */
static void test_fclib_datasets(void **state)
{
    (void)state;
    const char *d = fresh_dir("seq-fclib");
    write_step(d, "f", 4, 2, ".hdf5");
    char path[4200];
    snprintf(path, sizeof path, "%s/f-step4.hdf5", d);
    cb_contact_id v[2] = {{0, -1, 3}, {0, 1, 0}};
    cb_contact_ids w = {v, 2}, r = {0};
    assert_int_equal(cb_sequence_fclib_annotate(path, &w, 0.125, NULL), CB_OK);
    cb_sequence *s = NULL;
    cb_problem *p = NULL;
    assert_int_equal(cb_sequence_open(d, &s, NULL), CB_OK);
    assert_true(s->steps[0].t == 0.125);
    assert_int_equal(cb_sequence_read_step(s, 0, NULL, &p, &r, NULL), CB_OK);
    assert_int_equal(r.n, 2);
    assert_true(r.id[0].a == 0 && r.id[0].b == -1 && r.id[0].f == 3 && r.id[1].b == 1);
    cb_contact_ids_free(&r);
    cb_problem_free(p);
    cb_sequence_free(s);
    write_ids(d, "f", 4, "conebench-ids 2\n5 6 7\n5 6 8\n");
    assert_int_equal(cb_sequence_open(d, &s, NULL), CB_OK);
    assert_int_equal(cb_sequence_read_step(s, 0, NULL, &p, &r, NULL), CB_OK);
    assert_true(r.id[0].a == 5 && r.id[1].f == 8);
    cb_contact_ids_free(&r);
    cb_problem_free(p);
    cb_sequence_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_open_order),
        cmocka_unit_test(test_ids_map_and_turnover),
        cmocka_unit_test(test_ids_refused),
        cmocka_unit_test(test_open_refused),
        cmocka_unit_test(test_fclib_datasets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
