/*
 * tpcb_run: one TPC-B run. Clients are dealt to the threads as evenly as
 * possible (-c need not be a multiple of -j); the clock starts when every
 * thread has connected its clients; this thread then sleeps in short
 * slices, reporting -P through the callback, until all have finished; the
 * threads' figures are merged after the join. CPU time is the process's
 * (getrusage) while the clock ran. The generators are seeded as pgbench
 * seeds them from --random-seed: one base sequence gives each client's in
 * order, then :default_seed, then each thread's three (script choice, -R
 * schedule, log sampling), so a script draws pgbench's values.
 */
#include "bench/tpcb/tpcb.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench/tpcb/tpcb_thread.h"
#include "io/clock.h"
#include "io/file.h"

#define WATCH_SLICE_MS 50

struct run {
	const struct tpcb_config *cfg;
	struct tpcb_shared  sh;
	struct tpcb_prng   *client_rng;
	struct tpcb_prng  (*thread_rng)[3];
	struct tpcb_thread *threads;
	struct tpcb_client *clients;
	FILE              **logs;
	int                 started;       /* threads running */
	struct rusage       ru0;
};

/* pgbench's names: PREFIX.PID for thread 0, PREFIX.PID.N for the rest
 * (PREFIX pgbench_log unless --log-prefix; a relative one in the log folder). */
static int open_logs(struct run *r, char *err, size_t errlen)
{
	const struct tpcb_config *cfg = r->cfg;
	const char *prefix = cfg->log_prefix ? cfg->log_prefix : "pgbench_log";
	const char *dir = prefix[0] == '/' ? "" : cfg->log_dir;

	for (int i = 0; cfg->log_dir && i < cfg->threads; i++) {
		char path[4096];

		if (i == 0)
			snprintf(path, sizeof(path), "%s%s%s.%d", dir, *dir ? "/" : "", prefix, (int)getpid());
		else
			snprintf(path, sizeof(path), "%s%s%s.%d.%d", dir, *dir ? "/" : "", prefix,
				 (int)getpid(), i);
		r->logs[i] = file_fopen_write(path);
		if (!r->logs[i]) {
			int rc = -errno;

			snprintf(err, errlen, "cannot write the log %s: %s", path, file_strerror(rc));
			return rc;
		}
		setvbuf(r->logs[i], NULL, _IOFBF, 1 << 18);
	}
	return 0;
}

static int close_logs(struct run *r, char *err, size_t errlen)
{
	int ret = 0;

	for (int i = 0; r->logs && i < r->cfg->threads; i++)
		if (r->logs[i] && fclose(r->logs[i]) != 0 && ret == 0) {
			snprintf(err, errlen, "cannot write a log in %s: %s", r->cfg->log_dir,
				 strerror(errno));
			ret = -EIO;
		}
	return ret;
}

/* pgbench's order of seeding; :default_seed unless -D gives it. */
static void seed_all(struct run *r)
{
	const struct tpcb_config *cfg = r->cfg;
	struct tpcb_prng base;

	tpcb_prng_seed(&base, cfg->seed);
	for (int i = 0; i < cfg->clients; i++)
		tpcb_prng_seed(&r->client_rng[i], tpcb_prng_u64(&base));
	r->sh.default_seed = (int64_t)tpcb_prng_u64(&base);
	for (int i = 0; i < cfg->threads; i++)
		for (int k = 0; k < 3; k++)
			tpcb_prng_seed(&r->thread_rng[i][k], tpcb_prng_u64(&base));
}

static int setup(struct run *r, const struct server *s, const struct tpcb_target *t,
		 char *err, size_t errlen)
{
	const struct tpcb_config *cfg = r->cfg;

	r->sh.srv = s;
	r->sh.scale = t->scale;
	r->threads = calloc((size_t)cfg->threads, sizeof(*r->threads));
	r->clients = calloc((size_t)cfg->clients, sizeof(*r->clients));
	r->logs = calloc((size_t)cfg->threads, sizeof(*r->logs));
	r->client_rng = calloc((size_t)cfg->clients, sizeof(*r->client_rng));
	r->thread_rng = calloc((size_t)cfg->threads, sizeof(*r->thread_rng));
	if (!r->threads || !r->clients || !r->logs || !r->client_rng || !r->thread_rng) {
		snprintf(err, errlen, "out of memory for %d clients", cfg->clients);
		return -ENOMEM;
	}
	seed_all(r);
	return open_logs(r, err, errlen);
}

static int spawn(struct run *r, char *err, size_t errlen)
{
	const struct tpcb_config *cfg = r->cfg;
	int first = 0;

	for (int i = 0; i < cfg->threads; i++) {
		int n = cfg->clients / cfg->threads + (i < cfg->clients % cfg->threads);
		struct tpcb_thread *t = &r->threads[i];
		int rc;

		if (tpcb_thread_init(t, &r->sh, i, r->clients, first, n, r->logs[i], r->thread_rng[i],
				     r->client_rng) < 0) {
			snprintf(err, errlen, "out of memory for thread %d", i);
			return -ENOMEM;
		}
		rc = pthread_create(&t->tid, NULL, tpcb_thread_main, t);
		if (rc != 0) {
			snprintf(err, errlen, "cannot start thread %d: %s", i, strerror(rc));
			return -rc;
		}
		r->started++;
		first += n;
	}
	return 0;
}

