/* conebench tests — the figures' fixed styles and words (figure_conv.c): every known solver has
 * its own colour and marker, colours well apart (RGB distance), the same label always the same
 * style whatever else is drawn; file-name slugs are safe; the caption names untraced stretches
 * (computed by hand from the iteration numbers) and runs without a trace with their status. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_internal.h"

#define MIN_RGB_DISTANCE 60.0 /* of two known solvers' colours, in 0..255 units per channel */

static const char *const known_labels[] = {
    "nsgs", "nsgs-proj", "psor", "pfp", "eg", "apgd", "admm", "nsn", "ipm", "siconos-nsgs",
    "siconos-nsgs-light", "siconos-admm", "siconos-prox", "siconos-nsn-ac"};
#define NKNOWN (sizeof known_labels / sizeof *known_labels)

/* Euclidean distance of two "#rrggbb" colours. */
static double rgb_distance(const char *a, const char *b)
{
    unsigned ra, ga, ba, rb, gb, bb;
    assert_int_equal(sscanf(a, "#%2x%2x%2x", &ra, &ga, &ba), 3);
    assert_int_equal(sscanf(b, "#%2x%2x%2x", &rb, &gb, &bb), 3);
    return sqrt(pow((double)ra - rb, 2) + pow((double)ga - gb, 2) + pow((double)ba - bb, 2));
}

/* Known solvers: pairwise distinct (colour, marker), colours at least MIN_RGB_DISTANCE apart;
 * nsgs is the table's blue. */
static void test_known_styles(void **state)
{
    (void)state;
    cb_figure_style s[NKNOWN];
    for (size_t i = 0; i < NKNOWN; i++) {
        cb_figure_style_of(known_labels[i], &s[i]);
        assert_true(s[i].point >= 1 && s[i].point <= 15);
    }
    for (size_t i = 0; i < NKNOWN; i++)
        for (size_t j = i + 1; j < NKNOWN; j++) {
            double d = rgb_distance(s[i].colour, s[j].colour);
            if (d < MIN_RGB_DISTANCE)
                fail_msg("%s %s and %s %s: colours %.0f apart", known_labels[i], s[i].colour,
                         known_labels[j], s[j].colour, d);
            assert_true(s[i].point != s[j].point || strcmp(s[i].colour, s[j].colour) != 0);
        }
    assert_string_equal(s[0].colour, "#1f77b4");
}

/* Other labels: the style depends on the label only (asked twice, between other labels: the
 * same), a valid colour and marker; two different labels are not all the same style. */
static void test_hashed_styles(void **state)
{
    (void)state;
    const char *labels[] = {"my-solver", "nsgs-omega1.2", "x", "external-foo", "apgd-norestart"};
    cb_figure_style a[5], b, other;
    int distinct = 0;
    for (int i = 0; i < 5; i++) {
        cb_figure_style_of(labels[i], &a[i]);
        assert_int_equal(strlen(a[i].colour), 7);
        assert_true(a[i].point >= 1 && a[i].point <= 15);
    }
    for (int i = 4; i >= 0; i--) {
        cb_figure_style_of("nsgs", &other);
        cb_figure_style_of(labels[i], &b);
        assert_string_equal(a[i].colour, b.colour);
        assert_int_equal(a[i].point, b.point);
        distinct += i > 0 && (strcmp(a[i].colour, a[0].colour) || a[i].point != a[0].point);
    }
    assert_true(distinct >= 3);
}

/* Hashed colours of 200 labels: every one at least MIN_RGB_DISTANCE from each known solver's
 * colour and from every other hashed colour it is not equal to. */
static void test_hashed_apart(void **state)
{
    (void)state;
    char label[32];
    cb_figure_style h[200], k;
    for (int i = 0; i < 200; i++) {
        snprintf(label, sizeof label, "label-%d", i);
        cb_figure_style_of(label, &h[i]);
        for (size_t j = 0; j < NKNOWN; j++) {
            cb_figure_style_of(known_labels[j], &k);
            assert_true(rgb_distance(h[i].colour, k.colour) >= MIN_RGB_DISTANCE);
        }
        for (int j = 0; j < i; j++)
            assert_true(!strcmp(h[i].colour, h[j].colour) ||
                        rgb_distance(h[i].colour, h[j].colour) >= MIN_RGB_DISTANCE);
    }
}

/* Slugs keep [A-Za-z0-9_.-], turn anything else into '-' (no '/': never a path), never start
 * with '.', are at most 80 characters. */
static void test_slug(void **state)
{
    (void)state;
    char s[128], long_name[300];
    cb_figure_slug("random-rolling3d-nc100-mb-s1", s, sizeof s);
    assert_string_equal(s, "random-rolling3d-nc100-mb-s1");
    cb_figure_slug("../a b/c'd\"e", s, sizeof s);
    assert_string_equal(s, "-.-a-b-c-d-e"); /* no '/' left, no leading '.' */
    cb_figure_slug("", s, sizeof s);
    assert_string_equal(s, "p");
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    cb_figure_slug(long_name, s, sizeof s);
    assert_int_equal(strlen(s), 80);
}

/* A trace 0..8 then 301 (ipm-like), one 0 and 2000 (adapter-like), one without points: the
 * caption says "9–300", "1–1999" and names the third with its status. */
static void test_caption(void **state)
{
    (void)state;
    cb_trace_point ipm[10], admm[2] = {{0, 0.0, 1.0}, {2000, 1.0, 1e-3}};
    for (int k = 0; k < 9; k++)
        ipm[k] = (cb_trace_point){k, 0.01 * k, pow(10.0, -k)};
    ipm[9] = (cb_trace_point){301, 1.0, 1e-12};
    cb_conv_curve c[3] = {{"ipm", CB_STATUS_CONVERGED, ipm, 10},
                          {"siconos-admm", CB_STATUS_MAX_ITER, admm, 2},
                          {"siconos-nsgs", CB_STATUS_CRASHED, NULL, 0}};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    cb_conv_caption(c, 3, f);
    fclose(f);
    assert_string_equal(buf, " Dotted: iterations not traced (no point measured in between): "
                             "ipm 9–300; siconos-admm 1–1999. No trace, not drawn: "
                             "siconos-nsgs (crashed).");
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_styles), cmocka_unit_test(test_hashed_styles),
        cmocka_unit_test(test_slug),         cmocka_unit_test(test_caption),
        cmocka_unit_test(test_hashed_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
