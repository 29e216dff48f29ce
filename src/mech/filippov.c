/* conebench — extended-Filippov analysis of the planar limit field F(φ) = A cos φ + B sin φ + C
 * (Antali & Stepan 2019, §4–5): R(φ), V(φ), limit directions as polynomial roots (companion
 * matrix, LAPACKE dhseqr) refined by Newton, their type, the rotation δ, Theorems 2–3 criteria,
 * the Table 3 case and the sliding weights of eq. 56. Bodies are in models/filippov_bodies.c. */
#include "filippov.h"

#include <lapacke.h>
#include <math.h>
#include <string.h>

const char *cb_fil_case_name(cb_fil_case c)
{
    switch (c) {
    case CB_FIL_CASE_I: return "I";
    case CB_FIL_CASE_II: return "II";
    case CB_FIL_CASE_III: return "III";
    case CB_FIL_CASE_IV: return "IV";
    default: return "degenerate";
    }
}

void cb_fil_settings_default(cb_fil_settings *s)
{
    s->root_tol = 1e-10;
    s->zero_tol = 1e-9;
    s->imag_tol = 1e-6;
    s->newton_max_iter = 60;
}

/* R(φ) = F1 cos φ + F2 sin φ = (A1+B2)/2 + C1 cos φ + C2 sin φ + (A1−B2)/2 cos 2φ
 *        + (A2+B1)/2 sin 2φ   (eq. 34). */
void cb_fil_radial(const cb_fil_coef *c, cb_fil_trig2 *R)
{
    R->c0 = 0.5 * (c->A1 + c->B2);
    R->c1 = c->C1;
    R->s1 = c->C2;
    R->c2 = 0.5 * (c->A1 - c->B2);
    R->s2 = 0.5 * (c->A2 + c->B1);
}

/* V(φ) = −F1 sin φ + F2 cos φ = (A2−B1)/2 + C2 cos φ − C1 sin φ + (A2+B1)/2 cos 2φ
 *        − (A1−B2)/2 sin 2φ   (eq. 35). */
void cb_fil_circumferential(const cb_fil_coef *c, cb_fil_trig2 *V)
{
    V->c0 = 0.5 * (c->A2 - c->B1);
    V->c1 = c->C2;
    V->s1 = -c->C1;
    V->c2 = 0.5 * (c->A2 + c->B1);
    V->s2 = -0.5 * (c->A1 - c->B2);
}

/* p(φ) = c0 + c1 cos φ + s1 sin φ + c2 cos 2φ + s2 sin 2φ */
double cb_fil_trig2_eval(const cb_fil_trig2 *p, double phi)
{
    return p->c0 + p->c1 * cos(phi) + p->s1 * sin(phi) + p->c2 * cos(2 * phi) +
           p->s2 * sin(2 * phi);
}

/* p'(φ) = −c1 sin φ + s1 cos φ − 2 c2 sin 2φ + 2 s2 cos 2φ */
double cb_fil_trig2_deriv(const cb_fil_trig2 *p, double phi)
{
    return -p->c1 * sin(phi) + p->s1 * cos(phi) - 2 * p->c2 * sin(2 * phi) +
           2 * p->s2 * cos(2 * phi);
}

/* q(ψ) = p(ψ + φ0): each harmonic k rotates by k φ0. */
static void trig2_shift(const cb_fil_trig2 *p, double phi0, cb_fil_trig2 *q)
{
    double c = cos(phi0), s = sin(phi0), c2 = cos(2 * phi0), s2 = sin(2 * phi0);
    q->c0 = p->c0;
    q->c1 = p->c1 * c + p->s1 * s;
    q->s1 = p->s1 * c - p->c1 * s;
    q->c2 = p->c2 * c2 + p->s2 * s2;
    q->s2 = p->s2 * c2 - p->c2 * s2;
}

/* (1 + t²)² q(ψ) with t = tan(ψ/2) as a quartic, coefficients of t⁰..t⁴. */
static void trig2_quartic(const cb_fil_trig2 *q, double a[5])
{
    a[4] = q->c0 - q->c1 + q->c2;
    a[3] = 2 * q->s1 - 4 * q->s2;
    a[2] = 2 * q->c0 - 6 * q->c2;
    a[1] = 2 * q->s1 + 4 * q->s2;
    a[0] = q->c0 + q->c1 + q->c2;
}

