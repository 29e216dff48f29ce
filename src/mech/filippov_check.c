/* conebench — cross-checks of the extended-Filippov analysis against one Moreau–Jean CCP step
 * and the Fang–Negrut compliant slide law (Antali & Stepan 2019; the reasoning is in
 * filippov_check.h). */
#include "filippov_check.h"

#include <math.h>
#include <string.h>

#include "body.h"
#include "conebench/solver.h"

void cb_fc_settings_default(cb_fc_settings *s)
{
    s->h = 1e-4;
    s->ccp_slip = 1e-9;
    s->stick_tol = 1e-6;
    s->solver = "nsgs";
    s->comp_slip = 1e-5;
    s->comp_ndir = 8;
    s->comp_T = 0.05;
    s->comp_dt = 1e-4;
    s->K_E = 1e5;
    s->kd_factor = 2;
    s->comp_freeze_omega = 1;
    s->boundary_margin = 0.02;
}

int cb_fc_settings_check(const cb_fc_settings *s, cb_error *err)
{
    if (!s)
        return cb_fail(err, CB_ERR_INPUT, "filippov check: settings missing");
    if (!(s->h > 0 && isfinite(s->h)))
        return cb_fail(err, CB_ERR_INPUT, "h: must be finite and > 0");
    if (!(s->ccp_slip >= 0 && isfinite(s->ccp_slip)))
        return cb_fail(err, CB_ERR_INPUT, "ccp_slip: must be finite and ≥ 0");
    if (!(s->stick_tol > 0 && s->stick_tol < 1))
        return cb_fail(err, CB_ERR_INPUT, "stick_tol: must be in (0, 1)");
    if (!s->solver || !cb_solver_find(s->solver))
        return cb_fail(err, CB_ERR_INPUT, "solver: unknown solver '%s'",
                       s->solver ? s->solver : "(null)");
    if (!(s->comp_slip > 0 && isfinite(s->comp_slip)) || s->comp_ndir < 1 ||
        s->comp_ndir > 1000)
        return cb_fail(err, CB_ERR_INPUT, "comp_slip > 0 and comp_ndir in [1, 1000] needed");
    if (!(s->comp_dt > 0 && s->comp_T >= s->comp_dt && s->comp_T / s->comp_dt < 1e7))
        return cb_fail(err, CB_ERR_INPUT, "comp_dt, comp_T: need 0 < dt ≤ T, T/dt < 1e7");
    if (!(s->K_E > 0 && isfinite(s->K_E)) || !(s->kd_factor >= 0 && isfinite(s->kd_factor)))
        return cb_fail(err, CB_ERR_INPUT, "K_E > 0 and kd_factor ≥ 0 needed");
    if (!(s->boundary_margin >= 0 && s->boundary_margin < 1))
        return cb_fail(err, CB_ERR_INPUT, "boundary_margin: must be in [0, 1)");
    return CB_OK;
}

/* Spin rate of the frame: Ω = ω3 when (t1, t2) turn with the body about n, else 0. */
static double frame_rate(const cb_fil_body *b)
{
    return b->frame_spins ? b->omega[2] : 0;
}

/* Smallest angle between direction ψ and the repelling directions of d (NaN if none). */
static double repel_angle(const cb_fil_dirset *d, double psi)
{
    double best = NAN;
    for (int k = 0; k < d->ndir; k++) {
        if (d->dir[k].attracting)
            continue;
        double a = fabs(remainder(psi - d->dir[k].phi, 2 * CB_PI));
        if (!(a >= best))
            best = a;
    }
    return best;
}

/* ------------------------------------------------------------------ (1) one CCP step */

/* Fill the coulomb3d problem in conebench order (n, t1, t2): W_cb = P W Pᵀ, q = P (u0 + h v̇_free)
 * with v̇_free = b + Ω (u2, −u1, 0) (spinning frame). */
static void ccp_fill(const cb_fil_maps *m, double Omega, double mu, double h,
                     const double u0[2], cb_problem *p)
{
    static const int perm[3] = {2, 0, 1};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            p->W[i + 3 * j] = m->W[perm[i]][perm[j]];
    p->q[0] = h * m->b[2];
    p->q[1] = u0[0] + h * (m->b[0] + Omega * u0[1]);
    p->q[2] = u0[1] + h * (m->b[1] - Omega * u0[0]);
    p->mu[0] = mu;
}

