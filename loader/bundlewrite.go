package loader

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// BundleInput is one entry for WriteBundle: an entry ID and its bytes
// (empty for the host entry).
type BundleInput struct {
	ID   string
	Data []byte
}

// bundleAlign is where clang-offload-bundler places code objects.
const bundleAlign = 4096

// WriteBundle builds an uncompressed offload bundle holding entries, with
// each non-empty entry 4096-aligned as clang-offload-bundler writes them.
// Tests and testdata/build.sh use it; Debian ships no bundler.
func WriteBundle(entries []BundleInput) []byte {
	var hdr bytes.Buffer
	hdr.WriteString(bundleMagic)
	put64 := func(v uint64) { hdr.Write(le.AppendUint64(nil, v)) }
	put64(uint64(len(entries)))
	size := uint64(len(bundleMagic) + 8)
	for _, e := range entries {
		size += 24 + uint64(len(e.ID))
	}
	at := alignUp(size, bundleAlign)
	offs := make([]uint64, len(entries))
	for i, e := range entries {
		offs[i] = at
		if len(e.Data) > 0 {
			at = alignUp(at+uint64(len(e.Data)), bundleAlign)
		}
	}
	for i, e := range entries {
		put64(offs[i])
		put64(uint64(len(e.Data)))
		put64(uint64(len(e.ID)))
		hdr.WriteString(e.ID)
	}
	out := make([]byte, 0, at)
	out = append(out, hdr.Bytes()...)
	for i, e := range entries {
		if len(e.Data) == 0 {
			continue
		}
		out = append(out, make([]byte, int(offs[i])-len(out))...)
		out = append(out, e.Data...)
	}
	return out
}

// CompressBundle wraps a bundle in a CCOB header of the given version
// (1, 2 or 3) compressed with method "zlib" or "zstd". The hash field is
// the first 8 bytes of the MD5 of the uncompressed bundle, read
// little-endian (what clang writes; the reader does not check it).
func CompressBundle(bundle []byte, method string, version int) ([]byte, error) {
	var comp []byte
	var m uint16
	switch method {
	case "zlib":
		var b bytes.Buffer
		w, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
		w.Write(bundle)
		w.Close()
		comp = b.Bytes()
	case "zstd":
		m = 1
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		comp = enc.EncodeAll(bundle, nil)
		enc.Close()
	default:
		return nil, fmt.Errorf("loader: unknown compression method %q", method)
	}
	sum := md5.Sum(bundle)
	hash := le.Uint64(sum[:8])
	out := append([]byte(compressedMagic), 0, 0, 0, 0)
	le.PutUint16(out[4:], uint16(version))
	le.PutUint16(out[6:], m)
	switch version {
	case 1:
		out = le.AppendUint32(out, uint32(len(bundle)))
	case 2:
		out = le.AppendUint32(out, uint32(24+len(comp)))
		out = le.AppendUint32(out, uint32(len(bundle)))
	case 3:
		out = le.AppendUint64(out, uint64(32+len(comp)))
		out = le.AppendUint64(out, uint64(len(bundle)))
	default:
		return nil, fmt.Errorf("loader: unknown CCOB version %d", version)
	}
	out = le.AppendUint64(out, hash)
	return append(out, comp...), nil
}
