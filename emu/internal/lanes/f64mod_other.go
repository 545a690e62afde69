//go:build !amd64 || purego

package lanes

// Without the assembly signsF64AVX is never called; it is the Go
// definition, as in f64_other.go.
var signsF64AVX = signsF64Go
