/*
 * tpcb_run: one TPC-B run. Clients are dealt to the threads as evenly as
 * possible (-c need not be a multiple of -j); the clock starts when every
 * thread has connected its clients; this thread then sleeps in short
 * slices, reporting -P through the callback, until all have finished; the
 * threads' figures are merged after the join. CPU time is the process's
 * (getrusage) while the clock ran.
 */
#include "bench/tpcb/tpcb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench/tpcb/tpcb_thread.h"
#include "io/clock.h"

#define WATCH_SLICE_MS 50

struct run {
	const struct tpcb_config *cfg;
	struct tpcb_script  script;
	struct tpcb_shared  sh;
	struct tpcb_thread *threads;
	struct tpcb_client *clients;
	FILE              **logs;
	int                 started;       /* threads running */
	struct rusage       ru0;
};

/* pgbench's names: pgbench_log.PID for thread 0, pgbench_log.PID.N for the rest. */
static int open_logs(struct run *r, char *err, size_t errlen)
{
	const struct tpcb_config *cfg = r->cfg;

	for (int i = 0; cfg->log_dir && i < cfg->threads; i++) {
		char path[4096];

		if (i == 0)
			snprintf(path, sizeof(path), "%s/pgbench_log.%d", cfg->log_dir, (int)getpid());
		else
			snprintf(path, sizeof(path), "%s/pgbench_log.%d.%d", cfg->log_dir, (int)getpid(), i);
		r->logs[i] = fopen(path, "w");
		if (!r->logs[i]) {
			snprintf(err, errlen, "cannot write the log %s: %s", path, strerror(errno));
			return -errno;
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

static int setup(struct run *r, const struct server *s, const struct tpcb_target *t,
		 char *err, size_t errlen)
{
	const struct tpcb_config *cfg = r->cfg;
	int ret = tpcb_script_load(cfg->builtin, &r->script, err, errlen);

	if (ret < 0)
		return ret;
	r->sh.script = &r->script;
	r->sh.srv = s;
	r->sh.scale = t->scale;
	r->threads = calloc((size_t)cfg->threads, sizeof(*r->threads));
	r->clients = calloc((size_t)cfg->clients, sizeof(*r->clients));
	r->logs = calloc((size_t)cfg->threads, sizeof(*r->logs));
	if (!r->threads || !r->clients || !r->logs) {
		snprintf(err, errlen, "out of memory for %d clients", cfg->clients);
		return -ENOMEM;
	}
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

		tpcb_thread_init(t, &r->sh, i, r->clients, first, n, r->logs[i]);
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

static void stmt_results(const struct run *r, const struct tpcb_stats *st,
			 struct tpcb_result *res)
{
	res->nstmts = r->script.nstmts;
	for (int i = 0; i < res->nstmts; i++) {
		struct tpcb_stmt_result *o = &res->stmt[i];
		const struct tpcb_stmt_stats *s = &st->stmt[i];

		snprintf(o->sql, sizeof(o->sql), "%s", r->script.stmt[i].text);
		o->count = s->count;
		o->failures = s->failures;
		o->retries = s->retries;
		o->latency_ms = s->count ? s->sum_ns / (double)s->count / 1e6 : 0.0;
	}
}

static double cpu_s(const struct timeval *a, const struct timeval *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_usec - a->tv_usec) / 1e6;
}

static void merge(struct run *r, struct tpcb_result *res)
{
	struct tpcb_stats *total = malloc(sizeof(*total));
	uint64_t end = r->sh.start_ns;
	struct rusage ru1;

	getrusage(RUSAGE_SELF, &ru1);
	res->cpu_user_s = cpu_s(&r->ru0.ru_utime, &ru1.ru_utime);
	res->cpu_sys_s = cpu_s(&r->ru0.ru_stime, &ru1.ru_stime);
	if (!total)
		return;
	tpcb_stats_init(total);
	for (int i = 0; i < r->started; i++) {
		struct tpcb_thread *t = &r->threads[i];

		tpcb_stats_merge(total, &t->stats);
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
	stmt_results(r, total, res);
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
