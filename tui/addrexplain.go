package tui

import (
	"fmt"
	"sort"
	"strconv"
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
	if d.predictSMEM(f) || d.predictVMEM(f) {
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
		r := d.decodeSMEM(in, s)
		a.Fields, a.Steps = r.fields, r.steps
		a.Kind = "SMEM, last"
		d.laneAddrs(a, rec)
		a.Unit = "dword"
		for i := range a.Lanes {
			a.Lanes[i].Dest = smemDest(r.dst, i)
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
			a.Fields = append(a.Fields, vsharpFields(s.SGPR[o.Reg:o.Reg+4])...)
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
			"address = V#.base + soffset + offset + (offen ? vaddr : 0) + (idxen ? index × stride : 0)",
			"in range when offset < num_records (stride 0) or index < num_records (raw buffers)")
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

// smemDest names the SGPR dword i of an SMEM load lands in.
func smemDest(dst, i int) string {
	if dst < 0 {
		return ""
	}
	return "s" + strconv.Itoa(dst+i)
}

// smemAddr is an SMEM instruction's address computation.
type smemAddr struct {
	fields    []Field
	steps     []string
	base, off uint64
	records   uint64
	dwords    int
	dst       int // first destination SGPR, -1 if none
	buffer    bool
}

// decodeSMEM works out an SMEM instruction's address inputs and formula from
// the registers in s.
func (d *EmuDebuggee) decodeSMEM(in *isa.Inst, s *emu.Snapshot) smemAddr {
	r := smemAddr{records: 1 << 32, dst: -1}
	if !hasField(in, isa.FieldSBASE) {
		// s_dcache_inv, s_dcache_wb, s_memtime…: no address to decode.
		what := "no address: this instruction reads no memory"
		switch mn := in.Op.String(); {
		case strings.HasPrefix(mn, "s_dcache_inv"):
			what = "no address: invalidates every line of the scalar cache (the next loads miss)"
		case strings.HasPrefix(mn, "s_dcache_wb"):
			what = "no address: writes every dirty scalar-cache line back to memory"
		case strings.HasPrefix(mn, "s_mem"):
			what = "no address: reads a clock counter into its destination"
		}
		r.steps = []string{what}
		return r
	}
	buffer := false
	for _, o := range in.Args {
		txt, v, ok := d.regText(o, s)
		switch {
		case o.Field == isa.FieldSDATA || o.Field == isa.FieldSDST:
			if o.Access&isa.Write != 0 {
				r.dwords = int(o.Width)
				if o.Kind == isa.KindSGPR {
					r.dst = int(o.Reg)
				}
			}
		case o.Field == isa.FieldSBASE:
			r.fields = append(r.fields, Field{"sbase", txt})
			if o.Width == 4 && int(o.Reg)+3 < len(s.SGPR) {
				buffer = true
				vs := s.SGPR[o.Reg : o.Reg+4]
				r.base = uint64(vs[0]) | uint64(vs[1]&0xffff)<<32
				r.records = uint64(vs[2])
				r.fields = append(r.fields, vsharpFields(vs)...)
			} else {
				r.base = v &^ 3
			}
		case o.Kind == isa.KindSGPR || o.Kind == isa.KindSpecial:
			if ok && txt != "" {
				r.fields = append(r.fields, Field{o.Field.String(), txt})
				r.off += v
			}
		}
	}
	if in.Mods.Imm || in.Mods.SOE {
		r.off += uint64(uint32(in.Mods.Offset))
		r.fields = append(r.fields, Field{"offset", fmt.Sprintf("0x%x", in.Mods.Offset)})
	}
	if in.Mods.GLC {
		r.fields = append(r.fields, Field{"flags", "glc (misses the scalar cache)"})
	}
	r.off &^= 3
	r.steps = append(r.steps, fmt.Sprintf("address = base + offset = 0x%x + 0x%x = 0x%x", r.base, r.off, r.base+r.off))
	r.buffer = buffer
	if buffer {
		r.steps = append(r.steps, fmt.Sprintf("a dword is in range while its offset < num_records (%d)", r.records))
	}
	return r
}

// predictSMEM fills the decoder for an SMEM instruction at the PC, before
// it executes: the address each dword will come from, from the registers
// as they are now. It reports whether the PC is at one.
func (d *EmuDebuggee) predictSMEM(f *Frame) bool {
	s := d.snapshot()
	if s.State == emu.Ended || s.Index < 0 || s.Index >= len(d.prog.Insts) {
		return false
	}
	in := &d.prog.Insts[s.Index]
	if in.Enc != isa.EncSMEM || in.Form == nil {
		return false
	}
	r := d.decodeSMEM(in, s)
	a := &f.Addr
	a.Inst, a.Kind = d.instText(s.Index), "SMEM, next"
	a.Fields, a.Steps = r.fields, r.steps
	lines := map[uint64]bool{}
	a.Unit = "dword"
	for i := 0; i < r.dwords; i++ {
		ad := r.base + r.off + uint64(4*i)
		mapped, _ := d.mem.Mapped(ad, 4)
		la := LaneAddr{Lane: i, Addr: ad, Active: true, InRange: mapped && r.off+uint64(4*i) < r.records, Dest: smemDest(r.dst, i)}
		switch {
		case r.off+uint64(4*i) >= r.records:
			la.Why = "out of range: reads 0"
		case !mapped:
			la.Why = "unmapped: faults"
		}
		a.Lanes = append(a.Lanes, la)
		lines[ad&^63] = true
	}
	for l := range lines {
		a.Lines = append(a.Lines, l)
	}
	sort.Slice(a.Lines, func(i, j int) bool { return a.Lines[i] < a.Lines[j] })
	return true
}

func hasField(in *isa.Inst, f isa.Field) bool {
	for _, o := range in.Args {
		if o.Field == f {
			return true
		}
	}
	return false
}

// vsharpFields decodes a buffer resource descriptor (V#).
func vsharpFields(v []uint32) []Field {
	base := uint64(v[0]) | uint64(v[1]&0xffff)<<32
	stride := v[1] >> 16 & 0x3fff
	return []Field{
		{"  V#.base", fmt.Sprintf("0x%x", base)},
		{"  V#.stride", fmt.Sprint(stride)},
		{"  V#.swizzle", fmt.Sprint(v[1]>>31 != 0)},
		{"  V#.num_records", fmt.Sprintf("%d (0x%x)", v[2], v[2])},
		{"  V#.dst_sel", fmt.Sprintf("%d %d %d %d", v[3]&7, v[3]>>3&7, v[3]>>6&7, v[3]>>9&7)},
		{"  V#.nfmt/dfmt", fmt.Sprintf("%d/%d", v[3]>>12&7, v[3]>>15&15)},
		{"  V#.add_tid", fmt.Sprint(v[3]>>23&1 != 0)},
	}
}
