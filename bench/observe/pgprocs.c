/*
 * pgprocs: list the I/O workers and a leader's parallel workers, and turn
 * their CPU samples into the record's figures; see pgprocs.h.
 */
#include "bench/observe/pgprocs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/observe/pgstats.h"
#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"

int pgprocs_parse(const PGresult *r, struct pgprocs *out)
{
	int pc = PQfnumber(r, "pid"), bt = PQfnumber(r, "backend_type");

	out->n = 0;
	out->hidden = 0;
	out->truncated = false;
	if (pc < 0 || bt < 0)
		return -EPROTO;
	for (int i = 0; i < PQntuples(r); i++) {
		struct pgprocs_proc *p = &out->p[out->n];

		if (PQgetisnull(r, i, bt)) {
			out->hidden++;
			continue;
		}
		if (out->n == PGPROCS_MAX) {
			out->truncated = true;
			break;
		}
		p->pid = (pid_t)atoi(PQgetvalue(r, i, pc));
		snprintf(p->role, sizeof(p->role), "%s", PQgetvalue(r, i, bt));
		if (p->pid > 0)
			out->n++;
	}
	return 0;
}

int pgprocs_list(PGconn *c, pid_t leader, struct pgprocs *out, char *err, size_t errlen)
{
	int v = PQserverVersion(c), ret;
	char lp[16];
	const char *p[] = { leader > 0 ? lp : NULL };
	PGresult *r;

	memset(out, 0, sizeof(*out));
	out->io_workers_possible = v >= 180000;
	if ((ret = pgstats_need_version(v, 130000, "pg_stat_activity.leader_pid", err, errlen)) != 0)
		return ret;
	snprintf(lp, sizeof(lp), "%d", (int)leader);
	r = pgutil_query(c, sql_text("pgstats/procs.sql"), 1, p, err, errlen);
	if (!r)
		return -EIO;
	ret = pgprocs_parse(r, out);
	PQclear(r);
	if (ret < 0)
		snprintf(err, errlen, "pg_stat_activity: no pid or backend_type column");
	if (ret == 0 && out->hidden) {
		snprintf(err, errlen, "pg_stat_activity hides the type of %d processes from this role "
			 "(grant it pg_read_all_stats to see the I/O and parallel workers)", out->hidden);
		ret = -EACCES;
	}
	return ret;
}

int pgprocs_count(const struct pgprocs *p, const char *role)
{
	int n = 0;

	for (int i = 0; i < p->n; i++)
		n += !role || !strcmp(p->p[i].role, role);
	return n;
}

int pgprocs_to_sampler(const struct pgprocs *p, struct sampler_cfg *cfg, int *added_out)
{
	int first = cfg->npids;

	*added_out = 0;
	for (int i = 0; i < p->n && cfg->npids < SAMPLER_MAX_PIDS; i++) {
		cfg->pids[cfg->npids++] = p->p[i].pid;
		(*added_out)++;
	}
	return first;
}

json_t *pgprocs_json(const struct pgprocs *p)
{
	json_t *a = json_array();

	for (int i = 0; i < p->n; i++)
		json_array_append_new(a, json_pack("{s:i, s:s}", "pid", (int)p->p[i].pid,
						   "role", p->p[i].role));
	return a;
}

struct role_sum {
	const char *role;
	int         count;
	double      user_s, system_s, cpu_share;
	double      oncpu_s;            /* schedstat, when every process had it */
	bool        sched;
};

/* Add D to ROLE's sums in SUMS (as many roles as processes at most). */
static void add_role(struct role_sum *sums, int *nsums, const char *role,
		     const struct proc_delta *d)
{
	int i = 0;

	while (i < *nsums && strcmp(sums[i].role, role))
		i++;
	if (i == *nsums)
		sums[(*nsums)++] = (struct role_sum){ .role = role, .sched = true };
	sums[i].count++;
	sums[i].oncpu_s += d->oncpu_s;
	sums[i].sched &= d->have_sched;
	sums[i].user_s += d->user_s;
	sums[i].system_s += d->system_s;
	sums[i].cpu_share += d->cpu_share;
}

static json_t *proc_cpu_json(const struct pgprocs_proc *p, const struct proc_delta *d)
{
	return json_pack("{s:i, s:s, s:o, s:o, s:o, s:o}", "pid", (int)p->pid, "role", p->role,
			 "user_s", d ? json_real(d->user_s) : json_null(),
			 "system_s", d ? json_real(d->system_s) : json_null(),
			 "cpu_share", d ? json_real(d->cpu_share) : json_null(),
			 "oncpu_s", d && d->have_sched ? json_real(d->oncpu_s) : json_null());
}

json_t *pgprocs_cpu_json(const struct pgprocs *p, const struct sampler *sm, int first,
			 int added, uint64_t t0, uint64_t t1)
{
	struct role_sum sums[PGPROCS_MAX];
	json_t *procs = json_array(), *by = json_object();
	int nsums = 0;

	for (int i = 0; i < added && i < p->n; i++) {
		struct proc_delta d;
		bool ok = sampler_proc_window(sm, first + i, t0, t1, &d) == 0;

		json_array_append_new(procs, proc_cpu_json(&p->p[i], ok ? &d : NULL));
		if (ok)
			add_role(sums, &nsums, p->p[i].role, &d);
	}
	for (int i = 0; i < nsums; i++)
		json_object_set_new(by, sums[i].role,
				    json_pack("{s:i, s:f, s:f, s:f, s:o}", "count", sums[i].count,
					      "user_s", sums[i].user_s, "system_s", sums[i].system_s,
					      "cpu_share", sums[i].cpu_share,
					      "oncpu_s", sums[i].sched ? json_real(sums[i].oncpu_s) : json_null()));
	return json_pack("{s:o, s:o}", "procs", procs, "by_role", by);
}
