package emu

import (
	"fmt"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// wordCase runs one instruction on lane 0 with VGPRs set from in and checks
// the VGPRs in want.
type wordCase struct {
	name string
	inst asmWord
	in   map[int]uint32
	want map[int]uint32
}

func runWordCases(t *testing.T, tg isa.Target, f isa.Features, cases []wordCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := wordsMachine(t, tg, f, tc.inst, wEnd)
			m.SetExec(1)
			for r, v := range tc.in {
				m.SetVGPR(r, 0, v)
			}
			run(t, m)
			for r, v := range tc.want {
				if got := m.w.V[r][0]; got != v {
					t.Errorf("%s: v%d = %#x, want %#x", tc.inst.asm, r, got, v)
				}
			}
		})
	}
}

// Encodings from llvm-mc-19 -mcpu=gfx803 (the same on gfx900).
var (
	wQSAD       = asmWord{"v_qsad_pk_u16_u8 v[0:1], v[2:3], v4, v[6:7]", []uint32{0xd1e50000, 0x041a0902}}
	wQSADClamp  = asmWord{"v_qsad_pk_u16_u8 v[0:1], v[2:3], v4, v[6:7] clamp", []uint32{0xd1e58000, 0x041a0902}}
	wMQSAD      = asmWord{"v_mqsad_pk_u16_u8 v[0:1], v[2:3], v4, v[6:7]", []uint32{0xd1e60000, 0x041a0902}}
	wMQSAD32    = asmWord{"v_mqsad_u32_u8 v[0:3], v[4:5], v6, v[8:11]", []uint32{0xd1e70000, 0x04220d04}}
	wMQSAD32Clp = asmWord{"v_mqsad_u32_u8 v[0:3], v[4:5], v6, v[8:11] clamp", []uint32{0xd1e78000, 0x04220d04}}
	wPkAccum    = asmWord{"v_cvt_pkaccum_u8_f32 v0, v1, v2", []uint32{0xd1f00000, 0x00020501}}
	wPkAccumNeg = asmWord{"v_cvt_pkaccum_u8_f32 v0, -v1, v2", []uint32{0xd1f00000, 0x20020501}}
)

