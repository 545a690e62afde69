package emu

// The vector memory unit of a grid run (the VectorMemory seam): MUBUF,
// MTBUF, FLAT/GLOBAL/SCRATCH and DS. Addresses are computed and memory is
// read or written when an instruction issues; loaded values reach the VGPRs
// when the operation completes (VM_CNT in order, LGKM for DS), so a missing
// s_waitcnt shows as a stale register. LDS is a 64 KiB window of Memory at
// SharedApertureBase, so stores to it are journaled like any other and
// StepBack undoes them.

import (
	"fmt"
	"unsafe"

	"github.com/wavedbg/wavedbg/isa"
)

// VMemConfig configures the vector memory unit of a grid run.
type VMemConfig struct {
	// LDSLatency is the completion latency of DS operations in cycles
	// (default 64). Vector memory uses Config.Latency.VectorMem.
	LDSLatency uint64
}

// ldsBlock is a work-group's LDS: size bytes at SharedApertureBase.
type ldsBlock struct {
	size uint32
}

func newLDS(size uint32) *ldsBlock { return &ldsBlock{size: size} }

// vmResult is a load's data waiting for its operation to complete.
type vmResult struct {
	id    uint64
	vdst  int
	n     int // dwords
	mask  uint64
	d16   uint8 // 0: whole dwords, 1: low halves, 2: high halves
	data  [4][64]uint32
	inUse bool
}

// vmemUnit is the VectorMemory of one wave in a grid run.
type vmemUnit struct {
	lds     *ldsBlock
	cfg     VMemConfig
	ops     map[*isa.Inst]*vmOp // shared by the grid's waves
	pending []vmResult
	top     uint64    // above the id of every pending slot in use
	slotOf  [16]uint8 // the slot reserve last gave an id of each residue (a hint for Complete)
	scratch uint64    // this wave's scratch base (backing + wave offset)

	mapLo, mapHi uint64 // an allocation known to be mapped (allocations never go away during a run)

	opc    [64]vmOpEnt // a direct-mapped cache in front of ops
	lines  lineSet     // the current instruction's cache lines (recorded steps only)
	noFast bool        // tests: every access takes the general path
	sink   [4]uint32   // what the whole-wave path's inactive lanes move (vmem_wave.go)
	addrs  [64]uint64  // the whole-wave path's lane addresses (only its lanes are written)
}

// vmOpEnt caches the compiled operation of one instruction.
type vmOpEnt struct {
	in *isa.Inst
	o  *vmOp
}

// mapped reports whether [addr, addr+n) is mapped, caching the allocation.
func (u *vmemUnit) mapped(mem *Memory, addr uint64, n int) (bool, uint64) {
	end := addr + uint64(n)
	if addr >= u.mapLo && end <= u.mapHi && end >= addr {
		return true, 0
	}
	if a, ok := mem.Lookup(addr); ok && end <= a.End() && end >= addr {
		u.mapLo, u.mapHi = a.Addr, a.End()
		return true, 0
	}
	return mem.Mapped(addr, n)
}

// write stores p (mapped) at addr (memStore).
func (u *vmemUnit) write(w *Wave, addr uint64, p []byte, why uint8) { w.memStore(addr, p, why) }

// Complete implements VectorMemory: it writes a load's data. It looks for
// the operation's slot where reserve last put an operation of its id's low
// bits (slotOf) before looking through them all (a store has none).
func (u *vmemUnit) Complete(w *Wave, id uint64) {
	var r *vmResult
	if i := int(u.slotOf[id%uint64(len(u.slotOf))]); i < len(u.pending) && u.pending[i].inUse && u.pending[i].id == id {
		r = &u.pending[i]
	} else {
		for i := range u.pending {
			if p := &u.pending[i]; p.inUse && p.id == id {
				r = p
				break
			}
		}
		if r == nil {
			return
		}
	}
	switch {
	case r.n != 1 || r.d16 != 0:
		r.write(w)
	case r.mask == ^uint64(0) && uint(r.vdst) <= 255:
		w.wvAll(r.vdst, &r.data[0])
	default:
		w.wv(r.vdst, r.mask, &r.data[0])
	}
	if w.m.hist.limit == 0 {
		r.inUse = false // no StepBack can re-complete it
	}
}

// write writes the load's data to its registers under its mask.
func (r *vmResult) write(w *Wave) {
	for k := 0; k < r.n; k++ {
		reg := r.vdst + k
		if r.d16 != 0 && reg <= 255 {
			var merged [64]uint32
			for m := r.mask; m != 0; m &= m - 1 {
				l := tz(m)
				old := w.v[reg][l]
				if r.d16 == 1 {
					merged[l] = old&0xffff0000 | r.data[k][l]&0xffff
				} else {
					merged[l] = old&0xffff | r.data[k][l]<<16
				}
			}
			w.wv(reg, r.mask, &merged)
			continue
		}
		w.wv(reg, r.mask, &r.data[k])
	}
}

