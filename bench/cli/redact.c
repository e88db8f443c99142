/*
 * redact: secrets out of what is recorded or shown (see redact.h).
 * A connection string loses every libpq option that holds a secret, in the
 * key=value form and as a URI (user:secret@, and ?key=value with the key
 * percent-decoded). Command-line arguments and messages keep their shape
 * with each secret replaced by "***": assignments to a secret-looking name
 * (PGPASSWORD=, --password=, password = '...'), URI passwords, and, in a
 * message about a known DSN, that DSN's secret values wherever they appear.
 * A leak is worse than a lost word: names match whatever their case.
 */
#include "bench/cli/redact.h"

#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libpq-fe.h>

#define MASK            "***"
#define MIN_LITERAL     4       /* shorter secrets would match plain words */
#define MAX_LITERALS    16

/* libpq's options that hold a secret (PostgreSQL 18's fe-connect.c: the
 * ones displayed as "*", and the SCRAM keys given in place of a password). */
static const char *const secret_keys[] = {
	"password", "sslpassword", "oauth_client_secret",
	"scram_client_key", "scram_server_key",
};

/* Parts of a name that make its value a secret in an argument or message. */
static const char *const secret_words[] = {
	"password", "passwd", "passphrase", "secret", "token",
};

/* Output that never overflows (OVERFLOW says something was cut). A secret
 * is left out, or with MASK replaced by "***"; each secret value met may be
 * handed to FOUND. */
struct sink {
	char  *out;
	size_t len, used;
	bool   overflow;
	bool   mask;
	void (*found)(void *arg, const char *value, size_t n);
	void  *arg;
};

static void emit(struct sink *s, const char *p, size_t n)
{
	size_t room = s->len - s->used - 1;

	if (n > room) {
		s->overflow = true;
		n = room;
	}
	memcpy(s->out + s->used, p, n);
	s->used += n;
	s->out[s->used] = '\0';
}

static void found(struct sink *s, const char *value, size_t n)
{
	if (s->found && n > 0)
		s->found(s->arg, value, n);
}

/* ---- which names hold secrets ---- */

static bool secret_key(const char *key, size_t n)
{
	for (size_t i = 0; i < sizeof(secret_keys) / sizeof(secret_keys[0]); i++)
		if (strlen(secret_keys[i]) == n && strncasecmp(key, secret_keys[i], n) == 0)
			return true;
	return false;
}

static bool contains_ci(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word);

	for (size_t i = 0; i + w <= n; i++)
		if (strncasecmp(s + i, word, w) == 0)
			return true;
	return false;
}

/* PGPASSWORD, --password, db_secret, ...; not a name of a file or path
 * (--password-file, PGPASSFILE). */
static bool secret_name(const char *name, size_t n)
{
	while (n > 0 && *name == '-')
		name++, n--;
	if (n >= 4 && (strncasecmp(name + n - 4, "file", 4) == 0 ||
		       strncasecmp(name + n - 4, "path", 4) == 0))
		return false;
	if (secret_key(name, n))
		return true;
	for (size_t i = 0; i < sizeof(secret_words) / sizeof(secret_words[0]); i++)
		if (contains_ci(name, n, secret_words[i]))
			return true;
	return false;
}

static int hex(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* Is the percent-encoded KEY (N bytes) a secret key? A broken escape
 * (which libpq refuses anyway) counts as one: better dropped than shown. */
static bool secret_key_encoded(const char *key, size_t n)
{
	char dec[64];
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (m == sizeof(dec))
			return false;	/* longer than any key */
		if (key[i] != '%') {
			dec[m++] = key[i];
			continue;
		}
		if (i + 2 >= n)
			return true;
		if (hex((unsigned char)key[i + 1]) < 0 || hex((unsigned char)key[i + 2]) < 0)
			return true;
		dec[m++] = (char)(hex((unsigned char)key[i + 1]) * 16 + hex((unsigned char)key[i + 2]));
		i += 2;
	}
	return secret_key(dec, m);
}

/* ---- the key=value form ---- */

