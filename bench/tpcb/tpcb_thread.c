/*
 * tpcb_thread: a thread's connections, its epoll loop and its counting;
 * see tpcb_thread.h. Every wait in the loop ends by the next check (100 ms)
 * at the latest, so the stop flag, the end of -T and waits longer than the
 * bound are seen even when no socket moves.
 */
#include "bench/tpcb/tpcb_thread.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "bench/tpcb/tpcb_report.h"
#include "io/clock.h"

#define CHECK_NS        100000000ULL    /* stop flag, -T end, overdue waits */
#define STOP_GRACE_NS   5000000000ULL   /* after a stop, in-flight work gets this long */
#define EVENTS          64
#define BUSY_POLL       16              /* rounds of ready clients between socket polls */

/* ---- counting and logs ---------------------------------------------------- */

static int64_t epoch_s(const struct tpcb_thread *t, uint64_t mono_ns)
{
	return ((int64_t)mono_ns + t->sh->epoch_offset_ns) / 1000000000;
}

static void log_done(struct tpcb_thread *t, const struct tpcb_done *d)
{
	const struct tpcb_config *cfg = t->sh->cfg;
	bool throttled = t->ctx.schedule != NULL;
	int64_t interval = (int64_t)cfg->aggregate_s;
	char line[256];

	if (cfg->sampling_rate > 0 && tpcb_prng_double(&t->sample) > cfg->sampling_rate)
		return;
	if (interval <= 0) {
		tpcb_log_tx_line(line, sizeof(line), d, t->sh->epoch_offset_ns, throttled,
				 cfg->max_tries != 1, cfg->failures_detailed);
		fputs(line, t->log);
		return;
	}
	while (epoch_s(t, d->end_ns) >= t->agg.start_s + interval) {
		tpcb_log_agg_line(line, sizeof(line), &t->agg);
		fputs(line, t->log);
		tpcb_agg_reset(&t->agg, t->agg.start_s + interval);
	}
	tpcb_agg_add(&t->agg, d, throttled);
}

static void tally(void *arg, const struct tpcb_done *d)
{
	struct tpcb_thread *t = arg;

	tpcb_stats_add(&t->stats, d, t->ctx.late_ns, t->ctx.schedule != NULL);
	tpcb_live_add(&t->live, &t->live_own, d);
	if (t->log)
		log_done(t, d);
}

/* The last, partial interval of the aggregate log. */
static void finish_log(struct tpcb_thread *t)
{
	char line[256];

	if (!t->log || t->sh->cfg->aggregate_s <= 0)
		return;
	tpcb_log_agg_line(line, sizeof(line), &t->agg);
	fputs(line, t->log);
}

/* ---- the clients in the loop ---------------------------------------------- */

static int watch(struct tpcb_thread *t, struct tpcb_client *c, int op)
{
	struct epoll_event ev = { .events = EPOLLIN | (c->want_write ? EPOLLOUT : 0),
				  .data.ptr = c };

	c->watch_out = c->want_write;
	if (op == EPOLL_CTL_ADD)
		c->registered = true;
	return epoll_ctl(t->epfd, op, c->fd, &ev);
}

/* After C moved: leave the loop when it is through, (un)arm EPOLLOUT, and
 * watch a new connection (-C). */
static void settle_client(struct tpcb_thread *t, struct tpcb_client *c)
{
	if (c->retired)
		return;
	if (c->state == TPCB_C_RUN) {
		if (c->conn && !c->registered)
			watch(t, c, EPOLL_CTL_ADD);
		else if (c->conn && c->want_write != c->watch_out)
			watch(t, c, EPOLL_CTL_MOD);
		return;
	}
	c->retired = true;
	t->running--;
	if (c->conn && c->registered)
		epoll_ctl(t->epfd, EPOLL_CTL_DEL, c->fd, NULL);
	if (c->state == TPCB_C_ABORTED && t->aborted++ == 0)
		snprintf(t->abort_msg, sizeof(t->abort_msg), "%s", c->msg);
	if (c->state == TPCB_C_ABORTED && t->sh->cfg->exit_on_abort)
		__atomic_store_n(&t->sh->abort_all, 1, __ATOMIC_RELAXED);
}

