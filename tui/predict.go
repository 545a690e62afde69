package tui

import (
	"fmt"
	"math/bits"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// This file renders emu's Preview of the memory instruction at the PC in
// the address decoder. Every address, range check, line and bank conflict
// is emu's, worked out by the functions the step runs; only the words are
// the debugger's.

// preview returns emu's Preview of the selected wave's next instruction,
// once per snapshot.
func (d *EmuDebuggee) preview() *emu.Preview { return d.previewOf(d.w()) }

// previewOf returns emu's Preview of w's next instruction.
func (d *EmuDebuggee) previewOf(w *waveRun) *emu.Preview {
	if w.prev == nil {
		p, ok := w.m.Preview()
		if !ok {
			p = emu.Preview{Index: -1}
		}
		w.prev = &p
	}
	return w.prev
}

// predict fills the address decoder for the memory instruction at the PC,
// before it executes. It reports whether the PC is at one.
func (d *EmuDebuggee) predict(f *Frame) bool {
	p := d.preview()
	in := p.Inst
	if in == nil || in.Form == nil {
		return false
	}
	switch in.Enc {
	case isa.EncSMEM:
		d.predictSMEM(f, p)
		return true
	case isa.EncFLAT, isa.EncMUBUF, isa.EncMTBUF, isa.EncDS:
		if p.Mem == nil {
			return false
		}
		d.predictVMEM(f, p)
		return true
	}
	return false
}

// predictVMEM renders a GLOBAL, FLAT, MUBUF, MTBUF or DS access.
func (d *EmuDebuggee) predictVMEM(f *Frame, p *emu.Preview) {
	s := d.snapshot()
	in, mp := p.Inst, p.Mem
	a := &f.Addr
	a.Inst, a.Kind = d.instText(p.Index), encName(in)+", next"
	vaddr := -1
	for _, o := range in.Args {
		txt, _, ok := d.regText(o, s)
		switch o.Field {
		case isa.FieldVADDR, isa.FieldADDR:
			if o.Kind == isa.KindVGPR {
				vaddr = int(o.Reg)
				a.Fields = append(a.Fields, Field{o.Field.String(), txt})
			}
		case isa.FieldSADDR:
			if o.Kind == isa.KindSGPR {
				a.Fields = append(a.Fields, Field{"saddr", txt})
			}
		case isa.FieldSRSRC:
			if mp.VSharp != nil {
				a.Fields = append(a.Fields, Field{"srsrc", fmt.Sprintf("s[%d:%d]", o.Reg, o.Reg+3)})
				a.Fields = append(a.Fields, vsharpFields(mp.VSharp)...)
			}
		case isa.FieldSOFFSET:
			if ok {
				a.Fields = append(a.Fields, Field{"soffset", txt})
			}
		}
	}
	m := in.Mods
	a.Fields = append(a.Fields, Field{"offset", fmt.Sprint(m.Offset)})
	switch in.Enc {
	case isa.EncFLAT:
		switch {
		case m.Seg == isa.SegScratch:
			a.Steps = append(a.Steps, fmt.Sprintf("private offset = (saddr) + (vaddr) + offset (%d); dwords interleave across the lanes in scratch", m.Offset))
		case m.Seg == isa.SegGlobal && hasSGPR(in, isa.FieldSADDR):
			a.Steps = append(a.Steps, fmt.Sprintf("address = saddr + vaddr32 + offset = 0x%x + v%d + %d", saddrValue(in, s), vaddr, m.Offset))
		default:
			a.Steps = append(a.Steps, fmt.Sprintf("address = v[%d:%d] + offset (%d)", vaddr, vaddr+1, m.Offset))
		}
		if m.Seg == isa.SegFlat {
			a.Steps = append(a.Steps, apertures(mp))
		}
	case isa.EncMUBUF, isa.EncMTBUF:
		v := mp.VSharp
		a.Steps = append(a.Steps,
			fmt.Sprintf("address = base 0x%x + soffset 0x%x + offset %d + voffset + index × stride %d", v.Base, mp.SOffset, m.Offset, v.Stride))
		switch {
		case v.Stride == 0:
			a.Steps = append(a.Steps, fmt.Sprintf("in range while offset < num_records − soffset (%d − %d)", v.NumRecords, mp.SOffset))
		case m.IdxEn || v.AddTID:
			a.Steps = append(a.Steps, fmt.Sprintf("in range while index < num_records (%d) and offset < stride (%d)", v.NumRecords, v.Stride))
		default:
			a.Steps = append(a.Steps, fmt.Sprintf("in range while index < num_records (%d)", v.NumRecords))
		}
		if v.Swizzle {
			a.Steps = append(a.Steps, fmt.Sprintf("swizzled: %d-byte elements interleaved %d indices at a time", v.ElemSize, v.IndexStride))
		}
	case isa.EncDS:
		a.Kind = "DS (LDS), next"
		a.Steps = append(a.Steps, fmt.Sprintf("LDS address = vaddr + offset (%d)", m.Offset))
		a.LDS, a.Conflicts = true, mp.Conflicts
	}
	for _, pa := range mp.Addrs {
		a.Lanes = append(a.Lanes, laneView(pa, mp))
	}
	a.Lines = mp.Lines
	a.Steps = append(a.Steps, fmt.Sprintf("%d active lane(s) × %d bytes", bits.OnesCount64(s.EXEC), mp.Size))
}

// predictSMEM renders an SMEM access: the address each dword will come
// from, or what an instruction without one does.
func (d *EmuDebuggee) predictSMEM(f *Frame, p *emu.Preview) {
	a := &f.Addr
	a.Inst, a.Kind, a.Unit = d.instText(p.Index), "SMEM, next", "dword"
	a.Fields = d.smemFields(p.Inst, d.snapshot(), p.Mem)
	mp := p.Mem
	if mp == nil {
		a.Steps = []string{noAddress(p.Inst)}
		if p.Err != nil {
			a.Steps = append(a.Steps, "the step will stop: "+p.Err.Error())
		}
		return
	}
	a.Steps = smemSteps(mp)
	for i, pa := range mp.Addrs {
		l := laneView(pa, mp)
		l.Lane, l.Dest = i, pa.Dest
		a.Lanes = append(a.Lanes, l)
	}
	a.Lines = mp.Lines
}

// smemSteps states an SMEM address from its preview.
func smemSteps(mp *emu.MemPreview) []string {
	st := []string{fmt.Sprintf("address = base + offset = 0x%x + 0x%x = 0x%x", mp.Base, mp.SOff, mp.Base+mp.SOff)}
	if v := mp.VSharp; v != nil {
		size := fmt.Sprint(v.NumRecords)
		if v.Stride != 0 {
			size = fmt.Sprintf("%d × stride %d", v.NumRecords, v.Stride)
		}
		st = append(st, fmt.Sprintf("a dword is in range while it lies below num_records (%s)", size))
	}
	return st
}

// noAddress says what an SMEM instruction without a data address does.
func noAddress(in *isa.Inst) string {
	switch in.Op {
	case isa.S_DCACHE_INV, isa.S_DCACHE_INV_VOL:
		return "no address: invalidates every line of the scalar cache (the next loads miss)"
	case isa.S_DCACHE_WB, isa.S_DCACHE_WB_VOL:
		return "no address: writes every dirty scalar-cache line back to memory"
	case isa.S_MEMTIME, isa.S_MEMREALTIME:
		return "no address: reads a clock counter into its destination"
	}
	return "no address: this instruction reads no memory"
}

// laneView renders one previewed access.
func laneView(pa emu.PreviewAddr, mp *emu.MemPreview) LaneAddr {
	l := LaneAddr{Lane: pa.Lane, Addr: pa.Addr, Active: true, InRange: pa.InRange && pa.Mapped}
	if pa.Space == emu.SpaceLDS {
		l.Addr = pa.Offset // an LDS offset, as the ISA counts it
	}
	switch {
	case !pa.Mapped:
		l.Why = "unmapped: faults"
	case pa.Why == emu.OutLDS && mp.LDSLimit != 0 && mp.LDSLimit < mp.LDSSize:
		l.Why = fmt.Sprintf("at or beyond M0 (0x%x), GFX8's LDS limit", mp.LDSLimit)
	case pa.Why == emu.OutLDS:
		l.Why = fmt.Sprintf("beyond the %d-byte LDS", mp.LDSSize)
	case pa.Why == emu.OutSBuffer:
		l.Why = "out of range: reads 0"
	case !pa.InRange:
		l.Why = "out of range (" + pa.Why.String() + "): load 0, store dropped"
	}
	return l
}

// apertures says where a FLAT instruction's lanes go.
func apertures(mp *emu.MemPreview) string {
	var n [3]int
	for _, pa := range mp.Addrs {
		switch pa.Space {
		case emu.SpaceLDS:
			n[1]++
		case emu.SpaceScratch:
			n[2]++
		default:
			n[0]++
		}
	}
	return fmt.Sprintf("apertures: %d lane(s) to global memory, %d to LDS, %d to scratch", n[0], n[1], n[2])
}

// hasSGPR reports whether in has an SGPR operand in field fl.
func hasSGPR(in *isa.Inst, fl isa.Field) bool {
	for _, o := range in.Args {
		if o.Field == fl && o.Kind == isa.KindSGPR {
			return true
		}
	}
	return false
}

// saddrValue is the value of a GLOBAL instruction's saddr pair.
func saddrValue(in *isa.Inst, s *emu.Snapshot) uint64 {
	for _, o := range in.Args {
		if o.Field == isa.FieldSADDR && o.Kind == isa.KindSGPR && int(o.Reg)+1 < len(s.SGPR) {
			return uint64(s.SGPR[o.Reg]) | uint64(s.SGPR[o.Reg+1])<<32
		}
	}
	return 0
}