// result reserves a pending result for operation id. Only the first n
// dword arrays are cleared: Complete reads no others.
func (u *vmemUnit) result(id uint64, vdst, n int, mask uint64, d16 uint8) *vmResult {
	r := u.reserve(id, vdst, n, mask, d16)
	clear(r.data[:min(max(n, 0), len(r.data))])
	return r
}

// reserve is result without clearing the data, for a caller that writes
// every lane of mask in the first n dword arrays (a whole-wave load). An
// id at or above top, as every new operation's is, can have no slot, so
// the first free one is taken without looking at the rest.
func (u *vmemUnit) reserve(id uint64, vdst, n int, mask uint64, d16 uint8) *vmResult {
	at := -1 // id's slot, else the first free one: one pass
	if len(u.pending) == 0 {
		u.top = 0 // no slot in use (startWave let them all go)
	}
	if id >= u.top { // no slot holds id: the first free one
		u.top = id + 1
		for i := range u.pending {
			if !u.pending[i].inUse {
				at = i
				break
			}
		}
	} else {
		for i := range u.pending {
			if p := &u.pending[i]; !p.inUse {
				if at < 0 {
					at = i
				}
			} else if p.id == id {
				at = i
				break
			}
		}
	}
	if at < 0 {
		// reuse a slot startWave let go of: every field is set below
		if at = len(u.pending); at < cap(u.pending) {
			u.pending = u.pending[:at+1]
		} else {
			u.pending = append(u.pending, vmResult{})
		}
	}
	r := &u.pending[at]
	r.id, r.vdst, r.n, r.mask, r.d16, r.inUse = id, vdst, n, mask, d16, true
	u.slotOf[id%uint64(len(u.slotOf))] = uint8(at)
	return r
}

// Execute implements VectorMemory: the reference form of every vector
// memory instruction.
func (u *vmemUnit) Execute(w *Wave, inst *isa.Inst) error {
	o, err := u.op(w, inst)
	if err != nil {
		return err
	}
	switch {
	case o.fam == famDS:
		return u.execDS(w, o)
	case o.kind == vmCacheOp:
		return u.cacheOp(w)
	}
	c, exec, err := u.issueMem(w, o)
	if err != nil {
		return err
	}
	return u.memLanes(w, o, exec, &c)
}

// op returns inst's compiled operation, or the error of an instruction
// the unit does not model.
func (u *vmemUnit) op(w *Wave, inst *isa.Inst) (*vmOp, error) {
	e := &u.opc[uintptr(unsafe.Pointer(inst))/unsafe.Sizeof(*inst)%uintptr(len(u.opc))]
	o := e.o
	if e.in != inst {
		o = u.compile(inst)
		e.in, e.o = inst, o
	}
	if o == nil {
		return nil, &ExecError{PC: w.curPC(), Op: inst.Op.String(), Msg: "this vector memory instruction is not modelled"}
	}
	return o, nil
}

// cacheOp is buffer_wbinvl1(_vol): the vector L1 is not modelled
// separately from memory, so invalidating it changes nothing; it still
// counts.
func (u *vmemUnit) cacheOp(w *Wave) error {
	w.IssueVector(isa.CntVM, 1, 1)
	return nil
}

// compile returns inst's compiled operation, nil for one the unit does
// not model, compiling it the first time.
func (u *vmemUnit) compile(inst *isa.Inst) *vmOp {
	o, ok := u.ops[inst]
	if !ok {
		if o, ok = compileVM(inst); !ok {
			o = nil
		}
		u.ops[inst] = o
	}
	return o
}

// access is one lane's decoded access.
type access struct {
	addr    uint64
	lds     bool // flat access routed to LDS
	scratch bool // flat access routed to private memory: addr is a private offset
}

// flatAccess computes lane's address for a FLAT, GLOBAL or SCRATCH
// operation: a FLAT address in the shared or private aperture goes to LDS
// or scratch.
func (u *vmemUnit) flatAccess(w *Wave, o *vmOp, lane int) access {
	switch o.seg {
	case isa.SegGlobal:
		var a uint64
		if o.saddr >= 0 {
			a = w.rs64(o.saddr) + uint64(w.v[o.vaddr][lane])
		} else {
			a = uint64(w.v[o.vaddr][lane]) | uint64(w.v[o.vaddr+1][lane])<<32
		}
		return access{addr: a + uint64(o.offset)}
	case isa.SegScratch:
		var p uint32
		if o.saddr >= 0 {
			p += w.rs(o.saddr)
		}
		if o.vaddr >= 0 {
			p += w.v[o.vaddr][lane]
		}
		return access{addr: uint64(p + uint32(o.offset)), scratch: true}
	}
	a := uint64(w.v[o.vaddr][lane]) | uint64(w.v[o.vaddr+1][lane])<<32
	a += uint64(o.offset)
	switch {
	case a-SharedApertureBase < apertureSize:
		return access{addr: a - SharedApertureBase, lds: true}
	case a-PrivateApertureBase < apertureSize:
		return access{addr: a - PrivateApertureBase, scratch: true}
	}
	return access{addr: a}
}

