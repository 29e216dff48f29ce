/* conebench — the Fang & Negrut friction history model at one contact: contact-point tracking,
 * frame continuation (App. B), spin angle, slide (eq. 1a–1c), roll (eq. 2–2c), spin (eq. 3–3d,
 * App. C), and the legacy (eq. 8) and EDEM alternatives for roll and spin. */
#include "compliant_internal.h"

#include <math.h>
#include <string.h>

#include "vec3.h"

/* Kinematics of one step: frames of i and j at t1, p_i and p_j in (u1, w1), spin angle ψ. */
typedef struct {
    double u[3], w[3];   /* frame continued on body i */
    double ub[3], wb[3]; /* frame continued on body j */
    double pi[2], pj[2];
    double psi;
} cbc_kin;

/* App. B: (u, w) ⊥ n maximising u₀·u + w₀·w with w = n × u: u ∝ P(u₀) + w₀ × n. */
static void continue_frame(const double q[4], const double u_loc[3], const double w_loc[3],
                           const double n[3], double u[3], double w[3])
{
    double a[3], b[3], bn[3];
    cb_quat_rotate(q, u_loc, a);
    cb_quat_rotate(q, w_loc, b);
    v3_axpy(a, -v3_dot(a, n), n, a);
    v3_cross(b, n, bn);
    v3_axpy(a, 1.0, bn, u);
    if (v3_normalize(u) == 0) { /* frame turned over: any tangent */
        double e[3] = {fabs(n[0]) < 0.9 ? 1.0 : 0.0, fabs(n[0]) < 0.9 ? 0.0 : 1.0, 0.0};
        v3_axpy(e, -v3_dot(e, n), n, u);
        v3_normalize(u);
    }
    v3_cross(n, u, w);
}

/* p = C₁ − C̄₀: the old contact point (body-local C0loc) projected onto the tangent plane at
 * the geodesic distance from C₁ (Fig. 2); components in (u, w). */
static void track(const cb_body *b, const double C0loc[3], const double C1[3],
                  const double n[3], const double u[3], const double w[3], double p[2])
{
    double C0[3], d[3];
    cb_quat_rotate(b->q, C0loc, C0);
    v3_axpy(C0, 1.0, b->x, C0);
    v3_axpy(C0, -1.0, C1, d);
    v3_axpy(d, -v3_dot(d, n), n, d);
    double dn = v3_norm(d);
    p[0] = p[1] = 0.0;
    if (dn == 0)
        return;
    double s = cbc_arc(b, C0, C1) / dn;
    p[0] = -s * v3_dot(d, u);
    p[1] = -s * v3_dot(d, w);
}

/* Frames, p_i, p̄_j (components in the j frame = p_j after the counter-spin) and ψ. */
static void kinematics(const cb_compliant_contact *c, const cb_body *bi, const cb_body *bj,
                       const cbc_geom *g, cbc_kin *k)
{
    continue_frame(bi->q, c->ui0, c->wi0, g->n, k->u, k->w);
    continue_frame(bj->q, c->uj0, c->wj0, g->n, k->ub, k->wb);
    double x[3];
    v3_cross(k->ub, k->u, x);
    k->psi = atan2(v3_dot(x, g->n), v3_dot(k->ub, k->u)); /* rotation taking ū₁ onto u₁ */
    track(bi, c->Ci0, g->Ci, g->n, k->u, k->w, k->pi);
    track(bj, c->Cj0, g->Cj, g->n, k->ub, k->wb, k->pj);
}

/* Relative round-off guard of the capping tests: a deflection at its threshold to within a few
 * ulps (e.g. the brick at α = atan μ_s exactly, where tan(atan μ_s) ≠ μ_s in floating point)
 * counts as at the threshold, not above it (the paper's "α_s > 1" in exact arithmetic). */
#define CBC_ROUNDOFF 1e-12

/* Scale v (2-vector) to norm cap when above it; returns 1 when it was scaled. */
static int cap2(double v[2], double cap)
{
    double nv = hypot(v[0], v[1]);
    if (!(nv > cap * (1.0 + CBC_ROUNDOFF)))
        return 0;
    double a = cap > 0 ? cap / nv : 0.0;
    v[0] *= a;
    v[1] *= a;
    return 1;
}

