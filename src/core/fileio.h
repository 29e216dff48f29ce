/* conebench — files: whole-file reads, atomic writes, output built in memory then written at
 * once (cb_outbuf), SHA-256 of buffers and files (libcrypto).
 *
 * Errors are "FILE:0: what" (cb_fail_at with line 0). Every output file goes through
 * cb_write_file_atomic or cb_outfile, which follow the rule:
 *   - symbolic links are followed: the write lands on the final target, the links stay;
 *   - a regular target (or a new path) is replaced atomically: a temporary file in the target's
 *     directory, given the old file's mode, then rename(): a failed write leaves the old file (or
 *     none), never a partial one;
 *   - a special target (character or block device, FIFO, socket) is opened for writing and
 *     written through (as a shell redirection), never replaced; a FIFO waits for its reader;
 *   - a directory is refused (CB_ERR_INPUT "is a directory").
 * A write error (ENOSPC, EIO) is CB_ERR_IO "FILE:0: write failed: ...".
 */
#ifndef CONEBENCH_FILEIO_H
#define CONEBENCH_FILEIO_H

#include <stdio.h>
#include <sys/stat.h>

#include "conebench/common.h"
#include "base.h"

/* Read a whole regular file (rejects directories, FIFOs and files over max_bytes). *data is
 * NUL-terminated (malloc'd, caller frees). A missing or unreadable file is CB_ERR_INPUT.
 * gzip data (its magic bytes first) are inflated, at most max_bytes: a corrupt or truncated
 * stream is CB_ERR_INPUT "FILE:0: corrupt or truncated gzip data: ...". */
int cb_read_file(const char *path, size_t max_bytes, char **data, size_t *len, cb_error *err);

/* 1 when data begins with gzip's magic bytes (cb_read_file inflates such files). */
int cb_is_gzip(const char *data, size_t len);

/* Give the whole memory pages of buf[*done, upto) back to the system (Linux madvise
 * MADV_DONTNEED): afterwards those bytes read as zeros. For a large buffer of cb_read_file that
 * is read front to back once (a problem's text), so that its consumed part stops counting in the
 * resident set. *done (a byte offset, 0 at first) moves to the last page boundary released. */
void cb_buffer_release(char *buf, size_t *done, size_t upto);
/* How much a reader lets pile up behind it between two cb_buffer_release calls (fewer calls,
 * and no more than this much resident beyond what it keeps). */
#define CB_RELEASE_STEP ((size_t)8 << 20)

/* Text inputs hold no NUL byte: CB_ERR_INPUT "FILE:LINE: NUL byte (at byte K): not a text
 * file" for the first one, else CB_OK. */
int cb_text_check(const char *path, const char *data, size_t len, cb_error *err);

/* Write `len` bytes to `path` by the rule above (atomic replace, or through a special file). */
int cb_write_file_atomic(const char *path, const char *data, size_t len, cb_error *err);
/* 1 when a file name (without its folder) is one of the temporary files cb_write_file_atomic
 * creates ("<name>.tmp.<pid>.<k>"): left behind only by a killed process. */
int cb_is_temp_name(const char *name);
/* Remove everything under `dir` (symbolic links removed, never followed), then `dir` itself
 * unless keep_top. 0 when all is gone, -1 when something could not be removed. */
int cb_remove_tree(const char *dir, int keep_top);

/* An output file written by someone who needs a file name (the HDF5 library, a child process):
 *   cb_outfile o; rc = cb_outfile_begin(&o, path, err);   o.tmp is the file to write
 *   ... write o.tmp ...;  rc = ok ? cb_outfile_commit(&o, err) : (cb_outfile_discard(&o), rc);
 * o.tmp is beside the target (or in $TMPDIR when the target is a special file, whose bytes are
 * copied through at commit). A special target is opened at begin, before tmp exists: a FIFO
 * waits for its reader there, so a process stopped while it waits leaves no file behind.
 * Commit and discard both release o and remove what is left of tmp. */
typedef struct {
    char *path;   /* as given (named in messages) */
    char *target; /* path with its symbolic links followed */
    char *tmp;    /* the temporary file to write */
    int exists;   /* target exists (st valid) */
    int special;  /* target is a device, FIFO or socket: written through */
    int fd1;      /* special: the target's descriptor + 1, open from begin (0: none) */
    struct stat st;
} cb_outfile;
int cb_outfile_begin(cb_outfile *o, const char *path, cb_error *err);
int cb_outfile_commit(cb_outfile *o, cb_error *err);
/* Remove o's temporary file and release o; accepts a zeroed, committed or discarded o. */
void cb_outfile_discard(cb_outfile *o);

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
/* 1 when path ends in ".gz": its output is written gzip-compressed. */
int cb_path_is_gz(const char *path);
/* Close the stream and write its bytes to path atomically (gzip-compressed when path ends in
 * ".gz"; cb_read_file inflates them); releases the buffer either way.
 * CB_ERR_NOMEM when the stream failed (out of memory while writing), else cb_write_file_atomic's
 * code. */
int cb_outbuf_commit(cb_outbuf *o, const char *path, cb_error *err);
/* Close and release without writing; accepts a zeroed, committed or discarded o. */
void cb_outbuf_discard(cb_outbuf *o);

/* SHA-256 of a memory buffer as 64 lowercase hex digits + NUL ("" if libcrypto fails). */
void cb_sha256_buffer(const void *data, size_t len, char hex[65]);
/* SHA-256 of a file's bytes (hex as above). */
int cb_sha256_file(const char *path, char hex[65], cb_error *err);
/* data[0..len) in base64 (RFC 4648, libcrypto's EVP_EncodeBlock) into *out (NUL-terminated,
 * malloc'd, caller frees); CB_ERR_NOMEM. */
int cb_base64(const void *data, size_t len, char **out);

#endif
