/* conebench — the rigid body behind the Filippov analysis (Antali & Stepan 2019 §2, §4, §5):
 * contact-point dynamics v̇_P = W F_P + b, ω̇ = G F_P + h from the Newton–Euler equations
 * (eq. 10–11), the limit field A, B, C (eq. 29–33), the rolling (static) force and Theorem 4,
 * the sliding vector (eq. 56), the exact directional limits with N(φ), and the full slipping
 * vector field. Shapes and the wheel are in models/filippov_shapes.c. */
#include "filippov.h"

#include <math.h>
#include <string.h>

#include "vec3.h"
#include "base.h"

/* ------------------------------------------------------------------ validation */

static int check_vec(const double v[3], const char *name, cb_error *err)
{
    for (int k = 0; k < 3; k++)
        if (!isfinite(v[k]))
            return cb_fail(err, CB_ERR_INPUT, "%s: component %d is not finite", name, k + 1);
    return CB_OK;
}

/* J finite, symmetric and positive definite (leading minors, relative to its size). */
static int check_inertia(const double J[3][3], cb_error *err)
{
    double s = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            if (!isfinite(J[i][j]))
                return cb_fail(err, CB_ERR_INPUT, "inertia: entry (%d,%d) is not finite", i + 1,
                               j + 1);
            s = fmax(s, fabs(J[i][j]));
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < i; j++)
            if (fabs(J[i][j] - J[j][i]) > 1e-12 * s)
                return cb_fail(err, CB_ERR_INPUT, "inertia: not symmetric");
    double m2 = J[0][0] * J[1][1] - J[0][1] * J[1][0];
    double m3 = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
                J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) +
                J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
    if (!(J[0][0] > 1e-14 * s && m2 > 1e-14 * s * s && m3 > 1e-14 * s * s * s))
        return cb_fail(err, CB_ERR_INPUT, "inertia: not positive definite");
    return CB_OK;
}

/* ρ finite, symmetric, positive semidefinite. */
static int check_curv(const double r[2][2], cb_error *err)
{
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            if (!isfinite(r[i][j]))
                return cb_fail(err, CB_ERR_INPUT, "curv_radius: entry (%d,%d) is not finite",
                               i + 1, j + 1);
    double s = fmax(fabs(r[0][0]), fmax(fabs(r[1][1]), fabs(r[0][1])));
    if (fabs(r[0][1] - r[1][0]) > 1e-12 * s)
        return cb_fail(err, CB_ERR_INPUT, "curv_radius: not symmetric");
    if (r[0][0] < 0 || r[1][1] < 0 || r[0][0] * r[1][1] - r[0][1] * r[1][0] < -1e-12 * s * s)
        return cb_fail(err, CB_ERR_INPUT, "curv_radius: not positive semidefinite (the body "
                                          "must be convex at P)");
    return CB_OK;
}

int cb_fil_friction_check(const cb_fil_friction *f, cb_error *err)
{
    if (f->law != CB_FIL_COULOMB && f->law != CB_FIL_STICTION && f->law != CB_FIL_STRIBECK)
        return cb_fail(err, CB_ERR_INPUT, "law: unknown friction law %d", (int)f->law);
    if (!(isfinite(f->mu) && f->mu > 0))
        return cb_fail(err, CB_ERR_INPUT, "mu: must be finite and > 0, got %g", f->mu);
    if (f->law != CB_FIL_COULOMB && !(isfinite(f->mu_static) && f->mu_static > 0))
        return cb_fail(err, CB_ERR_INPUT, "mu0: must be finite and > 0, got %g", f->mu_static);
    if (f->law == CB_FIL_STRIBECK && !(isfinite(f->gamma) && f->gamma > 0))
        return cb_fail(err, CB_ERR_INPUT, "gamma: must be finite and > 0, got %g", f->gamma);
    return CB_OK;
}

