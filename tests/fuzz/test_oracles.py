#!/usr/bin/env python3
"""Unit test of the fuzzers' attribution of g++ errors to generated kernels: an error inside a
header (tile.hpp's static assertions) names the kernel through its `required from` line in the
generated file, never through the header's own line number (which once dropped valid kernels
whose line range happened to contain it). And the check that tells a false rejection from the
generator's ill-formed code that g++ lets through: a bad conversion inside a helper template
nobody calls (ill-formed, no diagnostic required) is rejected by clang++ too. Exit 1 on a
failure."""
import os
import shutil
import sys
import tempfile

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

NDR = '''#include <tilecc/tile.hpp>
using namespace tilecc;
auto never_called(auto x) {
  const tile<int, 16> t = full<int, 16>(1) & 255L;
  return x;
}
TILECC_KERNEL()
void k(int* out) { store(out + arange<16>(), full<int, 16>(%s)); }
'''
if shutil.which('clang++-19') or shutil.which('clang++'):
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, 'k.tile.cpp')
        open(src, 'w').write(NDR % '1')
        ok, out = O.gxx_check(src)
        if ok and not O.clang_rejects_too(src, [4]):
            print('clang_rejects_too: the uncalled helper\'s bad conversion was not seen')
            sys.exit(1)
        if O.clang_rejects_too(src, [8]):
            print('clang_rejects_too: blamed a line clang++ accepts')
            sys.exit(1)
    print('ok: clang_rejects_too')
else:
    print('skipped clang_rejects_too: no clang++')
