/* conebench tests — mechanics: bodies and inertia, quaternions, contact detection, contact
 * kinematics (H), block-sparse W = Hᵀ M⁻¹ H, frame continuity, the Moreau–Jean time-stepper on
 * the scenarios against closed-form solutions, energy dissipation, the scenario registry and the
 * `simulate` / `generate SCENARIO` commands. */
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>

#include "analytic.h"
#include "conebench/io.h"
#include "rng.h"
#include "scenario_registry.h"
#include "timestepper.h"
#include "kv.h"

/* ------------------------------------------------------------------ helpers */

/* Build scenario `name` from "k=v" strings (NULL-terminated). */
static void build(const char *name, const char *const *kv, cb_scenario *s)
{
    cb_kv_list l = {0};
    cb_error err;
    cb_error_clear(&err);
    for (int k = 0; kv && kv[k]; k++)
        assert_int_equal(cb_kv_parse(&l, kv[k], &err), CB_OK);
    const cb_scenario_def *def = cb_scenario_find(name);
    assert_non_null(def);
    int rc = cb_scenario_build(def, l.items, l.n, s, &err);
    if (rc != CB_OK)
        print_message("build %s: %s\n", name, err.text);
    cb_kv_list_free(&l);
    assert_int_equal(rc, CB_OK);
}

/* Run s with solver (NULL: nsgs) and default settings. */
static void run(const cb_scenario *s, const char *solver, cb_run_result *res)
{
    cb_run_settings rs;
    cb_run_settings_default(&rs);
    rs.mj.solve.time_limit = 0; /* none: results must not depend on machine speed */
    if (solver)
        rs.mj.solver = cb_solver_find(solver);
    assert_non_null(rs.mj.solver);
    cb_error err;
    cb_error_clear(&err);
    int rc = cb_nonsmooth_run(s, &rs, NULL, NULL, res, &err);
    if (rc != CB_OK)
        print_message("run %s: %s\n", s->name, err.text);
    assert_int_equal(rc, CB_OK);
}

static void rand_unit(cb_rng *r, double v[3])
{
    double n;
    do {
        for (int k = 0; k < 3; k++)
            v[k] = cb_rng_normal(r);
        n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    } while (n < 1e-3);
    for (int k = 0; k < 3; k++)
        v[k] /= n;
}

/* ------------------------------------------------------------------ bodies */

/* Inertia per unit mass of every shape against a direct quadrature over a 96³ grid of the
 * bounding box (independent of the closed forms in body.c), and the closed forms themselves. */
static void test_inertia(void **state)
{
    (void)state;
    cb_shape shapes[4] = {{.kind = CB_SHAPE_SPHERE, .radius = 0.7},
                          {.kind = CB_SHAPE_BOX, .half = {0.5, 0.2, 0.9}},
                          {.kind = CB_SHAPE_DISK, .radius = 0.6, .length = 0.3},
                          {.kind = CB_SHAPE_ELLIPSOID, .half = {0.4, 0.8, 0.3}}};
    int N = (int)cbt_scale(96, 2);
    for (int s = 0; s < 4; s++) {
        const cb_shape *sh = &shapes[s];
        double ext[3], J[3], m0 = 0, m2[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++)
            ext[k] = sh->kind == CB_SHAPE_SPHERE ? sh->radius
                     : sh->kind == CB_SHAPE_DISK ? (k == 1 ? 0.5 * sh->length : sh->radius)
                                                 : sh->half[k];
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                for (int l = 0; l < N; l++) {
                    double x = ext[0] * (2.0 * (i + 0.5) / N - 1), y = ext[1] * (2.0 * (j + 0.5) / N - 1),
                           z = ext[2] * (2.0 * (l + 0.5) / N - 1);
                    int in = sh->kind == CB_SHAPE_BOX ? 1
                             : sh->kind == CB_SHAPE_DISK
                                 ? x * x + z * z <= sh->radius * sh->radius
                                 : (x * x) / (ext[0] * ext[0]) + (y * y) / (ext[1] * ext[1]) +
                                           (z * z) / (ext[2] * ext[2]) <= 1.0;
                    if (!in)
                        continue;
                    m0 += 1;
                    m2[0] += y * y + z * z;
                    m2[1] += x * x + z * z;
                    m2[2] += x * x + y * y;
                }
        cb_shape_unit_inertia(sh, J);
        double vol = m0 * 8 * ext[0] * ext[1] * ext[2] / ((double)N * N * N);
        assert_true(cbt_reldiff(vol, cb_shape_volume(sh), 1e-300) < 2e-2);
        for (int k = 0; k < 3; k++)
            assert_true(cbt_reldiff(m2[k] / m0, J[k], 1e-300) < 2e-2);
    }
    double J[3];
    cb_shape_unit_inertia(&shapes[0], J);
    assert_true(fabs(J[0] - 0.4 * 0.49) < 1e-15);
    cb_shape_unit_inertia(&shapes[1], J);
    assert_true(fabs(J[1] - (1.0 / 12) * (1.0 * 1.0 + 1.8 * 1.8)) < 1e-15);
    cb_body b;
    assert_int_equal(cb_body_init(&b, &shapes[0], 2500, NULL), CB_OK);
    assert_true(cbt_reldiff(b.mass, 2500 * 4.0 / 3 * M_PI * 0.343, 1e-300) < 1e-14);
    cb_shape bad = {.kind = CB_SHAPE_BOX, .half = {1, -1, 1}};
    cb_error err;
    assert_int_equal(cb_body_init(&b, &bad, 1, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "half[1]"));
}

/* Quaternion rotation = matrix; integration of a constant ω = rotation by h‖ω‖ about ω;
 * world inertia consistent with the kinetic energy in the body frame. */
