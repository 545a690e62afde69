package emu

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// hexMachine decodes hex instruction bytes for target t.
func hexMachine(t *testing.T, target isa.Target, mcpu, text string) *Machine {
	t.Helper()
	b, err := hex.DecodeString(text)
	if err != nil {
		t.Fatal(err)
	}
	p := DecodeProgramWith(target, isa.FeaturesOf(mcpu), 0, b)
	return NewMachine(p, core.NewMemory(), core.DefaultConfig(target))
}

// TestPreviewSMEMMasking: an SMEM address is base + inst_offset + SGPR
// offset with the low two bits of each component cleared (Vega ISA
// §7.2.1), not of their sum: with offset:0x13 and s6 = 3 the dword is at
// base + 0x10 (the debugger used to show base + 0x14).
func TestPreviewSMEMMasking(t *testing.T) {
	m := hexMachine(t, isa.GFX9, "gfx900", "024002c0"+"1300000c"+"000081bf") // s_load_dword s0, s[4:5], s6 offset:0x13
	if got := m.Prog.Insts[0].String(); got != "s_load_dword s0, s[4:5], s6 offset:0x13" {
		t.Fatalf("decoded %q", got)
	}
	const base = 0x10000
	if err := m.Mem.Map("buf", base, 0x100, false); err != nil {
		t.Fatal(err)
	}
	m.SetSGPR(4, base)
	m.SetSGPR(6, 3)
	p, ok := m.Preview()
	if !ok || p.Mem == nil || len(p.Mem.Addrs) != 1 {
		t.Fatalf("preview: %+v", p)
	}
	a := p.Mem.Addrs[0]
	if a.Addr != base+0x10 || a.Offset != 0x10 || p.Mem.Base != base || p.Mem.SOff != 0x10 || a.Dest != "s0" || !a.InRange || !a.Mapped {
		t.Errorf("preview %+v (base %#x, offset %#x), want the dword at %#x", a, p.Mem.Base, p.Mem.SOff, base+0x10)
	}
	rec := mustStep(t, m)
	if len(rec.Addrs) != 1 || rec.Addrs[0] != a.LaneAddr {
		t.Errorf("the step accessed %+v, Preview said %+v", rec.Addrs, a.LaneAddr)
	}
}

// TestPreviewWaitcntGFX8: s_waitcnt's VM_CNT is bits 3:0 on GFX8; bits
// 15:14 extend it on GFX9 only (the debugger used to read them on GFX8 too).
func TestPreviewWaitcntGFX8(t *testing.T) {
	const word = "03c08cbf" + "000081bf" // s_waitcnt simm16 0xc003; s_endpgm
	for _, c := range []struct {
		target   isa.Target
		mcpu     string
		vm, vmax int
	}{{isa.GFX8, "gfx803", 3, 15}, {isa.GFX9, "gfx900", 0x33, 63}} {
		m := hexMachine(t, c.target, c.mcpu, word)
		p, ok := m.Preview()
		if !ok || p.Wait == nil {
			t.Fatalf("%s: preview %+v", c.mcpu, p)
		}
		if w := *p.Wait; w.VM != c.vm || w.VMMax != c.vmax || w.EXP != 0 || w.LGKM != 0 || w.EXPMax != 7 || w.LGKMMax != 15 {
			t.Errorf("%s: %+v, want vm %d of %d, exp 0, lgkm 0", c.mcpu, w, c.vm, c.vmax)
		}
	}
}

// TestPreviewBranch: a branch's target and whether it is taken come from
// the execution's condition.
func TestPreviewBranch(t *testing.T) {
	m := hexMachine(t, isa.GFX9, "gfx900", "010084bf"+"000081bf"+"000081bf") // s_cbranch_scc0 1; s_endpgm; s_endpgm
	for _, scc := range []bool{false, true} {
		m.Reset()
		if scc {
			m.w.S[core.SlotSCC] = 1
		}
		p, ok := m.Preview()
		if !ok || p.Branch == nil || p.Branch.Target != 8 || p.Branch.Cond != isa.BranchSCC0 || p.Branch.Taken == scc {
			t.Fatalf("scc %v: %+v", scc, p.Branch)
		}
	}
}

// TestPreviewDSMatchesStep: for random DS instructions of every form
// (read2, write2, st64, src2, addtid, append, condxchg, atomics) on random
// addresses around the LDS limit, Preview lists exactly the LDS accesses
// the step records, and the bank conflicts it notes.
func TestPreviewDSMatchesStep(t *testing.T) {
	forms := map[isa.Target]map[string]*isa.Form{}
	names := map[isa.Target][]string{}
	for _, tg := range []isa.Target{isa.GFX8, isa.GFX9} {
		forms[tg] = dsForms(tg)
		for n := range forms[tg] {
			names[tg] = append(names[tg], n)
		}
		slices.Sort(names[tg])
	}
	r := rand.New(rand.NewPCG(17, 2026))
	seen := 0
	for i := 0; i < 1500; i++ {
		c := randDSCase(r, forms, names)
		m := c.machine(t, 1<<20, false)
		p, ok := m.Preview()
		if !ok {
			t.Fatalf("case %d %v: no preview", i, c)
		}
		rec, err := m.Step()
		if err != nil {
			continue // GDS and GWS stop the wave, records and all
		}
		var got []LaneAddr
		if p.Mem != nil {
			for _, a := range p.Mem.Addrs {
				got = append(got, a.LaneAddr)
			}
		}
		if !slices.Equal(got, rec.Addrs) {
			t.Fatalf("case %d %v:\npreview %+v\nstep    %+v", i, c, got, rec.Addrs)
		}
		note := ""
		if p.Mem != nil && p.Mem.Conflicts > 0 {
			note = fmt.Sprintf("LDS bank conflicts: %d extra cycles", p.Mem.Conflicts)
		}
		if note != "" && !slices.Contains(rec.Notes, note) {
			t.Fatalf("case %d %v: preview %q, step notes %q", i, c, note, rec.Notes)
		}
		seen += len(got)
	}
	if seen == 0 {
		t.Fatal("no LDS access compared")
	}
}
