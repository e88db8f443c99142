/*
 * runner_meta: a runner's meta.json: host, target, device, server, the
 * plan with the workload's own facts, and the identity a resume must match
 * (the data set with its relations' files and sizes, the server's system
 * identifier and version, the target); reading it back on --resume.
 */
#include "bench/sweep/runner_meta.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/cli/redact.h"
#include "bench/dataset/dataset.h"
#include "bench/pg/pgutil.h"
#include "bench/pg/sqltext.h"
#include "bench/record/record.h"
#include "bench/record/semantics.h"

/* The device found (DEV) is the one the trials watch. */
static void watch(struct runner *r, const struct device_info *dev)
{
	r->irqs_rc = -ENOENT;
	r->irqs.n = 0;                /* none followed unless found */
	if (!dev->name[0])
		return;
	snprintf(r->disk, sizeof(r->disk), "%s", dev->name);
	snprintf(r->disk_file, sizeof(r->disk_file), "%s", dev->stats_file);
	r->nmembers = dev->nmembers;
	memcpy(r->members, dev->members, sizeof(dev->members));
	/* the interrupts of the device, else of its members together */
	r->irqs_rc = irqcpu_disk_irqs(NULL, r->disk, &r->irqs);
	for (int i = 0, own = r->irqs_rc != -ENOENT; !own && r->irqs_rc != -E2BIG && i < r->nmembers; i++) {
		int rc = irqcpu_disk_add(NULL, r->members[i], &r->irqs);

		if (rc != -ENOENT)
			r->irqs_rc = rc;
	}
}

/* Which interrupts the trials follow, or why none. */
static json_t *interrupts_json(const struct runner *r)
{
	json_t *irqs = json_array();

	if (r->irqs_rc == 0) {
		for (int i = 0; i < r->irqs.n; i++)
			json_array_append_new(irqs, json_integer(r->irqs.irq[i]));
		return json_pack("{s:o}", "irqs", irqs);
	}
	json_decref(irqs);
	return json_pack("{s:s}", "why_none", r->irqs_rc == -E2BIG ?
			 "more interrupts than the trials follow (a queue per CPU: each read completes where it was submitted)" :
			 "no device with interrupts under the data (md, dm, loop, an emulation, or not found in /sys)");
}

json_t *runner_meta_device(struct runner *r)
{
	struct device_info dev;
	json_t *j = record_device_at(r->srv.external ? NULL : r->data_path[0] ? r->data_path : r->srv.datadir, &dev);

	watch(r, &dev);
	return j;
}

static json_t *target_json(const struct runner *r)
{
	char dsn[1024];

	if (!r->srv.external)
		return json_pack("{s:s}", "datadir", r->srv.datadir);
	redact_dsn(r->srv.dsn, dsn, sizeof(dsn));
	return json_pack("{s:s}", "dsn", dsn);
}

/* The data set as loaded and its relations as they are now, with the
 * server's identity: what a resume must find the same. */
static json_t *identity(const struct runner *r, PGconn *c)
{
	struct dataset_info d;
	char err[256];
	json_t *id = json_object(), *rels = json_object();
	PGresult *srv = pgutil_query(c, sql_text("sweep/identity.sql"), 0, NULL, err, sizeof(err));
	PGresult *res = pgutil_query(c, sql_text(r->cfg.workload->relations_sql), 0, NULL, err, sizeof(err));

	if (dataset_lookup(c, &d, err, sizeof(err)) == 1) {
		json_t *ds = dataset_info_json(&d);

		json_object_set_new(id, "dataset", json_pack("{s:O?, s:O?, s:O?}",
			"rows", json_object_get(ds, "rows"), "seed", json_object_get(ds, "seed"),
			"recipe", json_object_get(ds, "recipe")));
		json_decref(ds);
	}
	for (int i = 0; res && i < PQntuples(res); i++)
		json_object_set_new(rels, PQgetvalue(res, i, 0), json_pack("{s:s, s:s}",
			"filenode", PQgetvalue(res, i, 1), "bytes", PQgetvalue(res, i, 2)));
	json_object_set_new(id, "relations", rels);
	if (srv && PQntuples(srv) > 0)
		json_object_set_new(id, "server", json_pack("{s:s, s:i}", "system_identifier",
			PQgetvalue(srv, 0, 0), "version_num", PQserverVersion(c)));
	json_object_set_new(id, "target", target_json(r));
	PQclear(srv);
	PQclear(res);
	return id;
}