static void test_quaternion(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 11);
    for (int t = 0; t < 200; t++) {
        double ax[3], v[3], q[4], R[9], a[3], b[3], back[3];
        rand_unit(&r, ax);
        rand_unit(&r, v);
        cb_quat_from_axis_angle(ax, cb_rng_range(&r, -3, 3), q);
        cb_quat_to_matrix(q, R);
        cb_quat_rotate(q, v, a);
        for (int k = 0; k < 3; k++)
            b[k] = R[3 * k] * v[0] + R[3 * k + 1] * v[1] + R[3 * k + 2] * v[2];
        cb_quat_rotate_inv(q, a, back);
        for (int k = 0; k < 3; k++) {
            assert_true(fabs(a[k] - b[k]) < 1e-14);
            assert_true(fabs(back[k] - v[k]) < 1e-14);
        }
        /* 100 steps of h with ω = 0.3 ax ≡ one rotation of 100·h·0.3 about ax */
        double w[3] = {0.3 * ax[0], 0.3 * ax[1], 0.3 * ax[2]}, qi[4], qe[4];
        cb_quat_identity(qi);
        for (int s = 0; s < 100; s++)
            cb_quat_integrate(qi, w, 0.01, qi);
        cb_quat_from_axis_angle(ax, 0.3, qe);
        for (int k = 0; k < 4; k++)
            assert_true(fabs(qi[k] - qe[k]) < 1e-13);
    }
    cb_shape sh = {.kind = CB_SHAPE_ELLIPSOID, .half = {0.4, 0.8, 0.3}};
    cb_body b;
    assert_int_equal(cb_body_init(&b, &sh, 1000, NULL), CB_OK);
    double ax[3] = {1, 2, 3}, Iw[9], Iinv[9];
    cb_quat_from_axis_angle(ax, 0.7, b.q);
    b.w[0] = 0.3, b.w[1] = -1.1, b.w[2] = 0.5;
    cb_body_inertia_world(&b, Iw);
    cb_body_inv_inertia_world(&b, Iinv);
    double T = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            T += 0.5 * b.w[i] * Iw[3 * i + j] * b.w[j];
            double id = 0;
            for (int k = 0; k < 3; k++)
                id += Iw[3 * i + k] * Iinv[3 * k + j];
            assert_true(fabs(id - (i == j)) < 1e-12);
        }
    assert_true(cbt_reldiff(T, cb_body_kinetic_energy(&b), 1e-300) < 1e-13);
}

/* ------------------------------------------------------------------ detection */

static int detect(const cb_body *b, int n, double margin, cb_contact_list *l)
{
    cb_detect_settings ds;
    cb_detect_settings_default(&ds);
    ds.margin = margin;
    assert_int_equal(cb_detect(b, n, NULL, &ds, l, NULL), CB_OK);
    return l->n;
}

/* Gaps and points of plane–sphere, plane–ellipsoid (rotated), plane–box (resting on a face:
 * 4 corners), plane–disk and sphere–sphere; an inclined plane's normal. */
static void test_detection_pairs(void **state)
{
    (void)state;
    cb_body b[3];
    cb_contact_list l;
    cb_contact_list_init(&l);
    static const double ey[3] = {0, 1, 0};
    cb_shape pl = {.kind = CB_SHAPE_PLANE}, sp = {.kind = CB_SHAPE_SPHERE, .radius = 0.5};
    assert_int_equal(cb_body_init(&b[0], &pl, 0, NULL), CB_OK);
    cb_quat_from_axis_angle(ey, 0.3, b[0].q); /* normal (sin .3, 0, cos .3) */
    assert_int_equal(cb_body_init(&b[1], &sp, 1000, NULL), CB_OK);
    b[1].x[0] = 0.7 * sin(0.3), b[1].x[2] = 0.7 * cos(0.3);
    assert_int_equal(detect(b, 2, 0.3, &l), 1);
    assert_true(fabs(l.c[0].gap - 0.2) < 1e-14);
    assert_true(fabs(l.c[0].n[0] - sin(0.3)) < 1e-14 && fabs(l.c[0].n[2] - cos(0.3)) < 1e-14);
    assert_true(fabs(l.c[0].t1[0] - cos(0.3)) < 1e-14); /* down the slope */
    assert_int_equal(detect(b, 2, 0.1, &l), 0);
    b[0].shape.half[0] = b[0].shape.half[1] = 0.5; /* bounded plane: the sphere is beyond it */
    b[1].x[0] += 0.6 * cos(0.3), b[1].x[2] -= 0.6 * sin(0.3);
    assert_int_equal(detect(b, 2, 0.3, &l), 0);
    b[0].shape.half[0] = b[0].shape.half[1] = 0.7;
    assert_int_equal(detect(b, 2, 0.3, &l), 1);
    b[0].shape.half[0] = b[0].shape.half[1] = 0.0;
    /* ellipsoid (0.4, 0.8, 0.3) turned by 90° about x: its lowest point is −0.8 */
    cb_shape el = {.kind = CB_SHAPE_ELLIPSOID, .half = {0.4, 0.8, 0.3}};
    static const double ex[3] = {1, 0, 0};
    cb_quat_identity(b[0].q);
    assert_int_equal(cb_body_init(&b[1], &el, 1000, NULL), CB_OK);
    cb_quat_from_axis_angle(ex, M_PI / 2, b[1].q);
    b[1].x[2] = 0.79;
    assert_int_equal(detect(b, 2, 0.0, &l), 1);
    assert_true(fabs(l.c[0].gap + 0.01) < 1e-12 && fabs(l.c[0].point[2] + 0.005) < 1e-12);
    cb_shape bx = {.kind = CB_SHAPE_BOX, .half = {0.5, 0.2, 0.1}};
    assert_int_equal(cb_body_init(&b[1], &bx, 1000, NULL), CB_OK);
    b[1].x[2] = 0.1;
    assert_int_equal(detect(b, 2, 1e-9, &l), 4);
    for (int k = 0; k < 4; k++)
        assert_true(fabs(l.c[k].gap) < 1e-12 && l.c[k].feature == (k < 4 ? l.c[k].feature : 0));
    cb_shape dk = {.kind = CB_SHAPE_DISK, .radius = 0.3, .length = 0.1};
    assert_int_equal(cb_body_init(&b[1], &dk, 1000, NULL), CB_OK);
    b[1].x[2] = 0.3;
    assert_int_equal(detect(b, 2, 1e-9, &l), 1);
    assert_true(fabs(l.c[0].t2[1] - 1.0) < 1e-14); /* rolls about the disk axis */
    assert_int_equal(cb_body_init(&b[1], &sp, 1000, NULL), CB_OK);
    assert_int_equal(cb_body_init(&b[2], &sp, 1000, NULL), CB_OK);
    b[1].x[2] = 5, b[2].x[2] = 5, b[2].x[1] = 0.99;
    assert_int_equal(detect(b, 3, 0.0, &l), 1);
    assert_int_equal(l.c[0].i, 1);
    assert_true(fabs(l.c[0].gap + 0.01) < 1e-14 && fabs(l.c[0].n[1] - 1) < 1e-14);
    cb_contact_list_free(&l);
}

