/* conebench — contact-mode classification (Acary & Bourrier eq. 21).
 *
 * A mode is a bit set: CB_MODE_TAKEOFF alone (p = 0, u_N ≥ 0), CB_MODE_STICK alone (p in K,
 * velocity zero), or a combination of CB_MODE_SLIDE (‖r_T‖ = μ r_N, u_T ≠ 0), CB_MODE_ROLL
 * (‖m_R‖ = μ_r r_N, ω_R ≠ 0) and CB_MODE_SPIN (|m_S| = μ_s r_N, ω_S ≠ 0).
 * Tolerance τ is relative: a force is zero when ≤ τ·scale_p, a velocity when ≤ τ·scale_y.
 */
#ifndef CONEBENCH_MODES_H
#define CONEBENCH_MODES_H

#include <stddef.h>
#include "conebench/cone.h"

enum {
    CB_MODE_TAKEOFF = 1,
    CB_MODE_STICK = 2,
    CB_MODE_SLIDE = 4,
    CB_MODE_ROLL = 8,
    CB_MODE_SPIN = 16,
    CB_MODE_UNDEFINED = 32 /* not a complementarity point within τ */
};

typedef struct {
    double tau;     /* relative tolerance, default 1e-6 */
    double scale_p; /* force scale (e.g. ‖p‖∞ over the problem); ≤ 0 means 1 */
    double scale_y; /* velocity scale; ≤ 0 means 1 */
} cb_mode_settings;

void cb_mode_settings_default(cb_mode_settings *s);

/* Mode bits of one contact from its reaction p and (non-modified) velocity y. */
int cb_contact_mode(cb_kind kind, const cb_friction *f, const double *p, const double *y,
                    const cb_mode_settings *s);

/* "takeoff", "stick", "slide", "roll", "slide+roll", "slide+roll+spin", ... into buf. */
const char *cb_mode_name(int mode, char *buf, size_t len);

#endif
