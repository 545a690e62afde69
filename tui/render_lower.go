package tui

import (
	"fmt"
	"strconv"
	"strings"
)

// renderCounters draws the counter values, the in-flight operations and
// which of them the s_waitcnt at PC waits for.
func renderCounters(v *CountersView, st *Styles, w int) []string {
	out := []string{
		fmt.Sprintf("cycle %d   %s %d  %s %d  %s %d", v.Cycle,
			st.render(st.RegName, "vm_cnt"), v.VM,
			st.render(st.RegName, "lgkm_cnt"), v.LGKM,
			st.render(st.RegName, "exp_cnt"), v.EXP),
	}
	if v.Wait != "" {
		line := st.highlight(v.Wait)
		if v.Stalled {
			line += st.render(st.Stall, fmt.Sprintf("  stalls to cycle %d", v.StallUntil))
		} else {
			line += "  satisfied"
		}
		out = append(out, line)
	}
	if len(v.Ops) == 0 {
		return append(out, st.render(st.Dim, "nothing in flight"))
	}
	out = append(out, st.render(st.Header, "   cnt  done  dest        instruction"))
	for _, op := range v.Ops {
		mark := "  "
		if op.Blocks {
			mark = st.render(st.Stall, "⧗ ")
		}
		out = append(out, fmt.Sprintf("%s %-4s %5d  %-10s  %s", mark, op.Counter, op.Done, op.Dests, st.highlight(op.Inst)))
	}
	return out
}

// renderAddr draws the address decoder.
func renderAddr(v *AddrView, st *Styles, w int) []string {
	if v.Inst == "" {
		return []string{st.render(st.Dim, "no memory instruction yet")}
	}
	out := []string{st.render(st.Header, v.Kind) + "  " + st.highlight(v.Inst)}
	nw := 6
	for _, f := range v.Fields {
		nw = max(nw, cellWidth(f.Name))
	}
	for _, f := range v.Fields {
		out = append(out, "  "+st.render(st.RegName, pad(f.Name, nw, false))+" "+f.Value)
	}
	for _, s := range v.Steps {
		out = append(out, "  "+s)
	}
	if len(v.Lines) > 0 {
		var b strings.Builder
		for i, l := range v.Lines {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString("0x" + hexN(l, 12))
		}
		out = append(out, st.render(st.Header, fmt.Sprintf("%d cache line(s): ", len(v.Lines)))+b.String())
	}
	if v.LDS {
		out = append(out, st.render(st.Header, "LDS bank conflicts: ")+fmt.Sprintf("+%d cycles", v.Conflicts))
	}
	if len(v.Lanes) > 0 {
		unit := v.Unit
		if unit == "" {
			unit = "lane"
		}
		dest, bad, top := false, 0, uint64(0)
		for _, la := range v.Lanes {
			dest = dest || la.Dest != ""
			top = max(top, la.Addr)
			if la.Active && !la.InRange {
				bad++
			}
		}
		sum := fmt.Sprintf("%d %ss", len(v.Lanes), unit)
		if len(v.Lanes) == 1 {
			sum = "1 " + unit
		}
		if bad > 0 {
			sum += fmt.Sprintf(", %d not in range", bad)
		}
		out = append(out, st.render(st.Dim, sum))
		// Addresses as wide as the largest, so the column stays narrow.
		digits := max(len(strconv.FormatUint(top, 16)), 4)
		head := pad(unit, 5, true) + "  " + pad("address", digits+2, false)
		if dest {
			head += "  → sgpr"
		}
		var rows []string
		for _, la := range v.Lanes {
			a := "0x" + hexN(la.Addr, digits)
			if dest {
				a += "  → " + la.Dest
			}
			switch {
			case !la.Active:
				a = st.render(st.Dim, a+"  off")
			case la.InRange:
				a = st.render(st.InRange, a)
			default:
				why := la.Why
				if why == "" {
					why = "out of range"
				}
				a = st.render(st.OutRange, a+"  "+why)
			}
			rows = append(rows, fmt.Sprintf("%5d  %s", la.Lane, a))
		}
		// Side by side in columns (down, then across) when there are many
		// and the pane is wide.
		cw := cellWidth(head)
		for _, r := range rows {
			cw = max(cw, cellWidth(r))
		}
		cols := 1
		if len(rows) > 16 {
			cols = max(1, min((w+3)/(cw+3), len(rows)))
		}
		per := (len(rows) + cols - 1) / cols
		cols = (len(rows) + per - 1) / per
		hl := st.render(st.Header, head)
		for c := 1; c < cols; c++ {
			hl = pad(hl, c*(cw+3)-3, false) + "   " + st.render(st.Header, head)
		}
		out = append(out, hl)
		for i := 0; i < per; i++ {
			var b strings.Builder
			for c := 0; c < cols; c++ {
				if j := c*per + i; j < len(rows) {
					if c > 0 {
						b.WriteString("   ")
					}
					b.WriteString(pad(rows[j], cw, false))
				}
			}
			out = append(out, strings.TrimRight(b.String(), " "))
		}
	}
	return out
}

