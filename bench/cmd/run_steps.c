/*
 * run_steps: the steps of `eicbench run` (see run.h), each a library call
 * with the configuration struct its own command builds: the managed
 * cluster made and started (bench/pg/), the data set (bench/dataset/), the
 * check for caches below and the replays and device curve (bench/probe/),
 * the cold sweeps (bench/sweep/runner.h with the bitmap-scan workload).
 * What each shows is what its command shows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/cli/progress.h"
#include "bench/cli/stop.h"
#include "bench/cmd/cmd.h"
#include "bench/cmd/probe_show.h"
#include "bench/cmd/run.h"
#include "bench/dataset/dataset.h"
#include "bench/pg/cluster.h"
#include "bench/pg/lock.h"
#include "bench/probe/probe_cache.h"
#include "bench/probe/probe_rel.h"
#include "bench/report/report.h"
#include "bench/sweep/runner.h"
#include "bench/workloads/workload_bitmap.h"
#include "io/clock.h"

static int say_fail(const char *cmd, int ret, const char *err)
{
	return cmd_fail(cmd, ret, err);
}

/* ---- the server ---- */

static int step_init(struct run *r, struct step *st)
{
	struct server_init_opts io = { .listen = r->o.srv.listen };
	struct server s;
	char err[4096];
	int ret = server_resolve(&r->o.srv, &s, err, sizeof(err));

	(void)st;
	if (ret == 0)
		ret = server_init(&s, &io, err, sizeof(err));
	if (ret == 0)
		cmd_server_said_init(&s, io.listen);
	if (ret == 0)
		ret = lock_hold_cluster(&s, err, sizeof(err));
	return ret < 0 ? say_fail("server init", ret, err) : 0;
}

static int step_start(struct run *r, struct step *st)
{
	struct server s;
	char err[4096];
	double t0 = clock_now_ms();
	int ret = cluster_take(&r->o.srv, &s, CLUSTER_START | CLUSTER_RECOVER, "server", err, sizeof(err));

	(void)st;
	if (ret < 0)
		return say_fail("server start", ret, err);
	cmd_server_said_start(&s, clock_now_ms() - t0);
	return 0;
}

/* ---- the data set ---- */

static int step_load(struct run *r, struct step *st)
{
	struct dataset_cfg dc = { .rows = r->o.rows, .seed = (uint64_t)r->o.seed,
		.recipe = RECIPE_FAST, .stop = &cli_stopped };
	struct dataset_info info;
	struct progress bar;
	struct server s;
	char err[4096] = "";
	int ret = cluster_take(&r->o.srv, &s, CLUSTER_DB | CLUSTER_RECOVER, "load", err, sizeof(err));

	(void)st;
	if (ret < 0)
		return say_fail("load", ret, err);
	progress_init(&bar, stderr);
	ret = dataset_load(&s, &dc, cmd_load_progress, &bar, &info, err, sizeof(err));
	progress_end(&bar);
	if (ret < 0)
		return say_fail("load", ret, err);
	cmd_load_said(&info, false);
	return 0;
}

/* ---- the probes ---- */

static int step_probe(struct run *r, struct step *st)
{
	struct probe_plan plan = { 0 };
	struct probe_out out = { 0 };
	struct probe_show show;
	struct probe_hooks hooks;
	char err[PATH_MAX + 1024];
	int ret = probe_plan_make(&st->probe, &plan, err, sizeof(err));

	if (ret < 0)
		return say_fail("probe", ret, err);
	probe_show_hooks(&show, &plan, &hooks);
	if (st->probe.relation)
		ret = probe_rel_run(&st->probe, &plan, &hooks, r->argc, r->argv, &out, err, sizeof(err));
	else
		ret = probe_cache_dataset(&st->probe, &plan, r->argc, r->argv, &out, err, sizeof(err));
	ret = probe_show_end(ret, &plan, &out, err);
	probe_out_free(&out);
	return ret;
}

/* ---- the sweeps ---- */

static int finish_sweep(const char *dir, char *err, size_t errlen)
{
	return report_sweep_finish(dir, stdout, err, errlen);
}

static int step_sweep(struct run *r, struct step *st)
{
	struct bitmap_cfg b = { .force_bitmap = true, .no_cache_check = !r->o.no_probe };
	struct runner rn = { .stop = &cli_stopped };
	char err[4096];
	int ret = 0;

	rn.cfg = (struct runner_cfg){
		.srv = r->o.srv, .workload = &workload_bitmap, .wcfg = &b, .command = "sweep",
		.runs = (int)r->o.runs, .max_runs = (int)r->o.max_runs, .budget_s = r->o.budget_s,
		/* racing, decided with the queries swept before this one */
		.race = true, .prime = true, .margin = (double)r->o.margin_pct / 100,
		.peers = (const char *const *)st->peers, .npeers = st->npeers,
		.out = st->resume ? NULL : st->out, .resume = st->resume ? st->out : NULL,
		.plan_given = !st->resume,
	};
	if (!st->resume) {
		ret = sweep_grid_add_eic(&rn.cfg.grid, r->eic, err, sizeof(err));
		if (ret == 0)
			ret = query_load(st->query, &b.q, err, sizeof(err));
	}
	if (ret == 0) {
		ret = runner_main(&rn, r->argc, r->argv, finish_sweep, err, sizeof(err));
		ret = cmd_runner_end(&rn, ret, err, false);	/* the run says how to go on */
	} else
		ret = say_fail("sweep", ret, err);
	query_free(&b.q);
	json_decref(b.refs);
	json_decref(b.cache_check);
	return ret;
}

