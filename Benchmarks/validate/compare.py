#!/usr/bin/env python3
"""Compares two `validate --report jsonl` reports marker by marker.

    python3 compare.py A.jsonl B.jsonl [--show N]      (- reads one of them from stdin)

Lines are compared as text first; a differing pair is parsed and compared as JSON (id, x, y, valid, reason,
regions with their order), so a difference is either a real answer difference or formatting only
(e.g. 40 vs 40.0). Prints the counts and the first N differences. Exit 0 when every marker has the same
answer (formatting differences are reported but tolerated), 1 otherwise, 2 on usage errors.
"""

import argparse
import json
import sys
from itertools import zip_longest


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--show", type=int, default=5, help="how many differences to print (default 5)")
    args = ap.parse_args()

    total = answer_diffs = format_diffs = 0
    shown = 0
    def open_report(path):
        return sys.stdin if path == "-" else open(path, "r", encoding="utf-8")

    with open_report(args.a) as fa, open_report(args.b) as fb:
        for n, (la, lb) in enumerate(zip_longest(fa, fb), start=1):
            total += 1
            if la == lb:
                continue
            if la is None or lb is None:
                answer_diffs += 1
                if shown < args.show:
                    shown += 1
                    which = args.a if la is None else args.b
                    print(f"line {n}: {which} has ended; the other has: {(la or lb).rstrip()}")
                continue
            try:
                ja, jb = json.loads(la), json.loads(lb)
            except json.JSONDecodeError as e:
                answer_diffs += 1
                if shown < args.show:
                    shown += 1
                    print(f"line {n}: not JSON ({e})\n  A: {la.rstrip()}\n  B: {lb.rstrip()}")
                continue
            if ja == jb:
                format_diffs += 1
                kind = "format only"
            else:
                answer_diffs += 1
                kind = "answer"
            if shown < args.show:
                shown += 1
                print(f"line {n} ({kind}):\n  A: {la.rstrip()}\n  B: {lb.rstrip()}")
    same = total - answer_diffs - format_diffs
    print(f"{total} markers: {same} identical lines, {answer_diffs} different answers, "
          f"{format_diffs} formatting-only differences")
    sys.exit(0 if answer_diffs == 0 else 1)


if __name__ == "__main__":
    main()
