/* conebench — campaign files: parse, locate, expand into runs. */
#include "campaign.h"

#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign_internal.h"
#include "conebench/io.h"
#include "conebench/plugin.h"
#include "base.h"
#include "fileio.h"
#include "kv.h"
#include "sequence.h"

#define MAX_TOKENS 64
#define SEED_MAX 1000000000000L /* largest seed of a generate line */
#ifndef CB_SHAREDIR
#define CB_SHAREDIR "/usr/local/share/conebench" /* make install sets it to PREFIX/... */
#endif

/* Directives that may appear once per campaign file. */
static const char *const single_lines[] = {"name", "description", "tol", "max-iter", "time-limit",
                                           "repetitions", "trace", "references",
                                           "warm-start", "threads", "skip-unreadable",
                                           "solutions"};
#define NSINGLE (sizeof single_lines / sizeof *single_lines)

typedef struct {
    const char *file;
    long line;
    char *tok[MAX_TOKENS];
    int ntok;
    const char *gen_dir;
    long seen[NSINGLE]; /* the line of each single directive, 0: not yet */
} parse_ctx;

static int is_dir(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* 1 when dir holds plots/ and campaigns/ (a conebench source tree or an installed share
 * folder). */
static int is_home(const char *dir)
{
    char a[4200], b[4200];
    snprintf(a, sizeof a, "%s/plots", dir);
    snprintf(b, sizeof b, "%s/campaigns", dir);
    return is_dir(a) && is_dir(b);
}

/* The first home candidate beside the executable: its folder's parent (bin/conebench or
 * build-x/conebench in a source tree), then PREFIX/share/conebench for PREFIX/bin/conebench
 * (installed; relocatable). 1 when found (into home). */
static int home_beside_exe(char *home, size_t len)
{
    char exe[2048], cand[2100];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    for (int cut = 0; cut < 2; cut++) { /* ROOT/bin/conebench: cut twice */
        char *slash = strrchr(exe, '/');
        if (!slash || slash == exe)
            return 0;
        *slash = '\0';
    }
    const char *tails[] = {"", "/share/conebench"};
    for (int t = 0; t < 2; t++) {
        snprintf(cand, sizeof cand, "%s%s", exe, tails[t]);
        if (is_home(cand)) {
            snprintf(home, len, "%s", cand);
            return 1;
        }
    }
    return 0;
}

const char *cb_home_dir(void)
{
    static char home[4096];
    if (home[0])
        return home;
    const char *env = getenv("CONEBENCH_HOME");
    if (env && *env)
        snprintf(home, sizeof home, "%s", env);
    else if (is_home(".") || !home_beside_exe(home, sizeof home))
        snprintf(home, sizeof home, "%s",
                 is_home(".") || !is_home(CB_SHAREDIR) ? "." : CB_SHAREDIR);
    return home;
}

const char *cb_data_dir(void)
{
    static char beside[4200];
    const char *env = getenv("CONEBENCH_DATA");
    if (env && *env)
        return is_dir(env) ? env : NULL;
    if (is_dir("../shared/data"))
        return "../shared/data";
    snprintf(beside, sizeof beside, "%s/../shared/data", cb_home_dir());
    return is_dir(beside) ? beside : NULL;
}

int cb_campaign_locate(const char *name, char *buf, size_t len, cb_error *err)
{
    size_t n = strlen(name);
    int is_path = strchr(name, '/') || (n > 5 && strcmp(name + n - 5, ".conf") == 0);
    int w = is_path ? snprintf(buf, len, "%s", name)
                    : snprintf(buf, len, "%s/campaigns/%s.conf", cb_home_dir(), name);
    if (w < 0 || (size_t)w >= len)
        return cb_fail(err, CB_ERR_INPUT, "campaign: name too long");
    struct stat st;
    if (stat(buf, &st) != 0 || !S_ISREG(st.st_mode))
        return cb_fail_at(err, CB_ERR_INPUT, buf, 0,
                          "no such campaign file (see conebench list campaigns)");
    return CB_OK;
}

/* Make room for element `count`: capacity doubles whenever count is 0 or a power of two. */
static int grow(void **arr, int count, size_t elem)
{
    if (count != 0 && (count & (count - 1)) != 0)
        return CB_OK;
    size_t cap = count ? (size_t)count * 2 : 2;
    void *p = realloc(*arr, cap * elem);
    if (!p)
        return CB_ERR_NOMEM;
    *arr = p;
    return CB_OK;
}

/* Room for n more problems within CB_CAMPAIGN_MAX_PROBLEMS (asked before allocating). */
static int room_for(const cb_campaign *c, const parse_ctx *x, long n, cb_error *err)
{
    if (n <= CB_CAMPAIGN_MAX_PROBLEMS - c->nproblems)
        return CB_OK;
    return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "%s: %ld more problems would make %ld; "
                      "a campaign holds at most %ld problems", x->tok[0], n,
                      (long)c->nproblems + n, CB_CAMPAIGN_MAX_PROBLEMS);
}

static int add_problem(cb_campaign *c, const char *path, const char *name,
                       const cb_random_settings *gen)
{
    if (grow((void **)&c->problems, c->nproblems, sizeof *c->problems) != CB_OK)
        return CB_ERR_NOMEM;
    cb_campaign_problem *p = &c->problems[c->nproblems];
    memset(p, 0, sizeof *p);
    p->scenario = -1;
    p->path = cb_strdup(path);
    p->name = cb_strdup(name);
    cb_read_settings_default(&p->read);
    if (gen) {
        p->generated = 1;
        p->gen = *gen;
        p->read.force_kind = 1;
        p->read.kind = gen->kind;
    }
    c->nproblems++;
    return p->path && p->name ? CB_OK : CB_ERR_NOMEM;
}


/* Display name of a file a `**` pattern found: its path below the pattern's root (rel), without
 * a .dat, .hdf5 or .h5 extension (a/b/step1 and c/step1 stay two names). */
static void rel_name(const char *rel, char *buf, size_t len)
{
    char *dot;
    snprintf(buf, len, "%s", rel);
    if ((dot = strrchr(buf, '.')) && dot > buf && dot[-1] != '/' && !strchr(dot, '/') &&
        (!strcmp(dot, ".dat") || !strcmp(dot, ".hdf5") || !strcmp(dot, ".h5")))
        *dot = '\0';
}

