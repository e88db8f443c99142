/*
 * tpcb_report: the text forms of TPC-B figures and pgbench's log lines;
 * see tpcb_report.h.
 */
#include "bench/tpcb/tpcb_report.h"

#include <inttypes.h>
#include <string.h>

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char *outcome_word(const struct tpcb_done *d, bool detailed)
{
	if (d->outcome == TPCB_SKIPPED)
		return "skipped";
	if (!detailed)
		return "failed";
	return d->fail == TPCB_FAIL_DEADLOCK ? "deadlock" : "serialization";
}

int tpcb_log_tx_line(char *buf, size_t len, const struct tpcb_done *d,
		     int64_t epoch_offset_ns, bool with_lag, bool with_retries, bool detailed)
{
	int64_t epoch_us = ((int64_t)d->end_ns + epoch_offset_ns) / 1000;
	char lat[32];
	int n;

	if (d->outcome == TPCB_OK)
		snprintf(lat, sizeof(lat), "%.0f", (double)(d->end_ns - d->sched_ns) / 1e3);
	else
		snprintf(lat, sizeof(lat), "%s", outcome_word(d, detailed));
	n = snprintf(buf, len, "%d %" PRIu64 " %s %d %" PRId64 " %" PRId64, d->client,
		     d->tx_no, lat, d->script > 0 ? d->script : 0, epoch_us / 1000000,
		     epoch_us % 1000000);
	if (with_lag)
		n += snprintf(buf + n, len - (size_t)n, " %.0f",
			      d->outcome == TPCB_OK || d->outcome == TPCB_SKIPPED ?
			      (double)(d->start_ns - d->sched_ns) / 1e3 : 0.0);
	if (with_retries)
		n += snprintf(buf + n, len - (size_t)n, " %d", d->tries > 0 ? d->tries - 1 : 0);
	n += snprintf(buf + n, len - (size_t)n, "\n");
	return n;
}

int tpcb_log_agg_line(char *buf, size_t len, const struct tpcb_agg *a)
{
	return snprintf(buf, len, "%" PRId64 " %" PRIu64 " %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %"
			PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
			a->start_s, a->count, a->lat_sum, a->lat_sum2, a->lat_min, a->lat_max,
			a->lag_sum, a->lag_sum2, a->lag_min, a->lag_max, a->skipped,
			a->retried, a->retries, a->ser_failures, a->dl_failures);
}

int tpcb_progress_line(char *buf, size_t len, const struct tpcb_config *cfg,
		       const struct tpcb_progress *p)
{
	char when[48];
	int n;

	if (cfg->progress_timestamp)
		snprintf(when, sizeof(when), "%.3f s", p->epoch_s);
	else
		snprintf(when, sizeof(when), "%.1f s", p->elapsed_s);
	n = snprintf(buf, len, "progress: %s, %.1f tps, lat %.3f ms stddev %.3f, %" PRIu64 " failed",
		     when, p->tps, p->lat_ms, p->stddev_ms, p->failed);
	if (cfg->rate_tps > 0)
		n += snprintf(buf + n, len - (size_t)n, ", lag %.3f ms", p->lag_ms);
	if (cfg->rate_tps > 0 && cfg->latency_limit_ms > 0)
		n += snprintf(buf + n, len - (size_t)n, ", %" PRIu64 " skipped", p->skipped);
	if (cfg->max_tries != 1)
		n += snprintf(buf + n, len - (size_t)n, ", %" PRIu64 " retried, %" PRIu64 " retries",
			      p->retried, p->retries);
	return n;
}

static void print_settings(FILE *out, const struct tpcb_config *cfg,
			   const struct tpcb_target *t)
{
	const struct tpcb_scripts *set = cfg->scripts;

	fprintf(out, "transaction type: %s\n", set->n == 1 ? set->s[0].name : "multiple scripts");
	fprintf(out, "scaling factor: %lld\n", t->scale);
	if (t->partition_method[0])
		fprintf(out, "partition method: %s\npartitions: %d\n", t->partition_method, t->partitions);
	fprintf(out, "query mode: %s\n", tpcb_protocol_name(cfg->protocol));
	fprintf(out, "number of clients: %d\n", cfg->clients);
	fprintf(out, "number of threads: %d\n", cfg->threads);
	if (cfg->pipeline > 0)
		fprintf(out, "pipeline: up to %d transactions in flight per client\n", cfg->pipeline);
	if (cfg->max_tries)
		fprintf(out, "maximum number of tries: %d\n", cfg->max_tries);
	if (cfg->duration_s > 0)
		fprintf(out, "duration: %g s\n", cfg->duration_s);
	else
		fprintf(out, "number of transactions per client: %lld\n", cfg->transactions);
}

