/* conebench — running a scenario with a compliant friction model: normal forces, the
 * half-implicit symplectic Euler of Fang & Negrut §4, and run statistics. */
#include "compliant_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vec3.h"
#include "base.h"

#define CBC_MAX_BODIES 64

void cb_compliant_settings_default(cb_compliant_settings *s)
{
    memset(s, 0, sizeof *s);
    s->variant = CB_COMPLIANT_FANG;
    s->dt = 1e-4;
    s->mu_s = 0.25;
    s->mu_k = NAN;
    s->K_E = 1e5;
    s->K_D = NAN;
    s->kd_factor = 2.0;
    s->eta_r = NAN;
    s->dr_factor = 2.0;
    s->eta_psi = NAN;
    s->spin_K = 5.0;
    s->dpsi_factor = 2.0;
    s->normal = CB_NORMAL_GIVEN;
    s->k_n = 1e7;
    s->E = CB_STEEL_E;
    s->nu = CB_STEEL_NU;
    s->e_rest = 0.4;
    s->mu_r_legacy = 0.1;
    s->c_safety = 0.125;
    s->gamma_n = NAN;
    s->creep_tol = 1e-4;
    s->lock_rotation_box = 1;
}

const char *cb_compliant_variant_name(cb_compliant_variant v)
{
    static const char *names[] = {"compliant", "compliant-legacy", "compliant-edem"};
    return (int)v >= 0 && (int)v <= 2 ? names[v] : "invalid";
}

const char *cb_friction_mode_name(cb_friction_mode m)
{
    return m == CB_MODE_KINETIC ? "kinetic" : "static";
}

/* x is NAN (derive) or finite in [lo, hi]. */
static int opt_in(double x, double lo, double hi) { return isnan(x) || (x >= lo && x <= hi); }

int cb_compliant_settings_check(const cb_compliant_settings *s, cb_error *err)
{
    if (!s)
        return cb_fail(err, CB_ERR_INPUT, "compliant: no settings");
    if ((int)s->variant < 0 || (int)s->variant > 2)
        return cb_fail(err, CB_ERR_INPUT, "variant: invalid (%d)", (int)s->variant);
    if (!(s->dt > 0 && s->dt <= 1.0))
        return cb_fail(err, CB_ERR_INPUT, "dt: must be in (0, 1], got %g", s->dt);
    if (!(s->K_E > 0) || !isfinite(s->K_E))
        return cb_fail(err, CB_ERR_INPUT, "K_E: must be finite and > 0, got %g", s->K_E);
    if (!opt_in(s->mu_s, 0, 1e3) || !opt_in(s->mu_k, 0, 1e3))
        return cb_fail(err, CB_ERR_INPUT, "mu_s/mu_k: must be in [0, 1000]");
    if (!opt_in(s->K_D, 0, 1e15) || !opt_in(s->eta_r, 0, 1e3) || !opt_in(s->eta_psi, 0, 1e3))
        return cb_fail(err, CB_ERR_INPUT, "K_D/eta_r/eta_psi: must be ≥ 0 and finite");
    if (!(s->kd_factor >= 0 && s->dr_factor >= 0 && s->dpsi_factor >= 0) ||
        !isfinite(s->kd_factor + s->dr_factor + s->dpsi_factor))
        return cb_fail(err, CB_ERR_INPUT, "kd_factor/dr_factor/dpsi_factor: must be ≥ 0");
    if (!opt_in(s->spin_K, 1e-9, 1e9))
        return cb_fail(err, CB_ERR_INPUT, "spin_K: must be > 0, got %g", s->spin_K);
    if ((int)s->normal < 0 || (int)s->normal > 2)
        return cb_fail(err, CB_ERR_INPUT, "normal: invalid (%d)", (int)s->normal);
    if (!(s->k_n > 0 && s->c_n >= 0) || !isfinite(s->k_n + s->c_n))
        return cb_fail(err, CB_ERR_INPUT, "k_n/c_n: k_n > 0, c_n ≥ 0 required");
    if (!(s->E > 0 && s->nu >= 0 && s->nu < 0.5 && s->E_ground >= 0) || !isfinite(s->E))
        return cb_fail(err, CB_ERR_INPUT, "E/nu/E_ground: E > 0, 0 ≤ nu < 0.5 required");
    if (!(s->e_rest > 0 && s->e_rest <= 1))
        return cb_fail(err, CB_ERR_INPUT, "e_rest: must be in (0, 1], got %g", s->e_rest);
    if (!(s->mu_r_legacy >= 0 && s->c_safety > 0) || !opt_in(s->gamma_n, 0, 1e15))
        return cb_fail(err, CB_ERR_INPUT, "mu_r_legacy/c_safety/gamma_n: out of range");
    if (!(s->t_end >= 0) || !isfinite(s->t_end) || !(s->creep_tol >= 0))
        return cb_fail(err, CB_ERR_INPUT, "t_end/creep_tol: must be finite and ≥ 0");
    return CB_OK;
}

