#!/usr/bin/env bash
# build.sh: compile every OpenCL C kernel here into gfx900 and gfx803 code
# objects with Debian's clang-15 and ld.lld-15 (see ../../../README.md and
# ../../../.ci/run, which installs them). Builds are byte-identical when repeated; run
# `./build.sh --check` to rebuild into a temporary directory and compare.
#
# Each source builds at -O2 unless its first line says `// build: FLAGS`.
# All kernels use code object v4; cov/ holds int_alu, grid3d and offset for
# gfx900 as code object v2 (amd_kernel_code_t), v3 and v5 as well, for the
# other ABI versions (grid3d and offset read the dispatch packet and hidden
# arguments, which differ between versions), and partial as v5 for gfx900
# and gfx803 (partial work-groups: the v5 remainder arguments).
set -euo pipefail
cd "$(dirname "$0")"
CLANG=${CLANG:-clang-15}
LLD=${LLD:-ld.lld-15}
DEVLIB=${DEVLIB:-$(dpkg -L rocm-device-libs | grep -m1 '/amdgcn/bitcode$')}
out=.
check=0
if [[ ${1:-} == --check ]]; then
	check=1
	out=$(mktemp -d)
fi
tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; if ((check)); then rm -rf "$out"; fi; }
trap cleanup EXIT

build() { # build SRC MCPU COV DEST
	local src=$1 mcpu=$2 cov=$3 dest=$4 flags=-O2
	if head -1 "$src" | grep -q '^// build:'; then
		flags=$(head -1 "$src" | sed 's|^// build: *||')
	fi
	mkdir -p "$(dirname "$dest")"
	"$CLANG" -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu="$mcpu" \
		-mcode-object-version="$cov" $flags --rocm-device-lib-path="$DEVLIB" \
		-c "$src" -o "$tmp/k.o"
	"$LLD" -shared "$tmp/k.o" -o "$dest"
}

for src in *.cl; do
	name=${src%.cl}
	for mcpu in gfx900 gfx803; do
		build "$src" "$mcpu" 4 "$out/$mcpu/$name.co"
	done
done
for cov in 2 3 5; do
	for k in int_alu grid3d offset; do
		build $k.cl gfx900 "$cov" "$out/cov/$k.v$cov.co"
	done
done
# partial work-groups read the v5 hidden arguments: gfx900 and gfx803.
build partial.cl gfx900 5 "$out/cov/partial.v5.co"
build partial.cl gfx803 5 "$out/cov/partial.v5.gfx803.co"

if ((check)); then
	status=0
	for f in $(cd "$out" && find . -name '*.co' | sort); do
		if ! cmp -s "$out/$f" "$f"; then
			echo "build.sh: $f differs from a fresh build" >&2
			status=1
		fi
	done
	exit $status
fi
