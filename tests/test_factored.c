/* conebench tests — factored storage W = G M⁻¹ Gᵀ (problem.h): kernels against an independent
 * dense Hᵀ M⁻¹ H built here from the factors; assembly (cb_assemble factored vs BSR) on a pile of
 * spheres; nsgs, psor, pfp and eg on factored problems, judged on the assembled dense copy and
 * compared with the BSR runs; Siconos text output and the Siconos adapters (through the
 * assembled BSR); memory per contact; validation messages; the time-stepper with factored
 * storage against BSR. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conebench/io.h"
#include "conebench/judge.h"
#include "conebench/problem.h"
#include "base.h"
#include "rng.h"
#include "scenario_registry.h"
#include "conebench/solver.h"
#include "timestepper.h"

/* ------------------------------------------------------------------ random factored problems */

/* Row-major rotation matrix of a random unit quaternion. */
static void random_rotation(cb_rng *r, double R[9])
{
    double q[4], n = 0;
    for (int k = 0; k < 4; k++)
        q[k] = cb_rng_normal(r), n += q[k] * q[k];
    n = sqrt(n);
    double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
    double M[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                   2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                   2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
    memcpy(R, M, sizeof M);
}

/* minv of one body: 1/m ∈ [0.5, 2.5), I⁻¹ = R diag(δ) Rᵀ with δ ∈ [0.2, 5). */
static void random_minv(cb_rng *r, double *m)
{
    double R[9], dg[3];
    random_rotation(r, R);
    for (int k = 0; k < 3; k++)
        dg[k] = cb_rng_range(r, 0.2, 5.0);
    m[0] = cb_rng_range(r, 0.5, 2.5);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            m[1 + 3 * i + j] =
                R[3 * i] * dg[0] * R[3 * j] + R[3 * i + 1] * dg[1] * R[3 * j + 1] +
                R[3 * i + 2] * dg[2] * R[3 * j + 2];
}

/* nc contacts between nbody bodies: random bodies (a slot is −1 with probability 1/5, the same
 * body twice with probability 1/20), random G, q, μ's. */
static cb_problem *random_factored(cb_kind kind, int nc, int nbody, uint64_t seed)
{
    cb_rng r;
    cb_rng_seed(&r, seed);
    cb_problem *p = NULL;
    assert_int_equal(cb_problem_alloc_factored(kind, nc, nbody, &p, NULL), CB_OK);
    for (int b = 0; b < nbody; b++)
        random_minv(&r, p->fac.minv + 10 * b);
    int d = p->d;
    for (int a = 0; a < nc; a++) {
        int b0 = (int)cb_rng_below(&r, (uint64_t)nbody);
        int b1 = (int)cb_rng_below(&r, (uint64_t)nbody);
        double u = cb_rng_uniform(&r);
        if (u < 0.1)
            b0 = -1;
        else if (u < 0.2)
            b1 = -1;
        else if (u < 0.25)
            b1 = b0;
        p->fac.body[2 * a] = b0, p->fac.body[2 * a + 1] = b1;
        for (int k = 0; k < 12 * d; k++)
            p->fac.G[(size_t)a * 12 * d + k] = cb_rng_normal(&r);
        for (int k = 0; k < d; k++)
            p->q[a * d + k] = cb_rng_normal(&r);
        p->mu[a] = cb_rng_range(&r, 0.1, 1.0);
        p->mu_r[a] = kind >= CB_KIND_ROLLING2D ? cb_rng_range(&r, 0.01, 0.5) : 0.0;
        p->mu_s[a] = kind == CB_KIND_ROLLSPIN3D ? cb_rng_range(&r, 0.01, 0.5) : 0.0;
    }
    cb_error err = {{0}};
    int rc = cb_problem_factored_finish(p, &err);
    if (rc != CB_OK)
        print_message("finish: %s\n", err.text);
    assert_int_equal(rc, CB_OK);
    return p;
}

/* Independent dense W = Hᵀ M⁻¹ H (n×n column-major) from the factors: H (6·nbody × n) holds
 * G_αsᵀ in the rows of body(α,s); M⁻¹ is block diagonal. *MH_out receives M⁻¹ H. */
static double *dense_reference(const cb_problem *p, double **MH_out)
{
    int d = p->d, nb = p->fac.nbody, n = p->nc * d, ndof = 6 * nb;
    double *H = calloc((size_t)ndof * n, sizeof(double)), *MH = calloc((size_t)ndof * n, 8);
    double *W = calloc((size_t)n * n, sizeof(double));
    assert_true(H && MH && W);
    for (int e = 0; e < 2 * p->nc; e++) {
        int b = p->fac.body[e];
        for (int r = 0; b >= 0 && r < d; r++)
            for (int k = 0; k < 6; k++)
                H[6 * b + k + (size_t)((e / 2) * d + r) * ndof] +=
                    p->fac.G[(size_t)e * 6 * d + 6 * r + k];
    }
    for (int b = 0; b < nb; b++)
        for (int c = 0; c < n; c++) {
            const double *m = p->fac.minv + 10 * b, *h = H + 6 * b + (size_t)c * ndof;
            double *o = MH + 6 * b + (size_t)c * ndof;
            for (int k = 0; k < 3; k++)
                o[k] = m[0] * h[k];
            for (int i = 0; i < 3; i++)
                for (int k = 0; k < 3; k++)
                    o[3 + i] += m[1 + 3 * i + k] * h[3 + k];
        }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < ndof; k++)
                s += H[k + (size_t)i * ndof] * MH[k + (size_t)j * ndof];
            W[i + (size_t)j * n] = s;
        }
    free(H);
    *MH_out = MH;
    return W;
}

