#!/usr/bin/env bash
# loopcmp.sh: emu's loop benchmarks before and after a change, side by side.
#
# Builds the emu test binary at the git revision OLD and from the working
# tree, each with the default function layout and with LAYOUTS-1 random
# ones (the linker's -randlayout: the SALU loop's speed moves with where
# the fast forms land), runs all of them alternately REPEAT times, keeps
# the best of each build, and prints per benchmark the median over the
# layouts and the default layout's figure, in M instructions per
# CPU-second.
#
#   emu/testdata/loopcmp.sh OLD            # LAYOUTS=6 REPEAT=3
set -euo pipefail
cd "$(dirname "$0")/../.."
OLD=${1:?usage: loopcmp.sh OLD}
LAYOUTS=${LAYOUTS:-6}
REPEAT=${REPEAT:-3}
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/old" 2>/dev/null || true; rm -rf "$tmp"' EXIT
git worktree add -q --detach "$tmp/old" "$OLD"
for ((s = 0; s < LAYOUTS; s++)); do
	flags=()
	((s > 0)) && flags=(-ldflags=-randlayout=$s)
	(cd "$tmp/old" && go test -c "${flags[@]}" -o "$tmp/old$s.test" ./emu)
	go test -c "${flags[@]}" -o "$tmp/new$s.test" ./emu
done
cd emu
for ((i = 0; i < REPEAT; i++)); do
	for ((s = 0; s < LAYOUTS; s++)); do
		for b in old new; do
			"$tmp/$b$s.test" -test.run '^$' -test.bench 'SALULoop$|VALULoop$|SMEMLoop$|VALULoopFlush$' \
				-test.benchtime 2000000x | awk -v b=$b -v s=$s '/^Benchmark/ {print b, s, $1, $5}'
		done
	done
done | awk '
	{ k = $1 " " $2 " " $3; if ($4 > best[k]) best[k] = $4; names[$3] = 1 }
	END {
		printf "%-28s %22s %22s\n", "benchmark", "old median (default)", "new median (default)"
		for (n in names) {
			for (side = 0; side < 2; side++) {
				b = side ? "new" : "old"; m = 0
				for (k in best) {
					split(k, f, " ")
					if (f[1] != b || f[3] != n) continue
					x = best[k]; j = ++m # insertion sort: v[1..m] ascending
					while (j > 1 && v[j - 1] > x) { v[j] = v[j - 1]; j-- }
					v[j] = x
				}
				med[side] = m ? (m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2) : 0
				def[side] = best[b " 0 " n]
			}
			printf "%-28s %12.1f (%6.1f) %12.1f (%6.1f)\n", n, med[0], def[0], med[1], def[1]
		}
	}'