/* Display name of a file: its base name without extension. */
static void base_name(const char *path, char *buf, size_t len)
{
    const char *b = strrchr(path, '/');
    rel_name(b ? b + 1 : path, buf, len);
}

/* Expand globs (relative to prefix; `**` for any folders) into file problems; a glob matching
 * nothing is an error.
 * A final kind=K applies to every file of the line. */
static int add_globs(cb_campaign *c, parse_ctx *x, const char *prefix, cb_error *err)
{
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    if (x->ntok > 2 && !strncmp(x->tok[x->ntok - 1], "kind=", 5)) {
        if (cb_kind_parse(x->tok[x->ntok - 1] + 5, &rs.kind) != CB_OK)
            return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "kind: unknown '%s'",
                              x->tok[x->ntok - 1] + 5);
        rs.force_kind = 1;
        x->ntok--;
    }
    int first = c->nproblems;
    for (int t = 1; t < x->ntok; t++) {
        char pattern[4096], name[512];
        snprintf(pattern, sizeof pattern, "%s%s%s", prefix ? prefix : "", prefix ? "/" : "",
                 x->tok[t]);
        char **paths = NULL;
        size_t n = 0;
        int rc = cb_campaign_glob(pattern, &paths, &n);
        if (rc != CB_OK)
            return rc == CB_ERR_NOMEM ? cb_fail(err, rc, "campaign: out of memory")
                                      : cb_fail_at(err, CB_ERR_INPUT, x->file, x->line,
                                                   "no file matches '%s'", pattern);
        if (room_for(c, x, (long)n, err) != CB_OK) {
            cb_campaign_glob_free(paths, n);
            return CB_ERR_INPUT;
        }
        size_t root = cb_campaign_glob_root(pattern); /* names: the paths below it */
        for (size_t i = 0; i < n && rc == CB_OK; i++) {
            base_name(paths[i], name, sizeof name);
            if (root || strstr(pattern, "**") == pattern)
                rel_name(paths[i] + root, name, sizeof name);
            rc = add_problem(c, paths[i], name, NULL);
        }
        cb_campaign_glob_free(paths, n);
        if (rc != CB_OK)
            return cb_fail(err, CB_ERR_NOMEM, "campaign: out of memory");
    }
    for (int i = first; i < c->nproblems; i++)
        c->problems[i].read = rs;
    return CB_OK;
}

static int parse_num(parse_ctx *x, const char *what, const char *s, double lo, double hi,
                     double *out, cb_error *err)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v) || v < lo || v > hi)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "%s: '%s' is not a number in "
                          "[%g, %g]", what, s, lo, hi);
    *out = v;
    return CB_OK;
}

#define CAMPAIGN_MU_MAX 10.0 /* largest mu= of a generate line */

/* One key=value of a `generate random` line into the settings (seeds handled by the caller). */
static int gen_key(parse_ctx *x, const char *k, const char *v, cb_random_settings *g,
                   cb_error *err)
{
    double d = 0; /* set by parse_num before use (-O3 cannot see it) */
    int rc = CB_OK;
    if (!strcmp(k, "kind")) {
        if (cb_kind_parse(v, &g->kind) != CB_OK)
            rc = cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "kind: unknown '%s'", v);
    } else if (!strcmp(k, "nc")) {
        if ((rc = parse_num(x, "nc", v, 1, 1e8, &d, err)) == CB_OK)
            g->nc = (int)d;
    } else if (!strcmp(k, "matrix")) {
        if (strcmp(v, "multibody") && strcmp(v, "spd"))
            rc = cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "matrix: '%s' is not "
                            "multibody or spd", v);
        g->matrix = v[0] == 'm' ? CB_GEN_MULTIBODY : CB_GEN_SPD;
    } else if (!strcmp(k, "cond")) {
        rc = parse_num(x, "cond", v, 1, 1e300, &g->cond, err);
    } else if (!strcmp(k, "density")) {
        rc = parse_num(x, "density", v, 0, 1, &g->density, err);
    } else if (!strcmp(k, "storage")) {
        if (strcmp(v, "bsr") && strcmp(v, "dense"))
            rc = cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "storage: '%s'", v);
        g->storage = v[0] == 'b' ? CB_STORAGE_BSR : CB_STORAGE_DENSE;
    } else if (!strcmp(k, "semidefinite")) {
        if ((rc = parse_num(x, "semidefinite", v, 0, 1, &d, err)) == CB_OK)
            g->semidefinite = (int)d;
    } else if (!strcmp(k, "bodies")) {
        if ((rc = parse_num(x, "bodies", v, 1, 2e8, &d, err)) == CB_OK)
            g->bodies = (int)d;
    } else if (!strcmp(k, "mu")) { /* one μ for every contact (else drawn per contact) */
        if ((rc = parse_num(x, "mu", v, 0, CAMPAIGN_MU_MAX, &d, err)) == CB_OK)
            g->mu_min = g->mu_max = d;
    } else {
        rc = cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "generate: unknown key '%s'", k);
    }
    return rc;
}

/* seeds=A or A..B: 0 <= A <= B <= SEED_MAX. */
static int parse_seeds(parse_ctx *x, const char *v, long *s0, long *s1, cb_error *err)
{
    char *end = NULL;
    errno = 0;
    *s0 = strtol(v, &end, 10);
    *s1 = *s0;
    if (end != v && !strncmp(end, "..", 2)) {
        const char *b = end + 2;
        *s1 = strtol(b, &end, 10);
        if (end == b)
            end = (char *)v; /* "A.." */
    }
    if (end == v || *end || errno || *s0 < 0 || *s1 < *s0 || *s1 > SEED_MAX)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "seeds: '%s': want A or A..B with "
                          "0 <= A <= B <= %ld", v, SEED_MAX);
    return CB_OK;
}

