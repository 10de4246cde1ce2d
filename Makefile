# The front door: `make` builds into build/, `make test` runs every test, `make site` renders
# the site, `make test-cluster` runs a campaign on a one-machine Slurm cluster, `make
# cross-aarch64`, `make check-aarch64` and `make test-aarch64` build for ARM and run that build
# and its tests under qemu-user,
# `make install` and `make package` install or package it, `make deps` installs the Debian
# packages, `make clean` removes build/ and build-aarch64/.
BUILD ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
DEB_PACKAGES = build-essential cmake pkg-config libcmark-dev libxml2-dev zlib1g-dev \
	libjansson-dev libssl-dev libcriterion-dev openssl \
	chromium python3 libseccomp-dev clang libclang-rt-dev nodejs \
	slurmctld slurmd slurm-client munge scdoc man-db dpkg-dev libdeflate-dev hugo locales xsltproc \
	cargo librust-sha2-0.9-dev
# The name of this machine's evidence: architecture and host name, e.g. x86_64-lab3.
SYSTEM ?= $(shell echo "$$(uname -m)-$$(hostname -s 2>/dev/null || echo host)" | tr -c 'A-Za-z0-9_.\n-' '-')
CMAKE_FLAGS = -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DHB_WERROR=$(if $(CI),ON,OFF)

.PHONY: all build deps test golden test-cluster site install uninstall package clean

all: build

