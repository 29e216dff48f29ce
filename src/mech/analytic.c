/* conebench — closed-form motion of a rigid sphere on a plane with Coulomb friction and rolling
 * resistance (Acary & Bourrier §6.1).
 *
 * Derivation. Contact point velocity v + ω × (−R e_z) = (U − RΩ) e_x, so the slip is
 * s = U − RΩ (as in the paper). Forces on the sphere: normal N = m g, friction F e_x at the
 * contact point, rolling moment M e_y. Newton–Euler:
 *     m U̇ = F,      k m R² Ω̇ = −R F + M      (lever arm −R e_z: (−R e_z) × F e_x = −R F e_y)
 * with |F| ≤ μ N opposing s when s ≠ 0, |M| ≤ μ_r N opposing Ω when Ω ≠ 0 (eq. 16).
 * Per unit mass (f = F/m, τ = M/m) every phase has constant accelerations:
 *   slide+roll  (s ≠ 0, Ω ≠ 0):  f = −μ g sgn s, τ = −μ_r g sgn Ω.
 *   Ω held at 0 (s ≠ 0, Ω = 0):  f = −μ g sgn s; Ω̇ = 0 needs τ = R f, admissible iff
 *                                 μ R ≤ μ_r; otherwise τ = μ_r g sgn(R f) and Ω leaves 0.
 *   rolling     (s = 0, Ω ≠ 0):  ṡ = 0 ⇒ f = R Ω̇, (k + 1) R² Ω̇ = τ = −μ_r g sgn Ω, so
 *                                 U̇ = −μ_r g sgn Ω / ((1 + k) R) (= −(5/7) μ_r g/R), admissible
 *                                 iff μ_r/((1 + k) R) ≤ μ; otherwise the contact slips with
 *                                 f = −μ g sgn Ω (friction cannot keep up with the moment).
 *   rest        (U = Ω = 0):      F = M = 0 stays admissible: the sphere has stopped.
 * Events: s reaches 0 (ṡ = f (1 + 1/k) − τ/(k R)), Ω reaches 0; each phase is integrated
 * exactly (x = x₀ + U₀ t + f t²/2).
 * The three configurations of §6.1 (R = 0.5, g = 9.81, k = 2/5):
 *   a) U₀ = 2.5, Ω₀ = 5, μ = 0.2, μ_r = 0.04: s₀ = 0 and μ_r/((1+k)R) = 0.0571 ≤ μ: rolling
 *      throughout with U̇ = −(5/7) μ_r g/R = −0.56057 m/s²:
 *      t_stop = U₀/0.560571 = 4.459735 s, x_stop = U₀²/(2·0.560571) = 5.574669 m.
 *   b) Ω₀ = 2.5: s₀ = 1.25 > 0, slide+roll with U̇ = −μ g = −1.962, Ω̇ = g(μR − μ_r)/(kR²)
 *      = 5.886 until s = 0 at t₁ = s₀/(μ g (1 + 1/k) − μ_r g/(kR)) = 0.254842 s (U = 2,
 *      Ω = 4, x = 0.573394), then rolling: t_stop = t₁ + 2/0.560571 = 3.822630 s,
 *      x_stop = 0.573394 + 2²/(2·0.560571) = 4.141182 m.
 *   c) μ = 0.05 < 0.0571: rolling cannot hold; slide+roll with s > 0: U̇ = −μ g = −0.4905,
 *      Ω̇ = g(μR − μ_r)/(kR²) = −1.4715 until Ω = 0 at t₁ = 3.397893 s (U = 5/6,
 *      x = 5.663156), then μR = 0.025 ≤ μ_r holds Ω at 0 while sliding:
 *      t_stop = t₁ + (5/6)/0.4905 = 5.096840 s, x_stop = 5.663156 + 0.707894 = 6.371050 m.
 * Without rolling resistance (μ_r = 0) rolling is a uniform motion: the sphere never stops; it
 * reaches U = RΩ = (U₀ + k R Ω₀)/(1 + k) (angular momentum about the contact point is kept).
 */
#include "analytic.h"

#include <math.h>
#include <string.h>

#include "body.h"

void cb_sphere_plane_params_default(cb_sphere_plane_params *p)
{
    p->R = 0.5;
    p->U0 = 2.5;
    p->W0 = 5.0;
    p->mu = 0.2;
    p->mu_r = 0.04;
    p->g = CB_GRAVITY;
    p->k = 0.4;
}

static double sgn(double x) { return (x > 0) - (x < 0); }

/* Accelerations (a = U̇, α = Ω̇) and mode of the phase starting at (U, Ω) (s, Ω exact zeros). */
static cb_sphere_plane_mode phase_rates(const cb_sphere_plane_params *p, double U, double W,
                                        double *a, double *alpha)
{
    double R = p->R, k = p->k, g = p->g, s = U - R * W, f, tau;
    cb_sphere_plane_mode mode = CB_SP_SLIDE_ROLL;
    if (s == 0 && W == 0) {
        *a = *alpha = 0.0;
        return CB_SP_REST;
    }
    if (s != 0) {
        f = -p->mu * g * sgn(s);
        if (W != 0)
            tau = -p->mu_r * g * sgn(W);
        else if (fabs(R * f) <= p->mu_r * g) {
            tau = R * f;
            mode = CB_SP_SLIDE;
        } else
            tau = p->mu_r * g * sgn(R * f);
    } else {
        tau = -p->mu_r * g * sgn(W);
        f = R * tau / ((1 + k) * R * R);
        if (fabs(f) <= p->mu * g)
            mode = CB_SP_ROLL;
        else
            f = -p->mu * g * sgn(W);
    }
    *a = f;
    *alpha = (-R * f + tau) / (k * R * R);
    if (mode == CB_SP_ROLL)
        *alpha = f / R; /* exactly ṡ = 0 */
    return mode;
}

