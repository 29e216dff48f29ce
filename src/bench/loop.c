/* conebench — solvers inside the time loop (loop.h): one child per trajectory, its step series
 * written by the child, its summary and final positions sent to the parent, drifts against the
 * line's reference computed when every trajectory has ended, loops.csv written at once. */
#include "loop.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "analytic.h"
#include "base.h"
#include "child.h"
#include "fileio.h"
#include "scenario_registry.h"
#include "sim_csv.h"
#include "timestepper.h"
#include "vec3.h"

#define RAD_TO_DEG 57.29577951308232 /* 180 / π */
#define STOP_CHECK_S 0.02            /* the longest wait for a child before the stop flag */
#define SERIES_HEADER "step,t,nc,iterations,cpu_s,solve_s,error,solved,x,y\n"

/* One trajectory: which line, solver settings, and what its child answered. */
typedef struct {
    int loop;                /* index of its loop line */
    const cb_solver *solver;
    cb_settings set;         /* tolerance, limits and options of every step */
    cb_loop_row row;
    double *x;               /* final positions, 3 per body (NULL: none) */
    int nbodies;
    double r_min;            /* smallest bounding radius of a dynamic body */
} traj;

typedef struct {
    const cb_campaign *c;
    const cb_runner_settings *s;
    traj *t;
    long n;
    FILE *errlog;
} loops_ctx;

/* What the step hook keeps: the series file, the clock of the last step, the final state, the
 * subject's start and the ground-plane axes of its path (subject < 0: no path). */
typedef struct {
    FILE *f;
    double cpu_last, solve_s;
    cb_body *last;
    int nbodies;
    int subject;
    double x0[3], along[3], across[3];
} hook_ctx;

/* The path axes of scen into h: travel, and the unit travel × gravity (in the ground's plane,
 * across the travel); subject -1 when the scenario has no subject or no such plane. */
static void path_axes(const cb_scenario *scen, hook_ctx *h)
{
    v3_cross(scen->travel, scen->gravity, h->across);
    double na = v3_norm(h->across);
    h->subject = scen->subject >= 0 && scen->subject < scen->nbodies && na > 0 ? scen->subject
                                                                               : -1;
    if (h->subject < 0)
        return;
    v3_scale(h->across, 1.0 / na, h->across);
    v3_copy(scen->travel, h->along);
    v3_copy(scen->bodies[h->subject].x, h->x0);
}

/* The subject's position in the ground plane: (x − x₀)·travel and (x − x₀)·across (NaN, NaN
 * without a path). */
static void path_point(const hook_ctx *h, const cb_body *bodies, double *px, double *py)
{
    double d[3];
    *px = *py = NAN;
    if (h->subject < 0)
        return;
    v3_axpy(bodies[h->subject].x, -1.0, h->x0, d);
    *px = v3_dot(d, h->along);
    *py = v3_dot(d, h->across);
}

/* Per step: its row of the series; the state is kept (the last one is the trajectory's end). */
static int step_hook(void *ctx, const cb_system *sys, const cb_mj_work *w,
                     const cb_step_record *rec)
{
    (void)w;
    hook_ctx *h = ctx;
    double now = cb_process_cpu_now(), px, py;
    path_point(h, sys->bodies, &px, &py);
    fprintf(h->f, "%ld,%.10g,%d,%d,%.6e,%.6e,%.6e,%d,%.17g,%.17g\n", rec->step, rec->t, rec->nc,
            rec->iterations, now - h->cpu_last, rec->time_solve, rec->nc ? rec->error : 0.0,
            rec->solved, px, py);
    h->cpu_last = now;
    h->solve_s += rec->time_solve;
    memcpy(h->last, sys->bodies, (size_t)h->nbodies * sizeof *h->last);
    return 0;
}

