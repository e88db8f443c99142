/*
 * cmd_device: "eicbench device emulate": a storage device eicbench can
 * emulate (io/emulate/), mounted over a backing folder, in the foreground
 * until Ctrl-C or as a daemon; "--stop MOUNT" stops one (refused while a
 * cluster or a process uses it) and prints what it served. The options
 * are checked before anything is mounted; the model's figures are parsed
 * here (durations, percentages, rates), the paths by the emulator.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/cli/manpage.h"
#include "bench/cli/opts.h"
#include "bench/cmd/cmd.h"
#include "bench/pg/inuse.h"
#include "io/emulate/control.h"
#include "io/emulate/emulate.h"
#include "io/file.h"

#define CMD "device emulate"
#define STOP_TIMEOUT_S 60.0
#define READY_TIMEOUT_MS 30000

struct device_opts {
	const char *backing, *mount, *latency, *jitter, *layout, *bandwidth, *stop;
	long long   parallel, members, seed, threads;
	uint64_t    stripe, read_ahead;
	bool        daemon, json, no_realtime;
};

static const struct opt_desc device_table[] = {
	{ "backing", OPT_STR, offsetof(struct device_opts, backing), 0, 0, "DIR", NULL,
	  "the folder whose files the device serves (they stay the truth: writes go straight there)" },
	{ "mount", OPT_STR, offsetof(struct device_opts, mount), 0, 0, "DIR", NULL,
	  "an empty folder to mount the device on" },
	{ "latency", OPT_STR, offsetof(struct device_opts, latency), 0, 0, "TIME", NULL,
	  "each read's service time, 0 to 10s (ns, us, ms or s: 2ms, 150us)" },
	{ "jitter", OPT_STR, offsetof(struct device_opts, jitter), 0, 0, "PCT", "0%",
	  "the latency varies uniformly by up to this share, 0% to 99%, from --seed" },
	{ "parallel", OPT_INT, offsetof(struct device_opts, parallel), 1, MODEL_MAX_PARALLEL, "N", "1",
	  "requests each member serves at once (more wait in line)" },
	{ "members", OPT_INT, offsetof(struct device_opts, members), 1, MODEL_MAX_MEMBERS, "N", "1",
	  "drives in the array" },
	{ "stripe", OPT_SIZE, offsetof(struct device_opts, stripe), MODEL_STRIPE_UNIT, MODEL_MAX_STRIPE, "SIZE", "64k",
	  "stripe unit across members, a multiple of 4k" },
	{ "layout", OPT_STR, offsetof(struct device_opts, layout), 0, 0, "raid0|raid10", "raid0",
	  "raid0: stripes over the members; raid10: over mirrored pairs, reads to the less busy drive" },
	{ "bandwidth", OPT_STR, offsetof(struct device_opts, bandwidth), 0, 0, "RATE", "none",
	  "each member's transfer rate (500MB/s, 1.5GB/s, 200MiB/s; none: no limit)" },
	{ "read-ahead", OPT_SIZE, offsetof(struct device_opts, read_ahead), 0, EMULATE_MAX_READ_AHEAD, "SIZE", "128k",
	  "the kernel's readahead on the mount, as a disk's read_ahead_kb (0: none)" },
	{ "seed", OPT_INT, offsetof(struct device_opts, seed), 0, INT64_MAX, "S", "1",
	  "seed of the jitter" },
	{ "threads", OPT_INT, offsetof(struct device_opts, threads), 1, 256, "N", "16",
	  "FUSE worker threads at most (reads are answered apart from them)" },
	{ "no-realtime", OPT_FLAG, offsetof(struct device_opts, no_realtime), 0, 0, NULL, NULL,
	  "answer reads from an ordinary thread, not a real-time one (root only)" },
	{ "daemon", OPT_FLAG, offsetof(struct device_opts, daemon), 0, 0, NULL, NULL,
	  "return once mounted; the emulator runs on (log in MOUNT.emulate.log)" },
	{ "stop", OPT_STR, offsetof(struct device_opts, stop), 0, 0, "MOUNT", NULL,
	  "stop the device emulated at MOUNT and print what it served" },
	{ "json", OPT_FLAG, offsetof(struct device_opts, json), 0, 0, NULL, NULL,
	  "with --stop: print the emulator's final state as JSON on stdout" },
	{ 0 }
};

#define USAGE "eicbench device emulate --backing DIR --mount DIR --latency TIME [--jitter PCT] [--parallel N]\n" \
	      "                        [--members N --stripe SIZE --layout raid0|raid10] [--bandwidth RATE]\n" \
	      "                        [--read-ahead SIZE] [--daemon]\n" \
	      "       eicbench device emulate --stop MOUNT [--json]"

/* ---- the model's figures ---- */

