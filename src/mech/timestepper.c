/* conebench — the Moreau–Jean θ-scheme with one CCP per step (Acary & Bourrier §6). */
#include "timestepper.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vec3.h"
#include "base.h"
#include "solve_limited.h"

struct cb_mj_work {
    cb_contact_list cur, prev;   /* this step's active contacts, the previous step's */
    double *p, *y, *p_prev;      /* nc·d (cur), nc_prev·d (prev) */
    size_t cap_p, cap_y, cap_prev;
    int *modes, *match;
    size_t cap_c;
    double *vfree, *dv, *v0;     /* 6 per body */
    unsigned char *alive;
    cb_problem *prob;            /* this step's CCP as assembled, until the workspace takes it */
    const cb_problem *ccp;       /* this step's CCP: prob, or the workspace's once it took it */
    int nbodies;
    cb_solve_server *server;     /* the child that runs a solver that cannot stop itself at the
                                  * time limit (Siconos): one for all steps, made at first use */
    cb_workspace *ws;            /* the solver's workspace, kept while the pattern of the CCP
                                  * (kind, nc, W's block pattern), the solver and its settings
                                  * stay the same: later steps update q, μ and W */
    const cb_solver *ws_solver;
    cb_settings ws_settings;     /* what ws was set up with */
};

void cb_mj_settings_default(cb_mj_settings *s)
{
    memset(s, 0, sizeof *s);
    s->h = 1e-3;
    s->theta = 0.5;
    s->gamma = 0.5;
    s->solver = cb_solver_find("nsgs");
    cb_settings_default(&s->solve);
    s->warm_start = 1;
    s->mode_tau = 1e-6;
    s->storage = CB_STORAGE_BSR;
}

static int check_settings(const cb_mj_settings *s, cb_error *err)
{
    if (!(s->h > 0) || !isfinite(s->h))
        return cb_fail(err, CB_ERR_INPUT, "h: must be finite and > 0, got %g", s->h);
    if (!(s->theta >= 0 && s->theta <= 1))
        return cb_fail(err, CB_ERR_INPUT, "theta: must be in [0, 1], got %g", s->theta);
    if (!(s->gamma >= 0 && s->gamma <= 1))
        return cb_fail(err, CB_ERR_INPUT, "gamma: must be in [0, 1], got %g", s->gamma);
    if (!s->solver)
        return cb_fail(err, CB_ERR_INPUT, "solver: none (is nsgs registered?)");
    if (s->storage != CB_STORAGE_BSR && s->storage != CB_STORAGE_FACTORED)
        return cb_fail(err, CB_ERR_INPUT, "storage: %s W is not assembled by the time-stepper "
                       "(bsr or factored)", cb_storage_name(s->storage));
    return CB_OK;
}

int cb_mj_create(const cb_system *sys, const cb_mj_settings *s, cb_mj_work **out, cb_error *err)
{
    *out = NULL;
    int rc = check_settings(s, err);
    if (rc != CB_OK)
        return rc;
    if (!sys || !sys->bodies || sys->nbodies < 1 || cb_kind_dim(sys->kind) == 0)
        return cb_fail(err, CB_ERR_INPUT, "system: no bodies or invalid kind");
    for (int k = 0; k < sys->nbodies; k++)
        if ((rc = cb_body_check(&sys->bodies[k], err)) != CB_OK)
            return cb_body_error(err, rc, k);
    cb_mj_work *w = calloc(1, sizeof *w);
    if (!w)
        return cb_fail(err, CB_ERR_NOMEM, "time-stepper: out of memory");
    size_t nb = (size_t)sys->nbodies;
    w->nbodies = sys->nbodies;
    w->vfree = cb_malloc_array(nb, 6 * sizeof(double));
    w->dv = cb_malloc_array(nb, 6 * sizeof(double));
    w->v0 = cb_malloc_array(nb, 6 * sizeof(double));
    w->alive = cb_calloc(nb, 1);
    if (!w->vfree || !w->dv || !w->v0 || !w->alive) {
        cb_mj_free(w);
        return cb_fail(err, CB_ERR_NOMEM, "time-stepper: out of memory (%zu bodies)", nb);
    }
    *out = w;
    return CB_OK;
}

void cb_mj_free(cb_mj_work *w)
{
    if (!w)
        return;
    cb_contact_list_free(&w->cur);
    cb_contact_list_free(&w->prev);
    free(w->p);
    free(w->y);
    free(w->p_prev);
    free(w->modes);
    free(w->match);
    free(w->vfree);
    free(w->dv);
    free(w->v0);
    free(w->alive);
    cb_problem_free(w->prob);
    cb_solve_server_free(w->server);
    cb_cleanup(w->ws);
    free(w);
}

