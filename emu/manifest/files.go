package manifest

// This file reads a manifest and its buffers' input files, each through a
// bound that the manifest declares, so that a huge file or an endless
// stream (/dev/zero, a FIFO) is refused instead of read until memory runs
// out, and writes files atomically.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// MaxManifest is the largest manifest file Load reads, in bytes (16 MiB:
// some hundred thousand arguments). A longer file or stream is refused
// after reading at most MaxManifest+1 bytes.
const MaxManifest = 16 << 20

// Load reads and validates a manifest file. It reads at most MaxManifest
// bytes, so a huge file or an endless stream is refused, not read whole.
func Load(path string) (*Manifest, error) {
	data, err := readBounded(path, MaxManifest)
	if err != nil {
		return nil, err
	}
	m, err := Parse(data, filepath.Dir(path))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// readBounded reads the file at path, refusing one of more than limit
// bytes: a regular file by its size, before reading, and anything else
// (a device, a pipe) once limit+1 bytes have arrived.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooBig := fmt.Errorf("%s: the manifest is larger than %d bytes (the limit for a manifest file)", path, limit)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, tooBig
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, tooBig
	}
	return data, nil
}

// readInput reads a buffer's input file (relative to dir): exactly a.Size
// bytes. It reads at most one byte more than the declared size, to tell a
// longer file or an endless stream, which it refuses; a regular file of
// another size is refused before reading.
func (a *Arg) readInput(dir string) ([]byte, error) {
	p := a.Input
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooBig := fmt.Errorf("input %s holds more than the buffer's declared %d bytes", p, a.Size)
	short := func(n int64) error {
		return fmt.Errorf("input %s holds %d bytes, not the buffer's declared %d", p, n, a.Size)
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		switch {
		case fi.Size() > a.Size:
			return nil, tooBig
		case fi.Size() < a.Size:
			return nil, short(fi.Size())
		}
	}
	if a.Size < 0 || a.Size > MaxBuffer {
		return nil, fmt.Errorf("input %s: buffer size %d is not in 0..%d", p, a.Size, MaxBuffer)
	}
	b := make([]byte, a.Size)
	n, err := io.ReadFull(f, b)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, short(int64(n))
	}
	if err != nil {
		return nil, fmt.Errorf("input %s: %w", p, err)
	}
	var probe [1]byte
	if n, _ := f.Read(probe[:]); n > 0 {
		return nil, tooBig
	}
	return b, nil
}

// Inputs returns every buffer's initial contents, in argument order (nil for
// other kinds and aliases). It allocates the buffers' declared sizes; call CheckBudget
// first to bound their total.
func (m *Manifest) Inputs() ([][]byte, error) {
	out := make([][]byte, len(m.Args))
	errs := make([]error, len(m.Args))
	var wg sync.WaitGroup
	for i := range m.Args {
		if !m.Args[i].owns() {
			continue
		}
		// Buffers are independent: each is read or generated (and its
		// pages faulted in) on a goroutine of its own.
		wg.Go(func() { out[i], errs[i] = m.Args[i].Bytes(m.Dir) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("argument %d (%s): %w", i, m.Args[i].label(), err)
		}
	}
	return out, nil
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory and a rename, so readers never see a partial file.
func WriteFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
