/*
 * explain: EXPLAIN (ANALYZE, BUFFERS, SETTINGS, FORMAT JSON) text -> struct
 * explain_figures. Walks the whole plan tree through "Plans" once; reads
 * only the keys it knows and leaves the rest alone, so newer versions'
 * additions are harmless and missing keys stay EXPLAIN_ABSENT.
 */
#include "bench/observe/explain.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Node Type -> the has_* flag it sets. */
static const struct {
	const char *type;
	size_t      flag;
} node_flags[] = {
	{ "Seq Scan",          offsetof(struct explain_figures, has_seq_scan) },
	{ "Index Scan",        offsetof(struct explain_figures, has_index_scan) },
	{ "Index Only Scan",   offsetof(struct explain_figures, has_index_only_scan) },
	{ "Bitmap Heap Scan",  offsetof(struct explain_figures, has_bitmap_heap_scan) },
	{ "Bitmap Index Scan", offsetof(struct explain_figures, has_bitmap_index_scan) },
	{ "BitmapOr",          offsetof(struct explain_figures, has_bitmap_or) },
	{ "BitmapAnd",         offsetof(struct explain_figures, has_bitmap_and) },
	{ "Gather",            offsetof(struct explain_figures, has_gather) },
	{ "Gather Merge",      offsetof(struct explain_figures, has_gather) },
};

/* Plan keys -> struct explain_buffers fields. */
static const struct {
	const char *key;
	size_t      off;
} buffer_keys[] = {
	{ "Shared Hit Blocks",     offsetof(struct explain_buffers, shared_hit_blocks) },
	{ "Shared Read Blocks",    offsetof(struct explain_buffers, shared_read_blocks) },
	{ "Shared Dirtied Blocks", offsetof(struct explain_buffers, shared_dirtied_blocks) },
	{ "Shared Written Blocks", offsetof(struct explain_buffers, shared_written_blocks) },
	{ "Temp Read Blocks",      offsetof(struct explain_buffers, temp_read_blocks) },
	{ "Temp Written Blocks",   offsetof(struct explain_buffers, temp_written_blocks) },
};

/* Number under KEY, or EXPLAIN_ABSENT. */
static double num(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : EXPLAIN_ABSENT;
}

static int64_t count(const json_t *obj, const char *key)
{
	return (int64_t)num(obj, key);
}

/* The first of two spellings that is present (newer name first). */
static double num2(const json_t *obj, const char *newer, const char *older)
{
	double v = num(obj, newer);

	return v != EXPLAIN_ABSENT ? v : num(obj, older);
}

static bool has_token(const char *list, const char *tok)
{
	size_t n = strlen(tok);
	const char *p = list;

	while ((p = strstr(p, tok)) != NULL) {
		bool starts = p == list || p[-1] == ',';
		bool ends = p[n] == '\0' || p[n] == ',';

		if (starts && ends)
			return true;
		p += n;
	}
	return false;
}

static void note_type(struct explain_figures *fig, const char *type)
{
	size_t used = strlen(fig->node_types);
	size_t need = strlen(type) + (used ? 1 : 0);

	for (size_t i = 0; i < sizeof(node_flags) / sizeof(node_flags[0]); i++)
		if (strcmp(type, node_flags[i].type) == 0)
			*(bool *)((char *)fig + node_flags[i].flag) = true;
	if (has_token(fig->node_types, type))
		return;
	if (used + need >= sizeof(fig->node_types)) {
		fig->node_types_truncated = true;
		return;
	}
	snprintf(fig->node_types + used, sizeof(fig->node_types) - used,
		 "%s%s", used ? "," : "", type);
}

/* A node's time, blocks and read wait (its children included). */
static void node_phase(const json_t *plan, struct explain_phase *ph)
{
	ph->total_ms = num(plan, "Actual Total Time");
	ph->shared_hit_blocks = count(plan, "Shared Hit Blocks");
	ph->shared_read_blocks = count(plan, "Shared Read Blocks");
	ph->io_read_ms = num2(plan, "Shared I/O Read Time", "I/O Read Time");
}

/* A - B for a figure present in both, else absent. */
static double minus(double a, double b)
{
	return a == EXPLAIN_ABSENT || b == EXPLAIN_ABSENT ? EXPLAIN_ABSENT : a - b;
}

static double plus(double a, double b)
{
	return a == EXPLAIN_ABSENT || b == EXPLAIN_ABSENT ? EXPLAIN_ABSENT : a + b;
}

/*
 * The index phase is the sum of the node's children (the bitmap they build);
 * the heap phase is the node less them. Known only when the node and every
 * child print their time (EXPLAIN ANALYZE with TIMING on).
 */
