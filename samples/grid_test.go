package samples

import (
	"context"
	"fmt"
	"slices"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/emu/manifest"
)

// Grid mode. emu's vector memory, LDS and barriers exist only inside
// emu.RunGrid, which runs every wave in its own Machine and hands out step
// records, not machines. So walkthroughs that need them are replayed: the
// whole grid runs once with one wave traced, and a shadow of that wave's
// registers and in-flight operations is rebuilt from its initial state and
// the records' changes. Checks see the shadow as a Snapshot; memory is seen
// at the end of the run (the final buffers) and the scalar cache only
// through each step's events.

// gridTrace runs s's grid and returns the step records of wave waveInGroup
// of workgroup group, and the run's result.
func gridTrace(w *wave, group uint32, waveInGroup int) ([]*emu.StepRecord, *emu.GridResult, error) {
	rm, err := w.s.RunManifest()
	if err != nil {
		return nil, nil, err
	}
	l, err := rm.Launch(w.co, nil)
	if err != nil {
		return nil, nil, err
	}
	perGroup := int((l.Block[0]*l.Block[1]*l.Block[2] + 63) / 64)
	want := uint64(group)*uint64(perGroup) + uint64(waveInGroup)
	var recs []*emu.StepRecord
	cfg := emu.GridConfig{Config: emu.DefaultConfig(l.Target), MaxSteps: maxSteps,
		Select: func(n uint64) bool { return n == want },
		Trace: func(n uint64, rec *emu.StepRecord) error {
			recs = append(recs, rec)
			return nil
		}}
	cfg.Config.HistoryBytes = 0
	res, err := emu.RunGrid(context.Background(), l, cfg)
	if err != nil {
		return nil, nil, err
	}
	if len(res.Faults) > 0 {
		return recs, res, fmt.Errorf("grid run: %w", res.Faults[0])
	}
	w.final = map[string][]byte{}
	for i, a := range rm.Args {
		if a.Kind == manifest.Buffer && i < len(res.Buffers) {
			w.final[a.Name] = res.Buffers[i]
		}
	}
	return recs, res, nil
}

// shadow is a traced wave's state rebuilt from step records.
type shadow struct {
	snap     emu.Snapshot
	inflight []emu.InFlight
	unknown  map[int]bool // SGPRs whose initial value the replay does not know
}

// newShadow starts from the initial state the harness gives the same wave
// (the dispatch ABI's registers). The user SGPRs (the first userSGPRs) hold
// addresses that differ between the harness and the grid run, so they are
// unknown until the kernel writes them; checks that read them fail.
func newShadow(init *emu.Snapshot, userSGPRs int) *shadow {
	sh := &shadow{snap: *init, unknown: map[int]bool{}}
	for i := range userSGPRs {
		sh.unknown[i] = true
	}
	sh.snap.SGPR = slices.Clone(init.SGPR)
	sh.snap.VGPR = slices.Clone(init.VGPR)
	sh.snap.InFlight, sh.snap.Pending, sh.snap.Cache = nil, nil, nil
	return sh
}

// apply replays one step's register and in-flight changes.
func (sh *shadow) apply(rec *emu.StepRecord) {
	for _, c := range rec.SRegs {
		switch {
		case c.Code >= 0 && c.Code < len(sh.snap.SGPR):
			sh.snap.SGPR[c.Code] = c.New
			delete(sh.unknown, c.Code)
		case c.Code == 102: // flat_scratch_lo
			sh.snap.FlatScratch = sh.snap.FlatScratch&^0xffffffff | uint64(c.New)
		case c.Code == 103:
			sh.snap.FlatScratch = sh.snap.FlatScratch&0xffffffff | uint64(c.New)<<32
		case c.Code == 124:
			sh.snap.M0 = c.New
		case c.Code == 126:
			sh.snap.EXEC = sh.snap.EXEC&^0xffffffff | uint64(c.New)
		case c.Code == 127:
			sh.snap.EXEC = sh.snap.EXEC&0xffffffff | uint64(c.New)<<32
		case c.Code == 106:
			sh.snap.VCC = sh.snap.VCC&^0xffffffff | uint64(c.New)
		case c.Code == 107:
			sh.snap.VCC = sh.snap.VCC&0xffffffff | uint64(c.New)<<32
		}
	}
	for _, c := range rec.VRegs {
		if c.Reg >= len(sh.snap.VGPR) {
			continue
		}
		for l := range 64 {
			if c.Lanes>>l&1 != 0 {
				sh.snap.VGPR[c.Reg][l] = c.New[l]
			}
		}
	}
	for _, f := range rec.Completed {
		sh.inflight = slices.DeleteFunc(sh.inflight, func(g emu.InFlight) bool { return g.ID == f.ID })
	}
	sh.inflight = append(sh.inflight, rec.Issued...)
	sh.snap.Counters = rec.CountersAfter
}

// snapshot returns the shadow as a Snapshot.
func (sh *shadow) snapshot() *emu.Snapshot {
	s := sh.snap
	s.InFlight = slices.Clone(sh.inflight)
	s.Pending = nil
	for _, f := range sh.inflight {
		s.Pending = append(s.Pending, f.Dest...)
	}
	return &s
}
