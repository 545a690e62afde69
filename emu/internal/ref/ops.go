package ref

import (
	"fmt"
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"sort"
	"strings"
)

var OpTable = map[string]*core.OpDef{}

// def registers a mnemonic.
func def(name string, fn core.ExecFn, sub int32, ndst int, ty, cost uint8) *core.OpDef {
	d := &core.OpDef{Fn: fn, Sub: sub, Ndst: uint8(ndst), Ty: ty, Cost: cost, Exact: "exact"}
	OpTable[name] = d
	return d
}

// Gfx8Alias maps GFX8 names whose GFX9 meaning differs.
var Gfx8Alias = map[string]string{
	"v_add_u32": "v_add_co_u32", "v_sub_u32": "v_sub_co_u32", "v_subrev_u32": "v_subrev_co_u32",
	"v_addc_u32": "v_addc_co_u32", "v_subb_u32": "v_subb_co_u32", "v_subbrev_u32": "v_subbrev_co_u32",
}

func ExecOffEnd(w *core.Wave, in *core.Instr) error {
	return &core.ExecError{PC: in.Pc, Op: "(none)", Msg: "execution ran past the end of the program"}
}

func ExecUnsupported(w *core.Wave, in *core.Instr) error {
	if in.In == nil || in.In.Op == isa.OpUnknown {
		return &core.ExecError{PC: in.Pc, Op: "(invalid)", Msg: invalidEncoding(in)}
	}
	return &core.ExecError{PC: in.Pc, Op: in.Name, Msg: "not implemented by the emulator"}
}

// invalidEncoding describes words the decoder rejected: they encode no
// instruction of the target (llvm-objdump prints them as .long).
func invalidEncoding(in *core.Instr) string {
	if in.In == nil || in.In.Len < 4 {
		return "invalid instruction encoding: the code ends inside an instruction word"
	}
	return fmt.Sprintf("invalid instruction encoding 0x%08x: no %s instruction has it", in.In.Words[0], strings.ToUpper(in.In.Target.String()))
}

func ExecBadOperands(w *core.Wave, in *core.Instr) error {
	return &core.ExecError{PC: in.Pc, Op: in.Name, Msg: "operands do not match the operation"}
}

// OpPrecision says whether the emulator's result for the named operation
// is bit-exact or approximate (and how), and whether it is implemented.
func OpPrecision(name string) (string, bool) {
	d := OpTable[strings.ToLower(name)]
	if d == nil {
		return "", false
	}
	return d.Exact, true
}

// SupportedOps lists the operations the emulator implements.
func SupportedOps() []string {
	out := make([]string, 0, len(OpTable))
	for n := range OpTable {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
