package core

// SloadMemo is what execSLoad found for one instruction: with SBASE
// holding base in mem, its access at addr lies in one allocation (for
// good: allocations never go away) and one cache line, whose volatility
// (that of the allocation holding the line's address) is vol, which way
// held last, and the line's page of mem once it exists (a page, once
// made, stays). A grid worker's waves read the same kernel arguments with
// the same instructions, so the next wave finds it here. (It says nothing
// about the line's data: other waves may have stored to it since.)
type SloadMemo struct {
	In   *Instr
	Mem  *Memory
	Base uint64
	Addr uint64
	Way  int
	Vol  bool
	Pg   *[PageSize]byte
}
