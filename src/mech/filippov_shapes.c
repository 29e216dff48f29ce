/* conebench — bodies for the Filippov analysis: the wheel of Antali & Stepan §6 (eq. 62–70),
 * and a homogeneous sphere, thin disk on its rim, or ellipsoid resting on the plane. Each is
 * turned into a generic cb_fil_body (mass, inertia, r_PC, radius-of-curvature tensor, loads);
 * no closed form of the wheel is used by the analysis itself. */
#include "filippov.h"

#include <math.h>
#include <string.h>

#include "body.h"
#include "vec3.h"

/* ------------------------------------------------------------------ the wheel (AS §6) */

void cb_fil_wheel_default(cb_fil_wheel *w)
{
    memset(w, 0, sizeof *w);
    w->m = 1;
    w->rho = 0.5;
    w->g = CB_GRAVITY;
    w->mu = 0.3;
    w->law = CB_FIL_COULOMB;
    w->mu_static = 0.3;
    w->gamma = 10;
}

static int positive(double x, const char *name, cb_error *err)
{
    return isfinite(x) && x > 0 ? CB_OK
                                : cb_fail(err, CB_ERR_INPUT, "%s: must be finite and > 0, got %g",
                                          name, x);
}

static int need_finite(double x, const char *name, cb_error *err)
{
    return isfinite(x) ? CB_OK : cb_fail(err, CB_ERR_INPUT, "%s: must be finite", name);
}

int cb_fil_wheel_check(const cb_fil_wheel *w, cb_error *err)
{
    int rc = positive(w->m, "m", err);
    if (rc == CB_OK)
        rc = positive(w->rho, "rho", err);
    if (rc == CB_OK)
        rc = positive(w->g, "g", err);
    const double *v[4] = {&w->Md, &w->Ms, &w->w2, &w->w3};
    const char *nm[4] = {"Md", "Ms", "w2", "w3"};
    for (int k = 0; rc == CB_OK && k < 4; k++)
        rc = need_finite(*v[k], nm[k], err);
    cb_fil_friction f = {w->law, w->mu, w->mu_static, w->gamma};
    return rc == CB_OK ? cb_fil_friction_check(&f, err) : rc;
}

/* Thin disk (J = mρ²/4, mρ²/2, mρ²/4 about t1, t2 = axis, n) on its rim: r_PC = ρ n, edge
 * radii of curvature diag(ρ, 0), gravity −m g n, torque M_d t2 + M_s n, ω = ω2 t2 + ω3 n, the
 * balancing moment keeping t2 horizontal and the frame fixed to the axis (AS Fig. 11). */
int cb_fil_wheel_body(const cb_fil_wheel *w, cb_fil_body *b, cb_error *err)
{
    int rc = cb_fil_wheel_check(w, err);
    if (rc != CB_OK)
        return rc;
    memset(b, 0, sizeof *b);
    double I = w->m * w->rho * w->rho;
    b->mass = w->m;
    b->inertia[0][0] = I / 4;
    b->inertia[1][1] = I / 2;
    b->inertia[2][2] = I / 4;
    b->r_pc[2] = w->rho;
    b->curv_radius[0][0] = w->rho;
    b->omega[1] = w->w2;
    b->omega[2] = w->w3;
    b->force[2] = -w->m * w->g;
    b->torque[1] = w->Md;
    b->torque[2] = w->Ms;
    b->friction = (cb_fil_friction){w->law, w->mu, w->mu_static, w->gamma};
    b->frame_spins = 1;
    b->level_axis = 1;
    b->axis[1] = 1;
    b->normal_force = NAN;
    return CB_OK;
}

/* μ of the limit field (μ0 for Stribeck, Prop. 10). */
static double wheel_mu(const cb_fil_wheel *w)
{
    return w->law == CB_FIL_STRIBECK ? w->mu_static : w->mu;
}

