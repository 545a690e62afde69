package emu

// pageLog keeps what a checkpoint needs of memory: the pages written
// since recording began and each one's content before its first write.
// Memory.page marks a page when it hands it out for a store; the callers
// that keep page pointers across accesses got them from page first, so
// every written page is marked before its first write.
type pageLog struct {
	set  map[uint64]int    // page number → index in pns
	pns  []uint64          // the marked pages, in marking order
	orig []*[pageSize]byte // their content before the first write (nil: zero)
	last uint64            // the page marked last (a quick test)
	zero *[pageSize]byte   // a page of zeros
}

func newPageLog() *pageLog {
	return &pageLog{set: map[uint64]int{}, last: ^uint64(0), zero: new([pageSize]byte)}
}

// mark notes that page pn of m is about to be written.
func (l *pageLog) mark(m *Memory, pn uint64) {
	if pn == l.last {
		return
	}
	l.last = pn
	if _, ok := l.set[pn]; ok {
		return
	}
	var orig *[pageSize]byte
	if pg := m.lookPage(pn); pg != nil {
		orig = new([pageSize]byte)
		*orig = *pg
	}
	l.set[pn] = len(l.pns)
	l.pns = append(l.pns, pn)
	l.orig = append(l.orig, orig)
}

// origOf returns page i's content before its first write.
func (l *pageLog) origOf(i int) *[pageSize]byte {
	if o := l.orig[i]; o != nil {
		return o
	}
	return l.zero
}

// bytes returns the memory the log's copies hold.
func (l *pageLog) bytes() int64 {
	n := int64(len(l.pns)) * 40
	for _, o := range l.orig {
		if o != nil {
			n += pageSize
		}
	}
	return n
}

// lookPage returns page pn without creating it or using the page cache.
func (m *Memory) lookPage(pn uint64) *[pageSize]byte {
	if k := pn - SharedApertureBase>>pageBits; m.local != nil && k < ldsPages {
		return m.local[k]
	}
	return m.pt.get(pn, false)
}

// trackPages starts marking written pages (nil stops it).
func (m *Memory) trackPages(l *pageLog) {
	m.wlog = l
	m.gen++
}
