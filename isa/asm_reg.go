package isa

// Register operands: v7, s[4:7], ttmp[0:3], [s0,s1], and the named
// special registers, with LLVM's range and alignment checks.

import (
	"strconv"
	"strings"
)

// specialRegs are the named scalar registers: code and width (0: any).
var specialRegs = map[string]struct {
	code  uint16
	width uint8
	gfx9  bool // GFX9 only
	gfx8  bool // GFX8 only
}{
	"vcc": {106, 2, false, false}, "vcc_lo": {106, 1, false, false}, "vcc_hi": {107, 1, false, false},
	"exec": {126, 2, false, false}, "exec_lo": {126, 1, false, false}, "exec_hi": {127, 1, false, false},
	"m0": {124, 1, false, false}, "flat_scratch": {102, 2, false, false},
	"flat_scratch_lo": {102, 1, false, false}, "flat_scratch_hi": {103, 1, false, false},
	"xnack_mask": {104, 2, false, false}, "xnack_mask_lo": {104, 1, false, false}, "xnack_mask_hi": {105, 1, false, false},
	"tba": {108, 2, false, true}, "tba_lo": {108, 1, false, true}, "tba_hi": {109, 1, false, true},
	"tma": {110, 2, false, true}, "tma_lo": {110, 1, false, true}, "tma_hi": {111, 1, false, true},
	"src_shared_base": {235, 0, true, false}, "shared_base": {235, 0, true, false},
	"src_shared_limit": {236, 0, true, false}, "shared_limit": {236, 0, true, false},
	"src_private_base": {237, 0, true, false}, "private_base": {237, 0, true, false},
	"src_private_limit": {238, 0, true, false}, "private_limit": {238, 0, true, false},
	"src_pops_exiting_wave_id": {239, 0, true, false}, "pops_exiting_wave_id": {239, 0, true, false},
	"src_vccz": {251, 0, false, false}, "vccz": {251, 0, false, false},
	"src_execz": {252, 0, false, false}, "execz": {252, 0, false, false},
	"src_scc": {253, 0, false, false}, "scc": {253, 0, false, false},
	"src_lds_direct": {254, 1, false, false}, "lds_direct": {254, 1, false, false},
}

// register parses a register name (v7, s3, ttmp2, vcc, ...) already
// scanned as id.
func (a *asmLine) register(o *asmOp, id string) (bool, error) {
	if rk, n := regPrefix(id); rk != KindNone && n < len(id) && id[n] >= '0' && id[n] <= '9' {
		if v, err := strconv.Atoi(id[n:]); err == nil {
			return true, a.setReg(o, rk, v, 1)
		}
	}
	if sp, ok := specialRegs[id]; ok {
		if sp.gfx9 && a.t != GFX9 || sp.gfx8 && a.t != GFX8 {
			return true, errAt(o, "register not available on this GPU")
		}
		if strings.HasPrefix(id, "xnack_mask") && a.t == GFX8 && a.f&FeatPackedD16 == 0 {
			return true, errAt(o, "register not available on this GPU") // of GFX8, only gfx801 and gfx810 have XNACK
		}
		o.kind, o.rk, o.reg, o.width = opReg, KindSpecial, sp.code, sp.width
		return true, nil
	}
	rk, n := regPrefix(id)
	if rk == KindNone || len(id) == n {
		return false, nil
	}
	v, err := strconv.Atoi(id[n:])
	if err != nil || id[n] == '+' || id[n] == '-' {
		return false, nil
	}
	return true, a.setReg(o, rk, v, 1)
}

// regPrefix splits a register name's prefix: v, s or ttmp.
func regPrefix(id string) (OperandKind, int) {
	switch {
	case strings.HasPrefix(id, "ttmp"):
		return KindTTMP, 4
	case strings.HasPrefix(id, "v"):
		return KindVGPR, 1
	case strings.HasPrefix(id, "s"):
		return KindSGPR, 1
	}
	return KindNone, 0
}

// regTuple parses v[lo:hi], s[lo:hi], ttmp[lo:hi] or v[n].
func (a *asmLine) regTuple(o *asmOp, id string) error {
	rk, n := regPrefix(id)
	if rk == KindNone || n != len(id) {
		return errAt(o, "not a valid operand.")
	}
	a.pos++ // [
	loCol := a.pos + 1
	lo, err := a.regIndex()
	if err != nil {
		return err
	}
	hi := lo
	if a.peek() == ':' {
		a.pos++
		if hi, err = a.regIndex(); err != nil {
			return err
		}
	}
	if a.peek() != ']' {
		return a.errHere("expected a closing square bracket")
	}
	a.pos++
	if hi < lo {
		return &AsmError{Col: loCol, Msg: "first register index should not exceed second index"}
	}
	return a.setReg(o, rk, lo, hi-lo+1)
}

// regList parses [s0,s1,...], a list of consecutive registers.
func (a *asmLine) regList(o *asmOp) error {
	a.pos++
	var first asmOp
	for i := 0; ; i++ {
		a.skipSpace()
		var r asmOp
		r.col = a.pos + 1
		id := a.ident()
		if ok, err := a.register(&r, id); err != nil || !ok || r.rk == KindSpecial {
			return errAt(&r, "invalid register in the list")
		}
		if i == 0 {
			first = r
		} else if r.rk != first.rk || int(r.reg) != int(first.reg)+i {
			return errAt(&r, "registers in a list must have consecutive indices")
		}
		if c := a.peek(); c == ']' {
			a.pos++
			return a.setReg(o, first.rk, int(first.reg), i+1)
		} else if c != ',' {
			return a.errHere("expected a comma or a closing square bracket")
		}
		a.pos++
	}
}

func (a *asmLine) regIndex() (int, error) {
	a.skipSpace()
	s := a.pos
	for a.pos < len(a.text) && a.text[a.pos] >= '0' && a.text[a.pos] <= '9' {
		a.pos++
	}
	v, err := strconv.Atoi(a.text[s:a.pos])
	if err != nil {
		return 0, &AsmError{Col: s + 1, Msg: "expected a register index"}
	}
	return v, nil
}

// setReg checks a register tuple's range and alignment and records it.
func (a *asmLine) setReg(o *asmOp, rk OperandKind, reg, width int) error {
	switch width {
	case 1, 2, 3, 4, 5, 6, 7, 8, 16:
	default:
		return errAt(o, "invalid register width") // LLVM: no register class of that size
	}
	limit := 256
	switch rk {
	case KindSGPR:
		limit = srcSGPRMax + 1
	case KindTTMP:
		limit = 12
		if a.t == GFX9 {
			limit = 16
		}
	}
	if reg+width > limit {
		if rk == KindSGPR && reg+width <= numSGPRs || rk == KindTTMP && reg+width <= 16 {
			return errAt(o, "register not available on this GPU") // s102–s105: flat_scratch, xnack_mask
		}
		return errAt(o, "register index is out of range")
	}
	if rk != KindVGPR && width > 1 && reg%min(width, 4) != 0 {
		return errAt(o, "invalid register alignment")
	}
	o.kind, o.rk, o.reg, o.width = opReg, rk, uint16(reg), uint8(width)
	return nil
}
