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
