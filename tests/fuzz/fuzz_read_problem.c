/* libFuzzer target for cb_read_problem (every reader behind the format dispatcher: Siconos text,
 * GFC3D/GRFC3D global text, FCLIB HDF5). The input bytes are written to one temporary file per
 * process (reused across inputs) because the readers take a path (HDF5 and libfclib open files
 * by name). Build and run: make fuzz; make fuzz-run FUZZ_SECONDS=60.
 *
 * cb_read_problem reads HDF5 in a child process (the HDF5 library crashes on some damaged
 * files): this target checks that conebench survives them, but libFuzzer sees no coverage from
 * the child. With CB_FUZZ_HDF5_IN_PROCESS=1 in the environment, HDF5 inputs go to the reader in
 * this process instead (coverage-guided; every HDF5 crash is then reported: add it to
 * tests/bad_inputs/, where the isolated reader must turn it into an error). */
#include "conebench/io.h"
#include "io_internal.h"

#include <hdf5.h>

#include "../support/require.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input("read_problem", data, size);
    cb_read_settings s;
    cb_read_settings_default(&s);
    cb_problem *p = NULL;
    cb_error e;
    static int in_process = -1;
    if (in_process < 0)
        in_process = getenv("CB_FUZZ_HDF5_IN_PROCESS") != NULL;
    int hdf5 = size >= 4 && memcmp(data, "\211HDF", 4) == 0;
    int rc = in_process && hdf5 ? cb_read_fclib(path, &s, &p, &e)
                                : cb_read_problem(path, &s, &p, &e);
    if (rc == CB_OK) {
        assert_true(p && cb_problem_check(p, &e) == CB_OK); /* a reader returns a valid problem */
    } else {
        assert_true(p == NULL); /* failure leaves *out NULL */
    }
    cb_problem_free(p);
    /* HDF5 1.10 keeps internal free lists that grow over tens of thousands of malformed files in
     * one process (LeakSanitizer then reports them at exit although no single input leaks: each
     * saved input is clean alone and under valgrind); release them after every input. */
    H5garbage_collect();
    return 0;
}
