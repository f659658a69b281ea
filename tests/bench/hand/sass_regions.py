#!/usr/bin/env python3
"""Warp-state samples of one kernel by SASS region, from Nsight Compute's source page:

  ncu --kernel-name regex:NAME --launch-count 1 --set full --import-source no \\
      --page source --csv --print-source sass ./binary > src.csv
  sass_regions.py src.csv [MIN_HGMMA]

The key loop is the smallest backward-branch range holding at least MIN_HGMMA (16) HGMMA
instructions; the samples before it, in it and after it are split by stall reason, then the
instructions with the most samples are listed. The function's text starts with the producer's
part in warp-specialised kernels: its waits (the producer idles by design) count as "before"."""
import collections
import csv
import re
import sys


def main():
    lines = open(sys.argv[1]).read().split('\n')
    need = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    first = next(i for i, l in enumerate(lines) if l.startswith('"Address"'))
    rows = [r for r in csv.DictReader(lines[first:]) if r.get('Address')]
    addr = [int(r['Address'], 16) for r in rows]
    src = [r['Source'].strip() for r in rows]
    samples = [int(r['Warp Stall Sampling (All Samples)'] or 0) for r in rows]
    total = sum(samples) or 1
    index = {a: j for j, a in enumerate(addr)}
    loops = []
    for j, s in enumerate(src):
        m = re.search(r'BRA\s+0x([0-9a-f]+)', s)
        t = int(m.group(1), 16) if m else None
        if t is not None and t in index and index[t] < j:
            loops.append((index[t], j, sum('HGMMA' in src[k] for k in range(index[t], j + 1))))
    reasons = [k for k in rows[0] if k.startswith('stall_') and 'Not Issued' not in k]

    def region(a, b, name):
        c = collections.Counter()
        for k in range(a, b):
            for r in reasons:
                c[r] += int(rows[k][r] or 0)
        top = ', '.join('%s %.1f%%' % (r[6:], 100 * v / total) for r, v in c.most_common(6))
        print('%-12s %5.1f%% of samples: %s' % (name, 100 * sum(samples[a:b]) / total, top))

    key = [l for l in loops if l[2] >= need]
    print('%d instructions, %d samples' % (len(rows), total))
    if not key:
        sys.exit('no backward branch encloses %d HGMMA' % need)
    a, b, _ = min(key, key=lambda l: l[1] - l[0])
    print('key loop: instructions %d..%d (%d)' % (a, b, b - a + 1))
    region(0, a, 'before loop')
    region(a, b + 1, 'key loop')
    region(b + 1, len(rows), 'after loop')
    for title, pool in (('in the key loop', range(a, b + 1)), ('outside it', [k for k in range(len(rows)) if not a <= k <= b])):
        print('most samples %s:' % title)
        for k in sorted(sorted(pool, key=lambda k: -samples[k])[:20]):
            print('  %5d %5.2f%%  %s' % (k, 100 * samples[k] / total, src[k][:90]))


if __name__ == '__main__':
    main()
