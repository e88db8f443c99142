/*
 * tpcb_scan: cutting a script into commands; see tpcb_scan.h. The SQL of a
 * command is copied into a buffer as it is read (so that "\;" can become
 * ';'), starting at its first character that is neither a blank nor part of
 * a leading "--" comment.
 */
#include "bench/tpcb/tpcb_scan.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct scan {
	const char *t;
	size_t pos;
	char  *buf;
	size_t len, cap;
	bool   started;                /* the command has a character that counts */
	size_t first;                  /* its offset */
	int    depth;                  /* parentheses */
	tpcb_scan_fn fn;
	void  *arg;
};

static bool ident_char(unsigned char c)
{
	return c >= 0x80 || c == '_' || c == '$' || isalnum(c);
}

static int put(struct scan *s, const char *p, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		char *b;

		while (cap < s->len + n + 1)
			cap *= 2;
		if (!(b = realloc(s->buf, cap)))
			return -ENOMEM;
		s->buf = b;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
	s->buf[s->len] = '\0';
	return 0;
}

/* Copy the text from s->pos up to END into the command. */
static int take(struct scan *s, size_t end)
{
	int ret;

	if (!s->started) {
		s->started = true;
		s->first = s->pos;
	}
	ret = put(s, s->t + s->pos, end - s->pos);
	s->pos = end;
	return ret;
}

/* The end of a quoted run starting at AT (the quote Q); ESC: backslash escapes. */
static size_t quoted_end(const char *t, size_t at, char q, bool esc)
{
	size_t i = at + 1;

	while (t[i]) {
		if (esc && t[i] == '\\' && t[i + 1]) {
			i += 2;
			continue;
		}
		if (t[i] == q) {
			if (t[i + 1] == q) {	/* a doubled quote stays inside */
				i += 2;
				continue;
			}
			return i + 1;
		}
		i++;
	}
	return i;
}

/* A dollar quote's tag at AT ("$tag$" or "$$"): its length, or 0. */
static size_t dollar_tag(const char *t, size_t at)
{
	size_t i = at + 1;

	if (isdigit((unsigned char)t[i]))
		return 0;
	while (t[i] != '$' && t[i] && ident_char((unsigned char)t[i]))
		i++;
	return t[i] == '$' ? i + 1 - at : 0;
}

/* The end of the dollar-quoted run at AT whose tag is TAGLEN long. */
static size_t dollar_end(const char *t, size_t at, size_t taglen)
{
	const char *p = t + at + taglen;

	for (; *p; p++)
		if (*p == '$' && !strncmp(p, t + at, taglen))
			return (size_t)(p - t) + taglen;
	return (size_t)(p - t);
}

static size_t comment_end(const char *t, size_t at)
{
	int depth = 0;
	size_t i = at;

	while (t[i]) {
		if (t[i] == '/' && t[i + 1] == '*') {
			depth++;
			i += 2;
		} else if (t[i] == '*' && t[i + 1] == '/') {
			i += 2;
			if (--depth == 0)
				return i;
		} else {
			i++;
		}
	}
	return i;
}

/* The SQL command collected so far, if any, to the callback. */
static int emit_sql(struct scan *s)
{
	struct tpcb_raw r = { .meta = false, .off = s->first, .sql = s->buf, .sql_len = s->len };
	int ret = s->started ? s->fn(s->arg, &r) : 0;

	s->len = 0;
	if (s->buf)
		s->buf[0] = '\0';
	s->started = false;
	s->depth = 0;
	return ret;
}

