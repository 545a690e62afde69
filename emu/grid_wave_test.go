package emu

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStartWaveMatchesReset: startWave leaves exactly the state Reset and
// initWave leave (all but the fast kernels' scratch rows, which startWave
// leaves as they are), on machines dirtied by a run and by registers set past
// the program's span.
func TestStartWaveMatchesReset(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 50; trial++ {
		sgpr := make([]uint32, r.IntN(20))
		for i := range sgpr {
			sgpr[i] = r.Uint32()
		}
		vgpr := make([][64]uint32, r.IntN(4))
		for i := range vgpr {
			for l := range vgpr[i] {
				vgpr[i][l] = r.Uint32()
			}
		}
		exec, m0, pc := r.Uint64(), r.Uint32(), r.IntN(3)
		dirtyReg := r.IntN(256)
		var ms [2]*Machine
		for k := range ms {
			m := smemWaveMachine(t)
			runSMEMWave(t, m)
			for l := 0; l < 64; l++ {
				m.SetVGPR(dirtyReg, l, uint32(l+1))
				m.SetVGPR(l%4, l, 99)
			}
			m.SetSGPR(dirtyReg%102, 5)
			if k == 0 {
				m.Reset()
				m.initWave(pc, sgpr, vgpr, exec, m0)
			} else {
				m.startWave(pc, sgpr, vgpr, exec, m0)
			}
			ms[k] = m
		}
		a, b := ms[0].w, ms[1].w
		if a.S != b.S || a.V != b.V || a.PendS != b.PendS || a.Npend != b.Npend || len(a.Pend) != len(b.Pend) ||
			a.Fe != b.Fe || !slices.Equal(a.Cache.Lines, b.Cache.Lines) ||
			ms[0].vhigh != ms[1].vhigh || ms[0].Due != ms[1].Due {
			t.Fatalf("trial %d: startWave differs from Reset and initWave", trial)
		}
	}
}