// scratchAddr maps byte b of a lane's private offset p to its address in
// the wave's scratch: dwords interleaved across the 64 lanes (element size
// 4, index stride 64), the layout of the private segment buffer V#.
func (u *vmemUnit) scratchAddr(w *Wave, p uint32, lane int) uint64 {
	base := u.scratch
	if fs := w.get64(codeFlatScratch); fs != 0 {
		if w.target == isa.GFX8 {
			base = uint64(uint32(fs>>32)) << 8 // FLAT_SCRATCH_HI: offset in 256-byte units
		} else {
			base = fs
		}
	}
	return base + uint64(p&3) + 4*uint64(lane) + 256*uint64(p>>2)
}

// memCtx is what execMem decodes once per instruction for its lanes.
type memCtx struct {
	rsrc   vsharp
	soff   uint32
	size   int // bytes per lane
	ndw    int // dwords returned per lane
	df, nf uint8
	sel    bool // the V#'s DST_SEL applies (MUBUF formats)
	res    *vmResult
}

// context decodes what execMem needs once per instruction: the V# and
// SOFFSET of a buffer access, the formats, and the sizes.
func (u *vmemUnit) context(w *Wave, o *vmOp, c *memCtx) error {
	if o.fam != famFlat {
		c.rsrc = *o.vs.read(w, o.srsrc)
		c.soff = operandU32(w, &o.soff)
	}
	size := o.size
	df, nf := o.dfmt, o.nfmt
	if o.format {
		if !o.tbuf {
			df, nf = c.rsrc.dfmt, c.rsrc.nfmt
			c.sel = true
		}
		if !formatValid(df) {
			return &ExecError{PC: w.curPC(), Op: o.name, Msg: fmt.Sprintf("invalid data format %d", df)}
		}
		size = bufFormats[df].bytes
	}
	ndw := (size + 3) / 4
	if o.format {
		ndw = o.comps
		if o.d16 {
			ndw = (o.comps + 1) / 2
		}
	} else if o.d16 {
		ndw = 1
	}
	if o.kind == vmLoad && o.tfe {
		ndw++ // TFE returns an extra dword (0: no fault)
	}
	c.size, c.ndw, c.df, c.nf = size, ndw, df, nf
	return nil
}

// issueMem issues a FLAT/GLOBAL/SCRATCH, MUBUF or MTBUF load, store or
// atomic: its context, its counts, and the result slot of one that
// returns data (c.res). memLanes (or a fast form) then moves the lanes.
func (u *vmemUnit) issueMem(w *Wave, o *vmOp) (c memCtx, exec uint64, err error) {
	exec = w.exec()
	if err := u.context(w, o, &c); err != nil {
		return c, 0, err
	}
	ndw := c.ndw
	var res *vmResult
	var id uint64
	lat := uint64(w.m.Config.Latency.VectorMem)
	returns := o.kind == vmLoad && !o.lds || o.kind == vmAtomic && o.ret
	dst := o.vdst
	if o.fam != famFlat && o.kind == vmAtomic {
		dst = o.vdata
	}
	if returns {
		id = w.IssueVector(isa.CntVM, 1, lat)
		// d16 loads of one 16-bit value keep the register's other half; a
		// packed d16 format load of two or more components writes whole
		// dwords.
		d16 := uint8(0)
		if o.d16 && (!o.format || o.comps == 1) {
			d16 = 1
			if o.d16hi {
				d16 = 2
			}
		}
		res = u.result(id, dst, ndw, exec, d16)
	} else {
		w.IssueVector(isa.CntVM, 1, lat)
	}
	if o.fam == famFlat && o.seg == isa.SegFlat {
		w.IssueVector(isa.CntLGKM, 1, lat)
	}
	c.res = res
	return c, exec, nil
}

// memLanes moves the lanes of exec of an issued load, store or atomic,
// one lane at a time in lane order.
func (u *vmemUnit) memLanes(w *Wave, o *vmOp, exec uint64, c *memCtx) error {
	size, res := c.size, c.res
	u.lines.n = 0
	for m := exec; m != 0; m &= m - 1 {
		if err := u.laneMem(w, o, tz(m), c); err != nil {
			return err
		}
	}
	if res != nil && o.kind == vmAtomic {
		res.n = size / 4
	}
	w.noteLines(u.lines.n)
	return nil
}

// fault stops the wave on an access to unmapped memory.
func (u *vmemUnit) fault(w *Wave, lane int, addr uint64, n int, write bool) error {
	return &Fault{PC: w.curPC(), Lane: lane, Addr: addr, Size: n, Write: write, Reason: "unmapped"}
}

// operandU32 reads a scalar operand (SGPR, M0, inline constant, literal).
func operandU32(w *Wave, a *isa.Operand) uint32 {
	switch a.Kind {
	case isa.KindSGPR, isa.KindSpecial, isa.KindTTMP:
		if a.Kind == isa.KindTTMP {
			return w.rs(w.ttmpCode(int(a.Reg)))
		}
		if a.Reg < 128 {
			return w.rs(int(a.Reg))
		}
	case isa.KindInline:
		return uint32(isa.InlineValue(a.Reg, isa.TypeU32))
	case isa.KindLiteral, isa.KindImm:
		return uint32(a.Imm)
	}
	return 0
}
