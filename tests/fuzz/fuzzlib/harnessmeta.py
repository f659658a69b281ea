"""What the GPU batch harness needs to run a generated kernel: its buffers, size and scalar
parameters with the values each run draws, the grid, and how each output is compared."""
import math

from .values import INTS, FLOATS, IRANGE, SIZE


class Buffer:
    """A pointer parameter and the array behind it.

    role: 'in' (read only, random data), 'out' (poisoned, written by stores), 'acc' (atomics:
    initial values, read and written). length(vals) gives its element count for one run's
    size values; `align` forces 16-byte alignment (a promise or hint relies on it).
    """

    def __init__(self, name, elem, role, dist, length, const=False):
        self.name = name
        self.elem = elem
        self.role = role
        self.dist = dist          # in/acc: 'small' 'full' 'idx:L' 'intlike:K' 'real:R' 'special' 'pos:R' 'bool'
        self.length = length      # callable(vals) -> int
        self.const = const
        self.align = False
        self.compare = None       # outputs: ('bits' | 'value' | 'tol', tol)
        self.infos = []           # outputs: infos of the values stored into it

    def note_store(self, info):
        self.infos.append(info)

    def comparison(self):
        """The comparison for this output: the weakest of what was stored into it."""
        mode, tol = 'bits', 0.0
        for i in self.infos:
            if i.cls == 'a':
                mode = 'tol'
                tol = max(tol, i.err)
            elif i.cls == 'z' and mode == 'bits':
                mode = 'value'
        if mode == 'tol':
            tol = 2.0 * tol + 1e-30
        return mode, tol


class ScalarParam:
    """An integer or float parameter: values drawn per run in [lo, hi] (multiples of `mult`).
    `full` is the value the first run uses (the largest size, aligned)."""

    def __init__(self, name, t, lo, hi, mult=1, full=None, kind='scalar'):
        self.name = name
        self.t = t
        self.lo = lo
        self.hi = hi
        self.mult = mult
        self.full = hi if full is None else full
        self.kind = kind   # size | scalar

    def draw(self, rnd, run):
        if self.t == 'bool':
            return rnd.random() < 0.5 if run else bool(self.full)
        if self.t == 'f32':
            if run == 0 and self.full is not None:
                return float(self.full)
            v = rnd.uniform(self.lo, self.hi)
            return float(round(v * 8) / 8)  # a few mantissa bits: exact in f32
        if run == 0:
            return self.full
        lo = -(-self.lo // self.mult) * self.mult
        hi = (self.hi // self.mult) * self.mult
        if hi < lo:
            return self.full
        # Ragged sizes: small values and edges are the interesting ones.
        r = rnd.random()
        if r < 0.25:
            v = lo
        elif r < 0.4:
            v = hi
        else:
            v = rnd.randint(lo, hi)
        return (v // self.mult) * self.mult if self.mult > 1 else v


class KernelMeta:
    def __init__(self):
        self.buffers = []
        self.scalars = []
        self.grid = (1, 1, 1)
        self.order = []      # parameter order: ('buf', Buffer) | ('scalar', ScalarParam)
        self.gpu_ok = True   # False: the kernel is for CPU-side oracles only (e.g. UB on purpose)
        self.notes = []

    def runs(self, rnd, count=2):
        """Concrete runs: per parameter, its value (scalars) or (length, misalignment) (buffers)."""
        out = []
        for run in range(count):
            vals = {}
            for s in self.scalars:
                vals[s.name] = s.draw(rnd, run)
            bufs = {}
            for b in self.buffers:
                n = max(1, int(b.length(vals)))
                mis = 0
                if run > 0 and not b.align and rnd.random() < 0.5:
                    mis = 1  # one element past a 256-byte boundary: not 16-byte aligned (for elements < 16 bytes)
                bufs[b.name] = (n, mis)
            out.append((vals, bufs))
        return out
