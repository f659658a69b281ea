#!/usr/bin/env python3
"""Phase (b) of the GPU batch, on the GPU machine: runs fuzz_batch over every kernel and
restarts it after a kernel that hangs or loses the CUDA context, so that one bad kernel costs
one result. Writes results.txt (one line per kernel, then the mismatches in detail, then a
summary) and exits 1 when any kernel mismatched, hung or failed on the GPU.

  python3 run.py [--binary ./fuzz_batch] [--timeout 60] [--results results.txt] [extra binary args]
"""
import argparse
import os
import re
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--binary', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fuzz_batch'))
    ap.add_argument('--timeout', type=int, default=60, help='seconds per kernel before it counts as a hang')
    ap.add_argument('--results', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'results.txt'))
    ap.add_argument('--from', dest='first', type=int, default=0, help='first kernel (to split a batch over processes)')
    ap.add_argument('--to', dest='last', type=int, default=-1, help='one past the last kernel (-1: all)')
    ap.add_argument('args', nargs='*', help='extra arguments for the binary (--dump F / --against F for twin builds)')
    a = ap.parse_args()
    start = a.first
    status = {}       # kernel -> OK | FAIL | HANG | GPU-ERROR | ERROR | CRASH
    order = []
    details = []
    device = ''
    t0 = time.time()
    total = None
    while True:
        cmd = [a.binary, '--from', str(start), '--timeout', str(a.timeout)] + (['--to', str(a.last)] if a.last >= 0 else []) + a.args
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors='replace')
        out = p.stdout
        last_begin = None
        cur = None
        for line in out.splitlines():
            m = re.match(r'kernels (\d+), running', line)
            if m:
                total = int(m.group(1))
                continue
            if line.startswith('device:'):
                device = line
                continue
            m = re.match(r'BEGIN (\d+) (\S+)', line)
            if m:
                last_begin = (int(m.group(1)), m.group(2))
                cur = m.group(2)
                if cur not in status:
                    order.append(cur)
                status[cur] = 'RUNNING'
                continue
            m = re.match(r'(OK|FAIL|ERROR) (\d+) (\S+)', line)
            if m:
                status[m.group(3)] = m.group(1)
                last_begin = None
                continue
            if line.startswith(('MISMATCH', 'TWIN-ERROR', 'HANG', 'GPU-ERROR', 'MISSING')) or line.startswith('    '):
                details.append(line)
                if line.startswith('HANG') and cur:
                    status[cur] = 'HANG'
                if line.startswith('GPU-ERROR') and cur:
                    status[cur] = 'GPU-ERROR'
            if line.startswith('no CUDA device'):
                print(line)
                return 2
        if last_begin is None or 'SUMMARY' in out:
            break
        # the binary died inside a kernel: record it and go on after it
        idx, name = last_begin
        if status.get(name) == 'RUNNING':
            status[name] = 'CRASH'
            details.append('CRASH %s: the process exited with status %s inside this kernel' % (name, p.returncode))
        start = idx + 1
        if (total is not None and start >= total) or (a.last >= 0 and start >= a.last):
            break
    counts = {}
    for k in order:
        counts[status[k]] = counts.get(status[k], 0) + 1
    with open(a.results, 'w') as f:
        if device:
            f.write(device + '\n')
        for k in order:
            f.write('%-10s %s\n' % (status[k], k))
        f.write('\n'.join(details) + ('\n' if details else ''))
        summary = 'SUMMARY %d kernels in %.0f s: %s' % (len(order), time.time() - t0,
                                                         ', '.join('%s %d' % kv for kv in sorted(counts.items())))
        f.write(summary + '\n')
    for line in details[:60]:
        print(line)
    print(summary)
    print('results: %s' % a.results)
    bad = sum(v for k, v in counts.items() if k != 'OK')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
