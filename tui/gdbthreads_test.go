package tui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/samples"
)

// openTwoWaves opens vector_add with work-groups of 128 work-items: two
// waves, no barrier.
func openTwoWaves(t *testing.T) (*EmuDebuggee, *Model) {
	t.Helper()
	s, ok := samples.Lookup("vector_add")
	if !ok {
		t.Fatal("no sample vector_add")
	}
	text := bytes.Replace(s.Manifest, []byte(`"block": [64]`), []byte(`"block": [128]`), 1)
	mf, err := manifest.Parse(text, "")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(s.CodeObject, Launch{Manifest: mf})
	if err != nil {
		t.Fatal(err)
	}
	if n := d.sess.Waves(); n != 2 {
		t.Fatalf("the work-group has %d waves, want 2", n)
	}
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(160, 40))
	return d, m
}

// nthAddr is the address of d's instruction k (from 0).
func nthAddr(d *EmuDebuggee, k int) uint64 { return d.Program()[k].Addr }

// TestThreadApplyAllStepi: thread apply all stepi N steps every wave of
// the work-group N instructions, the selected wave staying selected and
// shown; Enter repeats it.
func TestThreadApplyAllStepi(t *testing.T) {
	tests := []struct {
		cmd   string
		steps uint64
	}{
		{"thread apply all stepi", 1},
		{"thread apply all si 3", 3},
		{"thread apply all stepi 7", 7},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			d, m := openTwoWaves(t)
			runScript(t, m, []gdbStep{{tt.cmd, fmt.Sprintf("stepped every wave %d: wave 0 at 0x%x, wave 1 at 0x%x", tt.steps, nthAddr(d, int(tt.steps)), nthAddr(d, int(tt.steps)))}})
			for i, w := range d.waves {
				if w.m.Steps() != tt.steps {
					t.Errorf("wave %d took %d steps, want %d", i, w.m.Steps(), tt.steps)
				}
			}
			if d.Selected() != 0 || m.frame.Waves.Selected != 0 {
				t.Errorf("wave %d selected (panes: %d), want 0", d.Selected(), m.frame.Waves.Selected)
			}
			if pc, _ := d.PC(); m.frame.Disasm.PC != pc || pc != nthAddr(d, int(tt.steps)) {
				t.Errorf("the panes show pc %#x, the wave is at %#x, want %#x", m.frame.Disasm.PC, pc, nthAddr(d, int(tt.steps)))
			}
			if n := len(d.w().recs); n != 1 {
				t.Errorf("the selected wave keeps %d records, want its last step's", n)
			}
			runScript(t, m, []gdbStep{{"", fmt.Sprintf("stepped every wave %d", tt.steps)}})
			if s := d.waves[1].m.Steps(); s != 2*tt.steps {
				t.Errorf("after Enter wave 1 took %d steps, want %d", s, 2*tt.steps)
			}
		})
	}
}

// TestThreadApplyAllStopsAtBreakpoint: thread apply all stepi stops
// before its last round at a breakpoint a wave reaches: the selected
// wave's, or an any-wave one, which selects the first wave to reach it.
func TestThreadApplyAllStopsAtBreakpoint(t *testing.T) {
	tests := []struct {
		name, brk string
		sel       int
		want      string
		wantSel   int
	}{
		{"selected wave's", "b %#x", 1, "breakpoint at %#x", 1},
		{"any wave, selected reaches it", "b %#x thread all", 0, "breakpoint at %#x", 0},
		{"any wave, another reaches it", "b %#x thread all", 1, "wave 0 hit breakpoint 1 at %#x", 0},
		{"any wave, condition holds on wave 1", "b %#x thread all if v0[0] == 64", 0, "wave 1 hit breakpoint 1 at %#x (v0[0] == 0x40)", 1},
		{"any wave, expression holds on wave 1", "b %#x thread all if v0[0] / 64 == 1", 0, "wave 1 hit breakpoint 1 at %#x (v0[0] / 64 == 1)", 1},
		{"temporary, another wave", "tbreak %#x thread all", 1, "wave 0 hit temporary breakpoint 1 at %#x", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, m := openTwoWaves(t)
			at := nthAddr(d, 2)
			runScript(t, m, []gdbStep{{fmt.Sprintf("thread %d", tt.sel), fmt.Sprintf("wave %d", tt.sel)}, {fmt.Sprintf(tt.brk, at), "breakpoint 1"}})
			runScript(t, m, []gdbStep{{"thread apply all si 5", fmt.Sprintf(tt.want, at)}})
			for i, w := range d.waves {
				if w.m.Steps() != 2 {
					t.Errorf("wave %d took %d steps, want 2 (stopped at the breakpoint)", i, w.m.Steps())
				}
			}
			if d.Selected() != tt.wantSel || m.frame.Waves.Selected != tt.wantSel {
				t.Errorf("wave %d selected (panes: %d), want %d", d.Selected(), m.frame.Waves.Selected, tt.wantSel)
			}
			if _, temp := m.breaks[at]; temp == strings.HasPrefix(tt.brk, "tbreak") {
				t.Errorf("breakpoint kept: %v, want %v", temp, !temp)
			}
		})
	}
}

