"""Compares the ctypes structures of python/tensoralias/_capi.py with the C
headers' layout, as tests/python/layout.c prints it (standard input)."""
import sys

from tensoralias import _capi


def main():
    bad, n = [], 0
    for line in sys.stdin:
        struct, field, value = line.split()
        cls = getattr(_capi, struct)
        got = cls and (_capi.ctypes.sizeof(cls) if field == "sizeof" else getattr(cls, field).offset)
        n += 1
        if got != int(value):
            bad.append("%s.%s: %s in C, %s in _capi.py" % (struct, field, value, got))
    print("\n".join(bad) or "%d sizes and offsets agree" % n)
    return 1 if bad or not n else 0


if __name__ == "__main__":
    sys.exit(main())
