//go:build !amd64 || purego

package lanes

// Without the assembly the f16 rows' F16C versions are their Go
// definitions (never called: F16C is false).
var (
	f16FromF32F16C = f16FromF32Go
	f32FromF16F16C = f32FromF16Go
)
