/*
 * test_pagereport: free page reporting paused and put back, on a /sys and a
 * /proc of files laid out as the kernel's (a balloon offering reporting, its
 * order, the buddy allocator's orders, the boot's id): two holders in turn,
 * a holder that died, a state file from another boot, a kernel that refuses
 * the order, and the memory given back within its reserve.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/pagereport.h"
#include "tests/fixture.h"

#define put(root, rel, text) assert_int_equal(fixture_put(root, rel, text), 0)

struct roots {
	char *dir;
	char  sys[4096], proc[4096], state[4200], order[4200];
};

static long order_now(const struct roots *r)
{
	FILE *f = fopen(r->order, "r");
	long v = -1;

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld", &v), 1);
	fclose(f);
	return v;
}

static void state_text(const struct roots *r, char *out, size_t len)
{
	FILE *f = fopen(r->state, "r");

	out[0] = '\0';
	if (f) {
		if (!fgets(out, (int)len, f))
			out[0] = '\0';
		fclose(f);
	}
}

/* A balloon that reports, at order 9, on a kernel whose largest block is
 * order 10 (11 columns in buddyinfo); 24 GiB of memory. */
static int setup(void **state)
{
	struct roots *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->dir = fixture_dir();
	assert_non_null(r->dir);
	snprintf(r->sys, sizeof(r->sys), "%s/sys", r->dir);
	snprintf(r->proc, sizeof(r->proc), "%s/proc", r->dir);
	snprintf(r->state, sizeof(r->state), "%s/page-reporting", r->dir);
	snprintf(r->order, sizeof(r->order), "%s/module/page_reporting/parameters/page_reporting_order", r->sys);
	assert_int_equal(mkdir(r->sys, 0755), 0);
	assert_int_equal(mkdir(r->proc, 0755), 0);
	put(r->sys, "bus/virtio/devices/virtio0/device", "0x0005\n");
	put(r->sys, "bus/virtio/devices/virtio0/features", "0110010100000000000000000000000010\n");
	put(r->sys, "module/page_reporting/parameters/page_reporting_order", "9\n");
	put(r->proc, "buddyinfo",
	    "Node 0, zone      DMA      0      0      0      0      0      0      0      0      1      1      2 \n"
	    "Node 0, zone    DMA32    322    258    158    102     57     35     23     14     12      8    601 \n");
	put(r->proc, "sys/kernel/random/boot_id", "2f1c7c0e-0000-4000-8000-000000000001\n");
	put(r->proc, "meminfo", "MemTotal:       24683520 kB\nMemFree:        18910000 kB\nMemAvailable:   23700000 kB\n");
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	struct roots *r = *state;

	fixture_remove(r->dir);
	free(r->dir);
	free(r);
	return 0;
}

/* No balloon that reports: nothing paused, nothing written. */
static void test_no_balloon(void **state)
{
	struct roots *r = *state;
	struct pagereport_hold h;

	put(r->sys, "bus/virtio/devices/virtio0/features", "0110000000000000000000000000000010\n");
	assert_int_equal(pagereport_pause(&h, r->sys, r->proc, r->state), 0);
	assert_false(h.on);
	assert_false(h.paused);
	assert_int_equal(h.fd, -1);
	assert_int_equal(order_now(r), 9);
	assert_int_equal(access(r->state, F_OK), -1);
	pagereport_release(&h);
}

/* Two holders: the first pauses and saves 9, the second shares; the order
 * comes back only when both have let go. */
static void test_two_holders(void **state)
{
	struct roots *r = *state;
	struct pagereport_hold a, b;
	char text[128];

	assert_int_equal(pagereport_pause(&a, r->sys, r->proc, r->state), 0);
	assert_true(a.on && a.paused && a.by_us);
	assert_int_equal(a.order_before, 9);
	assert_int_equal(a.order_paused, 11);
	assert_int_equal(order_now(r), 11);
	state_text(r, text, sizeof(text));
	assert_string_equal(text, "9 2f1c7c0e-0000-4000-8000-000000000001\n");

	assert_int_equal(pagereport_pause(&b, r->sys, r->proc, r->state), 0);
	assert_true(b.paused);
	assert_false(b.by_us);
	assert_int_equal(b.order_before, 9);

	pagereport_release(&a);
	assert_int_equal(order_now(r), 11);         /* b still holds it */
	pagereport_release(&b);
	assert_int_equal(order_now(r), 9);
	state_text(r, text, sizeof(text));
	assert_string_equal(text, "");
	pagereport_release(&b);                     /* twice: nothing more */
	assert_int_equal(order_now(r), 9);
}

/* A holder that died (its lock gone with it) left 11 and the saved 9: a
 * recovery puts 9 back once; a new pause after such a death puts back 9
 * too, not the 11 it found. */
