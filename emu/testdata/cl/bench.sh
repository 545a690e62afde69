#!/usr/bin/env bash
# bench.sh: wavedbg against PoCL on every oracle kernel (every *.json here,
# nbody and fft_stage being the f32-flushing ones), side by side.
#
# Each kernel is scaled up (benchscale: more work-items, proportionally
# larger buffers), by factors of 2, until PoCL's kernel time (enqueue to
# clFinish, without its compilation) reaches MIN seconds; a kernel whose
# buffers would first pass MAXBYTES in total, or the manifest's 4 GiB for
# one buffer, is marked "below MIN". Then the same manifest is run by
# `wavedbg run` and the outputs are compared (integers bit for bit, floats
# within the manifest's ULP bounds). Both sides run REPEAT times at the
# final size and the best (least) time of each is kept, so one slow run
# (another process taking a core) does not decide a ratio. Two wavedbg times are printed: "exec", the
# set-up, run and read-back of the grid (the counterpart of PoCL's figure,
# whose buffers are made and filled before its timer as ours are; from
# run's summary), and "process", the whole command (load, decode, generate
# inputs, run, write outputs), with its CPU time (user+sys): on a shared
# machine the wall time includes waiting for a core. The ratios are
# exec/PoCL and process/PoCL. Last, the memory (max RSS) of a run of 1M
# work-items.
#
#   ./bench.sh                  # gfx900 code objects, MIN=0.1, REPEAT=3
#   TARGET=gfx803 MIN=0.2 REPEAT=1 ./bench.sh [KERNEL...]
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)
root=$(cd ../../.. && pwd)
TARGET=${TARGET:-gfx900}
MIN=${MIN:-0.1}
MAXSCALE=${MAXSCALE:-1048576}
REPEAT=${REPEAT:-3}
MAXBYTES=${MAXBYTES:-6442450944} # 6 GiB of buffers: PoCL holds about twice that, wavedbg about as much
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$root" && go build -o "$tmp/wavedbg" ./cmd/wavedbg && go build -o "$tmp/benchscale" ./emu/testdata/cl/benchscale)
gcc -O1 -ffp-contract=off -o "$tmp/pocl_runner" pocl_runner.c -lOpenCL

kernels=("$@")
if ((${#kernels[@]} == 0)); then
	# scalars is one work-item checking argument types: nothing to scale.
	for j in *.json; do [[ $j == scalars.json ]] || kernels+=("${j%.json}"); done
fi

echo "target $TARGET; $(nproc) cores; best of $REPEAT runs each; PoCL time = kernel enqueue..clFinish; wavedbg exec = set-up, run and read-back of the grid (run's "executed in"), process = whole command"
printf '%-16s %7s %10s %9s %9s %10s %9s %8s %8s %7s %s\n' kernel scale work-items pocl_s exec_s process_s cpu_s exec_rat proc_rat rss_MB outputs
total_p=0 total_e=0 total_w=0 total_c=0
# fits M.json: 0 when its buffers total at most MAXBYTES and each is at most
# 4 GiB (the manifest's limit).
fits() { sed -n 's/.*"size": *\([0-9]*\).*/\1/p' "$1" | awk -v max="$MAXBYTES" '{s += $1; if ($1 > 4294967296) big = 1} END {exit !(s <= max && !big)}'; }
# least A B: the smaller of two times.
least() { awk -v a="$1" -v b="$2" 'BEGIN {print (b < a ? b : a)}'; }
for k in "${kernels[@]}"; do
	src=$(sed -n 's/.*"source": *"\(.*\)\.cl".*/\1/p' "$k.json")
	s=1
	note=""
	while :; do
		"$tmp/benchscale" "$k.json" "$s" "$tmp/m.json"
		rm -rf "$tmp/po" && mkdir -p "$tmp/po"
		p=$(POCL_RUNNER_TIME=1 "$tmp/pocl_runner" "$tmp/m.json" "$tmp/po" | awk '/kernel_seconds/ {print $2}')
		if awk -v p="$p" -v m="$MIN" 'BEGIN {exit !(p >= m)}' || ((s >= MAXSCALE)); then
			break
		fi
		# the next power-of-two factor that should reach MIN (time grows
		# about linearly with the size once it is measurable), at least 2
		f=$(awk -v p="$p" -v m="$MIN" 'BEGIN {f = 2; while (p >= 0.005 && p * f < m) f *= 2; if (p < 0.005) f = 8; print f}')
		while ((f > 1)) && ! { "$tmp/benchscale" "$k.json" $((s * f)) "$tmp/next.json" 2>/dev/null && fits "$tmp/next.json"; }; do
			f=$((f / 2))
		done
		if ((f <= 1)); then
			note=" (PoCL below MIN: buffers capped)"
			break
		fi
		s=$((s * f))
	done
	for ((r = 1; r < REPEAT; r++)); do
		q=$(POCL_RUNNER_TIME=1 "$tmp/pocl_runner" "$tmp/m.json" "$tmp/po" | awk '/kernel_seconds/ {print $2}')
		p=$(least "$p" "$q")
	done
	items=$(sed -n '/"grid"/,/]/p' "$tmp/m.json" | tr -dc '0-9\n' | awk 'NF {p = (p ? p : 1) * $1} END {print p}')
	et="" wt="" ct="" rss=0 same=""
	for ((r = 0; r < REPEAT; r++)); do
		rm -rf "$tmp/wo" && mkdir -p "$tmp/wo"
		if /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$tmp/wavedbg" run "$TARGET/$src.co" --manifest "$tmp/m.json" --out "$tmp/wo" >"$tmp/out" 2>"$tmp/err"; then
			read -r w us ss m <"$tmp/time"
			[[ -n $same ]] || same=$("$tmp/benchscale" -compare "$tmp/m.json" "$tmp/wo" "$tmp/po")
		else
			read -r w us ss m < <(tail -1 "$tmp/time")
			same="failed: $(head -c 80 "$tmp/err")"
			break
		fi
		e=$(awk '/^executed in/ {print $3}' "$tmp/out")
		c=$(awk -v u="$us" -v s="$ss" 'BEGIN {print u + s}')
		et=$(least "${et:-$e}" "$e") wt=$(least "${wt:-$w}" "$w") ct=$(least "${ct:-$c}" "$c")
		rss=$((m > rss ? m : rss))
	done
	et=${et:-0} wt=${wt:-0} ct=${ct:-0}
	printf '%-16s %7d %10d %9.3f %9.2f %10.2f %9.2f %7.1fx %7.1fx %7.0f %s\n' "$k" "$s" "$items" "$p" "$et" "$wt" "$ct" \
		"$(awk -v w="$et" -v p="$p" 'BEGIN {print w / p}')" "$(awk -v w="$wt" -v p="$p" 'BEGIN {print w / p}')" \
		"$(awk -v r="$rss" 'BEGIN {print r / 1024}')" "$same$note"
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
