#!/usr/bin/env bash
# bench.sh: wavedbg against PoCL on every oracle kernel, side by side.
#
# Each kernel is scaled up (benchscale: more work-items, proportionally
# larger buffers), by factors of 4, until PoCL's kernel time (enqueue to
# clFinish, without its compilation) reaches MIN seconds or the buffers
# would exceed MAXBYTES; then the same manifest is run by `wavedbg run` and
# the outputs are compared (integers bit for bit, floats within the
# manifest's ULP bounds). Two wavedbg times are printed: "exec", the
# set-up, run and read-back of the grid (the counterpart of PoCL's figure,
# whose buffers are made and filled before its timer as ours are; from
# run's summary), and "process", the whole command (load, decode, generate
# inputs, run, write outputs), with its CPU time (user+sys): on a shared
# machine the wall time includes waiting for a core. The ratios are
# exec/PoCL and process/PoCL. Last, the memory (max RSS) of a run of 1M
# work-items.
#
#   ./bench.sh                  # gfx900 code objects, MIN=0.1
#   TARGET=gfx803 MIN=0.2 ./bench.sh [KERNEL...]
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
root=$(cd ../../.. && pwd)
TARGET=${TARGET:-gfx900}
MIN=${MIN:-0.1}
MAXSCALE=${MAXSCALE:-1048576}
MAXBYTES=${MAXBYTES:-3221225472} # 3 GiB of buffers: wavedbg and PoCL each hold about twice that
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$root" && go build -o "$tmp/wavedbg" ./cmd/wavedbg && go build -o "$tmp/benchscale" ./emu/testdata/cl/benchscale)
gcc -O1 -ffp-contract=off -o "$tmp/pocl_runner" pocl_runner.c -lOpenCL

kernels=("$@")
if ((${#kernels[@]} == 0)); then
	for j in *.json; do kernels+=("${j%.json}"); done
fi

echo "target $TARGET; $(nproc) cores; PoCL time = kernel enqueue..clFinish; wavedbg exec = set-up, run and read-back of the grid (run's "executed in"), process = whole command"
printf '%-16s %7s %10s %9s %9s %10s %9s %8s %8s %7s %s\n' kernel scale work-items pocl_s exec_s process_s cpu_s exec_rat proc_rat rss_MB outputs
total_p=0 total_e=0 total_w=0 total_c=0
# fits M.json: 0 when its buffers total at most MAXBYTES and each is at most
# 1 GiB (the manifest's limit).
fits() { sed -n 's/.*"size": *\([0-9]*\).*/\1/p' "$1" | awk -v max="$MAXBYTES" '{s += $1; if ($1 > 1073741824) big = 1} END {exit !(s <= max && !big)}'; }
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
		"$tmp/benchscale" "$k.json" $((s * 4)) "$tmp/next.json" 2>/dev/null || break
		fits "$tmp/next.json" || break
		s=$((s * 4))
	done
	items=$(sed -n '/"grid"/,/]/p' "$tmp/m.json" | tr -dc '0-9\n' | awk 'NF {p = (p ? p : 1) * $1} END {print p}')
	rm -rf "$tmp/wo" && mkdir -p "$tmp/wo"
	if /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$tmp/wavedbg" run "$TARGET/$src.co" --manifest "$tmp/m.json" --out "$tmp/wo" >"$tmp/out" 2>"$tmp/err"; then
		read -r wt us ss rss <"$tmp/time"
		same=$("$tmp/benchscale" -compare "$tmp/m.json" "$tmp/wo" "$tmp/po")
	else
		read -r wt us ss rss < <(tail -1 "$tmp/time")
		same="failed: $(head -c 80 "$tmp/err")"
	fi
	et=$(awk '/^executed in/ {print $3}' "$tmp/out")
	et=${et:-0}
	ct=$(awk -v u="$us" -v s="$ss" 'BEGIN {print u + s}')
	printf '%-16s %7d %10d %9.3f %9.2f %10.2f %9.2f %7.1fx %7.1fx %7.0f %s\n' "$k" "$s" "$items" "$p" "$et" "$wt" "$ct" \
		"$(awk -v w="$et" -v p="$p" 'BEGIN {print w / p}')" "$(awk -v w="$wt" -v p="$p" 'BEGIN {print w / p}')" \
		"$(awk -v r="$rss" 'BEGIN {print r / 1024}')" "$same"
	total_p=$(awk -v a="$total_p" -v b="$p" 'BEGIN {print a + b}')
	total_e=$(awk -v a="$total_e" -v b="$et" 'BEGIN {print a + b}')
	total_w=$(awk -v a="$total_w" -v b="$wt" 'BEGIN {print a + b}')
	total_c=$(awk -v a="$total_c" -v b="$ct" 'BEGIN {print a + b}')
done
printf 'total: pocl %.2f s; wavedbg exec %.2f s (%.1fx), process %.2f s wall (%.1fx), %.2f s CPU\n' "$total_p" \
	"$total_e" "$(awk -v w="$total_e" -v p="$total_p" 'BEGIN {print w / p}')" \
	"$total_w" "$(awk -v w="$total_w" -v p="$total_p" 'BEGIN {print w / p}')" "$total_c"

# Memory of a 1M work-item run (float_alu: 1024 x 1024 work-items).
"$tmp/benchscale" float_alu.json 1024 "$tmp/m.json"
rm -rf "$tmp/wo" && mkdir -p "$tmp/wo"
/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$tmp/wavedbg" run "$TARGET/float_alu.co" --manifest "$tmp/m.json" --out "$tmp/wo" -q
read -r wt us ss rss <"$tmp/time"
echo "1M work-items (float_alu, 16384 waves, 72 MiB of buffers): $wt s wall, $us+$ss s CPU, max RSS $((rss / 1024)) MiB"
