"""Transfer functions: the Info of an operation's result from the Infos of its operands, or
None when the operation would leave the contract (scalar UB) or could make the host twin and
the GPU disagree beyond what a tolerance can describe (a discontinuity on an approximate value).
Semantics follow runtime/include/tilecc/tile.hpp (contract v0)."""
import math

from .values import (FLOATS, INTS, IRANGE, INTEXACT, UROUND, ULP32, SAFE, INF, FMAX, Info, int_info, round_to,
                     interval_mul, widen, lowbit, is_float, is_int, wrap, float_const_info)


def bshape(a, b):
    """NumPy broadcast of two shapes of equal rank (or a scalar)."""
    if not a:
        return b
    if not b:
        return a
    assert len(a) == len(b), (a, b)
    out = []
    for x, y in zip(a, b):
        assert x == y or x == 1 or y == 1, (a, b)
        out.append(max(x, y))
    return tuple(out)


def convert(i, t, shape=None):
    """convert<t>(value): cast<t>, scalars beside tiles, stores of scalars."""
    shape = i.shape if shape is None else shape
    s = i.t
    if s == t:
        return i.copy(shape=shape)
    if t == 'bool':
        if i.cls == 'a':
            return None
        return Info('bool', shape, 0, 1)
    if s == 'bool':
        if t in FLOATS:
            return Info(t, shape, 0.0, 1.0, True)
        return Info(t, shape, 0, 1)
    if t in INTS:
        if s in INTS:
            if i.lo >= IRANGE[t][0] and i.hi <= IRANGE[t][1]:
                return Info(t, shape, i.lo, i.hi, div=i.div, contig=i.contig, const=i.const)
            return Info(t, shape, *IRANGE[t])
        # float -> int truncates and saturates (NaN -> 0): a discontinuity
        if i.cls == 'a':
            return None
        lo, hi = IRANGE[t]
        vlo = max(lo, min(hi, math.trunc(i.lo) if math.isfinite(i.lo) else (lo if i.lo < 0 else hi)))
        vhi = max(lo, min(hi, math.trunc(i.hi) if math.isfinite(i.hi) else (lo if i.hi < 0 else hi)))
        vlo, vhi = min(vlo, vhi), max(vlo, vhi)
        if i.nan:
            vlo, vhi = min(vlo, 0), max(vhi, 0)
        return Info(t, shape, vlo, vhi)
    # to float
    if s in INTS:
        lo, hi = float(i.lo), float(i.hi)
        integral = max(abs(lo), abs(hi)) <= INTEXACT[t]
        return Info(t, shape, round_to(t, lo), round_to(t, hi), integral, 'x')
    # float -> float
    lo, hi = round_to(t, i.lo), round_to(t, i.hi)
    integral = i.integral and max(abs(i.lo), abs(i.hi)) <= INTEXACT[t]
    if i.cls == 'a':
        m = max(abs(lo), abs(hi))
        if m > SAFE[t]:
            return None
        return Info(t, shape, lo, hi, False, 'a', i.err + 2 * UROUND[t] * m + 2 * UROUND[t] * 2 * i.err, False, i.nan)
    return Info(t, shape, lo, hi, integral, i.cls, 0.0, False, i.nan)


