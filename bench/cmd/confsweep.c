/*
 * cmd_confsweep: "eicbench confsweep": whole-configuration sweeps like the
 * seed posts', on the shared runner (bench/sweep/runner.h): the steps of a sweep
 * file (bench/sweep/stepfile.h), or a grid from --set, with the TPC-B workload
 * (bench/workloads/workload_tpcb.h) or the cold bitmap-scan one. Options on the
 * command line win over the file's [sweep] section. The settings are put
 * back at the end, also after an error or Ctrl-C; the table in the seeds'
 * shape comes from bench/report/report_steps.h.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cli/datadir.h"
#include "bench/cli/stop.h"
#include "bench/cmd/cmd.h"
#include "bench/cli/manpage.h"
#include "bench/cli/opts.h"
#include "bench/record/record.h"
#include "bench/report/report_steps.h"
#include "bench/sweep/runner.h"
#include "bench/sweep/stepfile.h"
#include "bench/workloads/workload_bitmap.h"
#include "bench/workloads/workload_tpcb.h"


struct confsweep_opts {
	struct server_cfg srv;
	struct opt_list set, files, builtins, defines;
	long long runs, clients, threads, transactions, scale, order_seed, pipeline;
	double duration;
	const char *warmup, *workload, *protocol, *query, *out, *resume;
	const char *file;	/* the sweep file, as given */
	bool cold, no_checkpoint;
};

#define CO(f) offsetof(struct confsweep_opts, f)

static const struct opt_desc confsweep_table[] = {
	SERVER_OPTS(struct confsweep_opts, srv),
	{ "the sweep file", OPT_ARG, CO(file), 0, 0, "FILE.ini", NULL,
	  "the sweep file: [sweep] and one section per step (named without its folder, looked up in the installed sweeps/ too)" },
	{ "set", OPT_LIST, CO(set), 0, 0, "NAME=V1,V2", NULL,
	  "vary a setting (repeatable: several make a grid); instead of a sweep file" },
	{ "runs", OPT_INT, CO(runs), 1, 1000, "N", "the file's, else 3", "measured runs of every step" },
	{ "workload", OPT_STR, CO(workload), 0, 0, "NAME", "the file's, else tpcb",
	  "tpcb (TPC-B-like), select-only, simple-update, or bitmap (the cold bitmap-scan query)" },
	{ "file", OPT_LIST, CO(files), 0, 0, "FILE[@W]", "the file's script =",
	  "TPC-B: run this pgbench script (repeatable; instead of the workload's builtin)", 'f' },
	{ "builtin", OPT_LIST, CO(builtins), 0, 0, "NAME[@W]", "the file's builtin =",
	  "TPC-B: run this builtin script (repeatable, with -f)", 'b' },
	{ "define", OPT_LIST, CO(defines), 0, 0, "NAME=VALUE", "the file's define =",
	  "TPC-B: a variable for the scripts (repeatable)", 'D' },
	{ "client", OPT_INT, CO(clients), 1, TPCB_MAX_CLIENTS, "N", "the file's, else 4", "TPC-B clients", 'c' },
	{ "jobs", OPT_INT, CO(threads), 1, TPCB_MAX_CLIENTS, "N", "the file's, else 2", "TPC-B threads", 'j' },
	{ "time", OPT_SECONDS, CO(duration), 0, 86400, "SECONDS", "the file's, else 60", "each measured run this long (at most 24h)", 'T' },
	{ "transactions", OPT_INT, CO(transactions), 1, INT64_MAX / TPCB_MAX_CLIENTS, "N", NULL,
	  "transactions per client instead of -T", 't' },
	{ "protocol", OPT_STR, CO(protocol), 0, 0, "MODE", "the file's, else simple", "simple, extended or prepared", 'M' },
	{ "pipeline", OPT_INT, CO(pipeline), 1, TPCB_MAX_PIPELINE, "N", NULL, "TPC-B transactions in flight per client" },
	{ "scale", OPT_INT, CO(scale), 1, TPCB_MAX_SCALE, "N", "the file's, else 20",
	  "pgbench's tables at this scale (made when missing)", 's' },
	{ "warmup", OPT_STR, CO(warmup), 0, 0, "TIME", "the file's, else 10s", "a run before each measured run, not recorded; 0: none" },
	{ "no-checkpoint", OPT_FLAG, CO(no_checkpoint), 0, 0, NULL, NULL, "no CHECKPOINT before each run" },
	{ "query", OPT_STR, CO(query), 0, 0, "blog|sparse|FILE", "the file's, else sparse", "bitmap workload: the query" },
	{ "cold", OPT_FLAG, CO(cold), 0, 0, NULL, NULL, "drop the caches before each run (the bitmap workload always does)" },
	{ "order-seed", OPT_INT, CO(order_seed), 0, INT64_MAX / 2, "S", "random", "seed of the per-round shuffle" },
	{ "out", OPT_OUT, CO(out), 0, 0, "DIR", "results/<UTC>-confsweep", "result folder (new or empty)" },
	{ "resume", OPT_STR, CO(resume), 0, 0, "DIR", NULL, "finish an interrupted confsweep in DIR" },
	{ 0 }
};

