/* conebench — deterministic arithmetic: fixed-order reductions, elementary functions and dense
 * factorisations whose bits do not depend on the CPU, the BLAS kernel or the libm variant. */
#include "detmath.h"

#include <float.h>
#include <math.h>

#define LN2_HI 6.93147180369123816490e-01  /* ln 2 to 32 bits: k·LN2_HI is exact for |k| < 2^21 */
#define LN2_LO 1.90821492927058770002e-10  /* ln 2 − LN2_HI */
#define INV_LN2 1.44269504088896338700e+00 /* 1 / ln 2 */
#define EXP_MAX 709.782712893383973096     /* largest x with finite e^x */
#define EXP_MIN (-745.13321910194110842)   /* smallest x with e^x ≥ the least subnormal */
#define TWO_OVER_PI 6.36619772367581382433e-01
#define PIO2_1 1.57079632673412561417e+00 /* π/2 to 33 bits: k·PIO2_1 exact for |k| < 2^20 */
#define PIO2_2 6.07710050630396597660e-11 /* the next 33 bits */
#define PIO2_3 2.02226624871116645580e-21 /* the rest */
#define NRM2_TINY (DBL_MIN / DBL_EPSILON) /* below this the plain sum of squares underflowed */

/* 1/n! for n = 2..13 (Taylor coefficients of e^r on |r| ≤ ln2/2: the next term is < 4e-18). */
static const double exp_coef[] = {0.5,
                                  0.16666666666666666,
                                  0.041666666666666664,
                                  0.008333333333333333,
                                  0.001388888888888889,
                                  0.0001984126984126984,
                                  2.48015873015873e-05,
                                  2.7557319223985893e-06,
                                  2.755731922398589e-07,
                                  2.505210838544172e-08,
                                  2.08767569878681e-09,
                                  1.6059043836821613e-10};
/* (−1)^k/(2k+1)! for k = 1..9 (sin r on |r| ≤ π/4: the next term is < 1e-19). */
static const double sin_coef[] = {-0.16666666666666666,   0.008333333333333333,
                                  -0.0001984126984126984, 2.7557319223985893e-06,
                                  -2.505210838544172e-08, 1.6059043836821613e-10,
                                  -7.647163731819816e-13, 2.8114572543455206e-15,
                                  -8.22063524662433e-18};
/* (−1)^k/(2k)! for k = 2..10 (cos r on |r| ≤ π/4). */
static const double cos_coef[] = {0.041666666666666664,   -0.001388888888888889,
                                  2.48015873015873e-05,   -2.755731922398589e-07,
                                  2.08767569878681e-09,   -1.1470745597729725e-11,
                                  4.779477332387385e-14,  -1.5619206968586225e-16,
                                  4.110317623312165e-19};
/* 2/(2k+1) for k = 1..11: log(1+f) = 2 atanh(s) = 2s + s Σ 2 s^{2k}/(2k+1), s = f/(2+f). */
static const double log_coef[] = {0.6666666666666666,  0.4,
                                  0.2857142857142857,  0.2222222222222222,
                                  0.18181818181818182, 0.15384615384615385,
                                  0.13333333333333333, 0.11764705882352941,
                                  0.10526315789473684, 0.09523809523809523,
                                  0.08695652173913043};

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

/* Horner: Σ_k c_k z^k for k = 0..n−1. */
static double horner(const double *c, int n, double z)
{
    double p = c[n - 1];
    for (int k = n - 2; k >= 0; k--)
        p = p * z + c[k];
    return p;
}

