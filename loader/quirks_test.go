package loader

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Code objects LLVM's tools read that need care (testdata/quirks/build.sh).
const quirks = "testdata/quirks/"

// TestLinkedMetadataNotes: ld.lld links one NT_AMDGPU_METADATA note per
// object; the loader merges them and lists the kernels llvm-readelf-19
// --notes lists.
func TestLinkedMetadataNotes(t *testing.T) {
	path := quirks + "linked-gfx900-v4.co"
	co, err := Load(path, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer co.Close()
	var got []string
	for _, k := range co.Kernels {
		got = append(got, k.Name)
		if k.Meta == nil {
			t.Errorf("kernel %s has no metadata", k.Name)
		}
	}
	out, err := exec.Command(needTool(t, "llvm-readelf-19"), "--notes", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, m := range regexp.MustCompile(`(?m)^\s+\.name:\s+(\S+)$`).FindAllStringSubmatch(string(out), -1) {
		want = append(want, m[1])
	}
	if strings.Count(string(out), "NT_AMDGPU_METADATA") != 2 {
		t.Errorf("llvm-readelf-19 lists %d metadata notes, want 2", strings.Count(string(out), "NT_AMDGPU_METADATA"))
	}
	if !slices.Equal(got, want) || len(got) != 2 {
		t.Errorf("kernels %v, llvm-readelf-19 --notes %v", got, want)
	}
	if co.Metadata.Version != [2]uint64{1, 1} || co.Metadata.Target != "amdgcn-amd-amdhsa--gfx900" {
		t.Errorf("metadata version %v target %q", co.Metadata.Version, co.Metadata.Target)
	}
}

// TestMetadataNotesConflict: linked notes that disagree on a top-level
// key fail, naming the key, both values and both notes.
func TestMetadataNotesConflict(t *testing.T) {
	_, err := Load(quirks+"linked-conflict.co", LoadOptions{})
	want := regexp.MustCompile(`^loader: testdata/quirks/linked-conflict.co: NT_AMDGPU_METADATA note at offset 0x[0-9a-f]+: ` +
		`amdhsa.version is 1.2 here but 1.1 in the note at offset 0x[0-9a-f]+; linked objects must agree$`)
	if err == nil || !want.MatchString(err.Error()) {
		t.Fatalf("error %v, want %v", err, want)
	}
	for _, tc := range []struct {
		name string
		a, b Metadata
		want string
	}{
		{"target", Metadata{Target: "amdgcn-amd-amdhsa--gfx900"}, Metadata{Target: "amdgcn-amd-amdhsa--gfx906"},
			`amdhsa.target is "amdgcn-amd-amdhsa--gfx906" here but "amdgcn-amd-amdhsa--gfx900" in the note at offset 0x10`},
		{"kernel twice", Metadata{Kernels: []KernelMeta{{Name: "k"}}}, Metadata{Kernels: []KernelMeta{{Name: "k"}}},
			`kernel "k" is also described by the note at offset 0x10`},
	} {
		err := mergeMetadata(&tc.a, 0x10, &tc.b, 0x80)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "offset 0x80") {
			t.Errorf("%s: error %v, want ...%s", tc.name, err, tc.want)
		}
	}
	m := Metadata{Printf: []string{"1:a"}, Kernels: []KernelMeta{{Name: "a"}}}
	if err := mergeMetadata(&m, 0, &Metadata{Printf: []string{"1:a", "2:b"}, Kernels: []KernelMeta{{Name: "b"}}}, 1); err != nil ||
		!slices.Equal(m.Printf, []string{"1:a", "2:b"}) || len(m.Kernels) != 2 {
		t.Errorf("merge: %v, %+v", err, m)
	}
}

// TestMetadataCorruptKeyQuoted: a corrupt key is quoted in the error, so
// its bytes (here an ANSI escape) never reach the terminal raw.
func TestMetadataCorruptKeyQuoted(t *testing.T) {
	for _, tc := range []struct {
		desc []byte
		want string
	}{
		{[]byte("\x81\xa6\x1b[31mX\xc1"), `NT_AMDGPU_METADATA at offset 0x108: "\x1b[31mX": unsupported type byte 0xc1`},
		{[]byte("\x81\xa4\xff\x00ab\xc1"), `"\xff\x00ab": unsupported type byte 0xc1`},
		{[]byte("\x81\xa3a b\xc1"), `"a b": unsupported type byte 0xc1`},
		{[]byte("\x81\xaeamdhsa.version\xc1"), `offset 0x110: amdhsa.version: want an array, have`},
	} {
		_, err := DecodeMetadataMsgpack(tc.desc, 0x100)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %s", tc.desc, err, tc.want)
		}
		if err != nil && strings.ContainsAny(err.Error(), "\x1b\x00\xff") {
			t.Errorf("%q: raw bytes in %q", tc.desc, err)
		}
	}
}

// TestV2R630ISANote: a code object v2 whose e_flags say r630 (0x2) takes
// its processor from the NT_AMD_HSA_ISA_VERSION note, 8.0.3 → gfx803.
func TestV2R630ISANote(t *testing.T) {
	co, err := Load(quirks+"v2-r630-gfx803.co", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer co.Close()
	if co.Version != 2 || co.Target.Processor != "gfx803" || co.Target.Mach != 0x2a || co.Target.FlagsMach != 0x2 || co.File.Flags&EF_AMDGPU_MACH != 2 {
		t.Errorf("v%d target %+v (e_flags %#x), want gfx803 from the ISA note over r630", co.Version, co.Target, co.File.Flags)
	}
	if v := co.Metadata.V2.ISAVersion; v != [3]uint32{8, 0, 3} {
		t.Errorf("ISA note %v", v)
	}
	if k := co.Kernel("vadd"); k == nil || k.CodeT == nil {
		t.Fatalf("no vadd with amd_kernel_code_t among %d kernels", len(co.Kernels))
	}
	for _, tc := range []struct {
		v    [3]uint32
		want string
	}{{[3]uint32{8, 0, 3}, "gfx803"}, {[3]uint32{9, 0, 12}, "gfx90c"}, {[3]uint32{9, 0, 10}, "gfx90a"}} {
		got := isaVersionName(tc.v[0], tc.v[1], tc.v[2])
		if got != tc.want {
			t.Errorf("ISA %v: %s, want %s", tc.v, got, tc.want)
		}
	}
}

// TestQuirksBuildReproducible reruns testdata/quirks/build.sh and checks
// it makes the committed files byte for byte.
func TestQuirksBuildReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	for _, tool := range []string{"llvm-mc-19", "clang-15", "ld.lld-15", "llvm-objcopy-19", "dpkg"} {
		needTool(t, tool)
	}
	out := t.TempDir()
	cmd := exec.Command("bash", quirks+"build.sh")
	cmd.Env = append(os.Environ(), "OUT="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, b)
	}
	made, _ := filepath.Glob(filepath.Join(out, "*"))
	for _, p := range made {
		if !bytes.Equal(mustRead(t, p), mustRead(t, quirks+filepath.Base(p))) {
			t.Errorf("build.sh makes a different %s (rerun testdata/quirks/build.sh and commit)", filepath.Base(p))
		}
	}
	if len(made) != 4 {
		t.Errorf("build.sh made %d files, want 4", len(made))
	}
}
