package manifest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Dim is a 1 to 3 dimensional size; missing dimensions are 1 (for sizes) or
// 0 (for offsets) and Dims says how many were given.
type Dim struct {
	V    [3]uint64
	Dims int
}

// UnmarshalJSON reads an array of 1 to 3 non-negative integers.
func (d *Dim) UnmarshalJSON(b []byte) error {
	var xs []uint64
	if err := json.Unmarshal(b, &xs); err != nil {
		return fmt.Errorf("a size is an array of 1 to 3 non-negative integers: %s", b)
	}
	if len(xs) < 1 || len(xs) > 3 {
		return fmt.Errorf("a size has 1 to 3 dimensions, not %d", len(xs))
	}
	*d = Dim{Dims: len(xs)}
	copy(d.V[:], xs)
	return nil
}

// MarshalJSON writes the given dimensions.
func (d Dim) MarshalJSON() ([]byte, error) { return json.Marshal(d.V[:d.Dims]) }

// String formats the dimensions as X[,Y[,Z]].
func (d Dim) String() string {
	s := make([]string, d.Dims)
	for i := range s {
		s[i] = strconv.FormatUint(d.V[i], 10)
	}
	return strings.Join(s, ",")
}

// ParseDim parses X[,Y[,Z]] (the command-line form).
func ParseDim(s string) (Dim, error) {
	parts := strings.Split(s, ",")
	if len(parts) > 3 || s == "" {
		return Dim{}, fmt.Errorf("%q: want X[,Y[,Z]]", s)
	}
	d := Dim{Dims: len(parts)}
	for i, p := range parts {
		v, err := strconv.ParseUint(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return Dim{}, fmt.Errorf("%q: %q is not a non-negative integer", s, p)
		}
		d.V[i] = v
	}
	return d, nil
}

// at returns dimension i, or missing for a dimension not given.
func (d Dim) at(i int, missing uint64) uint64 {
	if i < d.Dims {
		return d.V[i]
	}
	return missing
}

// Sizes returns the grid, block and offset as three full dimensions.
func (m *Manifest) Sizes() (grid, block, offset [3]uint64) {
	for i := 0; i < 3; i++ {
		grid[i], block[i], offset[i] = m.Grid.at(i, 1), m.Block.at(i, 1), m.Offset.at(i, 0)
	}
	return
}
