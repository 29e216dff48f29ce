/* conebench tests — the bad-input corpus: every file of tests/bad_inputs/ is a bad
 * problem file and every file of tests/bad_inputs/solutions/ a bad solution file. Each must be
 * rejected with CB_ERR_INPUT, *out left NULL, and a message "PATH:LINE: what" naming the field.
 * Run from the repository root (as `make test` does). Also: a directory instead of a file, and
 * every prefix / single-byte corruption of valid files (no crash, OK or CB_ERR_INPUT). */
#include "test_support.h"

#include "conebench/io.h"
#include "io_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CORPUS "tests/bad_inputs"

typedef struct {
    const char *file; /* under CORPUS (problems) or CORPUS/solutions (solutions) */
    long line;        /* expected line in the message (NO_LINE: "PATH: what", HDF5 files) */
    const char *what; /* expected substring naming the field and the reason */
} bad_case;

#define NO_LINE (-2) /* an HDF5 file has no lines: its messages are "PATH: what" */
#define HDF5_DIED "the HDF5 library failed on this file (damaged?)"

static const bad_case bad_problems[] = {
    {"empty.dat", 1, "d: the file is empty"},
    {"blank_lines_only.dat", 1, "d: the file is empty"},
    {"binary_garbage.dat", 1, "NUL byte (at byte 0): not a text file"},
    {"not_a_number_d.dat", 1, "d: expected an integer, got 'three'"},
    {"zero_d.dat", 1, "d: 0 is out of range"},
    {"unsupported_d.dat", 1, "d: unsupported dimension 4"},
    {"zero_nc.dat", 2, "W storage: unexpected end of file"}, /* nc = 0 is valid, W is not */
    {"negative_nc.dat", 2, "nc: -3 is out of range"},
    {"huge_int.dat", 2, "nc: integer '99999999999999999999' out of range"},
    {"nc_overflow.dat", 2, "nc: nc·d = 6000000000 exceeds"},
    {"bad_storage.dat", 3, "W storage: 7 is out of range"},
    {"negative_size.dat", 4, "W size0: -3 is out of range"},
    {"zero_size.dat", 4, "W: matrix is 3 x 0, expected 3 x 3 (nc·d)"},
    {"W_not_square.dat", 4, "W: matrix is 3 x 4, expected 3 x 3"},
    {"nc_mismatch.dat", 4, "W: matrix is 3 x 3 but nc·d = 6"},
    {"dense_header_mismatch.dat", 6, "W: dense sizes 3 x 4 differ"},
    {"huge_dense_W.dat", 7, "W: file ends after 3 of 4410000000000000000 values"},
    {"truncated_W.dat", 8, "W: file ends after 6 of 9 values"},
    {"truncated_q.dat", 10, "q: file ends after 2 of 3 values"},
    {"truncated_mu.dat", 14, "mu: file ends after 1 of 2 values"},
    {"truncated_mu_r.dat", 13, "mu_r: file ends after 0 of 1 values"},
    {"not_a_number_W.dat", 8, "W entry (0, 1): not a number ('abc')"},
    {"not_a_number_q.dat", 10, "q entry 1: not a number ('x2')"},
    {"nan_W.dat", 7, "W entry (2, 0): not finite ('nan')"},
    {"inf_W.dat", 9, "W entry (1, 2): not finite ('inf')"},
    {"nan_q.dat", 10, "q entry 2: not finite ('NaN')"},
    {"inf_q.dat", 10, "q entry 0: not finite ('-inf')"},
    {"overflow_value_q.dat", 10, "q entry 1: not finite ('1e999')"},
    {"nan_mu.dat", 11, "mu entry 0: not finite ('nan')"},
    {"inf_mu.dat", 11, "mu entry 0: not finite ('Infinity')"},
    {"negative_mu.dat", 11, "mu entry 0: negative"},
    {"negative_mu_r.dat", 14, "mu_r entry 0: negative"},
    {"negative_mu_s.dat", 16, "mu_s entry 0: negative"},
    {"trailing_garbage.dat", 15, "trailing data after mu_r ('42')"},
    {"trailing_after_mu.dat", 12, "trailing data after mu ('0.25')"},
    {"sbm_cumulative_sizes.dat", 9, "W row block sizes: cumulative size 3 at position 1"},
    {"sbm_cumulative_total.dat", 10, "W column block sizes: last cumulative size 8 differs"},
    {"sbm_filled2_mismatch.dat", 12, "W: filled2 = 4 differs from nbblocks = 3"},
    {"sbm_row_pointer.dat", 13, "W index1_data: row pointer decreases"},
    {"sbm_block_index_out_of_range.dat", 14, "W block 2 column block index: 5 is out of range"},
    {"sbm_block_number.dat", 25, "W block 1: block number 5, expected 1"},
    {"sbm_huge_counts.dat", 46, "W: file ends after 49 of 2000000004 values"},
    {"truncated_sbm_block.dat", 40, "W: file ends after 26 of 30 values"},
    {"sbm_empty_huge.dat", 7, "q: file ends after 3 of 2100000000 values"},
    {"csparse_size_mismatch.dat", 8, "W: CSparse size 3 x 4 differs"},
    {"csparse_index_out_of_range.dat", 10, "W entry 1 row: 5 is out of range"},
    {"csparse_nan_value.dat", 10, "W entry 1: not finite ('nan')"},
    {"csparse_csr_origin.dat", 8, "W: compressed CSparse origin 3 is not supported"},
    {"csparse_csc_locations.dat", 11, "W column 1 first location: 2 is out of range"},
    {"global_M_not_pd.dat", 4, "M: not symmetric positive definite"},
    {"global_H_wrong_size.dat", 11, "H: matrix is 3 x 3, expected 3 x 2"},
    {"global_truncated_b.dat", 17, "b: file ends after 1 of 2 values"},
    {"global_empty_huge_M.dat", 11, "q: file ends after 3 of 2000000000 values"},
    /* fuzz_read_problem findings: HDF5 1.10.8 itself crashes on these (read in a child) */
    {"hdf5_accum_read_null.hdf5", NO_LINE, HDF5_DIED}, /* NULL memcpy in H5F__accum_read */
    /* a local rolling3d problem written by conebench (nc = 1), its conebench_kind deleted */
    {"fclib_local_spacedim5_no_kind.hdf5", NO_LINE,
     "/fclib_local/spacedim: 5, must be 2 or 3 (an FCLIB Coulomb problem), or the group must name "
     "its kind in /fclib_local/conebench_kind (conebench's local rolling extension): neither"},
};

