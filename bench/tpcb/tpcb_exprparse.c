/*
 * tpcb_exprparse: the lexer and the precedence-climbing parser; see
 * tpcb_exprparse.h. Tokens are read one ahead; a number is the longest of
 * an integer and a double at that point, as a maximal-munch lexer reads it.
 */
#include "bench/tpcb/tpcb_exprparse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum tok {
	T_END = 256, T_INT, T_MAXINT, T_DOUBLE, T_TRUE, T_FALSE, T_NULL, T_VAR, T_IDENT,
	T_AND, T_OR, T_NOT, T_IS, T_ISNULL, T_NOTNULL, T_CASE, T_WHEN, T_THEN, T_ELSE,
	T_ENDKW, T_NE, T_LE, T_GE, T_LS, T_RS,
	/* single characters stand for themselves: + - * / % = < > | & # ~ ( ) , */
};

/* Binding strength, lowest first. */
enum { L_OR = 1, L_AND, L_NOT, L_IS, L_CMP, L_BIT, L_ADD, L_MUL, L_UNARY };

struct token {
	int    kind;
	size_t off, len;
	int64_t i;
	double  d;
};

struct parser {
	const char *s;
	size_t len, pos;
	struct token t;                /* the current token */
	struct tpcb_exprs *x;
	tpcb_slot_fn slot;
	void *arg;
	int depth;
	struct tpcb_parse_error *err;
	int ret;                       /* the first error */
};

static const struct {
	const char *word;
	int kind;
} keywords[] = {
	{ "and", T_AND }, { "or", T_OR }, { "not", T_NOT }, { "is", T_IS },
	{ "isnull", T_ISNULL }, { "notnull", T_NOTNULL }, { "case", T_CASE },
	{ "when", T_WHEN }, { "then", T_THEN }, { "else", T_ELSE }, { "end", T_ENDKW },
	{ "null", T_NULL }, { "true", T_TRUE }, { "false", T_FALSE },
};

/* Callable functions: name, argument count (-1: one or more; -2: 1 or 2
 * with a default seed; -3: 2 or 3 with a default seed). */
static const struct {
	const char *name;
	int nargs;
	enum tpcb_func f;
} functions[] = {
	{ "mod", 2, TPCB_F_MOD }, { "abs", 1, TPCB_F_ABS }, { "least", -1, TPCB_F_LEAST },
	{ "greatest", -1, TPCB_F_GREATEST }, { "debug", 1, TPCB_F_DEBUG }, { "pi", 0, TPCB_F_PI },
	{ "sqrt", 1, TPCB_F_SQRT }, { "ln", 1, TPCB_F_LN }, { "exp", 1, TPCB_F_EXP },
	{ "int", 1, TPCB_F_INT }, { "double", 1, TPCB_F_DOUBLE }, { "random", 2, TPCB_F_RANDOM },
	{ "random_gaussian", 3, TPCB_F_RANDOM_GAUSSIAN },
	{ "random_exponential", 3, TPCB_F_RANDOM_EXPONENTIAL },
	{ "random_zipfian", 3, TPCB_F_RANDOM_ZIPFIAN }, { "pow", 2, TPCB_F_POW },
	{ "power", 2, TPCB_F_POW }, { "hash", -2, TPCB_F_HASH_MURMUR2 },
	{ "hash_murmur2", -2, TPCB_F_HASH_MURMUR2 }, { "hash_fnv1a", -2, TPCB_F_HASH_FNV1A },
	{ "permute", -3, TPCB_F_PERMUTE },
};

/* ---- errors ---------------------------------------------------------------- */

static int error_at(struct parser *p, size_t off, const char *fmt, ...)
{
	va_list ap;

	if (p->ret == 0) {
		p->err->offset = off;
		va_start(ap, fmt);
		vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
		va_end(ap);
		p->ret = -EINVAL;
	}
	return -EINVAL;
}

static int syntax(struct parser *p)
{
	return error_at(p, p->t.off, "syntax error");
}

static int nomem(struct parser *p)
{
	if (p->ret == 0)
		p->ret = -ENOMEM;
	return -ENOMEM;
}

