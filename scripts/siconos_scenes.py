#!/usr/bin/python3
"""conebench — step sequences made by Siconos' own mechanics (python3-siconos, Bullet collision).

Builds a scene of rigid bodies, simulates it with Siconos' time stepping (TimeStepping,
MoreauJeanOSI theta = 0.50001, one Newton iteration per step so that every step is one
friction-contact problem, FrictionContact (RollingFrictionContact for the sphere pile) solved by
Siconos' NSGS, warm-started from the previous step's reactions as Siconos does), and writes every
step that has contacts as a conebench step sequence (src/io/sequence.h):

  DIR/SCENE/SCENE-stepN.dat   the problem (frictionContact_printInFilename /
                              rollingFrictionContact_printInFilename), N = 1, 2, ... the time step
  DIR/SCENE/SCENE-stepN.ids   "conebench-ids NC", then per contact "A B F": the two bodies
                              (their rank in the scene, 0, 1, ...; B = -1: the ground) and the
                              Siconos interaction number (0 in the sphere pile: one contact a
                              pair), in the order of the problem's contacts
  DIR/SCENE/SCENE-stepN.meta  key=value: scenario, params, step, t (start of the step), h, kind,
                              nc, source=siconos, siconos_solver, siconos_tol,
                              siconos_iterations, siconos_error
  DIR/SCENE/SCENE-stepN.sol   Siconos' reaction r and velocity u of the step ("nc d", then
                              "r_i u_i" per row)

Steps without contact write nothing (their N is missing from the sequence). A scene's folder is
written whole or not at all: the files go to a temporary folder beside it first; the step files
of an earlier run of the same scene are replaced.

Exit status: 0 written, 1 failure, 2 bad arguments (nothing done), 77 python3-siconos (or its
Bullet mechanics) absent: skipped, saying so.
"""
import argparse
import math
import os
import random
import re
import shutil
import sys
import tempfile
import time

EXIT_FAIL = 1
EXIT_USAGE = 2
EXIT_SKIP = 77            # the automake convention for "skipped"
MAX_STEPS = 1000000       # CB_SEQUENCE_MAX_STEPS of src/io/sequence.h
MAX_BODIES = 100000
GRAVITY = 9.81
THETA = 0.50001           # Siconos' mechanics default for MoreauJeanOSI
INSIDE_MARGIN = 0.02      # Bullet inside margin / a shape's smallest size (Siconos' default)
ORDER_TOL = 1e-9         # |H_k v+ - u_k| / (1 + |u|max) of the contact-order check
PROG = os.path.basename(sys.argv[0])
MU = 0.5                  # Coulomb friction of every contact
MU_R = 0.02               # rolling friction of the sphere pile's contacts
WOOD, WATER = 500.0, 1000.0   # densities, kg/m³: planks; capsules and spheres

# scene: (default steps, h, size option, default size, description)
SCENES = {
    "box-stack": (200, 2e-3, "boxes", 5,
                  "a stack of boxes (0.2 m, 1 kg) on the ground, mu %g" % MU),
    "kapla": (60, 1e-3, "levels", 16,
              "a tower of Kapla-like planks (1.2 x 0.24 x 0.08 m), 3 a level, crossed level to "
              "level, mu %g" % MU),
    "capsule-heap": (300, 2e-3, "capsules", 40,
                     "capsules (radius 0.05 m, length 0.3 m) dropped from a 3 x 3 column into a "
                     "heap, mu %g" % MU),
    "sphere-pile": (100, 2e-3, "spheres", 27,
                    "spheres (radius 0.05 m) dropped from a 3 x 3 column into a pile, mu %g, "
                    "rolling friction mu_r %g (RollingFrictionContact, d = 5)" % (MU, MU_R)),
}


def fail_usage(msg):
    print("%s: %s (%s --help)" % (PROG, msg, PROG), file=sys.stderr)
    sys.exit(EXIT_USAGE)


class Parser(argparse.ArgumentParser):
    def error(self, message):
        fail_usage(message)


def positive_int(limit):
    def conv(s):
        try:
            v = int(s)
        except ValueError:
            raise argparse.ArgumentTypeError("'%s' is not an integer" % s)
        if v < 1 or v > limit:
            raise argparse.ArgumentTypeError("%d is not in 1..%d" % (v, limit))
        return v
    return conv


