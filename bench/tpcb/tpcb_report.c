/*
 * tpcb_report: the text forms of TPC-B figures and pgbench's log lines;
 * see tpcb_report.h.
 */
#include "bench/tpcb/tpcb_report.h"

#include <inttypes.h>

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

int tpcb_log_tx_line(char *buf, size_t len, const struct tpcb_done *d,
		     int64_t epoch_offset_ns, bool with_lag, bool with_retries)
{
	int64_t epoch_us = ((int64_t)d->end_ns + epoch_offset_ns) / 1000;
	char lat[32];
	int n;

	if (d->outcome == TPCB_SKIPPED)
		snprintf(lat, sizeof(lat), "skipped");
	else if (d->outcome == TPCB_FAILED)
		snprintf(lat, sizeof(lat), "failed");
	else
		snprintf(lat, sizeof(lat), "%.0f", (double)(d->end_ns - d->sched_ns) / 1e3);
	n = snprintf(buf, len, "%d %" PRIu64 " %s 0 %" PRId64 " %" PRId64, d->client,
		     d->tx_no, lat, epoch_us / 1000000, epoch_us % 1000000);
	if (with_lag)
		n += snprintf(buf + n, len - (size_t)n, " %.0f",
			      (double)(d->start_ns - d->sched_ns) / 1e3);
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
	int n = snprintf(buf, len, "progress: %.1f s, %.1f tps, lat %.3f ms stddev %.3f, %" PRIu64 " failed",
			 p->elapsed_s, p->tps, p->lat_ms, p->stddev_ms, p->failed);

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
	fprintf(out, "transaction type: <builtin: %s>\n", tpcb_builtin_label(cfg->builtin));
	fprintf(out, "scaling factor: %lld\n", t->scale);
	fprintf(out, "query mode: %s\n", tpcb_protocol_name(cfg->protocol));
	fprintf(out, "number of clients: %d\n", cfg->clients);
	fprintf(out, "number of threads: %d\n", cfg->threads);
	if (cfg->pipeline > 0)
		fprintf(out, "pipeline: up to %d transactions in flight per client\n", cfg->pipeline);
	fprintf(out, "maximum number of tries: %d\n", cfg->max_tries);
	if (cfg->duration_s > 0)
		fprintf(out, "duration: %g s\n", cfg->duration_s);
	else
		fprintf(out, "number of transactions per client: %lld\n", cfg->transactions);
}

static void print_counts(FILE *out, const struct tpcb_config *cfg, const struct tpcb_result *r)
{
	uint64_t total = r->committed + r->failed;

	if (cfg->transactions > 0)
		fprintf(out, "number of transactions actually processed: %" PRIu64 "/%" PRIu64 "\n",
			r->committed, r->expected);
	else
		fprintf(out, "number of transactions actually processed: %" PRIu64 "\n", r->committed);
	fprintf(out, "number of failed transactions: %" PRIu64 " (%.3f%%)\n", r->failed,
		pct(r->failed, total));
	if (cfg->max_tries != 1) {
		fprintf(out, "number of transactions retried: %" PRIu64 " (%.3f%%)\n", r->retried,
			pct(r->retried, total));
		fprintf(out, "total number of retries: %" PRIu64 "\n", r->retries);
	}
	if (cfg->rate_tps > 0 && cfg->latency_limit_ms > 0)
		fprintf(out, "number of transactions skipped: %" PRIu64 " (%.3f%%)\n", r->skipped,
			pct(r->skipped, total + r->skipped));
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

static void print_statements(FILE *out, const struct tpcb_config *cfg, const struct tpcb_result *r)
{
	bool retries = cfg->max_tries != 1;

	fprintf(out, "statement latencies in milliseconds%s:\n",
		retries ? ", failures and retries" : " and failures");
	for (int i = 0; i < r->nstmts; i++) {
		const struct tpcb_stmt_result *s = &r->stmt[i];

		fprintf(out, "%14.3f %11" PRIu64, s->latency_ms, s->failures);
		if (retries)
			fprintf(out, " %11" PRIu64, s->retries);
		fprintf(out, "  %s\n", s->sql);
	}
}

void tpcb_report_print(FILE *out, const struct tpcb_config *cfg,
		       const struct tpcb_target *t, const struct tpcb_result *r)
{
	uint64_t total = r->committed + r->failed;

	fprintf(out, "eicbench tpcb (server %s)\n", t->server_version_str);
	print_settings(out, cfg, t);
	print_counts(out, cfg, r);
	print_latency(out, cfg, r);
	fprintf(out, "initial connection time = %.3f ms\n", r->connect_ms);
	fprintf(out, "tps = %f (without initial connection time)\n", tpcb_result_tps(r));
	fprintf(out, "client CPU = %.3f s user, %.3f s system (%.2f µs per transaction)\n",
		r->cpu_user_s, r->cpu_sys_s,
		total ? (r->cpu_user_s + r->cpu_sys_s) * 1e6 / (double)total : 0.0);
	if (cfg->per_statement)
		print_statements(out, cfg, r);
}

void tpcb_report_init(FILE *out, const struct tpcb_init_result *r)
{
	fprintf(out, "done in %.2f s (drop tables %.2f s, create tables %.2f s, client-side generate %.2f s, vacuum %.2f s, primary keys %.2f s)\n",
		r->total_s, r->drop_s, r->create_s, r->generate_s, r->vacuum_s, r->keys_s);
	fprintf(out, "scale %lld: pgbench_accounts %.1f MiB, all tables %.1f MiB\n", r->scale,
		(double)r->accounts_bytes / 1048576.0, (double)r->total_bytes / 1048576.0);
}