static int parse_latency(const char *s, uint64_t *ns, char *err, size_t len)
{
	double sec;

	/* the grammar of every duration (opts_parse_seconds), 0 to 10 s */
	if (s && opts_parse_seconds(s, &sec) == 0 && sec * 1e9 <= (double)MODEL_MAX_LATENCY_NS) {
		*ns = (uint64_t)(sec * 1e9 + 0.5);
		return 0;
	}
	snprintf(err, len, "--latency: '%s' is not a service time from 0 to 10s; give a decimal number and a unit, ns, us, ms or s (2ms, 150us, 0ms; none: s)",
		 s ? s : "");
	return -EINVAL;
}

static int parse_jitter(const char *s, double *frac, char *err, size_t len)
{
	const char *rest;
	double v;

	if (!s) {
		*frac = 0;
		return 0;
	}
	if (opts_parse_decimal(s, &v, &rest) == 0 && (!strcmp(rest, "%") || !*rest) && v < 100) {
		*frac = v / 100;
		return 0;
	}
	snprintf(err, len, "--jitter: '%s' is not a share from 0%% to 99%% (e.g. 10%%)", s);
	return -EINVAL;
}

static int parse_bandwidth(const char *s, uint64_t *bps, char *err, size_t len)
{
	static const char *const units[] = { "B/s", "kB/s", "KB/s", "MB/s", "GB/s", "KiB/s", "MiB/s", "GiB/s", NULL };
	static const double scale[] = { 1, 1e3, 1e3, 1e6, 1e9, 0x1p10, 0x1p20, 0x1p30 };
	const char *rest;
	double v;

	*bps = 0;
	if (!s || !strcasecmp(s, "none"))
		return 0;
	if (opts_parse_decimal(s, &v, &rest) == 0 && v > 0)
		for (int i = 0; units[i]; i++)
			if (!strcmp(rest, units[i]) && v * scale[i] >= 1e3 && v * scale[i] < 1e15) {
				*bps = (uint64_t)(v * scale[i]);
				return 0;
			}
	snprintf(err, len, "--bandwidth: '%s' is not a transfer rate; give a decimal number and B/s, kB/s, MB/s, GB/s (powers of 1000) or KiB/s, MiB/s, GiB/s, at least 1 kB/s, or none",
		 s);
	return -EINVAL;
}

static int parse_model(const struct device_opts *o, struct model_cfg *m, char *err, size_t len)
{
	int rc = parse_latency(o->latency, &m->latency_ns, err, len);

	if (rc == 0)
		rc = parse_jitter(o->jitter, &m->jitter, err, len);
	if (rc == 0)
		rc = parse_bandwidth(o->bandwidth, &m->bandwidth_bps, err, len);
	if (rc < 0)
		return rc;
	m->parallel = (unsigned)o->parallel;
	m->members = (unsigned)o->members;
	m->stripe_bytes = o->stripe;
	m->seed = (uint64_t)o->seed;
	if (o->stripe % MODEL_STRIPE_UNIT) {
		snprintf(err, len, "--stripe: %" PRIu64 " bytes is not a multiple of 4 KiB; give 4k, 8k, 64k, 1m, ...", o->stripe);
		return -EINVAL;
	}
	if (o->read_ahead % 4096) {
		snprintf(err, len, "--read-ahead: %" PRIu64 " bytes is not a multiple of 4 KiB (the kernel reads ahead in pages); give 0, 128k, 1m, ...",
			 o->read_ahead);
		return -EINVAL;
	}
	if (o->layout && strcmp(o->layout, "raid0") && strcmp(o->layout, "raid10")) {
		snprintf(err, len, "--layout: '%s' is not a layout; give raid0 or raid10", o->layout);
		return -EINVAL;
	}
	m->layout = o->layout && !strcmp(o->layout, "raid10") ? MODEL_RAID10 : MODEL_RAID0;
	if (m->layout == MODEL_RAID10 && m->members % 2) {
		snprintf(err, len, "--members %u: raid10 mirrors pairs of members; give an even number", m->members);
		return -EINVAL;
	}
	return 0;
}

