package samples

import (
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
)

// TestStaleReadClaim judges the stale-read claims against hand-made step
// records: each holds on its record and fails on the others.
func TestStaleReadClaim(t *testing.T) {
	stale := &emu.StepRecord{Stale: []emu.StaleRead{{Addr: 0x1000, Line: 0x1000, Cached: 0xc0de0000, Memory: 0x600d}}}
	fresh := &emu.StepRecord{}
	other := &emu.StepRecord{Stale: []emu.StaleRead{{Addr: 0x1004, Line: 0x1000, Cached: 0xc0de0004, Memory: 0x600d}}}
	newer := &emu.StepRecord{Stale: []emu.StaleRead{{Addr: 0x1000, Line: 0x1000, Cached: 0xc0de0000, Memory: 0xf00d}}}
	snap := &emu.Snapshot{}
	for _, c := range []struct {
		claim string
		holds []*emu.StepRecord
		fails []*emu.StepRecord
	}{
		{"stale read 0xc0de0000, memory 0x600d", []*emu.StepRecord{stale}, []*emu.StepRecord{fresh, other, newer, nil}},
		{"no stale read", []*emu.StepRecord{fresh}, []*emu.StepRecord{stale, other, newer, nil}},
		{"not no stale read", []*emu.StepRecord{stale, other, newer}, []*emu.StepRecord{fresh}},
	} {
		k, err := parseClaim(c.claim)
		if err != nil {
			t.Fatalf("%s: %v", c.claim, err)
		}
		cl := Claim{Text: c.claim, k: k}
		for _, rec := range c.holds {
			if err := cl.Holds(&State{Snap: snap, Last: rec}); err != nil {
				t.Errorf("%s: %v", c.claim, err)
			}
		}
		for _, rec := range c.fails {
			if cl.Holds(&State{Snap: snap, Last: rec}) == nil {
				t.Errorf("%s holds on %+v", c.claim, rec)
			}
		}
	}
}

// TestStaleReadClaimErrors checks that malformed stale-read claims are
// refused with a message naming the problem.
func TestStaleReadClaimErrors(t *testing.T) {
	for _, c := range []struct{ claim, want string }{
		{"stale read 0x1, memory 0x1", "differs from memory"},
		{"stale read 0x100000000, memory 0x1", "32 bits"},
		{"stale read x, memory 0x1", `bad number "x"`},
		{"stale read 0x1, memory y", `bad number "y"`},
		{"stale read 0x1 memory 0x2", "not a claim"},
	} {
		_, err := parseClaim(c.claim)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.claim, err, c.want)
		}
	}
}