static void kick_all(struct tpcb_thread *t, uint64_t now)
{
	for (int i = 0; i < t->nclients; i++) {
		tpcb_client_kick(&t->clients[i], now);
		settle_client(t, &t->clients[i]);
	}
}

/* Clients whose -R slot or \sleep has come, and those ready at once;
 * true when one is ready again (the next wait must not sleep). */
static bool kick_due(struct tpcb_thread *t, uint64_t now)
{
	bool again = false;

	for (int i = 0; i < t->nclients; i++) {
		struct tpcb_client *c = &t->clients[i];
		uint64_t w = tpcb_client_wake_ns(c);

		if (c->ready || (w && w <= now)) {
			tpcb_client_kick(c, now);
			settle_client(t, c);
			again |= c->ready && c->state == TPCB_C_RUN;
		}
	}
	return again;
}

/* The end of -T, the stop flag, waits past the bound. */
static void check(struct tpcb_thread *t, uint64_t now)
{
	const struct tpcb_config *cfg = t->sh->cfg;
	bool stop = cfg->stop && *cfg->stop, all = __atomic_load_n(&t->sh->abort_all, __ATOMIC_RELAXED);

	if (!t->ctx.ending && ((t->ctx.end_ns && now >= t->ctx.end_ns) || stop || all)) {
		t->ctx.ending = true;
		if (stop)
			t->stop_deadline_ns = now + STOP_GRACE_NS;
		if (all)
			t->stop_deadline_ns = now;
		kick_all(t, now);
	}
	for (int i = 0; i < t->nclients; i++) {
		struct tpcb_client *c = &t->clients[i];

		if (t->stop_deadline_ns && now >= t->stop_deadline_ns)
			tpcb_client_abandon(c);
		tpcb_client_check_wait(c, now, (uint64_t)(cfg->wait_bound_s * 1e9));
		settle_client(t, c);
	}
	t->next_check_ns = now + CHECK_NS;
}

/* Until when the loop may sleep. */
static uint64_t deadline(const struct tpcb_thread *t)
{
	uint64_t d = t->next_check_ns;

	if (!t->ctx.ending && t->ctx.end_ns && t->ctx.end_ns < d)
		d = t->ctx.end_ns;
	if (t->wakes)
		for (int i = 0; i < t->nclients; i++) {
			uint64_t w = tpcb_client_wake_ns(&t->clients[i]);

			if (w && w < d)
				d = w;
		}
	return d;
}

static int wait_events(struct tpcb_thread *t, struct epoll_event *ev, uint64_t now, bool busy)
{
	uint64_t until = busy ? now : deadline(t), ns = until > now ? until - now : 0;
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000),
			       .tv_nsec = (long)(ns % 1000000000) };
	int n = epoll_pwait2(t->epfd, ev, EVENTS, &ts, NULL);

	if (n < 0 && errno == ENOSYS)	/* kernels before 5.11 */
		n = epoll_wait(t->epfd, ev, EVENTS, (int)((ns + 999999) / 1000000));
	return n < 0 ? 0 : n;
}

static void loop(struct tpcb_thread *t)
{
	struct epoll_event ev[EVENTS];
	uint64_t now = clock_now_ns();
	bool busy = false;
	unsigned spins = 0;

	t->next_check_ns = now + CHECK_NS;
	kick_all(t, now);
	while (t->running > 0) {
		/* a client ready at once: the sockets are looked at every BUSY_POLL rounds */
		int n = busy && ++spins % BUSY_POLL ? 0 : wait_events(t, ev, now, busy);

		for (int i = 0; i < n; i++) {
			struct tpcb_client *c = ev[i].data.ptr;

			now = clock_now_ns();
			if (ev[i].events & EPOLLOUT)
				tpcb_client_output(c);
			if (ev[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP))
				tpcb_client_input(c, now);
			settle_client(t, c);
		}
		now = clock_now_ns();
		busy = t->wakes ? kick_due(t, now) : false;
		if (now >= t->next_check_ns || (t->ctx.end_ns && now >= t->ctx.end_ns &&
						!t->ctx.ending))
			check(t, now);
	}
}