static const bad_case bad_solutions[] = {
    {"empty.sol", 1, "nc: the file is empty"},
    {"negative_nc.sol", 1, "nc: expected an integer in [0, 2147483647], got '-2'"},
    {"non_integer_header.sol", 1, "nc: expected an integer in [0, 2147483647], got '1.5'"},
    {"bad_d.sol", 1, "d: expected an integer in [1, 6], got '9'"},
    {"overflow_count.sol", 1, "nc: nc·d = 12000000000 exceeds"},
    {"huge_count.sol", 1, "nc: the file is too short for nc·d = 600000000 pairs"},
    {"truncated.sol", 3, "p entry 2: unexpected end of file"},
    {"nan.sol", 2, "y entry 0: not finite ('nan')"},
    {"inf.sol", 3, "p entry 1: not finite ('-inf')"},
    {"not_a_number.sol", 3, "p entry 1: not a number ('foo')"},
    {"trailing.sol", 4, "trailing data after the 2 pairs (p, y): 'extra'"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The message is "PATH:LINE: ..." with the expected line (any line when line is -1; "PATH: ..."
 * when NO_LINE) and contains `what`. */
static void check_message(const char *path, const cb_error *err, long line, const char *what)
{
    size_t plen = strlen(path);
    if (strncmp(err->text, path, plen) != 0 || err->text[plen] != ':')
        fail_msg("message does not start with '%s:': %s", path, err->text);
    const char *p = err->text + plen + 1;
    if (line == NO_LINE) {
        if (p[0] != ' ' || strcmp(p + 1, what) != 0)
            fail_msg("expected '%s: %s', got: %s", path, what, err->text);
        return;
    }
    char *end;
    long got = strtol(p, &end, 10);
    if (end == p || end[0] != ':' || end[1] != ' ')
        fail_msg("no line number after the path: %s", err->text);
    if (line >= 0 && got != line)
        fail_msg("expected line %ld, got: %s", line, err->text);
    if (!strstr(end, what))
        fail_msg("expected '%s' in: %s", what, err->text);
}

static void test_bad_problem_files(void **state)
{
    (void)state;
    for (size_t k = 0; k < COUNT(bad_problems); k++) {
        char path[512];
        snprintf(path, sizeof path, CORPUS "/%s", bad_problems[k].file);
        if (access(path, R_OK) != 0)
            fail_msg("%s missing (run the test from the repository root)", path);
        cb_problem *p = (cb_problem *)&p; /* must be reset to NULL */
        cb_error err = {{0}};
        int rc = cb_read_problem(path, NULL, &p, &err);
        if (rc != CB_ERR_INPUT)
            fail_msg("%s: expected CB_ERR_INPUT, got %d (%s)", path, rc, err.text);
        assert_null(p);
        check_message(path, &err, bad_problems[k].line, bad_problems[k].what);
    }
    print_message("%zu bad problem files rejected with file:line: field messages\n",
                  COUNT(bad_problems));
}

static void test_bad_solution_files(void **state)
{
    (void)state;
    for (size_t k = 0; k < COUNT(bad_solutions); k++) {
        char path[512];
        snprintf(path, sizeof path, CORPUS "/solutions/%s", bad_solutions[k].file);
        if (access(path, R_OK) != 0)
            fail_msg("%s missing (run the test from the repository root)", path);
        double *p = (double *)&p, *y = (double *)&y;
        int nc = -7, d = -7;
        cb_error err = {{0}};
        int rc = cb_read_solution(path, &nc, &d, &p, &y, &err);
        if (rc != CB_ERR_INPUT)
            fail_msg("%s: expected CB_ERR_INPUT, got %d (%s)", path, rc, err.text);
        assert_null(p);
        assert_null(y);
        check_message(path, &err, bad_solutions[k].line, bad_solutions[k].what);
    }
    print_message("%zu bad solution files rejected\n", COUNT(bad_solutions));
}

static int in_table(const bad_case *t, size_t n, const char *name)
{
    for (size_t k = 0; k < n; k++)
        if (strcmp(t[k].file, name) == 0)
            return 1;
    return 0;
}

/* Every regular file of the corpus folder is in the table (and vice versa, tested above). */
static void check_listed(const char *dir, const bad_case *t, size_t n)
{
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("%s missing (run the test from the repository root)", dir);
    struct dirent *e;
    int files = 0;
    char unlisted[256] = "";
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "solutions") == 0)
            continue;
        if (!in_table(t, n, e->d_name) && !unlisted[0])
            snprintf(unlisted, sizeof unlisted, "%s", e->d_name);
        files++;
    }
    closedir(d);
    if (unlisted[0])
        fail_msg("%s/%s is not in the table of test_bad_inputs.c", dir, unlisted);
    assert_int_equal(files, (int)n);
}

