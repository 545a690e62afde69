package tui

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// dfmtBytes is the size of one element of each buffer data format
// (BUF_DATA_FORMAT_8 = 1 … 32_32_32_32 = 14); 0 for invalid formats.
var dfmtBytes = [16]int{0, 1, 2, 2, 4, 4, 4, 4, 4, 4, 4, 8, 8, 12, 16, 0}

// predictVMEM fills the address decoder for a GLOBAL, FLAT, MUBUF or DS
// instruction at the PC, before it executes: every active lane's address
// from the registers as they are now, with the range check and the 64-byte
// lines touched. It reports whether the PC is at one.
func (d *EmuDebuggee) predictVMEM(f *Frame) bool {
	s := d.snapshot()
	if s.State == emu.Ended || s.Index < 0 || s.Index >= len(d.prog.Insts) {
		return false
	}
	in := &d.prog.Insts[s.Index]
	if in.Form == nil {
		return false
	}
	switch in.Enc {
	case isa.EncFLAT, isa.EncMUBUF, isa.EncMTBUF, isa.EncDS:
	default:
		return false
	}
	a := &f.Addr
	a.Inst, a.Kind = d.instText(s.Index), encName(in)+", next"
	vaddr, saddr, size := -1, -1, 4
	var srsrc []uint32
	var soff uint64
	for _, o := range in.Args {
		txt, v, ok := d.regText(o, s)
		switch o.Field {
		case isa.FieldVADDR, isa.FieldADDR:
			if o.Kind == isa.KindVGPR {
				vaddr = int(o.Reg)
				a.Fields = append(a.Fields, Field{o.Field.String(), txt})
			}
		case isa.FieldSADDR:
			if o.Kind == isa.KindSGPR {
				saddr = int(o.Reg)
				a.Fields = append(a.Fields, Field{"saddr", txt})
			}
		case isa.FieldSRSRC:
			if o.Kind == isa.KindSGPR && int(o.Reg)+3 < len(s.SGPR) {
				srsrc = s.SGPR[o.Reg : o.Reg+4]
				a.Fields = append(a.Fields, Field{"srsrc", fmt.Sprintf("s[%d:%d]", o.Reg, o.Reg+3)})
				a.Fields = append(a.Fields, vsharpFields(srsrc)...)
			}
		case isa.FieldSOFFSET:
			if ok {
				soff = v
				a.Fields = append(a.Fields, Field{"soffset", txt})
			}
		case isa.FieldVDATA, isa.FieldVDST, isa.FieldDATA0:
			size = 4 * max(int(o.Width), 1)
		}
	}
	// A format access moves one element of the data format per lane, not
	// four bytes per destination register (8_8_8_8 fills v[8:11] from 4
	// bytes); the format is the V#'s for MUBUF, the instruction's for MTBUF.
	dfmt := uint32(0)
	switch {
	case in.Enc == isa.EncMTBUF:
		dfmt = in.Words[0] >> 19 & 15
	case in.Enc == isa.EncMUBUF && strings.Contains(in.Op.String(), "_format") && srsrc != nil:
		dfmt = srsrc[3] >> 15 & 15
	}
	if n := dfmtBytes[dfmt]; n > 0 {
		size = n
	}
	m := in.Mods
	a.Fields = append(a.Fields, Field{"offset", fmt.Sprint(m.Offset)})
	vreg := func(r, lane int) uint64 {
		if r >= 0 && r < len(s.VGPR) {
			return uint64(s.VGPR[r][lane])
		}
		return 0
	}
	addr := func(lane int) (uint64, bool) { return 0, false }
	switch in.Enc {
	case isa.EncFLAT:
		if saddr >= 0 && saddr+1 < len(s.SGPR) {
			sa := uint64(s.SGPR[saddr]) | uint64(s.SGPR[saddr+1])<<32
			a.Steps = append(a.Steps, fmt.Sprintf("address = saddr + vaddr32 + offset = 0x%x + v%d + %d", sa, vaddr, m.Offset))
			addr = func(l int) (uint64, bool) {
				return sa + vreg(vaddr, l) + uint64(int64(m.Offset)), true
			}
		} else {
			a.Steps = append(a.Steps, fmt.Sprintf("address = v[%d:%d] + offset (%d)", vaddr, vaddr+1, m.Offset))
			addr = func(l int) (uint64, bool) {
				return vreg(vaddr, l) | vreg(vaddr+1, l)<<32 + uint64(int64(m.Offset)), true
			}
		}
	case isa.EncMUBUF, isa.EncMTBUF:
		if srsrc == nil {
			return false
		}
		base := uint64(srsrc[0]) | uint64(srsrc[1]&0xffff)<<32
		stride := uint64(srsrc[1] >> 16 & 0x3fff)
		records := uint64(srsrc[2])
		addTID := srsrc[3]>>23&1 != 0
		a.Steps = append(a.Steps,
			fmt.Sprintf("address = base 0x%x + soffset 0x%x + offset %d + voffset + index × stride %d", base, soff, m.Offset, stride))
		if stride == 0 {
			a.Steps = append(a.Steps, fmt.Sprintf("in range while offset + size ≤ num_records (%d)", records))
		} else {
			a.Steps = append(a.Steps, fmt.Sprintf("in range while index < num_records (%d)", records))
		}
		if srsrc[1]>>31 != 0 {
			a.Steps = append(a.Steps, "swizzled buffer: the addresses below ignore swizzling")
		}
		addr = func(l int) (uint64, bool) {
			var voff, idx uint64
			r := vaddr
			if m.IdxEn {
				idx = vreg(r, l)
				r++
			}
			if m.OffEn {
				voff = vreg(r, l)
			}
			if addTID {
				idx += uint64(l)
			}
			off := voff + uint64(uint32(m.Offset))
			ok := off+uint64(size) <= records
			if stride != 0 {
				ok = idx < records
			}
			return base + soff + off + idx*stride, ok
		}
	case isa.EncDS:
		a.Kind = "DS (LDS), next"
		a.Steps = append(a.Steps, fmt.Sprintf("LDS address = vaddr + offset (%d)", m.Offset))
		addr = func(l int) (uint64, bool) { return uint64(uint32(vreg(vaddr, l) + uint64(uint16(m.Offset)))), true }
	}
	lines := map[uint64]bool{}
	var lds [64]uint32
	for l := 0; l < 64; l++ {
		if s.EXEC>>l&1 == 0 {
			continue
		}
		ad, ok := addr(l)
		why := ""
		switch {
		case in.Enc == isa.EncDS:
			ok = ad+uint64(size) <= uint64(d.sess.Dispatch.GroupLDS)
			lds[l] = uint32(ad)
			if !ok {
				why = fmt.Sprintf("beyond the %d-byte LDS", d.sess.Dispatch.GroupLDS)
			}
		case !ok:
			why = "out of range: load 0, store dropped"
		default:
			ok, _ = d.mem.Mapped(ad, size)
			lines[ad&^63] = true
			if !ok {
				why = "unmapped: faults"
			}
		}
		a.Lanes = append(a.Lanes, LaneAddr{Lane: l, Addr: ad, Active: true, InRange: ok, Why: why})
	}
	if in.Enc == isa.EncDS {
		a.LDS, a.Conflicts = true, emu.BankConflicts(lds, s.EXEC)
	}
	for l := range lines {
		a.Lines = append(a.Lines, l)
	}
	sort.Slice(a.Lines, func(i, j int) bool { return a.Lines[i] < a.Lines[j] })
	a.Steps = append(a.Steps, fmt.Sprintf("%d active lane(s) × %d bytes", bits.OnesCount64(s.EXEC), size))
	return true
}
