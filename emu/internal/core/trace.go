package core

import (
	"fmt"
	"math/bits"
	"strings"
)

// String formats the record as the canonical one-line trace: sequence, PC,
// instruction, register changes (VGPRs by lane count), memory writes, counter
// changes, cache events, hazards and the cycle span. Lines diff cleanly
// between runs.
func (r *StepRecord) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d 0x%04x", r.Seq, r.PC)
	if r.Inst != nil {
		fmt.Fprintf(&b, " %s", r.Inst.String())
	}
	for _, s := range r.SRegs {
		if s.Name == "retired" || s.Name == "pc" || s.Name == "next_op_id" || s.Name == "cache_lru_clock" {
			continue
		}
		fmt.Fprintf(&b, " %s:%#x->%#x", s.Name, s.Old, s.New)
	}
	for _, v := range r.VRegs {
		fmt.Fprintf(&b, " v%d[%d lanes]", v.Reg, bits.OnesCount64(v.Lanes))
	}
	for _, m := range r.Mem {
		fmt.Fprintf(&b, " mem[%#x+%d]", m.Addr, len(m.New))
	}
	if r.CountersBefore != r.CountersAfter {
		c0, c1 := r.CountersBefore, r.CountersAfter
		fmt.Fprintf(&b, " cnt(vm,lgkm,exp):%d,%d,%d->%d,%d,%d", c0.VM, c0.LGKM, c0.EXP, c1.VM, c1.LGKM, c1.EXP)
	}
	for _, e := range r.Cache {
		fmt.Fprintf(&b, " %s@%#x", e.Kind, e.Addr)
	}
	for _, h := range r.Hazards {
		fmt.Fprintf(&b, " HAZARD:%s", h.Reg)
	}
	fmt.Fprintf(&b, " cyc:%d->%d", r.CycleBefore, r.CycleAfter)
	if r.Stall > 0 {
		fmt.Fprintf(&b, " stall:%d", r.Stall)
	}
	if r.Err != nil {
		fmt.Fprintf(&b, " ERROR:%v", r.Err)
	}
	return b.String()
}
