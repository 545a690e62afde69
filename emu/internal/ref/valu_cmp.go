package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"math"
)

// VOPC: compares write a lane mask to VCC or an SGPR pair (lanes outside
// EXEC write 0); v_cmpx_* also write it to EXEC.

const (
	CmpF32 = iota
	CmpF64
	cmpF16
	CmpI32
	CmpU32
	CmpI64
	CmpU64
	CmpI16
	CmpU16
	CmpClass32
	CmpClass64
	cmpClass16
)

// float conditions in opcode order
var Fconds = []string{"f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru"}

// integer conditions in opcode order
var Iconds = []string{"f", "lt", "eq", "le", "gt", "ne", "ge", "t"}

func init() {
	types := []struct {
		sfx  string
		kind int
		f    bool
	}{{"f32", CmpF32, true}, {"f64", CmpF64, true}, {"f16", cmpF16, true}, {"i32", CmpI32, false}, {"u32", CmpU32, false},
		{"i64", CmpI64, false}, {"u64", CmpU64, false}, {"i16", CmpI16, false}, {"u16", CmpU16, false}}
	for _, t := range types {
		conds := Iconds
		if t.f {
			conds = Fconds
		}
		ty := core.TyB32
		switch t.sfx {
		case "f32":
			ty = core.TyF32
		case "f64":
			ty = core.TyF64
		case "f16":
			ty = core.TyF16
		case "i64":
			ty = core.TyI64
		case "u64":
			ty = core.TyB64
		}
		for ci, c := range conds {
			for _, x := range []string{"v_cmp_", "v_cmpx_"} {
				sub := int32(t.kind<<8 | ci)
				if x == "v_cmpx_" {
					sub |= 1 << 16
				}
				def(x+c+"_"+t.sfx, ExecVOPC, sub, 1, ty, core.CVALU).Cmp = true
			}
		}
	}
	for i, t := range []string{"f32", "f64", "f16"} {
		ty := []uint8{core.TyF32, core.TyF64, core.TyF16}[i]
		def("v_cmp_class_"+t, ExecVOPC, int32((CmpClass32+i)<<8), 1, ty, core.CVALU).Cmp = true
		def("v_cmpx_class_"+t, ExecVOPC, int32((CmpClass32+i)<<8|1<<16), 1, ty, core.CVALU).Cmp = true
	}
}

// Fcmp evaluates float condition c.
func Fcmp(c int, x, y float64) bool {
	un := x != x || y != y
	switch c {
	case 0:
		return false
	case 1:
		return x < y
	case 2:
		return x == y
	case 3:
		return x <= y
	case 4:
		return x > y
	case 5:
		return x < y || x > y
	case 6:
		return x >= y
	case 7:
		return !un
	case 8:
		return un
	case 9:
		return !(x >= y)
	case 10:
		return !(x < y || x > y)
	case 11:
		return !(x > y)
	case 12:
		return !(x <= y)
	case 13:
		return !(x == y)
	case 14:
		return !(x < y)
	}
	return true
}

func Icmp(c int, lt, eq bool) bool {
	switch c {
	case 0:
		return false
	case 1:
		return lt
	case 2:
		return eq
	case 3:
		return lt || eq
	case 4:
		return !lt && !eq
	case 5:
		return !eq
	case 6:
		return !lt
	}
	return true
}

// fclass returns the V_CMP_CLASS bit of x: 0 sNaN, 1 qNaN, 2 -inf,
// 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
func fclass(x float64, quiet, denorm bool) int {
	neg := math.Signbit(x)
	switch {
	case x != x:
		if quiet {
			return 1
		}
		return 0
	case math.IsInf(x, 0):
		if neg {
			return 2
		}
		return 9
	case x == 0:
		if neg {
			return 5
		}
		return 6
	case denorm:
		if neg {
			return 4
		}
		return 7
	}
	if neg {
		return 3
	}
	return 8
}

func ExecVOPC(w *core.Wave, in *core.Instr) error {
	kind, c, x := int(in.Sub>>8&0xff), int(in.Sub&0xff), in.Sub>>16 != 0
	if in.Nsrc < 2 {
		return ExecBadOperands(w, in)
	}
	v := core.Vop{Nsrc: 2, SrcW: [3]uint8{1, 1, 1}}
	switch kind {
	case CmpF32:
		v.Ft = 32
	case CmpF64:
		v.Ft, v.SrcW = 64, [3]uint8{2, 2, 1}
	case cmpF16:
		v.Ft = 16
	case CmpI64, CmpU64:
		v.SrcW = [3]uint8{2, 2, 1}
	case CmpClass32:
		v.Ft = 32
	case CmpClass64:
		v.Ft, v.SrcW = 64, [3]uint8{2, 1, 1}
	case cmpClass16:
		v.Ft = 16
	}
	if kind >= CmpClass32 {
		v.Nofl = true
	}
	e := FenvFor(w, v.Ft)
	var a, b [64]uint64
	vfetch(w, in, &v, 0, e, &a)
	vfetch(w, in, &v, 1, e, &b)
	mask := writeMask(w, in)
	var r uint64
	for m := mask; m != 0; m &= m - 1 {
		l := core.Tz(m)
		var t bool
		p, q := a[l], b[l]
		switch kind {
		case CmpF32:
			t = Fcmp(c, float64(core.F32(uint32(p))), float64(core.F32(uint32(q))))
		case CmpF64:
			t = Fcmp(c, core.F64(p), core.F64(q))
		case cmpF16:
			t = Fcmp(c, core.F16ToF64(uint16(p)), core.F16ToF64(uint16(q)))
		case CmpI32:
			t = Icmp(c, int32(p) < int32(q), uint32(p) == uint32(q))
		case CmpU32:
			t = Icmp(c, uint32(p) < uint32(q), uint32(p) == uint32(q))
		case CmpI64:
			t = Icmp(c, int64(p) < int64(q), p == q)
		case CmpU64:
			t = Icmp(c, p < q, p == q)
		case CmpI16:
			t = Icmp(c, int16(p) < int16(q), uint16(p) == uint16(q))
		case CmpU16:
			t = Icmp(c, uint16(p) < uint16(q), uint16(p) == uint16(q))
		case CmpClass32:
			u := uint32(p)
			t = q>>uint(fclass(float64(core.F32(u)), u&0x400000 != 0, core.IsDenorm32(u)))&1 != 0
		case CmpClass64:
			t = q>>uint(fclass(core.F64(p), p&(1<<51) != 0, core.IsDenorm64(p)))&1 != 0
		case cmpClass16:
			u := uint16(p)
			t = q>>uint(fclass(core.F16ToF64(u), u&0x200 != 0, core.IsDenorm16(u)))&1 != 0
		}
		if t {
			r |= 1 << uint(l)
		}
	}
	PutCmpMask(w, in, r, x)
	return nil
}

// PutCmpMask writes a compare's result mask to its SGPR-pair destination
// (VOP3) or VCC, and to EXEC as well for v_cmpx.
func PutCmpMask(w *core.Wave, in *core.Instr, r uint64, cmpx bool) {
	if in.Ndst >= 1 && in.Dst[0].Kind == core.OkS {
		w.Sd64(&in.Dst[0], r)
	} else {
		w.Ws64(core.CodeVCC, r)
	}
	if cmpx {
		w.Ws64(core.CodeExec, r)
	}
}
