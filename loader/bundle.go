package loader

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// Offload bundles (clang-offload-bundler's format), compressed bundles
// ("CCOB", versions 1 to 3, zlib or zstd) and host ELF files that carry
// bundles in a .hip_fatbin section.

const (
	bundleMagic     = "__CLANG_OFFLOAD_BUNDLE__"
	compressedMagic = "CCOB"
	fatbinSection   = ".hip_fatbin"
	// maxDecompressRatio bounds a compressed bundle's declared size by its
	// compressed size, so a forged header cannot make us allocate without
	// limit. Real bundles compress by well under 50×.
	maxDecompressRatio = 256
)

// ContainerKind says what kind of file holds the code objects.
type ContainerKind int

const (
	KindCodeObject       ContainerKind = iota // a plain AMDGPU ELF
	KindBundle                                // __CLANG_OFFLOAD_BUNDLE__
	KindCompressedBundle                      // CCOB
	KindFatBinary                             // host ELF with .hip_fatbin
)

func (k ContainerKind) String() string {
	switch k {
	case KindCodeObject:
		return "code object"
	case KindBundle:
		return "offload bundle"
	case KindCompressedBundle:
		return "compressed offload bundle"
	case KindFatBinary:
		return "host ELF with " + fatbinSection
	}
	return fmt.Sprintf("ContainerKind(%d)", int(k))
}

// BundleEntry is one code object in a container.
type BundleEntry struct {
	ID       string // bundle entry ID, "hipv4-amdgcn-amd-amdhsa--gfx900:xnack-"
	Kind     string // offload kind: "hipv4", "hip", "openmp", "host"; "" for a plain code object
	Triple   string // "amdgcn-amd-amdhsa-" (four components, the last may be empty)
	TargetID string // "gfx900:xnack-"; "" for host entries

	Bundle       int    // index of the bundle in the file (fat binaries hold many)
	BundleOffset int64  // file offset of the bundle (of the CCOB header when compressed)
	Offset       int64  // offset of the code object in its (decompressed) bundle
	Size         int64  // size of the code object
	Compression  string `json:",omitempty"` // "zlib" or "zstd" for compressed bundles

	r io.ReaderAt // the code object's bytes
}

// Processor is the processor named by the entry's target ID ("gfx900").
func (e *BundleEntry) Processor() string {
	p, _, _ := strings.Cut(e.TargetID, ":")
	return p
}

// IsAMDGPU reports whether the entry holds an AMDGPU code object.
func (e *BundleEntry) IsAMDGPU() bool {
	return strings.HasPrefix(e.Triple, "amdgcn-") && e.Size > 0
}

// Reader returns the entry's code object bytes.
func (e *BundleEntry) Reader() *io.SectionReader { return io.NewSectionReader(e.r, 0, e.Size) }

// Open parses the entry's code object.
func (e *BundleEntry) Open() (*File, error) {
	if e.r == nil || e.Size == 0 {
		return nil, fmt.Errorf("loader: bundle entry %s holds no code object", e.ID)
	}
	return newFile(e.Reader(), e.Size, "")
}

// A Container is a file that holds code objects: a plain code object, a
// bundle, a compressed bundle or a host ELF with a .hip_fatbin section.
type Container struct {
	Name    string
	Kind    ContainerKind
	Bundles int // number of bundles found
	Entries []BundleEntry

	closer io.Closer
	names  map[*BundleEntry][]string // KernelNames' memory
}

// Close closes the file opened by OpenContainer.
func (c *Container) Close() error {
	if c.closer == nil {
		return nil
	}
	err := c.closer.Close()
	c.closer = nil
	return err
}

// OpenContainer opens a file of any supported kind and lists its code
// objects. Errors name the file.
func OpenContainer(path string) (*Container, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	c, err := NewContainer(fh, st.Size())
	if err != nil {
		fh.Close()
		return nil, nameErr(err, path)
	}
	c.Name, c.closer = path, fh
	return c, nil
}

