package main

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// The JSON that wavedbg writes (trace lines, run --json, info --json)
// follows one schema, doc/wavedbg.schema.json: every document carries
// "schema" and "type", keys are snake_case, kinds are names, and every
// address and PC is a "0x…" hex string. The types here are that schema's
// Go side; emu's types are converted, never written as they are.

// jsonSchema is the schema version every JSON document names.
const jsonSchema = "wavedbg/1"

// hexAddr formats an address or PC as the schema does.
func hexAddr(a uint64) string { return fmt.Sprintf("%#x", a) }

// traceRecord is one JSON line of wavedbg trace: a step of one wave.
type traceRecord struct {
	Schema      string        `json:"schema"`
	Type        string        `json:"type"` // "trace-step"
	Wave        uint64        `json:"wave"`
	Seq         uint64        `json:"seq"`
	PC          string        `json:"pc"`
	Inst        string        `json:"inst"`
	NextPC      string        `json:"next_pc"`
	CycleBefore uint64        `json:"cycle_before"`
	CycleAfter  uint64        `json:"cycle_after"`
	Stall       uint64        `json:"stall,omitempty"`
	SRegs       []traceSReg   `json:"sregs,omitempty"`
	VRegs       []traceVReg   `json:"vregs,omitempty"`
	Mem         []traceMem    `json:"mem,omitempty"`
	Counters    traceCounters `json:"counters"`
	Issued      []traceOp     `json:"issued,omitempty"`
	Completed   []traceOp     `json:"completed,omitempty"`
	Addrs       []traceAddr   `json:"addrs,omitempty"`
	Lines       int           `json:"distinct_lines,omitempty"`
	Cache       []traceCache  `json:"cache,omitempty"`
	Hazards     []traceHazard `json:"hazards,omitempty"`
	Notes       []string      `json:"notes,omitempty"`
	State       string        `json:"state"`
	Err         string        `json:"error,omitempty"`
}

// traceSReg is a scalar register or hardware state register a step changed.
type traceSReg struct {
	Name string `json:"name"`
	Old  uint32 `json:"old"`
	New  uint32 `json:"new"`
}

// traceVReg is a VGPR a step wrote: New holds one value per lane, null for
// the lanes not written.
type traceVReg struct {
	Reg   int       `json:"reg"`
	Lanes string    `json:"lanes"` // the written lanes' mask, "0x…"
	New   []*uint32 `json:"new"`
}

// traceMem is a memory range a step wrote.
type traceMem struct {
	Kind string `json:"kind"` // "store", "atomic" or "write-back"
	Addr string `json:"addr"`
	Size int    `json:"size"`
	Data string `json:"data"` // the bytes written, in address order, as hex
}

// traceCounterSet is a wave's outstanding-operation counters.
type traceCounterSet struct {
	VM   int `json:"vm_cnt"`
	LGKM int `json:"lgkm_cnt"`
	EXP  int `json:"exp_cnt"`
}

type traceCounters struct {
	Before traceCounterSet `json:"before"`
	After  traceCounterSet `json:"after"`
}

// traceOp is a memory operation issued or completed by a step.
type traceOp struct {
	ID      uint64   `json:"id"` // unique within the wave
	PC      string   `json:"pc"` // the issuing instruction
	Op      string   `json:"op"`
	Counter string   `json:"counter"` // "vm_cnt", "lgkm_cnt" or "exp_cnt"
	Dest    []string `json:"dest,omitempty"`
	Issue   uint64   `json:"issue_cycle"`
	Done    uint64   `json:"done_cycle"`
}

// traceAddr is an address an instruction accessed.
type traceAddr struct {
	Lane    int    `json:"lane"` // -1 for a scalar access
	Addr    string `json:"addr"`
	Size    int    `json:"size"`
	InRange bool   `json:"in_range"` // false: a buffer range check dropped it
	Mapped  bool   `json:"mapped"`   // false: the access faulted
}

