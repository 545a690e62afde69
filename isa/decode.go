package isa

//go:generate go run ./internal/gen

import (
	"encoding/binary"
	"errors"
	"strings"
)

// Errors returned by Decode.
var (
	// ErrInvalid reports words that do not encode an instruction of the
	// target (LLVM prints them as invalid).
	ErrInvalid = errors.New("isa: invalid instruction encoding")
	// ErrTruncated reports an instruction whose second word or literal is
	// cut off by the end of the input.
	ErrTruncated = errors.New("isa: truncated instruction")
)

// Flags is a set of per-opcode facts named by the flag words of the table
// source (FlagLoad, FlagStore, FlagBranch, FlagSCCWrite, ...); the constants
// are generated into tables.go.
type Flags uint64

// Has reports whether all of the flags in g are set.
func (f Flags) Has(g Flags) bool { return f&g == g }

// String lists the flag words, joined by commas.
func (f Flags) String() string {
	var s []string
	for i, n := range flagNames {
		if f&(1<<i) != 0 {
			s = append(s, n)
		}
	}
	return strings.Join(s, ",")
}

// OpInfo holds the facts about an Op that do not depend on its encoding:
// the unit that executes it, the counters it raises, the union of the flag
// words of all its table rows and the facts the emulator and the UI would
// otherwise read off the mnemonic. All are generated from the tables.
type OpInfo struct {
	Class  Class
	Raises Counters
	Flags  Flags
	Branch BranchCond // a SOPP branch's condition (fact word br=COND); BranchNone otherwise
	// Src is the type of the first register source operand, whose width
	// says whether a scalar operation works on 32 or 64 bits (s_and_b64
	// TypeB64, s_bfm_b64 TypeB32, s_lshl_b64 TypeB64 with a 32-bit shift
	// count). TypeNone when there is no register source or the op's rows
	// disagree.
	Src DataType
}

// OperandSpec describes one operand of a Form, from one
// `field:access:type:dwords` column of the table source.
type OperandSpec struct {
	Field  Field
	Access Access
	Type   DataType // TypeNone for immediates
	Width  uint8    // register width in dwords; 0 for immediates
	Imm    bool     // the operand is an immediate field (type "imm")
}

// Form is one table row: how one opcode of one encoding decodes and prints
// on a generation. Operands are in LLVM's print order.
type Form struct {
	Mnemonic string // LLVM's mnemonic without the _e32/_e64/_sdwa/_dpp suffix
	Op       Op
	Enc      Encoding
	Opcode   uint16
	Operands []OperandSpec
	Flags    Flags // this row's flag words (OpInfo.Flags is the union over rows)
}

// String returns the operation's name: the lower-case Op constant name.
func (op Op) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return "unknown"
}

// Info returns the operation's class, counters and flags.
func (op Op) Info() *OpInfo {
	if int(op) < len(opInfo) {
		return &opInfo[op]
	}
	return &opInfo[0]
}

// String returns the field's name as written in the table source.
func (f Field) String() string {
	if int(f) < len(fieldNames) {
		return fieldNames[f]
	}
	return "?"
}

// lookupForm returns the form of opcode in encoding enc on generation t, or
// nil when the generation has no such opcode.
func lookupForm(t Target, enc Encoding, opcode uint16) *Form {
	if int(t) >= len(formIndex) || int(enc) >= len(formIndex[t]) {
		return nil
	}
	tab := formIndex[t][enc]
	if int(opcode) >= len(tab) || tab[opcode] == 0 {
		return nil
	}
	return &forms[tab[opcode]-1]
}

// lookupFormWith is lookupForm on a processor with features f: a row of
// one of its features (GENS "9+dl" in the table source) wins over the
// generation's row.
func lookupFormWith(t Target, f Features, enc Encoding, opcode uint16) *Form {
	if f != 0 && t == GFX9 && featureEncs&(1<<uint(enc)) != 0 {
		for i := range featureForms {
			ff := &featureForms[i]
			if ff.feat&f != 0 && ff.enc == enc && ff.opcode == opcode {
				return &forms[ff.form]
			}
		}
	}
	return lookupForm(t, enc, opcode)
}

// startForm looks the opcode up for the non-memory decoders and records
// the form in inst, whose length becomes n.
func startForm(t Target, inst *Inst, opcode uint16, n int) (*Form, error) {
	f := lookupFormWith(t, inst.Features, inst.Enc, opcode)
	if f == nil {
		inst.Len = 4
		return nil, ErrInvalid
	}
	inst.Form = f
	inst.Op = f.Op
	inst.Len = n
	return f, nil
}

// featureForm indexes a GFX9 row that exists only with a feature.
type featureForm struct {
	feat   Features
	enc    Encoding
	opcode uint16
	form   uint16 // index in forms
}

// FeaturesOf returns the instruction-set features of a processor name
// beyond its generation ("gfx906" → FeatFMAMix|FeatDL, "gfx810" → FeatPackedD16).
func FeaturesOf(processor string) Features {
	switch processorName(processor) {
	case "gfx904":
		return FeatFMAMix
	case "gfx906":
		return FeatFMAMix | FeatDL
	case "gfx810":
		return FeatPackedD16
	}
	return 0
}

