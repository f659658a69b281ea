"""The CPU-side oracles: run g++ (is the kernel file valid C++ against tile.hpp?), tilecc
(crash, hang, internal error, located rejection) and nvcc (errors and warnings under
-Werror all-warnings for sm_80 and sm_90a), and reduce each failure to a signature that
identifies it across kernels (for deduplication and for the minimiser)."""
import os
import re
import shutil
import signal
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
INCLUDE = os.path.join(ROOT, 'runtime', 'include')
ARCH_FLAGS = ['-gencode=arch=compute_80,code=sm_80', '-gencode=arch=compute_90a,code=sm_90a']
NVCC_FLAGS = ['-std=c++17', '-Werror', 'all-warnings', '-c']

# Classes of findings.
HANG, CRASH, INTERNAL, USAGE, PARTIAL, UNLOCATED, REJECT, NVCC_ERROR, NVCC_WARNING, HEADER = (
    'hang', 'crash', 'internal-error', 'usage-error', 'partial-output', 'unlocated-error', 'false-rejection',
    'nvcc-error', 'nvcc-warning', 'header-error')
CLASS_TEXT = {
    HANG: 'hang (tilecc ran past the timeout)',
    CRASH: 'crash (tilecc died on a signal)',
    INTERNAL: 'exit 3 (internal error)',
    USAGE: 'exit 2 on a valid command line',
    PARTIAL: 'output left behind by a failed run',
    UNLOCATED: 'exit 1 without a located diagnostic',
    REJECT: 'false rejection (exit 1 with a located error on a valid kernel)',
    NVCC_ERROR: 'nvcc error on the generated CUDA',
    NVCC_WARNING: 'nvcc warning on the generated CUDA (an error under -Werror all-warnings)',
    HEADER: 'the launcher header does not compile with the host C++ compiler alone',
}

DIAG = re.compile(r'^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): (?P<kind>error|warning|fatal error): (?P<msg>.*)$')
NVCC_DIAG = re.compile(r'^(?P<file>[^(\s]+)\((?P<line>\d+)\): (?P<kind>error|warning)(?: #(?P<num>[\w-]+))?: (?P<msg>.*)$')


class Outcome:
    """What one oracle said about a file. cls None: passed."""

    def __init__(self, cls=None, signature=None, message='', lines=(), output='', command=None, rc=None):
        self.cls = cls
        self.signature = signature
        self.message = message
        self.lines = list(lines)    # source (tilecc) or .cu (nvcc) lines the diagnostics point at
        self.output = output
        self.command = command or []
        self.rc = rc

    def __repr__(self):
        return 'Outcome(%s, %r)' % (self.cls, self.signature)


def run(cmd, timeout, cwd=None, env=None):
    """(rc, output); rc 'timeout' on a timeout; negative rc: killed by that signal."""
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd, env=env,
                             start_new_session=True)
    except OSError as e:
        return 127, str(e)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        out, _ = p.communicate()
        return 'timeout', out.decode('utf-8', 'replace')
    return p.returncode, out.decode('utf-8', 'replace')


def normalize(msg):
    """A diagnostic without the parts that vary between kernels: numbers, generated names."""
    msg = re.sub(r'(?:/[\w.+-]+)+\.tile\.cpp', 'FILE', msg)  # where the kernel file was (campaign vs minimiser)
    msg = re.sub(r"\b(?:int|float|half|bfloat16|bool|int8_t|uint8_t|unsigned|int64_t|uint32_t)\b", 'T', msg)
    msg = re.sub(r'\d+', 'N', msg)
    msg = re.sub(r"'[^']*'", "'_'", msg)
    return msg.strip()


def nvcc_normalize(msg):
    msg = re.sub(r'\d+', 'N', msg)
    return msg.strip()


GXX_LOC = re.compile(r'^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): +(?P<rest>.*)$')


def gxx_error_lines(out, src):
    """Lines of `src` that g++'s errors point at: errors in src itself and, for errors inside a
    header (tile.hpp's static assertions), the `required from` lines of src that led there. A
    header's own line numbers never name a line of src."""
    lines = []
    for l in out.splitlines():
        m = GXX_LOC.match(l.strip())
        if not m or os.path.basename(m.group('file')) != os.path.basename(src):
            continue
        rest = m.group('rest')
        if rest.startswith('error') or rest.startswith('fatal error') or 'required from' in rest:
            lines.append(int(m.group('line')))
    return lines