def _int_bin(op, a, b, t, shape, scalar):
    """Integer + - * / % << >> & | ^ in type t (operands already converted)."""
    lo_t, hi_t = IRANGE[t]
    signed = lo_t < 0
    if op in '+-*':
        if op == '+':
            lo, hi = a.lo + b.lo, a.hi + b.hi
            div = math.gcd(a.div, b.div) if a.div and b.div else (a.div or b.div)
        elif op == '-':
            lo, hi = a.lo - b.hi, a.hi - b.lo
            div = math.gcd(a.div, b.div) if a.div and b.div else (a.div or b.div)
        else:
            ps = [x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
            lo, hi = min(ps), max(ps)
            div = a.div * b.div
        if lo < lo_t or hi > hi_t:
            if scalar and signed:
                return None  # signed overflow: UB on the host
            return Info(t, shape, lo_t, hi_t)
        contig = 1
        b_flat = not b.shape or b.shape[-1] == 1
        a_flat = not a.shape or a.shape[-1] == 1
        if op in '+-' and b_flat:
            contig = a.contig
        elif op == '+' and a_flat:
            contig = b.contig
        return Info(t, shape, lo, hi, div=lowbit(div) if div else 0, contig=contig)
    if op in '/%':
        if scalar:
            if b.lo <= 0 <= b.hi:
                return None
            if signed and b.lo <= -1 <= b.hi and a.lo <= lo_t:
                return None
        ma = max(abs(a.lo), abs(a.hi))
        mb = max(abs(b.lo), abs(b.hi))
        if op == '/':
            if signed:
                if a.lo <= lo_t and b.lo <= -1 <= b.hi:
                    return Info(t, shape, lo_t, hi_t)
                return Info(t, shape, max(lo_t, -ma), min(hi_t, ma))
            return Info(t, shape, 0, a.hi)
        m = min(ma, max(mb - 1, 0))
        if signed:
            lo = -m if a.lo < 0 else 0
            hi = m if a.hi > 0 else 0
            return Info(t, shape, lo, hi)
        return Info(t, shape, 0, m)
    bits = 64 if t == 'i64' else 32
    if op == '<<':
        if scalar:
            return None  # generated with constant counts only (see Gen)
        if a.lo >= 0 and 0 <= b.lo and b.hi < bits and (a.hi << int(b.hi)) <= hi_t:
            return Info(t, shape, 0, a.hi << int(b.hi), div=lowbit(a.div << int(b.lo)) if a.div else 0)
        return Info(t, shape, lo_t, hi_t)
    if op == '>>':
        if scalar:
            return None
        lo = min(a.lo, -1) if a.lo < 0 else 0
        hi = max(a.hi, 0)
        return Info(t, shape, lo, hi)
    if op in '&|^':
        if a.lo >= 0 and b.lo >= 0:
            if op == '&':
                return Info(t, shape, 0, min(a.hi, b.hi))
            m = max(a.hi, b.hi)
            p = 1
            while p <= m:
                p <<= 1
            return Info(t, shape, 0, min(p - 1, hi_t))
        if scalar and t in ('i32', 'i64') and op == '&' and (a.lo >= 0 or b.lo >= 0):
            return Info(t, shape, 0, a.hi if a.lo >= 0 else b.hi)
        if op == '&' and b.lo >= 0 and a.lo < 0:
            return Info(t, shape, 0, b.hi)
        return Info(t, shape, lo_t, hi_t)
    raise ValueError(op)


def _bool_bin(op, a, b, shape):
    if op in '&|^':
        return Info('bool', shape, 0, 1)
    return None


def float_err(t, lo, hi):
    return 2 * UROUND[t] * max(abs(lo), abs(hi))


def _float_bin(op, a, b, t, shape):
    u = UROUND[t]
    if op == '+':
        lo, hi = a.lo + b.lo, a.hi + b.hi
    elif op == '-':
        lo, hi = a.lo - b.hi, a.hi - b.lo
    elif op == '*':
        lo, hi = interval_mul(a, b)
    elif op == '/':
        if b.cls == 'z' and b.lo <= 0 <= b.hi:
            return None  # x / ±0: the sign of the infinity is not reproducible
        if b.lo <= 0 <= b.hi:
            lo, hi = -INF, INF
        else:
            qs = []
            for x in (a.lo, a.hi):
                for y in (b.lo, b.hi):
                    if math.isinf(x) and math.isinf(y):
                        qs.append(0.0)
                    else:
                        qs.append(x / y)
            lo, hi = min(qs), max(qs)
    else:
        raise ValueError(op)
    if math.isnan(lo) or math.isnan(hi):
        lo, hi = -INF, INF
    nan = a.nan or b.nan or (op in '+-' and (math.isinf(a.mag) and math.isinf(b.mag))) or \
        (op == '*' and (math.isinf(a.mag) or math.isinf(b.mag))) or \
        (op == '/' and (b.lo <= 0 <= b.hi or (math.isinf(a.mag) and math.isinf(b.mag))))
    lo, hi = widen(lo, hi)
    lo, hi = round_to(t, lo), round_to(t, hi)
    if lo > hi:
        lo, hi = hi, lo
    m = max(abs(lo), abs(hi))
    integral = a.integral and b.integral and op != '/' and m <= INTEXACT[t] and not nan
    if integral:
        return Info(t, shape, lo, hi, True, 'x', 0.0, False, False)
    approx = a.cls == 'a' or b.cls == 'a'
    contract = op in '+-' and t == 'f32' and (a.prod or b.prod)
    if approx or contract:
        if not (math.isfinite(lo) and math.isfinite(hi)) or m > SAFE[t] or nan:
            return None
        ma, mb = a.mag, b.mag
        if not (math.isfinite(ma) and math.isfinite(mb)):
            return None
        if op in '+-':
            err = a.err + b.err
            if contract:
                err += 2 * ULP32 * (ma + mb) * 2
        elif op == '*':
            err = ma * b.err + mb * a.err + a.err * b.err
        else:
            mnb = min(abs(b.lo), abs(b.hi))
            if mnb <= 2 * b.err or mnb < 1e-3:
                return None
            err = (a.err + m * b.err) / (mnb - b.err)
        err += float_err(t, lo, hi) + 2 * UROUND[t] * err
        if err > 0.05 * (m + 1):
            return None  # too noisy to say anything
        return Info(t, shape, lo, hi, False, 'a', err, False, False)
    cls = 'z' if (a.cls == 'z' or b.cls == 'z') else 'x'
    if op in '*/' and (a.lo <= 0 <= a.hi) and (b.lo < 0 or a.lo < 0):
        pass
    return Info(t, shape, lo, hi, False, cls, 0.0, op == '*' and t == 'f32', nan)


def binary(op, a, b, t, scalar=False):
    """a OP b computed in t (both operands converted to t already), shapes broadcast."""
    shape = bshape(a.shape, b.shape)
    if op in ('==', '!=', '<', '<=', '>', '>='):
        if a.cls == 'a' or b.cls == 'a':
            return None
        return Info('bool', shape, 0, 1)
    if t == 'bool':
        return _bool_bin(op, a, b, shape)
    if t in INTS:
        return _int_bin(op, a, b, t, shape, scalar)
    if op not in '+-*/':
        return None
    return _float_bin(op, a, b, t, shape)


def neg(a):
    t = a.t
    if t in INTS:
        lo_t, hi_t = IRANGE[t]
        if t in ('u8', 'u32'):
            return Info(t, a.shape, lo_t, hi_t) if a.hi > 0 else a.copy(const=None)
        if a.lo <= lo_t:
            return Info(t, a.shape, lo_t, hi_t)
        return Info(t, a.shape, -a.hi, -a.lo, div=a.div)
    return a.copy(lo=-a.hi, hi=-a.lo, const=None, contig=1)


def absval(a):
    t = a.t
    if t in INTS:
        lo_t, hi_t = IRANGE[t]
        if t in ('u8', 'u32'):
            return a.copy(const=None)
        if a.lo <= lo_t:
            return Info(t, a.shape, lo_t, hi_t)
        m = max(abs(a.lo), abs(a.hi))
        lo = 0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))
        return Info(t, a.shape, lo, m, div=a.div)
    m = a.mag
    lo = 0.0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi))
    cls = 'x' if a.cls == 'z' else a.cls
    return a.copy(lo=lo, hi=m, prod=False, const=None, cls=cls)


