package emu

import (
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/isa"
)

// TestFastIgnoresScratch: the fast kernels' scratch rows (Wave.tmp) are not
// wave state, so startWave need not clear them: random straight-line
// programs run with Run end in the same state and memory whether the rows
// start zero or full of garbage.
func TestFastIgnoresScratch(t *testing.T) {
	pool := goldenWords(t)
	var straight [][]byte
	for _, w := range pool {
		if in, err := isa.Decode(w, isa.GFX9); err == nil && straightLine(opName(in.Op)) {
			straight = append(straight, w)
		}
	}
	r := rand.New(rand.NewPCG(31, 32))
	for trial := 0; trial < 300; trial++ {
		var text []byte
		for k := 0; k < 40; k++ {
			text = append(text, straight[r.IntN(len(straight))]...)
		}
		text = append(text, 0x00, 0x00, 0x81, 0xbf) // s_endpgm
		seed := r.Uint64()
		var ms [2]*Machine
		var errs [2]error
		for k := range ms {
			ms[k] = randomMachine(text, seed, false)
			if k == 1 {
				for i := range ms[k].w.tmp {
					for l := range ms[k].w.tmp[i] {
						ms[k].w.tmp[i][l] = r.Uint32()
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
