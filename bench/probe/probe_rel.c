/*
 * probe_rel: the relation form of a probe; see probe_rel.h.
 */
#include "bench/probe/probe_rel.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/cli/progress.h"
#include "bench/cli/redact.h"
#include "bench/dataset/query.h"
#include "bench/observe/relblocks.h"
#include "bench/pg/cluster.h"
#include "bench/probe/probe_cache.h"

struct rel_run {
	struct server    srv;
	struct relblocks rb;
	struct query     q;              /* the query as given */
	char            *block_query;    /* its rewrite */
	char             pattern[PATH_MAX + 64];
	json_t          *meta;
};

/* The heap blocks the query's rows live on. */
static int ask_blocks(PGconn *c, const struct probe_cfg *o, struct rel_run *r,
		      char *err, size_t len)
{
	struct progress bar;
	int rc = relblocks_rewrite(r->q.text, o->relation, &r->block_query, err, len);

	if (rc < 0)
		return rc;
	progress_init(&bar, stderr);
	progress_update(&bar, "blocks: asking the server which heap blocks the query reads", 0, 0, "");
	rc = relblocks_fetch(c, r->block_query, &r->rb, err, len);
	progress_end(&bar);
	return rc;
}

/* The segments and the server's facts, and the query's blocks unless the
 * check or a pattern reads the whole relation; disconnects. */
static int rel_ask(const struct probe_cfg *o, bool whole, struct rel_run *r,
		   char *err, size_t len)
{
	PGconn *c;
	int rc = whole ? 0 : query_load(o->query, &r->q, err, len);

	if (rc == 0)
		rc = cluster_take(&o->srv, &r->srv, CLUSTER_START | CLUSTER_RECOVER, "probe", err, len);
	if (rc < 0)
		return rc;
	if (!(c = server_connect(&r->srv, NULL, err, len)))
		return -EIO;
	/* The relation first: "no such relation" says more than a mismatch. */
	rc = relblocks_lookup(c, o->relation, r->srv.external ? NULL : r->srv.datadir, &r->rb, err, len);
	if (rc == 0 && !whole)
		rc = ask_blocks(c, o, r, err, len);
	PQfinish(c);
	return rc;
}

static json_t *server_json(const struct rel_run *r)
{
	char dsn[1024] = "";

	if (r->srv.external)
		redact_dsn(r->srv.dsn, dsn, sizeof(dsn));
	return json_pack("{s:s, s:b, s:s?, s:s?}", "version", r->rb.server_version,
			 "managed", !r->srv.external, "datadir", r->srv.external ? NULL : r->srv.datadir,
			 "dsn", r->srv.external ? dsn : NULL);
}

static json_t *rel_meta(const struct probe_cfg *o, const struct rel_run *r, bool whole)
{
	const struct relblocks *rb = &r->rb;

	if (whole)
		return json_pack("{s:{s:s, s:I, s:s, s:I}, s:o}",
			"relation", "name", o->relation, "oid", (json_int_t)rb->oid, "segment_base", rb->base,
			"relation_blocks", (json_int_t)rb->relation_blocks, "server", server_json(r));
	return json_pack("{s:{s:s, s:I, s:s, s:I, s:I, s:f, s:{s:s, s:s, s:s}, s:f}, s:o}",
		"relation", "name", o->relation, "oid", (json_int_t)rb->oid, "segment_base", rb->base,
		"blocks", (json_int_t)rb->nblocks, "relation_blocks", (json_int_t)rb->relation_blocks,
		"fraction_visited", rb->relation_blocks ? (double)rb->nblocks / (double)rb->relation_blocks : 0.0,
		"query", "name", o->query, "text", r->q.text, "block_query", r->block_query,
		"query_s", rb->query_s, "server", server_json(r));
}

static int rel_plan(const struct probe_cfg *o, struct rel_run *r, struct probe_plan *p,
		    char *err, size_t len)
{
	const struct relblocks *rb = &r->rb;

	if (o->bs && o->bs != rb->block_bytes) {
		snprintf(err, len, "--bs: %" PRIu64 " is not the server's block_size %u; the relation form reads heap blocks, so leave --bs out",
			 o->bs, rb->block_bytes);
		return -EINVAL;
	}
	p->paths = (const char *const *)rb->segments;
	p->npaths = rb->nsegments;
	p->block_bytes = rb->block_bytes;
	if (!p->cache_check && probe_plan_check_buffers(p, err, len) < 0)
		return -EINVAL;
	if (!(r->meta = rel_meta(o, r, p->cache_check || o->pattern)))
		return -ENOMEM;
	p->meta_extra = r->meta;
	if (p->cache_check) {
		p->pattern = "cache-check";
		return 0;
	}
	if (o->pattern) {	/* the relation's own blocks, random or in order */
		snprintf(r->pattern, sizeof(r->pattern), "relation:%s:%s", o->relation, o->pattern);
		p->pattern = r->pattern;
		return 0;
	}
	snprintf(r->pattern, sizeof(r->pattern), "relation:%s:%s", o->relation, o->query);
	p->pattern = r->pattern;
	p->kind = BLOCKS_REPLAY;
	p->list = rb->blocks;
	p->list_len = rb->nblocks;
	fprintf(stderr, "eicbench probe: %s: %zu of %" PRIu64 " heap blocks (%.1f%%) hold the rows of query %s (found in %.1f s); replaying them in ascending order\n",
		o->relation, rb->nblocks, rb->relation_blocks,
		rb->relation_blocks ? 100.0 * (double)rb->nblocks / (double)rb->relation_blocks : 0.0,
		o->query, rb->query_s);
	return 0;
}

int probe_rel_run(const struct probe_cfg *given, struct probe_plan *p, const struct probe_hooks *hooks,
		  int argc, char **argv, struct probe_out *out, char *err, size_t errlen)
{
	struct probe_cfg o = *given;
	struct rel_run r = { 0 };
	int rc;

	if (!o.query && !p->cache_check && !o.pattern)
		o.query = "blog";
	rc = rel_ask(&o, p->cache_check || o.pattern, &r, err, errlen);
	if (rc == 0)
		rc = rel_plan(&o, &r, p, err, errlen);
	if (rc == 0 && r.srv.external && p->cold && !p->cache_check) {
		/* a server eicbench did not start keeps its page cache */
		p->cold = false;
		fprintf(stderr, "eicbench probe: the files of a --dsn server are not evicted before each point%s\n",
			p->direct ? "" : "; without --direct, reads may come from the page cache");
	}
	if (rc == 0)
		rc = p->cache_check ? probe_cache_files(p, argc, argv, out, err, errlen) :
		     probe_points_run(p, hooks, argc, argv, out, err, errlen);
	p->meta_extra = NULL;
	p->paths = NULL;
	p->npaths = 0;
	p->list = NULL;
	p->pattern = NULL;
	json_decref(r.meta);
	relblocks_free(&r.rb);
	query_free(&r.q);
	free(r.block_query);
	return rc;
}
