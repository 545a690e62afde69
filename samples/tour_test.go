package samples

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
)

var updateREADME = flag.Bool("update-readme", false, "rewrite the samples' README.md steps from tour.yaml")

// TestREADMEMatchesTour holds every README.md's numbered steps to its
// tour.yaml: the steps are rendered from the data (go generate ./samples,
// or go test ./samples -run TestREADMEMatchesTour -update-readme).
func TestREADMEMatchesTour(t *testing.T) {
	for _, s := range All() {
		tr, err := s.Tour()
		if err != nil || tr == nil {
			t.Fatalf("%s: tour %v, %v", s.Name, tr, err)
		}
		want := tr.RenderREADME(s.Walkthrough)
		if want == s.Walkthrough {
			continue
		}
		file := path.Join(s.Name, "README.md")
		if *updateREADME {
			if err := os.WriteFile(file, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s is stale: its steps differ from %s; run go generate ./samples", file, tr.File)
	}
}

// TestSplitWalkthroughRoundTrips checks that rendering a README's own
// steps gives the README back, so the generator only changes what the
// data changes.
func TestSplitWalkthroughRoundTrips(t *testing.T) {
	for _, s := range All() {
		head, steps, tail := SplitWalkthrough(s.Walkthrough)
		if len(steps) == 0 {
			t.Errorf("%s: no numbered steps", s.Name)
		}
		if got := head + RenderSteps(steps) + tail; got != s.Walkthrough {
			t.Errorf("%s: README.md does not survive a round trip:\n%s", s.Name, got)
		}
	}
}

// TestParseTourErrors checks that bad tour files are refused with the
// file and line of the mistake.
func TestParseTourErrors(t *testing.T) {
	src := []string{"s_mov_b32 s0, 1", "s_endpgm"}
	const steps = "steps:\n  - text: one\n"
	for _, c := range []struct{ name, yaml, want string }{
		{"bad claim", steps + "stops:\n  - claim: \"1: x\"\n    at: s_endpgm\n    check:\n      - s0 == 1\n", `t.yaml:7: not a claim: "s0 == 1"`},
		{"bad expression", steps + "stops:\n  - claim: \"1: x\"\n    at: s_endpgm\n    check: [\"v0[0..3] = lane +\"]\n", "t.yaml:6: unexpected end of expression"},
		{"unknown instruction", steps + "stops:\n  - claim: \"1: x\"\n    at: s_nop 0\n    check: [s0 = 1]\n", `t.yaml:4: at: no instruction "s_nop 0"`},
		{"no such step", steps + "stops:\n  - claim: \"2: x\"\n    at: s_endpgm\n    check: [s0 = 1]\n", "t.yaml:4: claim \"2: x\" names step 2; the walkthrough has 1"},
		{"no step numbers", steps + "stops:\n  - claim: x\n    at: s_endpgm\n    check: [s0 = 1]\n", "t.yaml:4: claim \"x\" does not start with step numbers"},
		{"checks nothing", steps + "stops:\n  - claim: \"1: x\"\n    at: s_endpgm\n", "t.yaml:4: \"1: x\" checks nothing"},
		{"unknown field", steps + "stops:\n  - claim: \"1: x\"\n    at: s_endpgm\n    chek: [s0 = 1]\n", `t.yaml:6: unknown field "chek" in a stop`},
		{"unknown need", "needs: [gpu]\n" + steps, `t.yaml: unknown need "gpu"`},
		{"lane out of range", steps + "stops:\n  - claim: \"1: x\"\n    at: s_endpgm\n    check: [\"v0[0..64] = 1\"]\n", "t.yaml:6: lane 64"},
		{"wrong count", steps + "stops:\n  - claim: \"1: x\"\n    at: s_endpgm\n    check: [\"s[0:2] = 1 2\"]\n", "t.yaml:6: s[0:2] needs 3 values"},
		{"not yaml", "steps: [\n", "t.yaml: yaml: line"},
		{"no such SGPR", steps + "stops:\n  - claim: \"1: x\"\n    at: s_endpgm\n    check: [s102 = 1]\n", "t.yaml:6: no SGPR s102"},
		{"no such pair", steps + "stops:\n  - claim: \"1: x\"\n    at: s_endpgm\n    check: [\"s[101:102] = &in\"]\n", "t.yaml:6: no SGPRs s[101:102]"},
		{"unaligned line", steps + "stops:\n  - claim: \"1: x\"\n    at: s_endpgm\n    check: [line data+0x3 valid]\n", "t.yaml:6: line data+0x3"},
		{"unknown target", steps + "stops:\n  - claim: \"1: x\"\n    at: s_endpgm\n    target: gfx1100\n    check: [s0 = 1]\n", `t.yaml:4: target "gfx1100": the sample is built for gfx900`},
		{"unknown stop format", steps + "stops:\n  - claim: \"1: x\"\n    at: s_endpgm\n    format: {vgpr: octal}\n    check: [s0 = 1]\n", `t.yaml:4: format "octal" is not one of hex, signed, unsigned, float`},
		{"unknown tour format", steps + "format: {sgpr: dec}\n", `t.yaml: format "dec" is not one of`},
		{"format of a pane without one", steps + "format: {memory: hex}\n", `t.yaml: yaml: unmarshal errors`},
		{"two stops at one point", steps + "stops:\n  - claim: \"1: x\"\n    at: s_endpgm\n    check: [s0 = 1]\n  - claim: \"1: y\"\n    at: s_endpgm\n    check: [s0 = 2]\n", `t.yaml:7: a second stop at "s_endpgm" (nth 0): merge its checks into the stop at line 4`},
		{"unknown topic", steps + "topic: gpus\n", `t.yaml: topic "gpus" is not one of scalar memory,`},
	} {
		// Every case but the last has a valid topic, after the rest.
		y := c.yaml
		if !strings.Contains(y, "topic:") {
			y += "topic: LDS\n"
		}
		_, err := ParseTour("t.yaml", []byte(y), src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

// TestClaimExpressions checks the value language against the Go it replaced.
func TestClaimExpressions(t *testing.T) {
	for _, c := range []struct {
		expr string
		vars map[string]int64
		want int64
	}{
		{"0xb0000020 + 4*(lane%8) + 64*(lane/8)", map[string]int64{"lane": 13}, 0xb0000020 + 4*5 + 64},
		{"u32(0xff804000 + lane*0x10101010) >> 24 & 0xff", map[string]int64{"lane": 3}, int64((0xff804000 + 3*0x10101010) >> 24 & 0xff)},
		{"f32(-1)", nil, 0xbf800000},
		{"f32(i + (1000 + 0.5*i))", map[string]int64{"i": 2}, 0x447ac000}, // 1003.0
		{"4*(63-lane)", map[string]int64{"lane": 63}, 0},
	} {
		e, err := parseExpr(c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		v, err := e.eval(c.vars)
		if err != nil || v.isFloat || uint32(v.i) != uint32(c.want) {
			t.Errorf("%s = %+v, %v; want %#x", c.expr, v, err, c.want)
		}
	}
}

// TestClaimHolds judges claims against a hand-made emu state: each holds,
// and each turns false when the state changes under it (as :set does in
// the debugger).
func TestClaimHolds(t *testing.T) {
	snap := &emu.Snapshot{SGPR: make([]uint32, 102), VGPR: make([][64]uint32, 8), M0: 0x100,
		EXEC: 0xf, Pending: []string{"s8"}}
	snap.SGPR[9], snap.SGPR[4], snap.SGPR[5] = 1, 0x1000, 0x1
	for l := range 64 {
		snap.VGPR[3][l] = 4 * uint32(63-l)
		snap.VGPR[4][l] = math.Float32bits(float32(l) / 255)
	}
	rec := &emu.StepRecord{CountersAfter: emu.Counters{LGKM: 1},
		Hazards: []emu.Hazard{{Reg: "s8", PendingPC: 0x1504}}}
	mem := []uint32{1, 42}
	st := &State{Snap: snap, Last: rec, Buffers: map[string]emu.Allocation{"in": {Name: "in", Addr: 0x100001000, Size: 8}},
		Mem: func(buf string, i int) (uint32, error) { return mem[i], nil },
		PCOf: func(at string) (uint64, error) {
			if at == "s_load_dword s8, s[4:5], 0x0" {
				return 0x1504, nil
			}
			return 0, fmt.Errorf("no %q", at)
		}}
	for _, c := range []struct {
		claim  string
		change func()
	}{
		{"s9 = 1", func() { snap.SGPR[9] = 2 }},
		{"s[4:5] = &in", func() { snap.SGPR[5] = 0 }},
		{"m0 = 0x100", func() { snap.M0 = 0 }},
		{"exec = 0xf", func() { snap.EXEC = 1 }},
		{"lgkm = 1", func() { rec.CountersAfter.LGKM = 0 }},
		{"pending s8", func() { snap.Pending = nil }},
		{"hazard s8 from s_load_dword s8, s[4:5], 0x0", func() { rec.Hazards = nil }},
		{"v3[0..63] = 4*(63-lane)", func() { snap.VGPR[3][7] = 0 }},
		{"v4[0..63] ~= float(lane) / 255", func() { snap.VGPR[4][9] += 2 }},
		{"in[0..1] = 1 + 41*i", func() { mem[1] = 6 }},
		{"not s9 = 7", func() { snap.SGPR[9] = 7 }},
	} {
		k, err := parseClaim(c.claim)
		if err != nil {
			t.Fatalf("%s: %v", c.claim, err)
		}
		cl := Claim{Text: c.claim, k: k}
		if err := cl.Holds(st); err != nil {
			t.Errorf("%s: %v", c.claim, err)
		}
		c.change()
		if cl.Holds(st) == nil {
			t.Errorf("%s still holds after the state changed", c.claim)
		}
	}
}

// FuzzClaim checks that no claim text makes the parser or the evaluation
// panic, whatever the state it is judged against.
func FuzzClaim(f *testing.F) {
	for _, s := range []string{"s9 = 1", "s[4:5] = &in", "v4[0..3] ~= float(lane) / 255", "dst[0..3] = 4*(i/0)",
		"line data+0x0 valid dirty holds 0x5ca1", "cache hit miss(glc)", "saddr table 0x10!", "not pending s8",
		"hazard s8 from s_endpgm", "lanes 0-15 in range", "wrote write-back 0x5ca1", "s[0:1] = 1 2", "exec = 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := parseClaim(s)
		if err != nil {
			return
		}
		st := &State{Snap: &emu.Snapshot{SGPR: make([]uint32, 4), VGPR: make([][64]uint32, 2),
			Cache: []emu.CacheLine{{Valid: true, Addr: 0x1000}}},
			Last:    &emu.StepRecord{Addrs: []emu.LaneAddr{{Lane: -1}}},
			Buffers: map[string]emu.Allocation{"data": {Addr: 0x1000, Size: 4}},
			Mem:     func(string, int) (uint32, error) { return 0, nil }}
		_ = Claim{Text: s, k: k}.Holds(st)
	})
}

// TestTourTargets checks that a stop with a target is kept for that build
// of a sample only, and that formats merge stop over tour.
func TestTourTargets(t *testing.T) {
	y := `topic: scalar memory
format: {sgpr: unsigned, vgpr: unsigned}
steps:
  - text: one
stops:
  - claim: "1: both"
    at: s_nop 0
    check: [s0 = 1]
  - claim: "1: gfx803 only"
    target: gfx803
    at: s_endpgm
    format: {vgpr: float}
    check: [s0 = 2]
`
	src := []string{"s_nop 0", "s_endpgm"}
	for _, c := range []struct {
		target string
		claims []string
	}{
		{"gfx900", []string{"1: both"}},
		{"gfx803", []string{"1: both", "1: gfx803 only"}},
	} {
		tr, err := parseTour("t.yaml", []byte(y), src, c.target, []string{"gfx900", "gfx803"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, st := range tr.Stops {
			got = append(got, st.Claim)
		}
		if !slices.Equal(got, c.claims) {
			t.Errorf("%s: stops %q, want %q", c.target, got, c.claims)
		}
		if c.target == "gfx803" {
			if f := tr.FormatAt(tr.Stops[1]); f != (Format{SGPR: "unsigned", VGPR: "float"}) {
				t.Errorf("the format at the gfx803 stop is %+v", f)
			}
			if f := tr.FormatAt(tr.Stops[0]); f != tr.Format {
				t.Errorf("the format at a stop without one is %+v, want the tour's %+v", f, tr.Format)
			}
		}
	}
}
