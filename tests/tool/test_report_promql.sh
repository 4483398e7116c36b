#!/usr/bin/env bash
# The admin guide's example PromQL ("Example queries", each a ```promql
# block) against the metrics of real steps' records
# (tests/fixtures/report/jobs.jsonl, a 26.05 run), as Prometheus itself
# evaluates them: each query's answer computed here from the records is
# what `promtool test rules` gets over the series as a scrape stores them
# (node_exporter's job and instance, the records' own job label renamed
# exported_job), and what a live Prometheus on loopback answers after
# scraping the metrics for real; there a query on the job label finds
# nothing and one on slurm_job finds the job, which is why the label is
# slurm_job.
# usage: test_report_promql.sh GOVERNOR PROMTOOL PROMETHEUS SRC
set -uo pipefail
gov=$1 promtool=$2 prometheus=$3 src=$4
records=$src/tests/fixtures/report/jobs.jsonl
guide=$src/docs/admin-guide.md
tmp=$(mktemp -d)
pids=()
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	local p
	for p in ${pids[@]+"${pids[@]}"}; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
# shellcheck source=../lib/assert.sh
source "$(dirname "$0")/../lib/assert.sh"

"$gov" report --prometheus "$records" >"$tmp/governor.prom"
check "the metrics: exit 0" 0 $?
# The queries, one per block, comment lines dropped, lines joined.
python3 - "$guide" >"$tmp/queries.json" <<'EOF'
import json, re, sys
text = open(sys.argv[1]).read()
blocks = re.findall(r"^```promql\n(.*?)^```", text, re.S | re.M)
print(json.dumps([" ".join(l.strip() for l in b.splitlines() if l.strip() and not l.startswith("#"))
                  for b in blocks]))
EOF
check "the guide's example queries" 5 "$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))))' "$tmp/queries.json")"

# Each query's answer from the records alone: {labels: value}, the labels a
# query keeps.
python3 - "$records" "$tmp/queries.json" >"$tmp/expected.json" <<'EOF'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
queries = json.load(open(sys.argv[2]))
def series(r):
    return {"slurm_job": str(r["job"]), "step": r["step"], "node": r["node"], "uid": str(r["uid"])}
def key(labels):
    return json.dumps(labels, sort_keys=True)
def scraped(r):  # as Prometheus stores a sample it scraped
    l = series(r)
    l.update({"exported_job": str(r["job"]), "instance": "node1:9100", "job": "node"})
    return l
answers = []
# 1: one job's OOM kills.
answers.append({key(dict(scraped(r), __name__="governor_step_oom_kills")): r["used"]["oom_kills"]
                for r in recs if r["job"] == 3})
# 2: steps killed for memory per user.
per_uid = {}
for r in recs:
    if r["used"]["oom_kills"]:
        per_uid[str(r["uid"])] = per_uid.get(str(r["uid"]), 0) + 1
answers.append({key({"uid": u}): n for u, n in per_uid.items()})
# 3: CPU efficiency per user, batch steps left out.
cpu, asked = {}, {}
for r in recs:
    if r["step"] != "batch":
        u = str(r["uid"])
        cpu[u] = cpu.get(u, 0) + r["used"]["cpu_s"]
        asked[u] = asked.get(u, 0) + r["elapsed_s"] * r["budget"]["cpus"]
answers.append({key({"uid": u}): cpu[u] / asked[u] for u in cpu})
# 4: batch steps under a quarter of the time limit.
answers.append({key({k: v for k, v in scraped(r).items()}): r["elapsed_s"] / r["time_limit_s"]
                for r in recs if r["step"] == "batch" and r["elapsed_s"] / r["time_limit_s"] < 0.25})
# 5: the memory_near_limit findings.
answers.append({key(dict(scraped(r), __name__="governor_step_finding", finding="memory_near_limit")): 1
                for r in recs if "memory_near_limit" in r["findings"]})
print(json.dumps([{"query": q, "answer": a} for q, a in zip(queries, answers)]))
EOF

# promtool test rules, over the series a scrape of the file stores.
python3 - "$tmp/governor.prom" "$tmp/expected.json" >"$tmp/test.json" <<'EOF'
import json, re, sys
series = []
for line in open(sys.argv[1]):
    m = re.match(r'^(\w+)\{(.*)\} (\S+)$', line.strip())
    if not m:
        continue
    labels = dict(re.findall(r'(\w+)="([^"]*)"', m.group(2)))
    labels["exported_job"] = labels.pop("job")
    labels.update({"job": "node", "instance": "node1:9100"})
    sel = ",".join('%s="%s"' % kv for kv in sorted(labels.items()))
    series.append({"series": "%s{%s}" % (m.group(1), sel), "values": "%sx20" % m.group(3)})
