package manifest

import (
	"encoding/binary"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/loader"
)

// loadCO loads an oracle code object (gfx900 unless dir says otherwise).
func loadCO(t *testing.T, dir, name string) *loader.CodeObject {
	t.Helper()
	co, err := loader.Load(filepath.Join(clDir, dir, name+".co"), loader.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { co.Close() })
	return co
}

// scalarsBufs are the three output buffers of scalars.cl.
const scalarsBufs = `{"kind":"buffer","type":"float","size":8},{"kind":"buffer","type":"double","size":16},{"kind":"buffer","type":"long","size":16}`

// TestScalarParsedByMetadataType: a scalar written without a type takes the
// type the kernel's metadata declares, so 3 given to a float is 3.0f (not
// the bits 0x00000003); a type that disagrees in kind, or an integer given
// a fraction, is an error naming the argument.
func TestScalarParsedByMetadataType(t *testing.T) {
	f64 := func(f float64) uint64 { return math.Float64bits(f) }
	tests := []struct {
		name  string
		args  string               // the four scalars f, d, i, u
		tweak func(*loader.Kernel) // edits the metadata first
		want  [4]uint64            // the encoded scalars
		err   string
	}{
		{name: "untyped", args: `{"kind":"scalar","value":3},{"kind":"scalar","value":3},{"kind":"scalar","value":-7},{"kind":"scalar","value":"0x123456789abcdef0"}`,
			want: [4]uint64{0x40400000, f64(3), 0xfffffff9, 0x123456789abcdef0}},
		{name: "typed", args: `{"kind":"scalar","type":"float","value":3},{"kind":"scalar","type":"double","value":0.5},{"kind":"scalar","type":"uint","value":7},{"kind":"scalar","type":"ulong","value":1}`,
			want: [4]uint64{0x40400000, f64(0.5), 7, 1}},
		{name: "half", args: `{"kind":"scalar","value":3},{"kind":"scalar","value":1e300},{"kind":"scalar","value":0},{"kind":"scalar","value":0}`,
			tweak: func(k *loader.Kernel) { setArg(k, 3, "half", 2) },
			want:  [4]uint64{0x4200, f64(1e300), 0, 0}},
		{name: "fraction for an int", args: `{"kind":"scalar","value":3},{"kind":"scalar","value":3},{"kind":"scalar","value":3.5},{"kind":"scalar","value":0}`,
			err: "argument 5 (int (by_value)): 3.5 is not an integer (int takes a decimal or 0x hex integer)"},
		{name: "int for a float", args: `{"kind":"scalar","type":"int","value":3},{"kind":"scalar","value":3},{"kind":"scalar","value":3},{"kind":"scalar","value":0}`,
			err: "argument 3 (float (by_value)): given as int but the kernel declares float; write float=3 or just 3"},
		{name: "float for a double", args: `{"kind":"scalar","value":3},{"kind":"scalar","type":"float","value":3},{"kind":"scalar","value":3},{"kind":"scalar","value":0}`,
			err: "argument 4 (double (by_value)): given as float but the kernel declares double"},
		{name: "no metadata type", args: `{"kind":"scalar","value":3},{"kind":"scalar","value":3},{"kind":"scalar","value":3},{"kind":"scalar","value":0}`,
			tweak: func(k *loader.Kernel) { setArg(k, 3, "float4x", 4) },
			err:   `argument 3 (float4x (by_value)): value 3 has no type and the kernel's metadata declares no scalar type ("float4x")`},
		{name: "not a number", args: `{"kind":"scalar","value":"three"},{"kind":"scalar","value":3},{"kind":"scalar","value":3},{"kind":"scalar","value":0}`,
			err: `argument 3 (scalar): "three" is not a number`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			co := loadCO(t, "gfx900", "scalars")
			if tt.tweak != nil {
				tt.tweak(co.Kernel("scalars"))
			}
			m, err := Parse([]byte(`{"grid":[1],"block":[1],"args":[`+scalarsBufs+`,`+tt.args+`]}`), ".")
			var l *emu.Launch
			if err == nil {
				l, err = m.Launch(co, nil)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range tt.want {
				var b [8]byte
				copy(b[:], l.Args[3+i].Data)
				if got := binary.LittleEndian.Uint64(b[:]); got != w {
					t.Errorf("argument %d: %#x, want %#x", 3+i, got, w)
				}
			}
		})
	}
}

// setArg makes explicit argument i of k a by-value typ of size bytes.
func setArg(k *loader.Kernel, i int, typ string, size uint64) {
	a := &k.Meta.Args[i]
	a.TypeName, a.Size = typ, size
}

// TestKernelOptionalWithOneKernel: a manifest without a kernel name runs the
// code object's only kernel (and names it); with several kernels the error
// lists them.
func TestKernelOptionalWithOneKernel(t *testing.T) {
	co := loadCO(t, "gfx900", "scalars")
	m, err := Parse([]byte(`{"grid":[1],"block":[1],"args":[`+scalarsBufs+`,{"kind":"scalar","value":1},{"kind":"scalar","value":1},{"kind":"scalar","value":1},{"kind":"scalar","value":1}]}`), ".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Check(co); err != nil || m.Kernel != "scalars" {
		t.Fatalf("Check: %v, kernel %q; want scalars", err, m.Kernel)
	}
	two := loadCO(t, "gfx900", "scalars")
	other := two.Kernels[0]
	other.Name = "another"
	two.Kernels = append(two.Kernels, other)
	m.Kernel = ""
	_, err = m.Check(two)
	want := `the code object holds 2 kernels; name one with --kernel or "kernel" (it has: another, scalars)`
	if err == nil || err.Error() != want {
		t.Errorf("two kernels: %v, want %q", err, want)
	}
}
