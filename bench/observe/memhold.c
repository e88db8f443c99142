/*
 * memhold: free page reporting paused for a command's cold reads; see
 * memhold.h.
 */
#include "bench/observe/memhold.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static json_t *pause_json(const struct pagereport_hold *h, bool kept, int recovered)
{
	if (kept)
		return json_pack("{s:b, s:b}", "kept", 1, "put_back_a_dead_pause", recovered > 0);
	if (!h->paused)
		return json_pack("{s:b, s:s}", "paused", 0, "why", h->why[0] ? h->why : "not paused");
	return json_pack("{s:b, s:s, s:I, s:o, s:f, s:f}", "paused", 1,
			 "by", h->by_us ? "this command" : h->found_paused ?
			       "nobody: found paused with no eicbench holding it, and left so" :
			       "another eicbench, still running",
			 "order", (json_int_t)h->order_paused,
			 "order_put_back", h->order_before >= 0 ? json_integer(h->order_before) : json_null(),
			 "memory_given_back_mib", h->backed_mib, "memory_given_back_s", h->backed_s);
}

json_t *memhold_take(struct pagereport_hold *h, const char *cmd, const char *what, bool keep,
		     uint64_t data_bytes)
{
	const char *env = getenv("EICBENCH_PAGE_REPORTING");
	uint64_t want;

	*h = (struct pagereport_hold){ .fd = -1 };
	(void)mkdir(MEMHOLD_DIR, 0755);
	if (keep || (env && !strcmp(env, "keep"))) {
		int back = pagereport_recover(NULL, NULL, MEMHOLD_STATE);

		if (back > 0)
			fprintf(stderr, "eicbench %s: free page reporting put back as an earlier eicbench that died had left it\n", cmd);
		return pause_json(h, true, back);
	}
	(void)pagereport_pause(h, NULL, NULL, MEMHOLD_STATE);
	if (!h->on)
		return NULL;
	if (!h->paused) {
		fprintf(stderr, "eicbench %s: the host takes free memory back, and reporting could not be paused (%s): the cold figures include the host's refaults\n",
			cmd, h->why);
		return pause_json(h, false, 0);
	}
	if (pagereport_gives_back(h)) {
		want = (2 * data_bytes + (1ull << 30) + PAGEREPORT_BACK_CHUNK - 1) /
		       PAGEREPORT_BACK_CHUNK * PAGEREPORT_BACK_CHUNK;
		if (h->by_us)
			fprintf(stderr, "eicbench %s: the host takes free memory back: free page reporting paused for %s (page_reporting_order %ld, put back to %ld after); giving back up to %.1f GiB of memory first\n",
				cmd, what, h->order_paused, h->order_before, (double)want / (1ull << 30));
		else
			fprintf(stderr, "eicbench %s: free page reporting was found paused (page_reporting_order %ld) with no eicbench holding it: left so after; giving back up to %.1f GiB of memory first\n",
				cmd, h->order_paused, (double)want / (1ull << 30));
		pagereport_back(h, NULL, want);
		fprintf(stderr, "eicbench %s: %.1f GiB given back in %.1f s\n", cmd, h->backed_mib / 1024, h->backed_s);
	}
	return pause_json(h, false, 0);
}

int memhold_check_env(char *err, size_t errlen)
{
	const char *env = getenv("EICBENCH_PAGE_REPORTING");

	if (!env || !strcmp(env, "keep") || !strcmp(env, "pause"))
		return 0;
	snprintf(err, errlen, "EICBENCH_PAGE_REPORTING '%.64s' is neither 'keep' (leave the host's free page reporting on) nor 'pause' (the default); set one, or unset it",
		 env);
	return -EINVAL;
}

bool memhold_record(json_t *meta, json_t *pause)
{
	json_t *fpr = json_object_get(json_object_get(meta, "host"), "free_page_reporting");

	if (!json_is_object(fpr) || !pause)
		return false;
	json_object_set(fpr, "pause", pause);
	return true;
}