/* φ mod 2π in [0, 2π). */
static double wrap(double phi)
{
    double r = fmod(phi, 2 * CB_PI);
    if (r < 0)
        r += 2 * CB_PI;
    return r >= 2 * CB_PI ? 0.0 : r;
}

/* Circular distance between two angles. */
static double angle_dist(double a, double b)
{
    double d = fabs(wrap(a - b));
    return fmin(d, 2 * CB_PI - d);
}

/* Eigenvalues of the companion matrix of the monic quartic t⁴ + Σ a_k t^k (upper Hessenberg,
 * LAPACKE dhseqr). */
static int quartic_eigen(const double a[5], double wr[4], double wi[4], cb_error *err)
{
    double H[16] = {0}, z[1] = {0};
    for (int j = 0; j < 4; j++)
        H[4 * j] = -a[3 - j] / a[4]; /* first row, column-major */
    for (int i = 1; i < 4; i++)
        H[4 * (i - 1) + i] = 1.0;
    lapack_int info = LAPACKE_dhseqr(LAPACK_COL_MAJOR, 'E', 'N', 4, 1, 4, H, 4, wr, wi, z, 1);
    if (info != 0)
        return cb_fail(err, CB_ERR_INTERNAL, "filippov: dhseqr failed (info %d)", (int)info);
    return CB_OK;
}

/* Newton on p from φ, each step (and the total drift) limited to `reach`. */
static double newton_refine(const cb_fil_trig2 *p, double phi, double reach, int max_iter)
{
    double start = phi;
    for (int it = 0; it < max_iter; it++) {
        double f = cb_fil_trig2_eval(p, phi), df = cb_fil_trig2_deriv(p, phi);
        if (f == 0 || df == 0 || !isfinite(f / df))
            break;
        double step = fmax(-reach, fmin(reach, f / df));
        double next = phi - step;
        if (fabs(next - start) > reach)
            break;
        phi = next;
        if (fabs(step) <= 1e-15 * (1 + fabs(phi)))
            break;
    }
    return phi;
}

/* Candidate angles of the quartic's real (or nearly real) eigenvalues; marks the exact real ones. */
static int root_candidates(const cb_fil_trig2 *p, const cb_fil_settings *s, double cand[4],
                           int real[4], cb_error *err)
{
    /* shift so that t = ∞ (ψ = π) is far from every root: |p(φ0 + π)| largest of 8 trials */
    double phi0 = 0, best = -1;
    for (int k = 0; k < 8; k++) {
        double v = fabs(cb_fil_trig2_eval(p, k * CB_PI / 4 + CB_PI));
        if (v > best) {
            best = v;
            phi0 = k * CB_PI / 4;
        }
    }
    cb_fil_trig2 q;
    double a[5], wr[4], wi[4];
    trig2_shift(p, phi0, &q);
    trig2_quartic(&q, a);
    int rc = quartic_eigen(a, wr, wi, err);
    int n = 0;
    for (int k = 0; rc == CB_OK && k < 4; k++) {
        if (!(fabs(wi[k]) <= s->imag_tol * (1 + fabs(wr[k]))))
            continue;
        cand[n] = wrap(2 * atan(wr[k]) + phi0);
        real[n++] = wi[k] == 0;
    }
    return rc == CB_OK ? n : -1;
}

