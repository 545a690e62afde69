//go:build amd64 && !purego

#include "textflag.h"

// The AVX2 integer lane loops (int.go has their Go definitions). Each runs
// eight lanes (one YMM register) a step and, when one quad is left, a last
// step of four (XMM), so it reads and writes exactly the quads holding
// lanes 0 to n-1. Common registers:
//	BX	quads left (first (n+3)/4)
//	R13	byte offset of the step's first lane
//	CX	the step's first lane (the shift of its mask bits)
//	AX	the mask built so far
// Plan 9 operand order is Intel's reversed: VPSUBD B, A, D is D = A - B.

// laneBits holds 1<<k in dword k: a mask byte broadcast to every lane,
// ANDed with it and compared with it, gives each lane its own bit.
DATA laneBits<>+0(SB)/4, $1
DATA laneBits<>+4(SB)/4, $2
DATA laneBits<>+8(SB)/4, $4
DATA laneBits<>+12(SB)/4, $8
DATA laneBits<>+16(SB)/4, $16
DATA laneBits<>+20(SB)/4, $32
DATA laneBits<>+24(SB)/4, $64
DATA laneBits<>+28(SB)/4, $128
GLOBL laneBits<>(SB), RODATA|NOPTR, $32

// signBit64 holds 1<<63 in each qword: flipping it orders uint64s as the
// signed VPCMPGTQ compares them.
DATA signBit64<>+0(SB)/8, $0x8000000000000000
DATA signBit64<>+8(SB)/8, $0x8000000000000000
DATA signBit64<>+16(SB)/8, $0x8000000000000000
DATA signBit64<>+24(SB)/8, $0x8000000000000000
GLOBL signBit64<>(SB), RODATA|NOPTR, $32

// START sets up the common registers from n (in BX).
#define START \
	ADDQ $3, BX; \
	SHRQ $2, BX; \
	XORQ R13, R13; \
	XORQ CX, CX; \
	XORQ AX, AX

// NEXT8 moves to the next step after eight lanes.
#define NEXT8 \
	ADDQ $32, R13; \
	ADDQ $8, CX; \
	SUBQ $2, BX

// MASKOUT adds the step's lane bits, the sign bits of V's dwords, to AX;
// MASKNOT adds them inverted (ALL has a bit for each lane of V).
#define MASKOUT(V) \
	VMOVMSKPS V, R8; \
	SHLQ CX, R8; \
	ORQ  R8, AX

#define MASKNOT(V, ALL) \
	VMOVMSKPS V, R8; \
	XORL ALL, R8; \
	SHLQ CX, R8; \
	ORQ  R8, AX

#define MASKNOT8(V) MASKNOT(V, $0xff)

#define MASKNOT4(V) MASKNOT(V, $0xf)

// MASKIN sets V's lanes to all ones where the mask in R9 has their bit,
// from its low byte (its low nibble for an XMM V); R9 moves on a byte.
// K holds laneBits.
#define MASKIN(V, XV, K) \
	VMOVQ R9, XV; \
	VPBROADCASTD XV, V; \
	VPAND K, V, V; \
	VPCMPEQD K, V, V; \
	SHRQ $8, R9

// The carry loops compute s and the lanes without a carry (borrow) out,
// then flip those to the carries. With carries in C (all ones where a
// lane has one), a + b + c carries when s <= a (s < a without), and
// a - b - c borrows when s >= a (s > a without).

// ADD computes s = a + b (A, B) into S and the lanes without a carry,
// s >= a, into T.
#define ADD(A, B, S, T) \
	VPADDD B, A, S; \
	VPMAXUD A, S, T; \
	VPCMPEQD T, S, T

// ADDC is ADD with the carries in C: s = a + b - C, no carry where s >= a
// and not (a carry in and s == a).
#define ADDC(A, B, C, S, T, U) \
	VPADDD B, A, S; \
	VPSUBD C, S, S; \
	VPMAXUD A, S, T; \
	VPCMPEQD T, S, T; \
	VPCMPEQD A, S, U; \
	VPAND C, U, U; \
	VPANDN T, U, T

