# tensoralias - build, test, sanitize, fuzz, install.
#
# Sources are found by directory, so a new file needs no Makefile edit:
#   src/{base,schema,extract,alias,exec}/**.c (any subdirectory)
#                                 -> build/libtensoralias.{a,so}, built with
#                                    -fvisibility=hidden: only TA_API is exported;
#                                    with build/gen/default_ops.c, generated
#   src/refkernels/*.c            -> build/libtensoralias_refkernels.so (CPU reference kernels)
#   src/cuda/*.c, src/cuda/*.cu   -> build/libtensoralias_cuda.so (when nvcc is found and CUDA != 0)
#   src/torch/*.cpp               -> build/libtensoralias_torch.so (the libtorch bridge; when
#                                    libtorch's headers are found and TORCH != 0), or
#                                    build/torch/KEY/ for TORCH=DIR (any torch's folder)
#   tests/torchext/*.cpp          -> build/tests/torchext/lib*.so (TORCH_LIBRARY test extensions)
#   tools/tensoralias/*.c         -> build/tensoralias
#   tools/bench/bench_*.c         -> build/bench/bench_* (one program a file)
#   tools/bench/*.c, the others   -> helpers linked into every benchmark (benchlib.c, irlib.c)
#   tools/bench/scan/yaml_scan.c  -> build/bench/yaml_scan (libyaml alone: bench_command's floor)
#   tests/unit/test_*.c           -> build/tests/test_* (cmocka), run by tests/run.sh
#   tests/plugins/*.c             -> build/tests/plugins/lib*.so (kernel plugins used by tests)
#   tests/fuzz/fuzz_*.c           -> build-fuzz/fuzz_* (libFuzzer, clang)
#   tests/data/**/*.xz            -> build/data/** (decompressed)

BUILD    ?= build
CC       ?= cc
PREFIX   ?= /usr/local
DESTDIR  ?=
WERROR   ?=
OPT      ?= -O2
SAN      ?=
FAULT    ?=
FUZZ_SECONDS ?= 60
# make test T=PATTERN runs only the tests whose name (test_alias_query,
# gates: the file name without .sh) matches the shell pattern.
T        ?=
# Where SARIF's helpUri points (docs/rules.md of the published tree; see
# tools/tensoralias/sarif.h); empty: the project's own. Rebuild after a change.
SARIF_HELP_BASE ?=
# The version is include/tensoralias/version.h's; the SONAME carries its major.
VERSION  := $(shell sed -n 's/^\#define TA_VERSION_STRING "\(.*\)"/\1/p' include/tensoralias/version.h)
SOMAJOR  := $(firstword $(subst ., ,$(VERSION)))
SONAME   := libtensoralias.so.$(SOMAJOR)

