package tui

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
)

// This file holds the pure rendering helpers: each takes a view model, the
// styles and the space available and returns lines (not yet padded to the
// pane's width; frame does that).

// disasmRow is one screen row of the disassembly: a label or an instruction.
type disasmRow struct {
	label string
	inst  int // index into DisasmView.Lines, or -1 for a label row
}

// disasmRows flattens the disassembly into screen rows.
func disasmRows(v *DisasmView) []disasmRow {
	rows := make([]disasmRow, 0, len(v.Lines)+8)
	for i, l := range v.Lines {
		if l.Label != "" {
			rows = append(rows, disasmRow{label: l.Label, inst: -1})
		}
		rows = append(rows, disasmRow{inst: i})
	}
	return rows
}

// renderDisasm draws rows[top:top+h] of the disassembly.
func renderDisasm(v *DisasmView, rows []disasmRow, st *Styles, top, h, w int) []string {
	out := make([]string, 0, h)
	for r := top; r < len(rows) && len(out) < h; r++ {
		row := rows[r]
		if row.inst < 0 {
			out = append(out, st.render(st.Label, row.label+":"))
			continue
		}
		l := &v.Lines[row.inst]
		bp := " "
		if en, ok := v.Breaks[l.Addr]; ok {
			if en {
				bp = st.render(st.Break, "●")
			} else {
				bp = st.render(st.BreakOff, "○")
			}
		}
		pc := " "
		if v.HasPC && l.Addr == v.PC {
			pc = st.render(st.PC, "▶")
		}
		text := l.Text
		if l.Target != "" {
			text += " <" + l.Target + ">"
		}
		if v.ShowEnc {
			text = pad(text, 40, false) + " ; " + l.Enc
		}
		addr := hexN(l.Addr, 6)
		hz, note := " ", ""
		if m, ok := v.Hazards[l.Addr]; ok {
			// ⚠ in the gutter; the note says which side of the race it is.
			hz, note = st.render(st.Hazard, "⚠"), "  ⚠ "+m.Text
		}
		if row.inst == v.Cursor {
			out = append(out, bp+pc+hz+st.render(st.Cursor, fit(addr+"  "+text+note, w-3)))
			continue
		}
		body := st.highlight(text)
		if v.HasPC && l.Addr == v.PC {
			body = st.render(st.PC, text)
		}
		if note != "" {
			body += st.render(st.Hazard, note)
		}
		out = append(out, bp+pc+hz+st.memo("addr", st.Addr, addr)+"  "+body)
	}
	return out
}

// regMark is the one-character marker after a value: changed by the last
// step or pending a load. It carries the information when colour is off.
func regMark(changed, pending bool) string {
	switch {
	case pending:
		return "~"
	case changed:
		return "*"
	}
	return " "
}

// tourMark is regMark for a register the tour's claims name: "<" when no
// other mark takes the place.
func tourMark(changed, pending, tour bool) string {
	if m := regMark(changed, pending); m != " " || !tour {
		return m
	}
	return "<"
}

// regName styles a register's name: the tour's registers stand out.
func (st *Styles) regName(name string, tour bool) string {
	if tour {
		return st.render(st.Tour, name)
	}
	return st.memo("reg", st.RegName, name)
}

func (st *Styles) regValue(s string, changed, pending bool) string {
	switch {
	case pending:
		return st.render(st.Pending, s)
	case changed:
		return st.render(st.Changed, s)
	}
	return s
}

// renderSGPRs lays the scalar registers out in as many columns as fit w:
// the numbered SGPRs first, then the named ones (vcc_lo, exec_lo, m0, ...)
// in a grid of their own so that their long names do not widen every cell.
func renderSGPRs(v *SGPRView, st *Styles, w int) []string {
	var numbered, named []int
	for i, r := range v.Regs {
		if len(r.Name) > 1 && r.Name[0] == 's' && r.Name[1] >= '0' && r.Name[1] <= '9' {
			numbered = append(numbered, i)
		} else {
			named = append(named, i)
		}
	}
	return append(sgprGrid(v, numbered, st, w), sgprGrid(v, named, st, w)...)
}

// sgprCursorRow is the line renderSGPRs draws v.Cursor on, or -1.
func sgprCursorRow(v *SGPRView, w int) int {
	var numbered, named []int
	for i, r := range v.Regs {
		if len(r.Name) > 1 && r.Name[0] == 's' && r.Name[1] >= '0' && r.Name[1] <= '9' {
			numbered = append(numbered, i)
		} else {
			named = append(named, i)
		}
	}
	rowsOf := func(idx []int) int {
		if len(idx) == 0 {
			return 0
		}
		nameW := 2
		for _, i := range idx {
			nameW = max(nameW, len(v.Regs[i].Name))
		}
		cols := max(1, (w+1)/(nameW+1+valueWidth(v.Format)+1+1))
		return (len(idx) + cols - 1) / cols
	}
	for k, i := range numbered {
		if i == v.Cursor {
			return k % rowsOf(numbered)
		}
	}
	for k, i := range named {
		if i == v.Cursor {
			return rowsOf(numbered) + k%rowsOf(named)
		}
	}
	return -1
}

