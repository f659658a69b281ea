"""The generator's program representation: expressions, statements, helpers, kernels and a
file of kernels, each of which renders to C++. The minimiser edits this representation
(drops statements, replaces expressions by constants of the same type) and renders again.
"""
from .values import CPP, FLOATS, INTS


class Ty:
    """An element type in rendered text; templates may spell it as a parameter (T)."""
    __slots__ = ('t',)

    def __init__(self, t):
        self.t = t


class Ex:
    """An expression: text parts (str, Ty or Ex) and what is known about its value."""
    __slots__ = ('parts', 'info', 'var', 'tag')

    def __init__(self, parts, info, var=None, tag=None):
        self.parts = parts if isinstance(parts, list) else [parts]
        self.info = info
        self.var = var        # the variable this expression reads, if it is just that
        self.tag = tag        # production name (statistics, minimiser)

    def render(self, ctx):
        out = []
        for p in self.parts:
            if isinstance(p, str):
                out.append(p)
            elif isinstance(p, Ty):
                out.append(ctx.tname(p.t))
            else:
                out.append(p.render(ctx))
        return ''.join(out)

    def kids(self):
        return [p for p in self.parts if isinstance(p, Ex)]

    def walk(self):
        yield self
        for k in self.kids():
            yield from k.walk()


class RenderCtx:
    def __init__(self, alias=None):
        self.alias = alias or {}

    def tname(self, t):
        return self.alias.get(t, CPP[t])


def tile_type_parts(t, shape):
    """tile<float, 16, 32> as parts."""
    return ['tile<', Ty(t)] + [', %d' % d for d in shape] + ['>']


def type_parts(t, shape):
    if shape:
        return tile_type_parts(t, shape)
    return [Ty(t)]


class St:
    """A statement. kind: decl, declnoinit, assign, expr, if, for, return, raw."""
    __slots__ = ('kind', 'name', 'tparts', 'ex', 'op', 'body', 'els', 'head', 'text', 'const', 'note', 'removable')

    def __init__(self, kind, **kw):
        self.kind = kind
        self.name = kw.get('name')
        self.tparts = kw.get('tparts')      # declared type parts, None for auto
        self.ex = kw.get('ex')
        self.op = kw.get('op', '=')
        self.body = kw.get('body')
        self.els = kw.get('els')
        self.head = kw.get('head')          # for: dict(iv, ivt, init, cond, inc) of parts lists
        self.text = kw.get('text')
        self.const = kw.get('const', False)
        self.note = kw.get('note')          # a comment
        self.removable = kw.get('removable', True)

    def exprs(self):
        if self.ex is not None:
            yield self.ex
        if self.kind == 'for':
            for k in ('init', 'bound', 'step'):
                if self.head.get(k) is not None:
                    yield self.head[k]


def render_parts(parts, ctx):
    out = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        elif isinstance(p, Ty):
            out.append(ctx.tname(p.t))
        else:
            out.append(p.render(ctx))
    return ''.join(out)


def render_block(stmts, ctx, ind, out):
    for s in stmts:
        render_stmt(s, ctx, ind, out)


def render_stmt(s, ctx, ind, out):
    pad = '  ' * ind
    if s.note:
        out.append(pad + '// ' + s.note)
    k = s.kind
    if k == 'decl':
        ty = 'auto' if s.tparts is None else render_parts(s.tparts, ctx)
        out.append('%s%s%s %s = %s;' % (pad, 'const ' if s.const else '', ty, s.name, s.ex.render(ctx)))
    elif k == 'declnoinit':
        out.append('%s%s %s;' % (pad, render_parts(s.tparts, ctx), s.name))
    elif k == 'assign':
        out.append('%s%s %s %s;' % (pad, s.name, s.op, s.ex.render(ctx)))
    elif k == 'expr':
        out.append('%s%s;' % (pad, s.ex.render(ctx)))
    elif k == 'return':
        out.append(pad + ('return %s;' % s.ex.render(ctx) if s.ex is not None else 'return;'))
    elif k == 'raw':
        out.append(pad + s.text)
    elif k == 'if':
        out.append('%sif (%s) {' % (pad, s.ex.render(ctx)))
        render_block(s.body, ctx, ind + 1, out)
        if s.els:
            out.append(pad + '} else {')
            render_block(s.els, ctx, ind + 1, out)
        out.append(pad + '}')
    elif k == 'for':
        h = s.head
        init = '%s %s = %s' % (render_parts(h['ivt'], ctx), h['iv'], h['init'].render(ctx))
        cond = render_parts(h['cond'], ctx)
        inc = render_parts(h['inc'], ctx)
        out.append('%sfor (%s; %s; %s) {' % (pad, init, cond, inc))
        render_block(s.body, ctx, ind + 1, out)
        out.append(pad + '}')
    else:
        raise ValueError(k)


