/* conebench — files (fileio.h): whole-file reads, atomic writes, output built in memory, SHA-256
 * of buffers and files (libcrypto's EVP interface). */
#define _XOPEN_SOURCE 700 /* nftw */
#include "fileio.h"

#include <errno.h>
#include <ftw.h>
#include <fcntl.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "child.h"
#include "base.h"

/* Symbolic links followed from an output path to its target (the kernel's own limit). */
#define CB_MAX_SYMLINKS 40

/* A missing or forbidden file is the user's mistake (bad input); anything else is I/O. */
static int open_code(int e)
{
    return e == ENOENT || e == EACCES || e == ENOTDIR ? CB_ERR_INPUT : CB_ERR_IO;
}

/* Open for reading without blocking on FIFOs; only regular files of at most max_bytes. */
static int open_regular(const char *path, size_t max_bytes, int *fd, size_t *size, cb_error *err)
{
    struct stat st;
    *fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (*fd < 0)
        return cb_fail_at(err, open_code(errno), path, 0, "cannot open: %s", strerror(errno));
    if (fstat(*fd, &st) != 0)
        return cb_fail_at(err, CB_ERR_IO, path, 0, "cannot stat: %s", strerror(errno));
    if (S_ISDIR(st.st_mode))
        return cb_fail_at(err, CB_ERR_INPUT, path, 0, "not a regular file (a directory)");
    if (!S_ISREG(st.st_mode))
        return cb_fail_at(err, CB_ERR_INPUT, path, 0, "not a regular file");
    if ((unsigned long long)st.st_size > (unsigned long long)max_bytes)
        return cb_fail_at(err, CB_ERR_INPUT, path, 0, "file too large (%lld bytes, limit %zu)",
                          (long long)st.st_size, max_bytes);
    int flags = fcntl(*fd, F_GETFL);
    if (flags >= 0)
        fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK);
    *size = (size_t)st.st_size;
    return CB_OK;
}

