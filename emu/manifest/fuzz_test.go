package manifest

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: Parse never panics; a manifest it accepts marshals and parses
// back to the same JSON, has 32-bit grid sizes, and its inputs can be
// made. Seeds in testdata/fuzz/FuzzParse hold inputs that once crashed or
// were wrongly accepted (an input of /dev/zero read until out of memory, a
// grid of 2^32, a wrapping offset).
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(clDir, "*.json"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"kernel":"k","grid":[8],"block":[8],"args":[{"kind":"struct","fields":[{"type":"char","value":1},{"type":"double","value":"2.5"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(data, filepath.Join(os.TempDir(), "wavedbg-fuzz-none"))
		if err != nil {
			return
		}
		b, err := m.Marshal()
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		m2, err := Parse(b, m.Dir)
		if err != nil {
			t.Fatalf("re-parse of %s: %v", b, err)
		}
		if b2, _ := m2.Marshal(); string(b2) != string(b) {
			t.Fatalf("not stable:\n%s\n%s", b, b2)
		}
		grid, _, _ := m.Sizes()
		for i, g := range grid {
			if g > MaxGrid {
				t.Fatalf("accepted grid dimension %d of %d work-items", i, g)
			}
		}
		if m.Footprint() < 0 {
			t.Fatalf("footprint %d", m.Footprint())
		}
		// Files may be missing or endless (/dev/zero); fills must not
		// panic, reads must stop at the declared size.
		if m.CheckBudget(1<<20) == nil {
			m.Inputs()
		}
	})
}