#define USAGE "eicbench confsweep [--datadir DIR | --dsn CONNINFO --restart-cmd CMD] FILE.ini [--runs N]\n" \
	"                          [-c N] [-j N] [-T TIME | -t N] [-M MODE] [-s SCALE] [--warmup TIME] [--cold]\n" \
	"       eicbench confsweep [...] --set NAME=V1,V2 [--set ...]\n" \
	"       eicbench confsweep --resume DIR"

struct confsweep {
	struct confsweep_opts o;
	const char *file;
	char file_path[4096];       /* FILE as given, or found in the data folder */
	struct stepfile *sf;
	struct runner r;
	struct tpcb_wcfg tpcb;
	struct bitmap_cfg bitmap;
	char where[TPCB_MAX_SCRIPTS + 256][PATH_MAX + 32];	/* origins of a load's parts */
	char err[4096];
};


/* A value from the command line, else the file's [sweep], else DEF. */
static const char *file_option(const struct confsweep *cs, const char *key, const char *def)
{
	const char *v = cs->sf ? stepfile_option(cs->sf, key, NULL) : NULL;

	return v ? v : def;
}

/* A [sweep] option that is no number in range: refused, naming the line. */
static int number_option(struct confsweep *cs, const char *key, long long given, long long def,
			 long long min, long long max, long long *out)
{
	const char *v;
	int line = 0;

	if (given) {
		*out = given;
		return 0;
	}
	v = cs->sf ? stepfile_option(cs->sf, key, &line) : NULL;
	if (!v) {
		*out = def;
		return 0;
	}
	if (opts_parse_ll(v, min, max, out) < 0) {
		snprintf(cs->err, sizeof(cs->err), "%s line %d: %s = %s: give a whole number from %lld to %lld",
			 cs->file, line, key, v, min, max);
		return -EINVAL;
	}
	return 0;
}

static int seconds_option(struct confsweep *cs, const char *key, const char *given, double def, double *out)
{
	const char *v = given;
	int line = 0;

	if (!v)
		v = cs->sf ? stepfile_option(cs->sf, key, &line) : NULL;
	if (!v) {
		*out = def;
		return 0;
	}
	if (!strcmp(v, "0"))
		*out = 0;
	else if (opts_parse_seconds(v, out) < 0 || *out < 0 || *out > 86400) {
		if (given)
			snprintf(cs->err, sizeof(cs->err), "--%s %s: give a time from 0 to 24h, e.g. 60s or 2m", key, v);
		else
			snprintf(cs->err, sizeof(cs->err), "%s line %d: %s = %s: give a time from 0 to 24h, e.g. 60s or 2m",
				 cs->file, line, key, v);
		return -EINVAL;
	}
	return 0;
}

static int builtin_of(const char *workload, enum tpcb_builtin *b)
{
	static const char *const names[] = { "tpcb", "simple-update", "select-only" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(workload, names[i])) {
			*b = (enum tpcb_builtin)i;
			return 0;
		}
	return -EINVAL;
}

