/* conebench — one process at a time in a results directory: flock(2) on the directory itself
 * (runner.h), and the temporary files of killed processes removed once the lock is held. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "base.h"

#define LOCK_WAIT_S 3.0    /* how long a lock left by a dead process's dying children is awaited */
#define LOCK_POLL_NS 20000000L /* between two attempts: 20 ms */

/* The pid holding a flock on the inode of st (/proc/locks), 0 when unknown. */
static long lock_holder(const struct stat *st)
{
    FILE *f = fopen("/proc/locks", "r");
    char line[256], kind[16], arrow[8];
    long pid = 0;
    while (f && pid == 0 && fgets(line, sizeof line, f)) {
        unsigned maj = 0, min = 0;
        unsigned long ino = 0;
        long p = 0;
        if (sscanf(line, "%*d: %7s", arrow) == 1 && !strcmp(arrow, "->"))
            continue; /* a waiter, not the holder */
        if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%lu", kind, &p, &maj, &min, &ino) == 5 &&
            !strcmp(kind, "FLOCK") && ino == (unsigned long)st->st_ino &&
            maj == major(st->st_dev) && min == minor(st->st_dev))
            pid = p;
    }
    if (f)
        fclose(f);
    return pid;
}

/* 1 when pid names a live process. */
static int alive(long pid)
{
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* Try the lock: 0 taken, 1 held by another process (*holder: its pid, 0 unknown), -1 error
 * (errno). A lock held for a process that is gone (its children, killed with it, still exiting)
 * is tried again for LOCK_WAIT_S. */
static int try_lock(int fd, const struct stat *st, long *holder)
{
    struct timespec pause = {0, LOCK_POLL_NS};
    for (double waited = 0;; waited += 1e-9 * (double)LOCK_POLL_NS) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return 0;
        if (errno != EWOULDBLOCK)
            return -1;
        *holder = lock_holder(st);
        if (alive(*holder) || waited >= LOCK_WAIT_S)
            return 1;
        nanosleep(&pause, NULL);
    }
}

/* 1 for the errors of a file system that has no flock on directories (NFS emulates flock with
 * POSIX locks, which need a file open for writing). */
static int unlockable(int e)
{
    return e == EBADF || e == ENOLCK || e == EOPNOTSUPP || e == EINVAL;
}

int cb_results_dir_lock(const char *dir, int *fd, cb_error *err)
{
    struct stat st;
    long holder = 0;
    *fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (*fd < 0)
        return cb_fail(err, errno == ENOENT || errno == ENOTDIR ? CB_ERR_INPUT : CB_ERR_IO,
                       "%s: %s", dir, errno == ENOENT ? "no such directory"
                                      : errno == ENOTDIR ? "not a directory" : strerror(errno));
    int got = fstat(*fd, &st) == 0 ? try_lock(*fd, &st, &holder) : -1, e = errno;
    char pid[32] = "";
    if (holder > 0)
        snprintf(pid, sizeof pid, " (pid %ld)", holder);
    if (got < 0 && unlockable(e)) { /* e.g. NFS: work on unlocked, saying so */
        fprintf(stderr, "conebench: warning: %s: this file system does not lock directories "
                        "(%s): nothing keeps a second conebench process out of it\n", dir,
                strerror(e));
        got = 0;
    }
    if (got == 1)
        cb_fail(err, CB_ERR_IO, "%s is in use by another conebench process%s: wait until it "
                "ends, or choose another directory", dir, pid);
    else if (got < 0)
        cb_fail(err, CB_ERR_IO, "%s: cannot lock: %s", dir, strerror(e));
    if (got != 0) {
        close(*fd);
        *fd = -1;
    }
    return got == 0 ? CB_OK : CB_ERR_IO;
}

void cb_results_dir_unlock(int fd)
{
    if (fd >= 0)
        close(fd); /* the lock goes with the last descriptor of this open directory */
}

static long removed_temps;

/* nftw: remove a regular file named as cb_write_file_atomic's temporary files. */
static int remove_temp(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    if (flag == FTW_F && S_ISREG(st->st_mode) && cb_is_temp_name(path + ftw->base) &&
        unlink(path) == 0)
        removed_temps++;
    return 0;
}

int cb_results_dir_clean(const char *dir, long *removed, cb_error *err)
{
    removed_temps = 0;
    int rc = nftw(dir, remove_temp, 16, FTW_PHYS) == 0
                 ? CB_OK
                 : cb_fail_at(err, CB_ERR_IO, dir, 0, "cannot list: %s", strerror(errno));
    *removed = removed_temps;
    return rc;
}
