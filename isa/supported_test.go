package isa

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestSupportedProcessorsMatchISA: the supported list is what the isa
// package decodes, sorted, without repeats, and the message names the
// family.
func TestSupportedProcessorsMatchISA(t *testing.T) {
	got := SupportedProcessors()
	want := []string{"gfx801", "gfx802", "gfx803", "gfx805", "gfx810", "gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c"}
	if !slices.Equal(got, want) {
		t.Errorf("SupportedProcessors() = %v, want %v", got, want)
	}
	for _, tc := range []struct{ proc, want string }{
		{"gfx90a", "gfx90a (CDNA 2) is not supported; supported: gfx801, gfx802, gfx803, gfx805, gfx810, gfx900, gfx902, gfx904, gfx906, gfx909, gfx90c"},
		{"gfx90a:xnack+", "gfx90a (CDNA 2) is not supported; "},
		{"gfx1030", "gfx1030 (RDNA 2) is not supported; "},
		{"r630", "r630 (TeraScale) is not supported; "},
		{"gfx700", "gfx700 (GCN 2) is not supported; "},
		{"mach(0x7f)", `"mach(0x7f)" is not an AMDGPU processor; `},
		{"foo", `"foo" is not an AMDGPU processor; `},
	} {
		err := CheckSupported(tc.proc)
		var ue *UnsupportedTargetError
		if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("CheckSupported(%q) = %v, want %s", tc.proc, err, tc.want)
		}
	}
	for _, p := range want {
		if err := CheckSupported(p + ":xnack-"); err != nil {
			t.Error(err)
		}
	}
}