/* The balancing axis: not parallel to n, and ω · (axis × n) = 0 (the axis is not tilting). */
static int check_axis(const cb_fil_body *b, cb_error *err)
{
    int rc = check_vec(b->axis, "axis", err);
    if (rc != CB_OK)
        return rc;
    double k[3], n[3] = {0, 0, 1};
    v3_cross(b->axis, n, k);
    double kn = v3_norm(k), an = v3_norm(b->axis);
    if (!(kn > 1e-9 * an))
        return cb_fail(err, CB_ERR_INPUT, "axis: zero or parallel to the normal");
    if (fabs(v3_dot(b->omega, k)) > 1e-9 * kn * fmax(v3_norm(b->omega), 1e-300))
        return cb_fail(err, CB_ERR_INPUT, "omega: has a component along axis × n = %.6g; the "
                                          "balancing constraint needs the axis not tilting",
                       v3_dot(b->omega, k) / kn);
    return CB_OK;
}

int cb_fil_body_check(const cb_fil_body *b, cb_error *err)
{
    if (!b)
        return cb_fail(err, CB_ERR_INPUT, "filippov: NULL body");
    if (!(isfinite(b->mass) && b->mass > 0))
        return cb_fail(err, CB_ERR_INPUT, "m: must be finite and > 0, got %g", b->mass);
    int rc = check_inertia(b->inertia, err);
    if (rc == CB_OK)
        rc = check_vec(b->r_pc, "r_pc", err);
    if (rc == CB_OK && !(b->r_pc[2] > 0))
        rc = cb_fail(err, CB_ERR_INPUT, "r_pc: the centre of mass must be above the plane "
                                        "(component 3 > 0), got %g", b->r_pc[2]);
    if (rc == CB_OK)
        rc = check_curv(b->curv_radius, err);
    if (rc == CB_OK)
        rc = check_vec(b->omega, "omega", err);
    if (rc == CB_OK)
        rc = check_vec(b->force, "force", err);
    if (rc == CB_OK)
        rc = check_vec(b->torque, "torque", err);
    if (rc == CB_OK)
        rc = cb_fil_friction_check(&b->friction, err);
    if (rc == CB_OK && b->level_axis)
        rc = check_axis(b, err);
    if (rc == CB_OK && isinf(b->normal_force))
        rc = cb_fail(err, CB_ERR_INPUT, "N: must be finite");
    return rc;
}

/* ------------------------------------------------------------------ maps (eq. 10–11) */

/* Inverse of a symmetric positive definite 3×3 matrix (cofactors / determinant). */
static void inv3(const double J[3][3], double Ji[3][3])
{
    double c[3][3];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            c[i][j] = J[i1][j1] * J[i2][j2] - J[i1][j2] * J[i2][j1];
        }
    double det = J[0][0] * c[0][0] + J[0][1] * c[0][1] + J[0][2] * c[0][2];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            Ji[i][j] = c[j][i] / det;
}

/* Effective inverse inertia J̃⁻¹ = J⁻¹ − J⁻¹k kᵀJ⁻¹/(kᵀJ⁻¹k) under the balancing torque λ k,
 * k = axis × n / |axis × n|, and the constraint's own ω̇ = J⁻¹k c/(kᵀJ⁻¹k), where
 * c = k·ω̇ = −(ω × (ω × e))·n / |e × n| keeps d²(e·n)/dt² = 0. */
static void effective_inverse(const cb_fil_body *b, double Jt[3][3], double extra[3])
{
    inv3(b->inertia, Jt);
    memset(extra, 0, 3 * sizeof *extra);
    if (!b->level_axis)
        return;
    double n[3] = {0, 0, 1}, k[3], Jik[3], we[3], wwe[3];
    v3_cross(b->axis, n, k);
    double kn = v3_normalize(k);
    m3_mul(&Jt[0][0], k, Jik);
    double kJk = v3_dot(k, Jik);
    v3_cross(b->omega, b->axis, we);
    v3_cross(b->omega, we, wwe);
    double c = -wwe[2] / kn;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            Jt[i][j] -= Jik[i] * Jik[j] / kJk;
        extra[i] = Jik[i] * c / kJk;
    }
}

