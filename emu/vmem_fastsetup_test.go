package emu

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

func vfProgram(t testing.TB, target isa.Target, enc ...string) *Program {
	t.Helper()
	mcpu := "gfx900"
	if target == isa.GFX8 {
		mcpu = "gfx803"
	}
	b, err := hex.DecodeString(strings.ReplaceAll(strings.Join(enc, ""), " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	p := DecodeProgramWith(target, isa.FeaturesOf(mcpu), 0, b)
	for i := range p.Code {
		if p.Code[i].Fn == nil {
			t.Fatalf("%s: instruction %d not compiled", enc, i)
		}
	}
	return p
}

// vfMemory builds the address space from seed; view selects a grid
// worker's view (atomic dword copies, its own LDS window).
func vfMemory(t testing.TB, seed uint64, view bool) *Memory {
	t.Helper()
	mem := core.NewMemory()
	rng := rand.New(rand.NewPCG(seed, 1))
	for _, r := range []struct {
		name       string
		addr, size uint64
		fill       bool
	}{
		{"A", vfA, 0x2000, true}, {"B", vfB, 0x1000, true}, {"C", vfC, 0x1000, false},
		{"scratch", vfScratch, 0x10000, true}, {"lds", core.SharedApertureBase, 0x10000, true},
	} {
		if err := mem.Map(r.name, r.addr, r.size, false); err != nil {
			t.Fatal(err)
		}
		if !r.fill {
			continue
		}
		b := make([]byte, min(r.size, 0x4000))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		// page by page from the last, so that consecutive pages are not
		// consecutive in host memory: a fast path that ran on past the
		// end of a page would not land in the next one by luck
		for off := (len(b) - 1) &^ (core.PageSize - 1); off >= 0; off -= core.PageSize {
			if err := mem.Write(r.addr+uint64(off), b[off:min(off+core.PageSize, len(b))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	if view {
		v := mem.GroupView()
		// the view has its own LDS window: fill it like the shared one
		b := make([]byte, 0x800)
		if err := mem.Read(core.SharedApertureBase, b); err != nil {
			t.Fatal(err)
		}
		if err := v.Write(core.SharedApertureBase, b); err != nil {
			t.Fatal(err)
		}
		return v
	}
	return mem
}

// vfAddr picks a random global address: mostly in A or B (aligned or
// not, near page boundaries), sometimes in C, past an allocation's end or
// in a gap when faults are allowed.
func vfAddr(rng *rand.Rand, faults bool) uint64 {
	switch n := rng.IntN(12); {
	case n < 5:
		a := vfA + rng.Uint64N(0x2000-16)
		if rng.IntN(2) == 0 {
			a &^= 3
		}
		return a
	case n == 5:
		return vfA + 0x1000 - rng.Uint64N(20)
	case n == 6:
		return vfB + rng.Uint64N(0x1000-16)
	case n == 7:
		return vfB + 0x800 - 8 + rng.Uint64N(16) // around the page at 0x3000
	case n == 8:
		return vfC + rng.Uint64N(0x1000-16)
	case n == 9 && faults:
		return vfA + 0x2000 - rng.Uint64N(16) // runs past A's end
	case n == 10 && faults:
		return vfA + 0x2000 + rng.Uint64N(0x800) // the gap before B
	}
	return vfA + 4*rng.Uint64N(0x7f0)
}

// vfOneAlloc returns, half the time, a source of addresses all in one
// allocation (the whole-wave path's case): scattered over A, B, C or the
// LDS window (for FLAT, the LDS aperture, past its 1 KiB too), or consecutive elements of 1 to
// 16 bytes from a random start in A (some runs cross A's page boundary),
// or one address for all lanes, or a table's entries that lanes repeat
// every p lanes. Runs favour steps of elem, the access's
// element size; steps of 2·elem and 64 are a field of an array of structs. With aligned, every address is a dword's but a run's: its
// start is, and its step (1 and 2 too) is kept.
func vfOneAlloc(rng *rand.Rand, elem uint64, aligned bool) func() uint64 {
	mask := ^uint64(0)
	if aligned {
		mask = ^uint64(3)
	}
	switch rng.IntN(8) {
	case 0:
		r := []struct{ lo, n uint64 }{{vfA, 0x2000}, {vfB, 0x1000}, {vfC, 0x1000}, {core.SharedApertureBase, 0x800}}[rng.IntN(4)]
		return func() uint64 { return (r.lo + rng.Uint64N(r.n-16)) & mask }
	case 1, 3:
		a, step := (vfA+rng.Uint64N(0x1000))&mask, []uint64{elem, elem, elem, 1, 2, 4, 8, 12, 16, 2 * elem, 64}[rng.IntN(11)]
		return func() uint64 {
			a += step
			return a - step
		}
	case 2:
		a := (vfA + rng.Uint64N(0x2000-16)) & mask
		return func() uint64 { return a }
	case 5: // a run from the middle of A's first page into its second
		step := []uint64{elem, elem, 4, 8, 16, 2 * elem, 64}[rng.IntN(7)]
		a := (vfA + 0x1000 - step*(1+rng.Uint64N(63))) & mask
		return func() uint64 {
			a += step
			return a - step
		}
	case 6: // a 2-D or 3-D work-group's rows: r lanes s bytes apart, rows pitch bytes apart
		r, s := []uint64{4, 16}[rng.IntN(2)], []uint64{elem, 8, 32}[rng.IntN(3)]
		pitch := r*s + 4*rng.Uint64N(24)
		if r == 16 {
			pitch = r*s + 4*rng.Uint64N(0x100)
		}
		a0, l := (vfA+rng.Uint64N(0x100))&mask, uint64(0)
		return func() uint64 {
			l++
			return a0 + (l-1)%r*s + (l-1)/r*pitch
		}
	case 7: // a table's entries, table[i % p]: lanes repeat the first p (p not always a power of two)
		p, s := []uint64{2, 4, 8, 8, 16, 32, 6}[rng.IntN(7)], []uint64{elem, elem, 0, 1, 2 * elem}[rng.IntN(5)]
		a0, l := (vfA+0x1000-rng.Uint64N(0x40))&mask, uint64(0)
		return func() uint64 {
			l++
			return a0 + (l-1)%p*s
		}
	}
	return nil
}

// vfSetup gives a machine's wave random registers for its instruction
// (the same for the same seed). With faults, about one lane in 64 has an
// address that faults.
func vfSetup(m *Machine, u *ref.VMemUnit, asm string, seed uint64, faults bool) {
	rng := rand.New(rand.NewPCG(seed, 2))
	w := m.w
	exec := rng.Uint64()
	switch rng.IntN(8) {
	case 0:
		exec = ^uint64(0)
	case 1:
		exec &= rng.Uint64()
	case 2: // a prefix: the last wave of a work-group
		exec = ^uint64(0) >> rng.IntN(64)
	case 3: // a wave of a 16-item work-group
		exec = []uint64{0xffff, 0xffff & rng.Uint64()}[rng.IntN(2)]
	}
	m.SetExec(exec)
	for r := 0; r < 16; r++ {
		for l := 0; l < 64; l++ {
			w.V[r][l] = rng.Uint32()
		}
	}
	// s[6:7]: GLOBAL saddr; s8: SCRATCH saddr
	base := uint64(vfA)
	if rng.IntN(3) == 0 {
		base = vfB - 0x100
	}
	w.S[6], w.S[7] = uint32(base), uint32(base>>32)
	w.S[8] = uint32(rng.IntN(0x100))
	// s[12:15]: a V#; s16: SOFFSET
	vb := uint64(vfA)
	if rng.IntN(3) == 0 {
		vb = vfScratch
	}
	stride := []uint32{0, 0, 4, 12, 16, 20, 0x3fff}[rng.IntN(7)]
	swz := rng.IntN(2)
	nrec := uint32(rng.IntN(0x2800))
	if stride != 0 {
		nrec = uint32(rng.IntN(0x300))
	}
	if rng.IntN(4) == 0 && faults {
		nrec = 0xffffffff
	}
	w3 := uint32(4|5<<3|6<<6|7<<9) | uint32(rng.IntN(8))<<12 | uint32(rng.IntN(16))<<15
	w3 |= uint32(rng.IntN(4))<<19 | uint32(rng.IntN(4))<<21 | uint32(rng.IntN(2))<<23
	w.S[12] = uint32(vb)
	w.S[13] = uint32(vb>>32)&0xffff | stride<<16 | uint32(swz)<<31
	w.S[14] = nrec
	w.S[15] = w3
	w.S[16] = []uint32{0, 4, uint32(rng.IntN(64)), 0x3000}[rng.IntN(4)]
	if !faults && w.S[16] == 0x3000 {
		w.S[16] = 0
	}
	// or, a third of the time, the private segment V# (whole waves of
	// -O0 stack slots), its NUM_RECORDS sometimes cutting lanes off
	private := rng.IntN(3) == 0
	slot := uint32(rng.IntN(0xc0))         // the private offset most lanes share
	strays := []int{0, 8, 64}[rng.IntN(3)] // one lane in strays has its own (none for 0)
	if private {
		k := []uint32{63, uint32(rng.IntN(64))}[rng.IntN(2)]
		edge := uint64(w.S[16] + slot&3 + 4*k + slot>>2<<8) // lanes from k on out of range
		d := Dispatch{ScratchAddr: vfScratch, ScratchBytes: []uint64{0x10000, rng.Uint64N(0x4000), edge}[rng.IntN(3)]}
		rs := d.scratchRsrc()
		copy(w.S[12:16], rs[:])
	}
	bad := func() bool { return faults && rng.IntN(64) == 0 }
	aligned := rng.IntN(3) != 0 // every address dword-aligned: whole waves take the fast loops
	elem := uint64(4)
	switch {
	case strings.Contains(asm, "byte"):
		elem = 1
	case strings.Contains(asm, "short"):
		elem = 2
	case strings.Contains(asm, "dwordx"):
		elem = 4 * uint64(asm[strings.Index(asm, "dwordx")+6]-'0')
	}
	one := vfOneAlloc(rng, elem, aligned)
	addr := func() uint64 {
		if one != nil && !bad() {
			return one()
		}
		a := vfAddr(rng, bad())
		if aligned {
			a &^= 3
		}
		return a
	}
	for l := 0; l < 64; l++ {
		switch {
		case strings.Contains(asm, "s[6:7]"): // GLOBAL saddr: a 32-bit offset
			w.V[2][l] = uint32(addr() - vfA)
		case strings.HasPrefix(asm, "global_") || strings.HasPrefix(asm, "flat_"):
			a := addr()
			switch n := rng.IntN(10); {
			case !strings.HasPrefix(asm, "flat_") || one != nil: // one allocation: the LDS window is the aperture
			case n == 0:
				a = core.SharedApertureBase + rng.Uint64N(0x500)&^3 // flat: LDS (1 KiB), some past it
			case n == 1:
				a = core.PrivateApertureBase + rng.Uint64N(0xc0) // flat: scratch
			}
			if bad() {
				a += 1 << 32 // the same low dword, unmapped: only the high dwords tell
			}
			w.V[2][l], w.V[3][l] = uint32(a), uint32(a>>32)
		case strings.HasPrefix(asm, "scratch_"): // a private offset
			w.V[2][l] = uint32(rng.IntN(0xc0))
			if strays == 0 {
				w.V[2][l] = slot
			}
			if bad() {
				w.V[2][l] = 0x10000 + uint32(rng.IntN(0x10000))
			}
		case private:
			w.V[2][l] = slot
			if strays > 0 && rng.IntN(strays) == 0 {
				w.V[2][l] = uint32(rng.IntN(0xc0))
			}
			if bad() {
				w.V[2][l] = 0x1000_0000 + uint32(rng.IntN(0x10000))
			}
		default: // buffers: offsets and indexes
			w.V[2][l] = uint32(rng.IntN(0x2000))
			w.V[3][l] = uint32(rng.IntN(0x2000))
			if rng.IntN(2) == 0 {
				w.V[2][l] = uint32(rng.IntN(0x100))
				w.V[3][l] = uint32(rng.IntN(0x100))
			}
			switch rng.IntN(4) {
			case 0: // at the range check's edges: NUMRECORDS − SOFFSET, STRIDE
				w.V[2][l] = w.S[14] - min(w.S[16], w.S[14]) - uint32(rng.IntN(24))
			case 1:
				w.V[2][l] = w.S[14] - uint32(rng.IntN(4))
				w.V[3][l] = w.S[13]>>16&0x3fff - uint32(rng.IntN(20))
			}
			if bad() {
				w.V[2][l] = 0x1000_0000 + uint32(rng.IntN(0x10000))
			}
		}
	}
	// lanes past the highest active one hold junk half the time (a short
	// work-group's wave leaves them unset)
	if rng.IntN(2) == 0 {
		for l := bits.Len64(exec); l < 64; l++ {
			w.V[2][l], w.V[3][l] = rng.Uint32(), rng.Uint32()
		}
	}
	// scratch: the unit's base, or FLAT_SCRATCH
	u.Scratch = vfScratch + uint64(rng.IntN(4))*0x100
	if rng.IntN(4) == 0 {
		fs := uint64(vfScratch + 0x200)
		if m.w.Target == isa.GFX8 {
			fs = uint64(vfScratch+0x200)>>8<<32 | 0x100
		}
		w.S[core.CodeFlatScratch], w.S[core.CodeFlatScratch+1] = uint32(fs), uint32(fs>>32)
	}
}

// vfRun runs one instruction (then s_waitcnt, s_endpgm) without history,
// through the fast path unless noFast.
func vfRun(t testing.TB, target isa.Target, asm, enc string, seed uint64, view, faults, noFast bool) (*Machine, error) {
	t.Helper()
	return vfRunWith(t, target, asm, enc, seed, view, faults, noFast, nil)
}

// vfRunWith is vfRun calling prepare, unless nil, once the registers are
// set.
func vfRunWith(t testing.TB, target isa.Target, asm, enc string, seed uint64, view, faults, noFast bool, prepare func(*Machine, *ref.VMemUnit)) (*Machine, error) {
	t.Helper()
	cfg := core.DefaultConfig(target)
	cfg.HistoryBytes = 0
	m := NewMachine(vfProgram(t, target, enc, vmWaitEnd), vfMemory(t, seed, view), cfg)
	u := &ref.VMemUnit{Lds: ref.NewLDS(1024), Cfg: VMemConfig{LDSLatency: 4}, Ops: map[*isa.Inst]*ref.VmOp{}, NoFast: noFast}
	m.VectorMemory = u
	vfSetup(m, u, asm, seed, faults)
	if prepare != nil {
		prepare(m, u)
	}
	// a free result slot holding an earlier operation's data, as a
	// worker's next wave finds it
	u.Pending = append(u.Pending, ref.VmResult{})
	for k := range u.Pending[0].Data {
		for l := range u.Pending[0].Data[k] {
			u.Pending[0].Data[k][l] = uint32(seed) ^ uint32(k*64+l)*0x9e3779b9
		}
	}
	_, err := m.Run(context.Background(), 10)
	return m, err
}

// vfCompare reports the first difference between two runs: the error (a
// fault's PC, lane, address, size and direction), the registers, the
// state slots and every mapped byte.
func vfCompare(a, b *Machine, ea, eb error) string {
	if fmt.Sprint(ea) != fmt.Sprint(eb) {
		return fmt.Sprintf("error %v, general path %v", ea, eb)
	}
	var fa, fb *Fault
	if errors.As(ea, &fa) != errors.As(eb, &fb) || fa != nil && *fa != *fb {
		return fmt.Sprintf("fault %+v, general path %+v", fa, fb)
	}
	for r := range a.w.V {
		if a.w.V[r] != b.w.V[r] {
			for l := range a.w.V[r] {
				if a.w.V[r][l] != b.w.V[r][l] {
					return fmt.Sprintf("v%d lane %d: %#x, general path %#x", r, l, a.w.V[r][l], b.w.V[r][l])
				}
			}
		}
	}
	if a.w.S != b.w.S {
		return fmt.Sprintf("scalar state differs:\n%v\n%v", a.w.S, b.w.S)
	}
	for _, al := range a.Mem.Allocations() {
		pa, pb := make([]byte, al.Size), make([]byte, al.Size)
		a.Mem.ReadRaw(al.Addr, pa)
		b.Mem.ReadRaw(al.Addr, pb)
		for i := range pa {
			if pa[i] != pb[i] {
				return fmt.Sprintf("%s+%#x: %#x, general path %#x", al.Name, i, pa[i], pb[i])
			}
		}
	}
	return ""
}
