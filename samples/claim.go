package samples

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A Claim is one machine-checkable statement of a walkthrough, written in
// tour.yaml as one line:
//
//	s9 = 1                        an SGPR (s[8:11] = a b c d: several)
//	s[4:5] = &in                  an SGPR pair holds a buffer's address
//	m0 = 0x100, exec = 0xffff     M0, EXEC
//	lgkm = 1, vmcnt = 2           LGKM_CNT, VM_CNT after the step
//	pending s8, not pending s8    an in-flight load will (not) write s8
//	hazard s8 from INSTRUCTION    the step read s8 early; the load is INSTRUCTION
//	no hazard
//	s8 completes before s6        the younger load of s8 lands first
//	latency s8 = 20               the load of s8 takes 20 cycles
//	cache hit miss(glc)           the step's scalar-cache events (cache none: no event)
//	wrote nothing                 the step wrote no memory
//	wrote write-back 0x5ca1       the step wrote 0x5ca1 for that reason
//	saddr table 0x10 0x14!        the step's scalar addresses (! out of range)
//	lanes 0-15 in range           the step's per-lane accesses
//	v4[0..15] = EXPR              lanes of a VGPR (EXPR in lane and group)
//	v4[0..3] ~= EXPR              the same for floats, within one ulp
//	dst[0..63] = EXPR             dwords of a buffer (EXPR in i and group)
//	line data+0x0 valid dirty holds 0x5ca1   a scalar-cache line
//	no valid line                 the scalar cache is empty
//	stale read 0xc0de0000, memory 0x600d  and more claims in claim_cache.go
//	not CLAIM                     CLAIM does not hold
//	flat_scratch = EXPR, addr[0..63] = EXPR, aperture[0..15] = lds,
//	bank conflicts = 62           memory claims (claim_mem.go)
type Claim struct {
	Text string // as written
	Line int    // in tour.yaml
	k    claimKind
}

type claimKind interface {
	eval(st *State) error
	// names lists the registers, counters and buffers the claim is about.
	names() []string
}

// Names lists what the claim is about: registers ("s9", "v4", "m0",
// "exec"), counters ("lgkm", "vmcnt"), buffers, "cache", "hazard".
func (c Claim) Names() []string { return c.k.names() }

func (c Claim) String() string { return c.Text }

var (
	sgprRE    = regexp.MustCompile(`^s(\d+) = (\S+)$`)
	sgprsRE   = regexp.MustCompile(`^s\[(\d+):(\d+)\] = (.+)$`)
	specialRE = regexp.MustCompile(`^(m0|exec|lgkm|vmcnt) = (\S+)$`)
	pendingRE = regexp.MustCompile(`^(not )?pending (s\d+)$`)
	hazardRE  = regexp.MustCompile(`^hazard (s\d+) from (.+)$`)
	firstRE   = regexp.MustCompile(`^(s\d+) completes before (s\d+)$`)
	latRE     = regexp.MustCompile(`^latency (s\d+) = (\d+)$`)
	cacheRE   = regexp.MustCompile(`^cache( [a-z()-]+)+$`)
	wroteRE   = regexp.MustCompile(`^wrote ([a-z-]+) (\S+)$`)
	saddrRE   = regexp.MustCompile(`^saddr (\w+)((?: \S+)+)$`)
	lanesRE   = regexp.MustCompile(`^lanes 0-(\d+) in range$`)
	rangeRE   = regexp.MustCompile(`^(\w+)\[(\d+)\.\.(\d+)\] (=|~=) (.+)$`)
	lineRE    = regexp.MustCompile(`^line (\w+)\+(\S+) (valid|invalid)(?: (clean|dirty))?(?: holds (\S+))?$`)
	vregRE    = regexp.MustCompile(`^v\d+$`)
)

