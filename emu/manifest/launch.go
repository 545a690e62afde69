package manifest

// This file matches a manifest to a kernel of a code object and turns it
// into an emu.Launch: the one conversion wavedbg run and trace, the debugger
// and the samples' tests share, so that they give the same errors.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/loader"
)

// MaxLDS is the LDS one work-group may use, in bytes (64 KiB on GFX8 and
// GFX9).
const MaxLDS = 65536

// Check finds the kernel m names in co and checks the launch against its
// metadata: the number of explicit arguments, their kinds and by-value
// sizes, the kernel's work-group size limits, and the LDS a work-group
// needs (the kernel's fixed size plus every local argument).
//
// With no kernel name, the code object's only kernel is taken (and named in
// m); a code object with several needs a name. Check also gives untyped
// scalars their metadata type (see resolveScalar), so m is complete after
// it.
func (m *Manifest) Check(co *loader.CodeObject) (*loader.Kernel, error) {
	var names []string
	for _, k := range co.Kernels {
		names = append(names, k.Name)
	}
	slices.Sort(names)
	if m.Kernel == "" {
		if len(co.Kernels) != 1 {
			return nil, fmt.Errorf("the code object holds %d kernels; name one with --kernel or \"kernel\" (it has: %s)", len(co.Kernels), strings.Join(names, ", "))
		}
		m.Kernel = co.Kernels[0].Name
	}
	k := co.Kernel(m.Kernel)
	if k == nil {
		return nil, fmt.Errorf("no kernel %q in the code object (it has: %s)", m.Kernel, strings.Join(names, ", "))
	}
	if err := m.fits(k); err != nil {
		return nil, err
	}
	return k, nil
}

// fits checks the launch against kernel k's metadata.
func (m *Manifest) fits(k *loader.Kernel) error {
	if k.Meta == nil {
		return fmt.Errorf("kernel %s has no metadata to check arguments against", k.Name)
	}
	var want []loader.Arg
	for _, a := range k.Meta.Args {
		if !a.ValueKind.Hidden() {
			want = append(want, a)
		}
	}
	if len(want) != len(m.Args) {
		var sig []string
		for _, a := range want {
			sig = append(sig, kernelArgLabel(a))
		}
		return fmt.Errorf("kernel %s takes %d arguments (%s); %d given", k.Name, len(want), strings.Join(sig, ", "), len(m.Args))
	}
	lds := k.Meta.GroupSegmentFixedSize
	for i, w := range want {
		a := &m.Args[i]
		bad := func(format string, args ...any) error {
			return fmt.Errorf("argument %d (%s): %s", i, kernelArgLabel(w), fmt.Sprintf(format, args...))
		}
		switch w.ValueKind {
		case loader.GlobalBuffer:
			if a.Kind != Buffer && a.Kind != Null {
				return bad("a pointer needs a buffer or null, not a %s", a.Kind)
			}
		case loader.DynamicSharedPointer:
			if a.Kind != Local {
				return bad("a __local pointer needs a local argument, not a %s", a.Kind)
			}
			lds += uint64(a.Size)
		case loader.ByValue:
			if a.Kind != Scalar && a.Kind != Struct {
				return bad("needs a scalar or struct of %d bytes, not a %s", w.Size, a.Kind)
			}
			if a.Kind == Scalar {
				if err := a.resolveScalar(w); err != nil {
					return bad("%v", err)
				}
			}
			if n := a.ByValueSize(); uint64(n) != w.Size {
				return bad("the value has %d bytes; the kernel expects %d", n, w.Size)
			}
		default:
			return bad("this argument kind is not supported")
		}
	}
	_, block, _ := m.Sizes()
	items := block[0] * block[1] * block[2]
	if limit := k.Meta.MaxFlatWorkgroupSize; limit != 0 && items > limit {
		return fmt.Errorf("block %s has %d work-items; kernel %s allows at most %d", m.Block, items, k.Name, limit)
	}
	if r := k.Meta.ReqdWorkgroupSize; len(r) == 3 && (r[0] != block[0] || r[1] != block[1] || r[2] != block[2]) {
		return fmt.Errorf("kernel %s requires block %d,%d,%d; got %s", k.Name, r[0], r[1], r[2], m.Block)
	}
	if lds > MaxLDS {
		return fmt.Errorf("kernel %s needs %d bytes of LDS per work-group (at most %d)", k.Name, lds, MaxLDS)
	}
	return nil
}

