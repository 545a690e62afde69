#!/usr/bin/env bash
# benchcmp.sh: the emulator before and after a change, side by side.
#
# Builds `wavedbg` at the git revision OLD and from the working tree, then,
# for every oracle kernel here (or the ones named), scales the launch
# (benchscale: more work-items) by factors of 2 until the new binary's
# grid run takes at least SECS seconds, and runs old and new alternately
# REPEAT times each on that same manifest with WORKERS workers. The best
# (least) of each side is kept, for the grid's execution time (run's
# "executed in") and for the process's CPU time (user+sys, which waiting
# for a core on a shared machine does not inflate). Ratios are new/old:
# below 1.00 the new code is faster. Outputs of both are compared with
# each other byte for byte.
#
#   ./benchcmp.sh OLD                       # REPEAT=5 SECS=0.3 WORKERS=1
#   TARGET=gfx803 REPEAT=3 ./benchcmp.sh OLD nbody fft_stage
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../../.. && pwd)
OLD=${1:?usage: benchcmp.sh OLD [KERNEL...]}
shift
TARGET=${TARGET:-gfx900}
REPEAT=${REPEAT:-5}
SECS=${SECS:-0.3}
WORKERS=${WORKERS:-1}
MAXSCALE=${MAXSCALE:-1048576}
tmp=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$tmp/old" 2>/dev/null || true; rm -rf "$tmp"' EXIT

git -C "$root" worktree add --detach "$tmp/old" "$OLD" >/dev/null 2>&1
(cd "$tmp/old" && go build -o "$tmp/wavedbg.old" ./cmd/wavedbg)
(cd "$root" && go build -o "$tmp/wavedbg.new" ./cmd/wavedbg && go build -o "$tmp/benchscale" ./emu/testdata/cl/benchscale)

kernels=("$@")
if ((${#kernels[@]} == 0)); then
	for j in *.json; do [[ $j == scalars.json ]] || kernels+=("${j%.json}"); done
fi

# run BIN DIR: one grid run of $tmp/m.json; prints "exec_s cpu_s".
run() {
	rm -rf "$2" && mkdir -p "$2"
	/usr/bin/time -f '%U %S' -o "$tmp/time" "$1" run "$TARGET/$src.co" --manifest "$tmp/m.json" \
		--workers "$WORKERS" --out "$2" >"$tmp/out" 2>"$tmp/err" || {
		echo "failed: $(head -c 120 "$tmp/err")" >&2
		return 1
	}
	read -r us ss <"$tmp/time"
	awk -v u="$us" -v s="$ss" '/^executed in/ {print $3, u + s}' "$tmp/out"
}
least() { awk -v a="$1" -v b="$2" 'BEGIN {print (b < a ? b : a)}'; }

echo "target $TARGET; old $(git -C "$root" rev-parse --short "$OLD") vs new $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo "+changes"); $WORKERS worker(s); best of $REPEAT interleaved runs each"
printf '%-16s %7s %10s %10s %10s %9s %9s %9s %9s %s\n' kernel scale work-items old_exec_s new_exec_s exec_rat old_cpu_s new_cpu_s cpu_rat outputs
for k in "${kernels[@]}"; do
	src=$(sed -n 's/.*"source": *"\(.*\)\.cl".*/\1/p' "$k.json")
	s=1
	while :; do
		"$tmp/benchscale" "$k.json" "$s" "$tmp/m.json"
		read -r e _ < <(run "$tmp/wavedbg.new" "$tmp/new")
		if awk -v e="$e" -v m="$SECS" 'BEGIN {exit !(e >= m)}' || ((s >= MAXSCALE)); then
			break
		fi
		f=$(awk -v e="$e" -v m="$SECS" 'BEGIN {f = 2; while (e >= 0.005 && e * f < m) f *= 2; if (e < 0.005) f = 8; print f}')
		"$tmp/benchscale" "$k.json" $((s * f)) "$tmp/next.json" 2>/dev/null || break
		s=$((s * f))
	done
	items=$(sed -n '/"grid"/,/]/p' "$tmp/m.json" | tr -dc '0-9\n' | awk 'NF {p = (p ? p : 1) * $1} END {print p}')
	oe="" ne="" oc="" nc=""
	for ((r = 0; r < REPEAT; r++)); do
		read -r e c < <(run "$tmp/wavedbg.old" "$tmp/old.out")
		oe=$(least "${oe:-$e}" "$e") oc=$(least "${oc:-$c}" "$c")
		read -r e c < <(run "$tmp/wavedbg.new" "$tmp/new")
		ne=$(least "${ne:-$e}" "$e") nc=$(least "${nc:-$c}" "$c")
	done
	same=same
	diff -rq "$tmp/old.out" "$tmp/new" >/dev/null || same=DIFFER
	printf '%-16s %7d %10d %10.3f %10.3f %9.2f %9.2f %9.2f %9.2f %s\n' "$k" "$s" "$items" "$oe" "$ne" \
		"$(awk -v n="$ne" -v o="$oe" 'BEGIN {print n / o}')" "$oc" "$nc" \
		"$(awk -v n="$nc" -v o="$oc" 'BEGIN {print n / o}')" "$same"
done
