/*
 * tpcb_value: values, their texts and the variables holding them; see
 * tpcb_value.h.
 */
#include "bench/tpcb/tpcb_value.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *tpcb_type_name(enum tpcb_vtype t)
{
	static const char *const names[] = { "none", "null", "int", "double", "boolean" };

	return t <= TPCB_BOOL ? names[t] : "?";
}

/* Two digits at a time: "00" "01" ... "99". */
static const char pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

int tpcb_format_int(int64_t v, char *buf)
{
	char tmp[TPCB_NUM_MAX];
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	int n = TPCB_NUM_MAX, len = 0;

	while (u >= 100) {
		unsigned d = (unsigned)(u % 100) * 2;

		u /= 100;
		tmp[--n] = pairs[d + 1];
		tmp[--n] = pairs[d];
	}
	if (u >= 10) {
		tmp[--n] = pairs[u * 2 + 1];
		tmp[--n] = pairs[u * 2];
	} else {
		tmp[--n] = (char)('0' + u);
	}
	if (v < 0)
		buf[len++] = '-';
	memcpy(buf + len, tmp + n, (size_t)(TPCB_NUM_MAX - n));
	len += TPCB_NUM_MAX - n;
	buf[len] = '\0';
	return len;
}

int tpcb_value_text(const struct tpcb_value *v, char *buf)
{
	switch (v->type) {
	case TPCB_INT:
		return tpcb_format_int(v->u.i, buf);
	case TPCB_DOUBLE:
		return snprintf(buf, TPCB_NUM_MAX, "%.*g", DBL_DIG, v->u.d);
	case TPCB_BOOL:
		return snprintf(buf, TPCB_NUM_MAX, "%s", v->u.b ? "true" : "false");
	default:
		return snprintf(buf, TPCB_NUM_MAX, "NULL");
	}
}

int tpcb_parse_int(const char *s, int64_t *out)
{
	uint64_t acc = 0, limit;
	bool neg = false;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (acc > (limit - d) / 10)
			return -EINVAL;
		acc = acc * 10 + d;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (*s)
		return -EINVAL;
	*out = neg ? (int64_t)(0 - acc) : (int64_t)acc;
	return 0;
}

/* "^\s*[-+]?[0-9]+$": does S look like an integer? */
static bool looks_int(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		s++;
	if (*s && !isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	return *s == '\0';
}

/* Is S (LEN > 0) a case-blind prefix of WORD? */
static bool prefix_of(const char *s, size_t len, const char *word)
{
	return len <= strlen(word) && !strncasecmp(s, word, len);
}

int tpcb_value_parse(const char *s, struct tpcb_value *out)
{
	size_t len = strlen(s);
	char *end;

	if (len == 0)
		return -EINVAL;
	if (!strcasecmp(s, "null")) {
		*out = tpcb_null();
	} else if (prefix_of(s, len, "true") || prefix_of(s, len, "yes") || !strcasecmp(s, "on")) {
		*out = tpcb_bool(true);
	} else if (prefix_of(s, len, "false") || prefix_of(s, len, "no") || !strcasecmp(s, "off") ||
		   !strcasecmp(s, "of")) {
		*out = tpcb_bool(false);
	} else if (looks_int(s)) {
		out->type = TPCB_INT;
		return tpcb_parse_int(s, &out->u.i);
	} else {
		errno = 0;
		out->u.d = strtod(s, &end);
		out->type = TPCB_DOUBLE;
		if (errno || end == s || *end)
			return -EINVAL;
	}
	return 0;
}

int tpcb_var_set_text(struct tpcb_var *x, const char *s, size_t len)
{
	if (len + 1 > x->cap) {
		uint32_t cap = (uint32_t)(len + 1 < 32 ? 32 : len + 1);
		char *p = realloc(x->s, cap);

		if (!p)
			return -ENOMEM;
		x->s = p;
		x->cap = cap;
	}
	memcpy(x->s, s, len);
	x->s[len] = '\0';
	x->len = (uint32_t)len;
	x->has_s = x->set = true;
	x->v.type = TPCB_NONE;
	return 0;
}

int tpcb_var_value(struct tpcb_var *x, struct tpcb_value *out)
{
	if (x->v.type == TPCB_NONE && tpcb_value_parse(x->s, &x->v) < 0) {
		x->v.type = TPCB_NONE;
		return -EINVAL;
	}
	*out = x->v;
	return 0;
}

const char *tpcb_var_text(const struct tpcb_var *x, char *buf, size_t *len)
{
	if (x->has_s) {
		*len = x->len;
		return x->s;
	}
	*len = (size_t)tpcb_value_text(&x->v, buf);
	return buf;
}

void tpcb_var_free(struct tpcb_var *x)
{
	free(x->s);
	x->s = NULL;
	x->cap = x->len = 0;
	x->has_s = x->set = false;
}

static bool name_char(unsigned char c, bool first)
{
	return c >= 0x80 || c == '_' || isalpha(c) || (!first && isdigit(c));
}

bool tpcb_valid_name(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!name_char((unsigned char)s[i], i == 0))
			return false;
	return true;
}
