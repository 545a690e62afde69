package samples

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
)

// The checks a walkthrough expectation can make. Each is evaluated right
// after the step that executed the expectation's instruction; each says in
// String what it asserts, so that a failure reads like the walkthrough.

// checkCtx is what a check sees: the wave and the step just executed.
type checkCtx struct {
	w    *wave
	rec  *emu.StepRecord
	sh   *shadow // grid mode: the replayed state
	snap *emu.Snapshot
	logf func(format string, args ...any)
}

// issuedBy reports whether pc (an InFlight.PC or a Hazard.PendingPC) names
// source instruction i as the issuer.
func (c *checkCtx) issuedBy(pc uint64, i int) bool { return pc == c.w.pc(i) }

func (c *checkCtx) snapshot() *emu.Snapshot {
	if c.snap == nil {
		if c.w.m != nil {
			c.snap = c.w.m.Snapshot()
		} else {
			c.snap = c.sh.snapshot()
		}
	}
	return c.snap
}

type check interface {
	check(c *checkCtx) error
	String() string
}

// sgpr: s<n> holds want.
type sgpr struct {
	n    int
	want uint32
}

func (k sgpr) String() string { return fmt.Sprintf("s%d = %#x", k.n, k.want) }
func (k sgpr) check(c *checkCtx) error {
	if c.sh != nil && c.sh.unknown[k.n] {
		return fmt.Errorf("s%d holds an address of the grid run that the replay does not know", k.n)
	}
	if got := c.snapshot().SGPR[k.n]; got != k.want {
		return fmt.Errorf("s%d = %#x", k.n, got)
	}
	return nil
}

// sgprs: s<first>.. hold want.
func sgprs(first int, want ...uint32) []check {
	out := make([]check, len(want))
	for i, v := range want {
		out[i] = sgpr{first + i, v}
	}
	return out
}

// bufPtr: s[n:n+1] hold the address of buffer buf.
type bufPtr struct {
	n   int
	buf string
}

func (k bufPtr) String() string { return fmt.Sprintf("s[%d:%d] = address of %s", k.n, k.n+1, k.buf) }
func (k bufPtr) check(c *checkCtx) error {
	if c.w.m == nil {
		return fmt.Errorf("buffer addresses are not observable in a grid run")
	}
	s := c.snapshot().SGPR
	if got := uint64(s[k.n]) | uint64(s[k.n+1])<<32; got != c.w.bufs[k.buf].Addr {
		return fmt.Errorf("s[%d:%d] = %#x, %s is at %#x", k.n, k.n+1, got, k.buf, c.w.bufs[k.buf].Addr)
	}
	return nil
}

// execMask: EXEC holds want.
type execMask struct{ want uint64 }

func (k execMask) String() string { return fmt.Sprintf("EXEC = %#x", k.want) }
func (k execMask) check(c *checkCtx) error {
	if got := c.snapshot().EXEC; got != k.want {
		return fmt.Errorf("EXEC = %#x", got)
	}
	return nil
}

// lgkm: LGKM_CNT after the step.
type lgkm struct{ want int }

func (k lgkm) String() string { return fmt.Sprintf("LGKM_CNT = %d", k.want) }
func (k lgkm) check(c *checkCtx) error {
	if got := c.rec.CountersAfter.LGKM; got != k.want {
		return fmt.Errorf("LGKM_CNT = %d", got)
	}
	return nil
}

// vmcnt: VM_CNT after the step.
type vmcnt struct{ want int }

func (k vmcnt) String() string { return fmt.Sprintf("VM_CNT = %d", k.want) }
func (k vmcnt) check(c *checkCtx) error {
	if got := c.rec.CountersAfter.VM; got != k.want {
		return fmt.Errorf("VM_CNT = %d", got)
	}
	return nil
}

// m0: M0 holds want.
type m0 struct{ want uint32 }

func (k m0) String() string { return fmt.Sprintf("M0 = %#x", k.want) }
func (k m0) check(c *checkCtx) error {
	if got := c.snapshot().M0; got != k.want {
		return fmt.Errorf("M0 = %#x", got)
	}
	return nil
}

// pending: an in-flight load will still write reg (or, with not, none will).
type pending struct {
	reg string
	not bool
}

func (k pending) String() string {
	if k.not {
		return k.reg + " is not pending"
	}
	return k.reg + " is still pending"
}
func (k pending) check(c *checkCtx) error {
	if slices.Contains(c.snapshot().Pending, k.reg) == k.not {
		return fmt.Errorf("pending registers %v", c.snapshot().Pending)
	}
	return nil
}

// hazard: the step read reg while the load at source instruction load was
// in flight.
type hazard struct{ reg, load string }

func (k hazard) String() string { return fmt.Sprintf("hazard on %s, pending %q", k.reg, k.load) }
func (k hazard) check(c *checkCtx) error {
	i, err := c.w.find(k.load)
	if err != nil {
		return err
	}
	for _, h := range c.rec.Hazards {
		if h.Reg == k.reg && c.issuedBy(h.PendingPC, i) {
			return nil
		}
	}
	return fmt.Errorf("hazards %+v", c.rec.Hazards)
}

