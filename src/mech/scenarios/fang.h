/* conebench — cb_fang_scenario_find: kept only for cli/cmd_compliant.c until it looks scenarios
 * up with cb_scenario_find (which lists brick-incline, ellipsoid and ellipsoid-spin too);
 * delete this header and the function (fang.c) then. */
#ifndef CONEBENCH_FANG_SCENARIOS_H
#define CONEBENCH_FANG_SCENARIOS_H

#include "conebench/scenarios.h"

/* brick-incline, ellipsoid or ellipsoid-spin by name; NULL for any other name. */
const cb_scenario_def *cb_fang_scenario_find(const char *name);

#endif