static void test_corpus_matches_tables(void **state)
{
    (void)state;
    check_listed(CORPUS, bad_problems, COUNT(bad_problems));
    check_listed(CORPUS "/solutions", bad_solutions, COUNT(bad_solutions));
}

static void test_directory_instead_of_file(void **state)
{
    (void)state;
    const char *dir = cbt_tmpdir();
    cb_problem *p = (cb_problem *)&p;
    cb_error err = {{0}};
    assert_int_equal(cb_read_problem(dir, NULL, &p, &err), CB_ERR_INPUT);
    assert_null(p);
    check_message(dir, &err, 0, "not a regular file (a directory)");
    double *x = (double *)&x, *y = (double *)&y;
    int nc, d;
    assert_int_equal(cb_read_solution(dir, &nc, &d, &x, &y, &err), CB_ERR_INPUT);
    assert_null(x);
    assert_null(y);
    check_message(dir, &err, 0, "directory");
    char missing[128];
    snprintf(missing, sizeof missing, "%s/missing.dat", dir);
    assert_int_equal(cb_read_problem(missing, NULL, &p, &err), CB_ERR_INPUT);
    assert_null(p);
    check_message(missing, &err, 0, "cannot open");
    rmdir(dir);
}

/* Valid files of each storage, for the corruption sweep. */
static const char *const valid_texts[] = {
    "3\n1\n0\n3\n3\n3\t3\n1 0 0\n0 1 0\n0 0 1\n1 2 3\n0.5\n",
    "5\n1\n0\n5\n5\n5\t5\n1 0 0 0 0\n0 1 0 0 0\n0 0 1 0 0\n0 0 0 1 0\n0 0 0 0 1\n"
    "1 2 3 4 5\n0.5\n0.1\n",
    "2\n2\n1\n4\n4\n2\n2\n2\n2\t4\t\n2\t4\t\n3\n2\n0\t1\t2\t\n0\t1\t\n"
    "0\n1\n0\n0\n1\n1\n2\n0\n0\n2\n1 2 3 4\n0.1 0.2\n",
    "3\n1\n2\n3\n3\n2\nCSparse Version 3.2.0\n3-by-3, nzmax: 3 nnz: 3, 1-norm: 1\n"
    "    col 0 : locations 0 to 0\n      0 : 1\n    col 1 : locations 1 to 1\n      1 : 1\n"
    "    col 2 : locations 2 to 2\n      2 : 1\n1 2 3\n0.5\n",
    "3\n1\n2\n3\n3\n1\nCSparse Version 3.2.0\ntriplet: 3-by-3, nzmax: 3 nnz: 3\n"
    "    0 0 : 1\n    1 1 : 1\n    2 2 : 1\n1 2 3\n0.5\n",
    "2\n1\n0\n3\n3\n3\t3\n2 0 0\n0 2 0\n0 0 2\n0\n3\n2\n3\t2\n1 0 0\n0 1 0\n1 2 3\n0 0\n0.5\n",
};

