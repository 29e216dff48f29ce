/* conebench — small 3-vector helpers for the reference models (models/, internal). */
#ifndef CONEBENCH_MODELS_VEC3_H
#define CONEBENCH_MODELS_VEC3_H

#include <math.h>

/* a · b */
static inline double v3_dot(const double *a, const double *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* out = a × b (out may alias neither a nor b) */
static inline void v3_cross(const double *a, const double *b, double *out)
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* ‖a‖₂ */
static inline double v3_norm(const double *a) { return sqrt(v3_dot(a, a)); }

/* out = a + s b */
static inline void v3_axpy(const double *a, double s, const double *b, double *out)
{
    for (int k = 0; k < 3; k++)
        out[k] = a[k] + s * b[k];
}

/* out = s a */
static inline void v3_scale(const double *a, double s, double *out)
{
    for (int k = 0; k < 3; k++)
        out[k] = s * a[k];
}

static inline void v3_copy(const double *a, double *out)
{
    out[0] = a[0];
    out[1] = a[1];
    out[2] = a[2];
}

/* a ← a/‖a‖; returns ‖a‖ (a untouched when 0) */
static inline double v3_normalize(double *a)
{
    double n = v3_norm(a);
    if (n > 0)
        v3_scale(a, 1.0 / n, a);
    return n;
}

/* out = A x, A 3×3 row-major */
static inline void m3_mul(const double *A, const double *x, double *out)
{
    for (int r = 0; r < 3; r++)
        out[r] = A[3 * r] * x[0] + A[3 * r + 1] * x[1] + A[3 * r + 2] * x[2];
}

#endif
