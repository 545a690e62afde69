package emu

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/wavedbg/wavedbg/isa"
)

// BenchmarkDS runs a loop of eight copies of one DS instruction, then
// s_waitcnt lgkmcnt(0) and s_branch back, with history off (the grid
// runner's mode), all 64 lanes active at conflict-free addresses
// (v1 = 4×lane + 4×64×copy is not needed: every copy reads the same
// dwords). One op is one DS instruction; ns/op includes the loop's share
// of s_waitcnt and s_branch (2 of 10 instructions).
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
		b.Run(bc.name, func(b *testing.B) {
			var f *isa.Form
			for opc := 0; opc < 256 && f == nil; opc++ {
				if g := isa.LookupForm(isa.GFX9, isa.EncDS, uint16(opc)); g != nil && g.Op.String() == bc.name {
					f = g
				}
			}
			if f == nil {
				b.Fatalf("no form %s", bc.name)
			}
			one := dsWords(isa.GFX9, f, bc.off0, bc.off1)[:8]
			var code []byte
			for range 8 {
				code = append(code, one...)
			}
			code = binary.LittleEndian.AppendUint32(code, 0xbf8cc07f)                // s_waitcnt lgkmcnt(0)
			code = binary.LittleEndian.AppendUint32(code, 0xbf820000|uint32(0xffee)) // s_branch to 0
			p := DecodeProgramWith(isa.GFX9, isa.FeaturesOf("gfx900"), 0, code)
			mem := NewMemory()
			if err := mem.Map("lds", SharedApertureBase, 1<<16, false); err != nil {
				b.Fatal(err)
			}
			if err := mem.Write(SharedApertureBase, make([]byte, 1<<16)); err != nil {
				b.Fatal(err)
			}
			cfg := DefaultConfig(isa.GFX9)
			cfg.HistoryBytes = 0
			m := NewMachine(p, mem, cfg)
			m.VectorMemory = &vmemUnit{lds: newLDS(1 << 16), cfg: VMemConfig{LDSLatency: 64}, ops: map[*isa.Inst]*vmOp{}}
			for l := 0; l < 64; l++ {
				m.SetVGPR(dsTestAddr, l, uint32(4*l))
				m.SetVGPR(dsTestData0, l, uint32(l))
				m.SetVGPR(dsTestData1, l, uint32(l))
			}
			m.SetExec(^uint64(0))
			b.ResetTimer()
			for done := 0; done < b.N; done += 8 {
				if _, err := m.Run(context.Background(), 10); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
