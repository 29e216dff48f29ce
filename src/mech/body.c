/* conebench — rigid bodies: shapes, mass properties, quaternions. */
#include "body.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vec3.h"
#include "detmath.h"
#include "base.h"

const char *cb_shape_name(cb_shape_kind kind)
{
    static const char *names[CB_SHAPE_COUNT] = {"sphere", "plane", "box", "disk", "ellipsoid"};
    return (int)kind >= 0 && (int)kind < CB_SHAPE_COUNT ? names[kind] : "invalid";
}

static int positive(double x) { return isfinite(x) && x > 0; }

int cb_shape_check(const cb_shape *s, cb_error *err)
{
    if (!s)
        return cb_fail(err, CB_ERR_INPUT, "shape: NULL");
    switch (s->kind) {
    case CB_SHAPE_SPHERE:
        return positive(s->radius) ? CB_OK
                                   : cb_fail(err, CB_ERR_INPUT, "sphere radius: must be finite "
                                                                "and > 0, got %g", s->radius);
    case CB_SHAPE_PLANE:
        for (int k = 0; k < 2; k++)
            if (!(s->half[k] >= 0) || !isfinite(s->half[k]))
                return cb_fail(err, CB_ERR_INPUT, "plane half[%d]: must be finite and ≥ 0, got %g",
                               k, s->half[k]);
        return CB_OK;
    case CB_SHAPE_DISK:
        if (!positive(s->radius))
            return cb_fail(err, CB_ERR_INPUT, "disk radius: must be finite and > 0, got %g",
                           s->radius);
        return positive(s->length) ? CB_OK
                                   : cb_fail(err, CB_ERR_INPUT, "disk length: must be finite "
                                                                "and > 0, got %g", s->length);
    case CB_SHAPE_BOX:
    case CB_SHAPE_ELLIPSOID:
        for (int k = 0; k < 3; k++)
            if (!positive(s->half[k]))
                return cb_fail(err, CB_ERR_INPUT, "%s half[%d]: must be finite and > 0, got %g",
                               cb_shape_name(s->kind), k, s->half[k]);
        return CB_OK;
    }
    return cb_fail(err, CB_ERR_INPUT, "shape kind: invalid (%d)", (int)s->kind);
}

/* V: (4/3)πr³, πr²L, 8abc, (4/3)πabc. */
double cb_shape_volume(const cb_shape *s)
{
    const double *h = s->half;
    switch (s->kind) {
    case CB_SHAPE_SPHERE: return 4.0 / 3.0 * CB_PI * s->radius * s->radius * s->radius;
    case CB_SHAPE_DISK: return CB_PI * s->radius * s->radius * s->length;
    case CB_SHAPE_BOX: return 8.0 * h[0] * h[1] * h[2];
    case CB_SHAPE_ELLIPSOID: return 4.0 / 3.0 * CB_PI * h[0] * h[1] * h[2];
    default: return INFINITY;
    }
}

/* J = I/m for each shape (see body.h). */
void cb_shape_unit_inertia(const cb_shape *s, double J[3])
{
    const double *h = s->half;
    double r2 = s->radius * s->radius, a2 = h[0] * h[0], b2 = h[1] * h[1], c2 = h[2] * h[2];
    double c = s->kind == CB_SHAPE_BOX ? 1.0 / 3.0 : 0.2;
    switch (s->kind) {
    case CB_SHAPE_SPHERE: J[0] = J[1] = J[2] = 0.4 * r2; return;
    case CB_SHAPE_DISK:
        J[0] = J[2] = (3.0 * r2 + s->length * s->length) / 12.0;
        J[1] = 0.5 * r2;
        return;
    case CB_SHAPE_BOX:
    case CB_SHAPE_ELLIPSOID:
        J[0] = c * (b2 + c2);
        J[1] = c * (a2 + c2);
        J[2] = c * (a2 + b2);
        return;
    default: J[0] = J[1] = J[2] = 0.0;
    }
}

