#!/usr/bin/env bash
# Rebuilds the code objects that LLVM's tools read but that need care:
#
#   linked-gfx900-v4.co    ld.lld links two objects (kernel.s.in as "first"
#                          and "second"): one NT_AMDGPU_METADATA note each
#   linked-conflict.co     the same with "first" and "other", whose notes
#                          disagree on amdhsa.version (1.1 and 1.2)
#   v2-r630-gfx803.co      clang-15's code object v2 for gfx803 (../src/vadd.cl)
#                          with EF_AMDGPU_MACH patched to 0x2 (r630), as older
#                          toolchains wrote it; its NT_AMD_HSA_ISA note says 8.0.3
#   twice.so               x86-64 shared library whose .hip_fatbin holds three
#                          bundles: 0 and 2 both define "first" (gfx900 and
#                          gfx803 entries), 1 defines "second" (gfx900 only),
#                          so "first" is ambiguous and "second" is not
#
# OUT=DIR writes the results under DIR instead of here.
set -euo pipefail
cd "$(dirname "$0")"
OUT=$(mkdir -p "${OUT:-.}" && cd "${OUT:-.}" && pwd)
MC=${MC:-llvm-mc-19}
CLANG=${CLANG:-clang-15}
LLD=${LLD:-ld.lld-15}
OBJCOPY=${OBJCOPY:-llvm-objcopy-19}
DEVLIBS=${DEVLIBS:-$(dpkg -L rocm-device-libs | grep -m1 '/amdgcn/bitcode$')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# obj NAME VALUE MINOR: kernel NAME writing VALUE, metadata version 1.MINOR.
# obj NAME VALUE MINOR [CPU]: kernel NAME writing VALUE, metadata version
# 1.MINOR, for CPU (gfx900), into $tmp/NAME[-CPU].o.
obj() {
  local cpu=${4:-gfx900} o=$tmp/$1${4:+-$4}
  sed "s/NAME/$1/g;s/VALUE/$2/;s/VERSION/$3/;s/gfx900/$cpu/" kernel.s.in >"$o.s"
  "$MC" -triple amdgcn-amd-amdhsa -mcpu="$cpu" -filetype=obj "$o.s" -o "$o.o"
}
obj first 1 1
obj second 2 1
obj other 3 2
"$LLD" -shared "$tmp/first.o" "$tmp/second.o" -o "$OUT/linked-gfx900-v4.co"
"$LLD" -shared "$tmp/first.o" "$tmp/other.o" -o "$OUT/linked-conflict.co"

"$CLANG" -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=gfx803 -mcode-object-version=2 \
  -cl-kernel-arg-info -O2 --rocm-device-lib-path="$DEVLIBS" -c ../src/vadd.cl -o "$tmp/vadd.o"
"$LLD" -shared "$tmp/vadd.o" -o "$OUT/v2-r630-gfx803.co"
# e_flags is the 4-byte field at offset 48 of the ELF64 header; its low
# byte is EF_AMDGPU_MACH.
printf '\x02' | dd of="$OUT/v2-r630-gfx803.co" bs=1 seek=48 conv=notrunc status=none

obj first 1 1 gfx803
for o in first first-gfx803 second; do "$LLD" -shared "$tmp/$o.o" -o "$tmp/$o.co"; done
mk() { (cd ../.. && go run ./internal/mkbundle "$@"); }
host=host-x86_64-unknown-linux-gnu=
mk -o "$tmp/b0" "$host" hipv4-amdgcn-amd-amdhsa--gfx803="$tmp/first-gfx803.co" \
  hipv4-amdgcn-amd-amdhsa--gfx900="$tmp/first.co"
mk -o "$tmp/b1" "$host" hipv4-amdgcn-amd-amdhsa--gfx900="$tmp/second.co"
mk -o "$tmp/b2" -compress zstd -ccob-version 3 "$host" hipv4-amdgcn-amd-amdhsa--gfx900="$tmp/first.co"
mk -o "$tmp/fatbin" -align 4096 -concat "$tmp/b0" "$tmp/b1" "$tmp/b2"
"$CLANG" -target x86_64-linux-gnu -O2 -fPIC -c ../src/host.c -o "$tmp/host.o"
"$OBJCOPY" --add-section .hip_fatbin="$tmp/fatbin" --set-section-flags .hip_fatbin=alloc,readonly \
  --set-section-alignment .hip_fatbin=4096 "$tmp/host.o" "$tmp/fat.o"
"$LLD" -shared "$tmp/fat.o" -o "$OUT/twice.so"
