package manifest

// This file is the placement half of a buffer argument (manifest version
// 2): a pointer Offset bytes into a buffer, an alias of another argument's
// buffer, a fixed device address, and pointers to other buffers written
// into a buffer's contents when the buffers are placed.

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
)

// Pointer is a buffer's device address, plus Offset bytes, written as 8
// little-endian bytes at byte At of the buffer holding it, once every
// buffer is placed (a relocation). To names a buffer argument (or an alias,
// which adds its own offset).
type Pointer struct {
	At     int64  `json:"at"`
	To     string `json:"to"`
	Offset int64  `json:"offset,omitempty"`
}

// FixedAlign is the alignment a fixed buffer address needs: the 256 bytes
// HSA runtimes (and wavedbg) align every allocation to, which kernels
// compiled for them may assume.
const FixedAlign = 256

// MaxAddress bounds a fixed buffer's end: GFX8 and GFX9 have 48-bit
// virtual addresses (the LDS and scratch apertures lie above).
const MaxAddress = 1 << 48

// validateAlias checks a buffer argument that points into another's buffer.
func (a *Arg) validateAlias() error {
	if a.Size != 0 || a.Input != "" || a.Fill != "" || a.Output != "" || a.ULP != 0 ||
		a.Address != "" || a.Pointers != nil || a.Value != "" || a.Fields != nil {
		return fmt.Errorf("an alias of buffer %q takes only a name, a type and an offset: the buffer is %q's", a.Buffer, a.Buffer)
	}
	if a.Type != "" {
		if _, err := a.Type.Size(); err != nil {
			return err
		}
	}
	if a.Offset < 0 {
		return fmt.Errorf("offset %d is negative", a.Offset)
	}
	return nil
}

// validatePlacement checks a buffer's own offset, address and pointers
// (the references they name are checked by validateRefs).
func (a *Arg) validatePlacement() error {
	if a.Offset < 0 || a.Offset > a.Size {
		return fmt.Errorf("offset %d is outside the buffer's %d bytes", a.Offset, a.Size)
	}
	if a.Address != "" {
		addr, err := a.FixedAddress()
		if err != nil {
			return err
		}
		switch {
		case addr == 0:
			return errors.New("address 0 is the null pointer; give a fixed address of at least 0x1000, or none")
		case addr < 4096:
			return fmt.Errorf("address %#x is in the first page, kept unmapped so that null pointers fault", addr)
		case addr%FixedAlign != 0:
			return fmt.Errorf("address %#x is not a multiple of %d (the alignment of every device allocation)", addr, FixedAlign)
		case addr > MaxAddress || uint64(max(a.Size, 1)) > MaxAddress-addr:
			return fmt.Errorf("address %#x: the buffer's %d bytes pass the 48-bit address space (%#x)", addr, a.Size, uint64(MaxAddress))
		}
	}
	for j, p := range a.Pointers {
		if p.To == "" {
			return fmt.Errorf("pointer %d names no buffer (\"to\")", j)
		}
		if p.At < 0 || p.At%8 != 0 || p.At > a.Size-8 {
			return fmt.Errorf("pointer %d to %q: at %d is not an 8-byte aligned place for 8 bytes in the buffer's %d", j, p.To, p.At, a.Size)
		}
		if p.Offset < 0 {
			return fmt.Errorf("pointer %d to %q: offset %d is negative", j, p.To, p.Offset)
		}
	}
	return nil
}

// FixedAddress returns a buffer's fixed device address (0: none).
func (a *Arg) FixedAddress() (uint64, error) {
	if a.Address == "" {
		return 0, nil
	}
	s := strings.TrimSpace(string(a.Address))
	v, err := strconv.ParseUint(s, 0, 64)
	if err != nil || strings.HasPrefix(s, "0") && len(s) > 1 && !strings.HasPrefix(s, "0x") {
		return 0, fmt.Errorf("address %q is not a decimal or 0x hex address", s)
	}
	return v, nil
}

// owns reports whether a holds a buffer of its own (not an alias).
func (a *Arg) owns() bool { return a.Kind == Buffer && a.Buffer == "" }

