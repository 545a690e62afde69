package samples

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
)

// State is what a claim is judged against: a wave's state right after a
// step, as emu shows it. Only Snap is required; claims about what the
// step did (events, addresses, hazards, writes) need Last.
type State struct {
	Snap *emu.Snapshot
	Last *emu.StepRecord // the step just executed; nil if none
	// Buffers are the dispatch's buffers by argument name; nil when their
	// addresses are not known (a replay of another run).
	Buffers map[string]emu.Allocation
	// Mem reads dword i of a buffer; nil: memory is not observable now.
	Mem func(buf string, i int) (uint32, error)
	// PCOf is the address of a source instruction ("text" or "text#n").
	PCOf func(at string) (uint64, error)
	// Unknown reports SGPRs whose value the state does not know.
	Unknown func(n int) bool
	// Group is the workgroup id X of the wave (the variable group).
	Group uint32
}

// Holds reports whether the claim holds in st: nil, or what is there instead.
func (c Claim) Holds(st *State) error {
	if st == nil || st.Snap == nil {
		return errors.New("no state")
	}
	return c.k.eval(st)
}

var errNoStep = errors.New("no step has executed")

func (st *State) last() (*emu.StepRecord, error) {
	if st.Last == nil {
		return nil, errNoStep
	}
	return st.Last, nil
}

// sgprs: s<n>.. hold their values.
type sgpr struct {
	n    int
	want uint32
}
type sgprs []sgpr

func (k sgprs) names() []string {
	var out []string
	for _, r := range k {
		out = append(out, fmt.Sprintf("s%d", r.n))
	}
	return out
}
func (k sgprs) eval(st *State) error {
	for _, r := range k {
		if st.Unknown != nil && st.Unknown(r.n) {
			return fmt.Errorf("s%d holds an address of the grid run that the replay does not know", r.n)
		}
		if r.n >= len(st.Snap.SGPR) {
			return fmt.Errorf("no s%d", r.n)
		}
		if got := st.Snap.SGPR[r.n]; got != r.want {
			return fmt.Errorf("s%d = %#x", r.n, got)
		}
	}
	return nil
}

// bufPtr: s[n:n+1] hold the address of buffer buf.
type bufPtr struct {
	n   int
	buf string
}

func (k bufPtr) names() []string {
	return []string{fmt.Sprintf("s%d", k.n), fmt.Sprintf("s%d", k.n+1), k.buf}
}
func (k bufPtr) eval(st *State) error {
	a, ok := st.Buffers[k.buf]
	if !ok {
		if st.Buffers == nil {
			return errors.New("buffer addresses are not observable in a grid run")
		}
		return fmt.Errorf("no buffer %q", k.buf)
	}
	s := st.Snap.SGPR
	if k.n+1 >= len(s) {
		return fmt.Errorf("no s%d", k.n+1)
	}
	if got := uint64(s[k.n]) | uint64(s[k.n+1])<<32; got != a.Addr {
		return fmt.Errorf("s[%d:%d] = %#x, %s is at %#x", k.n, k.n+1, got, k.buf, a.Addr)
	}
	return nil
}

// special: M0, EXEC, LGKM_CNT or VM_CNT holds want.
type special struct {
	reg  string
	want uint64
}

func (k special) names() []string { return []string{k.reg} }
func (k special) eval(st *State) error {
	var got uint64
	c := st.Snap.Counters
	if st.Last != nil {
		c = st.Last.CountersAfter
	}
	switch k.reg {
	case "m0":
		got = uint64(st.Snap.M0)
	case "exec":
		got = st.Snap.EXEC
	case "lgkm":
		got = uint64(c.LGKM)
	case "vmcnt":
		got = uint64(c.VM)
	}
	if got != k.want {
		return fmt.Errorf("%s = %#x", k.reg, got)
	}
	return nil
}

// pending: an in-flight load will still write reg (or, with not, none will).
type pending struct {
	reg string
	not bool
}

func (k pending) names() []string { return []string{k.reg} }
func (k pending) eval(st *State) error {
	if slices.Contains(st.Snap.Pending, k.reg) == k.not {
		return fmt.Errorf("pending registers %v", st.Snap.Pending)
	}
	return nil
}

// hazard: the step read reg while the load at source instruction load was
// in flight.
type hazard struct{ reg, load string }