/* ---- what it served ---- */

static void print_unit(const char *name, const json_t *u)
{
	const json_t *sz;
	size_t i;

	printf("%-10s %10" JSON_INTEGER_FORMAT " reads %9.1f MiB  mean %7.3f ms  in flight mean %6.2f max %4" JSON_INTEGER_FORMAT "  busy %7.2f s",
	       name, json_integer_value(json_object_get(u, "reads")),
	       (double)json_integer_value(json_object_get(u, "read_bytes")) / 1048576.0,
	       json_number_value(json_object_get(u, "mean_read_ms")),
	       json_number_value(json_object_get(u, "mean_inflight")),
	       json_integer_value(json_object_get(u, "max_inflight")),
	       json_number_value(json_object_get(u, "busy_s")));
	printf("  sizes");
	json_array_foreach(json_object_get(u, "read_sizes"), i, sz) {
		const json_t *max = json_object_get(sz, "max_bytes");

		if (json_is_null(max))
			printf(" larger:%" JSON_INTEGER_FORMAT, json_integer_value(json_object_get(sz, "reads")));
		else
			printf(" <=%" JSON_INTEGER_FORMAT "k:%" JSON_INTEGER_FORMAT, json_integer_value(max) / 1024,
			       json_integer_value(json_object_get(sz, "reads")));
	}
	printf("\n");
}

static void print_served(const json_t *state)
{
	const json_t *c = json_object_get(state, "counters"), *m;
	char name[32];
	size_t i;

	printf("model:     %s\n", json_string_value(json_object_get(json_object_get(state, "model"), "summary")) ?: "?");
	printf("served for %.1f s; writes %" JSON_INTEGER_FORMAT " (%.1f MiB) passed through\n",
	       json_number_value(json_object_get(c, "elapsed_s")),
	       json_integer_value(json_object_get(json_object_get(c, "device"), "writes")),
	       (double)json_integer_value(json_object_get(json_object_get(c, "device"), "write_bytes")) / 1048576.0);
	print_unit("device", json_object_get(c, "device"));
	json_array_foreach(json_object_get(c, "members"), i, m) {
		snprintf(name, sizeof(name), "member %zu", i);
		if (json_array_size(json_object_get(c, "members")) > 1)
			print_unit(name, m);
	}
}

/* ---- --stop ---- */

static int do_stop(const struct device_opts *o)
{
	struct emulate_state st;
	char err[PATH_MAX * 3], path[PATH_MAX + 32];
	int rc = emulate_state_read(o->stop, &st, err, sizeof(err));

	if (rc == 0 && !st.alive && st.mounted)
		rc = -EINVAL, snprintf(err, sizeof(err), "--stop '%s': its emulator (pid %d) is gone and left the mount behind; clean it with: fusermount3 -u %s",
				       o->stop, (int)st.pid, st.mount);
	else if (rc == 0 && !st.alive)
		rc = -EINVAL, snprintf(err, sizeof(err), "--stop '%s': no emulator runs there (the last one %s)", o->stop,
				       json_string_value(json_object_get(st.json, "state")) ?: "ended");
	if (rc == 0 && inuse_find(st.mount, err, sizeof(err)) > 0)
		rc = -EINVAL;
	if (rc == 0 && (rc = emulate_stop(&st, STOP_TIMEOUT_S)) < 0)
		snprintf(err, sizeof(err), "the emulator (pid %d) did not stop: %s", (int)st.pid, strerror(-rc));
	if (rc < 0) {
		emulate_state_free(&st);
		return cmd_fail(CMD, rc == -ENOENT ? -EINVAL : rc, err);
	}
	emulate_state_free(&st);
	if ((rc = emulate_state_read(o->stop, &st, err, sizeof(err))) < 0)
		return cmd_fail(CMD, rc, err);
	emulate_state_path(st.mount, path, sizeof(path));
	if (o->json) {
		json_dumpf(st.json, stdout, JSON_INDENT(2));
		printf("\n");
	} else {
		printf("stopped the emulated device on %s (pid %d); its counters are in %s\n", st.mount, (int)st.pid, path);
		print_served(st.json);
	}
	emulate_state_free(&st);
	return 0;
}