static json_t *server_json(struct runner *r, PGconn *c, char *err, size_t errlen)
{
	json_t *settings = json_object(), *o;
	PGresult *res = pgutil_query(c, sql_text("sweep/server_settings.sql"), 0, NULL, err, errlen);
	int v = PQserverVersion(c);

	for (int i = 0; res && i < PQntuples(res); i++)
		json_object_set_new(settings, PQgetvalue(res, i, 0), json_string(PQgetvalue(res, i, 1)));
	PQclear(res);
	o = json_pack("{s:i, s:s, s:o, s:s}", "version_num", v, "version",
		      PQparameterStatus(c, "server_version") ?: "", "settings", settings,
		      "semantics", semantics_eic(v));
	if (!r->srv.external) {
		struct dataset_info d;

		if (dataset_lookup(c, &d, err, errlen) == 1)
			json_object_set_new(r->meta, "dataset", dataset_info_json(&d));
	}
	return o;
}

static json_t *plan_json(struct runner *r)
{
	json_t *plan = sweep_plan_json(&r->plan), *w = r->cfg.workload->plan_json(r);

	json_object_update(plan, w);
	json_decref(w);
	json_object_set_new(plan, "workload", json_string(r->cfg.workload->name));
	if (r->cfg.companion) {
		json_object_set_new(plan, "companion", json_string(r->cfg.companion->name));
		json_object_set_new(plan, r->cfg.companion->name, r->cfg.companion->plan_json(r));
	}
	json_object_set_new(plan, "warm", json_boolean(r->cfg.warm));
	/* what the verdict and racing compare: the whole query (bench/judge/regret.h) */
	json_object_set_new(plan, "decision_unit", json_string("execution"));
	json_object_set_new(plan, "until_separated", json_boolean(r->cfg.until_separated));
	if (r->cfg.until_separated || r->cfg.race) {
		/* the rounds a race may run: the judge widens its bounds for the looks */
		json_object_set_new(plan, "max_runs", json_integer(r->cfg.max_runs));
		json_object_set_new(plan, "budget_s", r->cfg.budget_s > 0 ? json_real(r->cfg.budget_s) : json_null());
	}
	return plan;
}

int runner_meta_write(struct runner *r, int argc, char **argv, char *err, size_t errlen)
{
	const struct record_head head = {
		.command = r->cfg.command, .argc = argc, .argv = argv,
		.datadir = r->srv.external ? NULL : r->srv.datadir, .dsn = r->srv.dsn,
		.device = true,
		.device_path = r->srv.external ? NULL : r->data_path[0] ? r->data_path : r->srv.datadir,
	};
	PGconn *c = server_connect(&r->srv, NULL, err, errlen);
	struct device_info dev;
	json_t *srv;

	if (!c)
		return -EIO;
	if (!(r->meta = record_meta_new(&head, &dev))) {
		PQfinish(c);
		return -ENOMEM;
	}
	watch(r, &dev);
	if (json_is_object(json_object_get(r->meta, "device")))
		json_object_set_new(json_object_get(r->meta, "device"), "interrupts", interrupts_json(r));
	srv = server_json(r, c, err, errlen);
	json_object_set_new(r->meta, "server", srv);
	json_object_set_new(r->meta, "identity", identity(r, c));
	PQfinish(c);
	json_object_set_new(r->meta, "plan", plan_json(r));
	json_object_set_new(r->meta, "statistics", json_pack("{s:f, s:s, s:s, s:s}",
		"level", 0.95, "median_interval", "distribution-free order statistics (binomial), min..max below 6 runs",
		"speedup_interval", "percentile bootstrap of the ratio of medians",
		"recommendation", "the smallest value shown within 1 + the margin of each query's fastest, its times paired within rounds; else the least worst-case regret, with its price (docs/decision.md)"));
	return record_meta_write(r->dir, r->meta, err, errlen);
}

/* ---- resume ---- */

static int same_plan(struct runner *r, char *err, size_t errlen)
{
	struct sweep_plan p;
	bool same;

	if (!r->cfg.plan_given)
		return 0;
	if (sweep_plan_build(&p, &r->cfg.grid, r->cfg.runs, r->cfg.order_seed_given ? r->cfg.order_seed :
			     r->plan.order_seed, err, errlen) < 0)
		return -EINVAL;
	same = sweep_plan_same(&p, &r->plan) || (r->cfg.until_separated &&
		p.ncombos == r->plan.ncombos && p.order_seed == r->plan.order_seed);
	sweep_plan_free(&p);
	if (!same) {
		snprintf(err, errlen, "--resume '%s': that folder was made for a different plan (settings, runs, order or query); give --resume alone to finish its own plan",
			 r->cfg.resume);
		return -EINVAL;
	}
	return 0;
}

static int resume_target(struct runner *r, char *err, size_t errlen)
{
	const char *was = json_string_value(json_object_get(r->meta, "datadir"));

	if (json_object_get(r->meta, "dsn") && !r->cfg.srv.dsn) {
		snprintf(err, errlen, "--resume '%s': that sweep ran on a server given with --dsn; give the same --dsn and --restart-cmd again",
			 r->cfg.resume);
		return -EINVAL;
	}
	if (!r->cfg.srv.dsn && !r->cfg.srv.datadir)
		r->cfg.srv.datadir = was;
	else if (!r->cfg.srv.dsn && was) {
		char a[PATH_MAX], b[PATH_MAX];

		if (!realpath(was, a) || !realpath(r->cfg.srv.datadir, b) || strcmp(a, b)) {
			snprintf(err, errlen, "--resume '%s': that sweep ran on --datadir %s, not %s",
				 r->cfg.resume, was, r->cfg.srv.datadir);
			return -EINVAL;
		}
	}
	return 0;
}