/* A step's (or [sweep]'s) load keys, with the command line's -f, -b, -D
 * over [sweep]'s, into a spec whose parts say where they came from. */
static void spec_of(struct confsweep *cs, const struct stepfile_load *l, bool with_cli,
		    struct tpcb_load_spec *spec)
{
	const struct confsweep_opts *o = &cs->o;
	bool cli_scripts = with_cli && (o->files.n || o->builtins.n);
	int n = 0;

	memset(spec, 0, sizeof(*spec));
	for (int i = 0; l && i < l->ndefines && spec->ndefines < 256; i++) {
		snprintf(cs->where[n], sizeof(cs->where[0]), "%s line %d", cs->file, l->define[i].line);
		spec->where[n] = cs->where[n];
		n++;
		spec->define[spec->ndefines++] = l->define[i].def;
	}
	for (int i = 0; with_cli && i < o->defines.n && spec->ndefines < 256; i++) {
		spec->where[n++] = "-D";
		spec->define[spec->ndefines++] = o->defines.v[i];
	}
	for (int i = 0; !cli_scripts && l && i < l->nscripts; i++) {
		snprintf(cs->where[n], sizeof(cs->where[0]), "%s line %d", cs->file, l->script[i].line);
		spec->where[n] = cs->where[n];
		n++;
		spec->builtin[spec->nscripts] = l->script[i].builtin;
		spec->script[spec->nscripts++] = l->script[i].spec;
	}
	for (int i = 0; cli_scripts && i < o->files.n; i++) {
		spec->where[n++] = "-f";
		spec->script[spec->nscripts++] = o->files.v[i];
	}
	for (int i = 0; cli_scripts && i < o->builtins.n; i++) {
		spec->where[n++] = "-b";
		spec->builtin[spec->nscripts] = true;
		spec->script[spec->nscripts++] = o->builtins.v[i];
	}
}

/* The sweep file's folder: its scripts' paths are relative to it. */
static void base_dir(const struct confsweep *cs, char *out, size_t len)
{
	const char *slash = cs->file ? strrchr(cs->file, '/') : NULL;

	if (!slash)
		snprintf(out, len, ".");
	else
		snprintf(out, len, "%.*s", (int)(slash - cs->file), cs->file);
}

/* Load 0 from [sweep] and the command line; a load per step that names its own. */
static int loads(struct confsweep *cs, enum tpcb_builtin fallback)
{
	struct tpcb_wcfg *w = &cs->tpcb;
	struct tpcb_load_spec spec;
	char base[PATH_MAX];
	int ret;

	base_dir(cs, base, sizeof(base));
	spec_of(cs, cs->sf ? &cs->sf->defaults : NULL, true, &spec);
	ret = workload_tpcb_add_load(w, &spec, base, fallback, cs->err, sizeof(cs->err));
	for (int k = 0; ret >= 0 && cs->sf && cs->sf->own_load && k < cs->sf->steps.nsteps; k++) {
		const struct stepfile_load *l = &cs->sf->load[k];

		if (!memcmp(l, &cs->sf->defaults, sizeof(*l))) {
			w->load_of[k] = 0;	/* the same as [sweep]'s */
			continue;
		}
		spec_of(cs, l, false, &spec);
		ret = workload_tpcb_add_load(w, &spec, base, fallback, cs->err, sizeof(cs->err));
		if (ret >= 0)
			w->load_of[k] = ret;
	}
	return ret < 0 ? ret : 0;
}

