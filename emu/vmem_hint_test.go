package emu

import (
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// TestShapeHintMatchesGeneral: whichever shape an operation remembers from
// its last wave (opCache.shape), so that fastWave starts there, or from the
// first shape on a look back (opCache.probe), and whatever page it
// remembers, the whole-wave loads and stores leave the registers, memory
// and fault the general path leaves, over vfSetup's random addresses and
// EXEC masks: a wave of a shape other than the remembered one takes a
// later shape or the general path without a trace, and so does a wave
// quickRun declines.
func TestShapeHintMatchesGeneral(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 12
	}
	kept, moved := 0, 0 // waves of the remembered shape, of another
	for _, in := range vmFastInsts9 {
		if strings.Contains(in.asm, "atomic") || strings.HasPrefix(in.asm, "buffer_") {
			continue
		}
		t.Run(in.asm, func(t *testing.T) {
			taken := map[uint8]int{} // the shapes that took a wave
			for s := range seeds {
				seed := uint64(s)*15485863 + 7
				view, faults := s%2 == 1, s%7 == 6
				var o *ref.VmOp
				hint := func(m *Machine, u *ref.VMemUnit) {
					vfWarmPage(t, m, u, seed)
					o = u.Ops[&m.Prog.Insts[0]]
					o.Last.Shape = uint8(s % int(fast.ShapeLanes+1))
					o.Last.Probe = uint8(s/int(fast.ShapeLanes+1)) % 4 * 5 // 15 now and then: fastWave looks again
					o.Last.Quick = s%3 != 0                                // quickRun tries runs first
				}
				a, ea := vfRunWith(t, isa.GFX9, in.asm, in.enc, seed, view, faults, false, hint)
				if o.Last.Shape == uint8(s%int(fast.ShapeLanes+1)) {
					kept++
				} else {
					moved++
				}
				taken[o.Last.Shape]++
				b, eb := vfRunWith(t, isa.GFX9, in.asm, in.enc, seed, view, faults, true, hint)
				if d := vfCompare(a, b, ea, eb); d != "" {
					t.Fatalf("seed %d (view %v, shape %d): %s", seed, view, s%int(fast.ShapeLanes+1), d)
				}
			}
			t.Logf("shapes taken %v", taken)
		})
	}
	if kept < 100 || moved < 100 {
		t.Errorf("remembered shape kept %d times, another taken %d times: want both often", kept, moved)
	}
}