/* The failure, retry and skip lines, with PREFIX (" - " under a script). */
static void print_failures(FILE *out, const char *prefix, const struct tpcb_config *cfg,
			   uint64_t failed, uint64_t ser, uint64_t dl, uint64_t retried,
			   uint64_t retries, uint64_t skipped, uint64_t total)
{
	fprintf(out, "%snumber of failed transactions: %" PRIu64 " (%.3f%%)\n", prefix, failed,
		pct(failed, total));
	if (cfg->failures_detailed) {
		fprintf(out, "%snumber of serialization failures: %" PRIu64 " (%.3f%%)\n", prefix, ser,
			pct(ser, total));
		fprintf(out, "%snumber of deadlock failures: %" PRIu64 " (%.3f%%)\n", prefix, dl,
			pct(dl, total));
	}
	if (cfg->max_tries != 1) {
		fprintf(out, "%snumber of transactions retried: %" PRIu64 " (%.3f%%)\n", prefix, retried,
			pct(retried, total));
		fprintf(out, "%stotal number of retries: %" PRIu64 "\n", prefix, retries);
	}
	if (cfg->rate_tps > 0 && cfg->latency_limit_ms > 0)
		fprintf(out, "%snumber of transactions skipped: %" PRIu64 " (%.3f%%)\n", prefix, skipped,
			pct(skipped, total));
}

static void print_counts(FILE *out, const struct tpcb_config *cfg, const struct tpcb_result *r)
{
	uint64_t total = r->committed + r->failed + r->skipped;

	if (cfg->transactions > 0)
		fprintf(out, "number of transactions actually processed: %" PRIu64 "/%" PRIu64 "\n",
			r->committed, r->expected);
	else
		fprintf(out, "number of transactions actually processed: %" PRIu64 "\n", r->committed);
	print_failures(out, "", cfg, r->failed, r->serialization_failures, r->deadlock_failures,
		       r->retried, r->retries, r->skipped, total);
	if (cfg->latency_limit_ms > 0)
		fprintf(out, "number of transactions above the %.1f ms latency limit: %" PRIu64 "/%" PRIu64 " (%.3f%%)\n",
			cfg->latency_limit_ms, r->late, r->committed, pct(r->late, r->committed));
}

static void print_latency(FILE *out, const struct tpcb_config *cfg, const struct tpcb_result *r)
{
	struct hist_summary s;

	hist_summarize(&r->latency, &s);
	fprintf(out, "latency average = %.3f ms\n", s.mean_ns / 1e6);
	fprintf(out, "latency stddev = %.3f ms\n", s.stddev_ns / 1e6);
	fprintf(out, "latency percentiles: p50 %.3f, p90 %.3f, p99 %.3f, p99.9 %.3f, max %.3f ms\n",
		(double)s.p50_ns / 1e6, (double)s.p90_ns / 1e6, (double)s.p99_ns / 1e6,
		(double)s.p999_ns / 1e6, (double)s.max_ns / 1e6);
	if (cfg->rate_tps > 0)
		fprintf(out, "rate limit schedule lag: avg %.3f (max %.3f) ms\n",
			r->lag_count ? r->lag_sum_ms / (double)r->lag_count : 0.0, r->lag_max_ms);
}

/* -r: script I's commands, pgbench's columns. */
static void print_commands(FILE *out, const struct tpcb_config *cfg, const struct tpcb_result *r,
			   int script, const char *prefix)
{
	bool retries = cfg->max_tries != 1;

	fprintf(out, "%sstatement latencies in milliseconds%s:\n", prefix,
		retries ? ", failures and retries" : " and failures");
	for (int i = 0; i < r->ncmds; i++) {
		const struct tpcb_cmd_result *c = &r->cmds[i];

		if (c->script != script)
			continue;
		if (retries)
			fprintf(out, "   %11.3f  %10" PRIu64 " %10" PRIu64 "  %s\n", c->latency_ms,
				c->failures, c->retries, c->line);
		else
			fprintf(out, "   %11.3f  %10" PRIu64 "  %s\n", c->latency_ms, c->failures, c->line);
	}
}

