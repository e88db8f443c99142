/*
 * tpcb_script: the script set: builtins, files and texts compiled into
 * commands, the variable table and the checks that need every script; see
 * tpcb_script.h. The meta-commands' arguments are compiled in
 * tpcb_meta.c; this file cuts the scripts (tpcb_scan) and compiles SQL.
 */
#include "bench/tpcb/tpcb_script.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench/pg/sqltext.h"
#include "bench/tpcb/tpcb_meta.h"
#include "bench/tpcb/tpcb_scan.h"
#include "io/file.h"

#define SCRIPT_MAX_BYTES (16 << 20)

static const struct {
	const char *name, *desc, *file;
} builtins[TPCB_NBUILTINS] = {
	[TPCB_TPCB_LIKE]     = { "tpcb-like", "<builtin: TPC-B (sort of)>", "tpcb/tpcb-like.sql" },
	[TPCB_SIMPLE_UPDATE] = { "simple-update", "<builtin: simple update>", "tpcb/simple-update.sql" },
	[TPCB_SELECT_ONLY]   = { "select-only", "<builtin: select only>", "tpcb/select-only.sql" },
};

const char *tpcb_builtin_name(enum tpcb_builtin b)
{
	return builtins[b].name;
}

const char *tpcb_builtin_desc(enum tpcb_builtin b)
{
	return builtins[b].desc;
}

int tpcb_builtin_find(const char *name, enum tpcb_builtin *out, char *err, size_t errlen)
{
	size_t len = strlen(name);
	int found = 0;

	for (int i = 0; i < TPCB_NBUILTINS; i++)
		if (!strcmp(builtins[i].name, name)) {
			*out = (enum tpcb_builtin)i;
			return 0;
		}
	for (int i = 0; i < TPCB_NBUILTINS; i++)
		if (!strncmp(builtins[i].name, name, len)) {
			*out = (enum tpcb_builtin)i;
			found++;
		}
	if (found == 1)
		return 0;
	if (found == 0)
		snprintf(err, errlen, "no builtin script found for name \"%.100s\"; the builtins are tpcb-like, simple-update and select-only (a prefix names one: -b si)",
			 name);
	else
		snprintf(err, errlen, "ambiguous builtin name: %d builtin scripts found for prefix \"%.100s\"; give more of the name (tpcb-like, simple-update, select-only)",
			 found, name);
	return -EINVAL;
}

const char *tpcb_builtin_text(enum tpcb_builtin b)
{
	const char *t = sql_text(builtins[b].file);

	while (t && !strncmp(t, "--", 2)) {	/* the file's own comment */
		t = strchr(t, '\n');
		t = t ? t + 1 : "";
	}
	return t;
}

int tpcb_script_weight(const char *spec, char *out, size_t outlen, int *w,
		       char *err, size_t errlen)
{
	const char *at = strrchr(spec, '@');
	size_t n = at ? (size_t)(at - spec) : strlen(spec);
	char *end;
	long long v;

	if (n >= outlen) {
		snprintf(err, errlen, "the script name '%.60s...' is too long (at most %zu bytes)", spec, outlen - 1);
		return -EINVAL;
	}
	memcpy(out, spec, n);
	out[n] = '\0';
	*w = 1;
	if (!at)
		return 0;
	errno = 0;
	v = strtoll(at + 1, &end, 10);
	if (errno == ERANGE || (errno == 0 && end != at + 1 && !*end && (v < 0 || v > INT_MAX))) {
		snprintf(err, errlen, "weight specification out of range (0 .. %d): %.40s", INT_MAX, at + 1);
		return -EINVAL;
	}
	if (errno || end == at + 1 || *end) {
		snprintf(err, errlen, "invalid weight specification: %.60s; give NAME@W with W a whole number from 0 to %d",
			 at, INT_MAX);
		return -EINVAL;
	}
	*w = (int)v;
	return 0;
}

/* ---- variables ------------------------------------------------------------ */

int tpcb_scripts_find(const struct tpcb_scripts *set, const char *name, size_t len)
{
	for (int i = 0; i < set->nslots; i++)
		if (strlen(set->names[i]) == len && !memcmp(set->names[i], name, len))
			return i;
	return -1;
}

