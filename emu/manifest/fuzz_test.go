package manifest

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: Parse never panics; a manifest it accepts marshals and parses
// back to the same JSON, and its inputs can be generated.
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
		total := int64(0)
		for _, a := range m.Args {
			total += a.Size
		}
		if total <= 1<<20 {
			m.Inputs() // files may be missing; fills must not panic
		}
	})
}
