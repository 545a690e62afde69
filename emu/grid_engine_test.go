package emu

import (
	"encoding/binary"
	"strings"
	"testing"

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
	m := NewMachine(DecodeProgram(isa.GFX9, 0, text), nil, DefaultConfig(isa.GFX9))
	w := m.w
	in := &w.code[0]
	if in.k == nil {
		t.Fatal("v_mul_lo_u32 has no fast kernel")
	}
	w.jOn = true
	if w.kernelEnv(in) != nil {
		t.Error("a journaled step runs the fast kernel")
	}
	w.jOn = false
	if w.kernelEnv(in) == nil {
		t.Error("an unjournaled step does not run the fast kernel")
	}
}
