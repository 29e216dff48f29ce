/* conebench tests — the extended-Filippov analysis (Antali & Stepan 2019, "AS"):
 * Theorems 2 and 3 against the directions found on 10⁵ random coefficient sets, Table 3 and
 * Prop. 9, Theorem 4 against the static friction force of an independently assembled rolling
 * system, Prop. 10 (Stribeck) and the stiction inconsistency, the exact directional limits
 * against the full slipping vector field, the wheel (eq. 62–70) against the generic derivation
 * and the analytic boundaries, AS's special values of |M_d|, and the `filippov` command. */
#include "test_support.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "filippov.h"
#include "rng.h"

#define TWO_PI 6.283185307179586

/* ------------------------------------------------------------------ helpers */

static double log_uniform(cb_rng *r, double lo, double hi)
{
    return exp(cb_rng_range(r, log(lo), log(hi)));
}

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

/* Random rotation matrix from a random unit quaternion. */
static void random_rotation(cb_rng *r, double Q[3][3])
{
    double q[4], n = 0;
    for (int k = 0; k < 4; k++) {
        q[k] = cb_rng_normal(r);
        n += q[k] * q[k];
    }
    n = sqrt(n);
    double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
    double M[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                      {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                      {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    memcpy(Q, M, sizeof M);
}

/* A random rigid body touching the plane (generic inertia, offset centre of mass, anisotropic
 * curvature, loads, spin); sometimes with the balancing constraint or the spinning frame. */
static void random_body(cb_rng *r, cb_fil_body *b)
{
    memset(b, 0, sizeof *b);
    double L = log_uniform(r, 0.05, 2), Q[3][3], Ip[3];
    b->mass = log_uniform(r, 0.1, 10);
    for (int k = 0; k < 3; k++)
        Ip[k] = b->mass * L * L * log_uniform(r, 0.02, 0.5);
    random_rotation(r, Q);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++)
                b->inertia[i][j] += Q[i][k] * Ip[k] * Q[j][k];
    b->r_pc[0] = L * cb_rng_range(r, -0.4, 0.4);
    b->r_pc[1] = L * cb_rng_range(r, -0.4, 0.4);
    b->r_pc[2] = L * cb_rng_range(r, 0.1, 1);
    double A[2][2] = {{cb_rng_normal(r), cb_rng_normal(r)}, {cb_rng_normal(r), cb_rng_normal(r)}};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            b->curv_radius[i][j] = 0.5 * L * (A[i][0] * A[j][0] + A[i][1] * A[j][1]);
    for (int k = 0; k < 3; k++) {
        b->omega[k] = 3 * cb_rng_normal(r) / sqrt(L);
        b->force[k] = 3 * b->mass * cb_rng_normal(r);
        b->torque[k] = 2 * b->mass * L * cb_rng_normal(r);
    }
    b->force[2] -= b->mass * 9.81;
    b->friction = (cb_fil_friction){CB_FIL_COULOMB, cb_rng_range(r, 0.1, 1.0), 0, 0};
    b->frame_spins = cb_rng_uniform(r) < 0.3;
    b->level_axis = cb_rng_uniform(r) < 0.3;
    b->normal_force = NAN;
    if (b->level_axis) {
        double n[3] = {0, 0, 1}, k[3];
        b->axis[0] = cb_rng_normal(r);
        b->axis[1] = cb_rng_normal(r);
        b->axis[2] = 0.5 * cb_rng_normal(r);
        cross(b->axis, n, k);
        double kn = sqrt(k[0] * k[0] + k[1] * k[1]), wk = (b->omega[0] * k[0] + b->omega[1] * k[1]) / kn;
        b->omega[0] -= wk * k[0] / kn;
        b->omega[1] -= wk * k[1] / kn;
    }
}

/* Rolling by a direct assembly of the Newton–Euler equations with v̇_P = 0, independent of
 * models/filippov_bodies.c: unknowns z = (a_C, ω̇, F_P, λ) (λ: balancing torque along k),
 *   m a_C − F_P = F_C,   J ω̇ + r × F_P − λ k = T_C − ω × Jω,
 *   a_C + r × ω̇ = ω × (ω × r − ρ(ω × n))   (v̇_P = a_C − ω̇ × r − ω × ṙ = 0),
 *   k · ω̇ = −(ω × (ω × e))·n / |e × n|    (or λ = 0 without the constraint).
 * Returns F_P and ω̇ in frame components (spinning frame: + ω3 (ω × n)). */
static void rolling_direct(const cb_fil_body *b, double F[3], double wdot[3])
{
    double M[10][10] = {{0}}, rhs[10] = {0}, n[3] = {0, 0, 1}, k[3] = {0, 0, 0}, c = 0;
    const double *r = b->r_pc, *w = b->omega;
    double rx[3][3] = {{0, -r[2], r[1]}, {r[2], 0, -r[0]}, {-r[1], r[0], 0}};
    double Jw[3], wJw[3], wxn[3], wp[3], wr[3], rd[3], wrd[3];
    for (int i = 0; i < 3; i++)
        Jw[i] = b->inertia[i][0] * w[0] + b->inertia[i][1] * w[1] + b->inertia[i][2] * w[2];
    cross(w, Jw, wJw);
    cross(w, n, wxn);
    wp[0] = b->curv_radius[0][0] * wxn[0] + b->curv_radius[0][1] * wxn[1];
    wp[1] = b->curv_radius[1][0] * wxn[0] + b->curv_radius[1][1] * wxn[1];
    wp[2] = 0;
    cross(w, r, wr);
    for (int i = 0; i < 3; i++)
        rd[i] = wr[i] - wp[i];
    cross(w, rd, wrd);
    if (b->level_axis) {
        double we[3], wwe[3];
        cross(b->axis, n, k);
        double kn = sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
        for (int i = 0; i < 3; i++)
            k[i] /= kn;
        cross(w, b->axis, we);
        cross(w, we, wwe);
        c = -wwe[2] / kn;
    }
    for (int i = 0; i < 3; i++) {
        M[i][i] = b->mass;
        M[i][6 + i] = -1;
        rhs[i] = b->force[i];
        for (int j = 0; j < 3; j++) {
            M[3 + i][3 + j] = b->inertia[i][j];
            M[3 + i][6 + j] = rx[i][j];
            M[6 + i][3 + j] = rx[i][j];
        }
        M[3 + i][9] = -k[i];
        rhs[3 + i] = b->torque[i] - wJw[i];
        M[6 + i][i] = 1;
        rhs[6 + i] = wrd[i];
        M[9][3 + i] = b->level_axis ? k[i] : 0;
    }
    M[9][9] = b->level_axis ? 0 : 1;
    rhs[9] = b->level_axis ? c : 0;
    lapack_int ipiv[10];
    assert_int_equal(LAPACKE_dgesv(LAPACK_ROW_MAJOR, 10, 1, &M[0][0], 10, ipiv, rhs, 1), 0);
    for (int i = 0; i < 3; i++) {
        F[i] = rhs[6 + i];
        wdot[i] = rhs[3 + i] + (b->frame_spins ? w[2] * wxn[i] : 0);
    }
}

/* ------------------------------------------------------------------ roots */

/* Companion-matrix roots on series with known zeros, including zeros at φ = 0 and π (t = 0, ∞
 * of the half-angle quartic), no zeros, V ≡ 0. */
static void test_trig2_roots(void **state)
{
    (void)state;
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    double roots[4];
    int n;
    cb_fil_trig2 sin2 = {0, 0, 0, 0, 1}; /* sin 2φ: 0, π/2, π, 3π/2 */
    assert_int_equal(cb_fil_trig2_roots(&sin2, 1, &s, roots, &n, NULL), CB_OK);
    assert_int_equal(n, 4);
    for (int k = 0; k < 4; k++)
        assert_true(fabs(roots[k] - k * TWO_PI / 4) < 1e-12);
    cb_fil_trig2 cosp = {0, 1, 0, 0, 0};
    assert_int_equal(cb_fil_trig2_roots(&cosp, 1, &s, roots, &n, NULL), CB_OK);
    assert_int_equal(n, 2);
    assert_true(fabs(roots[0] - TWO_PI / 4) < 1e-12 && fabs(roots[1] - 3 * TWO_PI / 4) < 1e-12);
    cb_fil_trig2 none = {1, 0.5, 0.2, 0.1, -0.1};
    assert_int_equal(cb_fil_trig2_roots(&none, 1, &s, roots, &n, NULL), CB_OK);
    assert_int_equal(n, 0);
    cb_fil_trig2 zero = {0, 0, 0, 0, 0};
    assert_int_equal(cb_fil_trig2_roots(&zero, 1, &s, roots, &n, NULL), CB_OK);
    assert_int_equal(n, -1);
    /* (cos φ − cos a)(sin φ − sin b)-like product with 4 known zeros */
    double a = 0.7, b = 2.0; /* V = sin(φ − a) sin(φ − b) ... zeros a, a+π, b, b+π */
    cb_fil_trig2 prod = {0.5 * cos(a - b), 0, 0, -0.5 * cos(a + b), -0.5 * sin(a + b)};
    assert_int_equal(cb_fil_trig2_roots(&prod, 1, &s, roots, &n, NULL), CB_OK);
    assert_int_equal(n, 4);
    double want[4] = {a, b, a + TWO_PI / 2, b + TWO_PI / 2};
    for (int k = 0; k < 4; k++)
        assert_true(fabs(roots[k] - want[k]) < 1e-12);
}

/* ------------------------------------------------------------------ Theorems 2, 3; Table 3 */

typedef struct {
    long sets, skipped, count_ok, repel_ok, prop9_ok, table3_ok, criteria_ok, cases[5];
    long sampled, sampled_ok;
    double max_residual, max_offdiag;
} thm_stats;

/* Independent count of sign changes of V on a fine grid (a check only; the library never
 * samples). */
static int sign_changes(const cb_fil_coef *c)
{
    cb_fil_trig2 V;
    cb_fil_circumferential(c, &V);
    int n = 0;
    double prev = cb_fil_trig2_eval(&V, 0);
    for (int k = 1; k <= 8192; k++) {
        double v = cb_fil_trig2_eval(&V, k * TWO_PI / 8192);
        n += (v > 0) != (prev > 0);
        prev = v;
    }
    return n;
}

/* Table 3 row of a case: attracting stable, attracting unstable, repelling stable. */
static void table3_row(cb_fil_case k, int row[3])
{
    static const int t[5][3] = {{0, 0, 0}, {1, 1, 0}, {2, 2, 0}, {0, 1, 1}, {1, 2, 1}};
    memcpy(row, t[k], sizeof t[k]);
}

/* One random set in reduced form (−λ1, −λ2, C̄) rotated by θ into the input frame. */
static void one_random_set(cb_rng *r, thm_stats *st, const cb_fil_settings *s, int sample)
{
    double l1 = log_uniform(r, 0.1, 10), l2 = log_uniform(r, 0.1, 10), th = cb_rng_range(r, 0, TWO_PI);
    double mag = fmax(l1, l2) * log_uniform(r, 0.01, 10), ang = cb_rng_range(r, 0, TWO_PI);
    double A1r = -l1, B2r = -l2, C1r = mag * cos(ang), C2r = mag * sin(ang);
    /* Theorem 2 (eq. 46) and Theorem 3 (eq. 48) from the construction */
    double fold = (cbrt(C1r * C1r) + cbrt(C2r * C2r)) / cbrt((B2r - A1r) * (B2r - A1r)) - 1;
    double rep = C1r * C1r / (A1r * A1r) + C2r * C2r / (B2r * B2r) - 1;
    st->sets++;
    if (fabs(fold) < 1e-3 || fabs(rep) < 1e-3) {
        st->skipped++;
        return;
    }
    double c = cos(th), sn = sin(th);
    cb_fil_coef in = {A1r * c * c + B2r * sn * sn, (A1r - B2r) * c * sn,
                      (A1r - B2r) * c * sn,       A1r * sn * sn + B2r * c * c,
                      c * C1r - sn * C2r,         sn * C1r + c * C2r};
    cb_fil_analysis an;
    assert_int_equal(cb_fil_analyze(&in, s, &an, NULL), CB_OK);
    int want_dirs = fold > 0 ? 2 : 4, want_rep = rep > 0;
    st->count_ok += an.dirs.ndir == want_dirs;
    st->repel_ok += an.dirs.nrepelling == want_rep;
    st->criteria_ok += an.kase_criteria == an.dirs.kase;
    st->cases[an.dirs.kase]++;
    st->max_offdiag = fmax(st->max_offdiag, fmax(fabs(an.reduced.A2), fabs(an.reduced.B1)) /
                                                fmax(l1, l2));
    int prop9 = 1, row[3], got[3] = {0, 0, 0};
    cb_fil_trig2 V;
    cb_fil_circumferential(&in, &V);
    for (int k = 0; k < an.dirs.ndir; k++) {
        const cb_fil_direction *d = &an.dirs.dir[k];
        prop9 &= d->attracting || d->angularly_stable;
        got[d->attracting ? !d->angularly_stable : 2]++;
        st->max_residual = fmax(st->max_residual,
                                fabs(cb_fil_trig2_eval(&V, d->phi)) / fmax(mag, fmax(l1, l2)));
    }
    table3_row(an.dirs.kase, row);
    st->prop9_ok += prop9;
    st->table3_ok += !memcmp(row, got, sizeof row);
    if (sample) {
        st->sampled++;
        st->sampled_ok += sign_changes(&in) == an.dirs.ndir;
    }
}

/* AS Theorems 2 and 3 on 10⁵ random coefficient sets away from the boundaries (margins ≥ 10⁻³
 * on eq. 46 and eq. 48): number of directions, presence of a repelling one, Prop. 9, Table 3,
 * the rotation δ of Prop. 3, and (on a subset) a sign-change count of V. */
static void test_theorems_2_3_random(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 20190404);
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    thm_stats st;
    memset(&st, 0, sizeof st);
    long n = cbt_scale(100000, 20);
    for (long i = 0; i < n; i++)
        one_random_set(&r, &st, &s, i % 10 == 0);
    long used = st.sets - st.skipped;
    print_message("theorems 2-3: %ld sets, %ld near a boundary skipped; directions %ld/%ld, "
                  "repelling %ld/%ld, criteria=directions %ld/%ld, Prop. 9 %ld/%ld, Table 3 "
                  "%ld/%ld; cases I %ld II %ld III %ld IV %ld; sign-change check %ld/%ld; "
                  "max |V(phi)| %.1e, max |A2|,|B1| after delta %.1e\n",
                  st.sets, st.skipped, st.count_ok, used, st.repel_ok, used, st.criteria_ok, used,
                  st.prop9_ok, used, st.table3_ok, used, st.cases[1], st.cases[2], st.cases[3],
                  st.cases[4], st.sampled_ok, st.sampled, st.max_residual, st.max_offdiag);
    assert_int_equal(st.count_ok, used);
    assert_int_equal(st.repel_ok, used);
    assert_int_equal(st.criteria_ok, used);
    assert_int_equal(st.prop9_ok, used);
    assert_int_equal(st.table3_ok, used);
    assert_int_equal(st.sampled_ok, st.sampled);
    assert_true(st.max_residual < 1e-10 && st.max_offdiag < 1e-12);
    for (int k = 1; k <= 4; k++)
        assert_true(st.cases[k] > used / 100);
}

/* ------------------------------------------------------------------ Theorem 4, bodies */

typedef struct {
    long bodies, skipped, paper_ok, exact_ok, exact_used, force_ok, sigma_ok, weight_ok, prop1_ok;
    long admissible, case_differs;
} thm4_stats;

/* One random body: rolling force against the direct assembly, Theorem 4 for AS's field and for
 * the exact limits, F_Σ = rolling ω̇ with vanishing u-rows, |(α, β)| = |F_f|/(μN), Prop. 1. */
static void one_random_body(cb_rng *r, const cb_fil_settings *s, thm4_stats *st)
{
    cb_fil_body b;
    random_body(r, &b);
    double F[3], wd[3];
    rolling_direct(&b, F, wd);
    st->bodies++;
    double ratio = hypot(F[0], F[1]) / (b.friction.mu * F[2]);
    cb_fil_report rep;
    if (!(F[2] > 0) || fabs(ratio - 1) < 1e-3 || cb_fil_body_analyze(&b, s, &rep, NULL) != CB_OK ||
        rep.paper.dirs.kase == CB_FIL_DEGENERATE) {
        st->skipped++;
        return;
    }
    double fs = fmax(fabs(F[2]), hypot(F[0], F[1])), ws = fmax(1, fmax(fabs(wd[0]), fmax(fabs(wd[1]), fabs(wd[2]))));
    int fok = 1, sok = fabs(rep.F_sigma.u[0]) + fabs(rep.F_sigma.u[1]) < 1e-9 * (1 + fabs(rep.C.u[0]) + fabs(rep.C.u[1]));
    for (int k = 0; k < 3; k++) {
        fok &= fabs(rep.rolling.force[k] - F[k]) < 1e-9 * fs;
        sok &= fabs(rep.F_sigma.w[k] - wd[k]) < 1e-8 * ws;
    }
    st->force_ok += fok;
    st->sigma_ok += sok;
    st->weight_ok += fabs(rep.paper.weight_norm - ratio) < 1e-9 * (1 + ratio);
    st->prop1_ok += rep.paper.symmetry_defect < 1e-12;
    int admissible = ratio < 1;
    st->admissible += admissible;
    st->paper_ok += admissible == (rep.paper.dirs.nrepelling == 0) && rep.theorem4_holds;
    if (rep.exact_valid && rep.exact_dirs.kase != CB_FIL_DEGENERATE) {
        st->exact_used++;
        st->exact_ok += admissible == (rep.exact_dirs.nrepelling == 0);
        st->case_differs += rep.exact_dirs.kase != rep.paper.dirs.kase;
    }
}

/* AS Theorem 4: |F_f| < μ N of the rolling equations ⇔ no repelling limit direction. */
static void test_theorem4_random_bodies(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 58);
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    thm4_stats st;
    memset(&st, 0, sizeof st);
    long n = cbt_scale(20000, 10);
    for (long i = 0; i < n; i++)
        one_random_body(&r, &s, &st);
    long used = st.bodies - st.skipped;
    print_message("theorem 4: %ld bodies, %ld skipped (lift-off, |Ff|/(mu N) within 1e-3 of 1, "
                  "degenerate); %ld admissible; AS field %ld/%ld, exact limits %ld/%ld (their case "
                  "differs from AS's on %ld); rolling "
                  "force %ld/%ld, F_Sigma %ld/%ld, |(alpha,beta)| %ld/%ld, Prop. 1 %ld/%ld\n",
                  st.bodies, st.skipped, st.admissible, st.paper_ok, used, st.exact_ok,
                  st.exact_used, st.case_differs, st.force_ok, used, st.sigma_ok, used, st.weight_ok, used,
                  st.prop1_ok, used);
    assert_true(used > n / 2 && st.admissible > used / 10 && st.admissible < used - used / 10);
    assert_int_equal(st.paper_ok, used);
    assert_int_equal(st.exact_ok, st.exact_used);
    assert_int_equal(st.force_ok, used);
    assert_int_equal(st.sigma_ok, used);
    assert_int_equal(st.weight_ok, used);
    assert_int_equal(st.prop1_ok, used);
}

