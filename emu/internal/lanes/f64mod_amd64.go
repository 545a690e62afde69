//go:build amd64 && !purego

package lanes

// signsF64AVX is SignsF64's AVX2 version (f64mod_amd64.s).
//
//go:noescape
func signsF64AVX(d, a *F64, am, nm uint32)