// TestThreadApplyAllStopsAtEnd: the waves end before the rounds do.
func TestThreadApplyAllStopsAtEnd(t *testing.T) {
	d, m := openTwoWaves(t)
	runScript(t, m, []gdbStep{{"thread apply all si 1000", "every wave of the work-group has ended"}})
	for i, w := range d.waves {
		if w.m.State() != emu.Ended {
			t.Errorf("wave %d is %s, want ended", i, w.m.State())
		}
	}
	runScript(t, m, []gdbStep{{"thread apply all si", "every wave of the work-group has ended"}})
}

// TestThreadCommandErrors: thread apply runs only stepi on all waves;
// break's thread clause takes only all (emu cannot tie a breakpoint to
// wave N); a Debuggee without a work-group session cannot step one.
func TestThreadCommandErrors(t *testing.T) {
	d, m := openTwoWaves(t)
	at := nthAddr(d, 2)
	runScript(t, m, []gdbStep{
		{"thread apply all next", `thread apply all runs only stepi (si), not "next"`},
		{"thread apply all continue", `not "continue"`},
		{"thread apply 1 si", "want: thread apply all stepi [N]"},
		{"thread apply all", "want: thread apply all stepi [N]"},
		{"thread apply all si x", `bad count "x"`},
		{"thread apply all si 2 3", "want: thread apply all stepi [N]"},
		{"thread 1 2", "want: thread [N]"},
		{"thread 9", `no wave "9"`},
		{fmt.Sprintf("b %#x thread 1", at), "thread 1: a breakpoint stops the selected wave, or with thread all any wave; the emulator cannot tie one to wave 1"},
		{fmt.Sprintf("b %#x thread", at), "want: thread all"},
		{fmt.Sprintf("b %#x thread any", at), `thread "any": want thread all`},
		{fmt.Sprintf("tbreak %#x thread all when", at), "want: break LOC [thread all] [if COND]"},
		{"info b", "none"},
	})
	fm := New(newFake(), Options{Color: ColorPlain})
	fm.Update(winSize(120, 40))
	runScript(t, fm, []gdbStep{{"thread apply all si", "thread apply all needs the emulator's work-group session"}})
}

// TestAnyWaveBreakpointOnContinue: in reduction's work-group of four, an
// any-wave breakpoint reached by a wave continue brings to the barrier
// stops it and selects it; its condition is evaluated on that wave.
func TestAnyWaveBreakpointOnContinue(t *testing.T) {
	tests := []struct {
		brk  string
		want []string // what each continue says
		sel  []int    // and the wave then selected
	}{
		{"b %#x thread all", []string{"breakpoint at %#x", "wave 1 hit breakpoint 1 at %#x", "wave 2 hit breakpoint 1 at %#x"}, []int{0, 1, 2}},
		{"b %#x thread all if v0[0] == 128", []string{"wave 2 hit breakpoint 1 at %#x (v0[0] == 0x80)"}, []int{2}},
		{"tbreak %#x thread all if v0[0] == 64", []string{"wave 1 hit temporary breakpoint 1 at %#x (v0[0] == 0x40)"}, []int{1}},
		{"b %#x", []string{"breakpoint at %#x", "the wave has ended"}, []int{0, 0}}, // the other waves pass it
	}
	for _, tt := range tests {
		t.Run(tt.brk, func(t *testing.T) {
			d := openBundled(t, "reduction")
			m := New(d, Options{Color: ColorPlain})
			m.Update(winSize(160, 40))
			at := addrOf(t, d, "ds_write_b32", 1)
			runScript(t, m, []gdbStep{{fmt.Sprintf(tt.brk, at), "breakpoint 1"}})
			for k, want := range tt.want {
				if strings.Contains(want, "%") {
					want = fmt.Sprintf(want, at)
				}
				runScript(t, m, []gdbStep{{"c", want}})
				if d.Selected() != tt.sel[k] || m.frame.Waves.Selected != tt.sel[k] {
					t.Fatalf("continue %d: wave %d selected (panes: %d), want %d", k+1, d.Selected(), m.frame.Waves.Selected, tt.sel[k])
				}
				if pc, _ := d.PC(); tt.sel[k] != 0 && pc != at {
					t.Fatalf("continue %d: wave %d at %#x, want %#x", k+1, tt.sel[k], pc, at)
				}
			}
		})
	}
}

