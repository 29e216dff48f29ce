/* conebench — files: whole-file reads, atomic writes, output built in memory then written at
 * once (cb_outbuf), SHA-256 of buffers and files (libcrypto).
 *
 * Errors are "FILE:0: what" (cb_fail_at with line 0). An atomic write goes to a temporary file
 * in the same directory, then rename(): a failed write leaves the old file (or none), never a
 * partial one.
 */
#ifndef CONEBENCH_FILEIO_H
#define CONEBENCH_FILEIO_H

#include <stdio.h>

#include "conebench/common.h"

/* Read a whole regular file (rejects directories, FIFOs and files over max_bytes). *data is
 * NUL-terminated (malloc'd, caller frees). A missing or unreadable file is CB_ERR_INPUT. */
int cb_read_file(const char *path, size_t max_bytes, char **data, size_t *len, cb_error *err);

/* Write `len` bytes to `path` atomically (temp file in the same directory + rename). */
int cb_write_file_atomic(const char *path, const char *data, size_t len, cb_error *err);
/* 1 when a file name (without its folder) is one of the temporary files cb_write_file_atomic
 * creates ("<name>.tmp.<pid>.<k>"): left behind only by a killed process. */
int cb_is_temp_name(const char *name);

/* Output written to memory first, then to its file at once (nothing on disk before commit):
 *   cb_outbuf o; if (cb_outbuf_open(&o, err) != CB_OK) return ...;
 *   fprintf(o.f, ...); ...
 *   rc = ok ? cb_outbuf_commit(&o, path, err) : (cb_outbuf_discard(&o), rc);
 * The buffer is owned by o until commit or discard, which both release it. */
typedef struct {
    FILE *f;    /* the stream to write to (open_memstream) */
    char *buf;  /* its bytes, valid only inside commit */
    size_t len;
} cb_outbuf;

/* Open o's stream. CB_ERR_NOMEM "out of memory" when it cannot be created. */
int cb_outbuf_open(cb_outbuf *o, cb_error *err);
/* Close the stream and write its bytes to path atomically; releases the buffer either way.
 * CB_ERR_NOMEM when the stream failed (out of memory while writing), else cb_write_file_atomic's
 * code. */
int cb_outbuf_commit(cb_outbuf *o, const char *path, cb_error *err);
/* Close and release without writing; accepts a zeroed, committed or discarded o. */
void cb_outbuf_discard(cb_outbuf *o);

/* SHA-256 of a memory buffer as 64 lowercase hex digits + NUL ("" if libcrypto fails). */
void cb_sha256_buffer(const void *data, size_t len, char hex[65]);
/* SHA-256 of a file's bytes (hex as above). */
int cb_sha256_file(const char *path, char hex[65], cb_error *err);

#endif
