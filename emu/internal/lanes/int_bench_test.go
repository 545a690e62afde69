package lanes

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkIntLoops times a few loops in their Go and assembly versions
// (when there is one) for a quad, a 16-lane wave and a full one.
func BenchmarkIntLoops(b *testing.B) {
	var r rows
	randomRows(rand.New(rand.NewPCG(1, 2)), &r)
	versions := []bool{false}
	if SIMD {
		versions = append(versions, true)
	}
	for _, name := range []string{"Add", "AddCarry", "Select", "MulWide", "MadWide", "Less"} {
		var op intOp
		for _, o := range intOps {
			if o.name == name {
				op = o
			}
		}
		for _, n := range []int{4, 16, 64} {
			for _, on := range versions {
				b.Run(fmt.Sprintf("%s/%d/simd=%v", name, n, on), func(b *testing.B) {
					withSIMD(on, func() {
						for b.Loop() {
							op.run(&r, 0x5555aaaa3333cccc, n)
						}
					})
				})
			}
		}
	}
}
