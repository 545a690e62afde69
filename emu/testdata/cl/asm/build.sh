#!/usr/bin/env bash
# build.sh: assemble the hand-written kernels here for gfx900 with LLVM 19's
# assembler and lld 15 (ORACLES.md). Byte-identical when repeated.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in *.s; do
	llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx900 -filetype=obj "$s" -o "$tmp/k.o"
	ld.lld-15 -shared "$tmp/k.o" -o "${s%.s}.co"
done
