/* conebench — a simulation's time series as CSV (man conebench, RESULTS FILES), as `simulate
 * --csv` writes it: for the nonsmooth model one row a step (time, step, contacts, the solve's
 * status, iterations and error, the energy, each tracked body's position and velocities, each
 * tracked pair's reaction components and mode, empty when apart); for the closed form of
 * sphere-plane and disk-rolling (analytic.h) one row a step of (t, x, U, W). */
#ifndef CONEBENCH_SIM_CSV_H
#define CONEBENCH_SIM_CSV_H

#include <stdio.h>

#include "analytic.h"
#include "scenario.h"
#include "timestepper.h"

/* Where the nonsmooth rows go: f, one row every `every` steps (cb_sim_csv_step). */
typedef struct {
    FILE *f;
    const cb_scenario *scen;
    long every;
} cb_sim_csv;

/* The header and the row of the scenario's start (before step 1). */
void cb_sim_csv_start(const cb_sim_csv *c);
/* The row after a step, when rec->step is a multiple of every (a step hook's part). */
void cb_sim_csv_step(const cb_sim_csv *c, const cb_system *sys, const cb_mj_work *w,
                     const cb_step_record *rec);

/* The closed form's parameters of a sphere/disk-on-plane scenario (its subject rolls about y):
 * CB_ERR_INPUT "--model analytic: ..." for a scenario without one. */
int cb_sim_analytic_params(const cb_scenario *s, cb_sphere_plane_params *p, cb_error *err);
/* The closed form's rows, every `every` steps of h up to its stop (or t_end). */
void cb_sim_analytic_csv(FILE *f, const cb_scenario *s, const cb_sphere_plane_solution *sol,
                         long every);

#endif
