# cakrylov: communication-avoiding and communication-hiding BiCGStab solvers for PETSc.
#
#   make run              set up, build, and run the main job: 3D Helmholtz multigrid, bcgs vs cabicgstab bottom solver
#   make                  build lib/libcakrylov.so against PETSc
#   make test             run the regression suite (PETSc's test harness); search=PATTERN selects
#   make test-portability the suite under the BLAS kernels of other processors (OPENBLAS_CORETYPE Haswell, SkylakeX,
#                         Sandybridge, Zen), one summary line each (PORTABILITY=shared: each test under one of them)
#   make test-list        the names of the suite's tests
#   make test-petsc-latest the suite against the newest PETSc (3.26.1, built once into ~/.cache/cakrylov, about 15 min)
#   make demo             load the plugin into a PETSc program and solve with each type
#   make bench            every benchmark in turn (merged, overlap, bottom, s-study, pmpi-demo, method map), CSV + PNG + a dated
#                         report (QUICK=1: a few minutes, in share/bench/results/quick/); make bench-merged, bench-overlap,
#                         bench-bottom, bench-sstudy, bench-methodmap, pmpi, pmpi-check, pmpi-demo: one of them
#                         (share/bench/makefile says what each does)
#   make format           apply the C style (.clang-format, PETSc's) to every source; make format-check: fail on a difference
#   make install PREFIX=  install headers, library and cakrylov.pc
#   make clean            remove build/ and lib/
#
# PETSc is found through PETSC_DIR/PETSC_ARCH; unset, Debian's PETSc 3.18 is used.

CAKRYLOV_DIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
PETSC_DIR    ?= /usr/lib/petscdir/petsc3.18/x86_64-linux-gnu-real
PETSC_ARCH   ?=

ifeq ($(wildcard $(PETSC_DIR)/lib/petsc/conf/variables),)
ifeq ($(MAKECMDGOALS),run)
# `make run` on a fresh machine: set up first, then run with PETSc present
run:
	@bash $(CAKRYLOV_DIR)/share/setup.sh
	@$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) run
.PHONY: run
else
  $(error No PETSc at PETSC_DIR=$(PETSC_DIR): run share/setup.sh, or set PETSC_DIR (and PETSC_ARCH) to your PETSc)
endif
else

# Compilers, flags and PETSC_LIB come from PETSc itself (its variables only: its rules define targets of
# their own, `clean` among them, with a single colon in some versions and a double one in others).
include $(PETSC_DIR)/lib/petsc/conf/variables

.DEFAULT_GOAL := all

# A build belongs to one PETSc: build/ and lib/ (make test-petsc-latest builds into build/petsc-latest/ instead);
# a build made against another PETSC_DIR/PETSC_ARCH is removed first, objects, tests and library alike.
BUILDDIR  ?= $(CAKRYLOV_DIR)/build
LIBDIR    ?= $(CAKRYLOV_DIR)/lib
PETSC_BUILD_ID := $(PETSC_DIR) $(PETSC_ARCH)
ifneq ($(PETSC_BUILD_ID),$(shell cat $(BUILDDIR)/petsc-build-id 2>/dev/null))
  $(shell rm -rf $(addprefix $(BUILDDIR)/,obj tests tutorials petsc-examples bench run) $(LIBDIR)/libcakrylov.*; mkdir -p $(BUILDDIR); echo '$(PETSC_BUILD_ID)' > $(BUILDDIR)/petsc-build-id)
endif
LIBNAME_CAKRYLOV := $(LIBDIR)/libcakrylov.$(SL_LINKER_SUFFIX)
PREFIX    ?= /usr/local
VERSION   := $(shell sed -n 's/^\#define CAKRYLOV_VERSION_STRING "\(.*\)"/\1/p' $(CAKRYLOV_DIR)/include/cakrylov.h)

CAKRYLOV_CFLAGS   := -Wall -Wextra -fvisibility=hidden
CAKRYLOV_INCLUDES := -I$(CAKRYLOV_DIR)/include
# What a program that links the library needs (the tests use it too).
CAKRYLOV_LIB      := -Wl,-rpath,$(LIBDIR) -L$(LIBDIR) -lcakrylov

SRCS := $(sort $(shell cd $(CAKRYLOV_DIR) && find src -name '*.c'))
OBJS := $(SRCS:%.c=$(BUILDDIR)/obj/%.o)

all: $(LIBNAME_CAKRYLOV)

$(BUILDDIR)/obj/%.o: $(CAKRYLOV_DIR)/%.c
	@mkdir -p $(@D)
	@echo '  CC    $<'
	@$(PCC) -c $(PCC_FLAGS) $(CAKRYLOV_CFLAGS) $(CFLAGS) $(CAKRYLOV_INCLUDES) $(PETSC_CCPPFLAGS) $(C_DEPFLAGS) $< -o $@

