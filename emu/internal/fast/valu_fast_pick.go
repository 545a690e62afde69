package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// fastFn returns the whole-register form of a compiled instruction, or nil
// when it has none or the instruction's operands rule it out.
func fastFn(in *core.Instr, inst *isa.Inst, name string) core.ExecFn {
	f := fastFn1(in, inst, name)
	if f != nil {
		prefill(in)
	}
	return f
}

func fastFn1(in *core.Instr, inst *isa.Inst, name string) core.ExecFn {
	d := in.Def
	if d == nil {
		return nil
	}
	if d.Cmp {
		if sdwaCmpEligible(in, inst) {
			return ExecCmpSDWA
		}
		if cmpEligible(in, inst) {
			if cmpShape(in) {
				return cmpFn(in)
			}
			return execCmpFast
		}
		return nil
	}
	if d.V == nil {
		return nil
	}
	if sdwaEligible(in, inst) {
		return ExecSDWA
	}
	if f := kernelFn(in, inst, name); f != nil {
		return f
	}
	if laneEligible(in, inst) {
		return ExecLaneFast
	}
	return nil
}

// kernelFn returns the whole-register kernel of a VOP instruction, or nil.
func kernelFn(in *core.Instr, inst *isa.Inst, name string) core.ExecFn {
	d := in.Def
	if fastEligible(in, inst) {
		in.K, in.Kft = d.K, max(d.V.Ft, d.V.Oft)
		if u, ok := uniShifts[name]; ok && in.Src[u.src].Kind != core.OkV {
			in.K = IdxKernels[u.k]
		} else if name == "v_mov_b32" {
			return ExecMovFast
		}
		if plainVSources(in) {
			in.Shape = rowShape(in, name)
		}
		return kernelRunner(in)
	}
	if f := indexedFn(in, inst, name); f != nil {
		return f
	}
	if f, ok := carryKernels[name]; ok && carryEligible(in, inst, d.V.Cin) {
		if in.Shape = carryShape(in, name); in.Shape != shNone {
			return ExecCarry
		}
		return f
	}
	if k, ok := kernels64[name]; ok && fast64Eligible(in, inst, k) {
		in.Sub = int32(k)
		if k >= k64MadU {
			if mulWideShape(in) {
				return ExecMulWideV
			}
			return execMad64
		}
		if shift64Shape(in) {
			return ExecShift64V
		}
		return execShift64
	}
	if k, ok := kernelsF64[name]; ok && f64Eligible(in, inst) {
		in.Sub = int32(k)
		return ExecF64Fast
	}
	if f, ok := kernelsCvt[name]; ok && cvtEligible(in, inst) {
		return f
	}
	if name == "v_cndmask_b32" && inst.Variant != isa.VariantSDWA && inst.Variant != isa.VariantDPP &&
		in.Nsrc == 3 && !in.Src[0].Abs && !in.Src[0].Neg && !in.Src[1].Abs && !in.Src[1].Neg && in.Dst[0].Kind == core.OkV {
		if cndShape(in) {
			return ExecCndV
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
	IdxKernels []core.Kernel
	satIndex   = map[string]int32{}
	MixedIndex = map[string]int32{}
)

func addIndexed(k core.Kernel) int32 {
	IdxKernels = append(IdxKernels, k)
	return int32(len(IdxKernels) - 1)
}

func init() {
	for _, o := range ref.SatOps {
		lo, hi := ref.SatRange(o.Bits, o.Signed)
		mask := uint64(1)<<o.Bits - 1
		f := o.Exact
		satIndex[o.Name] = addIndexed(func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = uint32(uint64(ref.Sat(f(uint64(a[l]), uint64(b[l]), uint64(c[l])), lo, hi)) & mask)
			}
		})
	}
	IdxKernels[satIndex["v_add_u16"]] = func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.AddSatU16(d, a, b, e.Live) }
}

// uniShifts are the shifts whose amount (source src) is the same in
// every lane when it is not a VGPR: their indexed kernels read it once,
// from lane 0, which spares the per-lane shift-count moves (and shift
// left by multiplying by a power of two, which needs no CX), and run a
// quad a step (computing the rest of the last quad, as kernels may).
var uniShifts = map[string]struct{ src, k int32 }{
	"v_lshlrev_b32": {0, addIndexed(func(e *core.Fenv, d, a, b, c *[64]uint32) {
		m := uint32(1) << (a[0] & 31)
		qb := quads(b)[:core.Nquads(e.Live)]
		qd := quads(d)[:len(qb)]
		for i := range qb {
			x := &qb[i]
			qd[i] = [4]uint32{x[0] * m, x[1] * m, x[2] * m, x[3] * m}
		}
	})},
	"v_lshrrev_b32": {0, addIndexed(func(e *core.Fenv, d, a, b, c *[64]uint32) {
		s := a[0] & 31
		qb := quads(b)[:core.Nquads(e.Live)]
		qd := quads(d)[:len(qb)]
		for i := range qb {
			x := &qb[i]
			qd[i] = [4]uint32{x[0] >> s, x[1] >> s, x[2] >> s, x[3] >> s}
		}
	})},
	"v_ashrrev_i32": {0, addIndexed(func(e *core.Fenv, d, a, b, c *[64]uint32) {
		s := a[0] & 31
		qb := quads(b)[:core.Nquads(e.Live)]
		qd := quads(d)[:len(qb)]
		for i := range qb {
			x := &qb[i]
			qd[i] = [4]uint32{uint32(int32(x[0]) >> s), uint32(int32(x[1]) >> s), uint32(int32(x[2]) >> s), uint32(int32(x[3]) >> s)}
		}
	})},
	"v_lshl_add_u32": {1, addIndexed(func(e *core.Fenv, d, a, b, c *[64]uint32) {
		m := uint32(1) << (b[0] & 31)
		qa := quads(a)[:core.Nquads(e.Live)]
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
func indexedFn(in *core.Instr, inst *isa.Inst, name string) core.ExecFn {
	plain := *inst
	i, ok := MixedIndex[name]
	if !ok {
		if i, ok = satIndex[name]; !ok || !inst.Mods.Clamp || in.Def.K == nil {
			return nil
		}
		plain.Mods.Clamp = false
	}
	if !kernelEligible(in, &plain) {
		return nil
	}
	in.K, in.Kft = IdxKernels[i], max(in.Def.V.Ft, in.Def.V.Oft)
	return kernelRunner(in)
}

// kernelRunner returns how an instruction runs its kernel (instr.k):
// execIntV or execFastV when its sources allow, else execFast.
func kernelRunner(in *core.Instr) core.ExecFn {
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
