#!/usr/bin/env python3
"""Minimiser for fuzz findings: reduces a failing kernel to a small reproducer that fails the
same way (the same class and signature), then writes it with a header comment stating the
failure class, the command and the observed output.

From a campaign finding (the generator's program is regenerated from its seed and reduced on
the generator's representation: whole helpers and statements dropped, if/for replaced by their
bodies, expressions replaced by constants or by a subexpression of the same type; then
identifiers renamed and lines dropped on the text):

  tests/fuzz/minimize.py --tilecc build/translator/tilecc --finding /tmp/fz/findings/hang-008 \\
      --save tests/fuzz/findings/001-hang-name.tile.cpp

From any kernel file (text only: lines, then tokens):

  tests/fuzz/minimize.py --tilecc build/translator/tilecc --source k.tile.cpp --save small.tile.cpp

The reduced kernel must still compile with g++ against tile.hpp (it stays a valid kernel);
masks and offsets of memory accesses are never replaced (accesses stay in bounds).
"""
import argparse
import copy
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fuzzlib import oracles as O  # noqa: E402
from fuzzlib.ast import Ex, St, Ty, Program, RenderCtx  # noqa: E402
from fuzzlib.kernelgen import gen_program  # noqa: E402
from fuzzlib.values import FLOATS, INTS, CPP  # noqa: E402

PROTECTED = {'mask', 'offs', 'guarded'}


class Checker:
    """Does a kernel text still fail with the same class and signature?"""

    def __init__(self, a, cls, signature):
        self.a = a
        self.cls = cls
        self.signature = signature
        self.dir = tempfile.mkdtemp(prefix='tilecc-min-')
        self.src = os.path.join(self.dir, 'k.tile.cpp')
        self.tests = 0
        self.cache = {}
        self.archs = None
        self.last = None

    def __call__(self, text):
        if text in self.cache:
            return self.cache[text]
        self.tests += 1
        r = self.check(text)
        self.cache[text] = r
        return r

    def oracle(self, text):
        open(self.src, 'w').write(text)
        res, cu = O.tilecc_check(self.a.tilecc, self.src, self.dir, timeout=self.a.timeout)
        if self.cls in (O.NVCC_ERROR, O.NVCC_WARNING, O.HEADER):
            if res.cls is not None:
                return res
            if self.cls == O.HEADER:
                return O.header_check(cu[:-3] + '.h')
            return O.nvcc_check(self.a.nvcc, cu, timeout=600, archs=self.archs)
        return res

    def check(self, text):
        if self.cls == O.HANG:
            ok, _ = O.gxx_check(self.write(text))
            if not ok:
                return False
            r = self.oracle(text)
            self.last = r
            return r.cls == self.cls and r.signature == self.signature
        r = self.oracle(text)
        if r.cls != self.cls or r.signature != self.signature:
            return False
        ok, _ = O.gxx_check(self.write(text))
        if ok:
            self.last = r
        return ok

    def write(self, text):
        p = os.path.join(self.dir, 'g.tile.cpp')
        open(p, 'w').write(text)
        return p


# ---------------------------------------------------------------- reductions on the representation

def stmt_lists(items):
    """Every statement list (with its owner) in the program, outermost first."""
    out = []

    def walk(lst):
        out.append(lst)
        for s in list(lst):
            if s.kind == 'if':
                walk(s.body)
                if s.els:
                    walk(s.els)
            elif s.kind == 'for':
                walk(s.body)

    for f in items:
        walk(f.body)
    return out


def all_exprs(items):
    out = []

    def ex(e, parent, k):
        if e is None or not isinstance(e, Ex):
            return
        out.append((e, parent, k))
        if e.tag in PROTECTED:
            return
        for i, p in enumerate(e.parts):
            if isinstance(p, Ex):
                ex(p, e, i)

    for lst in stmt_lists(items):
        for s in lst:
            if s.ex is not None:
                ex(s.ex, s, 'ex')
            if s.kind == 'for':
                for key in ('init',):
                    ex(s.head.get(key), s.head, key)
    return out


