package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// helpOverlay is the full help generated from the key map and the command
// table, centred; j/k scroll it when it does not fit.
func (m *Model) helpOverlay(w, h int) []string {
	hm := m.help
	hm.SetWidth(0)
	groups := m.common.Keys.FullHelp()
	text := hm.FullHelpView(groups)
	if lipgloss.Width(text) > w-4 {
		// Two rows of two key groups each.
		text = hm.FullHelpView(groups[:2]) + "\n\n" + hm.FullHelpView(groups[2:])
	}
	text += "\n\n" + commandHelp + "\n\nj/k scroll · any other key closes this help"
	lines := wrapHelp(strings.Split(text, "\n"), w-4)
	bw := 0
	for _, l := range lines {
		bw = max(bw, lipgloss.Width(l))
	}
	bw, bh := min(bw+4, w), min(len(lines)+2, h)
	m.helpTop = min(m.helpTop, max(len(lines)-(bh-2), 0))
	title := " help "
	if len(lines) > bh-2 {
		// Not all of it fits: say how to see the rest where it shows.
		title = fmt.Sprintf(" help %d-%d/%d  j/k scroll · other keys close ", m.helpTop+1, min(m.helpTop+bh-2, len(lines)), len(lines))
	}
	box := frame(title, prefixAll(lines[m.helpTop:], " "), m.common.Styles, bw, bh, true)
	return strings.Split(lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, box), "\n")
}

// wrapHelp breaks lines wider than w at a space, continuing them in the
// description column of the command list.
func wrapHelp(lines []string, w int) []string {
	const indent = 27
	var out []string
	for _, l := range lines {
		for lipgloss.Width(l) > w && w > indent+10 {
			r := []rune(l)
			cut := -1
			for i := min(w, len(r)-1); i > indent; i-- {
				if r[i] == ' ' {
					cut = i
					break
				}
			}
			if cut < 0 {
				break
			}
			out = append(out, string(r[:cut]))
			l = strings.Repeat(" ", indent) + strings.TrimLeft(string(r[cut:]), " ")
		}
		out = append(out, l)
	}
	return out
}

func prefixAll(ls []string, p string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = p + l
	}
	return out
}

// dedupe drops bindings whose help key repeats an earlier one.
func dedupe(bs []key.Binding) []key.Binding {
	seen := map[string]bool{}
	out := bs[:0:0]
	for _, b := range bs {
		if k := b.Help().Key; !seen[k] {
			seen[k] = true
			out = append(out, b)
		}
	}
	return out
}
