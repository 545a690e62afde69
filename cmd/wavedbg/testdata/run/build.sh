#!/usr/bin/env bash
# build.sh: build bad.cl into bad.co (gfx900, code object v4) with clang-15.
set -euo pipefail
cd "$(dirname "$0")"
DEVLIB=${DEVLIB:-$(dpkg -L rocm-device-libs | grep -m1 '/amdgcn/bitcode$')}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clang-15 -x cl -cl-std=CL1.2 -target amdgcn-amd-amdhsa -mcpu=gfx900 -mcode-object-version=4 -O2 \
	--rocm-device-lib-path="$DEVLIB" -c bad.cl -o "$tmp/bad.o"
ld.lld-15 -shared "$tmp/bad.o" -o bad.co
