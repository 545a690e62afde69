package core

import (
	"fmt"
	"github.com/wavedbg/wavedbg/isa"
	"math/bits"
)

func Tz(m uint64) int { return bits.TrailingZeros64(m) }

// ScalarName names scalar operand code c as LLVM prints it.
func ScalarName(t isa.Target, c int) string {
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

// SlotName names any state slot.
func SlotName(t isa.Target, i int) string {
	if i < 128 {
		return ScalarName(t, i)
	}
	switch i {
	case SlotSCC:
		return "scc"
	case SlotPC:
		return "pc"
	case SlotClock, SlotClock + 1:
		return "clock"
	case SlotStatus:
		return "state"
	case SlotMode:
		return "mode"
	case SlotTrapSts:
		return "trapsts"
	case SlotHWID:
		return "hw_id"
	case SlotGPRAlloc:
		return "gpr_alloc"
	case SlotLDSAlloc:
		return "lds_alloc"
	case SlotIBSts:
		return "ib_sts"
	case SlotTBA:
		return "tba_lo"
	case SlotTBA + 1:
		return "tba_hi"
	case SlotTBA + 2:
		return "tma_lo"
	case SlotTBA + 3:
		return "tma_hi"
	case SlotRetired, SlotRetired + 1:
		return "retired"
	case SlotUse, SlotUse + 1:
		return "cache_lru_clock"
	case slotOpID, slotOpID + 1:
		return "next_op_id"
	case SlotHalt:
		return "halt"
	}
	return fmt.Sprintf("slot%d", i)
}
