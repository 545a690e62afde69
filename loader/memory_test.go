package loader

import (
	"bytes"
	"io"
	"runtime"
	"testing"
)

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestMemoryBounded: inputs whose headers claim huge sizes make the reader
// allocate no more than a small multiple of their real size.
func TestMemoryBounded(t *testing.T) {
	good := mustRead(t, "testdata/co/vadd-gfx900-v4.co")
	shoff := le.Uint64(good[40:])
	plain := WriteBundle([]BundleInput{{ID: "hipv4-amdgcn-amd-amdhsa--gfx900", Data: good}})
	zst, _ := CompressBundle(plain, "zstd", 3)
	huge := func(b []byte) []byte { // every section claims 2^62 bytes
		for i := 1; i < int(le.Uint16(b[60:])); i++ {
			le.PutUint64(b[shoff+uint64(i)*shdrSize+32:], 1<<62)
		}
		return b
	}
	tests := []struct {
		name string
		data []byte
		fn   func(io.ReaderAt, []byte)
	}{
		{"sections claim 2^62 bytes (size known)", mutate(good, huge), func(r io.ReaderAt, _ []byte) {
			NewFile(r)
		}},
		{"sections claim 2^62 bytes (size unknown)", mutate(good, huge), func(r io.ReaderAt, _ []byte) {
			f, err := newFile(r, -1, "")
			if err == nil {
				for _, s := range f.Sections {
					s.Data()
				}
				f.Metadata()
				f.Kernels()
			}
		}},
		{"2^16 program headers", mutate(good, func(b []byte) []byte { le.PutUint16(b[56:], 0xffff); return b }), func(r io.ReaderAt, _ []byte) {
			newFile(r, -1, "")
		}},
		{"bundle with 2^60 entries", mutate(plain, func(b []byte) []byte { le.PutUint64(b[24:], 1<<60); return b }), func(r io.ReaderAt, d []byte) {
			NewContainer(r, int64(len(d)))
		}},
		{"ccob claiming 2^40 bytes", mutate(zst, func(b []byte) []byte { le.PutUint64(b[16:], 1<<40); return b }), func(r io.ReaderAt, d []byte) {
			NewContainer(r, int64(len(d)))
		}},
		{"metadata array of 2^32 maps", append([]byte{0x81, 0xae}, append([]byte("amdhsa.kernels"), 0xdd, 0xff, 0xff, 0xff, 0xff, 0x80)...), func(_ io.ReaderAt, d []byte) {
			DecodeMetadataMsgpack(d, 0)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A plain ReaderAt, without Size, so the reader cannot know
			// the file size in the "unknown" cases.
			r := struct{ io.ReaderAt }{bytes.NewReader(tt.data)}
			n := allocated(func() { tt.fn(r, tt.data) })
			limit := uint64(64*len(tt.data)) + 4<<20
			if n > limit {
				t.Errorf("allocated %d bytes for a %d-byte input (limit %d)", n, len(tt.data), limit)
			}
		})
	}
}
