#!/bin/sh
# check-layers.sh [ROOT]: the layer check of `make check`. It reads every
# #include "..." of the sources under ROOT/bench and ROOT/io and fails,
# naming the file and the line, when a folder includes one it may not: the
# directions are written once, in the table below (a folder may always
# include its own files). Then, from the built objects' symbols (nm), it
# fails on any two files that use each other (a two-file loop). ROOT
# defaults to the checkout this script is in; the program must be built.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2

# folder            may include (besides its own files)
rules='
io                  -
io/engines          io
bench/cli           io
bench/record        bench/cli io
bench/pg            bench/record bench/cli io
bench/observe       bench/pg bench/record bench/cli io
bench/dataset       bench/observe bench/pg bench/record bench/cli io
bench/tpcb          bench/dataset bench/pg bench/record bench/cli io
bench/probe         bench/dataset bench/observe bench/pg bench/record bench/cli io
bench/report        bench/record bench/cli io
bench/export        bench/report bench/pg bench/record bench/cli io
bench/sweep         bench/report bench/dataset bench/observe bench/pg bench/record bench/cli io
bench/workloads     bench/sweep bench/tpcb bench/report bench/dataset bench/observe bench/pg bench/record bench/cli io io/engines
bench/cmd           bench/workloads bench/sweep bench/export bench/report bench/probe bench/tpcb bench/dataset bench/observe bench/pg bench/record bench/cli io io/engines
bench               bench/cmd bench/cli bench/pg
'

bad=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' "$rules" | awk 'NF' >"$tmp/rules"

# Every project include as: file line folder-of-file folder-of-include
find bench io -name '*.[ch]' ! -name 'sql_embed.c' | sort | while read -r f; do
	grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1 \2/' |
		while read -r line inc; do
			echo "$f $line $(dirname "$f") $(dirname "$inc") $inc"
		done
done >"$tmp/includes"

awk -v rulesfile="$tmp/rules" '
	BEGIN {
		while ((getline l < rulesfile) > 0) {
			n = split(l, w, " ")
			known[w[1]] = 1
			for (i = 2; i <= n; i++)
				ok[w[1] " " w[i]] = 1
		}
	}
	{
		file = $1; line = $2; from = $3; to = $4; inc = $5
		if (!(from in known)) {
			printf "%s:%s: folder %s is not in the layer table of scripts/check-layers.sh\n", file, line, from > "/dev/stderr"
			bad = 1
			next
		}
		if (from == to || (from " " to) in ok)
			next
		printf "%s:%s: %s includes %s: the layer %s may not use %s\n", file, line, file, inc, from, to > "/dev/stderr"
		bad = 1
	}
	END { exit bad }
' "$tmp/includes" || bad=1

# Two-file loops: A uses a symbol B defines and B one that A defines.
objs=$(find bench io -name '*.o' ! -name 'sql_embed.o' | sort)
if [ -z "$objs" ]; then
	echo "check-layers: no objects under $root: build first (make)" >&2
	exit 2
fi
for o in $objs; do
	nm -g --defined-only "$o" | awk -v f="$o" 'NF == 3 && $2 ~ /[TDBRC]/ { print "D", f, $3 }'
	nm -u "$o" | awk -v f="$o" '{ print "U", f, $NF }'
done >"$tmp/syms"
awk '
	$1 == "D" { def[$3] = $2 }
	$1 == "U" { nu++; uf[nu] = $2; us[nu] = $3 }
	END {
		for (i = 1; i <= nu; i++)
			if ((us[i] in def) && def[us[i]] != uf[i]) {
				e[uf[i] " " def[us[i]]] = 1
				why[uf[i] " " def[us[i]]] = us[i]
			}
		for (k in e) {
			split(k, p, " ")
			r = p[2] " " p[1]
			if ((r in e) && p[1] < p[2]) {
				sub(/\.o$/, ".c", p[1]); sub(/\.o$/, ".c", p[2])
				printf "%s <-> %s: a two-file loop (%s uses %s, %s uses %s)\n", p[1], p[2], p[1], why[k], p[2], why[r] > "/dev/stderr"
				bad = 1
			}
		}
		exit bad
	}
' "$tmp/syms" || bad=1

if [ "$bad" -ne 0 ]; then
	echo "check-layers: the layers above are broken (the table is in scripts/check-layers.sh)" >&2
	exit 1
fi
echo "check-layers: $(wc -l <"$tmp/includes") includes in $(cut -d' ' -f1 "$tmp/includes" | sort -u | wc -l) files follow the layer table; no two-file loops among $(echo "$objs" | wc -l) objects"