static int tpcb_options(struct confsweep *cs, const char *workload)
{
	struct tpcb_wcfg *w = &cs->tpcb;
	enum tpcb_builtin fallback;
	long long clients, threads, scale, tx = 0;
	const char *proto = cs->o.protocol ? cs->o.protocol : file_option(cs, "protocol", "simple");
	int ret = number_option(cs, "clients", cs->o.clients, 4, 1, TPCB_MAX_CLIENTS, &clients);

	if (ret == 0)
		ret = number_option(cs, "jobs", cs->o.threads, clients < 2 ? 1 : 2, 1, TPCB_MAX_CLIENTS, &threads);
	if (ret == 0)
		ret = number_option(cs, "scale", cs->o.scale, 20, 1, TPCB_MAX_SCALE, &scale);
	if (ret == 0 && !cs->o.duration)
		ret = number_option(cs, "transactions", cs->o.transactions, 0, 0, INT64_MAX / TPCB_MAX_CLIENTS, &tx);
	if (ret == 0)
		ret = cs->o.duration > 0 ? (w->run.duration_s = cs->o.duration, 0) :
		      seconds_option(cs, "duration", NULL, tx ? 0 : 60, &w->run.duration_s);
	if (ret == 0)
		ret = seconds_option(cs, "warmup", cs->o.warmup, 10, &w->warmup_s);
	if (ret < 0)
		return ret;
	if (builtin_of(workload, &fallback) < 0 || tpcb_protocol_parse(proto, &w->run.protocol) < 0) {
		snprintf(cs->err, sizeof(cs->err), "workload %s, protocol %s: give tpcb, select-only, simple-update or bitmap, and simple, extended or prepared",
			 workload, proto);
		return -EINVAL;
	}
	ret = loads(cs, fallback);
	if (ret < 0)
		return ret;
	w->run.clients = (int)clients;
	w->run.threads = (int)threads;
	w->run.transactions = tx;
	w->run.pipeline = (int)cs->o.pipeline;
	workload_tpcb_defaults(w);
	w->scale = scale;
	w->no_checkpoint = cs->o.no_checkpoint;
	if (tx)
		w->run.duration_s = 0;
	return tpcb_config_check(&w->run, cs->err, sizeof(cs->err));
}

/* The workload and its configuration into the runner. */
static int workload_options(struct confsweep *cs)
{
	const char *wl = cs->o.workload ? cs->o.workload : file_option(cs, "workload", "tpcb");
	struct runner_cfg *rc = &cs->r.cfg;

	if (!strcmp(wl, "bitmap")) {
		const char *q = cs->o.query ? cs->o.query : file_option(cs, "query", "sparse");

		rc->workload = &workload_bitmap;
		rc->wcfg = &cs->bitmap;
		cs->bitmap.force_bitmap = true;
		return query_load(q, &cs->bitmap.q, cs->err, sizeof(cs->err));
	}
	rc->workload = &workload_tpcb;
	rc->wcfg = &cs->tpcb;
	return tpcb_options(cs, wl);
}

/* The line of the sweep file that set value V of setting I (the first step
 * that did; any step for V -1). */
static void origin(const struct runner *r, int i, int v, char *buf, size_t len)
{
	const struct stepfile *sf = r->cfg.origin_arg;

	for (int k = 0; k < sf->steps.nsteps; k++) {
		int line = stepfile_line(sf, k, i);

		if (line > 0 && (v < 0 || sf->steps.value[k][i] == v)) {
			snprintf(buf, len, "%s line %d, [%s]", sf->path, line, sf->steps.name[k]);
			return;
		}
	}
}

/* The plan: the file's steps, or the grid of --set. */
static int plan_options(struct confsweep *cs)
{
	struct runner_cfg *rc = &cs->r.cfg;
	long long runs;
	int line = 0;
	const char *cold = cs->sf ? stepfile_option(cs->sf, "cold", &line) : NULL;
	int ret = number_option(cs, "runs", cs->o.runs, 3, 1, 1000, &runs), yes = 0;

	if (ret == 0 && cold && (yes = opts_parse_bool(cold)) < 0) {
		snprintf(cs->err, sizeof(cs->err), "%s line %d: cold = %s: give yes or no", cs->file, line, cold);
		return -EINVAL;
	}
	rc->runs = (int)runs;
	rc->warm = !(cs->o.cold || yes || rc->workload == &workload_bitmap);
	if (cs->sf) {
		rc->grid = cs->sf->grid;
		rc->steps = &cs->sf->steps;
		rc->origin = origin;
		rc->origin_arg = cs->sf;
		return ret;
	}
	for (int i = 0; ret == 0 && i < cs->o.set.n; i++)
		ret = sweep_grid_add(&rc->grid, cs->o.set.v[i], cs->err, sizeof(cs->err));
	return ret;
}