/* Grow a double array to n entries (contents kept). */
static int grow(double **x, size_t *cap, size_t n)
{
    if (n <= *cap)
        return CB_OK;
    double *t = realloc(*x, n * sizeof *t);
    if (!t)
        return CB_ERR_NOMEM;
    *x = t;
    *cap = n;
    return CB_OK;
}

/* Contact arrays of this step (p, y, modes, match) for nc contacts of dimension d. */
static int reserve(cb_mj_work *w, int nc, int d)
{
    size_t n = (size_t)nc * (size_t)d;
    if (grow(&w->p, &w->cap_p, n) != CB_OK || grow(&w->y, &w->cap_y, n) != CB_OK)
        return CB_ERR_NOMEM;
    if ((size_t)nc > w->cap_c) {
        int *m = realloc(w->modes, (size_t)nc * sizeof *m), *t;
        if (m)
            w->modes = m;
        t = m ? realloc(w->match, (size_t)nc * sizeof *t) : NULL;
        if (!t)
            return CB_ERR_NOMEM;
        w->match = t;
        w->cap_c = (size_t)nc;
    }
    return CB_OK;
}

/* v_free = v + h g;  ω_free = ω + h I_w⁻¹ (−ω × I_w ω)  (explicit gyroscopic torque). */
static void free_velocities(const cb_system *sys, double h, cb_mj_work *w)
{
    for (int k = 0; k < sys->nbodies; k++) {
        const cb_body *b = &sys->bodies[k];
        double *vf = w->vfree + 6 * k, Iw[9], Iinv[9], L[3], gyro[3], dw[3];
        v3_copy(b->v, w->v0 + 6 * k);
        v3_copy(b->w, w->v0 + 6 * k + 3);
        memset(w->dv + 6 * k, 0, 6 * sizeof(double));
        if (b->fixed || !w->alive[k]) {
            memcpy(vf, w->v0 + 6 * k, 6 * sizeof(double));
            continue;
        }
        v3_axpy(b->v, h, sys->gravity, vf);
        cb_body_inertia_world(b, Iw);
        cb_body_inv_inertia_world(b, Iinv);
        m3_mul(Iw, b->w, L);
        v3_cross(b->w, L, gyro);
        m3_mul(Iinv, gyro, dw);
        v3_axpy(b->w, -h, dw, vf + 3);
    }
}

/* Detect, continue frames from the previous step, keep the contacts with g + γ h u_N ≤ 0. */
static int active_contacts(cb_system *sys, const cb_mj_settings *s, cb_mj_work *w, cb_error *err)
{
    cb_contact_list t = w->prev;
    w->prev = w->cur;
    w->cur = t;
    int rc = cb_detect(sys->bodies, sys->nbodies, w->alive, &sys->contact, &w->cur, err);
    if (rc == CB_OK && reserve(w, w->cur.n, cb_kind_dim(sys->kind)) != CB_OK)
        rc = cb_fail(err, CB_ERR_NOMEM, "time-stepper: out of memory (%d contacts)", w->cur.n);
    if (rc != CB_OK)
        return rc;
    cb_contact_frames_continue(w->cur.c, w->cur.n, w->prev.c, w->prev.n, w->match);
    int n = 0;
    for (int a = 0; a < w->cur.n; a++) {
        cb_contact *c = &w->cur.c[a];
        double y2[2]; /* (u_N, u_T1) of the velocities at the start of the step */
        cb_contact_velocity(CB_KIND_COULOMB2D, c, &sys->bodies[c->i], &sys->bodies[c->j], y2);
        if (c->gap + s->gamma * s->h * y2[0] > 0)
            continue;
        w->match[n] = w->match[a];
        w->cur.c[n++] = *c;
    }
    w->cur.n = n;
    return CB_OK;
}

/* Warm start p from the previous step's reactions of the same contacts. */
static void warm_start(const cb_mj_settings *s, cb_mj_work *w, int d, size_t nprev)
{
    size_t n = (size_t)w->cur.n * (size_t)d;
    memset(w->p, 0, n * sizeof *w->p);
    for (int a = 0; s->warm_start && a < w->cur.n; a++)
        if (w->match[a] >= 0 && (size_t)w->match[a] < nprev)
            memcpy(w->p + (size_t)a * d, w->p_prev + (size_t)w->match[a] * d,
                   (size_t)d * sizeof *w->p);
}

static int mode_slot(int m)
{
    if (m & CB_MODE_UNDEFINED)
        return CB_MODE_SLOT_UNDEFINED;
    if (m & CB_MODE_TAKEOFF)
        return CB_MODE_SLOT_TAKEOFF;
    if (m & CB_MODE_STICK)
        return CB_MODE_SLOT_STICK;
    if (m & CB_MODE_SPIN)
        return CB_MODE_SLOT_SPIN;
    if ((m & CB_MODE_SLIDE) && (m & CB_MODE_ROLL))
        return CB_MODE_SLOT_SLIDE_ROLL;
    return (m & CB_MODE_SLIDE) ? CB_MODE_SLOT_SLIDE : CB_MODE_SLOT_ROLL;
}

