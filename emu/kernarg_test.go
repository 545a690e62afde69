package emu

import (
	"errors"
	"math"
	"testing"

	"github.com/wavedbg/wavedbg/loader"
)

// TestBuildKernargRefusesHugeSegment: a corrupt KERNARG_SIZE (0xb5b50010,
// found by the CLI fuzzer) made a launch allocate and map 3 GB for a
// kernel of 12 argument bytes; an argument offset near 2^64 overflowed the
// end check. Both are refused before anything is allocated.
func TestBuildKernargRefusesHugeSegment(t *testing.T) {
	meta := &loader.KernelMeta{Args: []loader.Arg{
		{Offset: 0, Size: 8, ValueKind: loader.GlobalBuffer},
		{Offset: 8, Size: 4, ValueKind: loader.ByValue},
	}}
	vals := [][]byte{make([]byte, 8), make([]byte, 4)}
	tests := []struct {
		name    string
		size    uint32
		args    []loader.Arg
		wantErr bool
	}{
		{"real", 16, meta.Args, false},
		{"at the limit", MaxKernarg, meta.Args, false},
		{"descriptor size", 0xb5b50010, meta.Args, true},
		{"offset past the limit", 16, []loader.Arg{meta.Args[0], {Offset: MaxKernarg, Size: 4, ValueKind: loader.ByValue}}, true},
		{"offset wraps", 16, []loader.Arg{meta.Args[0], {Offset: math.MaxUint64 - 1, Size: 4, ValueKind: loader.ByValue}}, true},
	}
	for _, tt := range tests {
		d := &Dispatch{ABI: &KernelABI{KernargSize: tt.size}}
		b, err := d.BuildKernarg(&loader.KernelMeta{Args: tt.args}, vals)
		switch {
		case tt.wantErr && !errors.Is(err, errKernarg):
			t.Errorf("%s: got %d bytes, err %v; want a kernarg layout error", tt.name, len(b), err)
		case !tt.wantErr && (err != nil || len(b) != int(tt.size)):
			t.Errorf("%s: got %d bytes, err %v; want %d bytes", tt.name, len(b), err, tt.size)
		}
	}
}
