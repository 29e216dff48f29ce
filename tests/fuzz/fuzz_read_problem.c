/* libFuzzer target for cb_read_problem (every reader behind the format dispatcher: Siconos text,
 * GRFC3D global text, FCLIB HDF5). The input bytes are written to one temporary file per process
 * (reused across inputs) because the readers take a path (HDF5 and libfclib open files by name).
 * Build and run: make fuzz; make fuzz-run FUZZ_SECONDS=60. */
#include "conebench/io.h"

#include <hdf5.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char g_path[64];

static void remove_input(void)
{
    if (g_path[0])
        unlink(g_path);
}

static const char *input_path(void)
{
    if (!g_path[0]) {
        snprintf(g_path, sizeof g_path, "/tmp/cb_fuzz_read_problem.%ld", (long)getpid());
        atexit(remove_input);
    }
    return g_path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = input_path();
    FILE *f = fopen(path, "wb");
    if (!f)
        abort(); /* the harness itself is broken: say so loudly */
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    if (fclose(f) != 0)
        abort();
    cb_read_settings s;
    cb_read_settings_default(&s);
    cb_problem *p = NULL;
    cb_error e;
    if (cb_read_problem(path, &s, &p, &e) == CB_OK) {
        if (!p || cb_problem_check(p, &e) != CB_OK)
            abort(); /* a reader returned an invalid problem */
    } else if (p) {
        abort(); /* failure must leave *out NULL */
    }
    cb_problem_free(p);
    /* HDF5 1.10 keeps internal free lists that grow over tens of thousands of malformed files in
     * one process (LeakSanitizer then reports them at exit although no single input leaks: each
     * saved input is clean alone and under valgrind); release them after every input. */
    H5garbage_collect();
    return 0;
}