static void print_script(FILE *out, const struct tpcb_config *cfg, const struct tpcb_result *r, int i)
{
	const struct tpcb_script *sc = &cfg->scripts->s[i];
	const struct tpcb_script_result *s = &r->scripts[i];
	uint64_t total = r->committed + r->failed + r->skipped;
	uint64_t mine = s->committed + s->failed + s->skipped;

	fprintf(out, "SQL script %d: %s\n - weight: %d (targets %.1f%% of total)\n"
		" - %" PRIu64 " transactions (%.1f%% of total)\n", i + 1, sc->name, sc->weight,
		100.0 * sc->weight / (double)cfg->scripts->total_weight, mine, pct(mine, total));
	if (mine > 0) {
		fprintf(out, " - number of transactions actually processed: %" PRIu64 " (tps = %f)\n",
			s->committed, r->run_s > 0 ? (double)s->committed / r->run_s : 0.0);
		print_failures(out, " - ", cfg, s->failed, s->serialization_failures,
			       s->deadlock_failures, s->retried, s->retries, s->skipped, mine);
	}
	if (s->committed > 0)
		fprintf(out, " - latency average = %.3f ms\n - latency stddev = %.3f ms\n",
			s->lat_mean_ms, s->lat_stddev_ms);
	if (cfg->per_statement)
		print_commands(out, cfg, r, i, " - ");
}

void tpcb_report_print(FILE *out, const struct tpcb_config *cfg,
		       const struct tpcb_target *t, const struct tpcb_result *r)
{
	uint64_t total = r->committed + r->failed;

	fprintf(out, "eicbench tpcb (server %s)\n", t->server_version_str);
	print_settings(out, cfg, t);
	print_counts(out, cfg, r);
	print_latency(out, cfg, r);
	if (cfg->connect_each) {
		fprintf(out, "average connection time = %.3f ms\n",
			total ? r->connections_ms / (double)total : 0.0);
		fprintf(out, "tps = %f (including reconnection times)\n", tpcb_result_tps(r));
	} else {
		fprintf(out, "initial connection time = %.3f ms\n", r->connect_ms);
		fprintf(out, "tps = %f (without initial connection time)\n", tpcb_result_tps(r));
	}
	fprintf(out, "client CPU = %.3f s user, %.3f s system (%.2f µs per transaction)\n",
		r->cpu_user_s, r->cpu_sys_s,
		total ? (r->cpu_user_s + r->cpu_sys_s) * 1e6 / (double)total : 0.0);
	if (r->nscripts > 1)
		for (int i = 0; i < r->nscripts; i++)
			print_script(out, cfg, r, i);
	else if (cfg->per_statement)
		print_commands(out, cfg, r, 0, "");
}

void tpcb_report_init(FILE *out, const struct tpcb_init_result *r)
{
	char parts[512];
	size_t n = 0;

	parts[0] = '\0';
#define PART(letter, what, v) \
	if (strchr(r->steps, letter)) \
		n += (size_t)snprintf(parts + n, sizeof(parts) - n, "%s%s %.2f s", n ? ", " : "", what, v)
	PART('d', "drop tables", r->drop_s);
	PART('t', "create tables", r->create_s);
	PART('g', "client-side generate", r->generate_s);
	PART('G', "server-side generate", r->generate_s);
	PART('v', "vacuum", r->vacuum_s);
	PART('p', "primary keys", r->keys_s);
	PART('f', "foreign keys", r->fkeys_s);
#undef PART
	fprintf(out, "done in %.2f s (%s).\n", r->total_s, parts);
	if (r->total_bytes)
		fprintf(out, "scale %lld: pgbench_accounts %.1f MiB, all tables %.1f MiB\n", r->scale,
			(double)r->accounts_bytes / 1048576.0, (double)r->total_bytes / 1048576.0);
}
