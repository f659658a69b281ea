"""Memory templates, statements and kernels on top of the expression generator (gen.py)."""
import math

from . import semantics as S
from .ast import Ex, St, Ty, Function, Param, Program, RenderCtx, tile_type_parts, type_parts
from .gen import (ExprGen, Config, Req, ANY, EXACT, Var, GenFail, pow2s, size_of, lit_int, lit_float, COLLIDE_KERNEL,
                  API_FUNCS)
from .harnessmeta import Buffer, ScalarParam, KernelMeta
from .values import (ELEMS, INTS, FLOATS, NUMERIC, CPP, IRANGE, SIZE, INTEXACT, SAFE, INF, UROUND, NAME_ARG, Info,
                     int_info, float_const_info, round_to, wrap, lowbit, join)

MAX_REGION_ELEMS = 1 << 17


def dist_info(t, dist, shape):
    kind, _, arg = dist.partition(':')
    if t == 'bool':
        return Info('bool', shape, 0, 1)
    if t in INTS:
        if kind == 'full':
            return Info(t, shape, *IRANGE[t])
        lo, hi = {'i8': (-8, 8), 'u8': (0, 15), 'i32': (-100, 100), 'u32': (0, 100), 'i64': (-100, 100)}[t]
        if kind == 'pos':
            lo = 0
        return Info(t, shape, lo, hi)
    if kind == 'intlike':
        k = float(arg)
        return Info(t, shape, -k, k, True, 'x')
    if kind == 'real':
        r = float(arg)
        return Info(t, shape, -r, r, False, 'x')
    if kind == 'pos':
        r = float(arg)
        return Info(t, shape, 0.125, r, False, 'x')
    if kind == 'special':
        return Info(t, shape, -INF, INF, False, 'x', nan=True)
    raise ValueError(dist)


def ceil16(v):
    return (v + 15) // 16 * 16


