package emu

import (
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"

	"github.com/wavedbg/wavedbg/isa"
)

// fastFn returns the whole-register form of a compiled instruction, or nil
// when it has none or the instruction's operands rule it out.
func fastFn(in *instr, inst *isa.Inst, name string) execFn {
	f := fastFn1(in, inst, name)
	if f != nil {
		prefill(in)
	}
	return f
}

func fastFn1(in *instr, inst *isa.Inst, name string) execFn {
	d := in.def
	if d == nil {
		return nil
	}
	if d.cmp {
		if sdwaCmpEligible(in, inst) {
			return execCmpSDWA
		}
		if cmpEligible(in, inst) {
			if cmpShape(in) {
				return cmpFn(in)
			}
			return execCmpFast
		}
		return nil
	}
	if d.v == nil {
		return nil
	}
	if sdwaEligible(in, inst) {
		return execSDWA
	}
	if f := kernelFn(in, inst, name); f != nil {
		return f
	}
	if laneEligible(in, inst) {
		return execLaneFast
	}
	return nil
}

// kernelFn returns the whole-register kernel of a VOP instruction, or nil.
func kernelFn(in *instr, inst *isa.Inst, name string) execFn {
	d := in.def
	if fastEligible(in, inst) {
		in.k, in.kft = d.k, max(d.v.ft, d.v.oft)
		if u, ok := uniShifts[name]; ok && in.src[u.src].kind != okV {
			in.k = idxKernels[u.k]
		} else if name == "v_mov_b32" {
			return execMovFast
		}
		if plainVSources(in) {
			in.shape = rowShape(in, name)
		}
		return kernelRunner(in)
	}
	if f := indexedFn(in, inst, name); f != nil {
		return f
	}
	if f, ok := carryKernels[name]; ok && carryEligible(in, inst, d.v.cin) {
		if in.shape = carryShape(in, name); in.shape != shNone {
			return execCarry
		}
		return f
	}
	if k, ok := kernels64[name]; ok && fast64Eligible(in, inst, k) {
		in.sub = int32(k)
		if k >= k64MadU {
			if mulWideShape(in) {
				return execMulWideV
			}
			return execMad64
		}
		if shift64Shape(in) {
			return execShift64V
		}
		return execShift64
	}
	if k, ok := kernelsF64[name]; ok && f64Eligible(in, inst) {
		in.sub = int32(k)
		return execF64Fast
	}
	if f, ok := kernelsCvt[name]; ok && cvtEligible(in, inst) {
		return f
	}
	if name == "v_cndmask_b32" && inst.Variant != isa.VariantSDWA && inst.Variant != isa.VariantDPP &&
		in.nsrc == 3 && !in.src[0].abs && !in.src[0].neg && !in.src[1].abs && !in.src[1].neg && in.dst[0].kind == okV {
		if cndShape(in) {
			return execCndV
		}
		return execCndFast
	}
	return nil
}

// Indexed kernels: whole-register kernels an instruction gets by more
// than its operation, which kernelFn and indexedFn put in instr.k: the
// saturating operations (satOps) with the clamp bit (the exact result
// pinned to the destination type's range and truncated, as their lane
// functions do), and operations with integer sources beside f32 ones
// (intSrcKernels), which kernels does not hold (its kernels treat every
// f32-typed source as a float).
var (
	idxKernels []kernel
	satIndex   = map[string]int32{}
	mixedIndex = map[string]int32{}
)

func addIndexed(k kernel) int32 {
	idxKernels = append(idxKernels, k)
	return int32(len(idxKernels) - 1)
}

func init() {
	for _, o := range satOps {
		lo, hi := satRange(o.bits, o.signed)
		mask := uint64(1)<<o.bits - 1
		f := o.exact
		satIndex[o.name] = addIndexed(func(e *fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.live] {
				d[l] = uint32(uint64(sat(f(uint64(a[l]), uint64(b[l]), uint64(c[l])), lo, hi)) & mask)
			}
		})
	}
	idxKernels[satIndex["v_add_u16"]] = func(e *fenv, d, a, b, c *[64]uint32) { simd.AddSatU16(d, a, b, e.live) }
}

// uniShifts are the shifts whose amount (source src) is the same in
// every lane when it is not a VGPR: their indexed kernels read it once,
// from lane 0, which spares the per-lane shift-count moves (and shift
// left by multiplying by a power of two, which needs no CX), and run a
// quad a step (computing the rest of the last quad, as kernels may).
var uniShifts = map[string]struct{ src, k int32 }{
	"v_lshlrev_b32": {0, addIndexed(func(e *fenv, d, a, b, c *[64]uint32) {
		m := uint32(1) << (a[0] & 31)
		qb := quads(b)[:nquads(e.live)]
		qd := quads(d)[:len(qb)]
		for i := range qb {
			x := &qb[i]
			qd[i] = [4]uint32{x[0] * m, x[1] * m, x[2] * m, x[3] * m}
		}
	})},
	"v_lshrrev_b32": {0, addIndexed(func(e *fenv, d, a, b, c *[64]uint32) {
		s := a[0] & 31
		qb := quads(b)[:nquads(e.live)]
		qd := quads(d)[:len(qb)]
		for i := range qb {
			x := &qb[i]
			qd[i] = [4]uint32{x[0] >> s, x[1] >> s, x[2] >> s, x[3] >> s}
		}
	})},
	"v_ashrrev_i32": {0, addIndexed(func(e *fenv, d, a, b, c *[64]uint32) {
		s := a[0] & 31
		qb := quads(b)[:nquads(e.live)]
		qd := quads(d)[:len(qb)]
		for i := range qb {
			x := &qb[i]
			qd[i] = [4]uint32{uint32(int32(x[0]) >> s), uint32(int32(x[1]) >> s), uint32(int32(x[2]) >> s), uint32(int32(x[3]) >> s)}
		}
	})},
	"v_lshl_add_u32": {1, addIndexed(func(e *fenv, d, a, b, c *[64]uint32) {
		m := uint32(1) << (b[0] & 31)
		qa := quads(a)[:nquads(e.live)]
		qd, qc := quads(d)[:len(qa)], quads(c)[:len(qa)]
		for i := range qa {
			x, z := &qa[i], &qc[i]
			qd[i] = [4]uint32{x[0]*m + z[0], x[1]*m + z[1], x[2]*m + z[2], x[3]*m + z[3]}
		}
	})},
}

// indexedFn returns the kernel runner for a saturating operation whose only
// obstacle to its kernel is the clamp bit, or an eligible operation with
// integer and f32 sources, or nil.
func indexedFn(in *instr, inst *isa.Inst, name string) execFn {
	plain := *inst
	i, ok := mixedIndex[name]
	if !ok {
		if i, ok = satIndex[name]; !ok || !inst.Mods.Clamp || in.def.k == nil {
			return nil
		}
		plain.Mods.Clamp = false
	}
	if !kernelEligible(in, &plain) {
		return nil
	}
	in.k, in.kft = idxKernels[i], max(in.def.v.ft, in.def.v.oft)
	return kernelRunner(in)
}

// kernelRunner returns how an instruction runs its kernel (instr.k):
// execIntV or execFastV when its sources allow, else execFast.
func kernelRunner(in *instr) execFn {
	if plainVSources(in) {
		if intShape(in) {
			return intFn(in)
		}
		if f := f32Fn(in); f != nil {
			return f
		}
		return execFastV
	}
	return execFast
}
