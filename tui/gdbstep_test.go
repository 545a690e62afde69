package tui

import (
	"testing"

	"github.com/wavedbg/wavedbg/isa"
)

// relabeled shows the calls kernel with every line's text replaced, so a
// debugger that recognised calls and returns by mnemonic would miss them.
type relabeled struct{ *EmuDebuggee }

func (r relabeled) Program() []DisasmLine {
	lines := append([]DisasmLine(nil), r.EmuDebuggee.Program()...)
	for i := range lines {
		lines[i].Text = "op"
	}
	return lines
}

// TestStepCallsByOp: nexti and finish find calls and returns by the
// decoded operation, not by the line's text.
func TestStepCallsByOp(t *testing.T) {
	for _, c := range []struct {
		op            isa.Op
		call, return_ bool
	}{
		{isa.S_SWAPPC_B64, true, false},
		{isa.S_CALL_B64, true, false},
		{isa.S_SETPC_B64, false, true},
		{isa.S_GETPC_B64, false, false},
		{isa.S_BRANCH, false, false},
		{0, false, false},
	} {
		if isCall(c.op) != c.call || isReturn(c.op) != c.return_ {
			t.Errorf("op %d: isCall %v, isReturn %v, want %v, %v", c.op, isCall(c.op), isReturn(c.op), c.call, c.return_)
		}
	}
	d := openCalls(t)
	m := New(relabeled{d}, Options{Color: ColorPlain})
	runScript(t, m, []gdbStep{
		{"b 0x2164", "breakpoint 1 at 0x2164"},
		{"c", "breakpoint at 0x2164"},
		{"ni", "stepped over the call, at 0x2168"},
		{"rc", "breakpoint at 0x2164"},
		{"si", ""},
		{"finish", "returned to 0x2168"},
	})
	if pc, _ := d.PC(); pc != 0x2168 {
		t.Errorf("pc %#x after finish, want 0x2168", pc)
	}
}