class Gen(ExprGen):
    # ------------------------------------------------------------------ data
    def dist_for(self, t, exact_pref=None):
        if t == 'bool':
            return 'bool'
        if t in INTS:
            return 'full' if self.chance(0.3) else self.pick(['small', 'small', 'pos'])
        r = self.rnd.random()
        if r < 0.08 * self.cfg.special:
            return 'special'
        if r < 0.45:
            return 'intlike:%d' % self.pick([2, 4, 8])
        if r < 0.55:
            return 'pos:%d' % self.pick([2, 8])
        return 'real:%d' % self.pick([1, 2, 4])

    def size_param(self, lo, hi, mult=1, base='n', t='i32'):
        full = hi if mult == 1 else hi // mult * mult
        return self.new_scalar_param(t, lo, hi, kind='size', mult=mult, full=full, base=base)

    # ------------------------------------------------------------------ regions
    def region(self):
        """A scalar index unique to this program and loop iteration, and how many there are."""
        e = self.pid_ex
        R = self.meta.grid[0] * self.meta.grid[1] * self.meta.grid[2]
        for L in self.loops:
            T = max(1, L['T'])
            R2 = R * T
            if T > 1:
                e = Ex(['(', e, ' * %d + ' % T, L['it'], ')'], Info('i32', (), 0, R2 - 1))
            R = R2
        return e, R

    def any_region(self, d):
        """Where a load reads: this program's region, region 0, or a data-dependent one."""
        r = self.rnd.random()
        if r < 0.6 and not self.in_helper:
            return self.region()
        if r < 0.8:
            return Ex(['0'], Info('i32', (), 0, 0, div=0, const=0)), 1
        R = self.pick([2, 4, 8])
        k = self.gen('i32', (), max(0, d - 2), EXACT)
        if k.info.lo >= 0 and k.info.hi < R:
            return k, R
        info = S.binary('&', k.info, Info('i32', (), R - 1, R - 1), 'i32', scalar=True)
        if info is None or info.lo < 0 or info.hi >= R:
            return Ex(['0'], Info('i32', (), 0, 0, const=0)), 1
        return Ex(['(', k, ' & %d)' % (R - 1)], info), R

    def offsets(self, shape, region, R, inline=False):
        """region * size + the flat index of `shape`: offsets into a buffer of R * size elements."""
        n = size_of(shape)
        idx = self.index_tile(shape)
        if idx is None:
            raise GenFail('arange hidden')
        if region.info.const == 0:
            e = idx
        else:
            e = Ex([region, ' * %d + ' % n, idx], Info('i32', shape, 0, R * n - 1, contig=shape[-1]), tag='offs')
        if not inline and self.chance(0.6):
            e = self.decl_pending(e, 'offs')
        return e

    def cut_region(self, R, n):
        while R > 1 and R * n > MAX_REGION_ELEMS:
            R //= 2
        return R

    # ------------------------------------------------------------------ loads
    def p_load(self, t, shape, d, req):
        if self.in_helper or not self.callable('load'):
            return None
        kinds = [(4, 'lin'), (2, 'full'), (3 if len(shape) == 2 else 0, 'mat'), (2, 'gather'),
                 (2 * self.cfg.block_ptr if self.callable('make_block_ptr') else 0, 'bp'),
                 (2 if self.callable('min') else 0, 'wrap')]
        k = self.wpick(kinds)
        dist = self.dist_for(t)
        li = dist_info(t, dist, shape)
        if not req.ok(li) and dist == 'special':
            dist = 'real:2' if t in FLOATS else dist
            li = dist_info(t, dist, shape)
        n = size_of(shape)
        if k in ('lin', 'full'):
            region, R = self.any_region(d)
            if R * n > MAX_REGION_ELEMS:
                region, R = Ex(['0'], Info('i32', (), 0, 0, const=0)), 1
            offs = self.offsets(shape, region, R)
            if k == 'full':
                b = self.new_buffer(t, 'in', dist, (lambda c: lambda vals: c)(R * n))
                return Ex(['load(%s + ' % b.name, offs, ')'], li, tag='load_full')
            np_ = self.size_param(0, R * n, base='n')
            b = self.new_buffer(t, 'in', dist, (lambda nm: lambda vals: vals[nm])(np_.parts[0]))
            return self.masked_load(b, ['%s + ' % b.name, offs], self.lt_mask(offs, np_, shape, d), li, shape, d, req)
        if k == 'wrap':
            # A periodic read: (offs - min(back, L) + L) % L over a buffer of L elements (L a
            # multiple of 16), `back` an argument moving the window back: the dividend stays
            # non-negative, but only the launcher's bound over the grid can tell (variants
            # that assume it, or the general kernel).
            region, R = self.any_region(d)
            if R * n > MAX_REGION_ELEMS:
                region, R = Ex(['0'], Info('i32', (), 0, 0, const=0)), 1
            offs = self.offsets(shape, region, R)
            L = self.size_param(16, 1024, mult=16, base='n')
            back = self.new_scalar_param('i32', 0, self.pick([16, 48, 1024]), base='k')
            b = self.new_buffer(t, 'in', dist, (lambda nm: lambda vals: vals[nm])(L.parts[0]))
            return Ex(['load(%s + (' % b.name, offs, ' - min(', back, ', ', L, ') + ', L, ') % ', L, ')'], li, tag='load_wrap')
        if k == 'mat':
            return self.load_mat(t, shape, d, req, dist, li)
        if k == 'gather':
            it = self.pick(['i32', 'i32', 'i64', 'u32', 'i8', 'u8'])
            idx = self.gen(it, self.sub_shape(shape) if self.chance(0.3) else shape, d - 1, EXACT)
            lmax = {'i8': 128, 'u8': 256}.get(it, 4096)
            L = self.pick([x for x in pow2s(1, lmax)])
            oi = S.binary('&', idx.info, S.convert(Info('i32', (), L - 1, L - 1), it), it)
            if oi is None or oi.lo < 0 or oi.hi >= L:
                return None
            b = self.new_buffer(t, 'in', dist, (lambda c: lambda vals: c)(L))
            ptr = ['%s + (' % b.name, idx, ' & %d)' % (L - 1)]
            if idx.info.shape != shape:
                ptr = ['%s + broadcast_to<%s>(' % (b.name, ', '.join(map(str, shape))), idx, ' & %d)' % (L - 1)]
            if self.chance(0.4):
                m = self.gen('bool', self.sub_shape(shape), d - 1, EXACT)
                return self.masked_load(b, ptr, m, li, shape, d, req)
            return Ex(['load('] + ptr + [')'], li, tag='load_gather')
        return self.load_bp(t, shape, d, req, dist, li)

    def lt_mask(self, offs, n, shape, d):
        form = self.pick(['lt', 'lt', 'gt', 'not', 'and'])
        info = Info('bool', shape, 0, 1)
        if form == 'lt':
            return Ex(['(', offs, ' < ', n, ')'], info, tag='mask')
        if form == 'gt':
            return Ex(['(', n, ' > ', offs, ')'], info, tag='mask')
        if form == 'not':
            return Ex(['!(', offs, ' >= ', n, ')'], info, tag='mask')
        extra = self.gen('bool', self.sub_shape(shape), max(0, d - 2), EXACT)
        return Ex(['((', offs, ' < ', n, ') & ', extra, ')'], info, tag='mask')

    def masked_load(self, b, ptr_parts, mask, li, shape, d, req):
        r = self.rnd.random()
        if r < 0.3:
            return Ex(['load('] + ptr_parts + [', ', mask, ')'], join(li, Info(li.t, shape, 0, 0, div=0) if li.t not in FLOATS
                                                                    else float_const_info(li.t, 0.0, shape)), tag='load')
        if r < 0.7:
            c = self.const_scalar('f32' if li.t in FLOATS else ('bool' if li.t == 'bool' else 'i32'),
                                  req.but(noprod=True))
            ci = S.convert(c.info, li.t, shape)
            if li.t in ('i8', 'u8'):
                ci = Info(li.t, shape, wrap(li.t, c.info.const), wrap(li.t, c.info.const))
        else:
            c = self.gen(li.t, self.sub_shape(shape), max(0, d - 2), req.but(noprod=True))
            ci = c.info.copy(shape=shape)
        if ci is None:
            return None
        return Ex(['load('] + ptr_parts + [', ', mask, ', ', c, ')'], join(li, ci), tag='load')

    def load_mat(self, t, shape, d, req, dist, li):
        A, B = shape
        trans = self.chance(0.3)
        ra, cb = (B, A) if trans else (A, B)   # rows of the matrix along the tile's axis 1 when transposed
        region, R = self.any_region(d)
        R = self.cut_region(R, ra * (cb + 4))
        if region.info.hi >= R:
            region = Ex(['0'], Info('i32', (), 0, 0, const=0))
            R = 1
        rows = Ex([region, ' * %d + arange<%d>()' % (ra, ra)], Info('i32', (ra,), 0, R * ra - 1, contig=ra))
        rows = self.decl_pending(rows, 'rows')
        cols = self.decl_pending(Ex(['arange<%d>()' % cb], Info('i32', (cb,), 0, cb - 1, contig=cb)), 'cols')
        M = self.size_param(0, R * ra, base='M')
        N = self.size_param(0, cb, base='N')
        lt = self.pick(['i32', 'i64'])
        ld = self.new_scalar_param(lt, cb, cb + 3, kind='size', full=ceil16(cb), base='ld')
        mn, nn, ln = M.parts[0], N.parts[0], ld.parts[0]
        b = self.new_buffer(t, 'in', dist, lambda vals: vals[mn] * vals[ln])
        c64 = self.chance(0.3)
        if not trans:
            r_ = ['cast<int64_t>(col(', rows, '))'] if c64 else ['col(', rows, ')']
            ptr = ['%s + ' % b.name] + r_ + [' * ', ld, ' + row(', cols, ')']
            mask = Ex(['(col(', rows, ') < ', M, ') & (row(', cols, ') < ', N, ')'], Info('bool', shape, 0, 1), tag='mask')
        else:
            r_ = ['cast<int64_t>(row(', rows, '))'] if c64 else ['row(', rows, ')']
            ptr = ['%s + ' % b.name] + r_ + [' * ', ld, ' + col(', cols, ')']
            mask = Ex(['(row(', rows, ') < ', M, ') & (col(', cols, ') < ', N, ')'], Info('bool', shape, 0, 1), tag='mask')
        if not (self.callable('col') and self.callable('row')):
            return None
        return self.masked_load(b, ptr, mask, li, shape, d, req)

    def bp_parts(self, b, shape, d, for_store=False, region=None, R=1):
        """make_block_ptr<shape>(b, {sizes}, {strides}, {offsets}) and the buffer length."""
        r = len(shape)
        if r == 1:
            (B,) = shape
            n = self.size_param(0, R * B + (0 if for_store else B), base='n')
            nn = n.parts[0]
            if region is not None:
                o = Ex([region, ' * %d' % B], Info('i32', (), 0, (R - 1) * B))
            else:
                o = self.gen('i32', (), max(0, d - 2), Req(exact=True, mag=4 * B))
            parts = ['make_block_ptr<%d>(%s, {' % (B, b.name), n, '}, {1}, {', o, '})']
            return parts, (lambda vals: vals[nn]) if not for_store else (lambda c: lambda vals: c)(R * B + B)
        if r == 2:
            A, B = shape
            trans = self.chance(0.25)
            if trans:
                # element (i, j) at i + j * ld: a column-major view
                P = self.size_param(0, A, base='P')
                Q = self.size_param(0, R * B if region is not None else B * 2, base='Q')
                ld = self.new_scalar_param('i64', A, A + 2, kind='size', full=ceil16(A), base='ld')
                pn, qn, ln = P.parts[0], Q.parts[0], ld.parts[0]
                if region is not None:
                    o0 = Ex(['0'], Info('i32', (), 0, 0))
                    o1 = Ex([region, ' * %d' % B], Info('i32', (), 0, (R - 1) * B))
                else:
                    o0 = self.gen('i32', (), max(0, d - 2), Req(exact=True, mag=2 * A))
                    o1 = self.gen('i32', (), max(0, d - 2), Req(exact=True, mag=2 * B))
                parts = ['make_block_ptr<%d, %d>(%s, {' % (A, B, b.name), P, ', ', Q, '}, {1, ', ld, '}, {', o0,
                         ', ', o1, '})']
                if for_store:
                    cap = R * B
                    return parts, (lambda c: lambda vals: c * vals[ln])(cap)
                return parts, lambda vals: vals[qn] * vals[ln]
            M = self.size_param(0, R * A if region is not None else 2 * A, base='M')
            N = self.size_param(0, B, base='N')
            ld = self.new_scalar_param(self.pick(['i32', 'i64']), B, B + 3, kind='size', full=ceil16(B), base='ld')
            mn, nn, ln = M.parts[0], N.parts[0], ld.parts[0]
            if region is not None:
                o0 = Ex([region, ' * %d' % A], Info('i32', (), 0, (R - 1) * A))
                o1 = Ex(['0'], Info('i32', (), 0, 0))
            else:
                o0 = self.gen('i32', (), max(0, d - 2), Req(exact=True, mag=2 * A))
                o1 = self.gen('i32', (), max(0, d - 2), Req(exact=True, mag=2 * B))
            parts = ['make_block_ptr<%d, %d>(%s, {' % (A, B, b.name), M, ', ', N, '}, {', ld, ', 1}, {', o0, ', ', o1,
                     '})']
            if for_store:
                return parts, (lambda c: lambda vals: c * vals[ln])(R * A)
            return parts, lambda vals: vals[mn] * vals[ln]
        A, B, C = shape
        D0 = self.size_param(0, R * A if region is not None else A + 1, base='D')
        d0 = D0.parts[0]
        s1, s0 = C + 1, (B + 1) * (C + 1)
        if region is not None:
            o0 = Ex([region, ' * %d' % A], Info('i32', (), 0, (R - 1) * A))
            o1 = Ex(['0'], Info('i32', (), 0, 0))
            o2 = Ex(['0'], Info('i32', (), 0, 0))
        else:
            o0, o1, o2 = (self.gen('i32', (), max(0, d - 2), Req(exact=True, mag=2 * x)) for x in (A, B, C))
        parts = ['make_block_ptr<%d, %d, %d>(%s, {' % (A, B, C, b.name), D0, ', %d, %d}, {%d, %d, 1}, {' % (B, C, s0, s1),
                 o0, ', ', o1, ', ', o2, '})']
        if for_store:
            return parts, (lambda c: lambda vals: c)(R * A * s0)
        return parts, lambda vals: vals[d0] * s0

    def load_bp(self, t, shape, d, req, dist, li):
        b = self.new_buffer(t, 'in', dist, lambda vals: 1)
        parts, length = self.bp_parts(b, shape, d)
        b.length = length
        li = join(li, float_const_info(t, 0.0, shape) if t in FLOATS else Info(t, shape, 0, 0))
        if self.chance(0.5) and not self.no_pending:
            name = self.fresh('bp')
            self.emit(St('decl', name=name, ex=Ex(parts, Info('i64')), const=self.chance(0.3)))
            self.declare(name, Info('i64'), kind='bp', mutable=False, extra=(b, shape))
            if self.chance(0.3) and self.callable('advance'):
                deltas = ', '.join(['0'] * len(shape))
                return Ex(['load(advance(%s, {%s}))' % (name, deltas)], li, tag='load_bp')
            return Ex(['load(%s)' % name], li, tag='load_bp')
        return Ex(['load('] + parts + [')'], li, tag='load_bp')

    def p_sload(self, t, shape, d, req):
        if self.in_helper or not self.callable('load'):
            return None
        dist = self.dist_for(t)
        li = dist_info(t, dist, ())
        if not req.ok(li):
            dist = self.dist_for(t)
            li = dist_info(t, dist, ())
        form = self.pick(['idx', 'first', 'masked', 'region'])
        if form == 'first':
            b = self.new_buffer(t, 'in', dist, lambda vals: 1)
            return Ex(['load(%s)' % b.name], li, tag='sload')
        if form == 'region' and not self.in_helper:
            region, R = self.region()
            b = self.new_buffer(t, 'in', dist, (lambda c: lambda vals: c)(R))
            return Ex(['load(%s + ' % b.name, region, ')'], li, tag='sload')
        k = self.gen('i32', (), max(0, d - 2), Req(exact=True, mag=5000))
        if form == 'masked' and k.info.lo >= 0:
            n = self.size_param(0, k.info.hi + 1, base='n')
            nn = n.parts[0]
            b = self.new_buffer(t, 'in', dist, lambda vals: vals[nn])
            c = self.const_scalar('f32' if t in FLOATS else ('bool' if t == 'bool' else 'i32'), EXACT)
            ci = S.convert(c.info, t)
            if t in ('i8', 'u8'):
                ci = Info(t, (), wrap(t, c.info.const), wrap(t, c.info.const))
            return Ex(['load(%s + ' % b.name, k, ', ', k, ' < ', n, ', ', c, ')'], join(li, ci), tag='sload')
        if k.info.lo >= 0 and k.info.hi < 4096:
            L = k.info.hi + 1
            b = self.new_buffer(t, 'in', dist, (lambda c: lambda vals: c)(L))
            return Ex(['load(%s + ' % b.name, k, ')'], li, tag='sload')
        L = self.pick([1, 2, 8, 64, 1024])
        b = self.new_buffer(t, 'in', dist, (lambda c: lambda vals: c)(L))
        return Ex(['load(%s + (' % b.name, k, ' & %d))' % (L - 1)], li, tag='sload')

    # ------------------------------------------------------------------ statements
    def take_pending(self):
        p = self.pending
        self.pending = []
        return p

    def drop_pending(self):
        """Discards the pending declarations of a statement that failed, and their names: a later
        statement must not assign to a variable whose declaration was never emitted."""
        for st in self.take_pending():
            if st.kind != 'decl':
                continue
            for f in reversed(self.frames):
                if st.name in f:
                    del f[st.name]
                    break

    def block(self, d, n, top=False):
        out = []
        for _ in range(n):
            if self.budget <= 0:
                break
            self.budget -= 1
            sts = self.statement(d, top)
            out += self.take_pending() + sts
            if sts and sts[-1].kind == 'return':
                break
        return out

    def assignable(self):
        return self.vars_of(lambda v: v.kind == 'val' and v.mutable and v.ldepth == self.ldepth)

    def statement(self, d, top):
        c = self.cfg
        h = self.in_helper
        loop_ok = self.ldepth < 2 and c.loops > 0
        kinds = [
            (5, 'decl'), (2, 'decl_scalar'), (3 if self.assignable() else 0, 'assign'),
            (0 if h else 5, 'store'), (0 if h else 1.2 * c.atomics, 'atomic'),
            (2, 'if'), (2.5 * c.loops if loop_ok else 0, 'for'),
            (0 if h or self.ldepth else 0.8 * c.dot, 'dotloop'),
            (0 if h else 0.3, 'roundtrip'), (0.6 if not h else 0, 'return_if'),
            (0.3 * c.known if not h else 0, 'noinit'), (0.2 * c.known if not h else 0, 'assert'),
            (0.15 * c.stress * c.known if not h else 0, 'stress'),
            (0.2 if not h else 0, 'constexpr'),
        ]
        for _ in range(5):
            k = self.wpick(kinds)
            try:
                sts = getattr(self, 'st_' + k)(d)
            except GenFail:
                self.drop_pending()
                sts = None
            if sts is not None:
                self.tag('st_' + k)
                return sts
        return []

    def pick_type(self, scalar=False):
        if scalar:
            return self.pick(['f32', 'f32', 'i32', 'i32', 'i64', 'u32', 'bool'])
        return self.pick(['f32', 'f32', 'f32', 'i32', 'i32', 'f16', 'bf16', 'i8', 'u8', 'u32', 'i64', 'bool'])

    def pick_shape(self):
        if self.shapes and self.chance(0.8):
            return self.pick(self.shapes)
        return self.new_shape()

    def new_shape(self):
        r = self.pick([1, 1, 2, 2, 2, 3])
        if r == 1:
            return (self.pick([1, 2, 8, 16, 32, 64, 64, 128, 256, 512, 1024]),)
        if r == 2:
            a = self.pick([1, 2, 4, 8, 16, 16, 32, 32, 64, 128])
            b = self.pick([1, 2, 4, 8, 16, 16, 32, 32, 64, 128])
            while a * b > 4096:
                b //= 2
            return (a, b)
        a, b, c = (self.pick([1, 2, 4, 8, 16]) for _ in range(3))
        while a * b * c > 2048:
            c = max(1, c // 2)
            a = max(1, a // 2)
        return (a, b, c)

    def st_decl(self, d):
        t = self.pick_type()
        shape = self.pick_shape()
        name = self.fresh(api_ok=True)
        self.reserve(name)
        e = self.gen(t, shape, d)
        const = self.chance(0.25)
        tparts = None
        if self.chance(0.3):
            tparts = tile_type_parts(t, shape)
        self.declare(name, e.info, mutable=not const)
        return [St('decl', name=name, ex=e, const=const, tparts=tparts)]

    def st_decl_scalar(self, d):
        t = self.pick_type(scalar=True)
        name = self.fresh(api_ok=True)
        self.reserve(name)
        e = self.gen(t, (), d)
        const = self.chance(0.3)
        tparts = None if self.chance(0.4) else [Ty(t)]
        self.declare(name, e.info, mutable=not const)
        return [St('decl', name=name, ex=e, const=const, tparts=tparts)]

    def st_constexpr(self, d):
        name = self.fresh()
        v = self.rnd.randint(-50, 50)
        self.declare(name, Info('i32', (), v, v, div=lowbit(v), const=v), mutable=False)
        return [St('raw', text='constexpr int %s = %d;' % (name, v))]

    def st_assign(self, d):
        vs = self.assignable()
        if not vs:
            return None
        v = self.pick(vs)
        i = v.info
        t, shape = i.t, i.shape
        if self.chance(0.5) or t == 'bool' or (not shape and t not in ('i32', 'u32', 'i64', 'f32')):
            e = self.gen(t, shape, d)
            v.info = e.info.copy(shape=shape)
            return [St('assign', name=v.name, op='=', ex=e)]
        ops = ['+=', '-=', '*=']
        if t in INTS:
            ops += ['&=', '|=', '^=', '>>=', '/=', '%=']
        op = self.pick(ops)
        if shape:
            e = self.gen(t, self.sub_shape(shape), d, ANY if t in INTS else Req(mag=SAFE[t] / 4))
            info = S.binary(op[:-1], i, e.info, t)
        else:
            lim = {'i32': 1 << 12, 'u32': 1 << 12, 'i64': 1 << 20, 'f32': 1e4}.get(t, 100)
            if op in ('>>=',):
                k = self.rnd.randint(0, 5)
                if i.lo < 0:
                    return None
                e = Ex(['%d' % k], Info('i32', (), k, k))
                info = Info(t, (), i.lo >> k, i.hi >> k)
            else:
                e = self.gen(t, (), d, Req(exact=t in INTS, mag=lim))
                if op in ('/=', '%=') and e.info.lo <= 0 <= e.info.hi:
                    return None
                info = S.binary(op[:-1], i, e.info, t, scalar=True)
        if info is None:
            return None
        v.info = info.copy(shape=shape)
        return [St('assign', name=v.name, op=op, ex=e)]

    # --- stores --------------------------------------------------------------------------------
    def st_store(self, d):
        region, R = self.region()
        t = self.pick_type()
        shape = self.pick_shape() if self.chance(0.85) else ()
        kind = 'scalar' if not shape else self.wpick([(4, 'lin'), (2, 'full'), (2 if len(shape) == 2 else 0, 'mat'),
                           (2 * self.cfg.block_ptr if shape and self.callable('make_block_ptr') else 0, 'bp'),
                           (1.5 if shape else 0, 'scatter'), (3 if not shape else 0, 'scalar')])
        n = max(1, size_of(shape))
        R = self.cut_region(R, n * 4)
        if region.info.hi >= R:
            return None
        if not self.callable('store'):
            return None
        if kind == 'scalar':
            e = self.gen(t if t not in ('i8', 'u8', 'f16', 'bf16') or self.chance(0.5) else 'f32', (), d)
            bt = t
            ci = S.convert(e.info, bt)
            if ci is None:
                return None
            b = self.new_buffer(bt, 'out', None, (lambda c: lambda vals: c)(R))
            b.note_store(ci)
            if self.chance(0.3):
                m = self.gen('bool', (), d - 1, EXACT)
                return [St('expr', ex=Ex(['store(%s + ' % b.name, region, ', ', e, ', ', m, ')'], None))]
            return [St('expr', ex=Ex(['store(%s + ' % b.name, region, ', ', e, ')'], None))]
        # the value: a tile of the pointee type, a broadcast one, or a scalar
        vr = self.rnd.random()
        if vr < 0.75:
            e = self.gen(t, shape, d)
            ci = e.info
        elif vr < 0.9:
            e = self.gen(t, self.sub_shape(shape), d)
            ci = e.info.copy(shape=shape)
        else:
            st = {'f16': 'f32', 'bf16': 'f32', 'i8': 'i32', 'u8': 'i32'}.get(t, t)
            e = self.gen(st, (), d)
            ci = S.convert(e.info, t, shape)
            if ci is None:
                return None
        if kind == 'bp':
            b = self.new_buffer(t, 'out', None, lambda vals: 1)
            parts, length = self.bp_parts(b, shape, d, for_store=True, region=region, R=R)
            b.length = length
            if e.info.shape != shape and e.info.shape != ():
                e = Ex(['broadcast_to<%s>(' % ', '.join(map(str, shape)), e, ')'], ci)
            b.note_store(ci)
            return [St('expr', ex=Ex(['store('] + parts + [', ', e, ')'], None))]
        if kind == 'mat':
            A, B = shape
            rows = self.decl_pending(Ex([region, ' * %d + arange<%d>()' % (A, A)], Info('i32', (A,), 0, R * A - 1)), 'rows')
            cols = Ex(['arange<%d>()' % B], Info('i32', (B,), 0, B - 1))
            M = self.size_param(0, R * A, base='M')
            N = self.size_param(0, B, base='N')
            ld = self.new_scalar_param(self.pick(['i32', 'i64']), B, B + 3, kind='size', full=ceil16(B), base='ld')
            ln = ld.parts[0]
            b = self.new_buffer(t, 'out', None, (lambda c: lambda vals: c * vals[ln])(R * A))
            b.note_store(ci)
            if not (self.callable('col') and self.callable('row')):
                return None
            return [St('expr', ex=Ex(['store(%s + col(' % b.name, rows, ') * ', ld, ' + row(', cols, '), ', e,
                                      ', (col(', rows, ') < ', M, ') & (row(', cols, ') < ', N, '))'], None))]
        idx = self.index_tile(shape)
        if idx is None:
            return None
        if kind == 'scatter':
            f = self.pick(['rev', 'xor', 'mul'])
            if f == 'rev':
                idx = Ex(['(%d - ' % (n - 1), idx, ')'], Info('i32', shape, 0, n - 1))
            elif f == 'xor':
                idx = Ex(['(', idx, ' ^ %d)' % self.rnd.randrange(n)], Info('i32', shape, 0, n - 1))
            else:
                idx = Ex(['((', idx, ' * %d) & %d)' % (self.pick([3, 5, 7, 9, 13]), n - 1)], Info('i32', shape, 0, n - 1))
        if region.info.const == 0 and R == 1:
            offs = idx
        else:
            offs = Ex([region, ' * %d + ' % n, idx], Info('i32', shape, 0, R * n - 1), tag='offs')
        if self.chance(0.5):
            offs = self.decl_pending(offs, 'offs')
        b = self.new_buffer(t, 'out', None, (lambda c: lambda vals: c)(R * n))
        b.note_store(ci)
        if kind == 'full' or (kind == 'scatter' and self.chance(0.5)):
            if kind == 'scatter' and self.chance(0.5):
                m = self.gen('bool', self.sub_shape(shape), d - 1, EXACT)
                return [St('expr', ex=Ex(['store(%s + ' % b.name, offs, ', ', e, ', ', m, ')'], None))]
            return [St('expr', ex=Ex(['store(%s + ' % b.name, offs, ', ', e, ')'], None))]
        np_ = self.size_param(0, R * n, base='n')
        mask = self.lt_mask(offs, np_, shape, d)
        if self.chance(0.2) and not self.no_pending:
            pn = self.fresh('ptrs')
            self.emit(St('decl', name=pn, ex=Ex(['%s + ' % b.name, offs], Info('i64')), const=self.chance(0.5)))
            self.declare(pn, Info('i64'), kind='ptr', mutable=False)
            return [St('expr', ex=Ex(['store(%s, ' % pn, e, ', ', mask, ')'], None))]
        return [St('expr', ex=Ex(['store(%s + ' % b.name, offs, ', ', e, ', ', mask, ')'], None))]

    def st_roundtrip(self, d):
        """store; barrier(); load of the same addresses by the same program."""
        if not (self.callable('barrier') and self.callable('load') and self.callable('store')):
            return None
        region, R = self.region()
        t = self.pick(['f32', 'i32', 'f16', 'u8', 'i64'])
        shape = self.pick_shape()
        n = size_of(shape)
        R = self.cut_region(R, n * 4)
        if region.info.hi >= R:
            return None
        e = self.gen(t, shape, d)
        offs = self.offsets(shape, region, R, inline=True)
        offs = self.decl_pending(offs, 'offs')
        if not offs.var:
            return None
        np_ = self.size_param(0, R * n, base='n')
        b = self.new_buffer(t, 'out', None, (lambda c: lambda vals: c)(R * n))
        b.note_store(e.info)
        name = self.fresh()
        other = 0.0 if t in FLOATS else 0
        li = join(e.info, float_const_info(t, 0.0, shape) if t in FLOATS else Info(t, shape, 0, 0))
        self.declare(name, li)
        return [St('expr', ex=Ex(['store(%s + ' % b.name, offs, ', ', e, ', ', offs, ' < ', np_, ')'], None)),
                St('raw', text='barrier();'),
                St('decl', name=name, ex=Ex(['load(%s + ' % b.name, offs, ', ', offs, ' < ', np_, ')'], li))]

    # --- atomics ------------------------------------------------------------------------------
    def st_atomic(self, d):
        if not self.callable('atomic_add'):
            return None
        t = self.pick(['i32', 'i32', 'f32', 'f32', 'u32', 'i64', 'f16', 'bf16'])
        kind = self.wpick([(3, 'uniq'), (2, 'hist'), (1.5, 'scalar'), (1, 'counter')])
        init_dist = 'small' if t in INTS else 'intlike:4'
        if t in INTS and self.chance(0.3):
            init_dist = 'pos'
        ii = dist_info(t, init_dist, ())
        region, R = self.region()
        if kind in ('uniq', 'hist'):
            shape = self.pick_shape() if self.chance(0.6) else (self.pick([1, 2, 4, 8, 16, 32]),)
            n = size_of(shape)
            R = self.cut_region(R, n * 4)
            if region.info.hi >= R:
                return None
            vreq = Req(exact=(kind == 'hist'), mag=(8 if kind == 'hist' else (SAFE[t] / 8 if t in FLOATS else None)))
            if t in ('f16', 'bf16'):
                vreq = Req(mag=16.0)
            if kind == 'hist' and t in ('f16', 'bf16'):
                t = 'f32'
                ii = dist_info(t, init_dist, ())
            sub = shape if self.chance(0.8) else self.sub_shape(shape)
            val = self.gen(t, sub, d, vreq)
            if kind == 'hist' and t in FLOATS and not val.info.integral:
                return None
            mask = None
            if self.chance(0.4):
                mask = self.gen('bool', self.sub_shape(shape), d - 1, EXACT)
            if kind == 'uniq':
                offs = self.offsets(shape, region, R)
                b = self.new_buffer(t, 'acc', init_dist, (lambda c: lambda vals: c)(R * n))
                ptr = ['%s + ' % b.name, offs]
                fin = S.binary('+', ii.copy(shape=shape), val.info.copy(shape=shape), t)
                if fin is None:
                    return None
                if t in ('f16', 'bf16'):
                    fin = fin.copy(cls='a', err=fin.err + 4 * UROUND[t] * fin.mag)
                b.note_store(fin)
                old = join(ii.copy(shape=shape), Info(t, shape, 0, 0) if t in INTS else float_const_info(t, 0.0, shape))
            else:
                it = self.pick(['i32', 'i32', 'u8', 'i64'])
                L = self.pick([1, 2, 4, 16, 64])
                idx = self.gen(it, shape, d - 1, EXACT)
                b = self.new_buffer(t, 'acc', init_dist, (lambda c: lambda vals: c)(L))
                ptr = ['%s + (' % b.name, idx, ' & %d)' % (L - 1)]
                total = R * n
                vi = val.info
                lo = ii.lo + total * min(vi.lo, 0)
                hi = ii.hi + total * max(vi.hi, 0)
                if t in INTS:
                    fin = int_info(t, (), lo, hi)
                else:
                    if max(abs(lo), abs(hi)) > INTEXACT['f32']:
                        return None
                    fin = Info(t, (), lo, hi, True, 'x')
                b.note_store(fin)
                old = None
            call = ['atomic_add('] + ptr + [', ', val] + ([', ', mask] if mask is not None else []) + [')']
            if old is not None and self.chance(0.6):
                name = self.fresh('old')
                const = self.chance(0.3)
                self.declare(name, old, mutable=not const)
                return [St('decl', name=name, ex=Ex(call, old), const=const)]
            if old is None and t in INTS and vi.lo >= 0 and ii.lo >= 0 and self.chance(0.4):
                name = self.fresh('ok')
                self.declare(name, Info('bool', shape, 1, 1), mutable=False)
                return [St('decl', name=name, ex=Ex(['('] + call + [' >= ', self.const_of(t, 0), ')'], None), const=True)]
            return [St('expr', ex=Ex(call, None))]
        # scalar atomics
        val = self.gen(t if t not in ('f16', 'bf16') else 'f32', (), d,
                       Req(exact=True, mag=8) if kind == 'counter' else Req(mag=100.0 if t in FLOATS else None))
        vi = S.convert(val.info, t)
        if vi is None:
            return None
        if kind == 'counter':
            if t in FLOATS and not vi.integral:
                return None
            if t in ('f16', 'bf16'):
                return None
            b = self.new_buffer(t, 'acc', init_dist, lambda vals: 1)
            total = R
            lo = ii.lo + total * min(vi.lo, 0)
            hi = ii.hi + total * max(vi.hi, 0)
            fin = int_info(t, (), lo, hi) if t in INTS else Info(t, (), lo, hi, True, 'x')
            b.note_store(fin)
            call = ['atomic_add(%s, ' % b.name, val, ')']
            if t in INTS and vi.lo >= 0 and ii.lo >= 0 and self.chance(0.5):
                name = self.fresh('ticket')
                self.declare(name, Info('bool', (), 1, 1), mutable=False)
                return [St('decl', name=name, ex=Ex(['('] + call + [' >= ', self.const_of(t, 0), ')'], None), const=True)]
            return [St('expr', ex=Ex(call, None))]
        b = self.new_buffer(t, 'acc', init_dist, (lambda c: lambda vals: c)(R))
        fin = S.binary('+', ii, vi, t, scalar=False)
        if fin is None:
            return None
        if t in ('f16', 'bf16'):
            fin = fin.copy(cls='a', err=fin.err + 4 * UROUND[t] * fin.mag)
        b.note_store(fin)
        call = ['atomic_add(%s + ' % b.name, region, ', ', val, ')']
        if self.chance(0.6):
            name = self.fresh('old')
            self.declare(name, ii)
            return [St('decl', name=name, ex=Ex(call, ii), tparts=self.pick([None, [Ty(t)]]))]
        return [St('expr', ex=Ex(call, None))]

    # --- control flow ----------------------------------------------------------------------------
    def st_if(self, d):
        cond = self.gen('bool', (), d - 1, EXACT)
        pre = self.take_pending()
        avs = self.assignable()
        before = {v.name: v.info for v in avs}
        objs = {v.name: v for v in avs}
        nb = self.rnd.randint(1, 3)
        self.push()
        then = self.block(d, nb)
        self.pop()
        then_falls = not (then and then[-1].kind == 'return')
        after_then = {n: objs[n].info for n in objs}
        for n, v in objs.items():
            v.info = before[n]
        els = None
        else_falls = True
        after_else = before
        if self.chance(0.5):
            self.push()
            els = self.block(d, self.rnd.randint(1, 2))
            self.pop()
            else_falls = not (els and els[-1].kind == 'return')
            after_else = {n: objs[n].info for n in objs}
        for n, v in objs.items():
            if then_falls and else_falls:
                v.info = join(after_then[n], after_else[n])
            elif then_falls:
                v.info = after_then[n]
            elif else_falls:
                v.info = after_else[n]
            else:
                v.info = join(after_then[n], after_else[n])
        return pre + [St('if', ex=cond, body=then, els=els)]

    def st_return_if(self, d):
        if self.in_helper:
            return None
        cond = self.gen('bool', (), d - 1, EXACT)
        pre = self.take_pending()
        self.push()
        body = []
        if self.chance(0.6):
            body = self.block(d, 1)
        self.pop()
        if body and body[-1].kind == 'return':
            body.pop()
        body.append(St('return'))
        return pre + [St('if', ex=cond, body=body)]

    def st_noinit(self, d):
        """`float s; if (c) s = a; else s = b;` (a known false rejection)."""
        if not self.known_feature('declared-without-initializer', 2.0):
            return None
        t = self.pick(['f32', 'i32'])
        cond = self.gen('bool', (), d - 1, EXACT)
        a = self.gen(t, (), d - 1)
        b = self.gen(t, (), d - 1)
        name = self.fresh()
        pre = self.take_pending()
        self.declare(name, join(a.info, b.info))
        return pre + [St('declnoinit', name=name, tparts=[Ty(t)]),
                      St('if', ex=cond, body=[St('assign', name=name, ex=a)], els=[St('assign', name=name, ex=b)])]

    def st_assert(self, d):
        if not self.known_feature('assert', 2.0):
            return None
        ps = self.vars_of(lambda v: v.kind == 'param' and v.info.t in ('i32', 'i64') and v.info.lo >= 0)
        if ps:
            p = self.pick(ps)
            cond = '%s >= 0' % p.name
        else:
            cond = 'program_id(0) < num_programs(0)'
        self.needs_assert = True
        return [St('raw', text='assert(%s);' % cond)]

    def st_stress(self, d):
        """A few thousand scalar additions in one expression (the translator's recursion depth)."""
        if not self.known_feature('long-scalar-chain', 3.0):
            return None
        n = self.pick([500, 2000, 5000])
        name = self.fresh()
        p = self.new_scalar_param('i32', 0, 3, base='s')
        terms = ' + '.join([p.parts[0]] * n)
        self.declare(name, Info('i32', (), 0, 3 * n), mutable=False)  # declared const: never assigned
        return [St('raw', text='const int %s = %s;' % (name, terms))]

    def st_for(self, d):
        if self.ldepth >= 2:
            return None
        # In C++ the induction variable is in scope in the loop's condition: a bound parameter
        # created for this loop must not take its name (`for (int s0 = 0; s0 < s0; ...)`).
        iv = self.fresh_reserved('i')
        frame = self.frames[-1]
        try:
            return self.st_for_named(d, iv)
        finally:
            if frame.get(iv) is not None and frame[iv].kind == 'reserved':
                del frame[iv]

    def st_for_named(self, d, iv):
        T = self.pick([1, 2, 2, 3, 4, 5])
        ivt = self.pick(['i32', 'i32', 'i32', 'i64', 'u32'])
        down = ivt != 'u32' and self.chance(0.25)
        ctype = {'i32': 'int', 'i64': 'int64_t', 'u32': 'unsigned'}[ivt]
        s = self.pick([1, 1, 2, 3, 16])
        pre = []
        if not down:
            L0 = self.pick([0, 0, 0, 1, 3]) if ivt != 'u32' else self.pick([0, 0, 2])
            if ivt != 'u32' and self.chance(0.1):
                L0 = -2
            if self.chance(0.7) and not self.in_helper:
                B = self.size_param(L0 if L0 >= 0 else 0, L0 + T * s, base='nt', t='i32')
                Bhi = L0 + T * s
            else:
                Bhi = L0 + T * s
                B = Ex(['%d' % Bhi], Info('i32', (), Bhi, Bhi))
            if B.info.lo < L0:
                # a negative start with a bound of at least 0
                pass
            cond_f = self.pick(['lt', 'lt', 'gt', 'le', 'ne'])
            if cond_f == 'ne' and s != 1:
                cond_f = 'lt'
            if cond_f == 'le' and ivt == 'u32':
                cond_f = 'lt'
            if cond_f == 'lt':
                cond = [iv, ' < ', B]
            elif cond_f == 'gt':
                cond = [B, ' > ', iv]
            elif cond_f == 'le':
                cond = [iv, ' <= ', B, ' - 1']
            else:
                cond = [iv, ' != ', B]
                if B.info.lo < L0:
                    cond = [iv, ' < ', B]
            inc_f = self.pick(['pre', 'post', 'add', 'assign', 'negsub'] if s == 1 else ['add', 'assign', 'negsub', 'add'])
            if inc_f == 'negsub' and not self.known_feature('i -= -1'):
                inc_f = 'add'
            if inc_f == 'negsub' and ivt == 'u32':
                inc_f = 'add'
            inc = {'pre': ['++' + iv], 'post': [iv + '++'], 'add': ['%s += %d' % (iv, s)],
                   'assign': ['%s = %s + %d' % (iv, iv, s)], 'negsub': ['%s -= -%d' % (iv, s)]}[inc_f]
            ivinfo = Info(ivt, (), L0, L0 + (T - 1) * s)
            if L0 == 0 and s == 1:
                it = Ex([iv], Info('i32', (), 0, T - 1))
                if ivt != 'i32':
                    it = Ex(['static_cast<int>(%s)' % iv], Info('i32', (), 0, T - 1))
            else:
                it = Ex(['static_cast<int>((%s - %d) / %d)' % (iv, L0, s) if L0 >= 0 else
                         'static_cast<int>((%s + %d) / %d)' % (iv, -L0, s)], Info('i32', (), 0, T - 1))
            init = Ex([lit_int('i32', L0)], Info('i32', (), L0, L0))
        else:
            if self.in_helper:
                B = Ex(['%d' % T], Info('i32', (), T, T))
            else:
                B = self.size_param(0, T, base='nt', t='i32')
            bn = B.parts[0]
            form = self.pick(['ge0', 'gt0'])
            if form == 'ge0':
                init = Ex([B, ' - 1'], Info('i32', (), -1, T - 1))
                cond = [iv, ' >= 0']
                inc = self.pick([['--' + iv], [iv + '--'], ['%s -= 1' % iv], ['%s = %s - 1' % (iv, iv)],
                                 ['%s += -1' % iv]])
                it = Ex(['static_cast<int>(%s - 1 - %s)' % (bn, iv)], Info('i32', (), 0, T - 1))
                ivinfo = Info(ivt, (), 0, T - 1)
            else:
                init = Ex([B], B.info)
                cond = [iv, ' > 0']
                inc = self.pick([['--' + iv], ['%s -= 1' % iv]])
                it = Ex(['static_cast<int>(%s - %s)' % (bn, iv)], Info('i32', (), 0, T - 1))
                ivinfo = Info(ivt, (), 1, T)
        pre = self.take_pending()
        # carried variables: chosen now, hidden from the body until their update
        cands = [v for v in self.assignable() if v.kind == 'val']
        carried = []
        for v in cands:
            if len(carried) < 3 and self.chance(0.35):
                carried.append(v)
        if self.chance(0.5):
            # a fresh accumulator
            t = self.pick(['f32', 'i32', 'f32', 'i64', 'f16', 'u32', 'bool'])
            shape = self.pick_shape() if self.chance(0.8) else ()
            e = self.gen(t, shape, d - 1, Req(mag=100.0) if t in FLOATS else ANY)
            name = self.fresh('acc')
            v = self.declare(name, e.info)
            pre += self.take_pending() + [St('decl', name=name, ex=e, tparts=self.pick([None, type_parts(t, shape)]))]
            carried.append(v)
        hidden_before = set(self.hidden)
        for v in carried:
            self.hidden.add(v.name)
        self.push()
        self.ldepth += 1
        self.loops.append({'it': it, 'T': T})
        self.declare(iv, ivinfo, mutable=False)
        body = []
        updates = []
        try:
            body = self.block(d, self.rnd.randint(1, 3))
            for v in carried:
                u = self.loop_update(v, T, d)
                if u is not None:
                    updates += self.take_pending() + u
                else:
                    # An update given up (no dot for this shape, say) may have declared values
                    # ahead of itself: dropped, or they would land before the loop, naming its
                    # induction variable out of scope (seed-29 generator problems); their names go
                    # too, or a later statement assigns to them (seed 52).
                    self.drop_pending()
            for v in carried:
                self.hidden.discard(v.name)
            suffix = self.block(d, self.rnd.randint(0, 2)) if not (body and body[-1].kind == 'return') else []
        finally:
            self.loops.pop()
            self.ldepth -= 1
            self.pop()
            self.hidden = hidden_before
        if body and body[-1].kind == 'return':
            full = body
        else:
            full = body + updates + suffix
        head = {'iv': iv, 'ivt': [ctype], 'init': init, 'cond': cond, 'inc': inc}
        return pre + [St('for', head=head, body=full)]

    def loop_update(self, v, T, d):
        """The one assignment of a carried variable in the loop body; sets its info to the
        join over all iterations (its value anywhere in or after the loop)."""
        i0 = v.info
        t, shape = i0.t, i0.shape
        kinds = ['set', 'where']
        if not shape and t not in ('i32', 'u32', 'i64', 'f32', 'bool'):
            kinds = ['set']
        elif t != 'bool':
            kinds += ['add', 'add', 'max']
        if t in INTS or t == 'bool':
            kinds += ['xor']
        if t in ('f32', 'i32') and len(shape) == 2 and shape[0] >= 16 and shape[1] >= 16 and self.cfg.dot:
            kinds += ['dot', 'dot']
        k = self.pick(kinds)
        sub = self.sub_shape(shape) if shape else ()
        if k == 'dot':
            e = self.p_dot(t, shape, d, ANY, acc=Ex([v.name], i0, var=v.name))
            if e is None:
                return None
            a, b = e.parts[1], e.parts[3]
            tf32 = e.parts[0].startswith('dot<')
            step = lambda cur: S.dot(a.info, b.info, cur, tf32)
            rhs = e
            st = St('assign', name=v.name, op='=', ex=rhs)
        elif k in ('set', 'where'):
            e = self.gen(t, shape if k == 'set' else sub, d, ANY)
            if k == 'set':
                step = lambda cur: e.info.copy(shape=shape)
                st = St('assign', name=v.name, op='=', ex=e)
            else:
                m = self.gen('bool', sub, d - 1, EXACT)
                step = lambda cur: S.select(m.info, e.info, cur, t)
                if shape:
                    if not self.callable('where'):
                        return None
                    st = St('assign', name=v.name, op='=', ex=Ex(['where(', m, ', ', e, ', %s)' % v.name], None))
                else:
                    st = St('assign', name=v.name, op='=', ex=Ex(['(', m, ' ? ', e, ' : %s)' % v.name], None))
        elif k == 'max':
            fn = self.pick(['maximum', 'minimum']) if shape else self.pick(['max', 'min'])
            if not self.callable(fn):
                return None
            e = self.gen(t, sub, d, ANY if t in INTS else Req(mag=SAFE[t] / 4))
            step = lambda cur: S.minmax('max' if 'max' in fn else 'min', cur, e.info, t)
            if not shape and t not in ('i32', 'i64', 'u32', 'f32'):
                return None
            st = St('assign', name=v.name, op='=', ex=Ex([fn + '(%s, ' % v.name, e, ')'], None))
        elif k == 'xor':
            e = self.gen(t, sub, d, EXACT)
            if not shape and t != 'bool' and (e.info.lo < 0 or i0.lo < 0):
                return None
            op = self.pick(['^', '|', '&'])
            step = lambda cur: S.binary(op, cur, e.info, t, scalar=not shape)
            st = St('assign', name=v.name, op=op + '=', ex=e)
        else:
            if shape or t not in INTS:
                lim = None if t in INTS else min(SAFE[t] / (4 * (T + 1)), 1e6)
                e = self.gen(t, sub, d, Req(mag=lim) if lim else ANY)
            else:
                room = IRANGE[t][1] // 4 - max(abs(i0.lo), abs(i0.hi))
                if room <= 0:
                    return None
                e = self.gen(t, (), d, Req(exact=True, mag=min(room // (T + 1), 1 << 20)))
            op = self.pick(['+', '-'])
            step = lambda cur: S.binary(op, cur, e.info, t, scalar=not shape)
            form = self.pick(['c', 'e'])
            if form == 'c':
                st = St('assign', name=v.name, op=op + '=', ex=e)
            else:
                st = St('assign', name=v.name, op='=', ex=Ex(['%s %s ' % (v.name, op), e], None))
        cur = i0
        w = i0
        for _ in range(T):
            cur = step(cur)
            if cur is None:
                return None
            cur = cur.copy(shape=shape) if cur.shape != shape else cur
            if cur.t != t:
                return None
            w = join(w, cur)
        if t in FLOATS and w.cls == 'a' and w.err > 0.05 * (w.mag + 1):
            return None
        v.info = w
        return [st]

    # --- dot in a loop fed by loads (software pipelining) --------------------------------------------
    def st_dotloop(self, d):
        if not (self.callable('dot') and self.callable('load') and self.callable('col') and self.callable('row')
                and self.callable('arange') and self.callable('store')):
            return None
        # TMA-shaped: 16-bit operands in 128-byte rows (BK 64, BN 64 or 128), aligned arguments
        # and zero fill, so that sm_90a's `_tma` variant (boxes on mbarrier rings, and warp
        # specialisation where it applies) is generated and the harness's arguments select it:
        # left to chance, 1 dot loop in 20 had that shape.
        tma_shape = self.chance(0.3)
        it = self.pick(['f16', 'bf16']) if tma_shape else self.pick(['f16', 'f16', 'bf16', 'f32', 'f32tf', 'i8'])
        tf32 = it == 'f32tf'
        if tf32:
            it = 'f32'
        acc_t = 'i32' if it == 'i8' else 'f32'
        BM = self.pick([64, 128, 128, 256] if tma_shape else [16, 32, 64, 64, 128, 256])
        BN = self.pick([64, 128] if tma_shape else [16, 32, 64, 128])
        BK = 64 if tma_shape else self.pick([16, 32, 64])
        while BM * BN * BK > 2**18 or (BM * BK + BK * BN) * SIZE[it] * 4 > 160000:
            if BN > 16:
                BN //= 2
            elif BM > 16:
                BM //= 2
            else:
                BK //= 2
        # 256 rows fit wgmma with 16 warps: four consumer warp groups, and with a producer beside
        # them 640 threads (a setmaxnreg hang lived there, found by timing, 2026-11-26).
        if BM == 256 and self.chance(0.5):
            self.want_warps = 16
        elif tma_shape:  # warp groups that fit wgmma's 64-row blocks, and a pipeline to fill
            self.want_warps = {64: 4, 128: self.pick([4, 8]), 256: self.pick([8, 16])}[BM]
        if tma_shape:
            self.want_stages = self.pick([2, 3, 4])
        T = self.pick([1, 2, 3, 4])
        region, R = self.region()
        R = self.cut_region(R, BM * BN * 2)
        if region.info.hi >= R:
            return None
        aligned = tma_shape or self.chance(0.5)
        exact = self.chance(0.7)
        dist = ('intlike:%d' % (2 if it != 'i8' else 8)) if exact else 'real:1'
        if it == 'i8':
            dist = 'small'
        Kcap = T * BK
        K = self.size_param(0, Kcap, mult=16 if aligned else 1, base='K')
        M = self.size_param(0, R * BM, base='M')
        N = self.size_param(0, BN, base='N')
        ptrs_style = self.chance(0.4)
        # A given column-major (stored [K][M], lda >= M): through trans() of a [K][M] tile, or
        # through two run-time strides, the one along M a parameter equal to 1 (the launcher's
        # variant for a transposed A, `sam == 1`); either way M-major in shared memory.
        a_col = None if ptrs_style or not self.chance(0.3) else self.pick(['trans', 'strided'])
        lda_min = R * BM if a_col else Kcap
        lda = self.new_scalar_param(self.pick(['i32', 'i64']), lda_min, lda_min + 3, kind='size', mult=16 if aligned else 1,
                                    full=ceil16(lda_min), base='lda')
        b_trans = self.chance(0.35)
        ldb = self.new_scalar_param(self.pick(['i32', 'i64']), Kcap if b_trans else BN, (Kcap if b_trans else BN) + 3,
                                    kind='size', mult=16 if aligned else 1, full=ceil16(Kcap if b_trans else BN),
                                    base='ldb')
        Kn, Mn, Nn, lan, lbn = K.parts[0], M.parts[0], N.parts[0], lda.parts[0], ldb.parts[0]
        if a_col:
            A = self.new_buffer(it, 'in', dist, lambda vals: vals[Kn] * vals[lan], align=aligned)
        else:
            A = self.new_buffer(it, 'in', dist, lambda vals: vals[Mn] * vals[lan], align=aligned)
        if b_trans:
            Bb = self.new_buffer(it, 'in', dist, lambda vals: vals[Nn] * vals[lbn], align=aligned)
        else:
            Bb = self.new_buffer(it, 'in', dist, lambda vals: vals[Kn] * vals[lbn], align=aligned)
        out_t = acc_t if self.chance(0.6) or it == 'i8' else it
        pre = self.take_pending()
        # Names of one statement (seed-31 generator problems: `auto other` declared twice).
        rm, rn, rk = self.fresh_reserved('rm'), self.fresh_reserved('rn'), self.fresh_reserved('rk')
        accn, kv = self.fresh_reserved('acc'), self.fresh_reserved('k')
        sts = pre
        sts.append(St('decl', name=rm, ex=Ex([region, ' * %d + arange<%d>()' % (BM, BM)], None)))
        sts.append(St('decl', name=rn, ex=Ex(['arange<%d>()' % BN], None)))
        sts.append(St('decl', name=rk, ex=Ex(['arange<%d>()' % BK], None)))
        self.declare(rm, Info('i32', (BM,), 0, R * BM - 1, contig=BM), mutable=False)
        self.declare(rn, Info('i32', (BN,), 0, BN - 1, contig=BN), mutable=False)
        self.declare(rk, Info('i32', (BK,), 0, BK - 1, contig=BK), mutable=False)
        zero = '0.0f' if acc_t == 'f32' else '0'
        other = self.pick(['0.0f', '0', '0.0f']) if it != 'i8' else '0'
        if self.chance(0.1) and not tma_shape:
            other = '1.0f' if it != 'i8' else '1'   # not pipelinable: the zero-fill would differ
        b_strided = False
        body = []
        if ptrs_style:
            ap, bpn = self.fresh_reserved('a_ptrs'), self.fresh_reserved('b_ptrs')
            sts.append(St('decl', name=ap, ex=Ex(['%s + col(%s) * %s + row(%s)' % (A.name, rm, lan, rk)], None)))
            if b_trans:
                sts.append(St('decl', name=bpn, ex=Ex(['%s + col(%s) * %s + row(%s)' % (Bb.name, rn, lbn, rk)], None)))
            else:
                sts.append(St('decl', name=bpn, ex=Ex(['%s + col(%s) * %s + row(%s)' % (Bb.name, rk, lbn, rn)], None)))
            self.declare(ap, Info('i64'), kind='ptr')
            self.declare(bpn, Info('i64'), kind='ptr')
            amask = '(col(%s) < %s) & (row(%s) < %s - %s)' % (rm, Mn, rk, Kn, kv)
            aload = 'load(%s, %s, %s)' % (ap, amask, other)
            if b_trans:
                bload = 'trans(load(%s, (col(%s) < %s) & (row(%s) < %s - %s), %s))' % (bpn, rn, Nn, rk, Kn, kv, other)
                binc = '%s += %d;' % (bpn, BK)
            else:
                bload = 'load(%s, (col(%s) < %s - %s) & (row(%s) < %s), %s)' % (bpn, rk, Kn, kv, rn, Nn, other)
                binc = '%s += %d * %s;' % (bpn, BK, lbn)
            ainc = '%s += %d;' % (ap, BK)
        else:
            if a_col == 'trans':
                aload = 'trans(load(%s + col(%s + %s) * %s + row(%s), (col(%s + %s) < %s) & (row(%s) < %s), %s))' % (
                    A.name, kv, rk, lan, rm, kv, rk, Kn, rm, Mn, other)
            elif a_col == 'strided':
                sam = self.new_scalar_param(self.pick(['i32', 'i64']), 1, 1, kind='size', full=1, base='sam')
                aload = 'load(%s + col(%s) * %s + row(%s + %s) * %s, (col(%s) < %s) & (row(%s + %s) < %s), %s)' % (
                    A.name, rm, sam.parts[0], kv, rk, lan, rm, Mn, kv, rk, Kn, other)
            else:
                aload = 'load(%s + col(%s) * %s + row(%s + %s), (col(%s) < %s) & (row(%s + %s) < %s), %s)' % (
                    A.name, rm, lan, kv, rk, rm, Mn, kv, rk, Kn, other)
            if b_trans and self.chance(0.5):
                # B stored [N][K] read as a [K][N] tile through two run-time strides, the inner
                # one a parameter equal to 1 (x·Wᵀ written with strides: the launcher's variant
                # for a transposed B, `sbk == 1`)
                sbk = self.new_scalar_param(self.pick(['i32', 'i64']), 1, 1, kind='size', full=1, base='sbk')
                b_strided = True
                bload = 'load(%s + col(%s + %s) * %s + row(%s) * %s, (col(%s + %s) < %s) & (row(%s) < %s), %s)' % (
                    Bb.name, kv, rk, sbk.parts[0], rn, lbn, kv, rk, Kn, rn, Nn, other)
            elif b_trans:
                bload = 'trans(load(%s + col(%s) * %s + row(%s + %s), (col(%s) < %s) & (row(%s + %s) < %s), %s))' % (
                    Bb.name, rn, lbn, kv, rk, rn, Nn, kv, rk, Kn, other)
            else:
                bload = 'load(%s + col(%s + %s) * %s + row(%s), (col(%s + %s) < %s) & (row(%s) < %s), %s)' % (
                    Bb.name, kv, rk, lbn, rn, kv, rk, Kn, rn, Nn, other)
            ainc = binc = None
        an, bn_ = self.fresh_reserved('a'), self.fresh_reserved('b')
        body.append(St('decl', name=an, ex=Ex([aload], None)))
        body.append(St('decl', name=bn_, ex=Ex([bload], None)))
        opa = an
        if self.chance(0.1) and it in ('f16', 'bf16'):
            opa = '%s * cast<%s>(2.0f)' % (an, CPP[it])   # computed operand: staged from registers
        dot = 'dot<precision::tf32>' if tf32 else 'dot'
        body.append(St('assign', name=accn, op='=', ex=Ex(['%s(%s, %s, %s)' % (dot, opa, bn_, accn)], None)))
        if ainc:
            body.append(St('raw', text=ainc))
            body.append(St('raw', text=binc))
        sts.append(St('decl', name=accn, ex=Ex(['zeros<%s, %d, %d>()' % (CPP[acc_t], BM, BN)], None)))
        step = self.pick([['%s += %d' % (kv, BK)], ['%s = %s + %d' % (kv, kv, BK)]])
        sts.append(St('for', head={'iv': kv, 'ivt': ['int'], 'init': Ex(['0'], None), 'cond': [kv, ' < ', Kn], 'inc': step},
                      body=body))
        # the value: exact for small integers, else approximate
        vi = dist_info(it, dist, (BM, BK))
        wi = dist_info(it, dist, (BK, BN))
        vi = join(vi, float_const_info(it, float(other.rstrip('f')), (BM, BK)) if it in FLOATS else Info(it, (BM, BK), 0, 1))
        wi = join(wi, float_const_info(it, float(other.rstrip('f')), (BK, BN)) if it in FLOATS else Info(it, (BK, BN), 0, 1))
        if opa != an:
            vi = S.binary('*', vi, float_const_info(it, 2.0), it)
        cur = float_const_info('f32', 0.0, (BM, BN)) if acc_t == 'f32' else Info('i32', (BM, BN), 0, 0)
        w = cur
        for _ in range(T):
            cur = S.dot(vi, wi, cur, tf32)
            if cur is None:
                return None
            w = join(w, cur)
        self.declare(accn, w)
        # epilogue: store the accumulator (cast to the input type sometimes)
        C = self.new_buffer(out_t, 'out', None, (lambda c: lambda vals: c * vals[lcn])(R * BM) if False else None)
        ldc = self.new_scalar_param('i32', BN, BN + 2, kind='size', full=ceil16(BN), base='ldc')
        lcn = ldc.parts[0]
        C.length = (lambda c: lambda vals: c * vals[lcn])(R * BM)
        val = accn if out_t == acc_t else 'cast<%s>(%s)' % (CPP[out_t], accn)
        ci = w if out_t == acc_t else S.convert(w, out_t)
        if ci is None:
            return None
        C.note_store(ci)
        sts.append(St('expr', ex=Ex(['store(%s + col(%s) * %s + row(%s), %s, (col(%s) < %s) & (row(%s) < %s))' % (
            C.name, rm, lcn, rn, val, rm, Mn, rn, Nn)], None)))
        self.tag('dotloop_' + it + ('_tf32' if tf32 else '') + ('_ptrs' if ptrs_style else '') + ('_tma' if tma_shape else '') +
                 ('_a' + a_col if a_col else '') +
                 ('_bs' if b_strided else '_bt' if b_trans else ''))
        return sts


# ---------------------------------------------------------------------------------------- kernels

def kernel_name_arg(t):
    return NAME_ARG[t]


def gen_kernel(rnd, cfg, name, file_names):
    """One kernel (with its helpers): (list of Functions, KernelMeta, generated kernel name, Gen)."""
    g = Gen(rnd, cfg, name, file_names)
    g.needs_assert = False
    g.shapes = []
    gx = g.pick([1, 1, 2, 3, 4])
    gy = g.pick([1, 1, 1, 2])
    gz = g.pick([1, 1, 1, 1, 2])
    g.meta.grid = (gx, gy, gz)
    for _ in range(g.pick([1, 2, 3])):
        g.shapes.append(g.new_shape())
    # the program's index
    pidn = g.fresh('pid')
    if gy == 1 and gz == 1:
        pex = Ex(['program_id(0)'], None)
    elif gz == 1:
        pex = Ex(['program_id(0) + %s * program_id(1)' % g.pick(['num_programs(0)', str(gx)])], None)
    else:
        pex = Ex(['program_id(0) + %d * (program_id(1) + %d * program_id(2))' % (gx, gy)], None)
    g.declare(pidn, Info('i32', (), 0, gx * gy * gz - 1), mutable=False)
    g.pid_ex = Ex([pidn], Info('i32', (), 0, gx * gy * gz - 1), var=pidn)
    body = [St('decl', name=pidn, ex=pex, const=True, tparts=[Ty('i32')] if g.chance(0.5) else None)]
    body += g.block(cfg.max_depth, cfg.max_stmts, top=True)
    if not any(b.role in ('out', 'acc') for b in g.meta.buffers):
        g.budget = 2
        for _ in range(4):
            s = g.st_store(cfg.max_depth)
            if s:
                body += g.take_pending() + s
                break
        else:
            g.take_pending()
    # unused trailing pending
    body += g.take_pending()
    f = Function(name, g.params, body, kernel=True)
    # options
    opts = []
    nw = g.pick([1, 2, 4, 4, 8, 16])
    ns = g.pick([1, 2, 3, 4])
    want = getattr(g, 'want_warps', 0)  # a dot loop's tile asked for this many warps
    want_stages = getattr(g, 'want_stages', 0)  # and a TMA-shaped one a pipeline
    if want:
        nw = want
    if want_stages:
        ns = want_stages
    if g.chance(0.85) or want:
        opts.append('num_warps = %d' % nw)
    else:
        nw = 4
    if g.chance(0.6) or want_stages:
        opts.append('num_stages = %d' % ns)
    if g.chance(0.5):
        opts.reverse()
    # warp specialisation where the kernel leaves it to the default (sm_90a, TMA-fed dot loops;
    # elsewhere a warning, which the oracles ignore)
    if g.chance(0.1):
        opts.append('warp_specialize = %s' % g.pick(['true', 'false']))
    gname = name
    twin_ref = name
    if cfg.templates and g.chance(0.2 * cfg.templates):
        # a template kernel: num_warps and an element type as template parameters
        tps, args, nameparts = [], [], []
        if opts and opts[0].startswith('num_warps') and g.chance(0.6):
            tps.append('int NW')
            args.append(str(nw))
            nameparts.append(str(nw))
            opts[0] = 'num_warps = NW'
        used = sorted({b.elem for b in g.meta.buffers if b.role == 'in'})
        if used and g.chance(0.7):
            t = g.pick(used)
            tn = g.pick(['T', 'E', 'Elem'])
            if tn not in g.used_names:
                tps.insert(0, 'class %s' % tn)
                args.insert(0, CPP[t])
                nameparts.insert(0, kernel_name_arg(t))
                f.alias = {t: tn}
        if tps:
            f.tparams = tps
            f.insts = [args]
            gname = name + '_' + '_'.join(nameparts)
            twin_ref = '%s<%s>' % (name, ', '.join(a.replace('half', 'tilecc::half').replace('bfloat16', 'tilecc::bfloat16')
                                                      for a in args))
    f.opts = ', '.join(opts)
    g.meta.gpu_ok = g.gpu_ok
    g.meta.kname = gname
    g.meta.twin_ref = twin_ref
    g.meta.known = list(g.known)
    return g.helpers + [f], g.meta, gname, g


def gen_program(rnd, cfg, nkernels, prefix='k'):
    """A kernel file of nkernels kernels; returns (Program, [(generated name, meta, tags)])."""
    p = Program()
    names = set()
    metas = []
    collide_used = False
    for i in range(nkernels):
        name = '%s%d' % (prefix, i)
        if cfg.kernel_names and not collide_used and rnd.random() < 0.08 * max(cfg.known, 0.3):
            cand = rnd.choice(COLLIDE_KERNEL)
            if cand not in names:
                name = cand
                collide_used = True
        if name == 'k' and 'k_aligned' not in names and rnd.random() < 0.5:
            pass
        for _ in range(5):
            try:
                items, meta, gname, g = gen_kernel(rnd, cfg, name, names)
                break
            except GenFail:
                continue
        else:
            continue
        for it in items:
            names.add(it.name)
        p.items += items
        if getattr(g, 'needs_assert', False) and '<cassert>' not in p.includes:
            p.includes.append('<cassert>')
        meta.tags = dict(g.tags)
        meta.items = items
        metas.append(meta)
        if name == 'k' and 'k_aligned' not in names and rnd.random() < 0.7:
            # a kernel named like k's aligned variant
            items2, meta2, gname2, g2 = gen_kernel(rnd, cfg, 'k_aligned', names)
            for it in items2:
                names.add(it.name)
            p.items += items2
            # Its asserts need <cassert> as much as the first kernel's (seed 66 found it missing).
            if getattr(g2, 'needs_assert', False) and '<cassert>' not in p.includes:
                p.includes.append('<cassert>')
            meta2.tags = dict(g2.tags)
            meta2.items = items2
            metas.append(meta2)
    return p, metas
