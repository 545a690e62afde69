package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// OpCache is what an operation's whole-wave path last touched in a
// Memory: an allocation and a page, and the shape that moved the wave.
// Allocations and pages never go away, and a worker's waves share its
// operations (and one Memory view), so the next wave, whose addresses
// usually follow, finds them here.
type OpCache struct {
	Mem    *core.Memory
	Lo, Hi uint64 // the allocation
	Pn     uint64
	Pg     *[core.PageSize]byte
	Gen    uint32 // mem.gen when pg was cached
	Shape  uint8  // the shape that took the last wave (shapeRun at first)
	Probe  uint8  // waves that started past shapeRun, counted for fastWave's look back
	Quick  bool   // the last wave was a run quickRun may take the next one of (vmem_run.go)
}
