/* conebench — file patterns of campaign `problem` and `data` lines: glob(3) patterns, plus a
 * `**` path component that stands for any number of folders (zero included), as in shells'
 * globstar: the pattern fclib, `**`, `*.hdf5` joined by slashes is every .hdf5 file at any
 * depth under fclib. */
#include "campaign_internal.h"

#include <dirent.h>
#include <fnmatch.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base.h"

#define WALK_DEPTH 64 /* folders below a `**` root followed at most (a guard against loops) */

typedef struct {
    char **v;
    size_t n, cap;
    const char *tail; /* the pattern after the `**` component ("" when it ends the pattern) */
} path_list;

static int push(path_list *l, const char *path)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return CB_ERR_NOMEM;
        l->v = v, l->cap = cap;
    }
    return (l->v[l->n] = cb_strdup(path)) ? (l->n++, CB_OK) : CB_ERR_NOMEM;
}

/* rel (a path below the `**` root) matches when the tail matches rel or a suffix of rel that
 * starts after one of its '/' (the folders `**` stands for). */
static int tail_matches(const char *tail, const char *rel)
{
    if (!*tail)
        return 1;
    for (const char *s = rel; s; s = strchr(s, '/') ? strchr(s, '/') + 1 : NULL)
        if (fnmatch(tail, s, FNM_PATHNAME | FNM_PERIOD) == 0)
            return 1;
    return 0;
}

/* Every regular file (or link to one) under dir, depth first; folders reached through a
 * symbolic link are not entered. rel_at: where the path below the root starts. */
static int walk(path_list *l, const char *dir, size_t rel_at, int depth)
{
    DIR *d = depth < WALK_DEPTH ? opendir(dir) : NULL;
    struct dirent *e;
    int rc = CB_OK;
    while (d && rc == CB_OK && (e = readdir(d))) {
        char path[4200];
        struct stat ls, st;
        if (e->d_name[0] == '.')
            continue; /* ., .. and hidden entries, as glob(3) leaves them */
        int top = !strcmp(dir, "."); /* a pattern beginning with `**`: paths without "./" */
        snprintf(path, sizeof path, "%s%s%s", top ? "" : dir, top ? "" : "/", e->d_name);
        if (lstat(path, &ls) != 0)
            continue;
        if (S_ISDIR(ls.st_mode))
            rc = walk(l, path, rel_at, depth + 1);
        else if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && tail_matches(l->tail, path + rel_at))
            rc = push(l, path);
    }
    if (d)
        closedir(d);
    return rc;
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* pattern = HEAD**TAIL: the folders HEAD matches (glob), each walked for TAIL. */
static int expand_globstar(const char *pattern, const char *star, path_list *l)
{
    char head[4200];
    size_t h = (size_t)(star - pattern);
    snprintf(head, sizeof head, "%.*s", (int)h, pattern);
    if (h && head[h - 1] == '/')
        head[--h] = '\0';
    l->tail = star[2] == '/' ? star + 3 : star + 2;
    glob_t g;
    int rc = glob(h ? head : ".", GLOB_ONLYDIR, NULL, &g) == 0 ? CB_OK : CB_ERR_INPUT;
    for (size_t i = 0; rc == CB_OK && i < g.gl_pathc; i++)
        rc = walk(l, g.gl_pathv[i], h ? strlen(g.gl_pathv[i]) + 1 : 0, 0);
    globfree(&g);
    if (rc == CB_OK && l->n > 1)
        qsort(l->v, l->n, sizeof *l->v, cmp_path);
    return rc;
}

size_t cb_campaign_glob_root(const char *pattern)
{
    const char *star = strstr(pattern, "**");
    size_t h = star ? (size_t)(star - pattern) : 0;
    if (!star || (h && star[-1] != '/') || (star[2] != '/' && star[2]))
        return 0;
    return strcspn(pattern, "*?[") < h ? 0 : h;
}

int cb_campaign_glob(const char *pattern, char ***paths, size_t *n)
{
    path_list l = {NULL, 0, 0, ""};
    const char *star = strstr(pattern, "**");
    int rc = CB_OK;
    if (star && (star == pattern || star[-1] == '/') && (star[2] == '/' || !star[2])) {
        rc = expand_globstar(pattern, star, &l);
    } else {
        glob_t g;
        rc = glob(pattern, 0, NULL, &g) == 0 ? CB_OK : CB_ERR_INPUT;
        for (size_t i = 0; rc == CB_OK && i < g.gl_pathc; i++)
            rc = push(&l, g.gl_pathv[i]);
        globfree(&g);
    }
    if (rc == CB_OK && l.n == 0)
        rc = CB_ERR_INPUT;
    if (rc != CB_OK) {
        cb_campaign_glob_free(l.v, l.n);
        l.v = NULL, l.n = 0;
    }
    *paths = l.v;
    *n = l.n;
    return rc;
}

void cb_campaign_glob_free(char **paths, size_t n)
{
    for (size_t i = 0; paths && i < n; i++)
        free(paths[i]);
    free(paths);
}
