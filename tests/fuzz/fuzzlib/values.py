"""The generator's value model: element types, ranges and how exactly a value is reproduced.

Every expression the generator builds carries an Info: its element type and shape, a range
that holds every value it can take, and how exactly the GPU reproduces it:

  'x'  bit-exact: the host twin and the GPU compute the same bits (compared bit for bit,
       except that any NaN equals any NaN)
  'z'  exact up to the sign of zero (max/min of values that may be +0 and -0): compared by value
  'a'  approximate: compared with an absolute tolerance `err` (a first-order bound on the
       difference, from ulps of the math functions, reassociated sums and contracted a*b+c)

`prod` marks an f32 product that nvcc may contract into a following add (then that add is
approximate); `integral` marks a float whose value is an integer small enough that + - * and
sums of such values are exact in any order. Integer values are always exact.
"""
import math
import struct

ELEMS = ('bool', 'i8', 'u8', 'i32', 'u32', 'i64', 'f32', 'f16', 'bf16')
INTS = ('i8', 'u8', 'i32', 'u32', 'i64')
FLOATS = ('f32', 'f16', 'bf16')
NUMERIC = INTS + FLOATS
CPP = {'bool': 'bool', 'i8': 'int8_t', 'u8': 'uint8_t', 'i32': 'int', 'u32': 'unsigned', 'i64': 'int64_t',
       'f32': 'float', 'f16': 'half', 'bf16': 'bfloat16'}
# The name tilecc gives template arguments of these types in kernel names.
NAME_ARG = {'bool': 'bool', 'i8': 'int8', 'u8': 'uint8', 'i32': 'int', 'u32': 'unsigned_int', 'i64': 'int64',
            'f32': 'float', 'f16': 'half', 'bf16': 'bfloat16'}
IRANGE = {'bool': (0, 1), 'i8': (-128, 127), 'u8': (0, 255), 'i32': (-2**31, 2**31 - 1), 'u32': (0, 2**32 - 1),
          'i64': (-2**63, 2**63 - 1)}
BITS = {'bool': 8, 'i8': 8, 'u8': 8, 'i32': 32, 'u32': 32, 'i64': 64, 'f32': 32, 'f16': 16, 'bf16': 16}
SIZE = {'bool': 1, 'i8': 1, 'u8': 1, 'i32': 4, 'u32': 4, 'i64': 8, 'f32': 4, 'f16': 2, 'bf16': 2}
FMAX = {'f32': 3.4028234663852886e38, 'f16': 65504.0, 'bf16': 3.3895313892515355e38}
UROUND = {'f32': 2.0**-24, 'f16': 2.0**-11, 'bf16': 2.0**-8}   # unit roundoff
INTEXACT = {'f32': 2**24, 'f16': 2**11, 'bf16': 2**8}          # integers exactly representable up to here
# Largest magnitude an approximate value may reach: far from overflow, so that a small error never
# turns a finite value into an infinity on one side only.
SAFE = {'f32': 1e15, 'f16': 2.0e4, 'bf16': 1e15}
INF = float('inf')
ULP32 = 2.0**-23


def is_int(t):
    return t in INTS


def is_float(t):
    return t in FLOATS


def f32(x):
    """x rounded to float32 (inf on overflow)."""
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(INF, x)


def f16(x):
    if math.isnan(x) or math.isinf(x):
        return x
    if abs(x) >= 65520.0:
        return math.copysign(INF, x)
    return struct.unpack('<e', struct.pack('<e', x))[0]


def bf16(x):
    x = f32(x)
    if math.isnan(x) or math.isinf(x):
        return x
    (u,) = struct.unpack('<I', struct.pack('<f', x))
    u = ((u + 0x7fff + ((u >> 16) & 1)) >> 16) << 16
    u &= 0xffffffff
    return struct.unpack('<f', struct.pack('<I', u))[0]


def round_to(t, x):
    if t == 'f32':
        return f32(x)
    if t == 'f16':
        return f16(x)
    if t == 'bf16':
        return bf16(x)
    return x