/* ---- the lexer ----------------------------------------------------------------- */

static bool alpha(unsigned char c)
{
	return c >= 0x80 || c == '_' || isalpha(c);
}

static bool alnum(unsigned char c)
{
	return alpha(c) || isdigit(c);
}

static void skip_blanks(struct parser *p)
{
	while (p->pos < p->len) {
		char c = p->s[p->pos];

		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n')
			p->pos++;
		else if (c == '\\' && p->pos + 1 < p->len && p->s[p->pos + 1] == '\n')
			p->pos += 2;
		else if (c == '\\' && p->pos + 2 < p->len && p->s[p->pos + 1] == '\r' &&
			 p->s[p->pos + 2] == '\n')
			p->pos += 3;
		else
			break;
	}
}

static size_t digits(const struct parser *p, size_t at)
{
	size_t n = 0;

	while (at + n < p->len && isdigit((unsigned char)p->s[at + n]))
		n++;
	return n;
}

/* The length of a double at AT: digits [. digits] [e [+-] digits], or . digits [e ...]. */
static size_t double_len(const struct parser *p, size_t at)
{
	size_t n = digits(p, at), e;

	if (n == 0 && !(at < p->len && p->s[at] == '.' && digits(p, at + 1) > 0))
		return 0;
	if (at + n < p->len && p->s[at + n] == '.')
		n += 1 + digits(p, at + n + 1);
	if (at + n < p->len && (p->s[at + n] == 'e' || p->s[at + n] == 'E')) {
		e = n + 1;
		if (at + e < p->len && (p->s[at + e] == '+' || p->s[at + e] == '-'))
			e++;
		if (digits(p, at + e) > 0)
			n = e + digits(p, at + e);
	}
	return n;
}

static int lex_number(struct parser *p)
{
	struct token *t = &p->t;
	size_t ni = digits(p, t->off), nd = double_len(p, t->off);
	char buf[400];

	if (nd > ni) {
		size_t n = nd < sizeof(buf) ? nd : sizeof(buf) - 1;
		char *end;

		memcpy(buf, p->s + t->off, n);
		buf[n] = '\0';
		errno = 0;
		t->d = strtod(buf, &end);
		t->kind = T_DOUBLE;
		t->len = nd;
		if (errno)
			return error_at(p, t->off, "double constant overflow (%.40s)", buf);
		return 0;
	}
	t->len = ni;
	if (ni == 19 && !strncmp(p->s + t->off, "9223372036854775808", 19)) {
		t->kind = T_MAXINT;
		return 0;
	}
	t->kind = T_INT;
	t->i = 0;
	for (size_t k = 0; k < ni; k++) {
		int d = p->s[t->off + k] - '0';

		if (t->i > (INT64_MAX - d) / 10)
			return error_at(p, t->off, "bigint constant overflow (%.*s)", (int)(ni < 40 ? ni : 40),
					p->s + t->off);
		t->i = t->i * 10 + d;
	}
	return 0;
}

static int lex_word(struct parser *p)
{
	struct token *t = &p->t;
	size_t n = 0;

	while (t->off + n < p->len && alnum((unsigned char)p->s[t->off + n]))
		n++;
	t->len = n;
	t->kind = T_IDENT;
	for (size_t k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++)
		if (strlen(keywords[k].word) == n && !strncasecmp(keywords[k].word, p->s + t->off, n))
			t->kind = keywords[k].kind;
	return 0;
}

static int lex_op(struct parser *p)
{
	static const struct { const char *s; int kind; } two[] = {
		{ "<>", T_NE }, { "!=", T_NE }, { "<=", T_LE }, { ">=", T_GE }, { "<<", T_LS }, { ">>", T_RS },
	};
	struct token *t = &p->t;
	const char *c = p->s + t->off;

	for (size_t k = 0; k < sizeof(two) / sizeof(two[0]); k++)
		if (t->off + 1 < p->len && c[0] == two[k].s[0] && c[1] == two[k].s[1]) {
			t->kind = two[k].kind;
			t->len = 2;
			return 0;
		}
	if (!strchr("+-*/%=<>|&#~(),", *c))
		return error_at(p, t->off, "unexpected character (%c)", *c);
	t->kind = (unsigned char)*c;
	t->len = 1;
	return 0;
}