/* The k=v words of a generate line: each key once; seeds apart, the rest into g. */
static int generate_keys(parse_ctx *x, cb_random_settings *g, long *s0, long *s1, cb_error *err)
{
    int rc = CB_OK;
    for (int t = 2; t < x->ntok && rc == CB_OK; t++) {
        char *eq = strchr(x->tok[t], '=');
        if (!eq)
            return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "'%s' is not key=value",
                              x->tok[t]);
        *eq = '\0';
        for (int u = 2; u < t; u++)
            if (!strcmp(x->tok[u], x->tok[t]))
                return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "generate: key '%s' given "
                                  "twice", x->tok[t]);
        rc = !strcmp(x->tok[t], "seeds") ? parse_seeds(x, eq + 1, s0, s1, err)
                                         : gen_key(x, x->tok[t], eq + 1, g, err);
    }
    return rc;
}

/* generate random k=v... seeds=A..B */
static int parse_generate(cb_campaign *c, parse_ctx *x, cb_error *err)
{
    if (x->ntok < 2 || strcmp(x->tok[1], "random") != 0)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "generate: only 'random'");
    cb_random_settings g, def;
    cb_random_settings_default(&g);
    cb_random_settings_default(&def);
    long s0 = 1, s1 = 1;
    int rc = generate_keys(x, &g, &s0, &s1, err);
    if (rc == CB_OK)
        rc = room_for(c, x, s1 - s0 + 1, err);
    char tag[48] = ""; /* mu= and bodies= given: in the name (one problem per value) */
    if (g.mu_min == g.mu_max && def.mu_min != def.mu_max)
        snprintf(tag, sizeof tag, "-mu%g", g.mu_min);
    if (g.bodies > 0)
        snprintf(tag + strlen(tag), sizeof tag - strlen(tag), "-b%d", g.bodies);
    for (long s = s0; s <= s1 && rc == CB_OK; s++) {
        char name[256], path[4096];
        g.seed = (uint64_t)s;
        snprintf(name, sizeof name, "random-%s-nc%d-%s%s-s%ld", cb_kind_name(g.kind), g.nc,
                 g.matrix == CB_GEN_SPD ? "spd" : "mb", tag, s);
        snprintf(path, sizeof path, "%s/%s.dat", x->gen_dir ? x->gen_dir : ".", name);
        if (add_problem(c, path, name, &g) != CB_OK)
            rc = cb_fail(err, CB_ERR_NOMEM, "campaign: out of memory");
    }
    return rc;
}

#define STEPS_MAX 100000L

static int long_cmp(const void *x, const void *y)
{
    long a = *(const long *)x, b = *(const long *)y;
    return (a > b) - (a < b);
}

/* Parse one item "A" or "A:B:S" into first/last/stride (stride 1 for a single step). */
static int step_item(const char *tok, long v[3], cb_error *err)
{
    char *end = NULL;
    int k = 0;
    v[2] = 1;
    for (const char *s = tok; k < 3; s = end + 1) {
        errno = 0;
        long x = strtol(s, &end, 10);
        if (end == s || errno || x < 1 || x > 1000000000L)
            return cb_fail(err, CB_ERR_INPUT, "steps: '%s': expected an integer in [1, 1e9]", tok);
        v[k++] = x;
        if (*end != ':')
            break;
    }
    if (*end != '\0' || k == 2)
        return cb_fail(err, CB_ERR_INPUT, "steps: '%s': expected STEP or FIRST:LAST:STRIDE", tok);
    if (k == 1)
        v[1] = v[0];
    if (v[1] < v[0])
        return cb_fail(err, CB_ERR_INPUT, "steps: '%s': LAST is before FIRST", tok);
    return CB_OK;
}

/* Count the steps of a list (errors name the item). */
static int steps_count(char *copy, long *count, cb_error *err)
{
    char *save = NULL;
    long v[3], total = 0;
    int rc = CB_OK;
    for (char *t = strtok_r(copy, ",", &save); t && rc == CB_OK; t = strtok_r(NULL, ",", &save)) {
        rc = step_item(t, v, err);
        total += rc == CB_OK ? (v[1] - v[0]) / v[2] + 1 : 0;
        if (rc == CB_OK && total > STEPS_MAX)
            rc = cb_fail(err, CB_ERR_INPUT, "steps: more than %ld steps", STEPS_MAX);
    }
    if (rc == CB_OK && total == 0)
        rc = cb_fail(err, CB_ERR_INPUT, "steps: empty list");
    *count = total;
    return rc;
}

int cb_steps_parse(const char *list, long **steps, int *n, cb_error *err)
{
    *steps = NULL;
    *n = 0;
    long count = 0, v[3];
    char *copy = list ? cb_strdup(list) : NULL, *save = NULL;
    int rc = !list ? cb_fail(err, CB_ERR_INPUT, "steps: missing")
             : copy ? steps_count(copy, &count, err)
                    : cb_fail(err, CB_ERR_NOMEM, "steps: out of memory");
    long *out = rc == CB_OK ? cb_malloc_array((size_t)count, sizeof *out) : NULL;
    if (rc == CB_OK && !out)
        rc = cb_fail(err, CB_ERR_NOMEM, "steps: out of memory");
    int m = 0;
    if (rc == CB_OK) {
        strcpy(copy, list); /* strtok_r consumed the first copy */
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            step_item(t, v, err);
            for (long s = v[0]; s <= v[1]; s += v[2])
                out[m++] = s;
        }
        qsort(out, (size_t)m, sizeof *out, long_cmp);
        int u = 0;
        for (int k = 0; k < m; k++)
            if (u == 0 || out[k] != out[u - 1])
                out[u++] = out[k];
        *steps = out, *n = u, out = NULL;
    }
    free(out);
    free(copy);
    return rc;
}

/* Append "-WORD" to the tag (len bytes, *kt used) with '=', '/' and ' ' written '_'. */
static void tag_word(char *tag, size_t len, size_t *kt, const char *word)
{
    if (*kt + 1 < len)
        tag[(*kt)++] = '-';
    for (const char *q = word; *q && *kt + 1 < len; q++)
        tag[(*kt)++] = (*q == '=' || *q == '/' || *q == ' ') ? '_' : *q;
    tag[*kt] = '\0';
}