def real_in(lo, hi):
    def conv(s):
        try:
            v = float(s)
        except ValueError:
            raise argparse.ArgumentTypeError("'%s' is not a number" % s)
        if not (lo < v < hi):
            raise argparse.ArgumentTypeError("%s is not in (%g, %g)" % (s, lo, hi))
        return v
    return conv


def parse_args(argv):
    lines = ["scenes (default sizes, steps):"]
    for name, (steps, h, opt, size, what) in SCENES.items():
        lines.append("  %-13s %s; --%s %d, %d steps of h = %g s" % (name, what, opt, size,
                                                                   steps, h))
    p = Parser(prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
               description="Write Siconos-made step sequences (one folder per scene) for "
                           "conebench: problem, contact ids, metadata and Siconos' own "
                           "solution of every step with contacts.",
               epilog="\n".join(lines) + "\n\nexit status: 0 written, 1 failure, 2 bad "
                      "arguments, 77 skipped (python3-siconos absent)")
    p.add_argument("scenes", nargs="+", metavar="SCENE", help="a scene name or 'all'")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="folder of the scene folders DIR/SCENE (created)")
    p.add_argument("--steps", type=positive_int(MAX_STEPS), metavar="N",
                   help="time steps to simulate (default: the scene's)")
    p.add_argument("--h", type=real_in(0, 1), help="time step, s (default: the scene's)")
    for opt, scene in (("boxes", "box-stack"), ("levels", "kapla"), ("capsules", "capsule-heap"),
                       ("spheres", "sphere-pile")):
        p.add_argument("--" + opt, type=positive_int(MAX_BODIES), metavar="N",
                       help="%s of %s (default %d)" % (opt, scene, SCENES[scene][3]))
    p.add_argument("--tol", type=real_in(0, 1), default=1e-10,
                   help="Siconos NSGS tolerance (default %(default)g)")
    p.add_argument("--max-iter", type=positive_int(2**31 - 1), default=100000,
                   help="Siconos NSGS iteration limit per step (default %(default)d)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random placements "
                   "(capsule-heap, sphere-pile; default %(default)d)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    a = p.parse_args(argv)
    if "all" in a.scenes:
        a.scenes = list(SCENES)
    for s in a.scenes:
        if s not in SCENES:
            fail_usage("unknown scene '%s' (one of: %s, all)" % (s, ", ".join(SCENES)))
    a.scenes = list(dict.fromkeys(a.scenes))
    if os.path.exists(a.output) and not os.path.isdir(a.output):
        fail_usage("%s: not a directory" % a.output)
    for s in a.scenes:
        d = os.path.join(a.output, s)
        if os.path.exists(d) and not os.path.isdir(d):
            fail_usage("%s: not a directory" % d)
    return a


def import_siconos():
    """The Siconos modules, or exit EXIT_SKIP saying which is missing."""
    try:
        import numpy
        import siconos.kernel as sk
        import siconos.numerics as sn
        import siconos.mechanics.collision.bullet as sb
    except ImportError as e:
        print("%s: skipped: python3-siconos with its Bullet mechanics (and numpy) is needed: %s"
              % (PROG, e), file=sys.stderr)
        sys.exit(EXIT_SKIP)
    return numpy, sk, sn, sb


# ---- geometry -----------------------------------------------------------------------------

def quat_axis_angle(axis, angle):
    """Unit quaternion (w, x, y, z) of the rotation by angle about the unit axis."""
    s = math.sin(angle / 2)
    return [math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s]


def quat_mul(a, b):
    """Hamilton product a b of quaternions (w, x, y, z)."""
    return [a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
            a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
            a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
            a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0]]


def box_inertia(m, a, b, c):
    """Principal inertia of a solid box a x b x c: m/12 (b² + c², a² + c², a² + b²)."""
    return [m / 12 * (b * b + c * c), m / 12 * (a * a + c * c), m / 12 * (a * a + b * b)]


