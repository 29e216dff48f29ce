/* conebench — cone kernels the solvers share (not installed: not part of the API). */
#ifndef CONEBENCH_CONE_KERNELS_H
#define CONEBENCH_CONE_KERNELS_H

#include <stddef.h>

#include "conebench/cone.h"

/* out_i = P_K(x_i), i = 0..n−1, for n vectors stored one after the other (x_i = x + i d,
 * d = cb_kind_dim(kind)) with coefficients f[i]: the same results, to the bit, as n calls of
 * cb_project, without the per-call dispatch (with AVX, coulomb3d and rolling3d four contacts at
 * a time, one per lane). out may equal x (no other overlap). cases, if not
 * NULL, receives the n outcomes. Returns the number of CB_PROJ_NONFINITE outcomes, or −1 (nothing
 * written) for an invalid kind or, when n > 0, a NULL f, x or out. */
long cb_project_batch(cb_kind kind, size_t n, const cb_friction *f, const double *x, double *out,
                      cb_proj_case *cases);

/* out = P_K(x) as cb_project, always on the SSE2 path (cb_project runs the same operations
 * VEX-encoded when the CPU has AVX): for the test that the bits do not depend on the CPU. */
cb_proj_case cb_project_sse2(cb_kind kind, const cb_friction *f, const double *x, double *out);

/* P = P_K(x) (as cb_project) and J (d×d, column-major) an element of its generalised
 * (B-)Jacobian: I inside, 0 in the polar cone, and on the boundary the derivative for the
 * saturated set the projection chose (src/core/cone_jacobian.c derives it). P may alias x. */
cb_proj_case cb_project_jacobian(cb_kind kind, const cb_friction *f, const double *x, double *P,
                                 double *J);

#endif