/* [sweep]'s keys: the ones this command knows, else refused with the line. */
static int known_file_options(struct confsweep *cs)
{
	static const char *const known[] = { "mode", "workload", "runs", "clients", "jobs", "duration",
		"transactions", "protocol", "scale", "warmup", "query", "cold", NULL };

	for (int i = 0; cs->sf && i < cs->sf->noptions; i++) {
		int k = 0;

		while (known[k] && strcmp(known[k], cs->sf->option[i].key))
			k++;
		if (!known[k]) {
			snprintf(cs->err, sizeof(cs->err), "%s line %d: [sweep] has no option '%s'; give mode, workload, runs, clients, jobs, duration, transactions, protocol, scale, warmup, query or cold",
				 cs->file, cs->sf->option[i].line, cs->sf->option[i].key);
			return -EINVAL;
		}
	}
	return 0;
}

/* --resume DIR: the plan and the workload's options are the folder's; only
 * the server's options may be given again. */
static int resume_options(struct confsweep *cs)
{
	const struct confsweep_opts *o = &cs->o;
	struct runner_cfg *rc = &cs->r.cfg;
	char path[PATH_MAX + 16];
	const struct workload *wl;
	json_t *meta;

	if (cs->file || o->set.n || o->files.n || o->builtins.n || o->defines.n || o->runs ||
	    o->workload || o->clients || o->threads || o->duration ||
	    o->transactions || o->protocol || o->pipeline || o->scale || o->warmup || o->query ||
	    o->cold || o->no_checkpoint || o->out || o->order_seed >= 0) {
		snprintf(cs->err, sizeof(cs->err), "--resume %s: the plan is the folder's; give only the server's options with it",
			 o->resume);
		return -EINVAL;
	}
	snprintf(path, sizeof(path), "%s/%s", o->resume, RECORD_META);
	meta = json_load_file(path, 0, NULL);
	wl = workload_find(json_string_value(json_object_get(json_object_get(meta, "plan"), "workload")) ?: "");
	json_decref(meta);
	if (!wl) {
		snprintf(cs->err, sizeof(cs->err), "--resume %s: no meta.json of a confsweep there", o->resume);
		return -EINVAL;
	}
	*rc = (struct runner_cfg){ .srv = o->srv, .command = "confsweep", .resume = o->resume,
		.workload = wl, .wcfg = wl == &workload_bitmap ? (void *)&cs->bitmap : (void *)&cs->tpcb };
	cs->bitmap.force_bitmap = true;
	cs->r.stop = &cli_stopped;
	return 0;
}

static int configure(struct confsweep *cs, int argc, char **argv)
{
	struct runner_cfg *rc = &cs->r.cfg;
	int ret;

	server_cfg_defaults(&cs->o.srv);
	cs->o.order_seed = -1;
	cs->file = NULL;
	ret = opts_parse(confsweep_table, &cs->o, argc, argv, cs->err, sizeof(cs->err));
	if (ret != 0)
		return ret;
	if (cs->o.file) {	/* "seed-2013.ini" or "sweeps/seed-2013.ini" from anywhere */
		datadir_sweep_file(cs->o.file, cs->file_path, sizeof(cs->file_path));
		cs->file = cs->file_path;
	}
	if (!cs->file && !cs->o.set.n && !cs->o.resume) {
		snprintf(cs->err, sizeof(cs->err), "give a sweep file (e.g. sweeps/seed-2013.ini) or --set NAME=V1,V2: " USAGE);
		return -EINVAL;
	}
	if (cs->file && cs->o.set.n) {
		snprintf(cs->err, sizeof(cs->err), "a sweep file and --set both given; give one");
		return -EINVAL;
	}
	if (cs->file && (!(cs->sf = calloc(1, sizeof(*cs->sf))) ||
			 stepfile_load(cs->file, cs->sf, cs->err, sizeof(cs->err)) < 0))
		return cs->sf ? -EINVAL : -ENOMEM;
	if (cs->o.resume)
		return resume_options(cs);
	*rc = (struct runner_cfg){ .srv = cs->o.srv, .command = "confsweep",
		.order_seed = cs->o.order_seed >= 0 ? (uint64_t)cs->o.order_seed : 0,
		.order_seed_given = cs->o.order_seed >= 0, .out = cs->o.out, .resume = cs->o.resume,
		.plan_given = cs->file || cs->o.set.n };
	cs->r.stop = &cli_stopped;
	ret = known_file_options(cs);
	if (ret == 0)
		ret = workload_options(cs);
	return ret < 0 ? ret : plan_options(cs);
}

