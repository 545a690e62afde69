package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/wavedbg/wavedbg/emu/manifest"
)

// parseArgSpec parses one --arg.
func parseArgSpec(s string) (manifest.Arg, error) {
	parts := strings.Split(s, ",")
	var a manifest.Arg
	if k, v, ok := strings.Cut(parts[0], "="); ok && len(parts) == 1 {
		// The scalar shorthands TYPE=VALUE and value=VALUE (typed by the
		// kernel's metadata).
		if k == "value" {
			k = ""
		}
		a = manifest.Arg{Kind: manifest.Scalar, Type: manifest.Type(k), Value: manifest.Value(v)}
		return a, nil
	}
	if len(parts) == 1 && isNumber(s) {
		// A bare VALUE, typed by the kernel's metadata.
		return manifest.Arg{Kind: manifest.Scalar, Value: manifest.Value(s)}, nil
	}
	a.Kind = manifest.Kind(parts[0])
	var count int64
	haveCount, haveSize := false, false
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return a, fmt.Errorf("%q is not key=value", p)
		}
		var err error
		switch k {
		case "name":
			a.Name = v
		case "type":
			a.Type = manifest.Type(v)
		case "size":
			a.Size, err = strconv.ParseInt(v, 0, 64)
			haveSize = true
		case "count":
			count, err = strconv.ParseInt(v, 0, 64)
			haveCount = true
		case "value":
			a.Value = manifest.Value(v)
		case "in", "input":
			a.Input = v
		case "fill":
			a.Fill = v
		case "out", "output":
			a.Output = v
		case "ulp":
			a.ULP, err = strconv.Atoi(v)
		case "buffer":
			a.Buffer = v
		case "offset":
			a.Offset, err = strconv.ParseInt(v, 0, 64)
		case "address":
			a.Address = manifest.Value(v)
		case "pointers":
			for _, f := range strings.Split(v, ";") {
				p, err := parsePointer(f)
				if err != nil {
					return a, err
				}
				a.Pointers = append(a.Pointers, p)
			}
		case "fields":
			for _, f := range strings.Split(v, ";") {
				ft, fv, ok := strings.Cut(f, ":")
				if !ok {
					return a, fmt.Errorf("struct field %q is not TYPE:VALUE", f)
				}
				a.Fields = append(a.Fields, manifest.Field{Type: manifest.Type(ft), Value: manifest.Value(fv)})
			}
		default:
			return a, fmt.Errorf("unknown key %q", k)
		}
		if err != nil {
			return a, fmt.Errorf("%s: %v", k, err)
		}
	}
	if haveCount {
		if a.Kind != manifest.Buffer {
			return a, errors.New("count is for buffers (a local argument takes size=BYTES)")
		}
		if haveSize {
			return a, errors.New("give size or count, not both")
		}
		size, err := manifest.BufferSize(a.Type, count)
		if err != nil {
			return a, err
		}
		a.Size = size
	}
	return a, nil
}

// isNumber reports whether s starts like a number: a digit, or a sign or
// point followed by one.
func isNumber(s string) bool {
	s = strings.TrimLeft(s, "+-")
	s = strings.TrimPrefix(s, ".")
	return s != "" && s[0] >= '0' && s[0] <= '9'
}

// parsePointer parses NAME[+OFFSET]@AT: buffer NAME's address plus OFFSET,
// written at byte AT.
func parsePointer(s string) (manifest.Pointer, error) {
	bad := fmt.Errorf("pointer %q is not NAME[+OFFSET]@AT", s)
	target, at, ok := strings.Cut(s, "@")
	if !ok {
		return manifest.Pointer{}, bad
	}
	var p manifest.Pointer
	var err error
	if p.At, err = strconv.ParseInt(at, 0, 64); err != nil {
		return p, bad
	}
	name, off, ok := strings.Cut(target, "+")
	if ok {
		if p.Offset, err = strconv.ParseInt(off, 0, 64); err != nil {
			return p, bad
		}
	}
	if p.To = name; name == "" {
		return p, bad
	}
	return p, nil
}
