#!/usr/bin/env bash
# Rebuilds the committed test code objects from src/ with Debian's clang-15
# and ld.lld-15 (builds are byte-identical when repeated), then the bundles
# and the fat binary from those with the Go writer in ../internal/mkbundle
# (Debian ships no clang-offload-bundler).
#
#   co/NAME-gfxNNN-vV.co   ET_DYN code objects: vadd, args, lds_scratch for
#                          gfx803, gfx900, gfx906, gfx90a, code object v4 and v5,
#                          and v2 for gfx900
#   co/vadd-gfx900-v4.o    an ET_REL object (clang -c, unlinked)
#   bundle/vadd.bundle     offload bundle: host entry + the four vadd v4 objects
#   bundle/vadd-zlib.ccob  the same bundle compressed (CCOB v2, zlib)
#   bundle/vadd-zstd.ccob  the same bundle compressed (CCOB v3, zstd)
#   bundle/libfat.so       x86-64 shared library whose .hip_fatbin holds
#                          args.bundle (plain) then lds_scratch-zstd.ccob
#
# OUT=DIR writes the results under DIR instead of here (the reproducibility
# test in ../build_test.go uses it).
set -euo pipefail
cd "$(dirname "$0")"
OUT=$(mkdir -p "${OUT:-.}" && cd "${OUT:-.}" && pwd)
CLANG=${CLANG:-clang-15}
LLD=${LLD:-ld.lld-15}
OBJCOPY=${OBJCOPY:-llvm-objcopy-19}
DEVLIBS=${DEVLIBS:-$(dpkg -L rocm-device-libs | grep -m1 '/amdgcn/bitcode$')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$OUT/co" "$OUT/bundle"

cl() { # cl SRC CPU VERSION OUT.o
  "$CLANG" -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu="$2" -mcode-object-version="$3" \
    -cl-kernel-arg-info -O2 --rocm-device-lib-path="$DEVLIBS" -c "src/$1.cl" -o "$4"
}

for src in vadd args lds_scratch; do
  for cpu in gfx803 gfx900 gfx906 gfx90a; do
    for v in 4 5; do
      cl "$src" "$cpu" "$v" "$tmp/$src.o"
      "$LLD" -shared "$tmp/$src.o" -o "$OUT/co/$src-$cpu-v$v.co"
    done
  done
  # Code object v2: clang-15 still emits it (deprecated).
  cl "$src" gfx900 2 "$tmp/$src.o"
  "$LLD" -shared "$tmp/$src.o" -o "$OUT/co/$src-gfx900-v2.co"
done
cl vadd gfx900 4 "$OUT/co/vadd-gfx900-v4.o"

mk() { (cd .. && go run ./internal/mkbundle "$@"); }
host=host-x86_64-unknown-linux-gnu=
mk -o "$OUT"/bundle/vadd.bundle "$host" \
  hipv4-amdgcn-amd-amdhsa--gfx803="$OUT"/co/vadd-gfx803-v4.co \
  hipv4-amdgcn-amd-amdhsa--gfx900="$OUT"/co/vadd-gfx900-v4.co \
  hipv4-amdgcn-amd-amdhsa--gfx906="$OUT"/co/vadd-gfx906-v4.co \
  hipv4-amdgcn-amd-amdhsa--gfx90a="$OUT"/co/vadd-gfx90a-v4.co
mk -o "$OUT"/bundle/vadd-zlib.ccob -compress zlib -ccob-version 2 "$host" \
  hipv4-amdgcn-amd-amdhsa--gfx803="$OUT"/co/vadd-gfx803-v4.co \
  hipv4-amdgcn-amd-amdhsa--gfx900="$OUT"/co/vadd-gfx900-v4.co \
  hipv4-amdgcn-amd-amdhsa--gfx906="$OUT"/co/vadd-gfx906-v4.co \
  hipv4-amdgcn-amd-amdhsa--gfx90a="$OUT"/co/vadd-gfx90a-v4.co
mk -o "$OUT"/bundle/vadd-zstd.ccob -compress zstd -ccob-version 3 "$host" \
  hipv4-amdgcn-amd-amdhsa--gfx803="$OUT"/co/vadd-gfx803-v4.co \
  hipv4-amdgcn-amd-amdhsa--gfx900="$OUT"/co/vadd-gfx900-v4.co \
  hipv4-amdgcn-amd-amdhsa--gfx906="$OUT"/co/vadd-gfx906-v4.co \
  hipv4-amdgcn-amd-amdhsa--gfx90a="$OUT"/co/vadd-gfx90a-v4.co

# The fat binary: two bundles, each 4096-aligned, like a hipcc-built library.
# Their entries carry target features, as in Debian's libraries.
cl args gfx900:xnack- 4 "$tmp/a.o" && "$LLD" -shared "$tmp/a.o" -o "$tmp/args-gfx900.co"
cl args gfx90a:xnack+ 4 "$tmp/a.o" && "$LLD" -shared "$tmp/a.o" -o "$tmp/args-gfx90a.co"
cl lds_scratch gfx906:xnack- 4 "$tmp/a.o" && "$LLD" -shared "$tmp/a.o" -o "$tmp/lds-gfx906.co"
mk -o "$tmp/args.bundle" "$host" \
  hipv4-amdgcn-amd-amdhsa--gfx900:xnack-="$tmp/args-gfx900.co" \
  hipv4-amdgcn-amd-amdhsa--gfx90a:xnack+="$tmp/args-gfx90a.co"
mk -o "$tmp/lds.ccob" -compress zstd -ccob-version 3 "$host" \
  hipv4-amdgcn-amd-amdhsa--gfx803="$OUT"/co/lds_scratch-gfx803-v4.co \
  hipv4-amdgcn-amd-amdhsa--gfx906:xnack-="$tmp/lds-gfx906.co"
mk -o "$tmp/fatbin" -align 4096 -concat "$tmp/args.bundle" "$tmp/lds.ccob"
"$CLANG" -target x86_64-linux-gnu -O2 -fPIC -c src/host.c -o "$tmp/host.o"
"$OBJCOPY" --add-section .hip_fatbin="$tmp/fatbin" --set-section-flags .hip_fatbin=alloc,readonly \
  --set-section-alignment .hip_fatbin=4096 "$tmp/host.o" "$tmp/fat.o"
"$LLD" -shared "$tmp/fat.o" -o "$OUT/bundle/libfat.so"