static double max_abs(const double *x, size_t n)
{
    double m = 0;
    for (size_t i = 0; i < n; i++)
        m = fmax(m, fabs(x[i]));
    return m;
}

/* W p of every storage and row products against the dense reference (1e-13 relative). */
static void check_products(const cb_problem *fa, const cb_problem *bs, const cb_problem *dn,
                           const double *Wref, cb_rng *r, double *worst)
{
    size_t n = cb_problem_n(fa);
    int d = fa->d;
    double *x = malloc(n * 8), *yr = calloc(n, 8), *yf = malloc(n * 8), *yb = malloc(n * 8),
           *yd = malloc(n * 8), row[CB_MAX_DIM];
    for (size_t i = 0; i < n; i++)
        x[i] = cb_rng_normal(r);
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < n; i++)
            yr[i] += Wref[i + j * n] * x[j];
    cb_problem_Wp(fa, x, yf);
    cb_problem_Wp(bs, x, yb);
    cb_problem_Wp(dn, x, yd);
    double e = fmax(cbt_vec_reldiff(yf, yr, n, 0), cbt_vec_reldiff(yb, yr, n, 0));
    e = fmax(e, cbt_vec_reldiff(yd, yr, n, 0));
    for (int a = 0; a < fa->nc; a++) {
        cb_problem_row_Wp(fa, a, x, row);
        for (int i = 0; i < d; i++)
            e = fmax(e, fabs(row[i] - yr[a * d + i]) / max_abs(yr, n));
    }
    assert_true(e < 1e-13);
    *worst = fmax(*worst, e);
    free(x), free(yr), free(yf), free(yb), free(yd);
}

/* cb_problem_factored_velocities against M⁻¹ H x (1e-13 relative); returns the difference. */
static double check_velocities(const cb_problem *fa, const double *MH, cb_rng *r)
{
    size_t n = cb_problem_n(fa), ndof = 6 * (size_t)fa->fac.nbody;
    double *x = malloc(n * 8), *v = malloc(ndof * 8), *vr = calloc(ndof, 8);
    for (size_t i = 0; i < n; i++)
        x[i] = cb_rng_normal(r);
    for (size_t j = 0; j < n; j++)
        for (size_t k = 0; k < ndof; k++)
            vr[k] += MH[k + j * ndof] * x[j];
    cb_problem_factored_velocities(fa, x, v);
    double e = cbt_vec_reldiff(v, vr, ndof, 0);
    assert_true(e < 1e-13);
    free(x), free(v), free(vr);
    return e;
}

/* (a) Random factored problems of every kind vs their BSR and dense copies and the independent
 * Hᵀ M⁻¹ H: W, W p, row products, diagonal blocks, body velocities, work count and bytes. */
static void test_kernels_random(void **state)
{
    (void)state;
    double worst_w = 0, worst_p = 0, worst_diag = 0, worst_v = 0;
    for (int k = 0; k < CB_KIND_COUNT; k++) {
        cb_problem *fa = random_factored((cb_kind)k, 40, 15, 100 + k);
        cb_problem *bs = NULL, *dn = NULL, *cp = NULL;
        assert_int_equal(cb_problem_check(fa, NULL), CB_OK);
        assert_int_equal(cb_problem_to_bsr(fa, &bs, NULL), CB_OK);
        assert_int_equal(cb_problem_to_dense(fa, &dn, NULL), CB_OK);
        assert_int_equal(cb_problem_copy(fa, &cp, NULL), CB_OK);
        assert_int_equal(cp->storage, CB_STORAGE_FACTORED);
        int d = fa->d, n = fa->nc * d;
        double *MH = NULL, *Wref = dense_reference(fa, &MH), scale = max_abs(Wref, (size_t)n * n);
        double e = cbt_vec_reldiff(dn->W, Wref, (size_t)n * n, 0);
        assert_true(e < 1e-13);
        worst_w = fmax(worst_w, e);
        double D[CB_MAX_DIM * CB_MAX_DIM];
        for (int a = 0; a < fa->nc; a++) {
            cb_problem_diag_block(fa, a, D);
            for (int j = 0; j < d; j++)
                for (int i = 0; i < d; i++)
                    worst_diag = fmax(worst_diag, fabs(D[i + j * d] - Wref[(a * d + i) +
                                                                         (size_t)(a * d + j) * n]) /
                                                      scale);
        }
        assert_true(worst_diag < 1e-13);
        cb_rng r;
        cb_rng_seed(&r, 7 + k);
        check_products(fa, bs, dn, Wref, &r, &worst_p);
        check_products(cp, bs, dn, Wref, &r, &worst_p);
        worst_v = fmax(worst_v, check_velocities(fa, MH, &r));
        long long slots = 0;
        for (int e2 = 0; e2 < 2 * fa->nc; e2++)
            slots += fa->fac.body[e2] >= 0;
        assert_int_equal(cb_problem_blocks_per_matvec(fa), 2 * slots);
        size_t bytes = 15 * 80 + 40 * 8 + 40 * 2 * 6 * d * 8 + 16 * 4 + 40 * 8 +
                       40 * d * d * 8 + 15 * 48; /* minv body G adj_ptr adj diag work */
        assert_int_equal(cb_problem_W_bytes(fa), bytes);
        assert_int_equal(cb_problem_W_bytes(bs), (size_t)bs->bsr.nnzb * (d * d * 8 + 4) + 41 * 4);
        assert_int_equal(cb_problem_W_bytes(dn), (size_t)n * n * 8);
        free(Wref), free(MH);
        cb_problem_free(fa), cb_problem_free(bs), cb_problem_free(dn), cb_problem_free(cp);
    }
    print_message("random factored vs H^T M^-1 H: W %.2e, W p / row %.2e, diag %.2e, "
                  "M^-1 H p %.2e\n", worst_w, worst_p, worst_diag, worst_v);
}

