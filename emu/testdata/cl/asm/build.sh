#!/usr/bin/env bash
# build.sh: assemble the hand-written kernels here with LLVM 19's assembler
# and lld 15 (ORACLES.md), for gfx900 unless the first line says
# `// mcpu: gfxNNN`. Byte-identical when repeated.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for s in *.s; do
	mcpu=gfx900
	if head -1 "$s" | grep -q '^// mcpu:'; then
		mcpu=$(head -1 "$s" | sed 's|^// mcpu: *||')
	fi
	llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu="$mcpu" -filetype=obj "$s" -o "$tmp/k.o"
	ld.lld-15 -shared "$tmp/k.o" -o "${s%.s}.co"
done
