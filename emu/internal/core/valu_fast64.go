package core

import (
	"math/bits"
)

// LiveLanes is the number of lanes a kernel computes under mask: those
// past the highest EXEC lane are inactive.
func LiveLanes(mask uint64) int { return bits.Len64(mask) }

// Nquads is the number of quads holding lanes 0 to n-1.
func Nquads(n int) int { return (n + 3) >> 2 }
