package asm

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// ELF constants the writer uses.
const (
	shtProgbits = 1
	shtSymtab   = 2
	shtStrtab   = 3
	shtHash     = 5
	shtDynamic  = 6
	shtNote     = 7
	shtDynsym   = 11
	shtGnuHash  = 0x6ffffff6

	shfWrite = 1
	shfAlloc = 2
	shfExec  = 4

	ptLoad      = 1
	ptDynamic   = 2
	ptNote      = 4
	ptPhdr      = 6
	ptGnuStack  = 0x6474e551
	ptGnuRelro  = 0x6474e552
	pageSize    = 0x1000
	ntAMDGPUMD  = 32
	elfOSABIHSA = 64
)

// outSec is one output section being laid out.
type outSec struct {
	name       string
	typ        uint32
	flags      uint64
	data       []byte
	align      uint64
	link, info uint32
	entsize    uint64
	off, addr  uint64
	index      int
	fixed      func() []byte // content that needs the layout
}

func (s *outSec) size() uint64 { return uint64(len(s.data)) }

func alignUp(v, a uint64) uint64 {
	if a <= 1 {
		return v
	}
	return (v + a - 1) / a * a
}

// alignCongruent is the first offset >= off congruent to addr modulo page.
func alignCongruent(off, addr uint64) uint64 {
	want := addr % pageSize
	base := off - off%pageSize + want
	if base < off {
		base += pageSize
	}
	return base
}