def gxx_check(src, gxx='g++', timeout=120, extra=()):
    rc, out = run([gxx, '-std=c++20', '-fsyntax-only', '-I' + INCLUDE] + list(extra) + [src], timeout)
    return rc == 0, out


def clang_rejects_too(src, lines, clangxx=None, timeout=120):
    """Does clang++ reject src at one of `lines` too? g++ accepts some ill-formed code that no
    instantiation uses (ill-formed, no diagnostic required, such as a bad conversion inside a
    helper template that is never called); Clang diagnoses it, and tilecc parses with Clang.
    Such a rejection is the generator's invalid C++, not a false rejection. False where clang++
    is missing."""
    clangxx = clangxx or next((c for c in ('clang++-19', 'clang++') if shutil.which(c)), None)
    if not clangxx:
        return False
    rc, out = run([clangxx, '-std=c++20', '-fsyntax-only', '-I' + INCLUDE, src], timeout)
    if rc == 0 or rc == 'timeout':
        return False
    return bool(set(gxx_error_lines(out, src)) & set(lines))


def tilecc_check(tilecc, src, outdir, timeout=30, extra=()):
    """Translates src into outdir; returns (Outcome, cu path or None)."""
    stem = os.path.basename(src)
    for suf in ('.tile.cpp', '.cpp'):
        if stem.endswith(suf):
            stem = stem[:-len(suf)]
            break
    cu = os.path.join(outdir, stem + '.cu')
    h = os.path.join(outdir, stem + '.h')
    for f in (cu, h):
        if os.path.exists(f):
            os.remove(f)
    cmd = [tilecc, src, '-o', cu] + list(extra)
    rc, out = run(cmd, timeout)
    shown = ['tilecc', os.path.basename(src), '-o', os.path.basename(cu)] + list(extra)
    if rc == 'timeout':
        return Outcome(HANG, 'hang', 'no result after %d s' % timeout, output=out, command=shown, rc=rc), None
    if isinstance(rc, int) and rc < 0:
        sig = signal.Signals(-rc).name if -rc in signal.Signals._value2member_map_ else str(-rc)
        frame = crash_frame(out)
        return Outcome(CRASH, 'crash %s%s' % (sig, (' in ' + frame) if frame else ''), 'killed by %s' % sig,
                       output=out, command=shown, rc=rc), None
    if rc == 3:
        first = next((l for l in out.splitlines() if l.strip()), '')
        return Outcome(INTERNAL, 'internal: ' + normalize(first.split('error:', 1)[-1]), first, output=out,
                       command=shown, rc=rc), None
    if rc not in (0, 1):
        if rc == 2:
            return Outcome(USAGE, 'usage', out.strip()[:200], output=out, command=shown, rc=rc), None
        return Outcome(CRASH, 'exit %s' % rc, 'exit status %s' % rc, output=out, command=shown, rc=rc), None
    if rc == 1:
        if os.path.exists(cu) or os.path.exists(h):
            return Outcome(PARTIAL, 'partial-output', 'exit 1 but outputs were written', output=out,
                           command=shown, rc=rc), None
        diags = []
        for l in out.splitlines():
            m = DIAG.match(l.strip())
            if m and m.group('kind') != 'warning':
                diags.append(m)
        if not diags:
            return Outcome(UNLOCATED, 'unlocated: ' + normalize(out.strip().splitlines()[0] if out.strip() else ''),
                           out.strip()[:300], output=out, command=shown, rc=rc), None
        m = diags[0]
        lines = [int(d.group('line')) for d in diags if os.path.basename(d.group('file')) == os.path.basename(src)]
        return Outcome(REJECT, 'reject: ' + normalize(m.group('msg')), m.group('msg'), lines=lines, output=out,
                       command=shown, rc=rc), None
    return Outcome(None, command=shown, output=out, rc=rc), cu


def crash_frame(out):
    """The first tilecc function in LLVM's stack dump, if there is one."""
    for l in out.splitlines():
        m = re.search(r'tilecc::(?:\(anonymous namespace\)::)?([A-Za-z_:]+)', l)
        if m and ('#' in l or '0x' in l):
            return m.group(1)
    return None


