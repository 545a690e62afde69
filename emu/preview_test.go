package emu_test

import (
	"context"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/samples"
)

// mubufMachine prepares the mubuf_addressing sample's wave 0.
func mubufMachine(t *testing.T) *emu.Machine {
	t.Helper()
	s, ok := samples.Lookup("mubuf_addressing")
	if !ok {
		t.Fatal("no mubuf_addressing sample")
	}
	l := sampleLaunch(t, s)
	sess, err := emu.PrepareWave(context.Background(), l, emu.GridConfig{Config: emu.DefaultConfig(l.Target)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return sess.Machine
}

// stepTo steps m until the next instruction prints as text.
func stepTo(t *testing.T, m *emu.Machine, text string) {
	t.Helper()
	for i := 0; i < 100; i++ {
		if p, ok := m.Preview(); ok && p.Inst != nil && p.Inst.String() == text {
			return
		}
		if _, err := m.Step(); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("never reached %q", text)
}

// TestPreviewMubufSoffsetStrideRange: the buffer range check takes SOFFSET
// and the OFFSET ≥ STRIDE rule into account, and swizzling moves the
// address, in Preview exactly as in the step. The debugger used to show
// lanes 13 and 14 of case 4 in range (it ignored SOFFSET) where the
// emulator loads 0.
func TestPreviewMubufSoffsetStrideRange(t *testing.T) {
	for _, c := range []struct {
		inst  string
		setV3 bool     // v3 (case 3's offset) = 8, the stride
		low   emu.Rule // the rule of the lanes below in
		in    int      // the first lane of why
		why   emu.Rule // the rule of the lanes from in on
		swz   bool
	}{
		{inst: "buffer_load_dword v7, v1, s[8:11], s28 offen offset:4", in: 13, why: emu.OutNumRecords},
		{inst: "buffer_load_dword v5, v0, s[12:15], 0 idxen", in: 16, why: emu.OutIndex},
		{inst: "buffer_load_dword v6, v[2:3], s[12:15], 0 idxen offen", setV3: true, low: emu.OutStride, in: 16, why: emu.OutIndex},
		{inst: "buffer_load_dword v8, v0, s[16:19], 0 idxen offset:4", in: 16, why: emu.OutIndex, swz: true},
	} {
		t.Run(c.inst, func(t *testing.T) {
			m := mubufMachine(t)
			stepTo(t, m, c.inst)
			if c.setV3 {
				for l := 0; l < 64; l++ {
					m.SetVGPR(3, l, 8)
				}
			}
			p, _ := m.Preview()
			if p.Mem == nil || len(p.Mem.Addrs) != 64 || p.Mem.VSharp == nil {
				t.Fatalf("preview: %+v", p)
			}
			swizzled := false
			for _, a := range p.Mem.Addrs {
				want := c.low
				if a.Lane >= c.in {
					want = c.why
				}
				if a.Why != want || a.InRange != (want == emu.InRange) {
					t.Errorf("lane %d at %#x: %v (in range %v), want %v", a.Lane, a.Addr, a.Why, a.InRange, want)
				}
				swizzled = swizzled || a.Addr != a.Linear
			}
			if swizzled != c.swz {
				t.Errorf("some address moved by swizzling: %v, want %v", swizzled, c.swz)
			}
			rec, err := m.Step()
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range rec.Addrs {
				if a != p.Mem.Addrs[i].LaneAddr {
					t.Errorf("lane %d: the step accessed %+v, Preview said %+v", a.Lane, a, p.Mem.Addrs[i].LaneAddr)
				}
			}
		})
	}
}