// renderMemory draws h rows of memory from v.Base (which the caller aligns).
func renderMemory(v *MemView, st *Styles, h, w int) []string {
	out := []string{st.render(st.Header, v.Title) + fmt.Sprintf(" @ 0x%x (%s)", v.Base, v.Format)}
	per := memRowBytes(v, w)
	for off := 0; off < len(v.Data) && len(out) < h; off += per {
		var b strings.Builder
		b.WriteString(st.render(st.Addr, hexN(v.Base+uint64(off), 12)) + " ")
		if v.Dwords || v.Format != FmtHex {
			for i := off; i+4 <= len(v.Data) && i < off+per; i += 4 {
				d := uint32(v.Data[i]) | uint32(v.Data[i+1])<<8 | uint32(v.Data[i+2])<<16 | uint32(v.Data[i+3])<<24
				s := formatValue(d, v.Format)
				if v.Valid != nil && !v.Valid[i] {
					s = pad("??", len(s), true)
				}
				if v.Mark[v.Base+uint64(i)] {
					s = st.render(st.Changed, s)
				}
				b.WriteString(" " + s)
			}
			out = append(out, b.String())
			continue
		}
		var asc strings.Builder
		for i := off; i < off+per && i < len(v.Data); i++ {
			s := hexN(uint64(v.Data[i]), 2)
			c := v.Data[i]
			if v.Valid != nil && !v.Valid[i] {
				s, c = "??", '.'
			}
			if v.Mark[v.Base+uint64(i)] {
				s = st.render(st.Changed, s)
			}
			b.WriteString(" " + s)
			if c < 32 || c > 126 {
				c = '.'
			}
			asc.WriteByte(c)
		}
		out = append(out, b.String()+"  "+asc.String())
	}
	return out
}

// memRowBytes is how many bytes a memory row shows in w cells.
func memRowBytes(v *MemView, w int) int {
	if v.Dwords || v.Format != FmtHex {
		n := min(max(1, (w-13)/(valueWidth(v.Format)+1)), 8)
		for n&(n-1) != 0 {
			n &= n - 1 // a power of two keeps rows aligned
		}
		return 4 * n
	}
	for _, per := range []int{16, 8} {
		if 13+per*3+2+per <= w {
			return per
		}
	}
	return 4
}

// renderWaves draws the wave list: the whole grid in dispatch order. Waves
// outside the loaded work-group are dim and have no PC (they ran before it,
// or have not run); the group column appears when there are several groups.
func renderWaves(v *WavesView, st *Styles, w int) []string {
	multi := v.Multi || multiGroup(v.Rows)
	gw, idw := 5, 2
	for _, r := range v.Rows {
		gw = max(gw, len(groupText(r.Group)))
		idw = max(idw, len(strconv.Itoa(r.ID)))
	}
	head := " " + pad("id", idw, true) + " wave pc     state"
	if multi {
		head = " " + pad("id", idw, true) + " " + pad("group", gw, false) + " wave pc     state"
	}
	out := []string{st.render(st.Header, head)}
	for i, r := range v.Rows {
		pc := hexN(r.PC, 6)
		if r.Idle {
			pc = "------"
		}
		line := fmt.Sprintf(" %*d %4d %s %s", idw, r.ID, r.Wave, pc, r.State)
		if multi {
			line = fmt.Sprintf(" %*d %s %4d %s %s", idw, r.ID, pad(groupText(r.Group), gw, false), r.Wave, pc, r.State)
		}
		switch {
		case i == v.Selected:
			line = st.render(st.Selected, "▸"+line[1:])
		case r.Idle:
			line = st.render(st.Dim, line)
		}
		out = append(out, line)
	}
	return out
}

// multiGroup reports whether rows span several work-groups (the first and
// last differ: rows are in dispatch order).
func multiGroup(rows []WaveRow) bool {
	return len(rows) > 0 && rows[0].Group != rows[len(rows)-1].Group
}

func groupText(g [3]int) string { return fmt.Sprintf("%d,%d,%d", g[0], g[1], g[2]) }
