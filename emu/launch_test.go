package emu

import (
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// NewLaunch carries the processor's decoding features, so a gfx906 grid
// decodes gfx906's extra VALU opcodes, and refuses processors emu cannot run.
func TestNewLaunch(t *testing.T) {
	tests := []struct {
		file     string
		target   isa.Target
		features isa.Features
		err      string
	}{
		{"vadd-gfx803-v4.co", isa.GFX8, 0, ""},
		{"vadd-gfx900-v5.co", isa.GFX9, 0, ""},
		{"vadd-gfx906-v4.co", isa.GFX9, isa.FeatFMAMix | isa.FeatDL, ""},
		{"vadd-gfx90a-v4.co", 0, 0, "emu: gfx90a (CDNA 2) is not supported; supported: gfx801, gfx802, "},
	}
	for _, tt := range tests {
		co, err := loader.Load("../loader/testdata/co/"+tt.file, loader.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		l, err := NewLaunch(co, &co.Kernels[0])
		co.Close()
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want one containing %q", tt.file, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if l.Target != tt.target || l.Features != tt.features || l.Version != co.Version || len(l.Text) == 0 || len(l.Segments) == 0 {
			t.Errorf("%s: target %v features %v version %d, %d text bytes, %d segments", tt.file, l.Target, l.Features, l.Version, len(l.Text), len(l.Segments))
		}
	}
}
