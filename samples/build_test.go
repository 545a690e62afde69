package samples

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// TestBuildReproduces rebuilds every code object with build.sh and checks
// that the committed ones match byte for byte. It skips when the LLVM tools
// are missing, unless CI=true.
func TestBuildReproduces(t *testing.T) {
	missing := func(what string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s not found (CI=true requires it)", what)
		}
		t.Skipf("%s not found; cannot rebuild the samples", what)
	}
	for _, tool := range []string{"llvm-mc-19", "clang-15", "ld.lld-15"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing(tool)
		}
	}
	libs := os.Getenv("DEVICE_LIBS")
	if libs == "" {
		libs = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode" // build.sh's default (rocm-device-libs)
	}
	if _, err := os.Stat(filepath.Join(libs, "ockl.bc")); err != nil {
		missing("the ROCm device libraries (" + libs + ")")
	}
	out := t.TempDir()
	cmd := exec.Command("sh", "build.sh", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, b)
	}
	n := 0
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		fresh, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		committed, err := os.ReadFile(rel)
		switch {
		case err != nil:
			t.Errorf("%s: build.sh makes it but it is not committed: %v", rel, err)
		case !bytes.Equal(committed, fresh):
			t.Errorf("%s differs from a fresh build.sh build (%d bytes, fresh %d); run samples/build.sh and commit", rel, len(committed), len(fresh))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < len(All()) {
		t.Errorf("build.sh made %d files for %d samples", n, len(All()))
	}
}

// decodeKernel decodes the kernel of a sample's code object on the code
// object's own target.
func decodeKernel(t *testing.T, s Sample) []isa.Inst {
	t.Helper()
	co, err := loader.NewCodeObject(bytes.NewReader(s.CodeObject), int64(len(s.CodeObject)))
	if err != nil {
		t.Fatalf("%s: %v", s.ID(), err)
	}
	if co.Target.Processor != s.Target && !strings.HasPrefix(co.Target.Processor, "amdgcn-amd-amdhsa--"+s.Target) {
		t.Errorf("%s: the code object is built for %q", s.ID(), co.Target.Processor)
	}
	k := co.Kernel(s.Kernel)
	if k == nil {
		t.Fatalf("%s: no kernel %s", s.ID(), s.Kernel)
	}
	code, err := co.Code(k)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := isa.TargetOf(co.Target.Processor)
	var out []isa.Inst
	for off := 0; off < len(code); {
		var in isa.Inst
		if err := isa.DecodeWith(code[off:], target, isa.FeaturesOf(co.Target.Processor), &in); err != nil {
			t.Fatalf("%s: +0x%x: %v", s.ID(), off, err)
		}
		out = append(out, in)
		off += in.Len
	}
	return out
}

// TestVariantWords holds smem_gfx8_gfx9's two builds to what its
// walkthrough says: the same machine words line for line, but for
// s_waitcnt and the GFX9-only instructions the gfx803 build leaves out,
// and the words GFX8 reads otherwise decode as the walkthrough says.
func TestVariantWords(t *testing.T) {
	s, ok := Lookup("smem_gfx8_gfx9")
	if !ok || len(s.Variants) != 1 || s.Variants[0].Target != "gfx803" {
		t.Fatalf("smem_gfx8_gfx9 has no gfx803 variant: %+v", s.Variants)
	}
	v, ok := Lookup("smem_gfx8_gfx9 (gfx803)")
	if !ok || v.Target != "gfx803" {
		t.Fatal(`Lookup("smem_gfx8_gfx9 (gfx803)") finds no gfx803 build`)
	}
	gfx9, gfx8 := decodeKernel(t, s), decodeKernel(t, v)
	only9 := map[string]bool{"s_dcache_discard": true, "s_mov_b32 s19, 1": true, "s_atomic_add": true}
	var kept []isa.Inst
	for i, in := range gfx9 {
		text := in.String()
		name, _, _ := strings.Cut(text, " ")
		if only9[name] || only9[text] || (i > 0 && strings.HasPrefix(gfx9[i-1].String(), "s_atomic_add")) {
			continue
		}
		kept = append(kept, in)
	}
	if len(kept) != len(gfx8) {
		t.Fatalf("gfx900 has %d instructions besides the GFX9-only ones, gfx803 %d", len(kept), len(gfx8))
	}
	renamed := map[string]string{
		"s_load_dword s10, s[4:5], s20 offset:0x8": "s_load_dword s10, s[4:5], 0x8",
		"s_load_dword s16, s[14:15], -0x4":         "s_load_dword s16, s[14:15], 0xffffc",
		"s_mov_b32 s11, ttmp4":                     "s_mov_b32 s11, ttmp0",
		"s_mov_b32 s12, ttmp0":                     "s_mov_b32 s12, tba_lo",
	}
	for i, in9 := range kept {
		in8 := gfx8[i]
		t9, t8 := in9.String(), in8.String()
		if want, ok := renamed[t9]; ok && t8 != want {
			t.Errorf("the gfx900 word of %q decodes on gfx803 as %q, want %q", t9, t8, want)
		} else if !ok && t8 != t9 {
			t.Errorf("instruction %d: gfx900 %q, gfx803 %q", i, t9, t8)
		}
		w9, w8 := in9.Words[:in9.Len/4], in8.Words[:in8.Len/4]
		if wait := strings.HasPrefix(t9, "s_waitcnt"); slices.Equal(w9, w8) == wait {
			t.Errorf("%q: gfx900 %x, gfx803 %x (the same words but for s_waitcnt)", t9, w9, w8)
		}
	}
}