/* Past one value of the key=value form: 'quoted' or bare, \ escapes. */
static const char *skip_value(const char *p)
{
	bool quoted = *p == '\'';

	p += quoted;
	while (*p && (quoted ? *p != '\'' : !isspace((unsigned char)*p))) {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return p + (quoted && *p == '\'');
}

/* The value from V to END without its quotes, for FOUND. */
static void found_value(struct sink *s, const char *v, const char *end)
{
	if (*v == '\'') {
		v++;
		if (end > v && end[-1] == '\'')
			end--;
	}
	found(s, v, (size_t)(end - v));
}

/*
 * Past the words after a bare secret value that are no key=value pair
 * ("password=a b": b). libpq refuses such a string and names the word in
 * its message, so they are taken for the rest of the secret, each FOUND.
 */
static const char *secret_tail(const char *p, struct sink *s)
{
	for (;;) {
		const char *w = p + strspn(p, " \t\r\n"), *end = w + strcspn(w, "= \t\r\n\'");

		if (end == w || w == p || w[strcspn(w, "= \t\r\n")] == '=' ||
		    end[strspn(end, " \t\r\n")] == '=')
			return p;
		found(s, w, (size_t)(end - w));
		p = end;
	}
}

/* Pairs go out as they were, separated by one space where white space was
 * (libpq needs none after a quoted value: 'x'b=1 stays so). */
static void redact_keywords(const char *p, struct sink *s)
{
	bool space = false;

	for (;;) {
		const char *tok, *key_end, *val = NULL;
		size_t ws = strspn(p, " \t\r\n");

		space |= ws > 0;
		if (!*(tok = p += ws))
			break;
		p += strcspn(p, "= \t\r\n");
		key_end = p;
		p += strspn(p, " \t\r\n");
		if (*p == '=') {
			p += 1 + strspn(p + 1, " \t\r\n");
			val = p;
			p = skip_value(p);
		} else {
			p = key_end;
		}
		if (secret_key(tok, (size_t)(key_end - tok))) {
			if (val)
				found_value(s, val, p);
			if (val && *val != '\'')
				p = secret_tail(p, s);
			continue;
		}
		if (s->used && space)
			emit(s, " ", 1);
		emit(s, tok, (size_t)(p - tok));
		space = false;
	}
}

/* ---- URIs ---- */

static size_t uri_prefix(const char *p)
{
	if (strncasecmp(p, "postgresql://", 13) == 0)
		return 13;
	if (strncasecmp(p, "postgres://", 11) == 0)
		return 11;
	return 0;
}

/* The query part from Q to END (after '?'): secret parameters go. */
static void redact_query(const char *q, const char *end, struct sink *s)
{
	bool first = true;

	while (q < end) {
		const char *amp = memchr(q, '&', (size_t)(end - q)), *stop = amp ? amp : end;
		const char *eq = memchr(q, '=', (size_t)(stop - q));
		const char *key_end = eq ? eq : stop;
		bool secret = secret_key_encoded(q, (size_t)(key_end - q));

		if (secret && eq)
			found(s, eq + 1, (size_t)(stop - eq - 1));
		if (!secret || s->mask) {
			emit(s, first ? "?" : "&", 1);
			emit(s, q, (size_t)((secret ? key_end : stop) - q));
			if (secret)
				emit(s, "=" MASK, strlen("=" MASK));
			first = false;
		}
		q = stop + (stop < end);
	}
}

/* scheme://[user[:password]@]host.../db?params from URI to END
 * (credentials end at the first '@' before any '/', as libpq reads them). */
static void redact_uri(const char *uri, const char *end, struct sink *s)
{
	const char *p = uri + uri_prefix(uri), *cred_end = p, *query;

	while (cred_end < end && *cred_end != '@' && *cred_end != '/')
		cred_end++;
	emit(s, uri, (size_t)(p - uri));
	if (cred_end < end && *cred_end == '@') {
		const char *colon = memchr(p, ':', (size_t)(cred_end - p));

		emit(s, p, (size_t)((colon ? colon : cred_end) - p));
		if (colon)
			found(s, colon + 1, (size_t)(cred_end - colon - 1));
		if (colon && s->mask)
			emit(s, ":" MASK, strlen(":" MASK));
		emit(s, "@", 1);
		p = cred_end + 1;
	}
	query = memchr(p, '?', (size_t)(end - p));
	if (!query)
		query = end;
	emit(s, p, (size_t)(query - p));
	if (query < end)
		redact_query(query + 1, end, s);
}

static int redact_dsn_to(const char *dsn, struct sink *s)
{
	const char *p = dsn + strspn(dsn, " \t\r\n");

	if (s->len == 0)
		return -ENOSPC;
	s->out[0] = '\0';
	if (uri_prefix(p))
		redact_uri(p, p + strlen(p), s);
	else
		redact_keywords(p, s);
	return s->overflow ? -ENOSPC : 0;
}

int redact_dsn(const char *dsn, char *out, size_t len)
{
	struct sink s = { .out = out, .len = len };

	return redact_dsn_to(dsn, &s);
}

/* ---- free text: arguments and messages ---- */

static bool name_char(int c)
{
	return isalnum(c) || c == '_' || c == '-' || c == '.';
}

/* May a name begin at P (START is the text's beginning)? */
static bool name_start(const char *start, const char *p)
{
	return p == start || strchr(" \t\r\n'\"(,;&?[{=", p[-1]);
}

/* Past a value in free text: 'quoted' or "quoted", else up to white space
 * or a quote; \ escapes. */
static const char *skip_text_value(const char *p)
{
	char q = *p == '\'' || *p == '"' ? *p : 0;

	p += q != 0;
	while (*p && (q ? *p != q : !isspace((unsigned char)*p) && *p != '\'' && *p != '"')) {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return p + (q && *p == q);
}

/* A name at P and, when it holds a secret and "=" follows, its value: the
 * name and "=***" go out. Returns where to go on. */
static const char *text_name(const char *p, struct sink *s)
{
	size_t n = 0;
	const char *q;

	while (name_char((unsigned char)p[n]))
		n++;
	q = p + n;
	if (secret_key(p, n))		/* libpq's form allows spaces around '=' */
		q += strspn(q, " \t");
	if (*q != '=' || !secret_name(p, n)) {
		emit(s, p, n);
		return p + n;
	}
	q++;
	if (secret_key(p, n))
		q += strspn(q, " \t");
	emit(s, p, (size_t)(q - p));
	emit(s, MASK, strlen(MASK));
	return skip_text_value(q);
}

static void redact_text(const char *text, struct sink *s)
{
	const char *p = text;

	while (*p) {
		if (uri_prefix(p)) {
			const char *end = p + strcspn(p, " \t\r\n\"'<>`");

			redact_uri(p, end, s);
			p = end;
		} else if (name_char((unsigned char)*p) && name_start(text, p)) {
			p = text_name(p, s);
		} else {
			emit(s, p++, 1);
		}
	}
}

/* ---- arguments ---- */

/* Does V read as a connection string: a URI, or key=value pairs that
 * libpq takes, one of them at least not a secret (password=... alone is
 * an assignment: "password=***" says more than an empty string)? */
static bool looks_like_dsn(const char *v)
{
	PQconninfoOption *opts;
	char *msg = NULL;
	bool dsn = false;

	v += strspn(v, " \t\r\n");
	if (uri_prefix(v))
		return true;
	if (!strchr(v, '='))
		return false;
	opts = PQconninfoParse(v, &msg);
	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		dsn |= o->val && !secret_key(o->keyword, strlen(o->keyword));
	PQconninfoFree(opts);
	PQfreemem(msg);
	return dsn;
}

char *redact_arg(const char *arg)
{
	size_t cap = 2 * strlen(arg) + 8;	/* "***" grows no value more than that */
	struct sink s = { .out = malloc(cap), .len = cap, .mask = true };
	const char *eq = strchr(arg, '='), *value = arg;

	if (!s.out)
		return NULL;
	s.out[0] = '\0';
	if (strncmp(arg, "--", 2) == 0 && eq) {
		if (secret_name(arg, (size_t)(eq - arg)))
			value = NULL;		/* --password=...: never a DSN */
		else
			value = eq + 1;
	}
	if (value && looks_like_dsn(value)) {
		struct sink rest = { .out = s.out + (value - arg), .len = cap - (size_t)(value - arg) };

		emit(&s, arg, (size_t)(value - arg));
		redact_dsn_to(value, &rest);
	} else {
		redact_text(arg, &s);
	}
	return s.out;
}

/* --no-record-cmd anywhere on the command line: the restart command's
 * value is left out whole. */
static bool hide_restart_cmd(int argc, char *const argv[])
{
	for (int i = 0; i < argc; i++)
		if (!strcmp(argv[i], "--no-record-cmd"))
			return true;
	return false;
}

#define NOT_RECORDED "(not recorded: --no-record-cmd)"

char **redact_argv(int argc, char *const argv[])
{
	char **v = calloc(argc > 0 ? (size_t)argc + 1 : 1, sizeof(*v));
	bool hide = hide_restart_cmd(argc, argv);

	for (int i = 0; v && i < argc; i++)
		if (hide && i > 0 && !strcmp(argv[i - 1], "--restart-cmd"))
			v[i] = strdup(NOT_RECORDED);
		else if (hide && !strncmp(argv[i], "--restart-cmd=", 14))
			v[i] = strdup("--restart-cmd=" NOT_RECORDED);
		else
			v[i] = redact_arg(argv[i]);
	for (int i = 0; v && i < argc; i++)
		if (!v[i]) {
			redact_argv_free(v);
			return NULL;
		}
	return v;
}

void redact_argv_free(char **v)
{
	for (char **p = v; p && *p; p++)
		free(*p);
	free(v);
}

/* ARG for a shell-like line: quoted when empty or holding spaces or quotes. */
static void emit_word(struct sink *s, const char *arg)
{
	if (*arg && !arg[strcspn(arg, " \t\r\n'\"\\")]) {
		emit(s, arg, strlen(arg));
		return;
	}
	emit(s, "'", 1);
	for (const char *p = arg; *p; p++)
		if (*p == '\'')
			emit(s, "'\\''", 4);
		else
			emit(s, p, 1);
	emit(s, "'", 1);
}

int redact_cmdline(int argc, char *const argv[], char *out, size_t len)
{
	struct sink s = { .out = out, .len = len };
	char **v;

	if (len == 0)
		return -ENOSPC;
	out[0] = '\0';
	if (!(v = redact_argv(argc, argv)))
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		if (i)
			emit(&s, " ", 1);
		emit_word(&s, v[i]);
	}
	redact_argv_free(v);
	return s.overflow ? -ENOSPC : 0;
}

/* ---- messages ---- */

/* The secret values of a DSN, to be looked for in a message as they are. */
struct literals {
	const char *v[MAX_LITERALS];
	size_t      n[MAX_LITERALS];
	int         count;
};

static void add_literal(void *arg, const char *v, size_t n)
{
	struct literals *l = arg;

	if (n >= MIN_LITERAL && l->count < MAX_LITERALS) {
		l->v[l->count] = v;
		l->n[l->count++] = n;
	}
}

/* DSN's secret values as written (spans of DSN) into L; with PARSED (to
 * be freed by the caller), also as libpq decodes them (unquoted, escapes
 * and percent-encoding undone). -ENOMEM or 0. */
static int dsn_literals(const char *dsn, struct literals *l, PQconninfoOption **parsed)
{
	size_t cap = strlen(dsn) + 1;
	struct sink s = { .out = malloc(cap), .len = cap, .found = add_literal, .arg = l };
	char *msg = NULL;

	if (!s.out)
		return -ENOMEM;
	redact_dsn_to(dsn, &s);
	free(s.out);
	*parsed = PQconninfoParse(dsn, &msg);
	PQfreemem(msg);
	for (PQconninfoOption *o = *parsed; o && o->keyword; o++)
		if (o->val && secret_key(o->keyword, strlen(o->keyword)))
			add_literal(l, o->val, strlen(o->val));
	return 0;
}

/* MSG into S with each of L's values replaced by "***", longest first. */
static void mask_literals(const char *msg, const struct literals *l, struct sink *s)
{
	while (*msg) {
		size_t best = 0;

		for (int i = 0; i < l->count; i++)
			if (l->n[i] > best && strncmp(msg, l->v[i], l->n[i]) == 0)
				best = l->n[i];
		if (best) {
			emit(s, MASK, strlen(MASK));
			msg += best;
		} else {
			emit(s, msg++, 1);
		}
	}
}

int redact_message(const char *msg, const char *dsn, char *out, size_t len)
{
	struct literals l = { .count = 0 };
	PQconninfoOption *parsed = NULL;
	size_t cap = strlen(msg) + 1;	/* masking only shortens */
	struct sink masked = { .out = malloc(cap), .len = cap };
	struct sink s = { .out = out, .len = len, .mask = true };

	if (len == 0 || !masked.out) {
		free(masked.out);
		return len == 0 ? -ENOSPC : -ENOMEM;
	}
	masked.out[0] = out[0] = '\0';
	if (dsn && dsn_literals(dsn, &l, &parsed) < 0) {
		free(masked.out);
		return -ENOMEM;
	}
	mask_literals(msg, &l, &masked);
	PQconninfoFree(parsed);
	redact_text(masked.out, &s);
	free(masked.out);
	return s.overflow ? -ENOSPC : 0;
}
