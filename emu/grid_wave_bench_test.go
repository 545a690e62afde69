package emu

import (
	"context"
	"encoding/binary"
	"testing"
)

// BenchmarkGridOffset runs one-wave work-groups of the offset kernel (31
// instructions a wave: four scalar loads, one global store) on one worker;
// ns/op is per wave, set-up included: the fixed per-wave cost of short
// kernels.
func BenchmarkGridOffset(b *testing.B) {
	const groups = 256
	pitch := make([]byte, 4)
	binary.LittleEndian.PutUint32(pitch, 64*groups)
	g := benchGrid(b, "offset", "offset", 64*groups, 64,
		[]LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 4*64*groups)}, {Kind: ArgValue, Data: pitch}})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		n := uint64(i) % groups
		if _, err := g.ws[0].runGroup(context.Background(), n, g.d.GroupID(n), n); err != nil {
			b.Fatal(err)
		}
	}
}
