// Package samples holds wavedbg's bundled teaching kernels: assembly sources,
// the code objects built from them and a walkthrough for each, embedded so
// that `wavedbg` with no argument has something to open.
//
// Each sample lives in its own directory, <name>/:
//
//	<name>.s or <name>.cl  the source (gfx900 assembly, or OpenCL C for clang-15)
//	<name>.cl.s            clang's assembly for an OpenCL sample (generated)
//	<name>.co              the code object, built by build.sh (code object v4)
//	README.md              the walkthrough; its title is "# <name> — <one-line description>"
//	manifest.json          a run manifest (package emu/manifest): grid, block and the
//	                       arguments' contents, so the sample runs without flags
//
// All returns them in teaching order. Every claim a walkthrough makes is
// also written down as data in walkthrough_test.go, which runs the sample in
// emu and checks the registers, memory, counters, cache events and hazards
// the walkthrough describes; build_test.go checks that build.sh reproduces
// the committed code objects.
//
// To add a sample: create the directory with the five files above, add its
// name to order in samples.go, run build.sh, and add its expectations to
// walks in walkthrough_test.go.
package samples