/* Prop. 10: with μ0 = 1.6 μ the stiction model (slipping μ, static μ0) violates Theorem 4
 * exactly when μ N < |F_f| < μ0 N; the Stribeck model (limit μ̃ → μ0) never does. */
static void test_stribeck_prop10(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 61);
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    long used = 0, stiction_ok = 0, stribeck_ok = 0, inconsistent = 0, n = cbt_scale(5000, 10);
    for (long i = 0; i < n; i++) {
        cb_fil_body b;
        random_body(&r, &b);
        double F[3], wd[3];
        rolling_direct(&b, F, wd);
        double q = hypot(F[0], F[1]) / F[2], mu = b.friction.mu, mu0 = 1.6 * mu;
        if (!(F[2] > 0) || fabs(q / mu - 1) < 1e-3 || fabs(q / mu0 - 1) < 1e-3)
            continue;
        cb_fil_report a, c;
        b.friction = (cb_fil_friction){CB_FIL_STICTION, mu, mu0, 0};
        int ok = cb_fil_body_analyze(&b, &s, &a, NULL) == CB_OK;
        b.friction = (cb_fil_friction){CB_FIL_STRIBECK, mu, mu0, 5};
        ok = ok && cb_fil_body_analyze(&b, &s, &c, NULL) == CB_OK;
        if (!ok || a.paper.dirs.kase == CB_FIL_DEGENERATE || c.paper.dirs.kase == CB_FIL_DEGENERATE)
            continue;
        used++;
        int between = q > mu && q < mu0;
        inconsistent += between;
        stiction_ok += a.theorem4_holds == !between;
        stribeck_ok += c.theorem4_holds && c.mu_limit == mu0;
    }
    print_message("prop. 10: %ld bodies; stiction violates Theorem 4 on %ld (all with mu N < "
                  "|Ff| < mu0 N: %ld/%ld); Stribeck consistent %ld/%ld\n",
                  used, inconsistent, stiction_ok, used, stribeck_ok, used);
    assert_true(used > n / 3 && inconsistent > 0);
    assert_int_equal(stiction_ok, used);
    assert_int_equal(stribeck_ok, used);
}

