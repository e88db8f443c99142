/*
 * test_identity: the system identifier read from a data directory's
 * global/pg_control (its first 8 bytes), refused when missing or short, and
 * the key a server's identity names files by. Asking a server is tested on
 * a real one (tests/it/faults-journal.sh).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/pg/identity.h"

/* DIR/global/pg_control holding LEN bytes of BYTES */
static void control_file(const char *dir, const void *bytes, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/global", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/global/pg_control", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	fclose(f);
}

static void control_sysid(void **state)
{
	char dir[] = "/tmp/test_identity.XXXXXX";
	unsigned char buf[64] = { 0 };
	uint64_t want = 7446395912683524117ULL;
	unsigned long long got = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(server_control_sysid(dir, &got), -ENOENT);
	control_file(dir, &want, 4);
	assert_int_equal(server_control_sysid(dir, &got), -EIO);
	memcpy(buf, &want, sizeof(want));
	memset(buf + 8, 0xff, sizeof(buf) - 8);	/* what follows is not read */
	control_file(dir, buf, sizeof(buf));
	assert_int_equal(server_control_sysid(dir, &got), 0);
	assert_true(got == want);
	{
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/global/pg_control", dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/global", dir);
		rmdir(path);
		rmdir(dir);
	}
}

static void key(void **state)
{
	struct server_identity a = { .system_identifier = 7446395912683524117ULL, .datadir = "/srv/pg" };
	struct server_identity b = a;
	char ka[PATH_MAX + 32], kb[PATH_MAX + 32];

	(void)state;
	server_identity_key(&a, ka, sizeof(ka));
	assert_string_equal(ka, "7446395912683524117 /srv/pg");
	snprintf(b.datadir, sizeof(b.datadir), "/srv/pg2");	/* a copy of the cluster elsewhere */
	server_identity_key(&b, kb, sizeof(kb));
	assert_string_not_equal(ka, kb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(control_sysid),
		cmocka_unit_test(key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
