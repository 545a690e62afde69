package loader

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// Differential tests against LLVM 19: llvm-readelf --notes for metadata,
// llvm-readelf -h for the target, llvm-objdump -D for kernel descriptors.

// readelfMetadata runs llvm-readelf --notes on path and returns the
// metadata YAML document it prints, decoded.
func readelfMetadata(t testing.TB, readelf, path string) map[string]any {
	t.Helper()
	out, err := exec.Command(readelf, "--notes", path).Output()
	if err != nil {
		t.Fatalf("llvm-readelf --notes %s: %v", path, err)
	}
	var doc []string
	in := false
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.TrimSpace(line) == "---":
			in = true
		case in && line == "...":
			in = false
		case in:
			doc = append(doc, line)
		}
	}
	var m map[string]any
	if err := yaml.Unmarshal([]byte(strings.Join(doc, "\n")), &m); err != nil {
		t.Fatalf("parsing llvm-readelf's metadata for %s: %v", path, err)
	}
	return m
}

// v3KernelKeys renders our KernelMeta with the v3+ key names and the
// YAML scalar spelling llvm-readelf uses.
func v3KernelKeys(k *KernelMeta) map[string]any {
	m := map[string]any{
		".name": k.Name, ".symbol": k.Symbol, ".language": k.Language, ".language_version": k.LanguageVersion,
		".kind": k.Kind, ".reqd_workgroup_size": k.ReqdWorkgroupSize, ".workgroup_size_hint": k.WorkgroupSizeHint,
		".vec_type_hint": k.VecTypeHint, ".device_enqueue_symbol": k.DeviceEnqueueSymbol,
		".kernarg_segment_size": k.KernargSegmentSize, ".kernarg_segment_align": k.KernargSegmentAlign,
		".group_segment_fixed_size": k.GroupSegmentFixedSize, ".private_segment_fixed_size": k.PrivateSegmentFixedSize,
		".wavefront_size": k.WavefrontSize, ".sgpr_count": k.SGPRCount, ".vgpr_count": k.VGPRCount,
		".agpr_count": k.AGPRCount, ".sgpr_spill_count": k.SGPRSpillCount, ".vgpr_spill_count": k.VGPRSpillCount,
		".max_flat_workgroup_size": k.MaxFlatWorkgroupSize, ".uses_dynamic_stack": k.UsesDynamicStack,
		".workgroup_processor_mode": k.WorkgroupProcessorMode, ".uniform_work_group_size": b2i(k.UniformWorkgroupSize),
	}
	var args []any
	for _, a := range k.Args {
		args = append(args, map[string]any{
			".name": a.Name, ".type_name": a.TypeName, ".offset": a.Offset, ".size": a.Size,
			".value_kind": string(a.ValueKind), ".value_type": a.ValueType, ".pointee_align": a.PointeeAlign,
			".address_space": a.AddressSpace, ".access": a.Access, ".actual_access": a.ActualAccess,
			".is_const": a.IsConst, ".is_restrict": a.IsRestrict, ".is_volatile": a.IsVolatile, ".is_pipe": a.IsPipe,
		})
	}
	m[".args"] = args
	return m
}

// v2KernelKeys renders our KernelMeta with code object v2's key names.
func v2KernelKeys(k *KernelMeta) map[string]any {
	m := map[string]any{
		"Name": k.Name, "SymbolName": k.Symbol, "Language": k.Language, "LanguageVersion": k.LanguageVersion,
		"Attrs": map[string]any{"ReqdWorkGroupSize": k.ReqdWorkgroupSize, "WorkGroupSizeHint": k.WorkgroupSizeHint,
			"VecTypeHint": k.VecTypeHint, "RuntimeHandle": k.DeviceEnqueueSymbol},
		"CodeProps": map[string]any{
			"KernargSegmentSize": k.KernargSegmentSize, "GroupSegmentFixedSize": k.GroupSegmentFixedSize,
			"PrivateSegmentFixedSize": k.PrivateSegmentFixedSize, "KernargSegmentAlign": k.KernargSegmentAlign,
			"WavefrontSize": k.WavefrontSize, "NumSGPRs": k.SGPRCount, "NumVGPRs": k.VGPRCount,
			"MaxFlatWorkGroupSize": k.MaxFlatWorkgroupSize, "IsDynamicCallStack": k.UsesDynamicStack,
			"NumSpilledSGPRs": k.SGPRSpillCount, "NumSpilledVGPRs": k.VGPRSpillCount,
			"IsXNACKEnabled": skip{},
		},
	}
	var args []any
	for _, a := range k.Args {
		args = append(args, map[string]any{
			"Name": a.Name, "TypeName": a.TypeName, "Size": a.Size, "Align": skip{},
			"ValueKind": string(a.ValueKind), "ValueType": a.ValueType, "PointeeAlign": a.PointeeAlign,
			"AddrSpaceQual": a.AddressSpace, "AccQual": a.Access, "ActualAccQual": a.ActualAccess,
			"IsConst": a.IsConst, "IsRestrict": a.IsRestrict, "IsVolatile": a.IsVolatile, "IsPipe": a.IsPipe,
		})
	}
	m["Args"] = args
	return m
}

