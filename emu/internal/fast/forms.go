package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// FastForm returns the fast form of a compiled instruction, or nil when it
// has none (it then always runs its reference form). compile calls it once
// per instruction.
func FastForm(in *core.Instr, inst *isa.Inst, name string) core.ExecFn {
	d := in.Def
	if d.K == nil && d.V != nil {
		d.K = Kernels[name]
	}
	f := scalarForms[name]
	if g := fastFn(in, inst, name); g != nil {
		f = g
	}
	if SloadEligible(in) {
		f = execSLoad
	}
	if g := sop2Fn(in); g != nil {
		f = g
	}
	return f
}

// scalarForms maps scalar operations to their fast forms.
var scalarForms = map[string]core.ExecFn{"s_waitcnt": execWaitcntFast}

func init() {
	for i, n := range ref.Sop2Names {
		switch int32(i) {
		case ref.SCselect64, ref.SAnd64, ref.SOr64, ref.SXor64, ref.SAndn2_64, ref.SOrn2_64, ref.SNand64, ref.SNor64, ref.SXnor64:
			scalarForms[n] = execSOP2Bit64Fast
		case ref.SLshl64, ref.SLshr64, ref.SAshr64, ref.SBfm64, ref.SBfeU64, ref.SBfeI64:
		default:
			scalarForms[n] = execSOP2x32
		}
	}
	scalarForms[ref.Sop1Names[ref.S1Mov32]], scalarForms[ref.Sop1Names[ref.S1Mov64]] = execMov, execMov
	for _, n := range ref.SaveexecNames {
		scalarForms[n] = execSaveexecFast
	}
	for op := range isa.Ops() {
		if op.Info().Branch != isa.BranchNone {
			scalarForms[op.String()] = execBranchFast
		}
	}
}

// The vector kernels built from the reference engine's operation tables
// (ref/valu_defs.go, valu_defs_float.go, valu_more.go): the same functions
// the lane functions wrap, run a whole register at a time.
func init() {
	for n, f := range ref.Int1Ops {
		addKernel(n, k1(f))
	}
	for n, f := range ref.Int2Ops {
		addKernel(n, k2(f))
	}
	for _, ops := range []map[string]func(a, b, c uint32) uint32{ref.Int3Ops, ref.Int3MoreOps} {
		for n, f := range ops {
			addKernel(n, k3(f))
		}
	}
	for n, f := range ref.F32UnaryOps {
		if Kernels[n] == nil { // valu_ff.go's rounding kernels, whichever init runs first
			Kernels[n] = kFu32(f)
		}
	}
	for n, f := range ref.F32TransOps {
		Kernels[n] = kFu32(f)
	}
	Kernels["v_rcp_f32"], Kernels["v_rcp_iflag_f32"] = kRcpF32, kRcpF32
	for _, ops := range []map[string]func(float64) float64{ref.F64UnaryOps, ref.F64TransOps} {
		for n, f := range ops {
			addF64Unary(n, f)
		}
	}
}

// v_mad_i32_i24 without clamp has a row of its own: the loop of the
// clamp-free saturating operations (valu_fast_int.go) only fills in
// operations without a kernel.
func init() {
	Kernels["v_mad_i32_i24"] = func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.MadI24(d, a, b, c, e.Live) }
}
