"""Generator of valid tilecc kernels (contract v1).

Gen builds one kernel (and the helpers it calls) as an AST whose every expression carries an
Info (values.py); memory accesses come from templates that are in bounds by construction
(masks for ragged sizes, block pointers, gathers through a power-of-two mask), every store
writes a region of its own output that no other program or loop iteration writes, and the
harness metadata (harnessmeta.py) says how to size, fill and compare every buffer.
"""
import math

from . import semantics as S
from .ast import Ex, St, Ty, Function, Param, Program, RenderCtx, tile_type_parts, type_parts
from .harnessmeta import Buffer, ScalarParam, KernelMeta
from .values import (ELEMS, INTS, FLOATS, NUMERIC, CPP, IRANGE, SIZE, INTEXACT, SAFE, INF, UROUND, Info, int_info,
                     float_const_info, round_to, wrap, lowbit, is_int, is_float, join)


class Config:
    """Feature switches. Weights multiply the chance of a construct; 0 disables it."""

    def __init__(self, **kw):
        self.known = 1.0           # constructs behind problems the lead already knows about
        self.ub = 0.0              # constructs g++ accepts that are not valid kernels (CPU oracles only)
        self.collide = 0.35        # chance that a new name is drawn from the collision pool
        self.kernel_names = True   # kernel names that collide with library and generated names
        self.stress = 0.03         # huge expressions (stack depth of the translator)
        self.max_stmts = 14
        self.max_depth = 4
        self.dot = 1.0
        self.atomics = 1.0
        self.loops = 1.0
        self.helpers = 1.0
        self.templates = 1.0
        self.block_ptr = 1.0
        self.hints = 1.0
        self.special = 1.0         # NaN, inf, -0.0, denormal constants and inputs
        self.prefix = 'k'
        for k, v in kw.items():
            if not hasattr(self, k):
                raise KeyError(k)
            setattr(self, k, v)


# Names that collide with what tilecc generates, with CUDA, the C library and launcher parameters.
COLLIDE_LOCAL = ['L0_t0', 'L0_t1', 'L1_t0', 'L2_t1', 't0', 't1', 't2', 't3', 's0', 's1', 's2', 'v', 'w', 'reg', 'reg2',
                 'lane', 'warp', 'smem', 'buf', 'acc_1', 'x_1', 'part', 'bi', 'bv', 'exp', 'expf', 'sqrt', 'sqrtf', 'log',
                 'sin', 'stream', 'grid', 'uintptr_t', 'cudaSuccess', 'cudaError_t', 'threadIdx', 'blockIdx', 'blockDim',
                 'gridDim', 'warpSize', 'dim3', 'std', 'tilecc', 'atomicAdd', 'printf', 'main', 'size_t', 'sum', 'row',
                 'col', 'where', 'nan', 'inf', 'div', 'rem', 'shl', 'cvt_f32', 'mma', 'ldmatrix', 'pipe', 'stage',
                 'a_smem', 'k_aligned', 'mask', 'offs', 'rows', 'cols', 'other', 'launch', 'i', 'j', 'k']
COLLIDE_KERNEL = ['exp', 'expf', 'sqrt', 'sin', 'printf', 'abs', 'k', 'k_aligned', 'launch_k', 'main_kernel', 'smem',
                  'lane', 'tilecc_broken_promise', 'cvt_f32', 'div', 'stream', 'grid', 'L0_t1']
# Functions a kernel may call by these names: a variable of the same name hides them.
API_FUNCS = {'exp', 'exp2', 'log', 'log2', 'sqrt', 'rsqrt', 'sin', 'cos', 'tanh', 'erf', 'sigmoid', 'floor', 'ceil',
             'abs', 'where', 'maximum', 'minimum', 'fma', 'cast', 'sum', 'max', 'min', 'argmax', 'argmin', 'dot',
             'load', 'store', 'atomic_add', 'make_block_ptr', 'advance', 'multiple_of', 'max_contiguous', 'barrier',
             'arange', 'zeros', 'full', 'col', 'row', 'expand_dims', 'broadcast_to', 'reshape', 'trans',
             'program_id', 'num_programs', 'cdiv', 'std', 'tilecc', 'expf', 'sqrtf', 'fabsf', 'floorf', 'tanhf',
             'fmaxf', 'fminf', 'half', 'bfloat16', 'tile', 'precision', 'int64_t', 'int8_t', 'uint8_t'}
PLAIN = ['a', 'b', 'c', 'x', 'y', 'z', 'p', 'q', 'u', 'acc', 'val', 'tmp', 'idx', 'lo', 'hi', 'm', 'n2', 'r', 'e',
         'f', 'g', 'h', 'd', 'o']


class Req:
    __slots__ = ('exact', 'nozs', 'mag', 'noprod')

    def __init__(self, exact=False, nozs=False, mag=None, noprod=False):
        self.exact = exact
        self.nozs = nozs
        self.mag = mag
        self.noprod = noprod

    def ok(self, i):
        if self.exact and i.cls == 'a':
            return False
        if self.nozs and i.cls == 'z':
            return False
        if self.noprod and i.prod:
            return False
        if self.mag is not None and (i.nan or max(abs(i.lo), abs(i.hi)) > self.mag):
            return False
        return True

    def but(self, **kw):
        r = Req(self.exact, self.nozs, self.mag, self.noprod)
        for k, v in kw.items():
            setattr(r, k, v)
        return r


ANY = Req()
EXACT = Req(exact=True)


class Var:
    __slots__ = ('name', 'info', 'kind', 'mutable', 'ldepth', 'extra')

    def __init__(self, name, info, kind='val', mutable=True, ldepth=0, extra=None):
        self.name = name
        self.info = info
        self.kind = kind      # val | bp (block pointer) | ptr (tile of pointers)
        self.mutable = mutable
        self.ldepth = ldepth
        self.extra = extra


class GenFail(Exception):
    pass


def pow2s(lo, hi):
    out = []
    p = 1
    while p <= hi:
        if p >= lo:
            out.append(p)
        p *= 2
    return out


