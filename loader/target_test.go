package loader

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMachNamesReadelf patches e_flags of a committed code object with
// every EF_AMDGPU_MACH value from gfx600 on, and with each feature setting,
// and compares our decoding with llvm-readelf -h.
func TestMachNamesReadelf(t *testing.T) {
	readelf := needTool(t, "llvm-readelf-19")
	base := mustRead(t, "testdata/co/vadd-gfx900-v4.co")
	dir := t.TempDir()
	type variant struct {
		abi   uint8
		flags uint32
	}
	var vs []variant
	for m := uint32(0x20); m <= 0x5f; m++ {
		vs = append(vs, variant{2, m})
	}
	for _, f := range []uint32{0x000, 0x100, 0x200, 0x300, 0x400, 0x800, 0xc00, 0x900} {
		vs = append(vs, variant{2, 0x3f | f}, variant{3, 0x2f | f}) // gfx90a v4, gfx906 v5
	}
	for _, f := range []uint32{0x000, 0x100, 0x200, 0x300} {
		vs = append(vs, variant{1, 0x30 | f}, variant{0, 0x2c | f}) // gfx908 v3, gfx900 v2
	}
	var paths []string
	for i, v := range vs {
		b := append([]byte(nil), base...)
		b[8] = v.abi
		le.PutUint32(b[48:], v.flags)
		p := filepath.Join(dir, strings.Repeat("0", 3-len(itoa(i)))+itoa(i)+".co")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out, err := exec.Command(readelf, append([]string{"-h"}, paths...)...).Output()
	if err != nil {
		t.Fatalf("llvm-readelf -h: %v", err)
	}
	flagsRE := regexp.MustCompile(`Flags:\s+0x[0-9a-fA-F]+(?:, (.*))?`)
	lines := flagsRE.FindAllSubmatch(out, -1)
	if len(lines) != len(vs) {
		t.Fatalf("llvm-readelf printed %d Flags lines for %d files", len(lines), len(vs))
	}
	known := 0
	for i, v := range vs {
		theirs := strings.Split(string(lines[i][1]), ", ")
		f, err := NewFile(bytes.NewReader(mustReadPath(t, paths[i])))
		if err != nil {
			t.Fatal(err)
		}
		tg, err := f.Target()
		if err != nil {
			t.Fatal(err)
		}
		proc := theirs[0]
		if strings.HasPrefix(proc, "gfx") {
			known++
			if tg.Processor != proc {
				t.Errorf("e_flags %#x: processor %q, llvm-readelf %q", v.flags, tg.Processor, proc)
			}
		} else if newerThanLLVM19[tg.Mach] != tg.Processor && !strings.HasPrefix(tg.Processor, "mach(") {
			t.Errorf("e_flags %#x: we name %q, llvm-readelf has no name (%q)", v.flags, tg.Processor, lines[i][1])
		}
		var want []string
		for _, x := range []struct {
			name string
			f    Feature
		}{{"xnack", tg.XNACK}, {"sramecc", tg.SRAMECC}} {
			switch {
			case v.abi <= 1 && x.f == FeatureOn:
				want = append(want, x.name)
			case v.abi >= 2 && x.f == FeatureOn:
				want = append(want, x.name+"+")
			case v.abi >= 2 && x.f == FeatureOff:
				want = append(want, x.name+"-")
			case v.abi >= 2 && x.f == FeatureAny:
				want = append(want, x.name)
			}
		}
		if v.flags&^0xff != 0 && !sameSet(theirs[1:], want) {
			t.Errorf("ABI version %d e_flags %#x: features %q, llvm-readelf %q", v.abi, v.flags, want, theirs[1:])
		}
	}
	if known < 50 {
		t.Errorf("only %d processors named by llvm-readelf", known)
	}
}

// newerThanLLVM19 are EF_AMDGPU_MACH values LLVM 19 reserves and later
// LLVM names.
var newerThanLLVM19 = map[Mach]string{0x4f: "gfx950"}

func mustReadPath(t *testing.T, p string) []byte { return mustRead(t, p) }

func TestParseTargetID(t *testing.T) {
	tests := []struct {
		in             string
		proc           string
		xnack, sramecc Feature
		wantErr        bool
	}{
		{"gfx900", "gfx900", FeatureAny, FeatureAny, false},
		{"gfx90a:sramecc+:xnack-", "gfx90a", FeatureOff, FeatureOn, false},
		{"amdgcn-amd-amdhsa--gfx906:xnack+", "gfx906", FeatureOn, FeatureAny, false},
		{"gfx90a:xnack", "", 0, 0, true},
		{"gfx90a:turbo+", "", 0, 0, true},
		{"x86_64", "", 0, 0, true},
	}
	for _, tt := range tests {
		tg, err := ParseTargetID(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseTargetID(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && (tg.Processor != tt.proc || tg.XNACK != tt.xnack || tg.SRAMECC != tt.sramecc) {
			t.Errorf("ParseTargetID(%q) = %+v", tt.in, tg)
		}
	}
	for _, tt := range []struct {
		proc  string
		major int
		gcn   bool
	}{
		{"gfx600", 6, true}, {"gfx803", 8, true}, {"gfx90a", 9, true}, {"gfx942", 9, true},
		{"gfx9-generic", 9, true}, {"gfx1030", 10, false}, {"gfx1200", 12, false}, {"r600", 0, false},
	} {
		if GFXMajor(tt.proc) != tt.major || IsGCN(tt.proc) != tt.gcn {
			t.Errorf("%s: major %d gcn %v, want %d %v", tt.proc, GFXMajor(tt.proc), IsGCN(tt.proc), tt.major, tt.gcn)
		}
	}
}

// TestNotesFromSegments: without section headers, notes come from PT_NOTE.
func TestNotesFromSegments(t *testing.T) {
	for _, p := range []string{"testdata/co/vadd-gfx900-v4.co", "testdata/co/args-gfx900-v2.co"} {
		b := mustRead(t, p)
		f, err := NewFile(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		want, err := f.Notes()
		if err != nil || len(want) == 0 {
			t.Fatalf("%s: %d notes, %v", p, len(want), err)
		}
		noSections := mutate(b, func(b []byte) []byte {
			le.PutUint64(b[40:], 0) // e_shoff
			le.PutUint16(b[60:], 0) // e_shnum
			le.PutUint16(b[62:], 0) // e_shstrndx
			return b
		})
		g, err := NewFile(bytes.NewReader(noSections))
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.Notes()
		if err != nil || len(got) != len(want) {
			t.Fatalf("%s: %d notes from PT_NOTE, want %d (%v)", p, len(got), len(want), err)
		}
		for i := range got {
			if got[i].Name != want[i].Name || got[i].Type != want[i].Type || !bytes.Equal(got[i].Desc, want[i].Desc) || got[i].Off != want[i].Off {
				t.Errorf("%s note %d: from PT_NOTE %+v, from sections %+v", p, i, got[i].Type, want[i].Type)
			}
		}
		if md, err := g.Metadata(); err != nil || md == nil || len(md.Kernels) == 0 {
			t.Errorf("%s: metadata from PT_NOTE: %v, %v", p, md, err)
		}
	}
}

// TestTargetV6Generic decodes code object v6 generic targets, which
// clang-15 cannot emit: EF_AMDGPU_GENERIC_VERSION sits in e_flags' top byte.
func TestTargetV6Generic(t *testing.T) {
	base := mustRead(t, "testdata/co/vadd-gfx900-v5.co")
	tests := []struct {
		abi     uint8
		flags   uint32
		proc    string
		version int
		generic int
		xnack   Feature
	}{
		{4, 0x01000051 | 0x300, "gfx9-generic", 6, 1, FeatureOn},
		{4, 0x02000052, "gfx10-1-generic", 6, 2, FeatureUnsupported},
		{3, 0x0100002c, "gfx900", 5, 0, FeatureUnsupported}, // the top byte means nothing before v6
	}
	for _, tt := range tests {
		b := mutate(base, func(b []byte) []byte { b[8] = tt.abi; le.PutUint32(b[48:], tt.flags); return b })
		f, err := NewFile(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		v, _ := f.CodeObjectVersion()
		tg, err := f.Target()
		if err != nil || v != tt.version || tg.Processor != tt.proc || tg.GenericVersion != tt.generic || tg.XNACK != tt.xnack {
			t.Errorf("e_flags %#x ABI %d: v%d %+v %v", tt.flags, tt.abi, v, tg, err)
		}
	}
}
