package samples

import (
	"fmt"
	"regexp"
)

// Claims about control state and 64-bit scalar values, for the samples on
// EXEC masking and the shader clock:
//
//	vcc = 0xffff                  VCC (64 bits)
//	scc = 1                       SCC (0 or 1)
//	next INSTRUCTION              the step went on to INSTRUCTION (a branch taken)
//	s[6:7] - s[4:5] = 43          a 64-bit difference of two SGPR pairs

var (
	ctlRegRE = regexp.MustCompile(`^(vcc|scc) = (\S+)$`)
	nextRE   = regexp.MustCompile(`^next (.+)$`)
	diffRE   = regexp.MustCompile(`^s\[(\d+):(\d+)\] - s\[(\d+):(\d+)\] = (\S+)$`)
)

// parseCtlClaim parses the claims of this file; ok is false for any other.
func parseCtlClaim(s string) (k claimKind, ok bool, err error) {
	if m := ctlRegRE.FindStringSubmatch(s); m != nil {
		n, err := parseU64(m[2])
		if err == nil && m[1] == "scc" && n > 1 {
			err = fmt.Errorf("scc = %s: SCC is 0 or 1", m[2])
		}
		return ctlReg{m[1], n}, true, err
	}
	if m := nextRE.FindStringSubmatch(s); m != nil {
		return nextInst{m[1]}, true, nil
	}
	if m := diffRE.FindStringSubmatch(s); m != nil {
		a, b := pair{atoi(m[1]), atoi(m[2])}, pair{atoi(m[3]), atoi(m[4])}
		for i, p := range []pair{a, b} {
			if p.hi != p.lo+1 || p.hi >= numSGPRs || len(m[1+2*i]) > 3 {
				return nil, true, fmt.Errorf("s[%s:%s] is not an SGPR pair (s0-s%d)", m[1+2*i], m[2+2*i], numSGPRs-1)
			}
		}
		n, err := parseU64(m[5])
		return diff{a, b, n}, true, err
	}
	return nil, false, nil
}

// ctlReg: VCC or SCC holds want.
type ctlReg struct {
	reg  string
	want uint64
}

func (k ctlReg) names() []string { return []string{k.reg} }
func (k ctlReg) eval(st *State) error {
	got := st.Snap.VCC
	if k.reg == "scc" {
		got = 0
		if st.Snap.SCC {
			got = 1
		}
	}
	if got != k.want {
		return fmt.Errorf("%s = %#x", k.reg, got)
	}
	return nil
}

// nextInst: the step's next instruction is the source instruction at.
type nextInst struct{ at string }

func (nextInst) names() []string { return []string{"pc"} }
func (k nextInst) eval(st *State) error {
	rec, err := st.last()
	if err != nil {
		return err
	}
	if st.PCOf == nil {
		return fmt.Errorf("source instructions are not known")
	}
	pc, err := st.PCOf(k.at)
	if err != nil {
		return err
	}
	if rec.NextPC != pc {
		return fmt.Errorf("the next pc is %#x, %q is at %#x", rec.NextPC, k.at, pc)
	}
	return nil
}

// pair is an SGPR pair s[lo:hi] holding a 64-bit value, low dword first.
type pair struct{ lo, hi int }

func (p pair) value(st *State) (uint64, error) {
	for _, n := range []int{p.lo, p.hi} {
		if st.Unknown != nil && st.Unknown(n) {
			return 0, fmt.Errorf("s%d holds an address of the grid run that the replay does not know", n)
		}
		if n >= len(st.Snap.SGPR) {
			return 0, fmt.Errorf("no s%d", n)
		}
	}
	return uint64(st.Snap.SGPR[p.lo]) | uint64(st.Snap.SGPR[p.hi])<<32, nil
}

// diff: the 64-bit value in a minus the one in b is want (modulo 2^64).
type diff struct {
	a, b pair
	want uint64
}

func (k diff) names() []string {
	return []string{fmt.Sprintf("s%d", k.a.lo), fmt.Sprintf("s%d", k.a.hi), fmt.Sprintf("s%d", k.b.lo), fmt.Sprintf("s%d", k.b.hi)}
}
func (k diff) eval(st *State) error {
	a, err := k.a.value(st)
	if err != nil {
		return err
	}
	b, err := k.b.value(st)
	if err != nil {
		return err
	}
	if a-b != k.want {
		return fmt.Errorf("s[%d:%d] = %d, s[%d:%d] = %d: the difference is %d", k.a.lo, k.a.hi, a, k.b.lo, k.b.hi, b, a-b)
	}
	return nil
}
