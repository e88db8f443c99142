/*
 * cmd_probe: "eicbench probe --file PATH ...", "eicbench probe --relation
 * NAME ..." and "eicbench probe --cache-check ...": raw disk probes on a
 * file, device or set of PostgreSQL segment files, outside the database.
 * The options into a probe's configuration and plan (bench/probe/), the
 * form run, what it made shown (bench/cmd/probe_show.h). A result folder
 * holds meta.json, points.jsonl and curve.json (or cachecheck.json). Exit
 * 0 success, 1 a run failed, 2 bad usage or bad input.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "bench/cli/manpage.h"
#include "bench/cli/opts.h"
#include "bench/cli/stop.h"
#include "bench/cmd/cmd.h"
#include "bench/cmd/probe_show.h"
#include "bench/probe/probe_cache.h"
#include "bench/probe/probe_rel.h"
#define USAGE "eicbench probe --file PATH [--pattern random|seq|replay:FILE] [--seed S] [OPTIONS]\n" \
	"       eicbench probe --relation NAME [--query blog|sparse|FILE] [--datadir DIR | --dsn CONNINFO] [OPTIONS]\n" \
	"       eicbench probe --cache-check (--file PATH [--bs SIZE] | [--relation NAME] [--datadir DIR | --dsn CONNINFO]) [--seed S] [--json] [--out DIR]\n" \
	"OPTIONS: [--engine psync,fadvise,io_uring,readstream] [--depth 1,2,4,...] [--combine N] [--bs 8k] [--direct]\n" \
	"       [--duration 10s | --count N | --one-pass | --steady [--window 1s] [--duration 30s]] [--until-plateau]\n" \
	"       [--sizes 128k,256k,...] [--json] [--out DIR] [--no-cold]"

#define O(f) offsetof(struct probe_cfg, f)
static const struct opt_desc probe_table[] = {
	{ "file", OPT_STR, O(file), 0, 0, "PATH", NULL, "file form: file or block device to read (opened read-only)" },
	{ "relation", OPT_STR, O(relation), 0, 0, "NAME", NULL,
	  "relation form: the table whose heap blocks the query reads, replayed on its segment files" },
	{ "query", OPT_STR, O(query), 0, 0, "Q", "blog",
	  "relation form: blog, sparse, or a file holding SELECT * FROM NAME ..." },
	{ "engine", OPT_STR, O(engine), 0, 0, "LIST", PROBE_PLAN_ENGINES,
	  "engines to run: psync, fadvise, io_uring, readstream (with --direct the default is " PROBE_PLAN_ENGINES_DIRECT ", and fadvise is refused: O_DIRECT reads bypass the page cache it fills)" },
	{ "depth", OPT_STR, O(depth), 0, 0, "LIST", PROBE_PLAN_DEPTHS,
	  "reads in flight (io_uring, readstream) or blocks advised ahead (fadvise), 1 to 4096",
	  .alias = "depths" },
	{ "combine", OPT_INT, O(combine), 1, PROBE_MAX_COMBINE, "N", "16",
	  "readstream: adjacent blocks combined into one read at most (io_combine_limit in blocks)" },
	{ "bs", OPT_SIZE, O(bs), 512, 1 << 20, "SIZE", "8k", "block size (relation form: the server's block_size)" },
	{ "pattern", OPT_STR, O(pattern), 0, 0, "P", "random",
	  "file form: random, seq or replay:FILE (block numbers, one a line)" },
	{ "direct", OPT_FLAG, O(direct), 0, 0, NULL, NULL, "open with O_DIRECT (bypass the page cache)" },
	{ "duration", OPT_SECONDS, O(duration), 0, 86400, "TIME", "10s",
	  "time per point, at most 24h (a replay without --duration or --count: one pass); with --steady the most" },
	{ "count", OPT_INT, O(count), 1, 1000000000000LL, "N", NULL, "blocks per point instead of a duration" },
	{ "steady", OPT_FLAG, O(steady), 0, 0, NULL, NULL,
	  "run each point until its IOPS is steady: the last 5 one-second windows within ±5% of their mean (5 s to --duration, default 30 s)" },
	{ "window", OPT_SECONDS, O(window), 0, 60, "TIME", "1s",
	  "with --steady: the length of a window (the rule needs 5 of them)" },
	{ "one-pass", OPT_FLAG, O(one_pass), 0, 0, NULL, NULL,
	  "each point reads every block of the pattern once (seq: the whole file; not with random)" },
	{ "until-plateau", OPT_FLAG, O(until_plateau), 0, 0, NULL, NULL,
	  "with ascending depths: an engine goes no deeper once two depths in a row add under 5% IOPS over the best before them" },
	{ "sizes", OPT_STR, O(sizes), 0, 0, "LIST", NULL,
	  "instead of --bs: run every point at each of these block sizes (e.g. 128k,256k,1m,4m for sequential reads), up to 16m" },
	{ "cache-check", OPT_FLAG, O(cache_check), 0, 0, NULL, NULL,
	  "instead of points: check for a cache below this machine (O_DIRECT re-reads against fresh reads)" },
	{ "seed", OPT_INT, O(seed), 0, LLONG_MAX, "S", "1", "file form and --cache-check: seed of the random blocks" },
	{ "json", OPT_FLAG, O(json), 0, 0, NULL, NULL, "print points as JSON lines on stdout (table on stderr)" },
	{ "out", OPT_OUT, O(out), 0, 0, "DIR", "results/<UTC>-probe", "result folder (new or empty)" },
	{ "no-cold", OPT_FLAG, O(no_cold), 0, 0, NULL, NULL, "do not make the files cold (evict, or drop caches as root) before each point" },
	{ "keep-page-reporting", OPT_FLAG, O(keep_page_reporting), 0, 0, NULL, NULL,
	  "leave the host's free page reporting on for buffered cold points (by default it is paused while they run, where a balloon reports free pages)" },
	SERVER_OPTS(struct probe_cfg, srv),
	{ 0 }
};
#undef O

/* The form CFG names, run. */
static int run_form(const struct probe_cfg *cfg, struct probe_plan *plan, const struct probe_hooks *h,
		    int argc, char **argv, struct probe_out *out, char *err, size_t errlen)
{
	if (cfg->relation)
		return probe_rel_run(cfg, plan, h, argc, argv, out, err, errlen);
	if (plan->cache_check && !cfg->file)
		return probe_cache_dataset(cfg, plan, argc, argv, out, err, errlen);
	if (plan->cache_check)
		return probe_cache_files(plan, argc, argv, out, err, errlen);
	return probe_points_run(plan, h, argc, argv, out, err, errlen);
}

