//go:build amd64 && !purego

#include "textflag.h"

// The narrow loads' and stores' data movement (widen.go): eight lanes a
// YMM step, then the last up to seven one at a time. Registers: DI = dst,
// SI = src, R8 = the lanes, R9 = the lanes in whole steps, R10 = the
// step's first lane; the stores keep their shift (0 or 16) in CX.

// Each 128-bit half's four words' low shorts (the first 32 bytes) or
// high shorts (the next 32) to the half's low quadword, for VPSHUFB.
DATA shortsMask<>+0(SB)/8, $0x0d0c090805040100
DATA shortsMask<>+8(SB)/8, $0x8080808080808080
DATA shortsMask<>+16(SB)/8, $0x0d0c090805040100
DATA shortsMask<>+24(SB)/8, $0x8080808080808080
DATA shortsMask<>+32(SB)/8, $0x0f0e0b0a07060302
DATA shortsMask<>+40(SB)/8, $0x8080808080808080
DATA shortsMask<>+48(SB)/8, $0x0f0e0b0a07060302
DATA shortsMask<>+56(SB)/8, $0x8080808080808080
GLOBL shortsMask<>(SB), RODATA|NOPTR, $64

// Each half's four words' low bytes (the first 32 bytes) or their high
// halves' low bytes (the next 32) to the half's low dword, for VPSHUFB.
DATA bytesMask<>+0(SB)/8, $0x808080800c080400
DATA bytesMask<>+8(SB)/8, $0x8080808080808080
DATA bytesMask<>+16(SB)/8, $0x808080800c080400
DATA bytesMask<>+24(SB)/8, $0x8080808080808080
DATA bytesMask<>+32(SB)/8, $0x808080800e0a0602
DATA bytesMask<>+40(SB)/8, $0x8080808080808080
DATA bytesMask<>+48(SB)/8, $0x808080800e0a0602
DATA bytesMask<>+56(SB)/8, $0x8080808080808080
GLOBL bytesMask<>(SB), RODATA|NOPTR, $64

// Dwords 0 and 4 (each half's low dword) to dwords 0 and 1, for VPERMD.
DATA halvesLow<>+0(SB)/4, $0
DATA halvesLow<>+4(SB)/4, $4
DATA halvesLow<>+8(SB)/8, $0
DATA halvesLow<>+16(SB)/8, $0
DATA halvesLow<>+24(SB)/8, $0
GLOBL halvesLow<>(SB), RODATA|NOPTR, $32

// WIDEN widens R8 elements of SCALE bytes from SI to words at DI: a
// whole wave's 64 in eight straight YMM steps, else eight with VEXT a
// YMM step while eight are left, then one with EXT a step. W names the
// loops' start, S and L the loops, D the end.
#define WIDEN(VEXT, EXT, SCALE, W, S, L, D) \
	CMPQ    R8, $64 \
	JNE     W \
	VEXT    (0*SCALE)(SI), Y0 \
	VEXT    (8*SCALE)(SI), Y1 \
	VEXT    (16*SCALE)(SI), Y2 \
	VEXT    (24*SCALE)(SI), Y3 \
	VMOVDQU Y0, 0(DI) \
	VMOVDQU Y1, 32(DI) \
	VMOVDQU Y2, 64(DI) \
	VMOVDQU Y3, 96(DI) \
	VEXT    (32*SCALE)(SI), Y0 \
	VEXT    (40*SCALE)(SI), Y1 \
	VEXT    (48*SCALE)(SI), Y2 \
	VEXT    (56*SCALE)(SI), Y3 \
	VMOVDQU Y0, 128(DI) \
	VMOVDQU Y1, 160(DI) \
	VMOVDQU Y2, 192(DI) \
	VMOVDQU Y3, 224(DI) \
	VZEROUPPER \
	RET \
W:	\
	MOVQ    R8, R9 \
	ANDQ    $-8, R9 \
	XORQ    R10, R10 \
	TESTQ   R9, R9 \
	JZ      L \
S:	\
	VEXT    (SI)(R10*SCALE), Y0 \
	VMOVDQU Y0, (DI)(R10*4) \
	ADDQ    $8, R10 \
	CMPQ    R10, R9 \
	JB      S \
L:	\
	CMPQ    R10, R8 \
	JAE     D \
	EXT     (SI)(R10*SCALE), AX \
	MOVL    AX, (DI)(R10*4) \
	INCQ    R10 \
	JMP     L \
D:	\
	VZEROUPPER \
	RET

// NARROW8 narrows the eight words at byte OFF of SI to the elements at
// byte OFF*SCALE/4 of DI, as NARROW's YMM step does.
#define NARROW8(JOIN, STORE, SCALE, OFF) \
	VMOVDQU OFF(SI), Y0 \
	VPSHUFB Y1, Y0, Y0 \
	JOIN \
	STORE   X0, (OFF*SCALE/4)(DI)

