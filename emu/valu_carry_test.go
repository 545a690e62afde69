package emu

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// TestCarryFast: the whole-register carry path gives execVOP's results
// (D, carry mask, lanes outside EXEC untouched) for every carry operation,
// VOP2 and VOP3 forms, GFX8 and GFX9 spellings.
func TestCarryFast(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		target isa.Target
		asm    string
	}{
		{isa.GFX9, "v_add_co_u32_e32 v0, vcc, v1, v2"},
		{isa.GFX9, "v_add_co_u32_e64 v0, s[4:5], v1, v2"},
		{isa.GFX9, "v_add_co_u32_e64 v0, s[4:5], s7, v2"},
		{isa.GFX9, "v_sub_co_u32_e32 v0, vcc, v1, v2"},
		{isa.GFX9, "v_subrev_co_u32_e64 v0, s[4:5], v1, v2"},
		{isa.GFX9, "v_addc_co_u32_e32 v0, vcc, v1, v2, vcc"},
		{isa.GFX9, "v_addc_co_u32_e64 v0, s[4:5], v1, v2, s[8:9]"},
		{isa.GFX9, "v_addc_co_u32_e64 v0, s[4:5], 0, v2, s[8:9]"},
		{isa.GFX9, "v_subb_co_u32_e64 v0, s[4:5], v1, v2, s[8:9]"},
		{isa.GFX9, "v_subbrev_co_u32_e32 v0, vcc, v1, v2, vcc"},
		{isa.GFX8, "v_add_u32_e32 v0, vcc, v1, v2"},
		{isa.GFX8, "v_addc_u32_e64 v0, s[4:5], v1, v2, s[8:9]"},
		{isa.GFX8, "v_subb_u32_e32 v0, vcc, v1, v2, vcc"},
	} {
		var ms [2]*Machine
		for i := range ms {
			p := asmProgram(t, tc.target, tc.asm, "s_endpgm")
			if i == 1 {
				p.Code[0].Fn = ref.ExecVOP
			}
			ms[i] = NewMachine(p, nil, core.DefaultConfig(tc.target))
		}
		if reflect.ValueOf(ms[0].Prog.Code[0].Fn).Pointer() == reflect.ValueOf(ref.ExecVOP).Pointer() {
			t.Fatalf("%v %s: not on the fast path", tc.target, tc.asm)
		}
		exec, vcc, s89 := r.Uint64(), r.Uint64(), r.Uint64()
		for _, m := range ms {
			m.SetExec(exec)
			_ = m.SetScalar(int(isa.VCCLo), uint32(vcc))
			_ = m.SetScalar(int(isa.VCCHi), uint32(vcc>>32))
			_ = m.SetSGPR(7, 0xfffffff0)
			_ = m.SetSGPR(8, uint32(s89))
			_ = m.SetSGPR(9, uint32(s89>>32))
		}
		for l := 0; l < 64; l++ {
			a, b, d := r.Uint32()>>uint(r.IntN(32)), r.Uint32()>>uint(r.IntN(32)), r.Uint32()
			for _, m := range ms {
				m.w.V[0][l], m.w.V[1][l], m.w.V[2][l] = d, a, b
			}
		}
		for _, m := range ms {
			run(t, m)
		}
		if ms[0].w.V[0] != ms[1].w.V[0] {
			t.Errorf("%v %s: D differs from the lane functions'", tc.target, tc.asm)
		}
		if ms[0].w.S != ms[1].w.S {
			t.Errorf("%v %s: scalar state (carry) differs from the lane functions'", tc.target, tc.asm)
		}
	}
}