double cb_dot(const double *x, const double *y, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

/* ‖x‖₂ = √Σ x_i²; when that over- or underflows, m √Σ (x_i/m)² with m = max |x_i|. */
double cb_nrm2(const double *x, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += x[i] * x[i];
    return cb_nrm2_from(s, x, n);
}

/* √s, s = Σ x_i² in index order; m √Σ (x_i/m)² with m = max |x_i| when s over- or underflowed. */
double cb_nrm2_from(double s, const double *x, size_t n)
{
    double m = 0.0;
    if (isnan(s) || (s >= NRM2_TINY && s <= DBL_MAX))
        return sqrt(s);
    for (size_t i = 0; i < n; i++)
        m = fabs(x[i]) > m ? fabs(x[i]) : m;
    if (m == 0.0 || isinf(m))
        return m;
    s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += (x[i] / m) * (x[i] / m);
    return m * sqrt(s);
}

/* e^x = 2^k e^r, k = rint(x/ln 2), r = x − k ln 2 (two-part ln 2), e^r by its Taylor series. */
double cb_exp(double x)
{
    if (isnan(x))
        return x;
    if (x > EXP_MAX)
        return HUGE_VAL;
    if (x < EXP_MIN)
        return 0.0;
    double k = rint(x * INV_LN2);
    double r = (x - k * LN2_HI) - k * LN2_LO;
    double p = 1.0 + r * (1.0 + r * horner(exp_coef, COUNT(exp_coef), r));
    return ldexp(p, (int)k);
}

/* log x = e ln 2 + log(1+f), x = 2^e (1+f) with 1+f ∈ [√½, √2);
 * log(1+f) = f − (f²/2 − s(f²/2 + R)), s = f/(2+f), R = Σ_k 2 s^{2k}/(2k+1). */
double cb_log(double x)
{
    if (isnan(x) || x == HUGE_VAL)
        return x;
    if (x < 0)
        return NAN;
    if (x == 0)
        return -HUGE_VAL;
    int e;
    double m = frexp(x, &e);
    if (m < M_SQRT1_2) {
        m *= 2.0;
        e--;
    }
    double f = m - 1.0, s = f / (2.0 + f), z = s * s, hfsq = 0.5 * f * f;
    double R = z * horner(log_coef, COUNT(log_coef), z);
    return e * LN2_HI + (f - (hfsq - (s * (hfsq + R) + e * LN2_LO)));
}

/* log(1+x) = log(u) · x/(u − 1), u = 1 + x rounded (exact correction of the rounding of u). */
double cb_log1p(double x)
{
    if (isnan(x))
        return x;
    if (x < -1.0)
        return NAN;
    double u = 1.0 + x;
    if (u == 1.0)
        return x;
    return cb_log(u) * (x / (u - 1.0));
}

/* x^y = e^{y log x} for x > 0. */
double cb_pow(double x, double y)
{
    if (isnan(x) || isnan(y) || x < 0)
        return NAN;
    if (y == 0 || x == 1)
        return 1.0;
    if (x == 0)
        return y > 0 ? 0.0 : HUGE_VAL;
    return cb_exp(y * cb_log(x));
}

/* sin, cos: x = k π/2 + r, |r| ≤ π/4 (three-part π/2), Taylor series of sin r and cos r, then
 * the quadrant k mod 4 picks and signs them. */
void cb_sincos(double x, double *s, double *c)
{
    if (!isfinite(x)) {
        *s = *c = NAN;
        return;
    }
    double k = rint(x * TWO_OVER_PI);
    double r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_3, z = r * r;
    double sr = r + r * z * horner(sin_coef, COUNT(sin_coef), z);
    double cr = 1.0 - 0.5 * z + z * z * horner(cos_coef, COUNT(cos_coef), z);
    int q = (int)fmod(k, 4.0);
    q = (q + 4) % 4;
    double sv[4] = {sr, cr, -sr, -cr}, cv[4] = {cr, -sr, -cr, sr};
    *s = sv[q];
    *c = cv[q];
}

double cb_sin(double x)
{
    double s, c;
    cb_sincos(x, &s, &c);
    return s;
}

double cb_cos(double x)
{
    double s, c;
    cb_sincos(x, &s, &c);
    return c;
}

/* C ← β C + α op(A) op(B), inner products in index order. */
void cb_gemm(int ta, int tb, int m, int n, int k, double alpha, const double *A, int lda,
             const double *B, int ldb, double beta, double *C, int ldc)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0.0;
            for (int l = 0; l < k; l++) {
                double a = ta ? A[l + (size_t)i * lda] : A[i + (size_t)l * lda];
                double b = tb ? B[j + (size_t)l * ldb] : B[l + (size_t)j * ldb];
                s += a * b;
            }
            double *cij = &C[i + (size_t)j * ldc];
            *cij = (beta == 0.0 ? 0.0 : beta * *cij) + alpha * s;
        }
}

