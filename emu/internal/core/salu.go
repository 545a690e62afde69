package core

func B2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
