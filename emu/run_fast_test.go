package emu

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// TestRunFastMatchesStep: Run without history (runFast and the unjournaled
// fast paths of the scalar unit, branches, s_waitcnt and SMEM) leaves
// exactly the state that Step, which journals every write, leaves — on
// random streams of the golden corpus's instructions, from random states,
// including ones with scalar loads in flight when SALU reads.
func TestRunFastMatchesStep(t *testing.T) {
	straight := straightLineWords(t)
	r := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 300; trial++ {
		text := randomProgram(r, straight, 40)
		seed := r.Uint64()
		var ms [2]*Machine
		var errs [2]error
		for k, hist := range []bool{true, false} {
			ms[k] = randomMachine(text, seed, hist)
			errs[k] = runFor(ms[k], hist, 0)
		}
		if d := diffRuns(ms, errs, [2]uint64{0x10000, 0x10000}); d != "" {
			t.Fatalf("trial %d: %s", trial, d)
		}
	}
}

// runFor runs m for n instructions (0: until it stops): journaled step
// by step when hist, else with Run.
func runFor(m *Machine, hist bool, n int64) error {
	if !hist {
		_, err := m.Run(context.Background(), n)
		return err
	}
	for k := int64(0); n == 0 || k < n; k++ {
		if _, err := m.Step(); err != nil || m.State() != core.Running {
			return err
		}
	}
	return nil
}

// diffRuns says how two runs differ — how they stopped, their snapshots
// (but the last step's addresses, which only journaled steps record) and
// the memory of the ranges (address, length) — or "" when they agree.
func diffRuns(ms [2]*Machine, errs [2]error, ranges ...[2]uint64) string {
	if (errs[0] == nil) != (errs[1] == nil) || errs[0] != nil && errs[0].Error() != errs[1].Error() {
		return fmt.Sprintf("Step stopped with %v, Run with %v", errs[0], errs[1])
	}
	var snaps [2]*Snapshot
	for k, m := range ms {
		snaps[k] = m.Snapshot()
		snaps[k].LastAddrs = nil
	}
	if !reflect.DeepEqual(snaps[0], snaps[1]) {
		return fmt.Sprintf("Run without history and Step leave different states (pc %#x/%#x, steps %d/%d, cycle %d/%d, in flight %d/%d)",
			snaps[0].PC, snaps[1].PC, snaps[0].Steps, snaps[1].Steps, snaps[0].Cycle, snaps[1].Cycle, len(snaps[0].InFlight), len(snaps[1].InFlight))
	}
	for _, rg := range ranges {
		var mems [2][]byte
		for k, m := range ms {
			mems[k] = make([]byte, rg[1])
			m.Mem.ReadRaw(rg[0], mems[k])
		}
		if !bytes.Equal(mems[0], mems[1]) {
			return fmt.Sprintf("Run without history and Step leave different memory in [%#x, +%#x)", rg[0], rg[1])
		}
	}
	return ""
}

// randomMachine is runStream's random starting state for text.
func randomMachine(text []byte, seed uint64, hist bool) *Machine {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	cfg := core.DefaultConfig(isa.GFX9)
	cfg.Cache = CacheConfig{Size: 512, Ways: 2}
	if !hist {
		cfg.HistoryBytes = 0
	}
	m := NewMachine(DecodeProgram(isa.GFX9, 0, text), nil, cfg)
	m.Mem.Map("buf", 0x10000, 0x10000, r.IntN(2) == 0)
	for i := 0; i < 102; i++ {
		v := r.Uint32()
		if r.IntN(3) > 0 {
			v = 0x10000 + r.Uint32N(0x8000)
		}
		if i%2 == 1 && r.IntN(2) == 0 {
			v = 0
		}
		m.SetSGPR(i, v)
	}
	for reg := 0; reg < 16; reg++ {
		for l := 0; l < 64; l++ {
			m.SetVGPR(reg, l, r.Uint32())
		}
	}
	m.SetExec(r.Uint64())
	m.SetMode(r.Uint32() & 0x3ff)
	return m
}

// TestRunFastStops: Run without history stops where Run with history
// stops — budgets on either side of its stretches of 1024 instructions,
// breakpoints (set, stepped over, cleared) and a canceled context — with
// the same steps, registers and clock.
func TestRunFastStops(t *testing.T) {
	type stop struct {
		res   RunResult
		err   bool
		s0    uint32
		cycle uint64
	}
	var got [2][]stop
	for k, hist := range []bool{true, false} {
		m := asmMachine(t, "s_add_u32 s0, s0, 1", "s_branch -2", "s_endpgm")
		if !hist {
			m.Hist.Limit = 0
		}
		record := func(res RunResult, err error) {
			got[k] = append(got[k], stop{res, err != nil, m.w.S[0], m.Cycle()})
		}
		for _, b := range []int64{7, 1016, 1, 1024, 1025, 3000} {
			record(m.Run(context.Background(), b))
		}
		m.SetBreakpoint(4)
		record(m.Run(context.Background(), 100))
		record(m.Run(context.Background(), 100)) // steps over the breakpoint it starts on
		m.SetBreakpoint(4)                       // twice: one breakpoint
		m.ClearBreakpoint(4)
		record(m.Run(context.Background(), 2500))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		record(m.Run(ctx, 0))
	}
	if !reflect.DeepEqual(got[0], got[1]) {
		t.Errorf("with history: %+v\nwithout: %+v", got[0], got[1])
	}
	if r := got[1][len(got[1])-1].res; r.Reason != StopCanceled || r.Steps != 1023 {
		t.Errorf("canceled: %+v", r)
	}
	if r := got[1][6].res; r.Reason != StopBreakpoint || r.PC != 4 {
		t.Errorf("breakpoint: %+v", r)
	}
}

// straightLineWords returns the golden corpus's GFX9 instruction words
// that fall through to the next instruction.
func straightLineWords(t *testing.T) [][]byte {
	var straight [][]byte
	for _, w := range goldenWords(t) {
		if in, err := isa.Decode(w, isa.GFX9); err == nil && straightLine(opName(in.Op)) {
			straight = append(straight, w)
		}
	}
	return straight
}

// randomProgram strings n words drawn from pool together and ends them
// with s_endpgm.
func randomProgram(r *rand.Rand, pool [][]byte, n int) []byte {
	var text []byte
	for range n {
		text = append(text, pool[r.IntN(len(pool))]...)
	}
	return append(text, 0x00, 0x00, 0x81, 0xbf) // s_endpgm
}
