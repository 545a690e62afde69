package isa

import "fmt"

// Waitcnt is what an s_waitcnt waits for: until each counter is at most
// its limit. A limit at the generation's maximum (WaitcntMax) waits for
// nothing.
type Waitcnt struct {
	VM, EXP, LGKM int
}

// waitcntLayout places the counters in an s_waitcnt simm16: vmcnt's low 4
// bits at [3:0] and, when vmHi is set, its bits 5:4 at [15:14]; expcnt at
// [6:4]; lgkmcnt at [11:8] (S_WAITCNT in the SOPP instructions of the GCN3 and Vega ISA manuals).
type waitcntLayout struct {
	vmHi bool
}

var waitcntLayouts = [...]waitcntLayout{
	GFX8: {vmHi: false},
	GFX9: {vmHi: true},
}

func layoutOf(t Target) waitcntLayout {
	if int(t) < len(waitcntLayouts) {
		return waitcntLayouts[t]
	}
	return waitcntLayout{}
}

// WaitcntFields splits an s_waitcnt simm16 into its counter limits on
// generation t. Bits that hold no field on t are ignored.
func WaitcntFields(t Target, imm uint16) Waitcnt {
	w := Waitcnt{VM: int(imm & 0xf), EXP: int(imm >> 4 & 7), LGKM: int(imm >> 8 & 0xf)}
	if layoutOf(t).vmHi {
		w.VM |= int(imm>>14&3) << 4
	}
	return w
}

// WaitcntMax returns the largest limits an s_waitcnt of generation t can
// encode: vmcnt 15 on GFX8, 63 on GFX9; expcnt 7; lgkmcnt 15.
func WaitcntMax(t Target) Waitcnt {
	w := Waitcnt{VM: 0xf, EXP: 7, LGKM: 0xf}
	if layoutOf(t).vmHi {
		w.VM = 0x3f
	}
	return w
}

// WaitcntImm is the inverse of WaitcntFields: the simm16 that waits for w
// on generation t, with the bits that hold no field clear. It fails when a
// limit is negative or above WaitcntMax(t).
func WaitcntImm(t Target, w Waitcnt) (uint16, error) {
	m := WaitcntMax(t)
	for _, c := range []struct {
		name   string
		v, max int
	}{{"vmcnt", w.VM, m.VM}, {"expcnt", w.EXP, m.EXP}, {"lgkmcnt", w.LGKM, m.LGKM}} {
		if c.v < 0 || c.v > c.max {
			return 0, fmt.Errorf("isa: %s(%d) is out of range on %s (0 to %d)", c.name, c.v, t, c.max)
		}
	}
	imm := uint16(w.VM&0xf | w.EXP<<4 | w.LGKM<<8)
	if layoutOf(t).vmHi {
		imm |= uint16(w.VM>>4&3) << 14
	}
	return imm, nil
}