static void split_phases(struct explain_bitmap *b, const json_t *plan)
{
	struct explain_phase idx = { 0 }, child;
	const json_t *kids = json_object_get(plan, "Plans"), *k;
	size_t i;

	node_phase(plan, &b->node);
	if (!json_is_array(kids) || json_array_size(kids) == 0)
		return;
	json_array_foreach(kids, i, k) {
		node_phase(k, &child);
		idx.total_ms = plus(idx.total_ms, child.total_ms);
		idx.io_read_ms = plus(idx.io_read_ms, child.io_read_ms);
		idx.shared_hit_blocks = (int64_t)plus((double)idx.shared_hit_blocks,
						      (double)child.shared_hit_blocks);
		idx.shared_read_blocks = (int64_t)plus((double)idx.shared_read_blocks,
						       (double)child.shared_read_blocks);
	}
	b->index_phase = idx;
	b->heap_phase.total_ms = minus(b->node.total_ms, idx.total_ms);
	b->heap_phase.io_read_ms = minus(b->node.io_read_ms, idx.io_read_ms);
	b->heap_phase.shared_hit_blocks = (int64_t)minus((double)b->node.shared_hit_blocks,
							 (double)idx.shared_hit_blocks);
	b->heap_phase.shared_read_blocks = (int64_t)minus((double)b->node.shared_read_blocks,
							  (double)idx.shared_read_blocks);
	/* Parallel workers average a node's time over loops; the bitmap is
	 * built once: the two do not subtract. */
	b->phases = b->node.total_ms != EXPLAIN_ABSENT && idx.total_ms != EXPLAIN_ABSENT &&
		    num(plan, "Actual Loops") == 1;
}

/* Under parallel workers: the pages the heap phase read or found, summed
 * over the processes. */
static void parallel_blocks(struct explain_bitmap *b)
{
	const struct explain_phase *h = &b->heap_phase;

	if (!b->parallel_aware || h->shared_hit_blocks == EXPLAIN_ABSENT || h->shared_read_blocks == EXPLAIN_ABSENT)
		return;
	b->exact_heap_blocks = h->shared_hit_blocks + h->shared_read_blocks;
	b->lossy_heap_blocks = 0;
}

/* A Seq Scan as a scan measured: no index phase, the node is the heap phase. */
static void note_seq(struct explain_bitmap *b, const json_t *plan)
{
	if (b->nodes++ > 0)
		return;
	snprintf(b->relation, sizeof(b->relation), "%s",
		 json_string_value(json_object_get(plan, "Relation Name")) ?: "");
	node_phase(plan, &b->node);
	b->present = true;
	b->scan = "Seq Scan";
	b->heap_phase = b->node;
	b->index_phase = (struct explain_phase){ 0, 0, 0, b->node.io_read_ms == EXPLAIN_ABSENT ? EXPLAIN_ABSENT : 0 };
	b->exact_heap_blocks = b->node.shared_hit_blocks == EXPLAIN_ABSENT || b->node.shared_read_blocks == EXPLAIN_ABSENT ?
		EXPLAIN_ABSENT : b->node.shared_hit_blocks + b->node.shared_read_blocks;
	b->lossy_heap_blocks = 0;
	b->actual_rows = num(plan, "Actual Rows");
	b->actual_loops = num(plan, "Actual Loops");
	b->parallel_aware = json_is_true(json_object_get(plan, "Parallel Aware"));
	b->phases = b->node.total_ms != EXPLAIN_ABSENT && b->actual_loops == 1;
}

bool explain_take_seq(struct explain_figures *fig)
{
	if (!fig->seq.present)
		return false;
	fig->bitmap = fig->seq;
	fig->bitmap.other_ms = !fig->bitmap.phases ? EXPLAIN_ABSENT :
		minus(fig->execution_ms, fig->bitmap.node.total_ms);
	return true;
}

static void note_bitmap(struct explain_bitmap *b, const json_t *plan)
{
	if (b->nodes++ > 0)
		return;
	b->scan = "Bitmap Heap Scan";
	snprintf(b->relation, sizeof(b->relation), "%s",
		 json_string_value(json_object_get(plan, "Relation Name")) ?: "");
	split_phases(b, plan);
	b->present = true;
	b->exact_heap_blocks = count(plan, "Exact Heap Blocks");
	b->lossy_heap_blocks = count(plan, "Lossy Heap Blocks");
	b->rows_removed_by_recheck = count(plan, "Rows Removed by Index Recheck");
	b->actual_rows = num(plan, "Actual Rows");
	b->actual_loops = num(plan, "Actual Loops");
	b->parallel_aware = json_is_true(json_object_get(plan, "Parallel Aware"));
	parallel_blocks(b);
}

