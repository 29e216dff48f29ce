/* conebench — rigid bodies for the reference models: shapes, mass and inertia,
 * quaternion orientation.
 *
 * A body is described in its own frame (principal axes at the centre of mass) and placed in the
 * world by its position x and unit quaternion q = (w, x, y, z) (body → world). Velocities are
 * world-frame: v (centre of mass) and ω (angular). Shapes:
 *   sphere     radius r                         I = (2/5) m r²
 *   plane      half-space below the body's local xy-plane; outward normal = local +z; it is
 *              always fixed (static); local +x is the reference tangent t1 of its contacts;
 *              half[0], half[1] > 0 bound it to the rectangle |x| ≤ half[0], |y| ≤ half[1]
 *              (bodies beyond the edge fall off); 0 = unbounded
 *   box        half extents (a, b, c)            I = m/3 (b²+c², a²+c², a²+b²)
 *   disk       cylinder of radius r, thickness L along its local y axis (the disk of 2D
 *              scenarios rolls about y)          I = m (3r²+L²)/12, m r²/2, m (3r²+L²)/12
 *   ellipsoid  semi-axes (a, b, c)               I = m/5 (b²+c², a²+c², a²+b²)
 */
#ifndef CONEBENCH_BODY_H
#define CONEBENCH_BODY_H

#include "conebench/common.h"

/* Standard gravity (m/s²): Acary & Bourrier §6.2 state 9.81 m·s⁻²; Antali & Stepan give no
 * number, the Filippov tools take the same. */
#define CB_GRAVITY 9.81
/* Fang & Negrut's gravity (m/s²): their stated numbers use 9.8 (§4.2: E_f = m g μ_k = 9.8 N for
 * the 5 kg disk with μ_k = 0.2). */
#define CB_GRAVITY_FANG 9.8

typedef enum {
    CB_SHAPE_SPHERE = 0,
    CB_SHAPE_PLANE = 1,
    CB_SHAPE_BOX = 2,
    CB_SHAPE_DISK = 3,
    CB_SHAPE_ELLIPSOID = 4
} cb_shape_kind;

#define CB_SHAPE_COUNT 5

typedef struct {
    cb_shape_kind kind;
    double radius;  /* sphere, disk */
    double length;  /* disk: thickness along its local y axis */
    double half[3]; /* box: half extents; ellipsoid: semi-axes; plane: optional bounds */
} cb_shape;

typedef struct {
    cb_shape shape;
    int fixed;          /* 1: static body (infinite mass); planes are always fixed */
    double mass;        /* kg (dynamic bodies) */
    double inertia[3];  /* principal moments of inertia in the body frame, kg·m² */
    double x[3];        /* centre of mass (world) */
    double q[4];        /* unit quaternion (w, x, y, z), body → world */
    double v[3];        /* velocity of the centre of mass (world) */
    double w[3];        /* angular velocity (world) */
    double t_birth;     /* the body exists from this time on (0: from the start) */
} cb_body;

const char *cb_shape_name(cb_shape_kind kind); /* "sphere", ...; "invalid" otherwise */

/* Dimensions positive and finite; names the field. */
int cb_shape_check(const cb_shape *s, cb_error *err);
/* Volume (m³); +inf for a plane. */
double cb_shape_volume(const cb_shape *s);
/* Principal moments of inertia per unit mass, J (m²): I = m J. Zero for a plane. */
void cb_shape_unit_inertia(const cb_shape *s, double J[3]);
/* Radius of the smallest sphere about the centre enclosing the shape (+inf for a plane). */
double cb_shape_bounding_radius(const cb_shape *s);

/* A body of shape s at rest at the origin with identity orientation; mass = density·volume
 * (planes: fixed, mass 0). Validates s and density (> 0 for dynamic shapes). */
int cb_body_init(cb_body *b, const cb_shape *s, double density, cb_error *err);
/* The same with a given mass (> 0) instead of a density. */
int cb_body_init_mass(cb_body *b, const cb_shape *s, double mass, cb_error *err);
/* Validate a body: shape, mass/inertia > 0 for dynamic bodies, unit quaternion, finiteness. */
int cb_body_check(const cb_body *b, cb_error *err);

/* Prefix the message in err with "body k: " (after cb_body_check failed); returns code. */
int cb_body_error(cb_error *err, int code, int k);

/* World inverse inertia R diag(1/I) Rᵀ (3×3 row-major); zero for a fixed body. */
void cb_body_inv_inertia_world(const cb_body *b, double Iinv[9]);
/* World inertia R diag(I) Rᵀ (3×3 row-major); zero for a fixed body. */
void cb_body_inertia_world(const cb_body *b, double Iw[9]);
/* Kinetic energy ½ m ‖v‖² + ½ ωᵀ I_w ω (0 for fixed bodies). */
double cb_body_kinetic_energy(const cb_body *b);
/* Mechanical energy in uniform gravity g: kinetic − m g·x. */
double cb_body_energy(const cb_body *b, const double g[3]);

/* Quaternions (w, x, y, z). */
void cb_quat_identity(double q[4]);
/* q = rotation of `angle` (rad) about the unit vector `axis`. */
void cb_quat_from_axis_angle(const double axis[3], double angle, double q[4]);
/* out = a ⊗ b (Hamilton product; out may alias a or b). */
void cb_quat_mul(const double a[4], const double b[4], double out[4]);
/* q ← q/‖q‖ (identity if q = 0). */
void cb_quat_normalize(double q[4]);
/* out = R(q) v (out may alias v). */
void cb_quat_rotate(const double q[4], const double v[3], double out[3]);
/* out = R(q)ᵀ v (out may alias v). */
void cb_quat_rotate_inv(const double q[4], const double v[3], double out[3]);
/* R(q) as 3×3 row-major. */
void cb_quat_to_matrix(const double q[4], double R[9]);
/* Exact rotation by a constant world angular velocity w over time h:
 * q⁺ = exp(h w / 2) ⊗ q, normalised (out may alias q). */
void cb_quat_integrate(const double q[4], const double w[3], double h, double out[4]);

#endif
