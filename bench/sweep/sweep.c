/*
 * sweep: grids, combinations, per-round shuffles and trial keys.
 */
#include "bench/sweep/sweep.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench/cli/opts.h"
#include "bench/sweep/pgvalue.h"
#include "io/rng.h"

static bool valid_name(const char *s, size_t len)
{
	if (len == 0 || len >= SWEEP_NAME_MAX || !islower((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!islower((unsigned char)s[i]) && !isdigit((unsigned char)s[i]) &&
		    s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

/*
 * The value V as the server would take it, as far as can be told without
 * asking it, into KEY: a number by what it counts (1, +1 and 1.0 are one;
 * 1MB and 1024kB, 1s and 1000ms, 0x10 and 16 too; 010MB is 8MB, memory
 * settings being integers, for which a leading 0 is octal), on/true/yes and
 * off/false/no, and other words without regard to case (enum values are
 * read so). A number that an integer setting and a real one read as two
 * values (010: eight or ten) has no key: -EINVAL, with ERR saying both.
 */
static int value_key(const char *v, const char *label, char *key, size_t len, char *err, size_t errlen)
{
	static const char *const on[] = { "on", "true", "yes", NULL }, *const off[] = { "off", "false", "no", NULL };
	struct pgvalue in, re;
	bool is_in = pgvalue_int(v, &in), is_re = pgvalue_real(v, &re);
	size_t i;

	if (is_in && is_re && in.unit != PGVALUE_BYTES && (in.x != re.x || in.unit != re.unit)) {
		snprintf(err, errlen, "%s: '%s' is %.17g to an integer setting (a leading 0 is octal) and %.17g to a real one; write the number without the leading 0 (or in hex, 0x)",
			 label, v, in.x, re.x);
		return -EINVAL;
	}
	if (is_in || is_re) {
		const struct pgvalue *n = is_in ? &in : &re;

		snprintf(key, len, "%c%.17g", (char)n->unit, n->x);
		return 0;
	}
	for (i = 0; on[i]; i++)
		if (!strcasecmp(v, on[i]) || !strcasecmp(v, off[i])) {
			snprintf(key, len, "%s", !strcasecmp(v, on[i]) ? "on" : "off");
			return 0;
		}
	for (i = 0; v[i] && i + 2 < len; i++)
		key[i + 1] = (char)tolower((unsigned char)v[i]);
	key[0] = 'w';
	key[i + 1] = '\0';
	return 0;
}

/* No value given twice, written alike or not. LABEL names the list. */
static int check_twice(const struct sweep_setting *st, const char *label, char *err, size_t errlen)
{
	char a[SWEEP_VALUE_MAX + 32], b[SWEEP_VALUE_MAX + 32];

	for (int i = 0; i < st->nvalues; i++) {
		if (value_key(st->values[i], label, a, sizeof(a), err, errlen) < 0)
			return -EINVAL;
		for (int k = 0; k < i; k++) {
			value_key(st->values[k], label, b, sizeof(b), err, errlen);
			if (strcmp(a, b))
				continue;
			if (!strcmp(st->values[k], st->values[i]))
				snprintf(err, errlen, "%s: '%s' is given twice; give each value once",
					 label, st->values[i]);
			else
				snprintf(err, errlen, "%s: '%s' and '%s' are the same value; give each value once",
					 label, st->values[k], st->values[i]);
			return -EINVAL;
		}
	}
	return 0;
}

static int add_values(struct sweep_setting *st, const char *list, const char *label,
		      char *err, size_t errlen)
{
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (len == 0 || len >= SWEEP_VALUE_MAX || st->nvalues == SWEEP_MAX_VALUES) {
			snprintf(err, errlen, "%s: %s", label,
				 len == 0 ? "an empty value; give comma-separated values" :
				 len >= SWEEP_VALUE_MAX ? "a value is too long" :
				 "too many values (at most 64)");
			return -EINVAL;
		}
		memcpy(st->values[st->nvalues], p, len);
		st->values[st->nvalues++][len] = '\0';
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

int sweep_check_eic(const char *label, const char *v, char *err, size_t errlen)
{
	struct pgvalue in, re;
	char shown[200];
	long long x;

	if (opts_parse_ll(v, 0, 1000, &x) == 0)
		return 0;
	opts_escape(v, shown, sizeof(shown));
	if (!pgvalue_int(v, &in) || in.unit != PGVALUE_PLAIN || in.x != rint(in.x) || in.x < 0 || in.x > 1000)
		snprintf(err, errlen, "%s: '%s' is not allowed; give a whole number from 0 to 1000", label, shown);
	else if (pgvalue_real(v, &re) && re.x != in.x)
		snprintf(err, errlen, "%s: '%s' is not written plainly; the server reads it as %.0f (a leading 0 is octal): give %.0f",
			 label, shown, in.x, in.x);
	else
		snprintf(err, errlen, "%s: '%s' is not written plainly; give %.0f", label, shown, in.x);
	return -EINVAL;
}

static int check_eic(const struct sweep_setting *st, const char *label, char *err, size_t errlen)
{
	for (int i = 0; i < st->nvalues; i++)
		if (sweep_check_eic(label, st->values[i], err, errlen) < 0)
			return -EINVAL;
	return 0;
}

/* Settings that would let a trial write, or change what a trial reads. */
static const char *const refused_settings[] = {
	"default_transaction_read_only", "transaction_read_only", "session_replication_role", NULL,
};

int sweep_grid_find(const struct sweep_grid *g, const char *name)
{
	for (int i = 0; i < g->nsettings; i++)
		if (!strcmp(g->s[i].name, name))
			return i;
	return -1;
}

static bool valid_step_name(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= SWEEP_NAME_MAX)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr(" _.,=+-()", s[i]))
			return false;
	return true;
}

/* Setting NAME in G, added (without values) when new; its index or -1. */
static int grid_slot(struct sweep_grid *g, const char *name)
{
	int i = sweep_grid_find(g, name);

	if (i >= 0 || g->nsettings == SWEEP_MAX_SETTINGS)
		return i;
	i = g->nsettings++;
	memset(&g->s[i], 0, sizeof(g->s[i]));
	snprintf(g->s[i].name, sizeof(g->s[i].name), "%s", name);
	return i;
}

/* VALUE's index among setting I's values, added when new; or -1. */
static int value_slot(struct sweep_setting *st, const char *value)
{
	for (int k = 0; k < st->nvalues; k++)
		if (!strcmp(st->values[k], value))
			return k;
	if (st->nvalues == SWEEP_MAX_VALUES || strlen(value) >= SWEEP_VALUE_MAX)
		return -1;
	snprintf(st->values[st->nvalues], SWEEP_VALUE_MAX, "%s", value);
	return st->nvalues++;
}

int sweep_step_add(struct sweep_grid *g, struct sweep_steps *st, const char *name, int n,
		   const char *const *names, const char *const *values, char *err, size_t errlen)
{
	int k = st->nsteps;

	if (!valid_step_name(name) || st->nsteps == SWEEP_MAX_STEPS) {
		snprintf(err, errlen, "step '%.80s': %s", name, st->nsteps == SWEEP_MAX_STEPS ?
			 "too many steps (at most 64)" :
			 "a step's name is 1 to 63 letters, digits, spaces and _ . , = + - ( )");
		return -EINVAL;
	}
	for (int i = 0; i < k; i++)
		if (!strcmp(st->name[i], name)) {
			snprintf(err, errlen, "step '%s' is named twice; give each step its own name", name);
			return -EINVAL;
		}
	snprintf(st->name[k], SWEEP_NAME_MAX, "%s", name);
	memset(st->value[k], -1, sizeof(st->value[k]));
	for (int j = 0; j < n; j++) {
		int i = valid_name(names[j], strlen(names[j])) ? grid_slot(g, names[j]) : -1;
		int v = i >= 0 ? value_slot(&g->s[i], values[j]) : -1;

		if (v < 0) {
			snprintf(err, errlen, "step '%s': %s = %.80s: %s", name, names[j], values[j],
				 i < 0 ? "not a setting name (lower case), or more than 24 settings in all" :
				 "the value is too long, or the setting has over 64 values");
			return -EINVAL;
		}
		st->value[k][i] = (signed char)v;
	}
	st->nsteps++;
	return 0;
}

/* Setting NAME (checked) with the values of LIST; LABEL names them in messages. */
static int add_setting(struct sweep_grid *g, const char *name, const char *list,
		       const char *label, char *err, size_t errlen)
{
	struct sweep_setting *st = &g->s[g->nsettings];

	memset(st, 0, sizeof(*st));
	snprintf(st->name, sizeof(st->name), "%s", name);
	if (add_values(st, list, label, err, errlen) < 0 ||
	    (!strcmp(st->name, SWEEP_EIC) && check_eic(st, label, err, errlen) < 0) ||
	    check_twice(st, label, err, errlen) < 0)
		return -EINVAL;
	g->nsettings++;
	return 0;
}

int sweep_grid_add(struct sweep_grid *g, const char *spec, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '=');
	char name[SWEEP_NAME_MAX], label[SWEEP_NAME_MAX + 200];
	size_t len = eq ? (size_t)(eq - spec) : 0;

	if (opts_check_text("--set", spec, err, errlen) < 0)
		return -EINVAL;
	if (!eq || !valid_name(spec, len)) {
		snprintf(err, errlen, "--set '%.200s': give NAME=V1,V2,... with a setting name in lower case", spec);
		return -EINVAL;
	}
	if (g->nsettings == SWEEP_MAX_SETTINGS) {
		snprintf(err, errlen, "--set '%.200s': at most %d settings may vary at once", spec, SWEEP_MAX_SETTINGS);
		return -EINVAL;
	}
	snprintf(name, sizeof(name), "%.*s", (int)len, spec);
	for (int i = 0; refused_settings[i]; i++)
		if (!strcmp(name, refused_settings[i])) {
			snprintf(err, errlen, "--set %s: trials run read-only, and this setting would change that; it cannot be varied",
				 name);
			return -EINVAL;
		}
	if (sweep_grid_find(g, name) >= 0) {
		snprintf(err, errlen, "--set '%.200s': %s is already being varied", spec, name);
		return -EINVAL;
	}
	snprintf(label, sizeof(label), "--set %.*s", (int)(sizeof(label) - 8), spec);
	return add_setting(g, name, eq + 1, label, err, errlen);
}

int sweep_grid_add_eic(struct sweep_grid *g, const char *list, char *err, size_t errlen)
{
	char label[200];

	if (opts_check_text("--eic", list, err, errlen) < 0)
		return -EINVAL;
	if (sweep_grid_find(g, SWEEP_EIC) >= 0 || g->nsettings == SWEEP_MAX_SETTINGS) {
		snprintf(err, errlen, "--eic %.160s: %s is already being varied", list, SWEEP_EIC);
		return -EINVAL;
	}
	snprintf(label, sizeof(label), "--eic %.160s", list);
	return add_setting(g, SWEEP_EIC, list, label, err, errlen);
}

static int by_number(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

int sweep_eic_ladder(const char *opt, const char *list, int *out, char *err, size_t errlen)
{
	struct sweep_grid *g = calloc(1, sizeof(*g));
	char label[200];
	int n;

	if (!g)
		return -ENOMEM;
	snprintf(label, sizeof(label), "%s %.160s", opt, list);
	if (opts_check_text(opt, list, err, errlen) < 0 || add_setting(g, SWEEP_EIC, list, label, err, errlen) < 0) {
		free(g);
		return -EINVAL;
	}
	n = g->s[0].nvalues;
	for (int k = 0; k < n; k++)
		out[k] = atoi(g->s[0].values[k]);
	qsort(out, (size_t)n, sizeof(int), by_number);
	free(g);
	return n;
}

int sweep_grid_insert_eic(struct sweep_grid *g, int v)
{
	int i = sweep_grid_find(g, SWEEP_EIC), k;
	struct sweep_setting *st;

	if (i < 0)
		return -ENOENT;
	st = &g->s[i];
	for (k = 0; k < st->nvalues; k++)
		if (atoi(st->values[k]) == v)
			return 0;
	if (st->nvalues == SWEEP_MAX_VALUES)
		return -E2BIG;
	for (k = st->nvalues; k > 0 && atoi(st->values[k - 1]) > v; k--)
		memcpy(st->values[k], st->values[k - 1], SWEEP_VALUE_MAX);
	snprintf(st->values[k], SWEEP_VALUE_MAX, "%d", v);
	st->nvalues++;
	return 1;
}

const char *sweep_value(const struct sweep_plan *p, int combo, int i)
{
	int div = 1;

	if (p->steps.nsteps) {
		int v = p->steps.value[combo][i];

		return v < 0 ? NULL : p->grid.s[i].values[v];
	}
	for (int k = p->grid.nsettings - 1; k > i; k--)
		div *= p->grid.s[k].nvalues;
	return p->grid.s[i].values[(combo / div) % p->grid.s[i].nvalues];
}

static void shuffle(int *v, int n, uint64_t *state)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(rng_splitmix64(state) % (uint64_t)(i + 1)), t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

const char *sweep_step_name(const struct sweep_plan *p, int combo)
{
	return p->steps.nsteps ? p->steps.name[combo] : NULL;
}

/* The trial's key; -ENAMETOOLONG if it does not fit (keys must be unique). */
static int make_key(const struct sweep_plan *p, struct sweep_trial *t)
{
	size_t used = (size_t)snprintf(t->key, sizeof(t->key), "round=%d", t->round);

	if (p->steps.nsteps) {
		snprintf(t->key + used, sizeof(t->key) - used, " step=%s", p->steps.name[t->combo]);
		return 0;
	}
	for (int i = 0; i < p->grid.nsettings && used < sizeof(t->key); i++)
		used += (size_t)snprintf(t->key + used, sizeof(t->key) - used, " %s=%s",
					 p->grid.s[i].name, sweep_value(p, t->combo, i));
	return used < sizeof(t->key) ? 0 : -ENAMETOOLONG;
}

/* RUNS rounds of the plan's combinations, each round shuffled; TRIALS
 * counts them (the grid's product is done here). */
static int rounds(struct sweep_plan *p, int runs, long long trials, char *err, size_t errlen)
{
	uint64_t state = p->order_seed;
	const struct sweep_grid *g = &p->grid;
	int *order;

	for (int i = 0; !p->steps.nsteps && i < g->nsettings && trials <= 100000; i++)
		trials *= g->s[i].nvalues;
	if (runs < 1 || trials < 1 || trials > 100000) {
		snprintf(err, errlen, "the plan has %s%lld trials; allowed are 1 to 100000",
			 trials > 100000 ? "over " : "", trials > 100000 ? 100000LL : trials);
		return -EINVAL;
	}
	p->ncombos = (int)(trials / runs);
	p->ntrials = p->ncombos * runs;
	p->trials = calloc((size_t)p->ntrials, sizeof(*p->trials));
	order = malloc(sizeof(int) * (size_t)p->ncombos);
	if (!p->trials || !order) {
		free(order);
		sweep_plan_free(p);
		return -ENOMEM;
	}
	for (int r = 0; r < runs; r++) {
		for (int c = 0; c < p->ncombos; c++)
			order[c] = c;
		shuffle(order, p->ncombos, &state);
		for (int c = 0; c < p->ncombos; c++) {
			struct sweep_trial *t = &p->trials[r * p->ncombos + c];

			t->round = r + 1;
			t->combo = order[c];
			if (make_key(p, t) < 0) {
				snprintf(err, errlen, "the settings' names and values are too long to name each trial (at most %d characters)",
					 SWEEP_KEY_MAX - 1);
				free(order);
				sweep_plan_free(p);
				return -EINVAL;
			}
		}
	}
	free(order);
	return 0;
}

int sweep_interleave(const struct sweep_plan *p, int *units)
{
	int n = p->ntrials, *comp = malloc(sizeof(int) * (size_t)(n ? n : 1)), out = 0;

	if (!comp)
		return -ENOMEM;
	for (int a = 0, b; a < n; a = b) {
		uint64_t state = p->order_seed ^ 0xc0b1a5ed5eedULL ^
				 (0x9e3779b97f4a7c15ULL * (uint64_t)p->trials[a].round);
		int nq = 0, nc = 0, m;

		for (b = a; b < n && p->trials[b].round == p->trials[a].round; b++)
			comp[b - a] = b;
		m = b - a;
		shuffle(comp, m, &state);
		while (nq < m || nc < m) {
			bool companion = nq == m ||
				(nc < m && rng_splitmix64(&state) % (uint64_t)(2 * m - nq - nc) <
					   (uint64_t)(m - nc));

			units[out++] = companion ? n + comp[nc++] : a + nq++;
		}
	}
	free(comp);
	return 0;
}

int sweep_plan_build(struct sweep_plan *p, const struct sweep_grid *g, int runs,
		     uint64_t order_seed, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->grid = *g;
	p->runs = runs;
	p->order_seed = order_seed;
	return rounds(p, runs, runs, err, errlen);
}

int sweep_plan_steps(struct sweep_plan *p, const struct sweep_grid *g,
		     const struct sweep_steps *st, int runs, uint64_t order_seed,
		     char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->grid = *g;
	p->steps = *st;
	p->runs = runs;
	p->order_seed = order_seed;
	if (st->nsteps < 1 || st->nsteps > SWEEP_MAX_STEPS) {
		snprintf(err, errlen, "a sweep file needs 1 to %d steps (it has %d)", SWEEP_MAX_STEPS, st->nsteps);
		return -EINVAL;
	}
	return rounds(p, runs, (long long)runs * st->nsteps, err, errlen);
}


void sweep_plan_free(struct sweep_plan *p)
{
	free(p->trials);
	p->trials = NULL;
	p->ntrials = 0;
}

json_t *sweep_plan_json(const struct sweep_plan *p)
{
	json_t *grid = json_object(), *keys = json_array(), *names = json_array();

	for (int i = 0; i < p->grid.nsettings; i++) {
		json_t *vals = json_array();

		json_array_append_new(names, json_string(p->grid.s[i].name));
		for (int k = 0; k < p->grid.s[i].nvalues; k++)
			json_array_append_new(vals, json_string(p->grid.s[i].values[k]));
		json_object_set_new(grid, p->grid.s[i].name, vals);
	}
	for (int t = 0; t < p->ntrials; t++)
		json_array_append_new(keys, json_string(p->trials[t].key));
	if (p->steps.nsteps) {
		json_t *steps = json_array();

		for (int k = 0; k < p->steps.nsteps; k++) {
			json_t *set = json_object();

			for (int i = 0; i < p->grid.nsettings; i++)
				if (sweep_value(p, k, i))
					json_object_set_new(set, p->grid.s[i].name, json_string(sweep_value(p, k, i)));
			json_array_append_new(steps, json_pack("{s:s, s:o}", "name", p->steps.name[k],
							       "settings", set));
		}
		return json_pack("{s:o, s:o, s:i, s:I, s:o, s:o}", "grid", grid, "grid_order", names,
				 "runs", p->runs, "order_seed", (json_int_t)p->order_seed,
				 "trial_keys", keys, "steps", steps);
	}
	return json_pack("{s:o, s:o, s:i, s:I, s:o}", "grid", grid, "grid_order",
			 names, "runs", p->runs, "order_seed", (json_int_t)p->order_seed,
			 "trial_keys", keys);
}

static int setting_from_json(struct sweep_grid *g, const char *name,
			     const json_t *vals, char *err, size_t errlen)
{
	char spec[SWEEP_NAME_MAX + SWEEP_MAX_VALUES * SWEEP_VALUE_MAX];
	size_t used = (size_t)snprintf(spec, sizeof(spec), "%s=", name);
	size_t i;
	json_t *v;

	/* a crafted meta.json may hold anything: every length is checked */
	if (strlen(name) >= SWEEP_NAME_MAX || !json_is_array(vals) || json_array_size(vals) == 0 ||
	    json_array_size(vals) > SWEEP_MAX_VALUES)
		goto bad;
	json_array_foreach(vals, i, v) {
		if (!json_is_string(v) || strlen(json_string_value(v)) >= SWEEP_VALUE_MAX)
			goto bad;
		used += (size_t)snprintf(spec + used, sizeof(spec) - used, "%s%s",
					 i ? "," : "", json_string_value(v));
		if (used >= sizeof(spec))
			goto bad;
	}
	return sweep_grid_add(g, spec, err, errlen);
bad:
	snprintf(err, errlen, "the plan's values of %.64s are not a list of at most %d strings of at most %d characters",
		 name, SWEEP_MAX_VALUES, SWEEP_VALUE_MAX - 1);
	return -EINVAL;
}

/* A plan of steps back from its "steps" array. */
static int steps_from_json(struct sweep_plan *p, const json_t *steps, json_int_t runs,
			   json_int_t seed, char *err, size_t errlen)
{
	struct sweep_grid *g = calloc(1, sizeof(*g));
	struct sweep_steps *st = calloc(1, sizeof(*st));
	const json_t *e;
	size_t i;
	int ret = g && st ? 0 : -ENOMEM;

	json_array_foreach(steps, i, e) {
		const char *names[SWEEP_MAX_SETTINGS], *values[SWEEP_MAX_SETTINGS], *k;
		const json_t *set = json_object_get(e, "settings"), *v;
		const char *name = json_string_value(json_object_get(e, "name"));
		int n = 0;

		if (ret < 0)
			break;
		if (!name || !json_is_object(set) || json_object_size(set) > SWEEP_MAX_SETTINGS) {
			snprintf(err, errlen, "the plan's step %zu is not a name and at most %d settings", i, SWEEP_MAX_SETTINGS);
			ret = -EINVAL;
			break;
		}
		json_object_foreach((json_t *)set, k, v) {
			names[n] = k;
			values[n++] = json_string_value(v) ?: "";
		}
		ret = sweep_step_add(g, st, name, n, names, values, err, errlen);
	}
	if (ret == 0)
		ret = sweep_plan_steps(p, g, st, (int)runs, (uint64_t)seed, err, errlen);
	free(g);
	free(st);
	return ret;
}

int sweep_plan_from_json(struct sweep_plan *p, const json_t *j, char *err, size_t errlen)
{
	const json_t *grid = json_object_get(j, "grid"), *names = json_object_get(j, "grid_order");
	struct sweep_grid g = { 0 };
	json_int_t runs, seed;
	size_t i;
	json_t *n;

	if (!json_is_object(grid) || !json_is_array(names) ||
	    json_unpack((json_t *)j, "{s:I, s:I}", "runs", &runs, "order_seed", &seed) < 0) {
		snprintf(err, errlen, "the plan has no grid, runs or order_seed");
		return -EINVAL;
	}
	if (json_is_array(json_object_get(j, "steps")))
		return steps_from_json(p, json_object_get(j, "steps"), runs, seed, err, errlen);
	json_array_foreach(names, i, n) {
		const char *name = json_string_value(n);

		if (!name || setting_from_json(&g, name, json_object_get(grid, name), err, errlen) < 0)
			return -EINVAL;
	}
	return sweep_plan_build(p, &g, (int)runs, (uint64_t)seed, err, errlen);
}

bool sweep_plan_same(const struct sweep_plan *a, const struct sweep_plan *b)
{
	if (a->ntrials != b->ntrials || a->runs != b->runs ||
	    a->order_seed != b->order_seed || a->grid.nsettings != b->grid.nsettings)
		return false;
	for (int t = 0; t < a->ntrials; t++)
		if (strcmp(a->trials[t].key, b->trials[t].key))
			return false;
	return true;
}