/* The cell grid finds exactly the pairs a brute-force O(n²) loop finds. */
static void test_detection_grid(void **state)
{
    (void)state;
    int n = (int)cbt_scale(1500, 3);
    cb_body *b = calloc((size_t)n, sizeof *b);
    assert_non_null(b);
    cb_rng r;
    cb_rng_seed(&r, 5);
    for (int k = 0; k < n; k++) {
        cb_shape sp = {.kind = CB_SHAPE_SPHERE, .radius = cb_rng_range(&r, 0.5, 1.0)};
        assert_int_equal(cb_body_init(&b[k], &sp, 1, NULL), CB_OK);
        double side = 2.0 * cbrt((double)n);
        for (int a = 0; a < 3; a++)
            b[k].x[a] = cb_rng_range(&r, 0, side);
    }
    cb_contact_list l;
    cb_contact_list_init(&l);
    int found = detect(b, n, 0.05, &l), brute = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double d = 0;
            for (int a = 0; a < 3; a++)
                d += (b[i].x[a] - b[j].x[a]) * (b[i].x[a] - b[j].x[a]);
            brute += sqrt(d) - b[i].shape.radius - b[j].shape.radius <= 0.05;
        }
    assert_true(brute > n / 2);
    assert_int_equal(found, brute);
    for (int k = 1; k < l.n; k++) /* sorted, no duplicate */
        assert_true(l.c[k - 1].i < l.c[k].i || (l.c[k - 1].i == l.c[k].i && l.c[k - 1].j < l.c[k].j));
    cb_contact_list_free(&l);
    free(b);
}

/* ------------------------------------------------------------------ kinematics, W */

/* A random dynamic body of any shape with random pose and velocities. */
static void random_body(cb_rng *r, cb_shape_kind kind, cb_body *b)
{
    cb_shape sh = {.kind = kind, .radius = 0.3, .length = 0.1, .half = {0.3, 0.2, 0.25}};
    assert_int_equal(cb_body_init(b, &sh, 1000, NULL), CB_OK);
    double ax[3];
    rand_unit(r, ax);
    cb_quat_from_axis_angle(ax, cb_rng_range(r, -3, 3), b->q);
    for (int k = 0; k < 3; k++) {
        b->x[k] = cb_rng_normal(r);
        b->v[k] = cb_rng_normal(r);
        b->w[k] = cb_rng_normal(r);
    }
}

/* y = G_i (v_i, ω_i) + G_j (v_j, ω_j) equals the relative velocity computed from the bodies, for
 * every kind; the generalised impulse G_jᵀ p is the force r_N n + r_T t at C and the torque
 * r_j × force + m_R t + m_S n. */
static void test_kinematics(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 17);
    for (int t = 0; t < 100; t++) {
        cb_body bi, bj;
        random_body(&r, CB_SHAPE_SPHERE, &bi);
        random_body(&r, (cb_shape_kind)(t % 2 ? CB_SHAPE_BOX : CB_SHAPE_ELLIPSOID), &bj);
        cb_contact c = {.i = 0, .j = 1};
        rand_unit(&r, c.n);
        for (int k = 0; k < 3; k++)
            c.point[k] = cb_rng_normal(&r);
        cb_contact_default_t1(&bi, &bj, c.n, c.t1);
        c.t2[0] = c.n[1] * c.t1[2] - c.n[2] * c.t1[1];
        c.t2[1] = c.n[2] * c.t1[0] - c.n[0] * c.t1[2];
        c.t2[2] = c.n[0] * c.t1[1] - c.n[1] * c.t1[0];
        for (int kind = 0; kind < CB_KIND_COUNT; kind++) {
            double Gi[36], Gj[36], y[6], yg[6];
            int d = cb_kind_dim((cb_kind)kind);
            cb_contact_jacobian((cb_kind)kind, &c, &bi, &bj, Gi, Gj);
            cb_contact_velocity((cb_kind)kind, &c, &bi, &bj, y);
            for (int row = 0; row < d; row++) {
                double vi[6] = {bi.v[0], bi.v[1], bi.v[2], bi.w[0], bi.w[1], bi.w[2]};
                double vj[6] = {bj.v[0], bj.v[1], bj.v[2], bj.w[0], bj.w[1], bj.w[2]};
                yg[row] = 0;
                for (int k = 0; k < 6; k++)
                    yg[row] += Gi[6 * row + k] * vi[k] + Gj[6 * row + k] * vj[k];
                assert_true(fabs(yg[row] - y[row]) < 1e-12 * (1 + fabs(y[row])));
            }
            if (kind != CB_KIND_ROLLSPIN3D)
                continue;
            double p[6], imp[6] = {0}, F[3], rj[3], tq[3];
            for (int k = 0; k < 6; k++)
                p[k] = cb_rng_normal(&r);
            for (int row = 0; row < 6; row++)
                for (int k = 0; k < 6; k++)
                    imp[k] += Gj[6 * row + k] * p[row];
            for (int k = 0; k < 3; k++) {
                F[k] = p[0] * c.n[k] + p[1] * c.t1[k] + p[2] * c.t2[k];
                rj[k] = c.point[k] - bj.x[k];
            }
            tq[0] = rj[1] * F[2] - rj[2] * F[1];
            tq[1] = rj[2] * F[0] - rj[0] * F[2];
            tq[2] = rj[0] * F[1] - rj[1] * F[0];
            for (int k = 0; k < 3; k++) {
                tq[k] += p[3] * c.t1[k] + p[4] * c.t2[k] + p[5] * c.n[k];
                assert_true(fabs(imp[k] - F[k]) < 1e-12 && fabs(imp[3 + k] - tq[k]) < 1e-12);
            }
        }
    }
}

