package samples

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// Claims about where a memory instruction went, for the scratch, FLAT
// aperture and LDS bank samples:
//
//	flat_scratch = EXPR           FLAT_SCRATCH, the 64-bit register
//	addr[0..63] = EXPR            each lane's address the step accessed
//	                              (DS: the LDS byte offset, as the address
//	                              decoder shows it)
//	aperture[0..15] = lds         the aperture each lane's FLAT address is
//	                              in (lds, private or global), and emu sent
//	                              the access there
//	bank conflicts = 62           the step's extra LDS cycles (emu.BankConflicts)
//
// Besides lane and group, EXPR here may use the SGPRs (s9, and s[6:7] for
// a pair), flat_scratch, and shared_base and private_base: the first
// address of the LDS and private apertures (src_shared_base and
// src_private_base, shifted to the high dword).

var (
	flatScratchRE = regexp.MustCompile(`^flat_scratch = (.+)$`)
	addrRE        = regexp.MustCompile(`^addr\[(\d+)\.\.(\d+)\] = (.+)$`)
	apertureRE    = regexp.MustCompile(`^aperture\[(\d+)\.\.(\d+)\] = (lds|private|global)$`)
	conflictsRE   = regexp.MustCompile(`^bank conflicts = (\d+)$`)
	pairRE        = regexp.MustCompile(`s\[(\d+):(\d+)\]`)
	sregRE        = regexp.MustCompile(`^s(\d{1,3})$|^s_(\d{1,3})_(\d{1,3})$`)
)

// parseMemClaim parses the claims of this file; ok is false when s is none
// of them.
func parseMemClaim(s string) (k claimKind, ok bool, err error) {
	if m := flatScratchRE.FindStringSubmatch(s); m != nil {
		e, err := parseRegExpr(m[1])
		return flatScratch{m[1], e}, true, err
	}
	if m := addrRE.FindStringSubmatch(s); m != nil {
		from, to, err := laneRange(m[1], m[2])
		if err != nil {
			return nil, true, err
		}
		e, err := parseRegExpr(m[3])
		return laneAddrs{from, to, m[3], e}, true, err
	}
	if m := apertureRE.FindStringSubmatch(s); m != nil {
		from, to, err := laneRange(m[1], m[2])
		return aperture{from, to, m[3]}, true, err
	}
	if m := conflictsRE.FindStringSubmatch(s); m != nil {
		n, err := parseU64(m[1])
		return bankConflicts(n), true, err
	}
	return nil, false, nil
}

func laneRange(a, b string) (int, int, error) {
	from, to := atoi(a), atoi(b)
	if len(b) > 2 || from > to || to > 63 {
		return 0, 0, fmt.Errorf("lanes [%s..%s]: a wave has lanes 0-63", a, b)
	}
	return from, to, nil
}

// regExpr is an expression that may read registers.
type regExpr struct {
	e    expr
	regs []string // the SGPR variables it names: "s9", "s_6_7"
}

func parseRegExpr(s string) (regExpr, error) {
	s = pairRE.ReplaceAllString(s, "s_${1}_${2}")
	e, err := parseExpr(s)
	if err != nil {
		return regExpr{}, err
	}
	var r regExpr
	r.e = e
	for _, t := range tokenize(s) {
		m := sregRE.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		if m[1] == "" && atoi(m[3]) != atoi(m[2])+1 {
			return r, fmt.Errorf("s[%s:%s] is not a pair of SGPRs", m[2], m[3])
		}
		if n := max(atoi(m[1]), atoi(m[3])); n >= numSGPRs {
			return r, fmt.Errorf("no SGPR s%d (s0-s%d)", n, numSGPRs-1)
		}
		r.regs = append(r.regs, t)
	}
	return r, nil
}

// vars returns the variables an expression sees in st.
func (r regExpr) vars(st *State) (map[string]int64, error) {
	v := map[string]int64{
		"group":        int64(st.Group),
		"flat_scratch": int64(st.Snap.FlatScratch),
		"shared_base":  int64(emu.SharedApertureBase),
		"private_base": int64(emu.PrivateApertureBase),
	}
	sgpr := func(n int) (int64, error) {
		if st.Unknown != nil && st.Unknown(n) {
			return 0, fmt.Errorf("s%d holds an address of the grid run that the replay does not know", n)
		}
		if n >= len(st.Snap.SGPR) {
			return 0, fmt.Errorf("no s%d", n)
		}
		return int64(st.Snap.SGPR[n]), nil
	}
	for _, t := range r.regs {
		m := sregRE.FindStringSubmatch(t)
		lo := atoi(m[1] + m[2])
		x, err := sgpr(lo)
		if err != nil {
			return nil, err
		}
		if m[1] == "" {
			hi, err := sgpr(lo + 1)
			if err != nil {
				return nil, err
			}
			x |= hi << 32
		}
		v[t] = x
	}
	return v, nil
}

func (r regExpr) names() []string {
	var out []string
	for _, t := range r.regs {
		m := sregRE.FindStringSubmatch(t)
		if m[1] != "" {
			out = append(out, t)
		} else {
			out = append(out, "s"+m[2], "s"+m[3])
		}
	}
	return out
}

// evalInt evaluates r as an integer with vars.
func (r regExpr) evalInt(vars map[string]int64, what string) (uint64, error) {
	w, err := r.e.eval(vars)
	if err != nil {
		return 0, err
	}
	if w.isFloat {
		return 0, fmt.Errorf("%s is a float; an address is an integer", what)
	}
	return uint64(w.i), nil
}

// flatScratch: FLAT_SCRATCH holds want.
type flatScratch struct {
	what string
	want regExpr
}