// TestInfoBreakpointsWave: info breakpoints says which wave each
// breakpoint stops: any wave, or the selected one.
func TestInfoBreakpointsWave(t *testing.T) {
	d, m := openTwoWaves(t)
	a, b := nthAddr(d, 2), nthAddr(d, 4)
	runScript(t, m, []gdbStep{
		{fmt.Sprintf("b %#x thread all", a), fmt.Sprintf("breakpoint 1 at %#x for any wave", a)},
		{fmt.Sprintf("tbreak %#x thread all if s4 == 1", b), fmt.Sprintf("temporary breakpoint 2 at %#x for any wave if s4 == 0x1", b)},
		{fmt.Sprintf("b %#x", nthAddr(d, 6)), "breakpoint 3"},
		{"info breakpoints", fmt.Sprintf("1   breakpoint y %#x  any wave\n2   tbreak     y %#x  any wave if s4 == 0x1\n3   breakpoint y %#x  wave 0", a, b, nthAddr(d, 6))},
		{"thread 1", "wave 1"},
		{"info b", fmt.Sprintf("3   breakpoint y %#x  wave 1", nthAddr(d, 6))},
	})
}

// TestThreadAliases: info threads is info waves, thread [N] is wave [N];
// help explains the thread forms of thread and break.
func TestThreadAliases(t *testing.T) {
	_, m := openTwoWaves(t)
	runScript(t, m, []gdbStep{{"info waves", "* wave 0"}})
	waves := strings.Join(m.gdb.out, "\n")
	runScript(t, m, []gdbStep{{"info threads", waves}})
	if m.gdb.outTitle != "info threads" {
		t.Errorf("title %q", m.gdb.outTitle)
	}
	runScript(t, m, []gdbStep{
		{"thread", "wave 0 of 2: work-group"},
		{"thread 1", "wave 1"},
		{"wave", "wave 1 of 2"},
		{"help thread", "thread [N] | apply all stepi [N] — as wave N; apply all stepi: N instructions of every wave of the work-group"},
		{"help break", "break|b|bp [LOC [thread all] [if COND]] — breakpoint at an address or label (alone: toggle at the cursor; thread all: any wave)"},
		{"help tbreak", "tbreak LOC [thread all] [if COND]"},
	})
}

// TestThreadApplyAllBatch: in --batch, thread apply all stepi prints its
// stop and where the selected wave stands, as stepi does.
func TestThreadApplyAllBatch(t *testing.T) {
	d, m := openTwoWaves(t)
	at := nthAddr(d, 2)
	tests := []struct{ line, want string }{
		{fmt.Sprintf("b %#x thread all", at), fmt.Sprintf("breakpoint 1 at %#x for any wave", at)},
		{"thread 1", "wave 1"},
		{"thread apply all si 3", fmt.Sprintf("wave 0 hit breakpoint 1 at %#x\n%#x  %s", at, at, d.Program()[2].Text)},
		{"thread apply all si 2", fmt.Sprintf("stepped every wave 2: wave 0 at %#x, wave 1 at %#x\n%#x  %s", nthAddr(d, 4), nthAddr(d, 4), nthAddr(d, 4), d.Program()[4].Text)},
	}
	for _, tt := range tests {
		out, quit, err := m.Batch(tt.line)
		if err != nil || quit || out != tt.want {
			t.Errorf("%s: %q (quit %v, err %v), want %q", tt.line, out, quit, err, tt.want)
		}
	}
	if _, _, err := m.Batch("thread apply all next"); err == nil || !strings.Contains(err.Error(), "thread: thread apply all runs only stepi") {
		t.Errorf("thread apply all next: err %v", err)
	}
}

// TestThreadApplyAllStopsAtWatchpoint: a watched register of the selected
// wave stops thread apply all stepi right after the instruction that
// changed it, in the middle of its round.
func TestThreadApplyAllStopsAtWatchpoint(t *testing.T) {
	d, m := openTwoWaves(t)
	runScript(t, m, []gdbStep{{"watch s4", "watchpoint 1: s4"}, {"thread apply all si 20", "watchpoint s4 changed"}})
	s0, s1 := d.waves[0].m.Steps(), d.waves[1].m.Steps()
	if s0 != 6 || s1 != 5 {
		t.Errorf("waves took %d and %d steps, want 6 and 5 (wave 0's sixth instruction sets s4)", s0, s1)
	}
	runScript(t, m, []gdbStep{{"thread apply all si", "stepped every wave 1"}})
}

// TestThreadApplyAllBarrier: in reduction's work-group of four, the
// rounds move the waves together through the s_barrier: each passes it
// once every wave has reached it.
func TestThreadApplyAllBarrier(t *testing.T) {
	d := openBundled(t, "reduction")
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(160, 40))
	bar := addrOf(t, d, "s_barrier", 1)
	runScript(t, m, []gdbStep{{"thread apply all si 12", fmt.Sprintf("stepped every wave 12: wave 0 at %#x (barrier), wave 1 at %#x (barrier)", bar, bar)}})
	runScript(t, m, []gdbStep{{"thread apply all si 18", "stepped every wave 18"}})
	for i, w := range d.waves {
		if d.sess.Barriers(i) < 1 || w.m.Steps() != d.waves[0].m.Steps() || w.m.PC() <= bar {
			t.Errorf("wave %d: %d steps, %d barriers passed, at %#x; want wave 0's %d steps, past the barrier at %#x", i, w.m.Steps(), d.sess.Barriers(i), w.m.PC(), d.waves[0].m.Steps(), bar)
		}
	}
}