/* One Moreau–Jean step from slip u0: y = W P + q, P ∈ K_μ (CCP); y_T and P returned. */
static int ccp_step(const cb_fil_body *b, const cb_fil_maps *m, const cb_fc_settings *s,
                    const double u0[2], double yT[2], cb_error *err)
{
    cb_problem *p = NULL;
    int rc = cb_problem_alloc(CB_KIND_COULOMB3D, 1, CB_STORAGE_DENSE, 0, &p, err);
    if (rc != CB_OK)
        return rc;
    ccp_fill(m, frame_rate(b), b->friction.mu, s->h, u0, p);
    cb_solution sol = {0};
    cb_info info;
    memset(&info, 0, sizeof info);
    cb_settings st;
    cb_settings_default(&st);
    st.tol = 1e-13;
    st.max_iter = 2000;
    rc = cb_solution_alloc(p, &sol, err);
    if (rc == CB_OK)
        rc = cb_solve(cb_solver_find(s->solver), p, &st, &sol, &info, err);
    if (rc == CB_OK && !info.solved)
        rc = cb_fail(err, CB_ERR_INTERNAL, "filippov check: CCP step not solved (%s, error %g)",
                     cb_status_name(info.status), info.error);
    if (rc == CB_OK) {
        yT[0] = sol.y[1];
        yT[1] = sol.y[2];
    }
    cb_info_free(&info);
    cb_solution_free(&sol);
    cb_problem_free(p);
    return rc;
}

/* Cross-check (1): stick ⇔ |y_T| ≤ tol (|u0| + h|b|); slip direction vs repelling. */
static int check_ccp(const cb_fil_body *b, const cb_fil_report *rep, const cb_fc_settings *s,
                     cb_rng *rng, cb_fc_result *r, cb_error *err)
{
    double a = 2 * CB_PI * cb_rng_uniform(rng), u0[2], yT[2];
    u0[0] = s->ccp_slip * cos(a);
    u0[1] = s->ccp_slip * sin(a);
    int rc = ccp_step(b, &rep->maps, s, u0, yT, err);
    if (rc != CB_OK)
        return rc;
    const double *bb = rep->maps.b;
    double scale = s->ccp_slip + s->h * sqrt(bb[0] * bb[0] + bb[1] * bb[1] + bb[2] * bb[2]);
    r->ccp_slip_speed = hypot(yT[0], yT[1]);
    r->ccp_stick = r->ccp_slip_speed <= s->stick_tol * scale;
    r->ccp_dir_err = r->ccp_stick ? NAN : repel_angle(&rep->paper.dirs, atan2(yT[1], yT[0]));
    r->agree_ccp = r->ccp_stick == r->rolls;
    return CB_OK;
}

/* ------------------------------------------------------------------ (2) compliant slide law */

typedef struct {
    double u[2], S[2];
    int kinetic;
} comp_state;

/* Fang eq. 1a–1c: F_T = −K_E S − K_D u (static); |F_T| > μN → F_T scaled to μN, S = −F_T/K_E,
 * kinetic (no damping). N from the normal row v̇_n = 0. Returns F = (F_T, N). */
static void comp_force(const cb_fil_maps *m, double mu, double KE, double KD, comp_state *x,
                       double F[3])
{
    F[0] = -KE * x->S[0] - KD * x->u[0];
    F[1] = -KE * x->S[1] - KD * x->u[1];
    F[2] = -(m->b[2] + m->W[2][0] * F[0] + m->W[2][1] * F[1]) / m->W[2][2];
    double f = hypot(F[0], F[1]), cap = mu * fmax(F[2], 0);
    x->kinetic = f > cap;
    if (x->kinetic) {
        double fs = hypot(x->S[0], x->S[1]) > 0 ? -KE * x->S[0] : F[0];
        double gs = hypot(x->S[0], x->S[1]) > 0 ? -KE * x->S[1] : F[1];
        double n = hypot(fs, gs);
        F[0] = n > 0 ? cap * fs / n : 0;
        F[1] = n > 0 ? cap * gs / n : 0;
        x->S[0] = -F[0] / KE;
        x->S[1] = -F[1] / KE;
    }
}

/* Half-implicit symplectic Euler of u̇ = (W F + b)_T + Ω(u2, −u1), ω̇ = G F + h,
 * Ṡ = u + Ω(S2, −S1) (ω frozen when `freeze`); the wheel's ω is kept off axis × n (the
 * balancing constraint). */