/* ω̇ = J̃⁻¹(T_C − ω×Jω − r×F_P) + extra  ⇒  G = −J̃⁻¹[r]×, h = J̃⁻¹(T_C − ω×Jω) + extra;
 * v̇_P = (F_C + F_P)/m + r × ω̇ − ω × ṙ, ṙ = ω × r − w_P, w_P = ρ (ω × n)  (eq. 4–5, 11)
 *   ⇒ W = I/m + [r]× G, b = F_C/m + r × h − ω × ṙ. Spinning frame: h += ω3 (ω × n). */
static void maps_unchecked(const cb_fil_body *b, cb_fil_maps *m)
{
    double Jt[3][3], extra[3], Jw[3], wJw[3], tau[3];
    effective_inverse(b, Jt, extra);
    m3_mul(&b->inertia[0][0], b->omega, Jw);
    v3_cross(b->omega, Jw, wJw);
    for (int k = 0; k < 3; k++)
        tau[k] = b->torque[k] - wJw[k];
    m3_mul(&Jt[0][0], tau, m->h);
    v3_axpy(m->h, 1.0, extra, m->h);
    const double *r = b->r_pc;
    double rx[3][3] = {{0, -r[2], r[1]}, {r[2], 0, -r[0]}, {-r[1], r[0], 0}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            m->G[i][j] = 0;
            for (int k = 0; k < 3; k++)
                m->G[i][j] -= Jt[i][k] * rx[k][j];
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            m->W[i][j] = (i == j) / b->mass;
            for (int k = 0; k < 3; k++)
                m->W[i][j] += rx[i][k] * m->G[k][j];
        }
    const double *w = b->omega, (*rho)[2] = b->curv_radius;
    double wxn[2] = {w[1], -w[0]}; /* ω × n on (t1, t2) */
    double wp[3] = {rho[0][0] * wxn[0] + rho[0][1] * wxn[1],
                    rho[1][0] * wxn[0] + rho[1][1] * wxn[1], 0};
    double wr[3], rdot[3], wrd[3], rh[3];
    v3_cross(w, r, wr);
    v3_axpy(wr, -1.0, wp, rdot);
    v3_cross(w, rdot, wrd);
    v3_cross(r, m->h, rh);
    for (int k = 0; k < 3; k++)
        m->b[k] = b->force[k] / b->mass + rh[k] - wrd[k];
    if (b->frame_spins) {
        m->h[0] += w[2] * wxn[0];
        m->h[1] += w[2] * wxn[1];
    }
}

int cb_fil_body_maps(const cb_fil_body *b, cb_fil_maps *m, cb_error *err)
{
    int rc = cb_fil_body_check(b, err);
    if (rc == CB_OK)
        maps_unchecked(b, m);
    return rc;
}

/* ------------------------------------------------------------------ rolling (eq. 56–58) */

/* x = M⁻¹ y for a 3×3 matrix (Gaussian elimination, partial pivoting); 0 if singular. */
static int solve3(const double M[3][3], const double y[3], double x[3])
{
    double a[3][4];
    for (int i = 0; i < 3; i++) {
        memcpy(a[i], M[i], 3 * sizeof(double));
        a[i][3] = y[i];
    }
    for (int c = 0; c < 3; c++) {
        int p = c;
        for (int i = c + 1; i < 3; i++)
            if (fabs(a[i][c]) > fabs(a[p][c]))
                p = i;
        if (a[p][c] == 0)
            return 0;
        for (int j = 0; j < 4; j++) {
            double t = a[c][j];
            a[c][j] = a[p][j];
            a[p][j] = t;
        }
        for (int i = c + 1; i < 3; i++) {
            double f = a[i][c] / a[c][c];
            for (int j = c; j < 4; j++)
                a[i][j] -= f * a[c][j];
        }
    }
    for (int i = 2; i >= 0; i--) {
        double s = a[i][3];
        for (int j = i + 1; j < 3; j++)
            s -= a[i][j] * x[j];
        x[i] = s / a[i][i];
    }
    return 1;
}