/* The exact directional limits equal the full slipping field (cb_fil_slip_rate, N from the
 * normal constraint) at |u| = 10⁻⁹ along φ, for Coulomb and (with μ0) for Stribeck; AS's field
 * equals them when W_nt = 0 (sphere) and differs for a falling tilted disk. */
static void test_exact_limits(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 7);
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    double worst = 0;
    for (int i = 0; i < 300; i++) {
        cb_fil_body b;
        random_body(&r, &b);
        if (i % 2)
            b.friction = (cb_fil_friction){CB_FIL_STRIBECK, b.friction.mu, 1.3 * b.friction.mu, 4};
        cb_fil_report rep;
        if (cb_fil_body_analyze(&b, &s, &rep, NULL) != CB_OK || !rep.exact_valid)
            continue;
        for (int k = 0; k < 8; k++) {
            double phi = cb_rng_range(&r, 0, TWO_PI), u[2] = {1e-9 * cos(phi), 1e-9 * sin(phi)};
            cb_fil_rate rate;
            assert_int_equal(cb_fil_slip_rate(&b, u, &rate, NULL, NULL), CB_OK);
            const cb_fil_field *f = &rep.exact;
            double den = f->d0 + f->dc * cos(phi) + f->ds * sin(phi);
            double e1 = (f->num.A1 * cos(phi) + f->num.B1 * sin(phi) + f->num.C1) / den;
            double e2 = (f->num.A2 * cos(phi) + f->num.B2 * sin(phi) + f->num.C2) / den;
            worst = fmax(worst, hypot(rate.u[0] - e1, rate.u[1] - e2) / (1 + hypot(e1, e2)));
        }
    }
    print_message("exact limits vs slipping field at |u| = 1e-9: max rel. difference %.1e\n", worst);
    assert_true(worst < 1e-6);
    cb_fil_shape_state sh;
    cb_fil_shape_state_default(&sh);
    sh.force[0] = 2;
    sh.omega[2] = 3;
    cb_fil_body b;
    cb_fil_report rep;
    assert_int_equal(cb_fil_shape_body(&sh, &b, NULL), CB_OK);
    assert_int_equal(cb_fil_body_analyze(&b, &s, &rep, NULL), CB_OK);
    assert_true(rep.exact_valid && rep.exact_diff < 1e-12);
    sh.shape = CB_FIL_DISK;
    sh.radius = 0.3;
    sh.roll = 0.3;
    sh.omega[1] = 10;
    assert_int_equal(cb_fil_shape_body(&sh, &b, NULL), CB_OK);
    assert_int_equal(cb_fil_body_analyze(&b, &s, &rep, NULL), CB_OK);
    assert_true(rep.exact_valid && rep.exact_diff > 0.01 && rep.N_max > rep.N_min);
}

