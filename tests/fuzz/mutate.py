#!/usr/bin/env python3
"""Mutation fuzzer for tilecc: mutates kernel files (the samples and test kernels) at the
token and line level, runs tilecc on each mutant and records every run that crashes (a
signal, or an exit status other than 0, 1 or 2), reports an internal error (status 3), or
hangs. Findings go to OUT/crash-*.tile.cpp with the command's output beside them; each one
becomes a regression test in tests/fuzz/regressions/.

  tests/fuzz/mutate.py --tilecc build/translator/tilecc --seconds 3600 --out /tmp/fuzz
"""
import argparse, glob, os, random, re, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|\d+\.\d*f?|\d+|<<=|>>=|<<|>>|[-+*/%&|^!=<>]=|&&|\|\||::|\S")
NUMBERS = ["0", "1", "-1", "2", "3", "7", "16", "31", "32", "33", "64", "127", "128", "255", "256", "1024", "4096",
           "65536", "2147483647", "-2147483648", "0.5f", "1e30f", "-0.0f", "1e-40f"]
API = ["arange<16>()", "zeros<float, 16, 16>()", "full<int, 32>(3)", "col(arange<8>())", "row(arange<8>())",
       "program_id(0)", "num_programs(1)", "cdiv(7, 2)", "sum(arange<32>())", "trans(zeros<half, 16, 32>())",
       "reshape<4, 4>(arange<16>())", "expand_dims<0>(arange<4>())", "broadcast_to<4, 4>(arange<4>())",
       "where(arange<4>() < 2, 1.0f, 0.0f)", "cast<half>(arange<16>())", "max<1>(zeros<float, 4, 8>())",
       "argmin(arange<8>())", "exp(zeros<float, 8>())", "maximum(arange<8>(), 3)", "barrier()"]
STATEMENTS = ["for (int q = 0; q < 4; ++q) {}", "if (program_id(0) > 1) return;", "while (false) {}",
              "auto z = arange<64>() * 2;", "store(nullptr, 1);", "int u = 1 / 0;", "return;", "break;",
              "{ auto w = zeros<float, 4>(); w += 1.0f; }", "goto end;", "throw 1;", "static int s = 0;"]


def corpus():
    files = glob.glob(os.path.join(ROOT, "samples", "*", "*.tile.cpp"))
    files += glob.glob(os.path.join(ROOT, "tests", "translator", "*.tile.cpp"))
    files += glob.glob(os.path.join(ROOT, "tests", "gpu", "kernels", "*.tile.cpp"))
    return [open(f).read() for f in sorted(files)]


def mutate(text, rnd, pool):
    lines = text.split("\n")
    for _ in range(rnd.randint(1, 4)):
        kind = rnd.randrange(9)
        i = rnd.randrange(len(lines))
        if kind == 0 and len(lines) > 1:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[rnd.randrange(len(lines))])
        elif kind == 2:
            lines.insert(i, rnd.choice(STATEMENTS))
        else:
            toks = TOKEN.findall(lines[i])
            if not toks:
                continue
            j = rnd.randrange(len(toks))
            if kind == 3:
                toks[j] = rnd.choice(NUMBERS)
            elif kind == 4:
                toks[j] = rnd.choice(pool)
            elif kind == 5:
                toks[j] = rnd.choice(API)
            elif kind == 6:
                del toks[j]
            elif kind == 7:
                toks.insert(j, rnd.choice(pool + ["(", ")", "{", "}", ";", ",", "<", ">", "*", "&"]))
            else:
                k = rnd.randrange(len(toks))
                toks[j], toks[k] = toks[k], toks[j]
            lines[i] = " ".join(toks)
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tilecc", required=True)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--out", default="/tmp/tilecc-fuzz")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--timeout", type=float, default=30)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rnd = random.Random(a.seed)
    seeds = corpus()
    pool = sorted(set(t for s in seeds for t in TOKEN.findall(s) if re.match(r"[A-Za-z_]", t)))
    work = os.path.join(a.out, "work")
    os.makedirs(work, exist_ok=True)
    start, runs, findings = time.time(), 0, 0
    stats = {0: 0, 1: 0, 2: 0}
    while time.time() - start < a.seconds:
        text = mutate(rnd.choice(seeds), rnd, pool)
        src = os.path.join(work, "mutant.tile.cpp")
        open(src, "w").write(text)
        for f in glob.glob(os.path.join(work, "mutant.*")):
            if not f.endswith(".tile.cpp"):
                os.remove(f)
        cmd = [a.tilecc, src, "-o", os.path.join(work, "mutant.cu")]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout)
            rc, log = p.returncode, p.stdout + p.stderr
        except subprocess.TimeoutExpired:
            rc, log = "hang", "timed out after %ss" % a.timeout
        runs += 1
        if rc in (0, 1, 2):
            stats[rc] += 1
            if rc != 0 and os.path.exists(os.path.join(work, "mutant.cu")):
                rc, log = "partial-output", "exit %d but mutant.cu was written\n" % p.returncode + log
        if rc not in (0, 1, 2):
            findings += 1
            name = os.path.join(a.out, "crash-%04d.tile.cpp" % findings)
            open(name, "w").write(text)
            open(name + ".log", "w").write("status: %s\n%s" % (rc, log[-4000:]))
            print("finding %d: status %s -> %s" % (findings, rc, name), flush=True)
    print("fuzz: %d runs in %.0f s (seed %d): %d ok, %d rejected, %d usage; %d findings"
          % (runs, time.time() - start, a.seed, stats[0], stats[1], stats[2], findings), flush=True)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
