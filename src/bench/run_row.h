/* conebench — a runs.csv row of a campaign run (src/bench, internal): what is known before it
 * runs, and what a judged run gives; used by the runner (runner.c) and by sequence runs
 * (sequence_run.c). */
#ifndef CONEBENCH_RUN_ROW_H
#define CONEBENCH_RUN_ROW_H

#include "campaign.h"
#include "results.h"

/* The row fields known before running: ids, names, options, machine, tol, rep, NaN errors,
 * no step; a sequence run's sequence row also gets its sequence and warm-start mode. */
void cb_runner_row_init(const cb_campaign *c, const cb_run_ref *r, cb_result *row);
/* The fields of row that a run on p gives (judged, or refused as unsupported: errors NaN); the
 * gap measures of sol's final point (judge_gap.h) when sol is given (NULL: left unknown). */
void cb_runner_row_fill(cb_result *row, const cb_problem *p, const cb_info *info,
                        const cb_solution *sol);

#endif