/* Static coefficient μ0 of the rolling check (μ for Coulomb). */
static double mu_static(const cb_fil_friction *f)
{
    return f->law == CB_FIL_COULOMB ? f->mu : f->mu_static;
}

/* F_P of rolling: W F_P + b = 0 (v̇_P = 0); ω̇ = G F_P + h; admissible iff |F_f| < μ0 N. */
int cb_fil_rolling_solve(const cb_fil_body *b, const cb_fil_maps *m, cb_fil_rolling *out,
                         cb_error *err)
{
    memset(out, 0, sizeof *out);
    double rhs[3] = {-m->b[0], -m->b[1], -m->b[2]};
    if (!solve3(m->W, rhs, out->force) || !cb_all_finite(out->force, 3))
        return cb_fail(err, CB_ERR_INTERNAL, "filippov: singular contact matrix W");
    out->friction = hypot(out->force[0], out->force[1]);
    out->normal = out->force[2];
    out->ratio = out->friction / (mu_static(&b->friction) * out->normal);
    out->admissible = out->normal > 0 && out->ratio < 1;
    m3_mul(&m->G[0][0], out->force, out->omega_dot);
    v3_axpy(out->omega_dot, 1.0, m->h, out->omega_dot);
    return CB_OK;
}

/* ------------------------------------------------------------------ limit field (eq. 29–33) */

/* Coefficient of the limit field: μ, or μ0 for Stribeck (μ̃ → μ0 as |v_P| → 0, Prop. 10). */
static double mu_limit(const cb_fil_friction *f)
{
    return f->law == CB_FIL_STRIBECK ? f->mu_static : f->mu;
}

/* F_P = N (n − μ d(φ)) in eq. 10–11: A = −μN (W e1, G e1), B = −μN (W e2, G e2),
 * C = (b + N W n, h + N G n) (eq. 32), u-rows = (t1, t2) rows. */
static void limit_coefficients(const cb_fil_maps *m, double N, double mu, cb_fil_report *r)
{
    cb_fil_rate *abc[3] = {&r->A, &r->B, &r->C};
    for (int j = 0; j < 3; j++) {
        double s = j < 2 ? -mu * N : N;
        for (int i = 0; i < 2; i++)
            abc[j]->u[i] = s * m->W[i][j] + (j == 2 ? m->b[i] : 0);
        for (int i = 0; i < 3; i++)
            abc[j]->w[i] = s * m->G[i][j] + (j == 2 ? m->h[i] : 0);
    }
}

/* F_Σ = α A + β B + C (eq. 56). */
static void sliding_vector(const cb_fil_report *r, cb_fil_rate *F)
{
    double a = r->paper.weights[0], c = r->paper.weights[1];
    for (int i = 0; i < 2; i++)
        F->u[i] = a * r->A.u[i] + c * r->B.u[i] + r->C.u[i];
    for (int i = 0; i < 3; i++)
        F->w[i] = a * r->A.w[i] + c * r->B.w[i] + r->C.w[i];
}

/* ------------------------------------------------------------------ exact limits, N(φ) */

/* N(φ) = −b_n / (W_nn − μ W_nt·d) from v̇_P·n = 0; u̇ = N (W_tn − μ W_tt d) + b_t, so
 * den·u̇ = Ã cos φ + B̃ sin φ + C̃ with Ã = μ(b_n W_tt e1 − b_t W_n1), B̃ = μ(b_n W_tt e2 −
 * b_t W_n2), C̃ = W_nn b_t − b_n W_tn, den = W_nn − μ(W_n1 cos φ + W_n2 sin φ). */