def leaves(info):
    """Constant expressions of the same type and shape."""
    t, shape = info.t, tuple(info.shape)
    if t not in CPP:
        return []
    if shape:
        dims = ''.join(', %d' % d for d in shape)
        out = [Ex(['zeros<', Ty(t), dims + '>()'], info)]
        if t == 'bool':
            out.append(Ex(['full<bool' + dims + '>(true)'], info))
        elif t in FLOATS:
            out.append(Ex(['full<', Ty(t), dims + '>(1.0f)'], info))
        else:
            out.append(Ex(['full<', Ty(t), dims + '>(1)'], info))
        return out
    if t == 'bool':
        return [Ex(['false'], info), Ex(['true'], info)]
    if t == 'f32':
        return [Ex(['0.0f'], info), Ex(['1.0f'], info)]
    if t == 'i32':
        return [Ex(['0'], info), Ex(['1'], info)]
    if t == 'u32':
        return [Ex(['0u'], info)]
    if t == 'i64':
        return [Ex(['0L'], info)]
    return [Ex(['cast<', Ty(t), '>(0)'], info)]


def set_child(parent, key, new):
    if isinstance(parent, St):
        parent.ex = new
    elif isinstance(parent, dict):
        parent[key] = new
    else:
        parent.parts[key] = new


def get_child(parent, key):
    if isinstance(parent, St):
        return parent.ex
    if isinstance(parent, dict):
        return parent[key]
    return parent.parts[key]


def reduce_program(prog, check, log):
    """Greedy passes until nothing changes. prog.items is edited in place."""
    def ok():
        return check(prog.render(HEADER))

    changed = True
    rounds = 0
    while changed and rounds < 8:
        changed = False
        rounds += 1
        # 1. whole helpers and kernels
        for f in list(prog.items):
            if len(prog.items) == 1:
                break
            i = prog.items.index(f)
            prog.items.pop(i)
            if ok():
                changed = True
                log('dropped %s' % f.name)
            else:
                prog.items.insert(i, f)
        # 2. statements (outermost lists first, whole blocks before their contents)
        for lst in stmt_lists(prog.items):
            i = 0
            while i < len(lst):
                s = lst[i]
                if not s.removable:
                    i += 1
                    continue
                lst.pop(i)
                if ok():
                    changed = True
                    continue
                # if/for replaced by its body
                if s.kind in ('if', 'for') and s.body:
                    lst[i:i] = s.body
                    if ok():
                        changed = True
                        continue
                    del lst[i:i + len(s.body)]
                lst.insert(i, s)
                if s.kind == 'if' and s.els:
                    els = s.els
                    s.els = None
                    if ok():
                        changed = True
                    else:
                        s.els = els
                i += 1
        # 3. parameters nobody uses (and their promises)
        for f in prog.items:
            for p in list(f.params):
                i = f.params.index(p)
                f.params.pop(i)
                if ok():
                    changed = True
                else:
                    f.params.insert(i, p)
            for p in f.params:
                if p.promise:
                    pr = p.promise
                    p.promise = ''
                    if ok():
                        changed = True
                    else:
                        p.promise = pr
            if f.kernel and f.opts:
                o = f.opts
                f.opts = ''
                if ok():
                    changed = True
                else:
                    f.opts = o
        # 4. expressions: a constant, or a subexpression of the same type and shape
        for e, parent, key in all_exprs(prog.items):
            if e.tag in PROTECTED or e.info is None or get_child(parent, key) is not e:
                continue
            done = False
            for leaf in leaves(e.info):
                if e.render(RenderCtx()) == leaf.render(RenderCtx()):
                    continue
                set_child(parent, key, leaf)
                if ok():
                    changed = done = True
                    break
                set_child(parent, key, e)
            if done:
                continue
            for k in e.kids():
                if k.info is not None and e.info is not None and k.info.t == e.info.t and \
                        tuple(k.info.shape) == tuple(e.info.shape):
                    set_child(parent, key, k)
                    if ok():
                        changed = True
                        break
                    set_child(parent, key, e)
        log('round %d: %d lines, %d tests' % (rounds, prog.render(HEADER).count('\n'), check.tests))


HEADER = ['// (fuzz reproducer)']

# ---------------------------------------------------------------- reductions on the text

