package asm

import (
	"bytes"
	"debug/elf"
	"fmt"
	"testing"
)

// TestLinkLabelInEmptySection: a label in a section with no bytes (found
// by FuzzAssembleFile) links: the empty section is written for it.
func TestLinkLabelInEmptySection(t *testing.T) {
	for _, src := range []string{"a:\n", ".rodata\nb:\n", "a:\n.rodata\nb:\n"} {
		co, err := Assemble("e.s", []byte(src), Options{Target: "gfx900"})
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		f, err := elf.NewFile(bytes.NewReader(co))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		syms, _ := f.Symbols()
		for _, s := range syms {
			if s.Name != "_DYNAMIC" && (int(s.Section) >= len(f.Sections) || f.Sections[s.Section].Size != 0) {
				t.Errorf("%q: symbol %s in section %d", src, s.Name, s.Section)
			}
		}
	}
}

// TestSizeDotIsTheDirectivesPlace: "." in .size is where the directive
// stands, though .size is evaluated when the pass ends (in another
// section here).
func TestSizeDotIsTheDirectivesPlace(t *testing.T) {
	o, err := Parse("s.s", []byte(".text\nf:\n\ts_nop 0\n\ts_endpgm\n\t.size f, .-f\n.rodata\n.long 1\n"), Options{Target: "gfx900"})
	if err != nil {
		t.Fatal(err)
	}
	if s := o.symbol("f"); !s.hasSize || s.size != 8 {
		t.Errorf("size %d (set %v), want 8", s.size, s.hasSize)
	}
}

// TestGNUHashBucketsAsLLD: ld.lld-15 gives n/4 buckets (at least one) to
// n hashed symbols, and .dynstr holds the names in symbol order.
func TestGNUHashBucketsAsLLD(t *testing.T) {
	for n, want := range map[int]uint32{0: 1, 2: 1, 4: 1, 7: 1, 8: 2, 10: 2, 16: 4} {
		if got := gnuBuckets(n); got != want {
			t.Errorf("gnuBuckets(%d) = %d, want %d", n, got, want)
		}
	}
}

// TestAbsoluteSetSymbolInSymtab: a .set symbol with an absolute value is
// a local SHN_ABS symbol of the code object, as ld.lld keeps it.
func TestAbsoluteSetSymbolInSymtab(t *testing.T) {
	co, err := Assemble("a.s", []byte(".set N, 12\n.text\nk:\n\ts_endpgm\n"), Options{Target: "gfx900"})
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(co))
	if err != nil {
		t.Fatal(err)
	}
	syms, _ := f.Symbols()
	if len(syms) == 0 || syms[0].Name != "N" || syms[0].Section != elf.SHN_ABS || syms[0].Value != 12 {
		t.Errorf("symbols %+v", syms)
	}
}

// TestDotLabelKeepsName: a .L label reaches isa.Assemble as written, so
// a branch to .Lx goes to .Lx even when _Lx exists too (llvm-mc-19 gives
// BF82FFFE), and errors name .L labels as the source does.
func TestDotLabelKeepsName(t *testing.T) {
	src := ".text\n_Lx:\n s_nop 0\n.Lx:\n s_nop 0\n s_branch .Lx\n s_branch _Lx\n s_endpgm\n"
	o, err := Parse("e.s", []byte(src), Options{Target: "gfx900"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("% x", o.Text), "00 00 80 bf 00 00 80 bf fe ff 82 bf fc ff 82 bf 00 00 81 bf"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for src, want := range map[string]string{
		".text\n s_branch .Lfar\n .skip 0x40000\n.Lfar:\n s_endpgm\n": "e.s:2:11: error: branch target out of range: .Lfar",
		".text\n.Lx:\n s_movk_i32 s0, .Lx+.Lnope\n":                   "e.s:3:21: error: undefined symbol .Lnope",
		".text\n s_cbranch_scc1 .L_none\n":                            "e.s:2:2: error: undefined label '.L_none'",
	} {
		_, err := Parse("e.s", []byte(src), Options{Target: "gfx900"})
		if el, ok := err.(ErrorList); !ok || len(el) == 0 || el[0].Error() != want {
			t.Errorf("%q: got %v, want %s", src, err, want)
		}
	}
}

// TestFoldOperands: operands that are expressions of the file's symbols
// are folded to numbers before the instruction is encoded; registers,
// modifiers, plain numbers and branch labels are left alone.
func TestFoldOperands(t *testing.T) {
	a := &assembler{tgt: targetInfo{}, syms: map[string]*symbol{}}
	a.reset()
	a.syms["N"] = &symbol{name: "N", defined: true, isSet: true, val: value{v: 3}}
	text := a.section(".text")
	a.syms[".La"] = &symbol{name: ".La", defined: true, val: value{v: 4, sec: text}}
	a.syms[".Lb"] = &symbol{name: ".Lb", defined: true, val: value{v: 16, sec: text}}
	for in, want := range map[string]string{
		"s_movk_i32 s0, N*4":                            "s_movk_i32 s0, 12",
		"s_add_u32 s0, s1, .Lb-.La":                     "s_add_u32 s0, s1, 12",
		"v_add_f32 v0, -v1, (N+1)<<2":                   "v_add_f32 v0, -v1, 16",
		"s_mov_b32 s0, -1":                              "",
		"v_add_f32 v0, |v1|, v2":                        "",
		"s_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s0":     "",
		"s_branch .Lb-4":                                "",
		"s_mov_b32 s0, .Lb+4":                           "", // not absolute
		"buffer_load_dword v1, off, s[4:7], 0 offset:N": "",
	} {
		if got := a.foldOperands(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// TestDiscardedSectionsSkipped: DWARF and the compiler's note sections are
// skipped, relocatable data and .uleb128 included, while directives there
// that are not data still count (clang puts .amdgpu_metadata after
// .section .note.GNU-stack); .data still may not hold bytes.
func TestDiscardedSectionsSkipped(t *testing.T) {
	src := ".text\n.globl k\nk:\n.Lb:\n\ts_endpgm\n.section .debug_info,\"\",@progbits\n.long .Lb\n.uleb128 300\n\ts_nop 0\n" +
		".section .AMDGPU.csdata\n.section \".note.GNU-stack\"\n.amdgpu_metadata\n---\namdhsa.version: [1, 1]\namdhsa.kernels: []\n...\n.end_amdgpu_metadata\n"
	o, err := Parse("d.s", []byte(src), Options{Target: "gfx900"})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Text) != 4 || o.metadata == nil {
		t.Errorf("text %x, metadata %x", o.Text, o.metadata)
	}
	if _, err := Parse("d.s", []byte(".data\n.long 1\n"), Options{Target: "gfx900"}); err == nil {
		t.Error(".data took bytes")
	}
}

// TestForwardLabelDifferenceAcrossSections: a difference of a label
// defined before and one defined after, used in another section, is
// absolute: sections keep their identity from pass to pass, so the passes
// settle.
func TestForwardLabelDifferenceAcrossSections(t *testing.T) {
	src := ".text\n.La:\n\ts_nop 0\n.rodata\n.long .Lb-.La\n.text\n\ts_nop 0\n.Lb:\n\ts_endpgm\n"
	o, err := Parse("f.s", []byte(src), Options{Target: "gfx900"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(o.Rodata, []byte{8, 0, 0, 0}) {
		t.Errorf(".rodata %x, want 08000000", o.Rodata)
	}
}