/* ------------------------------------------------------------------ run state */

typedef struct {
    const cb_scenario *scen;
    cbc_params P;
    cb_body *b;
    int nb;
    cb_compliant_contact *c;
    cbc_geom *g;
    int nc, primary;
    double *F, *T;          /* 3 per body: force and torque of the contacts */
    double t;
} cbc_run;

/* Characteristic radius of the primary dynamic body (for the cross-model mappings: man
 * conebench, MODELS). */
static double subject_radius(const cb_scenario *scen)
{
    int k = scen->subject >= 0 ? scen->subject : (scen->npairs > 0 ? scen->pairs[0].j : -1);
    if (k < 0 || k >= scen->nbodies)
        return 1.0;
    const cb_shape *sh = &scen->bodies[k].shape;
    return sh->kind == CB_SHAPE_SPHERE || sh->kind == CB_SHAPE_DISK
               ? sh->radius : cb_shape_bounding_radius(sh);
}

/* μ_s, μ_k, η_r, η_ψ from the settings, else from the scenario (the cross-model mapping: man
 * conebench, MODELS). */
static int derive_params(const cb_scenario *scen, const cb_compliant_settings *s, cbc_params *P,
                         cb_error *err)
{
    const cb_friction *f = &scen->contact.friction;
    double R = subject_radius(scen);
    memset(P, 0, sizeof *P);
    P->s = s;
    P->variant = s->variant;
    P->dt = s->dt;
    P->K_E = s->K_E;
    P->mu_k = isnan(s->mu_k) ? f->mu : s->mu_k;
    P->mu_s = isnan(s->mu_s) ? f->mu : s->mu_s;
    P->mu_r = f->mu_r;
    P->eta_r = isnan(s->eta_r) ? (P->mu_k > 0 ? f->mu_r / (2.0 * P->mu_k * R) : 0.0) : s->eta_r;
    P->eta_psi = isnan(s->eta_psi) ? (P->mu_k > 0 ? f->mu_s / (P->mu_k * R) : 0.0) : s->eta_psi;
    if (!(P->mu_s >= P->mu_k))
        return cb_fail(err, CB_ERR_INPUT, "mu_s: static friction %g below kinetic %g",
                       P->mu_s, P->mu_k);
    return CB_OK;
}

/* Candidate pairs: supported, at least one dynamic body. */
static int make_pairs(cbc_run *r, cb_error *err)
{
    int cap = r->nb * (r->nb - 1) / 2;
    r->c = cb_calloc((size_t)(cap > 0 ? cap : 1), sizeof *r->c);
    r->g = cb_calloc((size_t)(cap > 0 ? cap : 1), sizeof *r->g);
    if (!r->c || !r->g)
        return cb_fail(err, CB_ERR_NOMEM, "compliant: out of memory");
    r->primary = -1;
    for (int i = 0; i < r->nb; i++)
        for (int j = i + 1; j < r->nb; j++) {
            const cb_body *bi = &r->b[i], *bj = &r->b[j];
            int ii = i, jj = j;
            if (bj->shape.kind == CB_SHAPE_PLANE) { /* the plane is always body i */
                ii = j;
                jj = i;
            }
            if ((bi->fixed && bj->fixed) || !cbc_pair_supported(&r->b[ii], &r->b[jj]))
                continue;
            if (r->scen->npairs > 0 && ii == r->scen->pairs[0].i && jj == r->scen->pairs[0].j)
                r->primary = r->nc;
            r->c[r->nc].i = ii;
            r->c[r->nc++].j = jj;
        }
    if (r->primary < 0)
        r->primary = 0;
    return CB_OK;
}