/* A plane, a row of touching spheres (some resting on it), a box and an ellipsoid on it. */
static int cluster(cb_body *b, cb_rng *r)
{
    cb_shape pl = {.kind = CB_SHAPE_PLANE}, sp = {.kind = CB_SHAPE_SPHERE, .radius = 0.5};
    assert_int_equal(cb_body_init(&b[0], &pl, 0, NULL), CB_OK);
    int n = 1;
    for (int k = 0; k < 6; k++, n++) {
        random_body(r, CB_SHAPE_SPHERE, &b[n]);
        assert_int_equal(cb_body_init_mass(&b[n], &sp, 1.0 + k, NULL), CB_OK);
        b[n].x[0] = 0.79 * k; /* neighbours 0.992 apart: a chain, every other one on the plane */
        b[n].x[1] = 0.0;
        b[n].x[2] = k % 2 ? 0.5 : 1.1;
        b[n].v[0] = cb_rng_normal(r), b[n].w[1] = cb_rng_normal(r);
    }
    random_body(r, CB_SHAPE_BOX, &b[n]);
    cb_quat_identity(b[n].q);
    b[n].x[0] = 10, b[n].x[1] = 0, b[n].x[2] = 0.25;
    random_body(r, CB_SHAPE_ELLIPSOID, &b[++n]);
    b[n].x[0] = -10, b[n].x[1] = 0, b[n].x[2] = 0.2;
    return n + 1;
}

/* Dense H (ndof × n, column-major), M⁻¹H and the velocity vector v, from the G blocks. */
static void dense_H(cb_kind kind, const cb_body *b, int nb, const cb_contact_list *l, double *H,
                    double *MH, double *v)
{
    int d = cb_kind_dim(kind), ndof = 6 * nb, n = l->n * d;
    double Gi[36], Gj[36];
    for (int a = 0; a < l->n; a++) { /* H[dof + col·ndof] = G_{a,k}[row][dof] */
        const cb_contact *c = &l->c[a];
        cb_contact_jacobian(kind, c, &b[c->i], &b[c->j], Gi, Gj);
        for (int row = 0; row < d; row++)
            for (int k = 0; k < 6; k++) {
                if (!b[c->i].fixed)
                    H[6 * c->i + k + (size_t)(a * d + row) * ndof] += Gi[6 * row + k];
                H[6 * c->j + k + (size_t)(a * d + row) * ndof] += Gj[6 * row + k];
            }
    }
    for (int k = 0; k < nb; k++) {
        double Iinv[9];
        cb_body_inv_inertia_world(&b[k], Iinv);
        for (int c = 0; c < n; c++)
            for (int a = 0; a < 3; a++) {
                double *h = H + 6 * k + (size_t)c * ndof, *o = MH + 6 * k + (size_t)c * ndof;
                o[a] = b[k].fixed ? 0 : h[a] / b[k].mass;
                o[3 + a] = Iinv[3 * a] * h[3] + Iinv[3 * a + 1] * h[4] + Iinv[3 * a + 2] * h[5];
            }
        for (int a = 0; a < 3; a++)
            v[6 * k + a] = b[k].v[a], v[6 * k + 3 + a] = b[k].w[a];
    }
}

/* BSR W equals the dense Hᵀ M⁻¹ H built column by column from the G blocks, is symmetric and
 * positive semidefinite; q = Hᵀ v. */
static void test_assembly(void **state)
{
    (void)state;
    cb_rng r;
    cb_rng_seed(&r, 23);
    cb_body b[12];
    int nb = cluster(b, &r);
    cb_contact_list l;
    cb_contact_list_init(&l);
    int nc = detect(b, nb, 0.05, &l);
    assert_true(nc >= 12);
    for (int kind = 0; kind < CB_KIND_COUNT; kind++) {
        cb_assembly_input in = {(cb_kind)kind, b, nb, l.c, nc, NULL, 0, 0};
        cb_problem *P = NULL, *D = NULL;
        assert_int_equal(cb_assemble(&in, &P, NULL), CB_OK);
        assert_int_equal(cb_problem_check(P, NULL), CB_OK);
        assert_int_equal(cb_problem_to_dense(P, &D, NULL), CB_OK);
        int n = nc * P->d, ndof = 6 * nb;
        double *H = calloc((size_t)ndof * n, 8), *MH = calloc((size_t)ndof * n, 8);
        double *v = calloc((size_t)ndof, 8), *ev = malloc((size_t)n * sizeof *ev), wmax = 0;
        dense_H((cb_kind)kind, b, nb, &l, H, MH, v);
        for (int i = 0; i < n; i++) {
            double qi = 0;
            for (int k = 0; k < ndof; k++)
                qi += H[k + (size_t)i * ndof] * v[k];
            assert_true(fabs(qi - P->q[i]) < 1e-12 * (1 + fabs(qi)));
            for (int j = 0; j < n; j++) {
                double w = 0;
                for (int k = 0; k < ndof; k++)
                    w += H[k + (size_t)i * ndof] * MH[k + (size_t)j * ndof];
                assert_true(fabs(w - D->W[i + (size_t)j * n]) < 1e-12 * (1 + fabs(w)));
                assert_true(fabs(D->W[i + (size_t)j * n] - D->W[j + (size_t)i * n]) < 1e-13);
                wmax = fmax(wmax, fabs(w));
            }
        }
        assert_int_equal(LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'U', n, D->W, n, ev), 0);
        assert_true(ev[0] > -1e-12 * wmax);
        assert_true(P->bsr.nnzb < nc * nc); /* the box/ellipsoid contacts are not coupled */
        free(ev);
        free(H);
        free(MH);
        free(v);
        cb_problem_free(P);
        cb_problem_free(D);
    }
    cb_contact_list_free(&l);
}

