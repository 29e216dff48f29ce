/* conebench — contact geometry of the compliant models: closest points, geodesic lengths and
 * surface curvatures of planes, spheres, disks, boxes and ellipsoids. */
#include "compliant_internal.h"

#include <math.h>

#include "vec3.h"

int cbc_pair_supported(const cb_body *bi, const cb_body *bj)
{
    if (bi->shape.kind == CB_SHAPE_PLANE)
        return bj->shape.kind != CB_SHAPE_PLANE;
    return bi->shape.kind == CB_SHAPE_SPHERE && bj->shape.kind == CB_SHAPE_SPHERE;
}

/* Ellipsoid support point in direction −nb (body frame): x = −A² nb/√(nbᵀ A² nb). */
static void ellipsoid_support(const double h[3], const double nb[3], double xb[3])
{
    double den = sqrt(h[0] * h[0] * nb[0] * nb[0] + h[1] * h[1] * nb[1] * nb[1] +
                      h[2] * h[2] * nb[2] * nb[2]);
    for (int k = 0; k < 3; k++)
        xb[k] = -h[k] * h[k] * nb[k] / den;
}

/* Box: centre of the face most opposed to nb (the brick rests on a face). */
static void box_support(const double h[3], const double nb[3], double xb[3])
{
    int k = 0;
    for (int a = 1; a < 3; a++)
        if (fabs(nb[a]) > fabs(nb[k]))
            k = a;
    xb[0] = xb[1] = xb[2] = 0.0;
    xb[k] = nb[k] > 0 ? -h[k] : h[k];
}

/* Disk (axis = local y): rim point −r (nb − (nb·a)a)/‖·‖ on the mid-plane. */
static void disk_support(double r, const double nb[3], double xb[3])
{
    double d[3] = {-nb[0], 0.0, -nb[2]};
    if (v3_normalize(d) == 0)
        d[0] = 1.0;
    v3_scale(d, r, xb);
}

/* Lowest point of b in direction −n (world). */
static void support(const cb_body *b, const double n[3], double s[3])
{
    double nb[3], xb[3];
    if (b->shape.kind == CB_SHAPE_SPHERE) {
        v3_axpy(b->x, -b->shape.radius, n, s);
        return;
    }
    cb_quat_rotate_inv(b->q, n, nb);
    if (b->shape.kind == CB_SHAPE_ELLIPSOID)
        ellipsoid_support(b->shape.half, nb, xb);
    else if (b->shape.kind == CB_SHAPE_BOX)
        box_support(b->shape.half, nb, xb);
    else
        disk_support(b->shape.radius, nb, xb);
    cb_quat_rotate(b->q, xb, s);
    v3_axpy(s, 1.0, b->x, s);
}

void cbc_geometry(const cb_body *bi, const cb_body *bj, cbc_geom *g)
{
    if (bi->shape.kind == CB_SHAPE_PLANE) {
        static const double ez[3] = {0, 0, 1};
        double d[3];
        cb_quat_rotate(bi->q, ez, g->n);
        support(bj, g->n, g->Cj);
        v3_axpy(g->Cj, -1.0, bi->x, d);
        g->gap = v3_dot(d, g->n);
        v3_axpy(g->Cj, -g->gap, g->n, g->Ci);
        return;
    }
    double d[3];
    v3_axpy(bj->x, -1.0, bi->x, d);
    double dist = v3_normalize(d);
    if (dist == 0)
        d[2] = 1.0;
    v3_copy(d, g->n);
    g->gap = dist - bi->shape.radius - bj->shape.radius;
    v3_axpy(bi->x, bi->shape.radius, d, g->Ci);
    v3_axpy(bj->x, -bj->shape.radius, d, g->Cj);
}

/* Angle between a and b, robust for small angles: atan2(‖a × b‖, a·b). */
static double angle_between(const double a[3], const double b[3])
{
    double c[3];
    v3_cross(a, b, c);
    return atan2(v3_norm(c), v3_dot(a, b));
}

double cbc_arc(const cb_body *b, const double C0[3], const double C1[3])
{
    double d[3];
    if (b->shape.kind == CB_SHAPE_SPHERE || b->shape.kind == CB_SHAPE_DISK) {
        double a0[3], a1[3];
        v3_axpy(C0, -1.0, b->x, a0);
        v3_axpy(C1, -1.0, b->x, a1);
        return b->shape.radius * angle_between(a0, a1);
    }
    v3_axpy(C1, -1.0, C0, d);
    return v3_norm(d);
}

/* Ellipsoid normal curvature along tangent t at C: κ = Σ t_k²/a_k² / ‖x/a²‖ (body frame). */
static double ellipsoid_curvature(const cb_body *b, const double C[3], const double t[3])
{
    double xb[3], tb[3], d[3], g[3];
    const double *h = b->shape.half;
    v3_axpy(C, -1.0, b->x, d);
    cb_quat_rotate_inv(b->q, d, xb);
    cb_quat_rotate_inv(b->q, t, tb);
    double num = 0.0;
    for (int k = 0; k < 3; k++) {
        num += tb[k] * tb[k] / (h[k] * h[k]);
        g[k] = xb[k] / (h[k] * h[k]);
    }
    double gn = v3_norm(g);
    return gn > 0 ? num / gn : 0.0;
}

double cbc_curvature(const cb_body *b, const double C[3], const double t[3])
{
    double a[3];
    static const double ey[3] = {0, 1, 0};
    switch (b->shape.kind) {
    case CB_SHAPE_SPHERE: return 1.0 / b->shape.radius;
    case CB_SHAPE_DISK: { /* rim circle in the disk plane, straight along the axis */
        cb_quat_rotate(b->q, ey, a);
        double ta = v3_dot(t, a);
        return (1.0 - ta * ta) / b->shape.radius;
    }
    case CB_SHAPE_ELLIPSOID: return ellipsoid_curvature(b, C, t);
    default: return 0.0; /* plane, box face */
    }
}

double cbc_mean_curvature(const cb_body *b, const double C[3], const double nb[3])
{
    double t1[3], t2[3], e[3] = {1, 0, 0};
    if (fabs(nb[0]) > 0.9) {
        e[0] = 0.0;
        e[1] = 1.0;
    }
    v3_cross(nb, e, t1);
    v3_normalize(t1);
    v3_cross(nb, t1, t2);
    return 0.5 * (cbc_curvature(b, C, t1) + cbc_curvature(b, C, t2));
}
