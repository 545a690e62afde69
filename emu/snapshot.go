package emu

import "github.com/wavedbg/wavedbg/isa"

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
	s := &Snapshot{Target: w.target, State: w.state(), PC: m.PC(), Index: w.pc(), Cycle: w.clock(), Steps: w.get64(slotRetired)}
	s.SGPR = append([]uint32(nil), w.s[:102]...)
	s.VCC, s.EXEC = w.vcc(), w.exec()
	s.FlatScratch, s.XnackMask = w.get64(codeFlatScratch), w.get64(codeXnackMask)
	s.M0 = w.s[codeM0]
	for i := 0; i < w.ttmpCount(); i++ {
		s.TTMP = append(s.TTMP, w.s[w.ttmpCode(i)])
	}
	if w.target == isa.GFX8 {
		s.TBA, s.TMA = w.get64(codeTBA), w.get64(codeTMA)
	} else {
		s.TBA, s.TMA = w.get64(slotTBA), w.get64(slotTBA+2)
	}
	s.SCC, s.VCCZ, s.EXECZ = w.scc(), w.vcc() == 0, w.exec() == 0
	s.HW = HWRegs{Mode: w.s[slotMode], Status: w.statusReg(), TrapSts: w.s[slotTrapSts], HWID: w.s[slotHWID],
		GPRAlloc: w.s[slotGPRAlloc], LDSAlloc: w.s[slotLDSAlloc], IBSts: w.s[slotIBSts]}
	n := m.Config.VGPRs
	if n <= 0 || n > 256 {
		n = 256
	}
	s.VGPR = append([][64]uint32(nil), w.v[:n]...)
	s.Counters = w.counters()
	for i := range w.pend {
		s.InFlight = append(s.InFlight, w.inflight(&w.pend[i]))
	}
	for c := 0; c < 128; c++ {
		if w.pendS[c] > 0 {
			s.Pending = append(s.Pending, scalarName(w.target, c))
		}
	}
	s.Cache, s.CacheSets, s.CacheWays = w.cacheSnapshot(), w.cache.sets, w.cache.ways
	s.LastAddrs = append([]LaneAddr(nil), m.last...)
	return s
}

// statusReg assembles the STATUS hardware register: SCC [0], EXECZ [9],
// VCCZ [10], HALT [13], TRAP [14], VALID [16].
func (w *Wave) statusReg() uint32 {
	var v uint32 = 1 << 16
	if w.scc() {
		v |= 1
	}
	if w.exec() == 0 {
		v |= 1 << 9
	}
	if w.vcc() == 0 {
		v |= 1 << 10
	}
	if w.s[slotHalt] != 0 || w.state() == Halted {
		v |= 1 << 13
	}
	if w.state() == Trapped {
		v |= 1 << 14
	}
	return v
}