/* Sort a[0..n) ascending (n ≤ 4). */
static void sort4(double *a, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            double t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

/* Roots of p: companion eigenvalues, Newton-refined, verified, deduplicated. */
int cb_fil_trig2_roots(const cb_fil_trig2 *p, double scale, const cb_fil_settings *s,
                       double roots[CB_FIL_MAX_DIR], int *nroots, cb_error *err)
{
    double mag = fmax(fmax(fabs(p->c0), fabs(p->c1)),
                      fmax(fmax(fabs(p->s1), fabs(p->c2)), fabs(p->s2)));
    *nroots = 0;
    if (!isfinite(mag) || !isfinite(scale))
        return cb_fail(err, CB_ERR_INPUT, "filippov: non-finite coefficients");
    if (mag <= s->zero_tol * scale || mag == 0) {
        *nroots = -1;
        return CB_OK;
    }
    double cand[4];
    int real[4];
    int nc = root_candidates(p, s, cand, real, err);
    if (nc < 0)
        return CB_ERR_INTERNAL;
    int n = 0;
    for (int i = 0; i < nc; i++) {
        double gap = CB_PI / 2;
        for (int j = 0; j < nc; j++)
            if (j != i && angle_dist(cand[i], cand[j]) > 0)
                gap = fmin(gap, angle_dist(cand[i], cand[j]));
        double phi = newton_refine(p, cand[i], 0.5 * gap, s->newton_max_iter);
        int ok = real[i] || fabs(cb_fil_trig2_eval(p, phi)) <= s->root_tol * fmax(mag, scale);
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= angle_dist(roots[j], phi) <= 1e-9;
        if (ok && !dup)
            roots[n++] = wrap(phi);
    }
    sort4(roots, n);
    *nroots = n;
    return CB_OK;
}

/* Table 3: case from the number of directions and of repelling ones. */
static cb_fil_case table3(int ndir, int nrep)
{
    if (ndir == 2)
        return nrep == 0 ? CB_FIL_CASE_I : nrep == 1 ? CB_FIL_CASE_III : CB_FIL_DEGENERATE;
    if (ndir == 4)
        return nrep == 0 ? CB_FIL_CASE_II : nrep == 1 ? CB_FIL_CASE_IV : CB_FIL_DEGENERATE;
    return CB_FIL_DEGENERATE;
}

/* max |A|, |B|, |C| entries of a coefficient set. */
static double coef_scale(const cb_fil_coef *c)
{
    return fmax(fmax(fmax(fabs(c->A1), fabs(c->A2)), fmax(fabs(c->B1), fabs(c->B2))),
                fmax(fabs(c->C1), fabs(c->C2)));
}

/* Roots of V·den and the signs of R·den and (V·den)' there (den > 0 keeps every sign). */
int cb_fil_directions(const cb_fil_field *f, const cb_fil_settings *s, cb_fil_dirset *out,
                      cb_error *err)
{
    memset(out, 0, sizeof *out);
    double scale = coef_scale(&f->num);
    if (!(f->d0 > hypot(f->dc, f->ds)))
        return cb_fail(err, CB_ERR_INPUT, "filippov: denominator of the field is not positive");
    if (!(scale > 0) || !isfinite(scale))
        return cb_fail(err, CB_ERR_INPUT, "filippov: A = B = C = 0 (no friction: not an "
                                          "extended Filippov system)");
    cb_fil_trig2 R, V;
    cb_fil_radial(&f->num, &R);
    cb_fil_circumferential(&f->num, &V);
    double roots[CB_FIL_MAX_DIR];
    int n, rc = cb_fil_trig2_roots(&V, scale, s, roots, &n, err);
    if (rc != CB_OK)
        return rc;
    out->continuum = n < 0;
    for (int k = 0; k < n; k++) {
        cb_fil_direction *d = &out->dir[k];
        d->phi = roots[k];
        d->R = cb_fil_trig2_eval(&R, d->phi);
        d->dV = cb_fil_trig2_deriv(&V, d->phi);
        d->attracting = d->R < 0;
        d->angularly_stable = d->dV < 0;
        out->nrepelling += !d->attracting;
        out->on_boundary |= fabs(d->R) <= s->zero_tol * scale || fabs(d->dV) <= s->zero_tol * scale;
    }
    out->ndir = n > 0 ? n : 0;
    out->on_boundary |= n % 2 != 0;
    out->kase = out->continuum || out->on_boundary ? CB_FIL_DEGENERATE : table3(n, out->nrepelling);
    return CB_OK;
}

/* Components of v in the frame rotated by δ (eq. 40). */
static void rot2(double v1, double v2, double delta, double *w1, double *w2)
{
    *w1 = v1 * cos(delta) + v2 * sin(delta);
    *w2 = -v1 * sin(delta) + v2 * cos(delta);
}

/* δ with tan 2δ = 2 A2 / (A1 − B2) (Prop. 3), |δ| ≤ π/4, and the coefficients of eq. 42:
 * Ā = A cos δ + B sin δ, B̄ = −A sin δ + B cos δ as vectors, all expressed in the rotated frame. */
static void reduce(const cb_fil_coef *c, double *delta, cb_fil_coef *r)
{
    double sym = 0.5 * (c->A2 + c->B1); /* = A2 = B1 for a body (Prop. 1) */
    double d = 0.5 * atan2(2 * sym, c->A1 - c->B2);
    if (d > CB_PI / 4)
        d -= CB_PI / 2;
    else if (d < -CB_PI / 4)
        d += CB_PI / 2;
    double cs = cos(d), sn = sin(d);
    double a1 = c->A1 * cs + c->B1 * sn, a2 = c->A2 * cs + c->B2 * sn;
    double b1 = -c->A1 * sn + c->B1 * cs, b2 = -c->A2 * sn + c->B2 * cs;
    rot2(a1, a2, d, &r->A1, &r->A2);
    rot2(b1, b2, d, &r->B1, &r->B2);
    rot2(c->C1, c->C2, d, &r->C1, &r->C2);
    *delta = d;
}

/* Margins of eq. 46 ((|C1|^⅔ + |C2|^⅔)/|B2 − A1|^⅔ − 1) and eq. 48 (C1²/A1² + C2²/B2² − 1). */
static void criteria(const cb_fil_coef *r, double *fold, double *repel)
{
    double lhs = cbrt(r->C1 * r->C1) + cbrt(r->C2 * r->C2);
    double rhs = cbrt((r->B2 - r->A1) * (r->B2 - r->A1));
    *fold = rhs > 0 ? lhs / rhs - 1 : (lhs > 0 ? INFINITY : NAN);
    *repel = (r->A1 != 0 && r->B2 != 0)
                 ? r->C1 * r->C1 / (r->A1 * r->A1) + r->C2 * r->C2 / (r->B2 * r->B2) - 1
                 : NAN;
}

/* Case from Theorems 2 and 3 (eq. 46, 48); degenerate within tol of a boundary. */
static cb_fil_case criteria_case(double fold, double repel, double tol)
{
    if (!(fabs(fold) > tol) || !(fabs(repel) > tol))
        return CB_FIL_DEGENERATE;
    int two = fold > 0, rep = repel > 0;
    return rep ? (two ? CB_FIL_CASE_III : CB_FIL_CASE_IV) : (two ? CB_FIL_CASE_I : CB_FIL_CASE_II);
}

/* (α, β) solving α A + β B = −C on the u-rows (eq. 56). */
static void sliding_weights(const cb_fil_coef *c, double w[2])
{
    double det = c->A1 * c->B2 - c->A2 * c->B1;
    w[0] = (c->B1 * c->C2 - c->C1 * c->B2) / det;
    w[1] = (c->A2 * c->C1 - c->A1 * c->C2) / det;
}

int cb_fil_analyze(const cb_fil_coef *c, const cb_fil_settings *s, cb_fil_analysis *out,
                   cb_error *err)
{
    memset(out, 0, sizeof *out);
    const double v[6] = {c->A1, c->A2, c->B1, c->B2, c->C1, c->C2};
    for (int k = 0; k < 6; k++)
        if (!isfinite(v[k]))
            return cb_fail(err, CB_ERR_INPUT, "filippov: non-finite coefficient");
    double scale = coef_scale(c);
    out->input = *c;
    reduce(c, &out->delta, &out->reduced);
    out->symmetry_defect = scale > 0 ? fabs(c->A2 - c->B1) / scale : 0;
    criteria(&out->reduced, &out->fold_margin, &out->repel_margin);
    out->kase_criteria = criteria_case(out->fold_margin, out->repel_margin, s->zero_tol);
    cb_fil_field f = {*c, 1, 0, 0};
    int rc = cb_fil_directions(&f, s, &out->dirs, err);
    sliding_weights(c, out->weights);
    out->weight_norm = hypot(out->weights[0], out->weights[1]);
    return rc;
}