/* A new scenario line record: name, parameters (copied), steps and output folder. */
static int add_scenario(cb_campaign *c, const parse_ctx *x, const char *dir, long *steps, int n)
{
    if (grow((void **)&c->scenarios, c->nscenarios, sizeof *c->scenarios) != CB_OK)
        return CB_ERR_NOMEM;
    cb_campaign_scenario *sl = &c->scenarios[c->nscenarios++];
    memset(sl, 0, sizeof *sl);
    sl->steps = steps, sl->nsteps = n;
    sl->name = cb_strdup(x->tok[1]);
    sl->dir = cb_strdup(dir);
    if (!sl->name || !sl->dir)
        return CB_ERR_NOMEM;
    int rc = CB_OK;
    for (int t = 2; t < x->ntok && rc == CB_OK; t++)
        if (strncmp(x->tok[t], "steps=", 6) && strncmp(x->tok[t], "read_kind=", 10))
            rc = cb_kv_parse(&sl->params, x->tok[t], NULL); /* k=v checked by the caller */
    return rc;
}

static int add_sequence(cb_campaign *c, const char *dir, const char *name,
                        const cb_read_settings *rs, int scenario, int nsteps);

/* scenario NAME [k=v]... steps=A,B,...: one problem per step, NAME-<params>-stepN; as_sequence
 * (`sequence scenario ...`, x without its first word): one sequence of those steps instead,
 * written to GEN_DIR/seq-NAME-<params>. */
static int parse_scenario(cb_campaign *c, parse_ctx *x, int as_sequence, cb_error *err)
{
    char tag[512], dir[4096], path[4700], name[700];
    const char *steps = NULL;
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    if (x->ntok < 3)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "scenario: NAME [k=v]... steps=LIST");
    size_t kt = (size_t)snprintf(tag, sizeof tag, "%s", x->tok[1]);
    for (int t = 2; t < x->ntok; t++) {
        if ((!strncmp(x->tok[t], "steps=", 6) && steps) ||
            (!strncmp(x->tok[t], "read_kind=", 10) && rs.force_kind))
            return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "scenario: %.*s given twice",
                              (int)strcspn(x->tok[t], "="), x->tok[t]);
        if (!strncmp(x->tok[t], "steps=", 6)) {
            steps = x->tok[t] + 6;
            continue;
        }
        if (!strncmp(x->tok[t], "read_kind=", 10)) { /* d = 3 files: coulomb3d or rolling2d */
            if (cb_kind_parse(x->tok[t] + 10, &rs.kind) != CB_OK)
                return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "read_kind: unknown '%s'",
                                  x->tok[t] + 10);
            rs.force_kind = 1;
            continue;
        }
        if (!strchr(x->tok[t], '=') || x->tok[t][0] == '=')
            return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "'%s' is not key=value", x->tok[t]);
        tag_word(tag, sizeof tag, &kt, x->tok[t]);
    }
    if (!steps || !*steps)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "scenario: steps=LIST is required");
    snprintf(dir, sizeof dir, "%s/%s%s", x->gen_dir ? x->gen_dir : ".", as_sequence ? "seq-" : "",
             tag);
    long *list = NULL;
    int nsteps = 0;
    cb_error serr = {0};
    if (cb_steps_parse(steps, &list, &nsteps, &serr) != CB_OK)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "%s", serr.text);
    if (room_for(c, x, as_sequence ? 0 : nsteps, err) != CB_OK) {
        free(list);
        return CB_ERR_INPUT;
    }
    int rc = add_scenario(c, x, dir, list, nsteps);
    if (rc == CB_OK && as_sequence)
        rc = add_sequence(c, dir, tag, &rs, c->nscenarios - 1, nsteps);
    for (int k = 0; rc == CB_OK && !as_sequence && k < nsteps; k++) {
        snprintf(path, sizeof path, "%s/%s-step%ld.dat", dir, x->tok[1], list[k]);
        snprintf(name, sizeof name, "%s-step%ld", tag, list[k]);
        rc = add_problem(c, path, name, NULL);
        cb_campaign_problem *p = &c->problems[c->nproblems - 1];
        p->read = rs;
        p->scenario = c->nscenarios - 1;
    }
    return rc == CB_OK ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "campaign: out of memory");
}

/* loop NAME [k=v]...: the scenario's parameters (checked against the scenario by
 * cb_campaign_check); its tag NAME-k_v-... names it in loops.csv and the report. */
static int parse_loop(cb_campaign *c, parse_ctx *x, cb_error *err)
{
    char tag[512];
    if (x->ntok < 2)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "loop: NAME [k=v]...");
    if (grow((void **)&c->loops, c->nloops, sizeof *c->loops) != CB_OK)
        return cb_fail(err, CB_ERR_NOMEM, "campaign: out of memory");
    cb_campaign_loop *l = &c->loops[c->nloops++];
    memset(l, 0, sizeof *l);
    l->line = x->line;
    size_t kt = (size_t)snprintf(tag, sizeof tag, "%s", x->tok[1]);
    for (int t = 2; t < x->ntok; t++) {
        cb_error e = {{0}};
        int rc = cb_kv_parse(&l->params, x->tok[t], &e);
        if (rc != CB_OK)
            return cb_fail_at(err, rc, x->file, x->line, "%s", e.text);
        tag_word(tag, sizeof tag, &kt, x->tok[t]);
    }
    l->name = cb_strdup(x->tok[1]);
    l->tag = cb_strdup(tag);
    return l->name && l->tag ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "campaign: out of memory");
}

/* solver NAME [k=v]... [label=L]; the label defaults to the words, or to the value of a name=
 * option when there is one (the external solver's: `solver external name=mine cmd=...`). */