// NewContainer lists the code objects in the size bytes of r.
func NewContainer(r io.ReaderAt, size int64) (*Container, error) {
	var magic [24]byte
	n, _ := r.ReadAt(magic[:], 0)
	head := string(magic[:n])
	c := &Container{}
	switch {
	case strings.HasPrefix(head, bundleMagic):
		c.Kind, c.Bundles = KindBundle, 1
		es, _, err := readBundle(r, 0, size, 0)
		c.Entries = es
		return c, err
	case strings.HasPrefix(head, compressedMagic):
		c.Kind, c.Bundles = KindCompressedBundle, 1
		es, _, err := readCompressed(r, 0, size, 0)
		c.Entries = es
		return c, err
	case strings.HasPrefix(head, "\x7fELF"):
	default:
		return nil, formatErr("file", 0, "not an ELF file, offload bundle or compressed bundle (starts %q)", head[:min(n, 8)])
	}
	f, err := newFile(io.NewSectionReader(r, 0, size), size, "")
	if err != nil {
		return nil, err
	}
	if f.Machine == EM_AMDGPU {
		c.Kind = KindCodeObject
		e := BundleEntry{Triple: "amdgcn-amd-amdhsa-", Size: size, r: r}
		if t, err := f.Target(); err == nil {
			e.TargetID = t.ID()
		}
		e.ID = e.Triple + "-" + e.TargetID
		c.Bundles = 0
		c.Entries = []BundleEntry{e}
		return c, nil
	}
	sec := f.Section(fatbinSection)
	if sec == nil || sec.Type == SHT_NOBITS {
		return nil, formatErr("ELF header", 18, "a %v file without a %s section holds no AMDGPU code", f.Machine, fatbinSection)
	}
	c.Kind = KindFatBinary
	err = c.scanFatbin(r, int64(sec.Offset), int64(sec.Size))
	return c, err
}

// scanFatbin reads the bundles in [off, off+size): each starts where the
// previous one ended, rounded up to 4096 bytes; padding or anything else
// between them is skipped by searching for the next magic.
func (c *Container) scanFatbin(r io.ReaderAt, off, size int64) error {
	end := off + size
	for pos := off; pos < end; {
		start, kind, err := findMagic(r, off, pos, end)
		if err != nil || start < 0 {
			return err
		}
		var es []BundleEntry
		var next int64
		if kind == KindBundle {
			es, next, err = readBundle(r, start, end-start, c.Bundles)
		} else {
			es, next, err = readCompressed(r, start, end-start, c.Bundles)
		}
		c.Entries = append(c.Entries, es...)
		c.Bundles++
		if err != nil {
			return err
		}
		if next <= start { // never loop on a bundle that claims no size
			next = start + 1
		}
		pos = next
	}
	return nil
}

// findMagic returns the offset of the next bundle magic in [pos, end), or
// -1. It tries pos and the next offset 4096-aligned from base first, then
// scans in chunks.
func findMagic(r io.ReaderAt, base, pos, end int64) (int64, ContainerKind, error) {
	probe := func(at int64) (ContainerKind, bool) {
		var b [24]byte
		if at+4 > end {
			return 0, false
		}
		n, _ := r.ReadAt(b[:min(int64(24), end-at)], at)
		switch s := string(b[:n]); {
		case strings.HasPrefix(s, bundleMagic):
			return KindBundle, true
		case strings.HasPrefix(s, compressedMagic):
			return KindCompressedBundle, true
		}
		return 0, false
	}
	if k, ok := probe(pos); ok {
		return pos, k, nil
	}
	if a := base + (pos-base+4095)&^4095; a < end {
		if k, ok := probe(a); ok {
			return a, k, nil
		}
	}
	buf := make([]byte, 1<<16+len(bundleMagic))
	for at := pos; at < end; at += 1 << 16 { // chunks overlap by a magic's length
		n, err := r.ReadAt(buf[:min(int64(len(buf)), end-at)], at)
		if n == 0 && err != nil {
			return -1, 0, readErr(err, fatbinSection+" section", at)
		}
		b := buf[:n]
		i, j := bytes.Index(b, []byte(bundleMagic)), bytes.Index(b, []byte(compressedMagic))
		switch {
		case i >= 0 && (j < 0 || i < j):
			return at + int64(i), KindBundle, nil
		case j >= 0:
			return at + int64(j), KindCompressedBundle, nil
		}
	}
	return -1, 0, nil
}

