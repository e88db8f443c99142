/*
 * emu_priv: what the emulator's parts share (not for use outside
 * io/emulate/): the running emulator, its inode table, the pending
 * replies, and the entry points of fs.c (the passthrough), ctl.c (the
 * .eicbench folder) and serve.c (reads through the model). One lock
 * guards the model, the counters and the pending replies; another the
 * inode table.
 */
#ifndef IO_EMULATE_EMU_PRIV_H
#define IO_EMULATE_EMU_PRIV_H

#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "io/emulate/counters.h"
#include "io/emulate/emulate.h"
#include "io/emulate/model.h"

enum node_kind { NODE_FILE = 0, NODE_CTL_DIR, NODE_CTL_DISKSTATS, NODE_CTL_MODEL_LINE,
		 NODE_CTL_QUEUE, NODE_CTL_MODEL, NODE_CTL_COUNTERS };

#define CTL_NODES 6                  /* the folder and its five files */

struct node {
	struct node   *next;         /* in its hash chain */
	int            fd;           /* O_PATH, for the *at() calls */
	ino_t          ino;
	dev_t          dev;
	uint64_t       nlookup;
	uint64_t       key;          /* where its stripes start */
	enum node_kind kind;
};

/* One event of the completion queue: a member done, or a reply due. */
struct event {
	uint64_t        due_ns;
	uint64_t        arrived_ns;
	int             member;      /* -1: the reply */
	struct pending *p;           /* the reply's; NULL for a member */
};

struct pending {
	fuse_req_t req;
	char      *buf;
	size_t     len;
	int        err;              /* errno to answer with, or 0 */
};

#define NODE_BUCKETS 4096

struct emu {
	const struct emulate_cfg *cfg;
	struct fuse_session *se;
	struct node     root;
	struct node     ctl[CTL_NODES];
	pthread_mutex_t nodes_lock;
	struct node    *buckets[NODE_BUCKETS];
	/* the model, the counters and the queue, under lock */
	pthread_mutex_t lock;
	pthread_cond_t  wake;
	struct model    model;
	struct counters counters;
	struct event   *heap;
	size_t          nheap, capheap;
	bool            stopping;
	pthread_t       completer;
	bool            completer_started;
	bool            initialized; /* the kernel's INIT was answered */
	char           *model_text;  /* model.json, as served */
	char           *model_line;  /* "model": one line */
	bool            ready_said;  /* the --daemon parent was told */
};

/* fs.c */
extern const struct fuse_lowlevel_ops emu_ops;
struct node *emu_node(struct emu *e, fuse_ino_t ino);

/* ctl.c: the .eicbench folder */
void ctl_setup(struct emu *e);
bool ctl_lookup(struct emu *e, struct node *parent, const char *name, struct fuse_entry_param *out);
void ctl_attr(struct emu *e, const struct node *n, struct stat *st);
void ctl_open(struct emu *e, fuse_req_t req, struct node *n, struct fuse_file_info *fi);
void ctl_read(fuse_req_t req, struct fuse_file_info *fi, size_t size, off_t off);
void ctl_release(struct fuse_file_info *fi);
void ctl_readdir(fuse_req_t req, struct node *n, size_t size, off_t off);
/* The counters as JSON text, settled to now (malloc'd). */
char *ctl_counters_text(struct emu *e);

/* serve.c */
int  serve_start(struct emu *e);
void serve_stop(struct emu *e);
void serve_read(struct emu *e, fuse_req_t req, int fd, uint64_t key, size_t size, off_t off);
void serve_write(struct emu *e, uint64_t bytes);

#endif
