/*
 * ctl: the .eicbench folder at the mount's root, where the emulator
 * publishes itself (io/sysstat.h, SYSSTAT_PUBLISHED_DIR): "diskstats" (the
 * device and its members as /proc/diskstats lines, live), "model" (one
 * line), "queue" (the kernel's limits on the mount, as a disk's queue
 * settings), "model.json" and "counters.json". Each
 * open takes a snapshot that its reads return (files of size 0 opened for
 * direct I/O, as procfs's are read). The folder is found by name, never
 * listed, and cannot be written.
 */
#include "io/emulate/emu_priv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "io/clock.h"

#define CTL_INO_BASE 0x0ec0000000000000ULL
#define MIN_BACKGROUND 64
#define MAX_BACKGROUND 65535

static const char *const ctl_names[CTL_NODES] = { EMULATE_CTL_DIR, "diskstats", "model", "queue", "model.json", "counters.json" };

struct snapshot {
	char  *text;
	size_t len;
};

void ctl_setup(struct emu *e)
{
	for (int i = 0; i < CTL_NODES; i++) {
		e->ctl[i].kind = (enum node_kind)(NODE_CTL_DIR + i);
		e->ctl[i].ino = (ino_t)(CTL_INO_BASE + (uint64_t)i);
		e->ctl[i].fd = -1;
	}
}

static fuse_ino_t ctl_ino(struct emu *e, int i)
{
	return (fuse_ino_t)(uintptr_t)&e->ctl[i];
}

bool ctl_lookup(struct emu *e, struct node *parent, const char *name, struct fuse_entry_param *out)
{
	int first = parent == &e->root ? 0 : parent == &e->ctl[0] ? 1 : -1;
	int last = first == 0 ? 0 : CTL_NODES - 1;

	if (first < 0)
		return false;
	for (int i = first; i <= last; i++)
		if (!strcmp(name, ctl_names[i])) {
			out->ino = ctl_ino(e, i);
			ctl_attr(e, &e->ctl[i], &out->attr);
			return true;
		}
	if (first == 1) {	/* nothing else lives in the folder */
		out->ino = 0;	/* a negative entry: ENOENT, cached */
		return true;
	}
	return false;
}

void ctl_attr(struct emu *e, const struct node *n, struct stat *st)
{
	(void)e;
	memset(st, 0, sizeof(*st));
	st->st_ino = n->ino;
	st->st_mode = n->kind == NODE_CTL_DIR ? S_IFDIR | 0555 : S_IFREG | 0444;
	st->st_nlink = n->kind == NODE_CTL_DIR ? 2 : 1;
	st->st_blksize = 4096;
	clock_gettime(CLOCK_REALTIME, &st->st_mtim);
	st->st_atim = st->st_ctim = st->st_mtim;
}

static char *diskstats_text(struct emu *e)
{
	size_t len = 256 * (MODEL_MAX_MEMBERS + 1);
	char *buf = malloc(len);

	if (!buf)
		return NULL;
	pthread_mutex_lock(&e->lock);
	counters_settle(&e->counters, clock_now_ns());
	counters_diskstats(&e->counters, buf, len);
	pthread_mutex_unlock(&e->lock);
	return buf;
}

/* Room for four times what the device serves at once: the kernel never
 * holds back readahead or advice before the model is full. */
unsigned emulate_max_background(const struct model_cfg *m)
{
	uint64_t want = 4ULL * m->members * m->parallel;

	if (want < MIN_BACKGROUND)
		want = MIN_BACKGROUND;
	return want > MAX_BACKGROUND ? MAX_BACKGROUND : (unsigned)want;
}


/* As a disk's queue would say: requests the kernel queues at most (the
 * background limit), the largest request (libfuse's 1 MiB buffer). */
static char *queue_text(struct emu *e)
{
	char *s;

	if (asprintf(&s, "nr_requests %u\nmax_sectors_kb %u\nlogical_block_size 512\n",
		     emulate_max_background(&e->cfg->model), EMULATE_MAX_REQUEST_KB) < 0)
		return NULL;
	return s;
}

char *ctl_counters_text(struct emu *e)
{
	json_t *j;
	char *text;
	uint64_t now;

	pthread_mutex_lock(&e->lock);
	now = clock_now_ns();
	counters_settle(&e->counters, now);
	j = counters_json(&e->counters, now);
	pthread_mutex_unlock(&e->lock);
	text = json_dumps(j, JSON_INDENT(2));
	json_decref(j);
	return text;
}

void ctl_open(struct emu *e, fuse_req_t req, struct node *n, struct fuse_file_info *fi)
{
	struct snapshot *s;

	if (n->kind == NODE_CTL_DIR) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if ((fi->flags & O_ACCMODE) != O_RDONLY) {
		fuse_reply_err(req, EACCES);
		return;
	}
	if (!(s = calloc(1, sizeof(*s)))) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	s->text = n->kind == NODE_CTL_DISKSTATS ? diskstats_text(e) :
		  n->kind == NODE_CTL_MODEL_LINE ? strdup(e->model_line ? e->model_line : "") :
		  n->kind == NODE_CTL_QUEUE ? queue_text(e) :
		  n->kind == NODE_CTL_MODEL ? strdup(e->model_text ? e->model_text : "{}") :
		  ctl_counters_text(e);
	if (!s->text) {
		free(s);
		fuse_reply_err(req, ENOMEM);
		return;
	}
	s->len = strlen(s->text);
	fi->fh = (uint64_t)(uintptr_t)s;
	fi->direct_io = 1;
	fuse_reply_open(req, fi);
}

void ctl_read(fuse_req_t req, struct fuse_file_info *fi, size_t size, off_t off)
{
	const struct snapshot *s = (const struct snapshot *)(uintptr_t)fi->fh;

	if (off < 0 || (size_t)off >= s->len) {
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	if (size > s->len - (size_t)off)
		size = s->len - (size_t)off;
	fuse_reply_buf(req, s->text + off, size);
}

void ctl_release(struct fuse_file_info *fi)
{
	struct snapshot *s = (struct snapshot *)(uintptr_t)fi->fh;

	if (s)
		free(s->text);
	free(s);
}

void ctl_readdir(fuse_req_t req, struct node *n, size_t size, off_t off)
{
	char buf[1024];
	size_t used = 0;

	(void)n;
	if (size > sizeof(buf))
		size = sizeof(buf);
	for (int i = (int)off; i < CTL_NODES + 1; i++) {
		const char *name = i == 0 ? "." : i == 1 ? ".." : ctl_names[i - 1];
		/* a zero inode number would hide the entry from readdir(3) */
		struct stat st = { .st_mode = i < 2 ? S_IFDIR : S_IFREG,
				   .st_ino = i < 2 ? CTL_INO_BASE : CTL_INO_BASE + (uint64_t)(i - 1) };
		size_t len = fuse_add_direntry(req, buf + used, size - used, name, &st, i + 1);

		if (len > size - used)
			break;
		used += len;
	}
	fuse_reply_buf(req, buf, used);
}
