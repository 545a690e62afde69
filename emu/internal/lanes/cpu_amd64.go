//go:build amd64 && !purego

package lanes

// cpuid and xgetbv are in cpu_amd64.s.
func cpuid(leaf, sub uint32) (a, b, c, d uint32)
func xgetbv() (a, d uint32)

// haveAVX2 checks CPUID leaf 7 for AVX2 and that the OS saves the YMM
// state (OSXSAVE, then XCR0 bits 1 and 2).
func haveAVX2() bool {
	max, _, _, _ := cpuid(0, 0)
	if max < 7 {
		return false
	}
	_, _, c1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if c1&osxsave == 0 || c1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<5) != 0
}

// haveFMA checks CPUID leaf 1 for FMA3 (ECX bit 12).
func haveFMA() bool {
	_, _, c1, _ := cpuid(1, 0)
	return c1&(1<<12) != 0
}

// haveF16C checks CPUID leaf 1 for F16C (ECX bit 29).
func haveF16C() bool {
	_, _, c1, _ := cpuid(1, 0)
	return c1&(1<<29) != 0
}
