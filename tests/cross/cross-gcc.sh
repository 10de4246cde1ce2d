#!/bin/sh
# cross-gcc.sh — `gcc` (and `cc`) for the aarch64 build's tests under qemu-user: what an aarch64
# machine calls gcc, here Debian's cross compiler. The guide's -mtune=native names the core the
# compiler runs on; a cross compiler has none and refuses it, so that one flag is left out (the
# figures under emulation are the emulator's anyway).
for a in "$@"; do
	shift
	case $a in
	-mtune=native | -mcpu=native) ;;
	*) set -- "$@" "$a" ;;
	esac
done
exec aarch64-linux-gnu-gcc "$@"
