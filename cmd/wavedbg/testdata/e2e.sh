#!/usr/bin/env bash
# End-to-end check of the interactive debugger: drives the real binary in a
# detached tmux session (send-keys), reads the screen (capture-pane) and
# checks what is on it. Usage: e2e.sh PATH/TO/wavedbg
# Run by TestE2ETmux; runs on its own too.
set -euo pipefail
BIN=${1:?usage: e2e.sh PATH/TO/wavedbg}
SOCK="wavedbg-e2e-$$"
S=dbg
T=(tmux -L "$SOCK")
cleanup() { "${T[@]}" kill-server 2>/dev/null || true; }
trap cleanup EXIT

fail() {
	echo "e2e: FAIL: $*" >&2
	echo "---- screen ----" >&2
	"${T[@]}" capture-pane -p -t "$S" >&2 || true
	exit 1
}

# wait_for TEXT: poll the screen until it shows TEXT (5 s).
wait_for() {
	for _ in $(seq 100); do
		if "${T[@]}" capture-pane -p -t "$S" 2>/dev/null | grep -qF -- "$1"; then
			return 0
		fi
		sleep 0.05
	done
	fail "screen never showed: $1"
}

# wait_gone TEXT WHY: poll until the screen no longer shows TEXT (5 s; tmux
# holds a lone Escape for its escape-time before passing it on).
wait_gone() {
	for _ in $(seq 100); do
		if ! "${T[@]}" capture-pane -p -t "$S" 2>/dev/null | grep -qF -- "$1"; then
			return 0
		fi
		sleep 0.05
	done
	fail "$2"
}

screen() { "${T[@]}" capture-pane -p -t "$S"; }

keys() { "${T[@]}" send-keys -t "$S" "$@"; }

# With no argument it opens the sample picker.
"${T[@]}" new-session -d -s first -x 120 -y 40 "TERM=xterm-256color $BIN; sleep 30"
S=first wait_for "pick a sample to debug"
S=first wait_for "smem_forms"
S=first wait_for "The four SMEM address forms"
echo "e2e: wavedbg with no argument opened the sample picker"

# Filter to vector_add, open it, run to its first global load and step it:
# the address decoder shows every lane's address, the counters the load.
"${T[@]}" send-keys -t first / vector_add Enter
S=first wait_for "filter: vector_add"
"${T[@]}" send-keys -t first Enter
S=first wait_for "vector_add:"
S=first wait_for "wave 0/2"
"${T[@]}" send-keys -t first : "until 0x187c" Enter
S=first wait_for "reached 0x187c"
S=first wait_for "GLOBAL, next  global_load_dword v6"
"${T[@]}" send-keys -t first s
S=first wait_for "pc 0x1884"
S=first wait_for "global_load_dword v6, v[4:5], off"
S=first wait_for "    1  0x100000204"
S=first wait_for "vm     672  v6"
echo "e2e: stepped vector_add's global load; per-lane addresses shown"

# o goes back to the picker; q quits from there.
"${T[@]}" send-keys -t first o
S=first wait_for "pick a sample to debug"
"${T[@]}" send-keys -t first q
echo "e2e: o returned to the picker"

# The four-wave reduction: LDS, s_barrier and wave switching.
"${T[@]}" new-session -d -s red -x 200 -y 60 "TERM=xterm-256color $BIN --sample reduction; sleep 30"
S=red wait_for "8 waves (8)"
S=red wait_for "  3 0,0,0    3 001500 running"
S=red wait_for "  4 1,0,0    0 ------ not run"
"${T[@]}" send-keys -t red : "until 0x1540" Enter
S=red wait_for "reached 0x1540"
# Passing s_barrier ran the other waves up to it.
S=red wait_for "  3 0,0,0    3 00153c barrier"
"${T[@]}" send-keys -t red : "lds" Enter
S=red wait_for "LDS"
S=red wait_for "0x00000001 0x00000002"
"${T[@]}" send-keys -t red ]
S=red wait_for "wave 1/8"
# A wave of the second work-group: a fresh dispatch after the first ran.
"${T[@]}" send-keys -t red : "wave 6" Enter
S=red wait_for "group 1,0,0 wave 6/8"
S=red wait_for "dispatched afresh"
S=red wait_for "  0 0,0,0    0 ------ done"
S=red wait_for "▸ 6 1,0,0    2 001500 running"
# Its first instruction is SMEM: addresses by dword, each into an SGPR.
S=red wait_for "dword  address      → sgpr"
S=red wait_for "    0  0x100000840  → s4"
"${T[@]}" send-keys -t red q
echo "e2e: reduction: LDS view and waves across the grid"

# The missing s_waitcnt: the explain line warns before the bad read and
# says afterwards that the old value was used.
"${T[@]}" new-session -d -s mw -x 200 -y 40 "TERM=xterm-256color $BIN --sample missing_waitcnt; sleep 30"
S=mw wait_for "wave 0/1"
"${T[@]}" send-keys -t mw s s s
S=mw wait_for "⚠ reads s8 before the load at 0x150c writes it (cycle 401)"
"${T[@]}" send-keys -t mw s
S=mw wait_for "⚠ the last step read s8 before the load at 0x150c wrote it"
"${T[@]}" send-keys -t mw q
echo "e2e: missing_waitcnt: warned before and after the early read"

