package emu

// The memory part of Preview: each function walks the accesses of one
// family in the order its execution records them, through the functions
// the execution calls (locate, at and laneRecord of vmem_lane.go, dsAddr
// and ldsFits of ds_exec.go, smemAddress and dword of smem.go).

// previewMem predicts a FLAT, GLOBAL, SCRATCH, MUBUF or MTBUF access.
func (u *vmemUnit) previewMem(w *Wave, o *vmOp) (*MemPreview, error) {
	if o.kind == vmCacheOp {
		return nil, nil
	}
	var c memCtx
	if err := u.context(w, o, &c); err != nil {
		return nil, err
	}
	p := &MemPreview{Size: c.size}
	if u.lds != nil {
		p.LDSSize = u.lds.size
	}
	if o.fam != famFlat {
		vs := exportVSharp(&c.rsrc)
		p.VSharp, p.SOffset = &vs, c.soff
	}
	for m := w.exec(); m != 0; m &= m - 1 {
		lane := tz(m)
		l := u.locate(w, o, lane, &c)
		la, why := u.laneRecord(w, o, &l, lane, &c)
		pa := PreviewAddr{LaneAddr: la, Why: why, Space: SpaceGlobal}
		switch {
		case o.fam != famFlat:
			pa.Space, pa.Index, pa.AOffset = SpaceBuffer, l.index, l.aoff
			pa.Linear = c.rsrc.base + uint64(c.soff) + uint64(c.rsrc.linear(l.index, l.aoff))
		case l.lds:
			pa.Space, pa.Offset = SpaceLDS, l.addr
		case l.scratch:
			pa.Space, pa.Offset = SpaceScratch, l.addr
		}
		p.Addrs = append(p.Addrs, pa)
	}
	p.lines()
	return p, nil
}

// previewDS predicts a DS access: its LDS addresses, as execDS records
// them (ds_permute, ds_bpermute and ds_swizzle access no LDS).
func (u *vmemUnit) previewDS(w *Wave, o *vmOp) (*MemPreview, error) {
	d := &o.ds
	if o.gds || d.kind == dsGWS {
		return nil, ErrGDS
	}
	lim := u.ldsLimit(w)
	p := &MemPreview{Size: o.size, LDSSize: u.lds.size, LDSLimit: lim}
	var banks bankCounter
	add := func(lane int, a uint32, size int) {
		why := InRange
		if !ldsFits(a, size, lim) {
			why = OutLDS
		}
		p.Addrs = append(p.Addrs, PreviewAddr{
			LaneAddr: LaneAddr{Lane: lane, Addr: SharedApertureBase + uint64(a), Size: size, InRange: why == InRange, Mapped: true},
			Why:      why, Space: SpaceLDS, Offset: uint64(a)})
		if lane >= 0 {
			banks.add(lane, a)
		}
	}
	parts := 1
	if d.two {
		parts = 2
	}
	exec := w.exec()
	switch d.kind {
	case dsRead, dsWrite, dsAtomic:
		for m := exec; m != 0; m &= m - 1 {
			lane := tz(m)
			if d.kind == dsAtomic && o.atom == atCondXchg32 {
				a := condXchgAddr(w, o, lane)
				add(lane, a, 4)
				add(lane, a+4, 4)
				continue
			}
			for k := 0; k < parts; k++ {
				a := dsAddr(w, o, lane, k)
				add(lane, a, o.size)
				if d.kind == dsAtomic && d.src2 {
					add(lane, src2Addr(a, uint32(o.offset), o.size), o.size)
				}
			}
		}
	case dsAppend, dsConsume:
		add(-1, dsCountAddr(w, o), 4)
		p.Size = 4
	}
	p.Conflicts = banks.conflicts()
	return p, nil
}

// previewSMEM predicts an SMEM access: the address of each dword and its
// range check (s_dcache_*, s_memtime and s_atc_probe* access no data).
func (w *Wave) previewSMEM(in *instr) (*MemPreview, error) {
	kind, n, _, scratch := smemKind(in)
	switch kind {
	case mLoad, mBufLoad, mStore, mBufStore, mAtomic, mBufAtomic:
	default:
		return nil, nil
	}
	sdata, srcs, ok := smemOperands(in, kind)
	if !ok {
		return nil, nil
	}
	acc, err := w.smemAddress(in, &srcs[0], srcs[1:], smemBuffer(kind), scratch)
	if err != nil {
		return nil, err
	}
	p := &MemPreview{Size: 4, Base: acc.addr - uint64(acc.off), SOff: uint64(acc.off)}
	load := (kind == mLoad || kind == mBufLoad) && sdata.kind == okS
	if acc.buffer {
		sb := acc.sbase
		vs := DecodeVSharp([4]uint32{w.s[sb], w.s[sb+1], w.s[sb+2], w.s[sb+3]}, w.target)
		p.VSharp = &vs
	}
	for k := 0; k < n; k++ {
		a, inRange := acc.dword(k)
		why := InRange
		if !inRange {
			why = OutSBuffer
		}
		mapped := true
		if inRange {
			mapped, _ = w.m.Mem.Mapped(a, 4)
		}
		pa := PreviewAddr{
			LaneAddr: LaneAddr{Lane: -1, Addr: a, Size: 4, InRange: inRange, Mapped: mapped},
			Why:      why, Space: SpaceScalar, Offset: uint64(acc.off) + uint64(4*k)}
		if load {
			pa.Dest = scalarName(w.target, int(sdata.reg)+k)
		}
		p.Addrs = append(p.Addrs, pa)
	}
	p.lines()
	return p, nil
}

// exportVSharp is the exported view of v.
func exportVSharp(v *vsharp) VSharp {
	return VSharp{v.base, v.stride, v.cacheSwz, v.swizzle, v.numRecords, v.dstSel, v.nfmt, v.dfmt, v.elemSize, v.idxStride, v.addTid, v.typ}
}
