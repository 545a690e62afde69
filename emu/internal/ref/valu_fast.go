package ref

// FlushIn zeroes a denormal f32 input (keeping its sign) unless kept.
func FlushIn(u uint32, keep bool) uint32 {
	if !keep && u&0x7f800000 == 0 {
		return u & 0x80000000
	}
	return u
}

func FlushOut(u uint32, keep bool) uint32 {
	if !keep && u&0x7f800000 == 0 {
		return u & 0x80000000
	}
	return u
}
