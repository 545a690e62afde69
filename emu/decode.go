package emu

import "github.com/wavedbg/wavedbg/isa"

// DecodeProgram decodes a code section once (isa.Decode) into a Program at
// base. Words the decoder rejects become 4-byte instructions that stop the
// wave with an ExecError if executed; decoding continues after them.
func DecodeProgram(t isa.Target, base uint64, text []byte) *Program {
	var insts []isa.Inst
	for off := 0; off < len(text); {
		var in isa.Inst
		err := isa.DecodeInto(text[off:], t, &in)
		if err != nil || in.Len <= 0 {
			in = isa.Inst{Len: 4}
			if off+4 > len(text) {
				in.Len = len(text) - off
			}
		}
		insts = append(insts, in)
		off += in.Len
	}
	return NewProgram(t, base, insts)
}