// SUB computes s = a - b into S and the lanes without a borrow, a >= b,
// into T.
#define SUB(A, B, S, T) \
	VPSUBD B, A, S; \
	VPMAXUD B, A, T; \
	VPCMPEQD T, A, T

// SUBB is SUB with the borrows in C: s = a - b + C, no borrow where s <= a
// and not (a borrow in and s == a).
#define SUBB(A, B, C, S, T, U) \
	VPSUBD B, A, S; \
	VPADDD C, S, S; \
	VPMAXUD A, S, T; \
	VPCMPEQD T, A, T; \
	VPCMPEQD A, S, U; \
	VPAND C, U, U; \
	VPANDN T, U, T

// PRODUCTS sets E to the 64-bit products of the even lanes of A and B
// (lanes 0, 2, … as qwords) and O to those of the odd lanes; A and B are
// shifted right 32 in each qword.
#define PRODUCTS(A, B, E, O) \
	VPMULUDQ B, A, E; \
	VPSRLQ $32, A, A; \
	VPSRLQ $32, B, B; \
	VPMULUDQ B, A, O

// SPLIT64 sets LO and HI to the low and high dwords of the qwords E (the
// even lanes) and O (the odd lanes), in lane order; O is shifted left 32.
#define SPLIT64(E, O, LO, HI) \
	VPSRLQ $32, E, HI; \
	VPBLENDD $0xAA, O, HI, HI; \
	VPSLLQ $32, O, O; \
	VPBLENDD $0xAA, O, E, LO

// MAD adds the addend (low dwords LO, high HI) to the products E and O
// (PRODUCTS) and sets T to all ones in the lanes whose sum carries out;
// S is the sign-bit constant. LO, HI, C and D are clobbered. The even
// lanes' addends go to C, the odd lanes' to LO; a lane carries when its
// sum is below its addend, which VPCMPGTQ sees with the sign bits flipped.
#define MAD(E, O, LO, HI, S, T, C, D) \
	VPSLLQ $32, HI, C; \
	VPBLENDD $0xAA, C, LO, C; \
	VPSRLQ $32, LO, LO; \
	VPBLENDD $0xAA, HI, LO, LO; \
	VPADDQ C, E, E; \
	VPADDQ LO, O, O; \
	VPXOR S, C, C; \
	VPXOR S, E, D; \
	VPCMPGTQ D, C, C; \
	VPXOR S, LO, LO; \
	VPXOR S, O, D; \
	VPCMPGTQ D, LO, LO; \
	VPBLENDD $0xAA, LO, C, T

// COMPARE is the loop of the compares: OP sets T from the lanes of a
// (SI) and b (DX) loaded into A and B; MASK8 and MASK4 add T's lane bits
// to AX in the eight- and four-lane steps.
#define COMPARE(OP, MASK8, MASK4) \
loop: \
	CMPQ BX, $2; \
	JB   tail; \
	VMOVDQU (SI)(R13*1), Y0; \
	VMOVDQU (DX)(R13*1), Y1; \
	OP(Y0, Y1, Y2); \
	MASK8(Y2); \
	NEXT8; \
	JMP  loop; \
tail: \
	TESTQ BX, BX; \
	JZ    done; \
	VMOVDQU (SI)(R13*1), X0; \
	VMOVDQU (DX)(R13*1), X1; \
	OP(X0, X1, X2); \
	MASK4(X2); \
done: \
	VZEROUPPER

// NOTLESS: a >= b unsigned (max(a, b) == a), which MASKNOT8 and MASKNOT4
// invert.
#define NOTLESS(A, B, T) \
	VPMAXUD B, A, T; \
	VPCMPEQD T, A, T

// LESSSIGNED: b > a as int32s.
#define LESSSIGNED(A, B, T) VPCMPGTD A, B, T

