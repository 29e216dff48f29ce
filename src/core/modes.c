/* conebench — contact-mode classification from (p, y) (Acary & Bourrier eq. 21). */
#include "modes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void cb_mode_settings_default(cb_mode_settings *s)
{
    s->tau = 1e-6;
    s->scale_p = 1.0;
    s->scale_y = 1.0;
}

/* Norm of block b (offset off, size sz) of a contact vector. */
static double block_norm(const double *x, int off, int sz)
{
    return sz == 1 ? fabs(x[off]) : hypot(x[off], x[off + 1]);
}

/* Mode bit of block index i: 0 slide, 1 roll, 2 spin. */
static int block_bit(int i)
{
    static const int bits[3] = {CB_MODE_SLIDE, CB_MODE_ROLL, CB_MODE_SPIN};
    return i < 3 ? bits[i] : CB_MODE_SPIN;
}

/* Take-off: r_N ≈ 0 and u_N ≥ −τ; otherwise each moving block must be saturated
 * (‖x_i‖ ≈ μ_i r_N) and opposed to its velocity; no moving block ⇒ stick. */
int cb_contact_mode(cb_kind kind, const cb_friction *f, const double *p, const double *y,
                    const cb_mode_settings *s)
{
    cb_mode_settings def;
    if (!s) {
        cb_mode_settings_default(&def);
        s = &def;
    }
    double tp = s->tau * (s->scale_p > 0 ? s->scale_p : 1.0);
    double ty = s->tau * (s->scale_y > 0 ? s->scale_y : 1.0);
    cb_disk_cone c;
    cb_disk_cone_of(kind, f, &c);
    if (p[0] <= tp)
        return y[0] >= -ty ? CB_MODE_TAKEOFF : CB_MODE_UNDEFINED;
    if (fabs(y[0]) > ty)
        return CB_MODE_UNDEFINED;
    int mode = 0, off = 1;
    for (int i = 0; i < c.nblocks; off += c.size[i], i++) {
        double xn = block_norm(p, off, c.size[i]), yn = block_norm(y, off, c.size[i]);
        if (yn <= ty)
            continue;
        double dot = 0;
        for (int k = 0; k < c.size[i]; k++)
            dot += p[off + k] * y[off + k];
        int saturated = fabs(xn - c.mu[i] * p[0]) <= tp;
        int opposed = dot <= -(1 - 1e-3) * xn * yn || xn <= tp;
        if (!saturated || !opposed)
            return CB_MODE_UNDEFINED;
        mode |= block_bit(i);
    }
    return mode ? mode : CB_MODE_STICK;
}

const char *cb_mode_name(int mode, char *buf, size_t len)
{
    static const struct {
        int bit;
        const char *name;
    } names[] = {{CB_MODE_SLIDE, "slide"}, {CB_MODE_ROLL, "roll"}, {CB_MODE_SPIN, "spin"}};
    if (len == 0)
        return buf;
    buf[0] = '\0';
    if (mode & CB_MODE_UNDEFINED)
        snprintf(buf, len, "undefined");
    else if (mode & CB_MODE_TAKEOFF)
        snprintf(buf, len, "takeoff");
    else if (mode & CB_MODE_STICK)
        snprintf(buf, len, "stick");
    for (size_t i = 0; i < 3 && !(mode & (CB_MODE_UNDEFINED | CB_MODE_TAKEOFF | CB_MODE_STICK));
         i++) {
        if (!(mode & names[i].bit))
            continue;
        size_t k = strlen(buf);
        snprintf(buf + k, len - k, "%s%s", k ? "+" : "", names[i].name);
    }
    return buf;
}
