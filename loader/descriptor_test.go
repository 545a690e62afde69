package loader

import (
	"bytes"
	"debug/elf"
	"math/rand"
	"testing"
)

// TestDescriptorFieldBits sets one field at a time to all ones and checks
// that Fields reports exactly that field at its maximum, for each register
// layout, so no two fields overlap and none is misplaced.
func TestDescriptorFieldBits(t *testing.T) {
	regs := []struct {
		name   string
		off    int
		width  int // bytes
		fields []bitField
	}{
		{"COMPUTE_PGM_RSRC1.", 48, 4, rsrc1Fields},
		{"COMPUTE_PGM_RSRC2.", 52, 4, rsrc2Fields},
		{"COMPUTE_PGM_RSRC3.", 44, 4, rsrc3Fields},
		{"", 56, 2, propertyFields},
	}
	for _, proc := range []string{"gfx803", "gfx900", "gfx90a", "gfx1030", "gfx1100", "gfx1200"} {
		for _, reg := range regs {
			for _, fl := range reg.fields {
				var b [KernelDescriptorSize]byte
				v := uint32(1<<fl.width-1) << fl.shift
				if reg.width == 4 {
					le.PutUint32(b[reg.off:], v)
				} else {
					le.PutUint16(b[reg.off:], uint16(v))
				}
				kd, err := DecodeKernelDescriptor(b[:])
				if err != nil {
					t.Fatal(err)
				}
				exists := (fl.minMajor == 0 || GFXMajor(proc) >= fl.minMajor) && (fl.maxMajor == 0 || GFXMajor(proc) <= fl.maxMajor) &&
					(!fl.gfx90aOnly || hasAccumOffset(proc)) && (reg.off != 44 || hasAccumOffset(proc) || GFXMajor(proc) >= 10)
				if !exists {
					continue // the bits belong to another generation's field
				}
				present := false
				for _, f := range kd.Fields(proc) {
					switch {
					case f.Name == reg.name+fl.name && f.Value == uint64(1<<fl.width-1):
						present = true
					case f.Name == reg.name+fl.name:
						t.Errorf("%s %s = %#x, want %#x", proc, f.Name, f.Value, 1<<fl.width-1)
					case f.Value != 0 && f.Name != "COMPUTE_PGM_RSRC1" && f.Name != "COMPUTE_PGM_RSRC2" &&
						f.Name != "COMPUTE_PGM_RSRC3" && f.Name != "KERNEL_CODE_PROPERTIES" && !overlaps(reg.fields, fl, f.Name, reg.name):
						t.Errorf("%s: setting %s also set %s = %#x", proc, fl.name, f.Name, f.Value)
					}
				}
				if !present {
					t.Errorf("%s: field %s%s not listed", proc, reg.name, fl.name)
				}
			}
		}
	}
}

// overlaps reports whether name is another field of the same register
// sharing bits with fl (the same bits mean different things on different
// generations, e.g. RSRC3's ACCUM_OFFSET and SHARED_VGPR_COUNT).
func overlaps(fs []bitField, fl bitField, name, prefix string) bool {
	for _, g := range fs {
		if prefix+g.name == name && g.shift < fl.shift+fl.width && fl.shift < g.shift+g.width {
			return true
		}
	}
	return false
}

// TestDescriptorRoundTrip checks the raw words and the decoded structs
// agree for random descriptors.
func TestDescriptorRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 1000; i++ {
		var b [KernelDescriptorSize]byte
		rng.Read(b[:])
		kd, err := DecodeKernelDescriptor(b[:])
		if err != nil {
			t.Fatal(err)
		}
		r1 := kd.ComputePgmRsrc1
		if uint32(kd.Rsrc1.GranulatedWorkitemVGPRCount) != r1&63 || uint32(kd.Rsrc1.GranulatedWavefrontSGPRCount) != r1>>6&15 ||
			kd.Rsrc1.FwdProgress != (r1>>31 == 1) {
			t.Fatalf("rsrc1 %#x decoded as %+v", r1, kd.Rsrc1)
		}
		r2 := kd.ComputePgmRsrc2
		if uint32(kd.Rsrc2.UserSGPRCount) != r2>>1&31 || uint32(kd.Rsrc2.GranulatedLDSSize) != r2>>15&511 ||
			uint32(kd.Rsrc2.EnableVGPRWorkitemID) != r2>>11&3 {
			t.Fatalf("rsrc2 %#x decoded as %+v", r2, kd.Rsrc2)
		}
		if kd.KernelCodeEntryByteOffset != int64(le.Uint64(b[16:])) || kd.KernargSize != le.Uint32(b[8:]) {
			t.Fatalf("entry offset or kernarg size misread")
		}
		if uint16(kd.KernargPreloadSpecLength)|kd.KernargPreloadSpecOffset<<7 != kd.KernargPreload {
			t.Fatalf("kernarg preload %#x split as %d/%d", kd.KernargPreload, kd.KernargPreloadSpecLength, kd.KernargPreloadSpecOffset)
		}
	}
	if _, err := DecodeKernelDescriptor(make([]byte, 63)); err == nil {
		t.Error("63-byte descriptor decoded without error")
	}
}

