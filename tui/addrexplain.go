package tui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// This file builds the address decoder and the explain line from the
// decoded instruction, the snapshot and the emulator's step records.

func encName(in *isa.Inst) string {
	switch in.Enc {
	case isa.EncSMEM:
		return "SMEM"
	case isa.EncMUBUF:
		return "MUBUF"
	case isa.EncMTBUF:
		return "MTBUF"
	case isa.EncDS:
		return "DS"
	case isa.EncMIMG:
		return "MIMG"
	case isa.EncFLAT:
		switch in.Mods.Seg {
		case isa.SegGlobal:
			return "GLOBAL"
		case isa.SegScratch:
			return "SCRATCH"
		}
		return "FLAT"
	}
	return "memory"
}

// regText names operand o and shows its current value(s).
func (d *EmuDebuggee) regText(o isa.Operand, s *emu.Snapshot) (string, uint64, bool) {
	switch o.Kind {
	case isa.KindSGPR:
		name := fmt.Sprintf("s%d", o.Reg)
		if o.Width > 1 {
			name = fmt.Sprintf("s[%d:%d]", o.Reg, int(o.Reg)+int(o.Width)-1)
		}
		var vals []string
		var v64 uint64
		if o.Width == 2 && int(o.Reg)+1 < len(s.SGPR) {
			v64 = uint64(s.SGPR[o.Reg]) | uint64(s.SGPR[o.Reg+1])<<32
			return fmt.Sprintf("%s = 0x%x", name, v64), v64, true
		}
		for i := 0; i < int(o.Width); i++ {
			r := int(o.Reg) + i
			if r < len(s.SGPR) {
				vals = append(vals, fmt.Sprintf("0x%08x", s.SGPR[r]))
				if i < 2 {
					v64 |= uint64(s.SGPR[r]) << (32 * i)
				}
			}
		}
		return name + " = " + strings.Join(vals, " "), v64, true
	case isa.KindVGPR:
		name := fmt.Sprintf("v%d", o.Reg)
		if o.Width > 1 {
			name = fmt.Sprintf("v[%d:%d]", o.Reg, int(o.Reg)+int(o.Width)-1)
		}
		return name + " (per lane)", 0, false
	case isa.KindSpecial:
		switch isa.Special(o.Reg) {
		case isa.M0:
			return fmt.Sprintf("m0 = 0x%08x", s.M0), uint64(s.M0), true
		case isa.VCCLo:
			return fmt.Sprintf("vcc = 0x%016x", s.VCC), s.VCC, true
		case isa.ExecLo:
			return fmt.Sprintf("exec = 0x%016x", s.EXEC), s.EXEC, true
		}
		return "special", 0, false
	case isa.KindInline, isa.KindLiteral, isa.KindImm:
		v := uint64(o.Imm)
		if o.Kind == isa.KindInline {
			v = isa.InlineValue(o.Reg, isa.TypeU32)
		}
		return fmt.Sprintf("0x%x", v), v, true
	}
	return "", 0, false
}

func (d *EmuDebuggee) fillAddr(f *Frame) {
	w := d.w()
	if d.predict(f) {
		return
	}
	if w.lastMem < 0 || w.lastMem >= len(w.recs) {
		return
	}
	rec := w.recs[w.lastMem]
	in := rec.Inst
	if in == nil {
		return
	}
	s := d.snapshot()
	a := &f.Addr
	a.Inst, a.Kind = d.instText(rec.Index), encName(in)
	if in.Enc == isa.EncSMEM {
		var mp *emu.MemPreview
		if w.smem.rec == rec {
			mp = w.smem.mem
		}
		a.Kind, a.Unit = "SMEM, last", "dword"
		a.Fields = d.smemFields(in, s, mp)
		if mp != nil {
			a.Steps = smemSteps(mp)
		} else {
			a.Steps = []string{"address = base + offset, each with its low two bits clear"}
		}
		d.laneAddrs(a, rec)
		for i := range a.Lanes {
			if mp != nil && i < len(mp.Addrs) {
				a.Lanes[i].Dest = mp.Addrs[i].Dest
			}
			if l := &a.Lanes[i]; !l.InRange && strings.HasPrefix(l.Why, "out of range") {
				l.Why = "out of range: reads 0"
			}
		}
		return
	}
	vals := map[string]uint64{}
	for _, o := range in.Args {
		fname := o.Field.String()
		if o.Access&isa.Write != 0 && o.Access&isa.Read == 0 {
			continue // destinations are not address inputs
		}
		txt, v, ok := d.regText(o, s)
		if txt == "" {
			continue
		}
		if ok {
			vals[fname] = v
		}
		a.Fields = append(a.Fields, Field{fname, txt})
		if fname == "srsrc" && o.Kind == isa.KindSGPR && o.Width == 4 && int(o.Reg)+3 < len(s.SGPR) {
			vs := emu.DecodeVSharp([4]uint32(s.SGPR[o.Reg:o.Reg+4]), d.k.target)
			a.Fields = append(a.Fields, vsharpFields(&vs)...)
		}
	}
	m := in.Mods
	if _, ok := vals["offset"]; !ok {
		a.Fields = append(a.Fields, Field{"offset", fmt.Sprintf("0x%x", m.Offset)})
	}
	var flags []string
	for _, fl := range []struct {
		on   bool
		name string
	}{{m.GLC, "glc"}, {m.SLC, "slc"}, {m.OffEn, "offen"}, {m.IdxEn, "idxen"}, {m.NV, "nv"}, {m.GDS, "gds"}, {m.SOE, "soe"}} {
		if fl.on {
			flags = append(flags, fl.name)
		}
	}
	if len(flags) > 0 {
		a.Fields = append(a.Fields, Field{"flags", strings.Join(flags, " ")})
	}
	switch in.Enc {
	case isa.EncMUBUF, isa.EncMTBUF:
		a.Steps = append(a.Steps,
			"address = V#.base + soffset + offset + (offen ? vaddr : 0) + (idxen ? index × stride : 0), swizzled when V#.swizzle",
			"in range when offset < num_records − soffset (stride 0), else when index < num_records and, with idxen or add_tid, offset < stride")
	case isa.EncFLAT:
		if m.Seg == isa.SegGlobal {
			a.Steps = append(a.Steps, "address = (saddr ? saddr + vaddr32 : vaddr64) + offset, per lane")
		} else {
			a.Steps = append(a.Steps, "address = vaddr64 + offset, per lane (aperture picks LDS, scratch or global)")
		}
	case isa.EncDS:
		a.Steps = append(a.Steps, "address = vaddr + offset (LDS bytes), per lane")
	}
	d.laneAddrs(a, rec)
}

