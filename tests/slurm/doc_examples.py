#!/usr/bin/env python3
"""The docs' examples held to the tool's real output (issue 36).

An example in docs/*.md is a fenced block right after a marker line

    <!-- example NAME: ... -->

whose "$ " lines show the command and whose other lines are its output,
where a line "..." stands for any number of lines left out.  The e2e case
doc_examples.sh runs each example's command in a real step and hands the
output here:

    doc_examples.py check  DOCS_DIR OUT_DIR [NOT_HERE]  # every example matches
    doc_examples.py update DOCS_DIR OUT_DIR [NOT_HERE]  # rewrite them from OUT_DIR

NOT_HERE: a comma list of examples this machine cannot run (the case says
which fact of the machine stops them); they are left as they are.

OUT_DIR holds one file per example, NAME.out.  An output matches when each
line of the example, numbers masked and runs of blanks squeezed, is found in
order in the output, the example's lines consecutive except across "...":
the figures of a small test node differ from machine to machine, the words,
labels, fields and their order may not.  update keeps the example's
selection (its "..." and the lines it shows) and puts the real lines in;
an example that no longer matches is replaced by the whole output.
"""
import pathlib
import re
import sys

MARKER = re.compile(r"^<!-- example ([a-z0-9_-]+):")
NUMBER = re.compile(r"\d+(\.\d+)?")
UNIT = re.compile(r"# (B|KiB|MiB|GiB|TiB)\b")


def mask(line: str) -> str:
    return " ".join(UNIT.sub("# U", NUMBER.sub("#", line)).split())


def examples(doc: pathlib.Path):
    """(name, first, last) of each example: the block's lines first..last-1."""
    lines = doc.read_text().split("\n")
    found = []
    for i, line in enumerate(lines):
        m = MARKER.match(line)
        if not m:
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            sys.exit(f"{doc}:{i + 1}: example {m.group(1)}: no fenced block after the marker")
        end = next((j for j in range(i + 2, len(lines)) if lines[j].startswith("```")), None)
        if end is None:
            sys.exit(f"{doc}:{i + 1}: example {m.group(1)}: the block is not closed")
        found.append((m.group(1), i + 2, end))
    return lines, found


def match(shown: list[str], out: list[str]):
    """The output line each shown line matched (None for "$ " and "..."),
    or None when the example does not match."""
    masked = [mask(o) for o in out]
    placed, pos, free = [], 0, True
    for line in shown:
        if line.startswith("$ "):
            placed.append(None)
            continue
        if line == "...":
            placed.append(None)
            free = True
            continue
        want = mask(line)
        if free:
            hit = next((k for k in range(pos, len(out)) if masked[k] == want), None)
        else:
            hit = pos if pos < len(out) and masked[pos] == want else None
        if hit is None:
            return None
        placed.append(hit)
        pos, free = hit + 1, False
    return placed


def main() -> int:
    if len(sys.argv) not in (4, 5) or sys.argv[1] not in ("check", "update"):
        sys.exit("usage: doc_examples.py check|update DOCS_DIR OUT_DIR [NOT_HERE]")
    mode, docs, outs = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    not_here = set(sys.argv[4].split(",")) if len(sys.argv) == 5 and sys.argv[4] else set()
    bad, seen = 0, set()
    for doc in sorted(docs.glob("*.md")):
        lines, found = examples(doc)
        for name, first, last in reversed(found):
            seen.add(name)
            if name in not_here:
                print(f"{doc.name}: example {name}: not run here, left as it is")
                continue
            out_file = outs / f"{name}.out"
            if not out_file.exists():
                print(f"{doc.name}: example {name}: doc_examples.sh did not run it")
                bad += 1
                continue
            out = [o.rstrip() for o in out_file.read_text().rstrip("\n").split("\n")]
            shown = lines[first:last]
            placed = match(shown, out)
            if placed is None:
                print(f"{doc.name}: example {name} is not what the tool prints now; "
                      f"run doc_examples.sh with GOV_DOC_EXAMPLES=update. The tool printed:")
                print("\n".join("    " + o for o in out))
                bad += 1
                new = [s for s in shown if s.startswith("$ ")] + out
            else:
                new = [s if k is None else out[k] for s, k in zip(shown, placed)]
            lines[first:last] = new
        if mode == "update":
            doc.write_text("\n".join(lines))
    missing = sorted(p.stem for p in outs.glob("*.out") if p.stem not in seen)
    for name in missing:
        print(f"example {name}: run but no doc shows it")
    bad += len(missing)
    if mode == "update":
        print(f"updated the examples of {docs}")
        return 0
    print(f"{len(seen - not_here)} examples checked, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
