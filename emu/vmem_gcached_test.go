package emu

import (
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// TestLoadCachedMatchesGeneral: dword loads of 64-bit addresses whose
// operation remembers a page — that of an active lane's address, the page
// after it, or one of another allocation, as a worker's earlier wave leaves
// it, so that loadCached reads it first — leave the registers, memory and
// fault the general path leaves, over vfSetup's random addresses (within
// one page, across pages and allocations, unmapped, in the apertures) and
// EXEC masks, whole ones more often.
func TestLoadCachedMatchesGeneral(t *testing.T) {
	for _, in := range []struct{ asm, enc string }{
		{"global_load_dword v4, v[2:3], off offset:4", "04 80 50 dc 02 00 7f 04"},
		{"flat_load_dword v4, v[2:3]", "00 00 50 dc 02 00 00 04"},
	} {
		t.Run(in.asm, func(t *testing.T) {
			faulted := 0
			for s := range 300 {
				seed := uint64(s)*104729 + 11
				view, faults := s%2 == 1, s%5 == 4
				warm := func(m *Machine, u *ref.VMemUnit) { vfWarmPage(t, m, u, seed) }
				a, ea := vfRunWith(t, isa.GFX9, in.asm, in.enc, seed, view, faults, false, warm)
				b, eb := vfRunWith(t, isa.GFX9, in.asm, in.enc, seed, view, faults, true, warm)
				if d := vfCompare(a, b, ea, eb); d != "" {
					t.Fatalf("seed %d (view %v): %s", seed, view, d)
				}
				if ea != nil {
					faulted++
				}
			}
			if faulted == 300 {
				t.Errorf("every run faulted")
			}
		})
	}
}

// vfWarmPage compiles the machine's first instruction into u, widens EXEC
// to a prefix or the whole wave most of the time, and leaves the
// operation's cache holding a page near a random active lane's address.
func vfWarmPage(t testing.TB, m *Machine, u *ref.VMemUnit, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	in := &m.Prog.Insts[0]
	o, ok := ref.CompileVM(in)
	if !ok {
		t.Fatalf("%v: not compiled", in.Op)
	}
	o.Wspec = fast.WaveSpec(o)
	u.Ops[in] = o
	w := m.w
	switch rng.IntN(4) {
	case 0:
		m.SetExec(^uint64(0))
	case 1:
		m.SetExec(^uint64(0) >> rng.IntN(64))
	case 2:
		m.SetExec(0xffff)
	}
	exec := w.Exec()
	if exec == 0 {
		return
	}
	l := rng.IntN(64)
	for exec>>l&1 == 0 {
		l = rng.IntN(64)
	}
	a := uint64(w.V[2][l]) | uint64(w.V[3][l])<<32 + uint64(o.Offset)
	switch rng.IntN(4) {
	case 0:
		a += core.PageSize
	case 1:
		a = vfB
	}
	if fast.Covers(&o.Last, m.Mem, a, a+4) {
		fast.Page(&o.Last, a>>core.PageBits, true) // a page of zeros the general path reads too
	}
}
