package lanes

// The flushing rows join TestF32RowsMatchGo's table: the row's x picks
// what they flush (bit 0 the inputs, bit 1 the results).
func init() {
	fl := func(x int) (in, out uint32) { return FlushMask(x&1 != 0), FlushMask(x&2 != 0) }
	type s3 = [3]*[64]uint32
	f32Rows = append(f32Rows,
		f32Row{"AddF32Flush", 2, func(d *[64]uint32, s s3, x int, n int) uint64 {
			in, out := fl(x)
			return AddF32Flush(d, s[0], s[1], n, in, out)
		}},
		f32Row{"SubF32Flush", 2, func(d *[64]uint32, s s3, x int, n int) uint64 {
			in, out := fl(x)
			return SubF32Flush(d, s[0], s[1], n, in, out)
		}},
		f32Row{"MulF32Flush", 2, func(d *[64]uint32, s s3, x int, n int) uint64 {
			in, out := fl(x)
			return MulF32Flush(d, s[0], s[1], n, in, out)
		}},
		f32Row{"MadF32Flush", 3, func(d *[64]uint32, s s3, x int, n int) uint64 {
			in, out := fl(x)
			return MadF32Flush(d, s[0], s[1], s[2], n, in, out)
		}},
		f32Row{"FmaF32Flush", 3, func(d *[64]uint32, s s3, x int, n int) uint64 {
			in, out := fl(x)
			return FmaF32Flush(d, s[0], s[1], s[2], n, in, out)
		}},
		f32Row{"FlushF32", 1, func(d *[64]uint32, s s3, x int, n int) uint64 {
			in, _ := fl(x)
			FlushF32(d, s[0], n, in)
			return 0
		}},
	)
}
