#!/usr/bin/env python3
"""The table and the plot of tests/bench/outcomes.sh.

    outcomes_report.py [--no-plot] RAW CASES OUTDIR

RAW holds "run CASE SIDE ROUND MS OOM" lines, each followed by its tasks'
"task outcome=WORD peak_kib=N threads=N" lines; CASES the script's
"CASE KIND CPUS SHAPE..." lines.  Writes OUTDIR/outcomes.tsv (one row per
run), OUTDIR/outcomes.md (the table, printed too) and OUTDIR/outcomes.svg
(gnuplot; not with --no-plot).
"""
import pathlib
import statistics
import subprocess
import sys

LABELS = {
    "go": "Go 220 MiB live, churned",
    "node": "Node.js 250 MiB live, churned",
    "java": "Java 200 MiB live, churned",
    "blas": "numpy/OpenBLAS, 2 tasks share 2 CPUs",
    "rayon": "Rust rayon, 2 tasks share 2 CPUs",
    "pool": "Python Pool() + numpy, 1 CPU",
    "torch": "PyTorch 1.13 element-wise, 2 CPUs",
    "r": "R mclapply(), 150 MiB a worker",
}
SIDES = {"P": "plain srun", "R": "--governor=runtimes"}


def parse(raw: str):
    runs = []
    for line in raw.splitlines():
        words = line.split()
        if words and words[0] == "run" and len(words) == 6:
            runs.append({"case": words[1], "side": words[2], "round": int(words[3]),
                         "ms": int(words[4]), "oom": int(words[5]), "tasks": []})
        elif words and words[0] == "task" and runs:
            runs[-1]["tasks"].append(dict(w.split("=", 1) for w in words[1:] if "=" in w))
    return runs


def outcome(run) -> str:
    got = {t.get("outcome", "none") for t in run["tasks"]} or {"none"}
    for word in ("killed", "runtime_oom", "timeout"):
        if word in got:
            return word
    if run["oom"]:
        return "killed"
    return "finished" if got == {"finished"} else "/".join(sorted(got))


def main() -> int:
    args = sys.argv[1:]
    plot_it = args[:1] != ["--no-plot"]
    if not plot_it:
        args = args[1:]
    raw, cases_text, outdir = args[0], args[1], pathlib.Path(args[2])
    cases = [(w[0], w[1], int(w[2]), " ".join(w[3:]))
             for w in (line.split() for line in cases_text.splitlines()) if w]
    runs = parse(pathlib.Path(raw).read_text())
    with open(outdir / "outcomes.tsv", "w") as tsv:
        tsv.write("case\tside\tround\twall_ms\tslurm_oom_kills\toutcome\tpeak_mib\tthreads\n")
        for r in runs:
            peak = max((int(t.get("peak_kib") or 0) for t in r["tasks"]), default=0) // 1024
            threads = sum(int(t.get("threads") or 0) for t in r["tasks"])
            tsv.write(f"{r['case']}\t{r['side']}\t{r['round']}\t{r['ms']}\t{r['oom']}\t"
                      f"{outcome(r)}\t{peak}\t{threads}\n")
    rows = ["| program | step | side | finished | OOM-killed (Slurm's count) | runtime's own OOM "
            "| timed out (thrashing) | wall s (median) | peak MiB (largest process) "
            "| threads per CPU |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    plot = []
    for name, kind, cpus, shape in cases:
        bars = []
        for side in ("P", "R"):
            mine = [r for r in runs if r["case"] == name and r["side"] == side]
            if not mine:
                continue
            n = len(mine)
            words = [outcome(r) for r in mine]
            wall = statistics.median(r["ms"] for r in mine) / 1000
            peak = statistics.median(max((int(t.get("peak_kib") or 0) for t in r["tasks"]),
                                         default=0) for r in mine) / 1024
            tpc = statistics.median(sum(int(t.get("threads") or 0) for t in r["tasks"])
                                    for r in mine) / cpus
            kills = sum(1 for r in mine if r["oom"] or outcome(r) == "killed")
            rows.append(f"| {LABELS.get(name, name)} | `{shape}` | {SIDES[side]} | "
                        f"{words.count('finished')}/{n} | {kills}/{n} | "
                        f"{words.count('runtime_oom')}/{n} | {words.count('timeout')}/{n} | "
                        f"{wall:.2f} | {peak:.0f} | "
                        f"{'-' if kind == 'memory' else f'{tpc:g}'} |")
            bars.append((wall, bar_label(words, kills, n)))
        if len(bars) == 2:
            plot.append((LABELS.get(name, name), bars))
    table = "\n".join(rows)
    (outdir / "outcomes.md").write_text(table + "\n")
    print(table)
    if plot_it:
        write_plot(plot, outdir)
    return 0


def bar_label(words, kills: int, n: int) -> str:
    """"finished", or what became of the runs that did not finish."""
    if words.count("finished") == n:
        return "finished"
    parts = [f"{kills}/{n} OOM-killed"] if kills else []
    for word, text in (("runtime_oom", "out of memory"), ("timeout", "thrashing")):
        if words.count(word):
            parts.append(f"{words.count(word)}/{n} {text}")
    return ", ".join(parts) or f"{n - words.count('finished')}/{n} failed"


def write_plot(plot, outdir: pathlib.Path) -> None:
    """Median wall time of each side, each bar labelled with its outcome."""
    data = outdir / "outcomes.dat"
    with open(data, "w") as f:
        for i, (label, bars) in enumerate(plot):
            (pw, pl), (rw, rl) = bars
            f.write(f'{i} "{label}" {pw:.3f} "{pl}" {rw:.3f} "{rl}"\n')
    top = max((w for _, bars in plot for w, _ in bars), default=1) * 1.35
    script = f"""
set terminal svg size 960,440 dynamic font "sans,11" background rgb "white"
set output "{outdir / 'outcomes.svg'}"
set title "The same programs in the same Slurm steps, plain and with --governor=runtimes\\n(a run that did not finish is timed until it ended)"
set ylabel "wall time, s (median)"
set bmargin 9
set rmargin 22
set yrange [0:{top:.2f}]
set style fill solid 0.8 border -1
set boxwidth 0.35
set xtics rotate by -20 left nomirror
set key top left
set grid ytics
plot "{data}" using ($1-0.19):3:xtic(2) with boxes lc rgb "#c0504d" title "plain srun", \\
     "" using ($1+0.19):5 with boxes lc rgb "#4f81bd" title "--governor=runtimes", \\
     "" using ($1-0.19):3:4 with labels rotate by 90 left offset 0,0.5 font ",9" notitle, \\
     "" using ($1+0.19):5:6 with labels rotate by 90 left offset 0,0.5 font ",9" notitle
"""
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


if __name__ == "__main__":
    sys.exit(main())
