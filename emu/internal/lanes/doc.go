// Package lanes holds the emulator's 64-lane loops that have a vector
// (SIMD) implementation: integer adds and subtracts with carry masks,
// multiplies, selects, compares and 64-bit shifts (int.go); plain 32-bit
// adds and subtracts (glue.go); the f32 rows (f32.go, and those flushing
// denormals as MODE says, f32flush.go); the f64 rows, division helpers,
// conversions, roundings, compares and sign modifiers (f64*.go);
// v_lshl_or_b32 and the fill of a uniform source's row (bits.go); the f16 conversions (f16.go, with
// F16C); the small-integer rows of narrow-type code: signed min and med3,
// 24-bit multiplies and 16-bit adds (narrow.go); the byte and short
// moves of vector memory runs (widen.go); and the address shape check of
// vector memory (shape.go). Each function has a pure-Go
// version, xxxGo, which is the definition; on amd64 with AVX2 an assembly
// version computes the same result eight (or four, for 64-bit lanes)
// lanes an instruction. Build with -tags purego to use only the Go
// versions. Float rows leave NaN lanes unwritten and return their mask:
// the caller applies the GPU's NaN rules.
//
// A register is a *[64]uint32, one word a lane. The loops compute the lanes
// of whole quads (lanes 4i..4i+3) covering lanes 0..n-1: callers pass a
// destination that may take writes up to the end of the last quad.
package lanes