/* The companion the folder recorded, found by name; none when it recorded none. */
static int resume_companion(struct runner *r, const json_t *plan, char *err, size_t errlen)
{
	const char *name = json_string_value(json_object_get(plan, "companion"));
	const struct workload *w = name && r->cfg.find_workload ? r->cfg.find_workload(name) : NULL;

	if (!name) {
		r->cfg.companion = NULL;
		return 0;
	}
	if (!w) {
		snprintf(err, errlen, "--resume '%s': that folder holds %s trials, which this command cannot run",
			 r->cfg.resume, name);
		return -EINVAL;
	}
	r->cfg.companion = w;
	return 0;
}

int runner_meta_resume(struct runner *r, char *err, size_t errlen)
{
	char path[PATH_MAX + 16];
	const char *cmd, *wl;
	json_t *plan;

	snprintf(path, sizeof(path), "%s/%s", r->cfg.resume, RECORD_META);
	r->meta = json_load_file(path, 0, NULL);
	cmd = json_string_value(json_object_get(r->meta, "command"));
	if (!r->meta || !cmd || strcmp(cmd, r->cfg.command)) {
		snprintf(err, errlen, "--resume '%s': %s; give the folder of an interrupted %s",
			 r->cfg.resume, r->meta ? "not that command's folder" : "no readable meta.json there",
			 r->cfg.command);
		return -EINVAL;
	}
	plan = json_object_get(r->meta, "plan");
	wl = json_string_value(json_object_get(plan, "workload"));
	if (wl && strcmp(wl, r->cfg.workload->name)) {
		snprintf(err, errlen, "--resume '%s': that folder holds the workload %s, not %s", r->cfg.resume,
			 wl, r->cfg.workload->name);
		return -EINVAL;
	}
	if (sweep_plan_from_json(&r->plan, plan, err, errlen) < 0 || same_plan(r, err, errlen) < 0)
		return -EINVAL;
	r->cfg.warm = json_is_true(json_object_get(plan, "warm"));
	if (json_is_true(json_object_get(plan, "until_separated")) && !r->cfg.until_separated) {
		r->cfg.until_separated = true;
		r->cfg.max_runs = (int)json_integer_value(json_object_get(plan, "max_runs"));
		r->cfg.budget_s = json_number_value(json_object_get(plan, "budget_s"));
	}
	snprintf(r->dir, sizeof(r->dir), "%s", r->cfg.resume);
	r->resumed = true;
	if (resume_target(r, err, errlen) < 0 || resume_companion(r, plan, err, errlen) < 0)
		return -EINVAL;
	if (r->cfg.workload->resume && r->cfg.workload->resume(r, plan, err, errlen) < 0)
		return -EINVAL;
	return r->cfg.companion && r->cfg.companion->resume ?
	       r->cfg.companion->resume(r, plan, err, errlen) : 0;
}

/* What differs between the recorded identity and the one now, or NULL. */
static const char *differs(const json_t *was, const json_t *now)
{
	static const char *const parts[] = { "target", "server", "dataset", "relations" };
	static const char *const says[] = {
		"another target (data directory or connection)",
		"another server (system identifier or version)",
		"another data set (rows, seed or recipe)",
		"a changed data set (a relation's file or size differs)",
	};

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const json_t *a = json_object_get(was, parts[i]), *b = json_object_get(now, parts[i]);

		if ((a || b) && !json_equal(a, b))	/* json_equal(NULL, NULL) is 0 */
			return says[i];
	}
	return NULL;
}

int runner_meta_check_identity(struct runner *r, char *err, size_t errlen)
{
	const json_t *was = json_object_get(r->meta, "identity");
	PGconn *c;
	json_t *now;
	const char *d;

	if (!was) {
		snprintf(err, errlen, "--resume '%s': the folder records no identity of its data set and server, so eicbench cannot tell that resuming would not mix two; start a new sweep",
			 r->cfg.resume);
		return -EINVAL;
	}
	if (!(c = server_connect(&r->srv, NULL, err, errlen)))
		return -EIO;
	now = identity(r, c);
	PQfinish(c);
	d = differs(was, now);
	json_decref(now);
	if (d) {
		snprintf(err, errlen, "--resume '%s': that folder was recorded on %s; its trials would be mixed with these. Start a new sweep instead",
			 r->cfg.resume, d);
		return -EINVAL;
	}
	return 0;
}
