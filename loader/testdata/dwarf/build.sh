#!/usr/bin/env bash
# Rebuilds the DWARF test code objects with Debian's clang-15 and ld.lld-15
# (byte-identical when repeated): loops.cl (-O2) and calls_O0.cl (-O0, real
# calls), both copied from emu/testdata/cl, built with -g for gfx803, gfx900
# and gfx906 as code object v4 and v5:
#
#   NAME-CPU-vV.co   ET_DYN, linked
#   loops-gfx900-v4-subdir.co  a relative include directory under /build
#   loops-gfx900-v5-zlib.co, loops-gfx900-v5-zstd.co  compressed debug sections
#   loops-gfx900-v4-dwarf4.co  the same as DWARF 4 (clang-15 defaults to 5)
#   loops-gfx900-v5.o  ET_REL (clang -c, unlinked; carries .rela.debug_*)
#
# The sources are compiled from this directory by their bare names with
# -fdebug-prefix-map, so DW_AT_comp_dir is empty and tools run from here find
# them (llvm-objdump -S, wavedbg disasm -S).
# OUT=DIR writes the results under DIR instead of here.
set -euo pipefail
cd "$(dirname "$0")"
OUT=$(mkdir -p "${OUT:-.}" && cd "${OUT:-.}" && pwd)
CLANG=${CLANG:-clang-15}
LLD=${LLD:-ld.lld-15}
OBJCOPY=${OBJCOPY:-llvm-objcopy-19}
DEVLIBS=${DEVLIBS:-$(dpkg -L rocm-device-libs | grep -m1 '/amdgcn/bitcode$')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cl() { # cl SRC CPU VERSION OPT OUT.o [FLAGS...]
  local src=$1 cpu=$2 v=$3 opt=$4 out=$5
  shift 5
  "$CLANG" -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu="$cpu" -mcode-object-version="$v" \
    -g "$opt" "$@" -fdebug-prefix-map="$PWD"= --rocm-device-lib-path="$DEVLIBS" -c "$src.cl" -o "$out"
}

for src in loops:-O2 calls_O0:-O0; do
  name=${src%%:*} opt=${src#*:}
  for cpu in gfx803 gfx900 gfx906; do
    for v in 4 5; do
      cl "$name" "$cpu" "$v" "$opt" "$tmp/k.o"
      "$LLD" -shared "$tmp/k.o" -o "$OUT/$name-$cpu-v$v.co"
    done
  done
done
cl loops gfx900 5 -O2 "$OUT/loops-gfx900-v5.o"
# Built as BUILDDIR/sub/loops.cl from BUILDDIR, mapped to /build: the
# line table names the file by a relative directory under an absolute
# DW_AT_comp_dir (llvm-objdump prints /build/sub/loops.cl).
mkdir -p "$tmp/sub"
cp loops.cl "$tmp/sub/"
(cd "$tmp" && "$CLANG" -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=gfx900 -mcode-object-version=4 \
  -g -O2 -fdebug-prefix-map="$tmp"=/build --rocm-device-lib-path="$DEVLIBS" -c "$tmp/sub/loops.cl" -o k.o)
"$LLD" -shared "$tmp/k.o" -o "$OUT/loops-gfx900-v4-subdir.co"
# Compressed debug sections: zlib from clang -gz and ld.lld, zstd by
# llvm-objcopy-19 (clang-15 and ld.lld-15 have no zstd).
cl loops gfx900 5 -O2 "$tmp/k.o" -gz=zlib
"$LLD" -shared --compress-debug-sections=zlib "$tmp/k.o" -o "$OUT/loops-gfx900-v5-zlib.co"
"$OBJCOPY" --compress-debug-sections=zstd "$OUT/loops-gfx900-v5.co" "$OUT/loops-gfx900-v5-zstd.co"
cl loops gfx900 4 -O2 "$tmp/k.o" -gdwarf-4
"$LLD" -shared "$tmp/k.o" -o "$OUT/loops-gfx900-v4-dwarf4.co"