// TestQSAD: values worked from the GCN3/Vega manuals' pseudocode,
// D.u16[k] = SAD_U8(S0.u64[8k+31:8k], S1.u32, S2.u16[k]) (MSAD_U8 for the
// masked form: bytes where S1 is 0 are skipped). S0 bytes are 1…8.
func TestQSAD(t *testing.T) {
	s0 := map[int]uint32{2: 0x04030201, 3: 0x08070605}
	with := func(m map[int]uint32) map[int]uint32 {
		out := map[int]uint32{}
		for k, v := range s0 {
			out[k] = v
		}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	runWordCases(t, isa.GFX8, 0, []wordCase{
		// S1 bytes 1,2,3,4: SADs 0,4,8,12; accumulators 10,20,30,40
		{"qsad", wQSAD, with(map[int]uint32{4: 0x04030201, 6: 20<<16 | 10, 7: 40<<16 | 30}),
			map[int]uint32{0: 24<<16 | 10, 1: 52<<16 | 38}},
		// S1 bytes 1,2,0,4: unmasked SADs 3,7,11,15
		{"qsad zero byte", wQSAD, with(map[int]uint32{4: 0x04000201}), map[int]uint32{0: 7<<16 | 3, 1: 15<<16 | 11}},
		// masked: byte 2 skipped, SADs 0,3,6,9
		{"mqsad", wMQSAD, with(map[int]uint32{4: 0x04000201, 6: 2<<16 | 1, 7: 4<<16 | 3}),
			map[int]uint32{0: 5<<16 | 1, 1: 13<<16 | 9}},
		// S0 = 0xffffffff, S1 = 0: SADs 1020, 765, 510, 255; 0xfffe + 1020 wraps to 0x3fa
		{"qsad wraps", wQSAD, map[int]uint32{2: 0xffffffff, 3: 0, 4: 0, 6: 1<<16 | 0xfffe, 7: 3<<16 | 2},
			map[int]uint32{0: 0x2fe<<16 | 0x3fa, 1: 0x102<<16 | 0x200}},
		{"qsad clamp saturates", wQSADClamp, map[int]uint32{2: 0xffffffff, 3: 0, 4: 0, 6: 1<<16 | 0xfffe, 7: 3<<16 | 2},
			map[int]uint32{0: 0x2fe<<16 | 0xffff, 1: 0x102<<16 | 0x200}},
		// D.u32[k] = MSAD_U8(S0.u64[8k+31:8k], S1, S2.u32[k]): 100+0, 200+3, 300+6, 400+9
		{"mqsad_u32", wMQSAD32, map[int]uint32{4: 0x04030201, 5: 0x08070605, 6: 0x04000201, 8: 100, 9: 200, 10: 300, 11: 400},
			map[int]uint32{0: 100, 1: 203, 2: 306, 3: 409}},
		{"mqsad_u32 wraps", wMQSAD32, map[int]uint32{4: 0x04030201, 5: 0x08070605, 6: 0x04000201, 8: 0xffffffff, 9: 0xfffffffe},
			map[int]uint32{0: 0xffffffff, 1: 1, 2: 6, 3: 9}},
		{"mqsad_u32 clamp", wMQSAD32Clp, map[int]uint32{4: 0x04030201, 5: 0x08070605, 6: 0x04000201, 8: 0xffffffff, 9: 0xfffffffe},
			map[int]uint32{0: 0xffffffff, 1: 0xffffffff, 2: 6, 3: 9}},
		// sources read before the destination is written (v[4:5] overlaps nothing here; v0 is not a source)
	})
}

// TestCvtPkAccum: GCN3 manual, V_CVT_PKACCUM_U8_F32 — byte S1.u[1:0] of D
// becomes S0.f as u8 (round to nearest even, clamped to 0…255); the other
// bytes of D are kept.
func TestCvtPkAccum(t *testing.T) {
	const d = 0x11223344
	runWordCases(t, isa.GFX9, 0, []wordCase{
		{"byte 2", wPkAccum, map[int]uint32{0: d, 1: fb(200.6), 2: 2}, map[int]uint32{0: 0x11c93344}},
		{"index mod 4", wPkAccum, map[int]uint32{0: d, 1: fb(2.5), 2: 4}, map[int]uint32{0: 0x11223302}},
		{"saturate high", wPkAccum, map[int]uint32{0: d, 1: fb(300), 2: 3}, map[int]uint32{0: 0xff223344}},
		{"negated source", wPkAccumNeg, map[int]uint32{0: d, 1: fb(7), 2: 1}, map[int]uint32{0: 0x11220044}},
		{"NaN is 0", wPkAccum, map[int]uint32{0: d, 1: 0x7fc00000, 2: 0}, map[int]uint32{0: 0x11223300}},
	})
}

// screenPartitionTable is the Vega ISA manual's V_SCREEN_PARTITION_4SE_B32
// table, indexed by S0.u[7:0].
var screenPartitionTable = [256]uint8{
	0x1, 0x3, 0x7, 0xf, 0x5, 0xf, 0xf, 0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf,
	0xf, 0x2, 0x6, 0xe, 0xf, 0xa, 0xf, 0xf, 0xf, 0xb, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf,
	0xd, 0xf, 0x4, 0xc, 0xf, 0xf, 0x5, 0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0xf,
	0x9, 0xb, 0xf, 0x8, 0xf, 0xf, 0xf, 0xa, 0xf, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf,
	0xf, 0xf, 0xf, 0xf, 0x4, 0xc, 0xd, 0xf, 0x6, 0xf, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf,
	0xf, 0xf, 0xf, 0xf, 0xf, 0x8, 0x9, 0xb, 0xf, 0x9, 0x9, 0xf, 0xf, 0xd, 0xf, 0xf,
	0xf, 0xf, 0xf, 0xf, 0x7, 0xf, 0x1, 0x3, 0xf, 0xf, 0x9, 0xf, 0xf, 0xf, 0xb, 0xf,
	0xf, 0xf, 0xf, 0xf, 0x6, 0xe, 0xf, 0x2, 0x6, 0xf, 0xf, 0x6, 0xf, 0xf, 0xf, 0x7,
	0xb, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x2, 0x3, 0xb, 0xf, 0xa, 0xf, 0xf, 0xf,
	0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x1, 0x9, 0xd, 0xf, 0x5, 0xf, 0xf,
	0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, 0xf, 0xe, 0xf, 0x8, 0xc, 0xf, 0xf, 0xa, 0xf,
	0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0x6, 0x7, 0xf, 0x4, 0xf, 0xf, 0xf, 0x5,
	0x9, 0xf, 0xf, 0xf, 0xd, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x8, 0xc, 0xe, 0xf,
	0xf, 0x6, 0x6, 0xf, 0xf, 0xe, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0xf, 0x4, 0x6, 0x7,
	0xf, 0xf, 0x6, 0xf, 0xf, 0xf, 0x7, 0xf, 0xf, 0xf, 0xf, 0xf, 0xb, 0xf, 0x2, 0x3,
	0x9, 0xf, 0xf, 0x9, 0xf, 0xf, 0xf, 0xb, 0xf, 0xf, 0xf, 0xf, 0x9, 0xd, 0xf, 0x1,
}

// TestScreenPartition runs V_SCREEN_PARTITION_4SE_B32 (gfx900, VOP1 and
// VOP3) over all 256 selects, four waves of 64 lanes, with junk above bit 7.
func TestScreenPartition(t *testing.T) {
	for _, inst := range []asmWord{
		{"v_screen_partition_4se_b32_e32 v0, v1", []uint32{0x7e006f01}},
		{"v_screen_partition_4se_b32_e64 v0, v1", []uint32{0xd1770000, 0x00000101}},
	} {
		for base := 0; base < 256; base += 64 {
			m := wordsMachine(t, isa.GFX9, 0, inst, wEnd)
			m.SetExec(^uint64(0))
			for l := 0; l < 64; l++ {
				m.SetVGPR(1, l, uint32(base+l)|0xabcd00)
			}
			run(t, m)
			for l := 0; l < 64; l++ {
				if got, want := m.w.V[0][l], uint32(screenPartitionTable[base+l]); got != want {
					t.Errorf("%s: select %#x → %#x, want %#x", inst.asm, base+l, got, want)
				}
			}
		}
	}
}

func ExampleOpPrecision_screenPartition() {
	p, _ := ref.OpPrecision("v_screen_partition_4se_b32")
	fmt.Println(p)
	// Output: exact
}
