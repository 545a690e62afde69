package asm

import (
	"bytes"
	"debug/elf"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/wavedbg/wavedbg/loader"
)

// metadataKernel is a kernel entry with every required field.
const metadataKernel = `  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 0x10
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 010
    .vgpr_count: 3
    .max_flat_workgroup_size: 1024
`

// metadataDocs are YAML documents that exercise scalar typing (quoted
// numbers, booleans spelled yes/on, floats, negatives, !str), flow and
// block collections, comments and map key order.
var metadataDocs = map[string]string{
	"block": "amdhsa.version:\n  - 1\n  - 1\namdhsa.kernels:\n" + metadataKernel,
	"flow":  "amdhsa.version: [ 1, 2 ]\namdhsa.kernels: [ { .name: k, .symbol: k.kd, .kernarg_segment_size: 0, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .kernarg_segment_align: 4, .wavefront_size: 64, .sgpr_count: 1, .vgpr_count: 1, .max_flat_workgroup_size: 64 } ]\n",
	"scalars": "amdhsa.version: [1, 1]\namdhsa.kernels:\n" + metadataKernel +
		"    .args:\n      - { .name: !str n, .size: 4, .offset: 0, .value_kind: by_value, .type_name: 'float*', .is_const: yes }\n" +
		"      - .name: \"quoted\\tname\"\n        .size: 8   # a comment\n        .offset: 8\n        .value_kind: global_buffer\n        .address_space: global\n        .is_restrict: on\n" +
		"amdhsa.target: amdgcn-amd-amdhsa--gfx900\nextra:\n  quoted_number: '123'\n  negative: -40\n  big: 300000\n  float: 1.5\n  nothing: ~\n  empty:\n  list: [ a, 'b c', -1 ]\n  zz: last\n  AA: first\n",
	// LLVM 19's typing, odd corners kept: floats and empty scalars are
	// null, .inf and null are strings, an empty value is an empty list.
	"quirks": "amdhsa.version: [1, 1]\namdhsa.kernels: []\nq: [ 1.5, 2.0, 1e3, .5, -1.5, inf, .inf, null, NULL, \"\", '', y, n, Off, 0x10, 0b11, 0o17, 017, -0x5, +5, 1_000, nan, 18446744073709551615, -9223372036854775808 ]\nempty:\n",
}

// TestMetadataNoteMatchesLLVM: each document becomes the note llvm-mc-19
// writes for it (live), or testdata/metadata.txt without LLVM.
func TestMetadataNoteMatchesLLVM(t *testing.T) {
	mc := oracle(t, "llvm-mc-19")
	golden := readGolden(t, "testdata/metadata.txt")
	got := map[string]string{}
	var names []string
	for n := range metadataDocs {
		names = append(names, n)
	}
	sort.Strings(names)
	dir := t.TempDir()
	for _, name := range names {
		src := ".amdgpu_metadata\n---\n" + metadataDocs[name] + "...\n.end_amdgpu_metadata\n"
		o, err := Parse(name+".s", []byte(src), Options{Target: "gfx900"})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		ours := hex.EncodeToString(o.metadata)
		got[name] = ours
		want, ok := golden[name]
		if mc != "" {
			path := filepath.Join(dir, name+".s")
			obj := path + ".o"
			os.WriteFile(path, []byte(src), 0o644)
			if _, stderr, err := run(t, nil, mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj", path, "-o", obj); err != nil {
				t.Fatalf("%s: llvm-mc-19: %v\n%s", name, err, stderr)
			}
			b, _ := os.ReadFile(obj)
			want, ok = hex.EncodeToString(noteDesc(t, sectionData(t, b, ".note"))), true
		}
		if !ok || ours != want {
			t.Errorf("%s:\n ours %s\n want %s", name, ours, want)
		}
	}
	if *update {
		writeGolden(t, "testdata/metadata.txt", got)
	}
}

// noteDesc is the descriptor of the first note in b.
func noteDesc(t *testing.T, b []byte) []byte {
	if len(b) < 12 {
		t.Fatal("short note")
	}
	nsz := int(b[0]) | int(b[1])<<8
	dsz := int(b[4]) | int(b[5])<<8 | int(b[6])<<16
	off := 12 + (nsz+3)&^3
	return b[off : off+dsz]
}

// TestGeneratedMetadata: a kernel without .amdgpu_metadata gets metadata
// from its descriptor, which the loader reads: every 8 bytes of
// .amdhsa_kernarg_size a global buffer, the last 4 a by-value word.
func TestGeneratedMetadata(t *testing.T) {
	src := ".amdhsa_code_object_version 4\n.text\n.globl k\nk:\n\tv_mov_b32 v4, s9\n\ts_endpgm\n.rodata\n.p2align 6\n" +
		".amdhsa_kernel k\n.amdhsa_kernarg_size 20\n.amdhsa_group_segment_fixed_size 256\n" +
		".amdhsa_next_free_vgpr .amdgcn.next_free_vgpr\n.amdhsa_next_free_sgpr .amdgcn.next_free_sgpr\n.end_amdhsa_kernel\n"
	co, err := Assemble("g.s", []byte(src), Options{Target: "gfx900"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := loader.NewCodeObject(bytes.NewReader(co), int64(len(co)))
	if err != nil {
		t.Fatal(err)
	}
	if c.Metadata == nil || len(c.Kernels) != 1 {
		t.Fatalf("metadata %v, %d kernels", c.Metadata, len(c.Kernels))
	}
	k := c.Kernels[0]
	if k.Meta == nil || len(k.Meta.Args) != 3 || k.Meta.KernargSegmentSize != 20 || k.Meta.GroupSegmentFixedSize != 256 ||
		k.Meta.VGPRCount != 5 || k.Meta.SGPRCount != 10+6 {
		t.Fatalf("kernel metadata %+v", k.Meta)
	}
	if a := k.Meta.Args; a[0].ValueKind != "global_buffer" || a[1].Offset != 8 || a[2].ValueKind != "by_value" || a[2].Size != 4 {
		t.Errorf("args %+v", a)
	}
	if f, _ := elf.NewFile(bytes.NewReader(co)); f == nil || f.Section(".note") == nil {
		t.Error("no .note")
	}
}