build:
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; \
	done; command -v npm >/dev/null 2>&1 || echo npm); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "make deps: missing Debian packages:" $$missing; \
	if [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then \
		sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else \
		echo "Run this once, then try again:"; \
		echo "  sudo apt-get install -y" $$missing; \
		exit 1; \
	fi
	@# a locale with a decimal comma, for the test that charts do not change under one
	@if ! locale -a 2>/dev/null | grep -qx 'de_DE.utf8'; then \
		if [ "$$(id -u)" = 0 ]; then localedef -i de_DE -f UTF-8 de_DE.UTF-8; \
		else sudo -n localedef -i de_DE -f UTF-8 de_DE.UTF-8 || { \
			echo "Run this once, then try again:"; \
			echo "  sudo localedef -i de_DE -f UTF-8 de_DE.UTF-8"; exit 1; }; fi; \
	fi
	@# axe-core for the browser test's accessibility check, at the version package-lock.json pins
	@if [ ! -f tests/browser/node_modules/axe-core/axe.min.js ]; then \
		cd tests/browser && npm ci --no-audit --no-fund; \
	fi

test: deps
	@$(MAKE) --no-print-directory build
	@tests/support/run_ctest.sh $(BUILD) "make test in $(BUILD)"

# A campaign on a real one-machine Slurm cluster (munged, slurmctld, slurmd started as root in a
# temporary folder and stopped again): contrib/slurm/submit.sh's job array of shards and the
# merge that depends on it; see tests/cluster/test_cluster.sh.
# Rewrite the site tests' golden pages and sum lists (tests/fixtures/golden/, site-sums/) from
# this build, for a change meant to alter the pages; review them with git diff. Never a test's job.
golden:
	@$(MAKE) --no-print-directory build >/dev/null
	@$(BUILD)/bin/hbt_golden

test-cluster: deps
	@$(MAKE) --no-print-directory build
	@tests/cluster/test_cluster.sh $(BUILD) .

# ARM: `make cross-aarch64` builds both programs for aarch64 into build-aarch64/ with Debian's
# cross compiler and the arm64 libraries beside the native ones (cmake/aarch64-linux-gnu.cmake),
# warnings as errors; `make check-aarch64` runs them under qemu-user against the native build
# (tests/cross/check_aarch64.sh); `make deps-aarch64` installs what both need, never removing a
# native package (apt-get --no-remove).
ARM_BUILD ?= build-aarch64
ARM_PACKAGES = gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user file \
	libcmark-dev:arm64 libxml2-dev:arm64 zlib1g-dev:arm64 libjansson-dev:arm64 \
	libssl-dev:arm64 libseccomp-dev:arm64 libdeflate-dev:arm64 \
	libffi8:arm64 libgit2-1.5:arm64 libhttp-parser2.9:arm64 libmbedcrypto7:arm64 \
	libmbedtls14:arm64 libmbedx509-1:arm64 libpcre2-8-0:arm64 libssh2-1:arm64
# Criterion's arm64 library and its nanomsg are not co-installable with the native ones
# (installing them removes libcriterion-dev): unpacked from Debian's packages into the build
# folder instead, the version of the native headers; the rest of what they need is above.
ARM_CRITERION = $(abspath $(ARM_BUILD))/arm64-criterion

.PHONY: deps-aarch64 cross-aarch64 check-aarch64 test-aarch64

deps-aarch64:
	@missing=$$(for p in $(ARM_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; \
	done); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	echo "make deps-aarch64: missing Debian packages:" $$missing; \
	if [ "$$(id -u)" != 0 ]; then \
		echo "Run this once as root, then try again:"; \
		echo "  dpkg --add-architecture arm64 && apt-get update && apt-get install --no-remove -y" $$missing; \
		exit 1; \
	fi; \
	dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64; \
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-remove $$missing
	@# qemu in binfmt_misc, so the kernel can run the aarch64 driver hashbench starts (without
	@# systemd nothing registers it); left as it is where the machine does not allow it
	@if [ "$$(id -u)" = 0 ] && [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then \
		[ -e /proc/sys/fs/binfmt_misc/register ] || \
			mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true; \
		[ ! -w /proc/sys/fs/binfmt_misc/register ] || \
			cat /usr/lib/binfmt.d/qemu-aarch64.conf >/proc/sys/fs/binfmt_misc/register 2>/dev/null || true; \
	fi
	@if [ ! -e $(ARM_CRITERION)/usr/lib/aarch64-linux-gnu/libcriterion.so.3 ]; then \
		tmp=$$(mktemp -d) && chmod 755 $$tmp && \
		(cd $$tmp && apt-get download -qq \
			"libcriterion3:arm64=$$(dpkg-query -W -f='$${Version}' libcriterion-dev)" \
			libnanomsg5:arm64 2>/dev/null) && \
		mkdir -p $(ARM_CRITERION) && for d in $$tmp/*.deb; do dpkg-deb -x $$d $(ARM_CRITERION); done; \
		rm -rf $$tmp; \
		[ -e $(ARM_CRITERION)/usr/lib/aarch64-linux-gnu/libcriterion.so.3 ] || \
			{ echo "make deps-aarch64: could not unpack Criterion's arm64 package into $(ARM_CRITERION) (apt-get download libcriterion3:arm64 libnanomsg5:arm64)"; exit 1; }; \
	fi

cross-aarch64: deps-aarch64
	@cmake -S . -B $(ARM_BUILD) -DCMAKE_TOOLCHAIN_FILE=$(CURDIR)/cmake/aarch64-linux-gnu.cmake \
		-DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DHB_WERROR=ON -DBUILD_TESTING=ON \
		-DHB_ARM64_CRITERION=$(ARM_CRITERION) >/dev/null
	@cmake --build $(ARM_BUILD) -j $(JOBS)

check-aarch64: cross-aarch64 build
	@tests/cross/check_aarch64.sh $(BUILD) $(ARM_BUILD)

# The whole suite on the aarch64 build under qemu-user (tests/cross/test_aarch64.sh); what the
# emulator cannot give its guest is skipped and listed. ARM_CTEST_EXCLUDE: a regular expression
# of tests left out.
test-aarch64: cross-aarch64
	@tests/cross/test_aarch64.sh $(ARM_BUILD) $(if $(ARM_CTEST_EXCLUDE),-E '$(ARM_CTEST_EXCLUDE)')

# make install PREFIX=/opt/hashbench (default /usr/local; DESTDIR for a staging root); make
# uninstall removes what the last install wrote (CMake's install_manifest.txt).
PREFIX ?= /usr/local

install: build
	@DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix $(PREFIX)

uninstall:
	@test -f $(BUILD)/install_manifest.txt || { echo "make uninstall: nothing installed from $(BUILD)"; exit 1; }
	@while read -r f || [ -n "$$f" ]; do rm -f "$(DESTDIR)$$f"; done < $(BUILD)/install_manifest.txt
	@echo "make uninstall: removed the files of $(BUILD)/install_manifest.txt"

# make package: the Debian package build/hashbench_<version>_<arch>.deb (CPack).
package: build
	@cd $(BUILD) && cpack -G DEB >/dev/null
	@ls $(BUILD)/hashbench_*.deb

site: deps
	@$(MAKE) --no-print-directory build
	$(BUILD)/bin/hashbench run --system $(SYSTEM) --profile quick --data data $(if $(FRESH),--fresh)
	$(BUILD)/bin/hashgen --data data --templates templates --out site
	@echo "make site: open site/index.html (evidence of this machine: data/$(SYSTEM)/)"

# libFuzzer harnesses of tests/fuzz/ (one per reader of outside input), built with clang into
# build-fuzz/; fuzz-short runs each for FUZZ_TIME seconds over a copy of its seed corpus and fails
# on any finding; tests/fuzz/long.sh is the long run (10 M executions each).
FUZZ_BUILD ?= build-fuzz
FUZZ_TIME ?= 20

.PHONY: fuzz fuzz-short

fuzz:
	@CC=clang cmake -S . -B $(FUZZ_BUILD) -DHB_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzzers

fuzz-short: fuzz
	@FUZZ_BUILD=$(FUZZ_BUILD) tests/fuzz/run.sh --time $(FUZZ_TIME)

clean:
	rm -rf $(BUILD) $(ARM_BUILD)
