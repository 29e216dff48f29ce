# conebench — GNU Make build. `make` builds libconebench.a, libconebench.so and bin/conebench;
# `make test` runs every test; `make install PREFIX=...`; `make SICONOS=0` builds without the
# Siconos adapters (and without Siconos), `make BULLET=0 DART=0` without the game-engine
# adapters (and without Bullet, DART); see `make help`.
.DEFAULT_GOAL := all
SHELL := /bin/bash

CC      ?= cc
SICONOS ?= 1
BULLET  ?= 1
DART    ?= 1
BUILD   ?= build$(if $(filter 0,$(SICONOS)),-nosiconos)$(if $(filter 0,$(BULLET)),-nobullet)$(if \
           $(filter 0,$(DART)),-nodart)
# The version is defined once, in include/conebench/common.h (CB_VERSION).
VERSION := $(shell sed -n 's/^#define CB_VERSION "\(.*\)"$$/\1/p' include/conebench/common.h)
SOVERSION := 0
PREFIX  ?= /usr/local
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN    := -Wall -Wextra -Werror -Wno-error=deprecated-declarations
OPT     ?= -O2 -g
PKGS    := hdf5 lapacke openblas
BIN     ?= $(if $(filter build,$(BUILD)),bin/conebench,$(BUILD)/conebench)
ifeq ($(SICONOS),0)
SICONOS_CFLAGS :=
SICONOS_LIBS   :=
else
SICONOS_CFLAGS := -I/usr/include/siconos -I/usr/include/siconos/numerics
SICONOS_LIBS   := -lsiconos_numerics
endif
HAVE_SICONOS := -DCB_HAVE_SICONOS=$(if $(filter 0,$(SICONOS)),0,1)
# The game-engine adapters (src/solvers/engines/: C, with the C++ kept in one file per engine):
# Bullet 3 in double precision (libBullet*-float64), DART 6 (header-only use of its LCP solvers).
HAVE_ENGINES := -DCB_HAVE_BULLET=$(if $(filter 0,$(BULLET)),0,1) -DCB_HAVE_DART=$(if $(filter 0,$(DART)),0,1)
ENGINE_SRC := $(if $(filter 0,$(BULLET)),,src/solvers/engines/engines_bullet.cpp) \
              $(if $(filter 0,$(DART)),,src/solvers/engines/engines_dart.cpp)
ENGINE_LIBS := $(if $(filter 0,$(BULLET)),,-lBulletDynamics-float64 -lBulletCollision-float64 \
               -lLinearMath-float64) $(if $(filter 0,$(DART)),,-ldart) $(if $(strip $(ENGINE_SRC)),-lstdc++)
ENGINE_CXXFLAGS := -std=c++17 -Wall -Wextra -Werror $(OPT) -fPIC -DBT_USE_DOUBLE_PRECISION \
                   -isystem /usr/include/bullet -isystem /usr/include/eigen3
CXX     ?= g++
# Library objects are position independent (one set for libconebench.a and .so; the bits of
# every result are the same, tests/repro.sh checks it).
PIC     := -fPIC -fno-semantic-interposition
# OpenMP (GCC's libgomp) for cb_settings.threads: the kernels use CB_OMP (base.h), which is
# empty without it (OPENMP= builds serial code with the same bits).
OPENMP  ?= -fopenmp
CFLAGS_ALL = $(CSTD) $(WARN) $(OPT) $(OPENMP) $(EXTRA_CFLAGS) $(SRC_INC) $(HAVE_SICONOS) \
             $(PKG_CFLAGS) $(SICONOS_CFLAGS)
CFLAGS_BASE = $(CSTD) $(WARN) $(OPT) $(OPENMP) $(PIC) $(EXTRA_CFLAGS) $(HAVE_SICONOS) $(HAVE_ENGINES) \
              $(PKG_CFLAGS)
# What the library links against: libfclib/HDF5 (FCLIB files), KLU and CHOLMOD (SuiteSparse:
# nsn's sparse LU, ipm's sparse Cholesky), LAPACKE/OpenBLAS, libcrypto (SHA-256; Debian's HDF5
# needs it anyway), libgomp (OpenMP), libm; Siconos only with the adapters.
LIB_DEPS = $(SICONOS_LIBS) $(ENGINE_LIBS) -lfclib -lklu -lcholmod $(PKG_LIBS) -lcrypto -lz $(if $(OPENMP),-lgomp) -ldl -lm
LDLIBS  = $(LIB_DEPS)
TEST_LDLIBS := -lcmocka

SRC_INC  := -Iinclude -Isrc/core -Isrc/solvers -Isrc/io -Isrc/mech -Isrc/mech/scenarios -Isrc/bench -Isrc/studies -Icli
LIB_DIRS := src/core src/solvers $(if $(filter 0,$(SICONOS)),,src/solvers/siconos) src/io \
            src/mech src/mech/scenarios src/bench src/studies