// Link lays the object out as ld.lld-15 -shared does and returns the code
// object: .note (metadata), .dynsym, .gnu.hash, .hash, .dynstr, .rodata
// (kernel descriptors) in a read-only segment, .text in an executable one,
// .dynamic in a writable one, then .symtab, .shstrtab and .strtab.
func (o *Object) Link() ([]byte, error) {
	// Symbols: dynamic ones are the global, non-hidden definitions.
	var locals, globals, dyn []*symbol
	for _, s := range o.syms {
		if !s.defined || strings.HasPrefix(s.name, ".L") || s.name == "." {
			continue
		}
		// Absolute .set symbols are kept (SHN_ABS), as ld.lld keeps them.
		if s.val.sec != o.textSec && s.val.sec != o.rodataSec && !(s.isSet && s.val.sec == nil) {
			continue
		}
		switch {
		case (s.global || s.weak) && s.vis != stvHidden && s.vis != stvInternal:
			globals = append(globals, s)
			dyn = append(dyn, s)
		case s.global || s.weak:
			locals = append(locals, s) // hidden: local after linking
		default:
			locals = append(locals, s)
		}
	}
	// ld.lld adds the names in symbol order, then sorts .dynsym by bucket.
	dynstr := newStrtab()
	for _, s := range dyn {
		dynstr.add(s.name)
	}
	dyn = gnuHashOrder(dyn)

	var secs []*outSec
	add := func(s *outSec) *outSec {
		s.index = len(secs) + 1
		secs = append(secs, s)
		return s
	}
	var note *outSec
	if o.metadata != nil {
		note = add(&outSec{name: ".note", typ: shtNote, flags: shfAlloc, align: 4, data: noteBytes(o.metadata)})
	}
	dynsym := add(&outSec{name: ".dynsym", typ: shtDynsym, flags: shfAlloc, align: 8, info: 1, entsize: 24,
		data: make([]byte, 24*(len(dyn)+1))})
	gnuHash := add(&outSec{name: ".gnu.hash", typ: shtGnuHash, flags: shfAlloc, align: 8, data: gnuHashTable(dyn)})
	hash := add(&outSec{name: ".hash", typ: shtHash, flags: shfAlloc, align: 4, entsize: 4, data: sysvHashTable(dyn)})
	dstr := add(&outSec{name: ".dynstr", typ: shtStrtab, flags: shfAlloc, align: 1, data: dynstr.b})
	dynsym.link, gnuHash.link, hash.link = uint32(dstr.index), uint32(dynsym.index), uint32(dynsym.index)
	// A section is written when it has bytes or a symbol is in it.
	used := map[*section]bool{}
	for _, s := range append(locals, globals...) {
		used[s.val.sec] = true
	}
	var rodata, text *outSec
	if len(o.Rodata) > 0 || used[o.rodataSec] {
		rodata = add(&outSec{name: ".rodata", typ: shtProgbits, flags: shfAlloc, align: o.rodataAlign, data: append([]byte(nil), o.Rodata...)})
	}
	if len(o.Text) > 0 || used[o.textSec] {
		text = add(&outSec{name: ".text", typ: shtProgbits, flags: shfAlloc | shfExec, align: o.textAlign, data: append([]byte(nil), o.Text...)})
	}
	dynamic := add(&outSec{name: ".dynamic", typ: shtDynamic, flags: shfAlloc | shfWrite, align: 8, entsize: 16,
		link: uint32(dstr.index), data: make([]byte, 16*7)})
	symtab := add(&outSec{name: ".symtab", typ: shtSymtab, align: 8, entsize: 24})
	shstr := add(&outSec{name: ".shstrtab", typ: shtStrtab, align: 1})
	strtab := add(&outSec{name: ".strtab", typ: shtStrtab, align: 1})
	symtab.link = uint32(strtab.index)

	// Program headers.
	nph := 7
	if note != nil {
		nph++
	}
	off := uint64(64 + 56*nph)
	var ro []*outSec
	for _, s := range secs {
		if s.flags == shfAlloc {
			ro = append(ro, s)
		}
	}
	for _, s := range ro {
		off = alignUp(off, s.align)
		s.off, s.addr = off, off
		off += s.size()
	}
	roEnd := off
	addr := off
	place := func(s *outSec) {
		addr = alignUp(alignUp(addr, pageSize)+addr%pageSize, s.align)
		off = alignCongruent(off, addr)
		s.off, s.addr = off, addr
		off += s.size()
		addr += s.size()
	}
	if text != nil {
		place(text)
		o.textAddr = text.addr
	}
	place(dynamic)

	// Fill what depends on addresses.
	outOf := func(s *section) *outSec {
		if s == o.textSec {
			return text
		}
		return rodata
	}
	secOf := func(s *symbol) *outSec { return outOf(s.val.sec) }
	symVal := func(s *symbol) uint64 {
		if s.val.sec == nil {
			return uint64(s.val.v)
		}
		return secOf(s).addr + uint64(s.val.v)
	}
	for _, k := range o.kernels {
		kd := outOf(k.sec)
		binary.LittleEndian.PutUint64(kd.data[k.off+kdEntry:], symVal(o.symbol(k.name))-(kd.addr+uint64(k.off)))
	}
	putSym := func(b []byte, i int, name uint32, s *symbol, bind byte) {
		e := b[24*i:]
		binary.LittleEndian.PutUint32(e, name)
		e[4] = bind<<4 | s.typ
		e[5] = s.vis
		shndx := uint16(0xfff1) // SHN_ABS
		if s.val.sec != nil {
			shndx = uint16(secOf(s).index)
		}
		binary.LittleEndian.PutUint16(e[6:], shndx)
		binary.LittleEndian.PutUint64(e[8:], symVal(s))
		if s.hasSize {
			binary.LittleEndian.PutUint64(e[16:], uint64(s.size))
		}
	}
	bindOf := func(s *symbol) byte {
		if s.weak {
			return 2
		}
		return 1
	}
	for i, s := range dyn {
		putSym(dynsym.data, i+1, dynstr.off[s.name], s, bindOf(s))
	}
	d := dynamic.data
	for i, kv := range [][2]uint64{{6, dynsym.addr}, {11, 24}, {5, dstr.addr}, {10, dstr.size()},
		{0x6ffffef5, gnuHash.addr}, {4, hash.addr}, {0, 0}} {
		binary.LittleEndian.PutUint64(d[16*i:], kv[0])
		binary.LittleEndian.PutUint64(d[16*i+8:], kv[1])
	}
	str := newStrtab()
	symtab.data = make([]byte, 24*(len(locals)+len(globals)+2))
	for i, s := range locals {
		putSym(symtab.data, i+1, str.add(s.name), s, 0)
	}
	n := len(locals) + 1
	e := symtab.data[24*n:]
	binary.LittleEndian.PutUint32(e, str.add("_DYNAMIC"))
	e[5] = stvHidden
	binary.LittleEndian.PutUint16(e[6:], uint16(dynamic.index))
	binary.LittleEndian.PutUint64(e[8:], dynamic.addr)
	symtab.info = uint32(n + 1)
	for i, s := range globals {
		putSym(symtab.data, n+1+i, str.add(s.name), s, bindOf(s))
	}
	strtab.data = str.b
	sh := newStrtab()
	for _, s := range secs {
		sh.add(s.name)
	}
	shstr.data = sh.b

	// Non-allocated sections, then the section headers.
	for _, s := range []*outSec{symtab, shstr, strtab} {
		off = alignUp(off, s.align)
		s.off = off
		off += s.size()
	}
	shoff := alignUp(off, 8)
	out := make([]byte, shoff+64*uint64(len(secs)+1))

	// ELF header.
	copy(out, "\x7fELF\x02\x01\x01")
	out[7] = elfOSABIHSA
	out[8] = byte(o.Version - 2)
	le := binary.LittleEndian
	le.PutUint16(out[16:], 3)   // ET_DYN
	le.PutUint16(out[18:], 224) // EM_AMDGPU
	le.PutUint32(out[20:], 1)
	le.PutUint64(out[32:], 64)
	le.PutUint64(out[40:], shoff)
	le.PutUint32(out[48:], o.tgt.eFlags())
	le.PutUint16(out[52:], 64)
	le.PutUint16(out[54:], 56)
	le.PutUint16(out[56:], uint16(nph))
	le.PutUint16(out[58:], 64)
	le.PutUint16(out[60:], uint16(len(secs)+1))
	le.PutUint16(out[62:], uint16(shstr.index))

	ph := out[64:]
	phi := 0
	phdr := func(typ, flags uint32, off, addr, filesz, memsz, align uint64) {
		p := ph[56*phi:]
		le.PutUint32(p, typ)
		le.PutUint32(p[4:], flags)
		le.PutUint64(p[8:], off)
		le.PutUint64(p[16:], addr)
		le.PutUint64(p[24:], addr)
		le.PutUint64(p[32:], filesz)
		le.PutUint64(p[40:], memsz)
		le.PutUint64(p[48:], align)
		phi++
	}
	phdr(ptPhdr, 4, 64, 64, uint64(56*nph), uint64(56*nph), 8)
	phdr(ptLoad, 4, 0, 0, roEnd, roEnd, pageSize)
	if text != nil {
		phdr(ptLoad, 5, text.off, text.addr, text.size(), text.size(), pageSize)
	} else {
		nph--
		le.PutUint16(out[56:], uint16(nph))
	}
	phdr(ptLoad, 6, dynamic.off, dynamic.addr, dynamic.size(), dynamic.size(), pageSize)
	phdr(ptDynamic, 6, dynamic.off, dynamic.addr, dynamic.size(), dynamic.size(), 8)
	relroEnd := alignUp(dynamic.addr+dynamic.size(), pageSize)
	phdr(ptGnuRelro, 4, dynamic.off, dynamic.addr, dynamic.size(), relroEnd-dynamic.addr, 1)
	phdr(ptGnuStack, 6, 0, 0, 0, 0, 0)
	if note != nil {
		phdr(ptNote, 4, note.off, note.addr, note.size(), note.size(), 4)
	}

	for i, s := range secs {
		copy(out[s.off:], s.data)
		h := out[shoff+64*uint64(i+1):]
		le.PutUint32(h, sh.off[s.name])
		le.PutUint32(h[4:], s.typ)
		le.PutUint64(h[8:], s.flags)
		le.PutUint64(h[16:], s.addr)
		le.PutUint64(h[24:], s.off)
		le.PutUint64(h[32:], s.size())
		le.PutUint32(h[40:], s.link)
		le.PutUint32(h[44:], s.info)
		le.PutUint64(h[48:], s.align)
		le.PutUint64(h[56:], s.entsize)
	}
	if int(shoff) > 1<<31 {
		return nil, fmt.Errorf("code object too large (%d bytes)", shoff)
	}
	return out, nil
}

