//go:build unix

package manifest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// endlessFIFO makes a FIFO in a temporary directory that a goroutine feeds
// with bytes until its reader closes it.
func endlessFIFO(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		buf := make([]byte, 64<<10)
		for {
			if _, err := f.Write(buf); err != nil {
				return // the reader closed: EPIPE
			}
		}
	}()
	t.Cleanup(func() {
		// Unblock a writer still waiting for a reader, then wait for it.
		if r, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			r.Close()
		}
		<-done
	})
	return p
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestManifestFromDevZeroRefused: a manifest or a buffer's input that is an
// endless stream (/dev/zero, a FIFO) or a huge file is refused after
// reading at most its bound, with an error naming the file and the bound.
func TestManifestFromDevZeroRefused(t *testing.T) {
	huge := filepath.Join(t.TempDir(), "huge.json")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<40); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	for _, c := range []struct{ name, path string }{
		{"dev-zero", "/dev/zero"},
		{"fifo", endlessFIFO(t)},
		{"huge-file", huge},
	} {
		t.Run("manifest/"+c.name, func(t *testing.T) {
			var err error
			n := allocated(func() { _, err = Load(c.path) })
			if err == nil || !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), "larger than 16777216 bytes") {
				t.Errorf("Load(%s) = %v, want a refusal naming the file and the 16 MiB limit", c.path, err)
			}
			if n > 8*MaxManifest {
				t.Errorf("Load(%s) allocated %d bytes, want at most %d", c.path, n, 8*MaxManifest)
			}
		})
	}
	for _, c := range []struct{ name, path string }{
		{"dev-zero", "/dev/zero"},
		{"fifo", endlessFIFO(t)},
		{"huge-file", huge},
	} {
		t.Run("input/"+c.name, func(t *testing.T) {
			m := &Manifest{Kernel: "k", Grid: Dim{[3]uint64{64}, 1}, Block: Dim{[3]uint64{64}, 1},
				Args: []Arg{{Name: "src", Kind: Buffer, Type: Int, Size: 4096, Input: c.path}}}
			var err error
			n := allocated(func() { _, err = m.Inputs() })
			want := []string{"argument 0 (src)", "input " + c.path, "holds more than the buffer's declared 4096 bytes"}
			for _, w := range want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("Inputs with %s = %v, want it to mention %q", c.path, err, w)
				}
			}
			if n > 1<<20 {
				t.Errorf("Inputs with %s allocated %d bytes, want at most 1 MiB", c.path, n)
			}
		})
	}
}

// TestBufferInputFromFIFOExactSize: a stream of exactly the declared size
// is read (the bound only refuses more).
func TestBufferInputFromFIFOExactSize(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	go func() {
		if f, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
			f.Write([]byte{1, 2, 3, 4, 5, 6, 7, 8})
			f.Close()
		}
	}()
	a := Arg{Kind: Buffer, Type: Int, Size: 8, Input: p}
	b, err := a.Bytes("")
	if err != nil || len(b) != 8 || b[7] != 8 {
		t.Errorf("Bytes from a FIFO of 8 bytes = %v, %v", b, err)
	}
}
