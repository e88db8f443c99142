/*
 * pubdev: the device a file system with no block device under it
 * publishes about itself (io/sysstat.h, SYSSTAT_PUBLISHED_DIR): found from
 * the mount of a device number in /proc/self/mountinfo, named by the first
 * line of its diskstats, its members by the others, its model by the first
 * line of "model"; the readahead is the mount's own (/sys/class/bdi).
 * Read-only; returns 0 or -errno.
 */
#ifndef IO_PUBDEV_H
#define IO_PUBDEV_H

#include <stddef.h>

#include "io/sysstat.h"

/* The published device of the file system on MAJ:MIN into OUT (whose
 * fstype the caller filled): 0, or -ENODEV when it publishes none. */
int pubdev_find(unsigned maj, unsigned min, struct device_info *out);

/* The mount point of MAJ:MIN (its first mount of the file system's root),
 * unescaped, from MOUNTINFO_TEXT: 0, or -ENOENT. */
int pubdev_mount_parse(const char *mountinfo_text, unsigned maj, unsigned min,
		       char *out, size_t len);

#endif
