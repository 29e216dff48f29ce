/* conebench — sphere-pile (Acary & Bourrier §6.2): n spheres of diameter φ poured at a constant
 * rate from a constant height over a horizontal plane, with horizontal jitter in [−φ/2, φ/2].
 *
 * Pouring is data: sphere k is born at t_k = ⌊k / batch⌋ · interval at height H, on a square
 * lattice of spacing 2φ centred on the axis when batch > 1 (so newborn spheres never overlap:
 * lattice spacing 2φ minus jitter φ ≥ φ, and with interval ≥ √(2·1.2φ/g) the previous sphere has
 * fallen ≥ 1.2φ). batch = 0 chooses the smallest batch that ends the pour by 7/8 of t_end;
 * height = 0 chooses 10φ (batch 1) or 10φ plus 1.2 times the column the poured volume would
 * fill above the lattice footprint (packing 0.6), for large n. The plane is an unbounded
 * half-space by default: with a bounded 60φ square (width=60) every sphere rolls off it when
 * μ_r ≤ 1e-5 (a final height of 0), whereas the paper's Fig. 5 shows height = φ in that regime,
 * so its plane must act as unbounded for contact; width > 0 gives the square (spheres beyond
 * its edge fall off and count neither in the height nor in the base).
 *
 * init=heap skips the pour: the n spheres start at rest, touching, on a simple cubic lattice
 * (spacing φ less 1e-9 φ) shaped as a stepped square pyramid on the plane — layer L is a square of side
 * s₀ − 2L centred on the axis, the top layer filled in row order. Each sphere touches up to six
 * neighbours (one below, one above, four in its layer: about 3n contacts), the coordination of
 * a random loose pile, so the CCP of step 1 gives large pile-like problems at once (scaling
 * measurements, scenario-large) without simulating a pour of 10⁵ spheres.
 */
#include <math.h>
#include <string.h>

#include "rng.h"
#include "scenarios_internal.h"

static const cb_kv_spec pile_params[] = {
    {"n", "250", "number of spheres"},
    {"phi", "0.02", "sphere diameter (m)"},
    {"rho", "1300", "density (kg/m^3)"},
    {"mu", "0.3", "Coulomb friction coefficient (Acary: 0.1, 0.3, 1.0)"},
    {"mu_r", "0.01", "rolling resistance (m) (Acary: 1e-5 .. 1)"},
    {"e", "0", "Newton restitution coefficient"},
    {"interval", "0.07", "time between two pours (s)"},
    {"batch", "0", "spheres per pour (0: automatic)"},
    {"height", "0", "pouring height in units of phi above the plane (0: automatic)"},
    {"seed", "1", "seed of the horizontal jitter"},
    {"h", "1e-3", "time step (s)"},
    {"theta", "1", "theta of the Moreau-Jean scheme"},
    {"t_end", "20", "horizon (s)"},
    {"tol", "1e-4", "solver tolerance of each step"},
    {"margin", "0.2", "contact detection distance in units of phi"},
    {"width", "0", "side of a square plane in units of phi, e.g. 60 (0: unbounded half-space)"},
    {"init", "pour", "pour (Acary's pluviation) or heap (n spheres at rest on a stepped pyramid)"},
    {"stop_speed", "1e-6", "unused (kept for uniformity)"},
    {NULL, NULL, NULL}};

typedef struct {
    long n, batch;
    double phi, rho, interval, height, margin, width;
    uint64_t seed;
    int heap; /* init=heap */
} pile_desc;

/* Pouring parameters, with the automatic batch and height resolved. */
static int pile_read(const cb_scenario_params *ps, const cb_scenario *s, pile_desc *p,
                     cb_error *err)
{
    long seed;
    int rc = cb_param_long(ps, "n", 1, 2000000, &p->n, err);
    if (rc == CB_OK)
        rc = cb_param_long(ps, "batch", 0, 10000000, &p->batch, err);
    if (rc == CB_OK)
        rc = cb_param_long(ps, "seed", 0, 0x7fffffffL, &seed, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "phi", 1e-6, 1e3, &p->phi, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "rho", 1e-6, 1e6, &p->rho, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "interval", 0, 1e6, &p->interval, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "height", 0, 1e9, &p->height, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "margin", 0, 100, &p->margin, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "width", 0, 1e9, &p->width, err);
    const char *init = cb_param_get(ps, "init");
    p->heap = strcmp(init, "heap") == 0;
    if (rc == CB_OK && !p->heap && strcmp(init, "pour") != 0)
        rc = cb_fail(err, CB_ERR_INPUT, "param init: '%s' is not pour or heap", init);
    if (rc != CB_OK)
        return rc;
    p->seed = (uint64_t)seed;
    if (p->batch == 0) {
        double pours = p->interval > 0 ? floor(0.875 * s->t_end / p->interval) : 1.0;
        p->batch = (long)ceil((double)p->n / fmax(pours, 1.0));
    }
    if (p->height == 0) {
        double side = ceil(sqrt((double)p->batch)), area = 4.0 * side * side;
        double column = p->batch > 1 ? (double)p->n * (CB_PI / 6.0) / (0.6 * area) : 0.0;
        p->height = 10.0 + 1.2 * column;
    }
    return CB_OK;
}

