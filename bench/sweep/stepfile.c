/*
 * stepfile: INI sweep files through libinih; see stepfile.h. libinih gives
 * each key with its section; a reader of our own feeds it the text line by
 * line, so every key is known by its line, and a first pass finds the
 * sections in order (a step may set nothing: it is still a step).
 */
#include "bench/sweep/stepfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "bench/cli/opts.h"
#include "io/file.h"

#define SWEEP_SECTION "sweep"
#define MAX_BYTES     (1 << 20)

/* Each step's own settings, before cumulative steps are folded. */
struct own {
	int  n;
	char name[SWEEP_MAX_SETTINGS][SWEEP_NAME_MAX];
	char value[SWEEP_MAX_SETTINGS][SWEEP_VALUE_MAX];
	int  line[SWEEP_MAX_SETTINGS];
};

struct parse {
	struct stepfile *sf;
	struct stepfile_load own_load[SWEEP_MAX_STEPS];   /* each step's own load keys */
	const char *text, *at;         /* the reader's position */
	int   line;                    /* of the line libinih has just read */
	int   nsections;
	char  section[SWEEP_MAX_STEPS + 1][SWEEP_NAME_MAX];
	int   section_line[SWEEP_MAX_STEPS + 1];
	int   step_of[SWEEP_MAX_STEPS + 1];    /* the step a section is, -1 for [sweep] */
	int   nsteps;
	struct own own[SWEEP_MAX_STEPS];
	char  err[PATH_MAX + 256];
};

/* Where a line's comment starts, when the line is a comment: its first
 * character past the blanks starts one. NULL for any other line. */
static const char *comment_start(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && isspace((unsigned char)s[i]))
		i++;
	return i < n && strchr(INI_START_COMMENT_PREFIXES, s[i]) ? s + i : NULL;
}

static int stepfile_refused(struct parse *p, int line, const char *what, const char *name)
{
	if (!p->err[0])
		snprintf(p->err, sizeof(p->err), "%.3800s line %d: %s%s%.80s%s", p->sf->path, line, what,
			 name ? " '" : "", name ? name : "", name ? "'" : "");
	return 0;	/* libinih: stop */
}

/*
 * libinih's reader: the next line of the text into STR, whole. libinih
 * holds a line in NUM bytes; a longer one would reach it in pieces, the
 * tail of a comment read as a setting. A comment line is handed over as
 * its first character (a comment still), whatever its length; any other
 * line that does not fit stops the parse with an error naming it.
 */
static char *reader(char *str, int num, void *stream)
{
	struct parse *p = stream;
	const char *comment;
	size_t n;

	if (!*p->at || p->err[0])
		return NULL;
	n = strcspn(p->at, "\n");
	p->line++;
	if ((comment = comment_start(p->at, n)) != NULL) {
		str[0] = *comment;
		str[1] = '\n';
		str[2] = '\0';
	} else if (n + 2 > (size_t)num) {
		char what[96];

		snprintf(what, sizeof(what), "a line of %zu bytes; a line holds at most %d (comments excepted)",
			 n, num - 2);
		stepfile_refused(p, p->line, what, NULL);
		return NULL;
	} else {
		memcpy(str, p->at, n);
		str[n] = '\n';
		str[n + 1] = '\0';
	}
	p->at += n + (p->at[n] == '\n');
	return str;
}

static int find_section(const struct parse *p, const char *name)
{
	for (int i = 0; i < p->nsections; i++)
		if (!strcmp(p->section[i], name))
			return i;
	return -1;
}

static int sweep_option(struct parse *p, const char *key, const char *value)
{
	struct stepfile *sf = p->sf;

	for (int i = 0; i < sf->noptions; i++)
		if (!strcmp(sf->option[i].key, key))
			return stepfile_refused(p, p->line, "given twice in [sweep]:", key);
	if (sf->noptions == STEPFILE_MAX_OPTIONS || strlen(key) >= sizeof(sf->option[0].key) ||
	    strlen(value) >= sizeof(sf->option[0].value))
		return stepfile_refused(p, p->line, "too many, too long options in [sweep]:", key);
	if (!strcmp(key, "mode")) {
		if (strcmp(value, "cumulative") && strcmp(value, "independent"))
			return stepfile_refused(p, p->line, "mode must be cumulative or independent, not", value);
		sf->cumulative = !strcmp(value, "cumulative");
	}
	snprintf(sf->option[sf->noptions].key, sizeof(sf->option[0].key), "%s", key);
	snprintf(sf->option[sf->noptions].value, sizeof(sf->option[0].value), "%s", value);
	sf->option[sf->noptions++].line = p->line;
	return 1;
}

static bool load_key(const char *key)
{
	return !strcmp(key, "script") || !strcmp(key, "builtin") || !strcmp(key, "define");
}