int cmd_probe(int argc, char **argv)
{
	struct probe_cfg o = { .seed = -1, .stop = &cli_stopped };
	struct probe_plan plan = { 0 };
	struct probe_out out = { 0 };
	struct probe_show show;
	struct probe_hooks hooks;
	char err[PATH_MAX + 1024];
	int rc;

	server_cfg_defaults(&o.srv);
	rc = opts_parse(probe_table, &o, argc, argv, err, sizeof(err));
	if (rc == 1) {
		opts_usage(stdout, USAGE, probe_table);
		return 0;
	}
	if (rc == 0)
		rc = probe_plan_make(&o, &plan, err, sizeof(err));
	if (rc < 0)
		return cmd_fail("probe", -EINVAL, err);
	probe_show_hooks(&show, &plan, &hooks);
	rc = run_form(&o, &plan, &hooks, argc + 2, argv - 2, &out, err, sizeof(err));	/* see cmd.h */
	rc = probe_show_end(rc, &plan, &out, err);
	probe_out_free(&out);
	return rc;
}

static const struct man_form probe_forms[] = { { NULL, USAGE, probe_table }, { 0 } };

static const struct man_example probe_examples[] = {
	{ "eicbench probe --datadir data/pg --relation test --query sparse --depth 1,16",
	  "Replay the heap blocks the sparse query reads, with psync, fadvise and io_uring at depths 1 and 16, cold before each point." },
	{ "eicbench probe --file data/probe-file --engine io_uring --direct --steady",
	  "The device's own curve: O_DIRECT random reads at depths 1 to 256, each point until its IOPS is steady, with its knee." },
	{ "eicbench probe --cache-check --datadir data/pg",
	  "Is there a cache below this machine (a virtual disk's host, a controller) that cold trials cannot empty?" },
	{ 0 }
};

const struct man_page cmd_probe_page = {
	.name = "probe",
	.summary = "raw disk probes: psync, fadvise window, io_uring at depths",
	.forms = probe_forms,
	.description =
	"Raw disk probes: the reads a bitmap heap scan makes, issued outside the database, so that the device's own behaviour can be seen. The file form reads a file or block device (random, sequential, or a list of block numbers). The relation form asks the database which heap blocks the query's rows live on, finds the relation's segment files and replays exactly that sequence; with --pattern it reads the relation's own blocks instead.\n\n"
	"The engines: psync (pread one block at a time, as PostgreSQL at effective_io_concurrency 0), fadvise (PostgreSQL's prefetch up to 17: posix_fadvise WILLNEED for the blocks ahead, the distance ramping up to the depth), io_uring (up to depth reads in flight) and readstream (PostgreSQL 18's read stream: adjacent blocks combined into one read). Each point prints IOPS, MiB/s, latency percentiles, CPU per read, reads in flight, and the device's requests from /proc/diskstats; each engine run at two depths or more gets its peak and its knee.\n\n"
	"--cache-check reads a random sample of blocks with O_DIRECT, then the same blocks again interleaved with a fresh sample, and says whether re-reads are faster than fresh reads by more than 1.5x (95% bootstrap interval): a cache below this machine that a cold cycle cannot empty.",
	.examples = probe_examples,
	.files = "results/<UTC>-probe/\tmeta.json, points.jsonl (one JSON object per point), curve.json, or cachecheck.json for --cache-check",
	.see_also = "run sweep",
	.guide = "eicbench probe",
};
