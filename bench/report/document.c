/*
 * doc: building the document and its three renderings; see document.h.
 */
#include "bench/report/document.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/file.h"

#define WRAP 78
#define SVG_MAX (8 << 20)

static struct doc_block *push(struct doc *d, enum doc_kind kind)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 32;
		void *p = realloc(d->b, cap * sizeof(*d->b));

		if (!p) {
			d->oom = 1;
			return NULL;
		}
		d->b = p;
		d->cap = cap;
	}
	memset(&d->b[d->n], 0, sizeof(d->b[0]));
	d->b[d->n].kind = kind;
	return &d->b[d->n++];
}

static char *vformat(struct doc *d, const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0) {
		d->oom = 1;
		return NULL;
	}
	return s;
}

static char *dup_or_oom(struct doc *d, const char *s)
{
	char *c = strdup(s ? s : "");

	d->oom |= !c;
	return c;
}

void doc_heading(struct doc *d, int level, const char *fmt, ...)
{
	struct doc_block *b = push(d, DOC_HEADING);
	va_list ap;

	if (!b)
		return;
	va_start(ap, fmt);
	b->text = vformat(d, fmt, ap);
	va_end(ap);
	b->level = level;
}

void doc_para(struct doc *d, const char *fmt, ...)
{
	struct doc_block *b = push(d, DOC_PARA);
	va_list ap;

	if (!b)
		return;
	va_start(ap, fmt);
	b->text = vformat(d, fmt, ap);
	va_end(ap);
}

void doc_text(struct doc *d, const char *text)
{
	struct doc_block *b = text && *text ? push(d, DOC_PARA) : NULL;

	if (b)
		b->text = dup_or_oom(d, text);
}

void doc_code(struct doc *d, const char *text)
{
	struct doc_block *b = push(d, DOC_CODE);

	if (b)
		b->text = dup_or_oom(d, text);
}

void doc_image(struct doc *d, const char *svg_path, const char *caption)
{
	struct doc_block *b = push(d, DOC_IMAGE);

	if (!b)
		return;
	b->path = dup_or_oom(d, svg_path);
	b->text = dup_or_oom(d, caption);
}

static void mark(struct doc *d, enum doc_kind kind, int open, const char *text)
{
	struct doc_block *b = push(d, kind);

	if (!b)
		return;
	b->level = open;
	b->text = dup_or_oom(d, text);
}

void doc_box_open(struct doc *d, const char *title)
{
	mark(d, DOC_BOX, 1, title);
}

void doc_box_close(struct doc *d)
{
	mark(d, DOC_BOX, 0, "");
}

void doc_details_open(struct doc *d, const char *summary)
{
	mark(d, DOC_DETAILS, 1, summary);
}

void doc_details_shown(struct doc *d, const char *summary)
{
	mark(d, DOC_DETAILS, 2, summary);
}

void doc_details_close(struct doc *d)
{
	mark(d, DOC_DETAILS, 0, "");
}

void doc_line(struct doc *d, const char *text)
{
	struct doc_block *b = d->n ? &d->b[d->n - 1] : NULL;
	char *grown;

	if (!b || b->kind != DOC_LINES)
		b = push(d, DOC_LINES);
	if (!b)
		return;
	if (asprintf(&grown, "%s%s\n", b->text ? b->text : "", text) < 0) {
		d->oom = 1;
		return;
	}
	free(b->text);
	b->text = grown;
}

void doc_only(struct doc *d, unsigned formats)
{
	if (d->n)
		d->b[d->n - 1].in = formats;
}

void doc_table_align(struct doc *d, const char *align, int trim_last)
{
	struct doc_block *b = d->n ? &d->b[d->n - 1] : NULL;

	if (!b || b->kind != DOC_TABLE)
		return;
	free(b->align);
	b->align = dup_or_oom(d, align);
	b->trim_last = trim_last;
}

void doc_table(struct doc *d, size_t ncols, const char *const *heads)
{
	struct doc_block *b = push(d, DOC_TABLE);

	if (!b)
		return;
	b->ncols = ncols;
	doc_row(d, heads);
}

