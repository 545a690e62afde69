#!/usr/bin/env bash
# Times package loader on librocsparse's whole fat binary against
# llvm-readelf-19 --notes, in one run:
#   1. go test -bench BenchmarkLoadRocsparse (every bundle, every code
#      object's target, metadata, kernel descriptors);
#   2. loadall (the same work plus descriptor/metadata checks, as a command)
#      and llvm-readelf-19 --notes on the same host file (which only reads
#      the host's own notes: it does not look inside .hip_fatbin);
#   3. llvm-readelf-19 --notes on all 777 code objects extracted from it
#      (the same metadata our loader decodes).
# Usage: loader/bench.sh [LIB]   (figures go in BENCHMARKS.md, "## loader")
set -euo pipefail
cd "$(dirname "$0")/.."
LIB=${1:-/usr/lib/x86_64-linux-gnu/librocsparse.so.0.1}
READELF=${READELF:-llvm-readelf-19}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TIMEFORMAT='%R s wall, %U s user, %S s sys'
# The development box is shared: user+sys CPU time and peak memory are the
# figures to compare; wall time depends on the load.
t() { /usr/bin/time -f '%e s wall, %U s user, %S s sys, %M KB max RSS' "$@"; }

echo "== go test -bench (loader, whole fat binary)"
go test -run '^$' -bench BenchmarkLoadRocsparse -benchmem -count 3 ./loader | grep -E '^Benchmark|^cpu'

go build -o "$tmp/loadall" ./loader/internal/loadall
cat "$LIB" > /dev/null # warm the page cache for both tools

echo "== loadall $LIB"
t "$tmp/loadall" "$LIB"
echo "== $READELF --notes $LIB (host notes only)"
t "$READELF" --notes "$LIB" > /dev/null

mkdir "$tmp/co"
"$tmp/loadall" -extract "$tmp/co" "$LIB" > /dev/null
n=$(ls "$tmp/co" | wc -l)
cat "$tmp"/co/*.co > /dev/null
echo "== $READELF --notes on the $n extracted code objects"
t "$READELF" --notes "$tmp"/co/*.co > /dev/null
