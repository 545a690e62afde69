package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wavedbg/wavedbg/isa"
)

// Debuggee is the narrow interface the debugger drives: the emulator as seen
// through an adapter (emuDebuggee), or a fake in tests. Every method acts on
// the selected wave unless it says otherwise.
type Debuggee interface {
	// Name is what the status bar calls the dispatch (kernel name).
	Name() string
	// Program is the kernel's static disassembly, in address order.
	Program() []DisasmLine
	// Labels maps label names to addresses.
	Labels() map[string]uint64
	// Waves lists the waves around the selected one, in dispatch order
	// (a window of the dispatch: each row's ID is its wave index).
	Waves() []WaveRow
	// WaveCount is the number of waves in the dispatch.
	WaveCount() int
	// SelectWave makes wave i the one stepped and shown.
	SelectWave(i int) error
	// Selected returns the selected wave's index.
	Selected() int
	// PC returns the selected wave's program counter; ok is false once it has ended.
	PC() (pc uint64, ok bool)
	// Step executes one instruction of the selected wave.
	Step() error
	// StepBack undoes the last step of the selected wave; false at the start of history.
	StepBack() (bool, error)
	// StepCount is how many steps the selected wave has taken.
	StepCount() int
	// Fill writes the selected wave's state into f's view models (all but
	// Disasm.Lines, Disasm.Cursor, Disasm.Breaks and the user's view choices).
	Fill(f *Frame)
	// Reg reads a register; Lane is ignored for scalar registers.
	Reg(r RegRef) (uint32, error)
	// SetReg writes a register; for a VGPR with Lane < 0, every lane.
	SetReg(r RegRef, v uint32) error
	// ReadMem reads n bytes of global memory (lds: of the selected wave's LDS);
	// valid reports which bytes are backed.
	ReadMem(addr uint64, n int, lds bool) (data []byte, valid []bool)
	// WriteMem writes global memory (lds: LDS).
	WriteMem(addr uint64, b []byte, lds bool) error
	// Buffers names the dispatch's memory regions (kernel arguments, buffers).
	Buffers() []Buffer
	// SetLatency sets a latency-model parameter by name; Latencies lists them.
	SetLatency(name string, cycles int) error
	Latencies() []string
}

// Buffer is a named memory region.
type Buffer struct {
	Name string
	Addr uint64
	Size uint64
	// Alias is the manifest's name for it, when that differs from Name
	// (the code object's metadata's).
	Alias string
}

// Is reports whether the buffer goes by name.
func (b *Buffer) Is(name string) bool { return b.Name == name || b.Alias != "" && b.Alias == name }

// RegRef names one register: an SGPR ('s'), VGPR ('v', with Lane, -1 for
// all lanes), trap temporary ('t', Num is N of ttmpN: its scalar code
// depends on the generation) or special register ('x', Num is its
// isa.Special code).
type RegRef struct {
	File byte
	Num  int
	Lane int
}

func (r RegRef) String() string {
	switch r.File {
	case 's':
		return "s" + strconv.Itoa(r.Num)
	case 'v':
		if r.Lane >= 0 {
			return fmt.Sprintf("v%d[%d]", r.Num, r.Lane)
		}
		return "v" + strconv.Itoa(r.Num)
	case 't':
		return "ttmp" + strconv.Itoa(r.Num)
	}
	for n, c := range specialNames {
		if int(c) == r.Num {
			return n
		}
	}
	return "special" + strconv.Itoa(r.Num)
}

var specialNames = map[string]isa.Special{
	"vcc_lo": isa.VCCLo, "vcc_hi": isa.VCCHi, "exec_lo": isa.ExecLo, "exec_hi": isa.ExecHi,
	"m0": isa.M0, "scc": isa.SCC, "flat_scratch_lo": isa.FlatScratchLo, "flat_scratch_hi": isa.FlatScratchHi,
	"xnack_mask_lo": isa.XnackMaskLo, "xnack_mask_hi": isa.XnackMaskHi,
	"tba_lo": isa.TBALo, "tba_hi": isa.TBAHi, "tma_lo": isa.TMALo, "tma_hi": isa.TMAHi,
}

// ParseRegRef parses s4, v3, v3[5], ttmp2, vcc_lo, exec_hi, m0, scc, ...
// (vcc and exec mean their low halves).
func ParseRegRef(s string) (RegRef, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "vcc":
		s = "vcc_lo"
	case "exec":
		s = "exec_lo"
	}
	if c, ok := specialNames[s]; ok {
		return RegRef{File: 'x', Num: int(c), Lane: -1}, nil
	}
	bad := fmt.Errorf("bad register %q (want s4, v3, v3[5], ttmp2, vcc_lo, exec_hi, m0, scc)", s)
	lane := -1
	if i := strings.IndexByte(s, '['); i >= 0 {
		if !strings.HasSuffix(s, "]") {
			return RegRef{}, bad
		}
		l, err := strconv.Atoi(s[i+1 : len(s)-1])
		if err != nil || l < 0 || l > 63 {
			return RegRef{}, bad
		}
		lane, s = l, s[:i]
	}
	var file byte
	var num string
	switch {
	case strings.HasPrefix(s, "ttmp"):
		file, num = 't', s[4:]
	case strings.HasPrefix(s, "s"):
		file, num = 's', s[1:]
	case strings.HasPrefix(s, "v"):
		file, num = 'v', s[1:]
	default:
		return RegRef{}, bad
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || n > 255 {
		return RegRef{}, bad
	}
	if file == 't' && n > 15 {
		return RegRef{}, bad // 16 on GFX9, 12 on GFX8 (Reg and SetReg check)
	}
	if file != 'v' && lane >= 0 {
		return RegRef{}, bad
	}
	return RegRef{File: file, Num: n, Lane: lane}, nil
}

// parseUint parses a decimal, 0x hex or negative number as a 32-bit pattern;
// a value with a '.' or an exponent is a float32.
func parseValue(s string) (uint32, error) {
	s = strings.TrimSpace(s)
	if strings.ContainsAny(s, ".") || (strings.ContainsAny(s, "eE") && !strings.HasPrefix(strings.ToLower(s), "0x")) {
		f, err := strconv.ParseFloat(s, 32)
		if err != nil {
			return 0, fmt.Errorf("bad value %q", s)
		}
		return f32bits(float32(f)), nil
	}
	if strings.HasPrefix(s, "-") {
		v, err := strconv.ParseInt(s, 0, 32)
		if err != nil {
			return 0, fmt.Errorf("bad value %q", s)
		}
		return uint32(int32(v)), nil
	}
	v, err := strconv.ParseUint(s, 0, 32)
	if err != nil {
		return 0, fmt.Errorf("bad value %q", s)
	}
	return uint32(v), nil
}

func parseAddr(s string) (uint64, error) {
	v, err := strconv.ParseUint(strings.TrimSpace(s), 0, 64)
	if err != nil {
		return 0, fmt.Errorf("bad address %q", s)
	}
	return v, nil
}