class Param:
    __slots__ = ('name', 'tparts', 'promise', 'kind', 'ref')

    def __init__(self, name, tparts, promise='', kind='scalar', ref=None):
        self.name = name
        self.tparts = tparts
        self.promise = promise
        self.kind = kind   # buffer | size | scalar
        self.ref = ref     # Buffer or ScalarParam (harness metadata)


class Function:
    """A kernel or a helper."""

    def __init__(self, name, params, body, kernel=True):
        self.name = name
        self.params = params
        self.body = body
        self.kernel = kernel
        self.opts = ''             # TILECC_KERNEL(...) text
        self.tparams = []          # ['class T', 'int NW']
        self.insts = []            # [(args text list, RenderCtx alias, name suffix)]
        self.ret = None            # helpers: return type parts (None: void; 'auto')
        self.alias = {}            # elem -> template parameter name
        self.meta = None           # kernels: harness metadata
        self.note = None

    def render(self, ctx=None):
        ctx = ctx or RenderCtx(self.alias)
        out = []
        if self.note:
            out.append('// ' + self.note)
        if self.tparams:
            out.append('template <%s>' % ', '.join(self.tparams))
        ps = ', '.join('%s%s %s' % (p.promise, render_parts(p.tparts, ctx), p.name) for p in self.params)
        if self.kernel:
            out.append('TILECC_KERNEL(%s)' % self.opts)
            out.append('void %s(%s) {' % (self.name, ps))
        else:
            ret = 'void' if self.ret is None else (self.ret if isinstance(self.ret, str) else render_parts(self.ret, ctx))
            out.append('%s %s(%s) {' % (ret, self.name, ps))
        render_block(self.body, ctx, 1, out)
        out.append('}')
        for args in self.insts:
            pctx = RenderCtx({})  # instantiation: parameters spelled with the concrete types
            ps2 = ', '.join(render_parts(p.tparts, pctx) for p in self.params)
            out.append('template void %s<%s>(%s);' % (self.name, ', '.join(args), ps2))
        return '\n'.join(out) + '\n'


class Program:
    """One kernel file: includes, helpers and kernels in order."""

    def __init__(self):
        self.includes = ['<tilecc/tile.hpp>']
        self.items = []   # Functions (helpers before the kernels that use them)
        self.prelude = []  # extra lines after the includes

    def render(self, header=None):
        text, _ = self.render_ranges(header)
        return text

    def render_ranges(self, header=None):
        """The file's text and, per item, its (first, last) line (1-based)."""
        out = (header or ['// Generated by tests/fuzz/tilegen.py'])[:]
        for inc in self.includes:
            out.append('#include %s' % inc)
        out.append('using namespace tilecc;')
        out.extend(self.prelude)
        out.append('')
        ranges = []
        line = len(out) + 1
        for f in self.items:
            t = f.render()
            n = t.count('\n') + 1
            ranges.append((f, line, line + n - 1))
            out.append(t)
            line += n
        return '\n'.join(out), ranges

    def subset(self, items):
        p = Program()
        p.includes = list(self.includes)
        p.prelude = list(self.prelude)
        p.items = [f for f in self.items if f in items]
        return p

    def kernels(self):
        return [f for f in self.items if f.kernel]