/* AS eq. 68 with eq. 62's C1: A1 = −3gμ, B2 = −gμ, A2 = B1 = 0, C1 = −2M_d/(mρ), C2 = −ρω2ω3. */
void cb_fil_wheel_coef(const cb_fil_wheel *w, cb_fil_coef *c)
{
    double mu = wheel_mu(w);
    c->A1 = -3 * w->g * mu;
    c->A2 = 0;
    c->B1 = 0;
    c->B2 = -w->g * mu;
    c->C1 = -2 * w->Md / (w->m * w->rho);
    c->C2 = -w->rho * w->w2 * w->w3;
}

/* x = M_d/(μ m g ρ), y = ρ ω2 ω3/(g μ) */
void cb_fil_wheel_xy(const cb_fil_wheel *w, double *x, double *y)
{
    double mu = wheel_mu(w);
    *x = w->Md / (mu * w->m * w->g * w->rho);
    *y = w->rho * w->w2 * w->w3 / (w->g * mu);
}

/* eq. 48 → eq. 69: C1²/A1² + C2²/B2² − 1 = (2x/3)² + y² − 1 (printed: (x/3)² + y² − 1). */
double cb_fil_wheel_eq69(double x, double y, int printed)
{
    double cx = printed ? x / 3 : 2 * x / 3;
    return cx * cx + y * y - 1;
}

/* eq. 46 → eq. 70: (|C1|^⅔ + |C2|^⅔)/|B2 − A1|^⅔ − 1 = (|2x|^⅔ + |y|^⅔)/2^⅔ − 1
 * (printed: |x| instead of |2x|). */
double cb_fil_wheel_eq70(double x, double y, int printed)
{
    double cx = printed ? x : 2 * x;
    return (cbrt(cx * cx) + cbrt(y * y)) / cbrt(4.0) - 1;
}

cb_fil_case cb_fil_wheel_case_analytic(double x, double y, double rel_margin)
{
    double rep = cb_fil_wheel_eq69(x, y, 0), fold = cb_fil_wheel_eq70(x, y, 0);
    if (!(fabs(rep) > rel_margin && fabs(fold) > rel_margin))
        return CB_FIL_DEGENERATE;
    if (rep > 0)
        return fold > 0 ? CB_FIL_CASE_III : CB_FIL_CASE_IV;
    return fold > 0 ? CB_FIL_CASE_I : CB_FIL_CASE_II;
}

/* Axis values (2x/3 = 1, 2x = 1·2 ⇒ x = 1.5, 1) and the crossing of eq. 69 and eq. 70: on the
 * astroid x = cos³t, y = 2 sin³t, solve (4/9) cos⁶t + 4 sin⁶t = 1 by bisection on (0, π/2). */
void cb_fil_wheel_special_values(cb_fil_wheel_specials *s)
{
    double lo = 0, hi = CB_PI / 2;
    for (int it = 0; it < 200; it++) {
        double t = 0.5 * (lo + hi), c = cos(t), sn = sin(t);
        double f = 4.0 / 9 * pow(c, 6) + 4 * pow(sn, 6) - 1;
        if (f < 0)
            lo = t;
        else
            hi = t;
    }
    double t = 0.5 * (lo + hi);
    s->repel_axis = 1.5;
    s->fold_axis = 1.0;
    s->crossing = pow(cos(t), 3);
    s->crossing_y = 2 * pow(sin(t), 3);
}

/* ------------------------------------------------------------------ sphere, disk, ellipsoid */

const char *cb_fil_shape_name(cb_fil_shape s)
{
    switch (s) {
    case CB_FIL_SPHERE: return "sphere";
    case CB_FIL_DISK: return "disk";
    case CB_FIL_ELLIPSOID: return "ellipsoid";
    default: return "invalid";
    }
}

void cb_fil_shape_state_default(cb_fil_shape_state *s)
{
    memset(s, 0, sizeof *s);
    s->shape = CB_FIL_SPHERE;
    s->mass = 1;
    s->radius = 0.1;
    s->semi[0] = s->semi[1] = s->semi[2] = 0.1;
    s->g = CB_GRAVITY;
    s->friction = (cb_fil_friction){CB_FIL_COULOMB, 0.3, 0.3, 10};
    s->normal_force = NAN;
}

