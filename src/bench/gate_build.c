/* conebench — the gate's baseline binary: git revision REV built in a worktree under
 * build-baseline/<commit>/ of the repository, once (later checks reuse it). */
#include "gate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conebench/io.h"
#include "gate_internal.h"
#include "base.h"
#include "fileio.h"

#define GIT_DEADLINE_S 120.0
#define BUILD_DEADLINE_S 1800.0
#define BUILT_STAMP ".conebench-baseline-built"

/* Run a git command in the working directory; its first output line into out. */
static int git_line(char *const argv[], char *out, size_t len, cb_error *err)
{
    char *text = NULL;
    int status = -1, rc = cb_gate_command(argv, GIT_DEADLINE_S, &text, &status, err);
    if (rc == CB_OK && status != 0)
        rc = cb_fail(err, CB_ERR_INPUT, "`git %s %s`: %.*s", argv[1], argv[2] ? argv[2] : "",
                     text ? (int)strcspn(text, "\n") : 0, text ? text : "");
    if (rc == CB_OK)
        snprintf(out, len, "%.*s", (int)strcspn(text ? text : "", "\n"), text ? text : "");
    free(text);
    return rc;
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* git worktree add --detach DIR SHA (after pruning worktrees whose folder is gone). */
static int add_worktree(const char *top, const char *dir, const char *sha, cb_error *err)
{
    char *prune[] = {"git", "-C", (char *)top, "worktree", "prune", NULL};
    char *add[] = {"git", "-C", (char *)top, "worktree", "add", "--detach", "--force",
                   (char *)dir, (char *)sha, NULL};
    char *text = NULL;
    int status = -1, rc = cb_gate_command(prune, GIT_DEADLINE_S, NULL, &status, err);
    if (rc == CB_OK && !exists(dir))
        rc = cb_gate_command(add, GIT_DEADLINE_S, &text, &status, err);
    if (rc == CB_OK && status != 0)
        rc = cb_fail(err, CB_ERR_IO, "git worktree add %s: %.300s", dir, text ? text : "");
    free(text);
    return rc;
}

/* make -C DIR bin/conebench, output into DIR.log; a failure shows the log's end. */
static int build_tree(const char *dir, cb_error *err)
{
    char log[4400], *text = NULL, *make[] = {"make", "-C", (char *)dir, "-j2", "bin/conebench",
                                               NULL};
    int status = -1, rc = cb_gate_command(make, BUILD_DEADLINE_S, &text, &status, err);
    snprintf(log, sizeof log, "%s.log", dir);
    if (rc == CB_OK && text)
        cb_write_file_atomic(log, text, strlen(text), NULL);
    if (rc == CB_OK && status != 0) {
        size_t n = text ? strlen(text) : 0;
        rc = cb_fail(err, CB_ERR_IO, "building the baseline failed (log: %s): ...%s", log,
                     n > 400 ? text + n - 400 : (text ? text : ""));
    }
    free(text);
    return rc;
}

int cb_gate_baseline_binary(const char *rev, int progress, char *bin, size_t len,
                            char sha_out[41], cb_error *err)
{
    char top[4096], sha[128], spec[4200], dir[4300], stamp[4400];
    char *toplevel[] = {"git", "rev-parse", "--show-toplevel", NULL};
    char *verify[] = {"git", "rev-parse", "--verify", "--quiet", spec, NULL};
    snprintf(spec, sizeof spec, "%s^{commit}", rev);
    int rc = git_line(toplevel, top, sizeof top, err);
    if (rc != CB_OK)
        return cb_fail(err, CB_ERR_INPUT, "--against %s: not inside a git checkout", rev);
    if (git_line(verify, sha, sizeof sha, err) != CB_OK || strlen(sha) != 40)
        return cb_fail(err, CB_ERR_INPUT, "--against %s: no such git revision here", rev);
    memcpy(sha_out, sha, 40); /* strlen(sha) == 40 checked above */
    sha_out[40] = '\0';
    snprintf(dir, sizeof dir, "%s/build-baseline/%s", top, sha);
    snprintf(stamp, sizeof stamp, "%s/%s", dir, BUILT_STAMP);
    if (snprintf(bin, len, "%s/bin/conebench", dir) >= (int)len)
        return cb_fail(err, CB_ERR_INPUT, "--against: path too long");
    if (exists(stamp) && access(bin, X_OK) == 0)
        return CB_OK;
    if (progress)
        fprintf(stderr, "conebench: building the baseline %s (%.12s) in %s (once; later checks "
                        "reuse it)\n", rev, sha, dir);
    snprintf(spec, sizeof spec, "%s/build-baseline", top);
    if (mkdir(spec, 0777) != 0 && errno != EEXIST)
        return cb_fail_at(err, CB_ERR_IO, spec, 0, "cannot create: %s", strerror(errno));
    rc = add_worktree(top, dir, sha, err);
    if (rc == CB_OK)
        rc = build_tree(dir, err);
    if (rc == CB_OK)
        rc = cb_write_file_atomic(stamp, sha, strlen(sha), err);
    return rc;
}

int cb_gate_head_revision(int allow_dirty, char sha[41], cb_error *err)
{
    char line[256];
    char *head[] = {"git", "rev-parse", "--verify", "HEAD", NULL};
    char *dirty[] = {"git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                     ":(exclude)results/baseline", NULL};
    int rc = git_line(head, line, sizeof line, err);
    if (rc != CB_OK || strlen(line) != 40)
        return cb_fail(err, CB_ERR_INPUT, "the baseline records a git revision: not inside a git "
                                          "checkout with a commit");
    memcpy(sha, line, 40); /* strlen(line) == 40 checked above */
    sha[40] = '\0';
    rc = git_line(dirty, line, sizeof line, err);
    if (rc == CB_OK && line[0] && !allow_dirty)
        rc = cb_fail(err, CB_ERR_INPUT, "uncommitted changes (%s ...): the baseline records the "
                     "revision that produced it, so commit first (or --force)", line);
    return rc;
}
