/*
 * fs: the passthrough of the emulated device, on libfuse's low-level API.
 * Each inode the kernel knows is a node holding an O_PATH descriptor of
 * the backing file, found again by (device, inode) so hard links and
 * repeated lookups share one; the kernel's lookup count frees it. Files
 * are opened on the backing side without O_DIRECT (the kernel does direct
 * I/O on its side; the backing file system's cache may serve the backing
 * reads, which only shows when the backing disk is slower than the model).
 * What a caller creates is given its uid and gid. Reads go through
 * serve.c, the .eicbench folder through ctl.c; everything else passes.
 */
#include "io/emulate/emu_priv.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#include <unistd.h>

#include "io/rng.h"

#define ATTR_TIMEOUT_S 5.0

static struct emu *emu_of(fuse_req_t req)
{
	return fuse_req_userdata(req);
}

struct node *emu_node(struct emu *e, fuse_ino_t ino)
{
	return ino == FUSE_ROOT_ID ? &e->root : (struct node *)(uintptr_t)ino;
}

static fuse_ino_t ino_of(struct emu *e, struct node *n)
{
	return n == &e->root ? FUSE_ROOT_ID : (fuse_ino_t)(uintptr_t)n;
}

static size_t bucket_of(ino_t ino, dev_t dev)
{
	return (size_t)(rng_mix64((uint64_t)ino ^ ((uint64_t)dev << 40)) % NODE_BUCKETS);
}

/* The node of (ST's device, inode), made from FD when new (FD is then
 * kept; otherwise closed); its lookup count raised. */
static struct node *node_get(struct emu *e, int fd, const struct stat *st)
{
	size_t b = bucket_of(st->st_ino, st->st_dev);
	struct node *n;

	pthread_mutex_lock(&e->nodes_lock);
	for (n = e->buckets[b]; n; n = n->next)
		if (n->ino == st->st_ino && n->dev == st->st_dev)
			break;
	if (n) {
		close(fd);
	} else if ((n = calloc(1, sizeof(*n))) != NULL) {
		n->fd = fd, n->ino = st->st_ino, n->dev = st->st_dev;
		n->key = rng_mix64((uint64_t)st->st_ino);
		n->next = e->buckets[b];
		e->buckets[b] = n;
	} else
		close(fd);
	if (n)
		n->nlookup++;
	pthread_mutex_unlock(&e->nodes_lock);
	return n;
}

static void node_forget(struct emu *e, struct node *n, uint64_t count)
{
	struct node **p;

	if (n == &e->root || n->kind != NODE_FILE)
		return;
	pthread_mutex_lock(&e->nodes_lock);
	n->nlookup = n->nlookup > count ? n->nlookup - count : 0;
	if (n->nlookup == 0) {
		for (p = &e->buckets[bucket_of(n->ino, n->dev)]; *p && *p != n; p = &(*p)->next)
			;
		if (*p)
			*p = n->next;
		close(n->fd);
		free(n);
	}
	pthread_mutex_unlock(&e->nodes_lock);
}

/* Look NAME up under PARENT into OUT: 0 or an errno. */
static int do_lookup(struct emu *e, struct node *parent, const char *name,
		     struct fuse_entry_param *out)
{
	struct node *n;
	int fd, saved;

