/* conebench tests — readers refuse what is not a whole file.
 *
 * Every prefix (every byte offset) of the small Siconos text files of ../shared/data is either
 * refused as bad input with a "FILE:LINE: what" message, or is a complete file that reads as
 * the very same problem (the same bytes written back): none may read as another problem, as
 * FC3D_Example1_SBM.dat cut inside its last μ once read μ = 1 for 0.1. The files are read from
 * memory by the Siconos text reader (the CLI side: tests/cli_strict_inputs.sh).
 * FrictionContact3D_1c.dat is left out: it ends without a newline in a short number ("0.1"),
 * which no reader can tell from a cut one (the rule of man conebench keeps it readable). */
#include "test_support.h"

#include "conebench/io.h"
#include "io_internal.h"
#include "fileio.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The problem written back as Siconos text (%.17g: equal text, equal bits); NULL on failure. */
static char *problem_text(const cb_problem *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    cb_error err;
    int rc = cb_write_problem_stream(f, p, &err);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(rc, CB_OK);
    return buf;
}

/* 1 when text starts with "path:LINE: " (LINE ≥ 1). */
static int names_file_line(const char *text, const char *path)
{
    size_t n = strlen(path);
    if (strncmp(text, path, n) != 0 || text[n] != ':' || !isdigit((unsigned char)text[n + 1]))
        return 0;
    const char *q = text + n + 1;
    long line = strtol(q, (char **)&q, 10);
    return line >= 1 && q[0] == ':' && q[1] == ' ';
}

/* Every prefix of the file: refused naming FILE:LINE, or the same problem. Returns how many
 * prefixes read as the whole file. */
static long check_prefixes(const char *rel)
{
    const char *path = cbt_data_path(rel);
    char *data = NULL, *buf = NULL;
    size_t len = 0, full_len = 0;
    cb_error err;
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    assert_int_equal(cb_read_file(path, 1 << 20, &data, &len, &err), CB_OK);
    cb_problem *full = NULL;
    assert_int_equal(cb_read_siconos_text(path, data, len, &rs, &full, &err), CB_OK);
    char *full_text = problem_text(full, &full_len);
    assert_non_null(buf = malloc(len + 1));
    long same = 0, wrong = 0;
    for (size_t k = 0; k <= len; k++) {
        memcpy(buf, data, k);
        buf[k] = '\0';
        cb_problem *p = NULL;
        int rc = cb_read_siconos_text(path, buf, k, &rs, &p, &err);
        if (rc != CB_OK) {
            if (rc != CB_ERR_INPUT || !names_file_line(err.text, path)) {
                print_error("%s cut at %zu: code %d, message '%s'\n", rel, k, rc, err.text);
                wrong++;
            }
            continue;
        }
        size_t n = 0;
        char *t = problem_text(p, &n);
        if (n != full_len || memcmp(t, full_text, n) != 0) {
            print_error("%s cut at byte %zu of %zu reads as another problem\n", rel, k, len);
            wrong++;
        } else {
            same++;
        }
        free(t);
        cb_problem_free(p);
    }
    print_message("%s: %zu prefixes, %ld read as the whole file\n", rel, len + 1, same);
    assert_int_equal(wrong, 0);
    free(buf);
    free(full_text);
    cb_problem_free(full);
    free(data);
    return same;
}

static void test_every_prefix(void **state)
{
    (void)state;
    CBT_REQUIRE_DATA();
    static const char *const both[] = {"fc3d/FC3D_Example1_SBM.dat", "rolling/RFC3D_sphere_1.dat"};
    static const char *const more[] = {
        "fc3d/FC3D_Example1.dat",          "fc3d/Rover4396.dat",
        "fc3d/Confeti-ex13-4contact-Fc3D-SBM.dat", "rolling/RFC3D_cube_1.dat",
        "fc2d/FC2D_SliderCrankLagrangian00000.dat", "global/GFC3D_Example00.dat",
        "global/GFC3D_Example1.dat",       "global/GFC3D_Example0_SBM.dat"};
    for (size_t i = 0; i < sizeof both / sizeof *both; i++)
        assert_true(check_prefixes(both[i]) >= 1); /* the whole file at least */
    for (size_t i = 0; !cbt_quick() && i < sizeof more / sizeof *more; i++)
        assert_true(check_prefixes(more[i]) >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
