package loader

import (
	"debug/elf"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Debian's librocsparse0 and librocrand1 carry real ROCm code objects in
// .hip_fatbin (.ci/run installs them).
var debianLibs = []string{
	"/usr/lib/x86_64-linux-gnu/librocsparse.so.0.1",
	"/usr/lib/x86_64-linux-gnu/librocrand.so.1.1",
}

// TestDebianLibraries: every bundle splits, every code object loads, every
// kernel's descriptor agrees with its metadata; for a sample, the metadata
// agrees with llvm-readelf --notes and the kernel list with debug/elf's
// .kd symbols.
func TestDebianLibraries(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	readelf := needTool(t, "llvm-readelf-19")
	dir := t.TempDir()
	var objects, kernels, sampled int
	perTarget := map[string]int{}
	for _, lib := range debianLibs {
		needFile(t, lib)
		c, err := OpenContainer(lib)
		if err != nil {
			t.Fatal(err)
		}
		if c.Kind != KindFatBinary || c.Bundles == 0 {
			t.Fatalf("%s: %v with %d bundles", lib, c.Kind, c.Bundles)
		}
		for i := range c.Entries {
			e := &c.Entries[i]
			if !e.IsAMDGPU() {
				if e.Kind != "host" {
					t.Errorf("%s: unexpected non-GPU entry %s", lib, e.ID)
				}
				continue
			}
			co, err := e.Load()
			if err != nil {
				t.Fatalf("%s[%s]: %v", lib, e.ID, err)
			}
			objects++
			perTarget[e.TargetID]++
			if co.Target.ID() != e.TargetID || co.Version != 4 {
				t.Errorf("%s[%s]: code object says %s, v%d", lib, e.ID, co.Target.ID(), co.Version)
			}
			if co.Metadata == nil || len(co.Kernels) != len(co.Metadata.Kernels) {
				t.Errorf("%s[%s]: %d kernels, metadata lists %v", lib, e.ID, len(co.Kernels), co.Metadata)
			}
			for k := range co.Kernels {
				kernels++
				if bad := co.Kernels[k].Check(co.Target.Processor); len(bad) > 0 {
					t.Errorf("%s[%s] %s: %v", lib, e.ID, co.Kernels[k].Name, bad)
				}
			}
			// Sample every 60th code object for the slower oracles.
			if objects%60 == 1 {
				sampled++
				path := filepath.Join(dir, fmt.Sprintf("%d.co", objects))
				writeEntry(t, e, path)
				compareMetadata(t, readelf, path, co.Metadata)
				compareKDSymbols(t, path, co)
			}
		}
		c.Close()
	}
	t.Logf("%d code objects (%v), %d kernels, %d compared with llvm-readelf", objects, perTarget, kernels, sampled)
	if objects == 0 || sampled == 0 {
		t.Fatal("no code objects checked")
	}
}

func writeEntry(t *testing.T, e *BundleEntry, path string) {
	t.Helper()
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	if _, err := io.Copy(out, e.Reader()); err != nil {
		t.Fatal(err)
	}
}

// compareKDSymbols checks our kernel list against the .kd symbols debug/elf
// finds.
func compareKDSymbols(t *testing.T, path string, co *CodeObject) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]uint64{}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_OBJECT && strings.HasSuffix(s.Name, ".kd") {
			want[strings.TrimSuffix(s.Name, ".kd")] = s.Value
		}
	}
	if len(want) != len(co.Kernels) {
		t.Errorf("%s: %d kernels, debug/elf finds %d .kd symbols", path, len(co.Kernels), len(want))
	}
	for _, k := range co.Kernels {
		if addr, ok := want[k.Name]; !ok || addr != k.DescriptorAddr {
			t.Errorf("%s: kernel %s descriptor at %#x, debug/elf %#x (found %v)", path, k.Name, k.DescriptorAddr, addr, ok)
		}
	}
}

// BenchmarkLoadRocsparse loads librocsparse's whole fat binary: every
// bundle, every code object's target, metadata and kernel descriptors.
func BenchmarkLoadRocsparse(b *testing.B) {
	lib := needFile(b, debianLibs[0])
	kernels := 0
	for b.Loop() {
		kernels = 0
		c, err := OpenContainer(lib)
		if err != nil {
			b.Fatal(err)
		}
		for i := range c.Entries {
			if e := &c.Entries[i]; e.IsAMDGPU() {
				co, err := e.Load()
				if err != nil {
					b.Fatal(err)
				}
				kernels += len(co.Kernels)
			}
		}
		c.Close()
	}
	b.ReportMetric(float64(kernels), "kernels/op")
}