static int shape_check(const cb_fil_shape_state *s, cb_error *err)
{
    if (s->shape != CB_FIL_SPHERE && s->shape != CB_FIL_DISK && s->shape != CB_FIL_ELLIPSOID)
        return cb_fail(err, CB_ERR_INPUT, "shape: must be sphere, disk or ellipsoid");
    int rc = positive(s->mass, "m", err);
    if (rc == CB_OK && s->shape != CB_FIL_ELLIPSOID)
        rc = positive(s->radius, "R", err);
    if (rc == CB_OK && s->shape == CB_FIL_DISK && !(isfinite(s->thickness) && s->thickness >= 0))
        rc = cb_fail(err, CB_ERR_INPUT, "L: must be finite and ≥ 0, got %g", s->thickness);
    const char *semi[3] = {"a", "b", "c"};
    for (int k = 0; rc == CB_OK && s->shape == CB_FIL_ELLIPSOID && k < 3; k++)
        rc = positive(s->semi[k], semi[k], err);
    const char *ang[3] = {"roll", "pitch", "yaw"};
    const double av[3] = {s->roll, s->pitch, s->yaw};
    for (int k = 0; rc == CB_OK && k < 3; k++)
        rc = need_finite(av[k], ang[k], err);
    if (rc == CB_OK && !(isfinite(s->g) && s->g >= 0))
        rc = cb_fail(err, CB_ERR_INPUT, "g: must be finite and ≥ 0, got %g", s->g);
    const char *vn[3][3] = {{"wx", "wy", "wz"}, {"Fx", "Fy", "Fz"}, {"Mx", "My", "Mz"}};
    const double *vv[3] = {s->omega, s->force, s->torque};
    for (int i = 0; rc == CB_OK && i < 9; i++)
        rc = need_finite(vv[i / 3][i % 3], vn[i / 3][i % 3], err);
    if (rc == CB_OK && isinf(s->normal_force))
        rc = cb_fail(err, CB_ERR_INPUT, "N: must be finite");
    return rc == CB_OK ? cb_fil_friction_check(&s->friction, err) : rc;
}

/* R = Rz(yaw) Ry(pitch) Rx(roll), row-major. */
static void orientation(const cb_fil_shape_state *s, double R[3][3])
{
    double cr = cos(s->roll), sr = sin(s->roll), cp = cos(s->pitch), sp = sin(s->pitch),
           cy = cos(s->yaw), sy = sin(s->yaw);
    double M[3][3] = {{cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr},
                      {sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr},
                      {-sp, cp * sr, cp * cr}};
    memcpy(R, M, sizeof M);
}

/* J = m R diag(j) Rᵀ with j the unit principal inertia of the shape (body.h). */
static void world_inertia(const cb_fil_shape_state *s, const double R[3][3], double J[3][3])
{
    cb_shape sh = {CB_SHAPE_SPHERE, s->radius, 0, {0, 0, 0}};
    if (s->shape == CB_FIL_DISK) {
        sh.kind = CB_SHAPE_DISK;
        sh.length = s->thickness;
    } else if (s->shape == CB_FIL_ELLIPSOID) {
        sh.kind = CB_SHAPE_ELLIPSOID;
        memcpy(sh.half, s->semi, sizeof sh.half);
    }
    double j[3];
    cb_shape_unit_inertia(&sh, j);
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++) {
            J[a][c] = 0;
            for (int k = 0; k < 3; k++)
                J[a][c] += s->mass * R[a][k] * j[k] * R[c][k];
        }
}

/* Thin disk on its rim: axis e = R ŷ, u = (n − (n·e) e)/σ, σ = |e × n|; r_PC = R_d u; the rim
 * point moves along t_r = e × u at (R_d/σ)(t_r·(ω × n)), so ρ = (R_d/σ) t_r t_rᵀ. */