func sgprGrid(v *SGPRView, idx []int, st *Styles, w int) []string {
	if len(idx) == 0 {
		return nil
	}
	nameW := 2
	for _, i := range idx {
		nameW = max(nameW, len(v.Regs[i].Name))
	}
	cellW := nameW + 1 + valueWidth(v.Format) + 1
	cols := max(1, (w+1)/(cellW+1))
	rows := (len(idx) + cols - 1) / cols
	out := make([]string, rows)
	for k, i := range idx {
		r := v.Regs[i]
		row, col := k%rows, k/rows
		name := st.regName(pad(r.Name, nameW, false), r.Tour)
		val := formatValue(r.Value, v.Format)
		mark := tourMark(r.Changed, r.Pending, r.Tour)
		cell := name + " " + st.regValue(val, r.Changed, r.Pending) + mark
		if i == v.Cursor {
			cell = st.render(st.Selected, pad(r.Name, nameW, false)+" "+val) + mark
		}
		if col > 0 {
			out[row] += " "
		}
		out[row] += cell
	}
	return out
}

// renderMask draws a 64-lane mask, lane 0 first, in groups of 16 (wrapping
// to two rows when w is narrow).
func renderMask(name string, m uint64, st *Styles, w int) []string {
	label := pad(name, 5, false)
	perRow := 64
	if w < 5+64+3 {
		perRow = 32
	}
	if w < 5+32+1 {
		perRow = 16
	}
	var out []string
	for start := 0; start < 64; start += perRow {
		var b strings.Builder
		if start == 0 {
			b.WriteString(st.render(st.RegName, label))
		} else {
			b.WriteString(strings.Repeat(" ", len(label)))
		}
		// One styled run per group of equal bits keeps this cheap.
		for g := start; g < start+perRow; g += 16 {
			if g > start {
				b.WriteByte(' ')
			}
			for l := g; l < g+16; {
				on := m>>l&1 != 0
				e := l
				for e < g+16 && (m>>e&1 != 0) == on {
					e++
				}
				if on {
					b.WriteString(st.memo("on", st.BitOn, strings.Repeat("█", e-l)))
				} else {
					b.WriteString(st.memo("off", st.BitOff, strings.Repeat("·", e-l)))
				}
				l = e
			}
		}
		out = append(out, b.String())
	}
	out[0] += fmt.Sprintf(" %2d", bits.OnesCount64(m))
	return out
}

// vgprColumns says how many lanes fit in w next to the register names.
func vgprColumns(f NumFormat, w int) int {
	return max(1, (w-5)/(compactWidth(f)+1))
}

// vgprBands says how many lane bands fit in h rows: when every register
// fits with room to spare, the grid repeats below itself for the next
// lanes (L0-L7 above, L8-L15 below, …), so a tall pane shows more lanes.
func vgprBands(nregs, cols, h int) int {
	if nregs+1 > h {
		return 1
	}
	return max(1, min(h/(nregs+1), (64+cols-1)/cols))
}

// vgprGrid says how many lanes a band shows and how many bands fit in a
// w×h pane. Bands hold a power of two of lanes (L0-L7, L8-L15, …) so lane
// numbers line up down the pane, unless rounding down would drop more than
// a quarter of the lanes that fit.
func vgprGrid(f NumFormat, nregs, w, h int) (cols, bands int) {
	cols = vgprColumns(f, w)
	if bands = vgprBands(nregs, cols, h); bands > 1 {
		p := cols
		for p&(p-1) != 0 {
			p &= p - 1
		}
		if 4*p >= 3*cols {
			cols = p
		}
		bands = vgprBands(nregs, cols, h)
	}
	return cols, bands
}

// renderVGPRs draws registers [regTop, regTop+h-1) × lanes [laneLeft, …) as
// a grid with a lane header, repeated in bands for further lanes when the
// registers leave room (vgprBands); in all-lanes mode it draws one
// register's 64 lanes eight to a row.
func renderVGPRs(v *VGPRView, st *Styles, regTop, laneLeft, h, w int) []string {
	if len(v.Values) == 0 {
		return []string{"no VGPRs"}
	}
	if v.AllLanes {
		return renderOneVGPR(v, st, w)
	}
	n, bands := vgprGrid(v.Format, len(v.Values), w, h)
	if bands == 1 {
		return vgprBand(v, st, regTop, laneLeft, n, h)
	}
	var out []string
	for b := 0; b < bands && laneLeft+b*n < 64; b++ {
		out = append(out, vgprBand(v, st, 0, laneLeft+b*n, n, len(v.Values)+1)...)
	}
	return out
}