func (k hazard) names() []string { return []string{k.reg, "hazard"} }
func (k hazard) eval(st *State) error {
	rec, err := st.last()
	if err != nil {
		return err
	}
	if st.PCOf == nil {
		return errors.New("source instructions are not known")
	}
	pc, err := st.PCOf(k.load)
	if err != nil {
		return err
	}
	for _, h := range rec.Hazards {
		if h.Reg == k.reg && h.PendingPC == pc {
			return nil
		}
	}
	return fmt.Errorf("hazards %+v", rec.Hazards)
}

// noHazard: the step read no register early.
type noHazard struct{}

func (noHazard) names() []string { return []string{"hazard"} }
func (noHazard) eval(st *State) error {
	rec, err := st.last()
	if err != nil {
		return err
	}
	if len(rec.Hazards) > 0 {
		return fmt.Errorf("hazards %+v", rec.Hazards)
	}
	return nil
}

// completesFirst: the load writing register a, issued after the one
// writing register b, completes before it (both in flight).
type completesFirst struct{ a, b string }

func (k completesFirst) names() []string { return []string{k.a, k.b} }
func (k completesFirst) eval(st *State) error {
	a, err := inFlight(st, k.a)
	if err != nil {
		return err
	}
	b, err := inFlight(st, k.b)
	if err != nil {
		return err
	}
	if !(a.ID > b.ID && a.Done < b.Done) {
		return fmt.Errorf("%s: op %d done at %d, %s: op %d done at %d", k.a, a.ID, a.Done, k.b, b.ID, b.Done)
	}
	return nil
}

func inFlight(st *State, reg string) (emu.InFlight, error) {
	for _, f := range st.Snap.InFlight {
		if slices.Contains(f.Dest, reg) {
			return f, nil
		}
	}
	return emu.InFlight{}, fmt.Errorf("no load of %s in flight", reg)
}

// latency: the in-flight load writing reg completes cycles after its issue.
type latency struct {
	reg    string
	cycles uint64
}

func (k latency) names() []string { return []string{k.reg} }
func (k latency) eval(st *State) error {
	f, err := inFlight(st, k.reg)
	if err != nil {
		return err
	}
	if f.Done-f.Issue != k.cycles {
		return fmt.Errorf("issued at %d, done at %d", f.Issue, f.Done)
	}
	return nil
}

// cacheEvents: the step's scalar-cache events, in order.
type cacheEvents []string