/* Left-looking Cholesky: column j ← (A_j − Σ_{k<j} L_k L_jk) / L_jj, L_jj = √(A_jj − Σ L_jk²). */
int cb_potrf(int n, double *A, int lda)
{
    for (int j = 0; j < n; j++) {
        double *cj = A + (size_t)j * lda;
        for (int k = 0; k < j; k++) {
            const double *ck = A + (size_t)k * lda;
            double a = ck[j];
            for (int i = j; i < n; i++)
                cj[i] -= ck[i] * a;
        }
        if (!(cj[j] > 0.0) || !isfinite(cj[j]))
            return j + 1;
        double d = sqrt(cj[j]);
        cj[j] = d;
        for (int i = j + 1; i < n; i++)
            cj[i] /= d;
    }
    return 0;
}

/* Solve L Lᵀ X = B: forward substitution with L, then backward with Lᵀ. */
void cb_potrs(int n, int nrhs, const double *L, int lda, double *B, int ldb)
{
    for (int r = 0; r < nrhs; r++) {
        double *b = B + (size_t)r * ldb;
        for (int j = 0; j < n; j++) {
            const double *lj = L + (size_t)j * lda;
            b[j] /= lj[j];
            for (int i = j + 1; i < n; i++)
                b[i] -= lj[i] * b[j];
        }
        for (int j = n - 1; j >= 0; j--) {
            const double *lj = L + (size_t)j * lda;
            double s = b[j];
            for (int i = j + 1; i < n; i++)
                s -= lj[i] * b[i];
            b[j] = s / lj[j];
        }
    }
}

/* Swap rows i and p of the n-column matrix A. */
static void swap_rows(int ncols, double *A, int lda, int i, int p)
{
    for (int c = 0; c < ncols; c++) {
        double t = A[i + (size_t)c * lda];
        A[i + (size_t)c * lda] = A[p + (size_t)c * lda];
        A[p + (size_t)c * lda] = t;
    }
}

/* Right-looking LU with partial pivoting (first largest |a_ij| of the column). */
int cb_getrf(int n, double *A, int lda, int *ipiv)
{
    for (int j = 0; j < n; j++) {
        double *cj = A + (size_t)j * lda;
        int p = j;
        for (int i = j + 1; i < n; i++)
            p = fabs(cj[i]) > fabs(cj[p]) ? i : p;
        ipiv[j] = p;
        if (cj[p] == 0.0)
            return j + 1;
        if (p != j)
            swap_rows(n, A, lda, j, p);
        for (int i = j + 1; i < n; i++)
            cj[i] /= cj[j];
        for (int c = j + 1; c < n; c++) {
            double *cc = A + (size_t)c * lda, a = cc[j];
            for (int i = j + 1; i < n; i++)
                cc[i] -= cj[i] * a;
        }
    }
    return 0;
}

/* Solve P A X = ... : permute B, forward with unit L, backward with U. */
void cb_getrs(int n, int nrhs, const double *LU, int lda, const int *ipiv, double *B, int ldb)
{
    for (int j = 0; j < n; j++)
        if (ipiv[j] != j)
            swap_rows(nrhs, B, ldb, j, ipiv[j]);
    for (int r = 0; r < nrhs; r++) {
        double *b = B + (size_t)r * ldb;
        for (int j = 0; j < n; j++)
            for (int i = j + 1; i < n; i++)
                b[i] -= LU[i + (size_t)j * lda] * b[j];
        for (int j = n - 1; j >= 0; j--) {
            b[j] /= LU[j + (size_t)j * lda];
            for (int i = 0; i < j; i++)
                b[i] -= LU[i + (size_t)j * lda] * b[j];
        }
    }
}