// TestV2MatchesV4 compares code object v2 (YAML metadata, computed
// argument offsets, amd_kernel_code_t) with v4 of the same sources.
func TestV2MatchesV4(t *testing.T) {
	for _, src := range []string{"vadd", "args", "lds_scratch"} {
		v2, err := Load("testdata/co/"+src+"-gfx900-v2.co", LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		v4, err := Load("testdata/co/"+src+"-gfx900-v4.co", LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(v2.Kernels) != len(v4.Kernels) {
			t.Fatalf("%s: %d kernels in v2, %d in v4", src, len(v2.Kernels), len(v4.Kernels))
		}
		for i := range v2.Kernels {
			k2, k4 := &v2.Kernels[i], &v4.Kernels[i]
			if k2.CodeT == nil || k4.Descriptor == nil {
				t.Fatalf("%s/%s: missing amd_kernel_code_t or descriptor", src, k2.Name)
			}
			if bad := k2.Check("gfx900"); len(bad) > 0 {
				t.Errorf("%s/%s v2: %v", src, k2.Name, bad)
			}
			m2, m4 := k2.Meta, k4.Meta
			if m2.Name != m4.Name || m2.GroupSegmentFixedSize != m4.GroupSegmentFixedSize || m2.WavefrontSize != m4.WavefrontSize {
				t.Errorf("%s: v2 %+v, v4 %+v", src, m2, m4)
			}
			for j, a := range m4.Args {
				if a.ValueKind.Hidden() {
					break
				}
				b := m2.Args[j]
				if a.Offset != b.Offset || a.Size != b.Size || a.ValueKind != b.ValueKind || a.TypeName != b.TypeName ||
					a.AddressSpace != b.AddressSpace || a.Name != b.Name {
					t.Errorf("%s/%s arg %d: v2 %+v, v4 %+v", src, m2.Name, j, b, a)
				}
			}
			if k2.Entry != k2.DescriptorAddr+256 || k2.CodeSection != ".text" {
				t.Errorf("%s/%s: v2 entry %#x for amd_kernel_code_t at %#x", src, k2.Name, k2.Entry, k2.DescriptorAddr)
			}
		}
		v2.Close()
		v4.Close()
	}
}

// TestKernelsConsistent: every committed kernel's descriptor agrees with
// its metadata, and its code is inside .text.
func TestKernelsConsistent(t *testing.T) {
	kinds := map[ValueKind]bool{}
	for _, p := range codeObjects(t) {
		co, err := Load(p, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range co.Kernels {
			k := &co.Kernels[i]
			if bad := k.Check(co.Target.Processor); len(bad) > 0 {
				t.Errorf("%s %s: %v", p, k.Name, bad)
			}
			code, err := co.Code(k)
			if err != nil || len(code) == 0 || len(code)%4 != 0 {
				t.Errorf("%s %s: %d bytes of code, %v", p, k.Name, len(code), err)
			}
			// The same bytes, found through debug/elf's .text.
			addr, text, err := co.TextData()
			off := k.Entry - addr
			if co.File.Type == ET_REL {
				off = k.Entry
			}
			if err != nil || off > uint64(len(text)) || !bytes.Equal(code, text[off:min(uint64(len(text)), off+uint64(len(code)))]) {
				t.Errorf("%s %s: code at %#x does not match .text (%v)", p, k.Name, k.Entry, err)
			}
			ef, err := elf.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			sec := ef.Section(".text")
			theirs, _ := sec.Data()
			ef.Close()
			if !bytes.Equal(theirs, text) || sec.Addr != addr {
				t.Errorf("%s: .text differs from debug/elf's", p)
			}
			for _, a := range k.Meta.Args {
				kinds[a.ValueKind] = true
			}
		}
		co.Close()
	}
	// The committed kernels exercise these kinds; the v5 ones add the
	// hidden block/group/remainder/grid-dims arguments.
	for _, k := range []ValueKind{ByValue, GlobalBuffer, DynamicSharedPointer, Image, Sampler,
		HiddenGlobalOffsetX, HiddenNone, HiddenBlockCountX, HiddenGroupSizeX, HiddenRemainderX, HiddenGridDims} {
		if !kinds[k] {
			t.Errorf("no committed kernel has a %s argument", k)
		}
	}
}

// TestDescriptorFieldsPerGeneration: Fields lists a generation's own
// fields and not other generations' (AMDGPUUsage's per-target columns).
func TestDescriptorFieldsPerGeneration(t *testing.T) {
	tests := []struct {
		proc       string
		has, lacks []string
	}{
		{"gfx803", []string{"COMPUTE_PGM_RSRC1.ENABLE_DX10_CLAMP", "COMPUTE_PGM_RSRC2.ENABLE_TRAP_HANDLER"},
			[]string{"COMPUTE_PGM_RSRC1.FP16_OVFL", "COMPUTE_PGM_RSRC3.ACCUM_OFFSET", "COMPUTE_PGM_RSRC1.WGP_MODE", "ENABLE_WAVEFRONT_SIZE32"}},
		{"gfx900", []string{"COMPUTE_PGM_RSRC1.FP16_OVFL"},
			[]string{"COMPUTE_PGM_RSRC3.ACCUM_OFFSET", "COMPUTE_PGM_RSRC3.TG_SPLIT", "COMPUTE_PGM_RSRC1.MEM_ORDERED"}},
		{"gfx90a", []string{"COMPUTE_PGM_RSRC3.ACCUM_OFFSET", "COMPUTE_PGM_RSRC3.TG_SPLIT", "COMPUTE_PGM_RSRC1.FP16_OVFL"},
			[]string{"COMPUTE_PGM_RSRC3.SHARED_VGPR_COUNT", "COMPUTE_PGM_RSRC1.WGP_MODE"}},
		{"gfx1030", []string{"COMPUTE_PGM_RSRC1.WGP_MODE", "COMPUTE_PGM_RSRC3.SHARED_VGPR_COUNT", "ENABLE_WAVEFRONT_SIZE32"},
			[]string{"COMPUTE_PGM_RSRC3.ACCUM_OFFSET", "COMPUTE_PGM_RSRC3.INST_PREF_SIZE"}},
		{"gfx1100", []string{"COMPUTE_PGM_RSRC3.INST_PREF_SIZE", "COMPUTE_PGM_RSRC3.IMAGE_OP", "COMPUTE_PGM_RSRC1.ENABLE_IEEE_MODE"},
			[]string{"COMPUTE_PGM_RSRC1.DISABLE_PERF", "COMPUTE_PGM_RSRC3.GLG_EN"}},
		{"gfx1200", []string{"COMPUTE_PGM_RSRC1.ENABLE_WG_RR_EN", "COMPUTE_PGM_RSRC1.DISABLE_PERF", "COMPUTE_PGM_RSRC3.GLG_EN"},
			[]string{"COMPUTE_PGM_RSRC1.ENABLE_DX10_CLAMP", "COMPUTE_PGM_RSRC2.ENABLE_TRAP_HANDLER", "COMPUTE_PGM_RSRC3.SHARED_VGPR_COUNT"}},
	}
	kd, _ := DecodeKernelDescriptor(make([]byte, KernelDescriptorSize))
	for _, tt := range tests {
		names := map[string]int{}
		for _, f := range kd.Fields(tt.proc) {
			names[f.Name]++
		}
		for _, n := range tt.has {
			if names[n] != 1 {
				t.Errorf("%s: %s listed %d times, want once", tt.proc, n, names[n])
			}
		}
		for _, n := range tt.lacks {
			if names[n] != 0 {
				t.Errorf("%s: %s listed, but it is not a field of this generation", tt.proc, n)
			}
		}
	}
}