/* Read `len` bytes of text (copied, NUL-terminated); must be OK or CB_ERR_INPUT + message. */
static int sweep_one(const char *text, size_t len)
{
    char *buf = malloc(len + 1);
    assert_non_null(buf);
    memcpy(buf, text, len);
    buf[len] = '\0';
    cb_problem *p = NULL;
    cb_error err = {{0}};
    int rc = cb_read_siconos_text("sweep.dat", buf, len, NULL, &p, &err);
    if (rc == CB_OK) {
        assert_int_equal(cb_problem_check(p, NULL), CB_OK);
    } else {
        if (rc != CB_ERR_INPUT)
            fail_msg("rc %d: %s", rc, err.text);
        assert_null(p);
        check_message("sweep.dat", &err, -1, ": ");
    }
    cb_problem_free(p);
    free(buf);
    return rc == CB_OK;
}

static void test_corruption_sweep(void **state)
{
    (void)state;
    static const char junk[] = {'x', '-', '9', ' ', '\n', '\0', '.', 'e'};
    long runs = 0, accepted = 0;
    for (size_t t = 0; t < COUNT(valid_texts); t++) {
        const char *text = valid_texts[t];
        size_t len = strlen(text);
        assert_true(sweep_one(text, len));
        for (size_t cut = 0; cut < len; cut++, runs++)
            accepted += sweep_one(text, cut);
        char *m = malloc(len + 1);
        assert_non_null(m);
        for (size_t pos = 0; pos < len; pos++)
            for (size_t j = 0; j < sizeof junk; j++, runs++) {
                memcpy(m, text, len + 1);
                m[pos] = junk[j];
                accepted += sweep_one(m, len);
            }
        free(m);
    }
    print_message("corruption sweep: %ld variants, %ld still valid, the rest rejected cleanly\n",
                  runs, accepted);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_problem_files),
        cmocka_unit_test(test_bad_solution_files),
        cmocka_unit_test(test_corpus_matches_tables),
        cmocka_unit_test(test_directory_instead_of_file),
        cmocka_unit_test(test_corruption_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