/* ---- emulate ---- */

/* The command line as words, for the state file (secrets never here). */
static char *command_words(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = -2; i < argc; i++)
		len += strlen(argv[i]) + 1;
	if (!(s = calloc(1, len)))
		return NULL;
	for (int i = -2; i < argc; i++)
		strcat(strcat(s, i > -2 ? " " : ""), argv[i]);
	return s;
}

/* Fork; the child runs the emulator with its output in MOUNT.emulate.log,
 * the parent waits for it to say it mounted. Exit status. */
static int run_daemon(struct emulate_cfg *cfg, const char *words)
{
	char log[PATH_MAX + 16], buf[1200] = "";
	int p[2], fd;
	pid_t pid;
	ssize_t n = 0;
	struct pollfd pf;

	snprintf(log, sizeof(log), "%s.emulate.log", cfg->mount);
	if (pipe(p) < 0 || (pid = fork()) < 0)
		return cmd_fail(CMD, -errno, "cannot start the emulator's process");
	if (pid == 0) {
		close(p[0]);
		setsid();
		fd = file_create(log, O_APPEND);	/* never through a link at that name */
		if (fd >= 0)
			dup2(fd, 1), dup2(fd, 2);
		fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			dup2(fd, 0);
		cfg->ready_fd = p[1];
		cfg->log = stderr;
		setvbuf(stderr, NULL, _IOLBF, 0);
		_exit(emulate_run(cfg, buf, sizeof(buf)) == 0 ? 0 : 1);
	}
	close(p[1]);
	pf = (struct pollfd){ .fd = p[0], .events = POLLIN };
	if (poll(&pf, 1, READY_TIMEOUT_MS) > 0)
		n = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	buf[n > 0 ? n : 0] = '\0';
	if (strncmp(buf, "ok\n", 3) != 0)
		return cmd_fail(CMD, -EIO, buf[0] ? buf : "the emulator ended before it mounted (see its log)");
	printf("emulating on %s (pid %d): %s\nbacking %s; log %s; stop with: eicbench device emulate --stop %s\n",
	       cfg->mount, (int)pid, words, cfg->backing, log, cfg->mount);
	return 0;
}

static int run_foreground(struct emulate_cfg *cfg)
{
	struct emulate_state st;
	char err[1200];
	int rc;

	cfg->log = stderr;
	fprintf(stderr, "eicbench %s: serving %s at %s until Ctrl-C\n", CMD, cfg->backing, cfg->mount);
	rc = emulate_run(cfg, err, sizeof(err));
	if (rc < 0)
		return cmd_fail(CMD, rc, err);
	if (emulate_state_read(cfg->mount, &st, err, sizeof(err)) == 0)
		print_served(st.json);
	emulate_state_free(&st);
	return 0;
}

static int emulate(const struct device_opts *o, int argc, char **argv)
{
	char backing[PATH_MAX], mount[PATH_MAX], err[PATH_MAX * 2 + 256], words[256];
	struct emulate_cfg cfg = { .ready_fd = -1 };
	char *cmdline;
	int rc = o->latency ? parse_model(o, &cfg.model, err, sizeof(err)) :
		 (snprintf(err, sizeof(err), "--latency is needed: each read's service time (e.g. 2ms)"), -EINVAL);

	if (rc == 0)
		rc = emulate_check_paths(o->backing, o->mount, backing, mount, sizeof(mount), err, sizeof(err));
	if (rc < 0)
		return cmd_fail(CMD, rc, err);
	cfg.backing = backing;
	cfg.mount = mount;
	cfg.read_ahead_bytes = o->read_ahead;
	cfg.threads = (unsigned)o->threads;
	cfg.realtime = !o->no_realtime && geteuid() == 0;
	cmdline = command_words(argc, argv);
	cfg.command_line = cmdline;
	emulate_describe(&cfg.model, cfg.read_ahead_bytes, words, sizeof(words));
	fprintf(stderr, "eicbench %s: %s\n", CMD, words);
	rc = o->daemon ? run_daemon(&cfg, words) : run_foreground(&cfg);
	free(cmdline);
	return rc;
}

