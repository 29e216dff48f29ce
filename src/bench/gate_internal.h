/* conebench — gate internals shared by gate_run.c and gate_build.c. Not installed. */
#ifndef CONEBENCH_GATE_INTERNAL_H
#define CONEBENCH_GATE_INTERNAL_H

#include "conebench/common.h"

/* Run argv (exec through the child pool, child.h: stdin from /dev/null, stdout and stderr
 * collected; make's job-server variables are dropped so that a `make` started under `make`
 * builds on its own; exit status 127 when argv[0] cannot be started), wait up to deadline_s
 * (≤ 0: no limit); *out (may be NULL) gets the output (owned, free()), *status the exit status
 * (−1 when killed or crashed). */
int cb_gate_command(char *const argv[], double deadline_s, char **out, int *status,
                    cb_error *err);

#endif
