package ref

import (
	"fmt"
	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// ldsLaneAddr records lane's LDS access and counts its bank in b.
func ldsLaneAddr(w *core.Wave, b *BankCounter, lane int, a uint32, size int, ok bool) {
	if w.JOn {
		w.J.Addrs = append(w.J.Addrs, core.LaneAddr{Lane: lane, Addr: core.SharedApertureBase + uint64(a), Size: size, InRange: ok, Mapped: true})
		b.Add(lane, a)
	}
}

// noteBankConflicts notes the extra cycles of the LDS bank conflicts b
// counted.
func noteBankConflicts(w *core.Wave, b *BankCounter) {
	if w.JOn {
		if c := b.Conflicts(); c > 0 {
			w.J.Notes = append(w.J.Notes, fmt.Sprintf("LDS bank conflicts: %d extra cycles", c))
		}
	}
}

// vmemLaneAddr records lane's vector memory access (laneRecord) and
// counts its lines.
func vmemLaneAddr(w *core.Wave, u *VMemUnit, o *VmOp, l *laneLoc, lane int, c *MemCtx) {
	if w.JOn {
		la, _ := u.laneRecord(w, o, l, lane, c)
		w.J.Addrs = append(w.J.Addrs, la)
		u.Lines.Add(la.Addr, c.Size)
	}
}