/* Time to the next event of a phase (s or Ω reaching 0), +inf when none. */
static double next_event(const cb_sphere_plane_phase *ph, double R)
{
    double s0 = ph->U0 - R * ph->W0, sd = ph->a - R * ph->alpha, t = INFINITY;
    if (ph->mode != CB_SP_ROLL && s0 != 0 && sd * s0 < 0)
        t = fmin(t, -s0 / sd);
    if (ph->mode != CB_SP_SLIDE && ph->W0 != 0 && ph->alpha * ph->W0 < 0)
        t = fmin(t, -ph->W0 / ph->alpha);
    return t;
}

static int check_params(const cb_sphere_plane_params *p, double t_max, cb_error *err)
{
    if (!(p->R > 0) || !isfinite(p->R))
        return cb_fail(err, CB_ERR_INPUT, "R: must be finite and > 0, got %g", p->R);
    if (!(p->g > 0) || !isfinite(p->g))
        return cb_fail(err, CB_ERR_INPUT, "g: must be finite and > 0, got %g", p->g);
    if (!(p->k > 0) || !isfinite(p->k))
        return cb_fail(err, CB_ERR_INPUT, "k: must be finite and > 0, got %g", p->k);
    if (!(p->mu >= 0) || !(p->mu_r >= 0) || !isfinite(p->mu + p->mu_r))
        return cb_fail(err, CB_ERR_INPUT, "mu, mu_r: must be finite and ≥ 0");
    if (!isfinite(p->U0) || !isfinite(p->W0))
        return cb_fail(err, CB_ERR_INPUT, "U0, W0: must be finite");
    if (!(t_max > 0) || !isfinite(t_max))
        return cb_fail(err, CB_ERR_INPUT, "t_max: must be finite and > 0, got %g", t_max);
    return CB_OK;
}

/* Phases until rest or t_max; the quantity that reaches zero at an event is set to exactly 0. */
int cb_sphere_plane_solve(const cb_sphere_plane_params *p, double t_max,
                          cb_sphere_plane_solution *out, cb_error *err)
{
    int rc = check_params(p, t_max, err);
    if (rc != CB_OK)
        return rc;
    memset(out, 0, sizeof *out);
    out->t_stop = out->x_stop = NAN;
    double t = 0, x = 0, U = p->U0, W = p->W0;
    if (fabs(U - p->R * W) <= 1e-15 * (fabs(U) + 1))
        U = p->R * W; /* slip-free start: s = 0 exactly */
    while (out->nphases < CB_SP_MAX_PHASES) {
        cb_sphere_plane_phase *ph = &out->phase[out->nphases++];
        ph->t0 = t;
        ph->x0 = x;
        ph->U0 = U;
        ph->W0 = W;
        ph->mode = phase_rates(p, U, W, &ph->a, &ph->alpha);
        if (ph->mode == CB_SP_REST) {
            out->stops = 1;
            out->t_stop = t;
            out->x_stop = x;
            return CB_OK;
        }
        double dt = next_event(ph, p->R);
        if (!(t + dt < t_max))
            return CB_OK;
        double s0 = U - p->R * W, sd = ph->a - p->R * ph->alpha;
        x += U * dt + 0.5 * ph->a * dt * dt;
        double s1 = s0 + sd * dt;
        W += ph->alpha * dt;
        if (ph->mode != CB_SP_SLIDE && ph->W0 != 0 && fabs(W) <= 1e-12 * fabs(ph->W0))
            W = 0.0;
        U = fabs(s1) <= 1e-12 * (fabs(s0) + fabs(U)) || ph->mode == CB_SP_ROLL
                ? p->R * W
                : U + ph->a * dt;
        t += dt;
    }
    return cb_fail(err, CB_ERR_INTERNAL, "sphere-plane: more than %d phases", CB_SP_MAX_PHASES);
}

void cb_sphere_plane_eval(const cb_sphere_plane_solution *s, double t, double *x, double *U,
                          double *W)
{
    int k = 0;
    while (k + 1 < s->nphases && s->phase[k + 1].t0 <= t)
        k++;
    const cb_sphere_plane_phase *ph = &s->phase[k];
    double dt = t - ph->t0;
    if (ph->mode == CB_SP_REST)
        dt = 0.0;
    if (x)
        *x = ph->x0 + ph->U0 * dt + 0.5 * ph->a * dt * dt;
    if (U)
        *U = ph->U0 + ph->a * dt;
    if (W)
        *W = ph->W0 + ph->alpha * dt;
}
