/* libFuzzer target: the solution-file reader must reject or accept any bytes without a crash,
 * a leak or an exit; what it accepts must survive a round trip: written back with
 * cb_write_solution (%.17g) and read again, it gives the same nc, d and bits of p and y. */
#include <stdint.h>
#include "../support/require.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conebench/io.h"
#include "fuzz_input.h"

/* p and y of the two reads agree bit for bit (NaN cannot be read: the reader refuses it). */
static int same(const double *a, const double *b, size_t n)
{
    return n == 0 || memcmp(a, b, n * sizeof *a) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input("read_solution", data, size), *back = fuzz_back();
    int nc = 0, d = 0, nc2 = 0, d2 = 0;
    double *p = NULL, *y = NULL, *p2 = NULL, *y2 = NULL;
    cb_error err;
    if (cb_read_solution(path, &nc, &d, &p, &y, &err) == CB_OK) {
        size_t n = (size_t)nc * (size_t)d;
        /* success returns a real solution (nc = 0: no pairs) */
        assert_true(nc >= 0 && d >= 1 && (n == 0 || (p && y)));
        /* what was accepted, written back, reads back the same */
        assert_true(cb_write_solution(back, nc, d, p, y, &err) == CB_OK);
        assert_true(cb_read_solution(back, &nc2, &d2, &p2, &y2, &err) == CB_OK);
        assert_true(nc2 == nc && d2 == d && same(p, p2, n) && same(y, y2, n));
    }
    free(p);
    free(y);
    free(p2);
    free(y2);
    return 0;
}
