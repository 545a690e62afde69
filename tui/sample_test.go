package tui

import (
	"fmt"
	"testing"

	"github.com/wavedbg/wavedbg/tui/sample"
)

// openSample opens the bundled sample as `wavedbg` does: two waves.
func openSample(t testing.TB) *EmuDebuggee {
	t.Helper()
	d, err := Open(sample.CodeObject(), Launch{Kernel: sample.Name, Block: 128})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestShowSample(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("prints frames with -v")
	}
	for _, sz := range [][2]int{{80, 24}, {200, 60}} {
		m := New(openSample(t), Options{Color: ColorPlain})
		m.Update(winSize(sz[0], sz[1]))
		fmt.Println(m.Render())
		m.stepN(4)
		fmt.Println(m.Render())
	}
}
