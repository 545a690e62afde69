package core

import "github.com/wavedbg/wavedbg/isa"

// VectorMemory executes vector memory instructions (MUBUF, MTBUF, FLAT,
// GLOBAL, SCRATCH, DS, MIMG). A grid run provides one; without one those
// instructions stop the wave with an ExecError. Execute issues the
// operation (through Wave.IssueVector so that VM_CNT counts it in order);
// Complete delivers the result of operation id when it completes.
type VectorMemory interface {
	Execute(w *Wave, inst *isa.Inst) error
	Complete(w *Wave, id uint64)
}

// Env is what a wave's instructions reach beyond the wave: the machine's
// configuration, program, memory and vector memory unit, the latency
// costs, the step history and the scalar unit's bookkeeping. Machine
// embeds it, so its exported fields read as the machine's.
type Env struct {
	Config Config
	Prog   *Program
	Mem    *Memory
	// VectorMemory is the vector memory unit; nil rejects vector
	// memory instructions.
	VectorMemory VectorMemory

	Costs [8]uint32
	Hist  history

	// the allocations the scalar unit last found, most recent first
	// (allocAt)
	allocs [4]allocEnt

	// the scalar-cache lines fill has filled since Reset (Reset clears
	// only these), unless there were more than the cache has lines
	Filled   []int32
	ManyFill bool

	// due is at most the earliest completion cycle of the wave's in-flight
	// operations (retire keeps it): before it, retiring finds nothing.
	Due uint64
}

// allocEnt is an allocation of mem as allocAt remembers it.
type allocEnt struct {
	mem      *Memory
	lo, size uint64
	vol      bool
}

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