void doc_row(struct doc *d, const char *const *cells)
{
	struct doc_block *b = d->n ? &d->b[d->n - 1] : NULL;
	char **grown;

	if (!b || b->kind != DOC_TABLE)
		return;
	grown = realloc(b->cells, (b->nrows + 1) * b->ncols * sizeof(char *));
	if (!grown) {
		d->oom = 1;
		return;
	}
	b->cells = grown;
	for (size_t c = 0; c < b->ncols; c++)
		b->cells[b->nrows * b->ncols + c] = dup_or_oom(d, cells[c]);
	b->nrows++;
}

void doc_free(struct doc *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->b[i].text);
		free(d->b[i].path);
		for (size_t c = 0; c < d->b[i].nrows * d->b[i].ncols; c++)
			free(d->b[i].cells[c]);
		free(d->b[i].cells);
		free(d->b[i].align);
	}
	free(d->b);
	memset(d, 0, sizeof(*d));
}

/* ---- text ---- */

void doc_wrap(FILE *out, const char *text)
{
	size_t col = 0;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (col && col + 1 + n > WRAP) {
			fputc('\n', out);
			col = 0;
		} else if (col) {
			fputc(' ', out);
			col++;
		}
		fwrite(text, 1, n, out);
		col += n;
		text += n + (text[n] == ' ');
	}
	fputc('\n', out);
}

static void esc(FILE *out, const char *s);

/* Does a cell hold a number (right-aligned)? */
static int numeric(const char *s)
{
	char *end;

	if (!*s || !strcmp(s, "-"))
		return 1;
	strtod(s, &end);
	return end != s && (*end == '\0' || *end == 'x' || *end == '%' || *end == ' ');
}

static void widths(const struct doc_block *b, size_t *w)
{
	for (size_t c = 0; c < b->ncols; c++) {
		w[c] = 0;
		for (size_t r = 0; r < b->nrows; r++) {
			size_t n = strlen(b->cells[r * b->ncols + c]);

			w[c] = n > w[c] ? n : w[c];
		}
	}
}

/* Is column C of a data row right-aligned? By the table's own alignment,
 * else when the cell S holds a number. */
static int right(const struct doc_block *b, size_t c, const char *s)
{
	if (b->align && c < strlen(b->align))
		return b->align[c] == 'r';
	return numeric(s);
}

static void table_text(const struct doc_block *b, FILE *out, int md)
{
	size_t w[b->ncols + 1];

	widths(b, w);
	for (size_t r = 0; r < b->nrows; r++) {
		for (size_t c = 0; c < b->ncols; c++) {
			const char *s = b->cells[r * b->ncols + c];
			int left = r > 0 && !right(b, c, s);

			if (!md && b->trim_last && c + 1 == b->ncols && c > 0)
				fprintf(out, *s ? "  %s" : "", s);
			else
				fprintf(out, md ? "| %*s " : c ? "  %*s" : "%*s", left ? -(int)w[c] : (int)w[c], s);
		}
		fputs(md ? "|\n" : "\n", out);
		for (size_t c = 0; md && r == 0 && c < b->ncols; c++) {
			fputs(c ? "" : "|", out);
			for (size_t k = 0; k < w[c] + 1; k++)
				fputc('-', out);
			fputs(right(b, c, b->nrows > 1 ? b->cells[b->ncols + c] : "") ? ":|" : "-|", out);
		}
		if (md && r == 0)
			fputc('\n', out);
	}
}

static void underline(FILE *out, const char *text, int c)
{
	for (size_t k = strlen(text); k > 0; k--)
		fputc(c, out);
	fputc('\n', out);
}

/* "== TITLE ====...": a rule of WRAP columns, the title in it. */
static void rule(FILE *out, const char *title)
{
	size_t n = *title ? strlen(title) + 4 : 0;

	fputc('\n', out);
	if (*title)
		fprintf(out, "== %s ", title);
	for (; n < WRAP; n++)
		fputc('=', out);
	fputc('\n', out);
}

/* Is block B in FORMAT? */
static int in(const struct doc_block *b, unsigned format)
{
	return !b->in || (b->in & format);
}

