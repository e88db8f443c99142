/*
 * test_file: the whole-file reader reads a file of any size whole and
 * NUL-terminated, refuses one past the bound, a directory and a missing file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/file.h"

static void whole_and_bounded(void **state)
{
	char path[] = "/tmp/test_file.XXXXXX", *text = NULL;
	size_t n = 3 * 4096 + 17, len = 0;	/* several read calls, past a growth */
	char *data = malloc(n);
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0 && data);
	for (size_t i = 0; i < n; i++)
		data[i] = (char)('a' + i % 26);
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	close(fd);
	assert_int_equal(file_read_all(path, 0, &text, &len), 0);
	assert_int_equal(len, n);
	assert_memory_equal(text, data, n);
	assert_int_equal(text[n], '\0');
	free(text);
	assert_int_equal(file_read_all(path, n, &text, NULL), 0);
	free(text);
	assert_int_equal(file_read_all(path, n - 1, &text, NULL), -EFBIG);
	assert_null(text);
	unlink(path);
	assert_int_equal(file_read_all(path, 0, &text, NULL), -ENOENT);
	assert_int_equal(file_read_all("/tmp", 0, &text, NULL), -EISDIR);
	free(data);
}

static void empty_and_proc(void **state)
{
	char *text = NULL;
	size_t len = 1;

	char path[] = "/tmp/test_file.XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(file_read_all(path, 0, &text, &len), 0);
	unlink(path);
	assert_int_equal(len, 0);
	assert_string_equal(text, "");
	free(text);
	/* not a regular file: refused, never read (a device, a FIFO below) */
	assert_int_equal(file_read_all("/dev/null", 0, &text, &len), -EINVAL);
	assert_null(text);
	assert_string_equal(file_strerror(-EINVAL), "not a regular file (a FIFO, device or socket is not read)");
	/* procfs files report size 0 and must still be read whole */
	assert_int_equal(file_read_all("/proc/self/status", 0, &text, &len), 0);
	assert_non_null(strstr(text, "Name:"));
	free(text);
}

/* A FIFO with no writer is refused at once: the open does not wait for a
 * writer, nor the read for data (alarm() ends a test that would hang). */
static void fifo_refused(void **state)
{
	char dir[] = "/tmp/test_file.XXXXXX", path[64];
	char *text = NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(10);
	assert_int_equal(file_read_all(path, 0, &text, NULL), -EINVAL);
	alarm(0);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_and_bounded),
		cmocka_unit_test(empty_and_proc),
		cmocka_unit_test(fifo_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
