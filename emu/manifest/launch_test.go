package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/loader"
)

// Buffers of int_alu's three int* arguments, and reduce_local's two uint*.
const (
	intBufs  = `{"kind":"buffer","type":"int","size":256},{"kind":"buffer","type":"int","size":256,"fill":"iota"},{"kind":"buffer","type":"int","size":256}`
	uintBufs = `{"kind":"buffer","type":"uint","size":1024,"fill":"iota"},{"kind":"buffer","type":"uint","size":16}`
)

// TestLaunch: Launch checks a manifest against the kernel's metadata with a
// clear message for each misfit, and otherwise carries the sizes and every
// argument into the emu.Launch.
func TestLaunch(t *testing.T) {
	tests := []struct {
		name  string
		co    string // a code object under ../testdata/cl/gfx900
		json  string
		tweak func(*loader.Kernel) // edits the kernel's metadata first
		err   string               // the whole error; "" for success
		args  []emu.LaunchArg      // on success (buffer data compared by length)
	}{
		{name: "buffers", co: "int_alu",
			json: `{"kernel":"int_alu","grid":[64],"block":[64],"offset":[128],"args":[` + intBufs + `]}`,
			args: []emu.LaunchArg{{Kind: emu.ArgBuffer, Data: make([]byte, 256)}, {Kind: emu.ArgBuffer, Data: make([]byte, 256)}, {Kind: emu.ArgBuffer, Data: make([]byte, 256)}}},
		{name: "scalars and 2-D", co: "transpose_local",
			json: `{"kernel":"transpose_local","grid":[32,16],"block":[16,16],"args":[{"kind":"buffer","type":"uint","size":2048},{"kind":"buffer","type":"uint","size":2048},{"kind":"scalar","type":"uint","value":32},{"kind":"scalar","type":"uint","value":16}]}`,
			args: []emu.LaunchArg{{Kind: emu.ArgBuffer, Data: make([]byte, 2048)}, {Kind: emu.ArgBuffer, Data: make([]byte, 2048)},
				{Kind: emu.ArgValue, Data: []byte{32, 0, 0, 0}}, {Kind: emu.ArgValue, Data: []byte{16, 0, 0, 0}}}},
		{name: "local", co: "reduce_local",
			json: `{"kernel":"reduce_local","grid":[256],"block":[256],"args":[` + uintBufs + `,{"kind":"local","size":1024}]}`,
			args: []emu.LaunchArg{{Kind: emu.ArgBuffer, Data: make([]byte, 1024)}, {Kind: emu.ArgBuffer, Data: make([]byte, 16)}, {Kind: emu.ArgLocal, Size: 1024}}},

		{name: "no kernel", co: "int_alu",
			json: `{"kernel":"nope","grid":[64],"block":[64],"args":[` + intBufs + `]}`,
			err:  `no kernel "nope" in the code object (it has: int_alu)`},
		{name: "no metadata", co: "int_alu", tweak: func(k *loader.Kernel) { k.Meta = nil },
			json: `{"kernel":"int_alu","grid":[64],"block":[64],"args":[` + intBufs + `]}`,
			err:  `kernel int_alu has no metadata to check arguments against`},
		{name: "too few arguments", co: "int_alu",
			json: `{"kernel":"int_alu","grid":[64],"block":[64],"args":[{"kind":"buffer","type":"int","size":256}]}`,
			err:  `kernel int_alu takes 3 arguments (int* (global_buffer), int* (global_buffer), int* (global_buffer)); 1 given`},
		{name: "too many arguments", co: "scan_local",
			json: `{"kernel":"scan_local","grid":[128],"block":[128],"args":[` + intBufs + `]}`,
			err:  `kernel scan_local takes 2 arguments (uint* (global_buffer), uint* (global_buffer)); 3 given`},
		{name: "scalar for a pointer", co: "int_alu",
			json: `{"kernel":"int_alu","grid":[64],"block":[64],"args":[{"kind":"scalar","type":"int","value":1},{"kind":"buffer","type":"int","size":256},{"kind":"buffer","type":"int","size":256}]}`,
			err:  `argument 0 (int* (global_buffer)): a pointer needs a buffer or null, not a scalar`},
		{name: "buffer for a local", co: "reduce_local",
			json: `{"kernel":"reduce_local","grid":[256],"block":[256],"args":[` + uintBufs + `,{"kind":"buffer","type":"uint","size":1024}]}`,
			err:  `argument 2 (uint* (dynamic_shared_pointer)): a __local pointer needs a local argument, not a buffer`},
		{name: "buffer for a value", co: "transpose_local",
			json: `{"kernel":"transpose_local","grid":[16,16],"block":[16,16],"args":[{"kind":"buffer","type":"uint","size":1024},{"kind":"buffer","type":"uint","size":1024},{"kind":"buffer","type":"uint","size":4},{"kind":"scalar","type":"uint","value":16}]}`,
			err:  `argument 2 (uint (by_value)): needs a scalar or struct of 4 bytes, not a buffer`},
		{name: "wrong scalar size", co: "transpose_local",
			json: `{"kernel":"transpose_local","grid":[16,16],"block":[16,16],"args":[{"kind":"buffer","type":"uint","size":1024},{"kind":"buffer","type":"uint","size":1024},{"kind":"scalar","type":"uint","value":16},{"kind":"scalar","type":"long","value":16}]}`,
			err:  `argument 3 (uint (by_value)): the value has 8 bytes; the kernel expects 4`},
		{name: "wrong struct size", co: "struct_arg",
			json: `{"kernel":"struct_arg","grid":[64],"block":[64],"args":[{"kind":"struct","fields":[{"type":"int","value":1},{"type":"long","value":2}]},` +
				`{"kind":"buffer","type":"float","size":16},{"kind":"buffer","type":"int","size":32},{"kind":"buffer","type":"float","size":256},{"kind":"buffer","type":"float","size":256},{"kind":"buffer","type":"long","size":512}]}`,
			err: `argument 0 (params_t (by_value)): the value has 16 bytes; the kernel expects 24`},
		{name: "unsupported kind", co: "int_alu", tweak: func(k *loader.Kernel) { k.Meta.Args[1].ValueKind = "image" },
			json: `{"kernel":"int_alu","grid":[64],"block":[64],"args":[` + intBufs + `]}`,
			err:  `argument 1 (int* (image)): this argument kind is not supported`},
		{name: "block too large", co: "int_alu",
			json: `{"kernel":"int_alu","grid":[512],"block":[512],"args":[` + intBufs + `]}`,
			err:  `block 512 has 512 work-items; kernel int_alu allows at most 256`},
		{name: "block too large, 3-D", co: "int_alu",
			json: `{"kernel":"int_alu","grid":[8,8,8],"block":[8,8,8],"args":[` + intBufs + `]}`,
			err:  `block 8,8,8 has 512 work-items; kernel int_alu allows at most 256`},
		{name: "required block", co: "scan_local",
			json: `{"kernel":"scan_local","grid":[128],"block":[64],"args":[{"kind":"buffer","type":"uint","size":512},{"kind":"buffer","type":"uint","size":512}]}`,
			err:  `kernel scan_local requires block 128,1,1; got 64`},
		{name: "LDS too large", co: "reduce_local", tweak: func(k *loader.Kernel) { k.Meta.GroupSegmentFixedSize = 1024 },
			json: `{"kernel":"reduce_local","grid":[256],"block":[256],"args":[` + uintBufs + `,{"kind":"local","size":65536}]}`,
			err:  `kernel reduce_local needs 66560 bytes of LDS per work-group (at most 65536)`},
		{name: "LDS at the limit", co: "reduce_local", tweak: func(k *loader.Kernel) { k.Meta.GroupSegmentFixedSize = 1024 },
			json: `{"kernel":"reduce_local","grid":[256],"block":[256],"args":[` + uintBufs + `,{"kind":"local","size":64512}]}`,
			args: []emu.LaunchArg{{Kind: emu.ArgBuffer, Data: make([]byte, 1024)}, {Kind: emu.ArgBuffer, Data: make([]byte, 16)}, {Kind: emu.ArgLocal, Size: 64512}}},
		{name: "invalid manifest", co: "int_alu",
			json: `{"kernel":"int_alu","grid":[0],"block":[64],"args":[` + intBufs + `]}`,
			err:  `grid 0, block 64: sizes must be at least 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			co := loadCL(t, tt.co)
			var m Manifest
			if err := json.Unmarshal([]byte(tt.json), &m); err != nil { // not Parse: Launch validates
				t.Fatal(err)
			}
			m.Dir = clDir
			if tt.tweak != nil {
				tt.tweak(co.Kernel(tt.co))
			}
			l, err := m.Launch(co, nil)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error %v\nwant       %s", err, tt.err)
				}
				if _, cerr := m.Check(co); m.Validate() == nil && (cerr == nil || cerr.Error() != tt.err) {
					t.Errorf("Check: %v, want Launch's error", cerr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			grid, block, off := m.Sizes()
			for i := range 3 {
				if uint64(l.Grid[i]) != grid[i] || uint64(l.Block[i]) != block[i] || uint64(l.Offset[i]) != off[i] {
					t.Fatalf("grid %v block %v offset %v, want %v %v %v", l.Grid, l.Block, l.Offset, grid, block, off)
				}
			}
			if l.Dims != m.Grid.Dims || l.Kernel != co.Kernel(m.Kernel) {
				t.Errorf("dims %d kernel %v, want %d %s", l.Dims, l.Kernel, m.Grid.Dims, m.Kernel)
			}
			if len(l.Args) != len(tt.args) {
				t.Fatalf("%d arguments, want %d", len(l.Args), len(tt.args))
			}
			inputs, err := m.Inputs()
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range l.Args {
				w := tt.args[i]
				if a.Kind == emu.ArgBuffer {
					w.Data = inputs[i] // the fill, which Inputs makes the same way
				}
				if a.Kind != w.Kind || a.Size != w.Size || !bytes.Equal(a.Data, w.Data) {
					t.Errorf("argument %d: %+v, want %+v", i, a, w)
				}
			}
		})
	}
}

// TestLaunchInputs: Launch uses the caller's buffers without copying them,
// and refuses inputs that do not match the arguments.
func TestLaunchInputs(t *testing.T) {
	co := loadCL(t, "int_alu")
	m, err := Parse([]byte(`{"kernel":"int_alu","grid":[64],"block":[64],"args":[`+intBufs+`]}`), clDir)
	if err != nil {
		t.Fatal(err)
	}
	inputs, err := m.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	l, err := m.Launch(co, inputs)
	if err != nil {
		t.Fatal(err)
	}
	for i, a := range l.Args {
		if &a.Data[0] != &inputs[i][0] {
			t.Errorf("argument %d: buffer copied", i)
		}
	}
	if _, err := m.Launch(co, inputs[:2]); err == nil || err.Error() != "2 inputs for 3 arguments" {
		t.Errorf("two inputs: %v", err)
	}
	inputs[1] = inputs[1][:100]
	if _, err := m.Launch(co, inputs); err == nil || err.Error() != "argument 1 (buffer): 100 bytes of input for a buffer of 256" {
		t.Errorf("short input: %v", err)
	}
}

// TestLaunchNoDispatch: a code object the emulator cannot run gives a
// NoDispatchError carrying emu's message.
func TestLaunchNoDispatch(t *testing.T) {
	co := loadCL(t, "../../loader/testdata/co/vadd-gfx90a-v4.co")
	m, err := Parse([]byte(`{"kernel":"vadd","grid":[64],"block":[64],"args":[`+
		`{"kind":"buffer","type":"float","size":256},{"kind":"buffer","type":"float","size":256},{"kind":"buffer","type":"float","size":256}]}`), clDir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Launch(co, nil)
	nd, ok := errors.AsType[*NoDispatchError](err)
	if !ok || err.Error() != nd.Err.Error() || !strings.HasPrefix(err.Error(), "emu: gfx90a (CDNA 2) is not supported; supported: gfx801, ") {
		t.Errorf("error %#v (%v), want a NoDispatchError from emu.NewLaunch", err, err)
	}
}

// loadCL loads one of emu/testdata/cl's gfx900 code objects by name, or
// the code object at a path ending in .co.
func loadCL(t *testing.T, name string) *loader.CodeObject {
	t.Helper()
	p := filepath.Join(clDir, "gfx900", name+".co")
	if filepath.Ext(name) == ".co" {
		p = name
	}
	co, err := loader.Load(p, loader.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { co.Close() })
	return co
}
