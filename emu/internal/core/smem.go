package core

// AllocAt reports whether addr is mapped and returns the bounds and
// volatility of the allocation holding it. The machine remembers the last
// allocations found, most recent first (allocations are never removed, so
// they stay valid): a kernel's scalar loads alternate between its kernel
// arguments and the dispatch packet, and some read constant buffers too.
func (w *Wave) AllocAt(addr uint64) (lo, size uint64, vol, ok bool) {
	m := w.M
	a := &m.allocs
	if e := &a[0]; addr-e.lo < e.size && e.mem == m.Mem {
		return e.lo, e.size, e.vol, true
	}
	for k := 1; k < len(a); k++ {
		if e := a[k]; addr-e.lo < e.size && e.mem == m.Mem {
			for j := k; j > 0; j-- { // not copy: typedslicecopy is a call
				a[j] = a[j-1]
			}
			a[0] = e
			return e.lo, e.size, e.vol, true
		}
	}
	al, ok := m.Mem.Lookup(addr)
	if ok {
		copy(a[1:], a[:len(a)-1])
		a[0] = allocEnt{m.Mem, al.Addr, al.Size, al.Volatile}
	}
	return al.Addr, al.Size, al.Volatile, ok
}