int cmd_device(int argc, char **argv)
{
	struct device_opts o = { .parallel = 1, .members = 1, .stripe = 64 << 10,
				 .read_ahead = 128 << 10, .seed = 1, .threads = 16 };
	char err[OPT_ERR_MAX];
	int rc;

	if (argc >= 1 && (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h") || !strcmp(argv[0], "-?"))) {
		opts_usage(stdout, USAGE, device_table);	/* its one verb's */
		return 0;
	}
	if (argc < 1 || strcmp(argv[0], "emulate")) {
		fprintf(stderr, "eicbench device: %s%s%s: give emulate (eicbench device emulate --help)\n",
			argc ? "'" : "no verb", argc ? argv[0] : "", argc ? "' is not a verb" : "");
		return EXIT_BAD_INPUT;
	}
	rc = opts_parse(device_table, &o, argc - 1, argv + 1, err, sizeof(err));
	if (rc == 1) {
		opts_usage(stdout, USAGE, device_table);
		return 0;
	}
	if (rc < 0)
		return cmd_fail(CMD, rc, err);
	if (o.stop && (o.backing || o.mount || o.latency || o.daemon))
		return cmd_fail(CMD, -EINVAL, "--stop takes the mount alone (and --json)");
	if (o.stop)
		return do_stop(&o);
	if (o.json)
		return cmd_fail(CMD, -EINVAL, "--json goes with --stop");
	return emulate(&o, argc, argv);
}

static const struct man_form device_forms[] = { { "emulate", USAGE, device_table }, { 0 } };

static const struct man_example device_examples[] = {
	{ "eicbench device emulate --backing /var/lib/emu --mount /mnt/emu --latency 1ms --parallel 16 --daemon",
	  "A cloud volume of 1 ms that serves 16 reads at once, over the files of /var/lib/emu." },
	{ "eicbench device emulate --backing /dev/shm/emu --mount /mnt/emu --latency 100us --parallel 32 --members 4 --layout raid10 --stripe 64k --bandwidth 500MB/s --daemon",
	  "A RAID 10 of four SATA SSDs, its backing files in memory so the backing disk plays no part." },
	{ "eicbench load --datadir data/pg --tablespace-dir /mnt/emu/ts",
	  "The data set in a tablespace on it; eicbench run --tablespace-dir /mnt/emu/ts gives that storage's verdict." },
	{ "eicbench device emulate --stop /mnt/emu",
	  "Unmount it and print what it served." },
	{ 0 }
};

const struct man_page cmd_device_page = {
	.name = "device",
	.summary = "devices eicbench can emulate: a FUSE mount with a known latency and parallelism",
	.forms = device_forms,
	.description =
	"An emulated storage device with a known service model: a FUSE file system serving the files of a backing folder at a mount point. Each member serves at most --parallel reads at once, first come first served; each takes --latency (times 1 plus or minus up to --jitter, seeded), then its bytes move over the member's one transfer channel at --bandwidth. A read maps to members by stripe units (raid0), or to the less busy drive of a mirrored pair (raid10). Writes, fsync and metadata pass straight to the backing files, which stay the truth. O_DIRECT works through it.\n\n"
	"The kernel's queue limits on the mount are raised past the model's (max_background and congestion_threshold at four times members x parallel) and reads are answered from one completion thread when the model says they are done, so the model, not the FUSE plumbing, is the limit. --read-ahead sets the kernel's readahead on the mount.\n\n"
	"The device publishes itself in MOUNT/.eicbench/ (diskstats, model, queue, model.json, counters.json): probes and sweeps of files there read its own counters as they read a disk's, and records name it emulated with its model. MOUNT.emulate.json beside the mount holds the model, the pid and the counters, written at start, on SIGUSR1 and at the end.\n\n"
	"--stop is refused while a running cluster has a tablespace on the mount or a process uses it. After SIGKILL the mount is left behind: the next eicbench command on it says so and how to clean it (fusermount3 -u MOUNT); nothing of the data set is lost.",
	.examples = device_examples,
	.exit_status = "2 also when the mount is gone (a killed emulator) or in use (--stop).",
	.files = "MOUNT.emulate.json\tthe model, pid, state and counters, beside the mount\nMOUNT.emulate.log\tthe daemon's log\nMOUNT/.eicbench/\twhat the device publishes while mounted",
	.see_also = "load run probe",
	.guide = "eicbench device emulate",
};