/* ------------------------------------------------------------------ the wheel */

/* The generic derivation reproduces AS eq. 66–68 (with eq. 62's C1 = −2M_d/(mρ)) for the
 * wheel, including the ω-rows A = (0, 2gμ/ρ, 0), C = (0, 2M_d/(mρ²), 4M_s/(mρ²)). */
static void test_wheel_coefficients(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 62);
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    for (int i = 0; i < 500; i++) {
        cb_fil_wheel w;
        cb_fil_wheel_default(&w);
        w.m = log_uniform(&r, 0.1, 10);
        w.rho = log_uniform(&r, 0.05, 2);
        w.mu = cb_rng_range(&r, 0.05, 1);
        w.Md = cb_rng_normal(&r) * w.mu * w.m * 9.81 * w.rho;
        w.Ms = cb_rng_normal(&r) * w.m * w.rho;
        w.w2 = 4 * cb_rng_normal(&r);
        w.w3 = 4 * cb_rng_normal(&r);
        cb_fil_body b;
        cb_fil_report rep;
        cb_fil_coef c;
        assert_int_equal(cb_fil_wheel_body(&w, &b, NULL), CB_OK);
        assert_int_equal(cb_fil_body_analyze(&b, &s, &rep, NULL), CB_OK);
        cb_fil_wheel_coef(&w, &c);
        double sc = fabs(c.A1) + fabs(c.C1) + fabs(c.C2), g = w.g, mr2 = w.m * w.rho * w.rho;
        double got[6] = {rep.A.u[0], rep.A.u[1], rep.B.u[0], rep.B.u[1], rep.C.u[0], rep.C.u[1]};
        double want[6] = {c.A1, c.A2, c.B1, c.B2, c.C1, c.C2};
        for (int k = 0; k < 6; k++)
            assert_true(fabs(got[k] - want[k]) < 1e-12 * sc);
        double wa[3] = {0, 2 * g * w.mu / w.rho, 0}, wc[3] = {0, 2 * w.Md / mr2, 4 * w.Ms / mr2};
        for (int k = 0; k < 3; k++) {
            assert_true(fabs(rep.A.w[k] - wa[k]) < 1e-12 * (1 + fabs(wa[1])));
            assert_true(fabs(rep.B.w[k]) < 1e-12 * (1 + fabs(wa[1])));
            assert_true(fabs(rep.C.w[k] - wc[k]) < 1e-12 * (1 + fabs(wc[1]) + fabs(wc[2])));
        }
        assert_true(fabs(rep.N - w.m * g) < 1e-12 * w.m * g && fabs(rep.paper.delta) < 1e-15);
    }
}

