#!/usr/bin/env bash
# Assemble the text of the largest real listing (librocsparse's gfx906 code
# object, about 405k instructions) with llvm-mc-19 and with isa.Assemble,
# side by side, and print each one's time.
#
#   isa/asm_bench.sh [LIB] [PROCESSOR]     (defaults: librocsparse.so.0, gfx906)
#
# The listing is llvm-objdump-19's text, one instruction a line. llvm-mc
# writes an object file (-filetype=obj); ours is BenchmarkAssemble over the
# same lines (ISA_ASM_LISTING), which only encodes. Both report the lines
# they reject (texts LLVM's own round trip refuses, e.g. constant-bus ones).
set -euo pipefail
cd "$(dirname "$0")/.."
lib=${1:-/usr/lib/x86_64-linux-gnu/librocsparse.so.0}
cpu=${2:-gfx906}
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go run ./isa/internal/extract -target "$cpu" -largest "$lib" "$tmp/big.co"
go test -c -o "$tmp/isa.test" ./isa

# The listing: each instruction's text without llvm-objdump's comment.
{
	echo "// $cpu"
	llvm-objdump-19 -d --mcpu="$cpu" "$tmp/big.co" |
		awk -F'\t' '/^\t[a-z]/ { sub(/ *\/\/.*/, "", $2); if ($2 !~ /^\.long/) print $2 }'
} >"$tmp/listing.s"
lines=$(($(wc -l <"$tmp/listing.s") - 1))

best=""
for _ in $(seq "$runs"); do
	s=$(date +%s%N)
	llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu="$cpu" -filetype=obj "$tmp/listing.s" -o "$tmp/llvm.o" 2>"$tmp/llvm.err" || true
	e=$(date +%s%N)
	t=$(((e - s) / 1000000))
	if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
done
llvm_rej=$(grep -c ': error:' "$tmp/llvm.err" || true)

out=$(cd isa && ISA_ASM_LISTING="$tmp/listing.s" "$tmp/isa.test" -test.run '^$' -test.bench '^BenchmarkAssemble$' -test.benchtime "${runs}x")
ns=$(echo "$out" | awk '/BenchmarkAssemble/ { for (i = 1; i < NF; i++) if ($(i+1) == "ns/inst") print $i }')
ours_rej=$(echo "$out" | awk '/BenchmarkAssemble/ { for (i = 1; i < NF; i++) if ($(i+1) == "rejected") print $i }')
ours_ms=$(awk -v n="$ns" -v l="$lines" 'BEGIN { printf "%d", n * l / 1e6 }')

echo "listing: $cpu, $lines instructions (largest code object in $(basename "$lib"))"
printf "llvm-mc-19 -filetype=obj : %6d ms  (%s lines rejected)\n" "$best" "$llvm_rej"
printf "isa.Assemble             : %6d ms  (%s lines rejected, %s ns/instruction)\n" "$ours_ms" "$ours_rej" "$ns"
awk -v a="$best" -v b="$ours_ms" 'BEGIN { if (b < 1) b = 1; printf "ratio: %.1fx llvm-mc-19 throughput\n", a / b }'