static int parse_solver(cb_campaign *c, parse_ctx *x, cb_error *err)
{
    if (x->ntok < 2)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "solver: missing name");
    if (grow((void **)&c->solvers, c->nsolvers, sizeof *c->solvers) != CB_OK)
        return cb_fail(err, CB_ERR_NOMEM, "campaign: out of memory");
    cb_campaign_solver *s = &c->solvers[c->nsolvers++];
    memset(s, 0, sizeof *s);
    s->solver = cb_strdup(x->tok[1]);
    char label[1024];
    const char *named = NULL;
    size_t k = (size_t)snprintf(label, sizeof label, "%s", x->tok[1]);
    for (int t = 2; t < x->ntok; t++) {
        cb_error e = {{0}};
        if (!strncmp(x->tok[t], "label=", 6)) {
            if (s->label)
                return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "solver: label= given "
                                  "twice");
            s->label = cb_strdup(x->tok[t] + 6);
            continue;
        }
        if (s->options.n == CB_CAMPAIGN_MAX_OPTIONS)
            return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "solver: too many options");
        int rc = cb_kv_parse(&s->options, x->tok[t], &e);
        if (rc != CB_OK)
            return cb_fail_at(err, rc, x->file, x->line, "%s", e.text);
        if (k < sizeof label)
            k += (size_t)snprintf(label + k, sizeof label - k, " %s", x->tok[t]);
        if (!strncmp(x->tok[t], "name=", 5) && x->tok[t][5])
            named = x->tok[t] + 5;
    }
    if (named)
        snprintf(label, sizeof label, "%s", named);
    if (!s->label)
        s->label = cb_strdup(label);
    return s->solver && s->label ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
}

/* Scalar directives: tol, max-iter, time-limit, repetitions, threads, trace, name, description. */
static int parse_scalar(cb_campaign *c, parse_ctx *x, cb_error *err)
{
    const char *d = x->tok[0];
    double v = 0; /* set by parse_num before use (-O3 cannot see it) */
    int rc = CB_OK;
    if (x->ntok < 2)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "%s: missing value", d);
    if (!strcmp(d, "tol")) {
        c->ntols = 0;
        for (int t = 1; t < x->ntok && rc == CB_OK; t++) {
            if (c->ntols == CB_CAMPAIGN_MAX_TOLS)
                return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "tol: at most %d",
                                  CB_CAMPAIGN_MAX_TOLS);
            rc = parse_num(x, "tol", x->tok[t], 1e-300, 1, &c->tols[c->ntols++], err);
            for (int u = 0; rc == CB_OK && u < c->ntols - 1; u++)
                if (c->tols[u] == c->tols[c->ntols - 1])
                    rc = cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "tol: %s is given twice "
                                    "(as %s and %s)", x->tok[t], x->tok[u + 1], x->tok[t]);
        }
    } else if (!strcmp(d, "max-iter")) {
        if ((rc = parse_num(x, "max-iter", x->tok[1], 1, 2e9, &v, err)) == CB_OK)
            c->max_iter = (int)v;
    } else if (!strcmp(d, "time-limit")) {
        rc = parse_num(x, "time-limit", x->tok[1], 1e-3, 1e6, &c->time_limit, err);
    } else if (!strcmp(d, "repetitions")) {
        if ((rc = parse_num(x, "repetitions", x->tok[1], 1, 1000, &v, err)) == CB_OK)
            c->repetitions = (int)v;
    } else if (!strcmp(d, "threads")) {
        if ((rc = parse_num(x, "threads", x->tok[1], 1, CB_THREADS_MAX, &v, err)) == CB_OK)
            c->threads = (int)v;
    } else if (!strcmp(d, "trace") || !strcmp(d, "solutions")) {
        if (x->ntok != 2 || (strcmp(x->tok[1], "on") && strcmp(x->tok[1], "off")))
            return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "%s: on or off", d);
        *(d[0] == 't' ? &c->trace : &c->solutions) = !strcmp(x->tok[1], "on");
    } else {
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "unknown directive '%s'", d);
    }
    return rc;
}

/* `references DIR`: the folder of reference files (relative to the campaign file's folder
 * unless absolute); it must be a directory. */
/* buf = word taken relative to the campaign file's folder unless absolute. */
static void relative_path(const parse_ctx *x, const char *word, char *buf, size_t len)
{
    const char *slash = strrchr(x->file, '/');
    int k = word[0] == '/' || !slash ? 0 : (int)(slash - x->file);
    snprintf(buf, len, "%.*s%s%s", k, x->file, k ? "/" : "", word);
}

static int parse_references(cb_campaign *c, parse_ctx *x, cb_error *err)
{
    char dir[4096];
    struct stat st;
    if (x->ntok != 2)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "references: one folder");
    relative_path(x, x->tok[1], dir, sizeof dir);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "references: %s is not a folder",
                          dir);
    free(c->references);
    c->references = cb_strdup(dir);
    return c->references ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
}

/* `plugin PATH`: load a solver plugin (relative to the campaign file's folder unless absolute)
 * now, so that the solver lines below can name its solvers. */
static int parse_plugin(parse_ctx *x, cb_error *err)
{
    char path[4096];
    cb_error e = {{0}};
    if (x->ntok != 2)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "plugin: one shared object");
    relative_path(x, x->tok[1], path, sizeof path);
    int rc = cb_plugin_load(path, &e);
    return rc == CB_OK ? CB_OK : cb_fail_at(err, rc, x->file, x->line, "%s", e.text);
}

static const char *const warm_names[CB_WARM_COUNT] = {"cold", "previous", "mapped"};

const char *cb_warm_name(cb_warm_mode m)
{
    return (unsigned)m < CB_WARM_COUNT ? warm_names[m] : "?";
}

/* warm-start MODE...: each of cold, previous, mapped at most once. */
static int parse_warm(cb_campaign *c, parse_ctx *x, cb_error *err)
{
    if (x->ntok < 2)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "warm-start: MODE... (cold, "
                          "previous, mapped)");
    c->nwarm = 0;
    for (int t = 1; t < x->ntok; t++) {
        int m = 0;
        while (m < CB_WARM_COUNT && strcmp(x->tok[t], warm_names[m]))
            m++;
        if (m == CB_WARM_COUNT)
            return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "warm-start: unknown mode '%s' "
                              "(cold, previous or mapped)", x->tok[t]);
        for (int u = 0; u < c->nwarm; u++)
            if (c->warm[u] == (cb_warm_mode)m)
                return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "warm-start: %s is given "
                                  "twice", x->tok[t]);
        c->warm[c->nwarm++] = (cb_warm_mode)m;
    }
    return CB_OK;
}

static int add_sequence(cb_campaign *c, const char *dir, const char *name,
                        const cb_read_settings *rs, int scenario, int nsteps)
{
    if (grow((void **)&c->sequences, c->nsequences, sizeof *c->sequences) != CB_OK)
        return CB_ERR_NOMEM;
    cb_campaign_sequence *q = &c->sequences[c->nsequences++];
    memset(q, 0, sizeof *q);
    q->dir = cb_strdup(dir);
    q->name = cb_strdup(name);
    q->read = *rs;
    q->scenario = scenario;
    q->nsteps = nsteps;
    return q->dir && q->name ? CB_OK : CB_ERR_NOMEM;
}

