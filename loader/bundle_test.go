package loader

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestContainers opens each committed container and checks that every
// entry's code object is byte-identical to the file build.sh bundled.
func TestContainers(t *testing.T) {
	vadd := map[string]string{
		"hipv4-amdgcn-amd-amdhsa--gfx803": "testdata/co/vadd-gfx803-v4.co",
		"hipv4-amdgcn-amd-amdhsa--gfx900": "testdata/co/vadd-gfx900-v4.co",
		"hipv4-amdgcn-amd-amdhsa--gfx906": "testdata/co/vadd-gfx906-v4.co",
		"hipv4-amdgcn-amd-amdhsa--gfx90a": "testdata/co/vadd-gfx90a-v4.co",
	}
	tests := []struct {
		file     string
		kind     ContainerKind
		bundles  int
		entries  int
		files    map[string]string // entry ID → committed file it must equal
		def      string            // default selection
		compress string
	}{
		{"testdata/bundle/vadd.bundle", KindBundle, 1, 5, vadd, "hipv4-amdgcn-amd-amdhsa--gfx803", ""},
		{"testdata/bundle/vadd-zlib.ccob", KindCompressedBundle, 1, 5, vadd, "hipv4-amdgcn-amd-amdhsa--gfx803", "zlib"},
		{"testdata/bundle/vadd-zstd.ccob", KindCompressedBundle, 1, 5, vadd, "hipv4-amdgcn-amd-amdhsa--gfx803", "zstd"},
		{"testdata/bundle/libfat.so", KindFatBinary, 2, 6, map[string]string{
			"hipv4-amdgcn-amd-amdhsa--gfx803": "testdata/co/lds_scratch-gfx803-v4.co",
		}, "hipv4-amdgcn-amd-amdhsa--gfx900:xnack-", ""},
		{"testdata/co/vadd-gfx906-v5.co", KindCodeObject, 0, 1, map[string]string{
			"amdgcn-amd-amdhsa--gfx906": "testdata/co/vadd-gfx906-v5.co",
		}, "amdgcn-amd-amdhsa--gfx906", ""},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			c, err := OpenContainer(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if c.Kind != tt.kind || c.Bundles != tt.bundles || len(c.Entries) != tt.entries {
				t.Errorf("kind %v, %d bundles, %d entries; want %v, %d, %d", c.Kind, c.Bundles, len(c.Entries), tt.kind, tt.bundles, tt.entries)
			}
			matched := 0
			for _, e := range c.Entries {
				if tt.kind != KindFatBinary && e.Compression != tt.compress {
					t.Errorf("%s: compression %q, want %q", e.ID, e.Compression, tt.compress)
				}
				want, ok := tt.files[e.ID]
				if !ok {
					continue
				}
				got, err := io.ReadAll(e.Reader())
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, mustRead(t, want)) {
					t.Errorf("%s: bytes differ from %s", e.ID, want)
				}
				matched++
			}
			if matched != len(tt.files) {
				t.Errorf("matched %d of %d expected entries", matched, len(tt.files))
			}
			e, err := c.Select("")
			if err != nil || e.ID != tt.def {
				t.Errorf("Select(\"\") = %v, %v; want %s", e, err, tt.def)
			}
		})
	}
}