LIB_SRC  := $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
# The public library (libconebench.a/.so: what include/conebench/ declares) is core + solvers +
# io; mech, the harness and the gate are internal static libraries (not installed) linked into
# the CLI and into the tests that test them.
API_DIRS := src/core src/solvers $(if $(filter 0,$(SICONOS)),,src/solvers/siconos) src/io
API_DIRS += $(if $(strip $(ENGINE_SRC)),src/solvers/engines)
API_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(foreach d,$(API_DIRS),$(wildcard $(d)/*.c))) \
            $(patsubst %.cpp,$(BUILD)/%.o,$(ENGINE_SRC))
MECH_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard src/mech/*.c src/mech/scenarios/*.c))
GATE_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard src/bench/gate*.c))
HARNESS_OBJ := $(filter-out $(GATE_OBJ),$(patsubst %.c,$(BUILD)/%.o,$(wildcard src/bench/*.c)))
STUDIES_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(wildcard src/studies/*.c))
LIB_OBJ  := $(API_OBJ) $(MECH_OBJ) $(HARNESS_OBJ) $(GATE_OBJ) $(STUDIES_OBJ)
CLI_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(filter-out cli/main.c,$(wildcard cli/*.c)))
LIB      := $(BUILD)/libconebench.a
MECH_A   := $(BUILD)/internal/libcb_mech.a
HARNESS_A := $(BUILD)/internal/libcb_harness.a
GATE_A   := $(BUILD)/internal/libcb_gate.a
STUDIES_A := $(BUILD)/internal/libcb_studies.a
INTERNAL_A := $(STUDIES_A) $(GATE_A) $(HARNESS_A) $(MECH_A)
SONAME   := libconebench.so.$(SOVERSION)
SOLIB    := $(BUILD)/libconebench.so.$(VERSION)
SOMAP    := $(BUILD)/conebench.map
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
TEST_SUPPORT := $(wildcard tests/support/*.c)
BENCH_SRC := $(wildcard tests/bench/*.c)
BENCH_BIN := $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
HEADERS  := $(wildcard include/conebench/*.h src/*/*.h src/*/*/*.h cli/*.h tests/support/*.h)

# Debian packages conebench needs (install-deps) and a header that proves each is present.
DEB_PKGS := build-essential pkg-config libfclib-dev libhdf5-dev libsuitesparse-dev \
            libopenblas-dev liblapacke-dev libcmocka-dev libssl-dev gnuplot-nox valgrind clang \
            libclang-rt-14-dev parallel lcov libgomp1 python3-numpy python3-scipy python3-pandas \
            python3-pil chromium zlib1g-dev \
            $(if $(filter 0,$(SICONOS)),,libsiconos-numerics-dev) \
            $(if $(filter 0,$(BULLET)),,libbullet-dev) $(if $(filter 0,$(DART)),,libdart-dev)
DEP_HEADERS := /usr/include/fclib.h /usr/include/suitesparse/klu.h \
               /usr/include/suitesparse/cholmod.h \
               /usr/include/hdf5/serial/hdf5.h /usr/include/lapacke.h \
               /usr/include/x86_64-linux-gnu/openblas-pthread/cblas.h /usr/include/cmocka.h \
               /usr/include/openssl/sha.h /usr/include/zlib.h /usr/bin/pkg-config /usr/bin/gnuplot \
               $(if $(filter 0,$(SICONOS)),,/usr/include/siconos/numerics/NumericsMatrix.h) \
               $(if $(filter 0,$(BULLET)),,/usr/include/bullet/BulletDynamics/MLCPSolvers/btDantzigSolver.h) \
               $(if $(filter 0,$(DART)),,/usr/include/dart/constraint/DantzigBoxedLcpSolver.hpp)
DEPS_STAMP := $(BUILD)/config.mk

export CONEBENCH_QUICK CONEBENCH_DATA LSAN_OPTIONS ASAN_OPTIONS

.PHONY: all lib test check coverage sanitize valgrind fuzz fuzz-run bench bench-sequences install-deps check-deps clean help demo \
        bench-check bench-baseline slurm-check reproduce xmax-figure pile-figure scaling install install-check

all: $(BIN) $(LIB) $(SOLIB)

help:
	@echo "make              build libconebench.a, libconebench.so and bin/conebench (SICONOS=0: without Siconos;"
	@echo "                  BULLET=0 DART=0: without the game-engine adapters)"
	@echo "make install      PREFIX=/usr/local: CLI, libraries, headers, conebench.pc, man page, guide, plots, campaigns, Python package"
	@echo "make install-check  install into a temporary prefix and build examples/embed with pkg-config"
	@echo "make check        the quick tier: unit tests and CLI scripts (under 3 minutes on 2 cores)"
	@echo "make test         every test: check's, the slow ones, repro matrix, install-check (CI)"
	@echo "make coverage     make check with gcov (build-cov/): HTML report, line/branch figures (lcov)"
	@echo "make sanitize     tests under ASan+UBSan (build-asan/)"
	@echo "make valgrind     tests and the bad-input corpus under valgrind memcheck"
	@echo "make fuzz         build libFuzzer targets (build-fuzz/); make fuzz-run FUZZ_SECONDS=60"
	@echo "                  (corpus kept in fuzz-corpus/, findings in fuzz-corpus/findings/)"
	@echo "make bench        benchmarks against Siconos (see BENCHMARKS.md)"
	@echo "make bench-sequences  warm-started solvers through step sequences (BENCHMARKS.md)"
	@echo "make bench-check  CI performance gate: deterministic figures vs results/baseline, time vs its REVISION"
	@echo "make bench-baseline  record results/baseline (figures + REVISION = HEAD; commit first)"
	@echo "make slurm-check  (root) the ci campaign on a one-node Slurm cluster: 4-task array, requeue, merge, report"
	@echo "make demo         run the default campaign and write results/default/report.md"
	@echo "make reproduce    every number and figure of the papers next to ours (results/reproduce/)"
	@echo "make xmax-figure  Acary Fig. 2: stop distance over (mu, mu_r) vs closed form (results/xmax/)"
	@echo "make pile-figure  Acary Fig. 5: sphere-pile regimes, hours, resumable (results/pile/)"
	@echo "make scaling      W assembly time/memory and nsgs sweep time on piles of 1e3..1e5 spheres"
	@echo "make scenes       Siconos-made step sequences (python3-siconos) in scenes/ (SCENES_DIR=...)"
	@echo "make install-deps install the Debian packages conebench needs (root, apt-get)"

install-deps:
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(DEB_PKGS)

# $(BUILD)/config.mk checks the Debian packages (installing missing ones by itself when it can:
# root + apt-get; else it prints the apt-get line) and records pkg-config flags. Make re-reads
# the Makefile once it exists, so a fresh machine needs nothing but `make test`.
$(DEPS_STAMP):
	@missing=""; for h in $(DEP_HEADERS); do [ -e "$$h" ] || missing="$$missing $$h"; done; \
	if [ -n "$$missing" ]; then \
	  echo "conebench: missing:$$missing"; \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    $(MAKE) --no-print-directory install-deps || exit 1; \
	  else \
	    echo "conebench: run: sudo apt-get install -y $(DEB_PKGS)"; exit 1; \
	  fi; \
	fi
	@mkdir -p $(BUILD)
	@{ echo "PKG_CFLAGS := $$(pkg-config --cflags $(PKGS))"; \
	   echo "PKG_LIBS := $$(pkg-config --libs $(PKGS))"; } > $@.tmp && mv $@.tmp $@

NO_DEPS_GOALS := install-deps clean help
ifneq ($(filter-out $(NO_DEPS_GOALS),$(or $(MAKECMDGOALS),all)),)
include $(DEPS_STAMP)
# The git revision built (machine.txt: merge compares it between shards); machine.o is rebuilt
# when it changes ($(BUILD)/revision.txt is rewritten only then).
REVISION := $(or $(shell git rev-parse --short=12 HEAD 2>/dev/null),unknown)$(if $(shell git status --porcelain -uno 2>/dev/null),-dirty)
$(shell mkdir -p $(BUILD) && [ "$$(cat $(BUILD)/revision.txt 2>/dev/null)" = "$(REVISION)" ] || echo "$(REVISION)" > $(BUILD)/revision.txt)
$(BUILD)/src/bench/machine.o: $(BUILD)/revision.txt
$(BUILD)/src/bench/machine.o: LAYER_INC += -DCB_REVISION='"$(REVISION)"'
endif

check-deps: $(DEPS_STAMP)


# Per-layer include paths: a layer sees include/ (public headers), its own folder and the
# folders of the layers below it; Siconos headers only in src/solvers/siconos.
INC_core      := -Iinclude -Isrc/core
INC_solvers   := -Iinclude -Isrc/solvers -Isrc/core -I/usr/include/suitesparse
INC_io        := -Iinclude -Isrc/io -Isrc/core
INC_mech      := -Iinclude -Isrc/mech -Isrc/io -Isrc/solvers -Isrc/core
INC_scenarios := -Iinclude -Isrc/mech/scenarios $(INC_mech)
INC_bench     := -Iinclude -Isrc/bench -Isrc/mech -Isrc/mech/scenarios -Isrc/io -Isrc/solvers -Isrc/core
INC_studies   := -Iinclude -Isrc/studies $(INC_bench)
INC_cli       := -Iinclude -Icli -Isrc/studies -Isrc/bench -Isrc/mech -Isrc/mech/scenarios -Isrc/io -Isrc/solvers \
                 -Isrc/core
$(BUILD)/src/core/%.o:           LAYER_INC = $(INC_core)
$(BUILD)/src/solvers/%.o:        LAYER_INC = $(INC_solvers)
$(BUILD)/src/solvers/siconos/%.o: LAYER_INC = $(INC_solvers) $(SICONOS_CFLAGS)
$(BUILD)/src/solvers/engines/%.o: LAYER_INC = $(INC_solvers) -Isrc/solvers/engines
$(BUILD)/src/io/%.o:             LAYER_INC = $(INC_io)
$(BUILD)/src/mech/%.o:           LAYER_INC = $(INC_mech)
$(BUILD)/src/mech/scenarios/%.o: LAYER_INC = $(INC_scenarios)
$(BUILD)/src/bench/%.o:          LAYER_INC = $(INC_bench)
$(BUILD)/src/studies/%.o:        LAYER_INC = $(INC_studies)
$(BUILD)/cli/%.o:                LAYER_INC = $(INC_cli)

# `make V=1` shows full command lines.
Q := $(if $(V),,@)
$(BUILD)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC $<")
	$(Q)$(CC) $(CFLAGS_BASE) $(LAYER_INC) -MMD -MP -c $< -o $@
# The engine adapters' C++ (src/solvers/engines/*.cpp: behind C entry points).
$(BUILD)/%.o: %.cpp | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CXX $<")
	$(Q)$(CXX) $(ENGINE_CXXFLAGS) $(LAYER_INC) -MMD -MP -c $< -o $@

$(LIB): $(API_OBJ)
$(MECH_A): $(MECH_OBJ)
$(HARNESS_A): $(HARNESS_OBJ)
$(GATE_A): $(GATE_OBJ)
$(STUDIES_A): $(STUDIES_OBJ)
# (Rebuilt when the Makefile changes: which objects go where is decided here.)
$(LIB) $(INTERNAL_A): Makefile
	@mkdir -p $(dir $@); rm -f $@
	@$(if $(Q),echo "  AR $@")
	$(Q)ar rcs $@ $(filter %.o,$^)

# The shared library exports what the public headers declare (scripts/export_map.sh) and, but
# under the sanitizers (whose runtime only the executable carries), leaves nothing undefined.
SO_NOUNDEF ?= -Wl,--no-undefined
$(SOMAP): $(wildcard include/conebench/*.h) scripts/export_map.sh | $(DEPS_STAMP)
	$(Q)sh scripts/export_map.sh include/conebench > $@
$(SOLIB): $(API_OBJ) $(SOMAP)
	@$(if $(Q),echo "  LD $@")
	$(Q)$(CC) -shared -Wl,-soname,$(SONAME) $(SO_NOUNDEF) -Wl,--version-script=$(SOMAP) \
	  -o $@ $(API_OBJ) $(LIB_DEPS)
	$(Q)ln -sf libconebench.so.$(VERSION) $(BUILD)/$(SONAME)
	$(Q)ln -sf libconebench.so.$(VERSION) $(BUILD)/libconebench.so

lib: $(LIB) $(SOLIB)

# The CLI exports the public API (the symbols of the shared library's version script) so that
# the solver plugins it loads resolve their calls into it (include/conebench/plugin.h).
DYNLIST := $(BUILD)/conebench.dynlist
$(DYNLIST): $(SOMAP)
	$(Q){ echo "{"; grep -o 'cb_[A-Za-z0-9_]*;' $<; echo "};"; } > $@
$(BIN): $(BUILD)/cli/main.o $(CLI_OBJ) $(INTERNAL_A) $(LIB) $(DYNLIST)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD $@")
	$(Q)$(CC) $(CFLAGS_ALL) -Wl,--dynamic-list=$(DYNLIST) -o $@ $(BUILD)/cli/main.o $(CLI_OBJ) \
	  $(INTERNAL_A) -Wl,--whole-archive $(LIB) -Wl,--no-whole-archive $(LDLIBS)

# Each test links what it tests: the public library, and the internal libraries only for the
# tests of mech (TEST_MECH), of the harness (TEST_HARNESS) and of the gate (TEST_GATE). Test
# objects are compiled like the library's (-MMD: each depends on the headers it includes).
TEST_MECH    := test_compliant test_factored test_filippov test_filippov_check test_mechanics
TEST_HARNESS := test_figures test_harness test_gnuplot test_markdown test_loop
TEST_GATE    := test_gate
TEST_STUDIES := test_filippov_study test_reproduce
test_link = $(if $(filter $1,$(TEST_STUDIES)),$(STUDIES_A) $(HARNESS_A) $(MECH_A), \
            $(if $(filter $1,$(TEST_GATE)),$(GATE_A) $(HARNESS_A) $(MECH_A), \
            $(if $(filter $1,$(TEST_HARNESS)),$(HARNESS_A) $(MECH_A), \
            $(if $(filter $1,$(TEST_MECH)),$(MECH_A))))) $(LIB)
TEST_SUPPORT_OBJ := $(patsubst %.c,$(BUILD)/%.o,$(TEST_SUPPORT))
$(BUILD)/tests/%.o: LAYER_INC = $(SRC_INC) -Isrc/mech/scenarios -Itests/support \
  -I/usr/include/suitesparse $(SICONOS_CFLAGS)
.SECONDEXPANSION:
$(TEST_BIN): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(TEST_SUPPORT_OBJ) $$(call test_link,$$*)
	@$(if $(Q),echo "  LD $@")
	$(Q)$(CC) $(CFLAGS_ALL) -o $@ $< $(TEST_SUPPORT_OBJ) $(call test_link,$*) $(LDLIBS) \
	  $(TEST_LDLIBS) $(TEST_LDFLAGS)
# The allocation-failure test sees every malloc/calloc/realloc/free of the library (it fails
# each allocation of a solve in turn).
$(BUILD)/tests/test_alloc_fail: TEST_LDFLAGS = -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free \
  -lsuitesparseconfig

$(BUILD)/bench/%: tests/bench/%.c $(MECH_A) $(LIB) $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -O3 -march=native -o $@ $< $(MECH_A) $(LIB) $(LDLIBS)

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(BUILD)/cli/main.d $(TEST_BIN:=.d) $(TEST_SUPPORT_OBJ:.o=.d)

# make test: every test program and CLI script, TEST_JOBS at a time (each one's output printed
# whole when it ends, with its wall seconds), then the reproducibility, layer and install checks;
# a failing test fails `make test` after all have run.
TEST_JOBS ?= 2
TEST_RUNS := $(addprefix check-run/,$(notdir $(TEST_BIN)) $(notdir $(wildcard tests/cli_*.sh)))
test: $(BIN) $(SOLIB) $(TEST_BIN)
	@fail=0; $(MAKE) --no-print-directory -k -j$(TEST_JOBS) --output-sync=target CHECK_QUICK= \
	  $(TEST_RUNS) || fail=1; \
	echo "== tests/repro.sh"; bash tests/repro.sh $(BIN) || fail=1; \
	echo "== tests/check_layers.sh"; bash tests/check_layers.sh . $(BUILD) || fail=1; \
	if [ -n "$(SANITIZED)" ]; then echo "== tests/install_check.sh: skipped under the sanitizers" \
	  "(a program without their runtime cannot link the instrumented libconebench.so)"; \
	else echo "== tests/install_check.sh"; bash tests/install_check.sh "$(MAKE)" $(BUILD) $(SICONOS) || fail=1; fi; \
	if [ "$(SICONOS)" = 0 ]; then echo "== tests/check_no_siconos.sh"; \
	  bash tests/check_no_siconos.sh $(BUILD) "$(NOSICONOS_CPP)" || fail=1; fi; \
	if [ $$fail = 0 ]; then echo "make test: all test programs passed"; else echo "make test: FAILURES"; fi; \
	exit $$fail

# make check: the unit tests and CLI scripts that run in under 3 minutes on 2 cores, two at a
# time (CHECK_JOBS), each one's output printed whole when it ends. CHECK_SLOW, the slowest, are
# left to make test; CHECK_QUICK run with CONEBENCH_QUICK=1 (fewer samples, same assertions).
CHECK_SLOW  := cli_verdict.sh
CHECK_QUICK := test_pfp_eg test_cone test_gate test_generate test_mechanics test_filippov \
               test_io_fclib test_nsgs cli_limits.sh cli_plugin.sh cli_strict_inputs.sh
CHECK_JOBS  ?= 2
CHECK_RUNS  := $(addprefix check-run/,$(filter-out $(CHECK_SLOW),$(notdir $(TEST_BIN)) \
               $(notdir $(wildcard tests/cli_*.sh))) check_layers.sh)
check: $(BIN) $(SOLIB) $(TEST_BIN)
	@$(MAKE) --no-print-directory -k -j$(CHECK_JOBS) --output-sync=target $(CHECK_RUNS) \
	  && echo "make check: all passed" || { echo "make check: FAILURES"; exit 1; }
check-run/check_layers.sh:
	@echo "== tests/check_layers.sh"; bash tests/check_layers.sh . $(BUILD)
check-run/%.sh:
	@echo "== tests/$*.sh"; t0=$$(date +%s); \
	  CONEBENCH_QUICK=$(if $(filter $*.sh,$(CHECK_QUICK)),1,$$CONEBENCH_QUICK) \
	  bash tests/$*.sh "$(TEST_RUNNER)" $(BIN); rc=$$?; \
	  echo "-- tests/$*.sh: exit $$rc, $$(( $$(date +%s) - t0 )) s"; exit $$rc
check-run/%:
	@echo "== $(BUILD)/tests/$*"; t0=$$(date +%s); \
	  CONEBENCH_QUICK=$(if $(filter $*,$(CHECK_QUICK)),1,$$CONEBENCH_QUICK) \
	  CONEBENCH_BIN=$(BIN) OPENBLAS_NUM_THREADS=1 $(TEST_RUNNER) $(BUILD)/tests/$*; rc=$$?; \
	  echo "-- $(BUILD)/tests/$*: exit $$rc, $$(( $$(date +%s) - t0 )) s"; exit $$rc

# make check built with gcov counters (build-cov/, -O0), then lcov: HTML report in
# build-cov/coverage/, line and branch figures of src/ and cli/ (a failing test still reports).
COV := build-cov
LCOV := lcov --quiet --rc lcov_branch_coverage=1
coverage:
	@command -v lcov >/dev/null || { echo "conebench: coverage needs lcov (apt-get install lcov)"; exit 1; }
	@find $(COV) -name '*.gcda' -delete 2>/dev/null; fail=0; \
	$(MAKE) --no-print-directory check BUILD=$(COV) BIN=$(COV)/conebench OPT="-O0 -g" \
	  EXTRA_CFLAGS=--coverage SO_NOUNDEF=--coverage || fail=1; \
	$(LCOV) --capture --directory $(COV) --output-file $(COV)/all.info && \
	$(LCOV) --extract $(COV)/all.info '$(CURDIR)/src/*' '$(CURDIR)/cli/*' -o $(COV)/coverage.info && \
	genhtml --quiet --branch-coverage -o $(COV)/coverage $(COV)/coverage.info && \
	echo "coverage report: $(COV)/coverage/index.html" && \
	lcov --summary $(COV)/coverage.info --rc lcov_branch_coverage=1 || fail=1; exit $$fail

# What tests/check_no_siconos.sh preprocesses every source with: the include paths of every layer
# and of the tests (SICONOS=0: no Siconos -I).
NOSICONOS_CPP = $(CC) $(CSTD) $(SRC_INC) -Isrc/mech/scenarios -Itests/support \
                -I/usr/include/suitesparse $(HAVE_SICONOS) $(PKG_CFLAGS) $(SICONOS_CFLAGS)

# OpenBLAS single-threaded throughout: on a loaded machine LSan now and then reported a 152-byte
# calloc at exit of quick CLI runs (not reproducible when idle); OpenBLAS starts its worker
# threads at load, and a thread still starting at exit would leave its TLS block so.
# OPENMP=-fopenmp=libgomp: clang's own -fopenmp links LLVM's libomp, whose dynamic TLS makes
# LeakSanitizer's tracer crash at exit ("Tracer caught signal 11", test_pfp_eg every time);
# with GCC's runtime named, clang compiles the OpenMP pragmas as serial code (the same bits).
sanitize:
	OPENBLAS_NUM_THREADS=1 $(MAKE) --no-print-directory test BUILD=build-asan BIN=build-asan/conebench CC=clang \
	  OPENMP=-fopenmp=libgomp \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  SO_NOUNDEF= SANITIZED=1 CONEBENCH_QUICK=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  ASAN_OPTIONS=fast_unwind_on_malloc=0

valgrind: $(BIN) $(TEST_BIN)
	$(MAKE) --no-print-directory test CONEBENCH_QUICK=1 \
	  TEST_RUNNER="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"

FUZZ_BIN := $(patsubst tests/fuzz/%.c,build-fuzz/%,$(FUZZ_SRC))
FUZZ_SECONDS ?= 60
# Corpus kept between runs (git-ignored, not removed by `make clean`): fuzz-corpus/TARGET/;
# crashing inputs: fuzz-corpus/findings/TARGET-crash-*; full log: build-fuzz/TARGET.log.
# FUZZ_TARGETS narrows the run (e.g. FUZZ_TARGETS=fuzz_read_problem).
FUZZ_CORPUS ?= fuzz-corpus
FUZZ_TARGETS ?= $(notdir $(FUZZ_BIN))
FUZZ_ENV := ASAN_OPTIONS=fast_unwind_on_malloc=0:allocator_may_return_null=1 \
            LSAN_OPTIONS=suppressions=$(CURDIR)/tests/fuzz/lsan.supp
build-fuzz/lib/%.o: %.c $(HEADERS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	clang $(CSTD) $(WARN) -O1 -g -fsanitize=fuzzer-no-link,address,undefined $(SRC_INC) -Isrc/mech/scenarios -I/usr/include/suitesparse $(HAVE_SICONOS) $(PKG_CFLAGS) $(SICONOS_CFLAGS) -c $< -o $@
build-fuzz/%: tests/fuzz/%.c $(patsubst %.c,build-fuzz/lib/%.o,$(LIB_SRC))
	clang $(CSTD) $(WARN) -O1 -g -fsanitize=fuzzer,address,undefined -Iinclude -Isrc/io $(PKG_CFLAGS) $(SICONOS_CFLAGS) -o $@ $^ $(LDLIBS)
fuzz: $(FUZZ_BIN)
.SECONDARY: $(patsubst %.c,build-fuzz/lib/%.o,$(LIB_SRC)) # keep them: no full rebuild next time
# Each target in turn; the status of every fuzzer counts (a finding fails the run).
fuzz-run: fuzz
	@for n in $(FUZZ_TARGETS); do mkdir -p $(FUZZ_CORPUS)/$$n $(FUZZ_CORPUS)/findings; \
	  echo "== $$n for $(FUZZ_SECONDS) s (corpus $(FUZZ_CORPUS)/$$n, log build-fuzz/$$n.log)"; \
	  rc=0; $(FUZZ_ENV) build-fuzz/$$n -artifact_prefix=$(FUZZ_CORPUS)/findings/$$n- \
	    -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -print_final_stats=1 \
	    $(FUZZ_CORPUS)/$$n tests/fuzz/seeds/$$n >build-fuzz/$$n.log 2>&1 || rc=$$?; \
	  grep -E '^#[0-9]+[[:space:]]+DONE|^Done [0-9]+ runs|^stat::number_of_executed_units|^stat::peak_rss_mb' build-fuzz/$$n.log; \
	  if [ $$rc != 0 ]; then tail -25 build-fuzz/$$n.log; \
	    echo "fuzz-run: $$n FAILED (exit $$rc); input in $(FUZZ_CORPUS)/findings/"; exit 1; fi; \
	done

bench: $(BUILD)/bench/bench_siconos $(BUILD)/bench/bench_small
	$(BUILD)/bench/bench_siconos
	OPENBLAS_NUM_THREADS=1 $(BUILD)/bench/bench_small

# Warm-started solvers through step sequences (BENCHMARKS.md, sequences): a sphere-pile pour
# made here (build/sequences/pour, 101 consecutive steps) and the Siconos-made box stack and
# Kapla tower of `make scenes` when SCENES_DIR has them (else skipped, saying so).
SEQ_SOLVERS ?= siconos-nsgs nsgs nsn ipm apgd
SEQ_ARGS ?= --rounds 5 --tol 1e-8 --time-limit 2
bench-sequences: $(BUILD)/bench/bench_sequence $(BIN)
	@mkdir -p $(BUILD)/sequences; [ -d $(BUILD)/sequences/pour ] || $(BIN) generate sphere-pile --param n=60 --param t_end=1.5 \
	  --steps 1000:1100:1 -o $(BUILD)/sequences/pour >/dev/null
	@for d in $(BUILD)/sequences/pour $(SCENES_DIR)/box-stack $(SCENES_DIR)/kapla; do \
	  if [ -d $$d ]; then OPENBLAS_NUM_THREADS=1 $(BUILD)/bench/bench_sequence $$d $(SEQ_ARGS) \
	    $(SEQ_SOLVERS) || exit 1; \
	  else echo "bench-sequences: $$d skipped: absent (make scenes writes it)"; fi; done

# W memory, assembly time and nsgs sweep time per contact on piles of 1e3, 1e4, 1e5 spheres
# (about 5 minutes and 3 GB at 1e5; SCALING_ARGS=--quick stops at 1e4).
SCALING_ARGS ?=
scaling: $(BUILD)/bench/bench_scaling
	$(BUILD)/bench/bench_scaling $(SCALING_ARGS)

# The CI performance gate: the ci campaign's deterministic figures against
# results/baseline/bench.csv (exact), and time against the binary of the revision in
# results/baseline/REVISION, built once under build-baseline/ and run interleaved with ours.
bench-check: $(BIN)
	$(BIN) bench-check --baseline results/baseline
bench-baseline: $(BIN)
	$(BIN) bench-check --baseline results/baseline --write-baseline

# conebench on a real Slurm cluster of one node (tests/slurm_check.sh): as root, installs
# slurm-wlm and munge if missing, starts the daemons in a temporary directory, runs the ci
# campaign as a 4-task job array with a requeued task, merges, reports, compares with an
# unsharded run and stops every daemon it started. Skipped (with a message) when not root.
slurm-check: $(BIN)
	bash tests/slurm_check.sh $(BIN)

# Every number and figure of the papers next to ours (results/reproduce/report.md).
reproduce: $(BIN)
	OPENBLAS_NUM_THREADS=1 $(BIN) reproduce -o results/reproduce --jobs 2
	$(BIN) filippov map -o results/reproduce/filippov
	$(BIN) filippov check -o results/reproduce/filippov
	sh scripts/xmax_grid.sh $(BIN) results/reproduce/xmax 2

# Acary & Bourrier Fig. 2: X_max of the rolling sphere over (mu, mu_r), nonsmooth vs closed form.
xmax-figure: $(BIN)
	sh scripts/xmax_grid.sh $(BIN) results/xmax 2

# Acary & Bourrier Fig. 5: the sphere-pile regimes, 250 spheres over 20 s per run; mu from the
# text (0.1, 0.3, 1) and the caption (0.3, 0.5, 0.7). 30 runs: 15 s to 4 min each up to
# mu_r = 1e-2, about 36 min each at 1e-1 (mu_r = 1 is far slower still and left out): about
# 2 hours on 2 cores. Resumable: re-running skips finished runs. PILE_MU / PILE_MU_R narrow it.
PILE_MU ?= 0.1 0.3 0.5 0.7 1
PILE_MU_R ?= 1e-5 1e-4 1e-3 3e-3 1e-2 1e-1
pile-figure: $(BIN)
	sh scripts/pile_sweep.sh $(BIN) results/pile 2 "$(PILE_MU)" "$(PILE_MU_R)"

# Step sequences made by Siconos' own mechanics (python3-siconos, Bullet): SCENES_DIR/SCENE/
# SCENE-stepN.dat/.ids/.meta/.sol (scripts/siconos_scenes.py --help). SCENES picks the scenes,
# SCENES_ARGS passes sizes (e.g. "--levels 20 --steps 200"). Skipped, saying so, without
# python3-siconos (the script's exit status 77).
SCENES_DIR ?= scenes
SCENES ?= all
SCENES_ARGS ?=
PYTHON3 ?= /usr/bin/python3
.PHONY: scenes
scenes:
	@rc=0; $(PYTHON3) scripts/siconos_scenes.py -o $(SCENES_DIR) $(SCENES_ARGS) $(SCENES) || rc=$$?; \
	if [ $$rc = 77 ]; then echo "make scenes: skipped: python3-siconos is not installed"; rc=0; fi; \
	exit $$rc

# The main job: run the default campaign (isolated runs, 2 at a time) and write the report
# (--resume: a second `make demo` continues or reuses the same results).
DEMO_DIR ?= results/default
demo: $(BIN)
	$(BIN) run default -o $(DEMO_DIR) --jobs 2 --resume
	$(BIN) report $(DEMO_DIR) --html
	@echo "conebench: open $(DEMO_DIR)/report.md (figures in $(DEMO_DIR)/figures/) or $(DEMO_DIR)/report.html (one page)"

# Install (DESTDIR for staging): the CLI, both libraries, the public headers, conebench.pc,
# the man page, the user guide (share/doc/conebench), and the gnuplot scripts and campaigns the
# CLI finds in PREFIX/share/conebench, and the Python package.
DOCS := $(wildcard docs/conebench.1)
# The Python package (python/conebench, docs/python.md) goes to PYDIR/conebench (Debian's
# python3 reads PREFIX/lib/python3/dist-packages for PREFIX=/usr; docs/python.md says what to do
# for other prefixes); libdir.txt in it tells it where the installed library is.
PYDIR ?= $(PREFIX)/lib/python3/dist-packages
install: $(BIN) $(LIB) $(SOLIB)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	  $(DESTDIR)$(PREFIX)/include/conebench $(DESTDIR)$(PREFIX)/share/conebench/plots \
	  $(DESTDIR)$(PREFIX)/share/conebench/campaigns $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/doc/conebench
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/conebench
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/libconebench.a
	install -m 755 $(SOLIB) $(DESTDIR)$(PREFIX)/lib/libconebench.so.$(VERSION)
	ln -sf libconebench.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf libconebench.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libconebench.so
	install -m 644 include/conebench/*.h $(DESTDIR)$(PREFIX)/include/conebench/
	install -m 644 plots/*.gp $(DESTDIR)$(PREFIX)/share/conebench/plots/
	install -m 644 campaigns/*.conf $(DESTDIR)$(PREFIX)/share/conebench/campaigns/
	$(if $(DOCS),install -m 644 $(DOCS) $(DESTDIR)$(PREFIX)/share/man/man1/)
	install -m 644 docs/guide.md $(DESTDIR)$(PREFIX)/share/doc/conebench/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
	  -e 's|@SICONOS_LIBS@|$(SICONOS_LIBS)|g' -e 's|@ENGINE_LIBS@|$(ENGINE_LIBS)|g' conebench.pc.in \
	  > $(DESTDIR)$(PREFIX)/lib/pkgconfig/conebench.pc
	install -d $(DESTDIR)$(PYDIR)/conebench
	install -m 644 python/conebench/*.py $(DESTDIR)$(PYDIR)/conebench/
	printf '%s\n' '$(PREFIX)/lib' > $(DESTDIR)$(PYDIR)/conebench/libdir.txt

# make install into a temporary prefix, then examples/embed built with only that prefix on
# PKG_CONFIG_PATH, run, and the shared libraries it needs listed (no Siconos with SICONOS=0).
install-check: $(BIN) $(LIB) $(SOLIB)
	bash tests/install_check.sh "$(MAKE)" "$(BUILD)" "$(SICONOS)"

# fuzz-corpus/ (the fuzzers' corpus and findings) is kept.
clean:
	rm -rf build build-no* build-asan build-cov build-fuzz bin