/* ------------------------------------------------------------------ a pile of spheres */

#define PHI 0.02

/* A square pyramid of L layers of spheres (diameter φ, 1300 kg/m³) on a plane, FCC stacking at
 * spacing φ(1 − 1e-3): an inner sphere touches 4 in its layer, 4 below and 4 above; velocities
 * of one step of free fall with a little noise, random orientations. With box = 1 a box with a
 * random yaw rests on the plane beside it (4 corner contacts, a full inverse inertia). */
static int pyramid(int L, int box, double phi, cb_rng *r, cb_body **out)
{
    int n = 1 + box;
    for (int k = 0; k < L; k++)
        n += (L - k) * (L - k);
    cb_body *b = calloc((size_t)n, sizeof *b);
    assert_non_null(b);
    cb_shape pl = {.kind = CB_SHAPE_PLANE}, sp = {.kind = CB_SHAPE_SPHERE, .radius = phi / 2};
    assert_int_equal(cb_body_init(&b[0], &pl, 0, NULL), CB_OK);
    double s = phi * (1 - 1e-3);
    int m = 1;
    for (int k = 0; k < L; k++)
        for (int i = 0; i < L - k; i++)
            for (int j = 0; j < L - k; j++, m++) {
                assert_int_equal(cb_body_init(&b[m], &sp, 1300, NULL), CB_OK);
                b[m].x[0] = (i + 0.5 * k) * s;
                b[m].x[1] = (j + 0.5 * k) * s;
                b[m].x[2] = s / 2 + k * s / sqrt(2.0);
                double ax[3] = {cb_rng_normal(r), cb_rng_normal(r), cb_rng_normal(r)};
                double an = sqrt(ax[0] * ax[0] + ax[1] * ax[1] + ax[2] * ax[2]);
                double t = cb_rng_range(r, 0, 3);
                b[m].q[0] = cos(t / 2);
                for (int c = 0; c < 3; c++)
                    b[m].q[1 + c] = sin(t / 2) * ax[c] / an;
                for (int c = 0; c < 3; c++)
                    b[m].v[c] = 1e-3 * cb_rng_normal(r), b[m].w[c] = 0.1 * cb_rng_normal(r);
                b[m].v[2] -= 9.81e-3;
            }
    if (box) {
        cb_shape bx = {.kind = CB_SHAPE_BOX, .half = {0.02, 0.01, 0.005}};
        assert_int_equal(cb_body_init(&b[m], &bx, 2000, NULL), CB_OK);
        double t = cb_rng_range(r, 0, 3);
        b[m].q[0] = cos(t / 2), b[m].q[3] = sin(t / 2);
        b[m].x[0] = -0.1, b[m].x[2] = 0.005 - 1e-6;
        b[m].v[0] = 0.01, b[m].v[2] = -9.81e-3, b[m].w[2] = 0.3;
    }
    *out = b;
    return n;
}

/* T towers of H spheres on the plane (φ, 1300 kg/m³), each sphere offset sideways by up to
 * tilt·φ from the one below (tilted normals: friction and rolling resistance are active), towers
 * 3φ apart: HT contacts on HT bodies, so H has full rank and the CCP one solution. */
