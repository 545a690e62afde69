package samples

import "github.com/wavedbg/wavedbg/emu"

// attachVectorMemory gives a test machine the vector memory unit. emu has
// none yet; without one vector memory instructions stop the wave with an
// ExecError and the walkthroughs that need them skip.
func attachVectorMemory(m *emu.Machine) {}
