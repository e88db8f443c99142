#!/bin/sh
# check-layers.sh [ROOT]: the layer check of `make check`. It reads every
# #include "..." of the sources under ROOT/bench and ROOT/io and fails,
# naming the file and the line, when a folder includes one it may not: the
# directions are written once, in the table below (a folder may always
# include its own files). Then, from the built objects' symbols (nm), it
# checks the calls: every symbol an object uses from another object of the
# project must be defined in its own folder or in one the table allows
# (a header can declare what a higher layer defines, so includes alone do
# not show every dependency), but for the exceptions named below with
# their reason; and it fails on any two files that use each other (a
# two-file loop). ROOT defaults to the checkout this script is in; the
# program must be built.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2

# folder            may include (besides its own files)
rules='
io                  -
io/engines          io
io/emulate          io
bench/cli           io
bench/record        bench/cli io
bench/pg            bench/record bench/cli io
bench/observe       bench/pg bench/record bench/cli io io/emulate
bench/dataset       bench/observe bench/pg bench/record bench/cli io io/emulate
bench/tpcb          bench/dataset bench/pg bench/record bench/cli io
bench/probe         bench/dataset bench/observe bench/pg bench/record bench/cli io io/engines io/emulate
bench/judge         bench/record bench/cli io
bench/report        bench/judge bench/record bench/cli io
bench/export        bench/pg bench/record bench/cli io
bench/sweep         bench/judge bench/dataset bench/observe bench/pg bench/record bench/cli io
bench/workloads     bench/sweep bench/tpcb bench/dataset bench/observe bench/pg bench/record bench/cli io io/engines
bench/cmd           bench/workloads bench/sweep bench/export bench/report bench/judge bench/probe bench/tpcb bench/dataset bench/observe bench/pg bench/record bench/cli io io/engines io/emulate
bench               bench/cmd bench/cli bench/pg
'

# Calls across the table, each allowed for a reason:
# folder    folder-it-calls   symbols (an awk pattern)   reason
exceptions='
io          io/engines        ^engine_[a-z]*$            the engine registry (io/engine.c) lists the engines io/engines/ defines, by name
'

bad=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' "$rules" | awk 'NF' >"$tmp/rules"
printf '%s\n' "$exceptions" | awk 'NF' >"$tmp/exceptions"

# Every project include as: file line folder-of-file folder-of-include
# (one grep for all of them: "FILE:LINE:#include "INC"" a line)
find bench io -name '*.[ch]' ! -name 'sql_embed.c' | sort |
	xargs grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' |
	awk -F: '{
		inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
		from = $1; sub(/\/[^\/]*$/, "", from)
		to = inc; if (!sub(/\/[^\/]*$/, "", to)) to = "."
		print $1, $2, from, to, inc
	}' >"$tmp/includes"

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

# Every object's symbols: D FILE SYMBOL (defined), U FILE SYMBOL (used).
objs=$(find bench io -name '*.o' ! -name 'sql_embed.o' | sort)
if [ -z "$objs" ]; then
	echo "check-layers: no objects under $root: build first (make)" >&2
	exit 2
fi
# (one nm for all of them: "FILE.o:[ADDRESS] TYPE SYMBOL" a line)
{
	nm -A -g --defined-only $objs | awk '{ f = $0; sub(/:.*$/, "", f) } $(NF - 1) ~ /^[TDBRC]$/ { print "D", f, $NF }'
	nm -A -u $objs | awk '{ f = $0; sub(/:.*$/, "", f); print "U", f, $NF }'
} >"$tmp/syms"

# Calls: an object's undefined symbols that another object of the project
# defines, by folder against the table.
awk -v rulesfile="$tmp/rules" -v exfile="$tmp/exceptions" '
	BEGIN {
		while ((getline l < rulesfile) > 0) {
			n = split(l, w, " ")
			for (i = 2; i <= n; i++)
				ok[w[1] " " w[i]] = 1
		}
		while ((getline l < exfile) > 0) {
			split(l, w, " ")
			nx++; xfrom[nx] = w[1]; xto[nx] = w[2]; xpat[nx] = w[3]
		}
	}
	function folder(f) { sub(/\/[^\/]*$/, "", f); return f }
	$1 == "D" { def[$3] = $2 }
	$1 == "U" { nu++; uf[nu] = $2; us[nu] = $3 }
	END {
		for (i = 1; i <= nu; i++) {
			if (!(us[i] in def))
				continue
			from = folder(uf[i]); to = folder(def[us[i]])
			if (from == to || (from " " to) in ok)
				continue
			allowed = 0
			for (k = 1; k <= nx; k++)
				if (xfrom[k] == from && xto[k] == to && us[i] ~ xpat[k])
					allowed = 1
			if (allowed)
				continue
			f = uf[i]; g = def[us[i]]
			sub(/\.o$/, ".c", f); sub(/\.o$/, ".c", g)
			printf "%s calls %s of %s: the layer %s may not use %s\n", f, us[i], g, from, to > "/dev/stderr"
			bad = 1
		}
		exit bad
	}
' "$tmp/syms" || bad=1

# Two-file loops: A uses a symbol B defines and B one that A defines.
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
echo "check-layers: $(wc -l <"$tmp/includes") includes in $(cut -d' ' -f1 "$tmp/includes" | sort -u | wc -l) files follow the layer table; the calls of $(echo "$objs" | wc -l) objects follow it too; no two-file loops"
