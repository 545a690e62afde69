package samples

import (
	"fmt"
	"regexp"
	"strings"
)

// Claims about the scalar cache that step records carry, so that they
// hold in a grid replay too (where cache lines are not observable):
//
//	stale read 0xc0de0000, memory 0x600d   the step's scalar load read 0xc0de0000
//	                                       from a stale line; memory holds 0x600d
//	no stale read                          the step read no stale dword

var staleRE = regexp.MustCompile(`^stale read (\S+), memory (\S+)$`)

// parseCacheClaim parses the claims of this file, the last kinds
// parseClaim tries.
func parseCacheClaim(s string) (claimKind, error) {
	if s == "no stale read" {
		return staleRead{none: true}, nil
	}
	m := staleRE.FindStringSubmatch(s)
	if m == nil {
		return nil, fmt.Errorf("not a claim: %q", s)
	}
	cached, err := parseU64(m[1])
	if err != nil {
		return nil, err
	}
	memory, err := parseU64(m[2])
	if err != nil {
		return nil, err
	}
	if cached > 0xffffffff || memory > 0xffffffff {
		return nil, fmt.Errorf("stale read %s, memory %s: a dword is 32 bits", m[1], m[2])
	}
	if cached == memory {
		return nil, fmt.Errorf("stale read %s, memory %s: a stale dword differs from memory", m[1], m[2])
	}
	return staleRead{cached: uint32(cached), memory: uint32(memory)}, nil
}

// staleRead: the step's scalar load read the dword cached from a clean
// line whose memory holds memory (emu's StepRecord.Stale); with none, it
// read no stale dword.
type staleRead struct {
	cached, memory uint32
	none           bool
}

func (staleRead) names() []string { return []string{"cache"} }
func (k staleRead) eval(st *State) error {
	rec, err := st.last()
	if err != nil {
		return err
	}
	var got []string
	for _, r := range rec.Stale {
		if !k.none && r.Cached == k.cached && r.Memory == k.memory {
			return nil
		}
		got = append(got, fmt.Sprintf("%#x from line %#x, memory %#x", r.Cached, r.Line, r.Memory))
	}
	switch {
	case k.none && len(got) == 0:
		return nil
	case len(got) == 0:
		return fmt.Errorf("no stale read")
	}
	return fmt.Errorf("stale reads %s", strings.Join(got, "; "))
}