/* The next token into p->t. */
static int next(struct parser *p)
{
	struct token *t = &p->t;
	unsigned char c;

	if (p->ret)
		return p->ret;
	skip_blanks(p);
	memset(t, 0, sizeof(*t));
	t->off = p->pos;
	if (p->pos >= p->len) {
		t->kind = T_END;
		return 0;
	}
	c = (unsigned char)p->s[p->pos];
	if (c == ':') {
		size_t n = 0;

		while (t->off + 1 + n < p->len && alnum((unsigned char)p->s[t->off + 1 + n]))
			n++;
		if (n == 0)
			return error_at(p, t->off, "unexpected character (:)");
		t->kind = T_VAR;
		t->len = n + 1;
	} else if (isdigit(c) || (c == '.' && p->pos + 1 < p->len && isdigit((unsigned char)p->s[p->pos + 1]))) {
		lex_number(p);
	} else if (alpha(c)) {
		lex_word(p);
	} else {
		lex_op(p);
	}
	p->pos = t->off + t->len;
	return p->ret;
}

/* ---- building nodes ---------------------------------------------------------- */

static int node_const(struct parser *p, struct tpcb_value v)
{
	int n = tpcb_exprs_const(p->x, v);

	return n < 0 ? nomem(p) : n;
}

static int node_func(struct parser *p, enum tpcb_func f, const int *args, int nargs)
{
	int n;

	for (int i = 0; i < nargs; i++)
		if (args[i] < 0)
			return args[i];
	n = tpcb_exprs_func(p->x, f, args, nargs);
	return n < 0 ? nomem(p) : n;
}

static int node_var(struct parser *p, const char *name, size_t len)
{
	int slot = p->slot(p->arg, name, len), n;

	if (slot < 0)
		return nomem(p);
	n = tpcb_exprs_var(p->x, slot);
	return n < 0 ? nomem(p) : n;
}

static int op2(struct parser *p, enum tpcb_func f, int l, int r)
{
	int a[2] = { l, r };

	return node_func(p, f, a, 2);
}

static int op1(struct parser *p, enum tpcb_func f, int e)
{
	return node_func(p, f, &e, 1);
}

/* ---- the grammar ------------------------------------------------------------- */

static int expr(struct parser *p, int min);

static int expect(struct parser *p, int kind)
{
	if (p->t.kind != kind)
		return syntax(p);
	return next(p);
}

/* Check F's argument count (ARGS[0..*N), room for one more); a seed left
 * out of hash() or permute() becomes :default_seed. */
static int arity(struct parser *p, int k, size_t off, int *args, int *n)
{
	int want = functions[k].nargs;
	const char *name = functions[k].name;

	if (want == -1 && *n == 0)
		return error_at(p, off, "at least one argument expected (%s)", name);
	if ((want >= 0 && *n != want) || (want == -2 && (*n < 1 || *n > 2)) ||
	    (want == -3 && (*n < 2 || *n > 3)))
		return error_at(p, off, "unexpected number of arguments (%s)", name);
	if ((want == -2 && *n == 1) || (want == -3 && *n == 2)) {
		args[*n] = node_var(p, "default_seed", strlen("default_seed"));
		if (args[(*n)++] < 0)
			return -ENOMEM;
	}
	return 0;
}