// symbol finds a symbol by name.
func (o *Object) symbol(name string) *symbol {
	for _, s := range o.syms {
		if s.name == name {
			return s
		}
	}
	return nil
}

// noteBytes is the NT_AMDGPU_METADATA note holding desc.
func noteBytes(desc []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 7)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(desc)))
	b = binary.LittleEndian.AppendUint32(b, ntAMDGPUMD)
	b = append(b, "AMDGPU\x00\x00"...)
	b = append(b, desc...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return b
}

// strtab builds a string table, each name once, in order of addition.
type strtab struct {
	b   []byte
	off map[string]uint32
}

func newStrtab() *strtab { return &strtab{b: []byte{0}, off: map[string]uint32{}} }

func (t *strtab) add(s string) uint32 {
	if o, ok := t.off[s]; ok {
		return o
	}
	o := uint32(len(t.b))
	t.off[s] = o
	t.b = append(append(t.b, s...), 0)
	return o
}

// gnuHash and sysvHash are the two ELF symbol hash functions.
func gnuHash(s string) uint32 {
	h := uint32(5381)
	for i := 0; i < len(s); i++ {
		h = h*33 + uint32(s[i])
	}
	return h
}

func sysvHash(s string) uint32 {
	var h uint32
	for i := 0; i < len(s); i++ {
		h = h<<4 + uint32(s[i])
		g := h & 0xf0000000
		h ^= g >> 24
		h &^= g
	}
	return h
}