$(LIBNAME_CAKRYLOV): $(OBJS)
	@mkdir -p $(@D)
	@echo '  LINK  $@'
	@$(CLINKER) -shared -Wl,-soname,$(@F) -o $@ $(OBJS) $(PETSC_LIB)

-include $(OBJS:%.o=%.d)

# ---- tests: PETSc's harness, driven by gmakefile.test ----
TESTDIR := $(BUILDDIR)/tests
test: all $(BUILDDIR)/petsc-examples/ex2 $(BUILDDIR)/petsc-examples/ex23 $(BUILDDIR)/petsc-examples/ex45 $(BUILDDIR)/petsc-examples/ex79 $(BUILDDIR)/petsc-examples/snes-ex19
	@$(MAKE) --no-print-directory -f $(CAKRYLOV_DIR)/gmakefile.test CAKRYLOV_DIR=$(CAKRYLOV_DIR) \
	  CAKRYLOV_LIBDIR=$(LIBDIR) CAKRYLOV_BUILDDIR=$(BUILDDIR) PETSC_DIR=$(PETSC_DIR) PETSC_ARCH=$(PETSC_ARCH) TESTDIR=$(TESTDIR) test

test-list:
	@$(MAKE) --no-print-directory -f $(CAKRYLOV_DIR)/gmakefile.test CAKRYLOV_DIR=$(CAKRYLOV_DIR) \
	  CAKRYLOV_LIBDIR=$(LIBDIR) CAKRYLOV_BUILDDIR=$(BUILDDIR) PETSC_DIR=$(PETSC_DIR) PETSC_ARCH=$(PETSC_ARCH) TESTDIR=$(TESTDIR) print-tests

# ---- the suite under the BLAS kernels of other processors (OpenBLAS picks its ddot/dnrm2 by CPU), and against the
#      newest PETSc release (built once from PyPI's source distribution into ~/.cache/cakrylov by share/petsc-latest.sh) ----
#      PORTABILITY=shared: each test under one of the kernel sets (CI), not the whole suite under each. Without
#      -malloc_debug's check of the heap at every allocation (TEST_MALLOC=): make test has run these binaries with it.
PORTABILITY_CORETYPES ?= Haswell SkylakeX Sandybridge Zen
PORTABILITY           ?= whole
test-portability: all $(BUILDDIR)/petsc-examples/ex2 $(BUILDDIR)/petsc-examples/ex23 $(BUILDDIR)/petsc-examples/ex45 $(BUILDDIR)/petsc-examples/ex79
	@PORTABILITY=$(PORTABILITY) bash $(CAKRYLOV_DIR)/share/test-portability.sh "$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) TEST_MALLOC=" \
	  $(BUILDDIR)/portability $(BUILDDIR)/petsc-examples/ex2 $(PORTABILITY_CORETYPES)

test-petsc-latest:
	@petsc_latest=$$(bash $(CAKRYLOV_DIR)/share/petsc-latest.sh) && \
	  $(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) PETSC_DIR=$$petsc_latest PETSC_ARCH= \
	    BUILDDIR=$(CAKRYLOV_DIR)/build/petsc-latest LIBDIR=$(CAKRYLOV_DIR)/build/petsc-latest/lib test

# ---- a small demo: an unmodified PETSc program (PETSc's ksp tutorial ex2) with the plugin ----
PETSC_EXAMPLES := $(firstword $(wildcard $(PETSC_DIR)/share/petsc/examples/src $(PETSC_DIR)/src))
$(BUILDDIR)/petsc-examples/%: $(PETSC_EXAMPLES)/ksp/ksp/tutorials/%.c
	@mkdir -p $(@D)
	@$(PCC) $(PCC_FLAGS) $(PETSC_CCPPFLAGS) $< -o $@ $(PETSC_LIB)

# PETSc's SNES tutorials, named snes-exN (ex2 and others exist in both folders): snes-ex19 runs grid sequencing through PCMG
$(BUILDDIR)/petsc-examples/snes-%: $(PETSC_EXAMPLES)/snes/tutorials/%.c
	@mkdir -p $(@D)
	@$(PCC) $(PCC_FLAGS) $(PETSC_CCPPFLAGS) $< -o $@ $(PETSC_LIB)

demo: all $(BUILDDIR)/petsc-examples/ex2
	@$(CAKRYLOV_DIR)/share/demo.sh $(BUILDDIR)/petsc-examples/ex2 $(LIBNAME_CAKRYLOV)