static int towers(int T, int H, double tilt, double phi, cb_rng *r, cb_body **out)
{
    int n = 1 + H * T;
    cb_body *b = calloc((size_t)n, sizeof *b);
    assert_non_null(b);
    cb_shape pl = {.kind = CB_SHAPE_PLANE}, sp = {.kind = CB_SHAPE_SPHERE, .radius = phi / 2};
    assert_int_equal(cb_body_init(&b[0], &pl, 0, NULL), CB_OK);
    double s = phi * (1 - 1e-3);
    for (int t = 0, m = 1; t < T; t++)
        for (int k = 0; k < H; k++, m++) {
            assert_int_equal(cb_body_init(&b[m], &sp, 1300, NULL), CB_OK);
            if (k == 0) {
                b[m].x[0] = 3 * phi * t, b[m].x[2] = s / 2;
            } else {
                double dx = cb_rng_range(r, -tilt, tilt) * phi;
                double dy = cb_rng_range(r, -tilt, tilt) * phi;
                b[m].x[0] = b[m - 1].x[0] + dx, b[m].x[1] = b[m - 1].x[1] + dy;
                b[m].x[2] = b[m - 1].x[2] + sqrt(s * s - dx * dx - dy * dy);
            }
            for (int c = 0; c < 3; c++)
                b[m].v[c] = 1e-3 * cb_rng_normal(r), b[m].w[c] = 0.1 * cb_rng_normal(r);
            b[m].v[2] -= 9.81e-3;
        }
    *out = b;
    return n;
}

/* Contacts of the bodies (margin 1e-4 φ), friction μ = 0.3, μ_r = 0.05, μ_s = 0.02. */
static int detect_all(const cb_body *b, int n, double phi, cb_contact_list *l)
{
    cb_detect_settings ds;
    cb_detect_settings_default(&ds);
    ds.margin = 1e-4 * phi;
    ds.friction = (cb_friction){0.3, 0.05, 0.02};
    assert_int_equal(cb_detect(b, n, NULL, &ds, l, NULL), CB_OK);
    return l->n;
}

static cb_problem *assemble(cb_kind kind, const cb_body *b, int nb, const cb_contact_list *l,
                            int factored)
{
    cb_assembly_input in = {kind, b, nb, l->c, l->n, NULL, 0, factored};
    cb_problem *p = NULL;
    cb_error err = {{0}};
    int rc = cb_assemble(&in, &p, &err);
    if (rc != CB_OK)
        print_message("assemble: %s\n", err.text);
    assert_int_equal(rc, CB_OK);
    assert_int_equal(cb_problem_check(p, NULL), CB_OK);
    return p;
}

/* (b) cb_assemble factored vs BSR on a pyramid of 55 spheres and a box, every kind: same q, μ's
 * and block structure, blocks and W p within 1e-14; both BSR W's bitwise symmetric. */
static void test_assemble_factored(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 5);
    cb_body *b = NULL;
    int nb = pyramid(5, 1, PHI, &r, &b);
    cb_contact_list l;
    cb_contact_list_init(&l);
    int nc = detect_all(b, nb, PHI, &l);
    assert_int_equal(nc, 2 * 40 + 4 * 30 + 25 + 4); /* in layers, between layers, plane, box */
    double worst = 0, worst_p = 0;
    for (int k = 0; k < CB_KIND_COUNT; k++) {
        cb_problem *bs = assemble((cb_kind)k, b, nb, &l, 0);
        cb_problem *fa = assemble((cb_kind)k, b, nb, &l, 1);
        cb_problem *conv = NULL;
        assert_int_equal(fa->storage, CB_STORAGE_FACTORED);
        assert_int_equal(fa->fac.nbody, nb - 1); /* the dynamic bodies in contact */
        assert_int_equal(cb_problem_to_bsr(fa, &conv, NULL), CB_OK);
        size_t n = cb_problem_n(bs), dd = (size_t)bs->d * bs->d;
        assert_memory_equal(fa->q, bs->q, n * 8);
        assert_memory_equal(fa->mu_r, bs->mu_r, (size_t)nc * 8);
        assert_memory_equal(fa->mu_s, bs->mu_s, (size_t)nc * 8);
        assert_int_equal(conv->bsr.nnzb, bs->bsr.nnzb);
        assert_memory_equal(conv->bsr.row_ptr, bs->bsr.row_ptr, (size_t)(nc + 1) * 4);
        assert_memory_equal(conv->bsr.col, bs->bsr.col, (size_t)bs->bsr.nnzb * 4);
        assert_true(cbt_bsr_symmetric_bits(bs) && cbt_bsr_symmetric_bits(conv));
        double e = cbt_vec_reldiff(conv->bsr.val, bs->bsr.val, (size_t)bs->bsr.nnzb * dd, 0);
        assert_true(e < 1e-14);
        worst = fmax(worst, e);
        double *x = malloc(n * 8), *y1 = malloc(n * 8), *y2 = malloc(n * 8);
        for (size_t i = 0; i < n; i++)
            x[i] = cb_rng_normal(&r);
        cb_problem_Wp(fa, x, y1);
        cb_problem_Wp(bs, x, y2);
        e = cbt_vec_reldiff(y1, y2, n, 0);
        assert_true(e < 1e-14);
        worst_p = fmax(worst_p, e);
        free(x), free(y1), free(y2);
        cb_problem_free(bs), cb_problem_free(fa), cb_problem_free(conv);
    }
    print_message("pyramid nc=%d: factored vs BSR blocks %.2e, W p %.2e\n", nc, worst, worst_p);
    cb_contact_list_free(&l);
    free(b);
}

/* ------------------------------------------------------------------ solvers */

typedef struct {
    cb_info info;
    double *p;
} run_out;

