/* conebench — the budget of a run: CPU seconds of the process (setup and solve, every thread,
 * plus what the run spent before cb_solve), and a wall-clock guard (solver.h: cb_time_up). */
#include "conebench/solver.h"

#include <math.h>
#include <unistd.h>

#include "solvers_internal.h"
#include "base.h"
#include "solve_limited.h"

/* Online cores: the CPU clock advances at most this fast against the wall clock. */
static double cores(void)
{
    static long n; /* computed once; a race writes the same value */
    if (n < 1) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c >= 1 ? c : 1;
    }
    return (double)n;
}

double cb_wall_guard(const cb_settings *s)
{
    double wall = s->wall_limit > 0 ? s->wall_limit : CB_WALL_GUARD_FACTOR * s->time_limit;
    return s->wall_limit < 0 || !(wall > 0) ? 0.0 : wall;
}

void cb_budget_start(cb_budget *b, const cb_settings *s)
{
    double wall = cb_wall_guard(s);
    double cpu = cb_process_cpu_now(), now = cb_now();
    b->cpu0 = cpu - (s->cpu_spent > 0 ? s->cpu_spent : 0);
    b->cpu_end = s->time_limit > 0 ? b->cpu0 + s->time_limit : INFINITY;
    b->wall_end = wall > 0 ? now + wall : INFINITY;
    b->read_wall = now;
    b->read_left = b->cpu_end - cpu;
    b->cores = cores();
    b->over = b->read_left <= 0;
}

double cb_budget_used(const cb_budget *b) { return cb_process_cpu_now() - b->cpu0; }

/* Read the CPU clock now: CPU seconds left (the budget is over at ≤ 0). */
static double read_cpu(cb_budget *b, double wall_now)
{
    double left = b->cpu_end - cb_process_cpu_now();
    b->read_wall = wall_now;
    b->read_left = left;
    if (left <= 0)
        b->over = 1;
    return left;
}

int cb_time_fits(const cb_settings *s, double need)
{
    cb_budget *b = s ? s->budget : NULL;
    if (!b)
        return 1;
    if (b->over)
        return 0;
    double now = cb_now();
    if (now >= b->wall_end)
        b->over = 1;
    else if (isfinite(b->cpu_end) && b->read_left - b->cores * (now - b->read_wall) <= need)
        return read_cpu(b, now) > need; /* the CPU clock may say otherwise: read it */
    return !b->over;
}

int cb_time_up(const cb_settings *s) { return !cb_time_fits(s, 0.0); }

void cb_step_cost_start(cb_step_cost *c, const cb_settings *s, size_t n)
{
    c->on = s && s->budget && isfinite(s->budget->cpu_end) && n >= CB_KERNEL_CHILD_MIN_N;
    c->cpu0 = c->on ? cb_process_cpu_now() : 0.0;
    c->cost = 0.0;
}

int cb_step_fits(const cb_settings *s, cb_step_cost *c)
{
    if (!c->on)
        return 1;
    double now = cb_process_cpu_now();
    c->cost = now - c->cpu0; /* the step since the last call */
    c->cpu0 = now;
    return cb_time_fits(s, c->cost);
}
