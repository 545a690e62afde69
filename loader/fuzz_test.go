package loader

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Fuzz targets for every parser. Seeds: testdata/fuzz/<Target>/ (committed,
// regenerate with -fuzzseeds) plus every committed file, added in code.

var writeSeeds = flag.Bool("fuzzseeds", false, "rewrite the seed corpora in testdata/fuzz")

// FuzzNewFile parses arbitrary bytes as an ELF file and calls every
// accessor; none may panic, and all reads stay within the input.
func FuzzNewFile(f *testing.F) {
	for _, p := range elfFiles(f) {
		f.Add(mustRead(f, p))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		exerciseFile(data, func(err error) { structural(t, err) })
	})
}

// structural fails the test unless err is nil or a *FormatError: inputs in
// memory can only be malformed, never unreadable.
func structural(t *testing.T, err error) {
	t.Helper()
	var fe *FormatError
	if err != nil && !errors.As(err, &fe) {
		t.Fatalf("error %v (%T) is not a *FormatError", err, err)
	}
}

func exerciseFile(data []byte, check func(error)) {
	ef, err := NewFile(bytes.NewReader(data))
	check(err)
	if err != nil {
		return
	}
	for _, s := range ef.Sections {
		_, err := s.Data()
		check(err)
		if s.Type == SHT_RELA {
			_, err := ef.Relocations(s)
			check(err)
		}
	}
	for _, p := range ef.Progs {
		_, err := p.Data()
		check(err)
	}
	_, err = ef.Symbols()
	check(err)
	_, err = ef.DynamicSymbols()
	check(err)
	_, err = ef.Dynamic()
	check(err)
	_, err = ef.Notes()
	check(err)
	_, err = ef.Target()
	check(err)
	if lt, err := ef.LineTable(); err == nil {
		lt.Lookup(0x1900)
		lt.Func(0x1900)
		lt.Addrs("loops.cl", 7)
	} else {
		check(err)
	}
	_, err = ef.Metadata()
	check(err)
	ks, err := ef.Kernels()
	check(err)
	for i := range ks {
		ef.Code(&ks[i]) // may fail for a kernel without a code section
		ks[i].Check("gfx900")
		ks[i].InitialSGPRs()
		ks[i].InitialVGPRs("gfx90a")
		if ks[i].Descriptor != nil {
			ks[i].Descriptor.Fields("gfx90a")
		}
		if ks[i].CodeT != nil {
			ks[i].CodeT.Fields("gfx900")
		}
	}
	_, err = NewCodeObject(bytes.NewReader(data), int64(len(data)))
	check(err)
}

// metadataSeeds returns the descriptors of every metadata note in testdata.
func metadataSeeds(t testing.TB) [][]byte {
	var out [][]byte
	for _, p := range codeObjects(t) {
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		ns, _ := f.Notes()
		for _, n := range ns {
			if n.Type == NT_AMDGPU_METADATA || n.Type == NT_AMD_HSA_METADATA {
				out = append(out, n.Desc)
			}
		}
		f.Close()
	}
	return out
}

// FuzzMetadata feeds bytes to the MessagePack and YAML metadata decoders
// and to the note parser.
func FuzzMetadata(f *testing.F) {
	for _, d := range metadataSeeds(f) {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := DecodeMetadataMsgpack(data, 0)
		structural(t, err)
		_, err = DecodeMetadataYAML(data, 0)
		structural(t, err)
		_, err = ParseNotes(data, 0, 4)
		structural(t, err)
		ns, err := ParseNotes(data, 0, 8)
		structural(t, err)
		_, err = MetadataFromNotes(ns)
		structural(t, err)
	})
}

// FuzzContainer feeds bytes to the bundle, compressed-bundle and fat
// binary readers and loads whatever they find.
func FuzzContainer(f *testing.F) {
	files, _ := filepath.Glob("testdata/bundle/*")
	for _, p := range files {
		f.Add(mustRead(f, p))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := NewContainer(bytes.NewReader(data), int64(len(data)))
		structural(t, err)
		if err != nil {
			return
		}
		for i := range c.Entries {
			if c.Entries[i].Size > 0 {
				_, err := c.Entries[i].Load()
				structural(t, err)
			}
		}
		c.Select("")
		c.Select("gfx90a:xnack+")
	})
}

// TestFuzzSeeds checks that the committed seed corpora (testdata/fuzz/*/seedNN:
// minimal inputs and the regression cases, in Go's corpus file format) are
// the ones this test builds; -fuzzseeds rewrites them. Other files there
// (inputs the fuzzer found) are left alone.
func TestFuzzSeeds(t *testing.T) {
	vadd := mustRead(t, "testdata/co/vadd-gfx900-v4.co")
	v2 := mustRead(t, "testdata/co/vadd-gfx900-v2.co")
	shoff := le.Uint64(vadd[40:])
	plain := WriteBundle([]BundleInput{{ID: "host-x86_64-unknown-linux-gnu"}, {ID: "hipv4-amdgcn-amd-amdhsa--gfx900", Data: vadd}})
	zst, _ := CompressBundle(plain, "zstd", 3)
	zl, _ := CompressBundle(plain, "zlib", 1)
	md := metadataSeeds(t)
	dw := dwarfMutants(t)
	seeds := map[string][][]byte{
		"FuzzNewFile": {vadd, v2, vadd[:64], vadd[:shoff+100],
			mutate(vadd, func(b []byte) []byte { le.PutUint64(b[shoff+shdrSize+32:], 1<<63); return b }),
			mustRead(t, "testdata/dwarf/loops-gfx900-v5.co"), dw["line length huge"], dw["line header garbled"],
			mustRead(t, "testdata/dwarf/loops-gfx900-v5-zlib.co")},
		"FuzzMetadata": {md[0], md[len(md)-1], {0xdf, 0xff, 0xff, 0xff, 0xff}, {0x91, 0x91, 0x91, 0x91, 0x91}},
		"FuzzContainer": {plain, zst, zl, plain[:40],
			mutate(plain, func(b []byte) []byte { le.PutUint64(b[24:], 1<<60); return b }),
			mutate(zst, func(b []byte) []byte { le.PutUint64(b[16:], 1<<40); return b })},
	}
	for name, list := range seeds {
		dir := filepath.Join("testdata/fuzz", name)
		if *writeSeeds {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		for i, b := range list {
			path := filepath.Join(dir, fmt.Sprintf("seed%02d", i))
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", b)
			if *writeSeeds {
				if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil || string(got) != body {
				t.Errorf("%s is missing or stale (err %v); rerun with -fuzzseeds", path, err)
			}
		}
	}
}