static int64_t epoch_offset_ns(void)
{
	struct timespec ts;

	/* the logs' Unix times; every interval still comes from the monotonic clock */
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - (int64_t)clock_now_ns();
}

/* Wait for every started thread to connect, start the clock, open the gate. */
static void start_clock(struct run *r, bool failed, uint64_t t0, struct tpcb_result *res)
{
	struct tpcb_shared *sh = &r->sh;

	pthread_mutex_lock(&sh->lock);
	while (sh->arrived < r->started)
		pthread_cond_wait(&sh->cond, &sh->lock);
	if (failed)
		sh->connect_failed = 1;
	res->connect_ms = (double)(clock_now_ns() - t0) / 1e6;
	getrusage(RUSAGE_SELF, &r->ru0);
	sh->epoch_offset_ns = epoch_offset_ns();
	sh->start_ns = clock_now_ns();
	if (r->cfg->duration_s > 0)
		sh->end_ns = sh->start_ns + (uint64_t)(r->cfg->duration_s * 1e9);
	sh->open = 1;
	pthread_cond_broadcast(&sh->cond);
	pthread_mutex_unlock(&sh->lock);
}

static void report_progress(struct run *r, uint64_t now, uint64_t *last,
			    struct tpcb_live *prev)
{
	struct tpcb_live cur = { 0 };
	struct tpcb_progress p;

	for (int i = 0; i < r->started; i++)
		tpcb_live_gather(&cur, &r->threads[i].live);
	tpcb_live_progress(prev, &cur, (double)(now - *last) / 1e9,
			   (double)(now - r->sh.start_ns) / 1e9, &p);
	p.epoch_s = (double)((int64_t)now + r->sh.epoch_offset_ns) / 1e9;
	r->cfg->progress(r->cfg->progress_arg, &p);
	*prev = cur;
	*last = now;
}

/* Sleep in slices until every thread is done, reporting -P on time. */
static void watch(struct run *r)
{
	const struct tpcb_config *cfg = r->cfg;
	uint64_t step = (uint64_t)(cfg->progress_s * 1e9), last = r->sh.start_ns;
	uint64_t next = last + step;
	struct tpcb_live prev = { 0 };

	while (__atomic_load_n(&r->sh.finished, __ATOMIC_ACQUIRE) < r->started) {
		uint64_t now = clock_now_ns();

		if (step && cfg->progress && now >= next) {
			report_progress(r, now, &last, &prev);
			next += step;
			continue;
		}
		clock_sleep_ms(step && next - now < WATCH_SLICE_MS * 1000000ULL ?
			       (int)((next - now) / 1000000) + 1 : WATCH_SLICE_MS);
	}
}

static void cmd_results(const struct run *r, const struct tpcb_stats *st, struct tpcb_result *res)
{
	const struct tpcb_scripts *set = r->cfg->scripts;

	for (int i = 0; i < set->n; i++)
		for (int k = 0; k < set->s[i].ncmds; k++) {
			int g = set->s[i].first + k;
			struct tpcb_cmd_result *o = &res->cmds[g];
			const struct tpcb_stmt_stats *s = &st->stmt[g];

			o->script = i;
			tpcb_cmd_first_line(&set->s[i].cmd[k], o->line, sizeof(o->line));
			o->count = s->count;
			o->failures = s->failures;
			o->retries = s->retries;
			o->latency_ms = s->count ? s->sum_ns / (double)s->count / 1e6 : 0.0;
		}
}

static void script_results(const struct tpcb_stats *st, struct tpcb_result *res)
{
	for (int i = 0; i < res->nscripts; i++) {
		const struct tpcb_script_stats *s = &st->script[i];
		struct tpcb_script_result *o = &res->scripts[i];
		double n = (double)s->committed, mean = n > 0 ? s->lat_sum_ns / n : 0;
		double var = n > 0 ? s->lat_sum2_ns / n - mean * mean : 0;

		*o = (struct tpcb_script_result){ .committed = s->committed, .failed = s->failed,
			.serialization_failures = s->ser_failures, .deadlock_failures = s->dl_failures,
			.skipped = s->skipped, .retried = s->retried, .retries = s->retries,
			.lat_mean_ms = mean / 1e6, .lat_stddev_ms = var > 0 ? sqrt(var) / 1e6 : 0 };
	}
}

static double cpu_s(const struct timeval *a, const struct timeval *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_usec - a->tv_usec) / 1e6;
}

