/* conebench — the reproduce study's sections (reproduce.h). */
#include "reproduce_internal.h"

#include <string.h>

typedef struct {
    const char *name;
    void (*fn)(rp_ctx *);
} rp_section;

static const rp_section rp_sections[] = {
    {"brick", rp_brick},         {"disk", rp_disk},   {"incline", rp_incline},
    {"regime", rp_regime},       {"spin", rp_spin},   {"spin-hertz", rp_spin_hertz},
    {"ellipsoid", rp_ellipsoid}, {"stack", rp_stack}, {"stiffness", rp_stiffness}};
#define RP_NSECTIONS (sizeof rp_sections / sizeof *rp_sections)

int cb_reproduce_section_count(void) { return (int)RP_NSECTIONS; }

const char *cb_reproduce_section_name(int k)
{
    return k >= 0 && k < (int)RP_NSECTIONS ? rp_sections[k].name : NULL;
}

int cb_reproduce_section(const char *name, const cb_reproduce_opts *o, cb_study_report *r,
                         cb_error *err)
{
    if (!o || !o->dir || !o->plots)
        return cb_fail(err, CB_ERR_INPUT, "reproduce: no output or plots folder");
    for (size_t k = 0; name && k < RP_NSECTIONS; k++)
        if (strcmp(name, rp_sections[k].name) == 0) {
            rp_ctx c = {o, r, NULL};
            rp_sections[k].fn(&c);
            return r->rc == CB_OK ? CB_OK
                                  : cb_fail(err, r->rc, "reproduce %s: the report failed", name);
        }
    return cb_fail(err, CB_ERR_INPUT, "reproduce: unknown section '%s'", name ? name : "");
}