static int disk_contact(const cb_fil_shape_state *s, const double R[3][3], cb_fil_body *b,
                        cb_error *err)
{
    double e[3] = {R[0][1], R[1][1], R[2][1]}, n[3] = {0, 0, 1}, u[3], tr[3];
    double sigma = sqrt(fmax(0, 1 - e[2] * e[2]));
    if (!(sigma > 1e-9))
        return cb_fail(err, CB_ERR_INPUT, "roll: the disk lies on its face (axis vertical): no "
                                          "single contact point");
    v3_axpy(n, -e[2], e, u);
    v3_scale(u, 1 / sigma, u);
    v3_cross(e, u, tr);
    v3_scale(u, s->radius, b->r_pc);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            b->curv_radius[i][j] = s->radius / sigma * tr[i] * tr[j];
    memcpy(b->axis, e, sizeof b->axis);
    b->level_axis = s->balance;
    return CB_OK;
}

/* Ellipsoid xᵀQx = 1, Q = diag(a⁻², b⁻², c⁻²): P where the outward normal is −n,
 * p = Q⁻¹ν/√(νᵀQ⁻¹ν) with ν = Rᵀ(−n); r_PC = −R p; second fundamental form
 * K_ij = t_iᵀ R Q Rᵀ t_j / |Q p| on (t1, t2); ρ = K⁻¹. */
static void ellipsoid_contact(const cb_fil_shape_state *s, const double R[3][3], cb_fil_body *b)
{
    double q[3], nu[3], p[3], Qp[3];
    for (int k = 0; k < 3; k++) {
        q[k] = 1 / (s->semi[k] * s->semi[k]);
        nu[k] = -R[2][k];
    }
    double norm = sqrt(nu[0] * nu[0] / q[0] + nu[1] * nu[1] / q[1] + nu[2] * nu[2] / q[2]);
    for (int k = 0; k < 3; k++) {
        p[k] = nu[k] / q[k] / norm;
        Qp[k] = q[k] * p[k];
    }
    double qn = v3_norm(Qp), K[2][2];
    for (int i = 0; i < 3; i++)
        b->r_pc[i] = -(R[i][0] * p[0] + R[i][1] * p[1] + R[i][2] * p[2]);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            K[i][j] = 0;
            for (int k = 0; k < 3; k++)
                K[i][j] += R[i][k] * q[k] * R[j][k] / qn;
        }
    double det = K[0][0] * K[1][1] - K[0][1] * K[1][0];
    b->curv_radius[0][0] = K[1][1] / det;
    b->curv_radius[1][1] = K[0][0] / det;
    b->curv_radius[0][1] = b->curv_radius[1][0] = -0.5 * (K[0][1] + K[1][0]) / det;
}

int cb_fil_shape_body(const cb_fil_shape_state *s, cb_fil_body *b, cb_error *err)
{
    int rc = shape_check(s, err);
    if (rc != CB_OK)
        return rc;
    memset(b, 0, sizeof *b);
    double R[3][3];
    orientation(s, R);
    b->mass = s->mass;
    world_inertia(s, R, b->inertia);
    if (s->shape == CB_FIL_SPHERE) {
        b->r_pc[2] = s->radius;
        b->curv_radius[0][0] = b->curv_radius[1][1] = s->radius;
    } else if (s->shape == CB_FIL_DISK) {
        rc = disk_contact(s, R, b, err);
    } else {
        ellipsoid_contact(s, R, b);
    }
    memcpy(b->omega, s->omega, sizeof b->omega);
    memcpy(b->torque, s->torque, sizeof b->torque);
    memcpy(b->force, s->force, sizeof b->force);
    b->force[2] -= s->mass * s->g;
    b->friction = s->friction;
    b->frame_spins = s->frame_spins;
    b->normal_force = s->normal_force;
    return rc == CB_OK ? cb_fil_body_check(b, err) : rc;
}