static run_out run(const char *solver, const cb_problem *prob, double tol, int max_iter)
{
    cb_settings s;
    cb_settings_default(&s);
    s.tol = tol;
    s.max_iter = max_iter;
    s.time_limit = 0; /* none: results must not depend on the machine's speed */
    cb_solution sol;
    assert_int_equal(cb_solution_alloc(prob, &sol, NULL), CB_OK);
    run_out o;
    cb_error err = {{0}};
    int rc = cb_solve(cb_solver_find(solver), prob, &s, &sol, &o.info, &err);
    if (rc != CB_OK)
        print_message("%s: %s\n", solver, err.text);
    assert_int_equal(rc, CB_OK);
    o.p = sol.p;
    sol.p = NULL;
    cb_solution_free(&sol);
    return o;
}

/* Solve the factored and BSR CCPs of the bodies (rolling3d) with each solver: both solved,
 * the factored solution confirmed by the judge on the assembled dense copy; with same = 1
 * (one solution) nsgs is within 2 sweeps of the BSR run and p agrees to 100 tol. */
static void solve_both(const char *what, const cb_body *b, int nb, int same)
{
    static const struct {
        const char *name;
        double tol;
        int max_iter;
    } sv[] = {{"nsgs", 1e-8, 2000}, {"psor", 1e-6, 20000}, {"pfp", 1e-6, 20000},
              {"eg", 1e-6, 20000}};
    cb_contact_list l;
    cb_contact_list_init(&l);
    int nc = detect_all(b, nb, 1.0, &l);
    cb_problem *fa = assemble(CB_KIND_ROLLING3D, b, nb, &l, 1);
    cb_problem *bs = assemble(CB_KIND_ROLLING3D, b, nb, &l, 0), *dn = NULL;
    assert_int_equal(cb_problem_to_dense(bs, &dn, NULL), CB_OK);
    size_t n = cb_problem_n(fa);
    for (size_t i = 0; i < sizeof sv / sizeof *sv; i++) {
        run_out f = run(sv[i].name, fa, sv[i].tol, sv[i].max_iter);
        run_out g = run(sv[i].name, bs, sv[i].tol, sv[i].max_iter);
        assert_true(f.info.solved);
        assert_true(g.info.solved);
        cb_judgement j;
        assert_int_equal(cb_judge(dn, f.p, sv[i].tol, NULL, &j, NULL), CB_OK);
        assert_true(j.solved && j.error <= sv[i].tol);
        double dp = cbt_vec_reldiff(f.p, g.p, n, 0);
        print_message("%s nc=%d %-4s factored: %d it, error %.2e (dense judge %.2e), %lld blocks;"
                      " bsr: %d it, %lld blocks; |p_f - p_b|/|p| %.1e\n", what, nc, sv[i].name,
                      f.info.iterations, f.info.error, j.error, f.info.work.block_products,
                      g.info.iterations, g.info.work.block_products, dp);
        if (same && !strcmp(sv[i].name, "nsgs"))
            assert_true(abs(f.info.iterations - g.info.iterations) <= 2);
        if (same)
            assert_true(dp < 100 * sv[i].tol);
        cb_info_free(&f.info), cb_info_free(&g.info);
        free(f.p), free(g.p);
    }
    cb_problem_free(fa), cb_problem_free(bs), cb_problem_free(dn);
    cb_contact_list_free(&l);
}

/* (c) nsgs, psor, pfp, eg on factored CCPs: 10 towers of 3 spheres (one solution: same sweeps
 * and p as BSR) and a 30-sphere pyramid (hyperstatic: p is not unique, so the factored and BSR
 * runs, whose W p differ by rounding, may end on different solutions — only judged). φ = 1 m:
 * with φ = 2 cm the rolling rows of W (∝ 1/(m r²)) dwarf the others and psor/pfp/eg need
 * 10⁵ iterations on either storage. */
static void test_solvers_factored(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 9);
    cb_body *b = NULL;
    int nb = towers(10, 3, 0.15, 1.0, &r, &b);
    solve_both("towers", b, nb, 1);
    free(b);
    nb = pyramid(4, 0, 1.0, &r, &b);
    solve_both("pyramid", b, nb, 0);
    free(b);
}

/* siconos-nsgs on the factored problem fa and on its assembled BSR bs: same sweeps, work and
 * bits. */
static void same_siconos_runs(const cb_problem *fa, const cb_problem *bs)
{
    run_out f = run("siconos-nsgs", fa, 1e-8, 1000), g = run("siconos-nsgs", bs, 1e-8, 1000);
    assert_true(f.info.solved);
    assert_int_equal(f.info.iterations, g.info.iterations);
    assert_int_equal(f.info.work.block_products, g.info.work.block_products);
    assert_memory_equal(f.p, g.p, cb_problem_n(bs) * 8);
    print_message("%s nc=%d: file = assembled BSR (%d blocks); siconos-nsgs %d sweeps, error "
                  "%.2e on both\n", cb_kind_name(fa->kind), fa->nc, bs->bsr.nnzb,
                  f.info.iterations, f.info.error);
    cb_info_free(&f.info), cb_info_free(&g.info);
    free(f.p), free(g.p);
}

