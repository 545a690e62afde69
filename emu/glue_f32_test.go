package emu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// TestF32EnvAcrossInstructions runs random sequences of f32 kernels on
// one wave, so that the float context fenvCached reuses carries from one
// instruction to the next, between MODE changes and execVOP steps of
// conversions whose context mixedTypes rewrites, and holds each step's
// state to the generic path's on a second wave.
func TestF32EnvAcrossInstructions(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	f32 := []ti{
		I("v_mul_f32", vreg(1), vreg(2), vreg(3)),
		I("v_mul_f32", vreg(2), lit(0x4f7ffffe), vreg(2)),
		I("v_add_f32", vreg(3), vreg(1), vreg(2)),
		I("v_sub_f32", vreg(1), ic(1), vreg(3)),
		I("v_cvt_f32_u32", vreg(2), sreg(4)),
		I("v_cvt_f32_i32", vreg(3), lit(0x80000001)),
		I("v_rcp_iflag_f32", vreg(1), vreg(2)),
		I("v_rcp_f32", vreg(2), sreg(5)),
		I("v_cvt_u32_f32", vreg(3), vreg(1)),
		I("v_mac_f32", vreg(1), vreg(2), vreg(3)),
		I("v_max_f32", vreg(2), vreg(2), vreg(3)),
		I("v_min_f32", vreg(3), vreg(1), vreg(3)),
	}
	// execVOP of these rewrites the context through mixedTypes
	mixed := []ti{I("v_cvt_f32_f16", vreg(4), vreg(2)), I("v_cvt_f16_f32", vreg(5), vreg(3))}
	var fast, conv []*core.Instr
	for _, c := range f32 {
		fast = append(fast, &prog(isa.GFX9, c).Code[0])
	}
	for _, c := range mixed {
		conv = append(conv, &prog(isa.GFX9, c).Code[0])
	}
	for trial := range 300 {
		w0 := fastWave(r)
		if trial%2 == 0 {
			withExec(w0, edgeMasks[r.IntN(len(edgeMasks))])
		}
		w1, w2 := new(Wave), new(Wave)
		*w1, *w2 = *w0, *w0
		for step := range 40 {
			desc := fmt.Sprintf("trial %d step %d", trial, step)
			switch r.IntN(8) {
			case 0: // a new MODE: denormals, DX10_CLAMP and IEEE, sometimes the rounding
				m := uint32(r.IntN(16))<<4 | uint32(r.IntN(4))<<8
				if r.IntN(5) == 0 {
					m |= uint32(r.IntN(16))
				}
				w1.S[core.SlotMode], w2.S[core.SlotMode] = m, m
			case 1:
				in := conv[r.IntN(len(conv))]
				e1, e2 := ref.ExecVOP(w1, in), ref.ExecVOP(w2, in)
				if (e1 == nil) != (e2 == nil) {
					t.Fatalf("%s: %s: errors %v, %v", desc, in.Name, e1, e2)
				}
			default:
				in := fast[r.IntN(len(fast))]
				desc += " " + in.Name
				e1, e2 := in.Fn(w1, in), in.Def.Fn(w2, in)
				if (e1 == nil) != (e2 == nil) {
					t.Fatalf("%s: errors %v, %v", desc, e1, e2)
				}
			}
			fastSame(t, desc, w0, w1, w2)
		}
	}
}
