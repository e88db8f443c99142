# lib.sh: helpers for the integration tests. Each test makes a throwaway
# folder the server's user can reach, runs the real eicbench against a real
# cluster in it, and prints TAP-like "ok" / "not ok" lines.
EB=${EB:-$(pwd)/eicbench}
T=$(mktemp -d /var/tmp/eicbench-it.XXXXXX)
chmod 755 "$T"
n=0
nfail=0
cleanup_dirs=""

cleanup() {
	for d in $cleanup_dirs; do
		"$EB" server stop --datadir "$d" >/dev/null 2>&1
	done
	rm -rf "$T"
}
trap cleanup EXIT

# ok DESCRIPTION COMMAND...: the command must succeed
ok() {
	desc=$1; shift
	n=$((n + 1))
	if out=$("$@" 2>&1); then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		printf "%s\n" "$out" | sed 's/^/#   /'
		nfail=$((nfail + 1))
	fi
}

# fails STATUS PATTERN DESCRIPTION COMMAND...: exit STATUS and stderr matching PATTERN
fails() {
	want=$1; pat=$2; desc=$3; shift 3
	n=$((n + 1))
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" -eq "$want" ] && printf "%s\n" "$out" | grep -q -- "$pat"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc (exit $rc, wanted $want and /$pat/)"
		printf "%s\n" "$out" | sed 's/^/#   /'
		nfail=$((nfail + 1))
	fi
}

# same DESCRIPTION GOT WANT
same() {
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1: got '$2', wanted '$3'"
		nfail=$((nfail + 1))
	fi
}

# cluster NAME PORT: init and start a managed cluster in $T/NAME
cluster() {
	"$EB" server init --datadir "$T/$1" --port "$2" >/dev/null &&
		"$EB" server start --datadir "$T/$1" >/dev/null
	cleanup_dirs="$cleanup_dirs $T/$1"
}

# sql DATADIR PORT QUERY: one value from the suite's database
sql() {
	psql -X -At -h "$1" -p "$2" -U postgres -d eicbench -c "$3"
}