#define EQUAL(A, B, T) VPCMPEQD B, A, T

// COMPARE64 is the loop of the 64-bit compares: OP sets T from a (low
// dwords SI, high DX) and b (R11, R12), loaded into registers 0 to 3,
// with registers 14 and 15 as its constants.
#define COMPARE64(OP) \
loop: \
	CMPQ BX, $2; \
	JB   tail; \
	VMOVDQU (SI)(R13*1), Y0; \
	VMOVDQU (DX)(R13*1), Y1; \
	VMOVDQU (R11)(R13*1), Y2; \
	VMOVDQU (R12)(R13*1), Y3; \
	OP(Y0, Y1, Y2, Y3, Y4, Y5, Y14, Y15); \
	MASKOUT(Y4); \
	NEXT8; \
	JMP  loop; \
tail: \
	TESTQ BX, BX; \
	JZ    done; \
	VMOVDQU (SI)(R13*1), X0; \
	VMOVDQU (DX)(R13*1), X1; \
	VMOVDQU (R11)(R13*1), X2; \
	VMOVDQU (R12)(R13*1), X3; \
	OP(X0, X1, X2, X3, X4, X5, X14, X15); \
	MASKOUT(X4); \
done: \
	VZEROUPPER

// LESS64: a < b where the high dwords are equal and the low ones compare
// below (unsigned: both flipped by FLO, the sign bit, for VPCMPGTD) or the
// high ones compare below (both flipped by FHI).
#define LESS64(ALO, AHI, BLO, BHI, T, U, FHI, FLO) \
	VPCMPEQD BHI, AHI, T; \
	VPXOR FLO, ALO, ALO; \
	VPXOR FLO, BLO, BLO; \
	VPCMPGTD ALO, BLO, U; \
	VPAND U, T, T; \
	VPXOR FHI, AHI, AHI; \
	VPXOR FHI, BHI, BHI; \
	VPCMPGTD AHI, BHI, U; \
	VPOR U, T, T

#define EQUAL64(ALO, AHI, BLO, BHI, T, U, FHI, FLO) \
	VPCMPEQD BLO, ALO, T; \
	VPCMPEQD BHI, AHI, U; \
	VPAND U, T, T

// SHIFT64 shifts the 64-bit lanes (low dwords at SI, high at R11) by the
// amounts at DX mod 64 (M63 holds 63 in each dword, Z zero) and stores
// them at DI and R10. VPUNPCKLDQ and VPUNPCKHDQ pair each lane's dwords as
// a qword (lanes 0, 1, 4, 5 in Q0, 2, 3, 6, 7 in Q1), the amounts likewise;
// OP shifts a register of qwords; VSHUFPS takes the low and high dwords
// back to lane order.
#define SHIFT64(OP, LO, HI, S, Q0, Q1, C0, C1, T, Z, M63) \
	VMOVDQU (SI)(R13*1), LO; \
	VMOVDQU (R11)(R13*1), HI; \
	VMOVDQU (DX)(R13*1), S; \
	VPAND M63, S, S; \
	VPUNPCKLDQ HI, LO, Q0; \
	VPUNPCKHDQ HI, LO, Q1; \
	VPUNPCKLDQ Z, S, C0; \
	VPUNPCKHDQ Z, S, C1; \
	OP(Q0, C0, T, Z); \
	OP(Q1, C1, T, Z); \
	VSHUFPS $0x88, Q1, Q0, LO; \
	VSHUFPS $0xDD, Q1, Q0, HI; \
	VMOVDQU LO, (DI)(R13*1); \
	VMOVDQU HI, (R10)(R13*1)

#define SHL(Q, C, T, Z) VPSLLVQ C, Q, Q

#define SHR(Q, C, T, Z) VPSRLVQ C, Q, Q

