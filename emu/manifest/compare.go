package manifest

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// Mismatch describes an output that differs beyond its tolerance.
type Mismatch struct {
	Arg      string // argument name or output file
	Count    int    // elements out of tolerance
	Elements int    // elements compared
	First    int    // index of the first bad element
	Got      string // its value, formatted
	Want     string
	MaxULP   uint64 // largest float difference seen, in ULPs
}

func (m *Mismatch) Error() string {
	return fmt.Sprintf("%s: %d of %d elements differ; first at [%d]: got %s, want %s (max %d ULP)",
		m.Arg, m.Count, m.Elements, m.First, m.Got, m.Want, m.MaxULP)
}

// Compare checks an output buffer against a reference: integers (and floats
// with ulp 0) bit for bit, floats within a.ULP units in the last place. NaNs
// compare equal to NaNs of any payload.
func (a *Arg) Compare(got, want []byte) error {
	name := a.Output
	if a.Name != "" {
		name = a.Name + " (" + a.Output + ")"
	}
	if len(got) != len(want) {
		return fmt.Errorf("%s: %d bytes, want %d", name, len(got), len(want))
	}
	es, err := a.Type.Size()
	if err != nil {
		return err
	}
	m := &Mismatch{Arg: name, Elements: len(got) / es, First: -1}
	for i := 0; i+es <= len(got); i += es {
		g, w := loadBits(got[i:], es), loadBits(want[i:], es)
		if g == w {
			continue
		}
		d := ulpDiff(a.Type, g, w)
		m.MaxULP = max(m.MaxULP, d)
		if a.Type.IsFloat() && d <= uint64(a.ULP) {
			continue
		}
		m.Count++
		if m.First < 0 {
			m.First = i / es
			m.Got, m.Want = format(a.Type, g), format(a.Type, w)
		}
	}
	if m.Count > 0 {
		return m
	}
	return nil
}

func loadBits(b []byte, n int) uint64 {
	var t [8]byte
	copy(t[:], b[:n])
	return binary.LittleEndian.Uint64(t[:])
}

// ulpDiff is the distance between two floats of t in representable steps
// (0 for two NaNs, the maximum for a NaN against a number).
func ulpDiff(t Type, a, b uint64) uint64 {
	var w uint
	var nan func(uint64) bool
	switch t {
	case Half:
		w = 16
		nan = func(x uint64) bool { return x&0x7c00 == 0x7c00 && x&0x3ff != 0 }
	case Float:
		w = 32
		nan = func(x uint64) bool { return math.IsNaN(float64(math.Float32frombits(uint32(x)))) }
	case Double:
		w = 64
		nan = func(x uint64) bool { return math.IsNaN(math.Float64frombits(x)) }
	default:
		if a == b {
			return 0
		}
		return math.MaxUint64
	}
	if nan(a) || nan(b) {
		if nan(a) && nan(b) {
			return 0
		}
		return math.MaxUint64
	}
	// Map sign-magnitude to a monotonic integer line.
	key := func(x uint64) int64 {
		sign := x >> (w - 1) & 1
		mag := int64(x &^ (1 << (w - 1)))
		if sign == 1 {
			return -mag
		}
		return mag
	}
	d := key(a) - key(b)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

func format(t Type, bits uint64) string {
	switch t {
	case Half:
		return fmt.Sprintf("%g (%#04x)", HalfToFloat32(uint16(bits)), bits)
	case Float:
		return fmt.Sprintf("%g (%#08x)", math.Float32frombits(uint32(bits)), bits)
	case Double:
		return fmt.Sprintf("%g (%#016x)", math.Float64frombits(bits), bits)
	}
	n, _ := t.Size()
	if t.IsSigned() {
		shift := uint(64 - 8*n)
		return fmt.Sprintf("%d (%#x)", int64(bits<<shift)>>shift, bits)
	}
	return fmt.Sprintf("%d (%#x)", bits, bits)
}

// Outputs lists the buffer arguments that have an output file.
func (m *Manifest) Outputs() []int {
	var out []int
	for i, a := range m.Args {
		if a.Kind == Buffer && a.Output != "" {
			out = append(out, i)
		}
	}
	return out
}

// Describe is a one-line summary of the launch, for messages.
func (m *Manifest) Describe() string {
	var kinds []string
	for _, a := range m.Args {
		kinds = append(kinds, string(a.Kind))
	}
	s := fmt.Sprintf("%s grid %s block %s", m.Kernel, m.Grid, m.Block)
	if m.Offset.Dims > 0 {
		s += " offset " + m.Offset.String()
	}
	return s + " args [" + strings.Join(kinds, " ") + "]"
}
