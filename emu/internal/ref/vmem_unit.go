package ref

import (
	"fmt"
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"unsafe"
)

// VMemConfig configures the vector memory unit of a grid run.
type VMemConfig struct {
	// LDSLatency is the completion latency of DS operations in cycles
	// (default 64). Vector memory uses Config.Latency.VectorMem.
	LDSLatency uint64
}

// LdsBlock is a work-group's LDS: size bytes at SharedApertureBase.
type LdsBlock struct {
	size uint32
}

func NewLDS(size uint32) *LdsBlock { return &LdsBlock{size: size} }

// VmResult is a load's data waiting for its operation to complete.
type VmResult struct {
	id    uint64
	vdst  int
	n     int // dwords
	mask  uint64
	d16   uint8 // 0: whole dwords, 1: low halves, 2: high halves
	Data  [4][64]uint32
	InUse bool
}

// VMemUnit is the VectorMemory of one wave in a grid run.
type VMemUnit struct {
	Lds     *LdsBlock
	Cfg     VMemConfig
	Ops     map[*isa.Inst]*VmOp // shared by the grid's waves
	Pending []VmResult
	top     uint64    // above the id of every pending slot in use
	slotOf  [16]uint8 // the slot reserve last gave an id of each residue (a hint for Complete)
	Scratch uint64    // this wave's scratch base (backing + wave offset)

	MapLo, MapHi uint64 // an allocation known to be mapped (allocations never go away during a run)

	opc    [64]vmOpEnt  // a direct-mapped cache in front of ops
	Lines  core.LineSet // the current instruction's cache lines (recorded steps only)
	NoFast bool         // tests: every access takes the general path
	Sink   [4]uint32    // what the whole-wave path's inactive lanes move (fast/vmem_wave.go)
	Addrs  [64]uint64   // the whole-wave path's lane addresses (only its lanes are written)
	LanePg LanePages    // the whole-wave path's page of each lane (fast/vmem_pages.go)
}

// vmOpEnt caches the compiled operation of one instruction.
type vmOpEnt struct {
	in *isa.Inst
	o  *VmOp
}

// Mapped reports whether [addr, addr+n) is mapped, caching the allocation.
func (u *VMemUnit) Mapped(mem *core.Memory, addr uint64, n int) (bool, uint64) {
	end := addr + uint64(n)
	if addr >= u.MapLo && end <= u.MapHi && end >= addr {
		return true, 0
	}
	if a, ok := mem.Lookup(addr); ok && end <= a.End() && end >= addr {
		u.MapLo, u.MapHi = a.Addr, a.End()
		return true, 0
	}
	return mem.Mapped(addr, n)
}

// write stores p (mapped) at addr (memStore).
func (u *VMemUnit) write(w *core.Wave, addr uint64, p []byte, why uint8) { w.MemStore(addr, p, why) }

