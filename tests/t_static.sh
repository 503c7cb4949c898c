#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make static (issue 38): latt-static, the binary for a test VM or an
# initramfs, is statically linked (file(1) says so; without file, its ELF
# program headers hold no interpreter and no dynamic section) and makes a
# short run.  make check-build links it where a static libc is present;
# elsewhere the test is skipped with the reason.
. "$(dirname "$0")/lib.sh"

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/latt-static
libc=$(${CC:-cc} -print-file-name=libc.a 2>/dev/null)
case $libc in
/*) ;;
*)
	skip "static: no static libc ('${CC:-cc} -print-file-name=libc.a' found none), so no latt-static"
	exit 0
	;;
esac
if [ ! -x "$BIN" ]; then
	fail "static: a static libc is present ($libc) but latt-static is not built (make check-build builds it)"
	exit 0
fi
LATT=$BIN run_latt "$TMP/out" "$TMP/err" -q -c2 -n 20 -f 0 -t 1 \
    --fail-above=max=1h sleep 30
[ "$rc" -eq 0 ] && grep -q '^Entries: 20 ' "$TMP/out" &&
    grep -q '^gate: met' "$TMP/err" || bad "rc $rc: $(short "$TMP/err")"
if command -v file >/dev/null 2>&1; then
	how=$(file -L "$BIN")
	case $how in
	*"statically linked"*) ;;
	*) bad "file(1): $how" ;;
	esac
else
	# ELF64 little-endian: no PT_INTERP (3) nor PT_DYNAMIC (2) header.
	how=$(python3 - "$BIN" <<'EOF'
import struct, sys
b = open(sys.argv[1], "rb").read()
if b[:4] != b"\x7fELF" or b[4] != 2 or b[5] != 1:
    print("not a little-endian ELF64 file")
    sys.exit()
phoff, = struct.unpack_from("<Q", b, 32)
phentsize, phnum = struct.unpack_from("<HH", b, 54)
kinds = [struct.unpack_from("<I", b, phoff + i * phentsize)[0]
         for i in range(phnum)]
print("statically linked" if 2 not in kinds and 3 not in kinds
      else "dynamically linked")
EOF
)
	[ "$how" = "statically linked" ] || bad "ELF headers: $how"
fi
verdict "static: latt-static is statically linked and runs ($how)"
no_leftovers "static"
