package emu

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// Reset returns the machine to the state NewMachine gives it — every
// register zero, EXEC all ones, the PC at the program's start, an empty
// scalar cache, in-flight list and history — keeping its allocations,
// configuration, memory, breakpoints and VectorMemory. A grid run reuses one
// Machine per wave slot this way instead of allocating one per wave.
//
// Reset is on the path of every wave of a grid, so it clears only what can
// differ from zero: the VGPRs below the machine's high-water mark (the
// registers its program names, those set through SetVGPR or a wave's
// initial state; see vgprSpan) rather than the whole 64 KiB file, and the
// scalar-cache lines that were filled since the last Reset. TestResetCoversWave fails when
// Wave gains a field this function does not reset.
func (m *Machine) Reset() {
	clear(m.w.Tmp[:])
	m.reset(0, 0)
}

// reset is Reset leaving VGPRs v0 to v(nv-1) and the first ns SGPRs as
// they are, for a caller that overwrites them next (startWave), and the
// fast kernels' scratch rows (Wave.tmp) too: they are not wave state — no
// accessor reads them, the fast and general paths leave them different
// (fastSame ignores them), and every kernel writes the rows it reads
// within the same instruction — and clearing 2 KiB cost 3% of a
// 31-instruction wave.
func (m *Machine) reset(nv, ns int) {
	w := m.w
	if m.vprog != m.Prog {
		m.vprog, m.vspan = m.Prog, vgprSpan(m.Prog)
	}
	if hi := min(max(m.vhigh, m.vspan), 256); hi > nv {
		clear(w.V[nv:hi])
	}
	m.vhigh = m.vspan
	if m.Config.Mode&core.ModeGPRIdxEn != 0 {
		m.vhigh = 256 // relative indexing can reach any VGPR
	}
	// A line only ever becomes non-zero by fill, which lists it (StepBack
	// restores lines to earlier states, zero or filled).
	if m.ManyFill {
		clear(w.Cache.Lines)
	} else {
		for _, i := range m.Filled {
			w.Cache.Lines[i] = core.CachedLine{}
		}
	}
	m.Filled, m.ManyFill = m.Filled[:0], false
	w.M, w.Target, w.Code = &m.Env, m.Config.Target, m.Prog.Code
	clear(w.S[min(ns, len(w.S)):])
	w.S[core.CodeExec], w.S[core.CodeExec+1] = ^uint32(0), ^uint32(0)
	w.S[core.SlotMode] = m.Config.Mode
	w.S[core.SlotGPRAlloc] = 0x3f00
	w.Pend = w.Pend[:0]
	m.Due = ^uint64(0) // nothing in flight: no retire until an issue
	if w.Npend != 0 {  // else every count is zero
		clear(w.PendS[:])
		w.Npend = 0
	}
	w.JOn = false
	w.J.Reset()
	w.Fe = core.Fenv{}
	w.CurIdx = 0
	m.Hist.Clear()
	m.last = m.last[:0]
	if m.rp != nil {
		m.StopRecording()
	}
}

// vgprSpan returns how many VGPRs, from v0, the instructions of p can write:
// one past the highest VGPR any operand names (vector memory destinations
// with room for a TFE status dword), or 256 when the program can index
// VGPRs relatively (v_movrel*, s_set_gpr_idx_on, an s_setreg that may set
// MODE.GPR_IDX_EN), since then any register is reachable.
func vgprSpan(p *Program) int {
	if p == nil {
		return 0
	}
	span := 0
	for i := range p.Insts {
		in := &p.Insts[i]
		switch in.Op {
		case isa.V_MOVRELS_B32, isa.V_MOVRELD_B32, isa.V_MOVRELSD_B32, isa.S_SET_GPR_IDX_ON:
			return 256
		case isa.S_SETREG_B32, isa.S_SETREG_IMM32_B32:
			if setsGPRIdx(in) {
				return 256
			}
		}
		mem := in.Enc == isa.EncMUBUF || in.Enc == isa.EncMTBUF || in.Enc == isa.EncFLAT || in.Enc == isa.EncDS || in.Enc == isa.EncMIMG
		for k := range in.Args {
			a := &in.Args[k]
			if a.Kind != isa.KindVGPR && a.Kind != isa.KindAGPR {
				continue
			}
			n := max(int(a.Width), 1)
			if mem {
				n = max(n, 5)
			}
			span = max(span, int(a.Reg)+n)
		}
	}
	return min(span, 256)
}

// setsGPRIdx reports whether an s_setreg may write MODE bit 27.
func setsGPRIdx(in *isa.Inst) bool {
	for k := range in.Args {
		if a := &in.Args[k]; a.Kind == isa.KindImm {
			id, off, size := ref.HwregFields(uint16(a.Imm))
			return id == ref.HwMode && off <= 27 && 27 < off+size
		}
	}
	return true // no hwreg field found: assume the worst
}

// startWave resets the machine and sets its entry state as initWave does,
// without first clearing the registers initWave writes.
func (m *Machine) startWave(pc int, sgpr []uint32, vgpr [][64]uint32, exec uint64, m0 uint32) {
	m.reset(min(len(vgpr), 256), min(len(sgpr), 102))
	m.initWave(pc, sgpr, vgpr, exec, m0)
}

// initWave sets a freshly Reset wave's entry state for a grid run: the PC
// (an instruction index), s0 upward, the first VGPRs, EXEC and M0. Unlike
// the setters it writes the registers directly (Reset has already cleared
// the history).
func (m *Machine) initWave(pc int, sgpr []uint32, vgpr [][64]uint32, exec uint64, m0 uint32) {
	w := m.w
	w.S[core.SlotPC] = uint32(pc)
	copy(w.S[:102], sgpr)
	copy(w.V[:], vgpr)
	m.vhigh = max(m.vhigh, len(vgpr))
	w.S[core.CodeExec], w.S[core.CodeExec+1] = uint32(exec), uint32(exec>>32)
	w.S[core.CodeM0] = m0
}