// parseClaim parses one claim.
func parseClaim(s string) (claimKind, error) {
	s = strings.Join(strings.Fields(s), " ")
	if rest, ok := strings.CutPrefix(s, "not "); ok && !strings.HasPrefix(rest, "pending ") {
		k, err := parseClaim(rest)
		if err != nil {
			return nil, err
		}
		return notClaim{k}, nil
	}
	switch s {
	case "no hazard":
		return noHazard{}, nil
	case "wrote nothing":
		return wrote{none: true}, nil
	case "no valid line":
		return noValidLines{}, nil
	case "cache none":
		return cacheEvents{}, nil
	}
	if k, ok, err := parseCtlClaim(s); ok {
		return k, err
	}
	if k, ok, err := parseMemClaim(s); ok { // claim_mem.go
		return k, err
	}
	if m := sgprsRE.FindStringSubmatch(s); m != nil {
		lo, hi := atoi(m[1]), atoi(m[2])
		if hi < lo || hi >= numSGPRs {
			return nil, fmt.Errorf("no SGPRs s[%d:%d] (s0-s%d)", lo, hi, numSGPRs-1)
		}
		if buf, ok := strings.CutPrefix(m[3], "&"); ok {
			if hi != lo+1 {
				return nil, fmt.Errorf("an address needs a pair, s[%d:%d]", lo, lo+1)
			}
			return bufPtr{lo, buf}, nil
		}
		vals := strings.Fields(m[3])
		if len(vals) != hi-lo+1 {
			return nil, fmt.Errorf("s[%d:%d] needs %d values, got %d", lo, hi, hi-lo+1, len(vals))
		}
		var out sgprs
		for i, v := range vals {
			n, err := parseU64(v)
			if err != nil {
				return nil, err
			}
			out = append(out, sgpr{lo + i, uint32(n)})
		}
		return out, nil
	}
	if m := sgprRE.FindStringSubmatch(s); m != nil {
		if atoi(m[1]) >= numSGPRs {
			return nil, fmt.Errorf("no SGPR s%s (s0-s%d)", m[1], numSGPRs-1)
		}
		n, err := parseU64(m[2])
		return sgprs{{atoi(m[1]), uint32(n)}}, err
	}
	if m := specialRE.FindStringSubmatch(s); m != nil {
		n, err := parseU64(m[2])
		return special{m[1], n}, err
	}
	if m := pendingRE.FindStringSubmatch(s); m != nil {
		return pending{m[2], m[1] != ""}, nil
	}
	if m := hazardRE.FindStringSubmatch(s); m != nil {
		return hazard{m[1], m[2]}, nil
	}
	if m := firstRE.FindStringSubmatch(s); m != nil {
		return completesFirst{m[1], m[2]}, nil
	}
	if m := latRE.FindStringSubmatch(s); m != nil {
		n, err := parseU64(m[2])
		return latency{m[1], n}, err
	}
	if cacheRE.MatchString(s) {
		return cacheEvents(strings.Fields(s)[1:]), nil
	}
	if m := wroteRE.FindStringSubmatch(s); m != nil {
		n, err := parseU64(m[2])
		return wrote{why: m[1], want: uint32(n)}, err
	}
	if m := saddrRE.FindStringSubmatch(s); m != nil {
		k := saddrs{buf: m[1]}
		for _, f := range strings.Fields(m[2]) {
			off, bad := strings.CutSuffix(f, "!")
			n, err := parseU64(off)
			if err != nil {
				return nil, err
			}
			k.off = append(k.off, n)
			k.in = append(k.in, !bad)
		}
		return k, nil
	}
	if m := lanesRE.FindStringSubmatch(s); m != nil {
		if n := atoi(m[1]); len(m[1]) > 2 || n > 63 {
			return nil, fmt.Errorf("lanes 0-%s: a wave has 64 lanes", m[1])
		}
		return vaddrs{atoi(m[1]) + 1}, nil
	}
	if m := lineRE.FindStringSubmatch(s); m != nil {
		off, err := parseU64(m[2])
		if err != nil {
			return nil, err
		}
		if off%4 != 0 {
			return nil, fmt.Errorf("line %s+%#x: a dword offset must be a multiple of 4", m[1], off)
		}
		k := line{buf: m[1], off: off, valid: m[3] == "valid", dirty: m[4] == "dirty"}
		if m[5] != "" {
			n, err := parseU64(m[5])
			if err != nil {
				return nil, err
			}
			v := uint32(n)
			k.dword = &v
		}
		return k, nil
	}
	if m := rangeRE.FindStringSubmatch(s); m != nil {
		from, to := atoi(m[2]), atoi(m[3])
		if from > to || to-from >= maxRange || len(m[3]) > 9 {
			return nil, fmt.Errorf("range [%s..%s]: empty or longer than %d", m[2], m[3], maxRange)
		}
		e, err := parseExpr(m[5])
		if err != nil {
			return nil, err
		}
		float := m[4] == "~="
		if vregRE.MatchString(m[1]) {
			if to > 63 {
				return nil, fmt.Errorf("lane %d: a wave has 64 lanes", to)
			}
			return vgpr{atoi(m[1][1:]), from, to, m[5], e, float}, nil
		}
		if float {
			return nil, fmt.Errorf("~= compares VGPR lanes only")
		}
		return mem{m[1], from, to, m[5], e}, nil
	}
	return parseCacheClaim(s)
}

// maxRange bounds the lanes or dwords one claim covers.
const maxRange = 1 << 16

// numSGPRs is how many SGPRs a claim can name (s0-s101, GFX9).
const numSGPRs = 102

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

func parseU64(s string) (uint64, error) {
	n, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %q", s)
	}
	return n, nil
}
