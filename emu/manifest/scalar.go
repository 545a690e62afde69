package manifest

// This file gives a scalar argument the type the kernel declares: a value
// written without a type (or with one that disagrees in kind) is parsed as
// the kernel's metadata type, so that 3 given to a float argument is 3.0f.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wavedbg/wavedbg/loader"
)

// metaTypes maps metadata type names that are not OpenCL C's spelling of
// the scalar types (C and HIP names) to them.
var metaTypes = map[string]Type{
	"signed char": Char, "unsigned char": UChar, "unsigned short": UShort,
	"unsigned int": UInt, "unsigned": UInt, "long long": Long,
	"unsigned long": ULong, "unsigned long long": ULong, "size_t": ULong,
	"_Float16": Half, "__fp16": Half,
}

// valueTypes maps v2/v3 metadata's .value_type to a scalar type.
var valueTypes = map[string]Type{
	"I8": Char, "U8": UChar, "I16": Short, "U16": UShort, "I32": Int,
	"U32": UInt, "I64": Long, "U64": ULong, "F16": Half, "F32": Float, "F64": Double,
}

// MetaType returns the scalar type kernel argument a declares, or "" when
// its metadata names none (a struct, a vector, or no type given).
func MetaType(a loader.Arg) Type {
	name := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(a.TypeName), "const "))
	if _, ok := typeSizes[Type(name)]; ok {
		return Type(name)
	}
	if t, ok := metaTypes[name]; ok {
		return t
	}
	if name == "" {
		return valueTypes[a.ValueType]
	}
	return ""
}

// resolveScalar gives scalar a the kernel argument w's type when a has
// none, and refuses a type that disagrees with the kernel's in kind (an
// integer for a float, float for double): the value is parsed as the type
// the kernel declares. Integer types of the kernel's width stay as given
// (int for uint passes the bits).
func (a *Arg) resolveScalar(w loader.Arg) error {
	mt := MetaType(w)
	if a.Type == "" {
		if mt == "" {
			return fmt.Errorf("value %s has no type and the kernel's metadata declares no scalar type (%q); give one (TYPE=VALUE)", a.Value, w.TypeName)
		}
		a.Type = mt
	} else if mt != "" && a.Type != mt && (a.Type.IsFloat() || mt.IsFloat()) {
		return fmt.Errorf("given as %s but the kernel declares %s; write %s=%s or just %s", a.Type, mt, mt, a.Value, a.Value)
	}
	if _, err := a.Type.Encode(a.Value); err != nil {
		return err
	}
	return nil
}

// checkUntyped checks a value given without a type: a decimal or 0x hex
// integer, or a decimal number.
func checkUntyped(v Value) error {
	s := strings.TrimSpace(string(v))
	if s == "" {
		return fmt.Errorf("scalar without a value")
	}
	if _, err := parseInt(s, Long); err == nil {
		return nil
	}
	if _, err := parseInt(s, ULong); err == nil {
		return nil
	}
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return fmt.Errorf("%q is not a number", s)
	}
	return nil
}
