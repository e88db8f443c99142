/*
 * doc: a small document (headings, paragraphs, tables, code, images) built
 * once from a report's figures and rendered three ways that agree: plain
 * text for the terminal (wrapped at 78 columns), Markdown (report.md), and
 * one self-contained HTML page (report.html: styles inline, every image an
 * SVG file read and embedded, so the page opens from a mail attachment with
 * no other file). Text is kept as given and escaped per format. A block
 * may be kept to some of the renderings (doc_only), a table may fix its
 * columns' alignment (doc_table_align), and a document may wrap its
 * Markdown paragraphs as its text ones (md_wrap).
 */
#ifndef BENCH_REPORT_DOCUMENT_H
#define BENCH_REPORT_DOCUMENT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

enum doc_kind { DOC_HEADING, DOC_PARA, DOC_TABLE, DOC_CODE, DOC_IMAGE, DOC_LINES, DOC_BOX, DOC_DETAILS };

/* The renderings a block appears in (an OR; 0: all). */
enum doc_format { DOC_IN_TEXT = 1, DOC_IN_MD = 2, DOC_IN_HTML = 4 };

struct doc_block {
	enum doc_kind kind;
	int    level;              /* heading: 1, 2, 3; box, details: 1 opens, 0 closes */
	char  *text;               /* heading, paragraph, code; image: its caption;
				    * lines: each ended by '\n' */
	char  *path;               /* image: an SVG file */
	char **cells;              /* table: rows * ncols, row 0 the heading */
	size_t ncols, nrows;
	char  *align;              /* table: 'l' or 'r' per column, or NULL: numbers right */
	int    trim_last;          /* table, in text: the last column unpadded, left out when empty */
	unsigned in;               /* enum doc_format, 0: every rendering */
};

struct doc {
	struct doc_block *b;
	size_t n, cap;
	int    oom;                /* an allocation failed: rendering says so */
	int    md_wrap;            /* Markdown paragraphs wrapped at 78 columns, as in text */
};

void doc_free(struct doc *d);

/* TEXT on OUT wrapped at 78 columns at spaces (a longer word stays whole). */
void doc_wrap(FILE *out, const char *text);

void doc_heading(struct doc *d, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void doc_para(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A paragraph from a finished string (not a format). */
void doc_text(struct doc *d, const char *text);
void doc_code(struct doc *d, const char *text);
void doc_image(struct doc *d, const char *svg_path, const char *caption);

/* A framed box (the verdict) from doc_box_open to doc_box_close: text
 * between two rules, a blockquote-free section in Markdown, a bordered
 * <section> in HTML. TITLE heads it. */
void doc_box_open(struct doc *d, const char *title);
void doc_box_close(struct doc *d);
/* Details under a short heading: a heading in text and Markdown, a
 * collapsed <details> in HTML. */
void doc_details_open(struct doc *d, const char *summary);
void doc_details_close(struct doc *d);
/* The same, open in HTML (<details open>): a section the reader acts on. */
void doc_details_shown(struct doc *d, const char *summary);

/* A line of a list of lines, added to the last block when it is one: each
 * line as it is in text, a "- " item in Markdown, a paragraph in HTML. */
void doc_line(struct doc *d, const char *text);

/* The last block only in FORMATS (an OR of enum doc_format). */
void doc_only(struct doc *d, unsigned formats);

/* The last table's columns aligned as ALIGN says ('l' or 'r' per column;
 * its heading row right-aligned), and with TRIM_LAST its last column
 * unpadded in text, left out with its gap when empty. */
void doc_table_align(struct doc *d, const char *align, int trim_last);

/* A table of NCOLS columns; HEADS the heading row. Then rows of cells. */
void doc_table(struct doc *d, size_t ncols, const char *const *heads);
/* A row of the last table, one cell per column (NULL: empty). */
void doc_row(struct doc *d, const char *const *cells);

/* Render. 0, or -ENOMEM when the document lost a part to a failed
 * allocation. HTML: TITLE in <title> (NULL: the first level-1 heading's
 * text). Text: a box's blocks follow one another with no blank line. */
/* V with FMT into BUF, or "-" when V is not finite; BUF. */
const char *doc_num(char *buf, size_t len, const char *fmt, double v);

int doc_text_out(const struct doc *d, FILE *out);
int doc_md_out(const struct doc *d, FILE *out);
int doc_html_out(const struct doc *d, const char *title, FILE *out);

#endif
