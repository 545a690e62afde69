package manifest

// This file bounds the memory a launch asks for: buffer sizes computed
// without overflow, and their total checked against a budget before any
// buffer is allocated or read.

import (
	"bufio"
	"fmt"
	"math/bits"
	"os"
	"strconv"
	"strings"
)

// BufferSize returns the size in bytes of count elements of t, refusing a
// negative count and a size above MaxBuffer (so the product never wraps).
func BufferSize(t Type, count int64) (int64, error) {
	es, err := t.Size()
	if err != nil {
		return 0, err
	}
	if count < 0 {
		return 0, fmt.Errorf("count %d is negative", count)
	}
	if count > MaxBuffer/int64(es) {
		return 0, fmt.Errorf("count %d of %s (%d bytes each) exceeds the largest buffer, %d bytes", count, t, es, int64(MaxBuffer))
	}
	return count * int64(es), nil
}

// mulU64 returns the product of xs and whether it fits in 64 bits.
func mulU64(xs ...uint64) (uint64, bool) {
	p := uint64(1)
	for _, x := range xs {
		hi, lo := bits.Mul64(p, x)
		if hi != 0 {
			return 0, false
		}
		p = lo
	}
	return p, true
}

// Footprint returns the bytes a launch of m allocates for its arguments:
// every buffer once (it is made or read into one array, which the emulator
// adopts in place and reads the results back into, so an output costs no
// second copy) plus every local argument's LDS. The emulator's own state
// (code, kernarg, scratch, a 64 KiB LDS per worker) is small and not
// counted. The sum saturates at the largest int64.
func (m *Manifest) Footprint() int64 {
	var total uint64
	for _, a := range m.Args {
		if (a.Kind == Buffer || a.Kind == Local) && a.Size > 0 {
			s, carry := bits.Add64(total, uint64(a.Size), 0)
			if carry != 0 || s > 1<<63-1 {
				return 1<<63 - 1
			}
			total = s
		}
	}
	return int64(total)
}

// CheckBudget refuses a launch whose Footprint exceeds limit bytes (0: no
// limit). Call it before Inputs, which allocates every buffer.
func (m *Manifest) CheckBudget(limit int64) error {
	if limit <= 0 {
		return nil
	}
	if f := m.Footprint(); f > limit {
		return fmt.Errorf("the launch's buffers need %s, more than the memory limit of %s", byteCount(f), byteCount(limit))
	}
	return nil
}

// byteCount writes n bytes, with a binary-prefixed form from 1 KiB up.
func byteCount(n int64) string {
	if n < 1<<10 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d bytes (%s)", n, human(n))
}

// DefaultMemLimit is the memory budget of a launch when none is given:
// half of the machine's memory, that is of MemTotal in /proc/meminfo or of
// the cgroup's memory.max when that is lower, rounded down to a MiB; 4 GiB
// when neither can be read.
func DefaultMemLimit() int64 {
	total := meminfoTotal()
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			total = n
		}
	}
	if total <= 0 {
		return 4 << 30
	}
	return max(total/2&^(1<<20-1), 1<<20)
}

// meminfoTotal returns MemTotal from /proc/meminfo in bytes, or 0.
func meminfoTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil || kb <= 0 || kb > 1<<53 {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// ByteSize is a size in bytes; as a flag.Value it accepts an integer with
// an optional suffix K, M, G, T (powers of 1000) or Ki, Mi, Gi, Ti (powers
// of 1024), optionally followed by B.
type ByteSize int64

var byteSuffixes = []struct {
	s string
	n int64
}{
	{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40},
	{"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12},
}

// ParseByteSize parses a size such as 512M, 2Gi or 4096.
func ParseByteSize(s string) (ByteSize, error) {
	num := strings.TrimSuffix(strings.TrimSpace(s), "B")
	mult := int64(1)
	for _, x := range byteSuffixes {
		if n, ok := strings.CutSuffix(num, x.s); ok {
			num, mult = n, x.n
			break
		}
	}
	v, err := strconv.ParseInt(num, 10, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("%q is not a size in bytes (an integer, optionally with K, M, G, T, Ki, Mi, Gi or Ti)", s)
	}
	if v > (1<<63-1)/mult {
		return 0, fmt.Errorf("%q exceeds 2^63-1 bytes", s)
	}
	return ByteSize(v * mult), nil
}

// Set implements flag.Value.
func (b *ByteSize) Set(s string) error {
	v, err := ParseByteSize(s)
	if err != nil {
		return err
	}
	*b = v
	return nil
}

// String formats the size in the largest binary unit that divides it.
func (b ByteSize) String() string {
	for _, x := range []struct {
		s string
		n int64
	}{{"Ti", 1 << 40}, {"Gi", 1 << 30}, {"Mi", 1 << 20}, {"Ki", 1 << 10}} {
		if b != 0 && int64(b)%x.n == 0 {
			return strconv.FormatInt(int64(b)/x.n, 10) + x.s
		}
	}
	return strconv.FormatInt(int64(b), 10)
}

// human formats n bytes in the largest binary unit not above it, to four
// digits: "1.5 GiB".
func human(n int64) string {
	units := []string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	f, u := float64(n), 0
	for f >= 1024 && u < len(units)-1 {
		f, u = f/1024, u+1
	}
	if u == 0 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%.4g %s", f, units[u])
}