/* A factored problem written to Siconos text reads back as its assembled BSR, bit for bit; the
 * Siconos adapters (which assemble it first) give the same iterations and bits as on that BSR.
 * Towers of spheres (φ = 1 m), rolling3d and coulomb3d. */
static void test_io_and_siconos(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 13);
    cb_body *b = NULL;
    int nb = towers(6, 2, 0.1, 1.0, &r, &b);
    cb_contact_list l;
    cb_contact_list_init(&l);
    detect_all(b, nb, 1.0, &l);
    const cb_kind kinds[] = {CB_KIND_ROLLING3D, CB_KIND_COULOMB3D};
    for (int k = 0; k < 2; k++) {
        cb_problem *fa = assemble(kinds[k], b, nb, &l, 1), *bs = NULL, *back = NULL;
        assert_int_equal(cb_problem_to_bsr(fa, &bs, NULL), CB_OK);
        char path[512];
        snprintf(path, sizeof path, "%s/factored_%d.dat", cbt_tmpdir(), k);
        cb_error err = {{0}};
        assert_int_equal(cb_write_problem(path, fa, &err), CB_OK);
        cb_read_settings rs;
        cb_read_settings_default(&rs);
        assert_int_equal(cb_read_problem(path, &rs, &back, &err), CB_OK);
        size_t dd = (size_t)bs->d * bs->d, n = cb_problem_n(bs);
        assert_int_equal(back->storage, CB_STORAGE_BSR);
        assert_int_equal(back->bsr.nnzb, bs->bsr.nnzb);
        assert_memory_equal(back->bsr.col, bs->bsr.col, (size_t)bs->bsr.nnzb * 4);
        assert_memory_equal(back->bsr.val, bs->bsr.val, (size_t)bs->bsr.nnzb * dd * 8);
        assert_memory_equal(back->q, fa->q, n * 8);
        if (cb_solver_built_with_siconos())
            same_siconos_runs(fa, bs);
        else
            print_message("%s nc=%d: file = assembled BSR (%d blocks); siconos-nsgs skipped: built "
                          "without Siconos (make SICONOS=0)\n", cb_kind_name(kinds[k]), fa->nc,
                          bs->bsr.nnzb);
        cb_problem_free(fa), cb_problem_free(bs), cb_problem_free(back);
    }
    cb_contact_list_free(&l);
    free(b);
}

/* (d) Memory of W on a pyramid of 385 spheres (rolling3d): factored < 1 KB per contact, and the
 * exact count of its arrays; BSR for comparison. */
static void test_bytes_pile(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 11);
    cb_body *b = NULL;
    int nb = pyramid(10, 0, PHI, &r, &b);
    cb_contact_list l;
    cb_contact_list_init(&l);
    int nc = detect_all(b, nb, PHI, &l);
    assert_int_equal(nc, 2 * 330 + 4 * 285 + 100);
    cb_problem *fa = assemble(CB_KIND_ROLLING3D, b, nb, &l, 1);
    cb_problem *bs = assemble(CB_KIND_ROLLING3D, b, nb, &l, 0);
    size_t fb = cb_problem_W_bytes(fa), bb = cb_problem_W_bytes(bs);
    /* per contact: 2 body ints, 2·5×6 G doubles, 2 adjacency ints (capacity), 5×5 diagonal;
     * per dynamic body (the plane is not one): 10 minv doubles, 6 scratch doubles, 1 adjacency
     * pointer (+1) */
    assert_int_equal(fa->fac.nbody, nb - 1);
    size_t expect = (size_t)nc * (8 + 480 + 8 + 200) + (size_t)(nb - 1) * (80 + 48 + 4) + 4;
    assert_int_equal(fb, expect);
    assert_int_equal(bb, (size_t)bs->bsr.nnzb * 204 + (size_t)(nc + 1) * 4);
    print_message("pyramid nc=%d, %d bodies: factored %.0f B/contact, BSR %.0f B/contact "
                  "(%.1f blocks a row)\n", nc, nb, (double)fb / nc, (double)bb / nc,
                  (double)bs->bsr.nnzb / nc);
    assert_true((double)fb / nc < 1024);
    assert_true(fb < bb);
    cb_problem_free(fa), cb_problem_free(bs);
    cb_contact_list_free(&l);
    free(b);
}

/* ------------------------------------------------------------------ validation */

static void expect_reject(const cb_problem *p, int finish, const char *what1, const char *what2)
{
    cb_error err = {{0}};
    int rc = finish ? cb_problem_factored_finish((cb_problem *)p, &err) : cb_problem_check(p, &err);
    assert_int_equal(rc, CB_ERR_INPUT);
    if (!strstr(err.text, what1) || !strstr(err.text, what2))
        print_message("unexpected message: %s\n", err.text);
    assert_non_null(strstr(err.text, what1));
    assert_non_null(strstr(err.text, what2));
}

/* (e) check and finish reject a bad body index, a contact without a body, a non-finite G on a
 * slot with a body, a negative 1/m and an asymmetric inverse inertia, naming the field and
 * entry; a non-finite G on a slot without a body is ignored; allocation arguments. */