IDENT = re.compile(r'\b[A-Za-z_]\w*\b')
KEEP = {'auto', 'const', 'int', 'float', 'bool', 'unsigned', 'void', 'for', 'if', 'else', 'return', 'template',
        'class', 'typename', 'using', 'namespace', 'tilecc', 'include', 'true', 'false', 'static_cast', 'constexpr',
        'TILECC_KERNEL', 'TILECC_ALIGNED', 'TILECC_MULTIPLE_OF', 'num_warps', 'num_stages', 'int64_t', 'int8_t',
        'uint8_t', 'half', 'bfloat16', 'tile', 'precision', 'tf32', 'assert', 'std', 'NAN', 'INFINITY', 'sizeof'}


def ddmin_lines(text, check, log):
    lines = text.split('\n')
    n = 2
    while len(lines) >= 2:
        chunk = max(1, len(lines) // n)
        removed = False
        for start in range(0, len(lines), chunk):
            cand = lines[:start] + lines[start + chunk:]
            if check('\n'.join(cand)):
                lines = cand
                n = max(n - 1, 2)
                removed = True
                break
        if not removed:
            if chunk == 1:
                break
            n = min(len(lines), n * 2)
    log('lines: %d left, %d tests' % (len(lines), check.tests))
    return '\n'.join(lines)


def rename(text, check, log, api):
    """Renames identifiers to short neutral names where the failure does not depend on the name."""
    body_start = text.find('using namespace tilecc;')
    head, body = text[:body_start], text[body_start:]
    idents = []
    for m in IDENT.finditer(body):
        w = m.group(0)
        if w in KEEP or w in api or w in idents:
            continue
        idents.append(w)
    names = iter(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'p', 'q', 'r', 's', 'u', 'x', 'y', 'z', 'w2', 'v2'] +
                 ['n%d' % i for i in range(200)])
    used = set(IDENT.findall(body))
    for w in idents:
        if len(w) <= 2:
            continue
        new = next(names)
        while new in used:
            new = next(names)
        cand = head + re.sub(r'\b%s\b' % re.escape(w), new, body)
        if check(cand):
            body = cand[len(head):]
            used.add(new)
    log('renamed: %d tests' % check.tests)
    return head + body


API = {'arange', 'zeros', 'full', 'expand_dims', 'col', 'row', 'broadcast_to', 'reshape', 'trans', 'where', 'maximum',
       'minimum', 'abs', 'exp', 'exp2', 'log', 'log2', 'sqrt', 'rsqrt', 'sin', 'cos', 'tanh', 'erf', 'sigmoid', 'floor',
       'ceil', 'fma', 'cast', 'load', 'store', 'atomic_add', 'make_block_ptr', 'advance', 'multiple_of',
       'max_contiguous', 'barrier', 'sum', 'max', 'min', 'argmax', 'argmin', 'dot', 'program_id', 'num_programs',
       'cdiv', 'expf', 'sqrtf', 'fabsf', 'floorf', 'tanhf', 'fmaxf', 'fminf', 'exp2f', 'logf', 'sinf', 'cosf', 'erff',
       'ceilf', 'fabs', 'fmax', 'fmin'}


def tidy(text):
    text = re.sub(r'\n{3,}', '\n\n', text)
    return text.strip() + '\n'


def header_comment(fnd, cls, sig, observed, nvcc_cmd, name):
    out = ['// tilecc fuzz finding: %s' % name,
           '// Class: %s' % O.CLASS_TEXT.get(cls, cls),
           '// Signature: %s' % sig]
    cmd = 'tilecc %s -o out.cu' % name
    if cls in (O.NVCC_ERROR, O.NVCC_WARNING):
        cmd += ' && nvcc -std=c++17 -Werror all-warnings %s -I runtime/include -c out.cu' % ' '.join(nvcc_cmd or O.ARCH_FLAGS)
    if cls == O.HEADER:
        cmd += " && echo '#include \"out.h\"' | g++ -std=c++17 -fsyntax-only -Wall -Werror -I /usr/local/cuda/include -x c++ -"
    if cls == O.HANG:
        cmd = 'timeout 30 ' + cmd
    out.append('// Command: %s' % cmd)
    out.append('// Observed:')
    for l in observed:
        out.append('//   ' + l)
    if fnd:
        out.append('// Found by tests/fuzz/fuzz.py (campaign seed %s, file %s, generator v%s)%s; minimised by'
                   ' tests/fuzz/minimize.py.' % (fnd.get('campaign_seed'), fnd.get('seed'), fnd.get('gen_version'),
                                                   (', with ' + ', '.join(fnd['known'])) if fnd.get('known') else ''))
    out.append('// Re-check: ctest --test-dir build -R fuzz.regression (translates it; builds it with nvcc -Werror all-warnings)')
    return out


