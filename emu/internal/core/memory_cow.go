package core

// PageLog keeps what a checkpoint needs of memory: the pages written
// since recording began and each one's content before its first write.
// Memory.page marks a page when it hands it out for a store; the callers
// that keep page pointers across accesses got them from page first, so
// every written page is marked before its first write.
type PageLog struct {
	Set  map[uint64]int    // page number → index in pns
	Pns  []uint64          // the marked pages, in marking order
	Orig []*[PageSize]byte // their content before the first write (nil: zero)
	last uint64            // the page marked last (a quick test)
	Zero *[PageSize]byte   // a page of zeros
}

func NewPageLog() *PageLog {
	return &PageLog{Set: map[uint64]int{}, last: ^uint64(0), Zero: new([PageSize]byte)}
}

// mark notes that page pn of m is about to be written.
func (l *PageLog) mark(m *Memory, pn uint64) {
	if pn == l.last {
		return
	}
	l.last = pn
	if _, ok := l.Set[pn]; ok {
		return
	}
	var orig *[PageSize]byte
	if pg := m.LookPage(pn); pg != nil {
		orig = new([PageSize]byte)
		*orig = *pg
	}
	l.Set[pn] = len(l.Pns)
	l.Pns = append(l.Pns, pn)
	l.Orig = append(l.Orig, orig)
}

// OrigOf returns page i's content before its first write.
func (l *PageLog) OrigOf(i int) *[PageSize]byte {
	if o := l.Orig[i]; o != nil {
		return o
	}
	return l.Zero
}

// Bytes returns the memory the log's copies hold.
func (l *PageLog) Bytes() int64 {
	n := int64(len(l.Pns)) * 40
	for _, o := range l.Orig {
		if o != nil {
			n += PageSize
		}
	}
	return n
}

// LookPage returns page pn without creating it or using the page cache.
func (m *Memory) LookPage(pn uint64) *[PageSize]byte {
	if k := pn - SharedApertureBase>>PageBits; m.local != nil && k < ldsPages {
		return m.local[k]
	}
	return m.Pt.Get(pn, false)
}

// TrackPages starts marking written pages (nil stops it).
func (m *Memory) TrackPages(l *PageLog) {
	m.wlog = l
	m.Gen++
}