/* Normal velocity of j relative to i at the contact (> 0: separating). */
static double normal_velocity(const cb_body *bi, const cb_body *bj, const cbc_geom *g)
{
    double ri[3], rj[3], vi[3], vj[3];
    v3_axpy(g->Ci, -1.0, bi->x, ri);
    v3_axpy(g->Cj, -1.0, bj->x, rj);
    v3_cross(bi->w, ri, vi);
    v3_cross(bj->w, rj, vj);
    v3_axpy(vi, 1.0, bi->v, vi);
    v3_axpy(vj, 1.0, bj->v, vj);
    return v3_dot(vj, g->n) - v3_dot(vi, g->n);
}

/* Hertz normal force (App. C eq. 15) with Chrono's SMC restitution damping. */
static double hertz_force(const cb_compliant_settings *s, const cb_body *bi, const cb_body *bj,
                          const cbc_geom *g, double delta, double ddot)
{
    double Es = s->E / (1.0 - s->nu * s->nu), Eeff = 0.5 * Es;
    if (bi->shape.kind == CB_SHAPE_PLANE) {
        double Eg = s->E_ground > 0 ? s->E_ground / (1.0 - s->nu * s->nu) : INFINITY;
        Eeff = isinf(Eg) ? Es : Es * Eg / (Es + Eg);
    }
    double nj[3];
    v3_scale(g->n, -1.0, nj);
    double K = cbc_mean_curvature(bi, g->Ci, g->n) + cbc_mean_curvature(bj, g->Cj, nj);
    double Reff = K > 0 ? 1.0 / K : 1e3, sq = sqrt(Reff * delta);
    double le = log(s->e_rest), beta = le / sqrt(le * le + CB_PI * CB_PI);
    double m = bi->fixed ? bj->mass : bi->mass * bj->mass / (bi->mass + bj->mass);
    double cn = 2.0 * sqrt(5.0 / 6.0) * fabs(beta) * sqrt(2.0 * Eeff * sq * m);
    return 4.0 / 3.0 * Eeff * sq * delta + cn * ddot;
}

/* Normal force of contact c (geometry g); returns 1 when the contact is active. */
static int normal_force(const cbc_run *r, const cbc_geom *g, cb_compliant_contact *c)
{
    const cb_compliant_settings *s = r->P.s;
    const cb_body *bi = &r->b[c->i], *bj = &r->b[c->j];
    double delta = -g->gap;
    c->delta = delta;
    if (s->normal == CB_NORMAL_GIVEN) {
        double margin = fmax(r->scen->contact.margin, 1e-9);
        c->N = fmax(0.0, -bj->mass * v3_dot(r->scen->gravity, g->n));
        return g->gap <= margin;
    }
    if (!(delta > 0))
        return 0;
    double ddot = -normal_velocity(bi, bj, g);
    double N = s->normal == CB_NORMAL_HOOKE ? s->k_n * delta + s->c_n * ddot
                                            : hertz_force(s, bi, bj, g, delta, ddot);
    c->N = fmax(0.0, N);
    return 1;
}