def bitnot(a):
    t = a.t
    if t == 'bool':
        return Info('bool', a.shape, 0, 1)
    lo_t, hi_t = IRANGE[t]
    if lo_t < 0:
        return Info(t, a.shape, -a.hi - 1, -a.lo - 1)
    return Info(t, a.shape, hi_t - a.hi, hi_t - a.lo)


def minmax(op, a, b, t):
    shape = bshape(a.shape, b.shape)
    if op == 'max':
        lo, hi = max(a.lo, b.lo), max(a.hi, b.hi)
    else:
        lo, hi = min(a.lo, b.lo), min(a.hi, b.hi)
    if a.nan and not b.nan:
        lo, hi = min(lo, b.lo), max(hi, b.hi)
    if b.nan and not a.nan:
        lo, hi = min(lo, a.lo), max(hi, a.hi)
    if t in INTS:
        return Info(t, shape, lo, hi)
    if a.cls == 'a' or b.cls == 'a':
        return Info(t, shape, lo, hi, False, 'a', max(a.err, b.err), False, a.nan and b.nan)
    cls = 'x'
    if a.cls == 'z' or b.cls == 'z' or (a.lo <= 0 <= a.hi and b.lo <= 0 <= b.hi):
        cls = 'z'
    return Info(t, shape, lo, hi, a.integral and b.integral, cls, 0.0, False, a.nan and b.nan)