/* CPU seconds of the reaped children of this process (a solve server's, once it is freed). */
static double children_cpu(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* The closed-form stop distance of a sphere/disk-on-plane scenario (NaN for the others). */
static double closed_stop(const cb_scenario *scen)
{
    cb_sphere_plane_params p;
    cb_sphere_plane_solution sol;
    if (!(scen->outputs & CB_OUT_STOP) || cb_sim_analytic_params(scen, &p, NULL) != CB_OK ||
        cb_sphere_plane_solve(&p, scen->t_end, &sol, NULL) != CB_OK || !sol.stops)
        return NAN;
    return sol.x_stop;
}

/* Smallest bounding radius of a dynamic body (the scale of the position drift). */
static double smallest_radius(const cb_scenario *scen)
{
    double r = INFINITY;
    for (int k = 0; k < scen->nbodies; k++)
        if (!scen->bodies[k].fixed)
            r = fmin(r, cb_shape_bounding_radius(&scen->bodies[k].shape));
    return r;
}

/* The summary line "L ..." and the positions line "X ..." of a finished trajectory. */
static void send_summary(int fd, const cb_scenario *scen, const cb_run_result *res,
                         const hook_ctx *h, double cpu)
{
    const cb_scenario_summary *m = &res->summary;
    int pile = (scen->outputs & CB_OUT_PILE) != 0, stop = (scen->outputs & CB_OUT_STOP) != 0;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return;
    fprintf(f, "L %ld %ld %ld %lld %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g "
               "%.17g %.17g %.17g %.17g %.17g %d\nX",
            res->steps, res->unsolved, res->time_limited, res->iterations, res->max_nc, res->t,
            cpu, h->solve_s, res->max_error,
            cb_bodies_energy(scen->bodies, scen->nbodies, NULL, scen->gravity),
            cb_bodies_energy(h->last, h->nbodies, NULL, scen->gravity),
            stop ? m->x_stop : NAN, stop ? m->t_stop : NAN, closed_stop(scen),
            pile ? m->height_over_phi : NAN, pile ? m->mean_radius_over_phi : NAN,
            stop ? m->d_stop : NAN, stop ? m->heading_deg : NAN, smallest_radius(scen),
            h->nbodies);
    for (int k = 0; k < h->nbodies; k++)
        fprintf(f, " %.17g %.17g %.17g", h->last[k].x[0], h->last[k].x[1], h->last[k].x[2]);
    fprintf(f, "\n");
    if (fclose(f) == 0)
        cb_write_all(fd, buf, len);
    free(buf);
}

/* The trajectory in a child: build, run with the series hook, write the series file, answer. */
typedef struct {
    const loops_ctx *x;
    const traj *t;
} child_arg;

/* Run the scenario of trajectory t with its series going to h->f. */
static int trajectory(const loops_ctx *x, const traj *t, cb_scenario *scen, hook_ctx *h,
                      cb_run_result *res, cb_error *err)
{
    const cb_campaign_loop *l = &x->c->loops[t->loop];
    int rc = cb_scenario_build(cb_scenario_find(l->name), l->params.items, l->params.n, scen,
                               err);
    if (rc != CB_OK)
        return rc;
    h->nbodies = scen->nbodies;
    h->last = cb_malloc_array((size_t)scen->nbodies, sizeof *h->last);
    if (!h->last)
        return cb_fail(err, CB_ERR_NOMEM, "loop: out of memory");
    memcpy(h->last, scen->bodies, (size_t)scen->nbodies * sizeof *h->last);
    scen->tol = t->set.tol; /* the run takes h, θ and tol from the scenario */
    cb_run_settings rs;
    cb_run_settings_default(&rs);
    rs.mj.solver = t->solver;
    rs.mj.solve = t->set;
    path_axes(scen, h);
    fprintf(h->f, SERIES_HEADER);
    h->cpu_last = cb_process_cpu_now();
    return cb_nonsmooth_run(scen, &rs, step_hook, h, res, err);
}

static int loop_child(void *arg, int fd)
{
    const child_arg *a = arg;
    char path[4200], msg[CB_ERROR_LEN + 8];
    cb_scenario scen;
    cb_run_result res;
    cb_outbuf o = {0};
    hook_ctx h = {0};
    cb_error err = {{0}};
    memset(&scen, 0, sizeof scen);
    snprintf(path, sizeof path, "%s/%s/%s.csv", a->x->s->outdir, CB_LOOP_DIR, a->t->row.id);
    double cpu0 = cb_process_cpu_now();
    int rc = cb_outbuf_open(&o, &err);
    if (rc == CB_OK) {
        h.f = o.f;
        rc = trajectory(a->x, a->t, &scen, &h, &res, &err);
    }
    if (rc == CB_OK)
        rc = cb_outbuf_commit(&o, path, &err);
    if (rc == CB_OK)
        send_summary(fd, &scen, &res, &h, cb_process_cpu_now() - cpu0 + children_cpu());
    else
        cb_write_all(fd, msg, (size_t)snprintf(msg, sizeof msg, "E %s\n", err.text));
    cb_outbuf_discard(&o);
    cb_scenario_free(&scen);
    free(h.last);
    return rc == CB_OK ? 0 : 1;
}

/* Row fields known before running: ids, names, tolerance; numbers NaN until answered. */
static void row_init(const cb_campaign_loop *l, const char *solver, const char *label,
                     double tol, int rep, int reference, cb_loop_row *r)
{
    char key[1400], hex[65];
    memset(r, 0, sizeof *r);
    snprintf(r->loop, sizeof r->loop, "%s", l->tag);
    snprintf(r->scenario, sizeof r->scenario, "%s", l->name);
    snprintf(r->solver, sizeof r->solver, "%s", solver);
    snprintf(r->label, sizeof r->label, "%s", label);
    for (char *p = r->label; *p; p++)
        *p = *p == ',' || *p == '\n' ? ';' : *p; /* one CSV field */
    r->tol = tol, r->rep = rep, r->reference = reference;
    snprintf(key, sizeof key, "loop|%s|%s|%.17g|%d", l->tag, label, tol, rep);
    cb_sha256_buffer(key, strlen(key), hex);
    memcpy(r->id, hex, 16);
    snprintf(r->status, sizeof r->status, "crashed");
    r->t_end = r->cpu_s = r->solve_s = r->max_error = r->energy0 = r->energy_end = NAN;
    r->x_stop = r->t_stop = r->x_stop_closed = r->x_stop_err = NAN;
    r->d_stop = r->d_stop_closed = r->heading_deg = NAN;
    r->height_over_phi = r->mean_radius_over_phi = r->pile_angle_deg = NAN;
    r->drift_pos = r->drift_pos_rel = r->drift_energy = NAN;
}

/* The trajectories of every loop line: its reference first, then solver × tol × repetition. */
static int make_trajs(loops_ctx *x, const cb_solver *(*find)(const char *), cb_error *err)
{
    const cb_campaign *c = x->c;
    long per = (long)c->nsolvers * c->ntols * c->repetitions;
    const cb_solver *ref = find(CB_LOOP_REF_SOLVER);
    if (!ref)
        return cb_fail(err, CB_ERR_INTERNAL, "loop: the reference solver %s is not registered",
                       CB_LOOP_REF_SOLVER);
    x->n = (long)c->nloops * (per + 1);
    x->t = cb_calloc((size_t)x->n, sizeof *x->t);
    if (!x->t)
        return cb_fail(err, CB_ERR_NOMEM, "loop: out of memory");
    long k = 0;
    for (int l = 0; l < c->nloops; l++) {
        traj *t = &x->t[k++];
        t->loop = l, t->solver = ref;
        cb_settings_default(&t->set);
        t->set.tol = CB_LOOP_REF_TOL;
        t->set.max_iter = c->max_iter > CB_LOOP_REF_MAX_ITER ? c->max_iter : CB_LOOP_REF_MAX_ITER;
        t->set.time_limit = 0; /* no step budget: every step as exact as it gets */
        t->set.trace = 0;
        row_init(&c->loops[l], ref->name, "reference", CB_LOOP_REF_TOL, 0, 1, &t->row);
        for (long i = 0; i < per; i++) {
            int rep = (int)(i % c->repetitions), ti = (int)(i / c->repetitions % c->ntols);
            int si = (int)(i / c->repetitions / c->ntols);
            t = &x->t[k++];
            t->loop = l, t->solver = find(c->solvers[si].solver);
            cb_campaign_settings(c, si, ti, &t->set);
            t->set.trace = 0;
            row_init(&c->loops[l], c->solvers[si].solver, c->solvers[si].label, c->tols[ti], rep,
                     0, &t->row);
        }
    }
    return CB_OK;
}

/* The child's "L" and "X" lines into t (0), or -1 when they are not whole. */
static int parse_answer(const char *data, traj *t)
{
    cb_loop_row *r = &t->row;
    double e[10];
    int n = 0, used = 0;
    if (sscanf(data, "L %ld %ld %ld %lld %d %lg %lg %lg %lg %lg %lg %lg %lg %lg %lg %lg %lg %lg "
                     "%lg %d %n", &r->steps, &r->unsolved, &r->time_limited, &r->iterations,
               &r->max_nc, &r->t_end, &r->cpu_s, &r->solve_s, &r->max_error, &e[0], &e[1], &e[2],
               &e[3], &e[4], &e[5], &e[6], &e[7], &e[8], &e[9], &n, &used) != 20 || n < 1 ||
        n > 100000000 || strncmp(data + used, "X", 1) != 0)
        return -1;
    r->energy0 = e[0], r->energy_end = e[1], r->x_stop = e[2], r->t_stop = e[3];
    r->x_stop_closed = e[4], r->height_over_phi = e[5], r->mean_radius_over_phi = e[6];
    r->d_stop = e[7], r->heading_deg = e[8], t->r_min = e[9];
    r->x_stop_err = fabs(r->x_stop - r->x_stop_closed) / fabs(r->x_stop_closed);
    r->d_stop_closed = fabs(r->x_stop_closed); /* the closed form moves along travel only */
    r->pile_angle_deg = RAD_TO_DEG * atan2(r->height_over_phi, r->mean_radius_over_phi);
    t->x = cb_malloc_array((size_t)n * 3, sizeof *t->x);
    const char *p = data + used + 1;
    for (int k = 0; t->x && k < 3 * n; k++) {
        char *end;
        t->x[k] = strtod(p, &end);
        if (end == p)
            return -1;
        p = end;
    }
    t->nbodies = t->x ? n : 0;
    return t->x ? 0 : -1;
}

/* How a child ended into its row; why one failed goes to errors.log (its message "E ...", or
 * how it ended). */
static void record(loops_ctx *x, traj *t, const cb_child_result *res)
{
    const char *data = res->data ? res->data : "";
    int exited = res->end == CB_CHILD_EXITED, said = !strncmp(data, "E ", 2);
    const char *status = res->end == CB_CHILD_TIMED_OUT ? "time_limit"
                         : exited && said               ? "error"
                                                        : "crashed";
    if (exited && res->code == 0 && parse_answer(data, t) == 0)
        status = "ok";
    snprintf(t->row.status, sizeof t->row.status, "%s", status);
    if (strcmp(status, "ok") && x->errlog)
        fprintf(x->errlog, "loop %s %s %s tol %g: %.*s\n", t->row.id, t->row.loop, t->row.label,
                t->row.tol, said ? (int)strcspn(data + 2, "\n") : (int)strlen(status),
                said ? data + 2 : status);
    if (x->s->progress)
        fprintf(stderr, "conebench: loop %s: %s tol %g: %s, %ld steps, %.3g s CPU\n",
                t->row.loop, t->row.label, t->row.tol, status, t->row.steps, t->row.cpu_s);
}

/* Drift of t's end from its reference ref: max_k ‖x_k − x_ref,k‖ (and over the smallest body
 * radius), |E − E_ref| / |E₀ − E_ref|, and the verdict of loop.h. */
static void drift(traj *t, const traj *ref)
{
    cb_loop_row *r = &t->row;
    if (strcmp(r->status, "ok") || strcmp(ref->row.status, "ok") || t->nbodies != ref->nbodies)
        return;
    double d = 0;
    for (int k = 0; k < t->nbodies; k++) {
        const double *a = t->x + 3 * k, *b = ref->x + 3 * k;
        d = fmax(d, sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                         (a[2] - b[2]) * (a[2] - b[2])));
    }
    r->drift_pos = d;
    r->drift_pos_rel = d / ref->r_min;
    r->drift_energy = fabs(r->energy_end - ref->row.energy_end) /
                      fabs(ref->row.energy0 - ref->row.energy_end);
    r->indistinguishable = r->drift_pos_rel <= CB_LOOP_DRIFT_POS &&
                           r->drift_energy <= CB_LOOP_DRIFT_ENERGY;
}

