"""The textual IR round-trips: for each kernel file, what tilecc prints at each level
(--emit=ir, ir-layout, gpu-ir) reads back through tilecc-opt (no passes) unchanged."""
import subprocess, sys

tilecc, opt = sys.argv[1], sys.argv[2]
failed = 0
for src in sys.argv[3:]:
    for level in ("ir", "ir-layout", "gpu-ir"):
        printed = subprocess.run([tilecc, "--emit=" + level, src], capture_output=True, text=True)
        if printed.returncode != 0:
            print(f"{src} --emit={level}: tilecc failed:\n{printed.stderr}")
            failed += 1
            continue
        again = subprocess.run([opt, "-"], input=printed.stdout, capture_output=True, text=True)
        if again.returncode != 0 or again.stdout != printed.stdout:
            print(f"{src} --emit={level}: does not round-trip (tilecc-opt exit {again.returncode})\n{again.stderr}")
            import difflib
            sys.stdout.writelines(list(difflib.unified_diff(printed.stdout.splitlines(True), again.stdout.splitlines(True), "printed", "reparsed"))[:40])
            failed += 1
print(f"{len(sys.argv) - 3} files, {failed} failures")
sys.exit(1 if failed else 0)