// noHazard: the step read no register early.
type noHazard struct{}

func (noHazard) String() string { return "no hazard" }
func (noHazard) check(c *checkCtx) error {
	if len(c.rec.Hazards) > 0 {
		return fmt.Errorf("hazards %+v", c.rec.Hazards)
	}
	return nil
}

// completesFirst: the load writing register a, issued after the one
// writing register b, completes before it (both in flight after the step).
type completesFirst struct{ a, b string }

func (k completesFirst) String() string {
	return fmt.Sprintf("the load of %s completes before the older load of %s", k.a, k.b)
}
func (k completesFirst) check(c *checkCtx) error {
	find := func(reg string) (emu.InFlight, error) {
		for _, f := range c.snapshot().InFlight {
			if slices.Contains(f.Dest, reg) {
				return f, nil
			}
		}
		return emu.InFlight{}, fmt.Errorf("no load of %s in flight", reg)
	}
	a, err := find(k.a)
	if err != nil {
		return err
	}
	b, err := find(k.b)
	if err != nil {
		return err
	}
	if !(a.ID > b.ID && a.Done < b.Done) {
		return fmt.Errorf("%s: op %d done at %d, %s: op %d done at %d", k.a, a.ID, a.Done, k.b, b.ID, b.Done)
	}
	return nil
}

// latency: the in-flight load writing reg completes cycles after its issue.
type latency struct {
	reg    string
	cycles uint64
}

func (k latency) String() string {
	return fmt.Sprintf("the load of %s takes %d cycles", k.reg, k.cycles)
}
func (k latency) check(c *checkCtx) error {
	for _, f := range c.snapshot().InFlight {
		if slices.Contains(f.Dest, k.reg) {
			if f.Done-f.Issue != k.cycles {
				return fmt.Errorf("issued at %d, done at %d", f.Issue, f.Done)
			}
			return nil
		}
	}
	return fmt.Errorf("no load of %s in flight", k.reg)
}

// cache: the step's scalar-cache events, in order, as "hit", "miss",
// "miss(glc)", "invalidate", "write-back", ...
type cache []string

func (k cache) String() string { return fmt.Sprintf("cache events %v", []string(k)) }
func (k cache) check(c *checkCtx) error {
	got := []string{}
	for _, e := range c.rec.Cache {
		s := e.Kind.String()
		if e.GLC {
			s += "(glc)"
		}
		got = append(got, s)
	}
	if !slices.Equal(got, k) {
		return fmt.Errorf("cache events %v", got)
	}
	return nil
}

// line: the scalar-cache line holding buf+off is present (or not), dirty or
// clean, and (when dword is set) holds *dword at buf+off.
type line struct {
	buf          string
	off          uint64
	valid, dirty bool
	dword        *uint32
}

func (k line) String() string {
	s := fmt.Sprintf("scalar line %s+%#x valid=%v dirty=%v", k.buf, k.off, k.valid, k.dirty)
	if k.dword != nil {
		s += fmt.Sprintf(" holding %#x", *k.dword)
	}
	return s
}
func (k line) check(c *checkCtx) error {
	if c.w.m == nil {
		return errNoCache
	}
	a := c.w.bufs[k.buf].Addr + k.off
	for _, l := range c.snapshot().Cache {
		if !l.Valid || l.Addr != a&^63 {
			continue
		}
		if !k.valid || l.Dirty != k.dirty {
			return fmt.Errorf("line %#x valid, dirty=%v", l.Addr, l.Dirty)
		}
		if k.dword != nil {
			o := a & 63
			if got := uint32(l.Data[o]) | uint32(l.Data[o+1])<<8 | uint32(l.Data[o+2])<<16 | uint32(l.Data[o+3])<<24; got != *k.dword {
				return fmt.Errorf("the line holds %#x", got)
			}
		}
		return nil
	}
	if k.valid {
		return fmt.Errorf("no valid line at %#x", a&^63)
	}
	return nil
}

func u32p(v uint32) *uint32 { return &v }

var errNoCache = fmt.Errorf("scalar cache contents are not observable in a grid run (only its events are)")

// wrote: the step wrote memory for the reason why ("store", "write-back",
// ...), and the bytes it wrote contain the dword want; with none, the step
// wrote no memory at all.
type wrote struct {
	why  string
	want uint32
	none bool
}

func (k wrote) String() string {
	if k.none {
		return "no memory written"
	}
	return fmt.Sprintf("a %s writing %#x", k.why, k.want)
}
func (k wrote) check(c *checkCtx) error {
	if k.none {
		if len(c.rec.Mem) > 0 {
			return fmt.Errorf("%d memory writes, first %s at %#x", len(c.rec.Mem), c.rec.Mem[0].Why, c.rec.Mem[0].Addr)
		}
		return nil
	}
	for _, m := range c.rec.Mem {
		if m.Why != k.why {
			continue
		}
		for o := int(-m.Addr & 3); o+4 <= len(m.New); o += 4 {
			if uint32(m.New[o])|uint32(m.New[o+1])<<8|uint32(m.New[o+2])<<16|uint32(m.New[o+3])<<24 == k.want {
				return nil
			}
		}
	}
	var got []string
	for _, m := range c.rec.Mem {
		got = append(got, fmt.Sprintf("%s at %#x: % x", m.Why, m.Addr, m.New))
	}
	return fmt.Errorf("memory writes %v", got)
}