PKGS     := yaml-0.1 igraph jansson
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
PKG_LIBS   := $(shell pkg-config --libs $(PKGS))
CMOCKA_CFLAGS := $(shell pkg-config --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   := $(shell pkg-config --libs cmocka 2>/dev/null)

WARN     := -Wall -Wextra -Wpedantic $(WERROR)
CFLAGS   ?=
CFLAGS   += -std=c17 $(OPT) -g -fPIC -D_GNU_SOURCE $(WARN) $(SAN) $(if $(FAULT),-DTA_FAULT_INJECT) \
            -Iinclude -Isrc $(PKG_CFLAGS) \
            -DTA_VERSION='"$(VERSION)"' -DTA_DATADIR='"$(PREFIX)/share/tensoralias"' \
            $(if $(SARIF_HELP_BASE),-DTA_SARIF_HELP_BASE='"$(SARIF_HELP_BASE)"')
LDLIBS   := $(PKG_LIBS) -ldl -lm -lpthread
LDFLAGS  += $(SAN)

LIB_SRC  := $(sort $(shell find src/base src/schema src/extract src/alias src/exec -name '*.c'))
# The default operator set is data compiled in: its table is generated from
# the files it is made of (tools/gen_default_ops.sh, src/alias/ir/default_ops.h).
DEFAULT_OPS_DATA := tests/data/golden/torch-1.13.1/registered-operators.txt.xz \
                    tests/data/corpus/pytorch-main/native_functions.yaml.xz
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/default_ops.o
REF_SRC  := $(sort $(wildcard src/refkernels/*.c))
REF_OBJ  := $(REF_SRC:%.c=$(BUILD)/obj/%.o)
CLI_SRC  := $(sort $(wildcard tools/tensoralias/*.c))
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
BENCH_SRC := $(sort $(wildcard tools/bench/bench_*.c))
BENCH_BIN := $(BENCH_SRC:tools/bench/%.c=$(BUILD)/bench/%)
BENCHLIB_SRC := $(filter-out $(BENCH_SRC),$(sort $(wildcard tools/bench/*.c)))
BENCHLIB_OBJ := $(BENCHLIB_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TESTLIB_SRC := $(sort $(wildcard tests/unit/support/*.c))
TESTLIB_OBJ := $(TESTLIB_SRC:%.c=$(BUILD)/obj/%.o)
PLUGIN_SRC := $(sort $(wildcard tests/plugins/*.c))
PLUGIN_SO  := $(PLUGIN_SRC:tests/plugins/%.c=$(BUILD)/tests/plugins/lib%.so)
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
DATA_XZ  := $(shell find tests/data -name '*.xz' 2>/dev/null)
DATA_OUT := $(DATA_XZ:tests/data/%.xz=$(BUILD)/data/%)
SHARE_OUT := $(BUILD)/share/tensoralias/native_functions.yaml $(BUILD)/share/tensoralias/tags.yaml \
             $(BUILD)/share/tensoralias/registered-operators.txt \
             $(BUILD)/share/tensoralias/opinfo-samples.json
# What `verify --torch DIR` builds the bridge from on first use: its sources,
# the public headers and tools/torch-config.sh.
TORCH_KIT := $(BUILD)/share/tensoralias/torch-bridge
TORCH_KIT_OUT := $(TORCH_KIT)/torch-config.sh \
                 $(addprefix $(TORCH_KIT)/,$(wildcard src/torch/*.cpp src/torch/*.h include/tensoralias/*.h))

# CUDA: on when nvcc is found, unless CUDA=0.
NVCC     ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
CUDA     ?= $(if $(NVCC),1,0)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
CUDA_C_SRC  := $(sort $(wildcard src/cuda/*.c))
CUDA_CU_SRC := $(sort $(wildcard src/cuda/*.cu))
CUDA_OBJ := $(CUDA_C_SRC:%.c=$(BUILD)/obj/%.o) $(CUDA_CU_SRC:%.cu=$(BUILD)/obj/%.cu.o)
# Device code for Turing (sm_75, CUDA 13's oldest) through Hopper, plus PTX the
# driver can JIT for anything newer.
CUDA_ARCH ?= -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 \
             -gencode arch=compute_86,code=sm_86 -gencode arch=compute_90,code=sm_90 \
             -gencode arch=compute_90,code=compute_90
NVCCFLAGS ?= $(OPT) -g --std=c++17 $(CUDA_ARCH) -Xcompiler -fPIC,-Wall,-Wextra \
             $(if $(WERROR),-Werror all-warnings -Xcompiler -Werror) -Iinclude -Isrc $(PKG_CFLAGS)
# Linked by $(CC) (so sanitizer builds link too) against the static CUDA
# runtime: the library then needs only the driver (libcuda.so, which the runtime
# loads when a device is first used) where it runs. Like every kernel library
# it takes the ta_* runtime from its host (see WHOLE_LIB below).
CUDA_LDLIBS ?= -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/lib -lcudart_static -lstdc++ -ldl -lpthread -lrt -lm
CUDA_SO  := $(if $(filter 1,$(CUDA)),$(if $(CUDA_CU_SRC)$(CUDA_C_SRC),$(BUILD)/libtensoralias_cuda.so))

# libtorch: the bridge (src/torch), the TORCH_LIBRARY test extensions and the
# bridge's benchmark, built against one torch, with the flags
# tools/torch-config.sh gives for it (headers as system headers: no warnings
# from them). TORCH unset: Debian's libtorch-dev when its headers are found;
# TORCH=0: none; TORCH=DIR: the torch in DIR (a torch package folder as pip
# lays it out, e.g. tools/install-torch.sh's, or a libtorch folder), whose
# bridge goes to $(BUILD)/torch/KEY/ (KEY: its version and ABI), where
# `verify --torch DIR` finds it. The bridge links libtorch_cpu and libc10 only.
TORCH    ?= $(if $(wildcard /usr/include/torch/library.h),1,0)
CXX      ?= g++
TORCH_DIR := $(if $(filter 0,$(TORCH)),,$(if $(filter 1,$(TORCH)),/usr,$(TORCH)))
TORCH_CONFIG = sh tools/torch-config.sh $(TORCH_DIR)
ifneq ($(TORCH_DIR),)
TORCH_KEY    := $(shell $(TORCH_CONFIG) key)
TORCH_INC    := $(shell $(TORCH_CONFIG) cxxflags)
TORCH_LIBS   := $(shell $(TORCH_CONFIG) libs)
$(if $(TORCH_KEY),,$(error TORCH=$(TORCH): not a torch tools/torch-config.sh can build the bridge for))
endif
TORCH_CXXFLAGS = $(OPT) -g -fPIC -fvisibility=hidden -Wall -Wextra $(WERROR) $(SAN) -Iinclude -Isrc $(TORCH_INC)
TORCH_SRC := $(sort $(wildcard src/torch/*.cpp))
# Debian's torch (the default) in $(BUILD) itself; another in $(BUILD)/torch/KEY.
TORCH_OUT := $(if $(filter /usr,$(TORCH_DIR)),$(BUILD),$(BUILD)/torch/$(TORCH_KEY))
TORCH_OBJ := $(TORCH_SRC:%.cpp=$(TORCH_OUT)/obj/%.o)
TORCH_SO  := $(if $(TORCH_DIR),$(if $(TORCH_SRC),$(TORCH_OUT)/libtensoralias_torch.so))
TORCHEXT_SRC := $(sort $(wildcard tests/torchext/*.cpp))
TORCHEXT_SO  := $(if $(TORCH_SO),$(TORCHEXT_SRC:tests/torchext/%.cpp=$(TORCH_OUT)/tests/torchext/lib%.so))
# The bridge's benchmark links libtorch itself (its kernels called directly): Debian's.
BENCH_TORCH  := $(if $(filter /usr,$(TORCH_DIR)),$(if $(TORCH_SO),$(BUILD)/bench/bench_torch))

TARGETS := $(BUILD)/libtensoralias.a $(BUILD)/libtensoralias.so $(BUILD)/tensoralias \
           $(if $(REF_SRC),$(BUILD)/libtensoralias_refkernels.so) $(CUDA_SO) $(TORCH_SO) \
           $(DATA_OUT) $(SHARE_OUT) $(TORCH_KIT_OUT)

.PHONY: all test test-torch check-build sanitize fault fault-run coverage fuzz fuzz-build bench install clean
all: $(TARGETS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(OBJ_CFLAGS) -MMD -MP -c $< -o $@

# The library exports only what a public header marks TA_API; the test
# helpers need cmocka's flags, nothing else does.
$(LIB_OBJ): OBJ_CFLAGS := -fvisibility=hidden
$(TESTLIB_OBJ): OBJ_CFLAGS := $(CMOCKA_CFLAGS)

%/gen/default_ops.c: tools/gen_default_ops.sh $(DEFAULT_OPS_DATA)
	@mkdir -p $(dir $@)
	sh tools/gen_default_ops.sh $(DEFAULT_OPS_DATA) > $@.tmp && mv $@.tmp $@
$(BUILD)/obj/gen/default_ops.o: $(BUILD)/gen/default_ops.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(OBJ_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/%.cu.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -MMD -MP -MF $(@:.o=.d) -c $< -o $@

$(BUILD)/libtensoralias.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# libtensoralias.so.X.Y.Z, SONAME libtensoralias.so.X, with the two links
# (the SONAME for the loader, the bare name for -ltensoralias).
$(BUILD)/libtensoralias.so.$(VERSION): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,$(SONAME) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/libtensoralias.so: $(BUILD)/libtensoralias.so.$(VERSION)
	ln -sf libtensoralias.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf libtensoralias.so.$(VERSION) $@

# Kernel libraries leave the ta_* runtime symbols undefined: they bind to the
# host (the command or a test, linked with the whole library and -rdynamic),
# so a plugin and its host share one engine.
WHOLE_LIB = -Wl,--whole-archive $(BUILD)/libtensoralias.a -Wl,--no-whole-archive

$(BUILD)/libtensoralias_refkernels.so: $(REF_OBJ)
	$(CC) -shared $(LDFLAGS) -o $@ $(REF_OBJ) -lm

$(BUILD)/libtensoralias_cuda.so: $(CUDA_OBJ)
	$(CC) -shared $(LDFLAGS) -o $@ $(CUDA_OBJ) $(CUDA_LDLIBS)

# The command links igraph's archive when there is one: it calls none of the
# libraries igraph's .so brings in (lapack, arpack, glpk, gfortran, ... 20 of
# them), and loading those was most of its start-up. The archive's GraphML
# reader, which the command never calls, would still bring in libxml2 (and
# ICU, libstdc++): tools/tensoralias/static/no_libxml2.c stands in for it.
IGRAPH_A   := $(wildcard $(shell pkg-config --variable=libdir igraph)/libigraph.a)
IGRAPH_STATIC := -Wl,-Bstatic -ligraph -Wl,-Bdynamic -lm
CLI_STATIC_OBJ := $(if $(IGRAPH_A),$(BUILD)/obj/tools/tensoralias/static/no_libxml2.o)
CLI_LDLIBS := $(if $(IGRAPH_A),$(filter-out -ligraph,$(LDLIBS)) $(IGRAPH_STATIC),$(LDLIBS))

$(TORCH_OUT)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(TORCH_CXXFLAGS) -MMD -MP -c $< -o $@

# The libtorch bridge: a kernel library like the others (the ta_* runtime
# from its host), which alone links libtorch; not linked when a file was
# compiled against another torch's headers than TORCH's.
# the kit first: verify takes a bridge older than the kit beside it for stale
$(TORCH_OUT)/libtensoralias_torch.so: $(TORCH_OBJ) | $(TORCH_KIT_OUT)
	sh tools/torch-config.sh --check-deps $(TORCH_DIR) $(TORCH_OBJ:.o=.d)
	$(CXX) -shared $(LDFLAGS) -o $@ $(TORCH_OBJ) $(TORCH_LIBS)

# TORCH_LIBRARY test extensions: outside code built against libtorch alone.
$(TORCH_OUT)/tests/torchext/lib%.so: tests/torchext/%.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(filter-out -Iinclude -Isrc,$(TORCH_CXXFLAGS)) -fvisibility=default $(DEPFLAGS) -shared $(LDFLAGS) \
	    -o $@ $< $(TORCH_LIBS)
	sh tools/torch-config.sh --check-deps $(TORCH_DIR) $@.d

$(BUILD)/tensoralias: $(CLI_OBJ) $(CLI_STATIC_OBJ) $(BUILD)/libtensoralias.a
	$(CC) $(LDFLAGS) -rdynamic -o $@ $(CLI_OBJ) $(CLI_STATIC_OBJ) $(WHOLE_LIB) $(CLI_LDLIBS)

# Programs built from one source file in one step still write a dependency
# file (program.d), so editing a header they include rebuilds them.
DEPFLAGS = -MMD -MP -MF $@.d -MT $@

# The floor bench_command compares the command with: libyaml alone.
$(BUILD)/bench/yaml_scan: tools/bench/scan/yaml_scan.c $(BUILD)/obj/tools/bench/benchlib.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/obj/tools/bench/benchlib.o $(shell pkg-config --libs yaml-0.1)

$(BUILD)/bench/%: tools/bench/%.c $(BENCHLIB_OBJ) $(BUILD)/libtensoralias.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(LDFLAGS) -rdynamic -o $@ $< $(BENCHLIB_OBJ) $(WHOLE_LIB) $(LDLIBS)

$(BUILD)/bench/bench_torch: tools/bench/bench_torch.cpp $(BENCHLIB_OBJ) $(BUILD)/libtensoralias.a
	@mkdir -p $(dir $@)
	$(CXX) $(TORCH_CXXFLAGS) -Itools/bench $(DEPFLAGS) $(LDFLAGS) -rdynamic -o $@ $< $(BENCHLIB_OBJ) $(WHOLE_LIB) \
	    $(LDLIBS) $(TORCH_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(TESTLIB_OBJ) $(BUILD)/libtensoralias.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(CMOCKA_CFLAGS) $(DEPFLAGS) -Itests/unit $(LDFLAGS) -rdynamic -o $@ $< $(TESTLIB_OBJ) \
	    $(WHOLE_LIB) $(CMOCKA_LIBS) $(LDLIBS)

# Plugins are outside code: they see the public headers only (no -Isrc).
$(BUILD)/tests/plugins/lib%.so: tests/plugins/%.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -Isrc,$(CFLAGS)) $(DEPFLAGS) -shared $(LDFLAGS) -o $@ $<

$(BUILD)/data/%: tests/data/%.xz
	@mkdir -p $(dir $@)
	xz -dc $< > $@.tmp && mv $@.tmp $@

# The PyTorch main native_functions.yaml bundled with the command.
$(BUILD)/share/tensoralias/%: $(BUILD)/data/corpus/pytorch-main/%
	@mkdir -p $(dir $@)
	cp $< $@
$(BUILD)/share/tensoralias/tags.yaml: tests/data/corpus/pytorch-main/tags.yaml
	@mkdir -p $(dir $@)
	cp $< $@
$(TORCH_KIT)/torch-config.sh: tools/torch-config.sh
	@mkdir -p $(dir $@)
	cp $< $@
$(TORCH_KIT)/%: %
	@mkdir -p $(dir $@)
	cp $< $@
# torch 1.13.1's registered operators, with how AliasDb treats each (graph-alias).
$(BUILD)/share/tensoralias/registered-operators.txt: $(BUILD)/data/golden/torch-1.13.1/registered-operators.txt
	@mkdir -p $(dir $@)
	cp $< $@
# PyTorch 1.13.1's OpInfo samples (tools/torch/export_opinfo_samples.py), used with --kernels torch.
$(BUILD)/share/tensoralias/opinfo-samples.json: $(BUILD)/data/opinfo/samples.json
	@mkdir -p $(dir $@)
	cp $< $@

check-build: $(TARGETS) $(TEST_BIN) $(PLUGIN_SO) $(TORCHEXT_SO) $(BENCH_BIN) $(BENCH_TORCH) $(BUILD)/bench/yaml_scan

test: check-build
	BUILD=$(BUILD) SAN='$(SAN)' CC='$(CC)' CUDA='$(CUDA)' TORCH='$(if $(TORCH_SO),1,0)' T='$(T)' sh tests/run.sh

# The bridge's tests on the torch TORCH=DIR names (its bridge and test
# extension built first): `make TORCH=DIR test-torch`.
test-torch: all $(TORCHEXT_SO)
	BUILD=$(BUILD) T='verify_torch_*' TA_TORCH='$(if $(filter /usr,$(TORCH_DIR)),,$(TORCH_DIR))' \
	    TA_TORCH_OUT=$(TORCH_OUT) sh tests/run.sh

# The whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer.
sanitize:
	$(MAKE) --no-print-directory BUILD=build-san OPT=-O1 SAN='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined' test

# Allocation-failure injection (SQLite's discipline): the library built with
# TA_FAULT_INJECT under ASan and UBSan, and every program of tests/fault/
# failing each allocation of its scenarios in turn.
FAULT_SRC := $(sort $(wildcard tests/fault/fault_*.c))
fault:
	$(MAKE) --no-print-directory BUILD=build-fault OPT=-O1 FAULT=1 \
	    SAN='-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined' fault-run
fault-run: $(FAULT_SRC:tests/fault/%.c=$(BUILD)/fault/%) $(PLUGIN_SO)
	@for t in $(FAULT_SRC:tests/fault/%.c=$(BUILD)/fault/%); do echo "== $$t"; $$t $(BUILD) || exit 1; done
$(BUILD)/fault/%: tests/fault/%.c $(BUILD)/libtensoralias.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(DEPFLAGS) $(LDFLAGS) -rdynamic -o $@ $< $(WHOLE_LIB) $(LDLIBS)

# Line coverage of the whole suite, per source directory (gcov, from gcc).
coverage:
	$(MAKE) --no-print-directory BUILD=build-cov OPT=-O0 SAN='--coverage -DTA_COVERAGE' test
	@sh tools/coverage.sh build-cov

# libFuzzer targets (clang), each run for FUZZ_SECONDS on its corpus in tests/fuzz/corpus/<name>.
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=build-fuzz/%)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=build-fuzz/obj/%.o) build-fuzz/obj/gen/default_ops.o
FUZZ_CFLAGS := -std=c17 -O1 -g -D_GNU_SOURCE -Iinclude -Isrc $(PKG_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined \
               -DTA_VERSION='"$(VERSION)"' -DTA_DATADIR='"$(PREFIX)/share/tensoralias"'
build-fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@
build-fuzz/obj/gen/default_ops.o: build-fuzz/gen/default_ops.c
	@mkdir -p $(dir $@)
	clang $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@
build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJ)
	clang $(FUZZ_CFLAGS) $(DEPFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(FUZZ_LIB_OBJ) $(LDLIBS)
fuzz-build: $(FUZZ_BIN)
fuzz: fuzz-build
	@for f in $(FUZZ_BIN); do n=$${f#build-fuzz/}; mkdir -p tests/fuzz/corpus/$$n build-fuzz/new/$$n; \
	  echo "== $$n for $(FUZZ_SECONDS)s"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -timeout=10 -max_len=4096 build-fuzz/new/$$n tests/fuzz/corpus/$$n || exit 1; done

bench: all $(BENCH_BIN) $(BENCH_TORCH) $(BUILD)/bench/yaml_scan
	@for b in $(BENCH_BIN) $(BENCH_TORCH); do echo "== $$b"; $$b || exit 1; done

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/tensoralias \
	    $(DESTDIR)$(PREFIX)/share/tensoralias
	install -m 755 $(BUILD)/tensoralias $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(BUILD)/libtensoralias.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(BUILD)/libtensoralias.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libtensoralias.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf libtensoralias.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libtensoralias.so
	for f in $(BUILD)/libtensoralias_refkernels.so $(CUDA_SO) $(TORCH_SO); do [ -f "$$f" ] && install -m 755 $$f $(DESTDIR)$(PREFIX)/lib/ || true; done
	install -m 644 include/tensoralias/*.h $(DESTDIR)$(PREFIX)/include/tensoralias/
	install -m 644 $(SHARE_OUT) $(DESTDIR)$(PREFIX)/share/tensoralias/
	cd $(BUILD)/share/tensoralias && find torch-bridge -type f -exec install -D -m 644 {} \
	    $(DESTDIR)$(PREFIX)/share/tensoralias/{} \;
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' tools/tensoralias.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/tensoralias.pc

clean:
	rm -rf $(BUILD) build build-san build-fuzz build-clang build-fault build-cov

-include $(shell find $(BUILD) build-fuzz -name '*.d' 2>/dev/null)
.SECONDARY:
