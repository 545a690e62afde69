package main

// Helpers that build hostile code objects by patching real ones, for the
// disasm regression tests and the fuzz seeds.

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/wavedbg/wavedbg/tui/sample"
)

// scaleCO is the debugger's bundled sample: a small gfx900 kernel "scale"
// whose .text holds one symbol.
const scaleCO = "../../tui/sample/scale.co"

// readFile returns a committed test input.
func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("committed test input: %v", err)
	}
	return b
}

// withSymbolValue returns a copy of the ELF data whose .symtab symbol name
// has st_value v.
func withSymbolValue(t testing.TB, data []byte, name string, v uint64) []byte {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out := bytes.Clone(data)
	for _, s := range f.Sections {
		if s.Type != elf.SHT_SYMTAB || int(s.Link) >= len(f.Sections) {
			continue
		}
		strs, err := f.Sections[s.Link].Data()
		if err != nil {
			t.Fatal(err)
		}
		for off := s.Offset; off+elf.Sym64Size <= s.Offset+s.Size; off += elf.Sym64Size {
			n := binary.LittleEndian.Uint32(out[off:])
			if end := bytes.IndexByte(strs[n:], 0); end >= 0 && string(strs[n:n+uint32(end)]) == name {
				binary.LittleEndian.PutUint64(out[off+8:], v) // st_value
				return out
			}
		}
	}
	t.Fatalf("no .symtab symbol %q", name)
	return nil
}

// withSectionSize returns a copy of the ELF data whose section name has
// sh_size size.
func withSectionSize(t testing.TB, data []byte, name string, size uint64) []byte {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	shoff := binary.LittleEndian.Uint64(data[0x28:]) // e_shoff
	for i, s := range f.Sections {
		if s.Name == name {
			out := bytes.Clone(data)
			binary.LittleEndian.PutUint64(out[shoff+uint64(i)*64+32:], size) // sh_size
			return out
		}
	}
	t.Fatalf("no section %s", name)
	return nil
}

// textRange returns the address and size of the .text section of ELF data.
func textRange(t testing.TB, data []byte) (addr, size uint64) {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Section(".text")
	if s == nil {
		t.Fatal("no .text section")
	}
	return s.Addr, s.Size
}

var updateFuzzSeeds = flag.Bool("update-fuzz-seeds", false, "rewrite the seed-* files of testdata/fuzz")

// TestFuzzSeedsCommitted checks that the committed seed-* files of the CLI
// fuzz targets are those fuzzSeeds makes (-update-fuzz-seeds rewrites
// them). Crashers the fuzzer found keep its hash names.
func TestFuzzSeedsCommitted(t *testing.T) {
	for target, seeds := range fuzzSeeds(t) {
		dir := filepath.Join("testdata/fuzz", target)
		for name, data := range seeds {
			file := filepath.Join(dir, "seed-"+name)
			want := fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", data)
			if *updateFuzzSeeds {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, want, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got, err := os.ReadFile(file); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s is missing or stale (err %v); run go test -run TestFuzzSeedsCommitted -update-fuzz-seeds", file, err)
			}
		}
	}
}