/* script, builtin, define: into L, several of each allowed. */
static int load_item(struct parse *p, struct stepfile_load *l, const char *key, const char *value)
{
	bool def = !strcmp(key, "define");

	if (!*value)
		return stepfile_refused(p, p->line, "no value given to", key);
	if (strlen(value) >= STEPFILE_ITEM_MAX)
		return stepfile_refused(p, p->line, "too long a value (at most 255 bytes) for", key);
	if (def && l->ndefines == STEPFILE_MAX_DEFINES)
		return stepfile_refused(p, p->line, "too many defines (at most 32) in one section:", value);
	if (!def && l->nscripts == STEPFILE_MAX_SCRIPTS)
		return stepfile_refused(p, p->line, "too many scripts (at most 16) in one section:", value);
	if (def) {
		snprintf(l->define[l->ndefines].def, STEPFILE_ITEM_MAX, "%s", value);
		l->define[l->ndefines++].line = p->line;
	} else {
		snprintf(l->script[l->nscripts].spec, STEPFILE_ITEM_MAX, "%s", value);
		l->script[l->nscripts].builtin = !strcmp(key, "builtin");
		l->script[l->nscripts++].line = p->line;
	}
	return 1;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct parse *p = user;
	int s = find_section(p, section), k;
	struct own *o;

	if (p->err[0])
		return 0;
	if (opts_has_control(key) || opts_has_control(value)) {
		char shown[200];

		opts_escape(opts_has_control(key) ? key : value, shown, sizeof(shown));
		return stepfile_refused(p, p->line, "a control character (a tab or other) in", shown);
	}
	if (load_key(key) && !strcmp(section, SWEEP_SECTION))
		return load_item(p, &p->sf->defaults, key, value);
	if (load_key(key) && s >= 0) {
		p->sf->own_load = true;
		return load_item(p, &p->own_load[p->step_of[s]], key, value);
	}
	if (!strcmp(section, SWEEP_SECTION))
		return sweep_option(p, key, value);
	if (s < 0)
		return stepfile_refused(p, p->line, "a setting outside any step:", key);
	o = &p->own[p->step_of[s]];
	for (k = 0; k < o->n; k++)
		if (!strcmp(o->name[k], key))
			return stepfile_refused(p, p->line, "set twice in one step:", key);
	if (o->n == SWEEP_MAX_SETTINGS || strlen(key) >= SWEEP_NAME_MAX || strlen(value) >= SWEEP_VALUE_MAX)
		return stepfile_refused(p, p->line, "too many settings in one step, or too long:", key);
	if (!*value)
		return stepfile_refused(p, p->line, "a setting without a value:", key);
	if (!strcmp(key, SWEEP_EIC)) {
		char why[400];

		if (sweep_check_eic(SWEEP_EIC, value, why, sizeof(why)) < 0)
			return stepfile_refused(p, p->line, why, NULL);
	}
	snprintf(o->name[o->n], SWEEP_NAME_MAX, "%s", key);
	snprintf(o->value[o->n], SWEEP_VALUE_MAX, "%s", value);
	o->line[o->n++] = p->line;
	return 1;
}

/* First pass: the sections in order, with their lines. */
static int sections(struct parse *p)
{
	const char *t = p->text;
	int line = 0;

	while (*t) {
		size_t n = strcspn(t, "\n");
		const char *s = t, *end;

		line++;
		while (s < t + n && isspace((unsigned char)*s))
			s++;
		if (*s == '[' && (end = memchr(s, ']', (size_t)(t + n - s))) != NULL) {
			char name[SWEEP_NAME_MAX];
			const char *a = s + 1, *b = end;

			while (a < b && isspace((unsigned char)*a))
				a++;
			while (b > a && isspace((unsigned char)b[-1]))
				b--;
			if ((size_t)(b - a) >= sizeof(name) || p->nsections > SWEEP_MAX_STEPS ||
			    (p->nsteps == SWEEP_MAX_STEPS && strncmp(a, SWEEP_SECTION, (size_t)(b - a))))
				return stepfile_refused(p, line, "a step's name is too long, or too many steps (at most 64)", NULL), -1;
			snprintf(name, sizeof(name), "%.*s", (int)(b - a), a);
			if (find_section(p, name) >= 0)
				return stepfile_refused(p, line, "a section given twice:", name), -1;
			snprintf(p->section[p->nsections], SWEEP_NAME_MAX, "%s", name);
			p->step_of[p->nsections] = strcmp(name, SWEEP_SECTION) ? p->nsteps++ : -1;
			p->section_line[p->nsections++] = line;
		}
		t += n + (t[n] == '\n');
	}
	return 0;
}

/* Step S's load in force into OUT: its own scripts, else those before it
 * (the last step's when cumulative, else [sweep]'s); defines on top. */
static void fold_load(const struct stepfile_load *before, const struct stepfile_load *own,
		      struct stepfile_load *out)
{
	*out = *before;
	if (own->nscripts) {
		out->nscripts = own->nscripts;
		memcpy(out->script, own->script, sizeof(own->script));
	}
	for (int j = 0; j < own->ndefines; j++) {
		size_t n = strcspn(own->define[j].def, "=");
		int i = 0;

		while (i < out->ndefines && !(strncmp(out->define[i].def, own->define[j].def, n) == 0 &&
					      out->define[i].def[n] == '='))
			i++;
		if (i == STEPFILE_MAX_DEFINES)
			continue;	/* each section holds at most this many; the fold keeps the first ones */
		out->define[i] = own->define[j];
		out->ndefines += i == out->ndefines;
	}
}

