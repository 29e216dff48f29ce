/* conebench — deterministic arithmetic (internal to the library).
 *
 * Everything whose bits a test or the performance gate compares exactly (generated problems,
 * condensed W, iteration counts and work counters of conebench's own solvers, the judge) is
 * computed with these functions, never with BLAS/LAPACK or libm's transcendental functions:
 *  - OpenBLAS picks its kernels at run time (OPENBLAS_CORETYPE, the CPU, the thread count) and
 *    the kernels sum in different orders, so dnrm2/ddot/dgemm/dpotrf results differ in the last
 *    bits from machine to machine;
 *  - glibc's libm picks FMA/AVX2 variants of exp, log, pow, sin, cos, atan2, log1p at run time
 *    on CPUs that have them; about 1 result in 1500 differs from the plain x86-64 variant.
 * The functions below are plain C with one fixed order of operations; compiled without
 * -ffast-math and without FMA contraction (ISO C mode) they give the same bits on every
 * x86-64 CPU. sqrt, fabs, floor, rint, ldexp, frexp, hypot and fmod are exact (or fixed) in
 * glibc and may be used freely.
 *
 * Accuracy: exp, log, sincos within a few ulps; pow(x, y) = exp(y log x) loses |y log x| ulps.
 * sincos reduces its argument with a three-part π/2 and is accurate for |x| < 1e6 (larger
 * arguments stay deterministic but lose accuracy).
 */
#ifndef CONEBENCH_DETMATH_H
#define CONEBENCH_DETMATH_H

#include <stddef.h>

/* Σ x_i y_i, summed from i = 0 upwards. */
double cb_dot(const double *x, const double *y, size_t n);
/* ‖x‖₂ (sum of squares in index order; rescaled when it over- or underflows). */
double cb_nrm2(const double *x, size_t n);
/* cb_nrm2(x, n) given s = Σ x_i² summed from i = 0 upwards (its bits): several norms in one pass. */
double cb_nrm2_from(double s, const double *x, size_t n);

double cb_exp(double x);
double cb_log(double x);           /* NaN for x < 0, −inf at 0 */
double cb_log1p(double x);         /* log(1 + x), accurate near 0 */
double cb_pow(double x, double y); /* x > 0 only (exp(y log x)); x = 0 gives 0 for y > 0 */
void cb_sincos(double x, double *s, double *c);
double cb_sin(double x);
double cb_cos(double x);

/* Dense column-major kernels with a fixed order of operations (the reference BLAS/LAPACK
 * algorithms, unblocked). */

/* C (m×n) ← β C + α op(A) op(B), op(X) = X or Xᵀ (ta, tb nonzero: transposed); the inner sum
 * runs over l = 0..k−1 in order. */
void cb_gemm(int ta, int tb, int m, int n, int k, double alpha, const double *A, int lda,
             const double *B, int ldb, double beta, double *C, int ldc);
/* Cholesky A = L Lᵀ in place (lower triangle of the n×n A). Returns 0, or j + 1 when the leading
 * minor of order j + 1 is not positive definite. */
int cb_potrf(int n, double *A, int lda);
/* B (n×nrhs) ← A⁻¹ B from cb_potrf's factor. */
void cb_potrs(int n, int nrhs, const double *L, int lda, double *B, int ldb);
/* LU with partial pivoting P A = L U in place. Returns 0, or j + 1 when pivot j is zero. */
int cb_getrf(int n, double *A, int lda, int *ipiv);
/* B (n×nrhs) ← A⁻¹ B from cb_getrf's factors. */
void cb_getrs(int n, int nrhs, const double *LU, int lda, const int *ipiv, double *B, int ldb);

#endif
