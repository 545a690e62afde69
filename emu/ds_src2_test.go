package emu

import (
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// ldsMachine runs one DS instruction (then s_waitcnt) with a 1 KiB LDS
// whose dword i holds i+1000, EXEC lanes 0–3, v1 = 0x40 + 16×lane and
// v2 = 100 + lane, M0 = 0x80.
func ldsMachine(t *testing.T, target isa.Target, line string) *Machine {
	t.Helper()
	p := asmProgram(t, target, line, "s_waitcnt lgkmcnt(0)", "s_endpgm")
	mem := core.NewMemory()
	if err := mem.Map("lds", core.SharedApertureBase, 1<<16, false); err != nil {
		t.Fatal(err)
	}
	for i := uint64(0); i < 256; i++ {
		if err := mem.WriteU32(core.SharedApertureBase+4*i, uint32(i+1000)); err != nil {
			t.Fatal(err)
		}
	}
	m := NewMachine(p, mem, core.DefaultConfig(target))
	m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(1024), Cfg: VMemConfig{LDSLatency: 4}, Ops: map[*isa.Inst]*ref.VmOp{}}
	m.SetExec(0xf)
	for l := 0; l < 4; l++ {
		m.SetVGPR(1, l, uint32(0x40+16*l))
		m.SetVGPR(2, l, uint32(100+l))
	}
	if err := m.SetScalar(int(isa.M0), 0x80); err != nil {
		t.Fatal(err)
	}
	run(t, m)
	return m
}

// TestDSSrc2AddTID: ds_*_src2_* combine the dword at the lane's address A
// with the one at B = A + size×stride (the stride from the offset field)
// and store at A, returning nothing; ds_read/write_addtid_b32 address
// M0[15:0] + offset + 4×lane (Vega ISA manual, DS section). The LDS starts
// with dword i = i+1000, so the dword at byte address x is x/4+1000.
func TestDSSrc2AddTID(t *testing.T) {
	dw := func(x uint32) uint32 { return x/4 + 1000 }
	for _, tc := range []struct {
		target isa.Target
		asm    string
		addr   func(lane int) uint32 // LDS byte address checked
		want   func(lane int) uint32
	}{
		{isa.GFX9, "ds_add_src2_u32 v1 offset:1", func(l int) uint32 { return uint32(0x40 + 16*l) },
			func(l int) uint32 { a := uint32(0x40 + 16*l); return dw(a) + dw(a+4) }},
		{isa.GFX8, "ds_add_src2_u32 v1 offset:1", func(l int) uint32 { return uint32(0x40 + 16*l) },
			func(l int) uint32 { a := uint32(0x40 + 16*l); return dw(a) + dw(a+4) }},
		// offset 0x7fff: stride −1
		{isa.GFX9, "ds_sub_src2_u32 v1 offset:32767", func(l int) uint32 { return uint32(0x40 + 16*l) },
			func(l int) uint32 { a := uint32(0x40 + 16*l); return dw(a) - dw(a-4) }},
		{isa.GFX9, "ds_write_src2_b32 v1 offset:16", func(l int) uint32 { return uint32(0x40 + 16*l) },
			func(l int) uint32 { return dw(uint32(0x40+16*l) + 64) }},
		{isa.GFX9, "ds_min_src2_u32 v1 offset:16", func(l int) uint32 { return uint32(0x40 + 16*l) },
			func(l int) uint32 { return dw(uint32(0x40 + 16*l)) }},
		{isa.GFX9, "ds_max_src2_u32 v1 offset:16", func(l int) uint32 { return uint32(0x40 + 16*l) },
			func(l int) uint32 { return dw(uint32(0x40+16*l) + 64) }},
		// 64-bit: stride in 8-byte elements; the low dword of A+8
		{isa.GFX9, "ds_add_src2_u64 v1 offset:1", func(l int) uint32 { return uint32(0x40 + 16*l) },
			func(l int) uint32 { a := uint32(0x40 + 16*l); return dw(a) + dw(a+8) }},
		{isa.GFX9, "ds_write_addtid_b32 v2 offset:8", func(l int) uint32 { return uint32(0x80 + 8 + 4*l) },
			func(l int) uint32 { return uint32(100 + l) }},
	} {
		m := ldsMachine(t, tc.target, tc.asm)
		for l := 0; l < 4; l++ {
			got, err := m.Mem.ReadU32(core.SharedApertureBase + uint64(tc.addr(l)))
			if err != nil {
				t.Fatal(err)
			}
			if want := tc.want(l); got != want {
				t.Errorf("%v %s: lane %d: LDS[%#x] = %d, want %d", tc.target, tc.asm, l, tc.addr(l), got, want)
			}
		}
	}
	m := ldsMachine(t, isa.GFX9, "ds_read_addtid_b32 v5 offset:8")
	for l := 0; l < 4; l++ {
		if got, want := m.w.V[5][l], dw(uint32(0x80+8+4*l)); got != want {
			t.Errorf("ds_read_addtid_b32: lane %d = %d, want %d", l, got, want)
		}
	}
}

// TestSrc2Addr: the source address's stride from the offset field (bit 15
// clear: its low 15 bits, signed) or from the address (bit 15 set:
// {A[31], A[31:17]}).
func TestSrc2Addr(t *testing.T) {
	for _, tc := range []struct {
		a, off uint32
		size   int
		want   uint32
	}{
		{0x100, 1, 4, 0x104},
		{0x100, 0x7fff, 4, 0xfc},       // −1
		{0x100, 0x4000, 4, 0xffff0100}, // −16384 elements
		{0x100, 2, 8, 0x110},
		{0x60000, 0x8000, 4, 0x60000 + 4*3},            // A[31:17] = 3
		{0x80000000, 0x8000, 4, 0x80000000 - 4*0x4000}, // {1, 0…}: −16384
	} {
		if got := ref.Src2Addr(tc.a, tc.off, tc.size); got != tc.want {
			t.Errorf("src2Addr(%#x, %#x, %d) = %#x, want %#x", tc.a, tc.off, tc.size, got, tc.want)
		}
	}
}
