package tui

import (
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/samples"
)

// TestMemAcceptsManifestBufferNames: :mem (and x, print) know a buffer by
// the manifest's name as well as by the code object metadata's.
func TestMemAcceptsManifestBufferNames(t *testing.T) {
	s, _ := samples.Lookup("vector_add")
	mf, err := s.RunManifest()
	if err != nil {
		t.Fatal(err)
	}
	mf.Args[2].Name = "result" // the metadata calls it c
	d, err := Open(s.CodeObject, Launch{Manifest: mf})
	if err != nil {
		t.Fatal(err)
	}
	m := New(d, Options{Color: ColorPlain})
	var c Buffer
	for _, b := range d.Buffers() {
		if b.Name == "c" {
			c = b
		}
	}
	for _, name := range []string{"result", "c"} {
		m.mem.base = 0
		if m.execCommand("mem " + name); m.msgErr || m.mem.base != c.Addr {
			t.Errorf(":mem %s → base %#x (%q), want %#x", name, m.mem.base, m.msg, c.Addr)
		}
	}
	runScript(t, m, []gdbStep{{"p/x result", "= 0x100000400"}, {"x/1x result", "0x100000400:"}})
}

// TestStatusClearsWhenNextCommandSucceeds: an error stays on the status
// line only until the next command succeeds.
func TestStatusClearsWhenNextCommandSucceeds(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	runScript(t, m, []gdbStep{{"bogus", "unknown command"}})
	runScript(t, m, []gdbStep{{"goto .Lloop", ""}})
	if m.msg != "" || m.msgErr {
		t.Errorf("status after a command that succeeded: %q", m.msg)
	}
	if s := m.statusLine(); strings.Contains(s, "unknown") {
		t.Errorf("status line still says %q", s)
	}
}
