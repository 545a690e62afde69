package emu

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// groupBlocks are the pieces of the random group kernels: LDS and global
// traffic between the waves (racy too: replay must reproduce the
// schedule's interleaving), loads left in flight, atomics and barriers.
var groupBlocks = [][]string{
	{"v_add_u32_e32 v8, v8, v0"},
	{"v_xor_b32_e32 v9, v9, v8"},
	{"ds_write_b32 v6, v8", "s_waitcnt lgkmcnt(0)"},
	{"ds_read_b32 v9, v7"},
	{"s_waitcnt lgkmcnt(0)"},
	{"s_barrier"},
	{"s_barrier"},
	{"global_load_dword v10, v[2:3], off"},
	{"s_waitcnt vmcnt(0)"},
	{"global_store_dword v[4:5], v9, off"},
	{"v_add_u32_e32 v8, v8, v10"},
	{"s_add_u32 s11, s11, s10"},
	{"ds_add_u32 v7, v8"},
	{"global_atomic_add v[4:5], v8, off"},
}

// groupLoop ends every random group kernel: a loop with a barrier and
// LDS traffic, s10 times.
var groupLoop = []string{
	"ds_write_b32 v6, v8",
	"s_waitcnt lgkmcnt(0)",
	"s_barrier",
	"ds_read_b32 v9, v7",
	"s_waitcnt lgkmcnt(0)",
	"v_add_u32_e32 v8, v8, v9",
	"s_sub_u32 s10, s10, 1",
	"s_cmp_lg_u32 s10, 0",
	"s_cbranch_scc1 -11",
	"s_endpgm",
}

// randomGroupKernel returns a kernel of random blocks and groupLoop.
func randomGroupKernel(r *rand.Rand) []string {
	lines := append([]string(nil), groupPrologue...)
	lines = append(lines, []string{"s_mov_b32 s10, 3", "s_mov_b32 s10, 5"}[r.IntN(2)])
	for range 8 + r.IntN(16) {
		lines = append(lines, groupBlocks[r.IntN(len(groupBlocks))]...)
	}
	return append(lines, groupLoop...)
}

// groupPages is the state of every page at pns.
func groupPages(s *Session, pns []uint64) string {
	var b strings.Builder
	for _, pn := range pns {
		var p [core.PageSize]byte
		s.Memory.ReadRaw(pn<<core.PageBits, p[:])
		fmt.Fprintf(&b, "page %x: %x\n", pn, p)
	}
	return b.String()
}

// freshRun runs a new session of l to position (steps, ev) of a's
// recording one instruction at a time through Step (the reference path),
// following a's schedule and applying a's edits where a made them.
func freshRun(t *testing.T, mk func() *Session, a *Session, steps uint64, ev int) *Session {
	t.Helper()
	return freshVisit(t, mk, a, steps, ev, nil)
}

// freshVisit is freshRun calling visit before each instruction, with the
// wave about to run it and its position.
func freshVisit(t *testing.T, mk func() *Session, a *Session, steps uint64, ev int, visit func(b *Session, w int, p uint64)) *Session {
	t.Helper()
	b := mk()
	r := a.rp
	k := 0
	for {
		cur := b.rp.now()
		for k < ev && r.events[k].steps <= cur {
			r.events[k].apply(b.waves[r.events[k].wave])
			k++
		}
		if cur >= steps {
			break
		}
		w, _, ok := r.at(cur)
		if !ok {
			t.Fatalf("position %d is not in the schedule", cur)
		}
		if visit != nil {
			visit(b, w, cur)
		}
		if _, err := b.waves[w].Step(); err != nil {
			t.Fatalf("fresh run: wave %d at position %d: %v", w, cur, err)
		}
	}
	return b
}

