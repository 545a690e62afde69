// Package sample holds the code object the debugger opens when it is given
// no file: a small gfx900 kernel built from scale.asm by build.sh.
package sample

import _ "embed"

//go:embed scale.co
var scale []byte

// Name is the bundled kernel's name.
const Name = "scale"

// CodeObject returns the bundled sample's code object bytes. Package samples
// may later replace what cmd/wavedbg opens by default; keep callers behind
// this function.
func CodeObject() []byte { return scale }

// Source returns the assembly the sample was built from.
func Source() string { return source }

//go:embed scale.asm
var source string

// Manifest is the sample's launch (package emu/manifest): one work-group of
// 128 work-items (two waves) over a buffer counting 0, 1, 2, ... and a
// factor of 3.
const Manifest = `{
  "kernel": "scale",
  "grid": [128],
  "block": [128],
  "args": [
    {"name": "buf", "kind": "buffer", "type": "uint", "size": 512, "fill": "iota"},
    {"name": "factor", "kind": "scalar", "type": "uint", "value": 3}
  ]
}`
