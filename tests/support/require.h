/* conebench benchmarks and fuzz targets: assert_true(cond), a check that stays in every build
 * (assert vanishes under -DNDEBUG): on failure it names the file, line and condition on stderr
 * and aborts (libFuzzer records the input as a crash). */
#ifndef CONEBENCH_TESTS_REQUIRE_H
#define CONEBENCH_TESTS_REQUIRE_H

#include <stdio.h>
#include <stdlib.h>

#define assert_true(cond)                                                                        \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "%s:%d: requirement failed: %s\n", __FILE__, __LINE__, #cond);   \
            abort();                                                                         \
        }                                                                                    \
    } while (0)

#endif