/* The computed cases agree with AS eq. 69–70 (eq. 62 normalisation) on a grid of (M_d, ω2ω3)
 * away from the boundaries; the equations as printed disagree on a sizeable part. */
static void test_wheel_boundaries_grid(void **state)
{
    (void)state;
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    int n = cbt_quick() ? 60 : 160;
    long used = 0, agree = 0, printed_off = 0;
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n; j++) {
            double x = -2.2 + 4.4 * i / n, y = -2.4 + 4.8 * j / n;
            cb_fil_case an = cb_fil_wheel_case_analytic(x, y, 0.01);
            if (an == CB_FIL_DEGENERATE)
                continue;
            cb_fil_wheel w;
            cb_fil_wheel_default(&w);
            w.Md = x * w.mu * w.m * w.g * w.rho;
            w.w3 = -0.7;
            w.w2 = y * w.g * w.mu / (w.rho * w.w3);
            cb_fil_body b;
            cb_fil_report rep;
            assert_int_equal(cb_fil_wheel_body(&w, &b, NULL), CB_OK);
            assert_int_equal(cb_fil_body_analyze(&b, &s, &rep, NULL), CB_OK);
            used++;
            agree += rep.paper.dirs.kase == an;
            int pr = cb_fil_wheel_eq69(x, y, 1) > 0, pf = cb_fil_wheel_eq70(x, y, 1) > 0;
            printed_off += (int)rep.paper.dirs.kase != (pr ? (pf ? 3 : 4) : (pf ? 1 : 2));
        }
    print_message("wheel grid: %ld points away from eq. 69-70, %ld agree; eq. 69-70 as printed "
                  "disagree on %ld\n", used, agree, printed_off);
    assert_int_equal(agree, used);
    assert_true(printed_off > used / 20);
}

