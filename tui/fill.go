package tui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// Fill implements Debuggee: it turns the selected wave's snapshot and last
// step record into view models.
func (d *EmuDebuggee) Fill(f *Frame) {
	w := d.w()
	s := d.snapshot()
	var last *emu.StepRecord
	if n := len(w.recs); n > 0 {
		last = w.recs[n-1]
	}
	changedS := map[string]bool{}
	if last != nil {
		for _, c := range last.SRegs {
			changedS[c.Name] = true
		}
	}
	pending := map[string]bool{}
	for _, p := range s.Pending {
		pending[p] = true
	}
	pendingV := map[int]bool{}
	for _, op := range s.InFlight {
		for _, dst := range d.dests(op) {
			for _, r := range expandRegs(dst) {
				if r.File == 'v' {
					pendingV[r.Num] = true
				} else if r.File == 's' || r.File == 't' {
					pending[r.String()] = true
				}
			}
		}
	}
	cell := func(name string, v uint32) RegCell {
		return RegCell{Name: name, Value: v, Changed: changedS[name], Pending: pending[name]}
	}
	for i := 0; i < d.nSGPR && i < len(s.SGPR); i++ {
		f.SGPR.Regs = append(f.SGPR.Regs, cell(fmt.Sprintf("s%d", i), s.SGPR[i]))
	}
	scc := uint32(0)
	if s.SCC {
		scc = 1
	}
	f.SGPR.Regs = append(f.SGPR.Regs,
		cell("vcc_lo", uint32(s.VCC)), cell("vcc_hi", uint32(s.VCC>>32)),
		cell("exec_lo", uint32(s.EXEC)), cell("exec_hi", uint32(s.EXEC>>32)),
		cell("m0", s.M0), cell("scc", scc),
		cell("flat_scratch_lo", uint32(s.FlatScratch)), cell("flat_scratch_hi", uint32(s.FlatScratch>>32)))
	for i, v := range s.TTMP {
		f.SGPR.Regs = append(f.SGPR.Regs, cell(fmt.Sprintf("ttmp%d", i), v))
	}
	f.SGPR.Exec, f.SGPR.VCC = s.EXEC, s.VCC

	n := min(d.nVGPR, len(s.VGPR))
	f.VGPR.Exec = s.EXEC
	f.VGPR.Values = make([][]uint32, n)
	f.VGPR.Changed = make([]uint64, n)
	f.VGPR.Pending = make([]bool, n)
	for r := 0; r < n; r++ {
		f.VGPR.Values[r] = s.VGPR[r][:]
		f.VGPR.Pending[r] = pendingV[r]
	}
	if last != nil {
		for _, c := range last.VRegs {
			if c.Reg < n {
				f.VGPR.Changed[c.Reg] |= c.Lanes
			}
		}
	}

	d.fillCounters(f, s)
	d.fillCache(f, s, last)
	d.fillHazards(f)
	d.fillAddr(f)
	f.Explain = d.explain(s, last)
}

// expandRegs turns "s4", "v[3:4]", "s[4:7]" into single registers.
func expandRegs(name string) []RegRef {
	if i := strings.IndexByte(name, '['); i >= 0 && strings.HasSuffix(name, "]") {
		var lo, hi int
		if _, err := fmt.Sscanf(name[i+1:len(name)-1], "%d:%d", &lo, &hi); err == nil && hi >= lo && hi-lo < 16 {
			var out []RegRef
			for r := lo; r <= hi; r++ {
				if ref, err := ParseRegRef(fmt.Sprintf("%s%d", name[:i], r)); err == nil {
					out = append(out, ref)
				}
			}
			return out
		}
	}
	if r, err := ParseRegRef(name); err == nil {
		return []RegRef{r}
	}
	return nil
}

func (d *EmuDebuggee) instText(i int) string {
	if i >= 0 && i < len(d.lines) {
		return d.lines[i].Text
	}
	return "?"
}

func counterName(c isa.Counters) string {
	switch c {
	case isa.CntVM:
		return "vm"
	case isa.CntLGKM:
		return "lgkm"
	case isa.CntEXP:
		return "exp"
	}
	return "?"
}

func (d *EmuDebuggee) fillCounters(f *Frame, s *emu.Snapshot) {
	c := &f.Counters
	c.Cycle = s.Cycle
	c.VM, c.LGKM, c.EXP = s.Counters.VM, s.Counters.LGKM, s.Counters.EXP
	ops := append([]emu.InFlight(nil), s.InFlight...)
	blocks := map[uint64]bool{}
	if s.Index >= 0 && s.Index < len(d.prog.Insts) && s.State != emu.Ended {
		in := &d.prog.Insts[s.Index]
		if w := d.preview().Wait; w != nil && in.Op.Info() != nil && in.Op.Info().Class == isa.ClassWaitcnt {
			c.Wait = d.instText(s.Index)
			need := map[isa.Counters]int{isa.CntVM: c.VM - w.VM, isa.CntEXP: c.EXP - w.EXP, isa.CntLGKM: c.LGKM - w.LGKM}
			for cnt, k := range need {
				if k <= 0 {
					continue
				}
				var mine []emu.InFlight
				for _, op := range ops {
					if op.Counter == cnt {
						mine = append(mine, op)
					}
				}
				// VM and EXP count down in issue order; LGKM (SMEM) may
				// return out of order, so the earliest completions count.
				if cnt == isa.CntLGKM {
					sort.SliceStable(mine, func(i, j int) bool { return mine[i].Done < mine[j].Done })
				} else {
					sort.SliceStable(mine, func(i, j int) bool { return mine[i].Issue < mine[j].Issue })
				}
				for _, op := range mine {
					if k <= 0 {
						break
					}
					blocks[op.ID] = true
					k -= max(op.Inc, 1)
					c.StallUntil = max(c.StallUntil, op.Done)
				}
			}
			c.Stalled = c.StallUntil > c.Cycle
		}
	}
	sort.SliceStable(ops, func(i, j int) bool { return ops[i].Done < ops[j].Done })
	for _, op := range ops {
		// op.Index is the issuing instruction.
		c.Ops = append(c.Ops, InFlight{Inst: d.instText(op.Index), Counter: counterName(op.Counter),
			Dests: strings.Join(d.dests(op), ","), Done: op.Done, Blocks: blocks[op.ID]})
	}
}

func isMemory(in *isa.Inst) bool {
	if in == nil || in.Op.Info() == nil {
		return false
	}
	switch in.Op.Info().Class {
	case isa.ClassSMEM, isa.ClassVMEM, isa.ClassFLAT, isa.ClassDS:
		return true
	}
	return false
}

// dests names the registers an in-flight operation will write: emu lists
// them for scalar loads; for vector memory they are the issuing
// instruction's written register operands (vdst, or the loaded data of an
// atomic that returns).
func (d *EmuDebuggee) dests(op emu.InFlight) []string {
	if len(op.Dest) > 0 || op.Index < 0 || op.Index >= len(d.prog.Insts) {
		return op.Dest
	}
	in := &d.prog.Insts[op.Index]
	var out []string
	for _, o := range in.Args {
		if o.Access&isa.Write == 0 || o.Kind != isa.KindVGPR {
			continue
		}
		if o.Width > 1 {
			out = append(out, fmt.Sprintf("v[%d:%d]", o.Reg, int(o.Reg)+int(o.Width)-1))
		} else {
			out = append(out, fmt.Sprintf("v%d", o.Reg))
		}
	}
	return out
}
