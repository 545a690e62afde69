package emu

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// HWRegs are the hardware registers s_getreg/s_setreg reach.
type HWRegs struct {
	Mode, Status, TrapSts, HWID, GPRAlloc, LDSAlloc, IBSts uint32
}

// Snapshot is a plain copy of a wave's state for a front end.
type Snapshot struct {
	Target isa.Target
	State  RunState
	PC     uint64
	Index  int // instruction index of PC
	Cycle  uint64
	Steps  uint64 // instructions executed

	SGPR        []uint32 // s0–s101
	VCC         uint64
	EXEC        uint64
	FlatScratch uint64
	XnackMask   uint64
	M0          uint32
	TTMP        []uint32 // 12 on GFX8, 16 on GFX9
	TBA, TMA    uint64
	SCC         bool
	VCCZ        bool
	EXECZ       bool
	HW          HWRegs

	VGPR [][64]uint32 // Config.VGPRs registers × 64 lanes

	Counters Counters
	InFlight []InFlight
	// Pending lists the scalar registers an in-flight load will still write
	// (reading them now is a hazard).
	Pending []string

	Cache     []CacheLine
	CacheSets int
	CacheWays int

	// LastAddrs are the memory addresses the last recorded step decoded.
	LastAddrs []LaneAddr
}

// Snapshot copies the wave's state.
func (m *Machine) Snapshot() *Snapshot {
	w := m.w
	s := &Snapshot{Target: w.Target, State: w.State(), PC: m.PC(), Index: w.Pc(), Cycle: w.Clock(), Steps: w.Get64(core.SlotRetired)}
	s.SGPR = append([]uint32(nil), w.S[:102]...)
	s.VCC, s.EXEC = w.Vcc(), w.Exec()
	s.FlatScratch, s.XnackMask = w.Get64(core.CodeFlatScratch), w.Get64(core.CodeXnackMask)
	s.M0 = w.S[core.CodeM0]
	for i := 0; i < w.TtmpCount(); i++ {
		s.TTMP = append(s.TTMP, w.S[w.TtmpCode(i)])
	}
	if w.Target == isa.GFX8 {
		s.TBA, s.TMA = w.Get64(core.CodeTBA), w.Get64(core.CodeTMA)
	} else {
		s.TBA, s.TMA = w.Get64(core.SlotTBA), w.Get64(core.SlotTBA+2)
	}
	s.SCC, s.VCCZ, s.EXECZ = w.Scc(), w.Vcc() == 0, w.Exec() == 0
	s.HW = HWRegs{Mode: w.S[core.SlotMode], Status: w.StatusReg(), TrapSts: w.S[core.SlotTrapSts], HWID: w.S[core.SlotHWID],
		GPRAlloc: w.S[core.SlotGPRAlloc], LDSAlloc: w.S[core.SlotLDSAlloc], IBSts: w.S[core.SlotIBSts]}
	n := m.Config.VGPRs
	if n <= 0 || n > 256 {
		n = 256
	}
	s.VGPR = append([][64]uint32(nil), w.V[:n]...)
	s.Counters = w.Counters()
	for i := range w.Pend {
		s.InFlight = append(s.InFlight, inflight(w, &w.Pend[i]))
	}
	for c := 0; c < 128; c++ {
		if w.PendS[c] > 0 {
			s.Pending = append(s.Pending, core.ScalarName(w.Target, c))
		}
	}
	s.Cache, s.CacheSets, s.CacheWays = w.CacheSnapshot(), w.Cache.Sets, w.Cache.Ways
	s.LastAddrs = append([]LaneAddr(nil), m.last...)
	return s
}