func TestSelect(t *testing.T) {
	c, err := OpenContainer("testdata/bundle/libfat.so")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tests := []struct{ target, want string }{
		{"", "hipv4-amdgcn-amd-amdhsa--gfx900:xnack-"},
		{"gfx900", "hipv4-amdgcn-amd-amdhsa--gfx900:xnack-"},
		{"gfx90a", "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+"},
		{"gfx90a:xnack+", "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+"},
		{"gfx90a:xnack-", ""},
		{"gfx906:xnack-", "hipv4-amdgcn-amd-amdhsa--gfx906:xnack-"},
		{"amdgcn-amd-amdhsa--gfx803", "hipv4-amdgcn-amd-amdhsa--gfx803"},
		{"hipv4-amdgcn-amd-amdhsa--gfx803", "hipv4-amdgcn-amd-amdhsa--gfx803"},
		{"gfx1030", ""},
		{"gfx90a:bogus+", ""},
		{"x86_64", ""},
	}
	for _, tt := range tests {
		e, err := c.Select(tt.target)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("Select(%q) = %s, want an error", tt.target, e.ID)
		case tt.want != "" && (err != nil || e.ID != tt.want):
			t.Errorf("Select(%q) = %v, %v; want %s", tt.target, e, err, tt.want)
		}
	}
	// A plain code object is chosen by default whatever its processor, so
	// its own errors (here: no processor in e_flags) are the ones reported.
	noMach := mutate(mustRead(t, "testdata/co/vadd-gfx900-v4.co"), func(b []byte) []byte { le.PutUint32(b[48:], 0); return b })
	pc, err := NewContainer(bytes.NewReader(noMach), int64(len(noMach)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFrom(pc, LoadOptions{}); err == nil || !strings.Contains(err.Error(), "EF_AMDGPU_MACH_NONE") {
		t.Errorf("loading a code object without a processor: %v", err)
	}
	// The loaded code object really is the selected target.
	co, err := LoadFrom(c, LoadOptions{Target: "gfx90a:xnack+"})
	if err != nil {
		t.Fatal(err)
	}
	if co.Target.ID() != "gfx90a:xnack+" || co.Kernel("args") == nil {
		t.Errorf("loaded %s with kernels %d, want gfx90a:xnack+ with kernel args", co.Target.ID(), len(co.Kernels))
	}
}

// TestBundleRoundTrip writes bundles in every format and reads them back.
func TestBundleRoundTrip(t *testing.T) {
	co := mustRead(t, "testdata/co/vadd-gfx900-v5.co")
	in := []BundleInput{{ID: "host-x86_64-unknown-linux-gnu"}, {ID: "hipv4-amdgcn-amd-amdhsa--gfx900", Data: co}, {ID: "hipv4-amdgcn-amd-amdhsa--gfx1030", Data: []byte("not really a code object")}}
	plain := WriteBundle(in)
	for _, tt := range []struct {
		method  string
		version int
	}{{"", 0}, {"zlib", 1}, {"zlib", 2}, {"zlib", 3}, {"zstd", 1}, {"zstd", 2}, {"zstd", 3}} {
		data := plain
		if tt.method != "" {
			var err error
			if data, err = CompressBundle(plain, tt.method, tt.version); err != nil {
				t.Fatal(err)
			}
		}
		c, err := NewContainer(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatalf("%s v%d: %v", tt.method, tt.version, err)
		}
		if len(c.Entries) != len(in) {
			t.Fatalf("%s v%d: %d entries, want %d", tt.method, tt.version, len(c.Entries), len(in))
		}
		for i, e := range c.Entries {
			got, _ := io.ReadAll(e.Reader())
			if e.ID != in[i].ID || !bytes.Equal(got, in[i].Data) || e.Compression != tt.method {
				t.Errorf("%s v%d entry %d: %s (%d bytes, %q), want %s (%d bytes)", tt.method, tt.version, i, e.ID, len(got), e.Compression, in[i].ID, len(in[i].Data))
			}
		}
		if co, err := LoadFrom(c, LoadOptions{}); err != nil || co.Kernel("vadd") == nil {
			t.Errorf("%s v%d: LoadFrom: %v", tt.method, tt.version, err)
		}
	}
}

// TestBadBundles: broken containers give *FormatErrors, never panics or
// large allocations.
func TestBadBundles(t *testing.T) {
	co := mustRead(t, "testdata/co/vadd-gfx900-v4.co")
	plain := WriteBundle([]BundleInput{{ID: "hipv4-amdgcn-amd-amdhsa--gfx900", Data: co}})
	zst, _ := CompressBundle(plain, "zstd", 3)
	zl, _ := CompressBundle(plain, "zlib", 2)
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"truncated header", plain[:30], "truncated"},
		{"2^60 entries", mutate(plain, func(b []byte) []byte { le.PutUint64(b[24:], 1<<60); return b }), "cannot fit"},
		{"entry past end", mutate(plain, func(b []byte) []byte { le.PutUint64(b[40:], 1<<40); return b }), "runs past the bundle"},
		{"entry offset wraps", mutate(plain, func(b []byte) []byte { le.PutUint64(b[32:], ^uint64(0)); return b }), "runs past the bundle"},
		{"ID length huge", mutate(plain, func(b []byte) []byte { le.PutUint64(b[48:], 1<<62); return b }), "ID length"},
		{"truncated code object", plain[:len(plain)-100], "runs past the bundle"},
		{"ccob unknown version", mutate(zst, func(b []byte) []byte { b[4] = 9; return b }), "unknown compressed bundle version"},
		{"ccob unknown method", mutate(zst, func(b []byte) []byte { b[6] = 7; return b }), "unknown compression method"},
		{"ccob total size too big", mutate(zst, func(b []byte) []byte { le.PutUint64(b[8:], 1<<50); return b }), "total size"},
		{"ccob decompression bomb", mutate(zst, func(b []byte) []byte { le.PutUint64(b[16:], 1<<40); return b }), "implausible"},
		{"ccob size mismatch", mutate(zst, func(b []byte) []byte { le.PutUint64(b[16:], uint64(len(plain))-1); return b }), "more than"},
		{"ccob truncated zstd", zst[:len(zst)-20], "total size"},
		{"ccob corrupt zlib", mutate(zl, func(b []byte) []byte {
			for i := 30; i < len(b); i++ {
				b[i] ^= 0x5a
			}
			return b
		}), "zlib"},
		{"not a container", []byte("hello, world, this is text"), "not an ELF file"},
		{"ccob inside a ccob", func() []byte { b, _ := CompressBundle(zst, "zlib", 2); return b }(), "bad magic"},
		{"bundle inside a ccob inside a bundle", WriteBundle([]BundleInput{{ID: "hipv4-amdgcn-amd-amdhsa--gfx900", Data: zst}}), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewContainer(bytes.NewReader(tt.data), int64(len(tt.data)))
			if tt.want == "" {
				// Nesting is not followed: the entry is listed, and loading
				// it fails because it is not an ELF file.
				if err != nil || len(c.Entries) != 1 {
					t.Fatalf("NewContainer: %v", err)
				}
				_, err = c.Entries[0].Load()
				tt.want = "bad magic"
			}
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T), want a *FormatError", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
		})
	}
}