// laneAddrs lists the addresses a step decoded and the cache lines they touch.
func (d *EmuDebuggee) laneAddrs(a *AddrView, rec *emu.StepRecord) {
	lines := map[uint64]bool{}
	ds := rec.Inst != nil && rec.Inst.Enc == isa.EncDS
	var lds [64]uint32
	var active uint64
	for i, la := range rec.Addrs {
		lane := la.Lane
		if lane < 0 {
			lane = i
		}
		v := LaneAddr{Lane: lane, Addr: la.Addr, Active: true, InRange: la.InRange && la.Mapped}
		if ds && la.Addr >= emu.SharedApertureBase {
			v.Addr -= emu.SharedApertureBase // an LDS offset, as the ISA counts it
		}
		switch {
		case !la.Mapped:
			v.Why = "unmapped: faulted"
		case !la.InRange:
			v.Why = "out of range: load 0, store dropped"
		}
		a.Lanes = append(a.Lanes, v)
		if ds {
			if lane < 64 {
				lds[lane], active = uint32(la.Addr), active|1<<uint(lane)
			}
			continue
		}
		for b := la.Addr &^ 63; b < la.Addr+uint64(max(la.Size, 1)); b += 64 {
			lines[b] = true
		}
	}
	if ds {
		a.LDS, a.Conflicts = true, emu.BankConflicts(lds, active)
	}
	for l := range lines {
		a.Lines = append(a.Lines, l)
	}
	sort.Slice(a.Lines, func(i, j int) bool { return a.Lines[i] < a.Lines[j] })
}

// eachLane says which lanes an instruction acts in, for the explain line.
func eachLane(active int) string {
	switch active {
	case 0:
		return "no lane (EXEC is 0)"
	case 1:
		return "the one active lane"
	}
	return fmt.Sprintf("each of the %d active lanes", active)
}

// smemFields shows an SMEM instruction's address operands and their
// values, with the V# of an S_BUFFER access as emu decoded it (mp, which
// may be nil).
func (d *EmuDebuggee) smemFields(in *isa.Inst, s *emu.Snapshot, mp *emu.MemPreview) []Field {
	var fields []Field
	for _, o := range in.Args {
		txt, _, ok := d.regText(o, s)
		switch {
		case o.Field == isa.FieldSDATA || o.Field == isa.FieldSDST:
		case o.Field == isa.FieldSBASE:
			fields = append(fields, Field{"sbase", txt})
			if mp != nil && mp.VSharp != nil {
				fields = append(fields, vsharpFields(mp.VSharp)...)
			}
		case o.Kind == isa.KindSGPR || o.Kind == isa.KindSpecial:
			if ok && txt != "" {
				fields = append(fields, Field{o.Field.String(), txt})
			}
		}
	}
	if in.Mods.Imm || in.Mods.SOE {
		fields = append(fields, Field{"offset", fmt.Sprintf("0x%x", in.Mods.Offset)})
	}
	if in.Mods.GLC {
		fields = append(fields, Field{"flags", "glc (misses the scalar cache)"})
	}
	return fields
}

// vsharpFields shows a buffer resource descriptor (V#) as emu decodes it.
func vsharpFields(v *emu.VSharp) []Field {
	return []Field{
		{"  V#.base", fmt.Sprintf("0x%x", v.Base)},
		{"  V#.stride", fmt.Sprint(v.Stride)},
		{"  V#.swizzle", fmt.Sprint(v.Swizzle)},
		{"  V#.num_records", fmt.Sprintf("%d (0x%x)", v.NumRecords, v.NumRecords)},
		{"  V#.dst_sel", fmt.Sprintf("%d %d %d %d", v.DstSel[0], v.DstSel[1], v.DstSel[2], v.DstSel[3])},
		{"  V#.nfmt/dfmt", fmt.Sprintf("%d/%d", v.NumFormat, v.DataFormat)},
		{"  V#.add_tid", fmt.Sprint(v.AddTID)},
	}
}
