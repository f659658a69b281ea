"""The textual IR round-trips: for each kernel file, what tilecc prints at each level
(--emit=ir, ir-layout, gpu-ir) reads back through tilecc-opt (no passes) unchanged. The
files and levels run in parallel, one per core; the report keeps their order."""
import concurrent.futures, difflib, os, subprocess, sys

tilecc, opt = sys.argv[1], sys.argv[2]


def check(src, level):
    """The failure's text, or '' where the level round-trips."""
    printed = subprocess.run([tilecc, "--emit=" + level, src], capture_output=True, text=True)
    if printed.returncode != 0:
        return f"{src} --emit={level}: tilecc failed:\n{printed.stderr}\n"
    again = subprocess.run([opt, "-"], input=printed.stdout, capture_output=True, text=True)
    if again.returncode != 0 or again.stdout != printed.stdout:
        diff = list(difflib.unified_diff(printed.stdout.splitlines(True), again.stdout.splitlines(True), "printed", "reparsed"))[:40]
        return f"{src} --emit={level}: does not round-trip (tilecc-opt exit {again.returncode})\n{again.stderr}" + "".join(diff)
    return ""


jobs = [(src, level) for src in sys.argv[3:] for level in ("ir", "ir-layout", "gpu-ir")]
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
    results = list(pool.map(lambda j: check(*j), jobs))
failed = [r for r in results if r]
sys.stdout.writelines(failed)
print(f"{len(sys.argv) - 3} files, {len(failed)} failures")
sys.exit(1 if failed else 0)
