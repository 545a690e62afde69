#!/bin/sh
# Rebuilds scale.co, the debugger's bundled sample, from scale.asm.
# Needs llvm-mc-19 and ld.lld-15.
set -eu
cd "$(dirname "$0")"
llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx900 -filetype=obj scale.asm -o scale.o
ld.lld-15 -shared scale.o -o scale.co
rm -f scale.o
