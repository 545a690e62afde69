package emu

import (
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// Expected values are worked from the Vega ISA manual's SOP2/SOP1
// descriptions (SCC rules per instruction).
func TestSOP2(t *testing.T) {
	tests := []struct {
		name   string
		a, b   uint32
		scc    uint32 // SCC before
		want   uint32
		wantSC uint32
	}{
		{"s_add_u32", 0xffffffff, 2, 0, 1, 1},
		{"s_add_u32", 1, 2, 1, 3, 0},
		{"s_sub_u32", 1, 2, 0, 0xffffffff, 1},
		{"s_add_i32", 0x7fffffff, 1, 0, 0x80000000, 1},
		{"s_add_i32", 0xffffffff, 1, 1, 0, 0},
		{"s_sub_i32", 0x80000000, 1, 0, 0x7fffffff, 1},
		{"s_addc_u32", 0xffffffff, 0, 1, 0, 1},
		{"s_subb_u32", 0, 0, 1, 0xffffffff, 1},
		{"s_min_i32", 0xfffffffe, 3, 0, 0xfffffffe, 1},
		{"s_min_u32", 0xfffffffe, 3, 1, 3, 0},
		{"s_max_i32", 0xfffffffe, 3, 1, 3, 0},
		{"s_max_u32", 0xfffffffe, 3, 0, 0xfffffffe, 1},
		{"s_cselect_b32", 7, 9, 1, 7, 1},
		{"s_cselect_b32", 7, 9, 0, 9, 0},
		{"s_and_b32", 0xf0, 0x3c, 0, 0x30, 1},
		{"s_or_b32", 0, 0, 1, 0, 0},
		{"s_xor_b32", 0xff, 0x0f, 0, 0xf0, 1},
		{"s_andn2_b32", 0xff, 0x0f, 0, 0xf0, 1},
		{"s_orn2_b32", 0, 0xffffffff, 1, 0, 0},
		{"s_nand_b32", 0xffffffff, 0xffffffff, 1, 0, 0},
		{"s_nor_b32", 0, 0, 0, 0xffffffff, 1},
		{"s_xnor_b32", 0xf, 0xf, 0, 0xffffffff, 1},
		{"s_lshl_b32", 1, 33, 0, 2, 1},
		{"s_lshr_b32", 0x80000000, 31, 0, 1, 1},
		{"s_ashr_i32", 0x80000000, 31, 0, 0xffffffff, 1},
		{"s_bfm_b32", 4, 8, 1, 0xf00, 1},
		{"s_mul_i32", 0xfffffffd, 5, 0, 0xfffffff1, 0},
		{"s_bfe_u32", 0xabcd1234, 8 | 8<<16, 0, 0x12, 1},
		{"s_bfe_i32", 0x0000f000, 12 | 4<<16, 0, 0xffffffff, 1},
		{"s_bfe_u32", 0x12345678, 0, 1, 0, 0},
		{"s_absdiff_i32", 3, 10, 0, 7, 1},
		{"s_mul_hi_u32", 0x80000000, 4, 0, 2, 0},
		{"s_mul_hi_i32", 0x80000000, 4, 0, 0xfffffffe, 0},
		{"s_lshl2_add_u32", 0x40000000, 1, 0, 1, 1},
		{"s_pack_ll_b32_b16", 0x1111aaaa, 0x2222bbbb, 0, 0xbbbbaaaa, 0},
		{"s_pack_lh_b32_b16", 0x1111aaaa, 0x2222bbbb, 0, 0x2222aaaa, 0},
		{"s_pack_hh_b32_b16", 0x1111aaaa, 0x2222bbbb, 0, 0x22221111, 0},
	}
	for _, tc := range tests {
		m := machine(t, I(tc.name, sreg(0), sreg(1), sreg(2)), I("s_endpgm"))
		m.w.S[1], m.w.S[2], m.w.S[core.SlotSCC] = tc.a, tc.b, tc.scc
		run(t, m)
		if got := m.w.S[0]; got != tc.want || m.w.S[core.SlotSCC] != tc.wantSC {
			t.Errorf("%s(0x%x, 0x%x, scc=%d) = 0x%x scc=%d, want 0x%x scc=%d", tc.name, tc.a, tc.b, tc.scc, got, m.w.S[core.SlotSCC], tc.want, tc.wantSC)
		}
	}
}
