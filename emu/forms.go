package emu

import (
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/isa"
)

// fastForm returns the fast form of a compiled instruction, or nil when it
// has none (it then always runs its reference form). compile calls it once
// per instruction.
func fastForm(in *instr, inst *isa.Inst, name string) execFn {
	d := in.def
	if d.k == nil && d.v != nil {
		d.k = kernels[name]
	}
	f := scalarForms[name]
	if g := fastFn(in, inst, name); g != nil {
		f = g
	}
	if sloadEligible(in) {
		f = execSLoad
	}
	if g := sop2Fn(in); g != nil {
		f = g
	}
	return f
}

// scalarForms maps scalar operations to their fast forms.
var scalarForms = map[string]execFn{"s_waitcnt": execWaitcntFast}

func init() {
	for i, n := range sop2Names {
		switch int32(i) {
		case sCselect64, sAnd64, sOr64, sXor64, sAndn2_64, sOrn2_64, sNand64, sNor64, sXnor64:
			scalarForms[n] = execSOP2Bit64Fast
		case sLshl64, sLshr64, sAshr64, sBfm64, sBfeU64, sBfeI64:
		default:
			scalarForms[n] = execSOP2x32
		}
	}
	scalarForms[sop1Names[s1Mov32]], scalarForms[sop1Names[s1Mov64]] = execMov, execMov
	for _, n := range saveexecNames {
		scalarForms[n] = execSaveexecFast
	}
	for op := range isa.Ops() {
		if op.Info().Branch != isa.BranchNone {
			scalarForms[op.String()] = execBranchFast
		}
	}
}

// The vector kernels built from the reference engine's operation tables
// (valu_defs.go, valu_defs_float.go, valu_more.go): the same functions
// the lane functions wrap, run a whole register at a time.
func init() {
	for n, f := range int1Ops {
		addKernel(n, k1(f))
	}
	for n, f := range int2Ops {
		addKernel(n, k2(f))
	}
	for _, ops := range []map[string]func(a, b, c uint32) uint32{int3Ops, int3MoreOps} {
		for n, f := range ops {
			addKernel(n, k3(f))
		}
	}
	for n, f := range f32UnaryOps {
		if kernels[n] == nil { // valu_ff.go's rounding kernels, whichever init runs first
			kernels[n] = kFu32(f)
		}
	}
	for n, f := range f32TransOps {
		kernels[n] = kFu32(f)
	}
	kernels["v_rcp_f32"], kernels["v_rcp_iflag_f32"] = kRcpF32, kRcpF32
	for _, ops := range []map[string]func(float64) float64{f64UnaryOps, f64TransOps} {
		for n, f := range ops {
			addF64Unary(n, f)
		}
	}
}

// v_mad_i32_i24 without clamp has a row of its own: the loop of the
// clamp-free saturating operations (valu_fast_int.go) only fills in
// operations without a kernel.
func init() {
	kernels["v_mad_i32_i24"] = func(e *fenv, d, a, b, c *[64]uint32) { simd.MadI24(d, a, b, c, e.live) }
}
