/* conebench — gate internals shared by gate_run.c and gate_build.c. Not installed. */
#ifndef CONEBENCH_GATE_INTERNAL_H
#define CONEBENCH_GATE_INTERNAL_H

#include "conebench/common.h"

/* cb_child_fn: stdin from /dev/null, stdout and stderr into fd, then execvp(argv[0], argv)
 * (arg is a NULL-terminated char *argv[]); make's job-server variables are dropped so that a
 * `make` started under `make` builds on its own. Returns 127 when exec fails. */
int cb_gate_exec(void *arg, int fd);

/* Run argv (execvp), wait up to deadline_s (≤ 0: no limit); *out (may be NULL) gets the output
 * (owned, free()), *status the exit status (−1 when killed or crashed). */
int cb_gate_command(char *const argv[], double deadline_s, char **out, int *status,
                    cb_error *err);

#endif
