/* conebench — the Bullet 3 back ends (Debian's libbullet-dev 3.24, double precision:
 * libBulletDynamics-float64) of the engine adapters (engines_adapter.c): the boxed LCP handed to
 * a btMLCPSolverInterface through solveMLCP(A, b, x, lo, hi, limitDependency, numIterations).
 * What each does with its bounds and iterations (read in bullet3's src/BulletDynamics/MLCPSolvers):
 *   btDantzigSolver: copies A, b, x, lo, hi, limitDependency and calls btSolveDantzigLCP (ODE's
 *     Dantzig pivoting for A x = b + w, nub = 0, every x starting at 0: the start is not used).
 *     The rows with limitDependency ≥ 0 are ordered last; when the first of them is reached, the
 *     bounds of all of them are set once to ±|hi · x_normal| from the normals solved so far
 *     (without friction) and never updated, so friction that changes a normal leaves its bounds
 *     stale (a normal of 0 gives lo = hi = 0). numIterations is ignored. It returns false when a
 *     pivot step fails (x of the remaining rows set to 0); its check against
 *     m_acceptableUpperLimitSolution (1000) reads the x passed in (the start), not the answer.
 *   btSolveProjectedGaussSeidel: numIterations sweeps in row order, x_i = (b_i − Σ_{j≠i} A_ij
 *     x_j)/A_ii clamped to [lo_i s, hi_i s] with s = x_{limitDependency[i]} (s = 1 when the
 *     normal is negative or the row has none); it stops early only when the sum of squared
 *     updates is below m_leastSquaresResidualThreshold, 0 by default: it always runs every sweep.
 *     Always returns true.
 *   btLemkeSolver (m_useLoHighBounds, the default): inverts A by Gauss–Jordan without pivoting
 *     (a zero pivot replaced by 1e-6), poses the 2n×2n LCP of the box [lo, hi] and runs Lemke
 *     with m_maxLoops (1000) pivots. It ignores limitDependency: the friction bounds are ±μ
 *     themselves, not ±μ r_N. An answer beyond ±m_maxValue (1e5) or NaN is replaced by zeros
 *     and false returned.
 * Never lets a C++ exception cross into C. */
#include "engines_internal.h"

#include <new>

#include "BulletDynamics/MLCPSolvers/btDantzigSolver.h"
#include "BulletDynamics/MLCPSolvers/btLemkeSolver.h"
#include "BulletDynamics/MLCPSolvers/btSolveProjectedGaussSeidel.h"

/* Run the Bullet solver of backend on box from x (overwritten). */
static void run(cb_eng_backend backend, const cb_eng_box *box, int iterations, double *x,
                cb_eng_result *out)
{
    const int n = box->n;
    btMatrixXu A(n, n);
    btVectorXu b(n), xx(n), lo(n), hi(n);
    btAlignedObjectArray<int> dep;
    dep.resize(n);
    A.setZero();
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            if (box->A[(size_t)i * n + j] != 0.0)
                A.setElem(i, j, box->A[(size_t)i * n + j]);
        b[i] = box->b[i];
        xx[i] = x[i];
        lo[i] = box->lo[i];
        hi[i] = box->hi[i];
        dep[i] = box->findex[i];
    }
    out->iterations = 0;
    if (backend == CB_ENG_BULLET_DANTZIG) {
        btDantzigSolver s;
        out->ok = s.solveMLCP(A, b, xx, lo, hi, dep, iterations);
    } else if (backend == CB_ENG_BULLET_PGS) {
        btSolveProjectedGaussSeidel s;
        out->ok = s.solveMLCP(A, b, xx, lo, hi, dep, iterations);
        out->iterations = iterations; /* threshold 0: every sweep runs */
    } else {
        btLemkeSolver s;
        s.m_maxLoops = iterations;
        out->ok = s.solveMLCP(A, b, xx, lo, hi, dep, iterations);
    }
    for (int i = 0; i < n; i++)
        x[i] = xx[i];
}

extern "C" void cb_eng_bullet_solve(cb_eng_backend backend, const cb_eng_box *box,
                                    int iterations, double *x, cb_eng_result *out)
{
    out->ok = 0;
    out->iterations = 0;
    out->threw = 0;
    try {
        run(backend, box, iterations, x, out);
    } catch (...) {
        out->threw = 1;
    }
}