def nvcc_check(nvcc, cu, timeout=600, archs=None):
    """Builds the .cu for both architectures with -Werror all-warnings."""
    obj = cu[:-3] + '.o'
    cmd = [nvcc] + NVCC_FLAGS + list(archs or ARCH_FLAGS) + ['-I' + INCLUDE, '-I' + os.path.dirname(cu), cu, '-o', obj]
    rc, out = run(cmd, timeout)
    shown = ['nvcc', '-std=c++17', '-Werror', 'all-warnings'] + list(archs or ARCH_FLAGS) + \
        ['-I', 'runtime/include', '-c', os.path.basename(cu)]
    if os.path.exists(obj):
        os.remove(obj)
    if rc == 'timeout':
        return Outcome(NVCC_ERROR, 'nvcc-timeout', 'nvcc ran past %d s' % timeout, output=out, command=shown, rc=rc)
    if rc == 0:
        return Outcome(None, command=shown, output=out, rc=rc)
    diags = []
    for l in out.splitlines():
        m = NVCC_DIAG.match(l.strip())
        if m:
            diags.append(m)
    if not diags:
        first = next((l for l in out.splitlines() if 'error' in l.lower()), out.strip()[:200])
        return Outcome(NVCC_ERROR, 'nvcc: ' + nvcc_normalize(first), first, output=out, command=shown, rc=rc)
    # under -Werror all-warnings a warning reads 'error #177-D: ...' (numbered diagnostics ending in -D)
    def is_warning(d):
        return d.group('kind') == 'warning' or (d.group('num') or '').endswith('-D')
    errs = [d for d in diags if not is_warning(d)]
    m = errs[0] if errs else diags[0]
    cls = NVCC_ERROR if errs else NVCC_WARNING
    lines = [int(d.group('line')) for d in diags if d is m] + [int(d.group('line')) for d in diags if d is not m]
    num = m.group('num') or ''
    if cls == NVCC_WARNING:
        sig = 'nvcc warning #%s: %s' % (num, re.sub(r'"[^"]*"', '"_"', m.group('msg')).strip())
    else:
        sig = 'nvcc error: %s' % nvcc_normalize(m.group('msg'))
    return Outcome(cls, sig, m.group(0), lines=lines, output=out, command=shown, rc=rc)


def header_check(h, gxx='g++', cuda_include='/usr/local/cuda/include', timeout=120):
    with tempfile.NamedTemporaryFile('w', suffix='.cpp', delete=False) as f:
        f.write('#include "%s"\nint main() { return 0; }\n' % os.path.abspath(h))
        name = f.name
    try:
        rc, out = run([gxx, '-std=c++17', '-fsyntax-only', '-Wall', '-Werror', '-I' + cuda_include, name], timeout)
    finally:
        os.remove(name)
    if rc == 0:
        return Outcome(None)
    first = next((l for l in out.splitlines() if 'error' in l), out[:200])
    msg = first.split('error:', 1)[-1]
    m = re.search(r"conflicting declaration .*?(\w+)[’']", msg)
    sig = ('header: conflicting declaration of parameter %s' % m.group(1)) if m else 'header: ' + nvcc_normalize(msg)
    return Outcome(HEADER, sig, first, output=out,
                   command=['g++', '-std=c++17', '-fsyntax-only', '-Wall', '-Werror', '(includes the .h)'], rc=rc)


def cu_sections(cu_text):
    """Line ranges of the .cu per generated kernel name: {name: [(first, last)]} (1-based), for
    kernel bodies ('// ---- src -> name ----') and launchers ('cudaError_t launch_name(')."""
    lines = cu_text.split('\n')
    marks = []
    for i, l in enumerate(lines, 1):
        m = re.match(r'// ---- .* -> (\w+) ----', l)
        if m:
            marks.append((i, m.group(1)))
            continue
        m = re.match(r'cudaError_t launch_(\w+)\(', l)
        if m:
            marks.append((i, m.group(1)))
    out = {}
    for k, (start, name) in enumerate(marks):
        end = marks[k + 1][0] - 1 if k + 1 < len(marks) else len(lines)
        out.setdefault(name, []).append((start, end))
    return out


def owners_of_cu_lines(cu_text, lines, knames):
    """Which generated kernels the .cu lines belong to (a name_aligned variant belongs to name)."""
    secs = cu_sections(cu_text)
    found = set()
    for ln in lines:
        for name, ranges in secs.items():
            if any(a <= ln <= b for a, b in ranges):
                base = name
                # Variants and renamed symbols: k_aligned, k_sm90a, expf_kernel (a kernel named
                # like a function the device code calls), and combinations.
                changed = True
                while base not in knames and changed:
                    changed = False
                    for suffix in ('_aligned', '_sm90a', '_kernel'):
                        if base.endswith(suffix):
                            base = base[:-len(suffix)]
                            changed = True
                found.add(base)
    return found