/* Each line of B's text with PREFIX before and SUFFIX after (HTML: escaped). */
static void lines_out(const struct doc_block *b, FILE *out, const char *prefix,
		      const char *suffix, int html)
{
	for (const char *p = b->text ? b->text : ""; *p;) {
		size_t n = strcspn(p, "\n");
		char *line = strndup(p, n);

		fputs(prefix, out);
		if (html && line)
			esc(out, line);
		else if (line)
			fputs(line, out);
		fputs(suffix, out);
		free(line);
		p += n + (p[n] == '\n');
	}
}

int doc_text_out(const struct doc *d, FILE *out)
{
	int wrote = 0, boxed = 0;

	for (size_t i = 0; i < d->n; i++) {
		const struct doc_block *b = &d->b[i];

		if (!in(b, DOC_IN_TEXT))
			continue;
		/* a box is dense: its blocks follow one another with no blank line */
		if (boxed && (b->kind == DOC_PARA || b->kind == DOC_CODE)) {
			if (b->kind == DOC_PARA)
				doc_wrap(out, b->text);
			else
				fprintf(out, "%s\n", b->text);
			continue;
		}
		if (boxed && b->kind == DOC_BOX && !b->level) {
			boxed = 0;
			for (size_t k = 0; k < WRAP; k++)
				fputc('=', out);
			fputc('\n', out);
			continue;
		}
		switch (b->kind) {
		case DOC_HEADING:
			fprintf(out, "%s%s\n", wrote ? "\n" : "", b->text);
			if (b->level <= 2)
				for (size_t k = strlen(b->text); k > 0; k--)
					fputc(b->level == 1 ? '=' : '-', out);
			fputs(b->level <= 2 ? "\n" : "", out);
			break;
		case DOC_PARA:
			fputc('\n', out);
			doc_wrap(out, b->text);
			break;
		case DOC_TABLE:
			fputc('\n', out);
			table_text(b, out, 0);
			break;
		case DOC_CODE:
			fprintf(out, "\n%s\n", b->text);
			break;
		case DOC_IMAGE:
			fprintf(out, "\n(plot: %s)\n", b->path);
			break;
		case DOC_BOX:
			rule(out, b->level ? b->text : "");
			boxed = b->level;
			break;
		case DOC_DETAILS:
			if (b->level)
				fprintf(out, "\n%s\n", b->text), underline(out, b->text, '-');
			break;
		case DOC_LINES:
			fputs(wrote ? "\n" : "", out);
			lines_out(b, out, "", "\n", 0);
			break;
		}
		wrote = 1;
	}
	return d->oom ? -ENOMEM : 0;
}

/* ---- Markdown ---- */

int doc_md_out(const struct doc *d, FILE *out)
{
	int wrote = 0;

	for (size_t i = 0; i < d->n; i++) {
		const struct doc_block *b = &d->b[i];
		const char *base;

		if (!in(b, DOC_IN_MD))
			continue;
		switch (b->kind) {
		case DOC_HEADING:
			fprintf(out, "%s%.*s %s\n", wrote ? "\n" : "", b->level, "###", b->text);
			break;
		case DOC_PARA:
			fputc('\n', out);
			if (d->md_wrap)
				doc_wrap(out, b->text);
			else
				fprintf(out, "%s\n", b->text);
			break;
		case DOC_TABLE:
			fputc('\n', out);
			table_text(b, out, 1);
			break;
		case DOC_CODE:
			fprintf(out, "\n```\n%s\n```\n", b->text);
			break;
		case DOC_IMAGE:
			base = strrchr(b->path, '/') ? strrchr(b->path, '/') + 1 : b->path;
			fprintf(out, "\n![%s](%s)\n", b->text, base);
			break;
		case DOC_BOX:
			if (b->level)
				fprintf(out, "\n## %s\n", b->text);
			else
				fputs("\n---\n", out);
			break;
		case DOC_DETAILS:
			if (b->level)
				fprintf(out, "\n## %s\n", b->text);
			break;
		case DOC_LINES:
			fputs(wrote ? "\n" : "", out);
			lines_out(b, out, "- ", "\n", 0);
			break;
		}
		wrote = 1;
	}
	return d->oom ? -ENOMEM : 0;
}

/* ---- HTML ---- */

