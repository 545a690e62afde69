package emu

import (
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// TestApertureReadsAsLLVMLowersThem pins how the flat apertures read on
// GFX9, in the two ways LLVM lowers a cast of an LDS or private pointer to
// a flat one: LLVM 19 reads src_shared_base as a 64-bit operand and takes
// its high SGPR; LLVM 15 reads a 16-bit field of HW_REG_SH_MEM_BASES and
// shifts it left by 16. Both must give the aperture's high dword, on the
// stepping path and on the fast path.
func TestApertureReadsAsLLVMLowersThem(t *testing.T) {
	src := []string{
		"s_mov_b64 s[2:3], src_shared_base",
		"s_mov_b64 s[4:5], src_private_base",
		"s_mov_b32 s6, src_shared_base",
		"s_getreg_b32 s8, hwreg(HW_REG_SH_MEM_BASES, 16, 16)",
		"s_lshl_b32 s8, s8, 16",
		"s_getreg_b32 s9, hwreg(HW_REG_SH_MEM_BASES, 0, 16)",
		"s_lshl_b32 s9, s9, 16",
		"s_endpgm",
	}
	shared, private := uint32(core.SharedApertureBase>>32), uint32(core.PrivateApertureBase>>32)
	want := map[int]uint32{2: 0, 3: shared, 4: 0, 5: private, 6: shared, 8: shared, 9: private}
	for _, path := range []string{"step", "run"} {
		m := asmMachine(t, src...)
		if path == "run" {
			run(t, m)
		} else {
			for range len(src) {
				mustStep(t, m)
			}
		}
		for r, v := range want {
			if got := m.w.S[r]; got != v {
				t.Errorf("%s: s%d = %#x, want %#x", path, r, got, v)
			}
		}
	}
}
