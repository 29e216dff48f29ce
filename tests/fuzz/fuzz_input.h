/* conebench fuzz targets — the input as a file: the readers take a path, so each input is
 * written to /tmp/cb_fuzz_TAG.PID (reused across inputs, removed at exit), with a second file
 * beside it (".back") for the targets that write what they read and read it again. */
#ifndef CONEBENCH_FUZZ_INPUT_H
#define CONEBENCH_FUZZ_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_paths[2][96]; /* the input, its ".back" */

static inline void fuzz_remove_files(void)
{
    for (int k = 0; k < 2; k++)
        if (fuzz_paths[k][0])
            unlink(fuzz_paths[k]);
}

/* The file now holding data[0..size); aborts when it cannot be written (the harness itself is
 * broken: say so loudly). */
static inline const char *fuzz_input(const char *tag, const uint8_t *data, size_t size)
{
    if (!fuzz_paths[0][0]) {
        snprintf(fuzz_paths[0], sizeof fuzz_paths[0], "/tmp/cb_fuzz_%s.%ld", tag, (long)getpid());
        snprintf(fuzz_paths[1], sizeof fuzz_paths[1], "%s.back", fuzz_paths[0]);
        atexit(fuzz_remove_files);
    }
    FILE *f = fopen(fuzz_paths[0], "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();
    return fuzz_paths[0];
}

/* The second file of this run (valid after fuzz_input). */
static inline const char *fuzz_back(void)
{
    return fuzz_paths[1];
}

#endif