	memset(out, 0, sizeof(*out));
	out->attr_timeout = out->entry_timeout = ATTR_TIMEOUT_S;
	if (ctl_lookup(e, parent, name, out))
		return 0;
	fd = openat(parent->fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (fstatat(fd, "", &out->attr, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0) {
		saved = errno;
		close(fd);
		return saved;
	}
	n = node_get(e, fd, &out->attr);
	if (!n)
		return ENOMEM;
	out->ino = ino_of(e, n);
	return 0;
}

static void reply_entry(fuse_req_t req, struct emu *e, struct node *parent, const char *name)
{
	struct fuse_entry_param ep;
	int err = do_lookup(e, parent, name, &ep);

	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_entry(req, &ep);
}

static void op_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct emu *e = emu_of(req);
	struct node *p = emu_node(e, parent);

	if (p->kind != NODE_FILE && p->kind != NODE_CTL_DIR) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	reply_entry(req, e, p, name);
}

static void op_forget(fuse_req_t req, fuse_ino_t ino, uint64_t nlookup)
{
	struct emu *e = emu_of(req);

	node_forget(e, emu_node(e, ino), nlookup);
	fuse_reply_none(req);
}

static void op_forget_multi(fuse_req_t req, size_t count, struct fuse_forget_data *f)
{
	struct emu *e = emu_of(req);

	for (size_t i = 0; i < count; i++)
		node_forget(e, emu_node(e, f[i].ino), f[i].nlookup);
	fuse_reply_none(req);
}

static void op_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct emu *e = emu_of(req);
	struct node *n = emu_node(e, ino);
	struct stat st;

