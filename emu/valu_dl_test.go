package emu

import (
	"testing"

	"github.com/wavedbg/wavedbg/isa"
)

// f16 constants
const (
	hf0p5 = 0x3800
	hf1   = 0x3c00
	hf2   = 0x4000
	hf3   = 0x4200
	hf4   = 0x4400
	hf7   = 0x4700
)

// w906 is a gfx906 instruction encoded by llvm-mc-19 -mcpu=gfx906; v0 is
// the destination, v1, v2, v3 the sources; w1 is 0 for a one-word VOP2.
func w906(asm string, w0, w1 uint32) asmWord {
	if w1 == 0 {
		return asmWord{asm, []uint32{w0}}
	}
	return asmWord{asm, []uint32{w0, w1}}
}

// TestGFX906 checks the FeatFMAMix and FeatDL operations, decoded with
// isa.FeaturesOf("gfx906"). Expected values are worked from the Vega 7nm
// ISA manual: V_FMA_MIX_* is a fused S0·S1+S2 whose sources are f32 or,
// with op_sel_hi, the f16 half op_sel picks; V_FMAC_F32 is D = S0·S1+D
// fused; V_XNOR_B32 is ~(S0^S1); V_DOTn_* sum n products of packed lanes
// plus S2, saturating with clamp.
func TestGFX906(t *testing.T) {
	const (
		mix    = 0x040e0501 // v1, v2, v3 as f32
		mixHi  = 0x1c0e0501 // op_sel_hi set for two or three sources
		pk     = 0x1c0e0501 // VOP3P default op_sel_hi:[1,1,1]
		tiny   = 0x33800000 // 2^-24
		onePlu = 0x3f800800 // 1 + 2^-12
		negSum = 0xbf801000 // -(1 + 2^-11)
	)
	f := isa.FeaturesOf("gfx906")
	runWordCases(t, isa.GFX9, f, []wordCase{
		{"fma_mix f32", w906("v_fma_mix_f32 v0, v1, v2, v3", 0xd3a00000, mix),
			map[int]uint32{1: fb(2), 2: fb(3), 3: fb(1)}, map[int]uint32{0: fb(7)}},
		// (1+2^-12)² - (1+2^-11) = 2^-24 fused; an unfused multiply would round the 2^-24 away
		{"fma_mix is fused", w906("v_fma_mix_f32 v0, v1, v2, v3", 0xd3a00000, mix),
			map[int]uint32{1: onePlu, 2: onePlu, 3: negSum}, map[int]uint32{0: tiny}},
		{"fma_mix f16 lo halves", w906("v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,1]", 0xd3a04000, mixHi),
			map[int]uint32{1: 0xffff0000 | hf2, 2: hf3, 3: hf1}, map[int]uint32{0: fb(7)}},
		{"fma_mix f16 hi halves", w906("v_fma_mix_f32 v0, v1, v2, v3 op_sel:[1,1,0] op_sel_hi:[1,1,0]", 0xd3a01800, mixHi),
			map[int]uint32{1: hf2 << 16, 2: hf3<<16 | 0x1234, 3: fb(1)}, map[int]uint32{0: fb(7)}},
		{"fma_mix clamp", w906("v_fma_mix_f32 v0, v1, v2, v3 clamp", 0xd3a08000, mix),
			map[int]uint32{1: fb(2), 2: fb(3), 3: fb(1)}, map[int]uint32{0: fb(1)}},
		{"fma_mix neg abs", w906("v_fma_mix_f32 v0, -v1, |v2|, v3", 0xd3a00200, 0x240e0501),
			map[int]uint32{1: fb(2), 2: fb(-3), 3: fb(1)}, map[int]uint32{0: fb(-5)}},
		{"fma_mixlo keeps the high half", w906("v_fma_mixlo_f16 v0, v1, v2, v3", 0xd3a10000, mix),
			map[int]uint32{0: 0xdead0000, 1: fb(2), 2: fb(3), 3: fb(1)}, map[int]uint32{0: 0xdead0000 | hf7}},
		{"fma_mixhi keeps the low half", w906("v_fma_mixhi_f16 v0, v1, v2, v3", 0xd3a20000, mix),
			map[int]uint32{0: 0x1234beef, 1: fb(2), 2: fb(3), 3: fb(1)}, map[int]uint32{0: hf7<<16 | 0xbeef}},
		{"fma_mix -|x|", w906("v_fma_mix_f32 v0, -|v1|, v2, v3", 0xd3a00100, 0x240e0501),
			map[int]uint32{1: fb(-2), 2: fb(3), 3: fb(1)}, map[int]uint32{0: fb(-5)}},
		// (1+2^-15)² + 7·2^-14 = 1 + 2^-11 + 2^-30: rounded once to f16 it is
		// above the tie (0x3c01); via f32 it would be the tie, rounding to even 0x3c00
		{"fma_mixlo rounds once", w906("v_fma_mixlo_f16 v0, v1, v2, v3", 0xd3a10000, mix),
			map[int]uint32{0: 0xdead0000, 1: 0x3f800100, 2: 0x3f800100, 3: 0x39e00000}, map[int]uint32{0: 0xdead3c01}},
		{"fma_mixlo clamp", w906("v_fma_mixlo_f16 v0, v1, v2, v3 clamp", 0xd3a18000, mix),
			map[int]uint32{0: 0xdead0000, 1: fb(2), 2: fb(3), 3: fb(1)}, map[int]uint32{0: 0xdead0000 | hf1}},
		{"fma_mixhi f16 clamp", w906("v_fma_mixhi_f16 v0, v1, v2, v3 op_sel_hi:[1,1,1] clamp", 0xd3a2c000, mixHi),
			map[int]uint32{0: 0x1234beef, 1: 0x8000 | hf2, 2: hf3, 3: hf1}, map[int]uint32{0: 0x0000beef}}, // -2·3+1 → 0
		{"fmac", w906("v_fmac_f32_e32 v0, v1, v2", 0x76000501, 0),
			map[int]uint32{0: negSum, 1: onePlu, 2: onePlu}, map[int]uint32{0: tiny}},
		{"fmac clamp", w906("v_fmac_f32_e64 v0, v1, v2 clamp", 0xd13b8000, 0x00020501),
			map[int]uint32{0: fb(1), 1: fb(2), 2: fb(-3)}, map[int]uint32{0: 0}},
		{"xnor", w906("v_xnor_b32_e32 v0, v1, v2", 0x7a000501, 0),
			map[int]uint32{1: 0xf0f0ff00, 2: 0xff00ff00}, map[int]uint32{0: 0xf00fffff}}, // ~0x0ff00000,
		{"xnor e64", w906("v_xnor_b32_e64 v0, v1, v2", 0xd13d0000, 0x00020501),
			map[int]uint32{1: 0, 2: 0}, map[int]uint32{0: 0xffffffff}},

		// 2·4 + 3·0.5 + 1
		{"dot2 f16", w906("v_dot2_f32_f16 v0, v1, v2, v3", 0xd3a34000, pk),
			map[int]uint32{1: hf3<<16 | hf2, 2: hf0p5<<16 | hf4, 3: fb(1)}, map[int]uint32{0: fb(10.5)}},
		{"dot2 f16 clamp", w906("v_dot2_f32_f16 v0, v1, v2, v3 clamp", 0xd3a3c000, pk),
			map[int]uint32{1: hf3<<16 | hf2, 2: hf0p5<<16 | hf4, 3: fb(1)}, map[int]uint32{0: fb(1)}},
		// -2·4 + 3·-0.5 + 1
		{"dot2 f16 neg_lo neg_hi", w906("v_dot2_f32_f16 v0, v1, v2, v3 neg_lo:[1,0,0] neg_hi:[0,1,0]", 0xd3a34200, 0x3c0e0501),
			map[int]uint32{1: hf3<<16 | hf2, 2: hf0p5<<16 | hf4, 3: fb(1)}, map[int]uint32{0: fb(-8.5)}},
		// S0 swapped: 3·4 + 2·0.5 + 1
		{"dot2 f16 op_sel", w906("v_dot2_f32_f16 v0, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[0,1,1]", 0xd3a34800, 0x140e0501),
			map[int]uint32{1: hf3<<16 | hf2, 2: hf0p5<<16 | hf4, 3: fb(1)}, map[int]uint32{0: fb(14)}},

		// 2·0x3fff0001 + 0x7fffffff wraps to 0xfffe0001; clamp saturates
		{"dot2 i16 wraps", w906("v_dot2_i32_i16 v0, v1, v2, v3", 0xd3a64000, pk),
			map[int]uint32{1: 0x7fff7fff, 2: 0x7fff7fff, 3: 0x7fffffff}, map[int]uint32{0: 0xfffe0001}},
		{"dot2 i16 clamp", w906("v_dot2_i32_i16 v0, v1, v2, v3 clamp", 0xd3a6c000, pk),
			map[int]uint32{1: 0x7fff7fff, 2: 0x7fff7fff, 3: 0x7fffffff}, map[int]uint32{0: 0x7fffffff}},
		{"dot2 i16 signs", w906("v_dot2_i32_i16 v0, v1, v2, v3", 0xd3a64000, pk), // -2·3 + 4·-5 + 7
			map[int]uint32{1: 0x0004fffe, 2: 0xfffb0003, 3: 7}, map[int]uint32{0: uint32(0xffffffff - 18)}},
		{"dot2 u16 clamp", w906("v_dot2_u32_u16 v0, v1, v2, v3 clamp", 0xd3a7c000, pk),
			map[int]uint32{1: 0xffffffff, 2: 0xffffffff, 3: 0xffffffff}, map[int]uint32{0: 0xffffffff}},
		{"dot2 u16", w906("v_dot2_u32_u16 v0, v1, v2, v3 clamp", 0xd3a7c000, pk), // 3·5 + 4·6 + 10
			map[int]uint32{1: 0x00040003, 2: 0x00060005, 3: 10}, map[int]uint32{0: 49}},
		{"dot4 i8", w906("v_dot4_i32_i8 v0, v1, v2, v3", 0xd3a84000, pk), // 2·3 - 1·3 + 0 + 60·1 + 10
			map[int]uint32{1: 0x3c00ff02, 2: 0x01000303, 3: 10}, map[int]uint32{0: 73}},
		{"dot4 i8 clamp low", w906("v_dot4_i32_i8 v0, v1, v2, v3 clamp", 0xd3a8c000, pk), // 4·(-128·127) + INT_MIN
			map[int]uint32{1: 0x80808080, 2: 0x7f7f7f7f, 3: 0x80000000}, map[int]uint32{0: 0x80000000}},
		{"dot4 u8 clamp", w906("v_dot4_u32_u8 v0, v1, v2, v3 clamp", 0xd3a9c000, pk), // 4·255² + 0xffffff9b
			map[int]uint32{1: 0xffffffff, 2: 0xffffffff, 3: 0xffffff9b}, map[int]uint32{0: 0xffffffff}},
		{"dot4 u8", w906("v_dot4_u32_u8 v0, v1, v2, v3 clamp", 0xd3a9c000, pk), // 1·5 + 2·6 + 3·7 + 4·8
			map[int]uint32{1: 0x04030201, 2: 0x08070605, 3: 0}, map[int]uint32{0: 70}},
		{"dot8 i4", w906("v_dot8_i32_i4 v0, v1, v2, v3 clamp", 0xd3aac000, pk), // 1·3 + (-1)·2 + 5
			map[int]uint32{1: 0x000000f1, 2: 0x00000023, 3: 5}, map[int]uint32{0: 6}},
		{"dot8 i4 clamp", w906("v_dot8_i32_i4 v0, v1, v2, v3 clamp", 0xd3aac000, pk), // 8·(-8·7) + INT_MIN
			map[int]uint32{1: 0x88888888, 2: 0x77777777, 3: 0x80000000}, map[int]uint32{0: 0x80000000}},
		{"dot8 u4", w906("v_dot8_u32_u4 v0, v1, v2, v3 clamp", 0xd3abc000, pk), // 1·3 + 2·4
			map[int]uint32{1: 0x00000021, 2: 0x00000043, 3: 0}, map[int]uint32{0: 11}},
		{"dot8 u4 clamp", w906("v_dot8_u32_u4 v0, v1, v2, v3 clamp", 0xd3abc000, pk), // 8·225 + 0xffffff00
			map[int]uint32{1: 0xffffffff, 2: 0xffffffff, 3: 0xffffff00}, map[int]uint32{0: 0xffffffff}},
	})
}

// Without the features the same words are gfx900's v_mad_mix_f32 (not an
// fma on a processor without FeatFMAMix): check the decoder split.
func TestGFX906NeedsFeatures(t *testing.T) {
	p := DecodeProgramWith(isa.GFX9, 0, 0, []byte{0x00, 0x00, 0xa0, 0xd3, 0x01, 0x05, 0x0e, 0x04})
	if got := opName(p.Insts[0].Op); got != "v_mad_mix_f32" {
		t.Fatalf("gfx900 decodes %q, want v_mad_mix_f32", got)
	}
	p = DecodeProgramWith(isa.GFX9, isa.FeaturesOf("gfx906"), 0, []byte{0x00, 0x00, 0xa0, 0xd3, 0x01, 0x05, 0x0e, 0x04})
	if got := opName(p.Insts[0].Op); got != "v_fma_mix_f32" {
		t.Fatalf("gfx906 decodes %q, want v_fma_mix_f32", got)
	}
}
