package emu

import (
	"bytes"
	"context"
	"encoding/hex"
	"reflect"
	"slices"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// TestResetCoversWave: Machine.Reset resets Wave field by field (it must
// not clear the whole 64 KiB register file), so a field added to Wave must
// be added to Reset too; this list is what Reset handles.
func TestResetCoversWave(t *testing.T) {
	want := []string{"M", "Target", "Code", "S", "V", "Pend", "PendS", "Npend", "Cache", "JOn", "J", "Fe", "Tmp", "CurIdx"}
	var got []string
	ty := reflect.TypeFor[Wave]()
	for i := range ty.NumField() {
		got = append(got, ty.Field(i).Name)
	}
	for _, f := range got {
		if !slices.Contains(want, f) {
			t.Errorf("Wave has a field %s that Machine.Reset (machine_reset.go) does not reset", f)
		}
	}
}

// hexProgram decodes instructions given as llvm-mc-19 encodings (hex
// bytes, one string per instruction).
func hexProgram(t testing.TB, target isa.Target, insts ...string) *Program {
	t.Helper()
	mcpu := "gfx900"
	if target == isa.GFX8 {
		mcpu = "gfx803"
	}
	var text []byte
	for _, h := range insts {
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		text = append(text, b...)
	}
	p := DecodeProgramWith(target, isa.FeaturesOf(mcpu), 0, text)
	if len(p.Insts) != len(insts) {
		t.Fatalf("%d instructions decoded from %d", len(p.Insts), len(insts))
	}
	return p
}

// Encodings from llvm-mc-19 -triple=amdgcn -mcpu=gfx900 -show-encoding
// (v_movrels_b32: -mcpu=gfx803).
const (
	hexEndpgm      = "000081bf"         // s_endpgm
	hexLoadX4      = "02020ac000000000" // s_load_dwordx4 s[8:11], s[4:5], 0x0
	hexLoad40      = "020302c040000000" // s_load_dword s12, s[4:5], 0x40
	hexLoad80      = "420302c080000000" // s_load_dword s13, s[4:5], 0x80
	hexWaitLGKM    = "7fc08cbf"         // s_waitcnt lgkmcnt(0)
	hexMovV7S4     = "04020e7e"         // v_mov_b32_e32 v7, s4
	hexAddV9       = "07011268"         // v_add_u32_e32 v9, v7, v0
	hexMovV1V0     = "0003027e"         // v_mov_b32_e32 v1, v0
	hexLshl64      = "0a008fd282000200" // v_lshlrev_b64 v[10:11], 2, v[0:1]
	hexGlobalX4    = "00805cdc00007f14" // global_load_dwordx4 v[20:23], v[0:1], off
	hexMovrels     = "006f027e"         // v_movrels_b32_e32 v1, v0 (gfx803)
	hexGprIdxOn    = "020111bf"         // s_set_gpr_idx_on s2, gpr_idx(SRC0)
	hexSetregMode4 = "011800ba03000000" // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 4), 3
	hexSetregMode8 = "013e00b9"         // s_setreg_b32 hwreg(HW_REG_MODE, 24, 8), s0
)

// TestResetLikeNew: after running a program that writes VGPRs, SGPRs, the
// scalar cache and in-flight operations, and after setters that write
// VGPRs beyond the program's, Reset leaves the machine as NewMachine does.
func TestResetLikeNew(t *testing.T) {
	prog := hexProgram(t, isa.GFX9, hexLoadX4, hexLoad40, hexMovV7S4, hexAddV9, hexWaitLGKM, hexLoad80, hexEndpgm)
	for _, hist := range []bool{false, true} {
		cfg := core.DefaultConfig(isa.GFX9)
		if !hist {
			cfg.HistoryBytes = 0
		}
		m := NewMachine(prog, nil, cfg)
		if err := m.Mem.Map("buf", bufAddr, 0x1000, false); err != nil {
			t.Fatal(err)
		}
		if err := m.Mem.Write(bufAddr, []byte{1, 2, 3, 4, 5, 6, 7, 8}); err != nil {
			t.Fatal(err)
		}
		m.SetSGPR(4, bufAddr)
		for l := 0; l < 64; l++ {
			m.SetVGPR(0, l, uint32(l))
		}
		if err := m.SetVGPR(200, 5, 42); err != nil {
			t.Fatal(err)
		}
		m.SetExec(0xff)
		if _, err := m.Run(context.Background(), 0); err != nil {
			t.Fatal(err)
		}
		if m.w.V[9][3] == 0 || m.w.Get64(core.SlotUse) == 0 || len(m.w.Pend) == 0 {
			t.Fatalf("the program did not run as expected")
		}
		m.Reset()
		fresh := NewMachine(m.Prog, m.Mem, m.Config)
		a, b := m.w, fresh.w
		if a.S != b.S || a.V != b.V || a.PendS != b.PendS || a.Npend != b.Npend || len(a.Pend) != 0 ||
			a.JOn || a.CurIdx != 0 || a.Fe != b.Fe || a.Tmp != b.Tmp || a.Target != b.Target {
			t.Errorf("history %v: Reset leaves state that NewMachine does not", hist)
		}
		if !slices.Equal(a.Cache.Lines, b.Cache.Lines) || a.Cache.Sets != b.Cache.Sets || a.Cache.Ways != b.Cache.Ways {
			t.Errorf("history %v: Reset leaves scalar cache lines", hist)
		}
		if m.HistoryLen() != 0 || m.Steps() != 0 || m.Cycle() != 0 || m.PC() != m.Prog.Base {
			t.Errorf("history %v: after Reset: %d history, %d steps, cycle %d, pc %#x", hist, m.HistoryLen(), m.Steps(), m.Cycle(), m.PC())
		}
	}
}

// TestVGPRSpan: the VGPRs a program can write, and 256 when it can index
// them relatively.
func TestVGPRSpan(t *testing.T) {
	for _, tc := range []struct {
		t     isa.Target
		insts []string
		want  int
	}{
		{isa.GFX9, []string{hexEndpgm}, 0},
		{isa.GFX9, []string{hexMovV7S4, hexEndpgm}, 8},
		{isa.GFX9, []string{hexLshl64, hexEndpgm}, 12},
		{isa.GFX9, []string{hexGlobalX4, hexEndpgm}, 25}, // room for a TFE dword
		{isa.GFX8, []string{hexMovrels, hexEndpgm}, 256},
		{isa.GFX9, []string{hexGprIdxOn, hexMovV1V0, hexEndpgm}, 256},
		{isa.GFX9, []string{hexSetregMode4, hexMovV1V0, hexEndpgm}, 2},
		{isa.GFX9, []string{hexSetregMode8, hexMovV1V0, hexEndpgm}, 256},
	} {
		if got := vgprSpan(hexProgram(t, tc.t, tc.insts...)); got != tc.want {
			t.Errorf("%q: span %d, want %d", tc.insts, got, tc.want)
		}
	}
}

// TestWaveInitIDs: the incremental work-item ids equal the divisions of
// their definition, for every wave of groups of several shapes.
func TestWaveInitIDs(t *testing.T) {
	d := &Dispatch{}
	for _, size := range [][3]uint32{{64, 1, 1}, {100, 1, 1}, {7, 5, 3}, {1, 1, 1}, {16, 16, 1}, {3, 1, 70}, {5, 9, 2}} {
		items := size[0] * size[1] * size[2]
		for w := 0; w < int(items+63)/64; w++ {
			var v [3][64]uint32
			exec := d.workItemIDs(&v, size, w)
			for lane := 0; lane < 64; lane++ {
				flat := uint32(w*64 + lane)
				if flat >= items {
					if exec>>lane&1 != 0 || v[0][lane]|v[1][lane]|v[2][lane] != 0 {
						t.Errorf("size %v wave %d lane %d: beyond the group but set", size, w, lane)
					}
					continue
				}
				want := [3]uint32{flat % size[0], flat / size[0] % size[1], flat / (size[0] * size[1])}
				if got := [3]uint32{v[0][lane], v[1][lane], v[2][lane]}; got != want || exec>>lane&1 == 0 {
					t.Errorf("size %v wave %d lane %d: ids %v, want %v", size, w, lane, got, want)
				}
			}
		}
	}
}

// TestClearLDS: a work-group's LDS reads as zero whatever the previous
// work-group on the worker left there, with one worker (the shared memory's
// window) and with several (each view's private pages).
func TestClearLDS(t *testing.T) {
	for _, workers := range []int{1, 2} {
		g := setupGrid(t, "scan_local", "scan_local", 4096, 64, workers,
			[]LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 4096*4)}, {Kind: ArgBuffer, Data: make([]byte, 4096*4)}})
		if int(g.d.GroupLDS) == 0 {
			t.Fatal("scan_local uses no LDS")
		}
		for _, wk := range g.ws {
			junk := make([]byte, int(g.d.GroupLDS)+8)
			for i := range junk {
				junk[i] = byte(i*7 + 1)
			}
			if err := wk.mem.Write(core.SharedApertureBase, junk); err != nil {
				t.Fatal(err)
			}
			wk.newWaves(g.d.GroupID(1), 1)
			got := make([]byte, len(junk))
			if err := wk.mem.Read(core.SharedApertureBase, got); err != nil {
				t.Fatal(err)
			}
			n := int(g.d.GroupLDS)
			if !bytes.Equal(got[:n], make([]byte, n)) || !bytes.Equal(got[n:], junk[n:]) {
				t.Errorf("workers %d: LDS after set-up %x..., want %d zero bytes then %x", workers, got[:16], n, junk[n:])
			}
		}
	}
}