static void exact_field(const cb_fil_maps *m, double mu, cb_fil_field *f)
{
    const double (*W)[3] = m->W, *b = m->b;
    double A[2], B[2], C[2];
    for (int i = 0; i < 2; i++) {
        A[i] = mu * (b[2] * W[i][0] - b[i] * W[2][0]);
        B[i] = mu * (b[2] * W[i][1] - b[i] * W[2][1]);
        C[i] = W[2][2] * b[i] - b[2] * W[i][2];
    }
    cb_fil_coef num = {A[0], A[1], B[0], B[1], C[0], C[1]};
    f->num = num;
    f->d0 = W[2][2];
    f->dc = -mu * W[2][0];
    f->ds = -mu * W[2][1];
}

/* (u-rows of) num(φ)/den(φ) */
static void field_eval(const cb_fil_field *f, double phi, double out[2])
{
    double c = cos(phi), s = sin(phi), den = f->d0 + f->dc * c + f->ds * s;
    out[0] = (f->num.A1 * c + f->num.B1 * s + f->num.C1) / den;
    out[1] = (f->num.A2 * c + f->num.B2 * s + f->num.C2) / den;
}

/* max_φ |F_exact − F| / max_φ |F| over 256 angles (a report figure, not a root search). */
static double field_difference(const cb_fil_field *exact, const cb_fil_field *paper)
{
    double dmax = 0, fmax_ = 0;
    for (int k = 0; k < 256; k++) {
        double e[2], p[2], phi = k * CB_PI / 128;
        field_eval(exact, phi, e);
        field_eval(paper, phi, p);
        dmax = fmax(dmax, hypot(e[0] - p[0], e[1] - p[1]));
        fmax_ = fmax(fmax_, hypot(p[0], p[1]));
    }
    return fmax_ > 0 ? dmax / fmax_ : dmax;
}

/* Largest angular shift between two direction sets of the same size (best cyclic match). */
static double direction_shift(const cb_fil_dirset *a, const cb_fil_dirset *b)
{
    if (a->ndir != b->ndir || a->ndir == 0)
        return NAN;
    double best = INFINITY;
    for (int off = 0; off < a->ndir; off++) {
        double worst = 0;
        for (int k = 0; k < a->ndir; k++) {
            double d = fabs(a->dir[k].phi - b->dir[(k + off) % a->ndir].phi);
            worst = fmax(worst, fmin(d, 2 * CB_PI - d));
        }
        best = fmin(best, worst);
    }
    return best;
}

/* Exact directional limits and their difference from AS's decomposition. */
static int exact_limits(const cb_fil_settings *s, cb_fil_report *r, cb_error *err)
{
    exact_field(&r->maps, r->mu_limit, &r->exact);
    double amp = hypot(r->exact.dc, r->exact.ds), bn = r->maps.b[2];
    r->exact_valid = -bn > 0 && r->exact.d0 > amp;
    r->N_min = r->exact_valid ? -bn / (r->exact.d0 + amp) : NAN;
    r->N_max = r->exact_valid ? -bn / (r->exact.d0 - amp) : NAN;
    r->exact_diff = NAN;
    r->exact_dir_shift = NAN;
    if (!r->exact_valid)
        return CB_OK;
    int rc = cb_fil_directions(&r->exact, s, &r->exact_dirs, err);
    if (rc != CB_OK)
        return rc;
    cb_fil_field paper = {r->paper.input, 1, 0, 0};
    r->exact_diff = field_difference(&r->exact, &paper);
    r->exact_dir_shift = direction_shift(&r->paper.dirs, &r->exact_dirs);
    return CB_OK;
}

/* ------------------------------------------------------------------ the whole analysis */

