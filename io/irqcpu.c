/*
 * irqcpu: a block device's interrupts from sysfs and where they landed;
 * see irqcpu.h.
 */
#include "io/irqcpu.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/file.h"

static const char *root_of(const char *sysroot)
{
	return sysroot && sysroot[0] ? sysroot : "/sys";
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* DIR/msi_irqs's entries, else DIR/irq when not 0. 0, -ENOENT, -E2BIG. */
static int irqs_at(const char *dir, struct irqcpu_irqs *out)
{
	char path[PATH_MAX + 16];
	struct dirent *e;
	DIR *d;
	long v;
	int rc = -ENOENT;

	snprintf(path, sizeof(path), "%s/msi_irqs", dir);
	if ((d = opendir(path))) {
		while ((e = readdir(d))) {
			char *end;

			v = strtol(e->d_name, &end, 10);

			if (end == e->d_name || *end || v <= 0)
				continue;
			if (out->n == IRQCPU_MAX_IRQS) {
				rc = -E2BIG;
				break;
			}
			out->irq[out->n++] = (int)v;
			rc = 0;
		}
		closedir(d);
		if (rc == -E2BIG)
			out->n = 0;
		qsort(out->irq, (size_t)out->n, sizeof(out->irq[0]), cmp_int);
		return rc;
	}
	snprintf(path, sizeof(path), "%s/irq", dir);
	if ((v = file_read_long(path)) > 0) {
		if (out->n == IRQCPU_MAX_IRQS) {
			out->n = 0;
			return -E2BIG;
		}
		out->irq[out->n++] = (int)v;
		rc = 0;
	}
	return rc;
}

int irqcpu_disk_irqs(const char *sysroot, const char *name, struct irqcpu_irqs *out)
{
	memset(out, 0, sizeof(*out));
	return irqcpu_disk_add(sysroot, name, out);
}

int irqcpu_disk_add(const char *sysroot, const char *name, struct irqcpu_irqs *out)
{
	char path[PATH_MAX + 64], blk[PATH_MAX], dev[PATH_MAX], top[PATH_MAX];
	const char *root = root_of(sysroot);
	int rc = -ENOENT;

	if (!name || !name[0] || strchr(name, '/'))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/devices", root);
	if (!realpath(path, top))
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/class/block/%s", root, name);
	if (!realpath(path, blk))
		return -ENOENT;
	/* a partition's device is its disk's, one folder up */
	snprintf(path, sizeof(path), "%s/device", blk);
	if (!realpath(path, dev)) {
		char *slash = strrchr(blk, '/');

		if (!slash)
			return -ENOENT;
		*slash = '\0';
		snprintf(path, sizeof(path), "%s/device", blk);
		if (!realpath(path, dev))
			return -ENOENT;
	}
	/* up from the device to the function holding its interrupts (a
	 * virtio disk's are its PCI function's, one folder above it) */
	while (strlen(dev) > strlen(top) && !strncmp(dev, top, strlen(top))) {
		char *slash;

		if (is_dir(dev) && (rc = irqs_at(dev, out)) != -ENOENT)
			return rc;
		if (!(slash = strrchr(dev, '/')))
			break;
		*slash = '\0';
	}
	return -ENOENT;
}

int irqcpu_parse_add(const char *text, struct irqcpu_counts *out)
{
	const char *p = text;
	int cpu = 0;

	for (;;) {
		char *end;
		unsigned long long v;

		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		v = strtoull(p, &end, 10);
		if (cpu == IRQCPU_MAX_CPUS)
			return -EINVAL;
		out->per_cpu[cpu++] += v;
		p = end;
		if (*p == ',') {
			p++;
			continue;
		}
		while (*p == ' ' || *p == '\n')
			p++;
		if (*p)
			return -EINVAL;
		break;
	}
	if (cpu > out->ncpu)
		out->ncpu = cpu;
	return 0;
}

int irqcpu_read(const char *sysroot, const struct irqcpu_irqs *irqs, struct irqcpu_counts *out)
{
	char path[PATH_MAX], *text;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!irqs->n)
		return -ENOENT;
	for (int i = 0; i < irqs->n && rc == 0; i++) {
		snprintf(path, sizeof(path), "%s/kernel/irq/%d/per_cpu_count", root_of(sysroot), irqs->irq[i]);
		if ((rc = file_read_all(path, 1 << 16, &text, NULL)) == 0) {
			rc = irqcpu_parse_add(text, out);
			free(text);
		}
	}
	return rc;
}

double irqcpu_on_irq_cpu(const struct irqcpu_placement *p)
{
	double total = 0, on = 0;

	if (!p->have_reader || !p->have_irqs)
		return NAN;
	for (int c = 0; c < p->ncpu && c < IRQCPU_MAX_CPUS; c++)
		total += (double)p->irqs[c];
	if (total <= 0)
		return NAN;
	for (int c = 0; c < p->ncpu && c < IRQCPU_MAX_CPUS; c++)
		on += p->share[c] * (double)p->irqs[c] / total;
	return on;
}
