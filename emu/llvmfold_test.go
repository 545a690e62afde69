package emu

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Differential check against LLVM's constant folding: llvm-mc evaluates
// the expression "(A op B) & 0xffffffff" into a literal; the emulator
// computes the same with the scalar instruction. Both land in SGPRs and must
// agree. The words are golden (testdata/asm.txt), so this runs without LLVM.
func TestLLVMConstantFolding(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	ops := []struct{ inst, expr string }{
		{"s_add_u32", "+"}, {"s_sub_u32", "-"}, {"s_mul_i32", "*"}, {"s_and_b32", "&"},
		{"s_or_b32", "|"}, {"s_xor_b32", "^"}, {"s_lshl_b32", "<<"}, {"s_lshr_b32", ">>"},
	}
	for _, op := range ops {
		for i := 0; i < 4; i++ {
			a, b := r.Uint32N(1<<31), r.Uint32()
			if op.expr == "<<" || op.expr == ">>" {
				b = r.Uint32N(32)
			}
			lines := []string{
				fmt.Sprintf("s_mov_b32 s1, 0x%x", a),
				fmt.Sprintf("s_mov_b32 s2, 0x%x", b),
				fmt.Sprintf("%s s0, s1, s2", op.inst),
				fmt.Sprintf("s_mov_b32 s3, (0x%x %s 0x%x) & 0xffffffff", a, op.expr, b),
				"s_endpgm",
			}
			m := asmMachine(t, lines...)
			run(t, m)
			if m.w.S[0] != m.w.S[3] {
				t.Errorf("%s 0x%x, 0x%x: emulator 0x%x, LLVM folds 0x%x", op.inst, a, b, m.w.S[0], m.w.S[3])
			}
		}
	}
}
