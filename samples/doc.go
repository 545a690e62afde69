// Package samples holds wavedbg's bundled teaching kernels: assembly sources,
// the code objects built from them and a walkthrough for each, embedded so
// that `wavedbg` with no argument has something to open.
//
// Each sample lives in its own directory, <name>/:
//
//	<name>.s or <name>.cl  the source (gfx900 assembly, or OpenCL C for clang-15)
//	<name>.cl.s            clang's assembly for an OpenCL sample (generated)
//	<name>.co              the code object, built by build.sh (code object v4)
//	<name>.<target>.s      optional: the sample for another processor (gfx803), built into
//	                       <name>.<target>.co; a variant listed as "<name> (<target>)"
//	README.md              the walkthrough; its title is "# <name> — <one-line description>"
//	tour.yaml              the walkthrough as data: its topic (the picker's group), its
//	                       numbered steps (README.md's are generated from them), the stops
//	                       where its claims hold (a stop may name the target it is about)
//	                       and the register formats the claims read best in
//	manifest.json          a run manifest (package emu/manifest): grid, block and the
//	                       arguments' contents, so the sample runs without flags
//
// All returns them in teaching order. Sample.Tour parses tour.yaml: one
// source of truth for README.md's steps (go generate), the walkthrough tests
// (runner_test.go runs each sample in emu and checks every claim) and the
// debugger's tour pane (Claim.Holds judges a claim against a live State);
// claim.go describes the claim syntax. build_test.go checks that build.sh
// reproduces the committed code objects.
//
// To add a sample: create the directory with the six files above, add its
// name to order in samples.go, run build.sh and go generate.
package samples