/* Frames are continuous between steps: a new normal close to the old one keeps t1 close; along
 * a rolling/colliding run every persistent contact's t1 turns by no more than its normal. */
static void test_frame_continuity(void **state)
{
    (void)state;
    cb_contact prev = {.i = 0, .j = 1, .n = {0, 0, 1}, .t1 = {0.6, 0.8, 0}, .t2 = {-0.8, 0.6, 0}};
    cb_contact cur = prev;
    double a = 0.05;
    cur.n[0] = sin(a), cur.n[2] = cos(a);
    cur.t1[0] = 0, cur.t1[1] = 1, cur.t1[2] = 0; /* default rule picked another tangent */
    int match;
    cb_contact_frames_continue(&cur, 1, &prev, 1, &match);
    assert_int_equal(match, 0);
    double dot = cur.t1[0] * 0.6 + cur.t1[1] * 0.8;
    assert_true(dot > cos(a) - 1e-12);
    assert_true(fabs(cur.t1[0] * cur.n[0] + cur.t1[2] * cur.n[2]) < 1e-15);
    /* the three-spheres stack collapsing: contacts between moving spheres */
    cb_scenario s;
    build("three-spheres", (const char *const[]){"m_top=20", "h=1e-3", NULL}, &s);
    cb_body *b = malloc((size_t)s.nbodies * sizeof *b);
    memcpy(b, s.bodies, (size_t)s.nbodies * sizeof *b);
    cb_system sys = {b, s.nbodies, s.kind, {0, 0, -9.81}, s.contact, 0};
    cb_mj_settings ms;
    cb_mj_settings_default(&ms);
    ms.solve.time_limit = 0; /* none: results must not depend on machine speed */
    ms.h = 1e-3;
    cb_mj_work *w;
    assert_int_equal(cb_mj_create(&sys, &ms, &w, NULL), CB_OK);
    cb_contact old[16];
    int nold = 0, checked = 0;
    for (int k = 0; k < 200; k++) {
        cb_step_record rec = {.step = k + 1};
        assert_int_equal(cb_mj_step(&sys, &ms, w, &rec, NULL), CB_OK);
        const cb_contact *c = cb_mj_contacts(w);
        for (int x = 0; x < cb_mj_ncontacts(w); x++)
            for (int y = 0; y < nold; y++)
                if (old[y].i == c[x].i && old[y].j == c[x].j) {
                    double dn = 0, dt = 0;
                    for (int q = 0; q < 3; q++) {
                        dn += c[x].n[q] * old[y].n[q];
                        dt += c[x].t1[q] * old[y].t1[q];
                    }
                    assert_true(dt >= dn - 1e-9);
                    checked++;
                }
        nold = cb_mj_ncontacts(w) < 16 ? cb_mj_ncontacts(w) : 16;
        memcpy(old, c, (size_t)nold * sizeof *old);
    }
    assert_true(checked > 400);
    cb_mj_free(w);
    free(b);
    cb_scenario_free(&s);
}

/* ------------------------------------------------------------------ closed forms */

/* The closed form itself (derivation in models/analytic.c): hand values of configurations
 * a, b, c and the μ_r = 0 limit U∞ = (U₀ + k R Ω₀)/(1 + k). */
static void test_closed_form(void **state)
{
    (void)state;
    static const struct {
        double W0, mu, t, x;
    } ref[3] = {{5.0, 0.2, 2.5 / (5.0 / 7 * 0.04 * 9.81 / 0.5), 6.25 / (2 * 0.5605714285714286)},
                {2.5, 0.2, 3.82262997, 4.14118247},
                {5.0, 0.05, 5.09683996, 6.37104995}};
    for (int c = 0; c < 3; c++) {
        cb_sphere_plane_params p;
        cb_sphere_plane_solution s;
        cb_sphere_plane_params_default(&p);
        p.W0 = ref[c].W0;
        p.mu = ref[c].mu;
        assert_int_equal(cb_sphere_plane_solve(&p, 100, &s, NULL), CB_OK);
        assert_true(s.stops);
        assert_true(cbt_reldiff(s.t_stop, ref[c].t, 1e-300) < 1e-8);
        assert_true(cbt_reldiff(s.x_stop, ref[c].x, 1e-300) < 1e-8);
    }
    cb_sphere_plane_params p;
    cb_sphere_plane_solution s;
    cb_sphere_plane_params_default(&p);
    p.W0 = 2.5;
    p.mu_r = 0;
    assert_int_equal(cb_sphere_plane_solve(&p, 100, &s, NULL), CB_OK);
    double U;
    cb_sphere_plane_eval(&s, 50, NULL, &U, NULL);
    assert_false(s.stops);
    assert_true(fabs(U - 3.0 / 1.4) < 1e-12);
}

/* sphere-plane a, b, c at h = 1e-4, θ = ½ (Acary & Bourrier §6.1): x_stop and t_stop within
 * 0.5 % of the closed form of models/analytic.c (derivation there: piecewise uniformly
 * accelerated phases slide+roll / Ω held / rolling, switching when s = U − RΩ or Ω reaches 0),
 * for nsgs and every registered solver that converges on it. siconos-admm converges too but
 * needs ~400 iterations a step (≈ 40 min a configuration), so it is left out; CONEBENCH_QUICK
 * keeps nsgs only. */