static void test_check_rejects(void **state)
{
    (void)state;
    cb_problem *p = random_factored(CB_KIND_ROLLING3D, 12, 6, 3), *q = NULL;
    cb_error err = {{0}};
    int keep = p->fac.body[7];
    p->fac.body[7] = 6;
    expect_reject(p, 0, "fac.body", "contact 3 slot 1: body 6 out of range");
    expect_reject(p, 1, "fac.body", "contact 3 slot 1: body 6 out of range");
    p->fac.body[7] = -2;
    expect_reject(p, 0, "fac.body", "body -2 out of range");
    p->fac.body[7] = keep;
    int k0 = p->fac.body[10], k1 = p->fac.body[11];
    p->fac.body[10] = p->fac.body[11] = -1;
    expect_reject(p, 1, "fac.body", "contact 5 has no body");
    p->fac.body[10] = k0, p->fac.body[11] = k1;
    assert_int_equal(cb_problem_factored_finish(p, NULL), CB_OK);
    assert_int_equal(cb_problem_check(p, NULL), CB_OK);
    p->fac.body[8] = 2, p->fac.body[9] = 4; /* contact 4 on bodies 2 and 4 */
    assert_int_equal(cb_problem_factored_finish(p, NULL), CB_OK);
    double *g = p->fac.G + (size_t)(2 * 4 + 1) * 30 + 6 * 2 + 3; /* contact 4, slot 1, (2, 3) */
    *g = NAN;
    expect_reject(p, 0, "fac.G", "contact 4 slot 1: entry (2, 3) is not finite");
    expect_reject(p, 1, "fac.G", "contact 4 slot 1");
    *g = INFINITY;
    expect_reject(p, 0, "fac.G", "not finite");
    p->fac.body[9] = -1; /* the slot no longer has a body: its block is ignored */
    assert_int_equal(cb_problem_factored_finish(p, NULL), CB_OK);
    assert_int_equal(cb_problem_check(p, NULL), CB_OK);
    *g = 1.0;
    p->fac.body[9] = 4; /* adjacency now stale */
    expect_reject(p, 0, "fac.adj_ptr", "cb_problem_factored_finish");
    assert_int_equal(cb_problem_factored_finish(p, NULL), CB_OK);
    p->fac.minv[10 * 3] = -1;
    expect_reject(p, 0, "fac.minv", "body 3: 1/m = -1 is negative");
    p->fac.minv[10 * 3] = 1;
    p->fac.minv[10 * 3 + 2] += 1e-3;
    expect_reject(p, 1, "fac.minv", "body 3: inverse inertia is not symmetric");
    p->fac.minv[10 * 3 + 2] = NAN;
    expect_reject(p, 1, "fac.minv", "body 3 entry 2 is not finite");
    assert_int_equal(cb_problem_alloc(CB_KIND_ROLLING3D, 3, CB_STORAGE_FACTORED, 0, &q, &err),
                     CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "cb_problem_alloc_factored"));
    assert_int_equal(cb_problem_alloc_factored(CB_KIND_ROLLING3D, 3, 0, &q, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "nbody"));
    assert_null(q);
    assert_string_equal(cb_storage_name(CB_STORAGE_FACTORED), "factored");
    cb_problem_free(p);
    cb_problem_free(NULL);
}

/* ------------------------------------------------------------------ time-stepper */

typedef struct {
    long steps;
    size_t bytes;
    int nc;
    double x[41][3]; /* positions after the last step */
} step_stats;

static int record(void *ctx, const cb_system *sys, const cb_mj_work *w, const cb_step_record *rec)
{
    (void)w;
    step_stats *s = ctx;
    s->steps++;
    if (rec->nc > s->nc)
        s->nc = rec->nc, s->bytes = rec->w_bytes;
    for (int k = 0; k < sys->nbodies && k < 41; k++)
        memcpy(s->x[k], sys->bodies[k].x, sizeof s->x[k]);
    return 0;
}

/* The sphere-pile scenario (40 spheres, 0.6 s, tol 1e-8) with factored W: same steps, contact
 * counts, unsolved steps and final state as with BSR to 1e-4 φ; the time-stepper rejects dense
 * storage. The two W's differ by rounding (BSR: upper blocks computed, lower ones mirrored;
 * factored: products of G's), which impacts amplify for a few steps: the final states differ
 * by 1e-11 to 2e-7 m for t_end 0.4 to 0.6 s. Another path is far outside: at tol 1e-4 one step
 * ends a sweep apart near the tolerance and the final states differ by 4e-2 m. */
