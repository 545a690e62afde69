package core

// LineSet counts the distinct 64-byte lines an instruction touches.
type LineSet struct {
	seen [128]uint64
	N    int
}

func (s *LineSet) Add(addr uint64, size int) {
	for l := addr >> 6; l <= (addr+uint64(max(size, 1))-1)>>6; l++ {
		found := false
		for i := 0; i < s.N; i++ {
			if s.seen[i] == l {
				found = true
				break
			}
		}
		if !found && s.N < len(s.seen) {
			s.seen[s.N] = l
			s.N++
		}
	}
}

// DistinctLines returns how many distinct 64-byte lines the addresses
// touch: how many cache-line requests the access coalesces into.
func DistinctLines(addrs []LaneAddr) int {
	seen := map[uint64]bool{}
	for _, a := range addrs {
		for l := a.Addr >> 6; l <= (a.Addr+uint64(max(a.Size, 1))-1)>>6; l++ {
			seen[l] = true
		}
	}
	return len(seen)
}