double cb_shape_bounding_radius(const cb_shape *s)
{
    const double *h = s->half;
    switch (s->kind) {
    case CB_SHAPE_SPHERE: return s->radius;
    case CB_SHAPE_DISK: return hypot(s->radius, 0.5 * s->length);
    case CB_SHAPE_BOX: return sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    case CB_SHAPE_ELLIPSOID: return fmax(h[0], fmax(h[1], h[2]));
    default: return INFINITY;
    }
}

static void body_zero(cb_body *b, const cb_shape *s)
{
    memset(b, 0, sizeof *b);
    b->shape = *s;
    cb_quat_identity(b->q);
}

int cb_body_init_mass(cb_body *b, const cb_shape *s, double mass, cb_error *err)
{
    int rc = cb_shape_check(s, err);
    if (rc != CB_OK)
        return rc;
    if (s->kind != CB_SHAPE_PLANE && !positive(mass))
        return cb_fail(err, CB_ERR_INPUT, "mass: must be finite and > 0, got %g", mass);
    body_zero(b, s);
    if (s->kind == CB_SHAPE_PLANE) {
        b->fixed = 1;
        return CB_OK;
    }
    double J[3];
    cb_shape_unit_inertia(s, J);
    b->mass = mass;
    for (int k = 0; k < 3; k++)
        b->inertia[k] = mass * J[k];
    return CB_OK;
}

int cb_body_init(cb_body *b, const cb_shape *s, double density, cb_error *err)
{
    int rc = cb_shape_check(s, err);
    if (rc != CB_OK)
        return rc;
    if (s->kind == CB_SHAPE_PLANE)
        return cb_body_init_mass(b, s, 0.0, err);
    if (!positive(density))
        return cb_fail(err, CB_ERR_INPUT, "density: must be finite and > 0, got %g", density);
    return cb_body_init_mass(b, s, density * cb_shape_volume(s), err);
}

int cb_body_check(const cb_body *b, cb_error *err)
{
    int rc = cb_shape_check(&b->shape, err);
    if (rc != CB_OK)
        return rc;
    if (b->shape.kind == CB_SHAPE_PLANE && !b->fixed)
        return cb_fail(err, CB_ERR_INPUT, "plane: must be fixed");
    if (!b->fixed && !(positive(b->mass) && positive(b->inertia[0]) && positive(b->inertia[1]) &&
                       positive(b->inertia[2])))
        return cb_fail(err, CB_ERR_INPUT, "mass/inertia: must be finite and > 0");
    if (!cb_all_finite(b->x, 3) || !cb_all_finite(b->v, 3) || !cb_all_finite(b->w, 3) ||
        !cb_all_finite(b->q, 4) || !isfinite(b->t_birth))
        return cb_fail(err, CB_ERR_INPUT, "state: non-finite position, velocity or orientation");
    double qn = sqrt(b->q[0] * b->q[0] + b->q[1] * b->q[1] + b->q[2] * b->q[2] +
                     b->q[3] * b->q[3]);
    if (fabs(qn - 1.0) > 1e-9)
        return cb_fail(err, CB_ERR_INPUT, "orientation: quaternion norm %.17g is not 1", qn);
    return CB_OK;
}

int cb_body_error(cb_error *err, int code, int k)
{
    if (!err)
        return code;
    char msg[CB_ERROR_LEN];
    snprintf(msg, sizeof msg, "%s", err->text);
    return cb_fail(err, code, "body %d: %s", k, msg);
}

/* out = R diag(d) Rᵀ. */
static void rotate_diag(const double q[4], const double d[3], double out[9])
{
    double R[9];
    cb_quat_to_matrix(q, R);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            out[3 * r + c] = R[3 * r] * d[0] * R[3 * c] + R[3 * r + 1] * d[1] * R[3 * c + 1] +
                             R[3 * r + 2] * d[2] * R[3 * c + 2];
}