/* A-posteriori capping of a micro-deflection (slide §3.1, roll §3.2): static → kinetic when
 * above the static threshold; kinetic stays kinetic while above the kinetic one.
 * Read literally: §3.2 "If α_s > 1, then set ... Θ_i = Θ^s_i and r_m = k" (we scale the vector
 * to |Θ| = Θ^s, the same for the scalar case) and "If α_k > 1, then ... Θ_i = Θ^d_i. Else, set
 * r_m = s" — the kinetic → static switch only changes the mode, Θ is kept. A consequence the
 * paper does not discuss: a μ_s/μ_k hysteresis. A sphere that reverses on an incline with the roll
 * kinetic (Θ = −Θ^k) swings to the static equilibrium, overshoots Θ^s, turns kinetic again and,
 * when m g R sin α > 2η_r R μ_k N, never stops: the S/PR edge of the regime map (Fig. 10) is
 * α = atan(2η_r μ_k), not App. D's static-equilibrium atan(2η_r μ_s). Independent of Δt, of
 * the damping factors and of the initial speed; see `reproduce --only regime`. */
static void cap_mode(double v[2], double th_s, double th_k, cb_friction_mode *mode)
{
    if (*mode == CB_MODE_STATIC) {
        if (cap2(v, th_s))
            *mode = CB_MODE_KINETIC;
    } else if (!cap2(v, th_k)) {
        *mode = CB_MODE_STATIC;
    }
}

/* Mass of the pair for critical damping (eq. 1c): the dynamic body's, or their mean. */
static double pair_mass(const cb_body *bi, const cb_body *bj)
{
    if (bi->fixed)
        return bj->mass;
    return bj->fixed ? bi->mass : 0.5 * (bi->mass + bj->mass);
}

/* Moment of inertia of b about the world axis a (unit). */
static double axis_inertia(const cb_body *b, const double a[3])
{
    if (b->inertia[0] == b->inertia[1] && b->inertia[1] == b->inertia[2])
        return b->inertia[0]; /* isotropic (spheres): no rotation needed */
    double Iw[9], Ia[3];
    cb_body_inertia_world(b, Iw);
    m3_mul(Iw, a, Ia);
    return v3_dot(a, Ia);
}

/* Slide (eq. 1a–1c): S += p_i − p_j, cap, E_f = K_E S, D_f = K_D ΔS/Δt in static mode. */
static void slide(const cbc_params *P, cb_compliant_contact *c, const cb_body *bi,
                  const cb_body *bj, const cbc_kin *k)
{
    const cb_compliant_settings *s = P->s;
    double KD = isnan(s->K_D) ? s->kd_factor * sqrt(pair_mass(bi, bj) * P->K_E) : s->K_D;
    for (int a = 0; a < 2; a++) {
        c->dS[a] = k->pi[a] - k->pj[a];
        c->S[a] += c->dS[a];
    }
    cap_mode(c->S, P->mu_s * c->N / P->K_E, P->mu_k * c->N / P->K_E, &c->slide);
    double damp = c->slide == CB_MODE_STATIC ? KD / P->dt : 0.0;
    for (int r = 0; r < 3; r++) {
        c->F_E[r] = -P->K_E * (c->S[0] * k->u[r] + c->S[1] * k->w[r]);
        c->F_D[r] = -damp * (c->dS[0] * k->u[r] + c->dS[1] * k->w[r]);
    }
}

/* Torque on a body (normal nb into it) of a roll load given in (u, w): −nb × (T_u u + T_w w). */
static void roll_torque(double sgn, const double T[2], const cbc_kin *k, double out[3])
{
    for (int r = 0; r < 3; r++) /* n × u = w, n × w = −u */
        out[r] = -sgn * (T[0] * k->w[r] - T[1] * k->u[r]);
}

/* Curvature of b at C along the tangent direction p (in (u, w)); mean curvature when p = 0. */
static double curvature_along(const cb_body *b, const double C[3], const double nb[3],
                              const double p[2], const cbc_kin *k)
{
    double t[3], np = hypot(p[0], p[1]);
    if (!(np > 0))
        return cbc_mean_curvature(b, C, nb);
    for (int r = 0; r < 3; r++)
        t[r] = (p[0] * k->u[r] + p[1] * k->w[r]) / np;
    return cbc_curvature(b, C, t);
}

/* Roll of body `side` (0: i, 1: j) (eq. 2–2c, Table 1): Θ += κ p, K_R = 4η_r K_E/(κ_b + κ_o)²,
 * Θ^{s,k} = μ_{s,k} N (κ_b + κ_o)/(2 K_E), T = K_R Θ + D_R κ p/Δt (static), D_R = 2√(I K_R). */
