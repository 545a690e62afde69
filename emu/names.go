package emu

import (
	"fmt"
	"math/bits"

	"github.com/wavedbg/wavedbg/isa"
)

func tz(m uint64) int { return bits.TrailingZeros64(m) }

// scalarName names scalar operand code c as LLVM prints it.
func scalarName(t isa.Target, c int) string {
	switch {
	case c < 102:
		return fmt.Sprintf("s%d", c)
	case c == 102:
		return "flat_scratch_lo"
	case c == 103:
		return "flat_scratch_hi"
	case c == 104:
		return "xnack_mask_lo"
	case c == 105:
		return "xnack_mask_hi"
	case c == 106:
		return "vcc_lo"
	case c == 107:
		return "vcc_hi"
	case c == 124:
		return "m0"
	case c == 126:
		return "exec_lo"
	case c == 127:
		return "exec_hi"
	case t == isa.GFX8 && c >= 108 && c <= 111:
		return [...]string{"tba_lo", "tba_hi", "tma_lo", "tma_hi"}[c-108]
	case t == isa.GFX8 && c >= 112 && c <= 123:
		return fmt.Sprintf("ttmp%d", c-112)
	case t != isa.GFX8 && c >= 108 && c <= 123:
		return fmt.Sprintf("ttmp%d", c-108)
	}
	return fmt.Sprintf("scalar%d", c)
}

// slotName names any state slot.
func slotName(t isa.Target, i int) string {
	if i < 128 {
		return scalarName(t, i)
	}
	switch i {
	case slotSCC:
		return "scc"
	case slotPC:
		return "pc"
	case slotClock, slotClock + 1:
		return "clock"
	case slotStatus:
		return "state"
	case slotMode:
		return "mode"
	case slotTrapSts:
		return "trapsts"
	case slotHWID:
		return "hw_id"
	case slotGPRAlloc:
		return "gpr_alloc"
	case slotLDSAlloc:
		return "lds_alloc"
	case slotIBSts:
		return "ib_sts"
	case slotTBA:
		return "tba_lo"
	case slotTBA + 1:
		return "tba_hi"
	case slotTBA + 2:
		return "tma_lo"
	case slotTBA + 3:
		return "tma_hi"
	case slotRetired, slotRetired + 1:
		return "retired"
	case slotUse, slotUse + 1:
		return "cache_lru_clock"
	case slotOpID, slotOpID + 1:
		return "next_op_id"
	case slotHalt:
		return "halt"
	}
	return fmt.Sprintf("slot%d", i)
}
