//go:build !amd64 || purego

package lanes

func haveAVX2() bool { return false }
func haveFMA() bool  { return false }
func haveF16C() bool { return false }