	(void)fi;
	if (n->kind != NODE_FILE)
		ctl_attr(e, n, &st);
	else if (fstatat(n->fd, "", &st, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	fuse_reply_attr(req, &st, ATTR_TIMEOUT_S);
}

/* /proc/self/fd/N of an O_PATH descriptor, to reach calls without *at(). */
static void proc_path(int fd, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
}

static int set_times(struct node *n, const struct stat *attr, int to_set,
		     struct fuse_file_info *fi)
{
	struct timespec tv[2] = { { .tv_nsec = UTIME_OMIT }, { .tv_nsec = UTIME_OMIT } };
	char path[64];

	if (to_set & FUSE_SET_ATTR_ATIME_NOW)
		tv[0].tv_nsec = UTIME_NOW;
	else if (to_set & FUSE_SET_ATTR_ATIME)
		tv[0] = attr->st_atim;
	if (to_set & FUSE_SET_ATTR_MTIME_NOW)
		tv[1].tv_nsec = UTIME_NOW;
	else if (to_set & FUSE_SET_ATTR_MTIME)
		tv[1] = attr->st_mtim;
	if (fi)
		return futimens((int)fi->fh, tv);
	proc_path(n->fd, path, sizeof(path));
	return utimensat(AT_FDCWD, path, tv, 0);
}

static int set_attrs(struct node *n, const struct stat *attr, int to_set,
		     struct fuse_file_info *fi)
{
	char path[64];
	int rc = 0;

	proc_path(n->fd, path, sizeof(path));
	if (to_set & FUSE_SET_ATTR_MODE)
		rc = fi ? fchmod((int)fi->fh, attr->st_mode) : chmod(path, attr->st_mode);
	if (rc == 0 && (to_set & (FUSE_SET_ATTR_UID | FUSE_SET_ATTR_GID)))
		rc = fchownat(n->fd, "", (to_set & FUSE_SET_ATTR_UID) ? attr->st_uid : (uid_t)-1,
			      (to_set & FUSE_SET_ATTR_GID) ? attr->st_gid : (gid_t)-1,
			      AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	if (rc == 0 && (to_set & FUSE_SET_ATTR_SIZE))
		rc = fi ? ftruncate((int)fi->fh, attr->st_size) : truncate(path, attr->st_size);
	if (rc == 0 && (to_set & (FUSE_SET_ATTR_ATIME | FUSE_SET_ATTR_MTIME |
				  FUSE_SET_ATTR_ATIME_NOW | FUSE_SET_ATTR_MTIME_NOW)))
		rc = set_times(n, attr, to_set, fi);
	return rc < 0 ? errno : 0;
}

static void op_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
		       struct fuse_file_info *fi)
{
	struct emu *e = emu_of(req);
	struct node *n = emu_node(e, ino);
	int err = n->kind == NODE_FILE ? set_attrs(n, attr, to_set, fi) : EPERM;

	if (err)
		fuse_reply_err(req, err);
	else
		op_getattr(req, ino, fi);
}

static void op_readlink(fuse_req_t req, fuse_ino_t ino)
{
	struct node *n = emu_node(emu_of(req), ino);
	char buf[PATH_MAX + 1];
	ssize_t len = n->kind == NODE_FILE ? readlinkat(n->fd, "", buf, sizeof(buf)) : -1;

	if (len < 0 || (size_t)len >= sizeof(buf)) {
		fuse_reply_err(req, len < 0 ? (n->kind == NODE_FILE ? errno : EINVAL) : ENAMETOOLONG);
		return;
	}
	buf[len] = '\0';
	fuse_reply_readlink(req, buf);
}

/* What a caller makes is theirs, as on a local file system. */
static void give_to_caller(fuse_req_t req, int dirfd, const char *name)
{
	const struct fuse_ctx *ctx = fuse_req_ctx(req);

	if (geteuid() == 0)
		(void)fchownat(dirfd, name, ctx->uid, ctx->gid, AT_SYMLINK_NOFOLLOW);
}

/* The node PARENT may hold new entries: not the .eicbench folder. */
static struct node *writable_dir(fuse_req_t req, fuse_ino_t parent)
{
	struct node *p = emu_node(emu_of(req), parent);

	if (p->kind != NODE_FILE) {
		fuse_reply_err(req, EPERM);
		return NULL;
	}
	return p;
}

static void after_make(fuse_req_t req, struct node *p, const char *name, int rc)
{
	if (rc < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	give_to_caller(req, p->fd, name);
	reply_entry(req, emu_of(req), p, name);
}

static void op_mknod(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode, dev_t rdev)
{
	struct node *p = writable_dir(req, parent);

	if (p)
		after_make(req, p, name, mknodat(p->fd, name, mode, rdev));
}

static void op_mkdir(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode)
{
	struct node *p = writable_dir(req, parent);

	if (p)
		after_make(req, p, name, mkdirat(p->fd, name, mode));
}

static void op_symlink(fuse_req_t req, const char *link, fuse_ino_t parent, const char *name)
{
	struct node *p = writable_dir(req, parent);

	if (p)
		after_make(req, p, name, symlinkat(link, p->fd, name));
}

static void op_link(fuse_req_t req, fuse_ino_t ino, fuse_ino_t parent, const char *name)
{
	struct node *n = emu_node(emu_of(req), ino), *p = writable_dir(req, parent);
	char path[64];

	if (!p)
		return;
	proc_path(n->fd, path, sizeof(path));
	if (n->kind != NODE_FILE || linkat(AT_FDCWD, path, p->fd, name, AT_SYMLINK_FOLLOW) < 0) {
		fuse_reply_err(req, n->kind != NODE_FILE ? EPERM : errno);
		return;
	}
	reply_entry(req, emu_of(req), p, name);
}

static void op_unlink(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct node *p = writable_dir(req, parent);

	if (p)
		fuse_reply_err(req, unlinkat(p->fd, name, 0) < 0 ? errno : 0);
}

static void op_rmdir(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct node *p = writable_dir(req, parent);

	if (p)
		fuse_reply_err(req, unlinkat(p->fd, name, AT_REMOVEDIR) < 0 ? errno : 0);
}

static void op_rename(fuse_req_t req, fuse_ino_t parent, const char *name,
		      fuse_ino_t newparent, const char *newname, unsigned int flags)
{
	struct node *p = writable_dir(req, parent), *np;

	if (!p || !(np = writable_dir(req, newparent)))
		return;
	fuse_reply_err(req, renameat2(p->fd, name, np->fd, newname, flags) < 0 ? errno : 0);
}

/* Open flags for the backing file: the kernel did O_CREAT, O_EXCL and
 * O_DIRECT on its side. */
static int backing_flags(int flags)
{
	return (flags & ~(O_CREAT | O_EXCL | O_NOCTTY | O_NOFOLLOW | O_DIRECT)) | O_CLOEXEC;
}

static void op_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct emu *e = emu_of(req);
	struct node *n = emu_node(e, ino);
	char path[64];
	int fd;

	if (n->kind != NODE_FILE) {
		ctl_open(e, req, n, fi);
		return;
	}
	proc_path(n->fd, path, sizeof(path));
	fd = open(path, backing_flags(fi->flags));
	if (fd < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	fi->fh = (uint64_t)fd;
	fi->keep_cache = 1;	/* nothing changes the backing files behind the mount */
	fuse_reply_open(req, fi);
}

static void op_create(fuse_req_t req, fuse_ino_t parent, const char *name, mode_t mode,
		      struct fuse_file_info *fi)
{
	struct node *p = writable_dir(req, parent);
	struct fuse_entry_param ep;
	int fd, err;

	if (!p)
		return;
	fd = openat(p->fd, name, backing_flags(fi->flags) | O_CREAT | (fi->flags & O_EXCL), mode);
	if (fd < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	give_to_caller(req, p->fd, name);
	err = do_lookup(emu_of(req), p, name, &ep);
	if (err) {
		close(fd);
		fuse_reply_err(req, err);
		return;
	}
	fi->fh = (uint64_t)fd;
	fi->keep_cache = 1;
	fuse_reply_create(req, &ep, fi);
}

/* A worker that reads for the model runs at real-time priority when the
 * emulator does, so a busy machine delays the model's requests less. */
static void worker_priority(struct emu *e)
{
	static __thread bool done;
	struct sched_param sp = { .sched_priority = 1 };

	if (done || !e->cfg->realtime)
		return;
	done = true;
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
}

static void op_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		    struct fuse_file_info *fi)
{
	struct emu *e = emu_of(req);
	struct node *n = emu_node(e, ino);

	worker_priority(e);
	if (n->kind != NODE_FILE)
		ctl_read(req, fi, size, off);
	else
		serve_read(e, req, (int)fi->fh, n->key, size, off);
}

static void op_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size,
		     off_t off, struct fuse_file_info *fi)
{
	ssize_t n = pwrite((int)fi->fh, buf, size, off);

	(void)ino;
	if (n < 0) {
		fuse_reply_err(req, errno);
		return;
	}
	serve_write(emu_of(req), (uint64_t)n);
	fuse_reply_write(req, (size_t)n);
}

static void op_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino, (void)fi;
	fuse_reply_err(req, 0);
}

static void op_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct node *n = emu_node(emu_of(req), ino);

