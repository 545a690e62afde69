package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// Quad sums of absolute differences (GCN3/Vega ISA manuals, V_QSAD_PK_U16_U8,
// V_MQSAD_PK_U16_U8, V_MQSAD_U32_U8). Result k (k = 0…3) is the SAD of the
// four bytes S0.u64[8k+31:8k] against the four bytes of S1, plus
// accumulator k of S2; the masked (mqsad) forms skip bytes where S1's byte
// is 0, as V_MSAD_U8 does. The _pk forms pack four 16-bit results (S2 and D
// are 64-bit), V_MQSAD_U32_U8 four 32-bit ones (S2 and D are 128-bit).
// Without clamp a result wraps to its field; with clamp it saturates
// (RATIONALE.md, "Integer clamp").

func init() {
	for _, o := range []struct {
		name   string
		masked bool
	}{{"v_qsad_pk_u16_u8", false}, {"v_mqsad_pk_u16_u8", true}} {
		masked := o.masked
		defV(o.name, core.CVALU, core.Vop{Nsrc: 3, SrcW: [3]uint8{2, 1, 2}, DstW: 2, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
			var d uint64
			for k := uint(0); k < 4; k++ {
				s := sadBytes(a>>(8*k), b, masked) + int64(c>>(16*k)&0xffff)
				if e.Clamp && s > 0xffff {
					s = 0xffff
				}
				d |= uint64(s&0xffff) << (16 * k)
			}
			return d
		}})
	}
	def("v_mqsad_u32_u8", execMQSADU32, 0, 1, core.TyB64, core.CVALU)
}

// execMQSADU32 executes v_mqsad_u32_u8, whose accumulator and destination
// are four VGPRs. All sources are read before the destination is written,
// so overlapping registers (which the hardware forbids) read the old values.
func execMQSADU32(w *core.Wave, in *core.Instr) error {
	d := &in.Dst[0]
	if in.Nsrc < 3 || d.Kind != core.OkV {
		return ExecBadOperands(w, in)
	}
	dr := idxReg(w, int(d.Reg), 3)
	if dr+3 > 255 {
		return ExecBadOperands(w, in)
	}
	v := core.Vop{Nsrc: 2, SrcW: [3]uint8{2, 1, 1}}
	e := FenvFor(w, 32)
	var a, b [64]uint64
	vfetch(w, in, &v, 0, e, &a)
	vfetch(w, in, &v, 1, e, &b)
	acc, ok := quadSource(w, &in.Src[2])
	if !ok {
		return ExecBadOperands(w, in)
	}
	clamp := in.In != nil && in.In.Mods.Clamp
	mask := w.Exec()
	var out [4][64]uint32
	for m := mask; m != 0; m &= m - 1 {
		l := core.Tz(m)
		for k := uint(0); k < 4; k++ {
			s := sadBytes(a[l]>>(8*k), b[l], true) + int64(acc[k][l])
			if clamp && s > 0xffffffff {
				s = 0xffffffff
			}
			out[k][l] = uint32(s)
		}
	}
	for k := range out {
		w.Wv(dr+k, mask, &out[k])
	}
	return nil
}

// quadSource reads a 128-bit vector source: four VGPRs, four SGPRs, or a
// constant (its 64-bit value in the low two dwords, zero above).
func quadSource(w *core.Wave, o *core.Operand) (*[4][64]uint32, bool) {
	var q [4][64]uint32
	switch o.Kind {
	case core.OkV:
		r := idxReg(w, int(o.Reg), 2)
		if r+3 > 255 {
			return nil, false
		}
		for k := range q {
			q[k] = w.V[r+k]
		}
	case core.OkS:
		if o.Reg+3 >= 128 {
			return nil, false
		}
		for k := range q {
			x := w.Rs(int(o.Reg) + k)
			for l := range q[k] {
				q[k][l] = x
			}
		}
	default:
		x := w.Sv64(o)
		for l := 0; l < 64; l++ {
			q[0][l], q[1][l] = uint32(x), uint32(x>>32)
		}
	}
	return &q, true
}