static void roll(const cbc_params *P, cb_compliant_contact *c, const cb_body *b,
                 const cb_body *o, const cbc_geom *g, const cbc_kin *k, int side)
{
    double sgn = side ? 1.0 : -1.0, nb[3], no[3], th[2];
    const double *p = side ? k->pj : k->pi;
    const double *C = side ? g->Cj : g->Ci, *Co = side ? g->Ci : g->Cj;
    v3_scale(g->n, -sgn, nb); /* outward normal of b */
    v3_scale(g->n, sgn, no);
    double kb = curvature_along(b, C, nb, p, k);
    double ko = P->s->roll_identical ? kb : curvature_along(o, Co, no, p, k);
    double ksum = kb + ko, *Th = c->Theta[side];
    memset(c->T_E[side], 0, sizeof c->T_E[side]);
    memset(c->T_D[side], 0, sizeof c->T_D[side]);
    c->kappa[side] = kb;
    if (b->fixed || !(kb > 0) || !(ksum > 0))
        return;
    double KR = 4.0 * P->eta_r * P->K_E / (ksum * ksum);
    th[0] = kb * p[0];
    th[1] = kb * p[1];
    Th[0] += th[0];
    Th[1] += th[1];
    double unit = c->N * ksum / (2.0 * P->K_E);
    cap_mode(Th, P->mu_s * unit, P->mu_k * unit, &c->roll[side]);
    double a[3], TE[2] = {KR * Th[0], KR * Th[1]}, TD[2] = {0, 0};
    if (c->roll[side] == CB_MODE_STATIC) {
        double tn = hypot(th[0], th[1]);
        for (int r = 0; r < 3; r++) /* rolling axis n × p̂ (u when p = 0) */
            a[r] = tn > 0 ? (th[0] * k->w[r] - th[1] * k->u[r]) / tn : k->u[r];
        double DR = P->s->dr_factor * sqrt(axis_inertia(b, a) * KR) / P->dt;
        TD[0] = DR * th[0];
        TD[1] = DR * th[1];
    }
    c->K_R[side] = KR;
    roll_torque(sgn, TE, k, c->T_E[side]);
    roll_torque(sgn, TD, k, c->T_D[side]);
}

/* Effective modulus of the pair: E*_b = E/(1−ν²) per body, the plane rigid unless E_ground. */
static double effective_modulus(const cb_compliant_settings *s, const cb_body *bi)
{
    double Es = s->E / (1.0 - s->nu * s->nu);
    if (bi->shape.kind == CB_SHAPE_PLANE) {
        if (!(s->E_ground > 0))
            return Es;
        double Eg = s->E_ground / (1.0 - s->nu * s->nu);
        return Es * Eg / (Es + Eg);
    }
    return 0.5 * Es;
}

/* Spin parameters: heuristic (eq. 3c, S^ψ = 𝒦 S^S) or Hertz (App. C, S^ψ = S^S/a). */
static void spin_params(const cbc_params *P, cb_compliant_contact *c, const cb_body *bi,
                        const cb_body *bj, const cbc_geom *g)
{
    const cb_compliant_settings *s = P->s;
    double nj[3], K = 0.0;
    int need_K = s->spin_hertz || isnan(s->spin_K) || P->variant == CB_COMPLIANT_EDEM;
    v3_scale(g->n, -1.0, nj);
    if (need_K)
        K = cbc_mean_curvature(bi, g->Ci, g->n) + cbc_mean_curvature(bj, g->Cj, nj);
    double Ss = P->mu_s * c->N / P->K_E, Sk = P->mu_k * c->N / P->K_E;
    c->a_hertz = c->N > 0 && K > 0 ? cbrt(3.0 * c->N / (K * 4.0 * effective_modulus(s, bi)))
                                   : 0.0;
    if (s->spin_hertz) {
        double a = c->a_hertz;
        c->spin_curv = K;
        c->K_psi = 0.5 * a * a * P->K_E;
        c->S_psi_s = a > 0 ? Ss / a : 0.0;
        c->S_psi_k = a > 0 ? Sk / a : 0.0;
    } else {
        double Kh = isnan(s->spin_K) ? K : s->spin_K;
        c->spin_curv = Kh;
        c->K_psi = Kh > 0 ? P->eta_psi * P->K_E / (Kh * Kh) : 0.0;
        c->S_psi_s = Kh * Ss;
        c->S_psi_k = Kh * Sk;
    }
}

