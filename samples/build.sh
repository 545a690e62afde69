#!/bin/sh
# Rebuilds every sample's code object from its source with Debian's LLVM:
#   <name>/<name>.s   assembled by llvm-mc-19 (gfx900, code object v4)
#   <name>/<name>.cl  compiled by clang-15 (OpenCL C 1.2 with argument names, gfx900, v4,
#                     ROCm device libs),
#                     which also writes the assembly it generated to <name>/<name>.cl.s
# and linked by ld.lld-15 into <name>/<name>.co.
# A sample may also be built for another processor: <name>/<name>.<target>.s (target
# gfx803, say; the name starts with "gfx") is assembled with -mcpu=<target> into
# <name>/<name>.<target>.co, a variant of the sample (see Sample.Variants).
#
# Usage: build.sh [OUTDIR]   (default: the samples directory itself)
# build_test.go runs it into a temporary OUTDIR and compares the results with
# the committed code objects.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
LLVM_MC=${LLVM_MC:-llvm-mc-19}
CLANG=${CLANG:-clang-15}
LD_LLD=${LD_LLD:-ld.lld-15}
DEVICE_LIBS=${DEVICE_LIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cd "$here"
for dir in */; do
	name=${dir%/}
	if [ -f "$name/$name.s" ]; then
		"$LLVM_MC" -triple=amdgcn-amd-amdhsa -mcpu=gfx900 -filetype=obj \
			"$name/$name.s" -o "$tmp/$name.o"
	elif [ -f "$name/$name.cl" ]; then
		mkdir -p "$out/$name"
		for mode in -c -S; do
			o="$tmp/$name.o"
			[ "$mode" = -S ] && o="$out/$name/$name.cl.s"
			"$CLANG" -x cl -cl-std=CL1.2 -cl-kernel-arg-info -target amdgcn-amd-amdhsa -mcpu=gfx900 \
				-mcode-object-version=4 -O2 --rocm-device-lib-path="$DEVICE_LIBS" \
				"$mode" "$name/$name.cl" -o "$o"
		done
	else
		continue
	fi
	mkdir -p "$out/$name"
	"$LD_LLD" -shared "$tmp/$name.o" -o "$out/$name/$name.co"
	for src in "$name/$name".gfx*.s; do
		[ -f "$src" ] || continue
		target=${src#"$name/$name".}
		target=${target%.s}
		"$LLVM_MC" -triple=amdgcn-amd-amdhsa -mcpu="$target" -filetype=obj "$src" -o "$tmp/$name.$target.o"
		"$LD_LLD" -shared "$tmp/$name.$target.o" -o "$out/$name/$name.$target.co"
	done
done