static void test_timestepper_factored(void **state)
{
    (void)state;
    const cb_scenario_def *def = cb_scenario_find("sphere-pile");
    assert_non_null(def);
    cb_option params[] = {{"n", "40"}, {"t_end", cbt_quick() ? "0.4" : "0.6"},
                          {"interval", "0.02"}, {"tol", "1e-8"}};
    cb_scenario sc[2];
    step_stats st[2];
    cb_run_result res[2];
    for (int f = 0; f < 2; f++) {
        assert_int_equal(cb_scenario_build(def, params, 4, &sc[f], NULL), CB_OK);
        cb_run_settings rs;
        cb_run_settings_default(&rs);
        rs.mj.solve.time_limit = 0; /* none: results must not depend on machine speed */
        assert_int_equal(rs.mj.storage, CB_STORAGE_BSR);
        rs.mj.storage = f ? CB_STORAGE_FACTORED : CB_STORAGE_BSR;
        memset(&st[f], 0, sizeof st[f]);
        cb_error err = {{0}};
        int rc = cb_nonsmooth_run(&sc[f], &rs, record, &st[f], &res[f], &err);
        if (rc != CB_OK)
            print_message("run: %s\n", err.text);
        assert_int_equal(rc, CB_OK);
    }
    double dx = 0;
    assert_int_equal(sc[0].nbodies, 41);
    for (int k = 0; k < 41; k++)
        for (int c = 0; c < 3; c++)
            dx = fmax(dx, fabs(st[0].x[k][c] - st[1].x[k][c]));
    print_message("pile n=40: %ld steps, max nc %d (BSR %zu B, factored %zu B), unsolved %ld/%ld, "
                  "max |dx| %.2e m\n", st[1].steps, st[1].nc, st[0].bytes, st[1].bytes,
                  res[0].unsolved, res[1].unsolved, dx);
    assert_int_equal(st[0].steps, st[1].steps);
    assert_int_equal(st[0].nc, st[1].nc);
    assert_true(st[1].nc > 0);
    assert_int_equal(res[0].unsolved, res[1].unsolved);
    assert_true(st[1].bytes < 1024 * (size_t)st[1].nc); /* rolling3d: < 1 KB per contact */
    assert_true(dx < 1e-4 * PHI);
    cb_scenario_free(&sc[0]);
    cb_scenario_free(&sc[1]);
    cb_mj_settings ms;
    cb_mj_settings_default(&ms);
    ms.solve.time_limit = 0; /* none: results must not depend on machine speed */
    ms.storage = CB_STORAGE_DENSE;
    cb_system sys = {0};
    cb_mj_work *w = NULL;
    cb_body one;
    cb_shape sp = {.kind = CB_SHAPE_SPHERE, .radius = 0.1};
    assert_int_equal(cb_body_init(&one, &sp, 1000, NULL), CB_OK);
    sys.bodies = &one, sys.nbodies = 1, sys.kind = CB_KIND_ROLLING3D;
    cb_error err = {{0}};
    assert_int_equal(cb_mj_create(&sys, &ms, &w, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "storage"));
    cb_mj_free(w);
}

/* Factored W on threads: W p (bodies, then contacts), nsgs order=coloured (no two contacts
 * of a colour share a body) and apgd (whole products: factored rows cannot be had a range at a
 * time) give the same bits at 1 and 2 threads, on more contacts than CB_PAR_MIN_ROWS. */
static void test_threads_factored(void **state)
{
    (void)state;
    cb_problem *p = random_factored(CB_KIND_ROLLING3D, 2000, 500, 5);
    size_t n = cb_problem_n(p);
    double *x = malloc(n * sizeof *x), *y1 = malloc(n * sizeof *y1), *y2 = malloc(n * sizeof *y2);
    assert_true(x && y1 && y2);
    cb_rng r;
    cb_rng_seed(&r, 9);
    for (size_t i = 0; i < n; i++)
        x[i] = cb_rng_uniform(&r) - 0.5;
    int old = cb_threads_set(1);
    cb_problem_Wp(p, x, y1);
    cb_threads_set(2);
    cb_problem_Wp(p, x, y2);
    cb_threads_set(old);
    assert_memory_equal(y1, y2, n * sizeof *y1);
    static const cb_option coloured[] = {{"order", "coloured"}};
    for (int k = 0; k < 2; k++) {
        double *sols[2];
        for (int t = 0; t < 2; t++) {
            cb_settings s;
            cb_settings_default(&s);
            s.max_iter = 20, s.time_limit = 0, s.threads = t + 1;
            s.options = k == 0 ? coloured : NULL, s.noptions = k == 0;
            cb_solution sol;
            cb_info info;
            cb_error err = {{0}};
            assert_int_equal(cb_solution_alloc(p, &sol, NULL), CB_OK);
            assert_int_equal(cb_solve(cb_solver_find(k == 0 ? "nsgs" : "apgd"), p, &s, &sol, &info,
                                      &err), CB_OK);
            assert_int_equal(info.iterations, 20); /* every iterate's bits count */
            sols[t] = sol.p;
            free(sol.y);
            cb_info_free(&info);
        }
        assert_memory_equal(sols[0], sols[1], n * sizeof(double));
        free(sols[0]);
        free(sols[1]);
    }
    free(x);
    free(y1);
    free(y2);
    cb_problem_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernels_random),
        cmocka_unit_test(test_assemble_factored),
        cmocka_unit_test(test_solvers_factored),
        cmocka_unit_test(test_bytes_pile),
        cmocka_unit_test(test_io_and_siconos),
        cmocka_unit_test(test_check_rejects),
        cmocka_unit_test(test_timestepper_factored),
        cmocka_unit_test(test_threads_factored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
