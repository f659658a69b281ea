"""Generated names follow the source, so a local edit gives a local diff: change one
expression of a kernel (here one more scalar operation in softmax's normalisation) and the
generated .cu changes in a few lines per kernel variant, not in the numbering of everything
after the edit."""
import difflib, os, subprocess, sys, tempfile

tilecc, source = sys.argv[1], sys.argv[2]
old, new, per_variant = sys.argv[3], sys.argv[4], int(sys.argv[5])
text = open(source).read()
if old not in text:
    sys.exit(f"the edit's anchor '{old}' is not in {source}")
with tempfile.TemporaryDirectory() as d:
    outs = []
    for i, body in enumerate((text, text.replace(old, new))):
        src = os.path.join(d, f"k{i}.tile.cpp")
        open(src, "w").write(body.replace('#include "', '#include "' + os.path.dirname(os.path.abspath(source)) + "/"))
        cu = os.path.join(d, f"k{i}.cu")
        r = subprocess.run([tilecc, src, "-o", cu, "--header", os.path.join(d, "k.h")], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(r.stderr)
        outs.append(open(cu).read().replace(f"k{i}.tile.cpp", "k.tile.cpp").splitlines())
    changed = [l for l in difflib.unified_diff(outs[0], outs[1], lineterm="", n=0) if l[:1] in "+-" and l[:3] not in ("+++", "---")]
    variants = sum(1 for l in outs[0] if l.startswith("__global__"))
    print(f"{len(changed)} changed lines over {variants} kernel variants ({len(outs[0])} lines)")
    print("\n".join(changed[:60]))
    if len(changed) > per_variant * variants:
        sys.exit(f"more than {per_variant} changed lines per variant: names are not stable under a local edit")