/* Contact modes from (p, y) with scales ‖p‖∞ and ‖y‖∞ ∨ ‖q‖∞ of the problem. */
static void classify(const cb_mj_settings *s, cb_mj_work *w, cb_step_record *rec)
{
    const cb_problem *pb = w->ccp;
    size_t n = cb_problem_n(pb);
    cb_mode_settings ms;
    cb_mode_settings_default(&ms);
    ms.tau = s->mode_tau;
    ms.scale_p = ms.scale_y = 0.0;
    for (size_t k = 0; k < n; k++) {
        ms.scale_p = fmax(ms.scale_p, fabs(w->p[k]));
        ms.scale_y = fmax(ms.scale_y, fmax(fabs(w->y[k]), fabs(pb->q[k])));
    }
    for (int a = 0; a < pb->nc; a++) {
        cb_friction f;
        cb_problem_friction(pb, a, &f);
        w->modes[a] = cb_contact_mode(pb->kind, &f, w->p + (size_t)a * pb->d,
                                      w->y + (size_t)a * pb->d, &ms);
        rec->modes[mode_slot(w->modes[a])]++;
    }
}

/* The solve of this step: in a child when cb_solve_limited needs one, else through the kept
 * workspace, which takes the problem (no copy: at most this step's W and the last one's are
 * held) and is set up again when the pattern changed: the same bits as cb_solve either way. */
static int solve_step(const cb_mj_settings *s, cb_mj_work *w, cb_solution *sol, cb_info *info,
                      cb_error *err)
{
    if (!cb_solve_runs_here(s->solver, w->prob, &s->solve, sol, w->server))
        return cb_solve_limited(s->solver, w->prob, &s->solve, sol, info, w->server, NULL, err);
    int rc;
    memset(info, 0, sizeof *info);
    info->status = CB_STATUS_BAD_INPUT; /* until a solve fills it */
    if (!w->ws || w->ws_solver != s->solver || memcmp(&w->ws_settings, &s->solve, sizeof s->solve)) {
        cb_cleanup(w->ws);
        w->ws = NULL;
        w->ws_solver = s->solver;
        w->ws_settings = s->solve;
    }
    rc = cb_workspace_take(&w->ws, s->solver, &w->prob, &s->solve, err);
    w->ccp = cb_workspace_problem(w->ws);
    if (rc == CB_OK)
        rc = cb_warm_start(w->ws, sol->p, sol->n, err);
    if (rc == CB_OK)
        rc = cb_solve_ws(w->ws, sol, info, err);
    return rc;
}

/* 1 when this step's contacts are the last step's pairs (bodies and feature) in the same order:
 * only then can W's block pattern be the last one's and the kept workspace be updated. */
static int same_contacts(const cb_mj_work *w)
{
    if (w->cur.n != w->prev.n)
        return 0;
    for (int a = 0; a < w->cur.n; a++) {
        const cb_contact *c = &w->cur.c[a], *o = &w->prev.c[a];
        if (c->i != o->i || c->j != o->j || c->feature != o->feature)
            return 0;
    }
    return 1;
}

/* Assemble and solve this step's CCP; fills p, y, modes and the record. */
static int solve_ccp(cb_system *sys, const cb_mj_settings *s, cb_mj_work *w, size_t nprev,
                     cb_step_record *rec, cb_error *err)
{
    int d = cb_kind_dim(sys->kind);
    cb_assembly_input in = {sys->kind, sys->bodies, sys->nbodies, w->cur.c, w->cur.n, w->vfree,
                            1, s->storage == CB_STORAGE_FACTORED};
    if (w->ws && !same_contacts(w)) { /* a new pattern: the last W goes before this one comes */
        cb_cleanup(w->ws);
        w->ws = NULL;
    }
    double t0 = cb_now();
    int rc = cb_assemble(&in, &w->prob, err);
    rec->time_assemble = cb_now() - t0;
    if (rc != CB_OK)
        return rc;
    w->ccp = w->prob;
    rec->nnzb = w->prob->storage == CB_STORAGE_FACTORED
                    ? cb_problem_blocks_per_matvec(w->prob) / 2
                    : w->prob->bsr.nnzb;
    rec->w_bytes = cb_problem_W_bytes(w->prob);
    warm_start(s, w, d, nprev);
    cb_solution sol = {cb_problem_n(w->prob), w->p, w->y};
    cb_info info;
    if (!w->server && !cb_solver_stops_at_limit(s->solver) && s->solve.time_limit > 0 &&
        (rc = cb_solve_server_new(&w->server, err)) != CB_OK)
        return rc;
    t0 = cb_now();
    rc = solve_step(s, w, &sol, &info, err);
    rec->time_solve = cb_now() - t0;
    cb_info_free(&info);
    if (rc != CB_OK)
        return rc;
    rec->status = info.status;
    rec->solved = info.solved;
    rec->iterations = info.iterations;
    rec->error = info.error;
    rec->error_q = info.error_q;
    if (info.status == CB_STATUS_DIVERGED)
        return cb_fail(err, CB_ERR_INTERNAL, "step %ld (t = %g): solver %s diverged", rec->step,
                       sys->t, s->solver->name);
    classify(s, w, rec);
    cb_apply_impulses(&in, w->p, w->dv);
    return CB_OK;
}

