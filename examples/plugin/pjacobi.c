/* pjacobi — a projected-Jacobi solver as a conebench plugin: the whole contract in one file.
 *
 * Iteration: y = W p + q; for every contact α at once,
 *     p_α ← P_K(p_α − ρ_α ŷ_α),   ρ_α = ω / ‖W_αα‖_F,
 * where ŷ is the De Saxcé modified velocity (cb_modified_velocity) and P_K the closed-form
 * projection on the contact's cone (cb_project). Build: see Makefile (pkg-config only); run:
 *     conebench solve FILE --solver pjacobi --plugin ./pjacobi.so
 *
 * What the harness expects from every solver (conebench conformance checks each):
 *   - stop after s->max_iter iterations (status max_iter) and after s->time_limit seconds of
 *     wall time (status time_limit), checking cb_now() in the loop;
 *   - status diverged at once when q or an iterate is not finite;
 *   - start from sol->p (the warm start) and fill sol->p, sol->y on return;
 *   - count the work in info->work (the work profile ranks solvers by it);
 *   - one cb_info_trace() per iteration; refuse unknown options (cb_options_check);
 *   - the judge (cb_judge), not the solver, decides solved: stop on its error.
 */
#include <conebench/plugin.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const cb_option_spec pjacobi_options[] = {
    {"omega", "0.5", "step scale ω in (0, 2): ρ_α = ω / ‖W_αα‖_F"},
    {NULL, NULL, NULL}};

typedef struct {
    const cb_problem *prob;
    double omega;
    double *rho;  /* per contact step */
    double *x;    /* p − ρ ŷ, one contact */
} pjacobi_work;

/* Every kind whose cone cb_project knows (all local kinds), any storage. */
static int pjacobi_supports(const cb_problem *prob, cb_error *err)
{
    return cb_kind_dim(prob->kind) > 0 ? CB_OK
                                       : cb_fail(err, CB_ERR_INPUT, "pjacobi: unknown cone kind");
}

static void pjacobi_cleanup(void *work)
{
    pjacobi_work *w = work;
    if (!w)
        return;
    free(w->rho);
    free(w->x);
    free(w);
}

/* ρ_α = ω / ‖W_αα‖_F (a zero block gets ρ = ω). */
static int pjacobi_setup(const cb_problem *prob, const cb_settings *s, void **out, cb_error *err)
{
    double omega, block[CB_MAX_DIM * CB_MAX_DIM];
    int d = cb_kind_dim(prob->kind);
    int rc = cb_options_check(s, pjacobi_options, "pjacobi", err);
    if (rc == CB_OK)
        rc = cb_option_double(s, pjacobi_options, "omega", 1e-6, 1.999, &omega, err);
    if (rc != CB_OK)
        return rc;
    pjacobi_work *w = calloc(1, sizeof *w);
    if (w) {
        w->rho = calloc((size_t)prob->nc, sizeof *w->rho);
        w->x = calloc((size_t)d, sizeof *w->x);
    }
    if (!w || !w->rho || !w->x) {
        pjacobi_cleanup(w);
        return cb_fail(err, CB_ERR_NOMEM, "pjacobi: out of memory");
    }
    w->prob = prob;
    w->omega = omega;
    for (int a = 0; a < prob->nc; a++) {
        double f = 0;
        cb_problem_diag_block(prob, a, block);
        for (int k = 0; k < d * d; k++)
            f += block[k] * block[k];
        w->rho[a] = f > 0 ? omega / sqrt(f) : omega;
    }
    *out = w;
    return CB_OK;
}

/* One Jacobi sweep from y = W p + q: every contact projected from the same y. */
static void pjacobi_sweep(pjacobi_work *w, cb_solution *sol, cb_work *count)
{
    const cb_problem *prob = w->prob;
    int d = cb_kind_dim(prob->kind);
    double yhat[CB_MAX_DIM];
    for (int a = 0; a < prob->nc; a++) {
        cb_friction f;
        double *p = sol->p + (size_t)a * d;
        cb_problem_friction(prob, a, &f);
        cb_modified_velocity(prob->kind, &f, sol->y + (size_t)a * d, yhat);
        for (int k = 0; k < d; k++)
            w->x[k] = p[k] - w->rho[a] * yhat[k];
        cb_project(prob->kind, &f, w->x, p);
    }
    count->projections += prob->nc;
}

/* Iterate until the judge accepts p, or max_iter, or the time limit, or a non-finite iterate. */
static int pjacobi_solve(void *work, const cb_settings *s, cb_solution *sol, cb_info *info,
                         cb_error *err)
{
    pjacobi_work *w = work;
    double t0 = cb_now();
    int rc = CB_OK;
    info->status = CB_STATUS_MAX_ITER;
    for (int it = 0; rc == CB_OK; it++) {
        cb_judgement j;
        rc = cb_judge(w->prob, sol->p, s->tol, sol->y, &j, err); /* y = W p + q and the error */
        info->work.error_evals++;
        info->work.block_products += cb_problem_blocks_per_matvec(w->prob);
        info->iterations = it;
        info->solver_error = j.error;
        if (rc == CB_OK)
            rc = cb_info_trace(info, s, it, t0, j.error_data);
        if (rc != CB_OK || !j.finite || j.solved) {
            info->status = rc != CB_OK ? info->status
                           : !j.finite ? CB_STATUS_DIVERGED : CB_STATUS_CONVERGED;
            break;
        }
        if (it >= s->max_iter)
            break;
        if (s->time_limit > 0 && cb_now() - t0 > s->time_limit) {
            info->status = CB_STATUS_TIME_LIMIT;
            break;
        }
        pjacobi_sweep(w, sol, &info->work);
    }
    return rc;
}

static const cb_solver pjacobi = {
    "pjacobi", "projected Jacobi (example plugin, examples/plugin)", pjacobi_options,
    pjacobi_supports, pjacobi_setup, pjacobi_solve, pjacobi_cleanup, NULL};

static const cb_solver *const tables[] = {&pjacobi};
CB_PLUGIN_DEFINE(tables, 1)
