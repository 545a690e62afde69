package ref

import (
	"fmt"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// The emulator takes instruction facts from isa's tables, never from the
// mnemonics; these tests rebuild what the names say and compare.

// TestSMEMSubsFromTables checks the SMEM loads, stores and atomics the
// emulator registers from isa's MemInfo against their names: kind, dword
// count and atomic operation.
func TestSMEMSubsFromTables(t *testing.T) {
	want := map[string]int32{}
	for _, n := range []int{1, 2, 4, 8, 16} {
		sfx := "dword"
		if n > 1 {
			sfx = fmt.Sprintf("dwordx%d", n)
		}
		want["s_load_"+sfx] = SmemSub(MLoad, n, 0)
		want["s_buffer_load_"+sfx] = SmemSub(MBufLoad, n, 0)
		if n <= 4 {
			want["s_store_"+sfx] = SmemSub(MStore, n, 0)
			want["s_buffer_store_"+sfx] = SmemSub(MBufStore, n, 0)
			want["s_scratch_load_"+sfx] = SmemSub(MScratchLoad, n, 0)
			want["s_scratch_store_"+sfx] = SmemSub(MStore, n, 0) | SmemScratch
		}
	}
	for i, a := range []string{"swap", "cmpswap", "add", "sub", "smin", "umin", "smax", "umax", "and", "or", "xor", "inc", "dec"} {
		want["s_atomic_"+a] = SmemSub(MAtomic, 1, i)
		want["s_atomic_"+a+"_x2"] = SmemSub(MAtomic, 2, i)
		want["s_buffer_atomic_"+a] = SmemSub(MBufAtomic, 1, i)
		want["s_buffer_atomic_"+a+"_x2"] = SmemSub(MBufAtomic, 2, i)
	}
	for n, sub := range want {
		d := OpTable[n]
		if d == nil {
			t.Errorf("%s: not registered", n)
			continue
		}
		if d.Sub != sub {
			t.Errorf("%s: sub %#x, want %#x", n, d.Sub, sub)
		}
	}
	got := 0
	for op := range isa.Ops() {
		mi := op.Mem()
		if _, _, ok := SmemSubOf(&mi); ok && op.Info().Class == isa.ClassSMEM {
			got++
		}
	}
	if got != len(want) {
		t.Errorf("%d SMEM accesses from the tables, %d by name", got, len(want))
	}
}

// TestBranchSubsFromTables checks that every SOPP branch runs execBranch
// with the table's condition, the debug ones included (never taken).
func TestBranchSubsFromTables(t *testing.T) {
	for _, tc := range []struct {
		name string
		cond isa.BranchCond
	}{
		{"s_branch", isa.BranchAlways}, {"s_cbranch_scc0", isa.BranchSCC0}, {"s_cbranch_scc1", isa.BranchSCC1},
		{"s_cbranch_vccz", isa.BranchVCCZ}, {"s_cbranch_vccnz", isa.BranchVCCNZ}, {"s_cbranch_execz", isa.BranchEXECZ},
		{"s_cbranch_execnz", isa.BranchEXECNZ}, {"s_cbranch_cdbgsys", isa.BranchCDbgSys},
		{"s_cbranch_cdbguser", isa.BranchCDbgUser}, {"s_cbranch_cdbgsys_or_user", isa.BranchCDbgSysOrUser},
		{"s_cbranch_cdbgsys_and_user", isa.BranchCDbgSysAndUser},
	} {
		d := OpTable[tc.name]
		if d == nil || isa.BranchCond(d.Sub) != tc.cond {
			t.Errorf("%s: def %+v, want sub %s", tc.name, d, tc.cond)
		}
	}
}

// TestScalarTypesFromTables checks the SOP1/SOP2 operand types the
// emulator takes from isa's OpInfo.Src where the name's suffix misleads.
func TestScalarTypesFromTables(t *testing.T) {
	for _, tc := range []struct {
		name string
		ty   uint8
	}{
		{"s_and_b64", core.TyB64}, {"s_cselect_b64", core.TyB64}, {"s_bfe_u64", core.TyB64}, {"s_bfe_i64", core.TyI64},
		{"s_bfm_b64", core.TyB32}, {"s_lshl_b64", core.TyB64}, {"s_ashr_i64", core.TyI64}, {"s_and_b32", core.TyB32},
		{"s_mov_b64", core.TyB64}, {"s_bitset1_b64", core.TyB32}, {"s_bcnt1_i32_b64", core.TyB64}, {"s_flbit_i32_i64", core.TyI64},
		{"s_bitreplicate_b64_b32", core.TyB32}, {"s_sext_i32_i16", core.TyB32},
	} {
		if d := OpTable[tc.name]; d == nil || d.Ty != tc.ty {
			t.Errorf("%s: def %+v, want type %d", tc.name, d, tc.ty)
		}
	}
}
