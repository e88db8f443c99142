# Faults in a probe, in both forms (a file; a relation of the managed
# cluster): SIGINT and SIGKILL right after its first point was written
# (EICBENCH_FAULT stops it there). After each: the points written are whole
# lines, none torn or repeated; for the relation form the server's settings
# are as they were, no journal is left and the data set is the same; and the
# next probe runs.
. tests/it/lib.sh
plan 31
D=$T/pg
P=54463
cluster pg $P
q() { sql "$D" $P "$1"; }

says "load 300000 rows" "^data set: test, major 0..300000 (300001 rows)" "$EB" load --datadir "$D" --rows 300000
settings=$(settings_of "$D" $P)
data=$(dataset_of "$D" $P)
head -c $((16 << 20)) /dev/urandom >"$T/file"
points="--engine psync,fadvise --depth 1,4 --count 2000"

k=0
for form in file relation; do
	if [ $form = file ]; then what="--file $T/file"; else what="--datadir $D --relation test"; fi
	for sig in INT KILL; do
		k=$((k + 1))
		S=$T/p$k
		fault "probe, $form form: SIG$sig after its first point"
		EICBENCH_FAULT=record:append "$EB" probe $what $points --out "$S" >/dev/null 2>"$S.err" &
		pp=$!
		if ! stopped_at $pp; then
			same "the probe got to its first point" "$(cat "$S.err")" "(stopped there)"
			held; continue
		fi
		head=$(md5sum <"$S/points.jsonl")
		if [ $sig = INT ]; then
			interrupt $pp
			same "the interrupted probe exits 130 (128 + SIGINT)" "$?" 130
			ok "it says where the points are" grep "interrupted; the points so far are in $S" "$S.err"
		else
			slay $pp
		fi
		same "the first point kept byte for byte, whole and once" "$(jq -c '[.engine, .depth]' "$S/points.jsonl" | tr '\n' ' ')$(md5sum <"$S/points.jsonl")" "[\"psync\",1] $head"
		same "no torn line (the file ends with its last point)" "$(tail -c 1 "$S/points.jsonl" | od -An -c | tr -d ' ')" '\n'
		ok "its meta.json is whole" jq -e .command_line "$S/meta.json"
		if [ $form = relation ]; then
			unchanged "$D" $P "$settings" "$data"
		fi
		says "the next probe runs" "^fadvise " "$EB" probe $what $points --out "$S.next"
		same "and records all its points" "$(wc -l <"$S.next/points.jsonl")" 3
		held
	done
done

[ "$nfail" -eq 0 ]