/* Inertia about n of the dynamic body (mean of both when both are dynamic). */
static double pair_inertia_n(const cb_body *bi, const cb_body *bj, const double n[3])
{
    if (bi->fixed)
        return axis_inertia(bj, n);
    return bj->fixed ? axis_inertia(bi, n) : 0.5 * (axis_inertia(bi, n) + axis_inertia(bj, n));
}

/* Spin (eq. 3–3d): Ψ += ψ, capped by S^ψ_s/S^ψ_k; T on j = (K_ψ Ψ + D_ψ ψ/Δt) n. */
static void spin_fang(const cbc_params *P, cb_compliant_contact *c, const cb_body *bi,
                      const cb_body *bj, const cbc_geom *g, const cbc_kin *k)
{
    spin_params(P, c, bi, bj, g);
    c->psi = k->psi;
    double v[2] = {c->Psi + k->psi, 0.0};
    cap_mode(v, c->S_psi_s, c->S_psi_k, &c->spin);
    c->Psi = v[0];
    c->T_spin_E = c->K_psi * c->Psi;
    c->T_spin_D = 0.0;
    if (c->spin == CB_MODE_STATIC) {
        double D = P->s->dpsi_factor * sqrt(pair_inertia_n(bi, bj, g->n) * c->K_psi);
        c->T_spin_D = D * k->psi / P->dt;
    }
}

/* Relative angular velocity ω_j − ω_i. */
static void rel_omega(const cb_body *bi, const cb_body *bj, double wr[3])
{
    v3_axpy(bj->w, -1.0, bi->w, wr);
}

/* Legacy roll (eq. 8): on j, −ω̂_rel μ_r R_eff N; R_eff = 1/(κ_i + κ_j). */
static void roll_legacy(const cbc_params *P, cb_compliant_contact *c, const cb_body *bi,
                        const cb_body *bj, const cbc_geom *g)
{
    double wr[3], nj[3];
    v3_scale(g->n, -1.0, nj);
    double K = 2.0 * (cbc_mean_curvature(bi, g->Ci, g->n) + cbc_mean_curvature(bj, g->Cj, nj));
    double Reff = K > 0 ? 1.0 / K : 0.0, mag = P->s->mu_r_legacy * Reff * c->N;
    rel_omega(bi, bj, wr);
    double nw = v3_norm(wr);
    memset(c->T_E, 0, sizeof c->T_E);
    memset(c->T_D, 0, sizeof c->T_D);
    for (int r = 0; nw > 0 && r < 3; r++) {
        c->T_E[1][r] = -mag * wr[r] / nw;
        c->T_E[0][r] = -c->T_E[1][r];
    }
    c->roll[1] = CB_MODE_KINETIC;
}

/* EDEM spin: M = (2/3) μ_k N R_disk, limited to C_s |ω_n| min I/Δt, against ω_rel,n; rocking
 * damping −(γ_n/4) R_disk² ω_rel,t added to the roll torque of j (and its opposite on i). */
static void spin_edem(const cbc_params *P, cb_compliant_contact *c, const cb_body *bi,
                      const cb_body *bj, const cbc_geom *g, double gamma_n)
{
    const cb_compliant_settings *s = P->s;
    double wr[3], wt[3], Rd = c->a_hertz;
    rel_omega(bi, bj, wr);
    double wn = v3_dot(wr, g->n), Imin = INFINITY;
    for (int r = 0; r < 3; r++) {
        if (!bi->fixed)
            Imin = fmin(Imin, bi->inertia[r]);
        Imin = fmin(Imin, bj->inertia[r]);
    }
    double M = fmin(2.0 / 3.0 * P->mu_k * c->N * Rd, s->c_safety * fabs(wn) * Imin / P->dt);
    c->T_spin_E = wn > 0 ? -M : (wn < 0 ? M : 0.0);
    c->T_spin_D = 0.0;
    c->spin = CB_MODE_KINETIC;
    v3_axpy(wr, -wn, g->n, wt);
    double gn = gamma_n;
    for (int r = 0; r < 3; r++) {
        double m = -0.25 * gn * Rd * Rd * wt[r];
        c->T_D[1][r] += m;
        c->T_D[0][r] -= m;
    }
}

