package asm

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// kdCases are .amdhsa_kernel bodies; each is assembled for every target
// of kdTargets it suits.
var kdCases = map[string]string{
	"minimal":  ".amdhsa_next_free_vgpr 0\n.amdhsa_next_free_sgpr 0",
	"counts":   ".amdhsa_next_free_vgpr 9\n.amdhsa_next_free_sgpr 17\n.amdhsa_reserve_vcc 0\n.amdhsa_reserve_flat_scratch 0",
	"max":      ".amdhsa_next_free_vgpr 256\n.amdhsa_next_free_sgpr 96\n.amdhsa_reserve_vcc 1\n.amdhsa_reserve_flat_scratch 0",
	"vcc-only": ".amdhsa_next_free_vgpr 5\n.amdhsa_next_free_sgpr 7\n.amdhsa_reserve_vcc 1\n.amdhsa_reserve_flat_scratch 0",
	"user-sgprs": `.amdhsa_next_free_vgpr 3
.amdhsa_next_free_sgpr 4
.amdhsa_user_sgpr_private_segment_buffer 1
.amdhsa_user_sgpr_dispatch_ptr 1
.amdhsa_user_sgpr_queue_ptr 1
.amdhsa_user_sgpr_kernarg_segment_ptr 1
.amdhsa_user_sgpr_dispatch_id 1
.amdhsa_user_sgpr_flat_scratch_init 1
.amdhsa_user_sgpr_private_segment_size 1`,
	"explicit-user-count": ".amdhsa_next_free_vgpr 1\n.amdhsa_next_free_sgpr 1\n.amdhsa_user_sgpr_count 12\n.amdhsa_user_sgpr_kernarg_segment_ptr 1",
	"every-field": `.amdhsa_group_segment_fixed_size 4096
.amdhsa_private_segment_fixed_size 0x120
.amdhsa_kernarg_size 0x58
.amdhsa_uses_dynamic_stack 1
.amdhsa_system_sgpr_private_segment_wavefront_offset 1
.amdhsa_system_sgpr_workgroup_id_x 0
.amdhsa_system_sgpr_workgroup_id_y 1
.amdhsa_system_sgpr_workgroup_id_z 1
.amdhsa_system_sgpr_workgroup_info 1
.amdhsa_system_vgpr_workitem_id 2
.amdhsa_next_free_vgpr 37
.amdhsa_next_free_sgpr 40+2
.amdhsa_float_round_mode_32 1
.amdhsa_float_round_mode_16_64 2
.amdhsa_float_denorm_mode_32 3
.amdhsa_float_denorm_mode_16_64 1
.amdhsa_dx10_clamp 0
.amdhsa_ieee_mode 0
.amdhsa_exception_fp_ieee_invalid_op 1
.amdhsa_exception_fp_denorm_src 1
.amdhsa_exception_fp_ieee_div_zero 1
.amdhsa_exception_fp_ieee_overflow 1
.amdhsa_exception_fp_ieee_underflow 1
.amdhsa_exception_fp_ieee_inexact 1
.amdhsa_exception_int_div_zero 1`,
	"fp16-overflow": ".amdhsa_next_free_vgpr 2\n.amdhsa_next_free_sgpr 2\n.amdhsa_fp16_overflow 1",
}

// kdTargets are the processors (and xnack settings) the cases run on.
var kdTargets = []string{"gfx900", "gfx900:xnack-", "gfx900:xnack+", "gfx801", "gfx802", "gfx803", "gfx906:sramecc+:xnack-", "gfx90c"}

// kdSource wraps a body into a file for target.
func kdSource(target, body string) string {
	t, _ := targetOf(target)
	xn := ""
	if t.xnackEnabled() && t.xnack != 0 {
		xn = "\n.amdhsa_reserve_xnack_mask 1"
	} else if t.xnack != 0 {
		xn = "\n.amdhsa_reserve_xnack_mask 0"
	}
	return ".amdhsa_code_object_version 4\n.amdgcn_target \"" + t.id + "\"\n.text\n.globl k\n.p2align 8\nk:\n\ts_endpgm\n" +
		".rodata\n.p2align 6\n.amdhsa_kernel k\n" + body + xn + "\n.end_amdhsa_kernel\n"
}

// TestKernelDescriptorsMatchLLVM assembles every case for every target and
// compares the 64 descriptor bytes with llvm-mc-19's (live), or with
// testdata/kd.txt, which -asm.update writes from llvm-mc-19.
func TestKernelDescriptorsMatchLLVM(t *testing.T) {
	mc := oracle(t, "llvm-mc-19")
	golden := readGolden(t, "testdata/kd.txt")
	got := map[string]string{}
	var names []string
	for name := range kdCases {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, target := range kdTargets {
		for _, name := range names {
			if name == "fp16-overflow" && strings.HasPrefix(target, "gfx8") {
				continue
			}
			key := target + " " + name
			src := kdSource(target, kdCases[name])
			var ours string
			if o, err := Parse("k.s", []byte(src), Options{}); err != nil {
				ours = firstLine(err.Error())
			} else {
				ours = hex.EncodeToString(o.Rodata)
			}
			got[key] = ours
			want, ok := golden[key]
			if mc != "" {
				want, ok = mcKD(t, mc, target, src), true
			}
			if !ok {
				t.Errorf("%s: not in testdata/kd.txt (run with -asm.update)", key)
			} else if ours != want {
				t.Errorf("%s:\n ours %s\n llvm %s", key, ours, want)
			}
		}
	}
	if *update {
		writeGolden(t, "testdata/kd.txt", got)
	}
}

// mcKD is llvm-mc-19's .rodata for src (the kernel descriptor, with the
// entry offset left to the linker's relocation: zero).
func mcKD(t *testing.T, mc, target, src string) string {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "k.s"), filepath.Join(dir, "k.o")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	tt, _ := targetOf(target)
	args := []string{"-triple=amdgcn-amd-amdhsa", "-mcpu=" + tt.proc, "-filetype=obj", in, "-o", out}
	if feats := mattr(tt); feats != "" {
		args = append(args, "-mattr="+feats)
	}
	if _, stderr, err := run(t, nil, mc, args...); err != nil {
		return strings.Replace(firstLine(stderr), in, "k.s", 1)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(sectionData(t, b, ".rodata"))
}

// mattr is the -mattr for a target ID's xnack and sramecc settings.
func mattr(t targetInfo) string {
	var f []string
	for _, x := range []struct {
		name string
		v    string
	}{{"sramecc", map[bool]string{true: "+", false: "-"}[t.sramecc == 3]}, {"xnack", map[bool]string{true: "+", false: "-"}[t.xnack == 3]}} {
		if strings.Contains(t.id, ":"+x.name) {
			f = append(f, x.v+x.name)
		}
	}
	return strings.Join(f, ",")
}

// readGolden reads "key: value" lines.
func readGolden(t *testing.T, path string) map[string]string {
	m := map[string]string{}
	f, err := os.Open(path)
	if err != nil {
		if *update || os.IsNotExist(err) {
			return m
		}
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ": "); ok {
			m[k] = v
		}
	}
	return m
}

func writeGolden(t *testing.T, path string, m map[string]string) {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %s\n", k, m[k])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
