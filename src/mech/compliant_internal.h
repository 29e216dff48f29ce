/* conebench — internals of the compliant models (models/compliant*.c). Not installed. */
#ifndef CONEBENCH_COMPLIANT_INTERNAL_H
#define CONEBENCH_COMPLIANT_INTERNAL_H

#include "compliant.h"

/* Contact geometry of a body pair at one instant. */
typedef struct {
    double n[3];       /* unit normal, outward of body i (points into j) */
    double Ci[3];      /* contact point on the surface of i (world) */
    double Cj[3];      /* contact point on the surface of j (world) */
    double gap;        /* signed distance along n (< 0: penetration) */
} cbc_geom;

/* 1 when the pair (i, j) is handled (plane–{sphere, ellipsoid, box, disk}, sphere–sphere). */
int cbc_pair_supported(const cb_body *bi, const cb_body *bj);
/* Closest points and normal of a supported pair. */
void cbc_geometry(const cb_body *bi, const cb_body *bj, cbc_geom *g);
/* Length of the surface path on b from C0 to C1 (world points on b): R·angle on spheres and
 * disks (geodesic), the chord |C1 − C0| elsewhere (Fang §4.5). */
double cbc_arc(const cb_body *b, const double C0[3], const double C1[3]);
/* Normal curvature of b at its surface point C along the unit tangent t (world). */
double cbc_curvature(const cb_body *b, const double C[3], const double t[3]);
/* Mean of the principal curvatures of b at C (outward normal nb, world). */
double cbc_mean_curvature(const cb_body *b, const double C[3], const double nb[3]);

/* Model constants of a run, derived once from the settings and the scenario. */
typedef struct {
    const cb_compliant_settings *s;
    cb_compliant_variant variant;
    double dt, mu_s, mu_k, K_E, eta_r, eta_psi;
    double mu_r;          /* the scenario's μ_r (legacy model uses s->mu_r_legacy) */
} cbc_params;

/* Start tracking a contact that has just appeared: frame, points, zero history. */
void cbc_contact_onset(cb_compliant_contact *c, const cb_body *bi, const cb_body *bj,
                       const cbc_geom *g);
/* Advance the friction state of a tracked contact to the new configuration (normal force N
 * already in c->N): kinematics, micro-deflections, capping, loads. */
void cbc_contact_update(const cbc_params *P, cb_compliant_contact *c, const cb_body *bi,
                        const cb_body *bj, const cbc_geom *g);
/* Total force on j (world, at C_j) and torques about the centres of i and j of contact c. */
void cbc_contact_loads(const cb_compliant_contact *c, const cb_body *bi, const cb_body *bj,
                       const cbc_geom *g, double Fj[3], double Ti[3], double Tj[3]);

#endif
