package emu

import (
	"fmt"
)

// Register reads that need no Snapshot: a breakpoint condition evaluated
// at every hit of a hot loop reads one register, not all 256 VGPRs.

// SGPR reads SGPR n (0–101).
func (m *Machine) SGPR(n int) (uint32, error) {
	if n < 0 || n >= 102 {
		return 0, fmt.Errorf("emu: no SGPR s%d", n)
	}
	return m.w.S[n], nil
}

// TTMP reads trap temporary ttmp n (its scalar code depends on the
// generation, as for SetTTMP).
func (m *Machine) TTMP(n int) (uint32, error) {
	if n < 0 || n >= m.w.TtmpCount() {
		return 0, fmt.Errorf("emu: no ttmp%d on this target (ttmp0-ttmp%d)", n, m.w.TtmpCount()-1)
	}
	return m.w.S[m.w.TtmpCode(n)], nil
}

// VGPR reads one lane of a VGPR below Config.VGPRs (the registers a
// Snapshot holds).
func (m *Machine) VGPR(reg, lane int) (uint32, error) {
	n := m.Config.VGPRs
	if n <= 0 || n > 256 {
		n = 256
	}
	if reg < 0 || reg >= n || lane < 0 || lane > 63 {
		return 0, fmt.Errorf("emu: no v%d lane %d", reg, lane)
	}
	return m.w.V[reg][lane], nil
}

// TTMPCode returns the scalar code of trap temporary ttmp n on the
// machine's generation (GFX8 numbers them from 112, GFX9 from 108), for
// watching it as a scalar slot.
func (m *Machine) TTMPCode(n int) (int, error) {
	if n < 0 || n >= m.w.TtmpCount() {
		return 0, fmt.Errorf("emu: no ttmp%d on this target (ttmp0-ttmp%d)", n, m.w.TtmpCount()-1)
	}
	return m.w.TtmpCode(n), nil
}
