package lanes

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestCPUFeatures checks the detection against the kernel's view of the
// CPU where there is one: on linux/amd64 SIMD, FMA and F16C must agree
// with the avx2, fma and f16c flags of /proc/cpuinfo (unless built with
// -tags purego).
func TestCPUFeatures(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" || purego {
		t.Logf("SIMD=%v FMA=%v F16C=%v (no /proc/cpuinfo check on %s/%s, purego=%v)", SIMD, FMA, F16C, runtime.GOOS, runtime.GOARCH, purego)
		return
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Fatal(err)
	}
	var flags []string
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
			flags = strings.Fields(v)
			break
		}
	}
	has := func(f string) bool {
		for _, g := range flags {
			if g == f {
				return true
			}
		}
		return false
	}
	if want := has("avx2"); SIMD != want {
		t.Errorf("SIMD = %v, /proc/cpuinfo avx2 = %v", SIMD, want)
	}
	if want := has("avx2") && has("fma"); FMA != want {
		t.Errorf("FMA = %v, /proc/cpuinfo avx2 && fma = %v", FMA, want)
	}
	if want := has("avx2") && has("f16c"); F16C != want {
		t.Errorf("F16C = %v, /proc/cpuinfo avx2 && f16c = %v", F16C, want)
	}
}