int cb_fil_body_analyze(const cb_fil_body *b, const cb_fil_settings *s, cb_fil_report *r,
                        cb_error *err)
{
    memset(r, 0, sizeof *r);
    int rc = cb_fil_body_maps(b, &r->maps, err);
    if (rc == CB_OK)
        rc = cb_fil_rolling_solve(b, &r->maps, &r->rolling, err);
    if (rc != CB_OK)
        return rc;
    r->N = b->normal_force > 0 ? b->normal_force : r->rolling.normal;
    if (!(r->N > 0))
        return cb_fail(err, CB_ERR_INPUT, "N: the rolling normal force is %g ≤ 0: the body lifts "
                                          "off (the analysis assumes N > 0)", r->N);
    r->mu_limit = mu_limit(&b->friction);
    limit_coefficients(&r->maps, r->N, r->mu_limit, r);
    cb_fil_coef c = {r->A.u[0], r->A.u[1], r->B.u[0], r->B.u[1], r->C.u[0], r->C.u[1]};
    if ((rc = cb_fil_analyze(&c, s, &r->paper, err)) != CB_OK)
        return rc;
    sliding_vector(r, &r->F_sigma);
    r->theorem4_holds = r->rolling.admissible == (r->paper.dirs.nrepelling == 0);
    return exact_limits(s, r, err);
}

/* ------------------------------------------------------------------ slipping vector field */

/* μ̃(|u|) of the friction law (eq. 59 for Stribeck). */
static double mu_slip(const cb_fil_friction *f, double speed)
{
    if (f->law == CB_FIL_STRIBECK)
        return (f->mu_static - f->mu) * exp(-f->gamma * speed) + f->mu;
    return f->mu;
}

/* Slipping at u ≠ 0: F_P = N (n − μ̃ u/|u|), N from v̇_P·n = 0; u̇ = (W F_P + b)_t + Ω (u2, −u1)
 * (spinning frame), ω̇ = G F_P + h. */
static int slip_rate_maps(const cb_fil_body *b, const cb_fil_maps *m, const double u[2],
                          cb_fil_rate *rate, double *N, cb_error *err)
{
    double speed = hypot(u[0], u[1]);
    if (!(speed > 0) || !isfinite(speed))
        return cb_fail(err, CB_ERR_INPUT, "u: the slip velocity must be finite and nonzero");
    double mu = mu_slip(&b->friction, speed), d[2] = {u[0] / speed, u[1] / speed};
    double den = m->W[2][2] - mu * (m->W[2][0] * d[0] + m->W[2][1] * d[1]);
    if (!(den > 0))
        return cb_fail(err, CB_ERR_INPUT, "filippov: W_nn − μ W_nt·d ≤ 0 (Painlevé: no "
                                          "consistent normal force)");
    double n = -m->b[2] / den, F[3] = {-mu * n * d[0], -mu * n * d[1], n}, a[3];
    m3_mul(&m->W[0][0], F, a);
    double spin = b->frame_spins ? b->omega[2] : 0;
    rate->u[0] = a[0] + m->b[0] + spin * u[1];
    rate->u[1] = a[1] + m->b[1] - spin * u[0];
    m3_mul(&m->G[0][0], F, rate->w);
    v3_axpy(rate->w, 1.0, m->h, rate->w);
    if (N)
        *N = n;
    return CB_OK;
}

int cb_fil_slip_rate(const cb_fil_body *b, const double u[2], cb_fil_rate *rate, double *N,
                     cb_error *err)
{
    cb_fil_maps m;
    int rc = cb_fil_body_maps(b, &m, err);
    return rc == CB_OK ? slip_rate_maps(b, &m, u, rate, N, err) : rc;
}

/* ------------------------------------------------------------------ simulation near Σ */

void cb_fil_sim_settings_default(cb_fil_sim_settings *s)
{
    s->radius = 1e-3;
    s->nstart = 48;
    s->stop_ratio = 1e-3;
    s->escape_ratio = 1.5;
    s->step_ratio = 0.01;
    s->max_steps = 20000;
    s->backward = 1;
}