static void test_sphere_plane_solvers(void **state)
{
    (void)state;
    static const char *solvers[] = {"nsgs", "psor", "pfp", "eg", "siconos-nsgs",
                                    "siconos-nsgs-light"};
    int nsolvers = cbt_quick() ? 1 : cb_solver_built_with_siconos() ? 6 : 4; /* siconos-* last */
    if (!cbt_quick() && !cb_solver_built_with_siconos())
        print_message("siconos-nsgs, siconos-nsgs-light skipped: built without Siconos (make "
                      "SICONOS=0)\n");
    for (int c = 0; c < 3; c++) {
        char cfg[16];
        snprintf(cfg, sizeof cfg, "config=%c", 'a' + c);
        cb_scenario s;
        build("sphere-plane", (const char *const[]){cfg, NULL}, &s);
        cb_sphere_plane_params p = {0.5, s.bodies[1].v[0], s.bodies[1].w[1],
                                    s.contact.friction.mu, s.contact.friction.mu_r, 9.81, 0.4};
        cb_sphere_plane_solution cf;
        assert_int_equal(cb_sphere_plane_solve(&p, s.t_end, &cf, NULL), CB_OK);
        for (int k = 0; k < nsolvers; k++) {
            cb_run_result res;
            run(&s, solvers[k], &res);
            double dx = cbt_reldiff(res.summary.x_stop, cf.x_stop, 1e-300);
            double dt = cbt_reldiff(res.summary.t_stop, cf.t_stop, 1e-300);
            print_message("sphere-plane %c %-18s x_stop %.6f (closed form %.6f, %.1e)  t_stop "
                          "%.4f (%.6f, %.1e)  unsolved %ld\n",
                          'a' + c, solvers[k], res.summary.x_stop, cf.x_stop, dx,
                          res.summary.t_stop, cf.t_stop, dt, res.unsolved);
            assert_true(res.summary.stopped);
            assert_int_equal(res.unsolved, 0);
            assert_true(dx < 5e-3 && dt < 5e-3);
        }
        cb_scenario_free(&s);
    }
}

/* Keeps the last state of body 1 (a step hook). */
static int grab_body1(void *ctx, const cb_system *sys, const cb_mj_work *w,
                      const cb_step_record *rec)
{
    (void)w;
    (void)rec;
    memcpy(ctx, &sys->bodies[1], sizeof(cb_body));
    return 0;
}

/* Without rolling resistance the sphere never stops (Acary §6.1): over a 6 s horizon (longer
 * than every t_stop with μ_r = 0.04) it keeps rolling without slip at the closed-form
 * U∞ = RΩ∞ = (U₀ + k R Ω₀)/(1 + k). */
static void test_no_rolling_resistance(void **state)
{
    (void)state;
    for (int c = 0; c < 3; c++) {
        char cfg[16];
        snprintf(cfg, sizeof cfg, "config=%c", 'a' + c);
        cb_scenario s;
        build("sphere-plane", (const char *const[]){cfg, "mu_r=0", "t_end=6", NULL}, &s);
        cb_run_settings rs;
        cb_run_settings_default(&rs);
        rs.mj.solve.time_limit = 0; /* none: results must not depend on machine speed */
        cb_run_result res;
        cb_body last;
        assert_int_equal(cb_nonsmooth_run(&s, &rs, grab_body1, &last, &res, NULL), CB_OK);
        assert_false(res.summary.stopped);
        assert_true(fabs(res.t - 6.0) < 1e-9);
        cb_sphere_plane_params p = {0.5, s.bodies[1].v[0], s.bodies[1].w[1],
                                    s.contact.friction.mu, 0.0, 9.81, 0.4};
        cb_sphere_plane_solution cf;
        double U;
        assert_int_equal(cb_sphere_plane_solve(&p, 100, &cf, NULL), CB_OK);
        assert_false(cf.stops);
        cb_sphere_plane_eval(&cf, 6.0, NULL, &U, NULL);
        assert_true(fabs(U - (2.5 + 0.4 * 0.5 * p.W0) / 1.4) < 1e-12);
        assert_true(fabs(last.v[0] - U) < 1e-3 * U);
        assert_true(fabs(last.v[0] - 0.5 * last.w[1]) < 1e-6 * U); /* no slip */
        cb_scenario_free(&s);
    }
}

/* disk-rolling (rolling2d, k = ½) against the same closed form; sphere-spin (rollspin3d) stops
 * at t = I Ω₀/(μ_s m g). */
static void test_disk_and_spin(void **state)
{
    (void)state;
    cb_scenario s;
    build("disk-rolling", NULL, &s);
    cb_run_result res;
    run(&s, "nsgs", &res);
    const cb_body *d = &s.bodies[1];
    cb_sphere_plane_params p = {0.2, d->v[0], d->w[1], s.contact.friction.mu,
                                s.contact.friction.mu_r, 9.81, d->inertia[1] / (d->mass * 0.04)};
    cb_sphere_plane_solution cf;
    assert_int_equal(cb_sphere_plane_solve(&p, 100, &cf, NULL), CB_OK);
    assert_true(fabs(p.k - 0.5) < 1e-12);
    assert_true(cbt_reldiff(res.summary.x_stop, cf.x_stop, 1e-300) < 5e-3);
    assert_true(cbt_reldiff(res.summary.t_stop, cf.t_stop, 1e-300) < 5e-3);
    cb_scenario_free(&s);
    build("sphere-spin", NULL, &s);
    run(&s, "nsgs", &res);
    const cb_body *b = &s.bodies[1];
    double t = b->inertia[2] * b->w[2] / (s.contact.friction.mu_s * b->mass * 9.81);
    assert_true(cbt_reldiff(res.summary.t_stop, t, 1e-300) < 5e-3);
    assert_true(fabs(res.summary.x_stop) < 1e-9); /* spins in place */
    cb_scenario_free(&s);
}

/* sphere-incline regimes against the analytic boundaries of Fang App. D with μ_s = μ_k = μ:
 * S iff tan α ≤ 2η_r μ, PS iff η_r ≥ ½, RwS iff tan α > 3.5μ − 5η_r μ, else PR. */
static void test_incline_regimes(void **state)
{
    (void)state;
    static const struct {
        const char *alpha, *eta;
        cb_regime expect;
    } cases[] = {{"alpha=5", "eta_r=0.3", CB_REGIME_S},    /* tan 5° = .087 ≤ .12 */
                 {"alpha=8", "eta_r=0.3", CB_REGIME_PR},   /* .14 ∈ (.12, .4] */
                 {"alpha=25", "eta_r=0.3", CB_REGIME_RWS}, /* .47 > .4 */
                 {"alpha=20", "eta_r=0.55", CB_REGIME_PS}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        cb_scenario s;
        build("sphere-incline", (const char *const[]){cases[k].alpha, cases[k].eta, NULL}, &s);
        cb_run_result res;
        run(&s, "nsgs", &res);
        assert_int_equal(res.summary.regime, cases[k].expect);
        cb_scenario_free(&s);
    }
}