/* ---- the plan ---- */

bool run_step_is_server(const struct step *s)
{
	return s->run == step_init || s->run == step_start;
}

bool run_step_is_sweep(const struct step *s)
{
	return s->run == step_sweep;
}

static struct step *add(struct run *r, const char *name, const char *sub,
			int (*fn)(struct run *, struct step *))
{
	struct step *s = &r->steps[r->nsteps++];

	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->sub, sizeof(s->sub), "%s", sub);
	snprintf(s->out, sizeof(s->out), "%s/%s", r->dir, sub);
	s->run = fn;
	return s;
}

/* A probe step over the run's server, writing into its subfolder. */
static struct step *add_probe(struct run *r, const char *name, const char *sub)
{
	struct step *s = add(r, name, sub, step_probe);

	s->probe = (struct probe_cfg){ .srv = r->o.srv, .out = s->out, .seed = -1,
		.stop = &cli_stopped };
	s->probe.srv.listen = NULL;		/* a probe neither makes nor restarts a server */
	s->probe.srv.restart_cmd = NULL;
	return s;
}

static void plan_server(struct run *r)
{
	struct stat st;
	char marker[PATH_MAX];

	if (r->o.srv.dsn)
		return;
	snprintf(marker, sizeof(marker), "%s/eicbench.json", r->o.srv.datadir);
	if (stat(marker, &st) < 0)
		add(r, "create the managed cluster", "", step_init);
	add(r, "start the server", "", step_start);
}

/* One sweep per query; each races with the ones before it as peers. */
static void plan_sweeps(struct run *r)
{
	struct step *before[RUN_MAX_QUERIES];

	for (int q = 0; q < r->nqueries; q++) {
		char name[64], sub[64];
		struct step *s;

		snprintf(name, sizeof(name), "sweep %s", r->queries[q]);
		snprintf(sub, sizeof(sub), "sweep-%s", r->queries[q]);
		s = before[q] = add(r, name, sub, step_sweep);
		s->query = r->queries[q];
		for (int k = 0; k < q; k++)
			s->peers[s->npeers++] = before[k]->out;
	}
}

static void plan_replays(struct run *r)
{
	for (int q = 0; q < r->nqueries; q++) {
		char name[64], sub[64];
		struct step *s;

		snprintf(name, sizeof(name), "replay %s", r->queries[q]);
		snprintf(sub, sizeof(sub), "replay-%s", r->queries[q]);
		s = add_probe(r, name, sub);
		s->query = r->queries[q];
		s->probe.relation = "test";
		s->probe.query = r->queries[q];
		s->probe.engine = "psync,fadvise,io_uring";
		s->probe.depth = r->depths;
	}
}

/* The device's own curve: random reads of the data set's blocks, O_DIRECT
 * through io_uring; a first look (--quick) takes 3 s a point, not waiting
 * for steady. */
static void plan_curve(struct run *r)
{
	struct step *s = add_probe(r, "the device's curve", "device");
	const char *depths = r->o.depths ? r->o.depths : r->o.quick ? RUN_DEPTHS_QUICK : RUN_DEPTHS;

	s->probe.relation = "test";
	s->probe.pattern = "random";
	s->probe.engine = "io_uring";
	s->probe.direct = true;
	s->probe.depth = depths;
	s->probe.steady = !r->o.quick;
	s->probe.duration = r->o.quick ? 3 : 30;
	s->estimate_s = (r->o.quick ? 3 : 15) * (double)(strlen(depths) - strlen(depths) / 2);
}

/* Every probe step's options checked as its plan will take them. */
static int check_probes(const struct run *r, char *err, size_t errlen)
{
	for (int i = 0; i < r->nsteps; i++) {
		struct probe_plan p = { 0 };

		if (r->steps[i].run == step_probe && probe_plan_make(&r->steps[i].probe, &p, err, errlen) < 0)
			return -EINVAL;
	}
	return 0;
}

int run_plan_steps(struct run *r, char *err, size_t errlen)
{
	struct step *s;

	r->nsteps = 0;
	plan_server(r);
	s = add(r, "the data set", "", step_load);
	s->estimate_s = (double)r->o.rows / 1.5e6;
	if (!r->o.no_probe) {
		s = add_probe(r, "check for caches below", "cache-check");
		s->probe.cache_check = true;
		s->estimate_s = 15;
	}
	plan_sweeps(r);
	if (!r->o.no_probe) {
		plan_replays(r);
		plan_curve(r);
	}
	return check_probes(r, err, errlen);
}