// processorName strips a target ID ("amdgcn-amd-amdhsa--gfx906:xnack-")
// down to its processor name ("gfx906").
func processorName(id string) string {
	if i := strings.LastIndex(id, "-"); i >= 0 && strings.Contains(id[:i], "amdgcn") {
		id = id[i+1:]
	}
	if i := strings.IndexByte(id, ':'); i >= 0 {
		id = id[:i]
	}
	return id
}

// LookupForm is lookupForm for other packages and tools.
func LookupForm(t Target, enc Encoding, opcode uint16) *Form { return lookupForm(t, enc, opcode) }

// decoders[enc] decodes one instruction of encoding enc. src starts at the
// instruction and may continue with the rest of the section. The function
// fills inst (Op, Form, Variant, Len, Words, Args, Mods; Enc and Target are
// already set and Words[0] holds the first word) and returns ErrInvalid for
// words the target rejects or ErrTruncated when a second word or literal is
// cut off. Each encoding family registers its decoder from an init function
// in its own file.
var decoders [numEncodings]func(src []byte, t Target, inst *Inst) error

// printers[enc] appends the text of inst (mnemonic and operands, without
// leading or trailing blanks) to p; see printer for the helpers.
var printers [numEncodings]func(p *printer, inst *Inst)

// numEncodings bounds the Encoding values.
const numEncodings = int(EncFLAT) + 1

// TargetOf maps a processor name ("gfx900", "gfx803", "gfx906:xnack-",
// "amdgcn-amd-amdhsa--gfx900") to its generation.
func TargetOf(processor string) (Target, bool) {
	switch processorName(processor) {
	case "gfx801", "gfx802", "gfx803", "gfx805", "gfx810":
		return GFX8, true
	case "gfx900", "gfx902", "gfx904", "gfx906", "gfx909", "gfx90c":
		return GFX9, true
	}
	return TargetUnknown, false
}

// String returns "gfx8" or "gfx9".
func (t Target) String() string {
	switch t {
	case GFX8:
		return "gfx8"
	case GFX9:
		return "gfx9"
	}
	return "unknown"
}

var encNames = [numEncodings]string{"unknown", "sop2", "sopk", "sop1", "sopc", "sopp", "smem",
	"vop1", "vop2", "vopc", "vop3", "vop3p", "vintrp", "ds", "mubuf", "mtbuf", "mimg", "exp", "flat"}

// String returns the encoding's name in lower case ("sop2", "vop3", ...).
func (e Encoding) String() string {
	if int(e) < len(encNames) {
		return encNames[e]
	}
	return "unknown"
}

// EncodingOf identifies the encoding of an instruction from its first
// word, or EncUnknown when no encoding of the generation matches.
func EncodingOf(w uint32, t Target) Encoding {
	switch {
	case w>>31 == 0:
		switch w >> 25 {
		case 0x3f:
			return EncVOP1
		case 0x3e:
			return EncVOPC
		}
		return EncVOP2
	case w>>30 == 0b10:
		switch w >> 23 {
		case 0x17d:
			return EncSOP1
		case 0x17e:
			return EncSOPC
		case 0x17f:
			return EncSOPP
		}
		if w>>28 == 0b1011 {
			return EncSOPK
		}
		return EncSOP2
	}
	switch w >> 26 {
	case 0x30:
		return EncSMEM
	case 0x31:
		return EncEXP
	case 0x34:
		if t == GFX9 && w>>23 == 0x1a7 {
			return EncVOP3P
		}
		return EncVOP3
	case 0x35:
		return EncVINTRP
	case 0x36:
		return EncDS
	case 0x37:
		return EncFLAT
	case 0x38:
		return EncMUBUF
	case 0x3a:
		return EncMTBUF
	case 0x3c:
		return EncMIMG
	}
	return EncUnknown
}

// Decode decodes the instruction at the start of src for generation t.
// src may continue past the instruction; Inst.Len says how many bytes it
// took. It returns ErrInvalid for words the target rejects (as LLVM does)
// and ErrTruncated when the input ends inside the instruction.
func Decode(src []byte, t Target) (Inst, error) {
	var inst Inst
	err := DecodeInto(src, t, &inst)
	return inst, err
}

// DecodeInto is Decode into an existing Inst, reusing its Args storage.
func DecodeInto(src []byte, t Target, inst *Inst) error { return DecodeWith(src, t, 0, inst) }

// DecodeWith is DecodeInto for a processor with features beyond its
// generation's base set (FeaturesOf("gfx906")).
func DecodeWith(src []byte, t Target, f Features, inst *Inst) error {
	args := inst.Args[:0]
	*inst = Inst{Args: args, Target: t, Features: f}
	if t != GFX8 && t != GFX9 {
		return ErrInvalid
	}
	if len(src) < 4 {
		return ErrTruncated
	}
	w := binary.LittleEndian.Uint32(src)
	inst.Words[0] = w
	enc := EncodingOf(w, t)
	inst.Enc = enc
	d := decoders[enc]
	if d == nil {
		inst.Len = 4
		return ErrInvalid
	}
	if err := d(src, t, inst); err != nil {
		if inst.Len == 0 {
			inst.Len = 4
		}
		return err
	}
	return nil
}

// word returns the little-endian 32-bit word at byte offset off of src, or
// false when src is too short.
func word(src []byte, off int) (uint32, bool) {
	if len(src) < off+4 {
		return 0, false
	}
	return binary.LittleEndian.Uint32(src[off:]), true
}
