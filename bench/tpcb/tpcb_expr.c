/*
 * tpcb_expr: the node pool and the evaluator; see tpcb_expr.h. AND, OR and
 * CASE evaluate their arguments lazily; every other function evaluates all
 * of its arguments first, left to right (the order of random draws is
 * pgbench's), and gives NULL when one is NULL (but IS and debug()).
 */
#include "bench/tpcb/tpcb_expr.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the pool ------------------------------------------------------------- */

static int grow(void **p, int *cap, int need, size_t size)
{
	int n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, (size_t)n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

static int add_node(struct tpcb_exprs *x, struct tpcb_enode n)
{
	if (grow((void **)&x->node, &x->capnodes, x->nnodes + 1, sizeof(*x->node)) < 0)
		return -ENOMEM;
	x->node[x->nnodes] = n;
	return x->nnodes++;
}

int tpcb_exprs_const(struct tpcb_exprs *x, struct tpcb_value v)
{
	return add_node(x, (struct tpcb_enode){ .kind = TPCB_E_CONST, .c = v });
}

int tpcb_exprs_var(struct tpcb_exprs *x, int slot)
{
	return add_node(x, (struct tpcb_enode){ .kind = TPCB_E_VAR, .a = slot });
}

int tpcb_exprs_func(struct tpcb_exprs *x, enum tpcb_func f, const int *args, int nargs)
{
	int first = x->nargs;

	if (grow((void **)&x->arg, &x->capargs, x->nargs + nargs, sizeof(*x->arg)) < 0)
		return -ENOMEM;
	for (int i = 0; i < nargs; i++)
		x->arg[x->nargs++] = args[i];
	return add_node(x, (struct tpcb_enode){ .kind = TPCB_E_FUNC, .func = (uint8_t)f,
						.nargs = (uint16_t)nargs, .a = first });
}

void tpcb_exprs_free(struct tpcb_exprs *x)
{
	free(x->node);
	free(x->arg);
	memset(x, 0, sizeof(*x));
}

/* ---- coercions -------------------------------------------------------------- */

static int coerce_failed(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int tpcb_value_int(const struct tpcb_value *v, int64_t *out, char *err, size_t errlen)
{
	double d;

	if (v->type == TPCB_INT) {
		*out = v->u.i;
		return 0;
	}
	if (v->type != TPCB_DOUBLE)
		return coerce_failed(err, errlen, "cannot coerce %s to int", tpcb_type_name(v->type));
	d = rint(v->u.d);
	if (isnan(d) || !(d >= (double)INT64_MIN && d < -(double)INT64_MIN))
		return coerce_failed(err, errlen, "double to int overflow for %f", d);
	*out = (int64_t)d;
	return 0;
}

static int to_double(const struct tpcb_value *v, double *out, char *err, size_t errlen)
{
	if (v->type == TPCB_DOUBLE)
		*out = v->u.d;
	else if (v->type == TPCB_INT)
		*out = (double)v->u.i;
	else
		return coerce_failed(err, errlen, "cannot coerce %s to double", tpcb_type_name(v->type));
	return 0;
}

static int to_bool(const struct tpcb_value *v, bool *out, char *err, size_t errlen)
{
	if (v->type != TPCB_BOOL)
		return coerce_failed(err, errlen, "cannot coerce %s to boolean", tpcb_type_name(v->type));
	*out = v->u.b;
	return 0;
}

bool tpcb_value_truth(const struct tpcb_value *v)
{
	switch (v->type) {
	case TPCB_BOOL:
		return v->u.b;
	case TPCB_INT:
		return v->u.i != 0;
	case TPCB_DOUBLE:
		return v->u.d != 0.0;
	default:
		return false;
	}
}

/* ---- lazy functions ---------------------------------------------------------- */

static int arg_node(const struct tpcb_exprs *x, const struct tpcb_enode *n, int i)
{
	return x->arg[n->a + i];
}

/* A boolean operand of AND/OR; *NUL when it is NULL. */
static int bool_arg(const struct tpcb_exprs *x, int node, struct tpcb_eval *e, bool *b, bool *nul)
{
	struct tpcb_value v;
	int ret = tpcb_eval(x, node, e, &v);

	if (ret < 0)
		return ret;
	*nul = v.type == TPCB_NULL;
	return *nul ? 0 : to_bool(&v, b, e->err, e->errlen);
}

static int eval_andor(const struct tpcb_exprs *x, const struct tpcb_enode *n,
		      struct tpcb_eval *e, struct tpcb_value *out)
{
	bool is_and = n->func == TPCB_F_AND, b = false, nul;
	int ret = bool_arg(x, arg_node(x, n, 0), e, &b, &nul);

	if (ret < 0)
		return ret;
	if (nul) {
		*out = tpcb_null();
		return 0;
	}
	if (b != is_and) {	/* false AND ..., true OR ...: decided */
		*out = tpcb_bool(b);
		return 0;
	}
	ret = bool_arg(x, arg_node(x, n, 1), e, &b, &nul);
	if (ret == 0)
		*out = nul ? tpcb_null() : tpcb_bool(b);
	return ret;
}

/* CASE: arguments WHEN, THEN, ..., ELSE (a NULL constant when left out). */
static int eval_case(const struct tpcb_exprs *x, const struct tpcb_enode *n,
		     struct tpcb_eval *e, struct tpcb_value *out)
{
	int i;

	for (i = 0; i + 1 < n->nargs; i += 2) {
		struct tpcb_value c;
		int ret = tpcb_eval(x, arg_node(x, n, i), e, &c);

		if (ret < 0)
			return ret;
		if (tpcb_value_truth(&c))
			return tpcb_eval(x, arg_node(x, n, i + 1), e, out);
	}
	return tpcb_eval(x, arg_node(x, n, i), e, out);
}

/* ---- arithmetic and comparisons ---------------------------------------------- */

static int arith_double(enum tpcb_func f, double l, double r, struct tpcb_value *out)
{
	switch (f) {
	case TPCB_F_ADD: *out = tpcb_double(l + r); break;
	case TPCB_F_SUB: *out = tpcb_double(l - r); break;
	case TPCB_F_MUL: *out = tpcb_double(l * r); break;
	case TPCB_F_DIV: *out = tpcb_double(l / r); break;
	case TPCB_F_EQ:  *out = tpcb_bool(l == r); break;
	case TPCB_F_NE:  *out = tpcb_bool(l != r); break;
	case TPCB_F_LE:  *out = tpcb_bool(l <= r); break;
	default:         *out = tpcb_bool(l < r); break;
	}
	return 0;
}

static int divide(enum tpcb_func f, int64_t l, int64_t r, struct tpcb_value *out,
		  char *err, size_t errlen)
{
	if (r == 0)
		return coerce_failed(err, errlen, "division by zero");
	if (r == -1) {
		if (f == TPCB_F_MOD) {
			*out = tpcb_int(0);
			return 0;
		}
		if (l == INT64_MIN)
			return coerce_failed(err, errlen, "bigint div out of range");
		*out = tpcb_int(-l);
		return 0;
	}
	*out = tpcb_int(f == TPCB_F_DIV ? l / r : l % r);
	return 0;
}

static int arith_int(enum tpcb_func f, int64_t l, int64_t r, struct tpcb_value *out,
		     char *err, size_t errlen)
{
	int64_t v;

	switch (f) {
	case TPCB_F_ADD:
		if (__builtin_add_overflow(l, r, &v))
			return coerce_failed(err, errlen, "bigint add out of range");
		break;
	case TPCB_F_SUB:
		if (__builtin_sub_overflow(l, r, &v))
			return coerce_failed(err, errlen, "bigint sub out of range");
		break;
	case TPCB_F_MUL:
		if (__builtin_mul_overflow(l, r, &v))
			return coerce_failed(err, errlen, "bigint mul out of range");
		break;
	case TPCB_F_DIV:
	case TPCB_F_MOD:
		return divide(f, l, r, out, err, errlen);
	case TPCB_F_EQ: *out = tpcb_bool(l == r); return 0;
	case TPCB_F_NE: *out = tpcb_bool(l != r); return 0;
	case TPCB_F_LE: *out = tpcb_bool(l <= r); return 0;
	default:        *out = tpcb_bool(l < r); return 0;
	}
	*out = tpcb_int(v);
	return 0;
}

static int binary(enum tpcb_func f, const struct tpcb_value *a, struct tpcb_value *out,
		  char *err, size_t errlen)
{
	if ((a[0].type == TPCB_DOUBLE || a[1].type == TPCB_DOUBLE) && f != TPCB_F_MOD) {
		double l = 0, r = 0;

		if (to_double(&a[0], &l, err, errlen) < 0 || to_double(&a[1], &r, err, errlen) < 0)
			return -EINVAL;
		return arith_double(f, l, r, out);
	} else {
		int64_t l = 0, r = 0;

		if (tpcb_value_int(&a[0], &l, err, errlen) < 0 || tpcb_value_int(&a[1], &r, err, errlen) < 0)
			return -EINVAL;
		return arith_int(f, l, r, out, err, errlen);
	}
}

static int bitwise(enum tpcb_func f, const struct tpcb_value *a, struct tpcb_value *out,
		   char *err, size_t errlen)
{
	int64_t l = 0, r = 0;

	if (tpcb_value_int(&a[0], &l, err, errlen) < 0 || tpcb_value_int(&a[1], &r, err, errlen) < 0)
		return -EINVAL;
	switch (f) {
	case TPCB_F_BITAND: *out = tpcb_int(l & r); break;
	case TPCB_F_BITOR:  *out = tpcb_int(l | r); break;
	case TPCB_F_BITXOR: *out = tpcb_int(l ^ r); break;
	/* shift counts wrap at 64, as the machine's shift instructions do */
	case TPCB_F_LSHIFT: *out = tpcb_int((int64_t)((uint64_t)l << (r & 63))); break;
	default:            *out = tpcb_int(l >> (r & 63)); break;
	}
	return 0;
}

static int extremum(enum tpcb_func f, const struct tpcb_value *a, int n, struct tpcb_value *out,
		    char *err, size_t errlen)
{
	bool dbl = false, least = f == TPCB_F_LEAST;

	for (int i = 0; i < n; i++)
		dbl |= a[i].type == TPCB_DOUBLE;
	if (dbl) {
		double m = 0, v = 0;

		if (to_double(&a[0], &m, err, errlen) < 0)
			return -EINVAL;
		for (int i = 1; i < n; i++) {
			if (to_double(&a[i], &v, err, errlen) < 0)
				return -EINVAL;
			m = least ? (v < m ? v : m) : (v > m ? v : m);
		}
		*out = tpcb_double(m);
	} else {
		int64_t m = 0, v = 0;

		if (tpcb_value_int(&a[0], &m, err, errlen) < 0)
			return -EINVAL;
		for (int i = 1; i < n; i++) {
			if (tpcb_value_int(&a[i], &v, err, errlen) < 0)
				return -EINVAL;
			m = least ? (v < m ? v : m) : (v > m ? v : m);
		}
		*out = tpcb_int(m);
	}
	return 0;
}

/* ---- random draws ------------------------------------------------------------ */

static int draw_param(enum tpcb_func f, double p, char *err, size_t errlen)
{
	if (f == TPCB_F_RANDOM_GAUSSIAN && p < TPCB_GAUSSIAN_MIN)
		return coerce_failed(err, errlen, "gaussian parameter must be at least %f (not %f)",
			    TPCB_GAUSSIAN_MIN, p);
	if (f == TPCB_F_RANDOM_ZIPFIAN && (p < TPCB_ZIPFIAN_MIN || p > TPCB_ZIPFIAN_MAX))
		return coerce_failed(err, errlen, "zipfian parameter must be in range [%.3f, %.0f] (not %f)",
			    TPCB_ZIPFIAN_MIN, TPCB_ZIPFIAN_MAX, p);
	if (f == TPCB_F_RANDOM_EXPONENTIAL && p <= 0.0)
		return coerce_failed(err, errlen, "exponential parameter must be greater than zero (not %f)", p);
	return 0;
}

static int draw(enum tpcb_func f, const struct tpcb_value *a, struct tpcb_eval *e,
		struct tpcb_value *out)
{
	int64_t lo = 0, hi = 0, span;
	double p = 0;

	if (tpcb_value_int(&a[0], &lo, e->err, e->errlen) < 0 ||
	    tpcb_value_int(&a[1], &hi, e->err, e->errlen) < 0)
		return -EINVAL;
	if (lo > hi)
		return coerce_failed(e->err, e->errlen, "empty range given to random");
	if (__builtin_sub_overflow(hi, lo, &span) || __builtin_add_overflow(span, 1, &span))
		return coerce_failed(e->err, e->errlen, "random range is too large");
	if (f == TPCB_F_RANDOM) {
		*out = tpcb_int(tpcb_rand_uniform(e->rng, lo, hi));
		return 0;
	}
	if (to_double(&a[2], &p, e->err, e->errlen) < 0 || draw_param(f, p, e->err, e->errlen) < 0)
		return -EINVAL;
	if (f == TPCB_F_RANDOM_GAUSSIAN)
		*out = tpcb_int(tpcb_rand_gaussian(e->rng, lo, hi, p));
	else if (f == TPCB_F_RANDOM_ZIPFIAN)
		*out = tpcb_int(tpcb_rand_zipfian(e->rng, lo, hi, p));
	else
		*out = tpcb_int(tpcb_rand_exponential(e->rng, lo, hi, p));
	return 0;
}

/* ---- the other functions ------------------------------------------------------ */

static void debug(struct tpcb_eval *e, const struct tpcb_value *v)
{
	FILE *f = e->debug ? e->debug : stderr;

	fprintf(f, "debug(script=%d,command=%d): ", e->script, e->command);
	if (v->type == TPCB_NULL)
		fprintf(f, "null\n");
	else if (v->type == TPCB_BOOL)
		fprintf(f, "boolean %s\n", v->u.b ? "true" : "false");
	else if (v->type == TPCB_INT)
		fprintf(f, "int %lld\n", (long long)v->u.i);
	else
		fprintf(f, "double %.*g\n", DBL_DIG, v->u.d);
}

static int unary_double(enum tpcb_func f, const struct tpcb_value *a, struct tpcb_value *out,
			char *err, size_t errlen)
{
	double d = 0;

	if (to_double(a, &d, err, errlen) < 0)
		return -EINVAL;
	if (f == TPCB_F_SQRT)
		d = sqrt(d);
	else if (f == TPCB_F_LN)
		d = log(d);
	else if (f == TPCB_F_EXP)
		d = exp(d);
	*out = tpcb_double(d);
	return 0;
}

static int hashes(enum tpcb_func f, const struct tpcb_value *a, struct tpcb_value *out,
		  char *err, size_t errlen)
{
	int64_t v = 0, seed = 0, size = 0;

	if (tpcb_value_int(&a[0], &v, err, errlen) < 0)
		return -EINVAL;
	if (f == TPCB_F_PERMUTE) {
		if (tpcb_value_int(&a[1], &size, err, errlen) < 0 ||
		    tpcb_value_int(&a[2], &seed, err, errlen) < 0)
			return -EINVAL;
		if (size <= 0)
			return coerce_failed(err, errlen, "permute size parameter must be greater than zero");
		*out = tpcb_int(tpcb_permute(v, size, seed));
		return 0;
	}
	if (tpcb_value_int(&a[1], &seed, err, errlen) < 0)
		return -EINVAL;
	*out = tpcb_int(f == TPCB_F_HASH_FNV1A ? tpcb_hash_fnv1a(v, (uint64_t)seed) :
			tpcb_hash_murmur2(v, (uint64_t)seed));
	return 0;
}

static int apply(enum tpcb_func f, const struct tpcb_value *a, int n, struct tpcb_eval *e,
		 struct tpcb_value *out)
{
	int64_t i = 0;
	bool b = false;

	switch (f) {
	case TPCB_F_ADD: case TPCB_F_SUB: case TPCB_F_MUL: case TPCB_F_DIV: case TPCB_F_MOD:
	case TPCB_F_EQ: case TPCB_F_NE: case TPCB_F_LE: case TPCB_F_LT:
		return binary(f, a, out, e->err, e->errlen);
	case TPCB_F_BITAND: case TPCB_F_BITOR: case TPCB_F_BITXOR:
	case TPCB_F_LSHIFT: case TPCB_F_RSHIFT:
		return bitwise(f, a, out, e->err, e->errlen);
	case TPCB_F_NOT:
		if (to_bool(&a[0], &b, e->err, e->errlen) < 0)
			return -EINVAL;
		*out = tpcb_bool(!b);
		return 0;
	case TPCB_F_PI:
		*out = tpcb_double(M_PI);
		return 0;
	case TPCB_F_ABS:
		if (a[0].type == TPCB_INT)
			*out = tpcb_int(a[0].u.i < 0 ? (int64_t)(0 - (uint64_t)a[0].u.i) : a[0].u.i);
		else if (a[0].type == TPCB_DOUBLE)
			*out = tpcb_double(a[0].u.d < 0.0 ? -a[0].u.d : a[0].u.d);
		else
			return coerce_failed(e->err, e->errlen, "cannot coerce %s to double", tpcb_type_name(a[0].type));
		return 0;
	case TPCB_F_DEBUG:
		debug(e, &a[0]);
		*out = a[0];
		return 0;
	case TPCB_F_DOUBLE: case TPCB_F_SQRT: case TPCB_F_LN: case TPCB_F_EXP:
		return unary_double(f, &a[0], out, e->err, e->errlen);
	case TPCB_F_INT:
		if (tpcb_value_int(&a[0], &i, e->err, e->errlen) < 0)
			return -EINVAL;
		*out = tpcb_int(i);
		return 0;
	case TPCB_F_LEAST: case TPCB_F_GREATEST:
		return extremum(f, a, n, out, e->err, e->errlen);
	case TPCB_F_RANDOM: case TPCB_F_RANDOM_GAUSSIAN: case TPCB_F_RANDOM_EXPONENTIAL:
	case TPCB_F_RANDOM_ZIPFIAN:
		return draw(f, a, e, out);
	case TPCB_F_POW: {
		double l = 0, r = 0;

		if (to_double(&a[0], &l, e->err, e->errlen) < 0 || to_double(&a[1], &r, e->err, e->errlen) < 0)
			return -EINVAL;
		*out = tpcb_double(pow(l, r));
		return 0;
	}
	case TPCB_F_IS:	/* the right side is NULL, TRUE or FALSE */
		*out = tpcb_bool(a[0].type == a[1].type && (a[0].type != TPCB_BOOL || a[0].u.b == a[1].u.b));
		return 0;
	default:
		return hashes(f, a, out, e->err, e->errlen);
	}
}

static int eval_func(const struct tpcb_exprs *x, const struct tpcb_enode *n,
		     struct tpcb_eval *e, struct tpcb_value *out)
{
	struct tpcb_value a[TPCB_MAX_FARGS];
	bool nul = false;

	if (n->func == TPCB_F_AND || n->func == TPCB_F_OR)
		return eval_andor(x, n, e, out);
	if (n->func == TPCB_F_CASE)
		return eval_case(x, n, e, out);
	for (int i = 0; i < n->nargs; i++) {
		int ret = tpcb_eval(x, arg_node(x, n, i), e, &a[i]);

		if (ret < 0)
			return ret;
		nul |= a[i].type == TPCB_NULL;
	}
	if (nul && n->func != TPCB_F_IS && n->func != TPCB_F_DEBUG) {
		*out = tpcb_null();
		return 0;
	}
	return apply((enum tpcb_func)n->func, a, n->nargs, e, out);
}

int tpcb_eval(const struct tpcb_exprs *x, int node, struct tpcb_eval *e, struct tpcb_value *out)
{
	const struct tpcb_enode *n = &x->node[node];
	struct tpcb_var *v;

	switch (n->kind) {
	case TPCB_E_CONST:
		*out = n->c;
		return 0;
	case TPCB_E_VAR:
		v = &e->vars[n->a];
		if (!v->set)
			return coerce_failed(e->err, e->errlen, "undefined variable \"%s\"", e->names[n->a]);
		if (tpcb_var_value(v, out) < 0)
			return coerce_failed(e->err, e->errlen, "malformed variable \"%s\" value: \"%s\"",
				    e->names[n->a], v->s);
		return 0;
	default:
		return eval_func(x, n, e, out);
	}
}