/* Read to EOF into a growing buffer (the file may change size while being read). */
static int read_all(int fd, const char *path, size_t max_bytes, size_t hint, char **data,
                    size_t *len, cb_error *err)
{
    size_t cap = hint + 1, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        return cb_fail_at(err, CB_ERR_NOMEM, path, 0, "out of memory for %zu bytes", cap);
    for (;;) {
        if (n == cap) {
            size_t ncap = cap > max_bytes / 2 ? max_bytes + 1 : 2 * cap;
            char *nb = ncap > cap ? realloc(buf, ncap + 1) : NULL;
            if (!nb) {
                free(buf);
                return ncap > cap ? cb_fail_at(err, CB_ERR_NOMEM, path, 0, "out of memory")
                                  : cb_fail_at(err, CB_ERR_INPUT, path, 0, "file too large");
            }
            buf = nb;
            cap = ncap;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            free(buf);
            return cb_fail_at(err, CB_ERR_IO, path, 0, "read failed: %s", strerror(errno));
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (n > max_bytes) {
        free(buf);
        return cb_fail_at(err, CB_ERR_INPUT, path, 0, "file too large (limit %zu)", max_bytes);
    }
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return CB_OK;
}

/* gzip's two magic bytes (RFC 1952), and zlib's window bits that select its gzip wrapper. */
#define GZIP_MAGIC0 0x1f
#define GZIP_MAGIC1 0x8b
#define GZIP_WBITS (15 + 16)

int cb_is_gzip(const char *data, size_t len)
{
    return len >= 2 && (unsigned char)data[0] == GZIP_MAGIC0 &&
           (unsigned char)data[1] == GZIP_MAGIC1;
}

/* Inflate one gzip member gz[0..n) into *out (NUL-terminated, at most max_bytes). */
static int gunzip(const char *path, const char *gz, size_t n, size_t max_bytes, char **out,
                  size_t *len, cb_error *err)
{
    z_stream z = {0};
    size_t cap = n < max_bytes / 4 ? 4 * n + 64 : max_bytes + 1;
    char *buf = malloc(cap + 1);
    int zr = buf ? inflateInit2(&z, GZIP_WBITS) : Z_MEM_ERROR, init = zr == Z_OK, rc;
    z.next_in = (unsigned char *)gz;
    z.avail_in = n > UINT_MAX ? UINT_MAX : (unsigned)n;
    while (zr == Z_OK) {
        if (z.total_out == cap) { /* grow up to max_bytes + 1: one byte more is too large */
            size_t ncap = cap > max_bytes / 2 ? max_bytes + 1 : 2 * cap;
            char *nb = cap > max_bytes ? NULL : realloc(buf, ncap + 1);
            zr = nb ? Z_OK : cap > max_bytes ? Z_BUF_ERROR : Z_MEM_ERROR;
            buf = nb ? nb : buf;
            cap = nb ? ncap : cap;
            if (zr != Z_OK)
                break;
        }
        z.next_out = (unsigned char *)buf + z.total_out;
        z.avail_out = (unsigned)(cap - z.total_out < UINT_MAX ? cap - z.total_out : UINT_MAX);
        zr = inflate(&z, Z_NO_FLUSH);
    }
    if (zr == Z_MEM_ERROR)
        rc = cb_fail_at(err, CB_ERR_NOMEM, path, 0, "out of memory inflating gzip data");
    else if (z.total_out > max_bytes)
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 0, "file too large once inflated (limit %zu)",
                        max_bytes);
    else if (zr != Z_STREAM_END || z.avail_in != 0)
        rc = cb_fail_at(err, CB_ERR_INPUT, path, 0, "corrupt or truncated gzip data%s%s",
                        z.msg ? ": " : "", z.msg ? z.msg : "");
    else {
        buf[z.total_out] = '\0';
        *out = buf;
        *len = z.total_out;
        buf = NULL;
        rc = CB_OK;
    }
    if (init)
        inflateEnd(&z);
    free(buf);
    return rc;
}

void cb_buffer_release(char *buf, size_t *done, size_t upto)
{
    long ps = sysconf(_SC_PAGESIZE);
    uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096u;
    uintptr_t lo = ((uintptr_t)buf + *done + page - 1) & ~(page - 1); /* whole pages only: */
    uintptr_t hi = ((uintptr_t)buf + upto) & ~(page - 1);              /* none outside buf */
    if (hi > lo && madvise((void *)lo, hi - lo, MADV_DONTNEED) == 0)
        *done = (size_t)(hi - (uintptr_t)buf);
}

int cb_read_file(const char *path, size_t max_bytes, char **data, size_t *len, cb_error *err)
{
    int fd = -1;
    size_t size = 0;
    *data = NULL;
    *len = 0;
    int rc = open_regular(path, max_bytes, &fd, &size, err);
    if (rc == CB_OK)
        rc = read_all(fd, path, max_bytes, size, data, len, err);
    if (fd >= 0)
        close(fd);
    if (rc == CB_OK && cb_is_gzip(*data, *len)) { /* written by cb_outbuf_commit to a .gz path */
        char *gz = *data;
        rc = gunzip(path, gz, *len, max_bytes, data, len, err);
        free(gz);
        if (rc != CB_OK)
            *data = NULL, *len = 0;
    }
    return rc;
}

int cb_is_temp_name(const char *name)
{
    const char *t = name ? strstr(name, ".tmp.") : NULL;
    for (; t; t = strstr(t + 1, ".tmp.")) { /* the last ".tmp.<pid>.<k>" of the name */
        size_t a = strspn(t + 5, "0123456789");
        if (a > 0 && t[5 + a] == '.' && strspn(t + 6 + a, "0123456789") > 0 &&
            t[6 + a + strspn(t + 6 + a, "0123456789")] == '\0')
            return 1;
    }
    return 0;
}

int cb_text_check(const char *path, const char *data, size_t len, cb_error *err)
{
    const char *nul = memchr(data, '\0', len);
    if (!nul)
        return CB_OK;
    long line = 1;
    for (const char *c = data; c < nul; c++)
        line += *c == '\n';
    return cb_fail_at(err, CB_ERR_INPUT, path, line, "NUL byte (at byte %zu): not a text file",
                      (size_t)(nul - data));
}

/* Create "<base>.tmp.<pid>.<k>" exclusively (honours the umask); errors name path. */
static int create_temp(const char *path, const char *base, char **tmp, int *fd, cb_error *err)
{
    static unsigned counter;
    size_t cap = strlen(base) + 64;
    *tmp = malloc(cap);
    if (!*tmp)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned k = __atomic_fetch_add(&counter, 1u, __ATOMIC_RELAXED);
        snprintf(*tmp, cap, "%s.tmp.%ld.%u", base, (long)getpid(), k);
        *fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (*fd >= 0)
            return CB_OK;
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    free(*tmp);
    *tmp = NULL;
    return cb_fail_at(err, open_code(e), path, 0, "cannot create a temporary file: %s",
                      strerror(e));
}

/* fsync the directory holding path, so the rename is durable (best effort). */
static void sync_parent(const char *path)
{
    char *dir = cb_strdup(path);
    if (!dir)
        return;
    char *slash = strrchr(dir, '/');
    const char *d = slash ? (slash == dir ? "/" : (*slash = '\0', dir)) : ".";
    int fd = open(d, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

/* The link `link` found at `at`, as a path: absolute, or relative to at's directory. */
static char *link_path(const char *at, const char *link)
{
    const char *slash = strrchr(at, '/');
    size_t dl = link[0] == '/' || !slash ? 0 : (size_t)(slash - at) + 1;
    char *p = malloc(dl + strlen(link) + 1);
    if (p) {
        memcpy(p, at, dl);
        strcpy(p + dl, link);
    }
    return p;
}

/* Where a write to o->path lands: o->target is the path with its symbolic links followed,
 * o->st its status when o->exists. A directory at the end is refused (bad input). */
static int resolve_target(cb_outfile *o, cb_error *err)
{
    char *cur = cb_strdup(o->path), buf[4096];
    for (int hop = 0; cur; hop++) {
        if (lstat(cur, &o->st) != 0) {
            o->exists = 0;
            if (errno == ENOENT)
                break;
            int e = errno;
            free(cur);
            return cb_fail_at(err, open_code(e), o->path, 0, "cannot stat: %s", strerror(e));
        }
        o->exists = 1;
        if (!S_ISLNK(o->st.st_mode))
            break;
        ssize_t n = hop < CB_MAX_SYMLINKS ? readlink(cur, buf, sizeof buf - 1) : -1;
        if (n < 0) {
            free(cur);
            return cb_fail_at(err, CB_ERR_INPUT, o->path, 0, "cannot follow the symbolic link: %s",
                              hop < CB_MAX_SYMLINKS ? strerror(errno) : "too many levels");
        }
        buf[n] = '\0';
        char *next = link_path(cur, buf);
        free(cur);
        cur = next;
    }
    struct stat st;
    if (cur && !o->exists && stat(o->path, &st) == 0) { /* a link only the kernel can follow */
        free(cur); /* (/dev/stdout → /proc/self/fd/1 → "pipe:[N]"): the path itself is the target */
        cur = cb_strdup(o->path);
        o->st = st;
        o->exists = 1;
    }
    o->target = cur;
    if (!cur)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (o->exists && S_ISDIR(o->st.st_mode))
        return cb_fail_at(err, CB_ERR_INPUT, o->path, 0, "is a directory");
    o->special = o->exists && !S_ISREG(o->st.st_mode);
    return CB_OK;
}

/* Open the existing special file (device, FIFO, socket) at o->target for writing, as a shell
 * redirection would (a FIFO waits for its reader): nothing truncated or replaced. */
static int open_special(const cb_outfile *o, int *fd, cb_error *err)
{
    *fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    return *fd >= 0 ? CB_OK
                    : cb_fail_at(err, open_code(errno), o->path, 0, "cannot open: %s",
                                 strerror(errno));
}

/* Write len bytes through fd (o's special target) and close it. */
static int write_fd(const cb_outfile *o, int fd, const char *data, size_t len, cb_error *err)
{
    int rc = CB_OK;
    if (cb_write_all(fd, data, len) != 0)
        rc = cb_fail_at(err, CB_ERR_IO, o->path, 0, "write failed: %s", strerror(errno));
    if (close(fd) != 0 && rc == CB_OK)
        rc = cb_fail_at(err, CB_ERR_IO, o->path, 0, "write failed: %s", strerror(errno));
    return rc;
}

/* Write len bytes into the special file at o->target: no temporary file. */
static int write_through(const cb_outfile *o, const char *data, size_t len, cb_error *err)
{
    int fd = -1, rc = open_special(o, &fd, err);
    return rc == CB_OK ? write_fd(o, fd, data, len, err) : rc;
}

/* The complete temporary file replaces the target (then nothing is left to remove). */
static int rename_onto_target(cb_outfile *o, cb_error *err)
{
    if (rename(o->tmp, o->target) != 0)
        return cb_fail_at(err, CB_ERR_IO, o->path, 0, "cannot replace the file: %s",
                          strerror(errno));
    sync_parent(o->target);
    free(o->tmp);
    o->tmp = NULL;
    return CB_OK;
}

int cb_outfile_begin(cb_outfile *o, const char *path, cb_error *err)
{
    memset(o, 0, sizeof *o);
    if (!path || !*path)
        return cb_fail(err, CB_ERR_INPUT, "output file: empty path");
    if (!(o->path = cb_strdup(path)))
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    int fd = -1;
    int rc = resolve_target(o, err);
    if (rc == CB_OK && o->special) /* opened first: nothing to leave while a FIFO waits */
        rc = open_special(o, &fd, err);
    if (rc == CB_OK && o->special) { /* the bytes are copied through at commit */
        o->fd1 = fd + 1, fd = -1;
        const char *dir = getenv("TMPDIR");
        char base[4096];
        snprintf(base, sizeof base, "%s/conebench-out", dir && *dir ? dir : "/tmp");
        rc = create_temp(path, base, &o->tmp, &fd, err);
    } else if (rc == CB_OK) {
        rc = create_temp(path, o->target, &o->tmp, &fd, err);
    }
    if (fd >= 0 && close(fd) != 0 && rc == CB_OK)
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "write failed: %s", strerror(errno));
    if (rc != CB_OK)
        cb_outfile_discard(o);
    return rc;
}

/* fsync the file at path (its bytes on disk before the rename makes them visible). */
static int sync_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    int bad = fd < 0 || fsync(fd) != 0;
    if (fd >= 0)
        bad = close(fd) != 0 || bad;
    return bad ? -1 : 0;
}

int cb_outfile_commit(cb_outfile *o, cb_error *err)
{
    int rc = CB_OK;
    if (o->special) {
        char *data = NULL;
        size_t len = 0;
        rc = cb_read_file(o->tmp, (size_t)-1 / 2, &data, &len, err);
        if (rc == CB_OK) {
            rc = write_fd(o, o->fd1 - 1, data, len, err);
            o->fd1 = 0; /* closed by write_fd */
        }
        free(data);
    } else if (o->exists && chmod(o->tmp, o->st.st_mode & 07777) != 0) {
        rc = cb_fail_at(err, CB_ERR_IO, o->path, 0, "cannot keep the mode: %s", strerror(errno));
    } else if (sync_file(o->tmp) != 0) {
        rc = cb_fail_at(err, CB_ERR_IO, o->path, 0, "write failed: %s", strerror(errno));
    } else {
        rc = rename_onto_target(o, err);
    }
    cb_outfile_discard(o);
    return rc;
}

void cb_outfile_discard(cb_outfile *o)
{
    if (!o)
        return;
    if (o->tmp)
        unlink(o->tmp);
    if (o->fd1 > 0)
        close(o->fd1 - 1);
    o->fd1 = 0;
    free(o->tmp);
    free(o->target);
    free(o->path);
    o->tmp = o->target = o->path = NULL;
}

/* A regular (or new) target: the bytes into a temporary file beside it, which replaces it. */
static int write_replace(cb_outfile *o, const char *data, size_t len, cb_error *err)
{
    int fd = -1;
    int rc = create_temp(o->path, o->target, &o->tmp, &fd, err);
    if (rc == CB_OK && o->exists && fchmod(fd, o->st.st_mode & 07777) != 0)
        rc = cb_fail_at(err, CB_ERR_IO, o->path, 0, "cannot keep the mode: %s", strerror(errno));
    if (rc == CB_OK && (cb_write_all(fd, data, len) != 0 || fsync(fd) != 0))
        rc = cb_fail_at(err, CB_ERR_IO, o->path, 0, "write failed: %s", strerror(errno));
    if (fd >= 0 && close(fd) != 0 && rc == CB_OK)
        rc = cb_fail_at(err, CB_ERR_IO, o->path, 0, "write failed: %s", strerror(errno));
    return rc == CB_OK ? rename_onto_target(o, err) : rc;
}

int cb_write_file_atomic(const char *path, const char *data, size_t len, cb_error *err)
{
    cb_outfile o;
    memset(&o, 0, sizeof o);
    int rc = !path || !*path ? cb_fail(err, CB_ERR_INPUT, "output file: empty path") : CB_OK;
    if (rc == CB_OK && !(o.path = cb_strdup(path)))
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
    if (rc == CB_OK)
        rc = resolve_target(&o, err);
    if (rc == CB_OK)
        rc = o.special ? write_through(&o, data, len, err) : write_replace(&o, data, len, err);
    cb_outfile_discard(&o);
    return rc;
}

/* 32 digest bytes → 64 lowercase hex digits + NUL. */
static void to_hex(const unsigned char md[32], char hex[65])
{
    for (unsigned i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

void cb_sha256_buffer(const void *data, size_t len, char hex[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int mdlen = 0;
    hex[0] = '\0';
    if (EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) == 1 && mdlen == 32)
        to_hex(md, hex);
}

int cb_sha256_file(const char *path, char hex[65], cb_error *err)
{
    unsigned char md[EVP_MAX_MD_SIZE], buf[1 << 16];
    unsigned int mdlen = 0;
    int rc = CB_OK;
    hex[0] = '\0';
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    FILE *f = fopen(path, "rb");
    if (!ctx || !f || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        rc = cb_fail_at(err, f ? CB_ERR_IO : open_code(errno), path, 0, "cannot hash: %s",
                        f ? "libcrypto failure" : strerror(errno));
        goto cleanup;
    }
    size_t r;
    while ((r = fread(buf, 1, sizeof buf, f)) > 0)
        if (EVP_DigestUpdate(ctx, buf, r) != 1)
            break;
    if (ferror(f) || !feof(f) || EVP_DigestFinal_ex(ctx, md, &mdlen) != 1 || mdlen != 32) {
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "cannot hash: read or digest failure");
        goto cleanup;
    }
    to_hex(md, hex);
cleanup:
    if (f)
        fclose(f);
    EVP_MD_CTX_free(ctx);
    return rc;
}

int cb_outbuf_open(cb_outbuf *o, cb_error *err)
{
    o->buf = NULL;
    o->len = 0;
    o->f = open_memstream(&o->buf, &o->len);
    return o->f ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
}

/* in[0..n) as one gzip member (zlib's default level, no name, time 0: the same bytes for the
 * same input) in *out (malloc'd); NULL when out of memory. */
static char *gzip_buffer(const char *in, size_t n, size_t *outlen)
{
    z_stream z = {0};
    if (n > UINT_MAX || deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, GZIP_WBITS, 8,
                                     Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    size_t cap = deflateBound(&z, (uLong)n);
    char *out = cap <= UINT_MAX ? malloc(cap) : NULL;
    z.next_in = (unsigned char *)in;
    z.avail_in = (unsigned)n;
    z.next_out = (unsigned char *)out;
    z.avail_out = (unsigned)cap;
    if (out && deflate(&z, Z_FINISH) != Z_STREAM_END) {
        free(out);
        out = NULL;
    }
    *outlen = z.total_out;
    deflateEnd(&z);
    return out;
}

int cb_path_is_gz(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && strcmp(path + n - 3, ".gz") == 0;
}

int cb_outbuf_commit(cb_outbuf *o, const char *path, cb_error *err)
{
    int bad = !o->f || ferror(o->f);
    if (o->f && fclose(o->f) != 0)
        bad = 1;
    o->f = NULL;
    size_t glen = 0;
    char *gz = NULL;
    if (!bad && cb_path_is_gz(path))
        bad = !(gz = gzip_buffer(o->buf ? o->buf : "", o->len, &glen));
    int rc = bad ? cb_fail_at(err, CB_ERR_NOMEM, path, 0, "out of memory")
                 : cb_write_file_atomic(path, gz ? gz : o->buf, gz ? glen : o->len, err);
    free(gz);
    free(o->buf);
    o->buf = NULL;
    o->len = 0;
    return rc;
}

void cb_outbuf_discard(cb_outbuf *o)
{
    if (!o)
        return;
    if (o->f)
        fclose(o->f);
    free(o->buf);
    o->f = NULL;
    o->buf = NULL;
    o->len = 0;
}

/* nftw callback of cb_remove_tree: remove one entry (the top directory only when asked). */
static int tree_keep_top;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag;
    return ftw->level == 0 && tree_keep_top ? 0 : remove(path);
}

int cb_remove_tree(const char *dir, int keep_top)
{
    tree_keep_top = keep_top;
    return nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0 ? 0 : -1;
}

int cb_base64(const void *data, size_t len, char **out)
{
    size_t n = 4 * ((len + 2) / 3) + 1;
    *out = len <= (size_t)INT_MAX / 2 ? malloc(n) : NULL;
    if (!*out)
        return CB_ERR_NOMEM;
    EVP_EncodeBlock((unsigned char *)*out, data, (int)len); /* writes the final NUL */
    return CB_OK;
}