static void merge(struct run *r, struct tpcb_result *res)
{
	const struct tpcb_scripts *set = r->cfg->scripts;
	struct tpcb_stats *total = malloc(sizeof(*total));
	uint64_t end = r->sh.start_ns;
	struct rusage ru1;

	getrusage(RUSAGE_SELF, &ru1);
	res->cpu_user_s = cpu_s(&r->ru0.ru_utime, &ru1.ru_utime);
	res->cpu_sys_s = cpu_s(&r->ru0.ru_stime, &ru1.ru_stime);
	res->cmds = calloc((size_t)set->ncmds + 1, sizeof(*res->cmds));
	res->scripts = calloc((size_t)set->n, sizeof(*res->scripts));
	if (!total || !res->cmds || !res->scripts || tpcb_stats_init(total, set->ncmds, set->n) < 0) {
		free(total);
		return;
	}
	res->ncmds = set->ncmds;
	res->nscripts = set->n;
	for (int i = 0; i < r->started; i++) {
		struct tpcb_thread *t = &r->threads[i];

		tpcb_stats_merge(total, &t->stats);
		res->connections_ms += t->ctx.connections_ns / 1e6;
		if (t->end_ns > end)
			end = t->end_ns;
		if (t->aborted && res->aborted_clients == 0)
			snprintf(res->abort_msg, sizeof(res->abort_msg), "%s", t->abort_msg);
		res->aborted_clients += t->aborted;
	}
	res->run_s = (double)(end - r->sh.start_ns) / 1e9;
	res->committed = total->committed;
	res->failed = total->failed;
	res->serialization_failures = total->ser_failures;
	res->deadlock_failures = total->dl_failures;
	res->retried = total->retried;
	res->retries = total->retries;
	res->skipped = total->skipped;
	res->late = total->late;
	res->latency = total->latency;
	res->lag_count = total->lag_count;
	res->lag_sum_ms = total->lag_sum_ns / 1e6;
	res->lag_max_ms = (double)total->lag_max_ns / 1e6;
	res->stopped_on_abort = __atomic_load_n(&r->sh.abort_all, __ATOMIC_RELAXED) != 0;
	cmd_results(r, total, res);
	script_results(total, res);
	tpcb_stats_free(total);
	free(total);
}

static void join(struct run *r)
{
	for (int i = 0; i < r->started; i++)
		pthread_join(r->threads[i].tid, NULL);
}

static void release(struct run *r)
{
	pthread_mutex_destroy(&r->sh.lock);
	pthread_cond_destroy(&r->sh.cond);
	for (int i = 0; r->threads && i < r->started; i++)
		tpcb_thread_free(&r->threads[i]);
	free(r->client_rng);
	free(r->thread_rng);
	free(r->threads);
	free(r->clients);
	free(r->logs);
	free(r);
}

/* The first thread's reason for not connecting. */
static void connect_error(const struct run *r, char *err, size_t errlen)
{
	for (int i = 0; i < r->started; i++)
		if (r->threads[i].ret < 0) {
			snprintf(err, errlen, "%s", r->threads[i].err);
			return;
		}
}

/* The clock runs: watch, join, merge. */
static int measure(struct run *r, struct tpcb_result *res, char *err, size_t errlen)
{
	const struct tpcb_config *cfg = r->cfg;

	watch(r);
	join(r);
	merge(r, res);
	res->interrupted = cfg->stop && *cfg->stop;
	if (res->aborted_clients) {
		snprintf(err, errlen, "%s", res->abort_msg);
		return -EIO;
	}
	return res->interrupted ? -EINTR : 0;
}

void tpcb_result_free(struct tpcb_result *r)
{
	free(r->cmds);
	free(r->scripts);
	r->cmds = NULL;
	r->scripts = NULL;
	r->ncmds = r->nscripts = 0;
}

int tpcb_run(const struct server *s, const struct tpcb_config *cfg,
	     const struct tpcb_target *t, struct tpcb_result *res,
	     char *err, size_t errlen)
{
	struct run *r = calloc(1, sizeof(*r));
	uint64_t t0 = clock_now_ns();
	int ret;

	if (!r)
		return -ENOMEM;
	memset(res, 0, sizeof(*res));
	hist_init(&res->latency);
	res->expected = cfg->transactions > 0 ? (uint64_t)cfg->clients * (uint64_t)cfg->transactions : 0;
	r->cfg = r->sh.cfg = cfg;
	pthread_mutex_init(&r->sh.lock, NULL);
	pthread_cond_init(&r->sh.cond, NULL);
	ret = setup(r, s, t, err, errlen);
	if (ret == 0)
		ret = spawn(r, err, errlen);
	start_clock(r, ret < 0, t0, res);
	if (ret == 0 && r->sh.connect_failed) {
		connect_error(r, err, errlen);
		ret = -EIO;
	}
	if (ret == 0)
		ret = measure(r, res, err, errlen);
	else
		join(r);
	if (close_logs(r, err, errlen) < 0 && ret == 0)
		ret = -EIO;
	release(r);
	return ret;
}