/* The steps into the plan, cumulative ones carrying the settings before them. */
static int build(struct parse *p, char *err, size_t errlen)
{
	struct stepfile *sf = p->sf;
	struct own acc = { 0 };
	int k = 0;

	for (int s = 0; s < p->nsections; s++) {
		const struct own *o;
		const char *names[SWEEP_MAX_SETTINGS], *values[SWEEP_MAX_SETTINGS];

		if (p->step_of[s] < 0)
			continue;
		o = &p->own[p->step_of[s]];
		if (!sf->cumulative)
			acc.n = 0;
		for (int j = 0; j < o->n; j++) {
			int i = 0;

			while (i < acc.n && strcmp(acc.name[i], o->name[j]))
				i++;
			if (i == SWEEP_MAX_SETTINGS)
				return snprintf(err, errlen, "%s: more than %d settings in all", sf->path,
						SWEEP_MAX_SETTINGS), -EINVAL;
			snprintf(acc.name[i], SWEEP_NAME_MAX, "%s", o->name[j]);
			snprintf(acc.value[i], SWEEP_VALUE_MAX, "%s", o->value[j]);
			acc.line[i] = o->line[j];
			acc.n += i == acc.n;
		}
		for (int j = 0; j < acc.n; j++)
			names[j] = acc.name[j], values[j] = acc.value[j];
		if (sweep_step_add(&sf->grid, &sf->steps, p->section[s], acc.n, names, values, err, errlen) < 0) {
			char why[512];

			snprintf(why, sizeof(why), "%s", err);
			snprintf(err, errlen, "%s line %d: %s", sf->path, p->section_line[s], why);
			return -EINVAL;
		}
		fold_load(sf->cumulative && k > 0 ? &sf->load[k - 1] : &sf->defaults, &p->own_load[p->step_of[s]],
			  &sf->load[k]);
		sf->step_line[k] = p->section_line[s];
		for (int j = 0; j < acc.n; j++)
			sf->setting_line[k][sweep_grid_find(&sf->grid, acc.name[j])] = acc.line[j];
		k++;
	}
	return 0;
}

int stepfile_parse(const char *text, const char *name, struct stepfile *sf,
		   char *err, size_t errlen)
{
	struct parse *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return -ENOMEM;
	memset(sf, 0, sizeof(*sf));
	snprintf(sf->path, sizeof(sf->path), "%s", name);
	sf->cumulative = true;
	*p = (struct parse){ .sf = sf, .text = text, .at = text };
	ret = sections(p);
	if (ret == 0) {
		int bad = ini_parse_stream(reader, p, handler, p);

		if (bad > 0 && !p->err[0])
			stepfile_refused(p, bad, "not INI: give [step name] lines and name = value lines", NULL);
	}
	if (!p->err[0] && p->nsteps == 0)
		snprintf(p->err, sizeof(p->err), "%s: no step; give one [section] per step, each with the settings it sets",
			 name);
	if (p->err[0]) {
		snprintf(err, errlen, "%s", p->err);
		ret = -EINVAL;
	} else
		ret = build(p, err, errlen);
	free(p);
	return ret;
}

int stepfile_load(const char *path, struct stepfile *sf, char *err, size_t errlen)
{
	char *text = NULL;
	const char *nul;
	size_t len = 0;
	int ret = opts_check_text("the sweep file", path, err, errlen);

	if (ret < 0)
		return ret;
	ret = file_read_all(path, MAX_BYTES, &text, &len);
	if (ret < 0) {
		snprintf(err, errlen, "%s: cannot read it (%s); give a sweep file (INI)", path,
			 ret == -EFBIG ? "larger than 1 MiB" : file_strerror(ret));
		return -EINVAL;
	}
	nul = memchr(text, '\0', len);
	if (nul) {
		int line = 1;

		for (const char *c = text; c < nul; c++)
			line += *c == '\n';
		snprintf(err, errlen, "%.3800s line %d: a NUL byte; give a text file (a NUL would end the file there)",
			 path, line);
		free(text);
		return -EINVAL;
	}
	ret = stepfile_parse(text, path, sf, err, errlen);
	free(text);
	return ret;
}

const char *stepfile_option(const struct stepfile *sf, const char *key, int *line)
{
	for (int i = 0; i < sf->noptions; i++)
		if (!strcmp(sf->option[i].key, key)) {
			if (line)
				*line = sf->option[i].line;
			return sf->option[i].value;
		}
	return NULL;
}

int stepfile_line(const struct stepfile *sf, int k, int i)
{
	return k >= 0 && k < SWEEP_MAX_STEPS && i >= 0 && i < SWEEP_MAX_SETTINGS ? sf->setting_line[k][i] : 0;
}
