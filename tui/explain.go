package tui

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// operandsOf splits an instruction's text into its mnemonic and operands.
func operandsOf(text string) (string, []string) {
	mn, rest, _ := strings.Cut(text, " ")
	if rest == "" {
		return mn, nil
	}
	return mn, strings.Split(rest, ", ")
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
	text := d.instText(s.Index)
	mn, ops := operandsOf(text)
	info := in.Op.Info()
	if info == nil || in.Form == nil {
		return "next: " + text + " — the emulator cannot decode this word"
	}
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
		if strings.HasPrefix(mn, "s_cmp") || strings.HasPrefix(mn, "s_bitcmp") {
			what = fmt.Sprintf("scalar compare of %s: sets SCC", strings.Join(ops, " and "))
		} else if strings.Contains(mn, "saveexec") {
			what = fmt.Sprintf("saves EXEC into %s, then EXEC ← EXEC op %s (masks lanes off)", dst, srcs)
		}
	case isa.ClassVALU:
		what = fmt.Sprintf("vector ALU: %s ← %s in %s", dst, srcs, eachLane(active))
		if strings.HasPrefix(mn, "v_cmp") {
			what = fmt.Sprintf("vector compare in %s: one bit per lane into %s", eachLane(active), dst)
		}
	case isa.ClassSMEM:
		what = fmt.Sprintf("scalar memory: %s ← constant memory at %s + %s through the scalar cache; the data arrives later", dst, at(ops, 1), at(ops, 2))
		if strings.HasPrefix(mn, "s_store") || strings.HasPrefix(mn, "s_buffer_store") {
			what = fmt.Sprintf("scalar store of %s to %s + %s (write-back through the scalar cache)", dst, at(ops, 1), at(ops, 2))
		}
	case isa.ClassVMEM, isa.ClassFLAT:
		if strings.Contains(mn, "store") {
			what = fmt.Sprintf("vector memory store: %s writes %s to its own address", eachLane(active), at(ops, 1))
		} else {
			what = fmt.Sprintf("vector memory load: %s reads its own address into %s; the data arrives later", eachLane(active), dst)
		}
	case isa.ClassDS:
		what = fmt.Sprintf("LDS access in %s", eachLane(active))
	case isa.ClassBranch:
		what = d.explainBranch(mn, in, s)
	case isa.ClassWaitcnt:
		vm, exp, lgkm := waitcntFields(in.Words[0] & 0xffff)
		var conds []string
		for _, c := range []struct {
			name       string
			want, max_ int
			now        int
		}{{"vm_cnt", vm, 63, s.Counters.VM}, {"exp_cnt", exp, 7, s.Counters.EXP}, {"lgkm_cnt", lgkm, 15, s.Counters.LGKM}} {
			if c.want < c.max_ {
				conds = append(conds, fmt.Sprintf("%s ≤ %d (now %d)", c.name, c.want, c.now))
			}
		}
		what = "waits until " + strings.Join(conds, " and ")
		if len(conds) == 0 {
			what = "waits for nothing (every count at its maximum)"
		}
	case isa.ClassExport:
		what = "export to a render target or position buffer"
	default:
		switch mn {
		case "s_endpgm":
			what = "ends the wave"
		case "s_nop":
			what = "does nothing for a few cycles"
		case "s_barrier":
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

func (d *EmuDebuggee) explainBranch(mn string, in *isa.Inst, s *emu.Snapshot) string {
	target := "?"
	if t, ok := branchTarget(in, s.PC); ok {
		target = fmt.Sprintf("0x%x", t)
		for _, l := range d.lines {
			if l.Addr == t && l.Label != "" {
				target = l.Label
			}
		}
	}
	cond := func(name string, taken bool) string {
		verb := "falls through"
		if taken {
			verb = "jumps"
		}
		return fmt.Sprintf("branches to %s if %s — now it %s", target, name, verb)
	}
	switch mn {
	case "s_branch":
		return "jumps to " + target
	case "s_cbranch_scc0":
		return cond("SCC = 0", !s.SCC)
	case "s_cbranch_scc1":
		return cond("SCC = 1", s.SCC)
	case "s_cbranch_execz":
		return cond("no lane is active (EXEC = 0)", s.EXEC == 0)
	case "s_cbranch_execnz":
		return cond("any lane is active", s.EXEC != 0)
	case "s_cbranch_vccz":
		return cond("VCC = 0", s.VCC == 0)
	case "s_cbranch_vccnz":
		return cond("VCC ≠ 0", s.VCC != 0)
	}
	return "changes the program counter"
}