void cbc_contact_onset(cb_compliant_contact *c, const cb_body *bi, const cb_body *bj,
                       const cbc_geom *g)
{
    int i = c->i, j = c->j;
    memset(c, 0, sizeof *c);
    c->i = i;
    c->j = j;
    c->active = 1;
    double d[3];
    v3_copy(g->n, c->n);
    cb_contact_default_t1(bi, bj, g->n, c->u);
    v3_cross(c->n, c->u, c->w);
    v3_copy(g->Ci, c->point);
    cb_quat_rotate_inv(bi->q, c->u, c->ui0);
    cb_quat_rotate_inv(bi->q, c->w, c->wi0);
    cb_quat_rotate_inv(bj->q, c->u, c->uj0);
    cb_quat_rotate_inv(bj->q, c->w, c->wj0);
    v3_axpy(g->Ci, -1.0, bi->x, d);
    cb_quat_rotate_inv(bi->q, d, c->Ci0);
    v3_axpy(g->Cj, -1.0, bj->x, d);
    cb_quat_rotate_inv(bj->q, d, c->Cj0);
}

/* Store the aligned frame and the new contact points on both bodies for the next step. */
static void remember(cb_compliant_contact *c, const cb_body *bi, const cb_body *bj,
                     const cbc_geom *g, const cbc_kin *k)
{
    double d[3];
    v3_copy(g->n, c->n);
    v3_copy(k->u, c->u);
    v3_copy(k->w, c->w);
    v3_copy(g->Ci, c->point);
    cb_quat_rotate_inv(bi->q, k->u, c->ui0);
    cb_quat_rotate_inv(bi->q, k->w, c->wi0);
    cb_quat_rotate_inv(bj->q, k->u, c->uj0);
    cb_quat_rotate_inv(bj->q, k->w, c->wj0);
    v3_axpy(g->Ci, -1.0, bi->x, d);
    cb_quat_rotate_inv(bi->q, d, c->Ci0);
    v3_axpy(g->Cj, -1.0, bj->x, d);
    cb_quat_rotate_inv(bj->q, d, c->Cj0);
}

/* Normal damping coefficient of Chrono's SMC Hertz model for the spin rocking damping. */
static double hertz_gamma(const cbc_params *P, const cb_compliant_contact *c, const cb_body *bi,
                          const cb_body *bj)
{
    double e = P->s->e_rest, le = log(e > 0 ? e : 1e-12);
    double beta = le / sqrt(le * le + CB_PI * CB_PI);
    double Sn = 2.0 * effective_modulus(P->s, bi) * c->a_hertz;
    double m = bi->fixed ? bj->mass : bi->mass * bj->mass / (bi->mass + bj->mass);
    return 2.0 * sqrt(5.0 / 6.0) * fabs(beta) * sqrt(Sn * m);
}

void cbc_contact_update(const cbc_params *P, cb_compliant_contact *c, const cb_body *bi,
                        const cb_body *bj, const cbc_geom *g)
{
    cbc_kin k;
    kinematics(c, bi, bj, g, &k);
    slide(P, c, bi, bj, &k);
    if (P->variant == CB_COMPLIANT_LEGACY) {
        roll_legacy(P, c, bi, bj, g);
    } else {
        roll(P, c, bi, bj, g, &k, 0);
        roll(P, c, bj, bi, g, &k, 1);
    }
    if (P->variant == CB_COMPLIANT_EDEM) {
        spin_params(P, c, bi, bj, g); /* a (Hertz) for R_disk and γ_n */
        double gn = isnan(P->s->gamma_n) ? hertz_gamma(P, c, bi, bj) : P->s->gamma_n;
        spin_edem(P, c, bi, bj, g, gn);
    } else {
        spin_fang(P, c, bi, bj, g, &k);
    }
    remember(c, bi, bj, g, &k);
}

void cbc_contact_loads(const cb_compliant_contact *c, const cb_body *bi, const cb_body *bj,
                       const cbc_geom *g, double Fj[3], double Ti[3], double Tj[3])
{
    double r[3], m[3], Fi[3];
    for (int k = 0; k < 3; k++)
        Fj[k] = c->N * g->n[k] + c->F_E[k] + c->F_D[k];
    v3_scale(Fj, -1.0, Fi);
    v3_axpy(g->Cj, -1.0, bj->x, r);
    v3_cross(r, Fj, Tj);
    v3_axpy(g->Ci, -1.0, bi->x, r);
    v3_cross(r, Fi, Ti);
    double ts = c->T_spin_E + c->T_spin_D;
    for (int k = 0; k < 3; k++) {
        m[k] = ts * g->n[k];
        Tj[k] += c->T_E[1][k] + c->T_D[1][k] + m[k];
        Ti[k] += c->T_E[0][k] + c->T_D[0][k] - m[k];
    }
}
