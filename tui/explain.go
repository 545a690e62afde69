package tui

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// writesMaskOnly reports whether a VALU instruction writes a 64-bit lane
// mask and no VGPR: a compare (VOPC, or VOPC in VOP3).
func writesMaskOnly(in *isa.Inst) bool {
	mask := false
	for _, o := range in.Args {
		if o.Access&isa.Write == 0 {
			continue
		}
		if o.Kind == isa.KindVGPR {
			return false
		}
		mask = mask || o.Width == 2
	}
	return mask
}

// explainWait says what an s_waitcnt waits for, from emu's decoding of its
// fields for the wave's generation.
func explainWait(w *emu.WaitPreview, now emu.Counters) string {
	var conds []string
	for _, c := range []struct {
		name           string
		want, max, now int
	}{{"vm_cnt", w.VM, w.VMMax, now.VM}, {"exp_cnt", w.EXP, w.EXPMax, now.EXP}, {"lgkm_cnt", w.LGKM, w.LGKMMax, now.LGKM}} {
		if c.want < c.max {
			conds = append(conds, fmt.Sprintf("%s ≤ %d (now %d)", c.name, c.want, c.now))
		}
	}
	if len(conds) == 0 {
		return "waits for nothing (every count at its maximum)"
	}
	return "waits until " + strings.Join(conds, " and ")
}

// explain says in plain words what the instruction at PC will do.
func (d *EmuDebuggee) explain(s *emu.Snapshot, last *emu.StepRecord) string {
	w := d.w()
	switch s.State {
	case emu.Ended:
		return "the wave has ended (s_endpgm); b steps back"
	case emu.Faulted:
		if w.err != nil {
			return "stopped: " + w.err.Error()
		}
		return "stopped on a fault"
	}
	if s.Index < 0 || s.Index >= len(d.prog.Insts) {
		return "PC is outside the kernel"
	}
	in := &d.prog.Insts[s.Index]
	info := in.Op.Info()
	if info == nil || in.Form == nil {
		return "next: " + d.instText(s.Index) + " — the emulator cannot decode this word"
	}
	// The operands' texts name them for display only: every decision
	// reads the decoded instruction.
	_, ops := in.OperandTexts(nil, s.PC, nil)
	active := bits.OnesCount64(s.EXEC)
	// Destinations print first; count them from the decoded operands.
	nDst := 0
	for _, a := range in.Args {
		if a.Access&isa.Write != 0 {
			nDst++
		}
	}
	nDst = min(max(nDst, 1), len(ops))
	dst, srcs := strings.Join(ops[:nDst], ", "), strings.Join(ops[nDst:], ", ")
	var what string
	switch info.Class {
	case isa.ClassSALU:
		what = fmt.Sprintf("scalar ALU: %s ← %s, once for the whole wave", dst, srcs)
		if in.Enc == isa.EncSOPC && info.Flags.Has(isa.FlagSCCWrite) {
			what = fmt.Sprintf("scalar compare of %s: sets SCC", strings.Join(ops, " and "))
		} else if info.Flags.Has(isa.FlagExecWrite) {
			what = fmt.Sprintf("saves EXEC into %s, then EXEC ← EXEC op %s (masks lanes off)", dst, srcs)
		}
	case isa.ClassVALU:
		what = fmt.Sprintf("vector ALU: %s ← %s in %s", dst, srcs, eachLane(active))
		if writesMaskOnly(in) {
			what = fmt.Sprintf("vector compare in %s: one bit per lane into %s", eachLane(active), dst)
		}
	case isa.ClassSMEM:
		what = fmt.Sprintf("scalar memory: %s ← constant memory at %s + %s through the scalar cache; the data arrives later", dst, at(ops, 1), at(ops, 2))
		if info.Flags.Has(isa.FlagStore) {
			what = fmt.Sprintf("scalar store of %s to %s + %s (write-back through the scalar cache)", dst, at(ops, 1), at(ops, 2))
		}
	case isa.ClassVMEM, isa.ClassFLAT:
		if in.Op.Mem().Kind == isa.MemStore {
			what = fmt.Sprintf("vector memory store: %s writes %s to its own address", eachLane(active), at(ops, 1))
		} else {
			what = fmt.Sprintf("vector memory load: %s reads its own address into %s; the data arrives later", eachLane(active), dst)
		}
	case isa.ClassDS:
		what = fmt.Sprintf("LDS access in %s", eachLane(active))
	case isa.ClassBranch:
		what = d.explainBranch(d.preview().Branch)
	case isa.ClassWaitcnt:
		what = "waits for nothing (every count at its maximum)"
		if w := d.preview().Wait; w != nil {
			what = explainWait(w, s.Counters)
		}
	case isa.ClassExport:
		what = "export to a render target or position buffer"
	default:
		switch {
		case info.Flags.Has(isa.FlagEndpgm):
			what = "ends the wave"
		case in.Op == isa.S_NOP:
			what = "does nothing for a few cycles"
		case info.Flags.Has(isa.FlagBarrier):
			what = "waits for every wave of the work-group"
		default:
			what = "program control"
		}
	}
	if info.Raises != 0 {
		var cs []string
		for _, c := range []isa.Counters{isa.CntVM, isa.CntLGKM, isa.CntEXP} {
			if info.Raises&c != 0 {
				cs = append(cs, counterName(c)+"_cnt")
			}
		}
		what += "; raises " + strings.Join(cs, ", ")
	}
	// Warnings come first, so a narrow terminal still shows them.
	out := "next: " + what
	if warn := d.readsPending(in, s); warn != "" {
		out = "⚠ " + warn + " · " + out
	}
	if last != nil && len(last.Hazards) > 0 {
		h := last.Hazards[0]
		out = fmt.Sprintf("⚠ the last step read %s before the load at 0x%x wrote it (cycle %d): it used the old value · ", h.Reg, h.PendingPC, h.Done) + out
	} else if last != nil && last.Stall > 0 {
		out += fmt.Sprintf("  (last step stalled %d cycles)", last.Stall)
	}
	return out
}