/* NAME '(' [expr {, expr}] ')', NAME the current token. */
static int call(struct parser *p)
{
	const struct token name = p->t;
	int args[TPCB_MAX_FARGS + 1], n = 0;
	size_t nf = sizeof(functions) / sizeof(functions[0]), k = 0;

	while (k < nf && !(strlen(functions[k].name) == name.len &&
			   !strncasecmp(functions[k].name, p->s + name.off, name.len)))
		k++;
	if (k == nf)
		return error_at(p, name.off, "unexpected function name (%.*s)",
				(int)(name.len < 60 ? name.len : 60), p->s + name.off);
	if (next(p) < 0 || expect(p, '(') < 0)
		return -EINVAL;
	while (p->t.kind != ')') {
		if (n > 0 && expect(p, ',') < 0)
			return -EINVAL;
		if (n == TPCB_MAX_FARGS)
			return error_at(p, p->t.off, "too many function arguments, maximum is %d",
					TPCB_MAX_FARGS);
		if ((args[n++] = expr(p, 0)) < 0)
			return args[n - 1];
	}
	if (next(p) < 0 || arity(p, (int)k, name.off, args, &n) < 0)
		return -EINVAL;
	return node_func(p, functions[k].f, args, n);
}

/* CASE WHEN e THEN e [WHEN e THEN e ...] [ELSE e] END, CASE just read. */
static int case_expr(struct parser *p)
{
	int args[2 * 255 + 1], n = 0;

	if (next(p) < 0)
		return -EINVAL;
	if (p->t.kind != T_WHEN)
		return syntax(p);
	while (p->t.kind == T_WHEN) {
		if (n + 3 > (int)(sizeof(args) / sizeof(args[0])))
			return error_at(p, p->t.off, "too many WHEN branches in CASE");
		if (next(p) < 0 || (args[n++] = expr(p, 0)) < 0 || expect(p, T_THEN) < 0 ||
		    (args[n++] = expr(p, 0)) < 0)
			return -EINVAL;
	}
	if (p->t.kind == T_ELSE) {
		if (next(p) < 0 || (args[n++] = expr(p, 0)) < 0)
			return -EINVAL;
	} else {
		args[n++] = node_const(p, tpcb_null());
	}
	if (expect(p, T_ENDKW) < 0)
		return -EINVAL;
	return node_func(p, TPCB_F_CASE, args, n);
}

static int primary(struct parser *p)
{
	struct token t = p->t;
	int n;

	switch (t.kind) {
	case T_INT:
		n = node_const(p, tpcb_int(t.i));
		break;
	case T_DOUBLE:
		n = node_const(p, tpcb_double(t.d));
		break;
	case T_TRUE:
	case T_FALSE:
		n = node_const(p, tpcb_bool(t.kind == T_TRUE));
		break;
	case T_NULL:
		n = node_const(p, tpcb_null());
		break;
	case T_VAR:
		n = node_var(p, p->s + t.off + 1, t.len - 1);
		break;
	case T_IDENT:
		return call(p);
	case T_CASE:
		return case_expr(p);
	default:
		return syntax(p);
	}
	return n < 0 || next(p) < 0 ? -EINVAL : n;
}

static int prefix(struct parser *p)
{
	int kind = p->t.kind, e;

	switch (kind) {
	case '(':
		if (next(p) < 0 || (e = expr(p, 0)) < 0 || expect(p, ')') < 0)
			return -EINVAL;
		return e;
	case '+':
		return next(p) < 0 ? -EINVAL : expr(p, L_UNARY);
	case '-':
		if (next(p) < 0)
			return -EINVAL;
		if (p->t.kind == T_MAXINT)	/* -9223372036854775808 */
			return (e = node_const(p, tpcb_int(INT64_MIN))) < 0 || next(p) < 0 ? -EINVAL : e;
		e = node_const(p, tpcb_int(0));
		return op2(p, TPCB_F_SUB, e, expr(p, L_UNARY));
	case '~':
		if (next(p) < 0)
			return -EINVAL;
		e = node_const(p, tpcb_int(-1));
		return op2(p, TPCB_F_BITXOR, e, expr(p, L_BIT + 1));
	case T_NOT:
		return next(p) < 0 ? -EINVAL : op1(p, TPCB_F_NOT, expr(p, L_IS));
	default:
		return primary(p);
	}
}