/* ---- set-up and the thread's body ----------------------------------------- */

static int connect_all(struct tpcb_thread *t)
{
	t->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (t->epfd < 0) {
		snprintf(t->err, sizeof(t->err), "epoll_create1: %s", strerror(errno));
		return -errno;
	}
	for (int i = 0; i < t->nclients; i++) {
		struct tpcb_client *c = &t->clients[i];
		int id = t->first_id + i;
		int ret = tpcb_client_open(c, &t->ctx, id, &t->client_rng[id], t->err, sizeof(t->err));

		if (ret < 0)
			return ret;
		if (c->conn && watch(t, c, EPOLL_CTL_ADD) < 0) {
			snprintf(t->err, sizeof(t->err), "epoll_ctl: %s", strerror(errno));
			return -errno;
		}
	}
	return 0;
}

static void begin(struct tpcb_thread *t)
{
	const struct tpcb_shared *sh = t->sh;
	const struct tpcb_config *cfg = sh->cfg;

	t->ctx.end_ns = sh->end_ns;
	t->running = t->nclients;
	if (cfg->rate_tps > 0) {
		tpcb_schedule_init(&t->schedule, &t->throttle, cfg->rate_tps / cfg->threads, sh->start_ns);
		t->ctx.schedule = &t->schedule;
	}
	tpcb_agg_reset(&t->agg, epoch_s(t, sh->start_ns));
}

/* Does a script sleep or could a client be ready at once? Then the loop
 * looks at the clients' wake times. */
static bool may_wake(const struct tpcb_config *cfg)
{
	const struct tpcb_scripts *set = cfg->scripts;

	if (cfg->rate_tps > 0)
		return true;
	for (int i = 0; i < set->n; i++) {
		bool sql = false;

		for (int k = 0; k < set->s[i].ncmds; k++)
			sql |= set->s[i].cmd[k].kind == TPCB_SQL;
		if (set->s[i].waits || !sql)
			return true;
	}
	return false;
}

int tpcb_thread_init(struct tpcb_thread *t, struct tpcb_shared *sh, int id,
		     struct tpcb_client *clients, int first, int n, FILE *log,
		     const struct tpcb_prng rng[3], const struct tpcb_prng *client_rng)
{
	const struct tpcb_config *cfg = sh->cfg;

	memset(t, 0, sizeof(*t));
	t->id = id;
	t->sh = sh;
	t->clients = clients + first;
	t->first_id = first;
	t->nclients = n;
	t->log = log;
	t->epfd = -1;
	t->choose = rng[0];
	t->throttle = rng[1];
	t->sample = rng[2];
	t->client_rng = client_rng;
	t->wakes = may_wake(cfg);
	t->ctx = (struct tpcb_ctx){ .cfg = cfg, .set = cfg->scripts, .srv = sh->srv,
		.scale = sh->scale, .default_seed = sh->default_seed,
		.late_ns = (uint64_t)(cfg->latency_limit_ms * 1e6), .choose = &t->choose,
		.stats = &t->stats, .tally = tally, .tally_arg = t };
	return tpcb_stats_init(&t->stats, cfg->scripts->ncmds, cfg->scripts->n);
}

void tpcb_thread_free(struct tpcb_thread *t)
{
	tpcb_stats_free(&t->stats);
}

void *tpcb_thread_main(void *arg)
{
	struct tpcb_thread *t = arg;
	struct tpcb_shared *sh = t->sh;

	t->ret = connect_all(t);
	pthread_mutex_lock(&sh->lock);
	if (t->ret < 0)
		sh->connect_failed = 1;
	sh->arrived++;
	pthread_cond_broadcast(&sh->cond);
	while (!sh->open)
		pthread_cond_wait(&sh->cond, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
	if (!sh->connect_failed) {
		begin(t);
		loop(t);
		finish_log(t);
	}
	t->end_ns = clock_now_ns();
	for (int i = 0; i < t->nclients; i++)
		tpcb_client_close(&t->clients[i]);
	if (t->epfd >= 0)
		close(t->epfd);
	__atomic_add_fetch(&sh->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}
