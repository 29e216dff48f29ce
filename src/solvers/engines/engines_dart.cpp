/* conebench — the DART 6 back ends (Debian's libdart-dev 6.12) of the engine adapters
 * (engines_adapter.c): dart::constraint::BoxedLcpSolver::solve(n, A, x, b, nub = 0, lo, hi,
 * findex, earlyTermination), which solves A x = b + w (BoxedLcpSolver.hpp) with A row-major and
 * its rows padded to dPAD(n) (a multiple of 4) entries. Both solvers overwrite A and b: each call
 * gets fresh copies. What each does with its bounds and iterations (read in DART 6's
 * dart/constraint/DantzigBoxedLcpSolver.cpp, PgsBoxedLcpSolver.cpp and dart/external/odelcpsolver):
 *   DantzigBoxedLcpSolver: ODE's dSolveLCP, the same Dantzig pivoting as Bullet's copy: every
 *     x starts at 0; the findex rows are ordered last and, when the first is reached, all their
 *     bounds are set once to ±|hi · x_normal| from the normals solved so far (without friction),
 *     never updated. Called with earlyTermination = false (it "pushes hard" instead of returning
 *     at the first sign that no solution exists); DART's own constraint solver can fall back to
 *     PGS when it fails: not done here, a failure is reported (status stalled).
 *   PgsBoxedLcpSolver (Option defaults: 30 sweeps, δx threshold 1e-6, relative δx tolerance 1e-3,
 *     division ε 1e-9, no reordering): a first sweep in row order from the start x, skipping (x = 0)
 *     rows whose diagonal is below ε; x_i = (b_i − Σ_{j≠i} A_ij x_j)/A_ii clamped to
 *     [lo_i, hi_i], or to ±hi_i x_findex for a findex row (its current normal, not clamped at 0);
 *     it returns true at once when no x moved by more than the δx threshold. Otherwise it
 *     normalises the rows by their diagonal and sweeps up to mMaxIteration − 1 more times,
 *     stopping (true) when every |Δx_i / x_i| (over |x_i| > ε) is below the relative tolerance;
 *     false when the sweeps run out.
 * Never lets a C++ exception cross into C. */
#include "engines_internal.h"

#include <vector>

#include "dart/constraint/DantzigBoxedLcpSolver.hpp"
#include "dart/constraint/PgsBoxedLcpSolver.hpp"

/* DART's row stride: n rounded up to a multiple of 4 (ODE's dPAD, external/odelcpsolver). */
static int padded(int n)
{
    return n > 1 ? ((n - 1) | 3) + 1 : n;
}

/* Run the DART solver of backend on box from x (overwritten). */
static void run(cb_eng_backend backend, const cb_eng_box *box, int iterations, double *x,
                cb_eng_result *out)
{
    const int n = box->n, skip = padded(n);
    std::vector<double> A((size_t)n * skip, 0.0), b(box->b, box->b + n), lo(box->lo, box->lo + n),
        hi(box->hi, box->hi + n);
    std::vector<int> findex(box->findex, box->findex + n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            A[(size_t)i * skip + j] = box->A[(size_t)i * n + j];
    if (backend == CB_ENG_DART_DANTZIG) {
        dart::constraint::DantzigBoxedLcpSolver s;
        out->ok = s.solve(n, A.data(), x, b.data(), 0, lo.data(), hi.data(), findex.data(), false);
    } else {
        dart::constraint::PgsBoxedLcpSolver s;
        dart::constraint::PgsBoxedLcpSolver::Option opt;
        opt.mMaxIteration = iterations;
        s.setOption(opt);
        out->ok = s.solve(n, A.data(), x, b.data(), 0, lo.data(), hi.data(), findex.data(), false);
        out->iterations = out->ok ? 0 : iterations; /* DART does not say how many it ran */
    }
}

extern "C" void cb_eng_dart_solve(cb_eng_backend backend, const cb_eng_box *box, int iterations,
                                  double *x, cb_eng_result *out)
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