// gnuBuckets is ld.lld-15's bucket count for n hashed symbols.
func gnuBuckets(n int) uint32 { return uint32(max(n/4, 1)) }

// gnuHashOrder sorts the dynamic symbols by GNU hash bucket, stably, as
// lld orders .dynsym.
func gnuHashOrder(syms []*symbol) []*symbol {
	nb := gnuBuckets(len(syms))
	out := append([]*symbol(nil), syms...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && gnuHash(out[j].name)%nb < gnuHash(out[j-1].name)%nb; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// gnuHashTable is lld's .gnu.hash for syms (already in bucket order, all
// hashed, after the null symbol).
func gnuHashTable(syms []*symbol) []byte {
	nb := gnuBuckets(len(syms))
	maskWords := uint32(1)
	for uint32(len(syms)*12/64) >= maskWords {
		maskWords <<= 1
	}
	le := binary.LittleEndian
	b := make([]byte, 16+8*maskWords+4*nb+4*uint32(len(syms)))
	le.PutUint32(b, nb)
	le.PutUint32(b[4:], 1)
	le.PutUint32(b[8:], maskWords)
	le.PutUint32(b[12:], 26)
	bloom := b[16:]
	buckets := b[16+8*maskWords:]
	values := buckets[4*nb:]
	old := ^uint32(0)
	for i, s := range syms {
		h := gnuHash(s.name)
		w := (h / 64) & (maskWords - 1)
		v := le.Uint64(bloom[8*w:]) | 1<<(h%64) | 1<<((h>>26)%64)
		le.PutUint64(bloom[8*w:], v)
		bi := h % nb
		if i+1 == len(syms) || gnuHash(syms[i+1].name)%nb != bi {
			h |= 1
		} else {
			h &^= 1
		}
		le.PutUint32(values[4*i:], h)
		if bi != old {
			le.PutUint32(buckets[4*bi:], uint32(i+1))
			old = bi
		}
	}
	return b
}

// sysvHashTable is the .hash table of the dynamic symbols (index i+1).
func sysvHashTable(syms []*symbol) []byte {
	n := uint32(len(syms) + 1)
	le := binary.LittleEndian
	b := make([]byte, 4*(2+2*n))
	le.PutUint32(b, n)
	le.PutUint32(b[4:], n)
	buckets, chains := b[8:], b[8+4*n:]
	for i, s := range syms {
		h := sysvHash(s.name) % n
		le.PutUint32(chains[4*(i+1):], le.Uint32(buckets[4*h:]))
		le.PutUint32(buckets[4*h:], uint32(i+1))
	}
	return b
}