tests = []
for q in json.load(open(sys.argv[2])):
    tests.append({"expr": q["query"], "eval_time": "10m", "exp_samples": [
        {"labels": "{%s}" % ",".join('%s="%s"' % kv for kv in sorted(json.loads(k).items()) if kv[0] != "__name__")
         if "__name__" not in json.loads(k) else
         "%s{%s}" % (json.loads(k)["__name__"], ",".join('%s="%s"' % kv for kv in sorted(json.loads(k).items()) if kv[0] != "__name__")),
         "value": v} for k, v in q["answer"].items()]})
print(json.dumps({"rule_files": [], "evaluation_interval": "1m", "tests": [
    {"interval": "1m", "input_series": series, "promql_expr_test": tests}]}))
EOF
out=$(cd "$tmp" && "$promtool" test rules test.json 2>&1)
if [[ $? -eq 0 && $out == *SUCCESS* ]]; then
	pass "promtool test rules: every example query gives the records' answer"
else
	fail "promtool test rules: every example query gives the records' answer" "$out"
fi

# A live Prometheus scraping the file on loopback, as node_exporter would
# serve it: the job label is Prometheus's own.
mkdir "$tmp/www"
cp "$tmp/governor.prom" "$tmp/www/metrics"
python3 -m http.server --bind 127.0.0.1 0 --directory "$tmp/www" >"$tmp/http.log" 2>&1 &
pids+=($!)
port_of() { # LOG: the port a server said it listens on
	local deadline=$((SECONDS + 30)) p
	while ((SECONDS < deadline)); do
		p=$(grep -oE 'port [0-9]+|127\.0\.0\.1:[0-9]+' "$1" 2>/dev/null | grep -oE '[0-9]+$' | head -1)
		[[ -n $p ]] && { echo "$p"; return 0; }
		sleep 0.1
	done
	return 1
}
http=$(port_of "$tmp/http.log")
check "a metrics server on loopback" 0 $?
prom_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat >"$tmp/prometheus.yml" <<EOF
global: {scrape_interval: 1s}
scrape_configs:
  - job_name: node
    static_configs: [{targets: ['127.0.0.1:$http']}]
EOF
"$prometheus" --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address="127.0.0.1:$prom_port" >"$tmp/prometheus.log" 2>&1 &
pids+=($!)
api() { # QUERY: the live Prometheus's answer as {labels: value}
	python3 - "http://127.0.0.1:$prom_port/api/v1/query" "$1" <<'EOF'
import json, sys, urllib.parse, urllib.request
url = sys.argv[1] + "?" + urllib.parse.urlencode({"query": sys.argv[2]})
r = json.load(urllib.request.urlopen(url, timeout=10))
print(json.dumps({json.dumps({k: v for k, v in s["metric"].items()}, sort_keys=True): round(float(s["value"][1]), 6)
                  for s in r["data"]["result"]}, sort_keys=True))
EOF
}
deadline=$((SECONDS + 60))
until [[ $(api 'count(governor_step_elapsed_seconds)' 2>/dev/null) == *'": 6'* ]]; do
	((SECONDS < deadline)) || break
	sleep 0.5
done
check "Prometheus scraped the six records' series" 1 "$(api 'count(governor_step_elapsed_seconds)' | grep -c '": 6')"
check "the records' job label arrives as exported_job: a query on job finds nothing" "{}" \
  "$(api 'governor_step_oom_kills{job="3"}')"
check "... one on exported_job finds it" 1 "$(api 'governor_step_oom_kills{exported_job="3"}' | grep -o 'slurm_job' | wc -l)"
while read -r i; do
	q=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[int(sys.argv[2])]["query"])' "$tmp/expected.json" "$i")
	want=$(python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))[int(sys.argv[2])]["answer"]
print(json.dumps({json.dumps({k: v for k, v in json.loads(k).items()}, sort_keys=True): round(float(v), 6)
                  for k, v in a.items()}, sort_keys=True))' "$tmp/expected.json" "$i")
	# A live scrape's instance is the server's address.
	got=$(api "$q" | sed "s/127\\.0\\.0\\.1:$http/node1:9100/g")
	check "live: $q" "$want" "$got"
done < <(seq 0 4)
finish