/* The first missing sequence folder, for the note of `run` ("DIR (FILE:LINE)"). */
static int note_missing(cb_campaign *c, const parse_ctx *x, const char *dir)
{
    char note[4400];
    if (c->sequences_missing++)
        return CB_OK;
    snprintf(note, sizeof note, "%s (%s:%ld)", dir, x->file, x->line);
    c->missing_sequence = cb_strdup(note);
    return c->missing_sequence ? CB_OK : CB_ERR_NOMEM;
}

/* sequence DIR [read_kind=K] | sequence scenario NAME [k=v]... steps=LIST [read_kind=K]. A folder
 * that is absent is skipped (noted); one that is not a sequence is refused here. */
static int parse_sequence(cb_campaign *c, parse_ctx *x, cb_error *err)
{
    cb_read_settings rs;
    cb_read_settings_default(&rs);
    if (x->ntok >= 2 && !strcmp(x->tok[1], "scenario")) {
        parse_ctx y = *x;
        for (int t = 1; t < x->ntok; t++)
            y.tok[t - 1] = x->tok[t];
        y.ntok = x->ntok - 1;
        return parse_scenario(c, &y, 1, err);
    }
    if (x->ntok == 3 && !strncmp(x->tok[2], "read_kind=", 10)) {
        if (cb_kind_parse(x->tok[2] + 10, &rs.kind) != CB_OK)
            return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "read_kind: unknown '%s'",
                              x->tok[2] + 10);
        rs.force_kind = 1;
    } else if (x->ntok != 2) {
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "sequence: DIR [read_kind=K] or "
                          "sequence scenario NAME [key=value]... steps=LIST");
    }
    if (!is_dir(x->tok[1]))
        return note_missing(c, x, x->tok[1]) == CB_OK ? CB_OK : cb_fail(err, CB_ERR_NOMEM,
                                                                         "out of memory");
    cb_sequence *seq = NULL;
    cb_error e = {{0}};
    char name[512];
    int rc = cb_sequence_open(x->tok[1], &seq, &e);
    if (rc != CB_OK)
        return cb_fail_at(err, rc == CB_ERR_NOMEM ? rc : CB_ERR_INPUT, x->file, x->line,
                          "sequence: %s", e.text);
    size_t n = strlen(x->tok[1]);
    while (n > 1 && x->tok[1][n - 1] == '/')
        n--;
    snprintf(name, sizeof name, "%.*s", (int)n, x->tok[1]);
    const char *slash = strrchr(name, '/');
    rc = add_sequence(c, seq->dir, slash ? slash + 1 : name, &rs, -1, seq->nsteps);
    cb_sequence_free(seq);
    return rc == CB_OK ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
}

/* Join tokens 1.. with spaces (for name/description). */
static char *join_rest(parse_ctx *x)
{
    size_t n = 1;
    for (int t = 1; t < x->ntok; t++)
        n += strlen(x->tok[t]) + 1;
    char *s = calloc(n, 1);
    for (int t = 1; s && t < x->ntok; t++) {
        if (t > 1)
            strcat(s, " ");
        strcat(s, x->tok[t]);
    }
    return s;
}

/* A directive that may appear once: refused the second time, naming the first line. */
static int once(parse_ctx *x, cb_error *err)
{
    for (size_t i = 0; i < NSINGLE; i++) {
        if (strcmp(x->tok[0], single_lines[i]) != 0)
            continue;
        if (x->seen[i])
            return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "%s: already given at line %ld "
                              "(one %s line per campaign)", x->tok[0], x->seen[i], x->tok[0]);
        x->seen[i] = x->line;
    }
    return CB_OK;
}

static int parse_line(cb_campaign *c, parse_ctx *x, cb_error *err)
{
    const char *d = x->tok[0];
    if (once(x, err) != CB_OK)
        return CB_ERR_INPUT;
    if (!strcmp(d, "name") || !strcmp(d, "description")) {
        char **dst = d[0] == 'n' ? &c->name : &c->description;
        free(*dst);
        *dst = join_rest(x);
        return *dst ? CB_OK : cb_fail(err, CB_ERR_NOMEM, "out of memory");
    }
    if (!strcmp(d, "problem"))
        return add_globs(c, x, NULL, err);
    if (!strcmp(d, "data")) {
        const char *dir = cb_data_dir();
        if (!dir) {
            c->data_missing = 1;
            return CB_OK;
        }
        return add_globs(c, x, dir, err);
    }
    if (!strcmp(d, "skip-unreadable")) {
        c->skip_unreadable = 1;
        return x->ntok == 1 ? CB_OK : cb_fail_at(err, CB_ERR_INPUT, x->file, x->line,
                                                 "skip-unreadable: takes no value");
    }
    if (!strcmp(d, "generate"))
        return parse_generate(c, x, err);
    if (!strcmp(d, "scenario"))
        return parse_scenario(c, x, 0, err);
    if (!strcmp(d, "sequence"))
        return parse_sequence(c, x, err);
    if (!strcmp(d, "warm-start"))
        return parse_warm(c, x, err);
    if (!strcmp(d, "solver"))
        return parse_solver(c, x, err);
    if (!strcmp(d, "loop"))
        return parse_loop(c, x, err);
    if (!strcmp(d, "references"))
        return parse_references(c, x, err);
    if (!strcmp(d, "plugin"))
        return parse_plugin(x, err);
    return parse_scalar(c, x, err);
}

/* Split a line into whitespace-separated words, in place; a "double-quoted" stretch keeps its
 * spaces and '#' (the quotes are dropped: cmd="python3 my.py {problem}" is one word); '#'
 * outside quotes starts a comment. */
