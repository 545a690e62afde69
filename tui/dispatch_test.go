package tui

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/samples"
)

// openBundled opens a bundled teaching sample with its manifest, as
// `wavedbg --sample NAME` does.
func openBundled(t testing.TB, name string) *EmuDebuggee {
	t.Helper()
	s, ok := samples.Lookup(name)
	if !ok {
		t.Fatalf("no sample %s", name)
	}
	mf, err := s.RunManifest()
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(s.CodeObject, Launch{Manifest: mf})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// runToEnd steps the selected wave until it ends.
func runToEnd(t *testing.T, d *EmuDebuggee) {
	t.Helper()
	for i := 0; i < 100000; i++ {
		if _, ok := d.PC(); !ok {
			return
		}
		if err := d.Step(); err != nil {
			t.Fatalf("step %d at %#x: %v", i, d.w().m.PC(), err)
		}
	}
	t.Fatal("the wave did not end")
}

func (d *EmuDebuggee) buffer(name string) Buffer {
	for _, b := range d.Buffers() {
		if b.Name == name {
			return b
		}
	}
	return Buffer{}
}

// TestLDSDirect steps lds_direct's buffer load into LDS and its DS read;
// the LDS view reads the work-group's LDS.
func TestLDSDirect(t *testing.T) {
	d := openBundled(t, "lds_direct")
	for pc, _ := d.PC(); pc != 0x1540; pc, _ = d.PC() {
		if err := d.Step(); err != nil {
			t.Fatal(err)
		}
	}
	var f Frame
	d.Fill(&f)
	if a := f.Addr; !a.LDS || a.Kind != "DS (LDS), next" || len(a.Lanes) != 64 || a.Lanes[1].Addr != 0x104 || !a.Lanes[63].InRange || a.Conflicts != 0 {
		t.Errorf("ds_read prediction: %+v", a)
	}
	runToEnd(t, d)
	b, valid := d.ReadMem(0x100, 256, true)
	for lane := 0; lane < 64; lane++ {
		if got, want := binary.LittleEndian.Uint32(b[4*lane:]), uint32(0xa0000000+4*(63-lane)); got != want || !valid[4*lane] {
			t.Fatalf("LDS[0x100+%d*4] = %#x (valid %v), want %#x", lane, got, valid[4*lane], want)
		}
	}
	if _, valid := d.ReadMem(510, 4, true); !valid[1] || valid[2] {
		t.Errorf("the 512-byte LDS: validity %v around its end", valid)
	}
	dst := d.buffer("dst")
	out, _ := d.ReadMem(dst.Addr, 4, false)
	if got := binary.LittleEndian.Uint32(out); got != 0xa00000fc {
		t.Errorf("dst[0] = %#x, want 0xa00000fc", got)
	}
	if err := d.WriteMem(0x100, []byte{1, 0, 0, 0}, true); err != nil {
		t.Fatal(err)
	}
	if b, _ := d.ReadMem(0x100, 1, true); b[0] != 1 {
		t.Errorf("LDS write did not land: %v", b)
	}
	if err := d.WriteMem(510, make([]byte, 4), true); err == nil {
		t.Error("a write past the LDS allocation succeeded")
	}
}

// TestReductionBarriers steps the four-wave reduction: at each s_barrier
// the other waves run up to it, so the selected wave's sum is right.
func TestReductionBarriers(t *testing.T) {
	d := openBundled(t, "reduction")
	rows := d.Waves()
	// Two work-groups of four waves; the first is loaded.
	if len(rows) != 8 || d.Selected() != 0 {
		t.Fatalf("waves %+v, selected %d", rows, d.Selected())
	}
	for _, r := range rows[4:] {
		if !r.Idle || r.State != "not run" || r.Group != [3]int{1, 0, 0} {
			t.Errorf("wave %d of group 1 before it runs: %+v", r.ID, r)
		}
	}
	rows = rows[:4]
	// Every wave starts at the kernel's entry.
	for _, r := range rows {
		if r.State != "running" || r.PC != 0x1500 {
			t.Errorf("wave %d at the start: %s at %#x", r.Wave, r.State, r.PC)
		}
	}
	// Wave 0 passes the first barrier; wave 1 then passes it too without
	// dragging wave 0 (already past it) to the next one.
	for i := 0; i < 100; i++ {
		if d.Waves()[0].PC == 0x1540 {
			break
		}
		if err := d.Step(); err != nil {
			t.Fatal(err)
		}
	}
	// Passing it ran the other waves up to it.
	for _, r := range d.Waves()[1:4] {
		if r.State != "barrier" || r.PC != 0x153c {
			t.Errorf("wave %d after wave 0 passed the barrier: %s at %#x", r.Wave, r.State, r.PC)
		}
	}
	if err := d.SelectWave(1); err != nil {
		t.Fatal(err)
	}
	if err := d.Step(); err != nil {
		t.Fatal(err)
	}
	if w := d.Waves(); w[0].PC != 0x1540 || w[1].PC != 0x1540 {
		t.Errorf("after wave 1 passes the barrier: %+v", w)
	}
	if err := d.SelectWave(0); err != nil {
		t.Fatal(err)
	}
	runToEnd(t, d)
	out := d.buffer("out")
	b, _ := d.ReadMem(out.Addr, 4, false)
	if got := binary.LittleEndian.Uint32(b); got != 256*257/2 {
		t.Errorf("out[0] = %d, want %d", got, 256*257/2)
	}
	for i := 1; i < 4; i++ {
		if err := d.SelectWave(i); err != nil {
			t.Fatal(err)
		}
		runToEnd(t, d)
	}
	for _, r := range d.Waves()[:4] {
		if r.State != "ended" {
			t.Errorf("wave %d: %s", r.Wave, r.State)
		}
	}
}

// TestSelectWaveOtherGroup picks a wave of the second work-group: a fresh
// dispatch in which the first group has run to completion (out[0] is its
// sum) and the second group's waves start at the entry; running them
// writes out[1].
func TestSelectWaveOtherGroup(t *testing.T) {
	d := openBundled(t, "reduction")
	if err := d.Step(); err != nil {
		t.Fatal(err)
	}
	if err := d.SelectWave(5); err != nil {
		t.Fatal(err)
	}
	if d.Selected() != 5 || d.StepCount() != 0 {
		t.Fatalf("selected %d, step %d", d.Selected(), d.StepCount())
	}
	rows := d.Waves()
	for i, r := range rows {
		idle := i < 4
		if r.ID != i || r.Idle != idle || r.Group != [3]int{i / 4, 0, 0} || r.Wave != i%4 {
			t.Errorf("row %d: %+v", i, r)
		}
		if idle && r.State != "done" || !idle && (r.State != "running" || r.PC != 0x1500) {
			t.Errorf("row %d: %s at %#x", i, r.State, r.PC)
		}
	}
	out := d.buffer("out")
	read := func(i int) uint32 {
		b, _ := d.ReadMem(out.Addr+uint64(4*i), 4, false)
		return binary.LittleEndian.Uint32(b)
	}
	if got := read(0); got != 256*257/2 {
		t.Errorf("out[0] = %d after group 0 ran, want %d", got, 256*257/2)
	}
	for i := 4; i < 8; i++ {
		if err := d.SelectWave(i); err != nil {
			t.Fatal(err)
		}
		runToEnd(t, d)
	}
	if got, want := read(1), uint32((257+512)*256/2); got != want {
		t.Errorf("out[1] = %d, want %d", got, want)
	}
	// Back to the first group: another fresh dispatch.
	if err := d.SelectWave(0); err != nil || d.Selected() != 0 || !d.Waves()[4].Idle {
		t.Errorf("back to wave 0: %v, selected %d", err, d.Selected())
	}
	if err := d.SelectWave(8); err == nil {
		t.Error("wave 8 of an 8-wave grid was selected")
	}
}

// TestInFlightIssuer checks that the counters pane names the instruction
// that issued each operation (emu's InFlight.Index), with the registers a
// vector load will write.
func TestInFlightIssuer(t *testing.T) {
	d := openBundled(t, "vector_add")
	for i := 0; i < 200; i++ {
		var f Frame
		d.Fill(&f)
		for _, op := range f.Counters.Ops {
			if op.Counter == "vm" {
				if op.Inst != "global_load_dword v6, v[4:5], off" || op.Dests != "v6" {
					t.Errorf("in flight: %+v", op)
				}
				return
			}
		}
		if err := d.Step(); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("no vector load in flight")
}

// TestMissingWaitcntWarns steps the missing-s_waitcnt sample: before the
// s_add_u32 that reads s8 while its load is in flight the explain line
// warns, and after it executes it says the old value was used.
func TestMissingWaitcntWarns(t *testing.T) {
	d := openBundled(t, "missing_waitcnt")
	explain := func() string {
		var f Frame
		d.Fill(&f)
		return f.Explain
	}
	for range 3 {
		if e := explain(); strings.Contains(e, "⚠") {
			t.Errorf("warning before the hazard: %s", e)
		}
		if err := d.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if e := explain(); !strings.HasPrefix(e, "⚠ reads s8 before the load at 0x150c writes it") || !strings.Contains(e, "s_waitcnt lgkmcnt(0)") || !strings.Contains(e, "next: scalar ALU: s9 ← s8, 1") {
		t.Errorf("before the hazard: %s", e)
	}
	if err := d.Step(); err != nil {
		t.Fatal(err)
	}
	if e := explain(); !strings.HasPrefix(e, "⚠ the last step read s8 before the load at 0x150c wrote it") {
		t.Errorf("after the hazard: %s", e)
	}
	// The s_waitcnt that follows waits; the next read is safe.
	if err := d.Step(); err != nil {
		t.Fatal(err)
	}
	if e := explain(); strings.Contains(e, "⚠") {
		t.Errorf("warning after s_waitcnt: %s", e)
	}
}

// TestPredictFormatLoad stops at buffer_format's buffer_load_format_xyzw:
// each lane reads one 8_8_8_8 element (4 bytes) of a 16-byte buffer, so
// every lane's address is in range, though the load fills four VGPRs.
func TestPredictFormatLoad(t *testing.T) {
	d := openBundled(t, "buffer_format")
	for pc, _ := d.PC(); pc != 0x1578; pc, _ = d.PC() {
		if err := d.Step(); err != nil {
			t.Fatal(err)
		}
	}
	var f Frame
	d.Fill(&f)
	if !strings.HasPrefix(f.Addr.Inst, "buffer_load_format_xyzw") || len(f.Addr.Lanes) != 4 {
		t.Fatalf("address decoder: %+v", f.Addr)
	}
	for _, l := range f.Addr.Lanes {
		if !l.InRange || l.Why != "" {
			t.Errorf("lane %d at %#x: %s", l.Lane, l.Addr, l.Why)
		}
	}
	if !strings.Contains(strings.Join(f.Addr.Steps, "\n"), "4 active lane(s) × 4 bytes") {
		t.Errorf("steps: %q", f.Addr.Steps)
	}
}

// TestWavesPastListCapNameTheirGroups: a wave opened past the first
// window of waves (--wave N) gets a list around it whose rows name their
// work-groups, not group 0 at pc 0.
func TestWavesPastListCapNameTheirGroups(t *testing.T) {
	s, _ := samples.Lookup("vector_add")
	mf, err := s.RunManifest()
	if err != nil {
		t.Fatal(err)
	}
	const waves = waveWindow + 100
	mf.Grid = manifest.Dim{V: [3]uint64{64 * waves, 1, 1}, Dims: 1}
	for i := range mf.Args {
		if mf.Args[i].Kind == manifest.Buffer {
			mf.Args[i].Size = 4 * 64 * waves
		}
	}
	d, err := Open(s.CodeObject, Launch{Manifest: mf, Wave: waves - 1})
	if err != nil {
		t.Fatal(err)
	}
	rows := d.Waves()
	if len(rows) != waveWindow || d.WaveCount() != waves || d.Selected() != waves-1 {
		t.Fatalf("%d rows of %d, wave %d selected; want %d rows of %d, the last selected", len(rows), d.WaveCount(), d.Selected(), waveWindow, waves)
	}
	first := waves - waveWindow
	for _, i := range []int{first, waveWindow - 1, waveWindow, waves - 2, waves - 1} {
		if r := rows[i-first]; r.Group != [3]int{i, 0, 0} || r.ID != i {
			t.Errorf("wave %d: id %d group %v, want id %d group [%d 0 0]", i, r.ID, r.Group, i, i)
		}
	}
}