// SAR shifts the sign-flipped value (T the sign, from 0 > Q) right and
// flips it back.
#define SAR(Q, C, T, Z) \
	VPCMPGTQ Q, Z, T; \
	VPXOR T, Q, Q; \
	VPSRLVQ C, Q, Q; \
	VPXOR T, Q, Q

// SHIFTLOOP runs SHIFT64 over the quads with OP, then goes to done; LOOP
// and TAIL name its labels.
#define SHIFTLOOP(OP, LOOP, TAIL) \
LOOP: \
	CMPQ BX, $2; \
	JB   TAIL; \
	SHIFT64(OP, Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7, Y14, Y15); \
	NEXT8; \
	JMP  LOOP; \
TAIL: \
	TESTQ BX, BX; \
	JZ    done; \
	SHIFT64(OP, X0, X1, X2, X3, X4, X5, X6, X7, X14, X15); \
	JMP   done

// func addAVX2(d, a, b *[64]uint32, n int) uint64
TEXT ·addAVX2(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), BX
	START
loop:
	CMPQ BX, $2
	JB   tail
	VMOVDQU (SI)(R13*1), Y0
	VMOVDQU (DX)(R13*1), Y1
	ADD(Y0, Y1, Y2, Y3)
	VMOVDQU Y2, (DI)(R13*1)
	MASKNOT(Y3, $0xff)
	NEXT8
	JMP  loop
tail:
	TESTQ BX, BX
	JZ    done
	VMOVDQU (SI)(R13*1), X0
	VMOVDQU (DX)(R13*1), X1
	ADD(X0, X1, X2, X3)
	VMOVDQU X2, (DI)(R13*1)
	MASKNOT(X3, $0xf)
done:
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET

// func addCarryAVX2(d, a, b *[64]uint32, cm uint64, n int) uint64
TEXT ·addCarryAVX2(SB), NOSPLIT, $0-48
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ cm+24(FP), R9
	MOVQ n+32(FP), BX
	START
	VMOVDQU laneBits<>(SB), Y14
loop:
	CMPQ BX, $2
	JB   tail
	MASKIN(Y4, X4, Y14)
	VMOVDQU (SI)(R13*1), Y0
	VMOVDQU (DX)(R13*1), Y1
	ADDC(Y0, Y1, Y4, Y2, Y3, Y5)
	VMOVDQU Y2, (DI)(R13*1)
	MASKNOT(Y3, $0xff)
	NEXT8
	JMP  loop
tail:
	TESTQ BX, BX
	JZ    done
	MASKIN(X4, X4, X14)
	VMOVDQU (SI)(R13*1), X0
	VMOVDQU (DX)(R13*1), X1
	ADDC(X0, X1, X4, X2, X3, X5)
	VMOVDQU X2, (DI)(R13*1)
	MASKNOT(X3, $0xf)
done:
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET

// func addUniformAVX2(d *[64]uint32, x uint32, b *[64]uint32, n int) uint64
TEXT ·addUniformAVX2(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVL x+8(FP), R8
	VMOVD R8, X0
	VPBROADCASTD X0, Y0 // x in every lane
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), BX
	START
loop:
	CMPQ BX, $2
	JB   tail
	VMOVDQU (DX)(R13*1), Y1
	ADD(Y0, Y1, Y2, Y3)
	VMOVDQU Y2, (DI)(R13*1)
	MASKNOT(Y3, $0xff)
	NEXT8
	JMP  loop
tail:
	TESTQ BX, BX
	JZ    done
	VMOVDQU (DX)(R13*1), X1
	ADD(X0, X1, X2, X3)
	VMOVDQU X2, (DI)(R13*1)
	MASKNOT(X3, $0xf)
done:
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET

// func subAVX2(d, a, b *[64]uint32, n int) uint64
TEXT ·subAVX2(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), BX
	START
loop:
	CMPQ BX, $2
	JB   tail
	VMOVDQU (SI)(R13*1), Y0
	VMOVDQU (DX)(R13*1), Y1
	SUB(Y0, Y1, Y2, Y3)
	VMOVDQU Y2, (DI)(R13*1)
	MASKNOT(Y3, $0xff)
	NEXT8
	JMP  loop