static int tokenize(char *line, parse_ctx *x, cb_error *err)
{
    char *r = line, *w = line;
    int quoted = 0, in_word = 0;
    x->ntok = 0;
    while (*r && (quoted || *r != '#')) {
        if (!quoted && strchr(" \t\r", *r)) {
            *w++ = '\0';
            r++;
            in_word = 0;
            continue;
        }
        if (!in_word) {
            if (x->ntok == MAX_TOKENS)
                return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "too many words");
            x->tok[x->ntok++] = w;
            in_word = 1;
        }
        if (*r == '"')
            quoted = !quoted, r++;
        else
            *w++ = *r++;
    }
    *w = '\0';
    return quoted ? cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "unterminated \" quote")
                  : CB_OK;
}

/* Whole-file checks and defaults (the lines themselves are checked by cb_campaign_check). */
static int check_campaign(cb_campaign *c, const char *path, cb_error *err)
{
    if (c->nsolvers == 0)
        return cb_fail(err, CB_ERR_INPUT, "%s: no solver directive (add `solver NAME`)", path);
    if (c->nproblems == 0 && c->nloops == 0 && c->nsequences == 0 && !c->data_missing &&
        !c->sequences_missing)
        return cb_fail(err, CB_ERR_INPUT, "%s: no problem, data, generate, scenario, sequence or "
                       "loop directive", path);
    if (c->nwarm == 0)
        c->warm[c->nwarm++] = CB_WARM_COLD;
    if (c->ntols == 0)
        c->tols[c->ntols++] = 1e-8;
    if (!c->name) {
        char name[256];
        base_name(path, name, sizeof name);
        char *dot = strrchr(name, '.');
        if (dot)
            *dot = '\0';
        c->name = cb_strdup(name);
    }
    return c->name ? CB_OK : CB_ERR_NOMEM;
}

/* At most CB_CAMPAIGN_MAX_RUNS runs so far (an absent tol line counts as its one default). */
static int runs_bound(const cb_campaign *c, const parse_ctx *x, cb_error *err)
{
    long per = (long)c->nsolvers * (c->ntols ? c->ntols : 1) * c->repetitions;
    long runs = per * (c->nproblems + (long)c->nsequences * (c->nwarm ? c->nwarm : 1));
    long loops = (long)c->nloops * (per + 1);
    if (loops > CB_CAMPAIGN_MAX_LOOP_RUNS)
        return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "%s: the campaign now has %ld "
                          "loop trajectories (%d loop lines x (%ld + 1 reference)); at most %ld",
                          x->tok[0], loops, c->nloops, per, CB_CAMPAIGN_MAX_LOOP_RUNS);
    if (runs <= CB_CAMPAIGN_MAX_RUNS)
        return CB_OK;
    char what[128] = "";
    if (c->nsequences) /* the runs of sequences: their count times the warm-start modes */
        snprintf(what, sizeof what, ", plus %d sequences x %d warm-start modes x the same",
                 c->nsequences, c->nwarm ? c->nwarm : 1);
    return cb_fail_at(err, CB_ERR_INPUT, x->file, x->line, "%s: the campaign now has %ld runs "
                      "(%d problems x %d solvers x %d tolerances x %d repetitions%s); at most "
                      "%ld", x->tok[0], runs, c->nproblems, c->nsolvers, c->ntols ? c->ntols : 1,
                      c->repetitions, what, CB_CAMPAIGN_MAX_RUNS);
}

typedef struct {
    const char *name;
    long line;
    int index;
} named_line;

static int cmp_named(const void *a, const void *b)
{
    const named_line *p = a, *q = b;
    int d = strcmp(p->name, q->name);
    return d ? d : (p->index > q->index) - (p->index < q->index);
}

/* The name given twice whose second use comes first: its entries in *first and *second (1), or
 * 0 when every name of v[0..n) is unique. Sorts v. */
static int find_twice(named_line *v, int n, named_line *first, named_line *second)
{
    int found = 0;
    qsort(v, (size_t)n, sizeof *v, cmp_named);
    for (int i = 1; i < n; i++)
        if (!strcmp(v[i].name, v[i - 1].name) && (!found || v[i].index < second->index)) {
            *first = v[i - 1], *second = v[i];
            found = 1;
        }
    return found;
}

/* Two loop lines with one tag (scenario and parameters): their trajectories would share ids. */
static int check_unique_loops(const cb_campaign *c, cb_error *err)
{
    for (int i = 1; i < c->nloops; i++)
        for (int k = 0; k < i; k++)
            if (!strcmp(c->loops[i].tag, c->loops[k].tag))
                return cb_fail_at(err, CB_ERR_INPUT, c->path, c->loops[i].line, "loop '%s' is "
                                  "already given at line %ld (one loop line per scenario and "
                                  "parameter set)", c->loops[i].tag, c->loops[k].line);
    return CB_OK;
}

/* Two problems with one name, or two solver lines with one label: their runs would have one run
 * id (sha256 of problem name|label|tol|rep). */
static int check_unique(const cb_campaign *c, cb_error *err)
{
    int np = c->nproblems + c->nsequences, n = np > c->nsolvers ? np : c->nsolvers;
    named_line *v = malloc(((size_t)n + 1) * sizeof *v), a = {0}, b = {0};
    if (!v)
        return cb_fail(err, CB_ERR_NOMEM, "out of memory");
    int rc = CB_OK;
    for (int i = 0; i < c->nproblems; i++)
        v[i] = (named_line){c->problems[i].name, c->problems[i].line, i};
    for (int i = 0; i < c->nsequences; i++) /* a sequence's name is its rows' problem */
        v[c->nproblems + i] = (named_line){c->sequences[i].name, c->sequences[i].line,
                                           c->nproblems + i};
    if (find_twice(v, np, &a, &b))
        rc = a.line == b.line
                 ? cb_fail_at(err, CB_ERR_INPUT, c->path, b.line, "problem '%s' is listed twice "
                              "on this line (one problem, one name)", b.name)
                 : cb_fail_at(err, CB_ERR_INPUT, c->path, b.line, "problem '%s' is already listed "
                              "at line %ld (one problem, one name)", b.name, a.line);
    for (int i = 0; rc == CB_OK && i < c->nsolvers; i++)
        v[i] = (named_line){c->solvers[i].label, c->solvers[i].line, i};
    if (rc == CB_OK && find_twice(v, c->nsolvers, &a, &b))
        rc = cb_fail_at(err, CB_ERR_INPUT, c->path, b.line, "solver label '%s' is already used at "
                        "line %ld (give each solver line its own label=)", b.name, a.line);
    free(v);
    return rc == CB_OK ? check_unique_loops(c, err) : rc;
}

