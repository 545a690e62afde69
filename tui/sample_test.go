package tui

import (
	"testing"

	"github.com/wavedbg/wavedbg/emu/manifest"

	"github.com/wavedbg/wavedbg/tui/sample"
)

// openSample opens the bundled sample as `wavedbg` does: two waves.
func openSample(t testing.TB) *EmuDebuggee {
	t.Helper()
	d, err := Open(sample.CodeObject(), Launch{Kernel: sample.Name, Manifest: scaleManifest()})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// scaleManifest launches the scale sample as `wavedbg --sample scale` does:
// one work-group of two waves.
func scaleManifest() *manifest.Manifest {
	m, err := manifest.Parse([]byte(sample.Manifest), ".")
	if err != nil {
		panic(err)
	}
	return m
}

// TestPredictAddresses checks the address decoder's prediction for the
// instruction at the PC: SMEM at the start, GLOBAL at the load.
func TestPredictAddresses(t *testing.T) {
	d := openSample(t)
	var f Frame
	d.Fill(&f)
	if f.Addr.Kind != "SMEM, next" || len(f.Addr.Lanes) != 2 || f.Addr.Lanes[1].Addr != f.Addr.Lanes[0].Addr+4 || !f.Addr.Lanes[0].InRange {
		t.Errorf("SMEM prediction: %+v", f.Addr)
	}
	for i := 0; i < 20; i++ {
		if pc, _ := d.PC(); pc == 0x1524 {
			break
		}
		if err := d.Step(); err != nil {
			t.Fatal(err)
		}
	}
	f = Frame{}
	d.Fill(&f)
	var buf uint64
	for _, b := range d.Buffers() {
		if b.Name == "buf" {
			buf = b.Addr
		}
	}
	if f.Addr.Kind != "GLOBAL, next" || len(f.Addr.Lanes) != 64 || f.Addr.Lanes[5].Addr != buf+20 || !f.Addr.Lanes[63].InRange {
		t.Errorf("GLOBAL prediction (buf %#x): %+v", buf, f.Addr)
	}
}
