package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// execMovRow is execMovFast's general case: execVOP with GPR indexing on,
// else a masked write of the source's row (a VGPR or a special scalar).
func execMovRow(w *core.Wave, in *core.Instr) error {
	if gprIdx(w) {
		return ref.ExecVOP(w, in)
	}
	mask := w.Exec()
	src := srcLanes(w, in, 0, &w.Tmp[0], core.LiveLanes(mask))
	w.Wv(int(in.Dst[0].Reg), mask, src)
	return nil
}