/* Add a worker count to a sum that starts absent. */
static void add_workers(int *sum, const json_t *plan, const char *key)
{
	double v = num(plan, key);

	if (v == EXPLAIN_ABSENT)
		return;
	*sum = (*sum == EXPLAIN_ABSENT ? 0 : *sum) + (int)v;
}

static void walk(const json_t *plan, struct explain_figures *fig)
{
	const char *type = json_string_value(json_object_get(plan, "Node Type"));
	const json_t *child;
	size_t i;

	if (type) {
		note_type(fig, type);
		if (strcmp(type, "Bitmap Heap Scan") == 0)
			note_bitmap(&fig->bitmap, plan);
		else if (strcmp(type, "Seq Scan") == 0)
			note_seq(&fig->seq, plan);
	}
	add_workers(&fig->workers_planned, plan, "Workers Planned");
	add_workers(&fig->workers_launched, plan, "Workers Launched");
	json_array_foreach(json_object_get(plan, "Plans"), i, child)
		if (json_is_object(child))
			walk(child, fig);
}

static void read_top(const json_t *entry, const json_t *plan,
		     struct explain_figures *fig)
{
	const json_t *settings = json_object_get(entry, "Settings");

	fig->execution_ms = num(entry, "Execution Time");
	fig->planning_ms = num(entry, "Planning Time");
	fig->top_rows = num(plan, "Actual Rows");
	snprintf(fig->top_node, sizeof(fig->top_node), "%s",
		 json_string_value(json_object_get(plan, "Node Type")));
	for (size_t i = 0; i < sizeof(buffer_keys) / sizeof(buffer_keys[0]); i++)
		*(int64_t *)((char *)&fig->buffers + buffer_keys[i].off) =
			count(plan, buffer_keys[i].key);
	fig->io_read_ms = num2(plan, "Shared I/O Read Time", "I/O Read Time");
	fig->io_write_ms = num2(plan, "Shared I/O Write Time", "I/O Write Time");
	fig->temp_io_read_ms = num(plan, "Temp I/O Read Time");
	fig->temp_io_write_ms = num(plan, "Temp I/O Write Time");
	fig->settings = json_is_object(settings) ? json_incref((json_t *)settings) : NULL;
}

static void init_absent(struct explain_figures *fig)
{
	memset(fig, 0, sizeof(*fig));
	fig->execution_ms = fig->planning_ms = fig->top_rows = EXPLAIN_ABSENT;
	fig->io_read_ms = fig->io_write_ms = EXPLAIN_ABSENT;
	fig->temp_io_read_ms = fig->temp_io_write_ms = EXPLAIN_ABSENT;
	fig->workers_planned = fig->workers_launched = EXPLAIN_ABSENT;
	fig->bitmap.exact_heap_blocks = fig->bitmap.lossy_heap_blocks = EXPLAIN_ABSENT;
	fig->bitmap.rows_removed_by_recheck = EXPLAIN_ABSENT;
	fig->bitmap.actual_rows = fig->bitmap.actual_loops = EXPLAIN_ABSENT;
	fig->bitmap.node = (struct explain_phase){ EXPLAIN_ABSENT, EXPLAIN_ABSENT,
		EXPLAIN_ABSENT, EXPLAIN_ABSENT };
	fig->bitmap.index_phase = fig->bitmap.heap_phase = fig->bitmap.node;
	fig->bitmap.other_ms = EXPLAIN_ABSENT;
	fig->seq = fig->bitmap;
}

/* The one statement's object: [ { "Plan": ... } ], or a bare { "Plan": ... }. */
static const json_t *find_entry(const json_t *root)
{
	const json_t *entry = json_is_array(root) ? json_array_get(root, 0) : root;

	if (!json_is_object(entry) || !json_is_object(json_object_get(entry, "Plan")))
		return NULL;
	return entry;
}