// validateRefs resolves the names aliases and pointers use, checks their
// offsets against the buffers they name, and refuses fixed addresses that
// overlap.
func (m *Manifest) validateRefs() error {
	for i := range m.Args {
		a := &m.Args[i]
		if a.Buffer != "" {
			r, err := m.bufferNamed(a.Buffer)
			if err != nil {
				return fmt.Errorf("argument %d (%s): %w", i, a.label(), err)
			}
			if a.Offset > m.Args[r].Size {
				return fmt.Errorf("argument %d (%s): offset %d is outside buffer %q's %d bytes", i, a.label(), a.Offset, a.Buffer, m.Args[r].Size)
			}
		}
		for j, p := range a.Pointers {
			if _, _, err := m.target(p); err != nil {
				return fmt.Errorf("argument %d (%s): pointer %d: %w", i, a.label(), j, err)
			}
		}
	}
	type span struct {
		lo, hi uint64
		i      int
	}
	var fixed []span
	for i := range m.Args {
		if addr, _ := m.Args[i].FixedAddress(); addr != 0 && m.Args[i].owns() {
			fixed = append(fixed, span{addr, addr + uint64(max(m.Args[i].Size, 1)), i})
		}
	}
	slices.SortFunc(fixed, func(a, b span) int { return cmp.Compare(a.lo, b.lo) })
	for k := 1; k < len(fixed); k++ {
		if p, q := fixed[k-1], fixed[k]; q.lo < p.hi {
			return fmt.Errorf("argument %d (%s) at %#x overlaps argument %d (%s) at %#x..%#x", q.i, m.Args[q.i].label(), q.lo, p.i, m.Args[p.i].label(), p.lo, p.hi)
		}
	}
	return nil
}

// bufferNamed returns the index of the buffer argument (not an alias)
// called name.
func (m *Manifest) bufferNamed(name string) (int, error) {
	found := -1
	for i := range m.Args {
		if m.Args[i].Name != name {
			continue
		}
		if found >= 0 {
			return 0, fmt.Errorf("buffer %q: arguments %d and %d have that name", name, found, i)
		}
		found = i
	}
	if found < 0 {
		return 0, fmt.Errorf("no argument is named %q", name)
	}
	if !m.Args[found].owns() {
		return 0, fmt.Errorf("argument %d (%q) is not a buffer of its own (an alias or another kind)", found, name)
	}
	return found, nil
}

// target resolves a pointer to the buffer argument it points into and the
// offset there: an alias's name adds the alias's offset.
func (m *Manifest) target(p Pointer) (int, int64, error) {
	name, off := p.To, p.Offset
	for i := range m.Args {
		if a := &m.Args[i]; a.Name == p.To && a.Buffer != "" {
			name, off = a.Buffer, off+a.Offset
			break
		}
	}
	r, err := m.bufferNamed(name)
	if err != nil {
		return 0, 0, err
	}
	if off > m.Args[r].Size {
		return 0, 0, fmt.Errorf("offset %d is outside buffer %q's %d bytes", off, name, m.Args[r].Size)
	}
	return r, off, nil
}

// launchArg builds the emu argument of buffer, alias or null argument i
// from its contents data.
func (m *Manifest) launchArg(i int, data []byte) (emu.LaunchArg, error) {
	a := &m.Args[i]
	switch {
	case a.Kind == Null:
		return emu.LaunchArg{Kind: emu.ArgValue, Data: make([]byte, 8)}, nil
	case a.Buffer != "":
		r, err := m.bufferNamed(a.Buffer)
		return emu.LaunchArg{Kind: emu.ArgAlias, Ref: r, Offset: uint64(a.Offset)}, err
	}
	addr, err := a.FixedAddress()
	if err != nil {
		return emu.LaunchArg{}, err
	}
	l := emu.LaunchArg{Kind: emu.ArgBuffer, Data: data, Addr: addr, Offset: uint64(a.Offset)}
	for _, p := range a.Pointers {
		r, off, err := m.target(p)
		if err != nil {
			return emu.LaunchArg{}, err
		}
		l.Pointers = append(l.Pointers, emu.BufferPointer{At: uint64(p.At), Ref: r, Offset: uint64(off)})
	}
	return l, nil
}