static void test_dead_holder(void **state)
{
	struct roots *r = *state;
	struct pagereport_hold a, b;

	assert_int_equal(pagereport_pause(&a, r->sys, r->proc, r->state), 0);
	close(a.fd);                                /* dies without letting go */
	assert_int_equal(order_now(r), 11);
	assert_int_equal(pagereport_recover(r->sys, r->proc, r->state), 1);
	assert_int_equal(order_now(r), 9);
	assert_int_equal(pagereport_recover(r->sys, r->proc, r->state), 0);

	assert_int_equal(pagereport_pause(&a, r->sys, r->proc, r->state), 0);
	close(a.fd);
	assert_int_equal(pagereport_pause(&b, r->sys, r->proc, r->state), 0);
	assert_true(b.paused && b.by_us);
	assert_int_equal(b.order_before, 9);
	/* while held, a recovery does nothing */
	assert_int_equal(pagereport_recover(r->sys, r->proc, r->state), 0);
	assert_int_equal(order_now(r), 11);
	pagereport_release(&b);
	assert_int_equal(order_now(r), 9);
}

/* A state file from another boot says nothing: the 11 found was set by
 * someone else, and stays when the hold ends. */
static void test_other_boot(void **state)
{
	struct roots *r = *state;
	struct pagereport_hold h;

	put(r->sys, "module/page_reporting/parameters/page_reporting_order", "11\n");
	put(r->dir, "page-reporting", "7 00000000-0000-4000-8000-00000000dead\n");
	assert_int_equal(pagereport_pause(&h, r->sys, r->proc, r->state), 0);
	assert_true(h.paused);
	assert_false(h.by_us);
	assert_int_equal(h.order_before, 11);
	pagereport_release(&h);
	assert_int_equal(order_now(r), 11);
	assert_int_equal(pagereport_recover(r->sys, r->proc, r->state), 0);
}

/* An order that cannot be read, then a kernel that refuses the new one:
 * not paused, the reason given, the state file empty. */
static void test_refused(void **state)
{
	struct roots *r = *state;
	struct pagereport_hold h;
	char text[128];

	assert_int_equal(unlink(r->order), 0);
	assert_int_equal(mkdir(r->order, 0755), 0);  /* a write to it fails */
	assert_int_equal(pagereport_pause(&h, r->sys, r->proc, r->state), 0);
	assert_true(h.on);
	assert_false(h.paused);
	assert_non_null(strstr(h.why, "cannot be read"));
	assert_int_equal(h.fd, -1);
	state_text(r, text, sizeof(text));
	assert_string_equal(text, "");
	rmdir(r->order);
	/* one the kernel will not take (a read-only sysctl stands for it) */
	assert_int_equal(symlink("/proc/sys/kernel/ngroups_max", r->order), 0);
	assert_int_equal(pagereport_pause(&h, r->sys, r->proc, r->state), 0);
	assert_false(h.paused);
	assert_non_null(strstr(h.why, "the kernel refuses page_reporting_order 11"));
	state_text(r, text, sizeof(text));
	assert_string_equal(text, "");
	unlink(r->order);
	/* a largest block not known: not paused either */
	put(r->sys, "module/page_reporting/parameters/page_reporting_order", "9\n");
	put(r->proc, "buddyinfo", "");
	assert_int_equal(pagereport_pause(&h, r->sys, r->proc, r->state), 0);
	assert_false(h.paused);
	assert_non_null(strstr(h.why, "largest block"));
	assert_int_equal(order_now(r), 9);
}

/* Memory given back after a pause of one's own: what was asked, in chunks
 * of 64 MiB, while MemAvailable stays above 5% of MemTotal (1.18 GiB
 * here); nothing below it, nothing for a hold that only shares. */
static void test_back(void **state)
{
	struct roots *r = *state;
	struct pagereport_hold a, b;

	assert_int_equal(pagereport_pause(&a, r->sys, r->proc, r->state), 0);
	assert_int_equal(pagereport_pause(&b, r->sys, r->proc, r->state), 0);
	pagereport_back(&a, r->proc, 100ull << 20);
	assert_true(a.backed_mib == 128.0);
	pagereport_back(&b, r->proc, 100ull << 20);
	assert_true(b.backed_mib == 0.0);
	put(r->proc, "meminfo", "MemTotal:       24683520 kB\nMemAvailable:    1250000 kB\n");
	pagereport_back(&a, r->proc, 100ull << 20);
	assert_true(a.backed_mib == 0.0);
	pagereport_release(&b);
	pagereport_release(&a);
	assert_int_equal(order_now(r), 9);
}

/* Paused by hand before any eicbench (11 with no state saved): shared as
 * it is, memory given back, and left at 11 after, with nothing saved. */
static void test_found_paused(void **state)
{
	struct roots *r = *state;
	struct pagereport_hold h;
	char text[128];

	put(r->sys, "module/page_reporting/parameters/page_reporting_order", "11\n");
	assert_int_equal(pagereport_pause(&h, r->sys, r->proc, r->state), 0);
	assert_true(h.paused && h.found_paused);
	assert_false(h.by_us);
	assert_int_equal(h.order_before, 11);
	pagereport_back(&h, r->proc, 100ull << 20);
	assert_true(h.backed_mib == 128.0);
	pagereport_release(&h);
	assert_int_equal(order_now(r), 11);
	state_text(r, text, sizeof(text));
	assert_string_equal(text, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_balloon, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_holders, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dead_holder, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_boot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_back, setup, teardown),
		cmocka_unit_test_setup_teardown(test_found_paused, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
