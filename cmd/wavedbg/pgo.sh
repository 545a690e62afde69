#!/usr/bin/env bash
# pgo.sh: regenerate default.pgo, the CPU profile the Go toolchain uses to
# optimise the wavedbg binary (profile-guided optimisation: inlining and
# devirtualisation of the emulator's hot paths). It runs every oracle kernel
# of emu/testdata/cl once with `wavedbg run --cpuprofile` at a scale that
# takes about a second, with one worker, and merges the profiles, each
# kernel weighted by its run time.
#
#   cmd/wavedbg/pgo.sh            # rewrites cmd/wavedbg/default.pgo
#
# Regenerate it after large changes to emu's hot paths; a stale profile is
# harmless (the toolchain ignores what no longer matches) but helps less.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -pgo=off -o "$tmp/wavedbg" ./cmd/wavedbg
go build -o "$tmp/benchscale" ./emu/testdata/cl/benchscale
cl=emu/testdata/cl
# kernel:scale, chosen so that each run takes 0.3-2 s of CPU.
for ks in atomics:1024 branches:16384 calls_O0:2048 dbl:16384 float_alu:16384 float_math:4096 grid3d:16384 \
	int64:4096 int_alu:16384 local_hist:16384 loops:1024 matmul2d:1024 narrow:65536 offset:65536 \
	reduce_local:16384 scan_local:16384 scratch_spill:1024 struct_arg:65536 transpose_local:16384 vec4:16384; do
	k=${ks%:*} s=${ks#*:}
	src=$(sed -n 's/.*"source": *"\(.*\)\.cl".*/\1/p' "$cl/$k.json")
	"$tmp/benchscale" "$cl/$k.json" "$s" "$tmp/$k.json"
	mkdir -p "$tmp/out"
	"$tmp/wavedbg" run "$cl/gfx900/$src.co" --manifest "$tmp/$k.json" --out "$tmp/out" --workers 1 -q \
		--cpuprofile "$tmp/$k.prof"
done
go tool pprof -proto "$tmp"/*.prof >cmd/wavedbg/default.pgo
ls -l cmd/wavedbg/default.pgo
