package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// MaxBlock is the largest work-group, in work-items, that a manifest may ask
// for (AMDGPU's largest max_flat_workgroup_size).
const MaxBlock = 1024

// MaxGrid is the largest grid size in one dimension, in work-items: the
// AQL dispatch packet holds each as a 32-bit number.
const MaxGrid = 1<<32 - 1

// MaxBuffer caps one buffer's size (4 GiB): room for benchmark-sized
// buffers, while a typo still cannot ask for terabytes.
const MaxBuffer = 4 << 30

// MaxStruct caps a struct argument's size in bytes, far above OpenCL's
// minimum CL_DEVICE_MAX_PARAMETER_SIZE (1024) for all the arguments.
const MaxStruct = 4096

// Version is the manifest format version this package reads and writes
// (see the package documentation): a manifest without "version" is read as
// this version, which reads every version 1 manifest the same way.
const Version = 2

// Manifest is one kernel launch. Dir is where relative input paths resolve.
type Manifest struct {
	Version int    `json:"version,omitempty"`
	Source  string `json:"source,omitempty"`
	Options string `json:"options,omitempty"`
	Kernel  string `json:"kernel"`
	Grid    Dim    `json:"grid"`
	Block   Dim    `json:"block"`
	Offset  Dim    `json:"offset,omitzero"`
	Args    []Arg  `json:"args"`

	Dir string `json:"-"`
}

// Arg is one kernel argument; see the package documentation.
type Arg struct {
	Name   string  `json:"name,omitempty"`
	Kind   Kind    `json:"kind"`
	Type   Type    `json:"type,omitempty"`
	Size   int64   `json:"size,omitempty"`
	Value  Value   `json:"value,omitempty"`
	Fields []Field `json:"fields,omitempty"`
	Input  string  `json:"input,omitempty"`
	Fill   string  `json:"fill,omitempty"`
	Output string  `json:"output,omitempty"`
	ULP    int     `json:"ulp,omitempty"`

	// Placement (manifest version 2; see the package documentation).
	Buffer   string    `json:"buffer,omitempty"`   // an alias: point into this named buffer argument's buffer
	Offset   int64     `json:"offset,omitempty"`   // the pointer is this many bytes into the buffer
	Address  Value     `json:"address,omitempty"`  // a fixed device address for the buffer
	Pointers []Pointer `json:"pointers,omitempty"` // other buffers' addresses written into this one
}

// Field is one member of a struct argument.
type Field struct {
	Type  Type  `json:"type"`
	Value Value `json:"value"`
}

// Kind is an argument's kind.
type Kind string

// The argument kinds.
const (
	Buffer Kind = "buffer"
	Scalar Kind = "scalar"
	Struct Kind = "struct"
	Local  Kind = "local"
	Null   Kind = "null"
)

// Type is an element or scalar type name.
type Type string

// Value is a scalar's value as written: a JSON number's text or a string's
// contents.
type Value string

// UnmarshalJSON accepts a number or a string.
func (v *Value) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = Value(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("value must be a number or a string: %s", b)
	}
	*v = Value(n)
	return nil
}

// MarshalJSON writes a number when JSON carries the value exactly (a float,
// or an integer of magnitude below 2^53), a string otherwise.
func (v Value) MarshalJSON() ([]byte, error) {
	s := string(v)
	if json.Valid([]byte(s)) && s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		if strings.ContainsAny(s, ".eE") {
			return []byte(s), nil
		}
		if n, err := strconv.ParseInt(s, 10, 64); err == nil && n < 1<<53 && n > -(1<<53) {
			return []byte(s), nil
		}
	}
	return json.Marshal(s)
}

