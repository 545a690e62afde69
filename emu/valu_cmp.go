package emu

import "math"

// VOPC: compares write a lane mask to VCC or an SGPR pair (lanes outside
// EXEC write 0); v_cmpx_* also write it to EXEC.

const (
	cmpF32 = iota
	cmpF64
	cmpF16
	cmpI32
	cmpU32
	cmpI64
	cmpU64
	cmpI16
	cmpU16
	cmpClass32
	cmpClass64
	cmpClass16
)

// float conditions in opcode order
var fconds = []string{"f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "tru"}

// integer conditions in opcode order
var iconds = []string{"f", "lt", "eq", "le", "gt", "ne", "ge", "t"}

func init() {
	types := []struct {
		sfx  string
		kind int
		f    bool
	}{{"f32", cmpF32, true}, {"f64", cmpF64, true}, {"f16", cmpF16, true}, {"i32", cmpI32, false}, {"u32", cmpU32, false},
		{"i64", cmpI64, false}, {"u64", cmpU64, false}, {"i16", cmpI16, false}, {"u16", cmpU16, false}}
	for _, t := range types {
		conds := iconds
		if t.f {
			conds = fconds
		}
		ty := tyB32
		switch t.sfx {
		case "f32":
			ty = tyF32
		case "f64":
			ty = tyF64
		case "f16":
			ty = tyF16
		case "i64":
			ty = tyI64
		case "u64":
			ty = tyB64
		}
		for ci, c := range conds {
			for _, x := range []string{"v_cmp_", "v_cmpx_"} {
				sub := int32(t.kind<<8 | ci)
				if x == "v_cmpx_" {
					sub |= 1 << 16
				}
				def(x+c+"_"+t.sfx, execVOPC, sub, 1, ty, cVALU).cmp = true
			}
		}
	}
	for i, t := range []string{"f32", "f64", "f16"} {
		ty := []uint8{tyF32, tyF64, tyF16}[i]
		def("v_cmp_class_"+t, execVOPC, int32((cmpClass32+i)<<8), 1, ty, cVALU).cmp = true
		def("v_cmpx_class_"+t, execVOPC, int32((cmpClass32+i)<<8|1<<16), 1, ty, cVALU).cmp = true
	}
}

// fcmp evaluates float condition c.
func fcmp(c int, x, y float64) bool {
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

func icmp(c int, lt, eq bool) bool {
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

func execVOPC(w *Wave, in *instr) error {
	kind, c, x := int(in.sub>>8&0xff), int(in.sub&0xff), in.sub>>16 != 0
	if in.nsrc < 2 {
		return execBadOperands(w, in)
	}
	v := vop{nsrc: 2, srcW: [3]uint8{1, 1, 1}}
	switch kind {
	case cmpF32:
		v.ft = 32
	case cmpF64:
		v.ft, v.srcW = 64, [3]uint8{2, 2, 1}
	case cmpF16:
		v.ft = 16
	case cmpI64, cmpU64:
		v.srcW = [3]uint8{2, 2, 1}
	case cmpClass32:
		v.ft = 32
	case cmpClass64:
		v.ft, v.srcW = 64, [3]uint8{2, 1, 1}
	case cmpClass16:
		v.ft = 16
	}
	if kind >= cmpClass32 {
		v.nofl = true
	}
	e := w.fenvFor(v.ft)
	var a, b [64]uint64
	w.vfetch(in, &v, 0, e, &a)
	w.vfetch(in, &v, 1, e, &b)
	mask := w.writeMask(in)
	var r uint64
	for m := mask; m != 0; m &= m - 1 {
		l := tz(m)
		var t bool
		p, q := a[l], b[l]
		switch kind {
		case cmpF32:
			t = fcmp(c, float64(f32(uint32(p))), float64(f32(uint32(q))))
		case cmpF64:
			t = fcmp(c, f64(p), f64(q))
		case cmpF16:
			t = fcmp(c, f16ToF64(uint16(p)), f16ToF64(uint16(q)))
		case cmpI32:
			t = icmp(c, int32(p) < int32(q), uint32(p) == uint32(q))
		case cmpU32:
			t = icmp(c, uint32(p) < uint32(q), uint32(p) == uint32(q))
		case cmpI64:
			t = icmp(c, int64(p) < int64(q), p == q)
		case cmpU64:
			t = icmp(c, p < q, p == q)
		case cmpI16:
			t = icmp(c, int16(p) < int16(q), uint16(p) == uint16(q))
		case cmpU16:
			t = icmp(c, uint16(p) < uint16(q), uint16(p) == uint16(q))
		case cmpClass32:
			u := uint32(p)
			t = q>>uint(fclass(float64(f32(u)), u&0x400000 != 0, isDenorm32(u)))&1 != 0
		case cmpClass64:
			t = q>>uint(fclass(f64(p), p&(1<<51) != 0, isDenorm64(p)))&1 != 0
		case cmpClass16:
			u := uint16(p)
			t = q>>uint(fclass(f16ToF64(u), u&0x200 != 0, isDenorm16(u)))&1 != 0
		}
		if t {
			r |= 1 << uint(l)
		}
	}
	w.putCmpMask(in, r, x)
	return nil
}

// putCmpMask writes a compare's result mask to its SGPR-pair destination
// (VOP3) or VCC, and to EXEC as well for v_cmpx.
func (w *Wave) putCmpMask(in *instr, r uint64, cmpx bool) {
	if in.ndst >= 1 && in.dst[0].kind == okS {
		w.sd64(&in.dst[0], r)
	} else {
		w.ws64(codeVCC, r)
	}
	if cmpx {
		w.ws64(codeExec, r)
	}
}
