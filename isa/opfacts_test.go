package isa

import (
	"fmt"
	"strings"
	"testing"
)

// The facts generated into OpInfo and MemInfo are checked here against the
// mnemonics, which tests may read and production code may not.

// TestInfoBranchCond checks OpInfo.Branch of every op against its name:
// s_branch is always taken, s_cbranch_COND tests COND, nothing else is a
// SOPP branch.
func TestInfoBranchCond(t *testing.T) {
	n := 0
	for op := range Ops() {
		name, got := op.String(), op.Info().Branch
		want := "none"
		switch {
		case name == "s_branch":
			want = "always"
		case strings.HasPrefix(name, "s_cbranch_") && name != "s_cbranch_i_fork" && name != "s_cbranch_g_fork" && name != "s_cbranch_join":
			want = strings.ReplaceAll(strings.TrimPrefix(name, "s_cbranch_"), "_", "-")
		}
		if got.String() != want {
			t.Errorf("%s: branch condition %s, want %s", name, got, want)
		}
		if got != BranchNone {
			n++
			if info := op.Info(); info.Class != ClassBranch || !info.Flags.Has(FlagLabel) {
				t.Errorf("%s: condition %s on class %d, flags %s", name, got, info.Class, info.Flags)
			}
		}
		if got.Debug() != strings.HasPrefix(name, "s_cbranch_cdbg") {
			t.Errorf("%s: Debug() = %v", name, got.Debug())
		}
	}
	if n != 11 {
		t.Errorf("%d SOPP branches, want 11", n)
	}
}

// TestInfoSrcType checks OpInfo.Src: the scalar operations' 32- or 64-bit
// source width, from LLVM's operand lists, where the suffix alone misleads.
func TestInfoSrcType(t *testing.T) {
	for _, tc := range []struct {
		op   Op
		want DataType
	}{
		{S_AND_B64, TypeB64}, {S_AND_B32, TypeB32}, {S_CSELECT_B64, TypeB64}, {S_MOV_B64, TypeB64},
		{S_LSHL_B64, TypeB64}, {S_ASHR_I64, TypeI64}, {S_BFE_U64, TypeU64}, {S_BFE_I64, TypeI64},
		{S_BFM_B64, TypeB32}, {S_BITSET0_B64, TypeB32}, {S_BCNT1_I32_B64, TypeB64},
		{S_FLBIT_I32_I64, TypeI64}, {S_BITREPLICATE_B64_B32, TypeB32}, {S_CMP_EQ_U64, TypeU64},
		{S_ADD_U32, TypeU32}, {S_ENDPGM, TypeNone}, {V_ADD_F32, TypeF32}, {V_CMP_EQ_U64, TypeU64},
	} {
		if got := tc.op.Info().Src; got != tc.want {
			t.Errorf("%s: Src %d, want %d", tc.op, got, tc.want)
		}
	}
	// Every SOP1/SOP2/SOPC op's Src is its first source's type in every row.
	for i := range forms {
		f := &forms[i]
		if f.Enc != EncSOP1 && f.Enc != EncSOP2 && f.Enc != EncSOPC {
			continue
		}
		want := TypeNone
		for _, o := range f.Operands {
			if o.Access == Read && !o.Imm && o.Width > 0 {
				want = o.Type
				break
			}
		}
		if got := f.Op.Info().Src; got != want {
			t.Errorf("%s: Src %d, first source %d", f.Mnemonic, got, want)
		}
	}
}

// TestMemInfoSMEM checks the SMEM memory facts against the names: the
// dword count of loads and stores, the atomic's operation and width, the
// buffer and scratch forms.
func TestMemInfoSMEM(t *testing.T) {
	n := 0
	for op := range Ops() {
		name, m := op.String(), op.Mem()
		if op.Info().Class != ClassSMEM {
			continue
		}
		var want MemInfo
		switch {
		case strings.Contains(name, "_load_dword"), strings.Contains(name, "_store_dword"):
			want.Kind, want.Size = MemLoad, 4
			if strings.Contains(name, "store") {
				want.Kind = MemStore
			}
			if _, x, ok := strings.Cut(name, "dwordx"); ok {
				var k int
				fmt.Sscan(x, &k)
				want.Size = uint8(4 * k)
			}
		case strings.Contains(name, "_atomic_"):
			want.Kind, want.Size, want.Ret = MemAtomic, 4, RetGLC
			if strings.HasSuffix(name, "_x2") {
				want.Size = 8
			}
			a := strings.TrimSuffix(name[strings.Index(name, "_atomic_")+len("_atomic_"):], "_x2")
			for i, s := range atomicOpNames {
				if s == a {
					want.Atomic = AtomicOp(i)
				}
			}
		}
		if want.Kind != MemNone {
			n++
			want.Buffer = strings.HasPrefix(name, "s_buffer_")
			want.Scratch = strings.HasPrefix(name, "s_scratch_")
		}
		if m != want {
			t.Errorf("%s: %+v, want %+v", name, m, want)
		}
	}
	if n != 16+6+52 {
		t.Errorf("%d SMEM memory ops, want 74", n)
	}
}

// TestOpByNameTable checks that OpByName inverts Op.String for every op.
func TestOpByNameTable(t *testing.T) {
	for op := range Ops() {
		if got, ok := OpByName(op.String()); !ok || got != op {
			t.Errorf("OpByName(%q) = %v, %v", op.String(), got, ok)
		}
	}
	if op, ok := OpByName("s_no_such_op"); ok {
		t.Errorf("OpByName of an unknown name = %v", op)
	}
}

// TestScalarHarvestTable regenerates tables/scalar.txt, fact words
// included, with the harvester and LLVM 19 and checks that it equals the
// committed table: the branch conditions and SMEM facts are LLVM's view.
func TestScalarHarvestTable(t *testing.T) {
	checkHarvest(t, "scalar")
}