int tpcb_scripts_slot(struct tpcb_scripts *set, const char *name, size_t len)
{
	int i = tpcb_scripts_find(set, name, len);

	if (i >= 0)
		return i;
	if (set->nslots == set->capslots) {
		int cap = set->capslots ? set->capslots * 2 : 16;
		char **n = realloc(set->names, (size_t)cap * sizeof(*n));
		bool *a = n ? realloc(set->assigned, (size_t)cap * sizeof(*a)) : NULL;

		if (n)
			set->names = n;
		if (!a)
			return -ENOMEM;
		set->assigned = a;
		set->capslots = cap;
	}
	if (!(set->names[set->nslots] = strndup(name, len)))
		return -ENOMEM;
	set->assigned[set->nslots] = false;
	return set->nslots++;
}

void tpcb_scripts_init(struct tpcb_scripts *set)
{
	memset(set, 0, sizeof(*set));
	/* the run's own variables, as pgbench sets them */
	set->slot_scale = tpcb_scripts_slot(set, "scale", 5);
	set->slot_client_id = tpcb_scripts_slot(set, "client_id", 9);
	set->slot_random_seed = tpcb_scripts_slot(set, "random_seed", 11);
	set->slot_default_seed = tpcb_scripts_slot(set, "default_seed", 12);
	for (int i = 0; i < set->nslots; i++)
		set->assigned[i] = true;
}

static void free_cmd(struct tpcb_cmd *c)
{
	free(c->text);
	free(c->param_sql);
	free(c->param_slot);
	free(c->seg);
	free(c->prefix);
}

void tpcb_scripts_free(struct tpcb_scripts *set)
{
	for (int i = 0; i < set->n; i++) {
		for (int k = 0; k < set->s[i].ncmds; k++)
			free_cmd(&set->s[i].cmd[k]);
		free(set->s[i].cmd);
		free(set->s[i].text);
	}
	for (int i = 0; i < set->nslots; i++)
		free(set->names[i]);
	for (int i = 0; i < set->ndefs; i++)
		free(set->defs[i].value);
	free(set->names);
	free(set->assigned);
	free(set->defs);
	free(set->refs);
	tpcb_exprs_free(&set->exprs);
	memset(set, 0, sizeof(*set));
}