def select(m, a, b, t):
    if m.cls == 'a':
        return None
    shape = bshape(bshape(m.shape, a.shape), b.shape)
    if t in INTS or t == 'bool':
        return Info(t, shape, min(a.lo, b.lo), max(a.hi, b.hi), div=math.gcd(a.div, b.div) if a.div and b.div else (a.div or b.div))
    cls = 'a' if 'a' in (a.cls, b.cls) else ('z' if 'z' in (a.cls, b.cls) else 'x')
    return Info(t, shape, min(a.lo, b.lo), max(a.hi, b.hi), a.integral and b.integral, cls, max(a.err, b.err), False,
                a.nan or b.nan)


def fma(a, b, c, t):
    if t in INTS:
        p = binary('*', a, b, t)
        return binary('+', p, c, t) if p else None
    p = binary('*', a, b, t)
    if p is None:
        return None
    p = p.copy(prod=False)
    r = binary('+', p, c, t)
    if r is None:
        return None
    if r.cls != 'a' and not r.integral and (a.cls == 'a' or b.cls == 'a' or c.cls == 'a'):
        return None
    return r


# Lipschitz constants and input limits of the math functions (f32 input range).
MATH = ('exp', 'exp2', 'log', 'log2', 'sqrt', 'rsqrt', 'sin', 'cos', 'tanh', 'erf', 'sigmoid', 'floor', 'ceil')
# <cmath> scalar functions beyond the API's (CUDA's float functions, at most 4 ulp; the twin's libm).
CMATH = ('atan', 'asinh', 'log1p', 'expm1', 'log10', 'erfc', 'sinh', 'cosh')
# Monotone step functions: exact inputs only (any error could move a result by a whole step).
STEPS = {'floor': math.floor, 'ceil': math.ceil, 'trunc': math.trunc, 'rint': round, 'nearbyint': round,
         'round': lambda v: math.copysign(math.floor(abs(v) + 0.5), v)}


def math_domain(fn, t):
    """The input range an argument must lie in (lo, hi), before the function is applied."""
    big = SAFE[t]
    if fn == 'exp':
        return (-80.0, 10.0 if t == 'f16' else 80.0)
    if fn == 'exp2':
        return (-120.0, 14.0 if t == 'f16' else 120.0)
    if fn in ('log', 'log2'):
        return (1e-3, big)
    if fn == 'sqrt':
        return (0.0, big)
    if fn == 'rsqrt':
        return (1e-2, big)
    if fn in ('sin', 'cos'):
        return (-1e4, 1e4)
    if fn in ('tanh', 'erf', 'sigmoid', 'erfc'):
        return (-80.0, 80.0)
    if fn in ('atan', 'asinh'):
        return (-1e6, 1e6)
    if fn == 'log1p':
        return (-0.5, big)
    if fn == 'expm1':
        return (-80.0, 10.0 if t == 'f16' else 80.0)
    if fn == 'log10':
        return (1e-3, big)
    if fn in ('sinh', 'cosh'):
        return (-10.0, 10.0)
    return (-INF, INF)