// traceCache is a scalar-cache event.
type traceCache struct {
	Kind  string `json:"kind"` // hit, miss, evict, write-back, invalidate, discard
	Addr  string `json:"addr"` // the line's address
	Set   int    `json:"set"`
	Way   int    `json:"way"`
	Dirty bool   `json:"dirty"`
	GLC   bool   `json:"glc"`
}

// traceHazard is a read of a register whose load was still in flight.
type traceHazard struct {
	Reg       string `json:"reg"`
	PendingPC string `json:"pending_pc"` // the load that will write it
	Done      uint64 `json:"done_cycle"` // when that load completes
}

// stateRegs are the non-SGPR state registers a trace shows; the emulator's
// other slots (its instruction index, clock, retired count, cache clock,
// operation ids) are internal and left out.
var stateRegs = map[string]bool{
	"scc": true, "mode": true, "trapsts": true, "hw_id": true, "gpr_alloc": true,
	"lds_alloc": true, "ib_sts": true, "tba_lo": true, "tba_hi": true,
	"tma_lo": true, "tma_hi": true, "halt": true,
}

func counterSet(c emu.Counters) traceCounterSet { return traceCounterSet{c.VM, c.LGKM, c.EXP} }

// counterName names the counter an operation holds.
func counterName(c isa.Counters) string {
	switch {
	case c&isa.CntVM != 0:
		return "vm_cnt"
	case c&isa.CntLGKM != 0:
		return "lgkm_cnt"
	default:
		return "exp_cnt"
	}
}

func traceOps(ops []emu.InFlight) []traceOp {
	var out []traceOp
	for _, o := range ops {
		out = append(out, traceOp{ID: o.ID, PC: hexAddr(o.PC), Op: strings.ToLower(o.Op.String()),
			Counter: counterName(o.Counter), Dest: o.Dest, Issue: o.Issue, Done: o.Done})
	}
	return out
}

// traceLine converts a step record to its JSON line.
func traceLine(wave uint64, r *emu.StepRecord) traceRecord {
	t := traceRecord{Schema: jsonSchema, Type: "trace-step", Wave: wave, Seq: r.Seq,
		PC: hexAddr(r.PC), NextPC: hexAddr(r.NextPC),
		CycleBefore: r.CycleBefore, CycleAfter: r.CycleAfter, Stall: r.Stall,
		Counters: traceCounters{counterSet(r.CountersBefore), counterSet(r.CountersAfter)},
		Issued:   traceOps(r.Issued), Completed: traceOps(r.Completed),
		Notes: r.Notes, State: r.State.String()}
	if r.Inst != nil {
		t.Inst = r.Inst.String()
	}
	if r.Err != nil {
		t.Err = r.Err.Error()
	}
	for _, s := range r.SRegs {
		if s.Code >= 0 || stateRegs[s.Name] {
			t.SRegs = append(t.SRegs, traceSReg{s.Name, s.Old, s.New})
		}
	}
	for _, v := range r.VRegs {
		tv := traceVReg{Reg: v.Reg, Lanes: hexAddr(v.Lanes), New: make([]*uint32, 64)}
		for m := v.Lanes; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			val := v.New[l]
			tv.New[l] = &val
		}
		t.VRegs = append(t.VRegs, tv)
	}
	for _, m := range r.Mem {
		t.Mem = append(t.Mem, traceMem{Kind: m.Why, Addr: hexAddr(m.Addr), Size: len(m.New), Data: fmt.Sprintf("%x", m.New)})
	}
	for _, a := range r.Addrs {
		t.Addrs = append(t.Addrs, traceAddr{a.Lane, hexAddr(a.Addr), a.Size, a.InRange, a.Mapped})
	}
	if len(r.Addrs) > 0 {
		t.Lines = emu.DistinctLines(r.Addrs)
	}
	for _, c := range r.Cache {
		t.Cache = append(t.Cache, traceCache{c.Kind.String(), hexAddr(c.Addr), c.Set, c.Way, c.Dirty, c.GLC})
	}
	for _, h := range r.Hazards {
		t.Hazards = append(t.Hazards, traceHazard{Reg: h.Reg, PendingPC: hexAddr(h.PendingPC), Done: h.Done})
	}
	return t
}
