#!/usr/bin/env bash
# Assemble the text of the largest real listing (librocsparse's gfx803 code
# object, about 405 k instructions) with llvm-mc-19 and with `wavedbg asm`,
# side by side: check that the .text bytes are identical and print each
# tool's time and the throughput ratio.
#
# The listing is `wavedbg disasm` of the code object made into a source
# file: symbols become labels, the address and word comments stay (both
# assemblers skip them), runs of zero words ("...") are dropped. llvm-mc-19 writes an object file;
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
	sed -e '/^Disassembly of section/d' -e '/file format/d' -e '/^\t\t\.\.\.$/d' \
		-e 's/^[0-9a-f]\{16\} <\(.*\)>:$/\1:/' "$tmp/big.lst"
} >"$tmp/listing.s"
# Lines llvm-mc-19 rejects (text LLVM prints but does not take back) become
# .long of the listing's words, for both assemblers.
llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu="$cpu" -filetype=obj "$tmp/listing.s" -o /dev/null 2>"$tmp/mc.err" || true
grep -o '^[^:]*:[0-9]*:[0-9]*: error' "$tmp/mc.err" | cut -d: -f2 >"$tmp/bad" || true
awk 'NR == FNR { bad[$1] = 1; next }
	FNR in bad { n = split(substr($0, index($0, "// ") + 17), w, " "); s = "\t.long"
		for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") " 0x" w[i]
		print s; next }
	{ print }' "$tmp/bad" "$tmp/listing.s" >"$tmp/big.s"
rejected=$(wc -l <"$tmp/bad")
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
echo "source: $insns lines of $cpu code (the largest code object in $(basename "$lib")); $rejected lines llvm-mc-19 rejects written as .long"
printf "llvm-mc-19 -filetype=obj : %6d ms\n" "$llvm_ms"
printf "wavedbg asm (and link)   : %6d ms\n" "$ours_ms"
echo ".text: $same"
awk -v a="$llvm_ms" -v b="$ours_ms" 'BEGIN { if (b < 1) b = 1; printf "ratio: %.1fx llvm-mc-19 throughput\n", a / b }'
