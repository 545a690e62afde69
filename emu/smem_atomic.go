package emu

// smemAtomic performs a GFX9 scalar atomic at memory (L2). A cached copy of
// the line is written back if dirty and invalidated so that later scalar
// loads see the result. With GLC the pre-operation value returns to SDATA.
func (w *Wave) smemAtomic(in *instr, sdata *operand, addr uint64, n, atom int, glc bool) error {
	if sdata.kind != okS {
		return execBadOperands(w, in)
	}
	lat := &w.m.Config.Latency
	if i := w.lookup(addr); i >= 0 {
		w.writeBack(i, false)
		l := w.cache.lines[i]
		w.cacheEvent(CacheEvent{Kind: CacheInvalidate, Addr: l.tag, Set: i / w.cache.ways, Way: i % w.cache.ways})
		l.valid = false
		w.setLine(i, l)
	}
	var ob [8]byte
	w.m.Mem.lockAtomic() // other work-groups may run concurrently
	defer w.m.Mem.unlockAtomic()
	w.m.Mem.readRaw(addr, ob[:4*n])
	old := uint64(ob[0]) | uint64(ob[1])<<8 | uint64(ob[2])<<16 | uint64(ob[3])<<24
	if n == 2 {
		old |= (uint64(ob[4]) | uint64(ob[5])<<8 | uint64(ob[6])<<16 | uint64(ob[7])<<24) << 32
	}
	sd := int(sdata.reg)
	var data, cmp uint64
	if n == 1 {
		data = uint64(w.rs(sd))
		if atom == aCmpswap {
			cmp = uint64(w.rs(sd + 1))
		}
	} else {
		data = w.rs64(sd)
		if atom == aCmpswap {
			cmp = w.rs64(sd + 2)
		}
	}
	bitsN := uint(32 * n)
	mask := uint64(1)<<bitsN - 1
	if n == 2 {
		mask = ^uint64(0)
	}
	sx := func(v uint64) int64 { return int64(v<<(64-bitsN)) >> (64 - bitsN) }
	var r uint64
	switch atom {
	case aSwap:
		r = data
	case aCmpswap:
		r = old
		if old == cmp {
			r = data
		}
	case aAdd:
		r = old + data
	case aSub:
		r = old - data
	case aSmin:
		r = old
		if sx(data) < sx(old) {
			r = data
		}
	case aUmin:
		r = min(old, data)
	case aSmax:
		r = old
		if sx(data) > sx(old) {
			r = data
		}
	case aUmax:
		r = max(old, data)
	case aAnd:
		r = old & data
	case aOr:
		r = old | data
	case aXor:
		r = old ^ data
	case aInc:
		r = old + 1
		if old >= data {
			r = 0
		}
	case aDec:
		r = old - 1
		if old == 0 || old > data {
			r = data
		}
	}
	r &= mask
	var nb [8]byte
	for k := 0; k < 4*n; k++ {
		nb[k] = byte(r >> (8 * uint(k)))
	}
	w.memWrite(addr, nb[:4*n], 1)
	op := pendingOp{cnt: cntLGKM, inc: lgkmInc(n), done: w.clock() + uint64(lat.ScalarMiss)}
	if glc {
		if _, ok := w.sdataCheck(sd, n); ok {
			op.dst, op.n = uint16(sd), uint8(n)
			op.data[0], op.data[1] = uint32(old), uint32(old>>32)
		}
	}
	w.issue(op)
	return nil
}