/* A meta-command at the backslash at s->pos: to the end of its line. */
static int meta(struct scan *s)
{
	struct tpcb_raw r = { .meta = true, .off = s->pos };
	const char *t = s->t;
	size_t i = s->pos + 1, n = 0;

	while (t[i] && !isspace((unsigned char)t[i]) && !(t[i] == '\\' && (t[i + 1] == '\n' || t[i + 1] == '\r'))) {
		if (n + 1 < sizeof(r.name))
			r.name[n++] = t[i];
		i++;
	}
	r.name[n] = '\0';
	r.name_off = s->pos + 1;
	r.args_off = i;
	while (t[i] && t[i] != '\n') {
		if (t[i] == '\\' && t[i + 1] == '\n')
			i++;
		else if (t[i] == '\\' && t[i + 1] == '\r' && t[i + 2] == '\n')
			i += 2;
		i++;
	}
	r.end_off = i;
	s->pos = t[i] ? i + 1 : i;
	return s->fn(s->arg, &r);
}

/* Before the command's first character: blanks and "--" lines are dropped. */
static bool skip_leading(struct scan *s)
{
	const char *t = s->t;

	if (s->started)
		return false;
	if (isspace((unsigned char)t[s->pos])) {
		s->pos++;
		return true;
	}
	if (t[s->pos] == '-' && t[s->pos + 1] == '-') {
		while (t[s->pos] && t[s->pos] != '\n')
			s->pos++;
		return true;
	}
	return false;
}

/* One step of SQL at s->pos: 1 a command ended, 0 go on, < 0 an error. */
static int scan_command(struct scan *s)
{
	const char *t = s->t;
	size_t i = s->pos, k;
	char c = t[i];
	bool after_ident = s->started && s->len > 0 && ident_char((unsigned char)s->buf[s->len - 1]);

	if (c == '\'')
		return take(s, quoted_end(t, i, '\'', after_ident && (t[i - 1] == 'E' || t[i - 1] == 'e') &&
					  (s->len < 2 || !ident_char((unsigned char)s->buf[s->len - 2]))));
	if (c == '"')
		return take(s, quoted_end(t, i, '"', false));
	if (c == '$' && !after_ident && (k = dollar_tag(t, i)) > 0)
		return take(s, dollar_end(t, i, k));
	if (c == '-' && t[i + 1] == '-') {
		for (k = i; t[k] && t[k] != '\n'; k++)
			;
		return take(s, k);
	}
	if (c == '/' && t[i + 1] == '*')
		return take(s, comment_end(t, i));
	if (c == '(')
		s->depth++;
	if (c == ')' && s->depth > 0)
		s->depth--;
	if (c == '\\' && (t[i + 1] == ';' || t[i + 1] == ':')) {
		s->pos++;	/* the backslash goes; the character stays */
		return take(s, i + 2);
	}
	if (take(s, i + 1) < 0)
		return -ENOMEM;
	return c == ';' && s->depth == 0 ? 1 : 0;
}

int tpcb_scan(const char *text, tpcb_scan_fn fn, void *arg)
{
	struct scan s = { .t = text, .fn = fn, .arg = arg };
	int ret = 0;

	while (ret >= 0 && text[s.pos]) {
		if (skip_leading(&s))
			continue;
		if (text[s.pos] == '\\' && text[s.pos + 1] != ';' && text[s.pos + 1] != ':') {
			ret = emit_sql(&s);
			if (ret >= 0)
				ret = meta(&s);
			continue;
		}
		ret = scan_command(&s);
		if (ret == 1)
			ret = emit_sql(&s);
	}
	if (ret >= 0)
		ret = emit_sql(&s);
	free(s.buf);
	return ret < 0 ? ret : 0;
}

void tpcb_scan_where(const char *text, size_t off, int *line, int *col)
{
	size_t start = 0;

	*line = 1;
	for (size_t i = 0; i < off && text[i]; i++)
		if (text[i] == '\n') {
			(*line)++;
			start = i + 1;
		}
	*col = (int)(off - start) + 1;
}

void tpcb_scan_line(const char *text, size_t off, char *buf, size_t len)
{
	size_t start = off, end = off, n;

	while (start > 0 && text[start - 1] != '\n')
		start--;
	while (text[end] && text[end] != '\n')
		end++;
	n = end - start;
	if (n >= len)
		n = len - 1;
	memcpy(buf, text + start, n);
	buf[n] = '\0';
}
