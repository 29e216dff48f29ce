/* conebench — FCLIB HDF5 files are read in a child process (src/core/child.h). HDF5 1.10.8
 * dies on some damaged files (a NULL memcpy in H5F__accum_read reached from a group lookup:
 * tests/bad_inputs/hdf5_accum_read_null.hdf5) and libfclib calls exit(1) on failed HDF5 calls;
 * neither may take conebench down. The child reads with cb_read_fclib and answers with
 * answer_header, then the error message (code ≠ CB_OK) or the packed problem
 * (cb_problem_pack). The parent checks the answer before it trusts it (cb_problem_unpack checks
 * every size and the problem). A child that crashes, exits without a complete answer or sends
 * an inconsistent one becomes the input error "FILE: the HDF5 library failed on this file
 * (damaged?)". A child killed from outside (SIGKILL: the kernel's out-of-memory killer or a
 * user; SIGTERM, SIGINT, SIGHUP) says nothing about the file: CB_ERR_IO (exit 1), not bad input. */
#include "io_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "problem_pack.h"

static const char answer_magic[8] = "cbread1";

typedef struct {
    char magic[8];
    int32_t code;
    uint32_t errlen; /* message bytes after the header (code ≠ CB_OK) */
} answer_header;

typedef struct {
    const char *path;
    const cb_read_settings *s;
} read_job;

/* The child's work: read the file, write the answer straight into the pipe (no copy of the
 * problem in memory: the parent reads as it comes), free everything (it ends with _exit). A
 * failed write leaves an incomplete answer, which the parent refuses. */
static int read_in_child(void *arg, int fd)
{
    const read_job *j = arg;
    cb_problem *p = NULL;
    cb_error e = {{0}};
    answer_header h;
    int rc = cb_read_fclib(j->path, j->s, &p, &e), out = dup(fd);
    FILE *f = out >= 0 ? fdopen(out, "w") : NULL;
    if (!f) {
        if (out >= 0)
            close(out);
        cb_problem_free(p);
        return 1;
    }
    memset(&h, 0, sizeof h);
    memcpy(h.magic, answer_magic, sizeof h.magic);
    h.code = rc;
    h.errlen = rc == CB_OK ? 0 : (uint32_t)strnlen(e.text, sizeof e.text);
    int bad = fwrite(&h, sizeof h, 1, f) != 1 || (h.errlen && fwrite(e.text, h.errlen, 1, f) != 1);
    if (!bad && rc == CB_OK)
        bad = cb_problem_pack(f, p, &e) != CB_OK;
    bad = fclose(f) != 0 || bad;
    cb_problem_free(p);
    return bad ? 1 : 0;
}

static int library_failed(const char *path, cb_error *err)
{
    return cb_fail(err, CB_ERR_INPUT, "%s: the HDF5 library failed on this file (damaged?)", path);
}

/* Parent: what the child wrote, checked: the reader's error, or the problem. */
static int decode_answer(const char *path, cb_child_result *r, cb_problem **out,
                         cb_error *err)
{
    answer_header h;
    if (r->len < sizeof h)
        return library_failed(path, err);
    memcpy(&h, r->data, sizeof h);
    char *body = r->data + sizeof h;
    size_t rest = r->len - sizeof h, used = 0;
    if (memcmp(h.magic, answer_magic, sizeof h.magic) != 0)
        return library_failed(path, err);
    if (h.code != CB_OK) {
        int known = h.code == CB_ERR_INPUT || h.code == CB_ERR_NOMEM || h.code == CB_ERR_IO ||
                    h.code == CB_ERR_INTERNAL;
        if (!known || h.errlen == 0 || h.errlen >= CB_ERROR_LEN || rest != h.errlen ||
            memchr(body, '\0', h.errlen))
            return library_failed(path, err);
        return cb_fail(err, h.code, "%.*s", (int)h.errlen, body);
    }
    cb_error scratch;
    int rc = h.errlen == 0 ? cb_problem_unpack_consume(body, rest, out, &used, &scratch)
                           : CB_ERR_INPUT; /* r's bytes are not read again */
    if (rc == CB_OK && used == rest)
        return CB_OK;
    cb_problem_free(*out);
    *out = NULL;
    if (rc == CB_ERR_NOMEM)
        return cb_fail(err, rc, "%s: %s", path, scratch.text);
    return library_failed(path, err);
}

int cb_read_fclib_isolated(const char *path, const cb_read_settings *s, cb_problem **out,
                           cb_error *err)
{
    read_job job = {path, s};
    cb_child_result r;
    *out = NULL;
    int rc = cb_child_run(read_in_child, &job, 0, &r, err);
    if (rc == CB_OK && cb_child_killed_from_outside(&r))
        rc = cb_fail(err, CB_ERR_IO, "%s: the process reading it was killed (signal %d, %s): "
                     "out of memory, or stopped by a user; nothing is known of the file", path,
                     r.code, strsignal(r.code));
    else if (rc == CB_OK)
        rc = decode_answer(path, &r, out, err);
    cb_child_result_free(&r);
    return rc;
}