static int comp_step(cb_fil_body *b, double mu, double KE, double KD, double dt, int freeze,
                     comp_state *x, cb_error *err)
{
    cb_fil_maps m;
    int rc = cb_fil_body_maps(b, &m, err);
    if (rc != CB_OK)
        return rc;
    double F[3], Om = frame_rate(b);
    comp_force(&m, mu, KE, KD, x, F);
    double du[2], dw[3];
    for (int i = 0; i < 2; i++)
        du[i] = m.W[i][0] * F[0] + m.W[i][1] * F[1] + m.W[i][2] * F[2] + m.b[i];
    for (int i = 0; i < 3; i++)
        dw[i] = m.G[i][0] * F[0] + m.G[i][1] * F[1] + m.G[i][2] * F[2] + m.h[i];
    double u0 = x->u[0], S0 = x->S[0];
    x->u[0] += dt * (du[0] + Om * x->u[1]);
    x->u[1] += dt * (du[1] - Om * u0);
    for (int i = 0; i < 3 && !freeze; i++)
        b->omega[i] += dt * dw[i];
    if (b->level_axis) {
        double k[2] = {b->axis[1], -b->axis[0]}, kk = k[0] * k[0] + k[1] * k[1];
        double c = (b->omega[0] * k[0] + b->omega[1] * k[1]) / kk;
        b->omega[0] -= c * k[0];
        b->omega[1] -= c * k[1];
    }
    x->S[0] += dt * (x->u[0] + Om * x->S[1]);
    x->S[1] += dt * (x->u[1] - Om * S0);
    return CB_OK;
}

/* One compliant run from slip ε(cos a, sin a), spring at the capped rolling force: 1 if it
 * stays in static mode over [T/2, T]; *psi = final slip direction. */
static int comp_run(const cb_fil_body *b0, const cb_fil_report *rep, const cb_fc_settings *s,
                    double a, int *returned, double *psi, cb_error *err)
{
    cb_fil_body b = *b0;
    double mu = b.friction.mu, KE = s->K_E, KD = s->kd_factor * sqrt(b.mass * KE);
    double f = rep->rolling.friction, cap = mu * rep->rolling.normal;
    double sc = f > cap ? cap / f : 1;
    comp_state x = {{s->comp_slip * cos(a), s->comp_slip * sin(a)},
                    {-sc * rep->rolling.force[0] / KE, -sc * rep->rolling.force[1] / KE}, 0};
    long nstep = lround(s->comp_T / s->comp_dt), nkin = 0;
    for (long k = 0; k < nstep; k++) {
        int rc = comp_step(&b, mu, KE, KD, s->comp_dt, s->comp_freeze_omega, &x, err);
        if (rc != CB_OK)
            return rc;
        if (!isfinite(x.u[0]) || !isfinite(x.u[1]))
            return cb_fail(err, CB_ERR_INTERNAL, "filippov check: compliant run diverged");
        nkin += 2 * k >= nstep && x.kinetic;
    }
    /* rolling = static mode over the last half (the residual micro-slip of static mode, e.g.
     * Ω × S in the wheel's spinning frame, is O(μN|Ω|/K_E), not slip) */
    *returned = nkin == 0;
    *psi = atan2(x.u[1], x.u[0]);
    return CB_OK;
}

/* Cross-check (2) over comp_ndir start directions. */
static int check_compliant(const cb_fil_body *b, const cb_fil_report *rep,
                           const cb_fc_settings *s, cb_fc_result *r, cb_error *err)
{
    r->comp_returned = 0;
    r->comp_dir_err = NAN;
    for (int k = 0; k < s->comp_ndir; k++) {
        int ret = 0;
        double psi = 0, a = 2 * CB_PI * (k + 0.5) / s->comp_ndir;
        int rc = comp_run(b, rep, s, a, &ret, &psi, err);
        if (rc != CB_OK)
            return rc;
        r->comp_returned += ret;
        double e = ret ? NAN : repel_angle(&rep->paper.dirs, psi);
        if (!ret && !(e <= r->comp_dir_err))
            r->comp_dir_err = e;
    }
    r->comp_roll = r->comp_returned == s->comp_ndir;
    r->agree_comp = r->comp_roll == r->rolls;
    return CB_OK;
}

