package manifest

import (
	"strings"
	"testing"
)

// TestManifestVersion: versions 1 and 2 (and none) are read, a later one is
// refused, and Marshal writes the current version.
func TestManifestVersion(t *testing.T) {
	const body = `"kernel":"k","grid":[64],"block":[64],"args":[]}`
	for _, v := range []string{``, `"version":1,`, `"version":2,`} {
		if _, err := Parse([]byte(`{`+v+body), "."); err != nil {
			t.Errorf("%s: %v", v, err)
		}
	}
	_, err := Parse([]byte(`{"version":3,`+body), ".")
	if want := "manifest version 3: this wavedbg reads versions 1 to 2"; err == nil || err.Error() != want {
		t.Errorf("version 3: %v, want %q", err, want)
	}
	m, _ := Parse([]byte(`{"version":1,`+body), ".")
	b, err := m.Marshal()
	if err != nil || !strings.Contains(string(b), `"version": 2`) {
		t.Errorf("Marshal: %v\n%s", err, b)
	}
}