int tpcb_scripts_define(struct tpcb_scripts *set, const char *def, char *err, size_t errlen)
{
	const char *eq = strchr(def, '=');
	struct tpcb_def *d;
	int slot;

	if (!eq || eq == def || !eq[1]) {
		snprintf(err, errlen, "invalid variable definition: \"%.100s\"; give -D NAME=VALUE", def);
		return -EINVAL;
	}
	if (!tpcb_valid_name(def, (size_t)(eq - def))) {
		snprintf(err, errlen, "-D: invalid variable name: \"%.*s\"; a name is letters, digits and _, not starting with a digit",
			 (int)(eq - def < 100 ? eq - def : 100), def);
		return -EINVAL;
	}
	if ((slot = tpcb_scripts_slot(set, def, (size_t)(eq - def))) < 0)
		return -ENOMEM;
	for (int i = 0; i < set->ndefs; i++)
		if (set->defs[i].slot == slot) {	/* the last one given wins */
			char *v = strdup(eq + 1);

			if (!v)
				return -ENOMEM;
			free(set->defs[i].value);
			set->defs[i].value = v;
			return 0;
		}
	d = realloc(set->defs, (size_t)(set->ndefs + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	set->defs = d;
	d[set->ndefs] = (struct tpcb_def){ .slot = slot, .value = strdup(eq + 1) };
	if (!d[set->ndefs].value)
		return -ENOMEM;
	set->ndefs++;
	set->assigned[slot] = true;
	return 0;
}

/* ---- SQL --------------------------------------------------------------------- */

static bool name_start(unsigned char c)
{
	return tpcb_valid_name((const char *)&c, 1);
}

static size_t name_len(const char *s)
{
	size_t n = 0;

	while (s[n] && ((unsigned char)s[n] >= 0x80 || s[n] == '_' ||
			(s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'z') ||
			(s[n] >= 'A' && s[n] <= 'Z')))
		n++;
	return n;
}

static int add_seg(struct tpcb_cmd *c, size_t off, size_t len, int slot)
{
	struct tpcb_seg *s = realloc(c->seg, (size_t)(c->nsegs + 1) * sizeof(*s));

	if (!s)
		return -ENOMEM;
	c->seg = s;
	s[c->nsegs++] = (struct tpcb_seg){ (uint32_t)off, (uint32_t)len, slot };
	return 0;
}

/* :name occurrences as pgbench finds them (quotes are not looked at; a ':'
 * not followed by a name start, and the rest of a run of ':', is text). */
static int compile_sql(struct tpcb_scripts *set, struct tpcb_cmd *c, char *err, size_t errlen)
{
	const char *t = c->text;
	size_t n = strlen(t), i = 0, lit = 0, out = 0;

	if (!(c->param_sql = malloc(n * 2 + 8)) || !(c->param_slot = malloc(sizeof(int32_t) * TPCB_MAX_PARAMS)))
		return -ENOMEM;
	while (i < n) {
		size_t len;
		int slot;

		if (t[i] != ':' || !name_start((unsigned char)t[i + 1])) {
			if (t[i] == ':')
				while (t[i] == ':')
					c->param_sql[out++] = t[i++];
			else
				c->param_sql[out++] = t[i++];
			continue;
		}
		len = name_len(t + i + 1);
		if (c->nparams == TPCB_MAX_PARAMS) {
			snprintf(err, errlen, "statement has too many arguments (maximum is %d): %.100s",
				 TPCB_MAX_PARAMS, t);
			return -EINVAL;
		}
		if ((slot = tpcb_scripts_slot(set, t + i + 1, len)) < 0 ||
		    (i > lit && add_seg(c, lit, i - lit, -1) < 0) || add_seg(c, i, len + 1, slot) < 0)
			return -ENOMEM;
		c->param_slot[c->nparams++] = slot;
		out += (size_t)sprintf(c->param_sql + out, "$%d", c->nparams);
		i += len + 1;
		lit = i;
	}
	if (i > lit && add_seg(c, lit, i - lit, -1) < 0)
		return -ENOMEM;
	c->param_sql[out] = '\0';
	return 0;
}

/* ---- one script -------------------------------------------------------------- */

struct build {
	struct tpcb_scripts *set;
	struct tpcb_script *sc;
	int    capcmds;
	char  *err;
	size_t errlen;
};

static struct tpcb_cmd *new_cmd(struct build *b)
{
	struct tpcb_script *sc = b->sc;

	if (sc->ncmds == b->capcmds) {
		int cap = b->capcmds ? b->capcmds * 2 : 16;
		struct tpcb_cmd *c = realloc(sc->cmd, (size_t)cap * sizeof(*c));

		if (!c)
			return NULL;
		sc->cmd = c;
		b->capcmds = cap;
	}
	memset(&sc->cmd[sc->ncmds], 0, sizeof(sc->cmd[0]));
	sc->cmd[sc->ncmds].slot = sc->cmd[sc->ncmds].sleep_slot = -1;
	sc->cmd[sc->ncmds].expr = sc->cmd[sc->ncmds].jump = sc->cmd[sc->ncmds].end = -1;
	return &sc->cmd[sc->ncmds++];
}

/* The variable table for the meta-commands' compiler. */
static int slot_fn(void *arg, const char *name, size_t len)
{
	return tpcb_scripts_slot(arg, name, len);
}

static int on_command(void *arg, const struct tpcb_raw *r)
{
	struct build *b = arg;
	struct tpcb_cmd *c;
	int col;

	if (r->meta && (!strcasecmp(r->name, "gset") || !strcasecmp(r->name, "aset")))
		return tpcb_meta_gset(b->set, b->sc, r, b->err, b->errlen);
	if (!(c = new_cmd(b)))
		return -ENOMEM;
	tpcb_scan_where(b->sc->text, r->off, &c->line, &col);
	if (r->meta)
		return tpcb_meta_compile(b->set, b->sc, c, r, slot_fn, b->err, b->errlen);
	c->kind = TPCB_SQL;
	snprintf(c->prepname, sizeof(c->prepname), "P_%d", b->set->ncmds + b->sc->ncmds - 1);
	if (!(c->text = strndup(r->sql, r->sql_len)))
		return -ENOMEM;
	return compile_sql(b->set, c, b->err, b->errlen);
}

static int new_script(struct tpcb_scripts *set, const char *name, const char *text, int w,
		      char *err, size_t errlen)
{
	struct tpcb_script *sc;

	if (set->n == TPCB_MAX_SCRIPTS) {
		snprintf(err, errlen, "at most %d SQL scripts are allowed", TPCB_MAX_SCRIPTS);
		return -EINVAL;
	}
	sc = &set->s[set->n];
	memset(sc, 0, sizeof(*sc));
	snprintf(sc->name, sizeof(sc->name), "%s", name);
	sc->weight = w;
	sc->first = set->ncmds;
	if (!(sc->text = strdup(text)))
		return -ENOMEM;
	set->n++;
	return 0;
}

int tpcb_scripts_add_text(struct tpcb_scripts *set, const char *name, const char *text,
			  int w, char *err, size_t errlen)
{
	struct build b = { .set = set, .err = err, .errlen = errlen };
	int ret = new_script(set, name, text, w, err, errlen);

	if (ret < 0)
		return ret;
	b.sc = &set->s[set->n - 1];
	ret = tpcb_scan(b.sc->text, on_command, &b);
	if (ret == 0)
		ret = tpcb_meta_check(set, b.sc, err, errlen);
	if (ret == 0 && b.sc->ncmds == 0) {
		snprintf(err, errlen, "empty command list for script \"%.200s\"", name);
		ret = -EINVAL;
	}
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory while reading script \"%.200s\"", name);
	set->ncmds += b.sc->ncmds;
	return ret;
}

int tpcb_scripts_add_builtin(struct tpcb_scripts *set, enum tpcb_builtin bi, int w,
			     char *err, size_t errlen)
{
	const char *text = tpcb_builtin_text(bi);
	int ret;

	if (!text) {
		snprintf(err, errlen, "no SQL file sql/%s in this build", builtins[bi].file);
		return -EINVAL;
	}
	ret = tpcb_scripts_add_text(set, builtins[bi].desc, text, w, err, errlen);
	if (ret == 0) {
		snprintf(set->s[set->n - 1].builtin, sizeof(set->s[0].builtin), "%s", builtins[bi].name);
		set->builtin_used = true;
	}
	return ret;
}

/* All of stdin, for "-f -". */
static int read_stdin(char **out)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap), *b;
	size_t n;

	if (!buf)
		return -ENOMEM;
	while ((n = fread(buf + len, 1, cap - len - 1, stdin)) > 0) {
		len += n;
		if (len > SCRIPT_MAX_BYTES)
			return free(buf), -EFBIG;
		if (cap - len < 2) {
			if (!(b = realloc(buf, cap * 2)))
				return free(buf), -ENOMEM;
			buf = b;
			cap *= 2;
		}
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

int tpcb_scripts_add_file(struct tpcb_scripts *set, const char *path, int w,
			  char *err, size_t errlen)
{
	char *text = NULL;
	int ret = !strcmp(path, "-") ? read_stdin(&text) : file_read_all(path, SCRIPT_MAX_BYTES, &text, NULL);

	if (ret < 0) {
		snprintf(err, errlen, "could not open file \"%.200s\": %s; give a script file (-f FILE[@W])",
			 path, ret == -EFBIG ? "larger than 16 MiB" : file_strerror(ret));
		return -EINVAL;
	}
	ret = tpcb_scripts_add_text(set, path, text, w, err, errlen);
	free(text);
	return ret;
}

/* ---- the whole set ------------------------------------------------------------- */

static int check_refs(const struct tpcb_scripts *set, char *err, size_t errlen)
{
	if (set->any_gset)	/* \gset and \aset may set any name */
		return 0;
	for (int i = 0; i < set->nrefs; i++) {
		const struct tpcb_script *sc = &set->s[set->refs[i].script];
		char line[256];
		int l, col;

		if (set->assigned[set->refs[i].slot])
			continue;
		tpcb_scan_where(sc->text, set->refs[i].off, &l, &col);
		tpcb_scan_line(sc->text, set->refs[i].off, line, sizeof(line));
		snprintf(err, errlen, "%.200s:%d:%d: undefined variable \"%.60s\": no \\set, \\gset, \\aset or -D gives it a value\n%s\n%*c",
			 sc->name, l, col, set->names[set->refs[i].slot], line, col, '^');
		return -EINVAL;
	}
	return 0;
}

int tpcb_scripts_finish(struct tpcb_scripts *set, char *err, size_t errlen)
{
	int ret = 0;

	if (set->n == 0)
		ret = tpcb_scripts_add_builtin(set, TPCB_TPCB_LIKE, 1, err, errlen);
	if (ret < 0)
		return ret;
	set->total_weight = 0;
	for (int i = 0; i < set->n; i++)
		set->total_weight += set->s[i].weight;
	if (set->total_weight == 0) {
		snprintf(err, errlen, "total script weight must not be zero: give at least one script a weight above 0 (NAME@W)");
		return -EINVAL;
	}
	return check_refs(set, err, errlen);
}

void tpcb_cmd_first_line(const struct tpcb_cmd *c, char *buf, size_t len)
{
	size_t n = c->text ? strcspn(c->text, "\r\n") : 0;

	if (n >= len)
		n = len - 1;
	memcpy(buf, c->text ? c->text : "", n);
	buf[n] = '\0';
}
