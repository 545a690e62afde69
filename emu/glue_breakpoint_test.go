package emu

import (
	"context"
	"math/rand/v2"
	"testing"
)

// Run without history (stretch) stops at exactly the breakpoints the
// journaled loop stops at: before any instruction with one but the run's
// first, whatever the breakpoints, budgets and starting points.
func TestRunFastBreakpointsMatchJournaled(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	prog := []string{"s_add_u32 s0, s0, 1", "s_add_u32 s1, s1, 1", "s_add_u32 s1, s1, s0", "s_branch -2", "s_endpgm"} // loops at 8
	for it := range 300 {
		var ms [2]*Machine
		for k := range ms {
			ms[k] = asmMachine(t, prog...)
		}
		ms[1].Hist.Limit = 0 // no history: runFast
		for pc := uint64(0); pc < 16; pc += 4 {
			if r.IntN(3) == 0 {
				for _, m := range ms {
					_ = m.SetBreakpoint(pc)
				}
			}
		}
		for run := range 6 {
			budget := 1 + int64(r.IntN(12)) // (0 would run the loop for ever)
			var res [2]RunResult
			for k, m := range ms {
				res[k], _ = m.Run(context.Background(), budget)
			}
			if res[0] != res[1] || ms[0].w.S != ms[1].w.S {
				t.Fatalf("#%d run %d (budget %d, breakpoints %v): journaled %+v, fast %+v", it, run, budget, ms[0].Breakpoints(), res[0], res[1])
			}
		}
	}
}