/* v⁺ = v_free + Δv;  x⁺ = x + h (θ v⁺ + (1−θ) v⁻);  q⁺ = exp(h ω_θ/2) ⊗ q. */
static void integrate(cb_system *sys, const cb_mj_settings *s, cb_mj_work *w)
{
    double th = s->theta, h = s->h;
    for (int k = 0; k < sys->nbodies; k++) {
        cb_body *b = &sys->bodies[k];
        if (b->fixed || !w->alive[k])
            continue;
        const double *vf = w->vfree + 6 * k, *dv = w->dv + 6 * k, *v0 = w->v0 + 6 * k;
        double wt[3];
        for (int a = 0; a < 3; a++) {
            b->v[a] = vf[a] + dv[a];
            b->w[a] = vf[3 + a] + dv[3 + a];
            b->x[a] += h * (th * b->v[a] + (1 - th) * v0[a]);
            wt[a] = th * b->w[a] + (1 - th) * v0[3 + a];
        }
        cb_quat_integrate(b->q, wt, h, b->q);
    }
}

/* Keep this step's reactions for the next warm start; returns how many contacts they cover. */
static int keep_reactions(cb_mj_work *w, int d)
{
    size_t n = (size_t)w->cur.n * (size_t)d;
    if (grow(&w->p_prev, &w->cap_prev, n > 0 ? n : 1) != CB_OK)
        return CB_ERR_NOMEM;
    if (n)
        memcpy(w->p_prev, w->p, n * sizeof *w->p);
    return CB_OK;
}

int cb_mj_step(cb_system *sys, const cb_mj_settings *s, cb_mj_work *w, cb_step_record *rec,
               cb_error *err)
{
    long step = rec->step;
    memset(rec, 0, sizeof *rec);
    rec->step = step;
    rec->status = CB_STATUS_CONVERGED;
    rec->solved = 1;
    int rc = check_settings(s, err);
    if (rc != CB_OK)
        return rc;
    for (int k = 0; k < sys->nbodies; k++)
        w->alive[k] = sys->bodies[k].t_birth <= sys->t + 1e-9 * s->h;
    rec->energy_before = cb_bodies_energy(sys->bodies, sys->nbodies, w->alive, sys->gravity);
    size_t nprev = (size_t)w->cur.n;
    double t0 = cb_now();
    rc = active_contacts(sys, s, w, err);
    rec->time_detect = cb_now() - t0;
    if (rc != CB_OK)
        return rc;
    free_velocities(sys, s->h, w);
    cb_problem_free(w->prob);
    w->prob = NULL;
    w->ccp = NULL;
    rec->nc = w->cur.n;
    if (w->cur.n > 0 && (rc = solve_ccp(sys, s, w, nprev, rec, err)) != CB_OK)
        return rc;
    integrate(sys, s, w);
    if (keep_reactions(w, cb_kind_dim(sys->kind)) != CB_OK)
        return cb_fail(err, CB_ERR_NOMEM, "time-stepper: out of memory");
    sys->t += s->h;
    rec->t = sys->t;
    rec->energy_after = cb_bodies_energy(sys->bodies, sys->nbodies, w->alive, sys->gravity);
    return CB_OK;
}

int cb_mj_ncontacts(const cb_mj_work *w) { return w->cur.n; }
const cb_contact *cb_mj_contacts(const cb_mj_work *w) { return w->cur.c; }
const double *cb_mj_reactions(const cb_mj_work *w) { return w->p; }
const double *cb_mj_velocities(const cb_mj_work *w) { return w->y; }
const int *cb_mj_modes(const cb_mj_work *w) { return w->modes; }
const cb_problem *cb_mj_problem(const cb_mj_work *w) { return w->ccp; }

int cb_mj_find_contact(const cb_mj_work *w, int i, int j)
{
    for (int a = 0; a < w->cur.n; a++)
        if (w->cur.c[a].i == i && w->cur.c[a].j == j)
            return a;
    return -1;
}
