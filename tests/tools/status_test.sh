#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# status_test.sh — qcount status on the ledgers of a run of N=14 in 3
# parts: part 1 whole, part 2 cut short (its ledger truncated after some
# records, as a stop leaves it), part 3 not given; then all three (the
# exact total), a silent part (--now later), a damaged tail, two tallies
# of a unit that differ (status 1), and bad input (status 2, one line);
# --html (the page parsed: its figures, its two SVG charts, no script); the
# help of status, merge and show.
# The figures are checked against qcount show and merge of the same files.
# usage: status_test.sh QCOUNT KNOWN LEDGER_EDIT
qcount=$1 known=$2 edit=$3
. "$(dirname "$0")/test_lib.sh"
n=14
want=$(known_total $n)
for k in 1 2 3; do
    "$qcount" $n --part $k/3 --checkpoint "$tmp/p$k" --threads 2 --quiet >"$tmp/sum$k" 2>/dev/null \
        || bad "part $k/3"
done
cp "$tmp/p2" "$tmp/p2.whole"
head -c $((128 + 128 * 40)) "$tmp/p2.whole" >"$tmp/p2"   # the header and 40 records
units=$("$qcount" show --json "$tmp/p1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["plan_units"])')

# ---- part 1 whole, part 2 cut short, part 3 not given
"$qcount" status "$tmp/p1" "$tmp/p2" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && ok || bad "status of 2 parts: rc=$rc $(cat "$tmp/err")"
so_far=$(( $(cat "$tmp/sum1") + $("$qcount" show --json "$tmp/p2" | python3 -c 'import json, sys; print(json.load(sys.stdin)["solutions"])') ))
p1=$("$qcount" show --json "$tmp/p1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["records"])')
covered=$((p1 + 40))
grep -q "^count  *N=$n, engine join, fingerprint [0-9a-f]\{16\}, $units units, in 3 parts\$" "$tmp/out" && ok \
    || bad "status: the count line: $(head -n 1 "$tmp/out")"
grep -q "^coverage  *$covered of $units units " "$tmp/out" && ok || bad "status: coverage: $(cat "$tmp/out")"
grep -q "^solutions  *$so_far so far" "$tmp/out" && ! grep -q "^total" "$tmp/out" && ok \
    || bad "status: solutions so far $so_far: $(cat "$tmp/out")"
grep -q "^3/3 .*(no ledger given)\$" "$tmp/out" && grep -q "^1/3 .*(complete)\$" "$tmp/out" \
    && grep -q "^2/3  *40/" "$tmp/out" && ok || bad "status: the parts: $(cat "$tmp/out")"
grep -q "^$(hostname | cut -c1-20) " "$tmp/out" && ok || bad "status: no line for this host: $(cat "$tmp/out")"
"$qcount" status --json "$tmp/p1" "$tmp/p2" | python3 -c '
import json, sys
units, covered, so_far = map(int, sys.argv[1:4])
o = json.load(sys.stdin)
assert o["units"] == units and o["covered"] == covered and o["missing"] == units - covered, o
assert o["solutions"] == so_far and o["total"] is None and o["complete"] is False, o
assert o["parts"] == 3 and o["parts_not_given"] == ["3/3"], o
assert 0 < o["work_done"] < 1, o
l = {x["part"]: x for x in o["ledgers"]}
assert l["1/3"]["complete"] and l["2/3"]["done"] == 40 and not l["2/3"]["complete"], l
assert not l["2/3"]["silent"], l
h = o["hosts"]
assert sum(x["units"] for x in h) == covered and all(x["cpu_seconds"] >= 0 for x in h), h
assert (o["seconds_left"] is None) == (o["eta"] is None), o
' "$units" "$covered" "$so_far" && ok || bad "status --json of 2 parts"

# silent: judged three hours later, the unfinished part is silent, the whole
# one not (date +%s drops the fraction of a second: 2.9 or 3.0 h)
later=$(( $(date +%s) + 10800 ))
"$qcount" status --now=$later "$tmp/p1" "$tmp/p2" >"$tmp/out" 2>&1
grep -q "^2/3 .*(SILENT for [23]\.[0-9] h)\$" "$tmp/out" && grep -q "^1/3 .*(complete)\$" "$tmp/out" && ok \
    || bad "status --now later: $(cat "$tmp/out")"
"$qcount" status --json --now=$later --stale=86400 "$tmp/p2" \
    | python3 -c 'import json, sys; assert not json.load(sys.stdin)["ledgers"][0]["silent"]' && ok \
    || bad "status --stale=86400 still calls the part silent"

# ---- --html: one page, figures in the DOM, SVG charts, no script
"$qcount" status --html="$tmp/page.html" --refresh=30 "$tmp/p1" "$tmp/p2" >"$tmp/out" 2>&1 \
    && [ ! -s "$tmp/out" ] && [ -z "$(ls "$tmp" | grep 'page.html.new')" ] && ok \
    || bad "status --html: $(cat "$tmp/out")"
python3 - "$tmp/page.html" "$covered" "$units" "$so_far" <<'PY' && ok || bad "status --html: the page"
import html.parser, re, sys, xml.etree.ElementTree as ET
page = open(sys.argv[1]).read()
covered, units, so_far = sys.argv[2:5]
class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.at, self.text, self.tags = {}, None, {}, set()
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        if "id" in a:
            self.ids[a["id"]] = tag
            self.at = a["id"]
            self.text[self.at] = ""
    def handle_data(self, data):
        if self.at:
            self.text[self.at] += data
    def handle_endtag(self, tag):
        if self.at and self.ids[self.at] == tag:
            self.at = None
p = Page()
p.feed(page)
assert "script" not in p.tags, "a script"
assert re.search(r'<meta http-equiv="refresh" content="30">', page), "no refresh"
assert p.text["coverage"].startswith(f"{covered} of {units} units"), p.text["coverage"]
assert p.text["solutions"].startswith(so_far), p.text["solutions"]
assert "total" not in p.ids
rows = re.findall(r'<tr class="(\w+)"><td>([0-9/]+)</td>', page)
assert rows == [("complete", "1/3"), ("counting", "2/3"), ("missing", "3/3")], rows
svgs = re.findall(r"<svg.*?</svg>", page, re.S)
assert len(svgs) == 2, len(svgs)
ns = "{http://www.w3.org/2000/svg}"
units_chart = ET.fromstring(svgs[0])
line = units_chart.find(ns + "polyline").get("points").split()
assert len(line) >= 2, line
rates = ET.fromstring(svgs[1]).findall(ns + "rect")
assert len(rates) >= 1 and all(float(r.get("width")) > 0 for r in rates), rates
PY
# as a browser draws it, where one is installed: the figures in the
# rendered DOM, both charts drawn
if command -v chromium >/dev/null; then
    timeout 60 chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$tmp/page.html" \
        2>/dev/null >"$tmp/dom"
    grep -q "<td id=\"coverage\">$covered of $units units" "$tmp/dom" \
        && [ "$(grep -o '<svg id="[a-z]*-chart"' "$tmp/dom" | wc -l)" = 2 ] \
        && grep -q "<polyline" "$tmp/dom" && ok || bad "status --html in chromium: $(head -c 600 "$tmp/dom")"
else
    echo "status: no chromium, the page not rendered"
fi
"$qcount" status --html="$tmp/page.html" "$tmp/p1" "$tmp/p2.whole" "$tmp/p3" >/dev/null 2>&1 \
    && grep -q "<td id=\"total\">$want</td>" "$tmp/page.html" && ok || bad "status --html of every part"
"$qcount" status --html="$tmp/no/such/dir/page.html" "$tmp/p1" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^qcount: status: --html " "$tmp/err" && ok \
    || bad "status --html into no directory: rc=$rc $(cat "$tmp/err")"

# ---- all three parts: the total, as merge gives it
"$qcount" status "$tmp/p1" "$tmp/p2.whole" "$tmp/p3" >"$tmp/out" 2>&1
grep -q "^total  *$want\$" "$tmp/out" && grep -q "^left  *nothing" "$tmp/out" && ok \
    || bad "status of every part: $(cat "$tmp/out")"
"$qcount" status --json "$tmp/p1" "$tmp/p2.whole" "$tmp/p3" | python3 -c '
import json, sys
o = json.load(sys.stdin)
assert o["complete"] and o["total"] == int(sys.argv[1]) and o["seconds_left"] == 0, o
assert o["work_done"] == 1 and o["parts_not_given"] == [], o
' "$want" && ok || bad "status --json of every part"

# ---- per host and level: part 3 again on another host name (a UTS
# namespace, root only) at the portable level
if unshare --uts true 2>/dev/null; then
    QCOUNT_ISA=portable unshare --uts sh -c 'hostname statushost3 && exec "$@"' sh \
        "$qcount" $n --part 3/3 --checkpoint "$tmp/p3.other" --quiet >/dev/null 2>&1
    "$qcount" status --json "$tmp/p1" "$tmp/p2.whole" "$tmp/p3.other" | python3 -c '
import json, sys
o = json.load(sys.stdin)
h = {(x["host"], x["isa"]): x for x in o["hosts"]}
other = h.pop(("statushost3", "portable"))
assert other["units"] == int(sys.argv[2]) and other["cpu_units"] == other["units"], o
assert sum(x["units"] for x in h.values()) == int(sys.argv[1]) - other["units"], o
assert "statushost3" not in [x[0] for x in h] and o["total"] == int(sys.argv[3]), o
' "$units" "$("$qcount" show --json "$tmp/p3" | python3 -c 'import json, sys; print(json.load(sys.stdin)["records"])')" "$want" \
        && ok || bad "status per host and level"
fi

# ---- a damaged tail is shown, not refused; a unit twice with two tallies
cp "$tmp/p2" "$tmp/torn"
head -c 60 "$tmp/p2.whole" | tail -c 50 >>"$tmp/torn"
"$qcount" status "$tmp/p1" "$tmp/torn" >"$tmp/out" 2>&1 && grep -q "(damaged tail: 50 bytes)" "$tmp/out" \
    && ok || bad "status of a torn ledger: $(cat "$tmp/out")"
"$qcount" $n --checkpoint "$tmp/whole" --quiet >/dev/null 2>&1
first=$("$qcount" show --json "$tmp/p1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["units"][0]["unit"])')
"$edit" "$tmp/whole" "$first" 1 >/dev/null
"$qcount" status "$tmp/p1" "$tmp/whole" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ $rc -eq 1 ] && grep -q "^qcount: status: unit $first has two tallies" "$tmp/err" \
    && grep -q "with tallies that differ" "$tmp/out" && ok || bad "status of two tallies: rc=$rc $(cat "$tmp/err" "$tmp/out")"

# ---- bad input: one line, status 2, nothing on stdout
refused() {   # refused PATTERN ARGS...
    local pattern=$1
    shift
    "$qcount" status "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "$pattern" "$tmp/err" \
        && ok || bad "status $*: rc=$rc $(cat "$tmp/err" "$tmp/out")"
}
"$qcount" 12 --checkpoint "$tmp/n12" --quiet >/dev/null 2>&1
echo "not a ledger" >"$tmp/text"
refused "no ledger given"
refused "belongs to another count" "$tmp/p1" "$tmp/n12"
refused "ledger '$tmp/text'" "$tmp/text"
refused "cannot open" "$tmp/none"
refused "invalid --stale '-1'" --stale=-1 "$tmp/p1"
refused "invalid --now 'x'" --now=x "$tmp/p1"
refused "unknown option" --bogus "$tmp/p1"
"$qcount" status --help >"$tmp/out" 2>&1 && grep -q "^usage: qcount status" "$tmp/out" \
    && grep -q -- "--stale=SECONDS" "$tmp/out" && ok || bad "status --help: $(cat "$tmp/out")"
for c in merge show; do
    "$qcount" $c --help >"$tmp/out" 2>&1 && grep -q "^usage: qcount $c" "$tmp/out" \
        && grep -q "^Exit status: " "$tmp/out" && [ "$(wc -l <"$tmp/out")" -gt 8 ] && ok \
        || bad "$c --help: $(cat "$tmp/out")"
done
report status