/* loops.csv, every row at once (atomically). */
static int write_rows(const loops_ctx *x, cb_error *err)
{
    char path[4200];
    cb_outbuf o = {0};
    int rc = cb_outbuf_open(&o, err);
    if (rc != CB_OK)
        return rc;
    fputs(cb_loop_header(), o.f);
    for (long k = 0; k < x->n; k++)
        cb_loop_row_format(&x->t[k].row, o.f);
    snprintf(path, sizeof path, "%s/%s", x->s->outdir, CB_LOOP_FILE);
    return cb_outbuf_commit(&o, path, err);
}

/* Start trajectory k in the pool under its limits (loop.h). */
static int spawn(const loops_ctx *x, cb_pool *pool, long k, long *slot, cb_error *err)
{
    double budget = CB_LOOP_BUDGET_FACTOR * x->c->time_limit + x->s->kill_after;
    if (x->t[k].row.reference && budget < CB_LOOP_REF_BUDGET_S)
        budget = CB_LOOP_REF_BUDGET_S;
    child_arg a = {x, &x->t[k]};
    cb_child_spec spec = {0};
    spec.fn = loop_child;
    spec.arg = &a;
    spec.limits.cpu_s = budget;
    spec.limits.wall_s = CB_WALL_GUARD_FACTOR * budget;
    spec.own_group = 1; /* a solve server of the trajectory goes with it */
    int id = -1, rc = cb_pool_start(pool, &spec, &id, err);
    if (rc == CB_OK)
        slot[id] = k;
    return rc;
}