def capsule_mass_inertia(rho, r, length):
    """Mass and principal inertia (axis y, Bullet's capsule axis) of a solid capsule: a cylinder
    of radius r and length L, mass m_c = rho π r² L, plus two hemispheres (one ball, m_s =
    rho 4/3 π r³): I_y = m_c r²/2 + 2/5 m_s r², I_x = I_z = m_c (L²/12 + r²/4) + m_s (2/5 r²
    + L²/4 + 3/8 L r)."""
    mc = rho * math.pi * r * r * length
    ms = rho * 4.0 / 3.0 * math.pi * r ** 3
    iy = mc * r * r / 2 + 0.4 * ms * r * r
    ix = mc * (length ** 2 / 12 + r * r / 4) + ms * (0.4 * r * r + length ** 2 / 4
                                                     + 3.0 / 8.0 * length * r)
    return mc + ms, [ix, iy, ix]


def sphere_mass_inertia(rho, r):
    """Mass rho 4/3 π r³ and inertia 2/5 m r² of a solid ball."""
    m = rho * 4.0 / 3.0 * math.pi * r ** 3
    return m, [0.4 * m * r * r] * 3


# ---- the Siconos world ----------------------------------------------------------------------

class World:
    """One Siconos scene: bodies, the Bullet collision manager, the ground and the simulation."""

    def __init__(self, mods, a, h, nsteps, rolling, mu, mu_r):
        self.np, self.sk, self.sn, self.sb = mods
        sk, sb = self.sk, self.sb
        self.h, self.nsteps, self.rolling = h, nsteps, rolling
        self.d = 5 if rolling else 3
        self.nsds = sk.NonSmoothDynamicalSystem(0.0, nsteps * h)
        self.im = sb.SiconosBulletCollisionManager(sb.SiconosBulletOptions())
        if rolling:
            self.law = sk.NewtonImpactRollingFrictionNSL(0.0, 0.0, mu, mu_r, self.d)
        else:
            self.law = sk.NewtonImpactFrictionNSL(0.0, 0.0, mu, self.d)
        self.im.insertNonSmoothLaw(self.law, 0, 0)
        self.bodies = []
        self.by_number = {}
        self.index = {}        # Siconos' DS number -> the body's rank in the scene (0, 1, ...)
        # Feature of a contact: the Siconos interaction number, which lasts as long as Bullet's
        # contact point; Bullet makes a new point every step between two spheres, but two convex
        # smooth bodies touch at one point at most: the sphere pile's feature is 0.
        self.one_point = rolling
        self.tol, self.max_iter, self.seed = a.tol, a.max_iter, a.seed

    def shape(self, kind, *dims):
        """A Bullet shape of Siconos with its inside margin (a fraction of its smallest size)."""
        sb = self.sb
        make = {"box": sb.SiconosBox, "capsule": sb.SiconosCapsule, "sphere": sb.SiconosSphere}
        s = make[kind](*dims)
        s.setInsideMargin(INSIDE_MARGIN * min(dims))
        s.setOutsideMargin(0.0)
        return s

    def ground(self, size=20.0, thick=0.5):
        """The ground: a static box whose top face is z = 0."""
        cs = self.sb.SiconosContactorSet()
        cs.append(self.sb.SiconosContactor(self.shape("box", size, size, thick)))
        self.im.insertStaticContactorSet(cs, [0.0, 0.0, -thick / 2, 1.0, 0.0, 0.0, 0.0])

    def body(self, shape, pos, quat, mass, inertia):
        """A rigid body at rest at pos with orientation quat, under gravity."""
        np = self.np
        b = self.sb.RigidBodyDS(list(pos) + list(quat), [0.0] * 6, mass, np.diag(inertia))
        cs = self.sb.SiconosContactorSet()
        cs.append(self.sb.SiconosContactor(shape))
        b.setContactors(cs)
        b.setFExtPtr([0.0, 0.0, -GRAVITY * mass])
        self.nsds.insertDynamicalSystem(b)
        self.bodies.append(b)
        self.by_number[b.number()] = b
        self.index[b.number()] = len(self.bodies) - 1
        return b

    def simulation(self):
        """TimeStepping + MoreauJeanOSI + (Rolling)FrictionContact with Siconos' NSGS."""
        sk, sn = self.sk, self.sn
        osi = sk.MoreauJeanOSI(THETA)
        td = sk.TimeDiscretisation(0.0, self.h)
        if self.rolling:
            self.solver = sn.SICONOS_ROLLING_FRICTION_3D_NSGS
            self.osnsp = sk.RollingFrictionContact(self.d, self.solver)
        else:
            self.solver = sn.SICONOS_FRICTION_3D_NSGS
            self.osnsp = sk.FrictionContact(self.d, self.solver)
        so = self.osnsp.numericsSolverOptions()
        so.dparam[sn.SICONOS_DPARAM_TOL] = self.tol
        so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = self.max_iter
        self.osnsp.setKeepLambdaAndYState(True)   # warm start from the last step (Siconos' way)
        if not self.rolling:   # a sparse-block W aborts the rolling NSGS (NM_extract_diag_block5)
            self.osnsp.setMStorageType(sn.NM_SPARSE_BLOCK)
        sim = sk.TimeStepping(self.nsds, td)
        sim.insertIntegrator(osi)
        sim.insertNonSmoothProblem(self.osnsp)
        sim.insertInteractionManager(self.im)
        sim.setNewtonMaxIteration(1)   # one friction-contact problem per step
        self.sim = sim
        return sim


