package manifest

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/loader"
)

// runPlaces runs places.cl (64 work-items) for target with the given
// arguments and returns every buffer's final contents.
func runPlaces(t *testing.T, target, args string) ([][]byte, error) {
	t.Helper()
	return runManifest(t, target, `{"grid":[64],"block":[64],"args":[`+args+`]}`)
}

// runManifest runs manifest js on places.cl for target.
func runManifest(t *testing.T, target, js string) ([][]byte, error) {
	t.Helper()
	m, err := Parse([]byte(js), ".")
	if err != nil {
		return nil, err
	}
	co, err := loader.Load(filepath.Join(clDir, target, "places.co"), loader.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer co.Close()
	l, err := m.Launch(co, nil)
	if err != nil {
		return nil, err
	}
	res, err := emu.RunGrid(context.Background(), l, emu.GridConfig{Config: emu.DefaultConfig(l.Target), Workers: 1})
	if err != nil {
		return nil, err
	}
	if len(res.Faults) > 0 {
		t.Fatal(res.Faults[0])
	}
	return res.Buffers, nil
}

// The arguments of places.cl: dst points 512 bytes into buf, src is an
// alias of buf, the table holds b's address and buf's plus 256, opt is b.
const (
	placesBuf   = `{"name":"buf","kind":"buffer","type":"uint","size":1024,"fill":"iota","offset":512}`
	placesSrc   = `{"name":"src","kind":"buffer","buffer":"buf"}`
	placesTable = `{"name":"table","kind":"buffer","type":"ulong","size":16,"pointers":[{"at":0,"to":"b"},{"at":8,"to":"buf","offset":256}]}`
	placesB     = `{"name":"b","kind":"buffer","type":"uint","size":256,"fill":"iota:0:3"}`
	placesSeen  = `{"name":"seen","kind":"buffer","type":"ulong","size":48}`
)

// TestBufferPlacement: offsets into buffers, aliases, null pointers, fixed
// addresses and buffers holding other buffers' addresses, run through
// places.cl and compared with hand-computed results: dst[i] = src[i] +
// p[i]*1000 + (opt ? opt[i]*10^6 : 7), p = table[i&1]; work-item 0 writes
// back every pointer it got.
func TestBufferPlacement(t *testing.T) {
	u32 := func(b []byte, i int) uint64 { return uint64(binary.LittleEndian.Uint32(b[4*i:])) }
	u64 := func(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }
	tests := []struct {
		name string
		args string
		// p and opt give element i of what table[i&1] and opt point to,
		// read from the initial contents (buf is iota, b is 3i).
		p, opt func(i int) uint64
		null   bool
		fixed  [3]uint64 // buf, table, b when fixed
	}{
		{name: "offset alias pointers", args: strings.Join([]string{placesBuf, placesSrc, placesTable, placesB, placesSeen}, ","),
			p: func(i int) uint64 { return map[bool]uint64{true: uint64(3 * i), false: uint64(64 + i)}[i%2 == 0] }},
		{name: "null and a pointer via an alias",
			args: strings.Join([]string{placesBuf, placesSrc,
				`{"name":"table","kind":"buffer","type":"ulong","size":16,"pointers":[{"at":0,"to":"src","offset":768},{"at":8,"to":"buf","offset":256}]}`,
				`{"kind":"null"}`, placesSeen}, ","),
			p: func(i int) uint64 { return map[bool]uint64{true: uint64(192 + i), false: uint64(64 + i)}[i%2 == 0] }, null: true},
		{name: "fixed addresses",
			args: strings.Join([]string{
				strings.Replace(placesBuf, `"offset":512`, `"offset":512,"address":"0x40000000"`, 1), placesSrc,
				strings.Replace(placesTable, `"size":16`, `"size":16,"address":"0x50000000"`, 1),
				strings.Replace(placesB, `"size":256`, `"size":256,"address":"0x40000400"`, 1), placesSeen}, ","),
			p:     func(i int) uint64 { return map[bool]uint64{true: uint64(3 * i), false: uint64(64 + i)}[i%2 == 0] },
			fixed: [3]uint64{0x40000000, 0x50000000, 0x40000400}},
	}
	for _, tt := range tests {
		for _, target := range []string{"gfx900", "gfx803"} {
			t.Run(tt.name+"/"+target, func(t *testing.T) {
				bufs, err := runPlaces(t, target, tt.args)
				if err != nil {
					t.Fatal(err)
				}
				buf, seen := bufs[0], bufs[4]
				for k := range 256 {
					want := uint64(k)
					if i := k - 128; i >= 0 && i < 64 {
						opt := uint64(7)
						if !tt.null {
							opt = uint64(3*i) * 1000000
						}
						want = uint64(uint32(uint64(i) + tt.p(i)*1000 + opt))
					}
					if got := u32(buf, k); got != want {
						t.Fatalf("buf[%d] = %d, want %d", k, got, want)
					}
				}
				base := u64(seen, 1)
				if u64(seen, 0) != base+512 || u64(seen, 5) != base+256 {
					t.Errorf("dst %#x, src %#x, table[1] %#x: want src+512 and src+256", u64(seen, 0), base, u64(seen, 5))
				}
				if tt.null {
					if u64(seen, 3) != 0 || u64(seen, 4) != base+768 {
						t.Errorf("opt %#x, table[0] %#x: want null and src+768", u64(seen, 3), u64(seen, 4))
					}
				} else if u64(seen, 3) != u64(seen, 4) || u64(seen, 3) == 0 {
					t.Errorf("opt %#x, table[0] %#x: want b's address twice", u64(seen, 3), u64(seen, 4))
				}
				if f := tt.fixed; f[0] != 0 && (base != f[0] || u64(seen, 2) != f[1] || u64(seen, 3) != f[2]) {
					t.Errorf("buf %#x, table %#x, b %#x: want the fixed %#x, %#x, %#x", base, u64(seen, 2), u64(seen, 3), f[0], f[1], f[2])
				}
			})
		}
	}
}

// TestBufferPlacementErrors: a placement that cannot be made is refused,
// naming the argument.
func TestBufferPlacementErrors(t *testing.T) {
	at := func(s, addr string) string {
		return strings.Replace(s, `"type"`, `"address":"`+addr+`","type"`, 1)
	}
	rest := placesSrc + "," + placesTable + "," + placesB + "," + placesSeen
	tests := []struct{ name, args, err string }{
		{"overlap", at(placesBuf, "0x40000000") + "," + placesSrc + "," + placesTable + "," + at(placesB, "0x40000300") + "," + placesSeen,
			`argument 3 (b) at 0x40000300 overlaps argument 0 (buf) at 0x40000000..0x40000400`},
		{"address 0", at(placesBuf, "0") + "," + rest, `argument 0 (buf): address 0 is the null pointer`},
		{"first page", at(placesBuf, "0x100") + "," + rest, `argument 0 (buf): address 0x100 is in the first page`},
		{"misaligned", at(placesBuf, "0x40000010") + "," + rest, `argument 0 (buf): address 0x40000010 is not a multiple of 256`},
		{"beyond 48 bits", at(placesBuf, "0xffffffffff00") + "," + rest, `pass the 48-bit address space`},
		{"on the code", at(placesBuf, "0x1800") + "," + rest, `emu: argument 0: fixed address 0x1800: emu: map "arg0": 0x1800+0x400 overlaps an allocation`},
		{"unknown alias", placesBuf + `,{"name":"src","kind":"buffer","buffer":"nope"},` + placesTable + "," + placesB + "," + placesSeen,
			`argument 1 (src): no argument is named "nope"`},
		{"alias of an alias", placesBuf + `,{"name":"src","kind":"buffer","buffer":"src"},` + placesTable + "," + placesB + "," + placesSeen,
			`argument 1 (src): argument 1 ("src") is not a buffer of its own`},
		{"alias offset", placesBuf + `,{"name":"src","kind":"buffer","buffer":"buf","offset":1028},` + placesTable + "," + placesB + "," + placesSeen,
			`argument 1 (src): offset 1028 is outside buffer "buf"'s 1024 bytes`},
		{"alias with a size", placesBuf + `,{"name":"src","kind":"buffer","buffer":"buf","size":4},` + placesTable + "," + placesB + "," + placesSeen,
			`an alias of buffer "buf" takes only a name, a type and an offset`},
		{"pointer misaligned", placesBuf + "," + placesSrc + `,{"name":"table","kind":"buffer","type":"ulong","size":16,"pointers":[{"at":4,"to":"b"}]},` + placesB + "," + placesSeen,
			`argument 2 (table): pointer 0 to "b": at 4 is not an 8-byte aligned place`},
		{"pointer to nothing", placesBuf + "," + placesSrc + `,{"name":"table","kind":"buffer","type":"ulong","size":16,"pointers":[{"at":0,"to":"c"}]},` + placesB + "," + placesSeen,
			`argument 2 (table): pointer 0: no argument is named "c"`},
		{"offset beyond", strings.Replace(placesBuf, `"offset":512`, `"offset":1025`, 1) + "," + rest, `argument 0 (buf): offset 1025 is outside the buffer's 1024 bytes`},
		{"null with a size", placesBuf + "," + placesSrc + "," + placesTable + `,{"kind":"null","size":4},` + placesSeen, `a null pointer takes only a name`},
		{"offset on a scalar", placesBuf + "," + placesSrc + "," + placesTable + `,{"kind":"scalar","type":"int","value":1,"offset":4},` + placesSeen,
			`buffer, offset, address and pointers are for buffer arguments`},
		{"duplicate names", placesBuf + `,{"name":"buf","kind":"buffer","buffer":"buf"},` + placesTable + "," + placesB + "," + placesSeen,
			`buffer "buf": arguments 0 and 1 have that name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runPlaces(t, "gfx900", tt.args)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("error %v, want %q", err, tt.err)
			}
		})
	}
}

// TestDocExampleRuns: the placement example of the package documentation
// parses and runs places.cl, with buf at its fixed address.
func TestDocExampleRuns(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, ex, _ := strings.Cut(string(doc), "An example of each placement:\n")
	var js strings.Builder
	for _, line := range strings.Split(ex, "\n") {
		if !strings.HasPrefix(line, "//\t") {
			if js.Len() > 0 {
				break
			}
			continue
		}
		js.WriteString(strings.TrimPrefix(line, "//\t"))
	}
	m, err := Parse([]byte(js.String()), ".")
	if err != nil {
		t.Fatalf("the example does not parse: %v\n%s", err, js.String())
	}
	if m.Version != 2 || m.Grid.String() != "48" {
		t.Fatalf("version %d, grid %s: not the example", m.Version, m.Grid)
	}
	bufs, err := runManifest(t, "gfx900", js.String())
	if err != nil {
		t.Fatal(err)
	}
	if got := binary.LittleEndian.Uint64(bufs[4][8:]); got != 0x40000000 {
		t.Errorf("src is %#x, want buf's fixed address 0x40000000", got)
	}
}
