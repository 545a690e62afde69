#!/usr/bin/env bash
# Disassemble the largest real code object (librocsparse's 14 MB gfx803 one)
# with llvm-objdump-19 and with `wavedbg disasm`, side by side: check that the
# text is identical and print each tool's time and the throughput ratio.
#
#   isa/bench.sh [LIB] [PROCESSOR]     (defaults: librocsparse.so.0, gfx803)
set -euo pipefail
cd "$(dirname "$0")/.."
lib=${1:-/usr/lib/x86_64-linux-gnu/librocsparse.so.0}
cpu=${2:-gfx803}
runs=${RUNS:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go run ./isa/internal/extract -target "$cpu" -largest "$lib" "$tmp/big.co"
go build -o "$tmp/wavedbg" ./cmd/wavedbg

# best N: the fastest of $runs runs of a command, in seconds.
best() {
	local out=$1 b="" s e t
	shift
	for _ in $(seq "$runs"); do
		s=$(date +%s%N)
		"$@" >"$out"
		e=$(date +%s%N)
		t=$(( (e - s) / 1000000 ))
		if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
	done
	echo "$b"
}

size=$(stat -c %s "$tmp/big.co")
llvm_ms=$(best "$tmp/llvm.txt" llvm-objdump-19 -d --mcpu="$cpu" "$tmp/big.co")
ours_ms=$(best "$tmp/ours.txt" "$tmp/wavedbg" disasm "$tmp/big.co")
lines=$(grep -c '// ' "$tmp/llvm.txt" || true)
if cmp -s "$tmp/llvm.txt" "$tmp/ours.txt"; then
	same="identical"
else
	same="DIFFERENT ($(diff "$tmp/llvm.txt" "$tmp/ours.txt" | grep -c '^>' || true) lines differ)"
fi
echo "code object: $cpu, $size bytes, $lines instructions (largest in $(basename "$lib"))"
printf "llvm-objdump-19 -d : %6d ms\n" "$llvm_ms"
printf "wavedbg disasm     : %6d ms\n" "$ours_ms"
echo "text: $same"
awk -v a="$llvm_ms" -v b="$ours_ms" 'BEGIN { if (b < 1) b = 1; printf "ratio: %.1fx llvm-objdump-19 throughput\n", a / b }'