int explain_parse(const char *json_text, struct explain_figures *out,
		  char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *root;
	const json_t *entry, *plan;

	init_absent(out);
	root = json_loads(json_text ? json_text : "", JSON_DECODE_ANY, &jerr);
	if (!root) {
		snprintf(err, errlen, "EXPLAIN output is not valid JSON (line %d, column %d): %s",
			 jerr.line, jerr.column, jerr.text);
		return -EINVAL;
	}
	entry = find_entry(root);
	plan = entry ? json_object_get(entry, "Plan") : NULL;
	if (!plan || !json_is_string(json_object_get(plan, "Node Type"))) {
		snprintf(err, errlen, "not EXPLAIN (FORMAT JSON) output: expected [{\"Plan\": {\"Node Type\": ...}}]");
		json_decref(root);
		return -EINVAL;
	}
	read_top(entry, plan, out);
	walk(plan, out);
	out->bitmap.other_ms = !out->bitmap.phases ? EXPLAIN_ABSENT :
		minus(out->execution_ms, out->bitmap.node.total_ms);
	json_decref(root);
	return 0;
}

void explain_free(struct explain_figures *fig)
{
	if (!fig)
		return;
	json_decref(fig->settings);
	fig->settings = NULL;
}

/* A figure for a record: null when absent. */
static json_t *jnum(double v)
{
	return v == EXPLAIN_ABSENT ? json_null() : json_real(v);
}

static json_t *jcount(int64_t v)
{
	return v == EXPLAIN_ABSENT ? json_null() : json_integer(v);
}

static json_t *phase_json(const struct explain_phase *ph)
{
	return json_pack("{s:o, s:o, s:o, s:o}", "total_ms", jnum(ph->total_ms),
			 "shared_hit_blocks", jcount(ph->shared_hit_blocks),
			 "shared_read_blocks", jcount(ph->shared_read_blocks),
			 "io_read_ms", jnum(ph->io_read_ms));
}

static json_t *bitmap_json(const struct explain_bitmap *b)
{
	if (!b->present)
		return json_null();
	return json_pack("{s:s, s:i, s:s, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:o, s:o, s:o, s:b}",
			 "scan", b->scan ? b->scan : "Bitmap Heap Scan", "nodes", b->nodes, "relation", b->relation,
			 "node", phase_json(&b->node),
			 "index_phase", b->phases ? phase_json(&b->index_phase) : json_null(),
			 "heap_phase", b->phases ? phase_json(&b->heap_phase) : json_null(),
			 "other_ms", jnum(b->other_ms),
			 "phases", b->phases,
			 "exact_heap_blocks", jcount(b->exact_heap_blocks),
			 "lossy_heap_blocks", jcount(b->lossy_heap_blocks),
			 "rows_removed_by_recheck", jcount(b->rows_removed_by_recheck),
			 "actual_rows", jnum(b->actual_rows),
			 "actual_loops", jnum(b->actual_loops),
			 "parallel_aware", b->parallel_aware);
}

static json_t *buffers_json(const struct explain_buffers *b)
{
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
			 "shared_hit_blocks", jcount(b->shared_hit_blocks),
			 "shared_read_blocks", jcount(b->shared_read_blocks),
			 "shared_dirtied_blocks", jcount(b->shared_dirtied_blocks),
			 "shared_written_blocks", jcount(b->shared_written_blocks),
			 "temp_read_blocks", jcount(b->temp_read_blocks),
			 "temp_written_blocks", jcount(b->temp_written_blocks));
}

static json_t *flags_json(const struct explain_figures *f)
{
	return json_pack("{s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b}",
			 "seq_scan", f->has_seq_scan,
			 "index_scan", f->has_index_scan,
			 "index_only_scan", f->has_index_only_scan,
			 "bitmap_heap_scan", f->has_bitmap_heap_scan,
			 "bitmap_index_scan", f->has_bitmap_index_scan,
			 "bitmap_or", f->has_bitmap_or,
			 "bitmap_and", f->has_bitmap_and,
			 "gather", f->has_gather);
}

json_t *explain_to_json(const struct explain_figures *f)
{
	json_t *settings = f->settings ? json_deep_copy(f->settings) : json_null();

	return json_pack("{s:o, s:o, s:o, s:s, s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "execution_ms", jnum(f->execution_ms),
			 "planning_ms", jnum(f->planning_ms),
			 "top_rows", jnum(f->top_rows),
			 "top_node", f->top_node,
			 "node_types", f->node_types,
			 "node_types_truncated", f->node_types_truncated,
			 "has", flags_json(f),
			 "bitmap", bitmap_json(&f->bitmap),
			 "buffers", buffers_json(&f->buffers),
			 "io_read_ms", jnum(f->io_read_ms),
			 "io_write_ms", jnum(f->io_write_ms),
			 "temp_io_read_ms", jnum(f->temp_io_read_ms),
			 "temp_io_write_ms", jnum(f->temp_io_write_ms),
			 "workers_planned", jcount(f->workers_planned),
			 "workers_launched", jcount(f->workers_launched),
			 "settings", settings);
}