tail:
	TESTQ BX, BX
	JZ    done
	VMOVDQU (SI)(R13*1), X0
	VMOVDQU (DX)(R13*1), X1
	SUB(X0, X1, X2, X3)
	VMOVDQU X2, (DI)(R13*1)
	MASKNOT(X3, $0xf)
done:
	VZEROUPPER
	MOVQ AX, ret+32(FP)
	RET

// func subBorrowAVX2(d, a, b *[64]uint32, cm uint64, n int) uint64
TEXT ·subBorrowAVX2(SB), NOSPLIT, $0-48
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ cm+24(FP), R9
	MOVQ n+32(FP), BX
	START
	VMOVDQU laneBits<>(SB), Y14
loop:
	CMPQ BX, $2
	JB   tail
	MASKIN(Y4, X4, Y14)
	VMOVDQU (SI)(R13*1), Y0
	VMOVDQU (DX)(R13*1), Y1
	SUBB(Y0, Y1, Y4, Y2, Y3, Y5)
	VMOVDQU Y2, (DI)(R13*1)
	MASKNOT(Y3, $0xff)
	NEXT8
	JMP  loop
tail:
	TESTQ BX, BX
	JZ    done
	MASKIN(X4, X4, X14)
	VMOVDQU (SI)(R13*1), X0
	VMOVDQU (DX)(R13*1), X1
	SUBB(X0, X1, X4, X2, X3, X5)
	VMOVDQU X2, (DI)(R13*1)
	MASKNOT(X3, $0xf)
done:
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET

// func selectAVX2(d, a, b *[64]uint32, m uint64, n int)
TEXT ·selectAVX2(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ m+24(FP), R9
	MOVQ n+32(FP), BX
	START
	VMOVDQU laneBits<>(SB), Y14
loop:
	CMPQ BX, $2
	JB   tail
	MASKIN(Y4, X4, Y14)
	VMOVDQU (SI)(R13*1), Y0
	VMOVDQU (DX)(R13*1), Y1
	VPBLENDVB Y4, Y1, Y0, Y2 // b where the mask is set, else a
	VMOVDQU Y2, (DI)(R13*1)
	NEXT8
	JMP  loop
tail:
	TESTQ BX, BX
	JZ    done
	MASKIN(X4, X4, X14)
	VMOVDQU (SI)(R13*1), X0
	VMOVDQU (DX)(R13*1), X1
	VPBLENDVB X4, X1, X0, X2
	VMOVDQU X2, (DI)(R13*1)
done:
	VZEROUPPER
	RET

// func mulWideAVX2(dlo, dhi, a, b *[64]uint32, n int)
TEXT ·mulWideAVX2(SB), NOSPLIT, $0-40
	MOVQ dlo+0(FP), DI
	MOVQ dhi+8(FP), R10
	MOVQ a+16(FP), SI
	MOVQ b+24(FP), DX
	MOVQ n+32(FP), BX
	START
loop:
	CMPQ BX, $2
	JB   tail
	VMOVDQU (SI)(R13*1), Y0
	VMOVDQU (DX)(R13*1), Y1
	PRODUCTS(Y0, Y1, Y2, Y3)
	SPLIT64(Y2, Y3, Y4, Y5)
	VMOVDQU Y4, (DI)(R13*1)
	VMOVDQU Y5, (R10)(R13*1)
	NEXT8
	JMP  loop
tail:
	TESTQ BX, BX
	JZ    done
	VMOVDQU (SI)(R13*1), X0
	VMOVDQU (DX)(R13*1), X1
	PRODUCTS(X0, X1, X2, X3)
	SPLIT64(X2, X3, X4, X5)
	VMOVDQU X4, (DI)(R13*1)
	VMOVDQU X5, (R10)(R13*1)
done:
	VZEROUPPER
	RET

// func madWideAVX2(dlo, dhi, a, b, clo, chi *[64]uint32, n int) uint64
TEXT ·madWideAVX2(SB), NOSPLIT, $0-64
	MOVQ dlo+0(FP), DI
	MOVQ dhi+8(FP), R10
	MOVQ a+16(FP), SI
	MOVQ b+24(FP), DX
	MOVQ clo+32(FP), R11
	MOVQ chi+40(FP), R12
	MOVQ n+48(FP), BX
	START
	VMOVDQU signBit64<>(SB), Y15
loop:
	CMPQ BX, $2
	JB   tail
	VMOVDQU (SI)(R13*1), Y0
	VMOVDQU (DX)(R13*1), Y1
	VMOVDQU (R11)(R13*1), Y6
	VMOVDQU (R12)(R13*1), Y7
	PRODUCTS(Y0, Y1, Y2, Y3)
	MAD(Y2, Y3, Y6, Y7, Y15, Y8, Y9, Y10)
	SPLIT64(Y2, Y3, Y4, Y5)
	VMOVDQU Y4, (DI)(R13*1)
	VMOVDQU Y5, (R10)(R13*1)
	MASKOUT(Y8)
	NEXT8
	JMP  loop
tail:
	TESTQ BX, BX
	JZ    done
	VMOVDQU (SI)(R13*1), X0
	VMOVDQU (DX)(R13*1), X1
	VMOVDQU (R11)(R13*1), X6
	VMOVDQU (R12)(R13*1), X7
	PRODUCTS(X0, X1, X2, X3)
	MAD(X2, X3, X6, X7, X15, X8, X9, X10)
	SPLIT64(X2, X3, X4, X5)
	VMOVDQU X4, (DI)(R13*1)
	VMOVDQU X5, (R10)(R13*1)
	MASKOUT(X8)
done:
	VZEROUPPER
	MOVQ AX, ret+56(FP)
	RET

// func mulLoAVX2(d, a, b *[64]uint32, n int)
TEXT ·mulLoAVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), BX
	START
