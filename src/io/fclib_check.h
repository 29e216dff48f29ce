/* conebench — what an FCLIB writer would refuse, checked before any work (not installed). */
#ifndef CONEBENCH_FCLIB_CHECK_H
#define CONEBENCH_FCLIB_CHECK_H

#include "conebench/problem.h"

/* What cb_write_fclib (with_solution = 0) or cb_write_fclib_solution (1) would refuse for prob,
 * checked without writing anything (to refuse before a long computation). */
int cb_fclib_check(const char *path, const cb_problem *prob, int with_solution, cb_error *err);
/* CB_OK when FCLIB can hold a local problem of this kind (all but rolling2d), else CB_ERR_INPUT
 * "PATH: why" (the check cb_write_fclib makes, for callers that have no problem yet). */
int cb_fclib_local_kind_check(const char *path, cb_kind kind, cb_error *err);

#endif