	if (n->kind != NODE_FILE)
		ctl_release(fi);
	else
		close((int)fi->fh);
	fuse_reply_err(req, 0);
}

static void op_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	int rc = datasync ? fdatasync((int)fi->fh) : fsync((int)fi->fh);

	(void)ino;
	fuse_reply_err(req, rc < 0 ? errno : 0);
}

static void op_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off, off_t len,
			 struct fuse_file_info *fi)
{
	(void)ino;
	fuse_reply_err(req, fallocate((int)fi->fh, mode, off, len) < 0 ? errno : 0);
}

/* ---- folders ---- */

struct dirp {
	DIR           *dp;
	struct dirent *entry;       /* read and not yet handed out */
	off_t          offset;
};

static void op_opendir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct node *n = emu_node(emu_of(req), ino);
	struct dirp *d;
	int fd;

	fi->fh = 0;
	if (n->kind == NODE_CTL_DIR) {
		fuse_reply_open(req, fi);
		return;
	}
	d = calloc(1, sizeof(*d));
	fd = d ? openat(n->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (fd < 0 || !(d->dp = fdopendir(fd))) {
		int err = d ? errno : ENOMEM;

		if (fd >= 0)
			close(fd);
		free(d);
		fuse_reply_err(req, err);
		return;
	}
	fi->fh = (uint64_t)(uintptr_t)d;
	fuse_reply_open(req, fi);
}