// noValidLines: the scalar cache is empty.
type noValidLines struct{}

func (noValidLines) String() string { return "no valid scalar line" }
func (noValidLines) check(c *checkCtx) error {
	if c.w.m == nil {
		return errNoCache
	}
	for _, l := range c.snapshot().Cache {
		if l.Valid {
			return fmt.Errorf("line %#x is valid", l.Addr)
		}
	}
	return nil
}

// saddrs: the step's scalar dword addresses, as offsets into buf, and
// whether each was in range.
type saddrs struct {
	buf string
	off []uint64
	in  []bool // nil: all in range
}

func (k saddrs) String() string {
	return fmt.Sprintf("scalar addresses %s+%#x in range %v", k.buf, k.off, k.in)
}
func (k saddrs) check(c *checkCtx) error {
	base := c.w.bufs[k.buf].Addr
	var got []string
	ok := len(c.rec.Addrs) == len(k.off)
	for i, a := range c.rec.Addrs {
		got = append(got, fmt.Sprintf("%s+%#x lane %d in=%v", k.buf, a.Addr-base, a.Lane, a.InRange))
		if !ok {
			continue
		}
		in := k.in == nil || k.in[i]
		ok = a.Lane == -1 && a.Addr == base+k.off[i] && a.InRange == in
	}
	if !ok {
		return fmt.Errorf("addresses %s", strings.Join(got, ", "))
	}
	return nil
}

// vaddrs: the step's per-lane accesses: lanes [0, in) in range, the other
// active lanes out of range.
type vaddrs struct{ in int }

func (k vaddrs) String() string {
	return fmt.Sprintf("lanes 0-%d in range, the rest out of range", k.in-1)
}
func (k vaddrs) check(c *checkCtx) error {
	seen := map[int]bool{}
	for _, a := range c.rec.Addrs {
		if a.Lane < 0 {
			return fmt.Errorf("a scalar access")
		}
		if want := a.Lane < k.in; a.InRange != want {
			return fmt.Errorf("lane %d at %#x in range = %v", a.Lane, a.Addr, a.InRange)
		}
		seen[a.Lane] = true
	}
	if len(seen) == 0 {
		return fmt.Errorf("no per-lane addresses recorded")
	}
	return nil
}

// vgpr: v<reg> holds want(lane) in lanes [from, to].
type vgpr struct {
	reg, from, to int
	what          string // the formula, for messages
	want          func(lane int) uint32
}

func (k vgpr) String() string { return fmt.Sprintf("v%d[%d..%d] = %s", k.reg, k.from, k.to, k.what) }
func (k vgpr) check(c *checkCtx) error {
	v := c.snapshot().VGPR[k.reg]
	for l := k.from; l <= k.to; l++ {
		if got, want := v[l], k.want(l); got != want {
			return fmt.Errorf("lane %d: v%d = %#x, want %#x", l, k.reg, got, want)
		}
	}
	return nil
}

// vgprF32: like vgpr for float results, within one unit in the last place.
type vgprF32 struct {
	reg, from, to int
	what          string
	want          func(lane int) float32
}

func (k vgprF32) String() string { return fmt.Sprintf("v%d[%d..%d] = %s", k.reg, k.from, k.to, k.what) }
func (k vgprF32) check(c *checkCtx) error {
	v := c.snapshot().VGPR[k.reg]
	for l := k.from; l <= k.to; l++ {
		got, want := v[l], math.Float32bits(k.want(l))
		if d := int64(got) - int64(want); d > 1 || d < -1 {
			return fmt.Errorf("lane %d: v%d = %g (%#x), want %g", l, k.reg, math.Float32frombits(got), got, k.want(l))
		}
	}
	return nil
}

// mem: dwords [from, to] of buffer buf hold want(i).
type mem struct {
	buf      string
	from, to int
	what     string
	want     func(i int) uint32
}

func (k mem) String() string { return fmt.Sprintf("%s[%d..%d] = %s", k.buf, k.from, k.to, k.what) }
func (k mem) check(c *checkCtx) error {
	for i := k.from; i <= k.to; i++ {
		got, err := c.w.u32(k.buf, i)
		if err != nil {
			return err
		}
		if want := k.want(i); got != want {
			return fmt.Errorf("%s[%d] = %#x, want %#x", k.buf, i, got, want)
		}
	}
	return nil
}

// mem1 is mem for one dword.
func mem1(buf string, i int, want uint32) mem {
	return mem{buf, i, i, fmt.Sprintf("%#x", want), func(int) uint32 { return want }}
}

// not: the check must fail.
type not struct{ c check }

func (k not) String() string { return "not " + k.c.String() }
func (k not) check(c *checkCtx) error {
	if k.c.check(c) == nil {
		return fmt.Errorf("it does")
	}
	return nil
}
