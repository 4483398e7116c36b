#!/usr/bin/env python3
"""Hold the installed documentation to the installed files (docs/install.md,
"The documentation"): in every Markdown page of the packages' doc
directories, every relative link resolves to an installed file; every
absolute path of an installed package that a page names (/usr/..., /etc/slurm
files the pages tell a site to install aside) exists; every contrib/ file a
page names is installed, by its file name, under some doc directory or in
the packages (the build recipes under contrib/debian and contrib/rpm are
the source tree's).  Prints one line per problem and exits 1 when there is
one; prints what it checked otherwise.

usage: installed_docs.py PACKAGE...   (as dpkg -L lists them)
"""
import os
import re
import subprocess
import sys

files = set()
for pkg in sys.argv[1:]:
    out = subprocess.run(["dpkg", "-L", pkg], capture_output=True, text=True, check=True).stdout
    files.update(l for l in out.splitlines() if os.path.isfile(l))
pages = sorted(f for f in files if f.startswith("/usr/share/doc/") and f.endswith(".md"))
names = {os.path.basename(f) for f in files}
problems, links, paths, contrib = [], 0, 0, 0
# The paths a site makes itself, following the pages (the TaskProlog's and
# the exporter's installed copies, the report directory, the textfile one).
# contrib/ files that build, package or test the project: the source tree's.
SOURCE_ONLY = ("contrib/debian", "contrib/rpm", "contrib/slurm-plugindir", "contrib/completion",
               "contrib/python/tests", "contrib/python/run-tests.sh", "contrib/python/pyproject.toml",
               "contrib/python/governor")
made_by_site = ("/etc/slurm/", "/usr/local/sbin/", "/var/log/slurm-governor", "/var/lib/prometheus/",
                "/etc/cron.d/", "/etc/logrotate.d/")
for page in pages:
    text = open(page, encoding="utf-8").read()
    here = os.path.dirname(page)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+://|^#|^mailto:", target):
            continue
        links += 1
        path = os.path.normpath(os.path.join(here, target.split("#")[0]))
        if not os.path.exists(path):
            problems.append("%s: a link to %s, which is not installed (%s)" % (page, target, path))
    for path in set(re.findall(r"(?<![\w.$/-])(/usr/(?:share|lib|bin)/[\w./+-]*[\w/])", text)):
        if "*" in path or "<" in path or "%" in path or path.startswith(made_by_site):
            continue
        # Only this project's: the paths its packages install under.
        if not any(k in path for k in ("governor", "slurm-wlm/governor.so")):
            continue
        paths += 1
        if not os.path.exists(path):
            problems.append("%s: names %s, which is not installed" % (page, path))
    for path in set(re.findall(r"(?<![\w./-])(contrib/[\w./+-]*\w)", text)):
        if path.startswith(SOURCE_ONLY) or ("/" not in path[8:] and "." not in path):
            continue
        contrib += 1
        base = os.path.basename(path)
        # A completion script installs under the tool's name.
        if base not in names and not (path.startswith("contrib/completion/") and
                                      {"governor", "_governor"} & names):
            problems.append("%s: names %s, which no package installs" % (page, path))
for p in problems:
    print(p)
if not pages:
    print("no Markdown page installed under /usr/share/doc")
    sys.exit(1)
print("%d pages: %d links, %d installed paths, %d contrib/ files" % (len(pages), links, paths, contrib))
sys.exit(1 if problems else 0)