// Parse decodes and validates a manifest; dir resolves relative inputs.
func Parse(data []byte, dir string) (*Manifest, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	m.Dir = dir
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Marshal encodes the manifest as indented JSON, in the current Version.
func (m *Manifest) Marshal() ([]byte, error) {
	c := *m
	c.Version = Version
	b, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Validate checks the manifest on its own (not against a kernel).
func (m *Manifest) Validate() error {
	if m.Version < 0 || m.Version > Version {
		return fmt.Errorf("manifest version %d: this wavedbg reads versions 1 to %d", m.Version, Version)
	}
	if m.Grid.Dims == 0 || m.Block.Dims == 0 {
		return errors.New("grid and block sizes are required")
	}
	if m.Grid.Dims != m.Block.Dims {
		return fmt.Errorf("grid has %d dimensions but block has %d", m.Grid.Dims, m.Block.Dims)
	}
	if m.Offset.Dims != 0 && m.Offset.Dims != m.Grid.Dims {
		return fmt.Errorf("offset has %d dimensions but grid has %d", m.Offset.Dims, m.Grid.Dims)
	}
	grid, block, off := m.Sizes()
	total := uint64(1)
	for i := 0; i < 3; i++ {
		if grid[i] == 0 || block[i] == 0 {
			return fmt.Errorf("grid %s, block %s: sizes must be at least 1", m.Grid, m.Block)
		}
		if grid[i] > MaxGrid {
			return fmt.Errorf("dimension %d: grid %d exceeds the largest grid size, %d work-items (2^32-1: AQL grid sizes are 32-bit)", i, grid[i], uint64(MaxGrid))
		}
		if off[i] > 1<<32-grid[i] {
			return fmt.Errorf("dimension %d: grid %d plus offset %d exceeds 2^32", i, grid[i], off[i])
		}
		total *= block[i]
		if total > MaxBlock {
			return fmt.Errorf("block %s has more than %d work-items", m.Block, MaxBlock)
		}
	}
	if _, ok := mulU64(grid[0], grid[1], grid[2]); !ok {
		return fmt.Errorf("grid %s has more than 2^64-1 work-items", m.Grid)
	}
	names := map[string]bool{}
	for i := range m.Args {
		a := &m.Args[i]
		if err := a.validate(); err != nil {
			return fmt.Errorf("argument %d (%s): %w", i, a.label(), err)
		}
		if a.Output != "" {
			name := filepath.Clean(a.Output)
			if names[name] {
				return fmt.Errorf("argument %d (%s): output %q named twice", i, a.label(), a.Output)
			}
			names[name] = true
		}
	}
	return m.validateRefs()
}

func (a *Arg) label() string {
	if a.Name != "" {
		return a.Name
	}
	return string(a.Kind)
}

func (a *Arg) validate() error {
	if a.Kind != Buffer && a.Kind != Null && (a.Buffer != "" || a.Offset != 0 || a.Address != "" || a.Pointers != nil) {
		return errors.New("buffer, offset, address and pointers are for buffer arguments")
	}
	switch a.Kind {
	case Buffer:
		if a.Buffer != "" {
			return a.validateAlias()
		}
		if err := a.validatePlacement(); err != nil {
			return err
		}
		es, err := a.Type.Size()
		if err != nil {
			return err
		}
		if a.Size <= 0 || a.Size > MaxBuffer || a.Size%int64(es) != 0 {
			return fmt.Errorf("size %d is not a positive multiple of %s's %d bytes up to %d", a.Size, a.Type, es, MaxBuffer)
		}
		if a.Input != "" && a.Fill != "" {
			return errors.New("both input and fill given")
		}
		if a.Fill != "" {
			if _, err := parseFill(a.Fill, a.Type); err != nil {
				return err
			}
		}
		if a.ULP < 0 {
			return fmt.Errorf("ulp %d is negative; it must be at least 0", a.ULP)
		}
		if a.ULP > 0 && !a.Type.IsFloat() {
			return fmt.Errorf("ulp %d needs a float type (half, float or double), not %s", a.ULP, a.Type)
		}
		if a.Value != "" || a.Fields != nil {
			return errors.New("a buffer takes no value or fields")
		}
		if a.Output != "" && !filepath.IsLocal(a.Output) {
			return fmt.Errorf("output %q must be a relative path inside the output directory (no absolute path, no .. element leaving it)", a.Output)
		}
	case Scalar:
		if a.Type == "" {
			// Typed by the kernel's metadata (Check).
			if err := checkUntyped(a.Value); err != nil {
				return err
			}
		} else if _, err := a.Type.Encode(a.Value); err != nil {
			return err
		}
		if a.Size != 0 || a.Input != "" || a.Fill != "" || a.Output != "" || a.Fields != nil {
			return errors.New("a scalar takes only a type and a value")
		}
	case Struct:
		if len(a.Fields) == 0 {
			return errors.New("a struct needs fields")
		}
		if a.Size != 0 || a.Input != "" || a.Fill != "" || a.Output != "" || a.Value != "" {
			return errors.New("a struct takes only fields")
		}
		if _, err := a.Bytes(""); err != nil {
			return err
		}
	case Local:
		if a.Size <= 0 || a.Size > 1<<16 {
			return fmt.Errorf("local size %d is not in 1..65536", a.Size)
		}
		if a.Input != "" || a.Fill != "" || a.Output != "" {
			return errors.New("a local argument has only a size")
		}
	case Null:
		if a.Type != "" || a.Size != 0 || a.Value != "" || a.Fields != nil || a.Input != "" || a.Fill != "" ||
			a.Output != "" || a.Buffer != "" || a.Offset != 0 || a.Address != "" || a.Pointers != nil {
			return errors.New("a null pointer takes only a name")
		}
		return nil
	default:
		return fmt.Errorf("unknown kind %q (want buffer, scalar, struct, local or null)", a.Kind)
	}
	return nil
}

// ByValueSize returns the kernarg bytes a scalar or struct argument occupies
// (0 for buffers and locals, which are pointers).
func (a *Arg) ByValueSize() int {
	if a.Kind != Scalar && a.Kind != Struct {
		return 0
	}
	b, err := a.Bytes("")
	if err != nil {
		return 0
	}
	return len(b)
}

// Bytes returns an argument's initial contents: a buffer's data (read from
// Input relative to dir, or made by Fill), a scalar's or struct's encoded
// value. A local argument has none.
func (a *Arg) Bytes(dir string) ([]byte, error) {
	switch a.Kind {
	case Scalar:
		return a.Type.Encode(a.Value)
	case Struct:
		var out []byte
		maxAlign := 1
		for i, f := range a.Fields {
			b, err := f.Type.Encode(f.Value)
			if err != nil {
				return nil, fmt.Errorf("field %d: %w", i, err)
			}
			for len(out)%len(b) != 0 {
				out = append(out, 0)
			}
			out = append(out, b...)
			maxAlign = max(maxAlign, len(b))
			if len(out) > MaxStruct {
				return nil, fmt.Errorf("field %d: the struct exceeds %d bytes", i, MaxStruct)
			}
		}
		for len(out)%maxAlign != 0 {
			out = append(out, 0)
		}
		return out, nil
	case Buffer:
		if a.Input != "" {
			return a.readInput(dir)
		}
		f, err := parseFill(a.Fill, a.Type)
		if err != nil {
			return nil, err
		}
		return f.generate(a.Type, a.Size), nil
	}
	return nil, nil
}
