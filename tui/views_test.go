package tui

import (
	"os"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/manifest"
)

// stepToInst steps d's wave until the next instruction's text starts with
// prefix.
func stepToInst(t *testing.T, d *EmuDebuggee, prefix string) {
	t.Helper()
	for i := 0; i < 1000; i++ {
		if s := d.snapshot(); strings.HasPrefix(d.instText(s.Index), prefix) {
			return
		}
		if err := d.Step(); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("never reached %q", prefix)
}

// openGFX8 opens the int_alu oracle kernel built for gfx803.
func openGFX8(t *testing.T) *EmuDebuggee {
	t.Helper()
	co, err := os.ReadFile("../emu/testdata/cl/gfx803/int_alu.co")
	if err != nil {
		t.Fatal(err)
	}
	mf, err := manifest.Load("../emu/testdata/cl/int_alu.json")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(co, Launch{Manifest: mf})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestDecoderMubufSoffsetRange: on mubuf_addressing's case 4 the decoder
// shows lanes 13 and up out of range (offset + 4 ≥ num_records −
// soffset), as the step then records; it used to ignore SOFFSET and show
// lanes 13 and 14 in range.
func TestDecoderMubufSoffsetRange(t *testing.T) {
	d := openBundled(t, "mubuf_addressing")
	stepToInst(t, d, "buffer_load_dword v7, v1, s[8:11], s28 offen offset:4")
	var f Frame
	d.Fill(&f)
	if len(f.Addr.Lanes) != 64 {
		t.Fatalf("decoder: %+v", f.Addr)
	}
	for _, l := range f.Addr.Lanes {
		if in := l.Lane < 13; l.InRange != in || !in && !strings.Contains(l.Why, "num_records") {
			t.Errorf("lane %d at %#x: in range %v (%s), want %v", l.Lane, l.Addr, l.InRange, l.Why, in)
		}
	}
	// The step agrees: lanes 13 and up load 0.
	if err := d.Step(); err != nil {
		t.Fatal(err)
	}
	rec := d.w().recs[len(d.w().recs)-1]
	for i, a := range rec.Addrs {
		if l := f.Addr.Lanes[i]; a.Lane != l.Lane || a.Addr != l.Addr || a.InRange != l.InRange {
			t.Errorf("lane %d: the step accessed %+v, the decoder showed %+v", a.Lane, a, l)
		}
	}
}

// TestExplainWaitcntGFX8: on GFX8 VM_CNT is 4 bits, so s_waitcnt
// lgkmcnt(0) (vmcnt field 15) waits for LGKM_CNT only; the explain line
// used to read the field as GFX9's 6 bits and add a wait for vm_cnt ≤ 15.
func TestExplainWaitcntGFX8(t *testing.T) {
	d := openGFX8(t)
	stepToInst(t, d, "s_waitcnt lgkmcnt(0)")
	var f Frame
	d.Fill(&f)
	if !strings.Contains(f.Explain, "waits until lgkm_cnt ≤ 0") || strings.Contains(f.Explain, "vm_cnt") {
		t.Errorf("explain: %s", f.Explain)
	}
}

// TestTtmpGFX8: ttmp0 is scalar code 112 on GFX8 (108 is TBA_LO): setting
// it writes and shows TTMP0; it used to write TBA_LO.
func TestTtmpGFX8(t *testing.T) {
	d := openGFX8(t)
	r, err := ParseRegRef("ttmp0")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetReg(r, 0x1234); err != nil {
		t.Fatal(err)
	}
	if v, err := d.Reg(r); err != nil || v != 0x1234 {
		t.Errorf("ttmp0 reads %#x (%v), want 0x1234", v, err)
	}
	if s := d.w().m.Snapshot(); len(s.TTMP) != 12 || s.TTMP[0] != 0x1234 {
		t.Errorf("emu's TTMP0 = %v, want 0x1234 of 12", s.TTMP)
	}
	var f Frame
	d.Fill(&f)
	for _, c := range f.SGPR.Regs {
		if c.Name == "ttmp0" && c.Value != 0x1234 {
			t.Errorf("the register pane shows ttmp0 = %#x", c.Value)
		}
	}
}

// TestWatchTtmpGFX8UsesEmuCodes: emu is told which scalar slot a ttmp
// watch watches by its own numbering (GFX8's ttmp0 is code 112, not
// GFX9's 108), and ttmp12, which GFX8 lacks, is not watched as code 124
// (M0).
func TestWatchTtmpGFX8UsesEmuCodes(t *testing.T) {
	d := openGFX8(t)
	for _, c := range []struct {
		name string
		code int
		ok   bool
	}{{"ttmp0", 112, true}, {"ttmp11", 123, true}, {"ttmp12", 0, false}} {
		r, err := ParseRegRef(c.name)
		if err != nil {
			t.Fatal(err)
		}
		ws, ok := d.emuWatches(&watchpoint{ref: &r})
		if ok != c.ok || ok && (len(ws) != 1 || ws[0].Reg != c.code) {
			t.Errorf("%s: %+v, %v; want code %d, %v", c.name, ws, ok, c.code, c.ok)
		}
	}
}