/* ẋ = ±(u̇, ω̇) at x = (u1, u2, ω1, ω2, ω3), configuration frozen. */
static int sim_rhs(const cb_fil_body *b0, const double x[5], double sign, double dx[5],
                   cb_error *err)
{
    cb_fil_body b = *b0;
    memcpy(b.omega, x + 2, 3 * sizeof(double));
    cb_fil_maps m;
    maps_unchecked(&b, &m);
    cb_fil_rate r;
    int rc = slip_rate_maps(&b, &m, x, &r, NULL, err);
    if (rc != CB_OK)
        return rc;
    for (int k = 0; k < 2; k++)
        dx[k] = sign * r.u[k];
    for (int k = 0; k < 3; k++)
        dx[2 + k] = sign * r.w[k];
    return CB_OK;
}

/* One classical Runge–Kutta step of size h. */
static int rk4_step(const cb_fil_body *b, double x[5], double sign, double h, cb_error *err)
{
    double k[4][5], y[5];
    const double c[4] = {0, 0.5, 0.5, 1};
    int rc = CB_OK;
    for (int st = 0; st < 4 && rc == CB_OK; st++) {
        for (int i = 0; i < 5; i++)
            y[i] = x[i] + (st ? c[st] * h * k[st - 1][i] : 0);
        rc = sim_rhs(b, y, sign, k[st], err);
    }
    for (int i = 0; rc == CB_OK && i < 5; i++)
        x[i] += h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
    return rc;
}

/* One trajectory from slip velocity u0 (sign +1 forward, −1 backward). */
static int sim_one(const cb_fil_body *b, const cb_fil_sim_settings *s, const double u0[2],
                   double sign, int traj, cb_fil_point_fn fn, void *ctx, cb_error *err)
{
    double x[5] = {u0[0], u0[1], b->omega[0], b->omega[1], b->omega[2]}, t = 0, dx[5];
    int rc = CB_OK;
    if (fn(ctx, traj, t, x) != 0)
        return cb_fail(err, CB_ERR_IO, "filippov: output failed");
    for (int step = 0; rc == CB_OK && step < s->max_steps; step++) {
        double speed = hypot(x[0], x[1]);
        if (speed < s->stop_ratio * s->radius || speed > s->escape_ratio * s->radius)
            break;
        if ((rc = sim_rhs(b, x, sign, dx, err)) != CB_OK)
            break;
        double h = s->step_ratio * speed / fmax(hypot(dx[0], dx[1]), 1e-300);
        if ((rc = rk4_step(b, x, sign, h, err)) != CB_OK)
            break;
        t += sign * h;
        if (fn(ctx, traj, t, x) != 0)
            rc = cb_fail(err, CB_ERR_IO, "filippov: output failed");
    }
    return rc;
}

int cb_fil_simulate(const cb_fil_body *b, const cb_fil_sim_settings *s, cb_fil_point_fn fn,
                    void *ctx, cb_error *err)
{
    int rc = cb_fil_body_check(b, err);
    if (rc != CB_OK)
        return rc;
    if (!(s->radius > 0 && isfinite(s->radius)) || s->nstart < 1 || !(s->stop_ratio > 0) ||
        !(s->escape_ratio > 1) || !(s->step_ratio > 0 && s->step_ratio <= 0.5) ||
        s->max_steps < 1 || !fn)
        return cb_fail(err, CB_ERR_INPUT, "filippov: invalid simulation settings");
    for (int k = 0; rc == CB_OK && k < s->nstart; k++) {
        double a = 2 * CB_PI * (k + 0.5) / s->nstart;
        double u0[2] = {s->radius * cos(a), s->radius * sin(a)};
        rc = sim_one(b, s, u0, 1.0, (s->backward ? 2 : 1) * k, fn, ctx, err);
        if (rc == CB_OK && s->backward)
            rc = sim_one(b, s, u0, -1.0, 2 * k + 1, fn, ctx, err);
    }
    return rc;
}