void cb_body_inv_inertia_world(const cb_body *b, double Iinv[9])
{
    if (b->fixed) {
        memset(Iinv, 0, 9 * sizeof *Iinv);
        return;
    }
    double d[3] = {1.0 / b->inertia[0], 1.0 / b->inertia[1], 1.0 / b->inertia[2]};
    rotate_diag(b->q, d, Iinv);
}

void cb_body_inertia_world(const cb_body *b, double Iw[9])
{
    if (b->fixed) {
        memset(Iw, 0, 9 * sizeof *Iw);
        return;
    }
    rotate_diag(b->q, b->inertia, Iw);
}

/* T = ½ m vᵀv + ½ ω_bᵀ diag(I) ω_b with ω_b = Rᵀ ω. */
double cb_body_kinetic_energy(const cb_body *b)
{
    if (b->fixed)
        return 0.0;
    double wb[3];
    cb_quat_rotate_inv(b->q, b->w, wb);
    return 0.5 * b->mass * v3_dot(b->v, b->v) +
           0.5 * (b->inertia[0] * wb[0] * wb[0] + b->inertia[1] * wb[1] * wb[1] +
                  b->inertia[2] * wb[2] * wb[2]);
}

/* E = T − m g·x. */
double cb_body_energy(const cb_body *b, const double g[3])
{
    return b->fixed ? 0.0 : cb_body_kinetic_energy(b) - b->mass * v3_dot(g, b->x);
}

void cb_quat_identity(double q[4])
{
    q[0] = 1.0;
    q[1] = q[2] = q[3] = 0.0;
}

/* q = (cos(θ/2), sin(θ/2) a). */
void cb_quat_from_axis_angle(const double axis[3], double angle, double q[4])
{
    double a[3] = {axis[0], axis[1], axis[2]};
    if (v3_normalize(a) == 0) {
        cb_quat_identity(q);
        return;
    }
    double s;
    cb_sincos(0.5 * angle, &s, &q[0]);
    q[1] = s * a[0];
    q[2] = s * a[1];
    q[3] = s * a[2];
}

/* (a0 b0 − a·b, a0 b + b0 a + a × b). */
void cb_quat_mul(const double a[4], const double b[4], double out[4])
{
    double r[4];
    r[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    r[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    r[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    r[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
    memcpy(out, r, sizeof r);
}

void cb_quat_normalize(double q[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0) || !isfinite(n)) {
        cb_quat_identity(q);
        return;
    }
    for (int k = 0; k < 4; k++)
        q[k] /= n;
}

/* R v = v + 2 w (u × v) + 2 u × (u × v), u = vector part, w = scalar part. */
void cb_quat_rotate(const double q[4], const double v[3], double out[3])
{
    const double *u = q + 1;
    double t[3], s[3];
    v3_cross(u, v, t);
    v3_scale(t, 2.0, t);
    v3_cross(u, t, s);
    for (int k = 0; k < 3; k++)
        out[k] = v[k] + q[0] * t[k] + s[k];
}

void cb_quat_rotate_inv(const double q[4], const double v[3], double out[3])
{
    double c[4] = {q[0], -q[1], -q[2], -q[3]};
    cb_quat_rotate(c, v, out);
}

void cb_quat_to_matrix(const double q[4], double R[9])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    R[0] = 1 - 2 * (y * y + z * z);
    R[1] = 2 * (x * y - w * z);
    R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z);
    R[4] = 1 - 2 * (x * x + z * z);
    R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y);
    R[7] = 2 * (y * z + w * x);
    R[8] = 1 - 2 * (x * x + y * y);
}

/* q⁺ = (cos(h‖w‖/2), sin(h‖w‖/2) w/‖w‖) ⊗ q. */
void cb_quat_integrate(const double q[4], const double w[3], double h, double out[4])
{
    double dq[4];
    cb_quat_from_axis_angle(w, h * v3_norm(w), dq);
    cb_quat_mul(dq, q, out);
    cb_quat_normalize(out);
}
