package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// ExecVMEMFast is execVMEM's fast form: the package's own unit runs its
// fast paths; another VectorMemory runs as in execVMEM.
func ExecVMEMFast(w *core.Wave, in *core.Instr) error {
	if u, ok := w.M.VectorMemory.(*ref.VMemUnit); ok && in.In != nil {
		return executeFast(u, w, in.In)
	}
	return ref.ExecVMEM(w, in)
}
