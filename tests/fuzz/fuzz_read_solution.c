/* libFuzzer target: the solution-file reader must reject or accept any bytes without a crash,
 * a leak or an exit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "conebench/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/tmp/cb_fuzz_sol_%ld.sol", (long)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    int nc = 0, d = 0;
    double *p = NULL, *y = NULL;
    cb_error err;
    if (cb_read_solution(path, &nc, &d, &p, &y, &err) == CB_OK &&
        (nc < 0 || d < 1 || (nc > 0 && (!p || !y))))
        abort(); /* success must return a real solution (nc = 0: no contacts, no pairs) */
    free(p);
    free(y);
    return 0;
}
