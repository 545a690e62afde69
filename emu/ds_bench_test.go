package emu

import (
	"context"
	"encoding/binary"
	"syscall"
	"testing"
	"time"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// BenchmarkDS runs a loop of eight copies of one DS instruction, then
// s_waitcnt lgkmcnt(0) and s_branch back, with history off (the grid
// runner's mode) and all 64 lanes active at conflict-free addresses
// (v1 = 4×lane), through the fast path ("fast") and through the general
// path ("general", noFast). One op is one DS instruction; ns/op includes
// the loop's share of s_waitcnt and s_branch (2 of 10 instructions).
// Minstr/cpu-s counts every instruction per CPU second (the steadier
// figure on a shared machine).
//
//	go test ./emu -run '^$' -bench 'DS/' -benchtime 200000x
func BenchmarkDS(b *testing.B) {
	for _, bc := range []struct {
		name       string
		off0, off1 uint8
	}{
		{"ds_read_b32", 0, 0},
		{"ds_write_b32", 0, 0},
		{"ds_read2_b32", 0, 64},
		{"ds_write2_b32", 0, 64},
		{"ds_read_b64", 0, 0},
		{"ds_read_u16", 2, 0},
		{"ds_add_u32", 0, 0},
		{"ds_add_rtn_u32", 0, 0},
	} {
		for _, noFast := range []bool{false, true} {
			path := "fast"
			if noFast {
				path = "general"
			}
			b.Run(bc.name+"/"+path, func(b *testing.B) {
				m := dsBenchMachine(b, bc.name, bc.off0, bc.off1, noFast)
				var r0, r1 syscall.Rusage
				syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
				b.ResetTimer()
				n := int64(0)
				for done := 0; done < b.N; done += 8 {
					res, err := m.Run(context.Background(), 10)
					if err != nil {
						b.Fatal(err)
					}
					n += res.Steps
				}
				b.StopTimer()
				syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
				cpu := time.Duration(r1.Utime.Nano() + r1.Stime.Nano() - r0.Utime.Nano() - r0.Stime.Nano())
				if cpu > 0 {
					b.ReportMetric(float64(n)/cpu.Seconds()/1e6, "Minstr/cpu-s")
				}
			})
		}
	}
}

// dsBenchMachine builds BenchmarkDS's loop for the named DS form.
func dsBenchMachine(b testing.TB, name string, off0, off1 uint8, noFast bool) *Machine {
	var f *isa.Form
	for opc := 0; opc < 256 && f == nil; opc++ {
		if g := isa.LookupForm(isa.GFX9, isa.EncDS, uint16(opc)); g != nil && g.Op.String() == name {
			f = g
		}
	}
	if f == nil {
		b.Fatalf("no form %s", name)
	}
	one := dsWords(isa.GFX9, f, off0, off1)[:8]
	var code []byte
	for range 8 {
		code = append(code, one...)
	}
	code = binary.LittleEndian.AppendUint32(code, 0xbf8cc07f)        // s_waitcnt lgkmcnt(0)
	code = binary.LittleEndian.AppendUint32(code, 0xbf820000|0xffee) // s_branch to the start
	p := DecodeProgramWith(isa.GFX9, isa.FeaturesOf("gfx900"), 0, code)
	mem := core.NewMemory()
	if err := mem.Map("lds", core.SharedApertureBase, 1<<16, false); err != nil {
		b.Fatal(err)
	}
	if err := mem.Write(core.SharedApertureBase, make([]byte, 1<<16)); err != nil {
		b.Fatal(err)
	}
	cfg := core.DefaultConfig(isa.GFX9)
	cfg.HistoryBytes = 0
	m := NewMachine(p, mem, cfg)
	m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(1 << 16), Cfg: VMemConfig{LDSLatency: 64}, Ops: map[*isa.Inst]*ref.VmOp{}, NoFast: noFast}
	for l := 0; l < 64; l++ {
		m.SetVGPR(dsTestAddr, l, uint32(4*l))
		m.SetVGPR(dsTestData0, l, uint32(l))
		m.SetVGPR(dsTestData1, l, uint32(l))
	}
	m.SetExec(^uint64(0))
	return m
}