/* New geometry of every pair; onset, update or release of each contact; loads on bodies. */
static void contacts_step(cbc_run *r, int first)
{
    memset(r->F, 0, (size_t)r->nb * 3 * sizeof *r->F);
    memset(r->T, 0, (size_t)r->nb * 3 * sizeof *r->T);
    for (int a = 0; a < r->nc; a++) {
        cb_compliant_contact *c = &r->c[a];
        const cb_body *bi = &r->b[c->i], *bj = &r->b[c->j];
        cbc_geom *g = &r->g[a];
        cbc_geometry(bi, bj, g);
        int was = c->active && !first;
        if (!normal_force(r, g, c)) {
            c->active = 0;
            c->N = 0.0;
            continue;
        }
        if (!was) {
            double Nn = c->N, d = c->delta;
            cbc_contact_onset(c, bi, bj, g);
            c->N = Nn;
            c->delta = d;
        } else {
            cbc_contact_update(&r->P, c, bi, bj, g);
        }
        double Fj[3], Ti[3], Tj[3];
        cbc_contact_loads(c, bi, bj, g, Fj, Ti, Tj);
        for (int k = 0; k < 3; k++) {
            r->F[3 * c->j + k] += Fj[k];
            r->F[3 * c->i + k] -= Fj[k];
            r->T[3 * c->j + k] += Tj[k];
            r->T[3 * c->i + k] += Ti[k];
        }
    }
}

/* Half-implicit symplectic Euler: v₁ = v₀ + Δt a₀, x₁ = x₀ + Δt v₁; ω likewise with
 * I_w ω̇ = T − ω × I_w ω, q₁ = exp(Δt ω₁/2) ⊗ q₀. */
static void integrate(cbc_run *r)
{
    double dt = r->P.dt;
    for (int k = 0; k < r->nb; k++) {
        cb_body *b = &r->b[k];
        if (b->fixed)
            continue;
        for (int d = 0; d < 3; d++) {
            b->v[d] += dt * (r->F[3 * k + d] / b->mass + r->scen->gravity[d]);
            b->x[d] += dt * b->v[d];
        }
        if (b->shape.kind == CB_SHAPE_BOX && r->P.s->lock_rotation_box)
            continue;
        double Iw[9], Ii[9], L[3], g[3], tq[3], dw[3];
        if (b->inertia[0] == b->inertia[1] && b->inertia[1] == b->inertia[2]) {
            v3_axpy(b->w, dt / b->inertia[0], &r->T[3 * k], b->w); /* ω × Iω = 0 */
        } else {
            cb_body_inertia_world(b, Iw);
            cb_body_inv_inertia_world(b, Ii);
            m3_mul(Iw, b->w, L);
            v3_cross(b->w, L, g);
            v3_axpy(&r->T[3 * k], -1.0, g, tq);
            m3_mul(Ii, tq, dw);
            v3_axpy(b->w, dt, dw, b->w);
        }
        cb_quat_integrate(b->q, b->w, dt, b->q);
    }
}

/* ------------------------------------------------------------------ statistics */

typedef struct {
    double sum_ef, sum_te, sum_ts;
    long n_ef, n_te, n_ts;
    double st, sv, stt, stv;  /* least squares of v(t) while slide-kinetic */
    long n_fit;
    int was_kinetic;
    cb_observer obs;
} cbc_stats;

static void stats_begin(cbc_stats *st, cb_compliant_result *res)
{
    memset(st, 0, sizeof *st);
    res->Ef_kinetic = res->TE_kinetic = res->T_spin_kinetic = NAN;
    res->t_slide_kinetic = res->t_slide_static = res->accel = NAN;
}

