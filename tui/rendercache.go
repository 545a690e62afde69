package tui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
)

// renderCache draws the scalar cache: the totals, the last step's
// invalidations, write-backs and stale reads, then each line with its
// flags, its event and its dwords (dirty ones marked *, stale ones !).
func renderCache(v *CacheView, st *Styles, w int) []string {
	out := []string{
		fmt.Sprintf("%d-byte lines  hits %d  misses %d  evictions %d", v.LineSize, v.Hits, v.Misses, v.Evicts),
	}
	for _, n := range v.Notes {
		out = append(out, st.render(st.cacheEventStyle(n.Kind), n.Text))
	}
	out = append(out, st.render(st.Header, "  # line         VDv age"))
	shown := 0
	for _, l := range v.Lines {
		if !l.Valid && l.Event == "" {
			continue
		}
		shown++
		flag := func(b bool, c string) string {
			if b {
				return c
			}
			return "."
		}
		line := fmt.Sprintf("%3d %012x %s%s%s %d", l.Index, l.Tag,
			flag(l.Valid, "V"), flag(l.Dirty, "D"), flag(l.Volatile, "v"), l.Age)
		switch {
		case l.Event != "":
			line = st.render(st.cacheEventStyle(l.Event), line) + " " + l.Event
		case l.Last != "":
			line += " " + st.render(st.Dim, l.Last)
		}
		if l.StaleRead {
			line += " " + st.render(st.Stale, "← stale")
		}
		out = append(out, line)
		out = append(out, lineDwords(&l, st, w)...)
	}
	for _, t := range v.Evicted {
		out = append(out, st.render(st.Evict, fmt.Sprintf("evicted 0x%012x", t)))
	}
	if shown == 0 {
		out = append(out, st.render(st.Dim, "empty"))
	} else {
		out = append(out, st.render(st.Dim, "V valid · D dirty · v volatile · * dirty dword · ! stale dword"))
	}
	return out
}

// cacheEventStyle is the style of a cache event by its name.
func (st *Styles) cacheEventStyle(kind string) lipgloss.Style {
	switch kind {
	case "hit":
		return st.Hit
	case "miss":
		return st.Miss
	case "evict":
		return st.Evict
	case "invalidate", "discard":
		return st.Inval
	case "write-back":
		return st.WriteBack
	case "stale":
		return st.Stale
	}
	return st.Dim
}

// lineDwords lays a line's dwords out in rows of 1, 2, 4, 8 or 16, as many
// as w allows, each row led by its byte offset; a dirty dword is followed by *, a stale one
// by ! (so the marks survive without colour).
func lineDwords(l *CacheLine, st *Styles, w int) []string {
	const lead, cell = 8, 9 // "    +00 ", "c0de0000*"
	per := 1
	for per*2 <= len(l.Data) && lead+2*per*cell <= w+1 { // the last mark may be cut
		per *= 2
	}
	var out []string
	for k := 0; k < len(l.Data); k += per {
		var b strings.Builder
		fmt.Fprintf(&b, "    +%02x ", 4*k)
		for d := k; d < min(k+per, len(l.Data)); d++ {
			hex := fmt.Sprintf("%08x", l.Data[d])
			switch {
			case l.DirtyDwords>>d&1 != 0:
				b.WriteString(st.render(st.Dirty, hex) + "*")
			case l.StaleDwords>>d&1 != 0:
				b.WriteString(st.render(st.Stale, hex) + "!")
			default:
				b.WriteString(hex + " ")
			}
		}
		out = append(out, strings.TrimRight(b.String(), " "))
	}
	return out
}
