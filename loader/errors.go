package loader

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// A FormatError reports a structural problem in a file: which structure was
// being read, at which byte offset, and what was wrong with it.
type FormatError struct {
	File   string // file name, when known (set by Open and Load)
	Struct string // the structure being read, e.g. "section header 3"
	Off    int64  // byte offset of the structure (or field) in the file; -1 if it has none (an address)
	Msg    string
}

func (e *FormatError) Error() string {
	s := "loader: "
	if e.File != "" {
		s += e.File + ": "
	}
	if e.Off < 0 {
		return fmt.Sprintf("%s%s: %s", s, e.Struct, e.Msg)
	}
	return fmt.Sprintf("%s%s at offset %#x: %s", s, e.Struct, e.Off, e.Msg)
}

func formatErr(structure string, off int64, format string, args ...any) *FormatError {
	return &FormatError{Struct: structure, Off: off, Msg: fmt.Sprintf(format, args...)}
}

// nameErr attaches a file name to err: a *FormatError gets its File field
// set (unless already set), any other error is wrapped.
func nameErr(err error, name string) error {
	if err == nil || name == "" {
		return err
	}
	var fe *FormatError
	if errors.As(err, &fe) {
		if fe.File == "" {
			fe.File = name
		}
		return err
	}
	return fmt.Errorf("loader: %s: %w", name, err)
}

// chunk is the largest single allocation made for a read whose size comes
// from the file; larger reads grow in steps so a lying header cannot make
// us allocate more than the file actually holds.
const chunk = 1 << 20

// readAt reads n bytes at off from r. size is the size of r's data, or -1
// when unknown. Reads are bounds-checked against size and made in chunks.
func readAt(r io.ReaderAt, size int64, off int64, n uint64, structure string) ([]byte, error) {
	if off < 0 {
		return nil, formatErr(structure, off, "negative offset")
	}
	if n > 1<<62 || (size >= 0 && (uint64(off) > uint64(size) || n > uint64(size)-uint64(off))) {
		return nil, formatErr(structure, off, "%d bytes at offset %#x run past the end of the file (%d bytes)", n, off, size)
	}
	if n <= chunk {
		buf := make([]byte, n)
		if k, err := r.ReadAt(buf, off); k < len(buf) {
			return nil, readErr(err, structure, off+int64(k))
		}
		return buf, nil
	}
	var buf []byte
	for got := uint64(0); got < n; {
		step := min(n-got, chunk)
		buf = append(buf, make([]byte, step)...)
		k, err := r.ReadAt(buf[got:got+step], off+int64(got))
		if uint64(k) < step {
			return nil, readErr(err, structure, off+int64(got)+int64(k))
		}
		got += step
	}
	return buf, nil
}

func readErr(err error, structure string, off int64) error {
	if err == nil || err == io.EOF || err == io.ErrUnexpectedEOF {
		return formatErr(structure, off, "unexpected end of file")
	}
	return fmt.Errorf("loader: reading %s at offset %#x: %w", structure, off, err)
}

// sizeOf returns the size of r's data when r can tell, else -1.
func sizeOf(r io.ReaderAt) int64 {
	switch v := r.(type) {
	case interface{ Size() int64 }:
		return v.Size()
	case *os.File:
		if st, err := v.Stat(); err == nil {
			return st.Size()
		}
	}
	return -1
}
