package isa

import (
	"os"
	"testing"

	"github.com/wavedbg/wavedbg/loader"
)

// TestDebianKernelsReachable: in Debian's librocsparse and librocrand,
// every kernel of every GFX8/GFX9 code object, in whichever bundle, is
// found by name (LoadOptions Kernel and Bundle) and its code decodes
// without an invalid word.
func TestDebianKernelsReachable(t *testing.T) {
	var objects, kernels, insts int
	for _, lib := range []string{"/usr/lib/x86_64-linux-gnu/librocsparse.so.0", "/usr/lib/x86_64-linux-gnu/librocrand.so.1"} {
		if _, err := os.Stat(lib); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s: %v (install librocsparse0 librocrand1)", lib, err)
			}
			t.Skipf("%s: %v", lib, err)
		}
		c, err := loader.OpenContainer(lib)
		if err != nil {
			t.Fatal(err)
		}
		for i := range c.Entries {
			e := &c.Entries[i]
			if !e.IsAMDGPU() || CheckSupported(e.Processor()) != nil {
				continue
			}
			// Decode each code object once; Find then knows its kernels.
			co, err := loader.LoadFrom(c, loader.LoadOptions{Target: e.TargetID, Bundle: &e.Bundle})
			if err != nil || co.Entry != e {
				t.Fatalf("%s[%s]: %v", lib, e.ID, err)
			}
			names, err := c.KernelNames(e)
			if err != nil {
				t.Fatalf("%s[%s]: %v", lib, e.ID, err)
			}
			objects++
			for _, name := range names {
				opts := loader.LoadOptions{Target: e.TargetID, Kernel: name, Bundle: &e.Bundle}
				if got, err := c.Find(opts); err != nil || got != e {
					t.Fatalf("%s: kernel %s of bundle %d (%s): found %v, %v", lib, name, e.Bundle, e.TargetID, got, err)
				}
			}
			it, _ := TargetOf(e.Processor())
			feat := FeaturesOf(e.Processor())
			var inst Inst
			for k := range co.Kernels {
				kernels++
				code, err := co.Code(&co.Kernels[k])
				if err != nil {
					t.Fatalf("%s[%s] %s: %v", lib, e.ID, co.Kernels[k].Name, err)
				}
				for off := 0; off < len(code); off += inst.Len {
					if err := DecodeWith(code[off:], it, feat, &inst); err != nil || inst.Len == 0 {
						t.Fatalf("%s[%s] %s+%#x: %v", lib, e.ID, co.Kernels[k].Name, off, err)
					}
					insts++
				}
			}
		}
		c.Close()
	}
	t.Logf("%d code objects, %d kernels, %d instructions", objects, kernels, insts)
	if kernels == 0 {
		t.Fatal("no kernels checked")
	}
}