def size_of(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def lit_int(t, v):
    if t == 'u32':
        return '%du' % v
    if t == 'i64':
        if v == IRANGE['i64'][0]:
            return '(-9223372036854775807L - 1)'
        return '%dL' % v
    if t == 'i32' and v == IRANGE['i32'][0]:
        return '(-2147483647 - 1)'
    return '%d' % v


def lit_float(v, double=False):
    if math.isnan(v):
        return 'NAN'
    if math.isinf(v):
        return 'INFINITY' if v > 0 else '-INFINITY'
    if v == 0:
        s = '-0.0' if math.copysign(1, v) < 0 else '0.0'
        return s if double else s + 'f'
    s = '%.9g' % v
    if 'e' not in s and '.' not in s:
        s += '.0'
    return s if double else s + 'f'


class ExprGen:
    def __init__(self, rnd, cfg, name, file_names):
        self.rnd = rnd
        self.cfg = cfg
        self.kname = name
        self.file_names = file_names     # names of functions already in the file
        self.frames = [{}]
        self.kframe = self.frames[0]
        self.params = []
        self.meta = KernelMeta()
        self.helpers = []
        self.pending = []
        self.no_pending = 0
        self.loops = []                  # enclosing loops: dict(it=Ex, T=int)
        self.ldepth = 0
        self.in_helper = 0
        self.hidden = set()
        self.nbuf = 0
        self.nstmt = 0
        self.used_names = set()
        self.tags = {}
        self.pid = None
        self.kernel_alias = {}
        self.stores = 0
        self.budget = cfg.max_stmts
        self.gpu_ok = True
        self.known = []                  # known-problem constructs used (names)

    # ------------------------------------------------------------------ helpers
    def chance(self, p):
        return self.rnd.random() < p

    def pick(self, seq):
        return seq[self.rnd.randrange(len(seq))]

    def wpick(self, items):
        """items: [(weight, value)]"""
        tot = sum(w for w, _ in items if w > 0)
        if tot <= 0:
            return None
        r = self.rnd.random() * tot
        for w, v in items:
            if w <= 0:
                continue
            r -= w
            if r <= 0:
                return v
        return items[-1][1]

    def tag(self, name):
        self.tags[name] = self.tags.get(name, 0) + 1

    def known_feature(self, name, weight=1.0):
        """Whether to use a construct behind a problem the lead knows about."""
        if self.cfg.known <= 0:
            return False
        if self.chance(min(1.0, 0.04 * weight * self.cfg.known)):
            self.known.append(name)
            return True
        return False

    # ------------------------------------------------------------------ scope
    def visible(self, name):
        for f in self.frames:
            if name in f:
                return True
        return False

    def callable(self, fname):
        return not self.visible(fname)

    def spellable(self, spell):
        """Whether a call spelled `std::f` or `f` reaches the function: no local hides either name."""
        return self.callable(spell.split('::')[-1]) and ('std::' not in spell or self.callable('std'))

    def lookup(self, name):
        for f in reversed(self.frames):
            if name in f:
                return f[name]
        return None

    def fresh(self, base='v', collide=True, api_ok=False):
        """A new local name. Only names declared before their statement is generated may
        shadow API functions (api_ok): a declaration emitted ahead of the current statement
        would hide functions that statement already calls."""
        for _ in range(40):
            if collide and self.chance(self.cfg.collide):
                n = self.pick(COLLIDE_LOCAL)
                if not api_ok and (n in API_FUNCS or n in self.file_names):
                    continue
            else:
                n = '%s%d' % (self.pick(PLAIN) if base == 'v' else base, self.rnd.randrange(100))
            if self.visible(n) or n in self.file_names or n == self.kname:
                continue
            if n in self.used_names and self.chance(0.7):
                continue
            self.used_names.add(n)
            return n
        n = 'v%d' % len(self.used_names)
        while self.visible(n) or n in self.file_names:
            n += '_'
        self.used_names.add(n)
        return n

    def reserve(self, name):
        """A name whose declaration is being generated: in C++ it is in scope in its own initializer."""
        self.frames[-1][name] = Var(name, None, 'reserved', False, self.ldepth)

    def fresh_reserved(self, base):
        """fresh(), reserved at once: names drawn for one statement never meet (fresh() may give a
        name again, on purpose, across scopes)."""
        n = self.fresh(base)
        self.reserve(n)
        return n

    def declare(self, name, info, kind='val', mutable=True, extra=None):
        v = Var(name, info, kind, mutable, self.ldepth, extra)
        self.frames[-1][name] = v
        return v

    def push(self):
        self.frames.append({})

    def pop(self):
        self.frames.pop()

    def vars_of(self, pred):
        seen = set()
        out = []
        for f in reversed(self.frames):
            for n, v in f.items():
                if n in seen:
                    continue
                seen.add(n)
                if n in self.hidden:
                    continue
                if pred(v):
                    out.append(v)
        out.sort(key=lambda v: v.name)
        return out

    def var_ex(self, v):
        return Ex([v.name], v.info, var=v.name, tag='var')

    def emit(self, st):
        if self.no_pending:
            raise GenFail('pending in a guarded context')
        self.pending.append(st)

    def decl_pending(self, ex, base='v', const=None, tparts=None):
        """Declares `auto name = ex;` before the current statement; returns the variable's Ex."""
        if self.no_pending:
            return ex
        name = self.fresh(base)
        if const is None:
            const = self.chance(0.3)
        if name in ex.render(RenderCtx()).replace('(', ' ').replace(')', ' ').replace(',', ' ').split():
            return ex
        self.emit(St('decl', name=name, ex=ex, const=const, tparts=tparts))
        v = self.declare(name, ex.info, mutable=not const)
        return self.var_ex(v)

    # ------------------------------------------------------------------ parameters
    def add_param(self, name, tparts, kind, ref, promise=''):
        if self.in_helper:
            raise GenFail('a kernel parameter from inside a helper')
        p = Param(name, tparts, promise, kind, ref)
        self.params.append(p)
        self.kframe[name] = Var(name, ref.info if hasattr(ref, 'info') else Info('i32'),
                                'buf' if kind == 'buffer' else 'param', False, 0, ref)
        return p

    def param_name(self, base):
        for _ in range(20):
            if self.chance(self.cfg.collide * 0.6):
                n = self.pick(['stream', 'grid', 'uintptr_t', 'cudaSuccess', 'threadIdx', 'blockIdx', 'lane', 'warp',
                               'smem', 'reg', 'v', 'w', 'L0_t1', 's0', 't1', 'cudaError_t', 'dim3', 'exp', 'n', 'x',
                               self.kname])
            else:
                n = '%s%d' % (base, self.nbuf)
            if not self.visible(n) and n not in self.file_names and n not in API_FUNCS and \
                    (n != self.kname or self.chance(0.5)):
                self.used_names.add(n)
                self.nbuf += 1
                return n
        self.nbuf += 1
        return '%s%d_' % (base, self.nbuf)

    def new_buffer(self, elem, role, dist, length, align=False):
        name = self.param_name({'in': 'in', 'out': 'out', 'acc': 'acc'}[role])
        b = Buffer(name, elem, role, dist, length, const=(role == 'in' and self.chance(0.9)))
        b.info = Info('i64')
        b.align = align
        promise = ''
        if align and self.chance(0.5 * self.cfg.hints):
            promise = 'TILECC_ALIGNED(16) '
        elif not align and self.chance(0.08 * self.cfg.hints):
            promise = 'TILECC_ALIGNED(%d) ' % self.pick([1, 2, 4])
            if int(promise[15:-2]) > SIZE[elem]:
                promise = ''
        tp = (['const '] if b.const else []) + [Ty(elem), '*']
        self.add_param(name, tp, 'buffer', b, promise)
        self.meta.buffers.append(b)
        self.meta.order.append(('buf', b))
        return b

    def new_scalar_param(self, t, lo, hi, kind='scalar', mult=1, full=None, base='n'):
        name = self.param_name(base)
        if full is not None and t != 'bool':
            lo, hi = min(lo, full), max(hi, full)
        sp = ScalarParam(name, t, lo, hi, mult, full, kind)
        if t == 'f32':
            sp.info = Info('f32', (), float(lo), float(hi), False, 'x')
        elif t == 'bool':
            sp.info = Info('bool', (), 0, 1)
        else:
            sp.info = Info(t, (), lo, hi, div=mult if mult > 1 else 1)
        promise = ''
        if mult >= 16 and t in ('i32', 'i64', 'u32') and self.chance(0.6 * self.cfg.hints):
            promise = 'TILECC_MULTIPLE_OF(%d) ' % self.pick([m for m in (2, 4, 8, 16) if mult % m == 0])
        elif mult > 1:
            sp.info.div = 1 if not promise else sp.info.div
        tps = {'i32': 'int', 'u32': 'unsigned', 'i64': 'int64_t', 'f32': 'float', 'bool': 'bool'}
        self.add_param(name, [tps[t]], kind, sp, promise)
        self.meta.scalars.append(sp)
        self.meta.order.append(('scalar', sp))
        return Ex([name], sp.info, var=name, tag='param')

    # ------------------------------------------------------------------ constants
    def const_scalar(self, t, req=ANY, lo=None, hi=None):
        """A literal of kernel scalar type t (the C++ type of the literal is t)."""
        r = self.rnd
        if t == 'bool':
            v = r.random() < 0.5
            return Ex(['true' if v else 'false'], Info('bool', (), int(v), int(v), const=int(v)), tag='const')
        if t in INTS:
            tlo, thi = IRANGE[t]
            if lo is None:
                choices = [0, 1, 2, 3, 7, 16, 31, 100, 255, -1, -2, -128, 127]
                if req.mag is None and self.chance(0.1 * self.cfg.special):
                    choices += [tlo, thi, thi - 1, tlo + 1]
                v = self.pick(choices) if self.chance(0.6) else r.randint(-1000, 1000)
            else:
                v = r.randint(lo, hi)
            v = max(tlo, min(thi, v))
            if req.mag is not None and abs(v) > req.mag:
                v = int(req.mag) if v > 0 else -int(req.mag)
                v = max(tlo, min(thi, v))
            if t in ('u32', 'u8') and v < 0:
                v = -v
            return Ex([lit_int(t if t in ('i32', 'u32', 'i64') else 'i32', v)], Info(t, (), v, v, div=lowbit(v), const=v),
                      tag='const')
        # floats
        if lo is not None:
            v = r.uniform(lo, hi)
            v = round(v * 4) / 4
        elif req.mag is None and not req.exact and False:
            v = 0.0
        else:
            special = [] if (req.mag is not None or req.nozs) else [float('nan'), INF, -INF, -0.0, 1e-40, 3.4e38, -3.4e38,
                                                                     1.17549435e-38, 65504.0, 65520.0]
            if special and self.chance(0.12 * self.cfg.special):
                v = self.pick(special)
            else:
                v = self.pick([0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -0.25, 0.125, 1.5, 10.0, 0.1, 0.3, -7.0, 100.0])
                if self.chance(0.3):
                    v = round(r.uniform(-8, 8), 3)
        if req.mag is not None and (math.isnan(v) or abs(v) > req.mag):
            v = 0.5
        v32 = round_to('f32', v)
        info = float_const_info('f32', v32)
        return Ex([lit_float(v32)], info, tag='const')

    # ------------------------------------------------------------------ shapes
    def sub_shape(self, shape):
        """A shape that broadcasts to `shape` (some extents replaced by 1)."""
        if not shape:
            return shape
        out = tuple(d if self.chance(0.75) else 1 for d in shape)
        return out

    def operand_shapes(self, shape, n=2, scalar_ok=True):
        """n operand shapes whose broadcast is exactly `shape` (at most one a scalar)."""
        if not shape:
            return [()] * n
        for _ in range(10):
            shapes = []
            for i in range(n):
                if scalar_ok and i > 0 and self.chance(0.25) and all(s for s in shapes):
                    shapes.append(())
                elif self.chance(0.7):
                    shapes.append(shape)
                else:
                    shapes.append(self.sub_shape(shape))
            # broadcast must give shape exactly
            b = ()
            for s in shapes:
                b = S.bshape(b, s) if s else b
            if b == shape:
                return shapes
        return [shape] * n

    # ------------------------------------------------------------------ expressions
    def gen(self, t, shape, d, req=ANY):
        """An expression of element type t and shape `shape` (() for a scalar) satisfying req."""
        shape = tuple(shape)
        for attempt in range(8):
            if d <= 0 or attempt >= 6:
                e = self.leaf(t, shape, req)
            elif shape:
                e = self.tile_production(t, shape, d, req)
            else:
                e = self.scalar_production(t, d, req)
            if e is None:
                continue
            assert e.info.t == t and tuple(e.info.shape) == shape, (e.tag, e.info, t, shape, e.render(RenderCtx()))
            if req.ok(e.info):
                return e
            f = self.fix(e, req)
            if f is not None:
                return f
        return self.leaf(t, shape, req, force=True)

    def fix(self, e, req):
        i = e.info
        if req.exact and i.cls == 'a':
            return None
        if req.nozs and i.cls == 'z':
            return None
        if i.t == 'bool':
            return None
        m = req.mag
        if m is None:
            if req.noprod and i.prod:
                m = SAFE[i.t] if i.t in FLOATS else IRANGE[i.t][1]
            else:
                return None
        return self.clamp(e, m)

    def clamp(self, e, m):
        i = e.info
        t = i.t
        fmax, fmin = ('maximum', 'minimum') if i.shape else ('max', 'min')
        if not self.callable(fmax) or not self.callable(fmin):
            return None
        if not i.shape and t not in ('i32', 'i64', 'u32', 'f32'):
            return None
        if t in INTS:
            lo_t, hi_t = IRANGE[t]
            lo, hi = max(lo_t, -int(m)), min(hi_t, int(m))
            if t in ('u8', 'u32'):
                lo = 0
            clo = self.const_of(t, lo)
            chi = self.const_of(t, hi)
            ni = S.minmax('min', S.minmax('max', i, clo.info, t), chi.info, t)
            ni.lo, ni.hi = max(ni.lo, lo), min(ni.hi, hi)
            return Ex([fmin + '(' + fmax + '(', e, ', ', clo, '), ', chi, ')'], ni.copy(shape=i.shape), tag='clamp')
        mm = round_to(t, min(m, SAFE[t]))
        if mm > m:
            mm = m * 0.99
        clo = Ex([lit_float(-mm)], float_const_info('f32', -mm))
        chi = Ex([lit_float(mm)], float_const_info('f32', mm))
        lo, hi = max(i.lo, -mm), min(i.hi, mm)
        if i.nan or lo > hi:
            lo, hi = -mm, mm
        cls = 'x' if i.cls == 'z' and not (lo <= 0 <= hi) else i.cls
        ni = Info(t, i.shape, lo, hi, i.integral, cls if cls != 'z' else 'z', i.err, False, False)
        return Ex([fmin + '(' + fmax + '(', e, ', ', clo, '), ', chi, ')'], ni, tag='clamp')

    def const_of(self, t, v):
        if t in INTS:
            tt = t if t in ('i32', 'u32', 'i64') else 'i32'
            return Ex([lit_int(tt, v)], Info(t, (), v, v, const=v))
        return Ex([lit_float(v)], float_const_info(t, v))

    def leaf(self, t, shape, req, force=False):
        # a variable
        vs = self.vars_of(lambda v: v.kind in ('val', 'param') and v.info.t == t and v.info.shape == shape and
                          req.ok(v.info))
        if vs and self.chance(0.6 if not force else 0.5):
            return self.var_ex(self.pick(vs))
        if not shape:
            c = self.const_scalar(t, req)
            if t in ('i8', 'u8', 'f16', 'bf16'):
                return self.scalar_cast(c, t)
            return c
        if t in INTS and self.chance(0.3) and self.callable('arange'):
            e = self.index_tile(shape)
            if e is not None:
                return self.tile_convert(e, t) if t != 'i32' else e
        return self.full_tile(t, shape, req)

    def full_tile(self, t, shape, req):
        if self.chance(0.3) and self.callable('zeros'):
            z = 0.0 if t in FLOATS else 0
            info = float_const_info(t, 0.0, shape) if t in FLOATS else Info(t, shape, 0, 0, div=0, const=0)
            return Ex(['zeros<', Ty(t)] + [', %d' % x for x in shape] + ['>()'], info, tag='zeros')
        if not self.callable('full'):
            z = 0.0 if t in FLOATS else 0
            info = float_const_info(t, 0.0, shape) if t in FLOATS else Info(t, shape, 0, 0, div=0, const=0)
            return Ex(['zeros<', Ty(t)] + [', %d' % x for x in shape] + ['>()'], info, tag='zeros')
        if t in FLOATS:
            c = self.const_scalar('f32', req)
            info = S.convert(c.info, t, shape)
        else:
            st = 'bool' if t == 'bool' else ('i64' if t == 'i64' else ('u32' if t == 'u32' else 'i32'))
            c = self.const_scalar(st, req)
            info = S.convert(c.info, t, shape)
            if t != 'bool':
                v = wrap(t, c.info.const)
                info = Info(t, shape, v, v, div=lowbit(v), const=v)
        return Ex(['full<', Ty(t)] + [', %d' % x for x in shape] + ['>(', c, ')'], info, tag='full')

    def tile_convert(self, e, t):
        info = S.convert(e.info, t)
        if info is None:
            return None
        return Ex(['cast<', Ty(t), '>(', e, ')'], info, tag='cast')

    def scalar_cast(self, e, t):
        info = S.convert(e.info, t)
        if info is None:
            return None
        if not self.callable('cast'):
            return Ex(['static_cast<', Ty(t), '>(', e, ')'], info, tag='cast')
        return Ex(['cast<', Ty(t), '>(', e, ')'], info, tag='cast')

    # --- index tiles -------------------------------------------------------------------
    def axis_arange(self, shape, axis):
        """arange along `axis` of a tile of rank len(shape), other extents 1."""
        n = shape[axis]
        r = len(shape)
        a = Ex(['arange<%d>()' % n], Info('i32', (n,), 0, n - 1, contig=n))
        if r == 1:
            return a
        target = tuple(n if k == axis else 1 for k in range(r))
        ci = Info('i32', target, 0, n - 1, contig=n if axis == r - 1 else 1)
        forms = []
        if r == 2:
            forms.append(['col(', a, ')'] if axis == 0 else ['row(', a, ')'])
            forms.append(['expand_dims<%d>(' % (1 - axis), a, ')'])
        if r == 3:
            if axis == 0:
                forms.append(['expand_dims<2>(col(', a, '))'])
                forms.append(['expand_dims<1>(expand_dims<1>(', a, '))'])
            elif axis == 1:
                forms.append(['expand_dims<0>(col(', a, '))'])
                forms.append(['expand_dims<2>(row(', a, '))'])
            else:
                forms.append(['expand_dims<0>(row(', a, '))'])
                forms.append(['expand_dims<0>(expand_dims<0>(', a, '))'])
        forms.append(['reshape<%s>(' % ', '.join(str(x) for x in target), a, ')'])
        if not self.callable('col') or not self.callable('row'):
            forms = [f for f in forms if 'col(' not in f[0] and 'row(' not in f[0]] or forms[-1:]
        return Ex(self.pick(forms), ci, tag='axis_arange')

    def index_tile(self, shape, strides=None):
        """The row-major flat index of each element of `shape` (an i32 tile, 0..size-1)."""
        if not self.callable('arange'):
            return None
        n = size_of(shape)
        if len(shape) == 1:
            return Ex(['arange<%d>()' % n], Info('i32', shape, 0, n - 1, contig=n), tag='index')
        if self.chance(0.3) and self.callable('reshape'):
            return Ex(['reshape<%s>(arange<%d>())' % (', '.join(map(str, shape)), n)],
                      Info('i32', shape, 0, n - 1, contig=shape[-1]), tag='index')
        parts = []
        stride = 1
        terms = []
        for axis in reversed(range(len(shape))):
            terms.append((axis, stride))
            stride *= shape[axis]
        terms.reverse()
        for k, (axis, st) in enumerate(terms):
            if k:
                parts.append(' + ')
            a = self.axis_arange(shape, axis)
            if st != 1:
                parts += [a, ' * %d' % st]
            else:
                parts.append(a)
        return Ex(['('] + parts + [')'], Info('i32', shape, 0, n - 1, contig=shape[-1]), tag='index')

    # --- productions: tiles ----------------------------------------------------------------
    def tile_production(self, t, shape, d, req):
        c = self.cfg
        rank = len(shape)
        isf, isi, isb = t in FLOATS, t in INTS, t == 'bool'
        prods = [
            (6, self.p_var), (3, self.p_const), (5 if not self.in_helper else 0, self.p_load),
            (3 if isi else 0, self.p_arange), (5, self.p_binop), (2 if not isb else 0, self.p_unop),
            (4 if isb else 0, self.p_cmp), (2 if isb else 0, self.p_boolops),
            (4 if isf else 0, self.p_math), (2, self.p_where), (2 if not isb else 0, self.p_minmax),
            (1 if not isb else 0, self.p_fma), (3, self.p_cast), (2 if rank < 3 else 0, self.p_reduce),
            (2, self.p_bcast), (1, self.p_reshape), (1.5 if rank == 2 else 0, self.p_trans),
            (1.5 * c.dot if (rank == 2 and t in ('f32', 'i32') and shape[0] >= 16 and shape[1] >= 16) else 0, self.p_dot),
            (1 * c.helpers if self.in_helper < 2 else 0, self.p_helper), (0.5, self.p_ternary),
            (1 * c.hints if isi else 0, self.p_hint),
        ]
        for _ in range(4):
            p = self.wpick(prods)
            try:
                e = p(t, shape, d, req)
            except GenFail:
                e = None
            if e is not None:
                self.tag(p.__name__)
                return e
        return None

    def p_var(self, t, shape, d, req):
        vs = self.vars_of(lambda v: v.kind in ('val', 'param') and v.info.t == t and len(v.info.shape) == len(shape)
                          and all(a == b or a == 1 for a, b in zip(v.info.shape, shape)) and req.ok(v.info))
        if not vs:
            return None
        v = self.pick(vs)
        e = self.var_ex(v)
        if v.info.shape != shape:
            if not self.callable('broadcast_to'):
                return None
            return Ex(['broadcast_to<%s>(' % ', '.join(map(str, shape)), e, ')'], v.info.copy(shape=shape, contig=1),
                      tag='broadcast_to')
        return e

    def p_const(self, t, shape, d, req):
        return self.full_tile(t, shape, req)

    def p_arange(self, t, shape, d, req):
        e = self.index_tile(shape)
        if e is None:
            return None
        if self.chance(0.5):
            # an offset and a scale: base + k * index
            k = self.pick([1, 1, 2, 3, 4, 16, -1])
            base = self.gen('i32', (), d - 1, Req(exact=True, mag=10000))
            info = S.binary('*', e.info, Info('i32', (), k, k, div=lowbit(k)), 'i32')
            info = S.binary('+', info, base.info, 'i32')
            if info is None:
                return None
            e = Ex(['(', base, ' + ', e, ' * %d)' % k if k >= 0 else ' * (%d))' % k], info, tag='arange')
        if t != 'i32':
            e = self.tile_convert(e, t)
        return e

    def p_unop(self, t, shape, d, req):
        ops = ['-', 'abs']
        if t in INTS:
            ops += ['~']
        op = self.pick(ops)
        if op == '-' and t in ('u8', 'u32') and self.chance(0.5):
            op = '~'
        sub = req.but(nozs=False) if op == 'abs' else req
        if op == 'abs' and not self.callable('abs'):
            return None
        a = self.gen(t, shape, d - 1, sub)
        if op == '-':
            if t in ('i8', 'u8'):
                # unary minus on an 8-bit tile keeps the type (the tile operator)
                pass
            return Ex(['-', a] if not a.render(RenderCtx()).startswith('-') else ['-(', a, ')'], S.neg(a.info), tag='neg')
        if op == '~':
            return Ex(['~', a], S.bitnot(a.info), tag='bitnot')
        return Ex(['abs(', a, ')'], S.absval(a.info), tag='abs')

    def scalar_for_tile(self, t, d, req, float_ok=False):
        """A scalar operand beside a tile of element t: its kernel type and its converted info."""
        if t in FLOATS:
            st = 'f32'
        elif t == 'bool':
            st = 'bool'
        elif t == 'i64':
            st = self.pick(['i64', 'i32'])
        elif t == 'u32':
            st = self.pick(['u32', 'i32'])
        else:
            st = 'i32'
        e = self.gen(st, (), d - 1, req.but(noprod=True))
        if e is None:
            return None
        if self.chance(0.1) and st == 'f32' and e.tag == 'const' and e.info.finite:
            # a double literal beside a tile is a float
            e = Ex([lit_float(e.info.const, double=True)], e.info, tag='const')
        ci = S.convert(e.info, t)
        if ci is None:
            return None
        return e, ci

    def p_binop(self, t, shape, d, req):
        if t == 'bool':
            return self.p_boolops(t, shape, d, req)
        ops = ['+', '-', '*', '/']
        if t in INTS:
            ops += ['%', '<<', '>>', '&', '|', '^', '+', '-']
        op = self.pick(ops)
        # an integer tile with a float scalar computes in float
        if t == 'f32' and self.chance(0.1):
            it = self.pick(['i32', 'i8', 'u8', 'i64'])
            a = self.gen(it, shape, d - 1, EXACT)
            if a.info.mag > INTEXACT['f32']:
                return None
            b = self.gen('f32', (), d - 1, req.but(noprod=True, mag=min(req.mag or 1e6, 1e6)))
            ai = S.convert(a.info, 'f32')
            info = S.binary(op, ai, b.info, 'f32')
            if info is None:
                return None
            return Ex(['(', a, ' %s ' % op, b, ')'], info, tag='binop')
        if t in INTS and t != 'i64' and op in ('+', '-', '*', '&', '|', '^') and self.chance(0.08):
            return self.p_binop_wide(t, shape, d, req, op)
        sa, sb = self.operand_shapes(shape)
        sub = req.but(mag=None, nozs=False)
        if t in FLOATS:
            sub = sub.but(mag=min(SAFE[t], req.mag or SAFE[t]))
        if op in ('<<', '>>') and self.chance(0.7):
            # mostly in-range shift counts
            b = None
            a = self.gen(t, sa or shape, d - 1, sub)
            cnt = self.rnd.randint(0, 9)
            if sb:
                b = self.gen(t, sb, d - 1, Req(exact=True, mag=12))
                if t in ('u8', 'u32') or b.info.lo >= 0:
                    pass
            if b is None:
                b = self.const_of(t, cnt) if t in ('i32', 'u32', 'i64') else Ex([str(cnt)], Info('i32', (), cnt, cnt))
                bi = S.convert(b.info, t)
            else:
                bi = b.info
        else:
            a = self.gen(t, sa, d - 1, sub) if sa else None
            if op in '/%' and t in FLOATS:
                sub = sub.but(nozs=True)
            if sb:
                b = self.gen(t, sb, d - 1, sub)
                bi = b.info
            else:
                r = self.scalar_for_tile(t, d, sub.but(nozs=(op == '/')))
                if r is None:
                    return None
                b, bi = r
            if a is None:
                a = self.gen(t, shape, d - 1, sub)
        info = S.binary(op, a.info, bi, t)
        if info is None:
            return None
        if info.shape != shape:
            return None
        if t in FLOATS and op == '/' and bi.cls == 'a' and (bi.lo <= 0 <= bi.hi):
            return None
        parts = ['(', a, ' %s ' % op, b, ')']
        if self.chance(0.15) and bi.shape == () and op in '+*':
            parts = ['(', b, ' %s ' % op, a, ')']
        return Ex(parts, info, tag='binop')

    def p_binop_wide(self, t, shape, d, req, op):
        """Contract v1 promotion: an integer tile narrower than 64 bits beside a 64-bit scalar
        computes in int64_t (cast back to the tile's type here)."""
        a = self.gen(t, shape, d - 1, Req(exact=True, mag=1 << 20))
        b = self.gen('i64', (), d - 1, Req(exact=True, mag=1 << 20).but(noprod=True))
        if a is None or b is None:
            return None
        info = S.binary(op, S.convert(a.info, 'i64'), b.info.copy(shape=shape), 'i64')
        if info is None or info.shape != shape:
            return None
        parts = ['(', a, ' %s ' % op, b, ')'] if self.chance(0.7) else ['(', b, ' %s ' % op, a, ')']
        wide = Ex(parts, info, tag='binop')
        ci = S.convert(info, t)
        if ci is None:
            return None
        return Ex(['cast<', Ty(t), '>(', wide, ')'], ci, tag='cast')

    def p_cmp(self, t, shape, d, req):
        ot = self.pick(['i32', 'f32', 'i8', 'u8', 'u32', 'i64', 'f16', 'bf16', 'bool', 'i32', 'f32'])
        op = self.pick(['<', '<=', '>', '>=', '==', '!='])
        sa, sb = self.operand_shapes(shape)
        a = self.gen(ot, sa if sa else shape, d - 1, EXACT)
        if sb:
            b = self.gen(ot, sb, d - 1, EXACT)
            bi = b.info
        else:
            r = self.scalar_for_tile(ot, d, EXACT)
            if r is None:
                return None
            b, bi = r
        info = S.binary(op, a.info, bi, ot)
        if info is None or info.shape != shape:
            return None
        return Ex(['(', a, ' %s ' % op, b, ')'], info, tag='cmp')

    def p_boolops(self, t, shape, d, req):
        op = self.pick(['&', '|', '^', '!', '~', '!int'])
        if op in ('!', '~'):
            a = self.gen('bool', shape, d - 1, EXACT)
            return Ex([op, '(', a, ')'], Info('bool', shape, 0, 1), tag='lnot')
        if op == '!int':
            it = self.pick(['i32', 'u8', 'i64'])
            a = self.gen(it, shape, d - 1, EXACT)
            return Ex(['!(', a, ')'], Info('bool', shape, 0, 1), tag='lnot')
        sa, sb = self.operand_shapes(shape)
        a = self.gen('bool', sa or shape, d - 1, EXACT)
        b = self.gen('bool', sb, d - 1, EXACT) if sb else self.const_scalar('bool')
        return Ex(['(', a, ' %s ' % op, b, ')'], Info('bool', shape, 0, 1), tag='boolop')

    def p_math(self, t, shape, d, req):
        fn = self.pick(S.MATH)
        if not self.callable(fn):
            return None
        dlo, dhi = S.math_domain(fn, t)
        mag = min(abs(dlo) if dlo < 0 else dhi, dhi if dhi > 0 else abs(dlo), SAFE[t])
        a = self.gen(t, shape, d - 1, Req(exact=fn in ('floor', 'ceil'), mag=mag if mag < INF else None))
        i = a.info
        if fn in ('log', 'log2', 'rsqrt') and (i.lo < dlo or i.nan):
            # guard the domain: abs(x) + c
            c = 1.0 if self.chance(0.7) else 0.5
            ai = S.absval(i)
            ci = float_const_info('f32', c)
            ni = S.binary('+', ai, S.convert(ci, t), t)
            if ni is None:
                return None
            a = Ex(['(abs(', a, ') + %s)' % lit_float(c)], ni, tag='guard')
            i = ni
        elif fn == 'sqrt' and (i.lo < 0 or i.nan):
            ai = S.absval(i)
            a = Ex(['abs(', a, ')'], ai, tag='guard')
            i = ai
        info = S.mathfn(fn, i)
        if info is None:
            return None
        return Ex(['%s(' % fn, a, ')'], info, tag=fn)

    def p_where(self, t, shape, d, req):
        if not self.callable('where'):
            return None
        sm, sa, sb = self.operand_shapes(shape, 3)
        m = self.gen('bool', sm, d - 1, EXACT) if sm else self.gen('bool', (), d - 1, EXACT)
        sub = req.but(noprod=False)
        if not sa and not sb:
            sa = shape
        a = self.gen(t, sa, d - 1, sub) if sa else None
        b = self.gen(t, sb, d - 1, sub) if sb else None
        if a is None:
            r = self.scalar_for_tile(t, d, sub)
            if r is None:
                return None
            a, ai = r
        else:
            ai = a.info
        if b is None:
            r = self.scalar_for_tile(t, d, sub)
            if r is None:
                return None
            b, bi = r
        else:
            bi = b.info
        info = S.select(m.info, ai, bi, t)
        if info is None or info.shape != shape:
            return None
        return Ex(['where(', m, ', ', a, ', ', b, ')'], info, tag='where')

    def p_minmax(self, t, shape, d, req):
        fn = self.pick(['maximum', 'minimum'])
        if not self.callable(fn):
            return None
        sa, sb = self.operand_shapes(shape)
        a = self.gen(t, sa or shape, d - 1, req.but(noprod=False, nozs=False))
        if sb:
            b = self.gen(t, sb, d - 1, req.but(noprod=False, nozs=False))
            bi = b.info
        else:
            r = self.scalar_for_tile(t, d, req.but(noprod=False, nozs=False))
            if r is None:
                return None
            b, bi = r
        info = S.minmax('max' if fn == 'maximum' else 'min', a.info, bi, t)
        if info.shape != shape:
            return None
        args = [a, b] if self.chance(0.8) else [b, a]
        return Ex([fn + '(', args[0], ', ', args[1], ')'], info, tag=fn)

    def p_fma(self, t, shape, d, req):
        if not self.callable('fma'):
            return None
        shapes = self.operand_shapes(shape, 3)
        sub = req.but(noprod=False, nozs=False, mag=min(req.mag or 1e6, 1e6) if t in FLOATS else None)
        ops, infos = [], []
        for s in shapes:
            if s:
                e = self.gen(t, s, d - 1, sub)
                ops.append(e)
                infos.append(e.info)
            else:
                r = self.scalar_for_tile(t, d, sub)
                if r is None:
                    return None
                ops.append(r[0])
                infos.append(r[1])
        info = S.fma(infos[0], infos[1], infos[2], t)
        if info is None or info.shape != shape:
            return None
        return Ex(['fma(', ops[0], ', ', ops[1], ', ', ops[2], ')'], info, tag='fma')

    def p_cast(self, t, shape, d, req):
        if not self.callable('cast'):
            return None
        src = self.pick([x for x in ELEMS if x != t])
        need_exact = t in INTS or t == 'bool'
        sub = Req(exact=need_exact, mag=(SAFE[src] if src in FLOATS else None))
        if t in FLOATS and src in FLOATS and req.mag:
            sub = sub.but(mag=min(req.mag, SAFE[src]))
        a = self.gen(src, shape, d - 1, sub)
        info = S.convert(a.info, t)
        if info is None:
            return None
        return Ex(['cast<', Ty(t), '>(', a, ')'], info, tag='cast')

    def p_reduce(self, t, shape, d, req):
        kind = self.wpick([(3, 'sum'), (2, 'max'), (2, 'min'), (1, 'argmax'), (1, 'argmin')])
        if not self.callable(kind):
            return None
        if kind in ('argmax', 'argmin'):
            if t != 'i32':
                return None
            src = self.pick(['f32', 'i32', 'f16', 'i8', 'u8', 'bf16', 'u32', 'i64'])
        elif kind == 'sum':
            srcs = {'f32': ['f32', 'f16', 'bf16'], 'i32': ['i32', 'i8', 'u8', 'bool'], 'u32': ['u32'], 'i64': ['i64']}
            if t not in srcs:
                return None
            src = self.pick(srcs[t])
        else:
            if t == 'bool':
                return None
            src = t
        axis = self.rnd.randrange(len(shape) + 1)
        n = self.pick([1, 2, 4, 8, 16, 32, 64])
        big = shape[:axis] + (n,) + shape[axis:]
        if size_of(big) > 8192:
            n = 1 if size_of(shape) > 4096 else 2
            big = shape[:axis] + (n,) + shape[axis:]
        sub = Req(exact=kind in ('argmax', 'argmin'))
        if src in FLOATS and kind == 'sum':
            sub = sub.but(mag=min(SAFE['f32'] / max(n, 1), SAFE[src]))
        a = self.gen(src, big, d - 1, sub)
        info = S.reduce(kind, a.info, axis)
        if info is None:
            return None
        if info.t != t:
            return None
        ax = '<%d>' % axis
        if len(big) == 1 and self.chance(0.5):
            ax = ''
        return Ex(['%s%s(' % (kind, ax), a, ')'], info, tag=kind)

    def p_bcast(self, t, shape, d, req):
        rank = len(shape)
        forms = []
        if rank == 2 and shape[1] == 1:
            forms.append('col')
        if rank == 2 and shape[0] == 1:
            forms.append('row')
        ones = [k for k in range(rank) if shape[k] == 1]
        if ones and rank >= 2:
            forms.append('expand')
        forms.append('bto')
        f = self.pick(forms)
        if f in ('col', 'row'):
            if not self.callable(f):
                return None
            n = shape[0] if f == 'col' else shape[1]
            a = self.gen(t, (n,), d - 1, req)
            ci = a.info.copy(shape=shape, contig=(a.info.contig if f == 'row' else 1))
            return Ex([f + '(', a, ')'], ci, tag=f)
        if f == 'expand':
            if not self.callable('expand_dims'):
                return None
            ax = self.pick(ones)
            small = shape[:ax] + shape[ax + 1:]
            a = self.gen(t, small, d - 1, req)
            ci = a.info.copy(shape=shape, contig=(a.info.contig if ax != rank - 1 else 1))
            return Ex(['expand_dims<%d>(' % ax, a, ')'], ci, tag='expand_dims')
        if not self.callable('broadcast_to'):
            return None
        # broadcast_to from a lower rank (aligned right), from extents of 1, or from a scalar
        k = self.rnd.randrange(rank + 1)
        small = tuple(shape[rank - k:])
        small = tuple(x if self.chance(0.6) else 1 for x in small)
        if small:
            a = self.gen(t, small, d - 1, req)
            ai = a.info
        else:
            if t in ('i8', 'u8'):
                if not self.callable('cast'):
                    return None
                a = self.gen('i32', (), d - 1, EXACT)
                ci = S.convert(a.info, t, shape)
                return Ex(['cast<', Ty(t), '>(broadcast_to<%s>(' % ', '.join(map(str, shape)), a, '))'], ci,
                          tag='broadcast_to')
            a = self.gen(t, (), d - 1, req)
            ai = a.info
        ci = ai.copy(shape=shape, contig=1)
        return Ex(['broadcast_to<%s>(' % ', '.join(map(str, shape)), a, ')'], ci, tag='broadcast_to')

    def factor_shape(self, n, avoid):
        for _ in range(10):
            r = self.pick([1, 2, 2, 3])
            exps = []
            e = int(math.log2(n))
            if r == 1:
                s = (n,)
            else:
                cuts = sorted(self.rnd.randint(0, e) for _ in range(r - 1))
                parts = [cuts[0]] + [cuts[i] - cuts[i - 1] for i in range(1, len(cuts))] + [e - cuts[-1]]
                s = tuple(2**p for p in parts)
            if s != avoid:
                return s
        return None

    def p_reshape(self, t, shape, d, req):
        if not self.callable('reshape'):
            return None
        s = self.factor_shape(size_of(shape), shape)
        if s is None:
            return None
        a = self.gen(t, s, d - 1, req)
        return Ex(['reshape<%s>(' % ', '.join(map(str, shape)), a, ')'], a.info.copy(shape=shape, contig=1), tag='reshape')

    def p_trans(self, t, shape, d, req):
        if not self.callable('trans'):
            return None
        a = self.gen(t, (shape[1], shape[0]), d - 1, req)
        return Ex(['trans(', a, ')'], a.info.copy(shape=shape, contig=1), tag='trans')

    def p_dot(self, t, shape, d, req, in_t=None, acc=None):
        if not self.callable('dot'):
            return None
        m, n = shape
        kk = self.pick([16, 16, 32, 64])
        while m * n * kk > 2**18 and kk > 16:
            kk //= 2
        if m * n * kk > 2**18:
            return None
        if t == 'i32':
            it = 'i8'
        else:
            it = in_t or self.pick(['f16', 'f16', 'bf16', 'f32', 'f32tf'])
        tf32 = it == 'f32tf'
        if tf32:
            it = 'f32'
        exact_pref = self.chance(0.6)
        if it == 'i8':
            sub = Req(exact=True)
        else:
            lim = {'f16': 8.0, 'bf16': 8.0, 'f32': 16.0}[it]
            sub = Req(exact=exact_pref, mag=lim if exact_pref else 100.0)
        a = self.gen(it, (m, kk), d - 1, sub)
        b = self.gen(it, (kk, n), d - 1, sub)
        parts = ['dot<precision::tf32>(' if tf32 else 'dot(', a, ', ', b]
        if acc is None and self.chance(0.5):
            acc = self.gen(t, shape, d - 1, Req(mag=1e4) if t == 'f32' else EXACT)
        if acc is not None:
            parts += [', ', acc, ')']
            ai = acc.info
        else:
            parts.append(')')
            ai = float_const_info('f32', 0.0, shape) if t == 'f32' else Info('i32', shape, 0, 0)
        info = S.dot(a.info, b.info, ai, tf32)
        if info is None:
            return None
        self.tag('dot_' + it + ('tf32' if tf32 else ''))
        return Ex(parts, info, tag='dot')

    def p_ternary(self, t, shape, d, req):
        c = self.gen('bool', (), d - 1, EXACT)
        a = self.gen(t, shape, d - 1, req)
        b = self.gen(t, shape, d - 1, req)
        info = S.select(c.info, a.info, b.info, t)
        if info is None:
            return None
        return Ex(['(', c, ' ? ', a, ' : ', b, ')'], info, tag='ternary')

    def p_hint(self, t, shape, d, req):
        if t not in ('i32', 'i64'):
            return None
        if self.chance(0.5) and self.callable('max_contiguous'):
            e = self.index_tile(shape)
            if e is None:
                return None
            base = self.gen(t if t != 'i64' else 'i32', (), d - 1, Req(exact=True, mag=100000))
            info = S.binary('+', e.info, S.convert(base.info, 'i32'), 'i32')
            if info is None or info.contig < 2:
                return None
            k = self.pick([c for c in pow2s(1, info.contig)])
            ex = Ex(['max_contiguous(', base, ' + ', e, ', %d)' % k], info, tag='max_contiguous')
            if t == 'i64':
                ex = self.tile_convert(ex, 'i64')
            return ex
        if not self.callable('multiple_of'):
            return None
        a = self.gen(t, shape, d - 1, EXACT)
        if a.info.div == 1 and self.chance(0.7):
            k = self.pick([2, 4, 8, 16])
            ai = S.binary('*', a.info, Info(t, (), k, k, div=k), t)
            if ai is None:
                return None
            a = Ex(['(', a, ' * %d)' % k], ai)
        dv = a.info.div
        if dv == 1:
            return None
        k = self.pick([x for x in pow2s(1, dv if dv else 64)])
        return Ex(['multiple_of(', a, ', %d)' % k], a.info, tag='multiple_of')

    # --- helpers ------------------------------------------------------------------------------
    def p_helper(self, t, shape, d, req):
        if len(self.helpers) >= 3 or self.no_pending:
            return None
        return self.make_helper(t, shape, d, req)

    def make_helper(self, t, shape, d, req):
        """A helper function computing a value of (t, shape) from arguments generated here."""
        name = None
        for _ in range(10):
            if self.chance(self.cfg.collide * 0.5):
                cand = self.pick(['v', 'w', 'lane', 'warp', 'reg', 'smem', 'L0_t1', 'grid', 'stream', 'helper',
                                  'apply', 'step', 'tile_op', 'combine'])
            else:
                self.hcount = getattr(self, 'hcount', 0) + 1
                cand = 'h%s_%d' % (self.kname, self.hcount)
            # not a kernel parameter either: one would hide the helper inside the kernel
            # (seed-31 generator problem: a parameter `lane` beside a helper `lane`)
            if not self.visible(cand) and cand not in self.file_names and cand != self.kname and \
                    cand not in API_FUNCS and all(p.name != cand for p in self.params):
                name = cand
                break
        if name is None:
            return None
        # Taken now: parameters created while its arguments are generated must not take it.
        self.file_names.add(name)
        # arguments
        nargs = self.rnd.randint(1, 3)
        args = []
        for k in range(nargs):
            at = t if (k == 0 or self.chance(0.5)) else self.pick(['f32', 'i32', 'bool', 'f16'])
            ash = shape if (k == 0 or self.chance(0.5)) else ()
            if ash == () and at in ('f16', 'bf16', 'i8', 'u8'):
                at = 'f32'
            if at in FLOATS:
                e = self.gen(at, ash, d - 1, Req(mag=SAFE[at] / 4))
            else:
                e = self.gen(at, ash, d - 1, ANY)
            args.append(e)
        style = self.pick(['value', 'cref', 'auto', 'cauto', 'template'])
        if style == 'template' and len(shape) != 1:
            style = 'value'
        pnames = []
        params = []
        saved = (self.frames, self.hidden, self.loops, self.ldepth, self.pending)
        self.frames = [{}]
        self.hidden = set()
        self.loops = []
        self.ldepth = 0
        self.pending = []
        self.in_helper += 1
        self.reserve(name)
        tparams = []
        try:
            for k, a in enumerate(args):
                pn = self.fresh('p')
                ai = a.info
                if style in ('auto', 'cauto'):
                    tp = ['const auto&'] if style == 'cauto' else ['auto']
                elif style == 'template' and ai.shape == shape and k == 0:
                    tparams = ['int N']
                    tp = ['tile<', Ty(ai.t), ', N>']
                elif ai.shape:
                    tp = (['const '] if style == 'cref' else []) + tile_type_parts(ai.t, ai.shape) + \
                        (['&'] if style == 'cref' else [])
                else:
                    tp = [Ty(ai.t)]
                params.append(Param(pn, tp))
                self.declare(pn, ai, mutable=(style not in ('cauto', 'cref')))
                pnames.append(pn)
            body = self.block(d, max(1, min(4, self.budget // 3)), top=False)
            ret = self.gen(t, shape, d, req)
            pre = self.pending
            self.pending = []
            body += pre
        finally:
            self.in_helper -= 1
            self.frames, self.hidden, self.loops, self.ldepth, self.pending = saved
        f = Function(name, params, body, kernel=False)
        f.tparams = tparams
        if tparams:
            f.ret = tile_type_parts(t, ())[:-1] + [', N>'] if shape else type_parts(t, ())
            f.ret = ['tile<', Ty(t), ', N>']
        elif self.chance(0.4):
            f.ret = 'auto'
        else:
            f.ret = type_parts(t, shape)
        # helpers with an early return inside `if` (a known false rejection)
        if self.known_feature('helper-early-return', 0.5):
            c = self.gen('bool', (), 1, EXACT) if False else None
            pn0 = pnames[0]
            body.append(St('if', ex=Ex(['false'], Info('bool', (), 0, 0)), body=[St('return', ex=ret)], els=None))
        body.append(St('return', ex=ret))
        if self.cfg.ub > 0 and self.chance(0.1 * self.cfg.ub) and not self.gpu_only:
            # a non-void helper without a return statement, called for nothing (UB: CPU oracles only)
            self.gpu_ok = False
            self.known.append('helper-no-return')
            body.pop()
            f.ret = type_parts(t, shape) if not tparams else f.ret
        self.helpers.append(f)
        call = Ex([name, '('] + sum(([a, ', '] for a in args), [])[:-1] + [')'], ret.info, tag='helper')
        if body and body[-1].kind != 'return':
            # no return: call it as a statement and use something else
            self.emit(St('expr', ex=call))
            return self.leaf(t, shape, req, force=True)
        return call

    gpu_only = False

    # --- productions: scalars -------------------------------------------------------------------
    def scalar_production(self, t, d, req):
        isf, isi, isb = t in FLOATS, t in INTS, t == 'bool'
        if t in ('i8', 'u8', 'f16', 'bf16'):
            # narrow scalars: from a load or a cast
            if self.chance(0.5) and not self.in_helper:
                e = self.p_sload(t, (), d, req)
                if e is not None:
                    return e
            src = 'f32' if t in FLOATS else 'i32'
            a = self.gen(src, (), d - 1, Req(exact=t in INTS, mag=SAFE[t] if t in FLOATS else None))
            return self.scalar_cast(a, t)
        prods = [
            (6, self.s_var), (3, self.s_const), (2 if t == 'i32' else 0, self.s_pid),
            (3, self.s_reduce), (3 if not self.in_helper else 0, self.p_sload), (5, self.s_binop),
            (4 if isb else 0, self.s_cmp), (2 if isb else 0, self.s_logic), (2, self.s_cast),
            (1.5 if not isb else 0, self.s_minmax), (1 if isi else 0, self.s_cdiv), (2 if isf else 0, self.s_math), (0.5 if t == 'f32' else 0, self.s_math2),
            (1, self.s_ternary), (0.5 * self.cfg.helpers if self.in_helper < 2 else 0, self.p_helper),
            (1.5 if t == 'f32' else 0, self.s_halfconv), (1 if isb and not self.in_helper else 0, self.s_guarded),
        ]
        for _ in range(4):
            p = self.wpick(prods)
            try:
                e = p(t, (), d, req) if p in (self.p_helper, self.p_sload) else p(t, d, req)
            except GenFail:
                e = None
            if e is not None:
                self.tag(p.__name__)
                return e
        return None

    def s_var(self, t, d, req):
        vs = self.vars_of(lambda v: v.kind in ('val', 'param') and v.info.t == t and v.info.shape == () and req.ok(v.info))
        if not vs:
            return None
        return self.var_ex(self.pick(vs))

    def s_const(self, t, d, req):
        return self.const_scalar(t, req)

    def s_pid(self, t, d, req):
        fn = self.pick(['program_id', 'program_id', 'num_programs'])
        if not self.callable(fn):
            return None
        ax = self.rnd.randrange(3)
        g = self.meta.grid[ax]
        if fn == 'program_id':
            return Ex(['program_id(%d)' % ax], Info('i32', (), 0, g - 1), tag='pid')
        return Ex(['num_programs(%d)' % ax], Info('i32', (), g, g), tag='pid')

    def s_reduce(self, t, d, req):
        n = self.pick([1, 2, 4, 8, 16, 32, 64, 128, 256])
        return self.p_reduce_scalar(t, n, d, req)

    def p_reduce_scalar(self, t, n, d, req):
        kind = self.wpick([(3, 'sum'), (2, 'max'), (2, 'min'), (1, 'argmax'), (1, 'argmin')])
        if not self.callable(kind):
            return None
        if kind in ('argmax', 'argmin'):
            if t != 'i32':
                return None
            src = self.pick(['f32', 'i32', 'f16', 'i8', 'u8', 'bf16'])
        elif kind == 'sum':
            srcs = {'f32': ['f32', 'f16', 'bf16'], 'i32': ['i32', 'i8', 'u8', 'bool'], 'u32': ['u32'], 'i64': ['i64']}
            if t not in srcs:
                return None
            src = self.pick(srcs[t])
        else:
            if t == 'bool':
                return None
            src = t
        sub = Req(exact=kind in ('argmax', 'argmin'))
        if src in FLOATS and kind == 'sum':
            sub = sub.but(mag=min(SAFE['f32'] / n, SAFE[src]))
        a = self.gen(src, (n,), d - 1, sub)
        info = S.reduce(kind, a.info, 0)
        if info is None or info.t != t:
            return None
        ax = self.pick(['', '<0>'])
        return Ex(['%s%s(' % (kind, ax), a, ')'], info, tag=kind)

    def s_binop(self, t, d, req):
        if t == 'bool':
            return self.s_cmp(t, d, req)
        ops = ['+', '-', '*', '/']
        if t in INTS:
            ops += ['%', '&', '|', '^', '<<', '>>', '+', '-']
        op = self.pick(ops)
        if t in INTS:
            if op in ('<<', '>>'):
                a = self.gen(t, (), d - 1, Req(exact=True, mag=1 << 20))
                if a.info.lo < 0:
                    return None
                k = self.rnd.randint(0, 8)
                if op == '<<':
                    info = Info(t, (), a.info.lo << k, a.info.hi << k, div=lowbit(a.info.div << k) if a.info.div else 0)
                    if info.hi > IRANGE[t][1]:
                        return None
                else:
                    info = Info(t, (), a.info.lo >> k, a.info.hi >> k)
                return Ex(['(', a, ' %s %d)' % (op, k)], info, tag='sbinop')
            lim = {'i32': 1 << 15, 'u32': 1 << 16, 'i64': 1 << 31}[t]
            a = self.gen(t, (), d - 1, Req(exact=True, mag=lim))
            b = self.gen(t, (), d - 1, Req(exact=True, mag=lim))
            if op in '/%' and b.info.lo <= 0 <= b.info.hi:
                # divide by something that is never zero
                bb = S.binary('|', b.info if b.info.lo >= 0 else Info(t, (), 0, lim), Info(t, (), 1, 1), t, scalar=True)
                if b.info.lo < 0 or bb is None:
                    return None
                b = Ex(['(', b, ' | 1)'], bb)
            info = S.binary(op, a.info, b.info, t, scalar=True)
            if info is None:
                return None
            return Ex(['(', a, ' %s ' % op, b, ')'], info, tag='sbinop')
        # float scalars
        sub = req.but(mag=min(req.mag or 1e6, 1e6), nozs=False)
        a = self.gen(t, (), d - 1, sub)
        b = self.gen(t, (), d - 1, sub.but(nozs=(op == '/')))
        info = S.binary(op, a.info, b.info, t, scalar=True)
        if info is None:
            return None
        return Ex(['(', a, ' %s ' % op, b, ')'], info, tag='sbinop')

    def s_cmp(self, t, d, req):
        ot = self.pick(['i32', 'f32', 'i64', 'u32', 'bool', 'i32'])
        op = self.pick(['<', '<=', '>', '>=', '==', '!='])
        a = self.gen(ot, (), d - 1, EXACT)
        b = self.gen(ot, (), d - 1, EXACT)
        info = S.binary(op, a.info, b.info, ot, scalar=True)
        if info is None:
            return None
        return Ex(['(', a, ' %s ' % op, b, ')'], info, tag='scmp')

    def s_logic(self, t, d, req):
        op = self.pick(['&&', '||', '!'])
        if op == '!':
            a = self.gen('bool', (), d - 1, EXACT)
            return Ex(['!', '(', a, ')'], Info('bool', (), 0, 1), tag='slogic')
        a = self.gen('bool', (), d - 1, EXACT)
        b = self.gen('bool', (), d - 1, EXACT)
        return Ex(['(', a, ' %s ' % op, b, ')'], Info('bool', (), 0, 1), tag='slogic')

    def s_guarded(self, t, d, req):
        """k < n && load(p + k) > c: the load runs only when the guard holds (short-circuit)."""
        lt = self.pick(['i32', 'f32', 'i8'])
        n = self.new_scalar_param('i32', 0, 16, kind='size', full=16, base='n')
        b = self.new_buffer(lt, 'in', self.dist_for(lt), (lambda nn: (lambda vals: max(1, vals[nn])))(n.parts[0]))
        k = self.gen('i32', (), d - 1, Req(exact=True, mag=40))
        self.no_pending += 1
        try:
            c = self.const_scalar(lt if lt != 'i8' else 'i32', EXACT, -2, 2)
        finally:
            self.no_pending -= 1
        op = self.pick(['>', '<', '!=', '>='])
        form = self.pick(['a', 'b'])
        if form == 'a':
            parts = ['(', k, ' >= 0 && ', k, ' < ', n, ' && load(%s + ' % b.name, k, ') %s ' % op, c, ')']
        else:
            parts = ['(!(', k, ' < 0 || ', k, ' >= ', n, ') && load(%s + ' % b.name, k, ') %s ' % op, c, ')']
        self.tag('guarded_load')
        return Ex(parts, Info('bool', (), 0, 1), tag='guarded')

    def s_cast(self, t, d, req):
        src = self.pick(['i32', 'f32', 'i64', 'u32', 'bool', 'f16', 'i8'])
        if src == t:
            return None
        need_exact = t in INTS or t == 'bool'
        if src in INTS and t in INTS:
            a = self.gen(src, (), d - 1, Req(exact=True))
        else:
            a = self.gen(src, (), d - 1, Req(exact=need_exact, mag=SAFE[src] if src in FLOATS else None))
        info = S.convert(a.info, t)
        if info is None:
            return None
        style = self.pick(['cast', 'static', 'func', 'c'])
        if style == 'cast' and self.callable('cast'):
            return Ex(['cast<', Ty(t), '>(', a, ')'], info, tag='scast')
        # plain C++ conversions: in range only (UB otherwise on the host)
        if src in FLOATS and t in INTS:
            lo, hi = IRANGE[t]
            if a.info.nan or a.info.lo <= lo - 1 or a.info.hi >= hi + 1:
                return Ex(['cast<', Ty(t), '>(', a, ')'], info, tag='scast') if self.callable('cast') else None
        if src in ('f16', 'bf16') and (t != 'f32' or not self.known_feature('float(half)')):
            return Ex(['cast<', Ty(t), '>(', a, ')'], info, tag='scast') if self.callable('cast') else None
        tn = CPP[t]
        if style == 'static':
            return Ex(['static_cast<', Ty(t), '>(', a, ')'], info, tag='scast')
        if style == 'func' and t in ('f32', 'bool', 'u32', 'i32'):
            return Ex([Ty(t), '(', a, ')'] if t != 'u32' else ['unsigned(', a, ')'], info, tag='scast')
        return Ex(['(', Ty(t), ')', '(', a, ')'], info, tag='scast')

    def s_halfconv(self, t, d, req):
        """float(h) and static_cast<float>(h) of a scalar half or bfloat16 (a known false rejection)."""
        if not self.known_feature('float(half)'):
            return None
        ht = self.pick(['f16', 'bf16'])
        h = self.gen(ht, (), d - 1, req.but(mag=min(req.mag or SAFE[ht], SAFE[ht])))
        info = S.convert(h.info, 'f32')
        if info is None:
            return None
        form = self.pick([['float(', h, ')'], ['static_cast<float>(', h, ')']])
        return Ex(form, info, tag='halfconv')

    def s_minmax(self, t, d, req):
        fn = self.pick(['max', 'min', 'std::max', 'std::min'] + (['fmaxf', 'fminf', 'std::fmax'] if t == 'f32' else []))
        if not self.spellable(fn):
            return None
        a = self.gen(t, (), d - 1, req.but(nozs=False, noprod=False))
        b = self.gen(t, (), d - 1, req.but(nozs=False, noprod=False))
        info = S.minmax('max' if 'max' in fn else 'min', a.info, b.info, t)
        return Ex([fn + '(', a, ', ', b, ')'], info, tag='sminmax')

    def s_cdiv(self, t, d, req):
        if t not in ('i32', 'i64') or not self.callable('cdiv'):
            return None
        a = self.gen(t, (), d - 1, Req(exact=True, mag=1 << 20))
        if a.info.lo < 0:
            return None
        k = self.pick([1, 2, 3, 16, 64, 128])
        info = Info(t, (), -(-a.info.lo // k), -(-a.info.hi // k))
        return Ex(['cdiv(', a, ', %d)' % k], info, tag='cdiv')

    def s_math(self, t, d, req):
        fn = self.pick(['exp', 'log', 'sqrt', 'tanh', 'sin', 'cos', 'floor', 'ceil', 'fabs', 'exp2', 'erf'] +
                       (list(S.CMATH) + ['trunc', 'round', 'rint', 'nearbyint'] if self.chance(0.5) else []))
        spell = self.pick(['std::%s', '%sf'])
        if fn == 'fabs':
            spell = self.pick(['std::fabs', 'fabsf', 'std::abs'])
        else:
            spell = spell % fn
        if not self.spellable(spell):
            return None
        if fn == 'fabs':
            a = self.gen(t, (), d - 1, req.but(nozs=False))
            return Ex([spell + '(', a, ')'], S.absval(a.info), tag='smath')
        dlo, dhi = S.math_domain(fn if fn != 'fabs' else 'floor', t)
        mag = min(abs(dlo) if dlo < 0 else dhi, dhi if dhi > 0 else abs(dlo), 1e6)
        a = self.gen(t, (), d - 1, Req(exact=fn in S.STEPS, mag=mag if mag < INF else None))
        i = a.info
        if fn in ('log', 'log10', 'log1p') and (i.lo < dlo or i.nan):
            ai = S.absval(i)
            ni = S.binary('+', ai, float_const_info('f32', 1.0), t)
            if ni is None:
                return None
            a = Ex(['(std::fabs(' if self.callable('std') else '(fabsf(', a, ') + 1.0f)'], ni)
            i = ni
        if fn == 'sqrt' and (i.lo < 0 or i.nan):
            ai = S.absval(i)
            a = Ex(['std::fabs(' if self.callable('std') else 'fabsf(', a, ')'], ai)
            i = ai
        info = S.mathfn(fn, i)
        if info is None:
            return None
        return Ex([spell + '(', a, ')'], info, tag='smath')

    def s_math2(self, t, d, req):
        """<cmath>'s hypot and fdim on float scalars."""
        fn = self.pick(['hypot', 'fdim'])
        spell = self.pick(['std::%s', '%sf']) % fn
        if not self.spellable(spell):
            return None
        a = self.gen(t, (), d - 1, Req(mag=1e6))
        b = self.gen(t, (), d - 1, Req(mag=1e6))
        info = S.math2(fn, a.info, b.info, t)
        if info is None:
            return None
        return Ex([spell + '(', a, ', ', b, ')'], info, tag='smath2')

    def s_ternary(self, t, d, req):
        c = self.gen('bool', (), d - 1, EXACT)
        a = self.gen(t, (), d - 1, req)
        b = self.gen(t, (), d - 1, req)
        info = S.select(c.info, a.info, b.info, t)
        if info is None:
            return None
        return Ex(['(', c, ' ? ', a, ' : ', b, ')'], info, tag='sternary')