/* The binary operators: level, function, whether the sides swap (> and >=). */
static int binary_op(int kind, enum tpcb_func *f, bool *swap)
{
	static const struct { int kind, level; enum tpcb_func f; bool swap; } ops[] = {
		{ T_OR, L_OR, TPCB_F_OR, false }, { T_AND, L_AND, TPCB_F_AND, false },
		{ '<', L_CMP, TPCB_F_LT, false }, { T_LE, L_CMP, TPCB_F_LE, false },
		{ '>', L_CMP, TPCB_F_LT, true }, { T_GE, L_CMP, TPCB_F_LE, true },
		{ '=', L_CMP, TPCB_F_EQ, false }, { T_NE, L_CMP, TPCB_F_NE, false },
		{ '&', L_BIT, TPCB_F_BITAND, false }, { '|', L_BIT, TPCB_F_BITOR, false },
		{ '#', L_BIT, TPCB_F_BITXOR, false }, { T_LS, L_BIT, TPCB_F_LSHIFT, false },
		{ T_RS, L_BIT, TPCB_F_RSHIFT, false }, { '+', L_ADD, TPCB_F_ADD, false },
		{ '-', L_ADD, TPCB_F_SUB, false }, { '*', L_MUL, TPCB_F_MUL, false },
		{ '/', L_MUL, TPCB_F_DIV, false }, { '%', L_MUL, TPCB_F_MOD, false },
		{ T_IS, L_IS, TPCB_F_IS, false }, { T_ISNULL, L_IS, TPCB_F_IS, false },
		{ T_NOTNULL, L_IS, TPCB_F_IS, false },
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].kind == kind) {
			*f = ops[i].f;
			*swap = ops[i].swap;
			return ops[i].level;
		}
	return 0;
}

/* LEFT IS [NOT] NULL|TRUE|FALSE, LEFT ISNULL, LEFT NOTNULL; the operator current. */
static int is_expr(struct parser *p, int left)
{
	int kind = p->t.kind, right;
	bool negate = kind == T_NOTNULL;

	if (next(p) < 0)
		return -EINVAL;
	if (kind == T_IS) {
		if (p->t.kind == T_NOT) {
			negate = true;
			if (next(p) < 0)
				return -EINVAL;
		}
		if (p->t.kind != T_NULL && p->t.kind != T_TRUE && p->t.kind != T_FALSE)
			return syntax(p);
		right = node_const(p, p->t.kind == T_NULL ? tpcb_null() : tpcb_bool(p->t.kind == T_TRUE));
		if (next(p) < 0)
			return -EINVAL;
	} else {
		right = node_const(p, tpcb_null());
	}
	left = op2(p, TPCB_F_IS, left, right);
	return negate ? op1(p, TPCB_F_NOT, left) : left;
}

static int expr(struct parser *p, int min)
{
	int left, last = 0;

	if (++p->depth > TPCB_EXPR_DEPTH_MAX) {
		p->depth--;
		return error_at(p, p->t.off, "expression nested too deeply (more than %d levels)",
				TPCB_EXPR_DEPTH_MAX);
	}
	left = prefix(p);
	while (left >= 0) {
		enum tpcb_func f;
		bool swap;
		int level = binary_op(p->t.kind, &f, &swap), right;

		if (level == 0 || level < min)
			break;
		if ((level == L_CMP || level == L_IS) && level == last) {
			left = syntax(p);	/* comparisons and IS do not chain */
			break;
		}
		last = level;
		if (level == L_IS) {
			left = is_expr(p, left);
			continue;
		}
		if (next(p) < 0 || (right = expr(p, level + 1)) < 0) {
			left = -EINVAL;
			break;
		}
		left = swap ? op2(p, f, right, left) : op2(p, f, left, right);
	}
	p->depth--;
	return left < 0 ? (p->ret ? p->ret : left) : left;
}

int tpcb_expr_parse(struct tpcb_exprs *x, const char *text, size_t len,
		    tpcb_slot_fn slot, void *arg, int *root, struct tpcb_parse_error *err)
{
	struct parser p = { .s = text, .len = len, .x = x, .slot = slot, .arg = arg, .err = err };
	int n;

	memset(err, 0, sizeof(*err));
	if (next(&p) < 0)
		return p.ret;
	n = expr(&p, 0);
	if (n >= 0 && p.t.kind != T_END)
		syntax(&p);
	if (p.ret)
		return p.ret;
	*root = n;
	return 0;
}