def mathfn(fn, a):
    t = a.t
    if fn in STEPS:
        if a.cls == 'a':
            return None
        f = STEPS[fn]
        lo = f(a.lo) if math.isfinite(a.lo) else a.lo
        hi = f(a.hi) if math.isfinite(a.hi) else a.hi
        integral = math.isfinite(lo) and math.isfinite(hi) and max(abs(lo), abs(hi)) <= INTEXACT[t] and not a.nan
        return Info(t, a.shape, float(lo), float(hi), integral, a.cls, 0.0, False, a.nan)
    dlo, dhi = math_domain(fn, t)
    if a.nan or a.lo < dlo or a.hi > dhi:
        return None
    if fn == 'sqrt' and a.cls != 'a':
        return Info(t, a.shape, math.sqrt(max(a.lo, 0.0)), math.sqrt(a.hi), False, 'z' if a.cls == 'z' else 'x',
                    0.0, False, False)
    lo, hi = a.lo, a.hi
    e = a.err
    if fn == 'exp':
        olo, ohi, L = math.exp(lo), math.exp(hi), math.exp(hi)
    elif fn == 'exp2':
        olo, ohi, L = 2.0**lo, 2.0**hi, math.log(2) * 2.0**hi
    elif fn == 'log':
        olo, ohi, L = math.log(lo), math.log(hi), 1.0 / lo
    elif fn == 'log2':
        olo, ohi, L = math.log2(lo), math.log2(hi), 1.0 / (lo * math.log(2))
    elif fn == 'sqrt':
        olo, ohi = math.sqrt(lo), math.sqrt(hi)
        L = 0.5 / math.sqrt(lo) if lo > 0 else None
    elif fn == 'rsqrt':
        olo, ohi, L = 1 / math.sqrt(hi), 1 / math.sqrt(lo), 0.5 * lo ** -1.5
    elif fn in ('sin', 'cos'):
        olo, ohi, L = -1.0, 1.0, 1.0
    elif fn == 'tanh':
        olo, ohi, L = math.tanh(lo), math.tanh(hi), 1.0
    elif fn == 'erf':
        olo, ohi, L = math.erf(lo), math.erf(hi), 1.13
    elif fn == 'sigmoid':
        olo, ohi, L = 1 / (1 + math.exp(-lo)), 1 / (1 + math.exp(-hi)), 0.25
    elif fn == 'atan':
        olo, ohi, L = math.atan(lo), math.atan(hi), 1.0
    elif fn == 'asinh':
        olo, ohi, L = math.asinh(lo), math.asinh(hi), 1.0
    elif fn == 'log1p':
        olo, ohi, L = math.log1p(lo), math.log1p(hi), 1.0 / (1.0 + lo)
    elif fn == 'expm1':
        olo, ohi, L = math.expm1(lo), math.expm1(hi), math.exp(hi)
    elif fn == 'log10':
        olo, ohi, L = math.log10(lo), math.log10(hi), 1.0 / (lo * math.log(10))
    elif fn == 'erfc':
        olo, ohi, L = math.erfc(hi), math.erfc(lo), 1.13
    elif fn in ('sinh', 'cosh'):
        big = max(abs(lo), abs(hi))
        L = math.cosh(big)
        if fn == 'sinh':
            olo, ohi = math.sinh(lo), math.sinh(hi)
        else:
            olo = 1.0 if lo <= 0 <= hi else min(math.cosh(lo), math.cosh(hi))
            ohi = math.cosh(big)
    else:
        raise ValueError(fn)
    olo, ohi = min(olo, ohi), max(olo, ohi)
    m = max(abs(olo), abs(ohi))
    if m > SAFE[t]:
        return None
    if L is None:
        ein = math.sqrt(e) * 1.5
    else:
        ein = L * e
    err = ein + 16 * ULP32 * max(m, 1e-30) + 2 * UROUND[t] * m
    if fn in ('sin', 'cos'):
        err += 16 * ULP32 * min(max(abs(lo), abs(hi)), 1e4) * ULP32 * 0  # large arguments: accurate on both sides
    if err > 0.05 * (m + 1):
        return None
    olo, ohi = widen(olo, ohi)
    return Info(t, a.shape, olo - err, ohi + err, False, 'a', err, False, False)


def math2(fn, a, b, t):
    """hypot(a, b) and fdim(a, b) on f32 scalars: each 1-Lipschitz in both operands."""
    if a.nan or b.nan or not a.finite or not b.finite:
        return None
    if fn == 'fdim':
        d = binary('-', a, b, t, scalar=True)
        return None if d is None else minmax('max', d, float_const_info(t, 0.0), t)
    m = math.hypot(a.mag, b.mag)
    if m > SAFE[t]:
        return None
    lo = math.hypot(0.0 if a.lo <= 0 <= a.hi else min(abs(a.lo), abs(a.hi)),
                    0.0 if b.lo <= 0 <= b.hi else min(abs(b.lo), abs(b.hi)))
    err = a.err + b.err + 16 * ULP32 * max(m, 1e-30)
    lo, hi = widen(lo, m)
    return Info(t, bshape(a.shape, b.shape), lo - err, hi + err, False, 'a', err, False, False)