/* ------------------------------------------------------------------ energy */

typedef struct {
    double max_rel_increase;
    long dissipating, steps;
} energy_ctx;

static int energy_hook(void *ctx, const cb_system *sys, const cb_mj_work *w,
                       const cb_step_record *rec)
{
    (void)sys;
    (void)w;
    energy_ctx *e = ctx;
    double de = rec->energy_after - rec->energy_before;
    double scale = fabs(rec->energy_before) + 1e-300;
    e->max_rel_increase = fmax(e->max_rel_increase, de / scale);
    e->dissipating += de < -1e-12 * scale;
    e->steps++;
    return 0;
}

/* With e = 0 and θ = 1 a Moreau–Jean step never increases the energy (kinetic + gravity):
 * ΔE = pᵀ y⁺ − ½‖v⁺ − v⁻‖²_M ≤ 0 (timestepper.h). Checked step by step, up to the solver
 * tolerance, on sphere-plane (b: slides then rolls), three-spheres (collapsing) and a small
 * pile (12 spheres poured). */
static void test_energy(void **state)
{
    (void)state;
    static const char *const sp[] = {"config=b", "theta=1", "t_end=1", NULL};
    static const char *const ts[] = {"m_top=20", "theta=1", "h=1e-3", "t_end=0.5", NULL};
    static const char *const pl[] = {"n=12", "t_end=1.2", "tol=1e-9", NULL};
    const char *names[3] = {"sphere-plane", "three-spheres", "sphere-pile"};
    const char *const *params[3] = {sp, ts, pl};
    for (int k = 0; k < 3; k++) {
        cb_scenario s;
        build(names[k], params[k], &s);
        assert_true(s.theta == 1.0 && s.contact.e_n == 0.0);
        cb_run_settings rs;
        cb_run_settings_default(&rs);
        rs.mj.solve.time_limit = 0; /* none: results must not depend on machine speed */
        cb_run_result res;
        energy_ctx e = {-INFINITY, 0, 0};
        assert_int_equal(cb_nonsmooth_run(&s, &rs, energy_hook, &e, &res, NULL), CB_OK);
        print_message("%s: %ld steps, %ld dissipating, max relative energy increase %.2e\n",
                      names[k], e.steps, e.dissipating, e.max_rel_increase);
        assert_true(e.max_rel_increase < 1e-9);
        assert_true(e.dissipating > 10);
        if (k == 2) {
            assert_true(res.summary.height_over_phi >= 0.99);
            assert_true(res.summary.base_count >= 1);
        }
        cb_scenario_free(&s);
    }
}

/* Contacts of the init=heap pile, counted from its geometry: layer sides s₀, s₀ − 2, …
 * (s₀ the smallest with Σ side² ≥ n), the top layer filled in rows of its side. Every sphere of
 * the bottom layer touches the plane, every other one the sphere below it, and neighbours in a
 * row (x) or in consecutive rows (y) of a layer touch. */
static long heap_contacts(long n)
{
    long s0 = 1, total;
    for (;; s0++) {
        total = 0;
        for (long side = s0; side >= 1; side -= 2)
            total += side * side;
        if (total >= n)
            break;
    }
    long c = 0, left = n;
    for (long side = s0; left > 0; side -= 2) {
        long k = left < side * side ? left : side * side, rows = k / side, rest = k % side;
        c += side == s0 ? k : 0;              /* on the plane */
        c += side == s0 ? 0 : k;              /* on the sphere below */
        c += rows * (side - 1) + (rest > 0 ? rest - 1 : 0); /* along a row */
        c += (rows > 0 ? (rows - 1) * side : 0) + (rows > 0 ? rest : 0); /* between rows */
        left -= k;
    }
    return c;
}

static int count_contacts(void *ctx, const cb_system *sys, const cb_mj_work *w,
                          const cb_step_record *rec)
{
    (void)sys, (void)w;
    *(int *)ctx = rec->nc;
    return 1;
}

/* sphere-pile init=heap: the first step's CCP has exactly the contacts of the pyramid's geometry
 * (touching lattice neighbours all active), with BSR and factored W alike. */
static void test_pile_heap(void **state)
{
    (void)state;
    static const long sizes[] = {1, 40, 250, 1000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        char nb[32];
        snprintf(nb, sizeof nb, "n=%ld", sizes[k]);
        const char *params[] = {"init=heap", nb, NULL};
        cb_scenario s;
        build("sphere-pile", params, &s);
        for (int st = 0; st < 2; st++) {
            cb_run_settings rs;
            cb_run_settings_default(&rs);
            rs.mj.solve.time_limit = 0; /* none: results must not depend on machine speed */
            rs.max_steps = 1;
            rs.mj.storage = st ? CB_STORAGE_FACTORED : CB_STORAGE_BSR;
            cb_run_result res;
            int nc = -1;
            assert_int_equal(cb_nonsmooth_run(&s, &rs, count_contacts, &nc, &res, NULL), CB_OK);
            print_message("heap n = %ld (%s): %d contacts, geometry says %ld\n", sizes[k],
                          st ? "factored" : "bsr", nc, heap_contacts(sizes[k]));
            assert_int_equal(nc, heap_contacts(sizes[k]));
        }
        cb_scenario_free(&s);
    }
}

/* ------------------------------------------------------------------ registry and CLI */

