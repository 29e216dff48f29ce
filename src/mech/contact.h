/* conebench — contact detection and contact kinematics (Acary & Bourrier §2).
 *
 * A contact α joins body i and body j. Its frame (n, t1, t2) is right-handed (t2 = n × t1); n is
 * the outward normal of body i, so the reaction p acts on j and −p on i (Acary & Bourrier
 * Fig. 1: A = i, B = j). With lever arms r_k = C − x_k from the centres of mass to the contact
 * point C, the local velocity y (layout of cone.h) is
 *   u      = v_j + ω_j × r_j − v_i − ω_i × r_i;   (u_N, u_T1, u_T2) = (n·u, t1·u, t2·u)
 *   ω_R    = tangential part of ω_j − ω_i:          (t1·(ω_j − ω_i), t2·(ω_j − ω_i))
 *   ω_S    = n·(ω_j − ω_i)
 * and rows per kind: coulomb2d (u_N, u_T1), coulomb3d (u_N, u_T), rolling2d (u_N, u_T1,
 * t2·(ω_j − ω_i)) — a 2D scenario moves in the (n, t1) plane and rolls about t2 —, rolling3d
 * (u_N, u_T, ω_R), rollspin3d (u_N, u_T, ω_R, ω_S). y = Σ_k G_{α,k} (v_k, ω_k) with d×6 blocks
 * G (= the rows of Hᵀ); the generalised impulse of p on body k is G_{α,k}ᵀ p: force
 * ±(r_N n + r_T·t) at C, torques m_R·t and m_S n.
 *
 * Detection (pairs): plane–sphere, plane–ellipsoid, plane–box (corners), plane–disk (rim, 2D),
 * sphere–sphere (uniform cell grid: O(n) for n spheres of bounded size ratio). Other pairs are
 * not detected. The plane is always body i.
 */
#ifndef CONEBENCH_CONTACT_H
#define CONEBENCH_CONTACT_H

#include "body.h"
#include "conebench/cone.h"

typedef struct {
    int i, j;          /* bodies; the reaction p is exerted by i on j */
    int feature;       /* feature inside the pair (box corner 0..7), 0 otherwise */
    double point[3];   /* contact point C (world): midpoint of the two closest surface points */
    double n[3], t1[3], t2[3];
    double gap;        /* signed distance along n (< 0: interpenetration) */
    cb_friction friction;
    double e_n;        /* Newton restitution coefficient */
} cb_contact;

typedef struct {
    double margin;     /* report pairs with gap ≤ margin (m), ≥ 0 */
    cb_friction friction; /* copied into every contact */
    double e_n;
} cb_detect_settings;

void cb_detect_settings_default(cb_detect_settings *s);

/* A growable list of contacts plus the detector's reusable work (cell grid). */
typedef struct {
    cb_contact *c;
    int n, cap;
    int *cell_head, *cell_next; /* internal */
    long long *cell_key;        /* internal */
    size_t grid_cap;            /* internal */
} cb_contact_list;

void cb_contact_list_init(cb_contact_list *l);
void cb_contact_list_free(cb_contact_list *l);

/* Detect every contact among bodies whose alive[k] ≠ 0 (alive NULL: all). The list is replaced,
 * sorted by (i, j, feature). Frames are set from the default rule (cb_contact_default_t1). */
int cb_detect(const cb_body *bodies, int nbodies, const unsigned char *alive,
              const cb_detect_settings *s, cb_contact_list *out, cb_error *err);

/* The default first tangent of a new contact: the plane's local +x projected on the tangent
 * plane for plane contacts (for a disk, axis × n so that t2 is the disk axis), else the world
 * axis least aligned with n projected. Unit, orthogonal to n. */
void cb_contact_default_t1(const cb_body *bi, const cb_body *bj, const double n[3],
                           double t1[3]);

/* Keep frames continuous: for each contact of cur found in prev (same i, j, feature; prev sorted
 * as cb_detect leaves it) transport the previous t1 onto the new tangent plane (t1 ← t1_prev −
 * (t1_prev·n) n, normalised; t2 = n × t1). match[a] receives the index in prev or −1 (may be
 * NULL). */
void cb_contact_frames_continue(cb_contact *cur, int ncur, const cb_contact *prev, int nprev,
                                int *match);

/* d×6 blocks (row-major: G[r*6 + c], columns v then ω) with y = G_i (v_i, ω_i) + G_j (v_j, ω_j).
 * Blocks of fixed bodies are still filled (callers skip them). */
void cb_contact_jacobian(cb_kind kind, const cb_contact *c, const cb_body *bi, const cb_body *bj,
                         double Gi[CB_MAX_DIM * 6], double Gj[CB_MAX_DIM * 6]);

/* y (d entries) straight from the body velocities (the formulas above), independent of
 * cb_contact_jacobian (used to test it). */
void cb_contact_velocity(cb_kind kind, const cb_contact *c, const cb_body *bi, const cb_body *bj,
                         double *y);

#endif
