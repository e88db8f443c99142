/*
 * tpcb_script: loading pgbench's built-in scripts from sql/tpcb/, compiling
 * their :variables once (literal runs and variable slots for the simple
 * protocol, $n numbering for the others), and the per-transaction draws.
 */
#include "bench/tpcb/tpcb_script.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/pg/sqltext.h"

static const char *const var_names[TPCB_NVARS] = { "aid", "bid", "tid", "delta" };

static const char *const files[] = {
	[TPCB_TPCB_LIKE]     = "tpcb/tpcb-like.sql",
	[TPCB_SIMPLE_UPDATE] = "tpcb/simple-update.sql",
	[TPCB_SELECT_ONLY]   = "tpcb/select-only.sql",
};

int tpcb_format_int(int64_t v, char *buf)
{
	char tmp[TPCB_NUM_MAX];
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	int n = 0, len = 0;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[len++] = '-';
	while (n)
		buf[len++] = tmp[--n];
	buf[len] = '\0';
	return len;
}

/* The variable named at P (after the ':'), its name's length in *LEN; -1 if none. */
static int var_at(const char *p, size_t *len)
{
	for (int v = 0; v < TPCB_NVARS; v++) {
		size_t n = strlen(var_names[v]);
		char next = p[n];

		if (!strncmp(p, var_names[v], n) &&
		    !(next == '_' || (next >= 'a' && next <= 'z') || (next >= '0' && next <= '9'))) {
			*len = n;
			return v;
		}
	}
	return -1;
}

static int add_seg(struct tpcb_stmt *s, int off, int len, int var)
{
	if (s->nsegs == TPCB_SEGS_MAX)
		return -EINVAL;
	s->seg[s->nsegs++] = (struct tpcb_seg){ (short)off, (short)len, (signed char)var };
	return 0;
}

/* $n of variable V, numbering it on first use. */
static int param_number(struct tpcb_stmt *s, int v)
{
	for (int i = 0; i < s->nparams; i++)
		if (s->param_var[i] == v)
			return i + 1;
	s->param_var[s->nparams++] = (signed char)v;
	return s->nparams;
}

/* Split S->text into literal runs and variables; write param_sql. */
static int compile(struct tpcb_stmt *s, unsigned *draws)
{
	size_t out = 0, lit = 0, i = 0, n = strlen(s->text);

	while (i < n) {
		size_t len;
		int v = s->text[i] == ':' ? var_at(s->text + i + 1, &len) : -1;

		if (v < 0) {
			s->param_sql[out++] = s->text[i++];
			continue;
		}
		if ((i > lit && add_seg(s, (int)lit, (int)(i - lit), -1) < 0) ||
		    add_seg(s, 0, 0, v) < 0)
			return -EINVAL;
		out += (size_t)snprintf(s->param_sql + out, sizeof(s->param_sql) - out,
					"$%d", param_number(s, v));
		*draws |= 1u << v;
		i += len + 1;
		lit = i;
	}
	if (i > lit && add_seg(s, (int)lit, (int)(i - lit), -1) < 0)
		return -EINVAL;
	s->param_sql[out] = '\0';
	return 0;
}

/* Copy statement STMT (from the splitter) onto one line of S->text. */
static int set_text(struct tpcb_stmt *s, const char *stmt)
{
	size_t n = strlen(stmt);

	while (n > 0 && (stmt[n - 1] == '\n' || stmt[n - 1] == ' '))
		n--;
	if (n == 0 || n >= sizeof(s->text))
		return -EINVAL;
	memcpy(s->text, stmt, n);
	s->text[n] = '\0';
	for (char *p = s->text; *p; p++)
		if (*p == '\n')
			*p = ' ';
	return 0;
}

int tpcb_script_load(enum tpcb_builtin b, struct tpcb_script *out,
		     char *err, size_t errlen)
{
	const char *text = sql_text(files[b]);
	char stmt[TPCB_STMT_MAX * 2];
	size_t pos = 0;
	int n;

	memset(out, 0, sizeof(*out));
	out->builtin = b;
	if (!text) {
		snprintf(err, errlen, "no SQL file sql/%s in this build", files[b]);
		return -EINVAL;
	}
	while ((n = sql_next_statement(text, &pos, stmt, sizeof(stmt))) > 0) {
		struct tpcb_stmt *s = &out->stmt[out->nstmts];

		if (out->nstmts == TPCB_MAX_STMTS || set_text(s, stmt) < 0 ||
		    compile(s, &out->draws) < 0) {
			snprintf(err, errlen, "sql/%s: statement %d is too long or has too many parts",
				 files[b], out->nstmts + 1);
			return -EINVAL;
		}
		out->nstmts++;
	}
	if (n < 0 || out->nstmts == 0) {
		snprintf(err, errlen, "sql/%s holds no usable statement", files[b]);
		return -EINVAL;
	}
	return 0;
}

void tpcb_draw(struct rng *r, const struct tpcb_script *s, long long scale,
	       struct tpcb_params *p)
{
	static const int64_t per_scale[TPCB_NVARS] = { TPCB_ACCOUNTS, 1, TPCB_TELLERS, 0 };

	for (int v = 0; v < TPCB_NVARS; v++) {
		if (!(s->draws & (1u << v))) {
			p->v[v] = 0;
			continue;
		}
		if (v == TPCB_DELTA)
			p->v[v] = (int64_t)rng_below(r, 10001) - 5000;
		else
			p->v[v] = 1 + (int64_t)rng_below(r, (uint64_t)(per_scale[v] * scale));
		tpcb_format_int(p->v[v], p->txt[v]);
	}
}

int tpcb_stmt_render(const struct tpcb_stmt *s, const struct tpcb_params *p,
		     char *buf, size_t len)
{
	size_t used = 0;

	for (int i = 0; i < s->nsegs; i++) {
		const struct tpcb_seg *g = &s->seg[i];
		const char *src = g->var < 0 ? s->text + g->off : p->txt[g->var];
		size_t n = g->var < 0 ? (size_t)g->len : strlen(src);

		if (used + n + 1 > len)
			return -1;
		memcpy(buf + used, src, n);
		used += n;
	}
	buf[used] = '\0';
	return (int)used;
}

void tpcb_stmt_values(const struct tpcb_stmt *s, const struct tpcb_params *p,
		      const char **values)
{
	for (int i = 0; i < s->nparams; i++)
		values[i] = p->txt[s->param_var[i]];
}
