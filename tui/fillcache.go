package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
)

// The scalar-cache pane's model and the hazard marks on the disassembly,
// copied from emu's snapshot and step records.

// lastEventScan bounds how many earlier steps are searched for a line's
// latest event.
const lastEventScan = 4096

func (d *EmuDebuggee) fillCache(f *Frame, s *emu.Snapshot, last *emu.StepRecord) {
	w := d.w()
	c := &f.Cache
	c.LineSize, c.Hits, c.Misses, c.Evicts = 64, w.hits, w.misses, w.evicts
	events := map[uint64]emu.CacheEventKind{} // the last step's, by line address
	stale := map[uint64]bool{}
	if last != nil {
		inv := 0
		for _, e := range last.Cache {
			switch e.Kind {
			case emu.CacheEvict:
				c.Evicted = append(c.Evicted, e.Addr)
				continue
			case emu.CacheInvalidate:
				inv++
			case emu.CacheWriteBack:
				c.Notes = append(c.Notes, CacheNote{"write-back", fmt.Sprintf("wb: line 0x%x written back (%s)",
					e.Addr, plural(writtenBack(last, e.Addr), "dirty dword"))})
			case emu.CacheDiscard:
				c.Notes = append(c.Notes, CacheNote{"discard", fmt.Sprintf("discard: line 0x%x dropped", e.Addr)})
			}
			events[e.Addr] = e.Kind
		}
		if inv > 0 {
			c.Notes = append(c.Notes, CacheNote{"invalidate", fmt.Sprintf("inv: %s dropped", plural(inv, "line"))})
		}
		for _, r := range last.Stale {
			stale[r.Line] = true
			c.Notes = append(c.Notes, CacheNote{"stale", fmt.Sprintf("stale: 0x%x read 0x%08x from line 0x%x; memory holds 0x%08x",
				r.Addr, r.Cached, r.Line, r.Memory)})
		}
	}
	earlier := w.lastEvents()
	for _, l := range s.Cache {
		ev, ok := events[l.Addr]
		if !l.Valid && !ok {
			continue
		}
		cl := CacheLine{Index: l.Set*max(s.CacheWays, 1) + l.Way, Tag: l.Addr, Valid: l.Valid, Dirty: l.Dirty,
			Volatile: l.Volatile, Age: l.Age, StaleRead: stale[l.Addr]}
		if ok {
			cl.Event = ev.String()
		} else {
			cl.Last = earlier[l.Addr]
		}
		if l.Valid {
			dw := l.Dwords()
			cl.Data = dw[:]
			cl.DirtyDwords, cl.StaleDwords = l.DirtyDwords, l.StaleDwords
		}
		c.Lines = append(c.Lines, cl)
	}
}

// lastEvents finds each line's latest event before the last step, as
// "miss @3" (the step number), searching back at most lastEventScan steps.
func (w *waveRun) lastEvents() map[uint64]string {
	out := map[uint64]string{}
	for i := len(w.recs) - 2; i >= 0 && i >= len(w.recs)-1-lastEventScan; i-- {
		r := w.recs[i]
		for k := len(r.Cache) - 1; k >= 0; k-- {
			e := r.Cache[k]
			if _, ok := out[e.Addr]; !ok {
				out[e.Addr] = fmt.Sprintf("%s @%d", e.Kind, r.Seq)
			}
		}
	}
	return out
}

// writtenBack counts the dwords the write-back of line addr changed in
// memory in step r.
func writtenBack(r *emu.StepRecord, addr uint64) int {
	n := 0
	for _, m := range r.Mem {
		if m.Why == "write-back" && m.Addr == addr {
			n += m.ChangedDwords()
		}
	}
	return n
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// fillHazards marks, for every hazard in the selected wave's kept steps,
// the instruction that read too early and the load it raced.
func (d *EmuDebuggee) fillHazards(f *Frame) {
	for _, r := range d.w().recs {
		for _, h := range r.Hazards {
			if f.Disasm.Hazards == nil {
				f.Disasm.Hazards = map[uint64]HazardMark{}
			}
			m := f.Disasm.Hazards[h.PC]
			m.Read = true
			m.Text = joinNote(m.Text, fmt.Sprintf("read %s early (load 0x%x)", h.Reg, h.PendingPC))
			f.Disasm.Hazards[h.PC] = m
			if h.PendingPC != 0 {
				m := f.Disasm.Hazards[h.PendingPC]
				m.Load = true
				m.Text = joinNote(m.Text, fmt.Sprintf("raced by 0x%x (%s)", h.PC, h.Reg))
				f.Disasm.Hazards[h.PendingPC] = m
			}
		}
	}
}

// joinNote adds s to the notes in t ("; "-separated) unless it is there.
func joinNote(t, s string) string {
	if t == "" {
		return s
	}
	if slices.Contains(strings.Split(t, "; "), s) {
		return t
	}
	return t + "; " + s
}