// readBundle parses the uncompressed bundle at off in r (at most avail
// bytes long) and returns its entries and the offset just past it.
func readBundle(r io.ReaderAt, off, avail int64, index int) ([]BundleEntry, int64, error) {
	const st = "offload bundle header"
	h, err := readAt(r, -1, off, 32, st)
	if err != nil || avail < 32 {
		return nil, off, formatErr(st, off, "truncated bundle header")
	}
	if string(h[:24]) != bundleMagic {
		return nil, off, formatErr(st, off, "bad magic %q", h[:24])
	}
	count := le.Uint64(h[24:])
	if count > uint64(avail-32)/24 {
		return nil, off, formatErr(st, off+24, "%d entries cannot fit in %d bytes", count, avail-32)
	}
	pos := int64(32)
	extent := pos
	var out []BundleEntry
	for i := uint64(0); i < count; i++ {
		est := fmt.Sprintf("offload bundle entry %d", i)
		if pos+24 > avail {
			return out, off, formatErr(est, off+pos, "truncated entry")
		}
		e, err := readAt(r, -1, off+pos, 24, est)
		if err != nil {
			return out, off, err
		}
		eoff, esize, tlen := le.Uint64(e), le.Uint64(e[8:]), le.Uint64(e[16:])
		pos += 24
		if tlen > uint64(avail-pos) || tlen > 4096 {
			return out, off, formatErr(est, off+pos-8, "ID length %d runs past the bundle", tlen)
		}
		id, err := readAt(r, -1, off+pos, tlen, est)
		if err != nil {
			return out, off, err
		}
		pos += int64(tlen)
		if eoff > uint64(avail) || esize > uint64(avail)-eoff {
			return out, off, formatErr(est, off+pos-int64(tlen)-24, "code object [%#x, +%#x) runs past the bundle (%d bytes available)", eoff, esize, avail)
		}
		be := parseBundleID(string(id))
		be.Bundle, be.BundleOffset, be.Offset, be.Size = index, off, int64(eoff), int64(esize)
		be.r = io.NewSectionReader(r, off+int64(eoff), int64(esize))
		out = append(out, be)
		extent = max(extent, int64(eoff+esize))
	}
	return out, off + max(extent, pos), nil
}

// parseBundleID splits "hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+" into kind,
// triple and target ID.
func parseBundleID(id string) BundleEntry {
	e := BundleEntry{ID: id}
	kind, rest, _ := strings.Cut(id, "-")
	e.Kind = kind
	parts := strings.SplitN(rest, "-", 5)
	if len(parts) == 5 {
		e.Triple = strings.Join(parts[:4], "-")
		e.TargetID = parts[4]
	} else {
		e.Triple = rest
	}
	return e
}