/* Fold the primary contact of this step into the statistics. */
static void stats_step(const cbc_run *r, cbc_stats *st, cb_compliant_result *res)
{
    const cb_compliant_contact *c = &r->c[r->primary];
    if (r->nc == 0 || !c->active)
        return;
    double ef = v3_norm(c->F_E), te = v3_norm(c->T_E[1]), ts = fabs(c->T_spin_E);
    res->Ef_max = fmax(res->Ef_max, ef);
    res->TE_max = fmax(res->TE_max, te);
    res->T_spin_E_max = fmax(res->T_spin_E_max, ts);
    if (c->slide == CB_MODE_KINETIC) {
        st->sum_ef += ef;
        st->n_ef++;
        if (isnan(res->t_slide_kinetic))
            res->t_slide_kinetic = r->t;
        if (r->t >= res->t_slide_kinetic + 0.02 && r->scen->subject >= 0) {
            double v = v3_dot(r->b[r->scen->subject].v, r->scen->travel);
            st->st += r->t;
            st->sv += v;
            st->stt += r->t * r->t;
            st->stv += r->t * v;
            st->n_fit++;
        }
    } else if (st->was_kinetic && isnan(res->t_slide_static)) {
        res->t_slide_static = r->t;
    }
    st->was_kinetic = c->slide == CB_MODE_KINETIC;
    if (c->roll[1] == CB_MODE_KINETIC && te > 0) {
        st->sum_te += te;
        st->n_te++;
    }
    if (c->spin == CB_MODE_KINETIC && ts > 0) {
        st->sum_ts += ts;
        st->n_ts++;
    }
}

/* Means, fitted acceleration, final modes and the parameters of the primary contact. */
static void stats_finish(const cbc_run *r, cbc_stats *st, cb_compliant_result *res)
{
    if (st->n_ef)
        res->Ef_kinetic = st->sum_ef / st->n_ef;
    if (st->n_te)
        res->TE_kinetic = st->sum_te / st->n_te;
    if (st->n_ts)
        res->T_spin_kinetic = st->sum_ts / st->n_ts;
    double den = st->n_fit * st->stt - st->st * st->st;
    if (st->n_fit > 10 && den > 0)
        res->accel = (st->n_fit * st->stv - st->st * st->sv) / den;
    res->eta_r = r->P.eta_r;
    int subj = r->scen->subject;
    if (subj >= 0) {
        static const double ez[3] = {0, 0, 1};
        double d[3], z[3], up[3];
        const cb_body *b = &r->b[subj];
        v3_axpy(b->x, -1.0, r->scen->bodies[subj].x, d);
        res->travel = v3_dot(d, r->scen->travel);
        cb_quat_rotate(b->q, ez, z);
        v3_scale(r->scen->gravity, -1.0, up);
        v3_normalize(up);
        res->up_angle = acos(fmin(1.0, fabs(v3_dot(z, up))));
    }
    if (r->nc == 0)
        return;
    const cb_compliant_contact *c = &r->c[r->primary];
    res->slide_end = c->slide;
    res->roll_end = c->roll[1];
    res->spin_end = c->spin;
    res->K_R = c->K_R[1];
    if (r->scen->subject >= 0) /* D_R = dr_factor √(I K_R), I about the body's y axis */
        res->D_R = r->P.s->dr_factor * sqrt(r->b[r->scen->subject].inertia[1] * res->K_R);
    res->K_psi = c->K_psi;
    res->S_psi_s = c->S_psi_s;
    res->S_psi_k = c->S_psi_k;
    res->spin_curv = c->spin_curv;
    res->a_hertz = c->a_hertz;
}

/* ------------------------------------------------------------------ run */

static int run_check(const cb_scenario *scen, const cb_compliant_settings *s, cb_error *err)
{
    int rc = cb_compliant_settings_check(s, err);
    if (rc == CB_OK)
        rc = cb_scenario_check(scen, err);
    if (rc != CB_OK)
        return rc;
    if (scen->nbodies > CBC_MAX_BODIES)
        return cb_fail(err, CB_ERR_INPUT, "compliant: %d bodies (at most %d: the compliant "
                       "models are few-body references)", scen->nbodies, CBC_MAX_BODIES);
    for (int k = 0; k < scen->nbodies; k++)
        if (scen->bodies[k].t_birth > 0)
            return cb_fail(err, CB_ERR_INPUT, "compliant: body %d is born at t = %g (pouring "
                           "scenarios are not supported)", k, scen->bodies[k].t_birth);
    return CB_OK;
}