// skip marks a key we do not keep (alignment, which becomes offsets).
type skip struct{}

func b2i(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// sameValue compares an oracle YAML value with ours. v2 enumerators are
// CamelCase in the oracle and snake_case in ours.
func sameValue(path string, theirs, ours any, diffs *[]string) {
	switch tv := theirs.(type) {
	case map[string]any:
		om, ok := ours.(map[string]any)
		if !ok {
			*diffs = append(*diffs, fmt.Sprintf("%s: oracle has a map, we have %v", path, ours))
			return
		}
		for k, v := range tv {
			ov, ok := om[k]
			if !ok {
				*diffs = append(*diffs, fmt.Sprintf("%s.%s: key not decoded (oracle value %v)", path, k, v))
				continue
			}
			sameValue(path+"."+k, v, ov, diffs)
		}
	case []any:
		var ol []string
		switch o := ours.(type) {
		case []any:
			if len(o) != len(tv) {
				*diffs = append(*diffs, fmt.Sprintf("%s: %d elements, oracle %d", path, len(o), len(tv)))
				return
			}
			for i := range tv {
				sameValue(fmt.Sprintf("%s[%d]", path, i), tv[i], o[i], diffs)
			}
			return
		case []uint64:
			for _, x := range o {
				ol = append(ol, strconv.FormatUint(x, 10))
			}
		}
		var tl []string
		for _, x := range tv {
			tl = append(tl, fmt.Sprint(x))
		}
		if strings.Join(tl, ",") != strings.Join(ol, ",") {
			*diffs = append(*diffs, fmt.Sprintf("%s: ours %v, oracle %v", path, ol, tl))
		}
	default:
		if _, ok := ours.(skip); ok {
			return
		}
		ts, os := fmt.Sprint(theirs), fmt.Sprint(ours)
		if ts != os && v2Snake(ts) != os && strings.ToLower(ts) != os {
			*diffs = append(*diffs, fmt.Sprintf("%s: ours %q, oracle %q", path, os, ts))
		}
	}
}

// compareMetadata checks every key llvm-readelf prints against ours.
func compareMetadata(t testing.TB, readelf, path string, md *Metadata) {
	t.Helper()
	doc := readelfMetadata(t, readelf, path)
	var diffs []string
	if md == nil {
		t.Fatalf("%s: we found no metadata", path)
	}
	if ks, ok := doc["amdhsa.kernels"].([]any); ok {
		var ours []any
		for i := range md.Kernels {
			ours = append(ours, v3KernelKeys(&md.Kernels[i]))
		}
		sameValue("amdhsa.kernels", ks, ours, &diffs)
		sameValue("amdhsa.version", doc["amdhsa.version"], md.Version[:], &diffs)
		if tg, ok := doc["amdhsa.target"]; ok && tg != md.Target {
			diffs = append(diffs, fmt.Sprintf("amdhsa.target: ours %q, oracle %q", md.Target, tg))
		}
	} else if ks, ok := doc["Kernels"].([]any); ok {
		var ours []any
		for i := range md.Kernels {
			ours = append(ours, v2KernelKeys(&md.Kernels[i]))
		}
		sameValue("Kernels", ks, ours, &diffs)
	} else {
		t.Fatalf("%s: llvm-readelf printed no kernels", path)
	}
	for _, d := range diffs {
		t.Errorf("%s: %s", path, d)
	}
}

func TestReadelfNotes(t *testing.T) {
	readelf := needTool(t, "llvm-readelf-19")
	for _, p := range codeObjects(t) {
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		md, err := f.Metadata()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		compareMetadata(t, readelf, p, md)
	}
}

// TestReadelfTarget compares e_flags decoding with llvm-readelf -h, which
// prints "Flags: 0x..., gfx900, xnack-" style lists.
func TestReadelfTarget(t *testing.T) {
	readelf := needTool(t, "llvm-readelf-19")
	for _, p := range codeObjects(t) {
		out, err := exec.Command(readelf, "-h", p).Output()
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`Flags:\s+0x[0-9a-fA-F]+, (.*)`).FindSubmatch(out)
		if m == nil {
			t.Fatalf("%s: no Flags line in llvm-readelf -h", p)
		}
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		tg, err := f.Target()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		want = append(want, tg.Processor)
		v, _ := f.CodeObjectVersion()
		for _, x := range []struct {
			name string
			f    Feature
		}{{"xnack", tg.XNACK}, {"sramecc", tg.SRAMECC}} {
			switch {
			case v <= 3 && x.f == FeatureOn:
				want = append(want, x.name)
			case v >= 4 && x.f == FeatureOn:
				want = append(want, x.name+"+")
			case v >= 4 && x.f == FeatureOff:
				want = append(want, x.name+"-")
			case v >= 4 && x.f == FeatureAny:
				want = append(want, x.name) // llvm-readelf spells "any" as the bare name
			}
		}
		got := strings.Split(strings.TrimSpace(string(m[1])), ", ")
		if !sameSet(got, want) {
			t.Errorf("%s: llvm-readelf flags %q, ours %q", p, got, want)
		}
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[string]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		seen[x]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

// amdhsaField maps llvm-objdump's .amdhsa_* directives to our decoded
// descriptor, so every directive it prints is checked.
func amdhsaField(name string, kd *KernelDescriptor, proc string) (uint64, bool) {
	r1, r2, r3, p := kd.Rsrc1, kd.Rsrc2, kd.Rsrc3, kd.Properties
	u := func(b bool) uint64 { return b2i(b) }
	switch name {
	case "group_segment_fixed_size":
		return uint64(kd.GroupSegmentFixedSize), true
	case "private_segment_fixed_size":
		return uint64(kd.PrivateSegmentFixedSize), true
	case "kernarg_size":
		return uint64(kd.KernargSize), true
	case "accum_offset":
		return (uint64(r3.AccumOffset) + 1) * 4, true
	case "tg_split":
		return u(r3.TGSplit), true
	case "next_free_vgpr":
		return uint64(r1.VGPRs(proc, p.EnableWavefrontSize32)), true
	case "next_free_sgpr":
		return uint64(r1.SGPRs(proc)), true
	case "float_round_mode_32":
		return uint64(r1.FloatRoundMode32), true
	case "float_round_mode_16_64":
		return uint64(r1.FloatRoundMode16_64), true
	case "float_denorm_mode_32":
		return uint64(r1.FloatDenormMode32), true
	case "float_denorm_mode_16_64":
		return uint64(r1.FloatDenormMode16_64), true
	case "dx10_clamp":
		return u(r1.EnableDX10Clamp), true
	case "ieee_mode":
		return u(r1.EnableIEEEMode), true
	case "fp16_overflow":
		return u(r1.FP16Ovfl), true
	case "system_sgpr_private_segment_wavefront_offset", "enable_private_segment":
		return u(r2.EnablePrivateSegment), true
	case "user_sgpr_count":
		return uint64(r2.UserSGPRCount), true
	case "system_sgpr_workgroup_id_x":
		return u(r2.EnableSGPRWorkgroupIDX), true
	case "system_sgpr_workgroup_id_y":
		return u(r2.EnableSGPRWorkgroupIDY), true
	case "system_sgpr_workgroup_id_z":
		return u(r2.EnableSGPRWorkgroupIDZ), true
	case "system_sgpr_workgroup_info":
		return u(r2.EnableSGPRWorkgroupInfo), true
	case "system_vgpr_workitem_id":
		return uint64(r2.EnableVGPRWorkitemID), true
	case "exception_fp_ieee_invalid_op":
		return u(r2.EnableExceptionIEEE754FPInvalidOperation), true
	case "exception_fp_denorm_src":
		return u(r2.EnableExceptionFPDenormalSource), true
	case "exception_fp_ieee_div_zero":
		return u(r2.EnableExceptionIEEE754FPDivisionByZero), true
	case "exception_fp_ieee_overflow":
		return u(r2.EnableExceptionIEEE754FPOverflow), true
	case "exception_fp_ieee_underflow":
		return u(r2.EnableExceptionIEEE754FPUnderflow), true
	case "exception_fp_ieee_inexact":
		return u(r2.EnableExceptionIEEE754FPInexact), true
	case "exception_int_div_zero":
		return u(r2.EnableExceptionIntDivideByZero), true
	case "user_sgpr_private_segment_buffer":
		return u(p.EnableSGPRPrivateSegmentBuffer), true
	case "user_sgpr_dispatch_ptr":
		return u(p.EnableSGPRDispatchPtr), true
	case "user_sgpr_queue_ptr":
		return u(p.EnableSGPRQueuePtr), true
	case "user_sgpr_kernarg_segment_ptr":
		return u(p.EnableSGPRKernargSegmentPtr), true
	case "user_sgpr_dispatch_id":
		return u(p.EnableSGPRDispatchID), true
	case "user_sgpr_flat_scratch_init":
		return u(p.EnableSGPRFlatScratchInit), true
	case "user_sgpr_private_segment_size":
		return u(p.EnableSGPRPrivateSegmentSize), true
	case "uses_dynamic_stack":
		return u(p.UsesDynamicStack), true
	case "wavefront_size32":
		return u(p.EnableWavefrontSize32), true
	case "user_sgpr_kernarg_preload_length":
		return uint64(kd.KernargPreloadSpecLength), true
	case "user_sgpr_kernarg_preload_offset":
		return uint64(kd.KernargPreloadSpecOffset), true
	case "reserve_vcc", "reserve_flat_scratch", "reserve_xnack_mask":
		// Not descriptor fields: llvm-objdump always prints 0 (the
		// counts are folded into next_free_sgpr).
		return 0, true
	}
	return 0, false
}

// TestObjdumpDescriptors compares every kernel descriptor with the
// .amdhsa_* directives llvm-objdump -D prints for it.
func TestObjdumpDescriptors(t *testing.T) {
	objdump := needTool(t, "llvm-objdump-19")
	checked := 0
	for _, p := range codeObjects(t) {
		co, err := Load(p, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		co.Close()
		if co.Version < 3 {
			continue
		}
		out, err := exec.Command(objdump, "-D", "--mcpu="+co.Target.Processor, p).Output()
		if err != nil {
			t.Fatalf("llvm-objdump -D %s: %v", p, err)
		}
		directives := parseAmdhsa(out)
		for i := range co.Kernels {
			k := &co.Kernels[i]
			ds := directives[k.Name]
			if len(ds) == 0 {
				t.Errorf("%s: llvm-objdump printed no .amdhsa_kernel %s", p, k.Name)
				continue
			}
			for _, d := range ds {
				got, ok := amdhsaField(d.name, k.Descriptor, co.Target.Processor)
				if !ok {
					t.Errorf("%s %s: directive .amdhsa_%s is not mapped", p, k.Name, d.name)
				} else if got != d.value {
					t.Errorf("%s %s: .amdhsa_%s %d, ours %d", p, k.Name, d.name, d.value, got)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no directives compared")
	}
}

type directive struct {
	name  string
	value uint64
}

func parseAmdhsa(out []byte) map[string][]directive {
	res := map[string][]directive{}
	var cur string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, ".amdhsa_kernel "):
			cur = strings.TrimPrefix(line, ".amdhsa_kernel ")
		case line == ".end_amdhsa_kernel":
			cur = ""
		case cur != "" && strings.HasPrefix(line, ".amdhsa_"):
			f := strings.Fields(line)
			if len(f) == 2 {
				v, err := strconv.ParseUint(f[1], 0, 64)
				if err == nil {
					res[cur] = append(res[cur], directive{strings.TrimPrefix(f[0], ".amdhsa_"), v})
				}
			}
		}
	}
	return res
}
