package emu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// intExecMasks are the EXEC masks the integer kernels' quad loops must
// handle: full, prefixes that end inside a quad and on its edge, sparse
// masks, single lanes and a run in the upper half.
var intExecMasks = []uint64{
	^uint64(0), 1<<13 - 1, 1<<16 - 1, 1<<62 - 1, 1<<63 - 1,
	0x8421084210842108, 0x0000_0100_0000_0001, 1, 1 << 5, 1 << 63, 0xFFFF_0000_0000,
}

// TestIntKernelsMatchGeneric runs the integer kernels' forms (the quad
// carry, compare, select and shift loops, the multiply without an addend) against
// execVOP/execVOPC under every mask of intExecMasks, journaled and not,
// on random states.
func TestIntKernelsMatchGeneric(t *testing.T) {
	e3 := func(t ti) ti { return t.enc(isa.EncVOP3) }
	r := rand.New(rand.NewPCG(21, 22))
	for ci, c := range []ti{
		I("v_add_co_u32", vreg(1), vcc(), vreg(1), vreg(3)),
		I("v_add_co_u32", vreg(1), vcc(), vreg(3), vreg(3)),
		I("v_add_co_u32", vreg(3), vcc(), sreg(5), vreg(3)),
		I("v_add_co_u32", vreg(1), vcc(), lit(0xfffffff0), vreg(3)),
		e3(I("v_add_co_u32", vreg(1), sreg2(10), sreg(6), vreg(2))),
		e3(I("v_addc_co_u32", vreg(1), sreg2(10), sreg(6), vreg(2), sreg2(12))),
		I("v_addc_co_u32", vreg(1), vcc(), ic(0), vreg(3), vcc()),
		I("v_addc_co_u32", vreg(3), vcc(), vreg(2), vreg(3), vcc()),
		I("v_addc_co_u32", vreg(3), vcc(), ic(0), vreg(3), vcc()),
		e3(I("v_addc_co_u32", vreg(1), sreg2(10), ic(0), vreg(2), sreg2(10))),
		I("v_sub_co_u32", vreg(1), vcc(), ic(0), vreg(1)),
		I("v_subb_co_u32", vreg(2), vcc(), vreg(2), vreg(3), vcc()),
		e3(I("v_subb_co_u32", vreg(1), sreg2(10), ic(0), ic(0), vcc())),
		e3(I("v_subbrev_co_u32", vreg(1), sreg2(12), ic(0), vreg(3), sreg2(12))),
		e3(I("v_mad_u64_u32", vreg2(4), sreg2(10), vreg(1), vreg(2), ic(0))),
		e3(I("v_mad_u64_u32", vreg2(2), vcc(), vreg(2), vreg(3), ic(0))),
		e3(I("v_mad_u64_u32", vreg2(4), sreg2(10), vreg(1), sreg(2), vreg2(4))),
		e3(I("v_mad_u64_u32", vreg2(1), vcc(), vreg(2), sreg(3), vreg2(1))),
		e3(I("v_mad_u64_u32", vreg2(2), sreg2(10), vreg(1), ic(64), vreg2(1))),
		e3(I("v_mad_u64_u32", vreg2(2), sreg2(10), vreg(3), sreg(5), vreg2(2))),
		I("v_lshlrev_b64", vreg2(4), ic(3), vreg2(2)),
		I("v_lshlrev_b64", vreg2(2), ic(2), vreg2(2)),
		I("v_lshlrev_b64", vreg2(4), ic(33), vreg2(6)),
		I("v_lshlrev_b64", vreg2(3), ic(1), vreg2(2)),
		I("v_lshlrev_b64", vreg2(1), ic(31), vreg2(2)),
		I("v_lshlrev_b64", vreg2(2), ic(32), vreg2(2)),
		I("v_lshlrev_b64", vreg2(4), ic(0), vreg2(6)),
		I("v_lshlrev_b64", vreg2(4), ic(63), vreg2(3)),
		I("v_lshlrev_b64", vreg2(4), ic(64), vreg2(2)),
		I("v_cndmask_b32", vreg(3), vreg(2), vreg(3), vcc()),
		e3(I("v_cndmask_b32", vreg(1), ic(0), vreg(2), sreg2(10))),
		I("v_cmp_lt_u32", vcc(), vreg(2), vreg(3)),
		I("v_cmp_ge_i32", vcc(), vreg(2), vreg(3)),
		e3(I("v_cmp_le_u32", sreg2(10), sreg(2), vreg(3))),
		I("v_cmp_eq_u32", vcc(), vreg(2), vreg(3)),
		e3(I("v_cmp_ne_u32", sreg2(10), ic(0), vreg(3))),
		I("v_cmpx_gt_u32", vcc(), vreg(2), vreg(3)),
	} {
		p := prog(isa.GFX9, c)
		in := &p.Code[0]
		desc := fmt.Sprintf("#%d %s %v", ci, c.name, c.in.Args)
		if in.Def == nil || fnPtr(in.Fn) == fnPtr(in.Def.Fn) {
			t.Fatalf("%s: not on a fast path", desc)
		}
		for _, ex := range intExecMasks {
			for it := range 6 {
				w0 := withExec(fastWave(r), ex)
				w0.Target = isa.GFX9
				if it%2 == 0 { // operands that carry and compare equal
					for l := range 64 {
						w0.V[2][l], w0.V[3][l] = ^uint32(0)-uint32(r.IntN(2)), w0.V[2][l]^uint32(r.IntN(2))
					}
				}
				if it%3 == 1 { // no carries in
					w0.S[core.CodeVCC], w0.S[core.CodeVCC+1], w0.S[12], w0.S[13] = 0, 0, 0, 0
				}
				if it%2 == 0 { // bases that carry
					w0.S[5], w0.S[6] = ^uint32(0), 1<<31
				}
				fastCheck(t, fmt.Sprintf("%s exec %#x", desc, ex), w0, in, in.Def.Fn, it%3 == 0)
			}
		}
	}
}
