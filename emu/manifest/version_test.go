package manifest

import (
	"reflect"
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

// TestPlacementRoundTrip: Marshal writes every version 2 field so that the
// manifest parses back the same (what --write-manifest relies on).
func TestPlacementRoundTrip(t *testing.T) {
	in := `{"version":2,"grid":[48],"block":[32],"args":[` + strings.Join([]string{
		strings.Replace(placesBuf, `"offset":512`, `"offset":512,"address":"0x40000000"`, 1),
		`{"name":"src","kind":"buffer","buffer":"buf","offset":4}`, placesTable, placesB, `{"kind":"null"}`,
		`{"kind":"scalar","value":3}`}, ",") + `]}`
	m, err := Parse([]byte(in), ".")
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(b, ".")
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if !reflect.DeepEqual(m.Args, back.Args) || back.Grid != m.Grid {
		t.Errorf("round trip changed the manifest:\n%s", b)
	}
}