loop:
	CMPQ BX, $2
	JB   tail
	VMOVDQU (SI)(R13*1), Y0
	VPMULLD (DX)(R13*1), Y0, Y0
	VMOVDQU Y0, (DI)(R13*1)
	NEXT8
	JMP  loop
tail:
	TESTQ BX, BX
	JZ    done
	VMOVDQU (SI)(R13*1), X0
	VPMULLD (DX)(R13*1), X0, X0
	VMOVDQU X0, (DI)(R13*1)
done:
	VZEROUPPER
	RET

// func add3AVX2(d, a, b, c *[64]uint32, n int)
TEXT ·add3AVX2(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ c+24(FP), R11
	MOVQ n+32(FP), BX
	START
loop:
	CMPQ BX, $2
	JB   tail
	VMOVDQU (SI)(R13*1), Y0
	VPADDD (DX)(R13*1), Y0, Y0
	VPADDD (R11)(R13*1), Y0, Y0
	VMOVDQU Y0, (DI)(R13*1)
	NEXT8
	JMP  loop
tail:
	TESTQ BX, BX
	JZ    done
	VMOVDQU (SI)(R13*1), X0
	VPADDD (DX)(R13*1), X0, X0
	VPADDD (R11)(R13*1), X0, X0
	VMOVDQU X0, (DI)(R13*1)
done:
	VZEROUPPER
	RET

// func mulHiAVX2(d, a, b *[64]uint32, n int)
TEXT ·mulHiAVX2(SB), NOSPLIT, $0-32
	MOVQ d+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), BX
	START
loop:
	CMPQ BX, $2
	JB   tail
	VMOVDQU (SI)(R13*1), Y0
	VMOVDQU (DX)(R13*1), Y1
	PRODUCTS(Y0, Y1, Y2, Y3)
	VPSRLQ $32, Y2, Y2
	VPBLENDD $0xAA, Y3, Y2, Y2 // the high dwords, in lane order
	VMOVDQU Y2, (DI)(R13*1)
	NEXT8
	JMP  loop
