/* conebench — the numbers Fang & Negrut print (reproduce.h): each as the paper writes it, with
 * where it is written. L. Fang, D. Negrut, "A friction history model" (Fang & Negrut below). */
#include "reproduce.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FN "Fang & Negrut "
/* The scenario's g is CB_GRAVITY (9.81), the paper's 9.8 (§4.3): loads differ by +0.10 %; the
 * paper's last digits are cut, not rounded. */
#define G_REL 2e-3
#define G_WHY "g = 9.81 here, 9.8 in the paper (+0.10 %)"

const cb_paper_value cb_reproduce_papers[] = {
    /* §4.1, Table 2: brick on an incline */
    {"brick.accel", "α = 0.25: acceleration while slipping", "0.525", 1, "m/s²", FN "§4.1", 0, ""},
    {"brick.Ef", "α = 0.25: E_f kinetic", "1.899", 1, "N", FN "§4.1", 0, ""},
    {"brick.Ss", "α = 0.18: S_s^S = μ_s N/K_E", "2.41", 1e-5, "m", FN "§4.1", 0, ""},
    {"brick.Sk", "α = 0.18: S_k^S = μ_k N/K_E", "1.92", 1e-5, "m", FN "§4.1", 0, ""},
    {"brick.Ef_osc", "α = 0.18, K_D = 0: E_f oscillates around m g sin α", "1.75", 1, "N",
     FN "§4.1, Fig. 5", 0, ""},
    /* §4.2, Table 3: disk rolling on a flat surface */
    {"disk.Ef", "E_f in the sliding phase = m g μ_k", "9.8", 1, "N", FN "§4.2", 0, ""},
    {"disk.Kr", "K_r (Table 1 identical-curvature row, η_r R² K_E)", "1600", 1, "N·m",
     FN "§4.2, Table 1", 0, ""},
    {"disk.Dcr", "D_cr = 2√(I K_r)", "25.30", 1, "N·m·s", FN "§4.2", 0, ""},
    {"disk.switch", "switch to rolling, ẋ0 = 0.5 m/s", "0.11", 1, "s", FN "§4.2", 0, ""},
    {"disk.switch5", "switch to rolling, ẋ0 = 5 m/s (the text's value)", "0.11", 1, "s", FN "§4.2",
     NAN, "the text's ẋ0 = 5 m/s is read as a typo for 0.5 (report)"},
    /* §4.3: sphere rolling up a 35° incline */
    {"incline.FE", "F_E kinetic = μ_k N", "8.027", 1, "N", FN "§4.3", G_REL, G_WHY},
    {"incline.TE", "T_E kinetic = 2 η_r R μ_k N", "0.963", 1, "N·m", FN "§4.3", G_REL, G_WHY},
    {"incline.Fs", "static bound μ_s N", "10.03", 1, "N", FN "§4.3", G_REL, G_WHY},
    /* §4.4: spinning sphere, heuristic model */
    {"spin.T", "T_ψ kinetic = μ_k N η_ψ R", "0.0118", 1, "N·m", FN "§4.4", 0, ""},
    /* §4.5.2, Table 7: spinning ellipsoid and the sphere of the same volume */
    {"t7.sphere.K", "sphere R = (abc)^{1/3}: 𝒦", "36.84", 1, "1/m", FN "Table 7", 0, ""},
    {"t7.sphere.Kpsi", "sphere R = (abc)^{1/3}: K_ψ", "1.80", 1e-2, "N·m", FN "Table 7", 0, ""},
    {"t7.sphere.S", "sphere R = (abc)^{1/3}: S_s^ψ", "3.88", 1e-3, "rad", FN "Table 7", 0, ""},
    {"t7.sphere.T", "sphere R = (abc)^{1/3}: max T_E^ψ", "6.96", 1e-5, "N·m", FN "Table 7", 0, ""},
    {"t7.flat.K", "ellipsoid flat: 𝒦", "29", 1, "1/m", FN "Table 7", 0, ""},
    {"t7.flat.Kpsi", "ellipsoid flat: K_ψ", "2.11", 1e-2, "N·m", FN "Table 7", 0, ""},
    {"t7.flat.S", "ellipsoid flat: S_s^ψ", "3.58", 1e-3, "rad", FN "Table 7", 0, ""},
    {"t7.flat.T", "ellipsoid flat: max T_E^ψ", "7.53", 1e-5, "N·m", FN "Table 7", 0, ""},
    {"t7.upright.K", "ellipsoid upright: 𝒦", "125", 1, "1/m", FN "Table 7", 0, ""},
    {"t7.upright.Kpsi", "ellipsoid upright: K_ψ", "7.95", 1e-3, "N·m", FN "Table 7", 0, ""},
    {"t7.upright.S", "ellipsoid upright: S_s^ψ", "5.82", 1e-3, "rad", FN "Table 7", 0, ""},
    {"t7.upright.T", "ellipsoid upright: max T_E^ψ", "4.63", 1e-5, "N·m", FN "Table 7", 0, ""},
    {NULL, NULL, NULL, 0, NULL, NULL, 0, NULL}};

const cb_paper_value *cb_reproduce_paper(const char *id)
{
    for (const cb_paper_value *p = cb_reproduce_papers; id && p->id; p++)
        if (strcmp(p->id, id) == 0)
            return p;
    return NULL;
}

/* value = printed × scale */
double cb_paper_value_of(const cb_paper_value *p) { return strtod(p->printed, NULL) * p->scale; }