/* Parse every line of text; new problems and solvers remember their line. */
static int parse_lines(cb_campaign *c, parse_ctx *x, char *text, cb_error *err)
{
    int rc = CB_OK;
    for (char *line = text, *next; rc == CB_OK && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        x->line++;
        int np = c->nproblems, ns = c->nsolvers, nq = c->nsequences;
        rc = tokenize(line, x, err);
        if (rc == CB_OK && x->ntok > 0)
            rc = parse_line(c, x, err);
        for (int i = np; i < c->nproblems; i++)
            c->problems[i].line = x->line;
        for (int i = ns; i < c->nsolvers; i++)
            c->solvers[i].line = x->line;
        for (int i = nq; i < c->nsequences; i++)
            c->sequences[i].line = x->line;
        if (rc == CB_OK && x->ntok > 0)
            rc = runs_bound(c, x, err);
    }
    return rc == CB_OK ? check_unique(c, err) : rc;
}

int cb_campaign_read(const char *path, const char *gen_dir, cb_campaign **out, cb_error *err)
{
    char *text = NULL;
    size_t len = 0;
    *out = NULL;
    int rc = cb_read_file(path, 1 << 20, &text, &len, err);
    if (rc == CB_OK && (rc = cb_text_check(path, text, len, err)) != CB_OK)
        free(text); /* a NUL byte would end the campaign silently */
    if (rc != CB_OK)
        return rc;
    cb_campaign *c = calloc(1, sizeof *c);
    parse_ctx x = {path, 0, {0}, 0, gen_dir, {0}};
    if (!c || !(c->path = cb_strdup(path)) || !(c->text = cb_strdup(text))) {
        rc = cb_fail(err, CB_ERR_NOMEM, "out of memory");
        goto cleanup;
    }
    c->max_iter = 10000;
    c->time_limit = 10;
    c->repetitions = 1;
    c->threads = 1;
    c->trace = 1;
    rc = parse_lines(c, &x, text, err);
    if (rc == CB_OK)
        rc = check_campaign(c, path, err);
cleanup:
    free(text);
    if (rc != CB_OK)
        cb_campaign_free(c);
    else
        *out = c;
    return rc;
}

void cb_campaign_free(cb_campaign *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->nproblems; i++) {
        free(c->problems[i].path);
        free(c->problems[i].name);
    }
    for (int i = 0; i < c->nscenarios; i++) {
        cb_campaign_scenario *sl = &c->scenarios[i];
        cb_kv_list_free(&sl->params);
        free(sl->steps);
        free(sl->name);
        free(sl->dir);
    }
    free(c->scenarios);
    for (int i = 0; i < c->nloops; i++) {
        cb_kv_list_free(&c->loops[i].params);
        free(c->loops[i].name);
        free(c->loops[i].tag);
    }
    free(c->loops);
    for (int i = 0; i < c->nsequences; i++) {
        free(c->sequences[i].dir);
        free(c->sequences[i].name);
    }
    free(c->sequences);
    free(c->missing_sequence);
    free(c->skipped);
    for (int i = 0; i < c->nsolvers; i++) {
        free(c->solvers[i].solver);
        free(c->solvers[i].label);
        cb_kv_list_free(&c->solvers[i].options);
    }
    free(c->problems);
    free(c->solvers);
    free(c->name);
    free(c->description);
    free(c->references);
    free(c->path);
    free(c->text);
    free(c);
}

void cb_campaign_settings(const cb_campaign *c, int si, int ti, cb_settings *s)
{
    cb_settings_default(s);
    s->tol = c->tols[ti];
    s->max_iter = c->max_iter;
    s->time_limit = c->time_limit;
    s->trace = c->trace;
    s->threads = c->threads;
    s->options = c->solvers[si].options.items;
    s->noptions = c->solvers[si].options.n;
}

/* Runs of the problems (the first indices). */
static long problem_runs(const cb_campaign *c)
{
    return (long)c->nproblems * c->nsolvers * c->ntols * c->repetitions;
}

long cb_campaign_nruns(const cb_campaign *c)
{
    return problem_runs(c) +
           (long)c->nsequences * c->nwarm * c->nsolvers * c->ntols * c->repetitions;
}

/* Sequence run j (0-based after the problems' runs): sequence, solver, tol, mode, rep. */
static void sequence_run(const cb_campaign *c, long j, cb_run_ref *r)
{
    char key[2048], hex[65];
    r->rep = (int)(j % c->repetitions);
    j /= c->repetitions;
    r->warm = (int)c->warm[j % c->nwarm];
    j /= c->nwarm;
    r->tol = (int)(j % c->ntols);
    j /= c->ntols;
    r->solver = (int)(j % c->nsolvers);
    r->sequence = (int)(j / c->nsolvers);
    r->problem = -1;
    snprintf(key, sizeof key, "sequence|%s|%s|%.17g|%s|%d", c->sequences[r->sequence].name,
             c->solvers[r->solver].label, c->tols[r->tol], cb_warm_name((cb_warm_mode)r->warm),
             r->rep);
    cb_sha256_buffer(key, strlen(key), hex);
    memcpy(r->id, hex, 16);
    r->id[16] = '\0';
}

void cb_campaign_run(const cb_campaign *c, long i, cb_run_ref *r)
{
    r->index = i;
    r->sequence = -1;
    r->warm = CB_WARM_COLD;
    if (i >= problem_runs(c)) {
        sequence_run(c, i - problem_runs(c), r);
        return;
    }
    r->rep = (int)(i % c->repetitions);
    i /= c->repetitions;
    r->tol = (int)(i % c->ntols);
    i /= c->ntols;
    r->solver = (int)(i % c->nsolvers);
    r->problem = (int)(i / c->nsolvers);
    char key[2048], hex[65];
    snprintf(key, sizeof key, "%s|%s|%.17g|%d", c->problems[r->problem].name,
             c->solvers[r->solver].label, c->tols[r->tol], r->rep);
    cb_sha256_buffer(key, strlen(key), hex);
    memcpy(r->id, hex, 16);
    r->id[16] = '\0';
}
