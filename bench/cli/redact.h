/*
 * redact: secrets out of what the user typed before it is recorded or
 * shown: a connection string, a command line, a message quoting either.
 * libpq's options that hold a secret are password, sslpassword,
 * oauth_client_secret, scram_client_key and scram_server_key; names match
 * whatever their case. Used by records, locks, the server layer and the
 * commands alike, so it knows none of them.
 */
#ifndef BENCH_CLI_REDACT_H
#define BENCH_CLI_REDACT_H

#include <stddef.h>

/*
 * Copy DSN to OUT without any secret: those options' key=value pairs
 * (quoted or bare values, \ escapes, spaces around '='), and in a
 * postgres:// or postgresql:// URI the password of user:secret@ and any
 * ?key=value whose key, percent-decoded, is one of them. 0, or -ENOSPC
 * when OUT was too small (it then holds a cut copy; a LEN of strlen(dsn) +
 * 1 always suffices).
 */
int redact_dsn(const char *dsn, char *out, size_t len);

/*
 * A new copy of one command-line argument (or of a whole --restart-cmd)
 * with its secrets replaced by "***", or NULL when out of memory. An
 * argument that reads as a connection string (a URI, or key=value pairs
 * libpq takes, not all of them secrets), alone or after --flag=, goes
 * through redact_dsn(). Elsewhere, as in free text: NAME=value where NAME is a libpq secret or
 * holds "password", "passwd", "passphrase", "secret" or "token" (PGPASSWORD=,
 * --password=, db_secret=; not a name ending in "file" or "path", such as
 * PGPASSFILE or --password-file), and the user:secret@ and secret query
 * parameters of URIs. A word after a bare --password flag is not touched
 * (tools differ: psql's takes none).
 */
char *redact_arg(const char *arg);

/* ARGV[0..ARGC) redacted one by one into a new NULL-terminated array, or
 * NULL when out of memory; free it with redact_argv_free(). */
char **redact_argv(int argc, char *const argv[]);
void redact_argv_free(char **v);

/* ARGV redacted, joined by spaces into OUT, e.g. to name a lock's holder;
 * an argument that is empty or holds white space, a quote or a backslash
 * is put in single quotes. 0, -ENOSPC (OUT holds a cut line), -ENOMEM. */
int redact_cmdline(int argc, char *const argv[], char *out, size_t len);

/*
 * MSG (e.g. libpq's error, which can echo a connection string) into OUT
 * with the secrets of redact_arg()'s free text replaced by "***";
 * with DSN (the connection string the message is about; NULL: none), also
 * every appearance of one of its secret values, as written or as libpq
 * decodes it, of 4 characters or more. 0, -ENOSPC (cut), -ENOMEM.
 */
int redact_message(const char *msg, const char *dsn, char *out, size_t len);
#endif
