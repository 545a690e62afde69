// Command benchscale writes a copy of an oracle manifest scaled S times
// larger (more work-items, proportionally larger buffers), for bench.sh, and
// compares two runs' outputs as the manifest says (floats within its ULP
// bounds).
//
//	go run ./emu/testdata/cl/benchscale MANIFEST S OUT.json
//	go run ./emu/testdata/cl/benchscale -compare MANIFEST DIR1 DIR2
package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/wavedbg/wavedbg/emu/manifest"
)

func main() {
	if len(os.Args) == 5 && os.Args[1] == "-compare" {
		compare(os.Args[2], os.Args[3], os.Args[4])
		return
	}
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: benchscale MANIFEST S OUT.json")
		os.Exit(2)
	}
	m, err := manifest.Load(os.Args[1])
	if err != nil {
		fail(err)
	}
	s, err := strconv.ParseUint(os.Args[2], 10, 32)
	if err != nil || s == 0 {
		fail(fmt.Errorf("bad scale %q", os.Args[2]))
	}
	abs, _ := filepath.Abs(m.Dir)
	m.Source = filepath.Join(abs, m.Source)
	scaleBuf := func(i int, f uint64) { m.Args[i].Size *= int64(f) }
	setU := func(name string, v uint64) {
		for i := range m.Args {
			if m.Args[i].Name == name {
				m.Args[i].Value = manifest.Value(strconv.FormatUint(v, 10))
			}
		}
	}
	switch m.Kernel {
	case "matmul2d": // n x k times k x m; grid [m, n]
		f := uint64(math.Cbrt(float64(s)) + 0.5)
		f = max(f, 1)
		n, mm, k := 32*f, 48*f, 40*f
		m.Grid.V[0], m.Grid.V[1] = mm, n
		setU("n", n)
		setU("m", mm)
		setU("k", k)
		m.Args[0].Size, m.Args[1].Size, m.Args[2].Size = int64(4*n*k), int64(4*k*mm), int64(4*n*mm)
	case "transpose_local", "offset": // 2D: scale both dimensions
		f := uint64(math.Sqrt(float64(s)) + 0.5)
		f = max(f, 1)
		m.Grid.V[0] *= f
		m.Grid.V[1] *= f
		for i := range m.Args {
			if m.Args[i].Kind == manifest.Buffer {
				scaleBuf(i, f*f)
			}
		}
		if m.Kernel == "transpose_local" {
			setU("width", m.Grid.V[0])
			setU("height", m.Grid.V[1])
		} else {
			setU("pitch", 40*f)
			m.Args[0].Size = int64(4 * 40 * f * (8*f + 3))
		}
	case "partial": // 2D, 8 dwords per work-item at out + 8*(y*pitch + x)
		f := uint64(math.Sqrt(float64(s)) + 0.5)
		f = max(f, 1)
		m.Grid.V[0] *= f
		m.Grid.V[1] *= f
		setU("pitch", m.Grid.V[0])
		m.Args[0].Size = int64(4 * 8 * m.Grid.V[0] * m.Grid.V[1])
	case "views": // dst, src and alt are disjoint thirds of one buffer: scale the offsets too
		m.Grid.V[0] *= s
		for i := range m.Args {
			m.Args[i].Size *= int64(s)
			m.Args[i].Offset *= int64(s)
		}
	case "grid3d":
		m.Grid.V[2] *= s
		for i := range m.Args {
			scaleBuf(i, s)
		}
	case "reduce_local":
		m.Grid.V[0] *= s
		scaleBuf(0, s)
		scaleBuf(1, s)
	default: // 1D: buffers holding whole elements per work-item scale
		g := m.Grid.V[0]
		m.Grid.V[0] *= s
		for i := range m.Args {
			if m.Args[i].Kind == manifest.Buffer && uint64(m.Args[i].Size)%g == 0 {
				scaleBuf(i, s)
			}
		}
	}
	if err := m.Validate(); err != nil {
		fail(err)
	}
	b, err := m.Marshal()
	if err == nil {
		err = os.WriteFile(os.Args[3], b, 0o644)
	}
	if err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchscale:", err)
	os.Exit(1)
}

// compare prints "identical", "within ULP bounds" or the first mismatch.
func compare(path, dir1, dir2 string) {
	m, err := manifest.Load(path)
	if err != nil {
		fail(err)
	}
	exact := true
	for _, i := range m.Outputs() {
		a := &m.Args[i]
		b1, err1 := os.ReadFile(filepath.Join(dir1, a.Output))
		b2, err2 := os.ReadFile(filepath.Join(dir2, a.Output))
		if err1 != nil || err2 != nil {
			fmt.Println("missing output", a.Output)
			return
		}
		if string(b1) == string(b2) {
			continue
		}
		exact = false
		if err := a.Compare(b1, b2); err != nil {
			fmt.Println("DIFFER:", err)
			return
		}
	}
	if exact {
		fmt.Println("identical")
	} else {
		fmt.Println("within ULP bounds")
	}
}