// NARROW narrows R8 words from SI to elements of SCALE bytes at DI, Y1
// holding the VPSHUFB mask that gathers each half's four elements in
// its low bytes, JOIN joining the halves in X0 and STORE storing them:
// a whole wave's 64 in eight straight YMM steps, else eight a YMM step
// while eight are left, then one word shifted right by hi's 16 or 0 and
// stored with EXT a step. W names the loops' start, S and L the loops, D
// the end.
#define NARROW(JOIN, STORE, EXT, SCALE, W, S, L, D) \
	CMPQ    R8, $64 \
	JNE     W \
	NARROW8(JOIN, STORE, SCALE, 0) \
	NARROW8(JOIN, STORE, SCALE, 32) \
	NARROW8(JOIN, STORE, SCALE, 64) \
	NARROW8(JOIN, STORE, SCALE, 96) \
	NARROW8(JOIN, STORE, SCALE, 128) \
	NARROW8(JOIN, STORE, SCALE, 160) \
	NARROW8(JOIN, STORE, SCALE, 192) \
	NARROW8(JOIN, STORE, SCALE, 224) \
	VZEROUPPER \
	RET \
W:	\
	MOVQ    R8, R9 \
	ANDQ    $-8, R9 \
	XORQ    R10, R10 \
	TESTQ   R9, R9 \
	JZ      L \
S:	\
	VMOVDQU (SI)(R10*4), Y0 \
	VPSHUFB Y1, Y0, Y0 \
	JOIN \
	STORE   X0, (DI)(R10*SCALE) \
	ADDQ    $8, R10 \
	CMPQ    R10, R9 \
	JB      S \
L:	\
	CMPQ    R10, R8 \
	JAE     D \
	MOVL    (SI)(R10*4), AX \
	SHRL    CX, AX \
	EXT     AX, (DI)(R10*SCALE) \
	INCQ    R10 \
	JMP     L \
D:	\
	VZEROUPPER \
	RET

// WIDENARGS loads DI, SI and R8 for the widening loads.
#define WIDENARGS \
	MOVQ dst_base+0(FP), DI \
	MOVQ dst_len+8(FP), R8  \
	MOVQ src_base+24(FP), SI

// NARROWARGS loads DI, SI and R8, CX with hi's shift and Y1 with the
// VPSHUFB mask at MASK (its second half when hi) for the narrowing
// stores.
#define NARROWARGS(MASK) \
	MOVQ    dst_base+0(FP), DI \
	MOVQ    src_base+24(FP), SI \
	MOVQ    src_len+32(FP), R8 \
	MOVBQZX hi+48(FP), CX \
	SHLQ    $4, CX \
	LEAQ    MASK, BX \
	VMOVDQU (BX)(CX*2), Y1

// func widenBytesAVX2(dst []uint32, src []byte, signed bool)
TEXT ·widenBytesAVX2(SB), NOSPLIT, $0-49
	WIDENARGS
	CMPB signed+48(FP), $0
	JNE  sext
	WIDEN(VPMOVZXBD, MOVBLZX, 1, zwave, zsteps, zlanes, zdone)
sext:
	WIDEN(VPMOVSXBD, MOVBLSX, 1, swave, ssteps, slanes, sdone)

// func widenShortsAVX2(dst []uint32, src []byte, signed bool)
TEXT ·widenShortsAVX2(SB), NOSPLIT, $0-49
	WIDENARGS
	CMPB signed+48(FP), $0
	JNE  sext
	WIDEN(VPMOVZXWD, MOVWLZX, 2, zwave, zsteps, zlanes, zdone)
sext:
	WIDEN(VPMOVSXWD, MOVWLSX, 2, swave, ssteps, slanes, sdone)

// JOINBYTES moves dword 4 (the high half's bytes) beside dword 0.
#define JOINBYTES \
	VPERMD Y0, Y2, Y0

// JOINSHORTS moves quadword 2 (the high half's shorts) beside quadword 0.
#define JOINSHORTS \
	VPERMQ $0x08, Y0, Y0

// func narrowBytesAVX2(dst []byte, src []uint32, hi bool)
TEXT ·narrowBytesAVX2(SB), NOSPLIT, $0-49
	NARROWARGS(bytesMask<>(SB))
	VMOVDQU halvesLow<>(SB), Y2
	NARROW(JOINBYTES, MOVQ, MOVB, 1, wave, steps, lanes, done)

// func narrowShortsAVX2(dst []byte, src []uint32, hi bool)
TEXT ·narrowShortsAVX2(SB), NOSPLIT, $0-49
	NARROWARGS(shortsMask<>(SB))
	NARROW(JOINSHORTS, VMOVDQU, MOVW, 2, wave, steps, lanes, done)

// func moveRowAVX2(dst, src *[64]uint32)
TEXT ·moveRowAVX2(SB), NOSPLIT, $0-16
	MOVQ    dst+0(FP), DI
	MOVQ    src+8(FP), SI
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VMOVDQU 128(SI), Y4
	VMOVDQU 160(SI), Y5
	VMOVDQU 192(SI), Y6
	VMOVDQU 224(SI), Y7
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	VMOVDQU Y4, 128(DI)
	VMOVDQU Y5, 160(DI)
	VMOVDQU Y6, 192(DI)
	VMOVDQU Y7, 224(DI)
	VZEROUPPER
	RET