int cb_fc_check_body(const cb_fil_body *b, const cb_fc_settings *s, cb_rng *rng,
                     cb_fc_result *r, cb_error *err)
{
    if (!b || !r || !rng)
        return cb_fail(err, CB_ERR_INPUT, "filippov check: body, rng and result needed");
    int rc = cb_fc_settings_check(s, err);
    if (rc != CB_OK)
        return rc;
    if (b->friction.law != CB_FIL_COULOMB)
        return cb_fail(err, CB_ERR_INPUT, "friction: the cross-checks need Coulomb (μ0 = μ; "
                                          "AS Theorem 4)");
    memset(r, 0, sizeof *r);
    cb_fil_settings fs;
    cb_fil_settings_default(&fs);
    cb_fil_report rep;
    if ((rc = cb_fil_body_analyze(b, &fs, &rep, err)) != CB_OK)
        return rc;
    r->kase = rep.paper.dirs.kase;
    r->rolls = r->kase == CB_FIL_CASE_I || r->kase == CB_FIL_CASE_II;
    r->ratio = rep.rolling.ratio;
    r->near_boundary = r->kase == CB_FIL_DEGENERATE || fabs(r->ratio - 1) < s->boundary_margin;
    if ((rc = check_ccp(b, &rep, s, rng, r, err)) != CB_OK)
        return rc;
    return check_compliant(b, &rep, s, r, err);
}

void cb_fc_tally_add(cb_fc_tally *t, const cb_fc_result *r)
{
    t->n++;
    t->n_rolls += r->rolls;
    t->agree_ccp += r->agree_ccp;
    t->agree_comp += r->agree_comp;
    if (r->near_boundary)
        return;
    t->n_away++;
    t->agree_ccp_away += r->agree_ccp;
    t->agree_comp_away += r->agree_comp;
    if (r->ccp_dir_err > t->max_ccp_dir_err)
        t->max_ccp_dir_err = r->ccp_dir_err;
}

/* ------------------------------------------------------------------ samplers */

/* M_d = x μ m g ρ, ω2 ω3 = y g μ / ρ with ω3 = ±e^U(−1,1)·√|…| split at random. */
int cb_fc_wheel_sample(cb_rng *rng, double range, cb_fil_wheel *w, double *x, double *y,
                       cb_error *err)
{
    if (!rng || !w || !x || !y || !(range > 0 && isfinite(range)))
        return cb_fail(err, CB_ERR_INPUT, "wheel sample: rng, outputs and range > 0 needed");
    cb_fil_wheel_default(w);
    w->m = cb_rng_range(rng, 0.5, 5);
    w->rho = cb_rng_range(rng, 0.1, 1);
    w->mu = cb_rng_range(rng, 0.1, 1);
    w->Ms = cb_rng_range(rng, -1, 1) * w->mu * w->m * w->g * w->rho;
    *x = cb_rng_range(rng, -range, range);
    *y = cb_rng_range(rng, -range, range);
    w->Md = *x * w->mu * w->m * w->g * w->rho;
    double p = *y * w->g * w->mu / w->rho, split = exp(cb_rng_range(rng, -1, 1));
    w->w3 = split * sqrt(fabs(p)) * (cb_rng_uniform(rng) < 0.5 ? -1 : 1);
    w->w2 = p / w->w3;
    return cb_fil_wheel_check(w, err);
}

/* Horizontal force ≤ load·(7/2)μmg and torque ≤ load·(7/5)μmgR (each alone saturates friction
 * at load = 1), random ω. */
int cb_fc_sphere_sample(cb_rng *rng, double load, cb_fil_shape_state *s, cb_error *err)
{
    if (!rng || !s || !(load > 0 && isfinite(load)))
        return cb_fail(err, CB_ERR_INPUT, "sphere sample: rng, state and load > 0 needed");
    cb_fil_shape_state_default(s);
    s->mass = cb_rng_range(rng, 0.5, 5);
    s->radius = cb_rng_range(rng, 0.05, 0.5);
    s->g = CB_GRAVITY;
    s->friction = (cb_fil_friction){CB_FIL_COULOMB, cb_rng_range(rng, 0.1, 1), 0, 0};
    s->normal_force = NAN;
    double f0 = s->friction.mu * s->mass * s->g, a = 2 * CB_PI * cb_rng_uniform(rng);
    double F = load * 3.5 * f0 * cb_rng_uniform(rng);
    double b = 2 * CB_PI * cb_rng_uniform(rng), T = load * 1.4 * f0 * s->radius *
                                                   cb_rng_uniform(rng);
    s->force[0] = F * cos(a);
    s->force[1] = F * sin(a);
    s->force[2] = 0;
    s->torque[0] = T * cos(b);
    s->torque[1] = T * sin(b);
    s->torque[2] = cb_rng_range(rng, -1, 1) * f0 * s->radius;
    for (int k = 0; k < 3; k++)
        s->omega[k] = cb_rng_range(rng, -1.5, 1.5) * sqrt(s->g / s->radius);
    return CB_OK;
}
