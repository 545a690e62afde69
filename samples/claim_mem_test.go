package samples

import (
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// memState is a hand-made state after a FLAT load whose lanes 0-1 went to
// LDS, 2-3 to private memory and 4 to global memory, and after a DS read
// at stride 32 dwords (dsRec).
func memState() (st *State, dsRec *emu.StepRecord) {
	snap := &emu.Snapshot{SGPR: make([]uint32, 102), VGPR: make([][64]uint32, 8), FlatScratch: 0x50000}
	snap.SGPR[6], snap.SGPR[7], snap.SGPR[9] = 0x4ff00, 0, 0x100
	snap.SGPR[8] = 0x7000
	flat := &isa.Inst{Enc: isa.EncFLAT, Mods: isa.Modifiers{Seg: isa.SegFlat},
		Args: []isa.Operand{{Kind: isa.KindVGPR, Field: isa.FieldVDST, Reg: 2}, {Kind: isa.KindVGPR, Field: isa.FieldVADDR, Reg: 2, Width: 2}}}
	rec := &emu.StepRecord{Inst: flat}
	// The load overwrote its address (v2) in lanes 0-4: the claim must see
	// the addresses the lanes had before.
	ch := emu.VRegChange{Reg: 2, Lanes: 0x1f}
	for l := range 5 {
		var a uint64
		switch {
		case l < 2:
			a = emu.SharedApertureBase + 4*uint64(l)
			rec.Addrs = append(rec.Addrs, emu.LaneAddr{Lane: l, Addr: a})
		case l < 4:
			a = emu.PrivateApertureBase
			rec.Addrs = append(rec.Addrs, emu.LaneAddr{Lane: l, Addr: 0x50000 + 4*uint64(l)})
		default:
			a = 0x7000 + 4*uint64(l)
			rec.Addrs = append(rec.Addrs, emu.LaneAddr{Lane: l, Addr: a})
		}
		ch.Old[l] = uint32(a)
		snap.VGPR[2][l] = 0xdead // the loaded value
		snap.VGPR[3][l] = uint32(a >> 32)
	}
	rec.VRegs = []emu.VRegChange{ch}
	dsRec = &emu.StepRecord{Inst: &isa.Inst{Enc: isa.EncDS}}
	for l := range 64 {
		dsRec.Addrs = append(dsRec.Addrs, emu.LaneAddr{Lane: l, Addr: emu.SharedApertureBase + 128*uint64(l)})
	}
	return &State{Snap: snap, Last: rec}, dsRec
}

// TestMemClaimHolds judges each claim of claim_mem.go against memState:
// each holds, and each turns false when the state changes under it.
func TestMemClaimHolds(t *testing.T) {
	for _, c := range []struct {
		claim  string
		ds     bool
		change func(st *State)
	}{
		{"flat_scratch = s[6:7] + s9", false, func(st *State) { st.Snap.FlatScratch++ }},
		{"flat_scratch = s6 + s9", false, func(st *State) { st.Snap.SGPR[9] = 0 }},
		{"addr[0..1] = shared_base + 4*lane", false, func(st *State) { st.Last.Addrs[1].Addr += 4 }},
		{"addr[2..3] = flat_scratch + 4*lane", false, func(st *State) { st.Snap.FlatScratch = 0 }},
		{"addr[4..4] = s8 + 4*lane", false, func(st *State) { st.Snap.SGPR[8] = 0 }},
		{"aperture[0..1] = lds", false, func(st *State) { st.Snap.VGPR[3][1] = 0 }},
		{"aperture[2..3] = private", false, func(st *State) { st.Last.Addrs[3].Addr = emu.PrivateApertureBase }},
		{"aperture[4..4] = global", false, func(st *State) { st.Last.Addrs[4].Addr = 0x50000 }},
		{"addr[0..63] = 128*lane", true, func(st *State) { st.Last.Addrs[63].Addr = emu.SharedApertureBase }},
		{"bank conflicts = 62", true, func(st *State) { st.Last.Addrs[5].Addr = emu.SharedApertureBase + 4 }},
		{"not bank conflicts = 0", true, func(st *State) {
			for i := range st.Last.Addrs {
				st.Last.Addrs[i].Addr = emu.SharedApertureBase + 4*uint64(i)
			}
		}},
	} {
		st, dsRec := memState()
		if c.ds {
			st.Last = dsRec
		}
		k, err := parseClaim(c.claim)
		if err != nil {
			t.Fatalf("%s: %v", c.claim, err)
		}
		cl := Claim{Text: c.claim, k: k}
		if err := cl.Holds(st); err != nil {
			t.Errorf("%s: %v", c.claim, err)
		}
		c.change(st)
		if cl.Holds(st) == nil {
			t.Errorf("%s still holds after the state changed", c.claim)
		}
	}
}

// TestMemClaimErrors checks what the memory claims refuse, when they are
// parsed and when they are judged.
func TestMemClaimErrors(t *testing.T) {
	for _, c := range []struct{ claim, want string }{
		{"addr[0..64] = lane", "lanes 0-63"},
		{"aperture[3..2] = lds", "lanes 0-63"},
		{"flat_scratch = s[6:8]", "not a pair"},
		{"flat_scratch = s200", "no SGPR s200"},
		{"addr[0..1] = 4*(lane", "missing )"},
	} {
		_, err := parseClaim(c.claim)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.claim, err, c.want)
		}
	}
	for _, c := range []struct {
		claim, want string
		ds          bool
		set         func(st *State)
	}{
		{"bank conflicts = 0", "not a DS instruction", false, nil},
		{"aperture[0..1] = lds", "not a FLAT instruction", true, nil},
		{"addr[5..5] = lane", "lane 5 accessed no memory", false, nil},
		{"addr[0..0] = 1.5", "is a float", false, nil},
		{"flat_scratch = s[6:7]", "s6 holds an address", false, func(st *State) { st.Unknown = func(n int) bool { return n == 6 } }},
		{"bank conflicts = 0", "no step", false, func(st *State) { st.Last = nil }},
	} {
		st, dsRec := memState()
		if c.ds {
			st.Last = dsRec
		}
		if c.set != nil {
			c.set(st)
		}
		k, err := parseClaim(c.claim)
		if err != nil {
			t.Fatalf("%s: %v", c.claim, err)
		}
		err = Claim{Text: c.claim, k: k}.Holds(st)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.claim, err, c.want)
		}
	}
}

// FuzzMemClaim checks that no memory claim panics, whatever the step.
func FuzzMemClaim(f *testing.F) {
	for _, s := range []string{"flat_scratch = s[6:7] + s9", "addr[0..63] = flat_scratch + 512 + 4*lane",
		"aperture[16..31] = private", "bank conflicts = 62", "addr[0..3] = s_1_2 + s101"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, ds bool) {
		k, err := parseClaim(s)
		if err != nil {
			return
		}
		in := &isa.Inst{Enc: isa.EncFLAT, Args: []isa.Operand{{Kind: isa.KindVGPR, Field: isa.FieldVADDR, Reg: 1}}}
		if ds {
			in.Enc = isa.EncDS
		}
		st := &State{Snap: &emu.Snapshot{SGPR: make([]uint32, 4), VGPR: make([][64]uint32, 2)},
			Last: &emu.StepRecord{Inst: in, Addrs: []emu.LaneAddr{{Lane: -1}, {Lane: 70}, {Lane: 3, Addr: 5}}}}
		_ = Claim{Text: s, k: k}.Holds(st)
	})
}
