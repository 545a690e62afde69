package isa

import (
	"os"
	"testing"

	"github.com/wavedbg/wavedbg/loader"
)

// benchText returns the .text of the code object named by ISA_BENCH_CO, or
// of a committed gfx803 test kernel.
func benchText(b *testing.B) []byte {
	path := os.Getenv("ISA_BENCH_CO")
	if path == "" {
		path = "../emu/testdata/cl/gfx803/calls_O0.co"
	}
	f, err := loader.Open(path)
	if err != nil {
		b.Skip(err)
	}
	defer f.Close()
	sec := f.Section(".text")
	if sec == nil {
		b.Skip("no .text")
	}
	text, err := sec.Data()
	if err != nil {
		b.Fatal(err)
	}
	return text
}

// BenchmarkDisasm decodes and prints a whole .text (bytes/s is the
// disassembler's throughput). ISA_BENCH_CO=FILE benchmarks another code
// object, e.g. the one isa/bench.sh extracts.
func BenchmarkDisasm(b *testing.B) {
	text := benchText(b)
	b.SetBytes(int64(len(text)))
	var inst Inst
	var buf []byte
	for b.Loop() {
		for off := 0; off < len(text); {
			if err := DecodeInto(text[off:], GFX8, &inst); err != nil {
				off += 4
				continue
			}
			buf = inst.AppendText(buf[:0], uint64(off), nil)
			off += inst.Len
		}
	}
}

// BenchmarkDecode decodes a whole .text without printing.
func BenchmarkDecode(b *testing.B) {
	text := benchText(b)
	b.SetBytes(int64(len(text)))
	var inst Inst
	for b.Loop() {
		for off := 0; off < len(text); {
			if err := DecodeInto(text[off:], GFX8, &inst); err != nil {
				off += 4
				continue
			}
			off += inst.Len
		}
	}
}
