/* conebench — a problem as bytes, for the child processes of the harness (not installed). */
#ifndef CONEBENCH_PROBLEM_PACK_H
#define CONEBENCH_PROBLEM_PACK_H

#include <stdio.h>

#include "conebench/problem.h"

/* A problem as bytes (host byte order), for a child process of the same executable
 * (child.h), the global form included; name and provenance are left out. */
int cb_problem_pack(FILE *f, const cb_problem *prob, cb_error *err);
/* The problem packed at buf: every size is checked against len before anything is allocated,
 * then the problem (cb_problem_check). *used = bytes read. CB_ERR_INPUT for bytes that are not
 * a packed problem. */
int cb_problem_unpack(const char *buf, size_t len, cb_problem **out, size_t *used,
                      cb_error *err);
/* The same from a buffer the caller gives up: the pages of buf already copied are given back
 * (cb_buffer_release) as the values are copied, so the bytes and the problem are not resident
 * in full together. The caller may only free buf afterwards. */
int cb_problem_unpack_consume(char *buf, size_t len, cb_problem **out, size_t *used,
                              cb_error *err);

#endif
