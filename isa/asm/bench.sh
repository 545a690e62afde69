#!/usr/bin/env bash
# Assemble the text of the largest real listing (librocsparse's gfx803 code
# object, about 405 k instructions) with llvm-mc-19 and with `wavedbg asm`,
# side by side: check that the .text bytes are identical and print each
# tool's time and the throughput ratio.
#
# The listing is `wavedbg disasm` of the code object made into a source
# file: symbols become labels, the address and word comments go, and runs
# of zero words ("...") are dropped. llvm-mc-19 writes an object file;
# wavedbg asm also links it into a code object.
#
#   isa/asm/bench.sh [LIB] [PROCESSOR]     (defaults: librocsparse.so.0, gfx803)
set -euo pipefail
cd "$(dirname "$0")/../.."
lib=${1:-/usr/lib/x86_64-linux-gnu/librocsparse.so.0}
cpu=${2:-gfx803}
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go run ./isa/internal/extract -target "$cpu" -largest "$lib" "$tmp/big.co"
go build -o "$tmp/wavedbg" ./cmd/wavedbg
"$tmp/wavedbg" disasm "$tmp/big.co" >"$tmp/big.lst"
{
	printf '\t.amdgcn_target "amdgcn-amd-amdhsa--%s"\n\t.text\n' "$cpu"
	sed -n -e 's/^[0-9a-f]\{16\} <\(.*\)>:$/\1:/p' \
		-e '/^\t\t\.\.\.$/d' \
		-e 's/^\(\t[^\t].*[^ ]\) *\/\/ [0-9A-F]\{12\}: .*$/\1/p' "$tmp/big.lst"
} >"$tmp/big.s"
insns=$(grep -c '^	' "$tmp/big.s" || true)

# best: the fastest of $runs runs of a command, in milliseconds.
best() {
	local b="" s e t
	for _ in $(seq "$runs"); do
		s=$(date +%s%N)
		"$@" >/dev/null
		e=$(date +%s%N)
		t=$(( (e - s) / 1000000 ))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}

llvm_ms=$(best llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu="$cpu" -filetype=obj "$tmp/big.s" -o "$tmp/llvm.o")
ours_ms=$(best "$tmp/wavedbg" asm --target "$cpu" "$tmp/big.s" -o "$tmp/ours.co")
llvm-objcopy-19 -O binary --only-section=.text "$tmp/llvm.o" "$tmp/llvm.text"
llvm-objcopy-19 -O binary --only-section=.text "$tmp/ours.co" "$tmp/ours.text"
if cmp -s "$tmp/llvm.text" "$tmp/ours.text"; then
	same="identical ($(stat -c %s "$tmp/ours.text") bytes)"
else
	same="DIFFERENT ($(cmp "$tmp/llvm.text" "$tmp/ours.text" | head -1))"
fi
echo "source: $insns lines of $cpu code (the largest code object in $(basename "$lib"))"
printf "llvm-mc-19 -filetype=obj : %6d ms\n" "$llvm_ms"
printf "wavedbg asm (and link)   : %6d ms\n" "$ours_ms"
echo ".text: $same"
awk -v a="$llvm_ms" -v b="$ours_ms" 'BEGIN { if (b < 1) b = 1; printf "ratio: %.1fx llvm-mc-19 throughput\n", a / b }'