// readsPending says, for the instruction about to execute, which source
// register an in-flight load has yet to write: the missing s_waitcnt bug,
// caught before it happens.
func (d *EmuDebuggee) readsPending(in *isa.Inst, s *emu.Snapshot) string {
	if len(s.InFlight) == 0 || in.Op.Info() == nil || in.Op.Info().Class == isa.ClassWaitcnt {
		return ""
	}
	for _, o := range in.Args {
		if o.Access&isa.Read == 0 || (o.Kind != isa.KindSGPR && o.Kind != isa.KindVGPR) {
			continue
		}
		file := byte('s')
		if o.Kind == isa.KindVGPR {
			file = 'v'
		}
		for _, op := range s.InFlight {
			for _, dst := range d.dests(op) {
				for _, r := range expandRegs(dst) {
					if r.File == file && r.Num >= int(o.Reg) && r.Num < int(o.Reg)+max(int(o.Width), 1) {
						return fmt.Sprintf("reads %s before the load at 0x%x writes it (cycle %d): it would see the old value; an s_waitcnt %scnt(0) before it waits for the load",
							r, op.PC, op.Done, counterName(op.Counter))
					}
				}
			}
		}
	}
	return ""
}

func at(ops []string, i int) string {
	if i < len(ops) {
		return ops[i]
	}
	return "?"
}

// explainBranch says where a SOPP branch goes and whether it jumps now,
// from emu's preview (nil for other branches).
func (d *EmuDebuggee) explainBranch(b *emu.BranchPreview) string {
	if b == nil {
		return "changes the program counter"
	}
	target := fmt.Sprintf("0x%x", b.Target)
	for _, l := range d.lines {
		if l.Addr == b.Target && l.Label != "" {
			target = l.Label
		}
	}
	cond := func(name string) string {
		verb := "falls through"
		if b.Taken {
			verb = "jumps"
		}
		return fmt.Sprintf("branches to %s if %s — now it %s", target, name, verb)
	}
	switch b.Cond {
	case isa.BranchAlways:
		return "jumps to " + target
	case isa.BranchSCC0:
		return cond("SCC = 0")
	case isa.BranchSCC1:
		return cond("SCC = 1")
	case isa.BranchEXECZ:
		return cond("no lane is active (EXEC = 0)")
	case isa.BranchEXECNZ:
		return cond("any lane is active")
	case isa.BranchVCCZ:
		return cond("VCC = 0")
	case isa.BranchVCCNZ:
		return cond("VCC ≠ 0")
	}
	return cond("a debugger sets its condition bit")
}