/* Sphere k: born at ⌊k/batch⌋·interval, lattice slot k mod batch, jitter in [−φ/2, φ/2]². */
static int pile_sphere(const pile_desc *p, long k, cb_rng *rng, cb_body *b, const cb_body *g,
                       cb_error *err)
{
    long side = (long)ceil(sqrt((double)p->batch)), slot = k % p->batch;
    double c = 0.5 * (double)(side - 1);
    double a = 2.0 * p->phi * ((double)(slot % side) - c) + cb_rng_range(rng, -0.5, 0.5) * p->phi;
    double bb =
        2.0 * p->phi * ((double)(slot / side) - c) + cb_rng_range(rng, -0.5, 0.5) * p->phi;
    int rc = cb_scen_sphere_on(b, g, 0.5 * p->phi, 0, p->rho, a, bb, err);
    if (rc != CB_OK)
        return rc;
    b->x[2] = p->height * p->phi;
    b->t_birth = (double)(k / p->batch) * p->interval;
    return CB_OK;
}

/* Side s₀ of the bottom layer: the smallest with Σ_L (s₀ − 2L)² ≥ n over layers of side ≥ 1. */
static long heap_base(long n)
{
    long s0 = 1;
    for (;; s0++) {
        long total = 0;
        for (long side = s0; side >= 1; side -= 2)
            total += side * side;
        if (total >= n)
            return s0;
    }
}

/* Sphere k of the heap: layer by layer from the bottom, row order inside a layer; centre of
 * layer L at height (L + ½)φ, lattice spacing φ, at rest from t = 0. */
static int heap_sphere(const pile_desc *p, long k, long s0, cb_body *b, const cb_body *g,
                       cb_error *err)
{
    long layer = 0, side = s0;
    while (k >= side * side) {
        k -= side * side;
        side -= 2, layer++;
    }
    /* spacing a hair under φ: every lattice neighbour overlaps by 1e-9 φ, so each touching
     * pair is in the index set g ≤ 0 whatever the rounding of the coordinates */
    double c = 0.5 * (double)(side - 1), sp = p->phi * (1.0 - 1e-9);
    double a = sp * ((double)(k % side) - c), bb = sp * ((double)(k / side) - c);
    int rc = cb_scen_sphere_on(b, g, 0.5 * p->phi, 0, p->rho, a, bb, err);
    if (rc == CB_OK)
        b->x[2] = ((double)layer + 0.5) * sp;
    return rc;
}

static int build_pile(const cb_scenario_params *ps, cb_scenario *s, cb_error *err)
{
    cb_scenario grid;
    pile_desc p;
    double mu = 0, mu_r = 0, e = 0;
    memset(&grid, 0, sizeof grid);
    int rc = cb_scen_grid(ps, &grid, err);
    if (rc == CB_OK)
        rc = pile_read(ps, &grid, &p, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "mu", 0, 1e3, &mu, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "mu_r", 0, 1e3, &mu_r, err);
    if (rc == CB_OK)
        rc = cb_param_double(ps, "e", 0, 1, &e, err);
    if (rc == CB_OK)
        rc = cb_scen_alloc(s, CB_KIND_ROLLING3D, (int)p.n + 1, 0, 0, err);
    if (rc == CB_OK)
        rc = cb_scen_ground(&s->bodies[0], 0.0, err);
    if (rc == CB_OK) /* the square plane of the paper; spheres rolling beyond it fall off */
        s->bodies[0].shape.half[0] = s->bodies[0].shape.half[1] = 0.5 * p.width * p.phi;
    cb_rng rng;
    cb_rng_seed(&rng, p.seed);
    long s0 = p.heap ? heap_base(p.n) : 0;
    for (long k = 0; rc == CB_OK && k < p.n; k++)
        rc = p.heap ? heap_sphere(&p, k, s0, &s->bodies[k + 1], &s->bodies[0], err)
                    : pile_sphere(&p, k, &rng, &s->bodies[k + 1], &s->bodies[0], err);
    if (rc != CB_OK)
        return rc;
    s->h = grid.h;
    s->theta = grid.theta;
    s->t_end = grid.t_end;
    s->tol = grid.tol;
    s->seed = p.seed;
    s->contact.friction = (cb_friction){mu, mu_r, 0.0};
    s->contact.e_n = e;
    s->contact.margin = p.margin * p.phi;
    s->outputs = CB_OUT_PILE;
    s->ground = 0;
    s->phi = p.phi;
    return CB_OK;
}

const cb_scenario_def cb_scenario_sphere_pile = {
    "sphere-pile", "spheres poured on a plane: pile height and base radius (Acary & Bourrier 6.2)",
    pile_params, build_pile};
