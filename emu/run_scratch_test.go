package emu

import (
	"math/rand/v2"
	"testing"
)

// TestFastIgnoresScratch: the fast kernels' scratch rows (Wave.tmp) are not
// wave state, so startWave need not clear them: random straight-line
// programs run with Run end in the same state and memory whether the rows
// start zero or full of garbage.
func TestFastIgnoresScratch(t *testing.T) {
	straight := straightLineWords(t)
	r := rand.New(rand.NewPCG(31, 32))
	for trial := 0; trial < 300; trial++ {
		text := randomProgram(r, straight, 40)
		seed := r.Uint64()
		var ms [2]*Machine
		var errs [2]error
		for k := range ms {
			ms[k] = randomMachine(text, seed, false)
			if k == 1 {
				for i := range ms[k].w.Tmp {
					for l := range ms[k].w.Tmp[i] {
						ms[k].w.Tmp[i][l] = r.Uint32()
					}
				}
			}
			errs[k] = runFor(ms[k], false, 0)
		}
		if d := diffRuns(ms, errs, [2]uint64{0x10000, 0x10000}); d != "" {
			t.Fatalf("trial %d: %s", trial, d)
		}
	}
}