def observed_lines(res, src_name):
    out = []
    for l in (res.output or res.message or '').splitlines():
        l = re.sub(r'\S*/(k|g)\.tile\.cpp', src_name, l)
        l = re.sub(r'/tmp/tilecc-min-\w+/', '', l)
        if not l.strip():
            continue
        if l.strip().startswith('|') or l.strip().startswith('^') or re.match(r'\s+\d+ \|', l):
            continue
        out.append(l[:200])
        if len(out) >= 6:
            break
    if res.cls == O.HANG:
        out = ['no output; killed after the timeout (%s)' % res.message]
    if res.cls == O.CRASH and not out:
        out = [res.message]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--tilecc', required=True)
    ap.add_argument('--nvcc', default='/usr/local/cuda/bin/nvcc')
    ap.add_argument('--finding', help='a finding directory of fuzz.py (finding.json)')
    ap.add_argument('--source', help='a kernel file to reduce (text only)')
    ap.add_argument('--class', dest='cls', help='with --source: the failure class (default: what it does now)')
    ap.add_argument('--signature', help='with --source: the failure signature (default: what it does now)')
    ap.add_argument('--save', required=True, help='where to write the reproducer')
    ap.add_argument('--timeout', type=float, default=30)
    ap.add_argument('--quiet', action='store_true')
    a = ap.parse_args(argv)
    a.tilecc = os.path.abspath(a.tilecc)
    try:
        os.nice(10)
    except OSError:
        pass
    log = (lambda m: None) if a.quiet else (lambda m: print('minimize: ' + m, flush=True))
    t0 = time.time()
    fnd = None
    prog = None
    if a.finding:
        fnd = json.load(open(os.path.join(a.finding, 'finding.json')))
        cls, sig = fnd['class'], fnd['signature']
        from fuzz import make_config
        cfg = make_config(fnd.get('config'))
        p, metas = gen_program(random.Random(fnd['seed']), cfg, fnd.get('nkernels', 4))
        items = [it for i in fnd['kernels'] for it in metas[i].items]
        prog = p.subset(items)
        text = prog.render(HEADER)
    else:
        text = open(a.source).read()
        cls, sig = a.cls, a.signature
    if cls == O.HANG:
        a.timeout = min(a.timeout, 15)
    check = Checker(a, cls, sig)
    if not cls:
        check.cls = None
        r = check.oracle(text)
        if r.cls is None:
            print('minimize: the kernel does not fail')
            return 1
        cls, sig = check.cls, check.signature = r.cls, r.signature
    if not check(text):
        r = check.oracle(text)
        print('minimize: the kernel does not reproduce %s [%s] (now: %s [%s])' % (cls, sig, r.cls, r.signature))
        return 1
    if cls in (O.NVCC_ERROR, O.NVCC_WARNING):
        check.archs = [O.ARCH_FLAGS[0]]
        check.cache = {}
        if not check(text):
            check.archs = None
            check.cache = {}
    log('%s [%s]: %d lines' % (cls, sig, text.count('\n')))
    if prog is not None:
        reduce_program(prog, check, log)
        text = prog.render(HEADER)
    text = ddmin_lines(text, check, log)
    text = rename(text, check, log, API)
    text = ddmin_lines(text, check, log)
    final = check.oracle(text)
    check.archs = None
    if cls in (O.NVCC_ERROR, O.NVCC_WARNING):
        final = check.oracle(text)
    name = os.path.basename(a.save)
    body = text.split('\n', 1)[1] if text.startswith(HEADER[0]) else text
    out = '\n'.join(header_comment(fnd, cls, sig, observed_lines(final, name), check.archs, name)) + '\n' + tidy(body)
    os.makedirs(os.path.dirname(os.path.abspath(a.save)), exist_ok=True)
    open(a.save, 'w').write(out)
    log('saved %s (%d lines, %d tests, %.0f s)' % (a.save, out.count('\n'), check.tests, time.time() - t0))
    return 0


if __name__ == '__main__':
    sys.exit(main())
