package emu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// Under a MODE that flushes f32 denormals (FP_DENORM's f32 field 0, 1 or
// 2) the f32 kernels run package lanes' flushing rows (AVX2, or their Go
// versions under -tags purego). TestFlushRowsMatchReference holds each to
// the reference per-lane path (execVOP: fetch, the lane function, post)
// bit for bit.

// flushVal draws an f32 lane value that flushing cares about: denormals
// and zeros of either sign, the smallest normals (whose sums, differences
// and products are denormals), infinities, quiet and signaling NaNs with
// payloads, ordinary numbers and random bits.
func flushVal(r *rand.Rand) uint32 {
	sign := uint32(r.IntN(2)) << 31
	switch r.IntN(10) {
	case 0, 1:
		return sign | r.Uint32()&0x7fffff // a denormal or zero
	case 2:
		return sign | [...]uint32{0, 1, 0x7fffff, 0x400000}[r.IntN(4)]
	case 3, 4:
		return sign | uint32(1+r.IntN(40))<<23 | r.Uint32()&0x7fffff // tiny normals
	case 5:
		return sign | [...]uint32{0x7f800000, 0x7fc00000, 0x7f800001, 0x7fbfffff, 0x7fc0beef}[r.IntN(5)]
	case 6:
		return sign | uint32(60+r.IntN(40))<<23 | r.Uint32()&0x7fffff // around 2^-126 × 2^±k
	case 7:
		return sign | uint32(120+r.IntN(16))<<23 | r.Uint32()&0x7fffff // around 1
	case 8:
		return sign | uint32(200+r.IntN(55))<<23 | r.Uint32()&0x7fffff // huge: × tiny is normal
	}
	return r.Uint32()
}

// flushWave is a GFX9 wave of flushVal registers under FP_DENORM f32 field
// fd (the f16/f64 field random), rounding to nearest even.
func flushWave(r *rand.Rand, fd uint32, exec uint64) *Wave {
	w := &Wave{Target: isa.GFX9}
	for i := 0; i < 102; i++ {
		w.S[i] = flushVal(r)
	}
	for i := 0; i < 8; i++ {
		for l := range w.V[i] {
			w.V[i][l] = flushVal(r)
			if r.IntN(8) == 0 && i > 0 { // the negation of another source: exact cancellation
				w.V[i][l] = w.V[i-1][l] ^ 1<<31
			}
		}
	}
	w.S[core.SlotMode] = fd<<4 | uint32(r.IntN(4))<<6 | uint32(r.IntN(4))<<8
	return withExec(w, exec)
}

// flushOps are the f32 operations with flushing rows, and the forms they
// run in: VOP2 on VGPRs (execF32V), a VOP3 with an SGPR, a constant and
// modifiers (execFastV, runKernel), v_mac's accumulator.
var flushOps = []struct {
	name string
	srcs int
}{
	{"v_add_f32", 2}, {"v_sub_f32", 2}, {"v_subrev_f32", 2}, {"v_mul_f32", 2},
	{"v_mad_f32", 3}, {"v_fma_f32", 3}, {"v_mac_f32", 2},
	{"v_rcp_f32", 1}, {"v_trunc_f32", 1}, {"v_floor_f32", 1}, {"v_ceil_f32", 1}, {"v_rndne_f32", 1},
}

// flushForm is a test instruction and what it tries.
type flushForm struct {
	what string
	ti
}

// flushForms returns op's test instructions.
func flushForms(name string, srcs int) []flushForm {
	neg := func(o isa.Operand) isa.Operand { o.Neg = true; return o }
	abs := func(o isa.Operand) isa.Operand { o.Abs = true; return o }
	e3 := func(t ti) ti { return t.enc(isa.EncVOP3) }
	v := []isa.Operand{vreg(1), vreg(2), vreg(3), vreg(4)}[:srcs+1]
	vop := I(name, v...)
	if srcs == 3 {
		vop = e3(vop)
	}
	s := append([]isa.Operand(nil), v...)
	s[len(s)-1] = neg(sreg(5))
	if srcs > 1 {
		s[1] = abs(vreg(1)) // the destination as a source
	}
	alias := append([]isa.Operand(nil), v...)
	alias[0] = vreg(2)
	cons := append([]isa.Operand(nil), v...)
	cons[1] = lit(0x00400000) // a denormal constant
	return []flushForm{
		{"VGPRs", vop},
		{"VOP3, |v1| and -s5", e3(I(name, s...))},
		{"D = S0", I(name, alias...)},
		{"a denormal literal", e3(I(name, cons...))},
	}
}

// TestFlushRowsMatchReference runs each flushing operation in each form,
// under each flushing MODE, on random registers and EXEC masks (some
// journaled), fast and reference, and requires the same registers.
func TestFlushRowsMatchReference(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 45))
	execs := append([]uint64{^uint64(0), 0xffff, 0xffffff}, edgeMasks...)
	for _, op := range flushOps {
		t.Run(op.name, func(t *testing.T) {
			for _, form := range flushForms(op.name, op.srcs) {
				in := &prog(isa.GFX9, form.ti).Code[0]
				if in.Def == nil || fnPtr(in.Fn) == fnPtr(in.Def.Fn) {
					t.Fatalf("%s (%s): no fast path", op.name, form.what)
				}
				for _, fd := range []uint32{0, 1, 2} {
					for it := range 40 {
						ex := execs[it%len(execs)]
						if it >= len(execs) {
							ex = fastMask(r)
						}
						w0 := flushWave(r, fd, ex)
						desc := fmt.Sprintf("%s (%s), FP_DENORM f32 %d", op.name, form.what, fd)
						fastCheck(t, desc, w0, in, in.Def.Fn, it%5 == 0)
					}
				}
			}
		})
	}
}