static void test_registry(void **state)
{
    (void)state;
    assert_true(cb_scenario_count() >= 6);
    for (int i = 0; i < cb_scenario_count(); i++) {
        const cb_scenario_def *d = cb_scenario_at(i);
        cb_scenario s;
        const char *const small[] = {"n=5", NULL};
        build(d->name, strcmp(d->name, "sphere-pile") == 0 ? small : NULL, &s);
        assert_non_null(s.params);
        assert_int_equal(cb_scenario_check(&s, NULL), CB_OK);
        cb_scenario_free(&s);
    }
    assert_null(cb_scenario_find("nope"));
    const cb_scenario_def *d = cb_scenario_find("sphere-plane");
    cb_kv bad[2] = {{"colour", "red"}, {"mu", "-1"}};
    cb_scenario s;
    cb_error err;
    assert_int_equal(cb_scenario_build(d, bad, 1, &s, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param colour: not a parameter of scenario sphere-plane");
    assert_int_equal(cb_scenario_build(d, bad + 1, 1, &s, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param mu: -1 is outside [0, 1000]");
    cb_kv cfg = {"config", "z"};
    assert_int_equal(cb_scenario_build(d, &cfg, 1, &s, &err), CB_ERR_INPUT);
    assert_string_equal(err.text, "param config: 'z' is not a, b or c");
    cb_kv n = {"n", "many"}; /* integer parameters say "param" too */
    assert_int_equal(cb_scenario_build(cb_scenario_find("sphere-pile"), &n, 1, &s, &err),
                     CB_ERR_INPUT);
    assert_string_equal(err.text, "param n: 'many' is not an integer");
}

/* Records each dumped step (the dumper's on_step). */
typedef struct {
    long steps[4];
    int n, empty;
} dump_log;

static void log_step(void *ctx, long step, double t, const char *path)
{
    dump_log *l = ctx;
    (void)t;
    if (!path)
        l->empty++;
    else if (l->n < 4)
        l->steps[l->n++] = step;
}

/* cb_scenario_dump_steps writes the CCP of the chosen steps (read back: same size and kind as the
 * time-stepper built) and a metadata file naming the scenario, the step and the parameters. */
static void test_dump_steps(void **state)
{
    (void)state;
    char out[512], path[600];
    snprintf(out, sizeof out, "%s/gen", cbt_tmpdir());
    cb_scenario s;
    const cb_kv params[] = {{"m_top", "20"}};
    assert_int_equal(cb_scenario_build(cb_scenario_find("three-spheres"), params, 1, &s, NULL),
                     CB_OK);
    static const long steps[] = {10, 30};
    dump_log log = {{0}, 0, 0};
    cb_dump_settings ds;
    cb_dump_settings_default(&ds);
    ds.outdir = out;
    ds.steps = steps;
    ds.nsteps = 2;
    ds.on_step = log_step;
    ds.ctx = &log;
    cb_dump_result res;
    cb_error err = {{0}};
    if (cb_scenario_dump_steps(&s, &ds, &res, &err) != CB_OK)
        fail_msg("%s", err.text);
    assert_int_equal(res.written, 2);
    assert_int_equal(log.n, 2);
    assert_int_equal(log.steps[0], 10);
    assert_int_equal(log.steps[1], 30);
    static const long beyond[] = {1000000};
    ds.steps = beyond;
    ds.nsteps = 1;
    assert_int_equal(cb_scenario_dump_steps(&s, &ds, &res, &err), CB_ERR_INPUT);
    assert_non_null(strstr(err.text, "steps: step 1000000 is beyond the horizon of three-spheres"));
    cb_scenario_free(&s);
    snprintf(path, sizeof path, "%s/three-spheres-step30.dat", out);
    cb_problem *p = NULL;
    assert_int_equal(cb_read_problem(path, NULL, &p, NULL), CB_OK);
    assert_int_equal(p->kind, CB_KIND_ROLLING3D);
    assert_int_equal(p->nc, 4);
    cb_problem_free(p);
    snprintf(path, sizeof path, "%s/three-spheres-step10.meta", out);
    char *meta = cbt_slurp(path);
    assert_non_null(strstr(meta, "scenario=three-spheres\n"));
    assert_non_null(strstr(meta, "step=10\n"));
    assert_non_null(strstr(meta, "m_top=20"));
    free(meta);
}

/* The commands as a user runs them ($CONEBENCH_BIN): `generate SCENARIO --steps` prints the
 * paths it writes, `simulate --csv` writes one row per step, bad input exits 2. */
static void test_cli(void **state)
{
    (void)state;
    const char *dir = cbt_tmpdir();
    char out[512], csv[512], list[512];
    snprintf(out, sizeof out, "%s/gen", dir);
    snprintf(csv, sizeof csv, "%s/run.csv", dir);
    snprintf(list, sizeof list, "%s/list.txt", dir);
    const char *gen[] = {"generate", "three-spheres", "--param", "m_top=20", "--steps", "30,10",
                         "-o", out, NULL};
    assert_int_equal(cbt_cli(gen, list, NULL), 0);
    char *text = cbt_slurp(list);
    assert_non_null(strstr(text, "three-spheres-step10.dat\n"));
    assert_non_null(strstr(text, "three-spheres-step30.dat\n"));
    free(text);
    const char *sim[] = {"simulate", "sphere-plane", "--param", "t_end=0.01", "--csv", csv,
                         "--json", NULL};
    assert_int_equal(cbt_cli(sim, NULL, NULL), 0);
    text = cbt_slurp(csv);
    int lines = 0;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    assert_int_equal(lines, 1 + 1 + 100); /* header, t = 0, 100 steps */
    assert_non_null(strstr(text, "c0_1_mR2"));
    free(text);
    const char *bad[][7] = {{"simulate", "no-such-scenario", NULL},
                            {"simulate", "sphere-plane", "--param", "mu=abc", NULL},
                            {"generate", "sphere-plane", "--steps", "0", "-o", out, NULL},
                            {"simulate", "sphere-plane", "--solver", "nope", NULL}};
    for (int k = 0; k < 4; k++)
        assert_int_equal(cbt_cli(bad[k], NULL, NULL), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inertia),
        cmocka_unit_test(test_quaternion),
        cmocka_unit_test(test_detection_pairs),
        cmocka_unit_test(test_detection_grid),
        cmocka_unit_test(test_kinematics),
        cmocka_unit_test(test_assembly),
        cmocka_unit_test(test_frame_continuity),
        cmocka_unit_test(test_closed_form),
        cmocka_unit_test(test_sphere_plane_solvers),
        cmocka_unit_test(test_no_rolling_resistance),
        cmocka_unit_test(test_disk_and_spin),
        cmocka_unit_test(test_incline_regimes),
        cmocka_unit_test(test_energy),
        cmocka_unit_test(test_pile_heap),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_dump_steps),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