// kernelArgLabel names a kernel argument for messages: "int* a (global_buffer)".
func kernelArgLabel(a loader.Arg) string {
	s := strings.TrimSpace(a.TypeName + " " + a.Name)
	if s == "" {
		return string(a.ValueKind)
	}
	return s + " (" + string(a.ValueKind) + ")"
}

// A NoDispatchError is Launch's error for a code object the emulator cannot
// run at all (emu.NewLaunch refused it: not GFX8 or GFX9, no code), as
// opposed to a launch that does not fit the kernel. Its text is the
// emulator's.
type NoDispatchError struct{ Err error }

func (e *NoDispatchError) Error() string { return e.Err.Error() }
func (e *NoDispatchError) Unwrap() error { return e.Err }

// Launch validates m, checks it against the kernel it names in co (Check)
// and builds the kernel's emu.Launch: emu.NewLaunch's half from the code
// object, then m's grid, block, offset and arguments.
//
// inputs are the buffers' initial contents by argument index, as Inputs
// returns them; nil means Launch reads them itself, once CheckBudget has
// passed with DefaultMemLimit. The Launch holds the
// buffers without copying them, and emu.RunGrid and emu.PrepareWave take
// ownership of buffer data: a caller that dispatches the same Launch twice
// gives each dispatch its own copies.
func (m *Manifest) Launch(co *loader.CodeObject, inputs [][]byte) (*emu.Launch, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	k, err := m.Check(co)
	if err != nil {
		return nil, err
	}
	l, err := emu.NewLaunch(co, k)
	if err != nil {
		return nil, &NoDispatchError{err}
	}
	if inputs == nil {
		if err := m.CheckBudget(DefaultMemLimit()); err != nil {
			return nil, err
		}
		if inputs, err = m.Inputs(); err != nil {
			return nil, err
		}
	}
	if len(inputs) != len(m.Args) {
		return nil, fmt.Errorf("%d inputs for %d arguments", len(inputs), len(m.Args))
	}
	l.Dims = m.Grid.Dims
	grid, block, off := m.Sizes()
	for i := range 3 {
		l.Grid[i], l.Block[i], l.Offset[i] = uint32(grid[i]), uint32(block[i]), uint32(off[i])
	}
	l.Args = make([]emu.LaunchArg, 0, len(m.Args))
	for i := range m.Args {
		a := &m.Args[i]
		switch a.Kind {
		case Buffer, Null:
			if a.owns() && int64(len(inputs[i])) != a.Size {
				return nil, fmt.Errorf("argument %d (%s): %d bytes of input for a buffer of %d", i, a.label(), len(inputs[i]), a.Size)
			}
			la, err := m.launchArg(i, inputs[i])
			if err != nil {
				return nil, fmt.Errorf("argument %d (%s): %w", i, a.label(), err)
			}
			l.Args = append(l.Args, la)
		case Local:
			l.Args = append(l.Args, emu.LaunchArg{Kind: emu.ArgLocal, Size: uint32(a.Size)})
		case Scalar, Struct:
			b, err := a.Bytes("")
			if err != nil {
				return nil, fmt.Errorf("argument %d (%s): %w", i, a.label(), err)
			}
			l.Args = append(l.Args, emu.LaunchArg{Kind: emu.ArgValue, Data: b})
		default:
			return nil, fmt.Errorf("argument %d (%s): unknown kind %q", i, a.label(), a.Kind)
		}
	}
	return l, nil
}