// fuzzSeeds returns the seeds of each CLI fuzz target by name: real code
// objects and manifests, and variants that once crashed or probe an edge.
func fuzzSeeds(t testing.TB) map[string]map[string][]byte {
	cos := map[string][]byte{}
	for name, path := range map[string]string{
		"scale":          scaleCO,
		"zeros":          "testdata/disasm/zeros.co",
		"bad":            "testdata/run/bad.co",
		"vector_add":     "../../samples/vector_add/vector_add.co",
		"reduction":      "../../samples/reduction/reduction.co",
		"lds_direct":     "../../samples/lds_direct/lds_direct.co",
		"ds_gfx8":        "../../emu/testdata/cl/asm/ds_gfx8.co",
		"vadd-gfx803-v5": "../../loader/testdata/co/vadd-gfx803-v5.co",
		"vadd-gfx900-v2": "../../loader/testdata/co/vadd-gfx900-v2.co",
		"vadd-gfx90a-v4": "../../loader/testdata/co/vadd-gfx90a-v4.co",
		"vadd-gfx900-o":  "../../loader/testdata/co/vadd-gfx900-v4.o",
		"vadd-zstd":      "../../loader/testdata/bundle/vadd-zstd.ccob",
		"vadd-zlib":      "../../loader/testdata/bundle/vadd-zlib.ccob",
	} {
		cos[name] = readFile(t, path)
	}
	scale := cos["scale"]
	addr, size := textRange(t, scale)
	textOff := textOffset(t, scale)
	cos["symbol-past-text"] = withSymbolValue(t, scale, "scale", addr+0x800)
	cos["symbol-max"] = withSymbolValue(t, scale, "scale", math.MaxUint64)
	cos["symbol-inside-inst"] = withSymbolValue(t, scale, "scale", addr+2)
	cos["text-cut-word"] = withSectionSize(t, scale, ".text", size-2)
	cos["text-size-huge"] = withSectionSize(t, scale, ".text", 0xffffffff)
	cos["truncated"] = scale[:len(scale)/2]
	cos["loop"] = patch(scale, textOff, le32(0xbf82ffff))                               // s_branch -1
	cos["invalid-words"] = patch(scale, textOff, bytes.Repeat([]byte{0xff}, int(size))) // no valid encoding
	cos["mach-gfx908"] = patch(scale, 0x30, []byte{0x30})                               // e_flags' EF_AMDGPU_MACH
	cos["kd-huge-segments"] = patch(scale, symbolOffset(t, scale, "scale.kd"), le64(math.MaxUint64))
	cos["shoff-past-eof"] = patch(scale, 0x28, le64(1<<40)) // e_shoff

	man := map[string]string{
		"sample":         sample.Manifest,
		"outputs":        `{"kernel":"scale","grid":[128],"block":[64],"args":[{"kind":"buffer","type":"uint","size":512,"fill":"iota","output":"sub/o.bin"},{"kind":"scalar","type":"uint","value":"0x10"}]}`,
		"input":          `{"kernel":"scale","grid":[64],"block":[64],"args":[{"kind":"buffer","type":"int","size":512,"input":"in.bin","output":"o.bin","ulp":2},{"kind":"scalar","type":"int","value":-1}]}`,
		"input-short":    `{"kernel":"scale","grid":[64],"block":[64],"args":[{"kind":"buffer","type":"int","size":256,"input":"in.bin"},{"kind":"scalar","type":"int","value":1}]}`,
		"random-fill":    `{"kernel":"scale","grid":[64,2],"block":[64,1],"offset":[64,1],"args":[{"kind":"buffer","type":"float","size":1024,"fill":"random:7:0:100"},{"kind":"scalar","type":"uint","value":3}]}`,
		"small-buffer":   `{"kernel":"scale","grid":[4096],"block":[64],"args":[{"kind":"buffer","type":"uint","size":4,"fill":"const:9","output":"o.bin"},{"kind":"scalar","type":"uint","value":4294967295}]}`,
		"struct-local":   `{"kernel":"scale","grid":[64],"block":[64],"args":[{"kind":"local","size":256},{"kind":"struct","fields":[{"type":"char","value":1},{"type":"double","value":2.5}]}]}`,
		"huge-size":      `{"kernel":"scale","grid":[64],"block":[64],"args":[{"kind":"buffer","type":"uint","size":9223372036854775807},{"kind":"scalar","type":"uint","value":3}]}`,
		"bad-output":     `{"kernel":"scale","grid":[64],"block":[64],"args":[{"kind":"buffer","type":"uint","size":256,"output":"../x.bin"},{"kind":"scalar","type":"uint","value":3}]}`,
		"twice-output":   `{"kernel":"scale","grid":[64],"block":[64],"args":[{"kind":"buffer","type":"uint","size":256,"output":"o.bin"},{"kind":"buffer","type":"uint","size":256,"output":"./o.bin"}]}`,
		"zero-grid":      `{"kernel":"scale","grid":[0],"block":[2048],"args":[]}`,
		"other-kernel":   `{"kernel":"vector_add","grid":[64],"block":[64],"args":[{"kind":"scalar","type":"half","value":"inf"}]}`,
		"unknown-field":  `{"kernel":"scale","grid":[64],"block":[64],"args":[],"colour":"red"}`,
		"bad-json":       `{"kernel":"scale","grid":[64`,
		"empty":          ``,
		"null":           `null`,
		"args-not-array": `{"kernel":"scale","grid":[64],"block":[64],"args":{"kind":"buffer"}}`,
	}
	mans := map[string][]byte{}
	for name, s := range man {
		mans[name] = []byte(s)
	}
	return map[string]map[string][]byte{"FuzzCLICodeObject": cos, "FuzzCLIManifest": mans}
}

// patch returns a copy of data with b written at off.
func patch(data []byte, off uint64, b []byte) []byte {
	out := bytes.Clone(data)
	copy(out[off:], b)
	return out
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

// textOffset returns the file offset of .text in ELF data.
func textOffset(t testing.TB, data []byte) uint64 {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return f.Section(".text").Offset
}

// symbolOffset returns the file offset of the bytes of .symtab symbol name.
func symbolOffset(t testing.TB, data []byte, name string) uint64 {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range syms {
		if s.Name == name && int(s.Section) < len(f.Sections) {
			sec := f.Sections[s.Section]
			return sec.Offset + s.Value - sec.Addr
		}
	}
	t.Fatalf("no symbol %s", name)
	return 0
}
