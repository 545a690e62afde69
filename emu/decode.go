package emu

import (
	"encoding/binary"

	"github.com/wavedbg/wavedbg/isa"
)

// DecodeProgram decodes a code section once (isa.Decode) into a Program at
// base. Words the decoder rejects become 4-byte instructions that stop the
// wave with an ExecError if executed; decoding continues after them.
func DecodeProgram(t isa.Target, base uint64, text []byte) *Program {
	return DecodeProgramWith(t, 0, base, text)
}

// DecodeProgramWith is DecodeProgram for a processor with instruction-set
// extensions (gfx904/gfx906: isa.FeaturesOf).
func DecodeProgramWith(t isa.Target, f isa.Features, base uint64, text []byte) *Program {
	var insts []isa.Inst
	for off := 0; off < len(text); {
		var in isa.Inst
		err := isa.DecodeWith(text[off:], t, f, &in)
		if err != nil || in.Len <= 0 {
			// An undecodable word stops a wave only if it is executed.
			in = isa.Inst{Len: min(4, len(text)-off), Target: t, Features: f}
			if in.Len == 4 {
				in.Words[0] = binary.LittleEndian.Uint32(text[off:])
			}
		}
		insts = append(insts, in)
		off += in.Len
	}
	return NewProgram(t, base, insts)
}