// vgprBand draws one band: a lane header and registers from regTop, lanes
// [laneLeft, laneLeft+n), at most h rows.
func vgprBand(v *VGPRView, st *Styles, regTop, laneLeft, n, h int) []string {
	cw := compactWidth(v.Format)
	var hb strings.Builder
	hb.WriteString("     ")
	for l := laneLeft; l < laneLeft+n && l < 64; l++ {
		h := pad("L"+strconv.Itoa(l), cw, true)
		switch {
		case l == v.LaneCursor:
			h = st.render(st.LaneCursor, h)
		case v.Exec>>l&1 == 0:
			h = st.render(st.Dim, pad("-L"+strconv.Itoa(l), cw, true))
		default:
			h = st.memo("hdr", st.Header, h)
		}
		hb.WriteString(" " + h)
	}
	out := []string{hb.String()}
	for r := regTop; r < len(v.Values) && len(out) < h; r++ {
		var b strings.Builder
		name := pad("v"+strconv.Itoa(r), 4, false)
		tour := r < len(v.Tour) && v.Tour[r]
		if r == v.RegCursor {
			b.WriteString(st.render(st.Selected, name))
		} else {
			b.WriteString(st.regName(name, tour))
		}
		pend := r < len(v.Pending) && v.Pending[r]
		var ch uint64
		if r < len(v.Changed) {
			ch = v.Changed[r]
		}
		b.WriteString(tourMark(ch != 0, pend, tour))
		for l := laneLeft; l < laneLeft+n && l < 64; l++ {
			s := formatCompact(v.Values[r][l], v.Format)
			switch {
			case r == v.RegCursor && l == v.LaneCursor:
				s = st.render(st.Selected, s)
			case v.Exec>>l&1 == 0:
				s = st.render(st.Dim, s)
			default:
				s = st.regValue(s, ch>>l&1 != 0, pend)
			}
			b.WriteString(" " + s)
		}
		out = append(out, b.String())
	}
	return out
}

func renderOneVGPR(v *VGPRView, st *Styles, w int) []string {
	r := v.RegCursor
	cw := compactWidth(v.Format)
	per := 8
	for per > 1 && 6+per*(cw+1) > w {
		per /= 2
	}
	var ch uint64
	if r < len(v.Changed) {
		ch = v.Changed[r]
	}
	pend := r < len(v.Pending) && v.Pending[r]
	out := []string{st.render(st.Header, "v"+strconv.Itoa(r)+" across all lanes") + " " + regMark(ch != 0, pend)}
	for l0 := 0; l0 < 64; l0 += per {
		b := pad("L"+strconv.Itoa(l0), 5, false)
		for l := l0; l < l0+per; l++ {
			s := formatCompact(v.Values[r][l], v.Format)
			switch {
			case l == v.LaneCursor:
				s = st.render(st.Selected, s)
			case v.Exec>>l&1 == 0:
				s = st.render(st.Dim, s)
			default:
				s = st.regValue(s, ch>>l&1 != 0, pend)
			}
			b += " " + s
		}
		out = append(out, b)
	}
	return out
}

// frame draws a pane: a border with the title set into its top edge around
// content, exactly w×h cells.
func frame(title string, content []string, st *Styles, w, h int, focused bool) string {
	if w < 2 || h < 2 {
		return strings.Repeat(strings.Repeat(" ", max(w, 0))+"\n", max(h-1, 0)) + strings.Repeat(" ", max(w, 0))
	}
	bs, ts := st.Border, st.Title
	if focused {
		bs, ts = st.BorderFocused, st.TitleFocused
	}
	b := bs.GetBorderStyle()
	edge := bs.UnsetBorderStyle().UnsetForeground().Foreground(bs.GetBorderTopForeground())
	kind := "edge"
	if focused {
		kind = "edge*"
	}
	paint := func(s string) string { return st.memo(kind, edge, s) }
	inner := w - 2
	t := title
	if lipgloss.Width(t) > inner-2 {
		t = fit(t, max(inner-2, 0))
	}
	top := b.TopLeft
	if t != "" && inner >= 3 {
		top = paint(b.TopLeft+b.Top) + st.render(ts, t) + paint(strings.Repeat(b.Top, max(inner-1-lipgloss.Width(t), 0))+b.TopRight)
	} else {
		top = paint(b.TopLeft + strings.Repeat(b.Top, inner) + b.TopRight)
	}
	var sb strings.Builder
	sb.WriteString(top)
	left, right := paint(b.Left), paint(b.Right)
	for i := 0; i < h-2; i++ {
		line := ""
		if i < len(content) {
			line = content[i]
		}
		sb.WriteString("\n" + left + fit(line, inner) + right)
	}
	sb.WriteString("\n" + paint(b.BottomLeft+strings.Repeat(b.Bottom, inner)+b.BottomRight))
	return sb.String()
}
