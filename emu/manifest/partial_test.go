package manifest

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/loader"
)

// partialModel is what partial.cl writes under OpenCL 2.0's non-uniform
// work-groups, computed by hand: in each dimension the work-groups but the
// last have the block's size and the last holds the rest of the grid.
// One departure: the ROCm device library computes get_local_linear_id
// with the enqueued work-group size (workgroup_size_x in the dispatch
// packet, hidden_group_size_x in v5), not the partial group's, so the
// code does on a GPU what it does here.
func partialModel(grid, block [2]uint32) []byte {
	out := make([]byte, 32*grid[0]*grid[1])
	for y := range grid[1] {
		for x := range grid[0] {
			id, gid, lid := [2]uint32{x, y}, [2]uint32{}, [2]uint32{}
			var ls, ng [2]uint32
			for i := range 2 {
				gid[i], lid[i] = id[i]/block[i], id[i]%block[i]
				ng[i] = (grid[i] + block[i] - 1) / block[i]
				ls[i] = block[i]
				if gid[i] == grid[i]/block[i] {
					ls[i] = grid[i] % block[i]
				}
			}
			pack := func(v [2]uint32) uint32 { return v[0] | v[1]<<16 }
			o := out[32*(y*grid[0]+x):]
			for i, v := range []uint32{pack(id), pack(ls), pack(gid), pack(ng), pack(lid), pack(block), pack(grid),
				lid[0] + lid[1]*block[0] | (y*grid[0]+x)<<16} {
				binary.LittleEndian.PutUint32(o[4*i:], v)
			}
		}
	}
	return out
}

// partialManifest is partial.json resized to grid (pitch grid[0]).
func partialManifest(t *testing.T, grid [2]uint32) *Manifest {
	t.Helper()
	m, err := Load(filepath.Join(clDir, "nonuniform", "partial_edges.json"))
	if err != nil {
		t.Fatal(err)
	}
	m.Grid = Dim{V: [3]uint64{uint64(grid[0]), uint64(grid[1])}, Dims: 2}
	m.Args[0].Size = int64(32 * grid[0] * grid[1])
	m.Args[1].Value = Value(fmt.Sprint(grid[0]))
	return m
}

// TestPartialWorkGroupsMatchPoCL: grids that are not a multiple of the
// work-group run with a smaller last work-group in each dimension (partial
// waves with fewer EXEC lanes), for code object v4 (the kernel computes the
// sizes from the dispatch packet) and v5 (the hidden block count, group
// size and remainder arguments), on gfx900 and gfx803. The hand-computed
// model is checked against PoCL's golden output for the uniform launch of
// the same kernel (partial.json), and against PoCL for the partial launch
// where PoCL supports non-uniform work-groups (PoCL 3.1's CPU device does
// not: CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT is false).
func TestPartialWorkGroupsMatchPoCL(t *testing.T) {
	block := [2]uint32{16, 4}
	golden, err := os.ReadFile(filepath.Join(clDir, "golden", "partial.out.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if want := partialModel([2]uint32{48, 12}, block); !bytes.Equal(golden, want) {
		t.Fatalf("the model of partial.cl disagrees with PoCL's uniform launch (golden/partial.out.bin)")
	}
	objs := map[string]string{
		"gfx900-v4": "gfx900/partial.co", "gfx803-v4": "gfx803/partial.co",
		"gfx900-v5": "cov/partial.v5.co", "gfx803-v5": "cov/partial.v5.gfx803.co",
	}
	for _, grid := range [][2]uint32{{37, 11}, {5, 3}, {100, 1}, {48, 12}} {
		want := partialModel(grid, block)
		for name, obj := range objs {
			t.Run(name+"/"+Dim{V: [3]uint64{uint64(grid[0]), uint64(grid[1])}, Dims: 2}.String(), func(t *testing.T) {
				co, err := loader.Load(filepath.Join(clDir, obj), loader.LoadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				defer co.Close()
				m := partialManifest(t, grid)
				l, err := m.Launch(co, nil)
				if err != nil {
					t.Fatal(err)
				}
				res, err := emu.RunGrid(context.Background(), l, emu.GridConfig{Config: emu.DefaultConfig(l.Target), Workers: 1})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Faults) > 0 {
					t.Fatal(res.Faults[0])
				}
				if got := res.Buffers[0]; !bytes.Equal(got, want) {
					t.Errorf("output differs from OpenCL 2.0's non-uniform work-groups: %s", firstDiff(got, want))
				}
			})
		}
	}
	t.Run("pocl", func(t *testing.T) {
		runner := buildRunner(t)
		out := t.TempDir()
		p := filepath.Join(clDir, "nonuniform", "partial_edges.json")
		b, err := exec.Command(runner, p, out).CombinedOutput()
		if strings.Contains(string(b), "OpenCL error -54") {
			t.Logf("PoCL refuses non-uniform work-groups (CL_INVALID_WORK_GROUP_SIZE); the model was checked against its uniform launch")
			return
		}
		if err != nil {
			t.Fatalf("pocl_runner %s: %v\n%s", p, err, b)
		}
		got, err := os.ReadFile(filepath.Join(out, "partial_edges.out.bin"))
		if err != nil {
			t.Fatal(err)
		}
		if want := partialModel([2]uint32{37, 11}, block); !bytes.Equal(got, want) {
			t.Errorf("PoCL differs from the model: %s", firstDiff(got, want))
		}
	})
}

// firstDiff describes the first differing dword of got and want.
func firstDiff(got, want []byte) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d bytes, want %d", len(got), len(want))
	}
	for i := 0; i+4 <= len(got); i += 4 {
		g, w := binary.LittleEndian.Uint32(got[i:]), binary.LittleEndian.Uint32(want[i:])
		if g != w {
			return fmt.Sprintf("work-item %d word %d: %#x, want %#x", i/32, i%32/4, g, w)
		}
	}
	return "equal"
}