/* Keep up to `jobs` trajectories running until each has ended (or the stop flag is set). */
static int run_pool(loops_ctx *x, cb_error *err)
{
    cb_pool *pool = NULL;
    long *slot = cb_calloc((size_t)x->s->jobs, sizeof *slot), next = 0;
    int rc = slot ? cb_pool_new(x->s->jobs, &pool, err)
                  : cb_fail(err, CB_ERR_NOMEM, "loop: out of memory");
    int stop = 0;
    while (rc == CB_OK && !stop && (next < x->n || cb_pool_running(pool) > 0)) {
        while (rc == CB_OK && cb_pool_running(pool) < x->s->jobs && next < x->n)
            rc = spawn(x, pool, next++, slot, err);
        cb_child_result res = {0};
        int id = -1;
        if (rc == CB_OK)
            rc = cb_pool_wait(pool, STOP_CHECK_S, &id, &res, err);
        if (rc == CB_OK && id >= 0)
            record(x, &x->t[slot[id]], &res);
        cb_child_result_free(&res);
        stop = x->s->stop && *x->s->stop;
    }
    cb_pool_free(pool);
    free(slot);
    return rc;
}

int cb_run_loops(const cb_campaign *c, const cb_runner_settings *s, cb_error *err)
{
    char path[4200];
    loops_ctx x = {c, s, NULL, 0, NULL};
    if (c->nloops == 0)
        return CB_OK;
    snprintf(path, sizeof path, "%s/%s", s->outdir, CB_LOOP_DIR);
    int rc = mkdir(path, 0777) != 0 && errno != EEXIST
                 ? cb_fail_at(err, CB_ERR_IO, path, 0, "cannot create: %s", strerror(errno))
                 : make_trajs(&x, s->find_solver ? s->find_solver : cb_solver_find, err);
    snprintf(path, sizeof path, "%s/errors.log", s->outdir);
    if (rc == CB_OK && !(x.errlog = fopen(path, "ae")))
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
    if (rc == CB_OK)
        rc = run_pool(&x, err);
    for (long k = 0, ref = 0; rc == CB_OK && k < x.n; k++) {
        if (x.t[k].row.reference)
            ref = k;
        else
            drift(&x.t[k], &x.t[ref]);
    }
    if (rc == CB_OK && !(s->stop && *s->stop))
        rc = write_rows(&x, err);
    if (x.errlog && fclose(x.errlog) != 0 && rc == CB_OK)
        rc = cb_fail_at(err, CB_ERR_IO, path, 0, "cannot write: %s", strerror(errno));
    for (long k = 0; k < x.n; k++)
        free(x.t[k].x);
    free(x.t);
    return rc;
}