tail:
	TESTQ BX, BX
	JZ    done
	VMOVDQU (SI)(R13*1), X0
	VMOVDQU (DX)(R13*1), X1
	PRODUCTS(X0, X1, X2, X3)
	VPSRLQ $32, X2, X2
	VPBLENDD $0xAA, X3, X2, X2
	VMOVDQU X2, (DI)(R13*1)
done:
	VZEROUPPER
	RET

// func lessAVX2(a, b *[64]uint32, n int) uint64
TEXT ·lessAVX2(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DX
	MOVQ n+16(FP), BX
	START
	COMPARE(NOTLESS, MASKNOT8, MASKNOT4)
	MOVQ AX, ret+24(FP)
	RET

// func lessSignedAVX2(a, b *[64]uint32, n int) uint64
TEXT ·lessSignedAVX2(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DX
	MOVQ n+16(FP), BX
	START
	COMPARE(LESSSIGNED, MASKOUT, MASKOUT)
	MOVQ AX, ret+24(FP)
	RET

// func equalAVX2(a, b *[64]uint32, n int) uint64
TEXT ·equalAVX2(SB), NOSPLIT, $0-32
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DX
	MOVQ n+16(FP), BX
	START
	COMPARE(EQUAL, MASKOUT, MASKOUT)
	MOVQ AX, ret+24(FP)
	RET

// func less64AVX2(alo, ahi, blo, bhi *[64]uint32, hiBias uint32, n int) uint64
TEXT ·less64AVX2(SB), NOSPLIT, $0-56
	MOVQ alo+0(FP), SI
	MOVQ ahi+8(FP), DX
	MOVQ blo+16(FP), R11
	MOVQ bhi+24(FP), R12
	MOVL hiBias+32(FP), R9
	MOVQ n+40(FP), BX
	START
	XORL $0x80000000, R9 // the high dwords' flip for a signed compare
	VMOVD R9, X14
	VPBROADCASTD X14, Y14
	MOVL $0x80000000, R9 // the low dwords': unsigned
	VMOVD R9, X15
	VPBROADCASTD X15, Y15
	COMPARE64(LESS64)
	MOVQ AX, ret+48(FP)
	RET

// func equal64AVX2(alo, ahi, blo, bhi *[64]uint32, n int) uint64
TEXT ·equal64AVX2(SB), NOSPLIT, $0-48
	MOVQ alo+0(FP), SI
	MOVQ ahi+8(FP), DX
	MOVQ blo+16(FP), R11
	MOVQ bhi+24(FP), R12
	MOVQ n+32(FP), BX
	START
	COMPARE64(EQUAL64)
	MOVQ AX, ret+40(FP)
	RET

// func shift64AVX2(dlo, dhi, s, lo, hi *[64]uint32, kind int, n int)
TEXT ·shift64AVX2(SB), NOSPLIT, $0-56
	MOVQ dlo+0(FP), DI
	MOVQ dhi+8(FP), R10
	MOVQ s+16(FP), DX
	MOVQ lo+24(FP), SI
	MOVQ hi+32(FP), R11
	MOVQ kind+40(FP), R9
	MOVQ n+48(FP), BX
	START
	VPXOR Y14, Y14, Y14
	MOVL $63, R8
	VMOVD R8, X15
	VPBROADCASTD X15, Y15
	CMPQ R9, $0 // shiftLeft
	JEQ  left
	CMPQ R9, $1 // shiftRight
	JEQ  right
	SHIFTLOOP(SAR, sarLoop, sarTail)
left:
	SHIFTLOOP(SHL, leftLoop, leftTail)
right:
	SHIFTLOOP(SHR, rightLoop, rightTail)
done:
	VZEROUPPER
	RET
