/* conebench — machine description (machine.txt) and a stable machine id. */
#include "runner.h"

#include <cblas.h>
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conebench/io.h"
#include "conebench/plugin.h"
#include "base.h"
#include "fileio.h"

#ifndef CB_REVISION
#define CB_REVISION "unknown" /* the git revision built; the Makefile defines it */
#endif

/* First "model name" of /proc/cpuinfo. */
static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (!strncmp(line, "model name", 10) && colon) {
            snprintf(buf, len, "%s", colon + 2);
            buf[strcspn(buf, "\n")] = '\0';
            break;
        }
    }
    if (f)
        fclose(f);
}

const char *cb_machine_id(void)
{
    static char id[17];
    if (!id[0]) {
        char model[256], host[256] = "", key[600], hex[65];
        cpu_model(model, sizeof model);
        gethostname(host, sizeof host - 1);
        snprintf(key, sizeof key, "%s|%ld|%s", model, sysconf(_SC_NPROCESSORS_ONLN), host);
        cb_sha256_buffer(key, strlen(key), hex);
        memcpy(id, hex, 16);
    }
    return id;
}

int cb_write_machine_info(const char *path, cb_error *err)
{
    char model[256], buf[2048 + 4200 * 4], hex[65];
    unsigned maj = 0, min = 0, rel = 0;
    cpu_model(model, sizeof model);
    H5get_libversion(&maj, &min, &rel);
    int n = snprintf(buf, sizeof buf,
                     "machine_id: %s\ncpu: %s\ncores: %ld\ncompiler: %s\nopenblas: %s\n"
                     "hdf5: %u.%u.%u\nsiconos-numerics: Debian libsiconos-numerics 4.4\n"
                     "conebench: %s\nrevision: %s\n",
                     cb_machine_id(), model, sysconf(_SC_NPROCESSORS_ONLN), __VERSION__,
                     openblas_get_config(), maj, min, rel, CB_VERSION, CB_REVISION);
    for (int i = 0; i < cb_plugin_count() && n < (int)sizeof buf; i++) /* what ran: the .so */
        n += snprintf(buf + n, sizeof buf - (size_t)n, "plugin: %s sha256 %s\n", cb_plugin_path(i),
                      cb_sha256_file(cb_plugin_path(i), hex, NULL) == CB_OK ? hex : "unreadable");
    n = n < (int)sizeof buf ? n : (int)sizeof buf - 1;
    return cb_write_file_atomic(path, buf, (size_t)n, err);
}

/* The 1-minute load average of /proc/loadavg, NAN when unreadable. */
static double load_1min(void)
{
    double load = NAN;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f && fscanf(f, "%lf", &load) != 1)
        load = NAN;
    if (f)
        fclose(f);
    return load;
}

int cb_note_load(const char *dir, const char *when, cb_error *err)
{
    char path[4096], line[128];
    snprintf(path, sizeof path, "%s/%s", dir, CB_LOAD_FILE);
    int n = snprintf(line, sizeof line, "%s %.2f cores %ld\n", when, load_1min(),
                     sysconf(_SC_NPROCESSORS_ONLN));
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    int bad = fd < 0 || write(fd, line, (size_t)n) != n;
    int e = errno;
    if (fd >= 0 && close(fd) != 0 && !bad)
        bad = 1, e = errno;
    return bad ? cb_fail_at(err, CB_ERR_IO, path, 0, "cannot write: %s", strerror(e)) : CB_OK;
}

int cb_load_exceeded(const char *dir, double *load, long *cores)
{
    char path[4096], when[16];
    double l;
    long c;
    int over = 0;
    *load = NAN, *cores = 0;
    snprintf(path, sizeof path, "%s/%s", dir, CB_LOAD_FILE);
    FILE *f = fopen(path, "r");
    while (f && fscanf(f, "%15s %lf cores %ld", when, &l, &c) == 3)
        if (l > (double)c && !(l <= *load)) { /* the worst line */
            over = 1;
            *load = l, *cores = c;
        }
    if (f)
        fclose(f);
    return over;
}