// TestSessionReverseEqualsFreshRun: for random kernels of 2 to 4 waves
// (barriers, LDS and global traffic between the waves) and random moves
// of random waves (steps, continues with budgets and breakpoints, steps
// of every wave, edits of registers and LDS), every reverse move (steps
// back by any number, reverse-continue) reaches exactly the state —
// every wave's registers, in-flight operations, cache, clock and
// counters, memory and LDS — that a fresh run of the same schedule
// reaches there one Step at a time, also after the checkpoints were
// thinned and after going forward again from the past.
func TestSessionReverseEqualsFreshRun(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(24) {
		r := rand.New(rand.NewPCG(seed, 77))
		waves := 2 + r.IntN(3)
		lines := randomGroupKernel(r)
		cfg := GridConfig{Config: core.DefaultConfig(isa.GFX9)}
		if seed%3 == 0 {
			cfg.Config.HistoryBytes = 300 << 10 // thinned
		}
		interval := uint64(3 + r.IntN(40))
		mk := func() *Session {
			s, err := OpenSession(ctx, groupLaunch(t, waves, lines...), cfg, 0)
			if err != nil {
				t.Fatal(err)
			}
			s.SetCheckpointInterval(interval)
			return s
		}
		a := mk()
		// a breakpoint that stays, so that reverse-continue can skip the
		// spans continues found clean
		keep := a.Prog.Addrs[r.IntN(len(a.Prog.Addrs))]
		a.Break(Breakpoint{PC: keep})
		check := func(what string) {
			t.Helper()
			b := freshRun(t, mk, a, a.Position(), a.rp.ev)
			for i := range a.waves {
				sa, sb := a.waves[i].Snapshot(), b.waves[i].Snapshot()
				sa.LastAddrs, sb.LastAddrs = nil, nil // a view of the last record, not state
				if d := snapDiff(sa, sb); d != "" {
					t.Fatalf("seed %d, %s: at position %d, wave %d differs from a fresh run:\n%s", seed, what, a.Position(), i, d)
				}
			}
			if pa, pb := groupPages(a, a.rp.log.Pns), groupPages(b, a.rp.log.Pns); pa != pb {
				t.Fatalf("seed %d, %s: at position %d, memory differs from a fresh run", seed, what, a.Position())
			}
			if hb := cfg.Config.HistoryBytes; hb > 0 && a.Checkpoints() > 2 && a.RecordingBytes() > hb {
				t.Fatalf("seed %d, %s: the recording holds %d bytes in %d checkpoints, over its budget of %d", seed, what, a.RecordingBytes(), a.Checkpoints(), hb)
			}
		}
		for move := 0; move < 30; move++ {
			if r.IntN(3) == 0 {
				a.Select(r.IntN(waves))
			}
			what := ""
			switch op := r.IntN(10); {
			case op < 2:
				n := 1 + r.IntN(15)
				a.Step(ctx, int64(n))
				what = fmt.Sprintf("step %d", n)
			case op < 4:
				n := 1 + r.IntN(150)
				a.Continue(ctx, int64(n))
				what = fmt.Sprintf("continue %d", n)
			case op == 4:
				pc := a.Prog.Addrs[r.IntN(len(a.Prog.Addrs))]
				b, _ := a.Break(Breakpoint{PC: pc, Temp: true})
				a.Continue(ctx, 400)
				a.Delete(b.ID)
				what = fmt.Sprintf("continue to 0x%x", pc)
			case op == 5:
				a.StepAll(ctx)
				what = "step all"
			case op == 6:
				w, lane, v := r.IntN(waves), r.IntN(64), r.Uint32()
				a.Wave(w).SetVGPR(8, lane, v)
				a.Wave(w).WriteMemory(core.SharedApertureBase+uint64(r.IntN(256))*4, []byte{byte(v), 1, 2, 3})
				what = "edit"
			case op == 7:
				n := 1 + r.IntN(40)
				a.ReverseStep(ctx, uint64(n))
				what = fmt.Sprintf("reverse-step %d", n)
			case op == 8:
				pc := a.Prog.Addrs[r.IntN(len(a.Prog.Addrs))]
				var b *Breakpoint
				if r.IntN(2) == 0 {
					b, _ = a.Break(Breakpoint{PC: pc})
				}
				s0, e0, sel := a.Position(), a.rp.ev, a.Selected()
				// the last hit before s0 in a fresh run of the schedule
				want := a.rp.cks[0].steps
				freshVisit(t, mk, a, s0, e0, func(f *Session, w int, p uint64) {
					if at := f.waves[w].PC(); w == sel && (at == keep || b != nil && at == pc) {
						want = p
					}
				})
				st := a.ReverseContinue(ctx)
				if b != nil {
					a.Delete(b.ID)
				}
				what = fmt.Sprintf("reverse-continue to 0x%x (%v)", pc, st.Reason)
				if a.Position() != want {
					t.Fatalf("seed %d, %s: from %d went back to %d, the last hit is at %d", seed, what, s0, a.Position(), want)
				}
			default:
				n := 1 + r.IntN(400)
				a.ReverseStep(ctx, uint64(n))
				what = fmt.Sprintf("reverse-step %d", n)
			}
			check(what)
		}
	}
}