static void esc(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

/* The <svg ...> element of an SVG file, without the XML prolog and DOCTYPE. */
static int inline_svg(FILE *out, const struct doc_block *b)
{
	char *text = NULL, *start;
	int ret = file_read_all(b->path, SVG_MAX, &text, NULL);

	start = ret == 0 ? strstr(text, "<svg") : NULL;
	fputs("<figure>", out);
	if (start)
		fputs(start, out);
	else {
		fputs("<p class=\"missing\">plot not made: ", out);
		esc(out, b->path);
		fputs("</p>", out);
	}
	fputs("<figcaption>", out);
	esc(out, b->text);
	fputs("</figcaption></figure>\n", out);
	free(text);
	return start ? 0 : -ENOENT;
}

static void table_html(const struct doc_block *b, FILE *out)
{
	fputs("<div class=\"scroll\"><table>\n", out);
	for (size_t r = 0; r < b->nrows; r++) {
		fputs("<tr>", out);
		for (size_t c = 0; c < b->ncols; c++) {
			const char *s = b->cells[r * b->ncols + c];

			fputs(r == 0 ? "<th>" : numeric(s) ? "<td class=\"n\">" : "<td>", out);
			esc(out, s);
			fputs(r == 0 ? "</th>" : "</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table></div>\n", out);
}

static const char style[] =
	"body{font:15px/1.45 system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em;color:#222}"
	"h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:1em 0;font-size:13px}"
	"th,td{border:1px solid #ccc;padding:.25em .6em}th{background:#f2f2f2}td.n{text-align:right;"
	"font-variant-numeric:tabular-nums}pre{background:#f6f6f6;padding:.8em;overflow-x:auto}"
	"figure{margin:1em 0}figure svg{max-width:100%;height:auto}figcaption{color:#555;font-size:13px}"
	".missing{color:#a00}.scroll{overflow-x:auto;max-width:100%}.scroll table{margin:.5em 0}"
	".scroll td,.scroll th{white-space:nowrap}"
	"pre{white-space:pre-wrap;overflow-wrap:anywhere}"
	".verdict{border:2px solid #2a6;border-radius:6px;padding:.2em 1em .6em;margin:1em 0;background:#f6fbf7}"
	".verdict h2{margin-top:.4em;border:0}"
	"details{margin:.6em 0;border-top:1px solid #ddd;padding-top:.3em}"
	"summary{cursor:pointer;font-weight:600;font-size:1.1em;padding:.2em 0}"
	"@media (max-width:600px){body{margin:.5em auto;padding:0 .6em}h1{font-size:1.3em}}";

int doc_html_out(const struct doc *d, const char *title, FILE *out)
{
	for (size_t i = 0; !title && i < d->n; i++)
		if (d->b[i].kind == DOC_HEADING && d->b[i].level == 1)
			title = d->b[i].text;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", out);
	esc(out, title ? title : "eicbench");
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
	for (size_t i = 0; i < d->n; i++) {
		const struct doc_block *b = &d->b[i];

		if (!in(b, DOC_IN_HTML))
			continue;
		switch (b->kind) {
		case DOC_HEADING:
			fprintf(out, "<h%d>", b->level);
			esc(out, b->text);
			fprintf(out, "</h%d>\n", b->level);
			break;
		case DOC_PARA:
			fputs("<p>", out);
			esc(out, b->text);
			fputs("</p>\n", out);
			break;
		case DOC_TABLE:
			table_html(b, out);
			break;
		case DOC_CODE:
			fputs("<pre>", out);
			esc(out, b->text);
			fputs("</pre>\n", out);
			break;
		case DOC_IMAGE:
			inline_svg(out, b);
			break;
		case DOC_BOX:
			if (b->level) {
				fputs("<section class=\"verdict\" id=\"verdict\">\n<h2>", out);
				esc(out, b->text);
				fputs("</h2>\n", out);
			} else
				fputs("</section>\n", out);
			break;
		case DOC_DETAILS:
			if (b->level) {
				fputs(b->level == 2 ? "<details open>\n<summary>" : "<details>\n<summary>", out);
				esc(out, b->text);
				fputs("</summary>\n", out);
			} else
				fputs("</details>\n", out);
			break;
		case DOC_LINES:
			lines_out(b, out, "<p>", "</p>\n", 1);
			break;
		}
	}
	fputs("</body>\n</html>\n", out);
	return d->oom ? -ENOMEM : 0;
}

const char *doc_num(char *buf, size_t len, const char *fmt, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
	return buf;
}