func (k flatScratch) names() []string {
	return append([]string{"flat_scratch_lo", "flat_scratch_hi"}, k.want.names()...)
}
func (k flatScratch) eval(st *State) error {
	vars, err := k.want.vars(st)
	if err != nil {
		return err
	}
	want, err := k.want.evalInt(vars, k.what)
	if err != nil {
		return err
	}
	if got := st.Snap.FlatScratch; got != want {
		return fmt.Errorf("flat_scratch = %#x, want %#x", got, want)
	}
	return nil
}

// laneAddrs: the step accessed want (in lane) in each of lanes [from, to].
type laneAddrs struct {
	from, to int
	what     string
	want     regExpr
}

func (k laneAddrs) names() []string { return append([]string{"lanes"}, k.want.names()...) }
func (k laneAddrs) eval(st *State) error {
	got, err := stepAddrs(st)
	if err != nil {
		return err
	}
	vars, err := k.want.vars(st)
	if err != nil {
		return err
	}
	ds := st.Last.Inst != nil && st.Last.Inst.Enc == isa.EncDS
	for l := k.from; l <= k.to; l++ {
		a, ok := got[l]
		if !ok {
			return fmt.Errorf("lane %d accessed no memory", l)
		}
		if ds {
			a -= emu.SharedApertureBase
		}
		vars["lane"] = int64(l)
		want, err := k.want.evalInt(vars, k.what)
		if err != nil {
			return err
		}
		if a != want {
			return fmt.Errorf("lane %d: address %#x, want %#x", l, a, want)
		}
	}
	return nil
}

// stepAddrs returns the first address each lane of the step accessed.
func stepAddrs(st *State) (map[int]uint64, error) {
	rec, err := st.last()
	if err != nil {
		return nil, err
	}
	out := map[int]uint64{}
	for _, a := range rec.Addrs {
		if _, seen := out[a.Lane]; a.Lane >= 0 && !seen {
			out[a.Lane] = a.Addr
		}
	}
	if len(out) == 0 {
		return nil, errors.New("the step accessed no per-lane memory")
	}
	return out, nil
}

// aperture: the FLAT address of lanes [from, to] is in aperture ap, and
// the access went there: to the LDS window for lds, translated to the
// scratch backing memory for private, unchanged for global.
type aperture struct {
	from, to int
	ap       string
}

func (aperture) names() []string { return []string{"lanes"} }
func (k aperture) eval(st *State) error {
	got, err := stepAddrs(st)
	if err != nil {
		return err
	}
	in := st.Last.Inst
	if in == nil || in.Enc != isa.EncFLAT || in.Mods.Seg != isa.SegFlat {
		return errors.New("not a FLAT instruction (global_ and scratch_ name their aperture)")
	}
	vaddr := -1
	for _, o := range in.Args {
		if o.Field == isa.FieldVADDR && o.Kind == isa.KindVGPR {
			vaddr = int(o.Reg)
		}
	}
	if vaddr < 0 || vaddr+1 >= len(st.Snap.VGPR) {
		return errors.New("no address VGPR pair")
	}
	for l := k.from; l <= k.to; l++ {
		flat := uint64(laneBefore(st, vaddr, l)) | uint64(laneBefore(st, vaddr+1, l))<<32
		flat += uint64(in.Mods.Offset)
		ap := apertureOf(flat)
		if ap != k.ap {
			return fmt.Errorf("lane %d: address %#x is in the %s aperture", l, flat, ap)
		}
		a, ok := got[l]
		switch {
		case !ok:
			return fmt.Errorf("lane %d accessed no memory", l)
		case ap == "private" && a == flat, ap != "private" && a != flat:
			return fmt.Errorf("lane %d: flat address %#x accessed %#x", l, flat, a)
		}
	}
	return nil
}

// apertureOf names the aperture of a flat address: its high dword is the
// LDS or the private aperture's (AMDGPUUsage, "Address Spaces"), or the
// address is global.
func apertureOf(a uint64) string {
	switch a >> 32 {
	case emu.SharedApertureBase >> 32:
		return "lds"
	case emu.PrivateApertureBase >> 32:
		return "private"
	}
	return "global"
}

// laneBefore is lane l of VGPR r before the step (its old value if the step
// wrote it).
func laneBefore(st *State, r, l int) uint32 {
	for _, c := range st.Last.VRegs {
		if c.Reg == r && c.Lanes>>l&1 != 0 {
			return c.Old[l]
		}
	}
	return st.Snap.VGPR[r][l]
}

// bankConflicts: the step's DS access costs this many extra cycles in LDS
// bank conflicts, as emu.BankConflicts (and the address decoder) counts.
type bankConflicts uint64

func (bankConflicts) names() []string { return []string{"lanes"} }
func (k bankConflicts) eval(st *State) error {
	rec, err := st.last()
	if err != nil {
		return err
	}
	if rec.Inst == nil || rec.Inst.Enc != isa.EncDS {
		return errors.New("not a DS instruction")
	}
	var addrs [64]uint32
	var active uint64
	for _, a := range rec.Addrs {
		if a.Lane < 0 || a.Lane > 63 || active>>a.Lane&1 != 0 {
			continue
		}
		addrs[a.Lane], active = uint32(a.Addr-emu.SharedApertureBase), active|1<<a.Lane
	}
	if active == 0 {
		return errors.New("the step accessed no LDS")
	}
	if got := emu.BankConflicts(addrs, active); uint64(got) != uint64(k) {
		return fmt.Errorf("bank conflicts = %d", got)
	}
	return nil
}