/* Case of the generic wheel analysis at normalised (x, y). */
static cb_fil_case wheel_case(double x, double y)
{
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    cb_fil_wheel w;
    cb_fil_wheel_default(&w);
    w.Md = x * w.mu * w.m * w.g * w.rho;
    w.w3 = 1;
    w.w2 = y * w.g * w.mu / w.rho;
    cb_fil_body b;
    cb_fil_report rep;
    assert_int_equal(cb_fil_wheel_body(&w, &b, NULL), CB_OK);
    assert_int_equal(cb_fil_body_analyze(&b, &s, &rep, NULL), CB_OK);
    return rep.paper.dirs.kase;
}

/* x where the case along y = y0 switches from `inner` (at lo) to another case (bisection). */
static double switch_point(double lo, double hi, double y0, cb_fil_case inner)
{
    for (int it = 0; it < 50; it++) {
        double mid = 0.5 * (lo + hi);
        if (wheel_case(mid, y0) == inner)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

static int has_case_iv(double x)
{
    for (double y = 0.9; y < 2.1; y += 0.001)
        if (wheel_case(x, y) == CB_FIL_CASE_IV)
            return 1;
    return 0;
}

/* AS §6 quotes |M_d| = 3 μmgρ, 2 μmgρ and ≈ 0.459 μmgρ. FINDING: those numbers satisfy eq. 69–70
 * AS PRINTED them, i.e. with C1 = −M_d/(mρ); eq. 62 (re-derived here from Newton–Euler for a
 * thin disk, J_axis = mρ²/2) gives C1 = −2M_d/(mρ), and the generic analysis puts the switches
 * at |M_d| = 1.5, 1 and 0.2296 μmgρ — exactly half. conebench reports the physical M_d
 * (eq. 62); AS's values are those of 2|M_d|. */
static void test_wheel_special_values(void **state)
{
    (void)state;
    cb_fil_wheel_specials sp;
    cb_fil_wheel_special_values(&sp);
    assert_true(fabs(sp.repel_axis - 1.5) < 1e-15 && fabs(sp.fold_axis - 1) < 1e-15);
    assert_true(fabs(sp.crossing - 0.22963966338592) < 1e-12 && fabs(sp.crossing_y - 0.98821176880262) < 1e-12);
    /* the quoted values lie on the printed curves ... */
    assert_true(fabs(cb_fil_wheel_eq69(3, 0, 1)) < 1e-15 && fabs(cb_fil_wheel_eq70(2, 0, 1)) < 1e-15);
    assert_true(fabs(2 * sp.crossing - 0.459) < 1e-3);
    assert_true(fabs(cb_fil_wheel_eq69(2 * sp.crossing, sp.crossing_y, 1)) < 1e-12);
    assert_true(fabs(cb_fil_wheel_eq70(2 * sp.crossing, sp.crossing_y, 1)) < 1e-12);
    /* ... but the dynamics switch at half of them */
    double x_rep = switch_point(1.2, 2.5, 0, CB_FIL_CASE_I);  /* I → III */
    double x_fold = switch_point(0.5, 1.2, 0, CB_FIL_CASE_II); /* II → I */
    print_message("wheel special values: I->III at |Md| = %.9f, II->I at %.9f, crossing %.6f "
                  "mu m g rho (AS text: 3, 2, 0.459)\n", x_rep, x_fold, sp.crossing);
    assert_true(fabs(x_rep - 1.5) < 1e-7 && fabs(x_fold - 1.0) < 1e-7); /* ± the 1e-9 degenerate band */
    /* where the printed equations would predict I (2 < x < 3) and II (x < 2), the dynamics
     * give III and I */
    assert_true(wheel_case(2.5, 0) == CB_FIL_CASE_III && wheel_case(1.2, 0) == CB_FIL_CASE_I);
    assert_true(has_case_iv(0.98 * sp.crossing) && !has_case_iv(1.02 * sp.crossing));
    assert_true(!has_case_iv(0.98 * 0.459));
}

/* ------------------------------------------------------------------ validation, bodies, CLI */

static void test_validation(void **state)
{
    (void)state;
    cb_fil_wheel w;
    cb_fil_body b;
    cb_error err;
    cb_fil_wheel_default(&w);
    w.rho = -1;
    assert_int_equal(cb_fil_wheel_body(&w, &b, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "rho:"));
    cb_fil_wheel_default(&w);
    w.Md = NAN;
    assert_int_equal(cb_fil_wheel_body(&w, &b, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "Md:"));
    cb_fil_wheel_default(&w);
    assert_int_equal(cb_fil_wheel_body(&w, &b, NULL), CB_OK);
    b.inertia[0][1] = 1;
    assert_int_equal(cb_fil_body_check(&b, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "inertia"));
    assert_int_equal(cb_fil_wheel_body(&w, &b, NULL), CB_OK);
    b.omega[0] = 1; /* tilting axis under the balancing constraint */
    assert_int_equal(cb_fil_body_check(&b, &err), CB_ERR_INPUT);
    assert_int_equal(cb_fil_wheel_body(&w, &b, NULL), CB_OK);
    b.force[2] = 5; /* pulled off the plane: N < 0 */
    cb_fil_settings s;
    cb_fil_settings_default(&s);
    cb_fil_report rep;
    assert_int_equal(cb_fil_body_analyze(&b, &s, &rep, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "lifts off"));
    cb_fil_shape_state sh;
    cb_fil_shape_state_default(&sh);
    assert_int_equal(cb_fil_shape_body(&sh, &b, NULL), CB_OK);
    assert_int_equal(cb_fil_body_analyze(&b, &s, &rep, NULL), CB_OK);
    assert_true(rep.paper.dirs.continuum && rep.paper.dirs.kase == CB_FIL_DEGENERATE);
    sh.shape = CB_FIL_ELLIPSOID;
    sh.semi[0] = 0.2;
    sh.semi[2] = 0.05;
    sh.roll = 0.4;
    sh.pitch = 0.3;
    sh.omega[0] = 2;
    assert_int_equal(cb_fil_shape_body(&sh, &b, NULL), CB_OK);
    assert_int_equal(cb_fil_body_analyze(&b, &s, &rep, NULL), CB_OK);
    assert_true(rep.paper.symmetry_defect < 1e-12 && rep.paper.dirs.kase != CB_FIL_DEGENERATE);
    sh.semi[1] = -1;
    assert_int_equal(cb_fil_shape_body(&sh, &b, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "b:"));
}

/* `filippov wheel --json` fields and values, bad input → exit 2 with "--param X: ..." (the
 * command as a user runs it: $CONEBENCH_BIN). */
static void test_cli(void **state)
{
    (void)state;
    const char *dir = cbt_tmpdir();
    char out[256], errp[256];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(errp, sizeof errp, "%s/err.txt", dir);
    const char *ok[] = {"filippov", "wheel", "--param", "m=1", "--param", "rho=0.5", "--param",
                        "g=9.81", "--param", "mu=0.3", "--param", "Md=0.44145", "--param", "Ms=0",
                        "--param", "w2=1.7658", "--param", "w3=1", "--json", NULL};
    assert_int_equal(cbt_cli(ok, out, errp), 0);
    char *j = cbt_slurp(out);
    const char *keys[] = {"\"case\":\"II\"", "\"directions\":[{\"phi\":", "\"attracting\":true",
                          "\"angularly_stable\":", "\"rolling_admissible\":true", "\"A1\":",
                          "\"A2\":", "\"B1\":", "\"B2\":", "\"C1\":", "\"C2\":", "\"delta\":0",
                          "\"F_Sigma\":", "\"normalisation\":", "\"exact\":"};
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        if (!strstr(j, keys[k]))
            fail_msg("missing %s in %s", keys[k], j);
    free(j);
    const char *bad[][5] = {{"filippov", "wheel", "--param", "m=-1", NULL},
                            {"filippov", "wheel", "--param", "zz=1", NULL},
                            {"filippov", "body", "--param", "shape=cube", NULL},
                            {"filippov", "body", "--param", "a=abc", NULL}};
    const char *want[] = {"conebench: --param m:", "conebench: --param zz:",
                          "conebench: --param shape:", "conebench: --param a:"};
    for (int k = 0; k < 4; k++) {
        assert_int_equal(cbt_cli(bad[k], out, errp), 2);
        char *e = cbt_slurp(errp);
        if (strncmp(e, want[k], strlen(want[k])))
            fail_msg("stderr '%s' does not start with '%s'", e, want[k]);
        free(e);
    }
}

/* `filippov map --quick` writes data, PNG+SVG figures and filippov.md (when gnuplot exists). */
static void test_cli_map(void **state)
{
    (void)state;
    if (!cbt_have_program("gnuplot")) {
        print_message("skipped: gnuplot absent\n");
        skip();
    }
    const char *dir = cbt_tmpdir();
    char out[256], errp[256], o[256];
    snprintf(out, sizeof out, "%s/out.txt", dir);
    snprintf(errp, sizeof errp, "%s/err.txt", dir);
    snprintf(o, sizeof o, "%s/fil", dir);
    const char *argv[] = {"filippov", "map", "-o", o, "--plots", "plots", "--quick", NULL};
    if (cbt_cli(argv, out, errp) != 0)
        fail_msg("map failed: %s", cbt_slurp(errp));
    const char *files[] = {"filippov.md", "filippov_regions.png", "filippov_regions.svg",
                           "filippov_sigma.png", "filippov_phase_I.png", "filippov_phase_IV.svg",
                           "filippov_regions.dat", "filippov_phase_III_traj.dat"};
    for (size_t k = 0; k < sizeof files / sizeof *files; k++) {
        char p[512];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", o, files[k]);
        if (stat(p, &st) != 0 || st.st_size == 0)
            fail_msg("missing %s", p);
    }
    char p[512];
    snprintf(p, sizeof p, "%s/filippov.md", o);
    char *md = cbt_slurp(p);
    assert_non_null(strstr(md, "0.2296"));
    assert_non_null(strstr(md, "C1 = -2 Md/(m rho)"));
    free(md);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trig2_roots),
        cmocka_unit_test(test_theorems_2_3_random),
        cmocka_unit_test(test_theorem4_random_bodies),
        cmocka_unit_test(test_stribeck_prop10),
        cmocka_unit_test(test_exact_limits),
        cmocka_unit_test(test_wheel_coefficients),
        cmocka_unit_test(test_wheel_boundaries_grid),
        cmocka_unit_test(test_wheel_special_values),
        cmocka_unit_test(test_validation),
        cmocka_unit_test(test_cli),
        cmocka_unit_test(test_cli_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