# ---- scenes ---------------------------------------------------------------------------------

def build_box_stack(w, n, rng):
    """n boxes of 0.2 m, 1 kg, one on the other with 5 mm gaps, each shifted and turned a little
    from the one below (a stack that stands)."""
    a, gap = 0.2, 0.005
    w.ground()
    for i in range(n):
        q = quat_axis_angle([0.0, 0.0, 1.0], 0.05 * (-1) ** i)
        pos = [0.01 * (i % 2), 0.005 * ((i // 2) % 2), a / 2 + i * (a + gap) + gap]
        w.body(w.shape("box", a, a, a), pos, q, 1.0, box_inertia(1.0, a, a, a))
    return "boxes=%d a=0.2 gap=0.005" % n


def build_kapla(w, levels, rng):
    """A tower of planks 1.2 x 0.24 x 0.08 m, three a level along x then three along y, each
    level resting on the one below (touching)."""
    L, W, H, per = 1.2, 0.24, 0.08, 3
    m = WOOD * L * W * H
    w.ground()
    for k in range(levels):
        turn = quat_axis_angle([0.0, 0.0, 1.0], math.pi / 2 * (k % 2))
        for j in range(per):
            off = (j - (per - 1) / 2) * (L - W) / (per - 1)
            pos = [0.0, off, H / 2 + k * H] if k % 2 == 0 else [off, 0.0, H / 2 + k * H]
            w.body(w.shape("box", L, W, H), pos, turn, m, box_inertia(m, L, W, H))
    return "levels=%d planks=3 L=1.2 W=0.24 H=0.08" % levels


def column_cell(i, pitch, layer_h, z0):
    """Centre of the i-th body of a 3 x 3 column: cells of pitch in x, y, layers layer_h apart."""
    layer, cell = divmod(i, 9)
    return [(cell % 3 - 1) * pitch, (cell // 3 - 1) * pitch, z0 + layer * layer_h]


def build_capsule_heap(w, n, rng):
    """n capsules (radius 0.05 m, length 0.3 m) lying in a 3 x 3 column of layers, each turned
    at random about z and tilted up to 0.2 rad, dropped onto the ground."""
    r, L = 0.05, 0.3
    m, inertia = capsule_mass_inertia(WATER, r, L)
    w.ground()
    for i in range(n):
        axis_down = quat_axis_angle([0.0, 0.0, 1.0], math.pi / 2)       # Bullet's y axis to x
        tilt = quat_axis_angle([0.0, 1.0, 0.0], rng.uniform(-0.2, 0.2))
        yaw = quat_axis_angle([0.0, 0.0, 1.0], rng.uniform(0.0, 2 * math.pi))
        q = quat_mul(yaw, quat_mul(tilt, axis_down))
        pos = column_cell(i, L + 2 * r + 0.02, 2 * r + L * math.sin(0.2) + 0.02, r + 0.01)
        w.body(w.shape("capsule", r, L), pos, q, m, inertia)
    return "capsules=%d r=0.05 L=0.3 seed=%d" % (n, w.seed)


def build_sphere_pile(w, n, rng):
    """n spheres (radius 0.05 m) in a 3 x 3 column of layers, each moved at random by up to
    5 mm sideways, dropped onto the ground: a pile held by friction and rolling friction."""
    r = 0.05
    m, inertia = sphere_mass_inertia(WATER, r)
    w.ground()
    for i in range(n):
        pos = column_cell(i, 2 * r + 0.02, 2 * r + 0.01, r + 0.005)
        pos[0] += rng.uniform(-0.005, 0.005)
        pos[1] += rng.uniform(-0.005, 0.005)
        w.body(w.shape("sphere", r), pos, [1.0, 0.0, 0.0, 0.0], m, inertia)
    return "spheres=%d r=0.05 mu_r=%g seed=%d" % (n, MU_R, w.seed)


BUILDERS = {"box-stack": build_box_stack, "kapla": build_kapla,
            "capsule-heap": build_capsule_heap, "sphere-pile": build_sphere_pile}


# ---- one step's files -------------------------------------------------------------------------

class SceneError(Exception):
    pass


def step_contacts(w, z, u):
    """The step's interactions in the order of the problem's contacts, with their ids (A, B, F).
    The order is the one of index set 1; it is checked on every contact against the problem
    itself: Siconos copies the reaction block k of z into the lambda of the interaction it
    assembled as contact k (exactly), and that interaction's Jacobian H_k times the bodies'
    new velocities v+ is the velocity block k of u (u = W z + q = H v+)."""
    np, d = w.np, w.d
    topo = w.nsds.topology()
    inters = topo.indexSet(1).interactions()
    if len(inters) * d != len(z):
        raise SceneError("index set 1 holds %d interactions, the problem %d contacts"
                         % (len(inters), len(z) // d))
    scale = 1.0 + float(np.max(np.abs(u)))
    ids = []
    for k, inter in enumerate(inters):
        nums = [ds.number() for ds in topo.dynamicalSystemsForInteraction(inter)]
        v = np.concatenate([np.array(w.by_number[n].twist()) for n in nums])
        hv = np.array(inter.relation().jachqT()).dot(v)
        lam = np.array(inter.lambda_(1))
        zk, uk = z[k * d:(k + 1) * d], u[k * d:(k + 1) * d]
        if not np.array_equal(lam, zk) or np.max(np.abs(hv - uk)) > ORDER_TOL * scale:
            raise SceneError("contact %d: the interaction's lambda or H v+ is not the problem's "
                             "block %d: the order of contacts is not index set 1's" % (k, k))
        bodies = [w.index[n] for n in nums] + [-1]
        ids.append((bodies[0], bodies[1], 0 if w.one_point else inter.number()))
    if len(set(ids)) != len(ids):
        raise SceneError("two contacts of one step share an identity")
    return ids


def write_text(path, text):
    with open(path, "w") as f:
        f.write(text)


def write_step(w, folder, name, step, t, params):
    """NAME-stepN.dat/.ids/.meta/.sol of the step just solved; returns (nc, iterations, error)."""
    np, sn = w.np, w.sn
    z, u = np.array(w.osnsp.z()), np.array(w.osnsp.w())
    if not (np.all(np.isfinite(z)) and np.all(np.isfinite(u))):
        raise SceneError("step %d: Siconos' reaction or velocity is not finite" % step)
    ids = step_contacts(w, z, u)
    nc, d = len(ids), w.d
    prob = w.osnsp.frictionContactProblemPtr()
    if prob.numberOfContacts != nc or prob.dimension != d:
        raise SceneError("step %d: the problem has %d contacts of d = %d, expected %d of d = %d"
                         % (step, prob.numberOfContacts, prob.dimension, nc, d))
    base = os.path.join(folder, "%s-step%d" % (name, step))
    printer = (sn.rollingFrictionContact_printInFilename if w.rolling
               else sn.frictionContact_printInFilename)
    printer(prob, base + ".dat")
    if not os.path.isfile(base + ".dat"):
        raise SceneError("%s.dat: Siconos wrote nothing" % base)
    write_text(base + ".ids", "conebench-ids %d\n" % nc
               + "".join("%d %d %d\n" % i for i in ids))
    write_text(base + ".sol", "%d %d\n" % (nc, d)
               + "".join("%.17g %.17g\n" % (z[i], u[i]) for i in range(nc * d)))
    so = w.osnsp.numericsSolverOptions()
    iters, err = so.iparam[sn.SICONOS_IPARAM_ITER_DONE], so.dparam[sn.SICONOS_DPARAM_RESIDU]
    meta = [("scenario", name), ("params", params), ("step", step), ("t", "%.17g" % t),
            ("h", "%.17g" % w.h), ("kind", "rolling3d" if w.rolling else "coulomb3d"),
            ("nc", nc), ("source", "siconos"),
            ("siconos_solver", sn.solver_options_id_to_name(w.solver)),
            ("siconos_tol", "%.17g" % w.tol), ("siconos_iterations", iters),
            ("siconos_error", "%.17g" % err)]
    write_text(base + ".meta", "".join("%s=%s\n" % kv for kv in meta))
    return nc, iters, err


# ---- a scene, start to end ------------------------------------------------------------------

STEP_FILE = re.compile(r"-step[0-9]+\.(dat|ids|meta|sol)$")


class Progress:
    """A progress line on stderr: rewritten in place on a terminal, every 10 % otherwise."""

    def __init__(self, name, nsteps, quiet):
        self.name, self.nsteps, self.quiet = name, nsteps, quiet
        self.tty = sys.stderr.isatty()
        self.next = 0

    def show(self, k, nc, iters):
        if self.quiet or (not self.tty and k + 1 < self.next):
            return
        self.next = k + 1 + max(1, self.nsteps // 10)
        line = "%s: step %d/%d, %d contacts, %d Siconos iterations" % (
            self.name, k + 1, self.nsteps, nc, iters)
        print(("\r%-72s" if self.tty else "%s") % line, end="" if self.tty else "\n",
              file=sys.stderr, flush=True)

    def done(self):
        if self.tty and not self.quiet:
            print(file=sys.stderr)


def simulate(w, name, folder, params, quiet):
    """Step the scene, writing every step with contacts; returns the per-step statistics."""
    sim = w.simulation()
    prog = Progress(name, w.nsteps, quiet)
    stats = []
    sys.stdout.flush()
    stdout = os.dup(1)
    os.dup2(2, 1)   # Siconos' own messages (e.g. a step at its iteration limit) to stderr
    try:
        for k in range(w.nsteps):
            t = sim.startingTime()
            sim.computeOneStep()
            nc = len(w.nsds.topology().indexSet(1).interactions())
            if nc > 0:
                stats.append(write_step(w, folder, name, k + 1, t, params))
            prog.show(k, nc, stats[-1][1] if nc > 0 else 0)
            sim.nextStep()
    finally:
        os.dup2(stdout, 1)
        os.close(stdout)
    prog.done()
    return stats


def install(tmp, folder, name):
    """Replace the step files of folder (an earlier run) by those of tmp, then remove tmp."""
    os.makedirs(folder, exist_ok=True)
    for f in os.listdir(folder):
        if f.startswith(name + "-step") and STEP_FILE.search(f):
            os.remove(os.path.join(folder, f))
    for f in os.listdir(tmp):
        os.replace(os.path.join(tmp, f), os.path.join(folder, f))
    os.rmdir(tmp)


def run_scene(mods, a, name):
    steps, h, opt, size, _ = SCENES[name]
    steps = a.steps or steps
    h = a.h or h
    size = getattr(a, opt) or size
    w = World(mods, a, h, steps, name == "sphere-pile", MU, MU_R)
    params = BUILDERS[name](w, size, random.Random(a.seed))
    params += " mu=%g h=%g theta=%g tol=%g max_iter=%d" % (MU, h, THETA, a.tol, a.max_iter)
    os.makedirs(a.output, exist_ok=True)
    folder = os.path.join(a.output, name)
    tmp = tempfile.mkdtemp(prefix="." + name + ".", dir=a.output)
    t0 = time.monotonic()
    try:
        stats = simulate(w, name, tmp, params, a.quiet)
        install(tmp, folder, name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    wall = time.monotonic() - t0
    if not stats:
        print("%s: %d steps, none with contacts: nothing written" % (name, steps))
        return
    nc = [s[0] for s in stats]
    it = [s[1] for s in stats]
    over = sum(1 for s in stats if not s[2] <= a.tol)
    print("%s: %d steps, %d with contacts written to %s; contacts %d..%d; Siconos iterations "
          "%d..%d (%d in all); %d steps above tol %g; %.1f s"
          % (name, steps, len(stats), folder, min(nc), max(nc), min(it), max(it), sum(it),
             over, a.tol, wall))


def main(argv):
    a = parse_args(argv)
    mods = import_siconos()
    for name in a.scenes:
        try:
            run_scene(mods, a, name)
        except (SceneError, RuntimeError, OSError) as e:
            print("%s: %s: %s" % (PROG, name, e), file=sys.stderr)
            return EXIT_FAIL
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
