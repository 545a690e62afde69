package emu

import (
	"fmt"
	"reflect"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

func snapDiff(a, b *Snapshot) string {
	va, vb := reflect.ValueOf(*a), reflect.ValueOf(*b)
	out := ""
	for i := 0; i < va.NumField(); i++ {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			out += fmt.Sprintf("%s: %v / %v\n", va.Type().Field(i).Name, va.Field(i).Interface(), vb.Field(i).Interface())
			if len(out) > 3000 {
				break
			}
		}
	}
	return out
}

func memDiff(a, b *Machine, lo, n uint64) string {
	x, y := make([]byte, n), make([]byte, n)
	a.Mem.ReadRaw(lo, x)
	b.Mem.ReadRaw(lo, y)
	out := ""
	for i := range x {
		if x[i] != y[i] {
			pn := (lo + uint64(i)) >> core.PageBits
			_, in := b.rp.log.Set[pn]
			out += fmt.Sprintf("0x%x: %x / %x (page %x logged %v)\n", lo+uint64(i), x[i], y[i], pn, in)
			if len(out) > 600 {
				break
			}
		}
	}
	return out
}

func rpInfo(m *Machine) string {
	r := m.rp
	out := fmt.Sprintf("pos %d ev %d events:", m.Steps(), r.ev)
	for _, e := range r.events {
		out += fmt.Sprintf(" %d", e.steps)
	}
	out += "\ncks:"
	for _, c := range r.cks {
		out += fmt.Sprintf(" (%d,%d)", c.steps, c.ev)
	}
	return out
}