// Complete implements VectorMemory: it writes a load's data. It looks for
// the operation's slot where reserve last put an operation of its id's low
// bits (slotOf) before looking through them all (a store has none).
func (u *VMemUnit) Complete(w *core.Wave, id uint64) {
	var r *VmResult
	if i := int(u.slotOf[id%uint64(len(u.slotOf))]); i < len(u.Pending) && u.Pending[i].InUse && u.Pending[i].id == id {
		r = &u.Pending[i]
	} else {
		for i := range u.Pending {
			if p := &u.Pending[i]; p.InUse && p.id == id {
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
		w.WvAll(r.vdst, &r.Data[0])
	default:
		w.Wv(r.vdst, r.mask, &r.Data[0])
	}
	if w.M.Hist.Limit == 0 {
		r.InUse = false // no StepBack can re-complete it
	}
}

// write writes the load's data to its registers under its mask.
func (r *VmResult) write(w *core.Wave) {
	for k := 0; k < r.n; k++ {
		reg := r.vdst + k
		if r.d16 != 0 && reg <= 255 {
			var merged [64]uint32
			for m := r.mask; m != 0; m &= m - 1 {
				l := core.Tz(m)
				old := w.V[reg][l]
				if r.d16 == 1 {
					merged[l] = old&0xffff0000 | r.Data[k][l]&0xffff
				} else {
					merged[l] = old&0xffff | r.Data[k][l]<<16
				}
			}
			w.Wv(reg, r.mask, &merged)
			continue
		}
		w.Wv(reg, r.mask, &r.Data[k])
	}
}

// Result reserves a pending result for operation id. Only the first n
// dword arrays are cleared: Complete reads no others.
func (u *VMemUnit) Result(id uint64, vdst, n int, mask uint64, d16 uint8) *VmResult {
	r := u.Reserve(id, vdst, n, mask, d16)
	clear(r.Data[:min(max(n, 0), len(r.Data))])
	return r
}

// Reserve is result without clearing the data, for a caller that writes
// every lane of mask in the first n dword arrays (a whole-wave load). An
// id at or above top, as every new operation's is, can have no slot, so
// the first free one is taken without looking at the rest.
func (u *VMemUnit) Reserve(id uint64, vdst, n int, mask uint64, d16 uint8) *VmResult {
	at := -1 // id's slot, else the first free one: one pass
	if len(u.Pending) == 0 {
		u.top = 0 // no slot in use (startWave let them all go)
	}
	if id >= u.top { // no slot holds id: the first free one
		u.top = id + 1
		for i := range u.Pending {
			if !u.Pending[i].InUse {
				at = i
				break
			}
		}
	} else {
		for i := range u.Pending {
			if p := &u.Pending[i]; !p.InUse {
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
		if at = len(u.Pending); at < cap(u.Pending) {
			u.Pending = u.Pending[:at+1]
		} else {
			u.Pending = append(u.Pending, VmResult{})
		}
	}
	r := &u.Pending[at]
	r.id, r.vdst, r.n, r.mask, r.d16, r.InUse = id, vdst, n, mask, d16, true
	u.slotOf[id%uint64(len(u.slotOf))] = uint8(at)
	return r
}

// Execute implements VectorMemory: the reference form of every vector
// memory instruction.
func (u *VMemUnit) Execute(w *core.Wave, inst *isa.Inst) error {
	o, err := u.Op(w, inst)
	if err != nil {
		return err
	}
	switch {
	case o.Fam == FamDS:
		return u.ExecDS(w, o)
	case o.Kind == VmCacheOp:
		return u.CacheOp(w)
	}
	c, exec, err := u.IssueMem(w, o)
	if err != nil {
		return err
	}
	return u.MemLanes(w, o, exec, &c)
}

// Op returns inst's compiled operation, or the error of an instruction
// the unit does not model.
func (u *VMemUnit) Op(w *core.Wave, inst *isa.Inst) (*VmOp, error) {
	e := &u.opc[uintptr(unsafe.Pointer(inst))/unsafe.Sizeof(*inst)%uintptr(len(u.opc))]
	o := e.o
	if e.in != inst {
		o = u.Compile(inst)
		e.in, e.o = inst, o
	}
	if o == nil {
		return nil, &core.ExecError{PC: w.CurPC(), Op: inst.Op.String(), Msg: "this vector memory instruction is not modelled"}
	}
	return o, nil
}

// CacheOp is buffer_wbinvl1(_vol): the vector L1 is not modelled
// separately from memory, so invalidating it changes nothing; it still
// counts.
func (u *VMemUnit) CacheOp(w *core.Wave) error {
	IssueVector(w, isa.CntVM, 1, 1)
	return nil
}

// Compile returns inst's compiled operation, nil for one the unit does
// not model, compiling it the first time.
func (u *VMemUnit) Compile(inst *isa.Inst) *VmOp {
	o, ok := u.Ops[inst]
	if !ok {
		if o, ok = CompileVM(inst); !ok {
			o = nil
		}
		u.Ops[inst] = o
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
func (u *VMemUnit) flatAccess(w *core.Wave, o *VmOp, lane int) access {
	switch o.Seg {
	case isa.SegGlobal:
		var a uint64
		if o.Saddr >= 0 {
			a = w.Rs64(o.Saddr) + uint64(w.V[o.Vaddr][lane])
		} else {
			a = uint64(w.V[o.Vaddr][lane]) | uint64(w.V[o.Vaddr+1][lane])<<32
		}
		return access{addr: a + uint64(o.Offset)}
	case isa.SegScratch:
		var p uint32
		if o.Saddr >= 0 {
			p += w.Rs(o.Saddr)
		}
		if o.Vaddr >= 0 {
			p += w.V[o.Vaddr][lane]
		}
		return access{addr: uint64(p + uint32(o.Offset)), scratch: true}
	}
	a := uint64(w.V[o.Vaddr][lane]) | uint64(w.V[o.Vaddr+1][lane])<<32
	a += uint64(o.Offset)
	switch {
	case a-core.SharedApertureBase < core.ApertureSize:
		return access{addr: a - core.SharedApertureBase, lds: true}
	case a-core.PrivateApertureBase < core.ApertureSize:
		return access{addr: a - core.PrivateApertureBase, scratch: true}
	}
	return access{addr: a}
}

// ScratchAddr maps byte b of a lane's private offset p to its address in
// the wave's scratch: dwords interleaved across the 64 lanes (element size
// 4, index stride 64), the layout of the private segment buffer V#.
func (u *VMemUnit) ScratchAddr(w *core.Wave, p uint32, lane int) uint64 {
	base := u.Scratch
	if fs := w.Get64(core.CodeFlatScratch); fs != 0 {
		if w.Target == isa.GFX8 {
			base = uint64(uint32(fs>>32)) << 8 // FLAT_SCRATCH_HI: offset in 256-byte units
		} else {
			base = fs
		}
	}
	return base + uint64(p&3) + 4*uint64(lane) + 256*uint64(p>>2)
}

// MemCtx is what execMem decodes once per instruction for its lanes.
type MemCtx struct {
	Rsrc   Desc
	Soff   uint32
	Size   int // bytes per lane
	Ndw    int // dwords returned per lane
	df, nf uint8
	sel    bool // the V#'s DST_SEL applies (MUBUF formats)
	Res    *VmResult
}

// context decodes what execMem needs once per instruction: the V# and
// SOFFSET of a buffer access, the formats, and the sizes.
func (u *VMemUnit) context(w *core.Wave, o *VmOp, c *MemCtx) error {
	if o.Fam != FamFlat {
		c.Rsrc = *o.vs.Read(w, o.Srsrc)
		c.Soff = operandU32(w, &o.soff)
	}
	size := o.Size
	df, nf := o.dfmt, o.nfmt
	if o.Format {
		if !o.Tbuf {
			df, nf = c.Rsrc.dfmt, c.Rsrc.nfmt
			c.sel = true
		}
		if !formatValid(df) {
			return &core.ExecError{PC: w.CurPC(), Op: o.Name, Msg: fmt.Sprintf("invalid data format %d", df)}
		}
		size = BufFormats[df].Bytes
	}
	ndw := (size + 3) / 4
	if o.Format {
		ndw = o.Comps
		if o.D16 {
			ndw = (o.Comps + 1) / 2
		}
	} else if o.D16 {
		ndw = 1
	}
	if o.Kind == VmLoad && o.Tfe {
		ndw++ // TFE returns an extra dword (0: no fault)
	}
	c.Size, c.Ndw, c.df, c.nf = size, ndw, df, nf
	return nil
}

// IssueMem issues a FLAT/GLOBAL/SCRATCH, MUBUF or MTBUF load, store or
// atomic: its context, its counts, and the result slot of one that
// returns data (c.res). memLanes (or a fast form) then moves the lanes.
func (u *VMemUnit) IssueMem(w *core.Wave, o *VmOp) (c MemCtx, exec uint64, err error) {
	exec = w.Exec()
	if err := u.context(w, o, &c); err != nil {
		return c, 0, err
	}
	ndw := c.Ndw
	var res *VmResult
	var id uint64
	lat := uint64(w.M.Config.Latency.VectorMem)
	returns := o.Kind == VmLoad && !o.Lds || o.Kind == VmAtomic && o.Ret
	dst := o.Vdst
	if o.Fam != FamFlat && o.Kind == VmAtomic {
		dst = o.Vdata
	}
	if returns {
		id = IssueVector(w, isa.CntVM, 1, lat)
		// d16 loads of one 16-bit value keep the register's other half; a
		// packed d16 format load of two or more components writes whole
		// dwords.
		d16 := uint8(0)
		if o.D16 && (!o.Format || o.Comps == 1) {
			d16 = 1
			if o.D16hi {
				d16 = 2
			}
		}
		res = u.Result(id, dst, ndw, exec, d16)
	} else {
		IssueVector(w, isa.CntVM, 1, lat)
	}
	if o.Fam == FamFlat && o.Seg == isa.SegFlat {
		IssueVector(w, isa.CntLGKM, 1, lat)
	}
	c.Res = res
	return c, exec, nil
}

// MemLanes moves the lanes of exec of an issued load, store or atomic,
// one lane at a time in lane order.
func (u *VMemUnit) MemLanes(w *core.Wave, o *VmOp, exec uint64, c *MemCtx) error {
	size, res := c.Size, c.Res
	u.Lines.N = 0
	for m := exec; m != 0; m &= m - 1 {
		if err := u.LaneMem(w, o, core.Tz(m), c); err != nil {
			return err
		}
	}
	if res != nil && o.Kind == VmAtomic {
		res.n = size / 4
	}
	w.NoteLines(u.Lines.N)
	return nil
}

// fault stops the wave on an access to unmapped memory.
func (u *VMemUnit) fault(w *core.Wave, lane int, addr uint64, n int, write bool) error {
	return &core.Fault{PC: w.CurPC(), Lane: lane, Addr: addr, Size: n, Write: write, Reason: "unmapped"}
}

// operandU32 reads a scalar operand (SGPR, M0, inline constant, literal).
func operandU32(w *core.Wave, a *isa.Operand) uint32 {
	switch a.Kind {
	case isa.KindSGPR, isa.KindSpecial, isa.KindTTMP:
		if a.Kind == isa.KindTTMP {
			return w.Rs(w.TtmpCode(int(a.Reg)))
		}
		if a.Reg < 128 {
			return w.Rs(int(a.Reg))
		}
	case isa.KindInline:
		return uint32(isa.InlineValue(a.Reg, isa.TypeU32))
	case isa.KindLiteral, isa.KindImm:
		return uint32(a.Imm)
	}
	return 0
}
