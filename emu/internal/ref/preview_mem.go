package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// The memory part of Preview: each function walks the accesses of one
// family in the order its execution records them, through the functions
// the execution calls (locate, at and laneRecord of vmem_lane.go, dsAddr
// and ldsFits of ds_exec.go, smemAddress and dword of smem.go).

// PreviewMem predicts a FLAT, GLOBAL, SCRATCH, MUBUF or MTBUF access.
func (u *VMemUnit) PreviewMem(w *core.Wave, o *VmOp) (*MemPreview, error) {
	if o.Kind == VmCacheOp {
		return nil, nil
	}
	var c MemCtx
	if err := u.context(w, o, &c); err != nil {
		return nil, err
	}
	p := &MemPreview{Size: c.Size}
	if u.Lds != nil {
		p.LDSSize = u.Lds.size
	}
	if o.Fam != FamFlat {
		vs := exportVSharp(&c.Rsrc)
		p.VSharp, p.SOffset = &vs, c.Soff
	}
	for m := w.Exec(); m != 0; m &= m - 1 {
		lane := core.Tz(m)
		l := u.locate(w, o, lane, &c)
		la, why := u.laneRecord(w, o, &l, lane, &c)
		pa := PreviewAddr{LaneAddr: la, Why: why, Space: SpaceGlobal}
		switch {
		case o.Fam != FamFlat:
			pa.Space, pa.Index, pa.AOffset = SpaceBuffer, l.index, l.aoff
			pa.Linear = c.Rsrc.Base + uint64(c.Soff) + uint64(c.Rsrc.linear(l.index, l.aoff))
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

// PreviewDS predicts a DS access: its LDS addresses, as execDS records
// them (ds_permute, ds_bpermute and ds_swizzle access no LDS).
func (u *VMemUnit) PreviewDS(w *core.Wave, o *VmOp) (*MemPreview, error) {
	d := &o.Ds
	if o.Gds || d.Kind == DsGWS {
		return nil, ErrGDS
	}
	lim := u.LdsLimit(w)
	p := &MemPreview{Size: o.Size, LDSSize: u.Lds.size, LDSLimit: lim}
	var banks BankCounter
	add := func(lane int, a uint32, size int) {
		why := InRange
		if !ldsFits(a, size, lim) {
			why = OutLDS
		}
		p.Addrs = append(p.Addrs, PreviewAddr{
			LaneAddr: core.LaneAddr{Lane: lane, Addr: core.SharedApertureBase + uint64(a), Size: size, InRange: why == InRange, Mapped: true},
			Why:      why, Space: SpaceLDS, Offset: uint64(a)})
		if lane >= 0 {
			banks.Add(lane, a)
		}
	}
	parts := 1
	if d.Two {
		parts = 2
	}
	exec := w.Exec()
	switch d.Kind {
	case DsRead, DsWrite, DsAtomic:
		for m := exec; m != 0; m &= m - 1 {
			lane := core.Tz(m)
			if d.Kind == DsAtomic && o.Atom == AtCondXchg32 {
				a := condXchgAddr(w, o, lane)
				add(lane, a, 4)
				add(lane, a+4, 4)
				continue
			}
			for k := 0; k < parts; k++ {
				a := dsAddr(w, o, lane, k)
				add(lane, a, o.Size)
				if d.Kind == DsAtomic && d.Src2 {
					add(lane, Src2Addr(a, uint32(o.Offset), o.Size), o.Size)
				}
			}
		}
	case dsAppend, dsConsume:
		add(-1, dsCountAddr(w, o), 4)
		p.Size = 4
	}
	p.Conflicts = banks.Conflicts()
	return p, nil
}

// PreviewSMEM predicts an SMEM access: the address of each dword and its
// range check (s_dcache_*, s_memtime and s_atc_probe* access no data).
func PreviewSMEM(w *core.Wave, in *core.Instr) (*MemPreview, error) {
	kind, n, _, scratch := smemKind(in)
	switch kind {
	case MLoad, MBufLoad, MStore, MBufStore, MAtomic, MBufAtomic:
	default:
		return nil, nil
	}
	sdata, srcs, ok := smemOperands(in, kind)
	if !ok {
		return nil, nil
	}
	acc, err := smemAddress(w, in, &srcs[0], srcs[1:], smemBuffer(kind), scratch)
	if err != nil {
		return nil, err
	}
	p := &MemPreview{Size: 4, Base: acc.addr - uint64(acc.off), SOff: uint64(acc.off)}
	load := (kind == MLoad || kind == MBufLoad) && sdata.Kind == core.OkS
	if acc.buffer {
		sb := acc.sbase
		vs := DecodeVSharp([4]uint32{w.S[sb], w.S[sb+1], w.S[sb+2], w.S[sb+3]}, w.Target)
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
			mapped, _ = w.M.Mem.Mapped(a, 4)
		}
		pa := PreviewAddr{
			LaneAddr: core.LaneAddr{Lane: -1, Addr: a, Size: 4, InRange: inRange, Mapped: mapped},
			Why:      why, Space: SpaceScalar, Offset: uint64(acc.off) + uint64(4*k)}
		if load {
			pa.Dest = core.ScalarName(w.Target, int(sdata.Reg)+k)
		}
		p.Addrs = append(p.Addrs, pa)
	}
	p.lines()
	return p, nil
}

// exportVSharp is the exported view of v.
func exportVSharp(v *Desc) VSharp {
	return VSharp{v.Base, v.Stride, v.cacheSwz, v.Swizzle, v.NumRecords, v.dstSel, v.nfmt, v.dfmt, v.ElemSize, v.IdxStride, v.AddTid, v.typ}
}