// TestFatbinScan: bundles anywhere in .hip_fatbin, with junk between them,
// are found, and a scan always terminates.
func TestFatbinScan(t *testing.T) {
	co := mustRead(t, "testdata/co/vadd-gfx900-v4.co")
	b1 := WriteBundle([]BundleInput{{ID: "hipv4-amdgcn-amd-amdhsa--gfx900", Data: co}})
	b2, _ := CompressBundle(b1, "zstd", 2)
	var sec []byte
	sec = append(sec, b1...)
	sec = append(sec, bytes.Repeat([]byte{0xcc}, 777)...) // unaligned junk
	sec = append(sec, b2...)
	sec = append(sec, []byte("__CLANG_OFFLOAD_BUND")...) // a cut-off magic at the end
	c := &Container{}
	r := bytes.NewReader(sec)
	if err := c.scanFatbin(r, 0, int64(len(sec))); err != nil {
		t.Fatal(err)
	}
	if c.Bundles != 2 || len(c.Entries) != 2 || c.Entries[1].Compression != "zstd" {
		t.Fatalf("found %d bundles, entries %+v", c.Bundles, c.Entries)
	}
	// A CCOB v1 header has no total size; the bundle after it is still found.
	v1, _ := CompressBundle(b1, "zstd", 1)
	v1z, _ := CompressBundle(b1, "zlib", 1)
	sec = append(append(append(append([]byte{}, v1...), make([]byte, 100)...), v1z...), b1...)
	c = &Container{}
	if err := c.scanFatbin(bytes.NewReader(sec), 0, int64(len(sec))); err != nil {
		t.Fatal(err)
	}
	if c.Bundles != 3 || len(c.Entries) != 3 || c.Entries[0].Compression != "zstd" || c.Entries[1].Compression != "zlib" || c.Entries[2].Compression != "" {
		t.Fatalf("v1 CCOBs: found %d bundles, entries %+v", c.Bundles, c.Entries)
	}
	// A bundle with no entries claims no size: the scan must still advance.
	empty := WriteBundle(nil)
	loop := append(append([]byte{}, empty...), empty...)
	c = &Container{}
	if err := c.scanFatbin(bytes.NewReader(loop), 0, int64(len(loop))); err != nil || c.Bundles != 2 {
		t.Fatalf("empty bundles: %d bundles, %v", c.Bundles, err)
	}
}
