package emu

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// vmOpsGolden lists, for every DS, MUBUF, MTBUF and FLAT opcode of GFX8
// and GFX9 in the isa tables, what compileVM makes of it (with and without
// glc): one line per case, so a change to how operations are compiled
// shows up as a reviewable diff (go test ./emu -run CompileVMGolden -update
// rewrites it).
const vmOpsGolden = "testdata/vmops.txt"

// TestCompileVMGolden compiles every vector memory and DS opcode and
// compares the facts of the vmOp with testdata/vmops.txt.
func TestCompileVMGolden(t *testing.T) {
	var b strings.Builder
	for _, tg := range []isa.Target{isa.GFX8, isa.GFX9} {
		for _, enc := range []isa.Encoding{isa.EncDS, isa.EncMUBUF, isa.EncMTBUF, isa.EncFLAT} {
			for opcode := 0; opcode < 1<<9; opcode++ {
				f := isa.LookupForm(tg, enc, uint16(opcode))
				if f == nil {
					continue
				}
				for _, glc := range []bool{false, true} {
					in := formInst(tg, f, glc)
					fmt.Fprintf(&b, "%s %s %#x %s glc=%v: %s\n", tg, enc, opcode, f.Mnemonic, glc, describeVMOp(&in))
				}
			}
		}
	}
	got := b.String()
	if *update {
		if err := os.WriteFile(vmOpsGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(vmOpsGolden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		// Report the lines only one side has (every case is a unique line).
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		n := 0
		for _, c := range []struct {
			what        string
			lines, from []string
		}{{"got", gl, wl}, {"want", wl, gl}} {
			other := map[string]bool{}
			for _, l := range c.from {
				other[l] = true
			}
			for _, l := range c.lines {
				if !other[l] && n < 20 {
					t.Errorf("only %s: %s", c.what, l)
					n++
				}
			}
		}
		t.Errorf("compiled operations differ from %s (go test ./emu -run CompileVMGolden -update rewrites it)", vmOpsGolden)
	}
}

// formInst builds an instruction of form f with a distinct register in
// each operand field, offset 0x0201 (DS offset0 1, offset1 2) and the given
// glc bit; compileVM reads nothing else.
func formInst(tg isa.Target, f *isa.Form, glc bool) isa.Inst {
	in := isa.Inst{Op: f.Op, Enc: f.Enc, Form: f, Target: tg, Len: 8}
	in.Mods.Offset, in.Mods.GLC = 0x0201, glc
	if f.Flags.Has(isa.FlagOffset2) {
		in.Mods.Offset, in.Mods.Offset0, in.Mods.Offset1 = 0, 1, 2
	}
	if f.Enc == isa.EncFLAT {
		in.Mods.Seg = isa.Seg(f.Opcode >> 7)
	}
	for k, s := range f.Operands {
		a := isa.Operand{Field: s.Field, Access: s.Access, Type: s.Type, Width: s.Width, Kind: isa.KindVGPR, Reg: uint16(10 * (k + 1))}
		switch s.Field.String() {
		case "srsrc", "soffset", "saddr":
			a.Kind = isa.KindSGPR
		}
		in.Args = append(in.Args, a)
	}
	return in
}

// describeVMOp prints compileVM's result for in, registers included.
func describeVMOp(in *isa.Inst) string {
	o, ok := ref.CompileVM(in)
	if !ok {
		return "not modelled"
	}
	d := &o.Ds
	return fmt.Sprintf("name=%s kind=%d fam=%d seg=%d size=%d signed=%v d16=%v d16hi=%v format=%v comps=%d tbuf=%v atom=%d wide=%v ret=%v"+
		" vdst=%d vdata=%d vaddr=%d/%d saddr=%d srsrc=%d offset=%d"+
		" ds.kind=%d data0=%d data1=%d off=%d,%d stride=%d two=%v swizzle=%#x src2=%v addtid=%v",
		o.Name, o.Kind, o.Fam, o.Seg, o.Size, o.Signed, o.D16, o.D16hi, o.Format, o.Comps, o.Tbuf, o.Atom, o.Wide, o.Ret,
		o.Vdst, o.Vdata, o.Vaddr, o.VaddrW, o.Saddr, o.Srsrc, o.Offset,
		d.Kind, d.Data0, d.Data1, d.Off0, d.Off1, d.Stride, d.Two, d.SwizzleP, d.Src2, d.Addtid)
}