/* Entries of D from OFF into BUF, as many as fit: the length filled. */
static size_t fill_dir(fuse_req_t req, struct dirp *d, char *buf, size_t size, off_t off)
{
	size_t used = 0;

	if (off != d->offset) {
		seekdir(d->dp, off);
		d->entry = NULL;
		d->offset = off;
	}
	for (;;) {
		struct stat st = { 0 };
		size_t len;

		if (!d->entry && !(d->entry = readdir(d->dp)))
			break;
		st.st_ino = d->entry->d_ino;
		st.st_mode = (mode_t)d->entry->d_type << 12;
		len = fuse_add_direntry(req, buf + used, size - used, d->entry->d_name, &st,
					d->entry->d_off);
		if (len > size - used)
			break;
		used += len;
		d->offset = d->entry->d_off;
		d->entry = NULL;
	}
	return used;
}

static void op_readdir(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	struct node *n = emu_node(emu_of(req), ino);
	struct dirp *d = (struct dirp *)(uintptr_t)fi->fh;
	char *buf;

	if (n->kind == NODE_CTL_DIR) {
		ctl_readdir(req, n, size, off);
		return;
	}
	if (!(buf = malloc(size))) {
		fuse_reply_err(req, ENOMEM);
		return;
	}
	errno = 0;
	size = fill_dir(req, d, buf, size, off);
	if (size == 0 && errno)
		fuse_reply_err(req, errno);
	else
		fuse_reply_buf(req, buf, size);
	free(buf);
}

static void op_releasedir(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct dirp *d = (struct dirp *)(uintptr_t)fi->fh;

	(void)ino;
	if (d) {
		closedir(d->dp);
		free(d);
	}
	fuse_reply_err(req, 0);
}

static void op_fsyncdir(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	struct dirp *d = (struct dirp *)(uintptr_t)fi->fh;
	int rc = 0;

	(void)ino;
	if (d)
		rc = datasync ? fdatasync(dirfd(d->dp)) : fsync(dirfd(d->dp));
	fuse_reply_err(req, rc < 0 ? errno : 0);
}

static void op_statfs(fuse_req_t req, fuse_ino_t ino)
{
	struct statvfs sv;

	(void)ino;
	if (fstatvfs(emu_of(req)->root.fd, &sv) < 0)
		fuse_reply_err(req, errno);
	else
		fuse_reply_statfs(req, &sv);
}

/* ---- the session ---- */

static void op_init(void *userdata, struct fuse_conn_info *conn)
{
	struct emu *e = userdata;
	unsigned bg = emulate_max_background(&e->cfg->model);

	conn->max_background = bg;
	conn->congestion_threshold = bg;
	conn->max_readahead = (unsigned)e->cfg->read_ahead_bytes;
	conn->want |= conn->capable & (FUSE_CAP_ASYNC_READ | FUSE_CAP_ASYNC_DIO);
	conn->want &= ~(unsigned)(FUSE_CAP_SPLICE_READ | FUSE_CAP_SPLICE_WRITE | FUSE_CAP_SPLICE_MOVE |
				  FUSE_CAP_WRITEBACK_CACHE | FUSE_CAP_AUTO_INVAL_DATA);
	pthread_mutex_lock(&e->lock);
	e->initialized = true;
	pthread_mutex_unlock(&e->lock);
}

const struct fuse_lowlevel_ops emu_ops = {
	.init = op_init,
	.lookup = op_lookup,
	.forget = op_forget,
	.forget_multi = op_forget_multi,
	.getattr = op_getattr,
	.setattr = op_setattr,
	.readlink = op_readlink,
	.mknod = op_mknod,
	.mkdir = op_mkdir,
	.symlink = op_symlink,
	.link = op_link,
	.unlink = op_unlink,
	.rmdir = op_rmdir,
	.rename = op_rename,
	.open = op_open,
	.create = op_create,
	.read = op_read,
	.write = op_write,
	.flush = op_flush,
	.release = op_release,
	.fsync = op_fsync,
	.fallocate = op_fallocate,
	.opendir = op_opendir,
	.readdir = op_readdir,
	.releasedir = op_releasedir,
	.fsyncdir = op_fsyncdir,
	.statfs = op_statfs,
};