func (cacheEvents) names() []string { return []string{"cache"} }
func (k cacheEvents) eval(st *State) error {
	rec, err := st.last()
	if err != nil {
		return err
	}
	got := []string{}
	for _, e := range rec.Cache {
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

// wrote: the step wrote memory for the reason why, and the bytes it wrote
// contain the dword want; with none, the step wrote no memory at all.
type wrote struct {
	why  string
	want uint32
	none bool
}

func (wrote) names() []string { return []string{"memory"} }
func (k wrote) eval(st *State) error {
	rec, err := st.last()
	if err != nil {
		return err
	}
	if k.none {
		if len(rec.Mem) > 0 {
			return fmt.Errorf("%d memory writes, first %s at %#x", len(rec.Mem), rec.Mem[0].Why, rec.Mem[0].Addr)
		}
		return nil
	}
	var got []string
	for _, m := range rec.Mem {
		if m.Why == k.why {
			for o := int(-m.Addr & 3); o+4 <= len(m.New); o += 4 {
				if le32(m.New[o:]) == k.want {
					return nil
				}
			}
		}
		got = append(got, fmt.Sprintf("%s at %#x: % x", m.Why, m.Addr, m.New))
	}
	return fmt.Errorf("memory writes %v", got)
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// saddrs: the step's scalar dword addresses, as offsets into buf, and
// whether each was in range.
type saddrs struct {
	buf string
	off []uint64
	in  []bool
}

func (k saddrs) names() []string { return []string{k.buf} }
func (k saddrs) eval(st *State) error {
	rec, err := st.last()
	if err != nil {
		return err
	}
	a, ok := st.Buffers[k.buf]
	if !ok {
		return fmt.Errorf("the address of %s is not known", k.buf)
	}
	var got []string
	ok = len(rec.Addrs) == len(k.off)
	for i, x := range rec.Addrs {
		got = append(got, fmt.Sprintf("%s+%#x lane %d in=%v", k.buf, x.Addr-a.Addr, x.Lane, x.InRange))
		ok = ok && x.Lane == -1 && x.Addr == a.Addr+k.off[i] && x.InRange == k.in[i]
	}
	if !ok {
		return fmt.Errorf("addresses %s", strings.Join(got, ", "))
	}
	return nil
}

// vaddrs: the step's per-lane accesses: lanes [0, in) in range, the other
// active lanes out of range.
type vaddrs struct{ in int }

func (vaddrs) names() []string { return []string{"lanes"} }
func (k vaddrs) eval(st *State) error {
	rec, err := st.last()
	if err != nil {
		return err
	}
	for _, a := range rec.Addrs {
		if a.Lane < 0 {
			return errors.New("a scalar access")
		}
		if want := a.Lane < k.in; a.InRange != want {
			return fmt.Errorf("lane %d at %#x in range = %v", a.Lane, a.Addr, a.InRange)
		}
	}
	if len(rec.Addrs) == 0 {
		return errors.New("no per-lane addresses recorded")
	}
	return nil
}

// vgpr: v<reg> holds want in lanes [from, to]; float compares within one ulp.
type vgpr struct {
	reg, from, to int
	what          string
	want          expr
	float         bool
}

func (k vgpr) names() []string { return []string{fmt.Sprintf("v%d", k.reg)} }
func (k vgpr) eval(st *State) error {
	if k.reg >= len(st.Snap.VGPR) {
		return fmt.Errorf("no v%d", k.reg)
	}
	v := st.Snap.VGPR[k.reg]
	for l := k.from; l <= k.to; l++ {
		w, err := k.want.eval(map[string]int64{"lane": int64(l), "group": int64(st.Group)})
		if err != nil {
			return err
		}
		got := v[l]
		if k.float {
			want := math.Float32bits(float32(w.float()))
			if d := int64(got) - int64(want); d > 1 || d < -1 {
				return fmt.Errorf("lane %d: v%d = %g (%#x), want %g", l, k.reg, math.Float32frombits(got), got, math.Float32frombits(want))
			}
			continue
		}
		if w.isFloat {
			return fmt.Errorf("%s is a float; use ~= or f32()", k.what)
		}
		if want := uint32(w.i); got != want {
			return fmt.Errorf("lane %d: v%d = %#x, want %#x", l, k.reg, got, want)
		}
	}
	return nil
}

// mem: dwords [from, to] of buffer buf hold want.
type mem struct {
	buf      string
	from, to int
	what     string
	want     expr
}

func (k mem) names() []string { return []string{k.buf} }
func (k mem) eval(st *State) error {
	if st.Mem == nil {
		return errors.New("memory is not observable here")
	}
	for i := k.from; i <= k.to; i++ {
		got, err := st.Mem(k.buf, i)
		if err != nil {
			return err
		}
		w, err := k.want.eval(map[string]int64{"i": int64(i), "group": int64(st.Group)})
		if err != nil {
			return err
		}
		if w.isFloat {
			return fmt.Errorf("%s is a float; use f32()", k.what)
		}
		if want := uint32(w.i); got != want {
			return fmt.Errorf("%s[%d] = %#x, want %#x", k.buf, i, got, want)
		}
	}
	return nil
}

var errNoCache = errors.New("scalar cache contents are not observable in a grid run (only its events are)")

// line: the scalar-cache line holding buf+off is valid (or not), dirty or
// clean, and (when dword is set) holds *dword at buf+off.
type line struct {
	buf          string
	off          uint64
	valid, dirty bool
	dword        *uint32
}

func (k line) names() []string { return []string{"cache", k.buf} }
func (k line) eval(st *State) error {
	b, ok := st.Buffers[k.buf]
	if !ok {
		return errNoCache
	}
	a := b.Addr + k.off
	for _, l := range st.Snap.Cache {
		if !l.Valid || l.Addr != a&^63 {
			continue
		}
		if !k.valid || l.Dirty != k.dirty {
			return fmt.Errorf("line %#x valid, dirty=%v", l.Addr, l.Dirty)
		}
		if o := a & 63; k.dword != nil && le32(l.Data[o:]) != *k.dword {
			return fmt.Errorf("the line holds %#x", le32(l.Data[o:]))
		}
		return nil
	}
	if k.valid {
		return fmt.Errorf("no valid line at %#x", a&^63)
	}
	return nil
}

// noValidLines: the scalar cache is empty.
type noValidLines struct{}

func (noValidLines) names() []string { return []string{"cache"} }
func (noValidLines) eval(st *State) error {
	if st.Buffers == nil {
		return errNoCache
	}
	for _, l := range st.Snap.Cache {
		if l.Valid {
			return fmt.Errorf("line %#x is valid", l.Addr)
		}
	}
	return nil
}

// notClaim: the claim must fail.
type notClaim struct{ k claimKind }

func (k notClaim) names() []string { return k.k.names() }
func (k notClaim) eval(st *State) error {
	if k.k.eval(st) == nil {
		return errors.New("it does")
	}
	return nil
}