static int run_alloc(cbc_run *r, const cb_scenario *scen, cb_error *err)
{
    r->scen = scen;
    r->nb = scen->nbodies;
    r->b = cb_malloc_array((size_t)r->nb, sizeof *r->b);
    r->F = cb_calloc((size_t)r->nb * 3, sizeof *r->F);
    r->T = cb_calloc((size_t)r->nb * 3, sizeof *r->T);
    if (!r->b || !r->F || !r->T)
        return cb_fail(err, CB_ERR_NOMEM, "compliant: out of memory");
    memcpy(r->b, scen->bodies, (size_t)r->nb * sizeof *r->b);
    return make_pairs(r, err);
}

static void run_free(cbc_run *r)
{
    free(r->b);
    free(r->F);
    free(r->T);
    free(r->c);
    free(r->g);
}

/* The step loop: forces at t₀ → state at t₁ → contacts at t₁ (friction history, loads). */
static void run_loop(cbc_run *r, double t_end, cb_compliant_hook hook, void *ctx,
                     cb_compliant_result *res)
{
    cbc_stats st;
    stats_begin(&st, res);
    cb_observer_begin(&st.obs, r->scen, r->b);
    contacts_step(r, 1);
    if (r->nc > 0)
        res->N0 = r->c[r->primary].N;
    long nsteps = (long)ceil(t_end / r->P.dt - 1e-9);
    for (long k = 1; k <= nsteps; k++) {
        integrate(r);
        r->t = k * r->P.dt;
        contacts_step(r, 0);
        res->steps = k;
        for (int a = 0; a < r->nc; a++)
            res->contact_steps += r->c[a].active;
        stats_step(r, &st, res);
        int stop = cb_observer_update(&st.obs, r->scen, r->b, r->t);
        if (hook && hook(ctx, r->t, r->b, r->nb, r->c, r->nc))
            stop = 1;
        if (stop)
            break;
    }
    res->t = r->t;
    cb_observer_finish(&st.obs, r->scen, r->b, r->t, &res->summary);
    stats_finish(r, &st, res);
}

int cb_compliant_run(const cb_scenario *scen, const cb_compliant_settings *s,
                     cb_compliant_hook hook, void *ctx, cb_compliant_result *res, cb_error *err)
{
    cbc_run r;
    memset(&r, 0, sizeof r);
    memset(res, 0, sizeof *res);
    int rc = run_check(scen, s, err);
    if (rc == CB_OK)
        rc = derive_params(scen, s, &r.P, err);
    if (rc == CB_OK)
        rc = run_alloc(&r, scen, err);
    if (rc == CB_OK && s->normal == CB_NORMAL_GIVEN)
        for (int a = 0; a < r.nc; a++)
            if (r.b[r.c[a].i].shape.kind != CB_SHAPE_PLANE)
                rc = cb_fail(err, CB_ERR_INPUT, "normal=given: only bodies resting on a plane "
                             "(use normal=hooke or hertz for %s)", scen->name ? scen->name : "");
    if (rc == CB_OK) {
        double t0 = cb_now();
        run_loop(&r, s->t_end > 0 ? s->t_end : scen->t_end, hook, ctx, res);
        res->time_s = cb_now() - t0;
        double m = r.nc > 0 ? (r.b[r.c[0].i].fixed ? r.b[r.c[0].j].mass : r.b[r.c[0].i].mass)
                            : 0.0;
        res->K_D = isnan(s->K_D) ? s->kd_factor * sqrt(m * s->K_E) : s->K_D;
    }
    run_free(&r);
    return rc;
}

void cb_hertz_spin_params(double N, double K, double E, double nu, double K_E, double mu_s,
                          cb_hertz_spin *out)
{
    double Eeff = E / (1.0 - nu * nu);
    out->a = N > 0 && K > 0 ? cbrt(3.0 * N / (4.0 * Eeff * K)) : 0.0;
    out->K_psi = 0.5 * out->a * out->a * K_E;
    out->S_psi_s = out->a > 0 ? mu_s * N / (K_E * out->a) : 0.0;
    out->T_max = out->K_psi * out->S_psi_s;
}