def sum_type(t):
    if t in ('f16', 'bf16'):
        return 'f32'
    if t in ('bool', 'i8', 'u8'):
        return 'i32'
    return t


def reduce(kind, a, axis):
    """sum/max/min/argmax/argmin along axis of a (rank >= 1)."""
    n = a.shape[axis]
    shape = a.shape[:axis] + a.shape[axis + 1:]
    t = a.t
    if kind in ('argmax', 'argmin'):
        if a.cls == 'a' or t == 'bool':
            return None
        return Info('i32', shape, 0, n - 1)
    if kind in ('max', 'min'):
        if t == 'bool':
            return None
        i = a.copy(shape=shape, const=None, contig=1, prod=False)
        if t in FLOATS and a.cls == 'x' and a.lo <= 0 <= a.hi and n > 1:
            i.cls = 'z'
        return i
    # sum
    st = sum_type(t)
    if st in INTS:
        lo, hi = a.lo * n if a.lo < 0 else a.lo, a.hi * n if a.hi > 0 else a.hi
        if t == 'bool':
            lo, hi = 0, n
        return int_info(st, shape, min(lo, a.lo * n), max(hi, a.hi * n))
    # floats: accumulate in f32 (half/bfloat16 too)
    if a.nan or not (math.isfinite(a.lo) and math.isfinite(a.hi)):
        if a.cls == 'a':
            return None
        # NaN/inf in the input: the result is NaN/inf on both sides only if order does not matter;
        # +inf and -inf together give NaN in any order, NaN stays NaN: still reproducible, but
        # finite parts are rounded in a different order.
        if a.integral:
            return Info(st, shape, -INF, INF, False, 'x', 0.0, False, True)
        return None
    lo, hi = min(a.lo * n, a.lo), max(a.hi * n, a.hi)
    m = max(abs(lo), abs(hi))
    if a.integral and m <= INTEXACT['f32']:
        return Info(st, shape, float(lo), float(hi), True, 'x')
    if m > SAFE['f32']:
        return None
    levels = max(1, math.ceil(math.log2(n)) + 1)
    err = n * a.err + 2 * ULP32 * n * a.mag * levels * 2
    if err > 0.05 * (m + 1):
        return None
    return Info(st, shape, lo - err, hi + err, False, 'a', err, False, False)


def dot(a, b, acc, tf32):
    """dot(a [M,K], b [K,N], acc [M,N])."""
    m_, k = a.shape
    n = b.shape[1]
    t = a.t
    if t == 'i8':
        ps = [x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        lo = acc.lo + k * min(ps)
        hi = acc.hi + k * max(ps)
        return int_info('i32', (m_, n), lo, hi)
    if a.nan or b.nan or acc.nan or not (a.finite and b.finite and acc.finite):
        return None
    lo, hi = interval_mul(a, b)
    lo, hi = acc.lo + k * min(lo, 0), acc.hi + k * max(hi, 0)
    m = max(abs(lo), abs(hi))
    exact_in = 2**11 if tf32 else INTEXACT['f32']
    if (a.integral and b.integral and acc.integral and a.mag <= exact_in and b.mag <= exact_in
            and m <= INTEXACT['f32']):
        return Info('f32', (m_, n), float(lo), float(hi), True, 'x')
    if m > SAFE['f32']:
        return None
    ea, eb = a.err, b.err
    if tf32:
        # inputs rounded to TF32 on both sides (ties away): an approximate input may round differently
        ea += 2 * 2.0**-11 * a.mag if a.cls == 'a' else 0
        eb += 2 * 2.0**-11 * b.mag if b.cls == 'a' else 0
    levels = max(1, math.ceil(math.log2(k)) + 2)
    # Each of the k additions may round at the accumulator's magnitude: the twin adds the products
    # one by one, the tensor cores k-chunk by k-chunk (seed 67's b053_k5: 8 ulp at |acc| = 590, k = 16).
    err = acc.err + k * (a.mag * eb + b.mag * ea + ea * eb) + 4 * ULP32 * k * a.mag * b.mag * levels + (k + 2) * ULP32 * acc.mag
    if err > 0.05 * (m + 1):
        return None
    return Info('f32', (m_, n), lo - err, hi + err, False, 'a', err, False, False)
