/* conebench — the one JSON writer of the command-line interface. */
#include "json.h"

#include <math.h>

/* s as a JSON string literal: quoted; quote, backslash and control characters escaped. */
static void string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* The separator before an element of the innermost container, then "key": when key is given. */
static void element(cb_json *j, const char *key)
{
    if (j->depth > 0 && j->n[j->depth - 1])
        fputc(',', j->f);
    if (j->depth > 0)
        j->n[j->depth - 1] = 1;
    if (key) {
        string(j->f, key);
        fputc(':', j->f);
    }
}

/* Open a container written as open … close. No command nests deeper than CB_JSON_MAX_DEPTH;
 * a deeper container would be written but not tracked (its elements not comma-separated). */
static void container(cb_json *j, const char *key, char open, char close)
{
    element(j, key);
    fputc(open, j->f);
    if (j->depth < CB_JSON_MAX_DEPTH) {
        j->close[j->depth] = close;
        j->n[j->depth] = 0;
        j->depth++;
    }
}

void cb_json_begin(cb_json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    container(j, NULL, '{', '}');
}

void cb_json_end(cb_json *j)
{
    while (j->depth > 0)
        cb_json_close(j);
    fputc('\n', j->f);
}

void cb_json_object(cb_json *j, const char *key)
{
    container(j, key, '{', '}');
}

void cb_json_array(cb_json *j, const char *key)
{
    container(j, key, '[', ']');
}

void cb_json_close(cb_json *j)
{
    if (j->depth > 0)
        fputc(j->close[--j->depth], j->f);
}

void cb_json_num_digits(cb_json *j, const char *key, double x, int digits)
{
    element(j, key);
    if (isfinite(x))
        fprintf(j->f, "%.*g", digits, x);
    else
        fputs("null", j->f);
}

void cb_json_num(cb_json *j, const char *key, double x)
{
    cb_json_num_digits(j, key, x, 17);
}

void cb_json_int(cb_json *j, const char *key, long long v)
{
    element(j, key);
    fprintf(j->f, "%lld", v);
}

void cb_json_str(cb_json *j, const char *key, const char *s)
{
    element(j, key);
    string(j->f, s);
}

void cb_json_bool(cb_json *j, const char *key, int v)
{
    element(j, key);
    fputs(v ? "true" : "false", j->f);
}

void cb_json_null(cb_json *j, const char *key)
{
    element(j, key);
    fputs("null", j->f);
}

void cb_json_scenario_begin(cb_json *j, FILE *f, const cb_scenario *s, const char *model)
{
    cb_json_begin(j, f);
    cb_json_str(j, "scenario", s->name);
    cb_json_str(j, "model", model);
    cb_json_str(j, "params", s->params);
}

void cb_json_scenario_summary(cb_json *j, const cb_scenario *s, const cb_scenario_summary *m)
{
    if (s->outputs & CB_OUT_STOP) {
        cb_json_bool(j, "stopped", m->stopped);
        cb_json_num(j, "x_stop", m->x_stop);
        cb_json_num(j, "t_stop", m->t_stop);
        cb_json_num(j, "d_stop", m->d_stop);
        cb_json_num(j, "heading_deg", m->heading_deg);
    }
    if (s->outputs & CB_OUT_REGIME) {
        cb_json_str(j, "regime", cb_regime_name(m->regime));
        cb_json_num(j, "v_slope", m->v_slope);
        cb_json_num(j, "w_roll", m->w_roll);
    }
    if (s->outputs & CB_OUT_PILE) {
        cb_json_num(j, "height_over_phi", m->height_over_phi);
        cb_json_num(j, "mean_radius_over_phi", m->mean_radius_over_phi);
        cb_json_int(j, "base_count", m->base_count);
    }
    if (s->outputs & CB_OUT_STACK) {
        cb_json_bool(j, "collapsed", m->collapsed);
        cb_json_num(j, "drop", m->drop);
    }
}

void cb_json_gap(cb_json *j, const cb_gap *g)
{
    cb_json_num(j, "cone_violation", g->cone_violation);
    cb_json_num(j, "rolling_violation", g->rolling_violation);
    cb_json_num(j, "spin_violation", g->spin_violation);
    cb_json_num(j, "angle_max", g->angle_max);
    cb_json_num(j, "angle_mean", g->angle_mean);
    if (g->sliding >= 0) {
        cb_json_int(j, "sliding", g->sliding);
        cb_json_int(j, "positive_work", g->positive_work);
    } else {
        cb_json_null(j, "sliding");
        cb_json_null(j, "positive_work");
    }
}
