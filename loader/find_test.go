package loader

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestLoadKernelAcrossBundles: LoadOptions.Kernel finds a kernel in
// whichever bundle of a fat binary holds it; a name in several bundles is
// an *AmbiguousKernelError that LoadOptions.Bundle settles.
func TestLoadKernelAcrossBundles(t *testing.T) {
	path := quirks + "twice.so"
	bundle := func(b int) *int { return &b }
	for _, tc := range []struct {
		name   string
		opts   LoadOptions
		bundle int    // want the code object of this bundle
		target string // and this target ID
		err    string // or this error
	}{
		{"only in bundle 1", LoadOptions{Kernel: "second"}, 1, "gfx900", ""},
		{"first GCN target with it", LoadOptions{Kernel: "first"}, 0, "gfx803", ""},
		{"nowhere, any target", LoadOptions{Kernel: "third"}, 0, "", `no kernel "third" in any of the 4 code objects for any GCN target`},
		{"only in bundle 1, by target", LoadOptions{Target: "gfx900", Kernel: "second"}, 1, "gfx900", ""},
		{"ambiguous", LoadOptions{Target: "gfx900", Kernel: "first"}, 0, "",
			`kernel "first" is in 2 code objects: bundle 0 (gfx900), bundle 2 (gfx900); choose one by bundle index`},
		{"settled by bundle 2", LoadOptions{Target: "gfx900", Kernel: "first", Bundle: bundle(2)}, 2, "gfx900", ""},
		{"settled by bundle 0", LoadOptions{Target: "gfx900", Kernel: "first", Bundle: bundle(0)}, 0, "gfx900", ""},
		{"not in that bundle", LoadOptions{Target: "gfx900", Kernel: "second", Bundle: bundle(2)}, 0, "",
			`no kernel "second" (kernels: first)`},
		{"nowhere", LoadOptions{Target: "gfx900", Kernel: "third"}, 0, "",
			`no kernel "third" in any of the 3 code objects for gfx900`},
		{"no such bundle", LoadOptions{Target: "gfx803", Bundle: bundle(1)}, 0, "",
			"no code object for gfx803 in bundle 1 (the file has bundles 0 to 2)"},
		{"bundle without kernel", LoadOptions{Bundle: bundle(2)}, 2, "gfx900", ""},
	} {
		co, err := Load(path, tc.opts)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s: error %v, want %s", tc.name, err, tc.err)
			}
			if err == nil {
				co.Close()
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if co.Entry.Bundle != tc.bundle || co.Entry.TargetID != tc.target || (tc.opts.Kernel != "" && co.Kernel(tc.opts.Kernel) == nil) {
			t.Errorf("%s: bundle %d %s, want bundle %d %s", tc.name, co.Entry.Bundle, co.Entry.TargetID, tc.bundle, tc.target)
		}
		co.Close()
	}
	_, err := Load(path, LoadOptions{Target: "gfx900", Kernel: "first"})
	var ae *AmbiguousKernelError
	if !errors.As(err, &ae) || !slices.Equal(ae.Bundles(), []int{0, 2}) {
		t.Errorf("error %v: want an AmbiguousKernelError for bundles 0 and 2", err)
	}
	one := quirks + "linked-gfx900-v4.co"
	if _, err := Load(one, LoadOptions{Bundle: bundle(1)}); err == nil || err.Error() != "loader: "+one+": no bundle 1: the file is a single code object" {
		t.Errorf("bundle 1 of a code object: %v", err)
	}
	c, err := OpenContainer(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	es, err := c.Matching("gfx900")
	if err != nil || len(es) != 3 || es[0].Bundle != 0 || es[1].Bundle != 1 || es[2].Bundle != 2 {
		t.Errorf("Matching(gfx900) = %v, %v", es, err)
	}
}

// TestTargetListNoRepeats: a fat binary's target IDs repeat in every
// bundle; errors list each once.
func TestTargetListNoRepeats(t *testing.T) {
	_, err := Load(quirks+"twice.so", LoadOptions{Target: "gfx906"})
	want := "no code object for target gfx906 among gfx803, gfx900"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("error %v, want ...%s", err, want)
	}
}
