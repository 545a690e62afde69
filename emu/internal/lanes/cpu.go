package lanes

// SIMD reports whether the assembly versions are in use: amd64 with AVX2
// and the OS saving the YMM registers, and not built with -tags purego.
// Tests turn it off to check the Go versions against them.
var SIMD = haveAVX2()

// FMA reports whether fused multiply-adds (FMA3) may be used with SIMD:
// nearly every AVX2 CPU has them, but the bit is tested, not assumed.
var FMA = SIMD && haveFMA()

// F16C reports whether the f16 conversions may use VCVTPS2PH and
// VCVTPH2PS with SIMD (the F16C extension; tested as FMA is).
var F16C = SIMD && haveF16C()
