package emu

import (
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// Interpolation test fixture. M0 = 0x100 | 1<<16: lds_param_offset 0x100,
// new_prim_mask bit 0 set, so quad 0 (lanes 0–3) reads primitive 0 and
// quad 1 (lanes 4–7) primitive 1. EXEC is lanes 0–7 without lane 2, whose
// destination keeps its old value. Parameters sit at (valu_interp.go)
// 0x100 + prim*3072 + attr*48 + k*16 + chan*4, k = 0 P0, 1 P10, 2 P20.
const (
	ipBase = 0x100
	ipM0   = ipBase | 1<<16
	ipExec = 0xfb
	ipOld  = 0x42c80000 // 100.0, every destination's value before the step
)

// ipParams: attribute, channel, primitive -> P0, P10, P20.
var ipParams = []struct {
	attr, ch, prim int
	p              [3]uint32
}{
	// f32: attr5.z
	{5, 2, 0, [3]uint32{0x3f800000, 0x40000000, 0x40800000}}, // 1, 2, 4
	{5, 2, 1, [3]uint32{0x41200000, 0x3f000000, 0xc0400000}}, // 10, 0.5, -3
	// f32: attr1.y
	{1, 1, 0, [3]uint32{0x40e00000, 0x41000000, 0x41100000}}, // 7, 8, 9
	{1, 1, 1, [3]uint32{0x41880000, 0x41900000, 0x41980000}}, // 17, 18, 19
	// f16 pairs (high<<16 | low): attr2.x
	{2, 0, 0, [3]uint32{0x40003c00, 0x42003800, 0xbc003400}}, // P0 1|2, P10 0.5|3, P20 0.25|-1
	{2, 0, 1, [3]uint32{0x38004400, 0x3c004000, 0x38004800}}, // P0 4|0.5, P10 2|1, P20 8|0.5
	// attr3.x: P20 = 1.0 for the rounding case
	{3, 0, 0, [3]uint32{0, 0, 0x3c00}},
	{3, 0, 1, [3]uint32{0, 0, 0x3c00}},
}

// Lane-uniform sources.
var ipVGPRs = map[int]uint32{
	5:  0x3f000000, // I = 0.5
	6:  0x40000000, // J = 2.0
	7:  0x42003e00, // f16 P0 for p1lv: low 1.5, high 3.0
	8:  0x3f801000, // J = 1 + 2^-11
	9:  0,          // 0.0
	12: 0x3f400000, // 0.75
}

// ipMachine decodes code (followed by s_endpgm) and sets up the fixture.
func ipMachine(t *testing.T, target isa.Target, code []byte, withLDS bool) *Machine {
	t.Helper()
	mcpu := "gfx900"
	if target == isa.GFX8 {
		mcpu = "gfx803"
	}
	code = append(append([]byte(nil), code...), 0x00, 0x00, 0x81, 0xbf) // s_endpgm
	p := DecodeProgramWith(target, isa.FeaturesOf(mcpu), 0, code)
	mem := core.NewMemory()
	if err := mem.Map("lds", core.SharedApertureBase, 1<<16, false); err != nil {
		t.Fatal(err)
	}
	for _, q := range ipParams {
		for k, v := range q.p {
			a := uint64(ipBase + q.prim*ref.InterpPrimStride + q.attr*48 + k*16 + q.ch*4)
			if err := mem.WriteU32(core.SharedApertureBase+a, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	m := NewMachine(p, mem, core.DefaultConfig(target))
	if withLDS {
		m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(1 << 16), Cfg: VMemConfig{LDSLatency: 4}, Ops: map[*isa.Inst]*ref.VmOp{}}
	}
	m.SetExec(ipExec)
	for l := 0; l < 64; l++ {
		for r, v := range ipVGPRs {
			m.SetVGPR(r, l, v)
		}
		for _, r := range []int{10, 11, 12, 13} {
			if r != 12 {
				m.SetVGPR(r, l, ipOld)
			}
		}
	}
	if err := m.SetScalar(int(isa.M0), ipM0); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestInterp checks the interpolation opcodes against the formulas of the
// GCN3 ISA manual (Data Share Operations, "Parameter Interpolation"; VINTRP
// opcodes) and the Vega ISA manual (same section, 16-bit interpolation in
// VOP3). Encodings are llvm-mc-19 output (-show-encoding).
func TestInterp(t *testing.T) {
	for _, tc := range []struct {
		name   string
		target isa.Target
		code   []byte
		vdst   int
		pre    uint32 // vdst before the step (v_interp_p2_f32's D)
		mode   uint32
		want   [2]uint32 // primitive 0 (lanes 0, 1, 3), primitive 1 (lanes 4–7)
	}{
		// D = P10*I + P0: 2*0.5+1 = 2; 0.5*0.5+10 = 10.25
		{"v_interp_p1_f32 v10, v5, attr5.z", isa.GFX9, []byte{0x05, 0x16, 0x28, 0xd4}, 10, ipOld, 0,
			[2]uint32{0x40000000, 0x41240000}},
		{"v_interp_p1_f32 v10, v5, attr5.z", isa.GFX8, []byte{0x05, 0x16, 0x28, 0xd4}, 10, ipOld, 0,
			[2]uint32{0x40000000, 0x41240000}},
		// D = P20*J + D with D = 3: 4*2+3 = 11; -3*2+3 = -3
		{"v_interp_p2_f32 v10, v6, attr5.z", isa.GFX9, []byte{0x06, 0x16, 0x29, 0xd4}, 10, 0x40400000, 0,
			[2]uint32{0x41300000, 0xc0400000}},
		// param p0 (2), p10 (0), p20 (1) of attr1.y
		{"v_interp_mov_f32 v11, p0, attr1.y", isa.GFX9, []byte{0x02, 0x05, 0x2e, 0xd4}, 11, ipOld, 0,
			[2]uint32{0x40e00000, 0x41880000}},
		{"v_interp_mov_f32 v11, p10, attr1.y", isa.GFX9, []byte{0x00, 0x05, 0x2e, 0xd4}, 11, ipOld, 0,
			[2]uint32{0x41000000, 0x41900000}},
		{"v_interp_mov_f32 v11, p20, attr1.y", isa.GFX9, []byte{0x01, 0x05, 0x2e, 0xd4}, 11, ipOld, 0,
			[2]uint32{0x41100000, 0x41980000}},
		// VOP3 form with clamp: 2 and 10.25 clamp to 1
		{"v_interp_p1_f32_e64 v10, v5, attr5.z clamp", isa.GFX9, []byte{0x0a, 0x80, 0x70, 0xd2, 0x85, 0x0a, 0x02, 0x00}, 10, ipOld, 0,
			[2]uint32{0x3f800000, 0x3f800000}},
		// D.f32 = P10.f16*I + P0.f16: 0.5*0.5+1 = 1.25; 2*0.5+4 = 5
		{"v_interp_p1ll_f16 v12, v5, attr2.x", isa.GFX9, []byte{0x0c, 0x00, 0x74, 0xd2, 0x02, 0x0a, 0x02, 0x00}, 12, ipOld, 0,
			[2]uint32{0x3fa00000, 0x40a00000}},
		// high halves: 3*0.5+2 = 3.5; 1*0.5+0.5 = 1
		{"v_interp_p1ll_f16 v12, v5, attr2.x high", isa.GFX9, []byte{0x0c, 0x00, 0x74, 0xd2, 0x02, 0x0b, 0x02, 0x00}, 12, ipOld, 0,
			[2]uint32{0x40600000, 0x3f800000}},
		// D.f32 = P10.f16*I + v7.f16: 0.5*0.5+1.5 = 1.75; 2*0.5+1.5 = 2.5
		{"v_interp_p1lv_f16 v12, v5, attr2.x, v7", isa.GFX9, []byte{0x0c, 0x00, 0x75, 0xd2, 0x02, 0x0a, 0x1e, 0x04}, 12, ipOld, 0,
			[2]uint32{0x3fe00000, 0x40200000}},
		// high halves: 3*0.5+3 = 4.5; 1*0.5+3 = 3.5
		{"v_interp_p1lv_f16 v12, v5, attr2.x, v7 high", isa.GFX9, []byte{0x0c, 0x00, 0x75, 0xd2, 0x02, 0x0b, 0x1e, 0x04}, 12, ipOld, 0,
			[2]uint32{0x40900000, 0x40600000}},
		// D.f16 = P20.f16*J + v12.f32: 0.25*2+0.75 = 1.25; 8*2+0.75 = 16.75
		{"v_interp_p2_f16 v13, v6, attr2.x, v12", isa.GFX9, []byte{0x0d, 0x00, 0x77, 0xd2, 0x02, 0x0c, 0x32, 0x04}, 13, ipOld, 0,
			[2]uint32{0x3d00, 0x4c30}},
		{"v_interp_p2_legacy_f16 v13, v6, attr2.x, v12", isa.GFX9, []byte{0x0d, 0x00, 0x76, 0xd2, 0x02, 0x0c, 0x32, 0x04}, 13, ipOld, 0,
			[2]uint32{0x3d00, 0x4c30}},
		{"v_interp_p2_f16 v13, v6, attr2.x, v12 (gfx8)", isa.GFX8, []byte{0x0d, 0x00, 0x76, 0xd2, 0x02, 0x0c, 0x32, 0x04}, 13, ipOld, 0,
			[2]uint32{0x3d00, 0x4c30}},
		// high halves: -1*2+0.75 = -1.25; 0.5*2+0.75 = 1.75
		{"v_interp_p2_f16 v13, v6, attr2.x, v12 high", isa.GFX9, []byte{0x0d, 0x00, 0x77, 0xd2, 0x02, 0x0d, 0x32, 0x04}, 13, ipOld, 0,
			[2]uint32{0xbd00, 0x3f00}},
		// 1*(1+2^-11)+0 is halfway between f16 1 and 1+2^-10: nearest-even
		// gives 1; MODE f16 round toward +inf (MODE[3:2] = 1) gives 1+2^-10.
		{"v_interp_p2_f16 v13, v8, attr3.x, v9", isa.GFX9, []byte{0x0d, 0x00, 0x77, 0xd2, 0x03, 0x10, 0x26, 0x04}, 13, ipOld, 0,
			[2]uint32{0x3c00, 0x3c00}},
		{"v_interp_p2_f16 v13, v8, attr3.x, v9 (round up)", isa.GFX9, []byte{0x0d, 0x00, 0x77, 0xd2, 0x03, 0x10, 0x26, 0x04}, 13, ipOld, 1 << 2,
			[2]uint32{0x3c01, 0x3c01}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := ipMachine(t, tc.target, tc.code, true)
			m.SetMode(tc.mode)
			for l := 0; l < 64; l++ {
				m.SetVGPR(tc.vdst, l, tc.pre)
			}
			mustStep(t, m)
			for l := 0; l < 8; l++ {
				want := tc.want[l/4]
				if ipExec>>l&1 == 0 {
					want = tc.pre
				}
				if got := m.w.V[tc.vdst][l]; got != want {
					t.Errorf("lane %d: v%d = %#x, want %#x", l, tc.vdst, got, want)
				}
			}
			if got := m.w.V[tc.vdst][8]; got != tc.pre {
				t.Errorf("lane 8 (EXEC off): v%d = %#x, want %#x", tc.vdst, got, tc.pre)
			}
		})
	}
}

// TestInterpNoLDS: a machine without an LDS stops with an error naming the
// instruction's PC.
func TestInterpNoLDS(t *testing.T) {
	code := []byte{0x00, 0x00, 0x80, 0xbf, 0x05, 0x16, 0x28, 0xd4} // s_nop 0; v_interp_p1_f32 v10, v5, attr5.z
	m := ipMachine(t, isa.GFX9, code, false)
	mustStep(t, m)
	_, err := m.Step()
	if err == nil || !strings.Contains(err.Error(), "pc 0x4") || !strings.Contains(err.Error(), "LDS") {
		t.Fatalf("err = %v, want an LDS error at pc 0x4", err)
	}
}
