/* conebench — scenarios of Fang & Negrut added for the compliant models (problems/scenarios/
 * fang.c): brick-incline (§4.1), ellipsoid (§4.5.1, Table 6) and ellipsoid-spin (§4.5.2,
 * Table 7). Internal: the registry (registry.c) lists them; cb_fang_scenario_find looks only
 * at these three. */
#ifndef CONEBENCH_FANG_SCENARIOS_H
#define CONEBENCH_FANG_SCENARIOS_H

#include "conebench/scenarios.h"

extern const cb_scenario_def cb_scenario_brick_incline;
extern const cb_scenario_def cb_scenario_ellipsoid;
extern const cb_scenario_def cb_scenario_ellipsoid_spin;

const cb_scenario_def *cb_fang_scenario_find(const char *name);

#endif