# The rest drives the debugger's own two-wave sample.
"${T[@]}" new-session -d -s "$S" -x 120 -y 36 "TERM=xterm-256color $BIN --sample scale; sleep 30"
"${T[@]}" set-option -t "$S" remain-on-exit on >/dev/null

wait_for "1 disasm"
wait_for "s_load_dwordx2 s[4:5], s[0:1], 0x0"
wait_for "▶ 001500"
wait_for "wave 0/2"
echo "e2e: opened the bundled sample"

keys s
wait_for "step 1"
wait_for "▶ 001508"
wait_for "lgkm   200  s4,s5"
keys b
wait_for "step 0"
wait_for "▶ 001500"
echo "e2e: stepped forward and back"

keys j Space c
wait_for "breakpoint at 0x1508 after 1 step"
echo "e2e: breakpoint at the cursor and continue"

keys : "set s10 0x1234" Enter
wait_for "s10 = 0x1234"
wait_for "0x00001234"
echo "e2e: command line set a register"

keys :
keys Up
wait_for ":set s10 0x1234"
keys C-u unwa Tab
wait_for ":unwatch"
keys Escape
wait_gone ":unwatch" "esc did not close the command line"
echo "e2e: command history (up) and completion (tab)"

keys ]
wait_for "wave 1/2"
keys [
wait_for "wave 0/2"
echo "e2e: switched waves"

keys '?'
wait_for "commands (press : first"
keys x
wait_gone "commands (press : first" "help overlay did not close"
echo "e2e: help overlay"

"${T[@]}" resize-window -t "$S" -x 80 -y 24
sleep 0.3
wait_for "1 disasm"
[ "$(screen | wc -l)" -eq 24 ] || fail "80x24 screen has $(screen | wc -l) lines"
# At 80x24 the help does not fit: its title says how to scroll it.
keys '?'
wait_for "j/k scroll · other keys close"
keys x
# Six panes share the right-hand slot; its title keeps the tab marker.
keys 3
wait_for "3 vgpr hex  v0 lane 0 ‹tab 2/7›"
keys z
wait_for "┏━ 3 vgpr hex  v0 lane 0 ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┓"
keys z 1
wait_for "┏━ 1 disasm"
"${T[@]}" resize-window -t "$S" -x 20 -y 10
sleep 0.3
wait_for " scale"
screen | grep -q "Pane is dead" && fail "the debugger died at 20x10"
"${T[@]}" resize-window -t "$S" -x 200 -y 60
wait_for "8 waves (2)"
wait_for "5 scalar cache"
echo "e2e: resized to 80x24, 20x10 and 200x60"

# NO_COLOR: attributes (bold, reverse) only, no colour escapes.
"${T[@]}" new-session -d -s mono -x 120 -y 40 "NO_COLOR=1 TERM=xterm-256color $BIN --sample scale; sleep 30"
S=mono wait_for "wave 0/2"
"${T[@]}" send-keys -t mono s
S=mono wait_for "step 1"
"${T[@]}" capture-pane -p -e -t mono | grep -qP '\x1b\[(?:[0-9]+;)*(?:3[0-7]|4[0-7]|9[0-7]|10[0-7]|38|48)(?:;|m)' &&
	S=mono fail "NO_COLOR screen has colour escapes"
"${T[@]}" capture-pane -p -e -t mono | grep -qP '\x1b\[(?:[0-9]+;)*7m' || S=mono fail "NO_COLOR screen has no reverse video (cursor, status)"
"${T[@]}" send-keys -t mono q
echo "e2e: NO_COLOR draws without colour"

# gdb's command language on the ':' line.
G=("${T[@]}" send-keys -t gdb)
"${T[@]}" new-session -d -s gdb -x 200 -y 50 "TERM=xterm-256color $BIN --sample vector_add; sleep 30"
S=gdb wait_for "wave 0/"
"${G[@]}" : 'b 0x1830' Enter
S=gdb wait_for "breakpoint 1 at 0x1830"
"${G[@]}" : c Enter
S=gdb wait_for "breakpoint at 0x1830 after 8 steps"
"${G[@]}" : 'p/x exec' Enter
S=gdb wait_for "\$1 = 0xffffffffffffffff"
"${G[@]}" : si Enter
S=gdb wait_for "step 9 "
"${G[@]}" : Enter
S=gdb wait_for "step 10 "
"${G[@]}" : 'set s8 = 5' Enter
S=gdb wait_for "s8 = 0x5"
"${G[@]}" q
S=gdb wait_for "quit anyway? (y/n)"
"${G[@]}" n
S=gdb wait_for "not quitting"
"${G[@]}" q y
echo "e2e: gdb commands: break, continue, print, Enter repeats, q asks after set"

keys q
for _ in $(seq 100); do
	if [ "$("${T[@]}" display-message -p -t "$S" '#{pane_dead}#{pane_current_command}')" != "1wavedbg" ] &&
		! "${T[@]}" list-panes -t "$S" -F '#{pane_current_command}' | grep -q wavedbg; then
		break
	fi
	sleep 0.05
done
"${T[@]}" list-panes -t "$S" -F '#{pane_current_command}' | grep -q wavedbg && fail "q did not quit"
echo "e2e: quit"
echo "e2e: PASS"