def wrap(t, v):
    lo, hi = IRANGE[t]
    n = hi - lo + 1
    return (v - lo) % n + lo


class Info:
    """What the generator knows about an expression (see the module comment)."""
    __slots__ = ('t', 'shape', 'lo', 'hi', 'integral', 'cls', 'err', 'prod', 'nan', 'div', 'contig', 'const')

    def __init__(self, t, shape=(), lo=0, hi=0, integral=None, cls='x', err=0.0, prod=False, nan=False, div=1,
                 contig=1, const=None):
        self.t = t
        self.shape = tuple(shape)
        self.lo = lo
        self.hi = hi
        self.integral = (t not in FLOATS) if integral is None else integral
        self.cls = cls
        self.err = err
        self.prod = prod
        self.nan = nan
        self.div = div          # integers: every value is a multiple of div (a power of two; 0: value 0)
        self.contig = contig    # integer tiles: runs of `contig` consecutive values along the last axis
        self.const = const      # a known constant value (scalars, full tiles)

    def copy(self, **kw):
        n = Info(self.t, self.shape, self.lo, self.hi, self.integral, self.cls, self.err, self.prod, self.nan,
                 self.div, self.contig, self.const)
        for k, v in kw.items():
            setattr(n, k, v)
        return n

    @property
    def is_tile(self):
        return len(self.shape) > 0

    @property
    def mag(self):
        return max(abs(self.lo), abs(self.hi))

    @property
    def finite(self):
        return not self.nan and self.mag < INF

    def __repr__(self):
        return 'Info(%s%s [%g,%g] %s%s%s err=%g)' % (self.t, list(self.shape), self.lo, self.hi, self.cls,
                                                    ' int' if self.integral else '', ' prod' if self.prod else '',
                                                    self.err)


def join(a, b):
    """The info of a value that is either a or b (branches, loop iterations)."""
    assert a.t == b.t, (a, b)
    shape = a.shape if len(a.shape) >= len(b.shape) else b.shape
    cls = 'a' if 'a' in (a.cls, b.cls) else ('z' if 'z' in (a.cls, b.cls) else 'x')
    return Info(a.t, shape, min(a.lo, b.lo), max(a.hi, b.hi), a.integral and b.integral, cls, max(a.err, b.err),
                a.prod or b.prod, a.nan or b.nan, math.gcd(a.div, b.div) if a.div and b.div else (a.div or b.div),
                min(a.contig, b.contig), a.const if a.const == b.const and a.const is not None else None)


def type_range(t):
    if t in IRANGE:
        return IRANGE[t]
    return (-INF, INF)


def int_info(t, shape, lo, hi, div=1, contig=1, const=None):
    """An integer value in [lo, hi]; values outside the type's range wrap to the whole range."""
    tlo, thi = IRANGE[t]
    if lo < tlo or hi > thi:
        return Info(t, shape, tlo, thi, div=1, contig=1)
    return Info(t, shape, lo, hi, div=div, contig=contig, const=const)


def lowbit(v):
    v = abs(int(v))
    if v == 0:
        return 0
    return v & -v


def float_const_info(t, v, shape=()):
    v = round_to(t, v)
    nan = math.isnan(v)
    integral = (not nan and not math.isinf(v) and v == int(v) and abs(v) <= INTEXACT[t])
    lo = hi = v
    if nan:
        lo, hi = -INF, INF
    return Info(t, shape, lo, hi, integral, 'x', 0.0, False, nan, const=v)


def interval_mul(a, b):
    ps = []
    for x in (a.lo, a.hi):
        for y in (b.lo, b.hi):
            if (x == 0 and math.isinf(y)) or (y == 0 and math.isinf(x)):
                ps.append(0.0)
            else:
                ps.append(x * y)
    return min(ps), max(ps)


def widen(lo, hi):
    """A float range, slightly widened for rounding."""
    w = 1e-6 * max(abs(lo), abs(hi)) + 1e-30
    return lo - w, hi + w