# ---- the campaign: PETSc's own example programs with each cakrylov type (share/petsc-examples/programs.txt lists them
#      and why); a program absent from this PETSc's examples is skipped by the driver, saying so ----
CAMPAIGN_LIST := $(CAKRYLOV_DIR)/share/petsc-examples/programs.txt
CAMPAIGN_SRCS := $(sort $(shell sed -n 's/^[^\#|]*| *\([^ |]*\.c\) *|.*/\1/p' $(CAMPAIGN_LIST)))
CAMPAIGN_BINS := $(foreach s,$(CAMPAIGN_SRCS),$(if $(wildcard $(PETSC_EXAMPLES)/$(s)),$(BUILDDIR)/petsc-examples/src/$(s:.c=)))
$(BUILDDIR)/petsc-examples/src/%: $(PETSC_EXAMPLES)/%.c
	@mkdir -p $(@D)
	@echo '  CC    $<'
	@$(PCC) $(PCC_FLAGS) $(PETSC_CCPPFLAGS) $< -o $@ $(PETSC_LIB)

test-petsc-examples: all $(CAMPAIGN_BINS)
	@python3 $(CAKRYLOV_DIR)/share/petsc-examples/campaign.py --list $(CAMPAIGN_LIST) --petsc-dir $(PETSC_DIR) \
	  --petsc-arch "$(PETSC_ARCH)" --bindir $(BUILDDIR)/petsc-examples/src --lib $(LIBNAME_CAKRYLOV) $(CAMPAIGN_ARGS)

# the same against the newest PETSc (3.26.1, built once into ~/.cache/cakrylov), in the build of test-petsc-latest
test-petsc-examples-latest:
	@petsc_latest=$$(bash $(CAKRYLOV_DIR)/share/petsc-latest.sh) && \
	  $(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) PETSC_DIR=$$petsc_latest PETSC_ARCH= \
	    BUILDDIR=$(BUILDDIR)/petsc-latest LIBDIR=$(BUILDDIR)/petsc-latest/lib test-petsc-examples

# ---- the main job: the 3D Helmholtz tutorial with bcgs and cabicgstab as multigrid bottom solver, side by side ----
$(BUILDDIR)/tutorials/%: $(CAKRYLOV_DIR)/tutorials/%.c $(LIBNAME_CAKRYLOV)
	@mkdir -p $(@D)
	@echo '  CC    $<'
	@$(PCC) $(PCC_FLAGS) $(CAKRYLOV_CFLAGS) $(CAKRYLOV_INCLUDES) -I$(CAKRYLOV_DIR)/share/problems $(PETSC_CCPPFLAGS) $< -o $@ $(CAKRYLOV_LIB) $(PETSC_LIB)

run: all $(BUILDDIR)/tutorials/ex1 $(BUILDDIR)/bench/libcakpmpi.so
	@bash $(CAKRYLOV_DIR)/share/setup.sh
	@$(CAKRYLOV_DIR)/share/run.sh $(BUILDDIR)/tutorials/ex1 $(BUILDDIR)/run $(BUILDDIR)/bench/libcakpmpi.so $(RUN_ARGS)

# ---- the benchmarks (make bench, bench-*, pmpi*): share/bench/makefile ----
include $(CAKRYLOV_DIR)/share/bench/makefile

# ---- formatting: PETSc's C style (.clang-format), with Debian's clang-format (apt-get install clang-format) ----
FORMAT_SOURCES = $(shell cd $(CAKRYLOV_DIR) && git ls-files '*.c' '*.h' 2>/dev/null)
format:
	@cd $(CAKRYLOV_DIR) && clang-format -i $(FORMAT_SOURCES)
format-check:
	@cd $(CAKRYLOV_DIR) && clang-format --dry-run --Werror $(FORMAT_SOURCES) && echo "format-check: $(words $(FORMAT_SOURCES)) files formatted"

# ---- install ----
install: all
	@mkdir -p $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig
	cp $(CAKRYLOV_DIR)/include/cakrylov.h $(DESTDIR)$(PREFIX)/include/
	cp $(LIBNAME_CAKRYLOV) $(DESTDIR)$(PREFIX)/lib/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' \
	    -e 's|@PETSC_INCLUDES@|$(PETSC_CC_INCLUDES)|g' -e 's|@PETSC_LIB@|$(PETSC_LIB)|g' \
	    $(CAKRYLOV_DIR)/share/cakrylov.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/cakrylov.pc
	@echo "Installed cakrylov $(VERSION) in $(DESTDIR)$(PREFIX)"

clean:
	rm -rf $(BUILDDIR) $(LIBDIR)

.PHONY: all test test-list test-portability test-petsc-latest test-petsc-examples test-petsc-examples-latest demo run install clean format format-check

endif # PETSc present
