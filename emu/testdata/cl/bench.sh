#!/usr/bin/env bash
# bench.sh: wavedbg against PoCL on every oracle kernel, side by side.
#
# Each kernel is scaled up (benchscale: more work-items, proportionally
# larger buffers), by factors of 4, until PoCL's kernel time (enqueue to
# clFinish, without its compilation) reaches MIN seconds; then the same
# manifest is run by `wavedbg run` (whole process: load, decode, dispatch,
# run, write outputs) and the outputs are compared (integers bit for bit,
# floats within the manifest's ULP bounds). wavedbg's CPU time
# (user+sys) is printed too: on a shared machine the wall time includes
# waiting for a core. Last, the memory (max RSS) of a run of 1M work-items.
#
#   ./bench.sh                  # gfx900 code objects, MIN=0.1
#   TARGET=gfx803 MIN=0.2 ./bench.sh [KERNEL...]
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
root=$(cd ../../.. && pwd)
TARGET=${TARGET:-gfx900}
MIN=${MIN:-0.1}
MAXSCALE=${MAXSCALE:-4096} # caps buffers near 1 GiB (int_alu: 64 B out per work-item)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$root" && go build -o "$tmp/wavedbg" ./cmd/wavedbg && go build -o "$tmp/benchscale" ./emu/testdata/cl/benchscale)
gcc -O1 -ffp-contract=off -o "$tmp/pocl_runner" pocl_runner.c -lOpenCL

kernels=("$@")
if ((${#kernels[@]} == 0)); then
	for j in *.json; do kernels+=("${j%.json}"); done
fi

echo "target $TARGET; $(nproc) cores; PoCL time = kernel enqueue..clFinish; wavedbg time = whole process"
printf '%-16s %6s %10s %9s %10s %9s %8s %8s %7s %s\n' kernel scale work-items pocl_s wavedbg_s cpu_s ratio cpu_rat rss_MB outputs
total_p=0 total_w=0 total_c=0
for k in "${kernels[@]}"; do
	src=$(sed -n 's/.*"source": *"\(.*\)\.cl".*/\1/p' "$k.json")
	s=1
	while :; do
		"$tmp/benchscale" "$k.json" "$s" "$tmp/m.json"
		rm -rf "$tmp/po" && mkdir -p "$tmp/po"
		p=$(POCL_RUNNER_TIME=1 "$tmp/pocl_runner" "$tmp/m.json" "$tmp/po" | awk '/kernel_seconds/ {print $2}')
		if awk -v p="$p" -v m="$MIN" 'BEGIN {exit !(p >= m)}' || ((s >= MAXSCALE)); then
			break
		fi
		s=$((s * 4))
	done
	items=$(sed -n '/"grid"/,/]/p' "$tmp/m.json" | tr -dc '0-9\n' | awk 'NF {p = (p ? p : 1) * $1} END {print p}')
	rm -rf "$tmp/wo" && mkdir -p "$tmp/wo"
	if /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$tmp/wavedbg" run "$TARGET/$src.co" --manifest "$tmp/m.json" --out "$tmp/wo" -q 2>"$tmp/err"; then
		read -r wt us ss rss <"$tmp/time"
		same=$("$tmp/benchscale" -compare "$tmp/m.json" "$tmp/wo" "$tmp/po")
	else
		read -r wt us ss rss < <(tail -1 "$tmp/time")
		same="failed: $(head -c 80 "$tmp/err")"
	fi
	ct=$(awk -v u="$us" -v s="$ss" 'BEGIN {print u + s}')
	printf '%-16s %6d %10d %9.3f %10.2f %9.2f %7.1fx %7.1fx %7.0f %s\n' "$k" "$s" "$items" "$p" "$wt" "$ct" \
		"$(awk -v w="$wt" -v p="$p" 'BEGIN {print w / p}')" "$(awk -v w="$ct" -v p="$p" 'BEGIN {print w / p}')" \
		"$(awk -v r="$rss" 'BEGIN {print r / 1024}')" "$same"
	total_p=$(awk -v a="$total_p" -v b="$p" 'BEGIN {print a + b}')
	total_w=$(awk -v a="$total_w" -v b="$wt" 'BEGIN {print a + b}')
	total_c=$(awk -v a="$total_c" -v b="$ct" 'BEGIN {print a + b}')
done
printf 'total: pocl %.2f s, wavedbg %.2f s wall (%.1fx), %.2f s CPU (%.1fx)\n' "$total_p" "$total_w" \
	"$(awk -v w="$total_w" -v p="$total_p" 'BEGIN {print w / p}')" "$total_c" "$(awk -v w="$total_c" -v p="$total_p" 'BEGIN {print w / p}')"

# Memory of a 1M work-item run (float_alu: 1024 x 1024 work-items).
"$tmp/benchscale" float_alu.json 1024 "$tmp/m.json"
rm -rf "$tmp/wo" && mkdir -p "$tmp/wo"
/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$tmp/wavedbg" run "$TARGET/float_alu.co" --manifest "$tmp/m.json" --out "$tmp/wo" -q
read -r wt us ss rss <"$tmp/time"
echo "1M work-items (float_alu, 16384 waves, 72 MiB of buffers): $wt s wall, $us+$ss s CPU, max RSS $((rss / 1024)) MiB"
