package emu

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

func TestParseEngine(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Engine
		err  string
	}{{"fast", EngineFast, ""}, {"reference", EngineReference, ""}, {"", 0, `unknown engine ""`}, {"Fast", 0, `unknown engine "Fast"`}} {
		e, err := ParseEngine(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseEngine(%q): %v, want an error with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || e != tc.want || e.String() != tc.in {
			t.Errorf("ParseEngine(%q) = %v, %v", tc.in, e, err)
		}
	}
}

// TestJournaledStepSkipsFastRows: a journaled step (Step, and every step
// of EngineReference) runs a VALU kernel operation through execVOP's lane
// functions, not the fast engine's rows; else the differential suite
// would compare the rows with themselves. Unjournaled steps keep the rows.
func TestJournaledStepSkipsFastRows(t *testing.T) {
	text := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 0xd2850001), 0x102|0x103<<9)
	if in, err := isa.Decode(text, isa.GFX9); err != nil || in.Op != isa.V_MUL_LO_U32 {
		t.Fatalf("decode: %v %v", in.Op, err)
	}
	m := NewMachine(DecodeProgram(isa.GFX9, 0, text), nil, core.DefaultConfig(isa.GFX9))
	w := m.w
	in := &w.Code[0]
	if in.K == nil {
		t.Fatal("v_mul_lo_u32 has no fast kernel")
	}
	w.JOn = true
	if fnPtr(form(w, in)) != fnPtr(ref.ExecVOP) {
		t.Error("a journaled step runs the fast kernel")
	}
	w.JOn = false
	if fnPtr(form(w, in)) == fnPtr(ref.ExecVOP) || fast.KernelEnv(w, in) == nil {
		t.Error("an unjournaled step does not run the fast kernel")
	}
}

// TestJournaledSDWASkipsFastRows: a journaled SDWA step computes only the
// EXEC lanes through the lane functions; the fast kernel, which an
// unjournaled step runs, fills every lane below the last live one of its
// scratch row (here the off lane 1 of EXEC 0b101).
func TestJournaledSDWASkipsFastRows(t *testing.T) {
	// v_add_u32_sdwa v1, v2, v3 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
	text := binary.LittleEndian.AppendUint32(nil, 0x34<<25|1<<17|3<<9|0xf9)
	text = binary.LittleEndian.AppendUint32(text, 2|6<<8|6<<16|6<<24)
	if in, err := isa.Decode(text, isa.GFX9); err != nil || in.Op != isa.V_ADD_U32 || in.Variant != isa.VariantSDWA {
		t.Fatalf("decode: %v %v %v", in.Op, in.Variant, err)
	}
	text = binary.LittleEndian.AppendUint32(text, 0xbf810000) // s_endpgm
	const poison = 0xdeadbeef
	for _, journaled := range []bool{true, false} {
		m := NewMachine(DecodeProgram(isa.GFX9, 0, text), nil, core.DefaultConfig(isa.GFX9))
		m.SetHistoryLimit(0)
		m.SetExec(0b101)
		m.w.Tmp[3][1] = poison
		var err error
		if journaled {
			_, err = m.Step()
		} else {
			_, err = m.Run(context.Background(), 1)
		}
		if err != nil {
			t.Fatal(err)
		}
		if kept := m.w.Tmp[3][1] == poison; kept != journaled {
			t.Errorf("journaled %v: the off lane of the scratch row kept: %v", journaled, kept)
		}
	}
}
