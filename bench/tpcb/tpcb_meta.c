/*
 * tpcb_meta: compiling meta-commands and checking a script's structure;
 * see tpcb_meta.h. Arguments are words split at blanks (a backslash before
 * a newline continues the line), as pgbench splits them.
 */
#include "bench/tpcb/tpcb_meta.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>


#define MAX_WORDS 4

struct word {
	size_t off, len;
};

static const struct {
	const char *name;
	enum tpcb_cmd_kind kind;
} names[] = {
	{ "set", TPCB_SET }, { "sleep", TPCB_SLEEP }, { "if", TPCB_IF }, { "elif", TPCB_ELIF },
	{ "else", TPCB_ELSE }, { "endif", TPCB_ENDIF }, { "startpipeline", TPCB_STARTPIPE },
	{ "syncpipeline", TPCB_SYNCPIPE }, { "endpipeline", TPCB_ENDPIPE },
};

/* "FILE:LINE:COL: MSG in command "NAME"", and with CARET the line and a caret. */
static int meta_failed(const struct tpcb_script *sc, size_t off, const char *cmd, bool caret,
		char *err, size_t errlen, const char *fmt, ...)
{
	char msg[512], line[256];
	int l, col, n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tpcb_scan_where(sc->text, off, &l, &col);
	n = snprintf(err, errlen, "%.200s:%d:%d: %s%s%s%s", sc->name, l, col, msg,
		     cmd ? " in command \"" : "", cmd ? cmd : "", cmd ? "\"" : "");
	if (caret && n > 0 && (size_t)n < errlen) {
		tpcb_scan_line(sc->text, off, line, sizeof(line));
		snprintf(err + n, errlen - (size_t)n, "\n%s\n%*c error found here", line, col, '^');
	}
	return -EINVAL;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Words of T between FROM and TO; their count (at most MAX, one more when more). */
static int words(const char *t, size_t from, size_t to, struct word *w, int max)
{
	size_t i = from;
	int n = 0;

	while (i < to && n <= max) {
		if (blank(t[i]) || t[i] == '\n') {
			i++;
			continue;
		}
		if (t[i] == '\\' && (t[i + 1] == '\n' || (t[i + 1] == '\r' && t[i + 2] == '\n'))) {
			i += t[i + 1] == '\n' ? 2 : 3;
			continue;
		}
		w[n].off = i;
		while (i < to && !blank(t[i]) && t[i] != '\n' &&
		       !(t[i] == '\\' && (t[i + 1] == '\n' || t[i + 1] == '\r')))
			i++;
		w[n].len = i - w[n].off;
		if (n < max)
			n++;
		else
			return max + 1;
	}
	return n;
}

/* ---- expressions --------------------------------------------------------------- */

struct refctx {
	struct tpcb_scripts *set;
	const struct tpcb_script *sc;
	tpcb_slot_fn slot;
};

/* The parser's slot callback: each variable read is remembered with its place. */
static int slot_of(void *arg, const char *name, size_t len)
{
	struct refctx *x = arg;
	struct tpcb_scripts *set = x->set;
	int slot = x->slot(set, name, len);
	size_t tlen = strlen(x->sc->text);

	if (slot < 0 || name <= x->sc->text || name >= x->sc->text + tlen)
		return slot;	/* a name of the parser's own (default_seed) */
	if (set->nrefs == set->caprefs) {
		int cap = set->caprefs ? set->caprefs * 2 : 32;
		void *p = realloc(set->refs, (size_t)cap * sizeof(*set->refs));

		if (!p)
			return -ENOMEM;
		set->refs = p;
		set->caprefs = cap;
	}
	set->refs[set->nrefs].slot = slot;
	set->refs[set->nrefs].script = (int)(x->sc - set->s);
	set->refs[set->nrefs++].off = (size_t)(name - 1 - x->sc->text);	/* at its ':' */
	return slot;
}

static int expression(struct tpcb_scripts *set, const struct tpcb_script *sc, struct tpcb_cmd *c,
		      tpcb_slot_fn slot, const char *cmd, size_t from, size_t to, char *err, size_t errlen)
{
	struct refctx x = { set, sc, slot };
	struct tpcb_parse_error pe;
	int ret = tpcb_expr_parse(&set->exprs, sc->text + from, to - from, slot_of, &x, &c->expr, &pe);

	if (ret == -ENOMEM)
		return ret;
	if (ret < 0)
		return meta_failed(sc, from + pe.offset, cmd, true, err, errlen, "%s", pe.msg);
	return 0;
}

/* ---- the commands -------------------------------------------------------------- */

static int compile_set(struct tpcb_scripts *set, const struct tpcb_script *sc, struct tpcb_cmd *c,
		       const struct tpcb_raw *r, tpcb_slot_fn slot, char *err, size_t errlen)
{
	struct word w[2];
	int n = words(sc->text, r->args_off, r->end_off, w, 1);

	if (n == 0)
		return meta_failed(sc, r->off, "set", true, err, errlen, "missing argument");
	if (!tpcb_valid_name(sc->text + w[0].off, w[0].len))
		return meta_failed(sc, w[0].off, "set", true, err, errlen, "invalid variable name: \"%.*s\"",
			    (int)(w[0].len < 60 ? w[0].len : 60), sc->text + w[0].off);
	if ((c->slot = slot(set, sc->text + w[0].off, w[0].len)) < 0)
		return -ENOMEM;
	set->assigned[c->slot] = true;
	return expression(set, sc, c, slot, "set", w[0].off + w[0].len, r->end_off, err, errlen);
}

/* \sleep N[unit] | N unit | :var [unit]; pgbench's rules and words. A
 * negative time does not sleep (as pgbench); one past TPCB_SLEEP_MAX_US is
 * refused here (a constant) or aborts the client (a variable's value). */
static int compile_sleep(struct tpcb_scripts *set, const struct tpcb_script *sc, struct tpcb_cmd *c,
			 const struct tpcb_raw *r, tpcb_slot_fn slot, char *err, size_t errlen)
{
	struct word w[MAX_WORDS + 1];
	const char *t = sc->text, *unit = NULL, *a;
	size_t ulen = 0, k = 0;
	int n = words(t, r->args_off, r->end_off, w, 3);

	if (n < 1)
		return meta_failed(sc, r->off, "sleep", true, err, errlen, "missing argument");
	if (n > 2)
		return meta_failed(sc, w[2].off, "sleep", true, err, errlen, "too many arguments");
	a = t + w[0].off;
	if (n == 2) {
		unit = t + w[1].off;
		ulen = w[1].len;
	}
	if (a[0] == ':') {
		struct refctx x = { set, sc, slot };

		if (w[0].len < 2 || (c->sleep_slot = slot_of(&x, a + 1, w[0].len - 1)) < 0)
			return c->sleep_slot == -ENOMEM ? -ENOMEM :
			       meta_failed(sc, w[0].off, "sleep", true, err, errlen, "missing variable name");
	} else {
		if (a[k] == '+' || a[k] == '-')
			k++;
		if (k >= w[0].len || !isdigit((unsigned char)a[k]))
			return meta_failed(sc, w[0].off, "sleep", true, err, errlen,
				    "invalid sleep time, must be an integer (%.*s)", (int)w[0].len, a);
		while (k < w[0].len && isdigit((unsigned char)a[k]))
			k++;
		if (k < w[0].len && n == 2)
			return meta_failed(sc, w[0].off, "sleep", true, err, errlen,
				    "invalid sleep time, must be an integer (%.*s)", (int)w[0].len, a);
		if (k < w[0].len) {	/* "10ms": number and unit in one word */
			unit = a + k;
			ulen = w[0].len - k;
		}
		errno = 0;
		c->amount = strtoll(a, NULL, 10);
		if (errno == ERANGE && c->amount > 0)
			c->amount = INT64_MAX;	/* out of range below (a negative one: no sleep) */
	}
	c->unit_us = 1000000;
	if (unit && ulen == 2 && !strncasecmp(unit, "us", 2))
		c->unit_us = 1;
	else if (unit && ulen == 2 && !strncasecmp(unit, "ms", 2))
		c->unit_us = 1000;
	else if (unit && !(ulen == 1 && (*unit == 's' || *unit == 'S')))
		return meta_failed(sc, (size_t)(unit - t), "sleep", true, err, errlen,
			    "unrecognized time unit, must be us, ms or s (%.*s)", (int)ulen, unit);
	if (c->sleep_slot < 0 && c->amount > TPCB_SLEEP_MAX_US / c->unit_us)
		return meta_failed(sc, w[0].off, "sleep", true, err, errlen,
			    "sleep time out of range, at most %lld us (%.*s)", (long long)TPCB_SLEEP_MAX_US,
			    (int)w[0].len, a);
	return 0;
}

int tpcb_meta_compile(struct tpcb_scripts *set, struct tpcb_script *sc, struct tpcb_cmd *c,
		      const struct tpcb_raw *r, tpcb_slot_fn slot, char *err, size_t errlen)
{
	struct word w[2];
	size_t k = 0, nn = sizeof(names) / sizeof(names[0]);

	if (!(c->text = strndup(sc->text + r->off, r->end_off - r->off)))
		return -ENOMEM;
	while (k < nn && strcasecmp(names[k].name, r->name))
		k++;
	if (k == nn) {
		if (!strcasecmp(r->name, "shell") || !strcasecmp(r->name, "setshell"))
			return meta_failed(sc, r->off, r->name, true, err, errlen,
				    "\\%s is not supported by eicbench: give the value with \\set or -D", r->name);
		return meta_failed(sc, r->off, r->name, true, err, errlen, "invalid command");
	}
	c->kind = names[k].kind;
	switch (c->kind) {
	case TPCB_SET:
		return compile_set(set, sc, c, r, slot, err, errlen);
	case TPCB_IF:
	case TPCB_ELIF:
		return expression(set, sc, c, slot, names[k].name, r->args_off, r->end_off, err, errlen);
	case TPCB_SLEEP:
		sc->waits = true;
		return compile_sleep(set, sc, c, r, slot, err, errlen);
	default:
		if (words(sc->text, r->args_off, r->end_off, w, 1) > 0)
			return meta_failed(sc, w[0].off, names[k].name, true, err, errlen, "unexpected argument");
		if (c->kind != TPCB_ELSE && c->kind != TPCB_ENDIF)
			sc->waits = true;
		return 0;
	}
}

int tpcb_meta_gset(struct tpcb_scripts *set, struct tpcb_script *sc, const struct tpcb_raw *r,
		   char *err, size_t errlen)
{
	struct tpcb_cmd *c = sc->ncmds ? &sc->cmd[sc->ncmds - 1] : NULL;
	bool aset = !strcasecmp(r->name, "aset");
	struct word w[2];
	int n = words(sc->text, r->args_off, r->end_off, w, 1);

	if (!c || c->kind != TPCB_SQL || c->gset != TPCB_NO_GSET)
		return meta_failed(sc, r->off, NULL, false, err, errlen, "\\%s must follow an SQL command",
			    aset ? "aset" : "gset");
	if (n > 1)
		return meta_failed(sc, w[1].off, r->name, true, err, errlen, "too many arguments");
	c->gset = aset ? TPCB_ASET : TPCB_GSET;
	c->prefix = n ? strndup(sc->text + w[0].off, w[0].len) : strdup("");
	set->any_gset = sc->waits = true;
	return c->prefix ? 0 : -ENOMEM;
}

/* ---- structure ----------------------------------------------------------------- */

struct cond {
	int start;                     /* the \if */
	int head;                      /* the \if, or the last \elif: its jump is open */
	int branches[256];             /* the \elif and \else of this \if */
	int nbranches;
	bool seen_else;
};

static int cond_error(const struct tpcb_script *sc, const struct tpcb_cmd *c, char *err,
		      size_t errlen, const char *msg)
{
	snprintf(err, errlen, "%.200s:%d: %s (condition error in script \"%.200s\")", sc->name,
		 c->line, msg, sc->name);
	return -EINVAL;
}

/* Close the \if of the top of STACK at \endif K: every open jump lands there. */
static void close_if(struct tpcb_script *sc, const struct cond *top, int k)
{
	if (sc->cmd[top->head].jump < 0)
		sc->cmd[top->head].jump = k;
	for (int b = 0; b < top->nbranches; b++)
		sc->cmd[top->branches[b]].end = k;
}

static int conditionals(struct tpcb_script *sc, char *err, size_t errlen)
{
	struct cond *stack = calloc(64, sizeof(*stack));
	int depth = 0, ret = 0;

	if (!stack)
		return -ENOMEM;
	for (int k = 0; k < sc->ncmds && ret == 0; k++) {
		struct tpcb_cmd *c = &sc->cmd[k];
		struct cond *top = depth ? &stack[depth - 1] : NULL;

		if (c->kind == TPCB_IF) {
			if (depth == 64)
				ret = cond_error(sc, c, err, errlen, "\\if nested more than 64 deep");
			else
				stack[depth++] = (struct cond){ .start = k, .head = k };
		} else if (c->kind == TPCB_ELIF || c->kind == TPCB_ELSE) {
			const char *what = c->kind == TPCB_ELIF ? "\\elif" : "\\else";
			char msg[64];

			if (!top) {
				snprintf(msg, sizeof(msg), "%s without matching \\if", what);
				ret = cond_error(sc, c, err, errlen, msg);
			} else if (top->seen_else) {
				snprintf(msg, sizeof(msg), "%s after \\else", what);
				ret = cond_error(sc, c, err, errlen, msg);
			} else if (top->nbranches == 256) {
				ret = cond_error(sc, c, err, errlen, "more than 256 \\elif in one \\if");
			} else {
				sc->cmd[top->head].jump = k;
				top->branches[top->nbranches++] = k;
				top->head = k;
				top->seen_else = c->kind == TPCB_ELSE;
			}
		} else if (c->kind == TPCB_ENDIF) {
			if (!top)
				ret = cond_error(sc, c, err, errlen, "\\endif without matching \\if");
			else
				close_if(sc, &stack[--depth], k);
		}
	}
	if (ret == 0 && depth > 0)
		ret = cond_error(sc, &sc->cmd[stack[depth - 1].start], err, errlen,
				 "\\if without matching \\endif");
	free(stack);
	return ret;
}

static int pipelines(const struct tpcb_script *sc, char *err, size_t errlen)
{
	bool open = false;

	for (int k = 0; k < sc->ncmds; k++) {
		const struct tpcb_cmd *c = &sc->cmd[k];
		const char *msg = NULL;

		if (c->kind == TPCB_STARTPIPE && open)
			msg = "\\startpipeline: already in pipeline mode";
		else if ((c->kind == TPCB_ENDPIPE || c->kind == TPCB_SYNCPIPE) && !open)
			msg = c->kind == TPCB_ENDPIPE ? "\\endpipeline: not in pipeline mode" :
			      "\\syncpipeline: not in pipeline mode";
		else if (c->kind == TPCB_SQL && open && c->gset != TPCB_NO_GSET)
			msg = c->gset == TPCB_GSET ? "\\gset is not allowed in pipeline mode" :
			      "\\aset is not allowed in pipeline mode";
		else if (c->kind == TPCB_SLEEP && open)
			msg = "\\sleep is not allowed in pipeline mode (the pipeline would wait with it)";
		if (msg) {
			snprintf(err, errlen, "%.200s:%d: %s", sc->name, c->line, msg);
			return -EINVAL;
		}
		if (c->kind == TPCB_STARTPIPE)
			open = true;
		if (c->kind == TPCB_ENDPIPE)
			open = false;
	}
	if (open) {
		snprintf(err, errlen, "%.200s: end of script reached with pipeline open: give \\endpipeline",
			 sc->name);
		return -EINVAL;
	}
	return 0;
}

int tpcb_meta_check(struct tpcb_scripts *set, struct tpcb_script *sc, char *err, size_t errlen)
{
	int ret = conditionals(sc, err, errlen);

	(void)set;
	return ret < 0 ? ret : pipelines(sc, err, errlen);
}
