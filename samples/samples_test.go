package samples

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/loader"
)

// TestAll checks that every sample directory is listed, loads, and has what
// the picker and the dispatcher need.
func TestAll(t *testing.T) {
	all := All()
	if len(all) != len(order) {
		t.Fatalf("All() returned %d samples, want %d", len(all), len(order))
	}
	dirs, err := filepath.Glob("*/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if name := filepath.Dir(d); !slices.Contains(order, name) {
			t.Errorf("directory %s is not listed in order", name)
		}
	}
	for _, s := range all {
		if s.Description == "" || strings.Contains(s.Description, "\n") || len(s.Description) > 100 {
			t.Errorf("%s: description %q is not one short line", s.Name, s.Description)
		}
		if !bytes.HasPrefix(s.CodeObject, []byte("\x7fELF")) {
			t.Errorf("%s: code object is not an ELF file", s.Name)
		}
		if s.Kernel != s.Name || s.Source == "" || len(s.Manifest) == 0 {
			t.Errorf("%s: kernel %q, %d bytes of source, %d of manifest", s.Name, s.Kernel, len(s.Source), len(s.Manifest))
		}
		if !strings.Contains(s.Walkthrough, "../REFERENCES.md") {
			t.Errorf("%s: the walkthrough does not say where its citations point", s.Name)
		}
	}
	if s, ok := Lookup("scalar_cache"); !ok || s.Name != "scalar_cache" {
		t.Errorf("Lookup(scalar_cache) = %q, %v", s.Name, ok)
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope) found something")
	}
	if Default().Name != order[0] {
		t.Errorf("Default() = %s", Default().Name)
	}
}

// TestManifestsMatchMetadata checks each manifest against its code object:
// the kernel exists and the manifest lists its explicit arguments by name,
// in order, with buffers for global pointers and scalars of the right size.
func TestManifestsMatchMetadata(t *testing.T) {
	for _, s := range All() {
		co, err := loader.NewCodeObject(bytes.NewReader(s.CodeObject), int64(len(s.CodeObject)))
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		if co.Version != 4 {
			t.Errorf("%s: code object v%d, want v4", s.Name, co.Version)
		}
		k := co.Kernel(s.Kernel)
		if k == nil || k.Meta == nil || k.Descriptor == nil {
			t.Errorf("%s: no kernel %q with metadata and a descriptor", s.Name, s.Kernel)
			continue
		}
		m, err := s.RunManifest()
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
			continue
		}
		var explicit []loader.Arg
		for _, a := range k.Meta.Args {
			if !a.ValueKind.Hidden() {
				explicit = append(explicit, a)
			}
		}
		if len(explicit) != len(m.Args) {
			t.Errorf("%s: the kernel has %d explicit arguments, the manifest %d", s.Name, len(explicit), len(m.Args))
			continue
		}
		for i, a := range m.Args {
			ka := explicit[i]
			switch {
			case a.Name != ka.Name:
				t.Errorf("%s: argument %d is %q in the manifest, %q in the kernel", s.Name, i, a.Name, ka.Name)
			case ka.ValueKind == loader.GlobalBuffer && a.Kind != manifest.Buffer:
				t.Errorf("%s: argument %s is a global buffer, the manifest says %s", s.Name, a.Name, a.Kind)
			case ka.ValueKind == loader.ByValue && (a.Kind != manifest.Scalar || uint64(a.ByValueSize()) != ka.Size):
				t.Errorf("%s: argument %s is %d bytes by value, the manifest says %s of %d", s.Name, a.Name, ka.Size, a.Kind, a.ByValueSize())
			}
		}
		_, block, _ := m.Sizes()
		if block[0]*block[1]*block[2] > k.Meta.MaxFlatWorkgroupSize {
			t.Errorf("%s: block %v exceeds .max_flat_workgroup_size %d", s.Name, block, k.Meta.MaxFlatWorkgroupSize)
		}
	}
}

// TestItems checks the picker's items: each sample, then its variants
// ("NAME (TARGET)"), grouped by topic in Topics' order; the filter
// matches the name, the description and the topic.
func TestItems(t *testing.T) {
	var want []Sample
	for _, s := range All() {
		want = append(want, s)
		want = append(want, s.Variants...)
	}
	items := Items()
	if len(items) != len(want) {
		t.Fatalf("%d items for %d samples and variants", len(items), len(want))
	}
	last := 0
	for i, it := range items {
		s := want[i]
		if it.Title() != s.ID() || !strings.HasSuffix(it.Description(), s.Description) || it.Group() != s.Topic ||
			!strings.Contains(it.FilterValue(), s.Name) || !strings.Contains(it.FilterValue(), s.Topic) {
			t.Errorf("item %d: %q / %q / %q / %q", i, it.Title(), it.Description(), it.Group(), it.FilterValue())
		}
		n := slices.Index(Topics, it.Group())
		if n < last {
			t.Errorf("item %d (%s) is in topic %q after %q: not grouped", i, it.Title(), it.Group(), Topics[last])
		}
		last = n
	}
	if it := items[slices.IndexFunc(items, func(it Item) bool { return it.Target == "gfx803" })]; it.Title() != "smem_gfx8_gfx9 (gfx803)" {
		t.Errorf("the gfx803 variant is listed as %q", it.Title())
	}
}
