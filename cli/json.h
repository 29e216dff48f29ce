/* conebench — the one JSON writer of the command-line interface (cli/json.c): objects and
 * arrays nested up to CB_JSON_MAX_DEPTH, keys and strings escaped, numbers as %.17g (null when
 * not finite), integers, booleans. Not installed.
 *
 * Use: cb_json j; cb_json_begin(&j, stdout); cb_json_str(&j, "name", s); cb_json_object(&j,
 * "work"); cb_json_int(&j, "n", 3); cb_json_close(&j); cb_json_end(&j);  → {"name":"…",
 * "work":{"n":3}} and a newline. Inside an array, key is NULL. No whitespace is written. */
#ifndef CONEBENCH_CLI_JSON_H
#define CONEBENCH_CLI_JSON_H

#include <stdio.h>

#include "scenario.h"
#include "judge_gap.h"

#define CB_JSON_MAX_DEPTH 8

typedef struct {
    FILE *f;
    int depth;                          /* open containers */
    char close[CB_JSON_MAX_DEPTH];      /* '}' or ']' of each open container */
    unsigned char n[CB_JSON_MAX_DEPTH]; /* 1 once the container has an element */
} cb_json;

/* "{" on f: the top-level object. */
void cb_json_begin(cb_json *j, FILE *f);
/* Close every open container and write a newline. */
void cb_json_end(cb_json *j);
/* "key":{ and "key":[ (key NULL inside an array); close with cb_json_close. */
void cb_json_object(cb_json *j, const char *key);
void cb_json_array(cb_json *j, const char *key);
void cb_json_close(cb_json *j);
/* "key":x with 17 significant digits (round-trips a double), null when x is not finite. */
void cb_json_num(cb_json *j, const char *key, double x);
/* "key":x with `digits` significant digits (timings), null when x is not finite. */
void cb_json_num_digits(cb_json *j, const char *key, double x, int digits);
void cb_json_int(cb_json *j, const char *key, long long v);
/* "key":"s" escaped (quote, backslash, control characters); NULL writes "". */
void cb_json_str(cb_json *j, const char *key, const char *s);
void cb_json_bool(cb_json *j, const char *key, int v);
/* "key":null */
void cb_json_null(cb_json *j, const char *key);
/* The gap measures of a point (judge_gap.h) as keys cone_violation .. positive_work: null when
 * not known or not applicable (man conebench, JSON OUTPUT). */
void cb_json_gap(cb_json *j, const cb_gap *g);

/* Begin the summary object of a simulation on f: "scenario", "model" and "params" (every
 * parameter, defaults included), the keys every model prints first. */
void cb_json_scenario_begin(cb_json *j, FILE *f, const cb_scenario *s, const char *model);
/* The scenario-specific fields of a run's summary, by the scenario's outputs: stop (stopped,
 * x_stop, t_stop), regime (regime, v_slope, w_roll), pile (height_over_phi,
 * mean_radius_over_phi, base_count), stack (collapsed, drop). Every model prints these. */
void cb_json_scenario_summary(cb_json *j, const cb_scenario *s, const cb_scenario_summary *m);

#endif
