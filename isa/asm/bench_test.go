package asm

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// benchLabel matches the .L labels of the samples, renamed per copy.
var benchLabel = regexp.MustCompile(`\.L[A-Za-z0-9_]+`)

// benchSource is one kernel whose code is the code of every sample,
// copies times over (labels renamed per copy), with its descriptor and
// no metadata: about 420 instructions a copy.
func benchSource(t testing.TB, copies int) ([]byte, int) {
	var body []string
	for _, s := range samples(t) {
		b, err := os.ReadFile(s.src)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(strings.TrimSuffix(s.name, ".s"), ".cl")
		in := false
		for _, l := range strings.Split(string(b), "\n") {
			switch {
			case strings.HasPrefix(l, name+":"):
				in = true
			case strings.Contains(l, ".size") || strings.Contains(l, ".section") || strings.Contains(l, ".rodata") ||
				strings.HasPrefix(l, ".Lfunc_end") || strings.HasPrefix(l, ".L"+name+"_end"):
				in = false
			case in && !strings.Contains(l, "s_endpgm"):
				// Labels get the sample's name: two samples have .Ldone.
				body = append(body, benchLabel.ReplaceAllString(l, "${0}_"+name))
			}
		}
	}
	var sb strings.Builder
	sb.WriteString(".amdhsa_code_object_version 4\n.amdgcn_target \"amdgcn-amd-amdhsa--gfx900\"\n.text\n.globl big\n.p2align 8\nbig:\n")
	insns := 0
	for i := 0; i < copies; i++ {
		suffix := fmt.Sprintf("_%d", i)
		for _, l := range body {
			sb.WriteString(benchLabel.ReplaceAllString(l, "${0}"+suffix))
			sb.WriteByte('\n')
			if t := strings.TrimSpace(l); t != "" && t[0] != ';' && t[0] != '.' {
				insns++
			}
		}
	}
	sb.WriteString("\ts_endpgm\n.rodata\n.p2align 6\n.amdhsa_kernel big\n.amdhsa_next_free_vgpr .amdgcn.next_free_vgpr\n" +
		".amdhsa_next_free_sgpr .amdgcn.next_free_sgpr\n.amdhsa_reserve_flat_scratch 0\n.amdhsa_kernarg_size 64\n.end_amdhsa_kernel\n")
	return []byte(sb.String()), insns + 1
}

// BenchmarkAssembleFile assembles and links a file of about 400 k
// instructions (the size of the largest real listing) and reports the
// instructions assembled per second.
func BenchmarkAssembleFile(b *testing.B) {
	src, insns := benchSource(b, 1000)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Assemble("big.s", src, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(insns)*float64(b.N)/b.Elapsed().Seconds(), "insns/s")
}

// TestBenchSourceAssembles keeps the benchmark's file valid: a small one
// assembles, with labels resolved across copies.
func TestBenchSourceAssembles(t *testing.T) {
	src, insns := benchSource(t, 3)
	o, err := Parse("big.s", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if insns < 300 || len(o.Text) < 4*insns {
		t.Errorf("%d instructions, %d bytes of text", insns, len(o.Text))
	}
}
