#!/usr/bin/env python3
"""Unit test of the fuzzers' attribution of g++ errors to generated kernels: an error inside a
header (tile.hpp's static assertions) names the kernel through its `required from` line in the
generated file, never through the header's own line number (which once dropped valid kernels
whose line range happened to contain it). Exit 1 on a failure."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzzlib import oracles as O  # noqa: E402

SRC = '/tmp/k/b001.tile.cpp'
OUT = """In file included from /x/include/tilecc/tile.hpp:22,
                 from /tmp/k/b001.tile.cpp:2:
/x/include/tilecc/core.hpp: In instantiation of 'void tilecc::store(P, V)':
/tmp/k/b001.tile.cpp:57:10:   required from here
/x/include/tilecc/core.hpp:12:5: error: static assertion failed: value_matches_pointee
/tmp/k/b001.tile.cpp:80:3: error: no matching function for call to 'load'
/tmp/k/b001.tile.cpp:90:3: warning: unused variable 'x'
/tmp/k/other.tile.cpp:33:1: error: elsewhere
"""
got = O.gxx_error_lines(OUT, SRC)
want = [57, 80]
if got != want:
    print('gxx_error_lines: got %s, want %s' % (got, want))
    sys.exit(1)
print('ok: %s' % got)
