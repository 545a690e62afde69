//go:build amd64 && !purego

#include "textflag.h"

// The f16 rows (f16.go has their Go definitions) eight lanes a YMM step,
// then one XMM step when a quad is left. Registers: DI = d, SI = a,
// BX = the quads left (first (n+3)/4), R13 = the byte offset of the
// step's first lane; Y8 = 0x7c00 (the f16 exponent field), Y9 = flush,
// Y10 = 0 in every lane.

// SETUP loads the pointers and the quad count and sets Y8 to Y10 (flush
// from CX).
#define SETUP \
	MOVQ         d+0(FP), DI      \
	MOVQ         a+8(FP), SI      \
	MOVQ         n+16(FP), BX     \
	ADDQ         $3, BX           \
	SHRQ         $2, BX           \
	XORQ         R13, R13         \
	MOVL         $0x7c00, AX      \
	VMOVD        AX, X8           \
	VPBROADCASTD X8, Y8           \
	VMOVD        CX, X9           \
	VPBROADCASTD X9, Y9           \
	VPXOR        Y10, Y10, Y10

// FLUSH clears the bits of flush (Y9) from the lanes of H whose exponent
// field is zero; T is a temporary.
#define FLUSH(H, T, K8, K9, K10) \
	VPAND    K8, H, T   \
	VPCMPEQD K10, T, T  \
	VPAND    K9, T, T   \
	VPANDN   H, T, H

// ROWS runs STEP over the quads: pairs of quads with Y registers, then a
// last single quad with X registers.
#define ROWS(STEP) \
eight:                                       \
	CMPQ  BX, $2                         \
	JB    last                           \
	STEP(Y0, Y1, Y8, Y9, Y10, Y11, Y12)  \
	ADDQ  $32, R13                       \
	SUBQ  $2, BX                         \
	JMP   eight                          \
last:                                        \
	TESTQ BX, BX                         \
	JZ    done                           \
	STEP(X0, X1, X8, X9, X10, X11, X12)  \
done:                                        \
	VZEROUPPER                           \
	RET

// NARROW: d = a's f32 lanes to f16 rounding to nearest even (VCVTPS2PH
// immediate 0: the rounding is the immediate's, not MXCSR's) into X0,
// zero-extended to words, flushed.
#define NARROW(A, T, K8, K9, K10, K11, K12) \
	VMOVUPS   (SI)(R13*1), A    \
	VCVTPS2PH $0, A, X0         \
	VPMOVZXWD X0, A             \
	FLUSH(A, T, K8, K9, K10)    \
	VMOVDQU   A, (DI)(R13*1)

// WIDEN: the low halves of a with clear (K11, holding the high halves
// too) cleared and flip (K12) flipped, flushed, packed to words (lanes
// 0-3 and 4-7 of a YMM land in its quadwords 0 and 2, which VPERMQ joins;
// in the quad step it leaves quadword 0 where it is) and widened to f32
// (VCVTPH2PS).
#define WIDEN(A, T, K8, K9, K10, K11, K12) \
	VPANDN    (SI)(R13*1), K11, A  \
	VPXOR     K12, A, A            \
	FLUSH(A, T, K8, K9, K10)       \
	VPACKUSDW A, A, A              \
	VPERMQ    $0x08, Y0, Y0        \
	VCVTPH2PS X0, A                \
	VMOVUPS   A, (DI)(R13*1)

// func f16FromF32F16C(d, a *[64]uint32, n int, flush uint32)
TEXT ·f16FromF32F16C(SB), NOSPLIT, $0-28
	MOVL flush+24(FP), CX
	SETUP
	ROWS(NARROW)

// func f32FromF16F16C(d, a *[64]uint32, n int, clear, flip, flush uint32)
TEXT ·f32FromF16F16C(SB), NOSPLIT, $0-36
	MOVL flush+32(FP), CX
	SETUP
	// Y11 = clear and the high halves, Y12 = flip's low half.
	MOVL         clear+24(FP), AX
	ORL          $0xffff0000, AX
	VMOVD        AX, X11
	VPBROADCASTD X11, Y11
	MOVL         flip+28(FP), AX
	ANDL         $0xffff, AX
	VMOVD        AX, X12
	VPBROADCASTD X12, Y12
	ROWS(WIDEN)