// readCompressed decompresses the CCOB bundle at off and parses the bundle
// inside. Entries read from the decompressed bytes.
func readCompressed(r io.ReaderAt, off, avail int64, index int) ([]BundleEntry, int64, error) {
	const st = "compressed bundle header"
	h, err := readAt(r, -1, off, uint64(max(0, min(avail, 32))), st)
	if err != nil {
		return nil, off, err
	}
	if len(h) < 8 || string(h[:4]) != compressedMagic {
		return nil, off, formatErr(st, off, "truncated or bad magic")
	}
	version, method := le.Uint16(h[4:]), le.Uint16(h[6:])
	var hdr int64
	var total, usize uint64
	switch version {
	case 1:
		hdr = 20
	case 2:
		hdr = 24
	case 3:
		hdr = 32
	default:
		return nil, off, formatErr(st, off+4, "unknown compressed bundle version %d", version)
	}
	if int64(len(h)) < hdr {
		return nil, off, formatErr(st, off, "truncated version %d header (%d bytes)", version, len(h))
	}
	switch version {
	case 1:
		usize, total = uint64(le.Uint32(h[8:])), uint64(avail)
	case 2:
		total, usize = uint64(le.Uint32(h[8:])), uint64(le.Uint32(h[12:]))
	case 3:
		total, usize = le.Uint64(h[8:]), le.Uint64(h[16:])
	}
	if total < uint64(hdr) || total > uint64(avail) {
		return nil, off, formatErr(st, off+8, "total size %d outside [%d, %d]", total, hdr, avail)
	}
	csize := int64(total) - hdr
	if usize > uint64(csize)*maxDecompressRatio+4096 {
		return nil, off, formatErr(st, off+8, "uncompressed size %d is implausible for %d compressed bytes", usize, csize)
	}
	var dec io.Reader
	src := io.NewSectionReader(r, off+hdr, csize)
	comp := ""
	switch method {
	case 0:
		comp = "zlib"
		zr, err := zlib.NewReader(src)
		if err != nil {
			return nil, off, formatErr("compressed bundle data", off+hdr, "zlib: %v", err)
		}
		defer zr.Close()
		dec = zr
	case 1:
		comp = "zstd"
		zr, err := zstd.NewReader(src, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(usize+1<<20))
		if err != nil {
			return nil, off, formatErr("compressed bundle data", off+hdr, "zstd: %v", err)
		}
		defer zr.Close()
		dec = zr
	default:
		return nil, off, formatErr(st, off+6, "unknown compression method %d", method)
	}
	var data []byte
	if version == 1 {
		// No total size: the compressed data may be followed by other
		// bundles (in a .hip_fatbin), so read just the declared bytes.
		data, err = readExact(dec, usize)
	} else {
		data, err = readCapped(dec, usize)
	}
	if err != nil {
		return nil, off, formatErr("compressed bundle data", off+hdr, "%s: %v", comp, err)
	}
	if uint64(len(data)) != usize {
		return nil, off, formatErr("compressed bundle data", off+hdr, "%s data decompress to %d bytes, header says %d", comp, len(data), usize)
	}
	inner := bytes.NewReader(data)
	es, _, err := readBundle(inner, 0, int64(len(data)), index)
	for i := range es {
		es[i].BundleOffset, es[i].Compression = off, comp
	}
	if err != nil {
		return es, off, fmt.Errorf("in %s bundle at offset %#x: %w", comp, off, err)
	}
	if version == 1 {
		return es, off + hdr, nil // the end is unknown: scan on from the data
	}
	return es, off + int64(total), nil
}

// readExact reads exactly n bytes from r, growing the buffer in chunks.
func readExact(r io.Reader, n uint64) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(int(min(n, chunk)))
	k, err := io.Copy(&buf, io.LimitReader(r, int64(n)))
	if err != nil {
		return nil, err
	}
	if uint64(k) != n {
		return nil, fmt.Errorf("data decompress to %d bytes, header says %d", k, n)
	}
	return buf.Bytes(), nil
}

// readCapped reads r to its end, failing if it holds more than n bytes.
func readCapped(r io.Reader, n uint64) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(int(min(n, chunk)))
	k, err := io.Copy(&buf, io.LimitReader(r, int64(n)+1))
	if err != nil {
		return nil, err
	}
	if uint64(k) > n {
		return nil, fmt.Errorf("more than the %d bytes the header declares", n)
	}
	return buf.Bytes(), nil
}