static int finish(const char *dir, char *err, size_t errlen)
{
	return report_steps_finish(dir, stdout, err, errlen);
}

int cmd_confsweep(int argc, char **argv)
{
	struct confsweep *cs = calloc(1, sizeof(*cs));
	int ret;

	if (!cs)
		return cmd_fail("confsweep", -ENOMEM, "out of memory");
	ret = configure(cs, argc, argv);
	if (ret == 1) {
		opts_usage(stdout, USAGE, confsweep_table);
		ret = 0;
	} else if (ret < 0)
		ret = cmd_fail("confsweep", -EINVAL, cs->err);
	else {
		cli_catch_stop(true);
		ret = runner_main(&cs->r, argc + 2, argv - 2, finish, cs->err, sizeof(cs->err));	/* see cmd.h */
		ret = cmd_runner_end(&cs->r, ret, cs->err, true);
	}
	workload_tpcb_free(&cs->tpcb);
	query_free(&cs->bitmap.q);
	json_decref(cs->bitmap.refs);
	json_decref(cs->bitmap.cache_check);
	free(cs->sf);
	free(cs);
	return ret;
}

static const struct man_form confsweep_forms[] = { { NULL, USAGE, confsweep_table }, { 0 } };

static const struct man_example confsweep_examples[] = {
	{ "eicbench confsweep sweeps/seed-2013.ini --datadir data/pg -T 20s --warmup 5s",
	  "The 2013 post's tuning steps one after another, TPC-B at scale 20, a table of tps per step. A sweep file named without its folder (seed-2013.ini) is looked up in the installed sweeps/ too." },
	{ "eicbench confsweep --datadir data/pg --set shared_buffers=128MB,1GB --set max_wal_size=1GB,4GB",
	  "Every combination of two settings, one step each." },
	{ "eicbench confsweep --resume results/20261201T120000Z-confsweep",
	  "Finish an interrupted confsweep." },
	{ 0 }
};

const struct man_page cmd_confsweep_page = {
	.name = "confsweep",
	.summary = "whole-configuration sweeps (TPC-B or the cold query), the seed posts' table",
	.forms = confsweep_forms,
	.description =
	"Whole-configuration sweeps, as the tuning posts made them by hand: one setting after another (cumulative) or each on its own (independent), a table of tps (or of the cold query's time) per step, and the server left as it was at the end. A sweep file is INI: [sweep] holds the sweep's own options, every other section is a step whose keys are the settings it sets; --set instead of a file makes a grid.\n\n"
	"Before the first step every value of every setting is tried on the server, so an unknown setting or a rejected value stops the sweep before anything changes, naming the file, the line and the step. Each run of the TPC-B workloads cleans up as pgbench does, runs a warm-up, takes a CHECKPOINT, then measures while CPU and the device are sampled; the record keeps the driver's figures, the settings as the run's session saw them, the checkpointer, bgwriter and WAL statistics and the server log lines written during the run.\n\n"
	"The server's own settings are journaled before the first change and put back at the end, also after an error or Ctrl-C.",
	.examples = confsweep_examples,
	.files = "sweeps/seed-2013.ini, sweeps/seed-2010.ini, sweeps/eic-cold.ini\tthe shipped sweep files, in the data folder's sweeps/\n"
		 "results/<UTC>-confsweep/\tmeta.json, trials.jsonl, report.md, report.html, steps.svg and steps.png",
	.see_also = "tpcb sweep report",
	.guide = "eicbench confsweep",
};
